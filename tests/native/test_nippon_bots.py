"""Nippon's bots in C (issue 25) against the Python bots, the reference: at every decision of
seeded games between the bots (every player count, every rules option, an edited data file), the
native bot given the same position, the same generator state and the same plan chooses what the
Python bot chooses, carries the same plan on and leaves its generator where the Python bot leaves
it. And the native bots read only the seat's view: re-dealing what the view hides (the bag's
order: the generator, via ``determinize``) never changes a decision."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

from agents.bots.nippon import GreedyBot, HeuristicBot, evaluate
from airships_env.chance import copy_generator
from airships_env.games.nippon import GAME
from airships_env.games.nippon.engine import NipponData, Phase, RulesOptions, new_game, parse_data
from airships_env.games.nippon.weights import GREEDY, HEURISTIC, packed
from airships_env.native.convert import rng_state
from airships_env.native.nippon import NO_PLAN, NativeNipponGame, bot_decisions
from airships_env.policy import Decision, RandomPolicy
from tests.native.test_nippon_native import OPTION_CASES, edited_text

MAKERS: dict[str, Any] = {"random": RandomPolicy, "greedy": GreedyBot, "heuristic": HeuristicBot}
SEEN: collections.Counter[tuple[str, str]] = collections.Counter()


def memory_of(bot: Any) -> tuple[tuple[int, ...], int, int]:
    """The Python bot's plan and its key, as the native bot takes them."""
    if isinstance(bot, RandomPolicy):
        return NO_PLAN
    return (tuple(bot._plan), *bot._plan_key)


def play_bots(
    names: list[str],
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: NipponData | None = None,
    redeal: bool = True,
    limit: int | None = None,
) -> int:
    """A game between the Python bots ``names`` (by seat); at each decision the native bot of the
    same name decides from the same position, generator and plan; returns the decisions."""
    players = len(names)
    state = new_game(players, seed, options=options, data=data)
    bots = []
    for seat, name in enumerate(names):
        bot = MAKERS[name]()
        bot.reset(seat, players, np.random.default_rng([seed, seat, 25]))
        bots.append(bot)
    hidden = np.random.default_rng([seed, 99])
    decisions = 0
    while not state.is_terminal() and (limit is None or decisions < limit):
        seat = state.current_player
        name, bot = names[seat], bots[seat]
        native = NativeNipponGame.from_state(state)
        rng = copy_generator(bot.rng)
        memory = memory_of(bot)
        chosen, after = native.bot_action(name, rng, memory)
        if redeal:  # the bag's order re-dealt: the same decision, draws and plan
            other = NativeNipponGame.from_state(state.view(seat).determinize(hidden))
            again = copy_generator(bot.rng)
            assert other.bot_action(name, again, memory) == (chosen, after), ("hidden", seed)
            assert again.bit_generator.state == rng.bit_generator.state
        expected = bot.act(Decision.for_game(GAME, state))
        assert chosen == expected, (names, seed, decisions, state.phase_name)
        assert rng.bit_generator.state == bot.rng.bit_generator.state, ("generator", decisions)
        assert after == memory_of(bot) or name == "random", ("plan", seed, decisions)
        SEEN[(name, Phase.NAMES[state.phase])] += 1
        if name != "random" and decisions % 7 == 0:
            for weights in (GREEDY, HEURISTIC):
                assert native.evaluate(seat, weights) == evaluate(state, seat, weights)
        state.apply_action(expected)
        decisions += 1
    return decisions


TABLES = {
    2: [["heuristic", "greedy"], ["random", "heuristic"]],
    3: [["greedy", "heuristic", "random"]],
    4: [["heuristic", "random", "greedy", "heuristic"]],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_native_bots_decide_as_the_python_bots(players: int) -> None:
    for k, names in enumerate(TABLES[players]):
        play_bots(names, 10 * players + k)


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_every_rules_option(case: str) -> None:
    play_bots(["heuristic", "greedy", "random"][: 2 + len(case) % 2], 40 + len(case),
              options=OPTION_CASES[case], limit=150)  # fmt: skip


def test_an_edited_data_file() -> None:
    data = parse_data(edited_text().encode("utf-8"), "edited-nippon.toml")
    play_bots(["greedy", "heuristic", "random"], 60, data=data, limit=200)


def test_the_bots_met_every_phase() -> None:
    """Runs after the games above (file order): the comparisons covered the decisions."""
    if not SEEN:
        pytest.skip("run with the comparisons above")
    for name in ("greedy", "heuristic"):
        for phase in ("turn", "finish"):
            assert SEEN[(name, phase)] > 0, (name, phase)
        assert sum(n for (bot, phase), n in SEEN.items() if bot == name and phase not in
                   ("turn", "finish")) > 0  # fmt: skip


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeNipponGame.new(2, 3)
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="unknown native bot"):
        native.bot_action("mcts", rng)
    with pytest.raises(TypeError, match="PCG64"):
        native.bot_action("greedy", np.random.Generator(np.random.MT19937(1)))
    core = native.handle
    weights, state = packed(GREEDY), rng_state(rng)
    for kind in (0, 4, True):
        with pytest.raises((ValueError, TypeError), match="bot kind"):
            core.bot_action(kind, state, weights, NO_PLAN)
    with pytest.raises(TypeError, match="weights"):
        core.bot_action(2, state, weights[:-1], NO_PLAN)
    with pytest.raises(ValueError, match="finite"):
        core.bot_action(2, state, (float("nan"), *weights[1:]), NO_PLAN)
    for memory in (((999,), 0, 0), ((1,), 0, 7), ((1,), -5, 0), ((1,) * 300, 0, 0)):
        with pytest.raises(ValueError, match="memory"):
            core.bot_action(2, state, weights, memory)
    with pytest.raises(TypeError, match="memory"):
        core.bot_action(2, state, weights, ((), 0))
    with pytest.raises(ValueError, match="generator"):
        core.bot_action(2, None, weights, NO_PLAN)
    with pytest.raises(ValueError, match="seat"):
        native.evaluate(2, GREEDY)


@pytest.mark.parametrize(("bot", "players"), [("random", 3), ("greedy", 2), ("heuristic", 4)])
def test_the_benchmark_games_are_the_python_bots_games(bot: str, players: int) -> None:
    """ni_bot_decisions (the bots' benchmark) plays the Python bots' games from the same seeds:
    game g deals from SeedSequence(seed, spawn_key=(g, 0)), seat s draws from (g, 1 + s)."""
    made = 0
    for game in range(2):
        deal = np.random.SeedSequence(17, spawn_key=(game, 0))
        state = new_game(players, rng=np.random.default_rng(deal))
        bots = []
        for seat in range(players):
            policy = MAKERS[bot]()
            seats = np.random.SeedSequence(17, spawn_key=(game, 1 + seat))
            policy.reset(seat, players, np.random.default_rng(seats))
            bots.append(policy)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player].act(Decision.for_game(GAME, state)))
            made += 1
    assert bot_decisions(bot, players, 2, 17) == made
    assert GAME.native_bot_decisions(bot, players, 2, 17) == made


def test_the_benchmark_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown native bot"):
        bot_decisions("mcts", 2, 1, 0)
    with pytest.raises(ValueError, match="2, 3 or 4"):
        bot_decisions("greedy", 5, 1, 0)
    for games, seed in ((-1, 0), (1, -1), (1, 2**32)):
        with pytest.raises(ValueError):
            bot_decisions("greedy", 2, games, seed)
