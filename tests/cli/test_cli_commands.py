"""The ``airships`` command: every --help, ``cards``, forwarding, errors, --debug, layering."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agents.cli import FORWARDED, NATIVE, main
from agents.cli.common import forward, load_main

from .conftest import AIRSHIPS, REPO

DEFAULT_CARDS = REPO / "airships_env" / "engine" / "data" / "cards_default.toml"


def one_line_error(run, code: int) -> str:
    assert run.code == code, run.out
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("airships: error: "), run.err
    assert "Traceback" not in run.err
    return lines[0]


# ---------------------------------------------------------------------------------------------
# --help
# ---------------------------------------------------------------------------------------------
def test_top_level_help_lists_every_command(cli):
    run = cli(["--help"])
    assert run.code == 0
    assert run.out.startswith("usage: airships")
    for name in (*NATIVE, *FORWARDED):
        assert f"    {name}" in run.out, name


@pytest.mark.parametrize("name", NATIVE)
def test_native_command_help(cli, name):
    run = cli([name, "--help"])
    assert run.code == 0
    assert run.out.startswith(f"usage: airships {name}")
    assert "errors" in run.out or name == "cards"


@pytest.mark.parametrize("name", FORWARDED)
def test_forwarded_command_help(cli, name):
    run = cli([name, "--help"])
    assert run.code == 0, run.err
    assert f"usage: airships {name}" in run.out


def test_console_script_is_installed():
    result = subprocess.run([str(AIRSHIPS), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "usage: airships" in result.stdout


def test_missing_command_and_unknown_option(cli):
    line = one_line_error(cli([]), 2)
    assert "missing command: choose one of play, replay, cards" in line
    line = one_line_error(cli(["play", "--frobnicate"]), 2)
    assert "unrecognized arguments: --frobnicate (see 'airships play --help')" in line
    line = one_line_error(cli(["launch"]), 2)
    assert "invalid choice: 'launch'" in line


def test_debug_prints_the_traceback(cli, tmp_path):
    missing = str(tmp_path / "none.jsonl")
    quiet = cli(["replay", missing])
    assert "Traceback" not in quiet.err
    for argv in (["--debug", "replay", missing], ["replay", missing, "--debug"]):
        loud = cli(argv)
        assert loud.code == 2
        assert "Traceback (most recent call last)" in loud.err
        assert loud.err.strip().splitlines()[-1].startswith("airships: error: ")


# ---------------------------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------------------------
def test_cards_tables(cli):
    run = cli(["cards"])
    assert run.code == 0
    for text in (
        "Expansions: financier",
        "Expansions: materials",
        "Airships (tier 1",
        "Hindenburg phases",
        "financier-S1",
        "hindenburg-4",
        "70 cards",
    ):
        assert text in run.out, text


def test_cards_piped_at_80_columns_never_breaks_a_word(capsys, monkeypatch):
    """Issue 27 item 14: the source column was squeezed to 8 characters ('ruleboo' / 'k')."""
    from airships_env.engine import default_cards

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["cards"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    shown = {word.rstrip(";") for word in out.replace("│", " ").split()}
    cards = default_cards()
    for card in (*cards.expansions, *cards.airships, *cards.hindenburg):
        for word in card.source.split():
            assert word.rstrip(";") in shown, (card.id, word)


def test_cards_validate_and_json(cli):
    run = cli(["cards", str(DEFAULT_CARDS), "--validate"])
    assert run.code == 0
    assert run.out.startswith("ok: 70 cards (48 expansions, 18 airships, 4 Hindenburg")
    run = cli(["cards", "--json"])
    data = json.loads(run.out)
    assert (len(data["expansions"]), len(data["airships"]), len(data["hindenburg"])) == (48, 18, 4)
    assert data["entrepreneur"] == {"side_1": {"white": 1}, "side_2": {"white": 1, "red": 1}}
    assert json.loads(cli(["cards", "--validate", "--json"]).out)["cards"] == 70


def test_error_invalid_card_file(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        DEFAULT_CARDS.read_text().replace('department = "hangar"', 'department = "kitchen"', 1)
    )
    line = one_line_error(cli(["cards", str(bad), "--validate"]), 1)
    assert f"{bad}: expansion 'hangar-S1': field 'department': unknown department 'kitchen'" in line
    line = one_line_error(cli(["cards", str(tmp_path / "none.toml")]), 1)
    assert "cannot read the card file" in line
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    line = one_line_error(cli(["cards", str(broken), "--validate"]), 1)
    assert "not a valid TOML file" in line


# ---------------------------------------------------------------------------------------------
# Forwarding
# ---------------------------------------------------------------------------------------------
def test_forward_passes_argv_prog_and_status(tmp_path, monkeypatch):
    module = tmp_path / "fake_tool.py"
    module.write_text(
        textwrap.dedent("""
        import argparse
        import sys
        seen = []
        def main(argv=None):
            seen.append((list(argv), sys.argv[0]))
            parser = argparse.ArgumentParser()
            parser.add_argument("--games", type=int)
            args = parser.parse_args(argv)
            return args.games
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert forward("fake", "fake_tool:main", ["--games", "3"]) == 3
    fake = sys.modules["fake_tool"]
    assert fake.seen == [(["--games", "3"], "airships fake")]
    assert sys.argv[0] != "airships fake"  # restored
    assert forward("fake", "fake_tool:main", ["--games", "x"]) == 2  # argparse's exit status


