"""The old recipe's SubprocVecEnv workers end with the training process, kill -9 included.

They do because SB3 starts them from a forkserver: each worker holds only its own end of its
pipe, reads EOF when the parent dies and returns. Started with ``fork`` they would inherit
the other workers' parent ends and wait forever (this test fails then).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import alive, assert_processes_end

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys, time
from agents.training.config import config_from_dict
from agents.training.league import BOT, LeagueMix, Member
from agents.training.train import make_vec_env

config = config_from_dict({"vec_env": "subproc", "env_backend": "python", "num_players": 2})
venv = make_vec_env(config, 2, LeagueMix((Member(BOT, "random"),), (1.0,)), seed=1)
venv.reset()
inner = venv
while not hasattr(inner, "processes"):
    inner = inner.venv
print(" ".join(str(p.pid) for p in inner.processes), flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find the workers")
def test_subproc_workers_die_with_the_training_process_on_kill_9() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(pid) for pid in workers), workers
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert_processes_end(workers, 15, "environment workers")
