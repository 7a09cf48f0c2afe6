"""Worker processes start with one BLAS thread, without changing the parent's environment."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from agents.workers import THREAD_VARIABLES, single_threaded_workers


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
