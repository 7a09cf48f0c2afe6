"""The observation vector: layout, perspective (self first), public information only (V1, V2),
the odds and the pending roll."""

from __future__ import annotations

import re

import numpy as np
import pytest

import airships_env.observation as observation_module
from airships_env.engine import (
    CHIP_DECISION,
    NUM_ACTIONS,
    attempt_odds,
    determinize,
    new_game,
    public_view,
    score_parts,
    scores,
)
from airships_env.engine.actions import NUM_ATTEMPT_ACTIONS, NUM_TARGETS, attempt_action
from airships_env.engine.cards import DEPARTMENTS
from airships_env.observation import (
    AIRSHIP_FEATURES,
    EXPANSION_FEATURES,
    ObservationEncoder,
    encode_observation,
    observation_high,
    observation_layout,
    observation_size,
    seat_names,
)
from tests.engine.helpers import (
    airship,
    expansion,
    give,
    hand_built,
    open_hindenburg,
    put,
    set_chips,
    set_stack,
)
from tests.env.helpers import random_states

PLAYER_COUNTS = (2, 3, 4)


# -- layout ------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_layout_covers_the_vector_once(num_players: int) -> None:
    layout = observation_layout(num_players)
    size = observation_size(num_players)
    covered = np.zeros(size, dtype=int)
    for piece in layout.values():
        covered[piece] += 1
    assert (covered == 1).all(), "pieces overlap or leave gaps"
    assert observation_high(num_players).shape == (size,)
    assert len(seat_names(num_players)) == num_players
    for who in seat_names(num_players):
        assert f"{who}.available_dice" in layout
    for name in ("odds.eligible", "odds.success", "odds.chip_decides"):
        assert len(range(size)[layout[name]]) == NUM_ATTEMPT_ACTIONS


def test_docstring_documents_the_layout() -> None:
    """The module docstring's table names every piece and states the right totals (PZ #922)."""
    doc = observation_module.__doc__ or ""
    totals = dict(re.findall(r"(\d) players (\d+)", doc))
    assert {int(n): int(size) for n, size in totals.items()} == {
        n: observation_size(n) for n in PLAYER_COUNTS
    }
    documented = set(re.findall(r"^(\S+)\s{2,}", doc, re.M))
    for name in observation_layout(4):
        generic = re.sub(r"^(self|opponent\d)\.", "<who>.", name)
        generic = re.sub(r"^board\.[a-z]+\.\d", "board.<department>.<slot>", generic)
        generic = re.sub(r"\.slot\.[a-z]+$", ".slot.<department>", generic)
        generic = re.sub(r"^airship_stack\.\d\.", "airship_stack.<i>.", generic)
        generic = re.sub(r"^hindenburg\.\d", "hindenburg.<j>", generic)
        assert generic in documented, f"{name} ({generic}) is not in the docstring table"
    assert sum(s.stop - s.start for s in EXPANSION_FEATURES.values()) == 32
    assert sum(s.stop - s.start for s in AIRSHIP_FEATURES.values()) == 9


def test_bad_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="num_players"):
        observation_layout(5)


# -- perspective and named slices (V1) ------------------------------------------------------------
def _table_state():
    """Three companies with distinct, known contents; seat 1 to act."""
    state = hand_built(3, seed=4)
    give(state, 1, "engineer-13", "materials-12", "engine-14")
    give(state, 2, "financier-24")
    set_chips(state, 0, 1, 5)
    set_chips(state, 1, 4, 2)
    set_chips(state, 2, 0, 5)
    state.players[2].airships = [airship(state, "airship-D2")]
    state.players[1].airships = [airship(state, "airship-L3")]
    set_stack(state, 1, ["airship-D1", "airship-M1"])
    put(state, 12, "engine-21")  # engine row, slot 1
    state.wooden_airship = 2
    open_hindenburg(state)
    state.hindenburg[0] = 2
    state.current_player = 1
    state.removed = [expansion(state, "hangar-11")]
    return state


