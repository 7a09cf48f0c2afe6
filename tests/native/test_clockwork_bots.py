"""Clockwork City's bots in C (issue 25) against the Python bots, the reference: at every
decision of seeded games between the bots (every player count, both discard_recall options,
other rules options, an edited data file), the native bot given the same position and the same
generator state chooses what the Python bot chooses and leaves its generator where the Python
bot leaves it. And the native bots read only the seat's view: re-dealing everything the view
hides (other hands beyond the seat's knowledge, the piles' order, the place faces under no
recall) never changes a decision."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

from agents.bots.clockwork import GreedyBot, HeuristicBot
from airships_env.chance import copy_generator
from airships_env.games.clockwork import GAME
from airships_env.games.clockwork.engine import ClockworkData, RulesOptions, new_game
from airships_env.native.clockwork import NativeClockworkGame, bot_decisions
from airships_env.policy import Decision, RandomPolicy

MAKERS: dict[str, Any] = {"random": RandomPolicy, "greedy": GreedyBot, "heuristic": HeuristicBot}
SEEN: collections.Counter[tuple[str, str]] = collections.Counter()


def play_bots(
    names: list[str],
    seed: int,
    *,
    options: RulesOptions | None = None,
    data: ClockworkData | None = None,
    threshold: float | None = None,
    redeal: bool = True,
) -> int:
    """One game between the Python bots ``names`` (by seat); at each decision the native bot of
    the same name decides from the same position and generator; returns the decisions."""
    players = len(names)
    state = new_game(players, seed, options=options, data=data)
    bots = []
    for seat, name in enumerate(names):
        bot = HeuristicBot(threshold=threshold) if name == "heuristic" and threshold else None
        bot = bot if bot is not None else MAKERS[name]()
        bot.reset(seat, players, np.random.default_rng([seed, seat, 25]))
        bots.append(bot)
    hidden = np.random.default_rng([seed, 99])
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        name, bot = names[seat], bots[seat]
        native = NativeClockworkGame.from_state(state)
        rng = copy_generator(bot.rng)
        kwargs = {"threshold": threshold} if threshold else {}
        chosen = native.bot_action(name, rng, **kwargs)
        if redeal:  # the view's hidden parts re-dealt at random: the same decision
            other = NativeClockworkGame.from_state(state.view(seat).determinize(hidden))
            again = copy_generator(bot.rng)
            assert other.bot_action(name, again, **kwargs) == chosen, ("hidden", seed, decisions)
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
}


@pytest.mark.parametrize("recall", ["perfect", "none"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_native_bots_decide_as_the_python_bots(players: int, recall: str) -> None:
    options = RulesOptions(discard_recall=recall, max_turns=50)
    decisions = 0
    for k, seed in enumerate(range(16)):
        names = TABLES[players][k % len(TABLES[players])]
        decisions += play_bots(names, 40 + seed, options=options)
    assert decisions > 800


@pytest.mark.parametrize(
    "options",
    [
        RulesOptions(scrap_to="discards", white_field_exact=True, max_turns=50),
        RulesOptions(lucky_rolls="from_scrapyard", first_player="seat0", max_turns=50),
    ],
    ids=["scrap_to_discards", "from_scrapyard"],
)
def test_other_rules_options(options: RulesOptions) -> None:
    for seed in range(6):
        players = 2 + seed % 3
        play_bots(TABLES[players][0], 700 + seed, options=options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_data_file(players: int, edited_data: ClockworkData) -> None:
    for seed in range(4):
        play_bots(
            TABLES[players][0], 800 + seed, options=RulesOptions(max_turns=50), data=edited_data
        )


def test_another_heuristic_threshold() -> None:
    for seed in range(4):
        play_bots(["heuristic", "heuristic", "greedy"], 900 + seed, threshold=0.12)


def test_the_games_reached_every_kind_of_decision() -> None:
    """Runs after the games above (file order): the comparisons covered every choice."""
    if not SEEN:
        pytest.skip("run with the comparisons above")
    for bot in ("greedy", "heuristic"):
        for phase in ("move", "act", "demand", "counter", "discard", "place", "give back"):
            assert SEEN[(bot, phase)] > 0, (bot, phase)
    assert SEEN[("random", "move")] > 0


def test_bad_arguments_are_python_exceptions() -> None:
    native = NativeClockworkGame.new(2, 5)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="unknown native bot"):
        native.bot_action("ismcts", rng)
    with pytest.raises(TypeError, match="PCG64"):
        native.bot_action("greedy", np.random.Generator(np.random.MT19937(0)))
    core = native.handle
    state = (1, 1, 0, 0)
    for kind in (0, 4, -1, 10**30):
        with pytest.raises(ValueError, match="bot kind"):
            core.bot_action(kind, state, 0.3)
    with pytest.raises(ValueError, match="generator"):
        core.bot_action(2, None, 0.3)
    with pytest.raises(ValueError, match="NaN"):
        core.bot_action(3, state, float("nan"))
    with pytest.raises(TypeError):
        core.bot_action(3, state, "high")
    finished = new_game(2, 5, options=RulesOptions(max_turns=1))
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        NativeClockworkGame.from_state(finished).bot_action("random", rng)


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic"])
def test_the_benchmark_games_are_the_python_bots_games(bot: str) -> None:
    """bot_decisions (the bots' benchmark) plays what the Python bots play from the same seeds:
    game g deals from SeedSequence(seed, spawn_key=(g, 0)), seat s's bot draws from (g, 1 + s)."""
    for players in (2, 3, 4):
        made = 0
        for game in range(3):
            state = new_game(
                players, rng=np.random.default_rng(np.random.SeedSequence(9, spawn_key=(game, 0)))
            )
            bots = [MAKERS[bot]() for _ in range(players)]
            for seat, python_bot in enumerate(bots):
                python_bot.reset(
                    seat,
                    players,
                    np.random.default_rng(np.random.SeedSequence(9, spawn_key=(game, 1 + seat))),
                )
            while not state.is_terminal():
                state.apply_action(bots[state.current_player].act(Decision.for_game(GAME, state)))
                made += 1
        assert bot_decisions(bot, players, 3, 9) == made
    with pytest.raises(ValueError, match="unknown native bot"):
        bot_decisions("mcts", 2, 1, 0)
    with pytest.raises(ValueError, match="2 to 4"):
        bot_decisions("greedy", 5, 1, 0)
