"""Every shell command and Python block of README.md, run as a new user would run it.

What is checked:

- every fenced ``bash`` block: each command (a line; ``\\`` continues it) runs with ``bash`` from
  a sandbox that looks like a fresh clone after ``make venv`` (below) and must exit 0; a command
  with ``--json`` must print a JSON object on its last stdout line;
- every fenced ``python`` block: run by ``.venv/bin/python`` in the sandbox, must exit 0;
- every inline command of the text and tables (a code span starting with ``.venv/bin/``): a
  concrete one runs like a block's command; one written as syntax (a placeholder such as
  ``LOG``, ``PATH``, ``FILE`` or an optional ``[--flag]``) runs its subcommand's ``--help``; a
  program's name alone (``.venv/bin/airships``) must be an executable file.

Markers. An HTML comment on the line before a fenced block says how to treat it; nothing is
skipped silently (a skip shows in pytest's summary with its reason):

- ``<!-- readme-test: skip REASON -->``: not run (a server that runs until stopped, the
  project's own ``make`` targets, a command that needs a cluster);
- ``<!-- readme-test: requires MODULE[,MODULE...] -->``: run only where every module imports
  (optional extras such as ``ray``), skipped with the module's name otherwise;
- ``<!-- readme-test: slow -->``: run by ``make test-slow`` only (training runs). An inline
  command cannot carry a marker: :data:`SLOW_INLINE` lists the slow ones.

Small arguments (:data:`SUBSTITUTIONS`, applied to every command and Python block before it
runs): game counts become 4, ``.learn(N)`` at most 1,000 steps, the bundled policies
``agents/models/ppo_<n>p.zip`` an untrained model of the same table size saved for the test (the
test never depends on the shipped weights), ``tensorboard --logdir DIR`` a check that the
directory exists and tensorboard runs, ``airships bench`` the engine section for 0.02 s. The
sandbox's ``configs/ppo_*.yaml`` training configs are
``configs/ppo_tiny.yaml`` with each config's name and player count (seconds, not hours).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
VENV_BIN = ROOT / ".venv" / "bin"
MARKER = re.compile(r"^<!--\s*readme-test:\s*(\S+)\s*(.*?)\s*-->\s*$")
MARKER_KINDS = ("skip", "requires", "slow")
FENCE = re.compile(r"^```(\w*)\s*$")
INLINE = re.compile(r"`(\.venv/bin/[^`]+)`")
#: A word written as a placeholder in a syntax line (``LOG``, ``PATH``, ``FILE``, ``SPECS``).
PLACEHOLDER = re.compile(r"(\[|\b[A-Z]{3,}\b)")
TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    """A piece of README.md to run: a fenced block or an inline command."""

    kind: str  # "bash", "python" or "inline"
    line: int  # where it starts in README.md (1-based)
    text: str
    marker: tuple[str, str] | None = None  # (kind, argument) of the comment before it


def readme_blocks(text: str) -> list[Block]:
    """The fenced bash/python blocks and the inline ``.venv/bin/...`` commands of the text."""
    blocks: list[Block] = []
    lines = text.split("\n")
    prose: list[str] = []
    marker: tuple[str, str] | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        found = MARKER.match(line.strip())
        if found:
            kind, argument = found.groups()
            if kind not in MARKER_KINDS:
                raise ValueError(
                    f"README.md line {index + 1}: unknown readme-test marker {kind!r} "
                    f"(known: {', '.join(MARKER_KINDS)})"
                )
            marker = (kind, argument)
            prose.append("")
            index += 1
            continue
        fence = FENCE.match(line)
        if fence:
            language = fence.group(1)
            start = index
            index += 1
            body: list[str] = []
            while index < len(lines) and not lines[index].startswith("```"):
                body.append(lines[index])
                index += 1
            if language in ("bash", "sh", "shell", "python"):
                kind = "python" if language == "python" else "bash"
                blocks.append(Block(kind, start + 1, "\n".join(body), marker))
            elif marker is not None:
                raise ValueError(f"README.md line {start + 1}: a marker before a {language} block")
            marker = None
            prose.extend([""] * (len(body) + 2))
            index += 1
            continue
        if marker is not None and line.strip():
            raise ValueError(f"README.md line {index}: a readme-test marker must precede a block")
        prose.append(line)
        index += 1
    joined = "\n".join(prose)
    for found in INLINE.finditer(joined):
        line = joined.count("\n", 0, found.start()) + 1
        blocks.append(Block("inline", line, " ".join(found.group(1).split())))
    return blocks


def shell_commands(script: str) -> list[str]:
    """The commands of a bash block: one a line, ``\\`` continuing, comments dropped."""
    commands: list[str] = []
    pending = ""
    for raw in script.split("\n"):
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        command = re.sub(r"\s+#.*$", "", line).strip()
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


# ---------------------------------------------------------------------------------------------
# Small arguments
# ---------------------------------------------------------------------------------------------
def _small_learn(found: re.Match[str]) -> str:
    steps = int(found.group(1).replace("_", ""))
    return f".learn({min(steps, 1000)}"


#: (pattern, replacement, why): applied to every command and Python block before it runs.
SUBSTITUTIONS: list[tuple[str, str | Callable[[re.Match[str]], str], str]] = [
    (r"--games [\d_,]+", "--games 4", "game counts: 4 games (whole seat rotations)"),
    (r"\.learn\(([\d_]+)", _small_learn, "training steps: at most 1,000"),
    (r"(airships bench)$", r"\1 --only engine --seconds 0.02", "benchmarks: the engine, briefly"),
    (r"--profile(?! \d)", "--profile 256", "training profiles: 256 steps each way"),
    (
        r"(\S*)tensorboard --logdir (\S+)",
        r"test -d \2 && \1tensorboard --version",
        "tensorboard serves until stopped: check its log folder and that it runs",
    ),
]


#: Inline commands (code spans cannot carry a marker) run only by ``make test-slow``: the default
#: tournament plays MCTS games (minutes).
SLOW_INLINE = ("airships tournament configs/tournament.yaml",)


def small(text: str, models: Callable[[int], Path]) -> str:
    """The text with :data:`SUBSTITUTIONS` applied and the bundled models replaced."""
    for pattern, replacement, _why in SUBSTITUTIONS:
        text = re.sub(pattern, replacement, text)
    return re.sub(r"agents/models/ppo_(\d)p\.zip", lambda m: str(models(int(m.group(1)))), text)


# ---------------------------------------------------------------------------------------------
# The sandbox: a fresh clone after `make venv`
# ---------------------------------------------------------------------------------------------
@dataclass
class Sandbox:
    """A folder laid out like the repository, and the untrained stand-ins for bundled models."""

    root: Path
    model_dir: Path

    def model(self, num_players: int) -> Path:
        """An untrained MaskablePPO for a table size, saved once (the bundled models' stand-in)."""
        path = self.model_dir / f"ppo_{num_players}p.zip"
        if not path.exists():
            code = (
                "import sys\n"
                "from sb3_contrib import MaskablePPO\n"
                "from airships_env.single_agent import AirshipsSingleAgentEnv\n"
                f"env = AirshipsSingleAgentEnv(num_players={num_players})\n"
                "MaskablePPO('MlpPolicy', env, n_steps=16, batch_size=16, seed=0)"
                f".save({str(path)!r})\n"
            )
            subprocess.run([str(VENV_BIN / "python"), "-c", code], check=True, timeout=TIMEOUT)
        return path

    def run(self, command: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """Run a shell command in the sandbox (no activated venv: PATH without .venv/bin)."""
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env["PATH"] = os.pathsep.join(
            p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != VENV_BIN
        )
        env["COLUMNS"] = "120"
        return subprocess.run(
            ["bash", "-c", command],
            cwd=self.root,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=env,
        )


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    """The repository's code and venv linked, its configs copied (training configs tiny)."""
    if not (VENV_BIN / "python").exists():
        pytest.skip("no .venv: run `make venv` first (the README's commands use .venv/bin)")
    root = tmp_path_factory.mktemp("clone")
    for name in (".venv", "agents", "airships_env", "scripts", "docs", "tests"):
        (root / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "configs", root / "configs")
    tiny = yaml.safe_load((ROOT / "configs" / "ppo_tiny.yaml").read_text())
    for config in (root / "configs").glob("ppo_*.yaml"):
        original = yaml.safe_load(config.read_text())
        if config.name == "ppo_tiny.yaml" or "total_timesteps" not in original:
            continue
        replaced = dict(tiny, num_players=original.get("num_players", 2))
        replaced["run"] = dict(tiny["run"], name=original["run"]["name"])
        config.write_text(yaml.safe_dump(replaced))
    models = tmp_path_factory.mktemp("models")
    return Sandbox(root, models)


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


def _param(block: Block) -> object:
    slow = block.marker == ("slow", "") or (
        block.kind == "inline" and any(text in block.text for text in SLOW_INLINE)
    )
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(block, id=f"{block.kind}-line{block.line}", marks=marks)


def _check_marker(block: Block) -> None:
    if block.marker is None:
        return
    kind, argument = block.marker
    if kind == "skip":
        pytest.skip(f"README.md line {block.line}: {argument}")
    if kind == "requires":
        for module in argument.replace(",", " ").split():
            pytest.importorskip(module, reason=f"README.md line {block.line} needs {module}")


def _check_result(command: str, result: subprocess.CompletedProcess[str], line: int) -> None:
    assert result.returncode == 0, (
        f"README.md line {line}: {command!r} exited {result.returncode}\n"
        f"stdout: {result.stdout[-3000:]}\nstderr: {result.stderr[-3000:]}"
    )
    if "--json" in command.split() and "--help" not in command:
        last = result.stdout.strip().splitlines()[-1]
        assert isinstance(json.loads(last), dict), f"{command!r}: last line is not JSON"


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS if b.kind == "bash"])
def test_shell_block(block: Block, sandbox: Sandbox) -> None:
    _check_marker(block)
    for command in shell_commands(block.text):
        command = small(command, sandbox.model)
        _check_result(command, sandbox.run(command, stdin="q\n"), block.line)


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS if b.kind == "python"])
def test_python_block(block: Block, sandbox: Sandbox) -> None:
    _check_marker(block)
    code = small(block.text, sandbox.model)
    result = subprocess.run(
        [str(VENV_BIN / "python"), "-"],
        input=code,
        cwd=sandbox.root,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, (
        f"README.md line {block.line}: the Python block failed\n{code}\n{result.stderr[-4000:]}"
    )
    if "print(" in code:  # a block that shows a result shows it
        assert result.stdout.strip(), f"README.md line {block.line}: the block printed nothing"
    if "progress_bar=True" in code:  # the SB3 example: progress, then the win rate
        shown = result.stdout + result.stderr
        assert "512/512" in shown and "win rate against random after 512 steps:" in shown


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS if b.kind == "inline"])
def test_inline_command(block: Block, sandbox: Sandbox) -> None:
    command = block.text
    if len(command.split()) == 1:  # a program's name: it must be there
        command = f"test -x {command}"
    elif PLACEHOLDER.search(command):  # written as syntax: its subcommand must exist
        words = command.split()
        command = " ".join(words[:2] if words[0].endswith("/airships") else words[:1]) + " --help"
        if words[0].endswith("/python"):
            command = " ".join(words[:2]) + " --help"
    command = small(command, sandbox.model)
    _check_result(command, sandbox.run(command, stdin="q\n"), block.line)


