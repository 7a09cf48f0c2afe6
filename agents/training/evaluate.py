"""Evaluate a trained policy: play it against chosen agents through the arena.

The model sits at one seat and the opponents fill the others in the order given (the last one
repeated when there are fewer opponents than seats), for example ``["heuristic"]`` at 4 players
is ``ppo, heuristic, heuristic#2, heuristic#3``. The arena rotates the seats so the model plays
every seat equally often, and with ``paired`` replays each deal under every rotation. The model
is labelled ``ppo`` in every table and JSON object.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.arena import arena_schedule, label_agents, round_up_games, run_schedule
from agents.games import check_player_count, counts_text, model_game, rules_record
from agents.stats import AgentStats, Summary, summarize
from airships_env.registry import get_game

MODEL_LABEL = "ppo"


@dataclass
class Evaluation:
    """A finished evaluation: the arena summary and the model's own row."""

    summary: Summary
    labels: list[str]
    games: int
    seconds: float
    model_label: str = MODEL_LABEL

    @property
    def model(self) -> AgentStats:
        """The model's figures (win rate, interval, margin, per seat)."""
        return self.summary.agents[self.model_label]

    def to_json(self) -> dict[str, Any]:
        """The arena's ``--json`` object."""
        return self.summary.to_json()

    def headline(self) -> dict[str, float | int | None]:
        """The figures logged during training."""
        stats = self.model
        low, high = stats.interval
        return {
            "games": stats.games,
            "win_rate": stats.win_rate,
            "ci_low": low,
            "ci_high": high,
            "mean_margin": stats.mean_margin,
            "mean_score": stats.mean_score,
            "errors": len(self.summary.errors),
        }


def model_spec(
    model: str | os.PathLike[str], deterministic: bool = True, agent: str = "ppo"
) -> str:
    """The registry spec of a saved model (``ppo:path=...`` by default)."""
    path = str(Path(model).resolve())
    if "," in path:
        raise ValueError(f"the model path {path!r} contains a comma, which agent specs cannot hold")
    return f"{agent}:path={path},deterministic={'true' if deterministic else 'false'}"


def model_players(model: str | os.PathLike[str]) -> int:
    """The table size a saved model was trained for: the one its zip records
    (:func:`agents.games.recorded_players`), else the one its observation size fits (and the game
    it records: :func:`agents.games.model_game`); a size that fits several is an error."""
    from stable_baselines3.common.save_util import load_from_zip_file

    from agents.games import recorded_players

    if not Path(model).is_file():
        raise FileNotFoundError(f"no model file at {model}")
    recorded = recorded_players(model)
    if recorded is not None:
        return recorded
    game = get_game(model_game(model))
    data, _, _ = load_from_zip_file(str(model), device="cpu")
    shape = getattr((data or {}).get("observation_space"), "shape", None)
    size = int(shape[0]) if shape else -1
    fits = [n for n in game.player_counts if game.observation_size(n) == size]
    if len(fits) == 1:
        return fits[0]
    which = "no table size" if not fits else f"every table size of {counts_text(fits)} players"
    raise ValueError(
        f"{model}: observation size {size} matches {which} of {game.name} "
        f"({counts_text(game.player_counts)} players) and the zip records no player count; "
        f"give --players"
    )


def seat_specs(opponents: Sequence[str], players: int) -> list[str]:
    """The opponents' specs filling ``players - 1`` seats (the last one repeated)."""
    if not opponents:
        raise ValueError("give at least one opponent")
    if len(opponents) > players - 1:
        raise ValueError(
            f"{len(opponents)} opponents for {players - 1} free seats at {players} players"
        )
    return [*opponents, *[opponents[-1]] * (players - 1 - len(opponents))]


def evaluate_model(
    model: str | os.PathLike[str],
    opponents: Sequence[str],
    *,
    players: int,
    games: int,
    seed: int = 0,
    paired: bool = True,
    seating: str = "cyclic",
    workers: int | None = 1,
    out: str | os.PathLike[str] | None = None,
    deterministic: bool = True,
    agent: str = "ppo",
    progress: bool = False,
    game: str | None = None,
    rules: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Play ``games`` arena games (rounded up to whole seat rotations) of the model against
    ``opponents``. ``agent`` names the registry agent that loads the model (``ppo``, or a
    dotted class path taking ``path`` and ``deterministic``); ``game``: the model's game (None:
    the one its zip records, :func:`~agents.games.model_game`); ``rules``: the rules options
    every game is dealt with (option name -> value, as the arena's ``--rules``; None: the
    game's own rules)."""
    if not Path(model).is_file():
        raise FileNotFoundError(f"no model file at {model}")
    if game is None:
        game = model_game(model)
    check_player_count(game, players)
    rules = rules_record(game, rules)  # a bad option fails before any game
    opponent_labels = label_agents([MODEL_LABEL, *seat_specs(opponents, players)])
    agent_specs = {MODEL_LABEL: model_spec(model, deterministic, agent)}
    agent_specs.update({k: v for k, v in opponent_labels.items() if k != MODEL_LABEL})
    labels = list(opponent_labels)
    games = round_up_games(games, players, seating)
    schedule = arena_schedule(labels, games, seed=seed, paired=paired, seating=seating)
    config = {
        "kind": "evaluate",
        "game": game,
        "agents": agent_specs,
        "players": players,
        "games": games,
        "seed": seed,
        "paired": paired,
        "seating": seating,
        **({"rules": rules} if rules else {}),
    }
    started = time.perf_counter()
    records = run_schedule(
        schedule,
        agent_specs,
        seed=seed,
        config=config,
        out=None if out is None else Path(out),
        workers=workers,
        progress=progress,
        description="evaluate",
        game=game,
        rules=rules,
    )
    seconds = time.perf_counter() - started
    return Evaluation(summarize(records, labels), labels, games, seconds)
