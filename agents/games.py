"""The tools' side of the game registry: which game a command, a config or a file is about.

Every tool takes a game by its registered name (``--game NAME``; :data:`DEFAULT_GAME` when none
is given) and asks it for its facts, player counts first, instead of writing Airships' down.
Files the tools write (results files, tournament and training configs, game logs, saved models)
record their game under ``"game"``; a file without one is an Airships file, so everything saved
before there were several games still reads.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any

from airships_env.protocol import Game
from airships_env.registry import games, resolve_game

__all__ = [
    "DEFAULT_GAME",
    "MODEL_GAME_ENTRY",
    "check_player_count",
    "counts_text",
    "file_game",
    "game_name",
    "model_game",
    "resolve_game",
    "write_model_game",
]

#: The game of a command without ``--game`` and of a file without a ``"game"`` entry.
DEFAULT_GAME = "airships"


def game_name(game: str | Game) -> str:
    """The registered name of a game given by name or object."""
    return game if isinstance(game, str) else game.name


def counts_text(counts: Sequence[int]) -> str:
    """Player counts for people: '2 to 4', '2, 3 or 5', '2'."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]}"


def check_player_count(game: str | Game, players: int, what: str = "players") -> int:
    """``players`` when the game is played by that many (else a ValueError naming the counts)."""
    rules = resolve_game(game)
    if isinstance(players, bool) or players not in rules.player_counts:
        raise ValueError(
            f"{rules.title} is played by {counts_text(rules.player_counts)} players; "
            f"{what}: got {players}"
        )
    return players


def file_game(data: Mapping[str, Any], source: str = "<file>") -> str:
    """The game a file's header or config records (none: Airships); an unknown one is a
    ValueError naming the file and the registered games."""
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in games():
        raise ValueError(f"{source}: game: expected one of {', '.join(games())}, found {name!r}")
    return name


#: The entry of a saved stable-baselines3 model zip that names its game (absent: Airships).
MODEL_GAME_ENTRY = "game.json"


def write_model_game(path: str | os.PathLike[str], game: str) -> None:
    """Record ``game`` in a saved model zip (stable-baselines3 ignores the extra entry)."""
    with zipfile.ZipFile(path, "a") as archive:
        if MODEL_GAME_ENTRY not in archive.namelist():
            archive.writestr(MODEL_GAME_ENTRY, json.dumps({"game": game}))


def model_game(path: str | os.PathLike[str]) -> str:
    """The game a saved model zip was trained for (a zip without the entry: Airships); a bad
    entry is a ValueError naming the file."""
    with zipfile.ZipFile(path) as archive:
        if MODEL_GAME_ENTRY not in archive.namelist():
            return DEFAULT_GAME
        try:
            data = json.loads(archive.read(MODEL_GAME_ENTRY))
        except ValueError as exc:
            raise ValueError(f"{path}: {MODEL_GAME_ENTRY}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path}: {MODEL_GAME_ENTRY}: expected a mapping, found {data!r}")
    return file_game(data, f"{path}: {MODEL_GAME_ENTRY}")
