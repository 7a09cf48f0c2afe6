"""Worker processes start with one BLAS thread, without changing the parent's environment."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from agents.workers import THREAD_VARIABLES, single_threaded_workers
from tests.processes import alive, assert_processes_end


def _thread_settings() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in THREAD_VARIABLES}


def test_workers_started_in_the_block_get_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as executor:
        with single_threaded_workers():
            future = executor.submit(_thread_settings)
        assert future.result() == dict.fromkeys(THREAD_VARIABLES, "1")
    assert _thread_settings() == dict.fromkeys(THREAD_VARIABLES)  # parent restored


def test_a_users_setting_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with single_threaded_workers():
        assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
        assert os.environ["OMP_NUM_THREADS"] == "1"
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4" and "OMP_NUM_THREADS" not in os.environ


class SlowAgent:
    """Random, but slow; its reset leaves a file named by its process id (a worker started)."""

    name = "slow"

    def __init__(self) -> None:
        from airships_env.policy import RandomPolicy

        self.inner = RandomPolicy()

    def reset(self, seat: int, num_players: int, rng) -> None:
        """Mark this worker, then play randomly."""
        folder = os.environ["AIRSHIPS_TEST_WORKERS"]
        with open(os.path.join(folder, str(os.getpid())), "w"):
            pass
        self.inner.reset(seat, num_players, rng)

    def act(self, decision) -> int:
        """Sleep, then a random legal action."""
        import time

        time.sleep(0.2)
        return self.inner.act(decision)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find the workers")
def test_arena_workers_die_with_their_parent_on_kill_9(tmp_path) -> None:
    import signal
    import subprocess
    import sys
    import time

    marks = tmp_path / "workers"
    marks.mkdir()
    code = (
        "from agents.arena import run_arena\n"
        "run_arena(['tests.agents.test_workers.SlowAgent', 'random'], 40, workers=2)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, AIRSHIPS_TEST_WORKERS=str(marks), PYTHONPATH=root)
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=root, env=env)
    try:
        deadline = time.monotonic() + 120
        while len(list(marks.iterdir())) < 2 and time.monotonic() < deadline:
            assert parent.poll() is None, "the arena ended before its workers started"
            time.sleep(0.2)
        workers = [int(path.name) for path in marks.iterdir()]
        assert len(workers) >= 2 and all(alive(pid) for pid in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert_processes_end(workers, 10, "workers")


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find the workers")
def test_ctrl_c_ends_the_workers_instead_of_waiting_for_their_games(tmp_path) -> None:
    """Issue 27 item 13: Ctrl-C held the arena 10-20 s while the workers finished their games
    (which are not saved anyway). A SlowAgent game takes over 10 s (0.2 s a decision)."""
    import signal
    import subprocess
    import sys
    import time

    marks = tmp_path / "workers"
    marks.mkdir()
    code = (
        "from agents.arena import run_arena\n"
        "try:\n"
        "    run_arena(['tests.agents.test_workers.SlowAgent', 'random'], 40, workers=2)\n"
        "except KeyboardInterrupt:\n"
        "    raise SystemExit(130)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, AIRSHIPS_TEST_WORKERS=str(marks), PYTHONPATH=root)
    parent = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=root,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(marks.iterdir())) < 2 and time.monotonic() < deadline:
            assert parent.poll() is None, "the arena ended before its workers started"
            time.sleep(0.2)
        workers = [int(path.name) for path in marks.iterdir()]
        assert len(workers) >= 2 and all(alive(pid) for pid in workers)
        time.sleep(1.0)  # well inside their first games
        os.killpg(parent.pid, signal.SIGINT)  # Ctrl-C reaches every process of the group
        started = time.monotonic()
        status = parent.wait(timeout=60)
        waited = time.monotonic() - started
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    assert status == 130
    assert waited < 5, f"the arena took {waited:.1f} s to leave after Ctrl-C"
    assert_processes_end(workers, 2, "workers")


def test_single_threaded_blas_limits_numpys_blas_in_this_process() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import numpy  # noqa: F401  (loads its BLAS)

    from agents.workers import single_threaded_blas

    blas = threadpoolctl.threadpool_info()
    blas = [lib for lib in blas if lib["user_api"] == "blas"]
    if not blas:
        pytest.skip("numpy has no BLAS that threadpoolctl can see")
    before = [lib["num_threads"] for lib in blas]
    with single_threaded_blas():
        inside = threadpoolctl.threadpool_info()
        assert all(lib["num_threads"] == 1 for lib in inside if lib["user_api"] == "blas")
    after = [
        lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"
    ]
    assert after == before  # restored
