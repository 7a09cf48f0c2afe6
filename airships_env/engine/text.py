"""Card and roll text, written once: the words every rendering of the game shows.

The picture (Pillow), the text board (ANSI), the terminal table (rich), the web table (SVG and
HTML) and the card listing all take their words from here; none of them writes a card's effect,
a roll, a result or a choice in its own words. Plain strings, standard library only.

A text that mixes words and dice comes as *tokens*: plain strings, :class:`Dice` (dice counted
by colour, written ``2W+1R``) and :class:`Die` (one die: kept ``[3]``, rolled but not kept
``(1)``, a fixed Engineer die ``R<4>``, or a colour alone ``R``). Each renderer draws the
tokens its own way (die squares in the picture and the web, styled letters in the terminal);
:func:`plain` joins them into plain text. Rolls come as :class:`RollGroup` per colour.

Everything here reads public information only (docs/airships/RULES.md V1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from airships_env.engine.actions import (
    BUY_EXTRA_TURN,
    END_TURN,
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    KEEP_CHIP,
    NUM_ATTEMPT_ACTIONS,
    PASS,
    SLOTS_PER_ROW,
    SPEND_CHIP,
    action_name,
    target_name,
)
from airships_env.engine.cards import ANY, COLOURS, DEPARTMENTS, DiceCounts

if TYPE_CHECKING:
    from airships_env.engine.cards import EngineBonus, Exchange, Expansion
    from airships_env.engine.dice import AttemptOdds
    from airships_env.engine.records import ActionRecord, ExchangeMade
    from airships_env.engine.state import GameState

COLOUR_LETTERS: tuple[str, ...] = ("W", "R", "B")
STAR = "★"
ARROW = "→"

# Kinds of a single die (Die.kind).
KEPT, DROPPED, FIXED, COLOUR = "kept", "dropped", "fixed", "colour"

# Dice given as counts per colour (Dice): a cost or a pool.
POOL = "pool"

#: The dice notation of every renderer (T4: the best dice of each colour count): per kind
#: (of a Die, or POOL), the terminal's notation and what it means. The web app draws the same
#: kinds as dice.
DICE_NOTATION: tuple[tuple[str, str, str], ...] = (
    (KEPT, "[4]", "rolled and counted in the total"),
    (
        DROPPED,
        "(4)",
        "rolled, not counted (only the best dice of each colour the cost asks for count)",
    ),
    (FIXED, "R<5>", "a fixed die (Engineer): never rolled, counted when among the best"),
    (POOL, "2W+1R", "a cost or a pool: 2 white and 1 red dice"),
)
DICE_LEGEND = "dice: " + " · ".join(
    f"{notation} {meaning}" for _, notation, meaning in DICE_NOTATION
)

# What a result is called where it is shown (ActionRecord.result).
RESULT_LABELS: dict[str, str] = {
    "success": "success",
    "failure": "failure",
    "chip decision": "one short, a chip decides",
    "passed": "passed",
}

# The odds of an attempt (AttemptOdds: success, chip_decides, success_with_chip), T5.
ODDS_LABELS: tuple[str, str, str] = ("success", "chip decides", "with a chip")


@dataclass(frozen=True, slots=True)
class Dice:
    """Dice counted by colour, ``(white, red, black)``: '2W+1R'."""

    counts: DiceCounts


@dataclass(frozen=True, slots=True)
class Die:
    """One die: ``kind`` is kept, dropped (rolled, not kept), fixed, or colour (no value)."""

    colour: int
    value: int | None = None
    kind: str = KEPT


Token: TypeAlias = "str | Dice | Die"
Tokens: TypeAlias = "tuple[Token, ...]"


@dataclass(frozen=True, slots=True)
class RollGroup:
    """The dice of one colour in an attempt: the rolled dice (kept or not), then fixed dice."""

    colour: int
    dice: tuple[Die, ...]


# ---------------------------------------------------------------------------------------------
# Dice and cards
# ---------------------------------------------------------------------------------------------
def cost_text(counts: DiceCounts) -> str:
    """'2W+1R' for (2, 1, 0); '-' for none."""
    return "+".join(f"{n}{COLOUR_LETTERS[c]}" for c, n in enumerate(counts) if n) or "-"


def dice_text(counts: DiceCounts) -> str:
    """'2 white + 1 red' for (2, 1, 0); 'nothing' for none."""
    return " + ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(counts) if n) or "nothing"


def die_text(die: Die) -> str:
    """A die as plain text: '[3]' kept, '(1)' not kept, 'R<4>' fixed, 'R' a colour."""
    if die.kind == COLOUR or die.value is None:
        return COLOUR_LETTERS[die.colour]
    if die.kind == FIXED:
        return f"{COLOUR_LETTERS[die.colour]}<{die.value}>"
    if die.kind == DROPPED:
        return f"({die.value})"
    return f"[{die.value}]"


def plain(tokens: Sequence[Token]) -> str:
    """Tokens joined as plain text."""
    out = []
    for token in tokens:
        if isinstance(token, Dice):
            out.append(cost_text(token.counts))
        elif isinstance(token, Die):
            out.append(die_text(token))
        else:
            out.append(token)
    return "".join(out)


def bonus_parts(bonus: EngineBonus) -> Tokens:
    """An Engine bonus: '+1 ' and its colour, or '+1 any' (the grey symbol)."""
    if bonus.colour == ANY:
        return (f"+{bonus.amount} any",)
    return (f"+{bonus.amount} ", Die(bonus.colour, None, COLOUR))


def exchange_parts(exchange: Exchange) -> Tokens:
    """A Materials exchange offered: '3W→2R'."""
    return (Dice(exchange.give), ARROW, Dice(exchange.get))


def exchange_made_parts(made: ExchangeMade) -> Tokens:
    """An exchange made (T3): '2R→1B', or '1R+R<3>→1B' when the fixed die (a red 3) goes."""
    tokens: list[Token] = [Dice(made.gave)] if any(made.gave) else []
    for colour, value in made.gave_fixed:
        if tokens:
            tokens.append("+")
        tokens.append(Die(colour, value, FIXED))
    return (*tokens, ARROW, Dice(made.received))


def exchange_made_text(made: ExchangeMade) -> str:
    """An exchange made, as plain text (see :func:`exchange_made_parts`)."""
    return plain(exchange_made_parts(made))


def effect_parts(expansion: Expansion) -> tuple[Tokens, ...]:
    """What an expansion gives its owner, one part per effect: dice, chips, a fixed die, Engine
    bonuses, an exchange ('dice +1W', '+2 chips', 'fixed R<4>', '+1 any', 'exchange 2W→1R')."""
    parts: list[Tokens] = []
    if any(expansion.dice):
        parts.append(("dice +", Dice(expansion.dice)))
    if expansion.chips:
        parts.append(("+" + count_text(expansion.chips, "chip"),))
    if expansion.fixed_die is not None:
        fixed = expansion.fixed_die
        parts.append(("fixed ", Die(fixed.colour, fixed.value, FIXED)))
    for bonus in expansion.engine_bonuses:
        parts.append(bonus_parts(bonus))
    if expansion.exchange is not None:
        parts.append(("exchange ", *exchange_parts(expansion.exchange)))
    return tuple(parts)


def effect_text(expansion: Expansion) -> str:
    """What an expansion gives, as plain text: 'dice +1W+1R, +1 chip'."""
    return ", ".join(plain(part) for part in effect_parts(expansion))


def stars_text(stars: int) -> str:
    """'★3' (empty for 0)."""
    return f"{STAR}{stars}" if stars else ""


# ---------------------------------------------------------------------------------------------
# Rolls
# ---------------------------------------------------------------------------------------------
def split_kept(rolled: Sequence[int], kept: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Which rolled dice count, and the counted values no rolled die explains (fixed dice).

    A fixed die and a rolled die of the same value are interchangeable: the rolled one is
    counted as kept first.
    """
    used = [False] * len(rolled)
    fixed: list[int] = []
    for value in kept:
        for i, face in enumerate(rolled):
            if not used[i] and face == value:
                used[i] = True
                break
        else:
            fixed.append(value)
    return used, fixed


