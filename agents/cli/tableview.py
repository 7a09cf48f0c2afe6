"""The table drawn with rich, the narration of records and the choices offered to a person.

Shared by ``airships play`` and ``airships replay``. Everything shown is public information
(docs/airships/RULES.md V1): callers pass a :func:`~airships_env.engine.public_view` or a state whose hidden parts
are never read here (deck order, cards under a stack's top, the left-out airships, the
generator). Every number comes from the engine (legal actions, odds, pools, scores); this
module only lays it out. Text is built as rich ``Text`` objects (never markup), so it degrades
to plain text when the console has no colours; dice are ``[3]`` (kept), ``(1)`` (rolled, not
kept) and ``<6>`` (a fixed Engineer die), each styled in its die's colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from airships_env.engine import (
    ACTION_NAMES,
    CHIP_DECISION,
    END_TURN,
    GAME_OVER,
    KEEP_CHIP,
    NUM_ATTEMPT_ACTIONS,
    PASS,
    PHASE_NAMES,
    SPEND_CHIP,
    ActionRecord,
    ExchangeMade,
    GameState,
    attempt_odds,
    attempt_target,
    attempt_variant,
    player_pool,
    score_parts,
    target_card,
    target_name,
)
from airships_env.engine import text as words
from airships_env.engine.actions import FIRST_STACK_TARGET, SLOTS_PER_ROW
from airships_env.engine.cards import COLOURS, DEPARTMENTS, DiceCounts, Expansion
from airships_env.engine.derived import Pool
from airships_env.engine.rules import airship_count
from airships_env.engine.state import EMPTY
from airships_env.engine.text import COLOUR_LETTERS, STAR, deck_text

# A die is a box in its colour; black dice are drawn dark grey so they show on dark terminals.
DIE_STYLES = (
    "bold black on bright_white",
    "bold bright_white on red3",
    "bold bright_white on grey23",
)
LETTER_STYLES = ("bold bright_white", "bold red", "bold grey50")
DEPARTMENT_STYLES = ("medium_purple1", "gold1", "tan", "dark_orange", "green3", "steel_blue1")
PLAYER_STYLES = ("bold hot_pink", "bold deep_sky_blue1", "bold chartreuse3", "bold orchid")
EVENT_STYLES = {
    "acquired": "bold",
    "hindenburg": "bold magenta",
    "era": "bold cyan",
    "game over": "bold",
}
RESULT_STYLES = {
    "success": "bold green",
    "failure": "bold red",
    "chip decision": "bold yellow",
    "passed": "dim",
}


# ---------------------------------------------------------------------------------------------
# Small pieces
# ---------------------------------------------------------------------------------------------
def cost_text(cost: DiceCounts) -> Text:
    """'2W+1R' for (2, 1, 0), each count in its colour."""
    text = Text()
    for colour, count in enumerate(cost):
        if count:
            if text:
                text.append("+")
            text.append(f"{count}{COLOUR_LETTERS[colour]}", LETTER_STYLES[colour])
    return text if text else Text("-")


def tokens_text(tokens: Sequence[words.Token]) -> Text:
    """Text tokens of :mod:`airships_env.engine.text` styled: dice in their colours."""
    text = Text()
    for token in tokens:
        if isinstance(token, words.Dice):
            text.append(cost_text(token.counts))
        elif isinstance(token, words.Die):
            if token.value is None or token.kind == words.COLOUR:
                text.append(COLOUR_LETTERS[token.colour], LETTER_STYLES[token.colour])
            else:
                text.append(die_text(token.value, token.colour, token.kind))
        else:
            text.append(token)
    return text


def exchange_text(exchange: ExchangeMade) -> Text:
    """An exchange made (T3): '2R→1B', or '1R+<3>→1B' when the fixed die (here a red 3) goes."""
    return tokens_text(words.exchange_made_parts(exchange))


def effect_text(expansion: Expansion) -> Text:
    """What an expansion gives its owner: 'dice +1W', '+2 chips', 'fixed <4>', '+1 any'..."""
    return Text(", ").join(tokens_text(part) for part in words.effect_parts(expansion))


def die_text(value: int, colour: int, kind: str = words.KEPT) -> Text:
    """One die: ``[3]`` kept, ``(3)`` rolled but not kept, ``<3>`` fixed; styled by colour."""
    if kind == words.KEPT:
        return Text(f"[{value}]", DIE_STYLES[colour])
    if kind == words.FIXED:
        return Text(f"<{value}>", DIE_STYLES[colour] + " underline")
    return Text(f"({value})", "dim")


def stars_text(stars: int) -> Text:
    """'★3' (nothing for 0)."""
    return Text(words.stars_text(stars), "bold yellow")


def player_text(labels: Sequence[str], player: int) -> Text:
    """A player's label in its colour."""
    return Text(labels[player], PLAYER_STYLES[player % len(PLAYER_STYLES)])


