"""The text board of the table for a 100-column terminal (render_mode="ansi").

It reads public information only (docs/airships/RULES.md V1), like the picture, and takes its words from
:mod:`airships_env.engine.text`. ANSI colours only if asked for; a frame costs under 1 ms.
"""

from __future__ import annotations

import re
import textwrap

from airships_env.engine import (
    CHIP_DECISION,
    GAME_OVER,
    ActionRecord,
    GameState,
    player_pool,
    score_parts,
    target_card,
    target_name,
)
from airships_env.engine.actions import (
    FIRST_PHASE_TARGET,
    FIRST_STACK_TARGET,
    NUM_ATTEMPT_ACTIONS,
    SLOTS_PER_ROW,
)
from airships_env.engine.cards import DEPARTMENTS, DiceCounts
from airships_env.engine.state import EMPTY, PendingAttempt
from airships_env.engine.text import (
    COLOUR_LETTERS,
    FIXED,
    Die,
    bonus_parts,
    cost_text,
    deck_text,
    die_text,
    effect_text,
    exchange_made_text,
    exchange_parts,
    plain,
    record_events,
    removed_text,
    result_label,
    roll_text,
    status_text,
    total_text,
)
from airships_env.render.palette import DEPARTMENT_TITLES

__all__ = ["ANSI_WIDTH", "render_ansi"]

ANSI_WIDTH = 100

_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_ANSI_DEPARTMENT = ("38;5;141", "38;5;220", "38;5;137", "38;5;208", "38;5;70", "38;5;75")
_ANSI_PLAYER = ("38;5;204", "38;5;45", "38;5;148", "38;5;177")
_ANSI_DICE = ("97", "91", "90")
_ANSI_RESULT = {"success": "1;92", "failure": "1;91", "chip decision": "1;93", "passed": "2"}


class _Ansi:
    """Optional colouring that keeps columns aligned (padding counts visible characters)."""

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    @staticmethod
    def pad(text: str, width: int) -> str:
        visible = len(_ANSI_ESCAPE.sub("", text))
        return text + " " * max(width - visible, 0)

    def cost(self, cost: DiceCounts) -> str:
        if not self.color:
            return cost_text(cost)
        parts = [self(f"{n}{COLOUR_LETTERS[c]}", _ANSI_DICE[c]) for c, n in enumerate(cost) if n]
        return "+".join(parts) or "-"