def test_forward_to_missing_targets(tmp_path):
    from agents.cli.common import CLIError

    with pytest.raises(CLIError, match="no_such_module_xyz is not installed"):
        load_main("no_such_module_xyz:main")
    with pytest.raises(CLIError, match="does not exist"):
        load_main("agents.cli.common:no_such_function")


# ---------------------------------------------------------------------------------------------
# Layering
# ---------------------------------------------------------------------------------------------
def test_engine_and_package_import_without_cli_agents_rich_torch():
    code = (
        "import sys, airships_env, airships_env.engine; "
        "bad = [m for m in ('agents.cli', 'agents', 'rich', 'torch') "
        "if m in sys.modules]; print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_environment_layer_never_imports_the_agents_layer():
    """Imports go one way: engine <- environment (airships_env) <- agents, CLI, scripts."""
    package = REPO / "airships_env"
    offenders = [
        str(path.relative_to(REPO))
        for path in package.rglob("*.py")
        if re.search(r"^\s*(from|import) agents\b", path.read_text(encoding="utf-8"), re.M)
    ]
    assert offenders == []


def test_cli_import_does_not_import_rich_torch_or_the_bots():
    code = (
        "import sys, agents.cli; "
        "print([m for m in ('agents.registry', 'agents.bots', 'rich', 'torch') "
        "if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=Path("/")
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_missing_model_is_a_usage_error_without_a_class_name(cli, tmp_path):
    """Issue 27 item 13: it was 'FileNotFoundError: ...' with exit status 1."""
    missing = tmp_path / "missing.zip"
    spec = f"ppo:path={missing}"
    run = cli(["arena", "--agents", f"{spec},random", "--games", "2", "--no-progress"])
    assert run.code == 2
    assert f"arena: agent spec '{spec}': PPO model '{missing}' not found" in run.err
    assert "Error" not in run.err


def test_tournament_games_zero_blames_the_option_not_the_config(cli):
    run = cli(["tournament", "--games", "0", "--no-progress"])
    assert run.code == 2
    assert "argument --games: must be 1 or more, got 0" in run.err
    assert "tournament.yaml" not in run.err


def test_every_registered_agent_is_listed_in_play_help_and_the_readme(cli):
    """Issue 27 item 14: both lists left out ismcts."""
    from agents.registry import AGENTS

    run = cli(["play", "--help"])
    listed = re.search(r"agents: (.*?), with options", " ".join(run.out.split()))
    assert listed is not None and listed.group(1).split(", ") == list(AGENTS)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("Agents are named by specs:") :].split("\n\n")[0]
    named = {re.match(r"`([a-z]+)", span).group(1) for span in re.findall(r"`[^`]+`", paragraph)}
    assert set(AGENTS) <= named, set(AGENTS) - named
