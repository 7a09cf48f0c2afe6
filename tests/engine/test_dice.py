"""Dice maths: exact distributions against hand-computed cases, the odds of attempts, and a
Monte Carlo check of the engine's real rolling against the exact odds.

Faces: white 1,1,2,2,3,3 (each value 1/3); red 2,3,3,4,4,5 (2: 1/6, 3: 2/6, 4: 2/6, 5: 1/6);
black 4,4,6,6,8,8 (each value 1/3).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from airships_env.engine import attempt_odds
from airships_env.engine.actions import EXCHANGE, FIRST_PHASE_TARGET, attempt_action
from airships_env.engine.cards import BLACK, RED, WHITE
from airships_env.engine.dice import (
    FACES,
    attempt_distribution,
    best_sum,
    check_forced_roll,
    colour_distribution,
    count_at_least,
    roll,
    uniform_below,
)
from airships_env.engine.dice import attempt_odds as shape_odds
from airships_env.engine.state import GameState

from .helpers import cards_with, give, hand_built, open_hindenburg, place, set_chips


def p_at_least(shape: tuple, needed: int) -> Fraction:  # type: ignore[type-arg]
    at_least, denominator = count_at_least(shape, needed)
    return Fraction(at_least, denominator)


def test_faces() -> None:
    assert FACES == ((1, 1, 2, 2, 3, 3), (2, 3, 3, 4, 4, 5), (4, 4, 6, 6, 8, 8))
    assert best_sum([3, 1, 2], 2) == 5 and best_sum([3], 2) == 3 and best_sum([], 1) == 0


def test_one_colour_distributions_by_hand() -> None:
    # 1 white: each of 1, 2, 3 on 2 faces of 6
    assert colour_distribution((WHITE, 1, 1, ())) == (6, ((1, 2), (2, 2), (3, 2)))
    # 2 white, both kept: each value pair is 2*2 = 4 of the 36 outcomes; sums 2..6 come from
    # 1, 2, 3, 2, 1 value pairs -> 4, 8, 12, 8, 4
    assert colour_distribution((WHITE, 2, 2, ())) == (36, ((2, 4), (3, 8), (4, 12), (5, 8), (6, 4)))
    # only a fixed die: no roll, one outcome
    assert colour_distribution((RED, 0, 1, (4,))) == (1, ((4, 1),))
    # 1 black kept 1: 4, 6, 8 on 2 faces each
    assert colour_distribution((BLACK, 1, 1, ())) == (6, ((4, 2), (6, 2), (8, 2)))


def test_attempt_odds_by_hand() -> None:
    # 2 white, best 2 >= 5: value pairs (2,3), (3,2), (3,3): 3 of 9 -> 12/36
    assert p_at_least(((WHITE, 2, 2, ()),), 5) == Fraction(12, 36)
    # 3 white rolled, best 2 >= 5 (more dice rolled than kept, X1): over 27 value triples, the
    # best two are 3+2 or 3+3 iff there is a 3 (27 - 8 = 19 triples) and not (one 3 with two
    # 1s: 3 triples) -> 16/27
    assert p_at_least(((WHITE, 3, 2, ()),), 5) == Fraction(16, 27)
    # 1 white rolled + fixed white 3, best 2 >= 5: the rolled die must show 2 or 3 -> 2/3
    assert p_at_least(((WHITE, 1, 2, (3,)),), 5) == Fraction(2, 3)
    # 1 red >= 4: faces 4, 4, 5 -> 1/2
    assert p_at_least(((RED, 1, 1, ()),), 4) == Fraction(1, 2)
    # 2 red rolled, best 1 >= 5: 1 - (5/6)^2 = 11/36
    assert p_at_least(((RED, 2, 1, ()),), 5) == Fraction(11, 36)
    # 1 red + 1 black >= 10: black 4 never; black 6 needs red >= 4 (1/2); black 8 always
    # -> (0 + 1/2 + 1) / 3 = 1/2
    assert p_at_least(((RED, 1, 1, ()), (BLACK, 1, 1, ())), 10) == Fraction(1, 2)
    # 3 black, best 2 >= 16: at least two 8s: 3 * (1/3)^2 * (2/3) + (1/3)^3 = 7/27
    assert p_at_least(((BLACK, 3, 2, ()),), 16) == Fraction(7, 27)
    # 1 black >= 5: only even sums exist; 6 and 8 -> 2/3
    assert p_at_least(((BLACK, 1, 1, ()),), 5) == Fraction(2, 3)
    # out of range: always / never
    assert p_at_least(((WHITE, 2, 2, ()),), 2) == 1 == p_at_least(((WHITE, 2, 2, ()),), -3)
    assert p_at_least(((WHITE, 2, 2, ()),), 7) == 0


def test_attempt_distribution_is_the_convolution_of_its_colours() -> None:
    shape = ((WHITE, 2, 1, ()), (RED, 3, 2, (4,)), (BLACK, 1, 1, ()))
    denominator, counts = attempt_distribution(shape)
    assert denominator == 6**6 and sum(c for _, c in counts) == denominator
    # brute force over every face of every die
    brute: dict[int, int] = {}
    for w1 in FACES[WHITE]:
        for w2 in FACES[WHITE]:
            for r1 in FACES[RED]:
                for r2 in FACES[RED]:
                    for r3 in FACES[RED]:
                        for b in FACES[BLACK]:
                            total = max(w1, w2) + best_sum([r1, r2, r3, 4], 2) + b
                            brute[total] = brute.get(total, 0) + 1
    assert dict(counts) == brute


def test_shape_odds_and_the_chip() -> None:
    shape = ((WHITE, 2, 2, ()),)
    # target 6 with bonus 1: the dice need 5 (12/36); a chip decides a dice sum of exactly 4
    odds = shape_odds(shape, target=6, bonus=1, has_chip=True)
    assert odds.exact == (Fraction(12, 36), Fraction(12, 36), Fraction(24, 36))
    assert odds.success == pytest.approx(1 / 3) and odds.success_with_chip == pytest.approx(2 / 3)
    no_chip = shape_odds(shape, target=6, bonus=1, has_chip=False)
    assert no_chip.exact == (Fraction(12, 36), Fraction(12, 36), Fraction(12, 36))


def _x2_state(tmp_path: Path) -> GameState:
    """The X2 player (see test_rules): 5 white, 3 red, fixed white 3, 3 white -> 1 black."""
    cards = cards_with(tmp_path, [("captain-24", "dice", "{ white = 1, red = 1 }")])
    state = hand_built(era=2, cards=cards)
    give(state, 0, "financier-12", "hangar-11", "captain-24", "engineer-11", "materials-13")
    set_chips(state, 0, 1, 5)
    return state


def test_attempt_odds_with_exchange(tmp_path: Path) -> None:
    state = _x2_state(tmp_path)
    target = place(state, "engine-21")  # 1 white + 1 red + 1 black, 15
    assert attempt_odds(state, attempt_action(target)) is None  # no black die without the exchange
    odds = attempt_odds(state, attempt_action(target, EXCHANGE))
    assert odds is not None
    # white: the fixed 3 is always best. Red, best of 3: P(max=5) = 1 - (5/6)^3 = 91/216,
    # P(max=4) = (5/6)^3 - (1/2)^3 = 98/216, P(max=3) = 1/8 - 1/216 = 26/216.
    # 15 needs red + black >= 12: black 8 and red >= 4 -> (91 + 98)/216 / 3 = 7/24.
    # A chip decides 14: black 8 + red 3 or black 6 + red 5 -> (26 + 91)/216 / 3 = 13/72.
    assert odds.exact == (Fraction(7, 24), Fraction(13, 72), Fraction(7, 24) + Fraction(13, 72))
    set_chips(state, 0, 0, 6)
    odds = attempt_odds(state, attempt_action(target, EXCHANGE))
    assert odds is not None and odds.exact[2] == Fraction(7, 24)  # no chip on the board


def test_attempt_odds_exchange_and_plain_differ() -> None:
    state = hand_built()
    give(state, 0, "financier-S1", "hangar-11", "materials-11")  # 4 white; 2 white -> 1 red
    set_chips(state, 0, 1, 5)
    hangar = place(state, "hangar-12")  # 1 white + 1 red, 6
    assert attempt_odds(state, attempt_action(hangar)) is None
    odds = attempt_odds(state, attempt_action(hangar, EXCHANGE))
    assert odds is not None
    # 2 white (4 - 2 given), best 1: max 3: 5/9, 2: 3/9, 1: 1/9; red: 2: 1/6, 3, 4: 2/6, 5: 1/6
    # >= 6: 5/9 * 5/6 + 3/9 * 3/6 + 1/9 * 1/6 = 35/54; exactly 5: 5/9*1/6 + 3/9*2/6 + 1/9*2/6
    assert odds.exact[:2] == (Fraction(35, 54), Fraction(13, 54))
    plain = place(state, "engine-11")  # 2 white, 5: 3 white rolled (of 4), best 2 -> 16/27
    odds = attempt_odds(state, attempt_action(plain))
    assert odds is not None and odds.exact[0] == Fraction(16, 27)
    state.wooden_airship = 0  # +1: best 2 >= 4 fails only with all-1s (1/27) or 2+1+1 (3/27)
    state.legal_cache = None
    odds = attempt_odds(state, attempt_action(plain))
    assert odds is not None and odds.exact[0] == Fraction(23, 27)
    # for another player, with its own dice: 1 white only, not eligible
    assert attempt_odds(state, attempt_action(plain), player=1) is None


def test_attempt_odds_of_a_hindenburg_phase() -> None:
    state = hand_built(era=2)
    open_hindenburg(state)
    give(state, 0, "engineer-22")  # 1 red rolled, fixed black 7
    # phase 1: 2 red + 1 black, 15: impossible with 1 red (needs 2 red dice)
    assert attempt_odds(state, attempt_action(FIRST_PHASE_TARGET)) is None
    give(state, 0, "hangar-12")  # 2 red rolled
    odds = attempt_odds(state, attempt_action(FIRST_PHASE_TARGET))
    assert odds is not None
    # red pair >= 8 (black fixed 7): (4,4),(4,5),(5,4),(5,5),(3,5),(5,3): red values 3: 2/6,
    # 4: 2/6, 5: 1/6 -> 4/36 + 2*2/36 + 1/36 + 2*2/36 = 13/36
    assert odds.exact[0] == Fraction(13, 36)


def test_roll_shapes_faces_and_determinism() -> None:
    rng = np.random.default_rng(1)
    for counts in [(0, 0, 0), (3, 0, 0), (1, 2, 3), (3, 3, 3)]:
        faces = roll(rng, counts)
        assert tuple(len(f) for f in faces) == counts
        for colour in range(3):
            assert set(faces[colour]) <= set(FACES[colour])
    a, b = np.random.default_rng(5), np.random.default_rng(5)
    assert [roll(a, (2, 2, 2)) for _ in range(20)] == [roll(b, (2, 2, 2)) for _ in range(20)]
    assert uniform_below(rng, 1) == 0
    draws = [uniform_below(rng, 6) for _ in range(6000)]
    counts = np.bincount(draws, minlength=6)
    assert counts.sum() == 6000 and all(abs(c - 1000) < 4 * math.sqrt(1000 * 5 / 6) for c in counts)


def test_check_forced_roll() -> None:
    assert check_forced_roll((2, 0, 1), ((1, 3), (), (8,))) is None
    assert "3 colours" in str(check_forced_roll((2, 0, 1), ((1, 3), ())))
    assert "expected 2 white" in str(check_forced_roll((2, 0, 1), ((1,), (), (8,))))
    assert "not a face of a black die" in str(check_forced_roll((2, 0, 1), ((1, 3), (), (5,))))


# ---------------------------------------------------------------------------------------------
# Monte Carlo: the engine's real rolling against the exact odds
# ---------------------------------------------------------------------------------------------
def _scenarios(tmp_path: Path) -> list[tuple[str, GameState, int]]:
    found = []
    state = hand_built()
    give(state, 0, "financier-S1", "hangar-S1")  # 3 white
    set_chips(state, 0, 1, 5)
    found.append(("X1: 3 white best 2 >= 5", state, attempt_action(place(state, "financier-11"))))
    state = _x2_state(tmp_path)
    found.append(
        ("X2: exchange, fixed white", state, attempt_action(place(state, "engine-21"), EXCHANGE))
    )
    state = hand_built(era=2)
    open_hindenburg(state)
    give(state, 0, "financier-21", "hangar-22", "captain-22", "engineer-22")
    set_chips(state, 0, 1, 5)
    state.wooden_airship = 0
    found.append(
        ("phase 4: 3 red, 3 black + fixed 7", state, attempt_action(FIRST_PHASE_TARGET + 3))
    )
    state = hand_built()
    give(state, 0, "financier-S1", "engineer-13", "engine-14")  # fixed red 4, +1 any
    set_chips(state, 0, 1, 5)
    found.append(("fixed red, grey bonus", state, attempt_action(place(state, "captain-12"))))
    return found


def test_monte_carlo_success_matches_exact_odds(tmp_path: Path) -> None:
    trials = 3000
    for name, state, action in _scenarios(tmp_path):
        odds = attempt_odds(state, action)
        assert odds is not None, name
        results = {"success": 0, "failure": 0, "chip decision": 0}
        for seed in range(trials):
            sample = state.clone(rng=np.random.default_rng([seed, 77]))
            record = sample.apply_action(action)
            results[str(record.result)] += 1
        for key, exact in (("success", odds.success), ("chip decision", odds.chip_decides)):
            standard_error = math.sqrt(max(exact * (1 - exact), 1e-12) / trials)
            frequency = results[key] / trials
            assert abs(frequency - exact) <= 4 * standard_error, (name, key, frequency, exact)
        assert 0 < odds.success < 1 and odds.chip_decides > 0, name  # not a trivial case