def roll_groups(
    rolled: Sequence[Sequence[int]], kept: Sequence[Sequence[int]]
) -> tuple[RollGroup, ...]:
    """The dice of one attempt by colour (T4): each rolled die kept or not, then fixed dice."""
    groups = []
    for colour, (faces, counted) in enumerate(zip(rolled, kept, strict=True)):
        if not faces and not counted:
            continue
        used, fixed = split_kept(faces, counted)
        dice = [
            Die(colour, face, KEPT if is_kept else DROPPED)
            for face, is_kept in zip(faces, used, strict=True)
        ]
        dice += [Die(colour, value, FIXED) for value in fixed]
        groups.append(RollGroup(colour, tuple(dice)))
    return tuple(groups)


def roll_text(rolled: Sequence[Sequence[int]], kept: Sequence[Sequence[int]]) -> str:
    """'white [3] (1)  red [5] R<4>': kept dice in brackets, dropped in parentheses, fixed <>."""
    return "  ".join(
        COLOURS[group.colour] + "".join(" " + die_text(die) for die in group.dice)
        for group in roll_groups(rolled, kept)
    )


def total_text(
    dice_sum: int | None, bonuses: Sequence[tuple[str, int]], total: int | None, needed: int | None
) -> str:
    """'5 +1 wooden airship = 6 vs 7' (the dice, the bonuses, the total and the target)."""
    if total is None:
        return ""
    text = f"{dice_sum}" + "".join(f" +{amount} {name}" for name, amount in bonuses)
    if bonuses:
        text += f" = {total}"
    return f"{text} vs {needed}"


