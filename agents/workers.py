"""Starting worker processes: one BLAS thread each.

Every worker (arena games, training environments, teacher games) runs on its own core already,
and the only linear algebra in a worker is the numpy actor of a policy, one observation at a
time. OpenBLAS would still start a thread per core in every worker, and on a machine with as
many workers as cores those threads fight: measured on 2 cores with 2 arena workers, a 4-player
policy took 3.8 ms per decision instead of 0.7 ms. The thread count is read from the
environment when a process loads numpy, so it is set while the workers are being started.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

#: Thread-count variables of the BLAS and OpenMP runtimes numpy and torch may load.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def single_threaded_workers() -> Iterator[None]:
    """Processes started inside this block use one BLAS thread (a value the user already set
    in the environment is kept); the parent's environment is restored afterwards."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
