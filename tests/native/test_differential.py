"""Differential tests: the native core and the Python engine play the same seeds and actions and
must agree at every step (EnvPool's alignment tests, pgx's reference games): the deal, the legal
actions, every record, the observations of every seat (bit for bit), and the final state.

The default run plays a few hundred games; ``make test-slow`` plays many thousands.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from agents.bots import GreedyAgent, HeuristicAgent
from airships_env.engine import GameState, RulesOptions, new_game, read_log
from airships_env.engine.cards import CardSet
from airships_env.native import NativeGame
from airships_env.observation import encoder_for
from airships_env.policy import Decision
from tests.engine.helpers import cards_with

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Float32 arrays equal bit for bit."""
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint32), b.view(np.uint32)))


def play_both(
    players: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    cards: CardSet | None = None,
    every_seat_every: int = 4,
    max_steps: int = 2_000,
) -> int:
    """One random game in both engines, compared at every step; returns its length. Games that
    cannot end (stalemate_ends_game off) are compared for ``max_steps`` actions."""
    python = new_game(players, seed=seed, options=options, cards=cards)
    native = NativeGame.new(players, seed=seed, options=options, cards=cards)
    assert native.to_state().to_dict() == python.to_dict(), "the deal"
    encoder = encoder_for(python.cards, players)
    rng = np.random.default_rng([seed, players, 17])
    step = 0
    while not python.is_terminal() and step < max_steps:
        legal = python.legal_actions()
        assert native.legal_actions() == legal, ("legal actions", step)
        seats = range(players) if step % every_seat_every == 0 else (python.current_player,)
        for seat in seats:
            assert same_bits(native.observe(seat), encoder.encode(python, seat)), (
                "obs",
                step,
                seat,
            )
        action = legal[int(rng.integers(len(legal)))]
        assert native.apply_action(action) == python.apply_action(action), ("record", step)
        step += 1
    assert native.is_terminal() == python.is_terminal()
    assert native.to_state().to_dict() == python.to_dict(), "the final state"
    return step


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(players: int) -> None:
    steps = sum(play_both(players, seed) for seed in range(60))
    assert steps > 60 * 40


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_agree_step_by_step(players: int) -> None:
    for seed in range(1000, 2500):
        play_both(players, seed, every_seat_every=16)


OPTION_NAMES = (
    "reveal_after_change_of_era",
    "hindenburg_any_order",
    "engine_bonus_needs_cost_colour",
    "wooden_airship_with_opening_airship",
    "stalemate_ends_game",
)


@pytest.mark.parametrize(
    "values", list(itertools.product((False, True), repeat=len(OPTION_NAMES))), ids=str
)
def test_every_rules_option_combination_agrees(values: tuple[bool, ...]) -> None:
    options = RulesOptions(**dict(zip(OPTION_NAMES, values, strict=True)))
    for seed in range(4):
        play_both(2 + seed % 3, 300 + seed, options=options)


@pytest.fixture(scope="module")
def edited_cards(tmp_path_factory: pytest.TempPathFactory) -> CardSet:
    """A card file unlike the default: several bonuses on one Engine, a high black fixed die, an
    exchange giving two colours, other targets, stars and Hindenburg values, other entrepreneurs."""
    edits = [
        (
            "engine-14",
            "engine_bonuses",
            '[ { colour = "white", amount = 1 }, { colour = "red", amount = 2 }, { colour = "any", amount = 1 } ]',
        ),
        ("engineer-11", "fixed_die", '{ colour = "black", value = 9 }'),
        ("engineer-13", "fixed_die", '{ colour = "white", value = 2 }'),
        ("materials-12", "exchange", "{ give = { white = 2, red = 1 }, get = { black = 1 } }"),
        ("materials-21", "exchange", "{ give = { red = 1 }, get = { white = 1, black = 1 } }"),
        ("airship-L1", "target", "6"),
        ("airship-D2", "stars", "9"),
        ("financier-11", "stars", "3"),
        ("financier-12", "stars", "30"),  # a card feature past the vector's bound (clipped)
        ("hangar-11", "dice", "{ white = 3 }"),
        ("hangar-21", "dice", "{ black = 3 }"),
        ("hindenburg-4", "target", "20"),
    ]
    cards = cards_with(tmp_path_factory.mktemp("cards"), edits)
    assert cards.expansions[cards.expansion_index["engine-14"]].engine_bonuses[1].amount == 2
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_edited_card_file_agrees(players: int, edited_cards: CardSet) -> None:
    for seed in range(25):
        play_both(players, 500 + seed, cards=edited_cards)


