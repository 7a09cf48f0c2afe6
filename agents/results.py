"""The arena's results file: JSON lines, a header then one line per finished game; resumable.

A header (``{"type": "header", "format": "airships-results", ..., "config": {...}}``), then one
``{"type": "game", ...}`` line per finished game, with a digest of its content. The config
names its game (``"game"``; a file without it is an Airships file). Re-running with the same
file checks that the configuration is the same, that every recorded game is the schedule's
(deal, seed, seats), agrees with itself (winners, places) and with its digest, and is recorded
once, then plays only the games not yet recorded; a half-written last line (a crash mid-write)
is dropped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.games import DEFAULT_GAME
from agents.schedule import GameSpec

RESULTS_FORMAT = "airships-results"
RESULTS_VERSION = 2  # 2: game lines carry a digest
READABLE_RESULTS_VERSIONS = (1, 2)

# What a results file can be trusted for. A game line carries a digest of its own content
# (the first 16 hex digits of a SHA-256 of its canonical JSON): an edit that forgets it, a
# score changed by hand, a line merged from another file with the same header's layout, is
# named by line. A digest has no key, so it tells an accident or a careless edit, not a
# forgery (one who recomputes it is not stopped; that would need a secret, and the file is
# meant to be shared). What the reader checks without it: each record agrees with itself
# (one entry per seat; the places follow from the winners; in Airships the winners are E3's
# for the scores and airships) and, on a resume, with the schedule (game index, deal, deal
# seed, seats); a game recorded twice is an error naming both lines. Replaying a game would
# prove its result, at the price of playing it again.
_DIGEST_CHARS = 16
_DIGEST_FROM_VERSION = 2  # version 1 lines had no digest (checked where present)


def results_header(config: dict[str, Any]) -> dict[str, Any]:
    """The first line of a results file."""
    return {
        "type": "header",
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "config": config,
    }


def record_digest(record: dict[str, Any]) -> str:
    """The digest a game line carries: SHA-256 of the record's canonical JSON (its own
    ``digest`` left out), first 16 hex digits."""
    body = {key: value for key, value in record.items() if key != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_DIGEST_CHARS]


def results_line(record: dict[str, Any]) -> str:
    """A game record as its line in a results file (with its digest), newline included."""
    return json.dumps({**record, "digest": record_digest(record)}, separators=(",", ":")) + "\n"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _record_problem(record: dict[str, Any]) -> str | None:
    """What is inconsistent in a finished game's record (None when nothing): one entry per
    seat, the winners are seats and hold place 1, the others do not; an Airships record (it
    has ``airships``) also has E3's winners for its scores and airships and E3's places."""
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats:
        return f"seats: expected a list of agent labels, found {seats!r}"
    players = len(seats)
    for key in ("scores", "ranks"):
        values = record.get(key)
        if not isinstance(values, list) or len(values) != players:
            return f"{key}: expected {players} numbers, found {values!r}"
        if not all(_is_number(v) for v in values):
            return f"{key}: expected {players} numbers, found {values!r}"
    winners = record.get("winners")
    if not isinstance(winners, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) and 0 <= w < players for w in winners
    ):
        return f"winners: expected a list of seats 0..{players - 1}, found {winners!r}"
    ranks = record["ranks"]
    wrong = [p for p in range(players) if (ranks[p] == 1) != (p in winners)]
    if winners and wrong:
        return f"ranks: {ranks} do not give place 1 to the winners {winners} alone"
    if "airships" in record:
        return _airships_problem(record, players)
    return None


def _airships_problem(record: dict[str, Any], players: int) -> str | None:
    """Airships' E3: the winners have the highest score, then the most airships (a tie on both
    is shared); the others are placed by the same keys (equal keys share a place)."""
    for key in ("scores", "airships", "ranks"):
        values = record.get(key)
        if (
            not isinstance(values, list)
            or len(values) != players
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        ):
            return f"{key}: expected {players} whole numbers, found {values!r}"
    scores, airships = record["scores"], record["airships"]
    keys = list(zip(scores, airships, strict=True))
    best = max(keys)
    expected = [p for p in range(players) if keys[p] == best]
    if record["winners"] != expected:
        return (
            f"winners: {record['winners']!r} do not follow from scores {scores} and airships "
            f"{airships} (E3 gives {expected})"
        )
    others = [keys[p] for p in range(players) if p not in expected]
    ranks = [
        1 if p in expected else 1 + len(expected) + sum(o > keys[p] for o in others)
        for p in range(players)
    ]
    if record["ranks"] != ranks:
        return f"ranks: {record['ranks']} do not follow from the scores (expected {ranks})"
    return None


def _read_lines(
    path: Path,
) -> tuple[dict[str, Any] | None, list[tuple[int, dict[str, Any]]]]:
    """The header and the game records of a results file with their line numbers; every
    finished game is checked against itself and its digest, and recorded once."""
    header: dict[str, Any] | None = None
    records: list[tuple[int, dict[str, Any]]] = []
    finished: dict[Any, int] = {}
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
        if not isinstance(data, dict):
            raise ValueError(f"{path}: line {number}: expected a JSON object, found {data!r}")
        if header is None:
            if data.get("type") != "header" or data.get("format") != RESULTS_FORMAT:
                raise ValueError(
                    f"{path}: line {number}: not an airships results file "
                    f"(its first line must be the header)"
                )
            if data.get("version") not in READABLE_RESULTS_VERSIONS:
                readable = ", ".join(map(str, READABLE_RESULTS_VERSIONS))
                raise ValueError(
                    f"{path}: results version {data.get('version')!r} is not "
                    f"supported (this version reads {readable})"
                )
            header = data
            continue
        if data.get("type") != "game":
            raise ValueError(f"{path}: line {number}: unknown line type {data.get('type')!r}")
        game = data.get("game")
        where = f"{path}: line {number}: game {game!r}"
        if isinstance(game, bool) or not isinstance(game, int) or game < 0:
            raise ValueError(f"{where}: game: expected a game index (a whole number >= 0)")
        digest = data.pop("digest", None)
        if digest is None and header["version"] >= _DIGEST_FROM_VERSION:
            raise ValueError(f"{where}: digest: missing (every game line has one)")
        if not data.get("error"):
            problem = _record_problem(data)
            if problem is not None:
                raise ValueError(f"{where}: {problem}")
        if digest is not None and digest != record_digest(data):
            raise ValueError(
                f"{where}: the line was changed after it was written (its digest {digest!r} "
                f"does not match its content); restore it, or delete the line to play the "
                f"game again"
            )
        if not data.get("error"):
            if game in finished:
                raise ValueError(
                    f"{where}: the game is recorded twice (lines {finished[game]} and "
                    f"{number}); delete one of them"
                )
            finished[game] = number
        records.append((number, data))
    return header, records


def read_results(path: str | Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The header and game records of a results file (a half-written last line is ignored).

    Raises ValueError naming the line (and the field) of a record that disagrees with itself
    or with its digest, or of a game recorded twice."""
    header, records = _read_lines(Path(path))
    return header, [record for _, record in records]


