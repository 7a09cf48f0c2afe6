"""The time-to-strength plot reads runs' evaluation rows and marks when a target was reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.training.plots import main, read_curve


def fake_run(root: Path, name: str, rates: list[float], minutes_apart: float) -> Path:
    run = root / name
    (run / "eval").mkdir(parents=True)
    rows = []
    for index, rate in enumerate(rates):
        for opponent, value in (("heuristic", rate), ("greedy", min(1.0, rate + 0.2))):
            rows.append(
                {
                    "step": 100_000 * (index + 1),
                    "opponent": opponent,
                    "wall_seconds": 60 * minutes_apart * (index + 1),
                    "win_rate": value,
                    "ci_low": max(0.0, value - 0.07),
                    "ci_high": min(1.0, value + 0.07),
                }
            )
    rows.insert(0, {"step": 1, "opponent": "heuristic", "win_rate": 0.1})  # no wall time
    (run / "eval" / "evaluations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return run


def test_plot_marks_the_first_time_the_target_is_reached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fast = fake_run(tmp_path, "fast", [0.40, 0.56, 0.61], minutes_apart=5)
    slow = fake_run(tmp_path, "slow", [0.20, 0.30], minutes_apart=20)
    assert [row["step"] for row in read_curve(fast, "heuristic")] == [100_000, 200_000, 300_000]
    out = tmp_path / "plot.png"
    status = main(
        [
            str(fast),
            str(slow),
            "--label",
            "new",
            "--label",
            "old",
            "--target",
            "0.55",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert status == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summaries = json.loads(capsys.readouterr().out.strip())
    assert summaries[0]["target_minutes"] == 10.0 and summaries[0]["target_step"] == 200_000
    assert summaries[1]["target_minutes"] is None and summaries[1]["best_win_rate"] == 0.30


def test_plot_refuses_a_directory_without_evaluations(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--out", str(tmp_path / "x.png")]) == 2


def test_a_run_given_as_its_evaluations_file(tmp_path: Path) -> None:
    """The README's figure is drawn from evaluation files kept in docs/, not run directories."""
    run = fake_run(tmp_path, "kept", [0.5, 0.6], minutes_apart=3)
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes((run / "eval" / "evaluations.jsonl").read_bytes())
    assert read_curve(kept, "heuristic") == read_curve(run, "heuristic")
    with pytest.raises(FileNotFoundError, match=r"missing\.jsonl"):
        read_curve(tmp_path / "missing.jsonl", "heuristic")


def test_the_readme_figure_is_drawn_from_the_kept_evaluations(tmp_path: Path) -> None:
    """docs/time_to_strength/ holds the evaluations the README's figure shows."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "time_to_strength"
    kept = sorted(docs.glob("*.jsonl"))
    assert kept, f"no evaluation files in {docs}"
    assert main([*map(str, kept), "--target", "0.55", "--out", str(tmp_path / "t.png")]) == 0
