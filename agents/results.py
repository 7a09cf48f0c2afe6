"""The arena's results file: JSON lines, a header then one line per finished game; resumable.

A header (``{"type": "header", "format": "airships-results", ..., "config": {...}}``), then one
``{"type": "game", ...}`` line per finished game. The config names its game (``"game"``; a
file without it is an Airships file). Re-running with the same file checks that the
configuration is the same and plays only the games not yet recorded; a half-written last line
(a crash mid-write) is dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.games import DEFAULT_GAME

RESULTS_FORMAT = "airships-results"
RESULTS_VERSION = 1


def results_header(config: dict[str, Any]) -> dict[str, Any]:
    """The first line of a results file."""
    return {
        "type": "header",
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "config": config,
    }


def read_results(path: str | Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The header and game records of a results file (a half-written last line is ignored)."""
    path = Path(path)
    header: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    # The last piece has no newline after it: empty, or a line a crash cut short (dropped
    # even if it parses, since the file will be truncated before it).
    for number, line in enumerate(lines[:-1], start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {number}: not valid JSON ({exc.msg})") from exc
        if header is None:
            if data.get("type") != "header" or data.get("format") != RESULTS_FORMAT:
                raise ValueError(
                    f"{path}: line {number}: not an airships results file "
                    f"(its first line must be the header)"
                )
            if data.get("version") != RESULTS_VERSION:
                raise ValueError(
                    f"{path}: results version {data.get('version')!r} is not "
                    f"supported (this version reads {RESULTS_VERSION})"
                )
            header = data
        elif data.get("type") == "game":
            records.append(data)
        else:
            raise ValueError(f"{path}: line {number}: unknown line type {data.get('type')!r}")
    return header, records


def _config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    # A file written before there were several games is an Airships file.
    old, new = {"game": DEFAULT_GAME, **old}, {"game": DEFAULT_GAME, **new}
    keys = sorted(set(old) | set(new))
    return [
        f"{key}: file has {old.get(key)!r}, now {new.get(key)!r}"
        for key in keys
        if old.get(key) != new.get(key)
    ]


def open_results(path: str | Path, config: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Prepare ``path`` for appending: check its header against ``config`` (or write one) and
    return the games already recorded, by index. A torn last line is cut off the file."""
    path = Path(path)
    # Round-trip the config through JSON so that tuples and lists compare equal.
    config = json.loads(json.dumps(config))
    if path.exists() and path.stat().st_size > 0:
        header, records = read_results(path)
        if header is None:  # only a torn header: nothing was played
            path.unlink()
            return open_results(path, config)
        differences = _config_differences(header["config"], config)
        if differences:
            raise ValueError(
                f"{path} holds results of a different run; use another --out "
                f"file or the same settings. Differences: " + "; ".join(differences)
            )
        text = path.read_bytes()
        if not text.endswith(b"\n"):  # drop the torn line so appends start on a fresh line
            with open(path, "r+b") as handle:
                handle.truncate(text.rfind(b"\n") + 1)
        done: dict[int, dict[str, Any]] = {}
        for record in records:
            if not record.get("error"):  # an errored game (older files) is played again
                done.setdefault(int(record["game"]), record)
        return done
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(results_header(config), separators=(",", ":")) + "\n")
    return {}