def test_named_slices_hold_the_right_values() -> None:
    """A hand-built state: "my red dice", my chips, the board card, the holders (V1)."""
    state = _table_state()
    layout = observation_layout(3)
    obs = encode_observation(state, 1)

    def piece(name: str) -> np.ndarray:
        return obs[layout[name]]

    # Seat 1 holds: entrepreneur side I (1 white) + Engineer fixed red 4 + Materials 3W->2R.
    np.testing.assert_allclose(piece("self.available_dice"), [1 / 6, 1 / 6, 0])
    np.testing.assert_allclose(piece("self.rollable_dice"), [1 / 6, 0, 0])
    np.testing.assert_allclose(piece("self.fixed_dice"), [0, 4 / 8, 0])
    np.testing.assert_allclose(piece("self.exchange_give"), [1, 0, 0])
    np.testing.assert_allclose(piece("self.exchange_get"), [0, 2 / 3, 0])
    np.testing.assert_allclose(piece("self.engine_bonuses"), [0, 0, 0, 0.5])
    np.testing.assert_allclose(piece("self.chips_on_board"), [4 / 6])
    np.testing.assert_allclose(piece("self.supply"), [2 / 6])
    engineer = piece("self.slot.engineer")
    np.testing.assert_allclose(engineer[EXPANSION_FEATURES["fixed_die"]], [0, 0.5, 0])
    assert engineer[EXPANSION_FEATURES["department"]].argmax() == DEPARTMENTS.index("engineer")
    assert piece("self.slot.financier").sum() == 0  # empty slot
    airships = piece("self.airships")
    assert airships.sum() == 1 and airships[airship(state, "airship-L3")] == 1
    # opponent1 is seat 2: Financier 3 stars, airship D2, Hindenburg phase 1.
    np.testing.assert_allclose(piece("opponent1.score"), [scores(state)[2] / 50], rtol=1e-6)
    parts = score_parts(state, 2)
    np.testing.assert_allclose(
        piece("opponent1.score_parts"),
        np.array([parts["expansions"], parts["airships"], parts["hindenburg"]]) / 50,
        rtol=1e-6,
    )
    np.testing.assert_allclose(piece("opponent1.hindenburg_phases"), [0.25])
    np.testing.assert_allclose(piece("opponent2.chips_on_board"), [1 / 6])  # seat 0
    # Relative one-hots: seat 1 acts (self); seat 2 holds the wooden airship and phase 1.
    np.testing.assert_array_equal(piece("current_player"), [1, 0, 0])
    np.testing.assert_array_equal(piece("wooden_airship"), [0, 1, 0, 0])
    hindenburg_1 = piece("hindenburg.1")
    assert hindenburg_1[0] == 0 and hindenburg_1[1] == 1
    np.testing.assert_array_equal(hindenburg_1[2:5], [0, 1, 0])
    assert piece("hindenburg.2")[0] == 1  # open and not completed: available
    board_card = piece("board.engine.1")
    np.testing.assert_allclose(board_card[EXPANSION_FEATURES["target"]], [15 / 25])
    np.testing.assert_allclose(board_card[EXPANSION_FEATURES["engine_bonus"]], [0, 0, 0.5, 0])
    assert piece("board.engine.2").sum() == 0
    np.testing.assert_allclose(piece("airship_stack.2.height"), [2 / 3])
    top = piece("airship_stack.2.top")
    np.testing.assert_allclose(top[AIRSHIP_FEATURES["target"]], [15 / 25])  # airship-M1
    assert piece("airship_stack.1.top").sum() == 0  # emptied to open the Hindenburg
    assert piece("removed")[expansion(state, "hangar-11")] == 1 and piece("removed").sum() == 1
    assert piece("hindenburg_open")[0] == 1


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_each_seat_sees_itself_first(num_players: int) -> None:
    """The same state seen by every seat: a seat's own block comes first, the others follow in
    seat order, and the blocks are the same data moved (perspective)."""
    layout = observation_layout(num_players)
    names = seat_names(num_players)
    block = {
        who: slice(layout[f"{who}.slot.financier"].start, layout[f"{who}.tie_break"].stop)
        for who in names
    }
    for state in random_states(num_players, games=2, seed=11, every=23):
        seen = [encode_observation(state, seat) for seat in range(num_players)]
        company = {}
        for seat in range(num_players):
            for relative, who in enumerate(names):
                player = (seat + relative) % num_players
                data = seen[seat][block[who]]
                if player in company:
                    np.testing.assert_array_equal(data, company[player])
                company[player] = data
            chips = seen[seat][layout["self.chips_on_board"]][0]
            assert chips == pytest.approx(min(state.players[seat].chips_on_board / 6, 4))
            current = seen[seat][layout["current_player"]]
            assert current.argmax() == (state.current_player - seat) % num_players
        if num_players > 2:  # different seats do see different vectors
            assert not np.array_equal(seen[0], seen[1])


# -- hidden information (V2) --------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_hidden_order_never_changes_an_observation(num_players: int) -> None:
    """V2: states equal in public information but with the deck, the cards under the stack tops
    and the cards left out dealt differently give every seat the same vector."""
    rng = np.random.default_rng(5)
    checked = 0
    for state in random_states(num_players, games=2, seed=21, every=11):
        other = determinize(state, rng)
        if other.deck == state.deck and other.left_out == state.left_out:
            continue
        checked += 1
        for seat in range(num_players):
            mine = encode_observation(state, seat)
            np.testing.assert_array_equal(mine, encode_observation(other, seat))
            np.testing.assert_array_equal(mine, encode_observation(public_view(state), seat))
    assert checked > 5


def test_same_public_history_same_observations() -> None:
    """Two games that differ only in hidden cards that are not revealed during the test (the
    bottom of the deck, the airships left out) and see the same actions and dice: every agent
    gets identical observations at every step (V2)."""
    for num_players in PLAYER_COUNTS:
        game = new_game(num_players, seed=31 + num_players)
        twin = game.clone()  # the same generator state: the same dice
        hidden = 10
        rng = np.random.default_rng(3)
        twin.deck[:hidden] = list(rng.permutation(twin.deck[:hidden]))
        twin.left_out = list(rng.permutation(twin.left_out))
        assert twin.deck != game.deck
        encoder_a = ObservationEncoder(game.cards, num_players)
        encoder_b = ObservationEncoder(game.cards, num_players)
        steps = 0
        while not game.is_terminal() and len(game.deck) > hidden:
            for seat in range(num_players):
                np.testing.assert_array_equal(
                    encoder_a.encode(game, seat), encoder_b.encode(twin, seat)
                )
            legal = game.legal_actions()
            assert twin.legal_actions() == legal
            action = legal[int(rng.integers(len(legal)))]
            game.apply_action(action)
            twin.apply_action(action)
            steps += 1
        assert steps > 20


