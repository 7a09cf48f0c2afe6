"""Helpers for tests that check which processes outlive a killed parent (they read /proc)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Sequence


def alive(pid: int) -> bool:
    """The process runs (a zombie waiting for its parent to reap it counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def assert_processes_end(pids: Sequence[int], seconds: float, what: str) -> None:
    """Wait up to ``seconds`` for the processes to end; kill those left (not to leave them
    behind) and fail naming them."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in pids if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{what} {left} outlived their parent"