def test_the_readme_has_blocks_of_every_kind_and_markers_are_checked() -> None:
    kinds = {block.kind for block in BLOCKS}
    assert kinds == {"bash", "python", "inline"}
    with pytest.raises(ValueError, match="unknown readme-test marker 'skp'"):
        readme_blocks("<!-- readme-test: skp x -->\n```bash\nls\n```\n")
    with pytest.raises(ValueError, match="must precede a block"):
        readme_blocks("<!-- readme-test: skip x -->\nsome prose\n```bash\nls\n```\n")
    parsed = readme_blocks("<!-- readme-test: requires ray -->\n```bash\nls \\\n  -a  # all\n```\n")
    assert parsed == [Block("bash", 2, "ls \\\n  -a  # all", ("requires", "ray"))]
    assert shell_commands(parsed[0].text) == ["ls    -a"]


def test_scripts_find_the_agents_package_without_an_installed_package(tmp_path: Path) -> None:
    """``python scripts/X.py`` from the repository root, with no editable install on the path
    (site-packages on PYTHONPATH, its .pth finders not run): the scripts find the repository."""
    site = subprocess.run(
        [
            str(VENV_BIN / "python"),
            "-c",
            "import numpy, os; print(os.path.dirname(numpy.__path__[0]))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    env = dict(os.environ, PYTHONPATH=site)
    for script in ("evaluate", "arena", "train", "tournament"):
        result = subprocess.run(
            [sys.executable, "-S", f"scripts/{script}.py", "--help"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, f"scripts/{script}.py: {result.stderr[-2000:]}"
        assert "usage:" in result.stdout


def test_the_action_table_example_agrees_with_the_encoding() -> None:
    """The README's worked index: the formula, the 0-based slot and the 1-based name agree."""
    from airships_env.engine import ACTION_NAMES, attempt_action
    from airships_env.engine.actions import board_target

    text = README.read_text(encoding="utf-8")
    found = re.search(
        r"Example: (\d+) = `3\*\(3\*(\d) \+ (\d)\) \+ (\d)` \(row `d=\2`, 0-based slot `s=\3`, "
        r"variant `v=\4`\) is named `([^`]+)` \(slot `s\+1`, counted from 1\)",
        text,
    )
    assert found, "the action table's example is missing or reworded"
    index, row, slot, variant = (int(found.group(i)) for i in range(1, 5))
    assert (
        index == 3 * (3 * row + slot) + variant == attempt_action(board_target(row, slot), variant)
    )
    assert ACTION_NAMES[index] == found.group(5)
    assert f"slot {slot + 1}" in found.group(5)
    assert "Indices count from 0; the names count slots, stacks and phases from 1." in text
