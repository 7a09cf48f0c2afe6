"""The documentation site builds strictly: no broken link, missing page or unresolved API
reference (``make docs`` runs the same build)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
    pytest.skip(
        "mkdocs and mkdocstrings are not installed (the `docs` extra: pip install -e '.[docs]')",
        allow_module_level=True,
    )


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for page in ("airships/RULES", "airships/CARDS", "airships/HOW_TO_PLAY", "airships/ACTIONS",
                 "airships/OBSERVATION", "api/engine", "api/env", "api/protocol"):  # fmt: skip
        assert (site / page / "index.html").is_file(), f"the site has no page {page}"
    engine = (site / "api/engine/index.html").read_text(encoding="utf-8")
    assert "apply_action" in engine and "new_game" in engine  # the docstrings were rendered
    protocol = (site / "api/protocol/index.html").read_text(encoding="utf-8")
    assert "GameState" in protocol and "Presenter" in protocol


def test_the_old_paths_point_to_the_new_ones() -> None:
    """docs/RULES.md, CARDS.md and HOW_TO_PLAY.md moved to docs/airships/; a stub at each old
    path links there, so links from outside keep working."""
    for name in ("RULES.md", "CARDS.md", "HOW_TO_PLAY.md"):
        stub = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert f"](airships/{name})" in stub
        assert (ROOT / "docs" / "airships" / name).is_file()