@pytest.mark.parametrize("name", ["2p_hindenburg", "3p_stacks", "4p_chip_extra_era"])
def test_the_golden_games_replay_in_the_core(name: str) -> None:
    """A game log written by the Python engine replays in the core: every record, the end."""
    log = read_log(GOLDEN / f"{name}.jsonl")
    native = NativeGame.from_state(GameState.from_dict(log.initial_state))
    for logged in log.records:
        assert native.apply_action(logged.action) == logged
    final = (GOLDEN / f"{name}.final.json").read_text(encoding="utf-8")
    import json

    assert native.to_state().to_dict() == json.loads(final)


def test_a_core_game_log_replays_in_the_engine() -> None:
    """The other way: records made by the core form a log the Python engine replays."""
    from airships_env.engine import GameLog

    for seed in range(10):
        native = NativeGame.new(3, seed=seed)
        log = GameLog.start(native.to_state(), seed=seed)
        rng = np.random.default_rng(seed)
        while not native.is_terminal():
            legal = native.legal_actions()
            log.records.append(native.apply_action(legal[int(rng.integers(len(legal)))]))
        assert log.replay().to_dict() == native.to_state().to_dict()


def test_states_round_trip_through_the_core() -> None:
    """from_state/to_state keep everything, chip decisions and views included."""
    for seed in range(20):
        state = new_game(4, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            assert NativeGame.from_state(state).to_state().to_dict() == state.to_dict()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        assert NativeGame.from_state(state).to_state().to_dict() == state.to_dict()


def test_views_determinization_and_odds_agree() -> None:
    from airships_env.engine import attempt_odds, determinize, public_view

    for seed in range(12):
        state = new_game(2 + seed % 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            native = NativeGame.from_state(state)
            assert native.public_view().to_state().to_dict() == public_view(state).to_dict()
            python_rng, native_rng = np.random.default_rng(seed), np.random.default_rng(seed)
            sample = determinize(public_view(state), python_rng)
            native_sample = native.public_view().determinize(native_rng)
            assert native_sample.to_state().to_dict() == sample.to_dict()
            assert native_rng.bit_generator.state == python_rng.bit_generator.state
            for action in range(78):
                for player in range(state.num_players):
                    assert native.attempt_odds(action, player) == attempt_odds(
                        state, action, player
                    )
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def bot_states(players: int, games: int, seed: int) -> list[GameState]:
    """States from games played by a mix of heuristic, greedy and random moves."""
    heuristic = HeuristicAgent()
    found = []
    for game in range(games):
        state = new_game(players, seed=seed + game)
        rng = np.random.default_rng(seed + game)
        while not state.is_terminal():
            found.append(state.clone())
            decision = Decision.from_state(state)
            legal = decision.legal_actions
            if rng.random() < 0.6:
                heuristic.reset(state.current_player, players, rng)
                action = heuristic.act(decision)
            else:
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
    return found


def check_bots_agree(states: list[GameState]) -> int:
    greedy, heuristic = GreedyAgent(), HeuristicAgent()
    greedy_config, heuristic_config = greedy.config.native(), heuristic.config.native()
    checked = 0
    for state in states:
        decision = Decision.from_state(state)
        native = NativeGame.from_state(state)
        legal = list(decision.legal_actions)
        for kind, bot, config in ((2, greedy, greedy_config), (3, heuristic, heuristic_config)):
            bot.reset(state.current_player, state.num_players, np.random.default_rng(0))
            assert native.bot_action(kind, config, legal) == bot.act(decision), (kind, legal)
            checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_bots_choose_as_the_python_bots(players: int) -> None:
    assert check_bots_agree(bot_states(players, games=6, seed=40 * players)) > 300


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_bots_choose_as_the_python_bots_in_many_games(players: int) -> None:
    check_bots_agree(bot_states(players, games=150, seed=9000 + 1000 * players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_observation_layout_and_bounds_agree(players: int) -> None:
    from airships_env.native import require
    from airships_env.observation import observation_high, observation_size

    assert require().obs_size(players) == observation_size(players)
    high = np.array(require().obs_high(players), dtype=np.float32)
    assert same_bits(high, observation_high(players))