def roll_text(rolled: Sequence[Sequence[int]], kept: Sequence[Sequence[int]]) -> Text:
    """The dice of one attempt by colour: 'white [3] (1)  red [5] <6>'."""
    text = Text()
    for group in words.roll_groups(rolled, kept):
        if text:
            text.append("  ")
        text.append(COLOURS[group.colour], LETTER_STYLES[group.colour])
        for die in group.dice:
            text.append(" ")
            text.append(die_text(die.value or 0, group.colour, die.kind))
    return text


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------
def status_text(state: GameState, labels: Sequence[str]) -> Text:
    """'Turn 12 · Era 1 · Deck 23 cards · P1 random to act: choose target'."""
    text = Text().append(f"Turn {state.turn}", "bold")
    text.append(f"  ·  Era {state.era}  ·  Deck {deck_text(state)}  ·  step {state.step}")
    if state.removed:
        text.append(f"  ·  {words.removed_text(state)}")
    text.append("\n")
    if state.phase == GAME_OVER:
        text.append("Game over: ", "bold")
        text.append(result_text(state, labels))
    else:
        text.append(player_text(labels, state.current_player))
        text.append(f" to act: {PHASE_NAMES[state.phase]}")
    return text


def board_table(state: GameState) -> Table:
    """The main board: one row per department, three slots each."""
    table = Table(
        title="Main board", title_style="bold", expand=False, show_lines=True, pad_edge=False
    )
    table.add_column("row")
    for slot in range(SLOTS_PER_ROW):
        table.add_column(f"slot {slot + 1}", min_width=18)
    cards = state.cards
    for department, name in enumerate(DEPARTMENTS):
        cells: list[RenderableType] = [Text(name, DEPARTMENT_STYLES[department])]
        for slot in range(SLOTS_PER_ROW):
            card = state.board[department * SLOTS_PER_ROW + slot]
            if card == EMPTY:
                cells.append(Text("·", "dim"))
                continue
            expansion = cards.expansions[card]
            cell = Text(expansion.id, DEPARTMENT_STYLES[department])
            cell.append("\n")
            cell.append(cost_text(expansion.cost))
            cell.append(f" ≥{expansion.target} ")
            cell.append(stars_text(expansion.stars))
            cell.append("\n")
            cell.append(effect_text(expansion))
            cells.append(cell)
        table.add_row(*cells)
    return table


def stacks_table(state: GameState) -> Table:
    """The airship stacks: the top card and the height (the cards below are hidden, V1)."""
    table = Table(title="Airship stacks", title_style="bold", pad_edge=False)
    for column in ("stack", "top card", "cost", "needs", STAR, "height"):
        table.add_column(column)
    for index, stack in enumerate(state.stacks):
        if not stack:
            table.add_row(str(index + 1), Text("empty", "dim"), "", "", "", "0")
            continue
        airship = state.cards.airships[stack[-1]]
        table.add_row(
            str(index + 1),
            airship.id,
            cost_text(airship.cost),
            f"≥{airship.target}",
            stars_text(airship.stars),
            str(len(stack)),
        )
    return table


def hindenburg_table(state: GameState, labels: Sequence[str]) -> Table:
    """The Hindenburg's phases: cost, target, values and who completed each."""
    status = "open" if state.hindenburg_open else "closed until an airship stack is empty"
    table = Table(title=f"Hindenburg ({status})", title_style="bold", pad_edge=False)
    for column in ("phase", "cost", "needs", f"{STAR} low/high", "completed by"):
        table.add_column(column)
    for index, phase in enumerate(state.cards.hindenburg):
        holder = state.hindenburg[index]
        if holder != EMPTY:
            done = player_text(labels, holder)
        else:
            done = Text("-" if not state.hindenburg_open else "available", "dim")
        table.add_row(
            str(index + 1),
            cost_text(phase.cost),
            f"≥{phase.target}",
            f"{phase.low}/{phase.high}",
            done,
        )
    return table


