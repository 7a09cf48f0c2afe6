"""The card and roll text every rendering shows (airships_env/engine/text.py)."""

from __future__ import annotations

import numpy as np

from airships_env.engine import ActionRecord, ChipMove, ExchangeMade, Reveal, new_game
from airships_env.engine import text as words
from airships_env.engine.actions import BUY_EXTRA_TURN, END_TURN
from airships_env.engine.cards import default_cards


def card(card_id: str):
    """An expansion of the default set by id."""
    cards = default_cards()
    return cards.expansions[cards.expansion_index[card_id]]


def test_effects_as_tokens_and_plain_text() -> None:
    """Each department's effect, once, as tokens and as plain text."""
    for expansion in default_cards().expansions:
        parts = words.effect_parts(expansion)
        assert parts, expansion.id
        assert words.effect_text(expansion) == ", ".join(words.plain(p) for p in parts)
    assert words.effect_text(card("captain-S2")) == "dice +1W, +2 chips"
    assert words.effect_text(card("engineer-14")) == "fixed R<5>"
    assert words.effect_text(card("materials-11")) == "exchange 2W→1R"
    assert words.effect_text(card("engine-14")) == "+1 any"


def test_dice_and_costs() -> None:
    """Counts by colour, short and long."""
    assert words.cost_text((2, 1, 0)) == "2W+1R"
    assert words.cost_text((0, 0, 0)) == "-"
    assert words.dice_text((2, 0, 1)) == "2 white + 1 black"
    assert words.needs_text((0, 1, 2), 18) == "1R+2B ≥18"


def test_rolls_kept_dropped_and_fixed() -> None:
    """T4: rolled dice that count, rolled dice that do not, and fixed dice (X2, X4)."""
    assert words.split_kept((3, 2, 2), (3, 2)) == ([True, True, False], [])
    assert words.split_kept((1, 2), (3, 2)) == ([False, True], [3])
    groups = words.roll_groups(((1, 2), (4,), ()), ((3, 2), (4,), ()))
    assert [g.colour for g in groups] == [0, 1]
    assert [d.kind for d in groups[0].dice] == ["dropped", "kept", "fixed"]
    assert words.roll_text(((1, 2), (4,), ()), ((3, 2), (4,), ())) == "white (1) [2] W<3>  red [4]"
    assert words.total_text(5, (("wooden airship", 1),), 6, 7) == "5 +1 wooden airship = 6 vs 7"
    assert words.total_text(9, (), 9, 9) == "9 vs 9"
    assert words.result_label("chip decision") == "one short, a chip decides"


def test_exchange_made() -> None:
    """T3: the dice given (the fixed die among them) and the dice received."""
    made = ExchangeMade(gave=(0, 1, 0), gave_fixed=((1, 3),), received=(0, 0, 1))
    assert words.exchange_made_text(made) == "1R+R<3>→1B"
    assert words.exchange_made_text(ExchangeMade((0, 2, 0), (), (0, 0, 1))) == "2R→1B"


def test_record_text_and_events() -> None:
    """An attempt narrated: who, what, dice, total, result, and what followed."""
    record = ActionRecord(
        step=8,
        turn=5,
        player=1,
        action=57,
        name="attempt airship stack 1",
        phase="choose target",
        target="airship-L9",
        rolled=((3, 2, 2), (), ()),
        kept=((3, 2), (), ()),
        dice_sum=5,
        bonuses=(("engine", 1),),
        total=6,
        needed=7,
        result="failure",
        chips=(ChipMove(1, 1, "supply", "board", "failure"),),
        reveals=(Reveal("hangar-11", 4, None),),
        wooden_airship=2,
    )
    labels = ["P0 (you)", "P1 greedy", "P2 heuristic"]
    kinds = [kind for kind, _ in words.record_events(record, labels, wooden_before=0)]
    assert kinds == ["chips", "wooden", "reveal"]
    text = words.record_text(record, labels, wooden_before=0)
    assert text.startswith("P1 greedy attempts airship-L9: white [3] [2] (2) → 5 +1 engine")
    assert "6 vs 7: failure" in text and "the wooden airship goes to P2 heuristic" in text


def test_choices_status_and_results() -> None:
    """The other choices with what they mean; status, deck, result and the tie-break (E3)."""
    state = new_game(2, seed=3)
    assert words.choice_text(state, END_TURN) == "end the turn"
    state.players[0].chips_on_board = 3
    assert words.choice_text(state, BUY_EXTRA_TURN).startswith("buy an extra turn: 3 chips")
    assert words.status_text(state) == "P0 to act: choose target"
    assert words.deck_text(state).endswith("before the Change of Era)")
    assert words.result_text(state) == "no result"
    state.final_scores, state.winners = [20, 20], [1]
    assert words.result_text(state, ["A", "B"]) == "B wins with 20"
    assert "B wins on airships" in words.tie_break_text(state, ["A", "B"])
    state.winners = [0, 1]
    assert words.result_text(state) == "P0, P1 share the win with 20"
    assert words.target_short_text(4) == "hangar 2"
    assert words.target_short_text(19) == "stack 2"
    assert words.target_short_text(25) == "Hindenburg 4"


def test_counts_read_as_english() -> None:
    """Issue 27 item 14: '1 chips', '1 out of the game', '0 left the game'."""
    assert [words.count_text(n, "chip") for n in (0, 1, 2)] == ["0 chips", "1 chip", "2 chips"]
    state = new_game(2, seed=3)
    assert words.removed_text(state) == "no expansion out of the game"
    state.removed.append(0)
    assert words.removed_text(state) == "1 expansion out of the game"
    state.removed.append(1)
    assert words.removed_text(state) == "2 expansions out of the game"
    assert words.effect_text(card("captain-S2")).endswith("+2 chips")


def test_spending_the_last_chip_says_one_chip() -> None:
    from airships_env.engine.actions import SPEND_CHIP
    from airships_env.engine.model import CHIP_DECISION

    rng = np.random.default_rng(0)
    state = new_game(2, seed=8)
    while state.phase != CHIP_DECISION:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    state.players[state.current_player].chips_on_board = 1
    assert words.choice_text(state, SPEND_CHIP).endswith("success (1 chip on your board)")