def render_ansi(
    state: GameState,
    last_record: ActionRecord | None = None,
    seat: int | None = None,
    color: bool = False,
) -> str:
    """A text board of the table (public information only, V1) for a 100-column terminal.

    ``seat`` marks that company as "you"; ``color`` adds ANSI colour codes.
    """
    paint = _Ansi(color)
    cards = state.cards
    out: list[str] = []
    rule = "=" * ANSI_WIDTH
    out.append(
        paint(
            f"AIRSHIPS  era {state.era}  deck {deck_text(state)}  turn {state.turn}  "
            f"step {state.step}",
            "1",
        )
    )
    out.append(
        paint(status_text(state), "1;93" if state.phase == GAME_OVER else "1")
        + f"   ({removed_text(state)})"
    )
    out.append(rule)

    # The main board: 6 rows of 3 slots, each slot on two lines (id, cost, target / effect).
    cell = 26
    header = _Ansi.pad("MAIN BOARD", 10)
    for slot in range(SLOTS_PER_ROW):
        header += " | " + _Ansi.pad(f"slot {slot + 1}", cell)
    out.append(paint(header.rstrip(), "1"))
    for department in range(len(DEPARTMENTS)):
        first = _Ansi.pad(paint(DEPARTMENT_TITLES[department], _ANSI_DEPARTMENT[department]), 10)
        start = department * SLOTS_PER_ROW
        second = _Ansi.pad(f"t{start}-{start + SLOTS_PER_ROW - 1}", 10)
        for slot in range(SLOTS_PER_ROW):
            card = state.board[start + slot]
            if card == EMPTY:
                top, bottom = "(empty)", ""
            else:
                expansion = cards.expansions[card]
                top = (
                    paint(expansion.id, _ANSI_DEPARTMENT[department])
                    + " "
                    + paint.cost(expansion.cost)
                    + f">={expansion.target}"
                )
                stars = "*" * expansion.stars
                bottom = "  " + effect_text(expansion)[: cell - len(stars) - 3]
                bottom = _Ansi.pad(bottom, cell - len(stars)) + paint(stars, "1;93")
            first += " | " + _Ansi.pad(top, cell)
            second += " | " + _Ansi.pad(bottom, cell)
        out.append(first.rstrip())
        out.append(second.rstrip())
    out.append(rule)

    # Airship stacks (top card and height only, V1) beside the Hindenburg.
    left: list[str] = [paint("AIRSHIP STACKS", "1") + " (top card and height)"]
    for index, stack in enumerate(state.stacks):
        height = f"{len(stack)} card{'s' if len(stack) != 1 else ''}"
        line = f"t{FIRST_STACK_TARGET + index} #{index + 1} {height:<8}"
        if stack:
            airship = cards.airships[stack[-1]]
            line += (
                f" {airship.id} "
                + _Ansi.pad(paint.cost(airship.cost) + f">={airship.target}", 12)
                + f" {airship.stars}VP"
            )
        else:
            line += " (empty)"
        left.append(line)
    if state.hindenburg_open:
        status = paint("open", "1;92") + " (phases in any order)"
    else:
        status = paint("closed", "2") + " (opens when a stack is empty)"
    right: list[str] = [paint("HINDENBURG", "1") + " " + status]
    for index, phase in enumerate(cards.hindenburg):
        holder = state.hindenburg[index]
        if holder != EMPTY:
            mark = "done by " + paint(f"P{holder}", _ANSI_PLAYER[holder % 4])
        else:
            mark = "open" if state.hindenburg_open else "-"
        right.append(
            f"t{FIRST_PHASE_TARGET + index} #{index + 1} "
            + _Ansi.pad(paint.cost(phase.cost) + f">={phase.target}", 11)
            + f" VP {phase.low}/{phase.high:<2}  {mark}"
        )
    for a, b in zip(left, right, strict=True):
        out.append((_Ansi.pad(a, 50) + b).rstrip())
    out.append(rule)

    # Companies.
    header = _Ansi.pad(paint("COMPANIES", "1"), 10)
    for department in range(len(DEPARTMENTS)):
        header += _Ansi.pad(
            paint(DEPARTMENTS[department].capitalize(), _ANSI_DEPARTMENT[department]), 14
        )
    out.append(header.rstrip())
    current_scores = [score_parts(state, p) for p in range(state.num_players)]
    for p, company in enumerate(state.players):
        marker = ">" if p == state.current_player and state.phase != GAME_OVER else " "
        name = paint(f"P{p}", "1;" + _ANSI_PLAYER[p % 4])
        title = f"{marker} {name}"
        if seat == p:
            title += " (you)"
        if state.wooden_airship == p:
            title += " [wooden airship +1]"
        if state.winners is not None and p in state.winners:
            title += " " + paint("WINNER", "1;93")
        parts = current_scores[p]
        total = sum(parts.values())
        on_hindenburg = state.hindenburg.count(p)
        title = _Ansi.pad(title, 36) + (
            f"score {total:>2} = {parts['expansions']} stars + {parts['airships']} airships"
            f" + {parts['hindenburg']} Hindenburg"
        )
        out.append(title)
        slots = _Ansi.pad("    slots", 10)
        for department, card in enumerate(company.slots):
            text = "-" if card == EMPTY else cards.expansions[card].id
            slots += _Ansi.pad(paint(text, _ANSI_DEPARTMENT[department]), 14)
        out.append(slots.rstrip())
        pool = player_pool(state, p)
        dice = "    dice  " + (
            " ".join(
                paint(f"{n}{COLOUR_LETTERS[c]}", _ANSI_DICE[c]) for c, n in enumerate(pool.rollable)
            )
        )
        if pool.fixed:
            dice += " | fixed " + " ".join(die_text(Die(c, v, FIXED)) for c, v in pool.fixed)
        if pool.engine_bonuses:
            dice += " | bonus " + " ".join(plain(bonus_parts(b)) for b in pool.engine_bonuses)
        if pool.exchange is not None:
            dice += " | exch " + plain(exchange_parts(pool.exchange))
        chips = f"chips {company.chips_on_board} board, {company.chips_supply} supply"
        if on_hindenburg:
            chips += f", {on_hindenburg} Hindenburg"
        visible = len(_ANSI_ESCAPE.sub("", dice))
        out.append(_Ansi.pad(dice, max(60, visible + 2)) + chips)
        ships = [
            f"{cards.airships[a].id.removeprefix('airship-')}:{cards.airships[a].stars}VP"
            for a in company.airships
        ]
        phases = [f"H{i + 1}" for i, holder in enumerate(state.hindenburg) if holder == p]
        line = f"    airships {len(company.airships)}: " + (" ".join(ships) or "-")
        phase_text = ("Hindenburg phases: " + " ".join(phases)) if phases else ""
        if len(line) + 3 + len(phase_text) <= ANSI_WIDTH:
            out.append(f"{line}   {phase_text}".rstrip())
        else:
            out.extend(textwrap.wrap(line, ANSI_WIDTH, subsequent_indent=" " * 8))
            out.append(" " * 8 + phase_text)
    out.append(rule)

    # The last action, and a roll waiting for its chip decision.
    if last_record is not None:
        record = last_record
        what = record.name
        if record.target and record.action < NUM_ATTEMPT_ACTIONS:
            what += f" -> {record.target}"
        intro = f"LAST ACTION (step {record.step}, turn {record.turn}): P{record.player} "
        what_lines = textwrap.wrap(
            what,
            ANSI_WIDTH - len(intro),
            subsequent_indent=" " * 7,
            break_long_words=False,
        )
        head = (
            paint("LAST ACTION", "1")
            + f" (step {record.step}, turn {record.turn}): "
            + paint(f"P{record.player}", _ANSI_PLAYER[record.player % 4])
            + f" {what_lines[0]}"
        )
        out.append(head)
        out.extend(what_lines[1:])
        wrapped = [
            part
            for line in _record_lines(record)
            for part in textwrap.wrap(
                line, ANSI_WIDTH, subsequent_indent=" " * 7, break_long_words=False
            )
        ]
        for line in wrapped:
            line = line.rstrip()
            for word, code in _ANSI_RESULT.items():
                if color and f"-> {word.upper()}" in line:
                    line = line.replace(word.upper(), paint(word.upper(), code))
            out.append(line)
    else:
        out.append(paint("LAST ACTION", "1") + ": none")
    if state.phase == CHIP_DECISION and state.pending is not None:
        pending: PendingAttempt = state.pending
        info = target_card(state, pending.target)
        name = info[0] if info is not None else target_name(pending.target)
        out.append(
            f"waiting: P{state.current_player} rolled {pending.total} vs "
            f"{pending.needed} needed for {name}: spend a chip (+1) or keep it?"
        )
    if state.phase == GAME_OVER and state.final_scores is not None:
        out.append(
            "final scores: " + "  ".join(f"P{p} {s}" for p, s in enumerate(state.final_scores))
        )
    return "\n".join(out) + "\n"


def _record_lines(record: ActionRecord) -> list[str]:
    """Plain lines describing one action record (without the header)."""
    lines: list[str] = []
    if record.rolled is not None and record.kept is not None:
        lines.append("dice   " + (roll_text(record.rolled, record.kept) or "-"))
    if record.exchange is not None:
        lines.append(f"exchange {exchange_made_text(record.exchange)} (T3)")
    if record.total is not None:
        total = total_text(record.dice_sum, record.bonuses, record.total, record.needed)
        lines.append(f"sum    {total} -> {result_label(record.result).upper()}")
    elif record.result == "passed":
        lines.append("no eligible target: passed (T2a)")
    events = record_events(record)
    extra = [text for kind, text in events if kind in ("acquired", "chips")]
    if extra:
        lines.append("       " + "; ".join(extra))
    others = [text for kind, text in events if kind not in ("acquired", "chips")]
    if others:
        lines.append("       " + "; ".join(others))
    return lines