def companies_table(state: GameState, labels: Sequence[str]) -> Table:
    """Every company: expansions, dice and effects, chips, airships and score."""
    table = Table(title="Companies", title_style="bold", show_lines=True, pad_edge=False)
    table.add_column("company")
    table.add_column("expansions", no_wrap=True, min_width=12)
    table.add_column("dice")
    table.add_column("chips", no_wrap=True)
    table.add_column("airships", no_wrap=True)
    table.add_column("score", no_wrap=True)
    cards = state.cards
    for seat, company in enumerate(state.players):
        name = Text().append(player_text(labels, seat))
        if seat == state.current_player and state.phase != GAME_OVER:
            name = Text("▶ ").append(name)
        if state.wooden_airship == seat:
            name.append("\nwooden airship", "italic")
        if state.winners is not None and seat in state.winners:
            name.append("\nWINNER", "bold yellow")
        expansions = Text()
        for department, card in enumerate(company.slots):
            if card == EMPTY:
                continue
            if expansions:
                expansions.append("\n")
            expansion = cards.expansions[card]
            expansions.append(expansion.id, DEPARTMENT_STYLES[department])
            if expansion.stars:
                expansions.append(" ").append(stars_text(expansion.stars))
        pool = player_pool(state, seat)
        dice = cost_text(pool.rollable)
        for colour, value in pool.fixed:
            dice.append(" ").append(die_text(value, colour, "fixed"))
        for bonus in pool.engine_bonuses:
            dice.append("\n").append(tokens_text(words.bonus_parts(bonus)))
        if pool.exchange is not None:
            dice.append("\nexch ").append(tokens_text(words.exchange_parts(pool.exchange)))
        chips = Text(f"{company.chips_on_board} board\n{company.chips_supply} supply")
        ships = Text()
        for airship_index in company.airships:
            airship = cards.airships[airship_index]
            if ships:
                ships.append("\n")
            ships.append(airship.id.removeprefix("airship-")).append(" ").append(
                stars_text(airship.stars)
            )
        phases = [f"H{i + 1}" for i, holder in enumerate(state.hindenburg) if holder == seat]
        if phases:
            ships.append(("\n" if ships else "") + " ".join(phases))
        parts = score_parts(state, seat)
        score = Text().append(str(sum(parts.values())), "bold")
        score.append(f"\n{parts['expansions']}+{parts['airships']}+{parts['hindenburg']}", "dim")
        table.add_row(
            name, expansions or Text("-", "dim"), dice, chips, ships or Text("-", "dim"), score
        )
    table.caption = "score = expansions + airships + Hindenburg (H1-H4: phases completed)"
    return table


def compact_view(
    state: GameState,
    labels: Sequence[str],
    recap: Sequence[Text] = (),
    recap_lines: int = 3,
) -> Text:
    """What changed and where everyone stands, in a few short lines (``airships play
    --compact``, for an 80x24 terminal): the turn, each company's score, dice, chips and
    airships, then the last ``recap_lines`` moves since the person's previous choice."""
    text = Text().append(f"Turn {state.turn}", "bold")
    text.append(f" · era {state.era} · deck {deck_text(state)}")
    for seat, company in enumerate(state.players):
        text.append("\n")
        text.append("▶ " if seat == state.current_player and state.phase != GAME_OVER else "  ")
        text.append(player_text(labels, seat))
        pool = player_pool(state, seat)
        dice = cost_text(pool.rollable)
        for colour, value in pool.fixed:
            dice.append(" ").append(die_text(value, colour, "fixed"))
        text.append(f": {sum(score_parts(state, seat).values())} pts · dice ").append(dice)
        text.append(f" · chips {company.chips_on_board}+{company.chips_supply}")
        text.append(f" · {len(company.airships)} airships")
        if state.wooden_airship == seat:
            text.append(" · wooden")
    if len(recap) > recap_lines:
        text.append(f"\n  ... {len(recap) - recap_lines} earlier moves", "dim")
    for line in recap[-recap_lines:]:
        text.append("\n").append(line)
    return text