def result_label(result: str | None) -> str:
    """What a record's result is called: 'success', 'one short, a chip decides', ..."""
    return RESULT_LABELS.get(result or "", result or "")


# ---------------------------------------------------------------------------------------------
# Players, targets and choices
# ---------------------------------------------------------------------------------------------
def player_label(labels: Sequence[str] | None, seat: int) -> str:
    """A seat's label: ``labels[seat]`` when given, else 'P2'."""
    if labels is not None and 0 <= seat < len(labels):
        return labels[seat]
    return f"P{seat}"


def target_short_text(target: int) -> str:
    """'hangar 2', 'stack 3', 'Hindenburg 1' (1-based, as in ``target_name``)."""
    if target < FIRST_STACK_TARGET:
        department, slot = divmod(target, SLOTS_PER_ROW)
        return f"{DEPARTMENTS[department]} {slot + 1}"
    if target < FIRST_PHASE_TARGET:
        return f"stack {target - FIRST_STACK_TARGET + 1}"
    return f"Hindenburg {target - FIRST_PHASE_TARGET + 1}"


def percent(probability: float) -> str:
    """'42.0%'."""
    return f"{probability:.1%}"


def odds_texts(odds: AttemptOdds, has_chip: bool) -> tuple[str, str, str]:
    """An attempt's odds under :data:`ODDS_LABELS`: success without a chip, how often a chip
    decides ('-' never), success spending a chip when it decides ('no chip' without one)."""
    return (
        percent(odds.success),
        percent(odds.chip_decides) if odds.chip_decides > 0 else "-",
        percent(odds.success_with_chip) if has_chip else "no chip",
    )


def needs_text(cost: DiceCounts, needed: int) -> str:
    """'2W+1R ≥9': a cost and the number to reach."""
    return f"{cost_text(cost)} ≥{needed}"


