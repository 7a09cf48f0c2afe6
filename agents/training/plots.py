"""Time to strength: the win rate of training runs against an opponent over wall-clock time.

Reads ``eval/evaluations.jsonl`` of each run directory (one row per periodic evaluation and
opponent, with the run's training wall time at that evaluation, pretraining included) and draws
the win rate with its Wilson 95% interval against minutes of wall time, one line per run::

    python scripts/plot_training.py runs/ppo_2p runs/ppo_2p_subproc --opponent heuristic \\
        --label "fast recipe (native core)" --label "old recipe (subprocess envs)" \\
        --target 0.55 --out time_to_strength.png

A run may also be given as its ``evaluations.jsonl`` alone (the README's figure is drawn from
the copies in ``docs/time_to_strength/``).

Rows written before ``wall_seconds`` was recorded have no time and are skipped (with a note).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def read_curve(run: Path, opponent: str) -> list[dict[str, Any]]:
    """The evaluation rows of ``run`` against ``opponent`` that have a wall time, by time.
    ``run`` is a training run directory or an evaluations file kept from one (the README's
    figure is drawn from the copies in ``docs/time_to_strength/``)."""
    path = run if run.is_file() else run / "eval" / "evaluations.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no evaluations (is {run} a training run?)")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {number}: not JSON ({exc.msg})") from None
        if row.get("opponent") == opponent and row.get("wall_seconds") is not None:
            rows.append(row)
    return sorted(rows, key=lambda row: row["wall_seconds"])


def plot_curves(
    runs: list[Path],
    labels: list[str],
    opponent: str,
    out: Path,
    target: float | None = None,
) -> list[dict[str, Any]]:
    """Draw the curves to ``out`` (PNG); returns a summary per run (last and best points, and
    the first time the win rate reached ``target``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.8), dpi=120)
    summaries = []
    for run, label in zip(runs, labels, strict=True):
        rows = read_curve(run, opponent)
        if not rows:
            print(f"{run}: no timed evaluations against {opponent}; skipped", file=sys.stderr)
            continue
        minutes = [row["wall_seconds"] / 60 for row in rows]
        rates = [row["win_rate"] for row in rows]
        axes.plot(minutes, rates, marker="o", markersize=3, label=label)
        axes.fill_between(
            minutes, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.15
        )
        reached = next(
            (row for row in rows if target is not None and row["win_rate"] >= target), None
        )
        best = max(rows, key=lambda row: row["win_rate"])
        summaries.append(
            {
                "run": str(run),
                "label": label,
                "evaluations": len(rows),
                "last_minutes": round(minutes[-1], 1),
                "last_win_rate": rates[-1],
                "best_win_rate": best["win_rate"],
                "best_step": best["step"],
                "target_minutes": round(reached["wall_seconds"] / 60, 1) if reached else None,
                "target_step": reached["step"] if reached else None,
            }
        )
    if target is not None:
        axes.axhline(target, color="grey", linestyle="--", linewidth=1)
        axes.annotate(f"{target:.0%}", (0, target), textcoords="offset points", xytext=(2, 3))
    axes.axhline(0.5, color="grey", linewidth=0.5)
    axes.set_xlabel("wall time (minutes, on this machine)")
    axes.set_ylabel(f"win rate against {opponent}")
    axes.set_ylim(0, 1)
    axes.set_xlim(left=0)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    axes.set_title(f"Time to strength: paired evaluation games against {opponent}")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    plt.close(figure)
    return summaries


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs", nargs="+", type=Path, help="training run directories (or their evaluations.jsonl)"
    )
    parser.add_argument("--opponent", default="heuristic", help="evaluation opponent")
    parser.add_argument(
        "--label", action="append", default=None, help="a legend label per run, in order"
    )
    parser.add_argument("--target", type=float, default=None, help="a win rate to mark")
    parser.add_argument("--out", type=Path, default=Path("time_to_strength.png"))
    parser.add_argument("--json", action="store_true", help="the summary as one JSON line")
    args = parser.parse_args(argv)
    labels = args.label or [run.name for run in args.runs]
    if len(labels) != len(args.runs):
        parser.error(f"{len(labels)} --label for {len(args.runs)} runs")
    try:
        summaries = plot_curves(args.runs, labels, args.opponent, args.out, args.target)
    except (FileNotFoundError, ValueError) as exc:
        print(f"plot_training: {exc}", file=sys.stderr)
        return 2
    for summary in summaries:
        reached = (
            f"reached {args.target:.0%} at {summary['target_minutes']} min "
            f"(step {summary['target_step']})"
            if summary["target_minutes"] is not None
            else "target not reached"
        )
        print(
            f"{summary['label']}: {summary['evaluations']} evaluations over "
            f"{summary['last_minutes']} min; last {summary['last_win_rate']:.3f}, best "
            f"{summary['best_win_rate']:.3f} at step {summary['best_step']}; {reached}",
            file=sys.stderr if args.json else sys.stdout,
        )
    print(f"wrote {args.out}", file=sys.stderr)
    if args.json:
        print(json.dumps(summaries))
    return 0