def table_view(
    state: GameState,
    labels: Sequence[str],
    recap: Sequence[Text] = (),
    recap_title: str = "Last moves",
) -> Group:
    """The whole table: status, main board, stacks, Hindenburg, companies and recent moves."""
    parts: list[RenderableType] = [
        Panel(status_text(state, labels), title="Airships", title_align="left"),
        board_table(state),
        Columns([stacks_table(state), hindenburg_table(state, labels)], padding=(0, 2)),
        companies_table(state, labels),
    ]
    if state.phase == CHIP_DECISION and state.pending is not None:
        parts.append(pending_text(state, labels))
    if recap:
        parts.append(Panel(Text("\n").join(recap), title=recap_title, title_align="left"))
    return Group(*parts)


def pending_text(state: GameState, labels: Sequence[str]) -> Text:
    """The roll waiting for its chip decision (T5)."""
    pending = state.pending
    assert pending is not None
    info = target_card(state, pending.target)
    text = Text().append(player_text(labels, state.current_player))
    text.append(f" rolled for {info[0] if info else target_name(pending.target)}: ")
    text.append(roll_text(pending.rolled, pending.kept))
    text.append(f"  total {pending.total} vs {pending.needed}: one short, a chip decides")
    return text


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------
def narrate(record: ActionRecord, labels: Sequence[str], wooden_before: int | None = None) -> Text:
    """One or two lines on what an action did: who, what, dice, total vs needed, result..."""
    text = Text().append(f"turn {record.turn}: ", "dim")
    text.append(player_text(labels, record.player))
    quiet = record.action in (PASS, END_TURN)
    text.append(" " + words.action_text(record), "dim" if quiet else "")
    if record.exchange is not None:
        text.append(" with the exchange ").append(exchange_text(record.exchange))
    if record.action < NUM_ATTEMPT_ACTIONS or record.action in (SPEND_CHIP, KEEP_CHIP):
        text.append(": ")
        if record.rolled is not None and record.kept is not None:
            text.append(roll_text(record.rolled, record.kept))
            text.append(" → ")
        total = words.total_text(record.dice_sum, record.bonuses, record.total, record.needed)
        if total:
            text.append(f"{total}: ")
        result = record.result or ""
        text.append(words.result_label(result), RESULT_STYLES.get(result, ""))
    events = [
        Text(event, EVENT_STYLES.get(kind, ""))
        for kind, event in words.record_events(record, labels, wooden_before)
    ]
    if events:
        text.append("\n   ")
        text.append(Text("; ").join(events))
    return text


# ---------------------------------------------------------------------------------------------
# A person's choices
# ---------------------------------------------------------------------------------------------
def choices_view(state: GameState, legal: Sequence[int]) -> RenderableType:
    """The legal actions numbered from 1; attempts in a table with their card and odds (T5).

    ``success``: the dice and automatic bonuses reach the target; ``chip decides``: the roll
    misses by exactly 1, so a chip on the board would decide it; ``with a chip``: success when
    the player spends a chip whenever it decides.
    """
    return _choices_view(state, legal, "Your choices")


#: The odds columns' headers where a line counts (--compact): success, chip decides, with a chip.
COMPACT_ODDS_LABELS = ("success", "chip?", "w/chip")


def compact_choices_view(state: GameState, legal: Sequence[int]) -> RenderableType:
    """The choices of :func:`choices_view` without the title and the spacing lines."""
    return _choices_view(state, legal, None)


