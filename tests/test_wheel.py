"""The package installs like a library: ``python -m build`` makes a wheel and an sdist that carry
the native core, the data files, the web templates and the bundled models, and the wheel,
installed into a clean virtual environment (no system site-packages, no source tree on the path,
its dependencies from the package index), plays the engine, the environment and an arena game.

Slow (builds the C core, creates a venv, installs the ``env`` extra's packages: about 90 s), so
``make test-slow`` runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

#: Files a working installation reads (package data) besides the Python modules.
PACKAGE_DATA = (
    "airships_env/engine/data/cards_default.toml",
    "airships_env/heuristic.yaml",
    "airships_env/py.typed",
    "airships_env/native/_core.pyi",
    "agents/web/templates/base.html",
    "agents/web/templates/game.html",
    "agents/web/static/app.css",
    "agents/web/static/app.js",
    "agents/models/ppo_2p.zip",
    "agents/models/ppo_3p.zip",
    "agents/models/ppo_4p.zip",
)
#: What the sdist needs besides those to build the core.
C_SOURCES = tuple(
    f"airships_env/native/src/{name}"
    for name in (
        *(f"{unit}.c" for unit in ("rng", "cards", "odds", "rules", "obs", "bots")),
        "airships_search.c",
        "gsearch.c",
        "batch.c",
        "module.c",
        "core.h",
        "binding.h",
        "gsearch.h",
    )
)

#: Run by the installed interpreter, from a folder outside the source tree.
SMOKE = """
import json, sys
from pathlib import Path

import agents, airships_env
site = Path(sys.argv[1]).resolve()
for module in (airships_env, agents):
    assert site in Path(module.__file__).resolve().parents, module.__file__
assert not any(Path(p).resolve() == Path(sys.argv[2]) for p in sys.path if p), sys.path

from airships_env.engine import new_game, replay, GameLog
from airships_env.native import available, NativeGame
assert available(), "the wheel has no native core"

import numpy as np
state = new_game(3, seed=5)
log = GameLog.start(state)
rng = np.random.default_rng(5)
while not state.is_terminal():
    legal = state.legal_actions()
    log.records.append(state.apply_action(legal[int(rng.integers(len(legal)))]))
assert replay(log).final_scores == state.final_scores
native = NativeGame.new(3, seed=5)
for record in log.records:
    native.apply_action(record.action)
assert native.is_terminal() and tuple(native.final_scores) == tuple(state.final_scores)

from airships_env import env
from pettingzoo.test import api_test
api_test(env(num_players=2), num_cycles=200)
import gymnasium
single = gymnasium.make("airships_env.single_agent:Airships-v1", num_players=2)
observation, info = single.reset(seed=1)
assert observation.shape == single.observation_space.shape

from importlib import resources
assert resources.files("agents").joinpath("models", "ppo_2p.zip").is_file()
assert resources.files("agents").joinpath("web", "templates", "game.html").is_file()
print(json.dumps({"scores": list(state.final_scores), "steps": len(log.records)}))
"""


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: int = 600) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, (
        f"{' '.join(command)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def test_the_wheel_installs_into_a_clean_venv_and_plays(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="python -m build needs the 'build' package (dev extra)")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)], tmp_path, clean)
    (wheel,) = dist.glob("airships_env-*.whl")
    (sdist,) = dist.glob("airships_env-*.tar.gz")

    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in PACKAGE_DATA if name not in in_wheel]
    assert not missing, f"the wheel lacks {missing}"
    assert any(
        name.startswith("airships_env/native/_core.") and name.endswith((".so", ".pyd"))
        for name in in_wheel
    ), "the wheel has no compiled native core"
    root = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        in_sdist = {name.removeprefix(root + "/") for name in archive.getnames()}
    missing = [name for name in (*PACKAGE_DATA, *C_SOURCES, "setup.py") if name not in in_sdist]
    assert not missing, f"the sdist lacks {missing}"

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, clean)  # no system site-packages
    python = venv / "bin" / "python"
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    _run([str(python), "-m", "pip", "install", "-q", f"{wheel}[env]"], tmp_path, clean)

    elsewhere = tmp_path / "elsewhere"  # the working folder: not the source tree
    elsewhere.mkdir()
    site = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        elsewhere,
        clean,
    ).strip()
    out = _run([str(python), "-c", SMOKE, site, str(REPO)], elsewhere, clean)
    assert '"scores"' in out
    arena = _run(
        [
            str(venv / "bin" / "airships"),
            "arena",
            "--agents",
            "random,greedy",
            "--games",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--json",
        ],
        elsewhere,
        clean,
    )
    summary = arena.strip().splitlines()[-1]
    assert '"games":2' in summary and '"greedy"' in summary and '"random"' in summary
