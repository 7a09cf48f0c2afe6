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


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """numpy's BLAS on one thread in this process for the block (threadpoolctl, where
    installed): for a process that runs small numpy forward passes beside other busy work, as
    the training process does for its league's snapshots. Measured on 2 loaded cores: a
    [256, 256] actor on 20 observations took 40-97 ms with OpenBLAS's default threads, 3-5 ms
    with one (snapshot forwards were 54% of a 2-player run's wall time)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the engine and environment install without it
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def die_with_parent(parent_pid: int) -> None:
    """Make this worker process end when its parent does, even on ``kill -9`` of the parent
    (which runs no cleanup): on Linux the kernel sends SIGKILL at the parent's death
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon thread polls the parent's pid.

    Called first thing in a worker's initializer with the parent's pid; a parent that died
    before this call is caught by comparing ``os.getppid()``.
    """
    import signal
    import sys
    import threading
    import time

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            if libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent_pid:  # the parent died before prctl took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    if os.getppid() != parent_pid:
        os._exit(1)
    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()
