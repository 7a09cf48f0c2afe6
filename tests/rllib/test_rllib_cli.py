"""The RLlib hooks of the command line and the tournament config; ray stays out of the rest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents.cli import main
from agents.tournament import config_from_dict

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_but_agents_rllib_imports_ray() -> None:
    code = (
        "import sys, airships_env, airships_env.native.batch, agents.arena, agents.tournament, "
        "agents.registry, agents.cli.train, agents.cli.arena, agents.rllib.config, "
        "agents.rllib.export; print([m for m in sys.modules if m == 'ray' or "
        "m.startswith('ray.')][:3])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("airships_env", "agents")
        for path in (ROOT / folder).rglob("*.py")
        if "rllib" not in path.parts and "import ray" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_train_picks_the_backend_and_reports_config_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("backend: rllib\ncluster: {num_env_runners: -2}\n", encoding="utf-8")
    assert main(["train", "--config", str(bad)]) == 2
    assert f"{bad}: cluster.num_env_runners: expected an integer >= 0, found -2" in (
        capsys.readouterr().err
    )
    # an SB3 config given to the rllib backend: its keys are named as unknown
    assert main(["train", "--config", str(ROOT / "configs/ppo_tiny.yaml"), "--backend", "rllib"])
    assert "ppo.n_steps: unknown key" in capsys.readouterr().err
    assert main(["train", "--config", str(ROOT / "configs/ppo_tiny.yaml"), "--address", "h:1"])
    assert "--address: only the rllib backend" in capsys.readouterr().err


def test_arena_and_tournament_take_ray() -> None:
    from agents.cli.arena import parse_args as arena_args
    from agents.cli.tournament import parse_args as tournament_args

    assert arena_args(["--agents", "greedy,random", "--ray"]).ray == "default"
    assert arena_args(["--agents", "greedy,random", "--ray", "host:6379"]).ray == "host:6379"
    assert arena_args(["--agents", "greedy,random"]).ray is None
    assert tournament_args(["x.yaml", "--ray"]).ray == "default"
    config = config_from_dict({"agents": ["greedy", "random"], "ray": "host:6379"}, "t.yaml")
    assert config.ray == "host:6379"
    # where games run does not change the results: a resumed run may switch
    assert "ray" not in config.results_config({"greedy": "greedy", "random": "random"})
    with pytest.raises(ValueError, match=r"t\.yaml: ray: expected a string"):
        config_from_dict({"agents": ["greedy", "random"], "ray": 5}, "t.yaml")