def _choices_view(state: GameState, legal: Sequence[int], title: str | None) -> RenderableType:
    if not any(action < NUM_ATTEMPT_ACTIONS for action in legal):
        lines = [Text(title, "bold")] if title else []
        for number, action in enumerate(legal, start=1):
            lines.append(
                Text().append(f"  {number}) ", "bold").append(other_choice_text(state, action))
            )
        return Text("\n").join(lines)
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title=title,
        title_style="bold",
        title_justify="left",
        collapse_padding=True,
        show_edge=title is not None,
    )
    table.add_column("#", justify="right", style="bold")
    table.add_column("attempt", no_wrap=True)
    table.add_column("card", no_wrap=True)
    table.add_column("cost, needs", no_wrap=True)
    table.add_column(STAR, no_wrap=True)
    labels = words.ODDS_LABELS if title is not None else COMPACT_ODDS_LABELS
    for label, width in zip(labels, (7, 6, 7), strict=True):
        table.add_column(label, justify="right", min_width=width)
    player = state.current_player
    has_chip = state.players[player].chips_on_board > 0
    pool = player_pool(state, player)
    for number, action in enumerate(legal, start=1):
        if action >= NUM_ATTEMPT_ACTIONS:  # not reached: attempts come alone
            table.add_row(str(number), other_choice_text(state, action))
            continue
        target = attempt_target(action)
        choice = attempt_choice_text(pool, action)
        info = target_card(state, target)
        odds = attempt_odds(state, action)
        if info is None or odds is None:  # not reached for a legal attempt
            table.add_row(str(number), choice)
            continue
        card_id, _card, cost, needed = info
        success, chip, with_chip = words.odds_texts(odds, has_chip)
        table.add_row(
            str(number),
            choice,
            Text(card_id, "bold"),
            cost_text(cost).append(f" ≥{needed}"),
            Text(words.target_value_text(state, target), "bold yellow"),
            Text(success, "bold"),
            chip,
            with_chip,
        )
    return table


def attempt_choice_text(pool: Pool, action: int) -> Text:
    """'stack 3', or 'engineer 3 +exch 3W→2R' for an attempt with the Materials exchange."""
    choice = short_target_text(attempt_target(action))
    hand = pool.hands[attempt_variant(action)]
    if hand is not None and hand.exchange is not None:
        choice.append(" +exch ").append(exchange_text(hand.exchange))
    return choice


def choice_names(state: GameState, legal: Sequence[int]) -> list[tuple[str, ...]]:
    """The names a person may type for each choice, as the choices view shows them: an
    attempt's target ('stack 3', with its exchange), its card ('airship-L5') and the action's
    name; any other choice's name ('end the turn') and its line."""
    pool = player_pool(state, state.current_player)
    names: list[tuple[str, ...]] = []
    for action in legal:
        if action < NUM_ATTEMPT_ACTIONS:
            shown = attempt_choice_text(pool, action).plain
            info = target_card(state, attempt_target(action))
            card = (info[0],) if info is not None else ()
            names.append((shown, *card, ACTION_NAMES[action]))
        else:
            names.append((ACTION_NAMES[action], other_choice_text(state, action).plain))
    return names


def short_target_text(target: int) -> Text:
    """'hangar 2', 'stack 3', 'Hindenburg 1' (1-based, as in ``target_name``)."""
    style = DEPARTMENT_STYLES[target // SLOTS_PER_ROW] if target < FIRST_STACK_TARGET else ""
    return Text(words.target_short_text(target), style)


def other_choice_text(state: GameState, action: int) -> Text:
    """A chip decision, extra turn, end of turn or pass, with what it means now."""
    return Text(words.choice_text(state, action))


# ---------------------------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------------------------
def result_text(state: GameState, labels: Sequence[str]) -> Text:
    """'P1 random wins with 23' or 'P0 (you), P2 greedy share the win with 19'."""
    text = Text(words.result_text(state, labels))
    for seat in state.winners or ():
        text.highlight_words([labels[seat]], PLAYER_STYLES[seat % len(PLAYER_STYLES)])
    return text


def scores_table(state: GameState, labels: Sequence[str]) -> Table:
    """Every player's score by part (E2), airship count (the E3 tie-break) and the winners."""
    final = state.phase == GAME_OVER
    table = Table(title="Final scores" if final else "Scores", title_style="bold", pad_edge=False)
    for column in ("player", "expansions", "airships", "Hindenburg", "total", "airships held"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for seat in range(state.num_players):
        parts = score_parts(state, seat)
        name = Text().append(player_text(labels, seat))
        if state.winners is not None and seat in state.winners:
            name.append("  WINNER", "bold yellow")
        held = airship_count(state, seat)
        table.add_row(
            name,
            str(parts["expansions"]),
            str(parts["airships"]),
            str(parts["hindenburg"]),
            Text(str(sum(parts.values())), "bold"),
            str(held),
        )
    return table
