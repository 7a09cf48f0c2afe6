"""The tools' side of the game registry: which game a command, a config or a file is about.

Every tool takes a game by its registered name (``--game NAME``; :data:`DEFAULT_GAME` when none
is given) and asks it for its facts, player counts first, instead of writing Airships' down.
Files the tools write (results files, tournament and training configs, game logs, saved models)
record their game under ``"game"``; a file without one is an Airships file, so everything saved
before there were several games still reads. A run's rules options (``--rules``, a tournament's
``rules:``) are the game's own: :func:`rules_options` builds them with the game's
``options_from_dict``, :func:`rules_record` gives the ones that differ from the defaults, which
is what a results file records (none recorded: the default rules).
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
    "recorded_players",
    "resolve_game",
    "rules_options",
    "rules_record",
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


def rules_options(game: str | Game, rules: Mapping[str, Any] | None) -> Any:
    """The game's rules options with the options ``rules`` names (option name -> value) set and
    the others at their defaults, built by the game's own ``options_from_dict``; None for no
    rules (the game's defaults). A ValueError names the game and the option at fault (one the
    game does not have, a bad value)."""
    if not rules:
        return None
    rules_game = resolve_game(game)
    build = getattr(rules_game, "options_from_dict", None)
    if build is None:
        raise ValueError(
            f"{rules_game.title} has no rules options; got {', '.join(map(str, rules))}"
        )
    try:
        return build(dict(rules))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{rules_game.title} rules: {exc}") from None


def rules_record(game: str | Game, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options of ``rules`` that differ from the game's defaults, by name, checked as
    :func:`rules_options` checks them: what a results file records (empty: the default rules,
    as in a file written before the tools took rules)."""
    options = rules_options(game, rules)
    if options is None:
        return {}
    defaults = resolve_game(game).options_from_dict({}).to_dict()  # type: ignore[attr-defined]
    return {name: value for name, value in options.to_dict().items() if defaults[name] != value}


#: The entry of a saved stable-baselines3 model zip that names its game (absent: Airships) and
#: the player count it was trained for (``"players"``; absent in zips saved before it was kept).
MODEL_GAME_ENTRY = "game.json"


def write_model_game(path: str | os.PathLike[str], game: str, players: int | None = None) -> None:
    """Record ``game`` (and the table size ``players``, when given) in a saved model zip
    (stable-baselines3 ignores the extra entry)."""
    entry: dict[str, Any] = {"game": game}
    if players is not None:
        entry["players"] = check_player_count(game, players)
    with zipfile.ZipFile(path, "a") as archive:
        if MODEL_GAME_ENTRY not in archive.namelist():
            archive.writestr(MODEL_GAME_ENTRY, json.dumps(entry))


def _model_entry(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The game entry of a model zip (None when it has none); a bad one is a ValueError."""
    with zipfile.ZipFile(path) as archive:
        if MODEL_GAME_ENTRY not in archive.namelist():
            return None
        try:
            data = json.loads(archive.read(MODEL_GAME_ENTRY))
        except ValueError as exc:
            raise ValueError(f"{path}: {MODEL_GAME_ENTRY}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path}: {MODEL_GAME_ENTRY}: expected a mapping, found {data!r}")
    return data


def model_game(path: str | os.PathLike[str]) -> str:
    """The game a saved model zip was trained for (a zip without the entry: Airships); a bad
    entry is a ValueError naming the file."""
    data = _model_entry(path)
    if data is None:
        return DEFAULT_GAME
    return file_game(data, f"{path}: {MODEL_GAME_ENTRY}")


def recorded_players(path: str | os.PathLike[str]) -> int | None:
    """The player count a saved model zip records it was trained for (None: not recorded; the
    observation size may still tell); a bad entry is a ValueError naming the file."""
    data = _model_entry(path)
    if data is None or "players" not in data:
        return None
    players = data["players"]
    game = file_game(data, f"{path}: {MODEL_GAME_ENTRY}")
    try:
        return check_player_count(game, players)
    except ValueError as exc:
        raise ValueError(f"{path}: {MODEL_GAME_ENTRY}: players: {exc}") from None