def target_value_text(state: GameState, target: int) -> str:
    """What a target is worth: '★3' (an expansion's or airship's stars), '★4/7' (a phase's low
    and high values); '' for an empty place."""
    from airships_env.engine.rules import target_card

    info = target_card(state, target)
    if info is None:
        return ""
    card = info[1]
    if target < FIRST_STACK_TARGET:
        return stars_text(state.cards.expansions[card].stars)
    if target < FIRST_PHASE_TARGET:
        return stars_text(state.cards.airships[card].stars)
    phase = state.cards.hindenburg[card]
    return f"{STAR}{phase.low}/{phase.high}"


def count_text(count: int, noun: str) -> str:
    """'1 chip', '2 chips', '0 chips' (an English plural with -s)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def removed_text(state: GameState) -> str:
    """How many expansions left the game (pushed out of a full row, P1; discarded, T6):
    'no expansion out of the game', '1 expansion out of the game', '3 expansions ...'."""
    count = len(state.removed)
    return f"{'no expansion' if count == 0 else count_text(count, 'expansion')} out of the game"


def choice_text(state: GameState, action: int) -> str:
    """A choice other than an attempt, with what it means now (chip decision, extra turn...)."""
    from airships_env.engine.model import EXTRA_TURN_PRICE

    company = state.players[state.current_player]
    pending = state.pending
    if action == SPEND_CHIP and pending is not None:
        return (
            f"spend a chip: {pending.total} + 1 = {pending.total + 1} vs {pending.needed}, "
            f"success ({count_text(company.chips_on_board, 'chip')} on your board)"
        )
    if action == KEEP_CHIP and pending is not None:
        return f"keep the chip: {pending.total} vs {pending.needed}, the attempt fails"
    if action == BUY_EXTRA_TURN:
        return (
            f"buy an extra turn: {EXTRA_TURN_PRICE} chips from your board back to your supply "
            f"({company.chips_on_board} on your board)"
        )
    return action_name(action)


# ---------------------------------------------------------------------------------------------
# Narration of an action record
# ---------------------------------------------------------------------------------------------
def action_text(record: ActionRecord) -> str:
    """What the player did: 'attempts hangar-12', 'spends a chip', 'ends the turn'..."""
    from airships_env.engine.model import EXTRA_TURN_PRICE

    action = record.action
    if action < NUM_ATTEMPT_ACTIONS:
        return f"attempts {record.target}"
    return {
        SPEND_CHIP: "spends a chip",
        KEEP_CHIP: "keeps the chip",
        PASS: "passes (no eligible target)",
        BUY_EXTRA_TURN: f"buys an extra turn ({EXTRA_TURN_PRICE} chips back to the supply)",
        END_TURN: "ends the turn",
    }.get(action, record.name)


def record_events(
    record: ActionRecord, labels: Sequence[str] | None = None, wooden_before: int | None = None
) -> tuple[tuple[str, str], ...]:
    """What else an action did, as ``(kind, text)``: kinds 'acquired', 'chips', 'wooden',
    'hindenburg', 'reveal', 'era', 'game over' (for styling)."""
    from airships_env.engine.model import CHANGE_OF_ERA_ID, EMPTY

    events: list[tuple[str, str]] = []
    if record.acquired:
        text = f"takes {record.acquired}"
        if record.discarded:
            text += f" (discards {record.discarded})"
        events.append(("acquired", text))
    for move in record.chips:
        events.append(
            (
                "chips",
                f"{count_text(move.count, 'chip')} {move.source} → {move.destination} "
                f"({move.reason})",
            )
        )
    if (
        wooden_before is not None
        and record.wooden_airship != wooden_before
        and record.wooden_airship != EMPTY
    ):
        events.append(
            ("wooden", f"the wooden airship goes to {player_label(labels, record.wooden_airship)}")
        )
    if record.hindenburg_opened:
        events.append(("hindenburg", "the Hindenburg opens!"))
    for reveal in record.reveals:
        if reveal.card == CHANGE_OF_ERA_ID:
            continue
        text = f"revealed {reveal.card}"
        if reveal.slot is not None:
            text += f" → {target_name(reveal.slot)}"
        if reveal.pushed_out:
            text += f" (pushes {reveal.pushed_out} out of the game)"
        events.append(("reveal", text))
    if record.era_changed:
        events.append(("era", "Change of Era! Every entrepreneur turns to side II"))
    if record.game_over:
        events.append(("game over", "game over"))
    return tuple(events)


def record_text(
    record: ActionRecord, labels: Sequence[str] | None = None, wooden_before: int | None = None
) -> str:
    """One record as plain text: who did what, the dice, the total and the result, the events."""
    text = f"{player_label(labels, record.player)} {action_text(record)}"
    if record.exchange is not None:
        text += f" with the exchange {exchange_made_text(record.exchange)}"
    details = []
    if (
        record.rolled is not None
        and record.kept is not None
        and record.action < NUM_ATTEMPT_ACTIONS
    ):
        details.append(roll_text(record.rolled, record.kept))
    total = total_text(record.dice_sum, record.bonuses, record.total, record.needed)
    if total:
        details.append(f"{total}: {result_label(record.result)}")
    if details:
        text += ": " + " → ".join(details)
    events = record_events(record, labels, wooden_before)
    if events:
        text += "; " + "; ".join(event for _kind, event in events)
    return text


# ---------------------------------------------------------------------------------------------
# The game: deck, status, scores, result
# ---------------------------------------------------------------------------------------------
def deck_text(state: GameState) -> str:
    """'23 cards (5 before the Change of Era)': in Era 1, how many cards lie above the Change of
    Era card (public: the backs of the eras' cards differ)."""
    size = len(state.deck)
    if state.era == 1 and size:
        before = max(size - len(state.cards.expansions_of_era(2)) - 1, 0)
        return f"{size} cards ({before} before the Change of Era)"
    return f"{size} card{'s' if size != 1 else ''}"


def result_text(state: GameState, labels: Sequence[str] | None = None) -> str:
    """'P1 wins with 23' or 'P0, P2 share the win with 19' ('no result' before the end)."""
    if state.winners is None or state.final_scores is None:
        return "no result"
    names = ", ".join(player_label(labels, seat) for seat in state.winners)
    verb = "wins" if len(state.winners) == 1 else "share the win"
    return f"{names} {verb} with {state.final_scores[state.winners[0]]}"


def tie_break_text(state: GameState, labels: Sequence[str] | None = None) -> str:
    """How E3 decided among the best scores: '' when one player scored most, else the airship
    counts (each completed phase counting as one) of the players tied on points."""
    from airships_env.engine.rules import airship_count

    if state.final_scores is None or state.winners is None:
        return ""
    best = max(state.final_scores)
    tied = [seat for seat, score in enumerate(state.final_scores) if score == best]
    if len(tied) < 2:
        return ""
    counts = ", ".join(
        f"{player_label(labels, seat)} {airship_count(state, seat)}" for seat in tied
    )
    if len(state.winners) == 1:
        outcome = f"{player_label(labels, state.winners[0])} wins on airships"
    else:
        outcome = "still tied: they share the win"
    return f"tied on {best}: airships (phases count as airships) {counts}; {outcome} (E3)"


def status_text(state: GameState, labels: Sequence[str] | None = None) -> str:
    """'P1 to act: choose target', or 'game over: P0 wins with 23'."""
    from airships_env.engine.model import GAME_OVER, PHASE_NAMES

    if state.phase == GAME_OVER:
        return "game over: " + result_text(state, labels)
    return f"{player_label(labels, state.current_player)} to act: {PHASE_NAMES[state.phase]}"


def score_parts_text(parts: dict[str, int]) -> str:
    """'3 stars + 9 airships + 0 Hindenburg' (the parts of a score, E2)."""
    return (
        f"{parts['expansions']} stars + {parts['airships']} airships + "
        f"{parts['hindenburg']} Hindenburg"
    )