def test_encoder_never_reads_hidden_fields() -> None:
    """Poisoned hidden parts (no generator, nonsense under the stack tops) change nothing."""
    state = new_game(4, seed=9)
    expected = encode_observation(state, 2)
    poisoned = state.clone()
    poisoned.rng = None
    poisoned.left_out = []
    poisoned.deck = [0] * len(poisoned.deck)
    for stack in poisoned.stacks:
        stack[:-1] = [0] * (len(stack) - 1)
    np.testing.assert_array_equal(encode_observation(poisoned, 2), expected)


# -- odds and pending roll ------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_odds_are_the_engines(num_players: int) -> None:
    """Every seat's odds piece equals the engine's attempt_odds for every attempt action, each
    value the double rounded once to float32."""
    layout = observation_layout(num_players)
    encoder = ObservationEncoder(new_game(num_players, seed=0).cards, num_players)
    checked = 0
    for state in random_states(num_players, games=3, seed=41, every=5):
        for seat in range(num_players):
            obs = encoder.encode(state, seat)
            eligible = obs[layout["odds.eligible"]]
            success = obs[layout["odds.success"]]
            chip = obs[layout["odds.chip_decides"]]
            for action in range(NUM_ATTEMPT_ACTIONS):
                odds = attempt_odds(state, action, seat)
                if odds is None:
                    assert eligible[action] == 0 and success[action] == 0 and chip[action] == 0
                else:
                    checked += 1
                    assert eligible[action] == 1
                    assert success[action] == np.float32(odds.success)
                    assert chip[action] == np.float32(odds.chip_decides)
    assert checked > 100


def test_odds_follow_the_wooden_airship() -> None:
    """T5: the wooden airship's +1 shows in its holder's odds (the encoder asks the engine)."""
    state = hand_built(2, seed=3)
    give(state, 0, "hangar-11")  # 1 + 2 white dice
    target = 6  # captain row, slot 1
    put(state, target, "captain-11")  # 3 white, target 7
    layout = observation_layout(2)
    action = attempt_action(target)
    without = encode_observation(state, 0)[layout["odds.success"]][action]
    state.wooden_airship = 0
    with_token = encode_observation(state, 0)[layout["odds.success"]][action]
    assert with_token > without > 0
    odds = attempt_odds(state, action, 0)
    assert odds is not None and with_token == np.float32(odds.success)


def test_pending_roll_is_shown_during_a_chip_decision() -> None:
    rng = np.random.default_rng(0)
    layout = observation_layout(2)
    for state in random_states(2, games=20, seed=51, every=1):
        if state.phase == CHIP_DECISION:
            pending = state.pending
            for seat in (0, 1):
                obs = encode_observation(state, seat)
                assert obs[layout["pending.active"]][0] == 1
                assert obs[layout["pending.target"]].argmax() == pending.target
                assert obs[layout["pending.total"]][0] == pytest.approx(pending.total / 25)
                assert obs[layout["pending.needed"]][0] == pytest.approx(pending.needed / 25)
                rolled = obs[layout["pending.rolled"]].reshape(3, 3)
                for colour in range(3):
                    faces = sorted(pending.rolled[colour], reverse=True)
                    np.testing.assert_allclose(rolled[colour][: len(faces)], np.array(faces) / 8)
            return
        assert encode_observation(state, 0)[layout["pending.active"]][0] == 0
    del rng
    pytest.fail("no chip decision met")


# -- values --------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_values_are_finite_and_within_bounds(num_players: int) -> None:
    high = observation_high(num_players)
    size = observation_size(num_players)
    for state in random_states(num_players, games=2, seed=61, every=3):
        obs = encode_observation(state, state.current_player)
        assert obs.shape == (size,) and obs.dtype == np.float32
        assert np.isfinite(obs).all() and (obs >= 0).all() and (obs <= high).all()


def test_fresh_arrays_every_call() -> None:
    state = new_game(2, seed=1)
    first = encode_observation(state, 0)
    second = encode_observation(state, 0)
    assert first is not second and not np.shares_memory(first, second)
    first[:] = 7
    np.testing.assert_array_equal(second, encode_observation(state, 0))


def test_encoder_refuses_a_wrong_state() -> None:
    state = new_game(3, seed=1)
    encoder = ObservationEncoder(state.cards, 4)
    with pytest.raises(ValueError, match="4 players"):
        encoder.encode(state, 0)
    with pytest.raises(ValueError, match="seat"):
        ObservationEncoder(state.cards, 3).encode(state, 3)
    assert NUM_ACTIONS == 83 and NUM_TARGETS == 26