def _schedule_problem(record: dict[str, Any], spec: GameSpec | None) -> str | None:
    """How a record differs from the game the schedule has at its index (None: it agrees)."""
    if spec is None:
        return "game: the schedule has no game with this index"
    for key, expected in (
        ("deal", spec.deal),
        ("deal_seed", spec.deal_seed),
        ("seats", list(spec.seats)),
    ):
        if record.get(key) != expected:
            return f"{key}: the file has {record.get(key)!r}, the schedule {expected!r}"
    return None


def _config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    # A file written before there were several games is an Airships file.
    old, new = {"game": DEFAULT_GAME, **old}, {"game": DEFAULT_GAME, **new}
    keys = sorted(set(old) | set(new))
    return [
        f"{key}: file has {old.get(key)!r}, now {new.get(key)!r}"
        for key in keys
        if old.get(key) != new.get(key)
    ]


def open_results(
    path: str | Path, config: dict[str, Any], schedule: Sequence[GameSpec] | None = None
) -> dict[int, dict[str, Any]]:
    """Prepare ``path`` for appending: check its header against ``config`` (or write one) and
    return the games already recorded, by index. A torn last line is cut off the file. Every
    recorded game is checked (see :func:`read_results`) and, given the ``schedule``, must be
    the schedule's game of its index: same deal, deal seed and seats."""
    path = Path(path)
    # Round-trip the config through JSON so that tuples and lists compare equal.
    config = json.loads(json.dumps(config))
    if path.exists() and path.stat().st_size > 0:
        header, records = _read_lines(path)
        if header is None:  # only a torn header: nothing was played
            path.unlink()
            return open_results(path, config, schedule)
        differences = _config_differences(header["config"], config)
        if differences:
            raise ValueError(
                f"{path} holds results of a different run; use another --out "
                f"file or the same settings. Differences: " + "; ".join(differences)
            )
        if schedule is not None:
            by_index = {spec.game: spec for spec in schedule}
            for number, record in records:
                problem = _schedule_problem(record, by_index.get(record["game"]))
                if problem is not None:
                    raise ValueError(f"{path}: line {number}: game {record['game']}: {problem}")
        text = path.read_bytes()
        if not text.endswith(b"\n"):  # drop the torn line so appends start on a fresh line
            with open(path, "r+b") as handle:
                handle.truncate(text.rfind(b"\n") + 1)
        done: dict[int, dict[str, Any]] = {}
        for _, record in records:
            if not record.get("error"):  # an errored game (older files) is played again
                done[int(record["game"])] = record
        return done
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(results_header(config), separators=(",", ":")) + "\n")
    return {}
