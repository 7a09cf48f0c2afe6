"""Australia's bots in C (issue 25) against the Python bots, the reference: at every decision of
seeded games between the bots (2-5 players, the simple and the full game, an edited data file),
the native bot given the same position and the same generator state chooses what the Python bot
chooses and leaves its generator where the Python bot leaves it. And the native bots read only
the seat's view: re-dealing what the view hides (other hands, the stacks, the set-aside cards,
the face-down tiles: ``determinize``) never changes a decision or a draw."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

from agents.bots.australia import GreedyBot, HeuristicBot
from airships_env.chance import copy_generator
from airships_env.games.australia import GAME
from airships_env.games.australia.engine import AustraliaData, RulesOptions, new_game, parse_data
from airships_env.native.australia import NativeAustraliaGame, bot_decisions
from airships_env.policy import Decision, RandomPolicy
from tests.native.test_australia_native import edited_documents

MAKERS: dict[str, Any] = {"random": RandomPolicy, "greedy": GreedyBot, "heuristic": HeuristicBot}
SEEN: collections.Counter[tuple[str, str]] = collections.Counter()


def play_bots(
    names: list[str],
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: AustraliaData | None = None,
    redeal: bool = True,
) -> int:
    """One game between the Python bots ``names`` (by seat); at each decision the native bot of
    the same name decides from the same position and generator; returns the decisions."""
    players = len(names)
    state = new_game(players, seed, options=options, data=data)
    bots = []
    for seat, name in enumerate(names):
        bot = MAKERS[name]()
        bot.reset(seat, players, np.random.default_rng([seed, seat, 25]))
        bots.append(bot)
    hidden = np.random.default_rng([seed, 99])
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        name, bot = names[seat], bots[seat]
        native = NativeAustraliaGame.from_state(state)
        rng = copy_generator(bot.rng)
        chosen = native.bot_action(name, rng)
        if redeal:  # the view's hidden parts re-dealt at random: the same decision
            other = NativeAustraliaGame.from_state(state.view(seat).determinize(hidden))
            again = copy_generator(bot.rng)
            assert other.bot_action(name, again) == chosen, ("hidden", seed, decisions)
            assert again.bit_generator.state == rng.bit_generator.state
        expected = bot.act(Decision.for_game(GAME, state))
        assert chosen == expected, (names, seed, decisions, state.phase_name)
        assert rng.bit_generator.state == bot.rng.bit_generator.state, ("generator", decisions)
        SEEN[(name, state.phase_name)] += 1
        state.apply_action(expected)
        decisions += 1
    return decisions


TABLES = {
    2: [["heuristic", "greedy"], ["random", "heuristic"]],
    3: [["greedy", "heuristic", "random"], ["heuristic", "heuristic", "greedy"]],
    4: [["heuristic", "random", "greedy", "heuristic"]],
    5: [["greedy", "heuristic", "random", "heuristic", "greedy"]],
}


@pytest.mark.parametrize("full_game", [False, True], ids=["simple", "full"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_native_bots_decide_as_the_python_bots(players: int, full_game: bool) -> None:
    options = RulesOptions(full_game=full_game, max_rounds=14)
    decisions = 0
    for k, seed in enumerate(range(3)):
        names = TABLES[players][k % len(TABLES[players])]
        decisions += play_bots(names, 40 + seed + 10 * players, options=options)
    assert decisions > 100


def test_recolour_anywhere() -> None:
    for seed in range(2):
        play_bots(TABLES[2 + seed][0], 700 + seed, options=RulesOptions(recolour_anywhere=True,
                  max_rounds=14))  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_an_edited_data_file(players: int) -> None:
    board, parts = edited_documents()
    data = parse_data(board, parts, "edited-map.toml", "edited-components.toml")
    for seed in range(2):
        play_bots(TABLES[players][0], 800 + seed, options=RulesOptions(full_game=True), data=data)


def test_the_games_reached_every_kind_of_decision() -> None:
    for name in ("greedy", "heuristic"):
        for phase in ("setup draw", "action", "place", "draw", "windmill"):
            assert SEEN[(name, phase)] > 0, (name, phase, SEEN)
    assert SEEN[("random", "action")] > 0


def test_the_benchmark_games_are_the_bots_games() -> None:
    """bot_decisions plays game g from SeedSequence(seed, (g, 0)), seat s's bot from (g, 1 + s)."""
    for name in ("random", "greedy", "heuristic"):
        expected = 0
        for g in range(2):
            state = new_game(
                2, rng=np.random.default_rng(np.random.SeedSequence(5, spawn_key=(g, 0)))
            )
            bots = [MAKERS[name]() for _ in range(2)]
            for seat, bot in enumerate(bots):
                bot.reset(
                    seat,
                    2,
                    np.random.default_rng(np.random.SeedSequence(5, spawn_key=(g, 1 + seat))),
                )
            while not state.is_terminal():
                state.apply_action(bots[state.current_player].act(Decision.for_game(GAME, state)))
                expected += 1
        assert bot_decisions(name, 2, 2, 5) == expected


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeAustraliaGame.new(2, 0)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="unknown native bot"):
        native.bot_action("kind_random", rng)
    with pytest.raises(TypeError, match="PCG64"):
        native.bot_action("greedy", np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(ValueError, match="bot kind"):
        native.handle.bot_action(4, None)
    with pytest.raises(ValueError, match="generator"):
        native.handle.bot_action(2, None)
    with pytest.raises(ValueError, match="unknown native bot"):
        bot_decisions("ismcts", 2, 1, 0)
    with pytest.raises(ValueError, match="2 to 5"):
        bot_decisions("greedy", 6, 1, 0)
