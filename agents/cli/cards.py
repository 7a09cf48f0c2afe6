"""``airships cards``: print a card set as tables or JSON, or validate a card file."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agents.cli.common import CLIError, add_no_color, make_console
from airships_env.engine import CardDataError, CardSet, load_cards
from airships_env.engine.cards import BONUS_COLOURS, COLOURS, DEPARTMENTS, DiceCounts
from airships_env.engine.text import effect_text as plain_effect_text

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

DESCRIPTION = """\
Print the card set (the default one, or the card file PATH) as tables: the expansions by
department with era, cost, target, effect, stars and source; the airships by tier; the
Hindenburg's phases. --validate only checks the file; --json prints it as JSON.
"""

EPILOG = """\
examples:
  airships cards
  airships cards my_cards.toml --validate
  airships cards --json > cards.json

errors (one line, exit status 1):
  PATH: cannot read the card file: ...
  PATH: not a valid TOML file: ...
  PATH: expansion 'ID': field 'FIELD': ...      (the card and the field at fault)
"""


def add_parser(subparsers: Any) -> None:
    """Register ``airships cards``."""
    parser = subparsers.add_parser(
        "cards",
        help="print or validate a card file",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path",
        nargs="?",
        default=None,
        metavar="PATH",
        help="a card file (TOML); default: the set that ships with the package",
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="only check the file: 'ok: N cards' (exit 0) or its error (exit 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the card set as JSON")
    add_no_color(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print or validate the card set."""
    try:
        cards = load_cards(args.path)
    except CardDataError as exc:
        raise CLIError(str(exc), code=1) from exc
    count = len(cards.expansions) + len(cards.airships) + len(cards.hindenburg)
    if args.validate:
        if args.json:
            print(
                json.dumps(
                    {
                        "ok": True,
                        "cards": count,
                        "name": cards.name,
                        "path": cards.path,
                        "sha256": cards.digest,
                    }
                )
            )
        else:
            print(
                f"ok: {count} cards ({len(cards.expansions)} expansions, "
                f"{len(cards.airships)} airships, {len(cards.hindenburg)} Hindenburg "
                f"phases) in {cards.path}"
            )
        return 0
    if args.json:
        print(json.dumps(card_set_dict(cards), indent=2))
        return 0
    console = make_console(args.no_color)
    for renderable in card_tables(cards):
        console.print(renderable)
    return 0


def _dice(counts: DiceCounts) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts) if n}


def card_set_dict(cards: CardSet) -> dict[str, Any]:
    """The card set as JSON-ready data (the schema of the TOML file, plus each effect's text)."""
    expansions = []
    for e in cards.expansions:
        expansions.append(
            {
                "id": e.id,
                "era": e.era,
                "department": DEPARTMENTS[e.department],
                "cost": _dice(e.cost),
                "target": e.target,
                "stars": e.stars,
                "effect": plain_effect_text(e),
                "dice": _dice(e.dice),
                "chips": e.chips,
                "fixed_die": None
                if e.fixed_die is None
                else {"colour": COLOURS[e.fixed_die.colour], "value": e.fixed_die.value},
                "engine_bonuses": [
                    {"colour": BONUS_COLOURS[b.colour], "amount": b.amount}
                    for b in e.engine_bonuses
                ],
                "exchange": None
                if e.exchange is None
                else {"give": _dice(e.exchange.give), "get": _dice(e.exchange.get)},
                "source": e.source,
            }
        )
    return {
        "name": cards.name,
        "path": cards.path,
        "sha256": cards.digest,
        "entrepreneur": {
            "side_1": _dice(cards.entrepreneur_side_1),
            "side_2": _dice(cards.entrepreneur_side_2),
        },
        "expansions": expansions,
        "airships": [
            {
                "id": a.id,
                "tier": a.tier,
                "cost": _dice(a.cost),
                "target": a.target,
                "stars": a.stars,
                "source": a.source,
            }
            for a in cards.airships
        ],
        "hindenburg": [
            {
                "id": h.id,
                "cost": _dice(h.cost),
                "target": h.target,
                "low": h.low,
                "high": h.high,
                "source": h.source,
            }
            for h in cards.hindenburg
        ],
    }


def _source_code(source: str) -> str:
    """The source's code, its first word: 'S' (a public source) or 'R' (reconstructed)."""
    return source.split(maxsplit=1)[0] if source.strip() else ""


def _source_notes(sources: Sequence[tuple[str, str]]) -> list[Text]:
    """'sources: financier-11 S cost, target (...); ...' for the cards whose source says more
    than its code: plain text under a table, wrapped between words at any width (a table
    column for it was squeezed to a few characters at 80 columns and broke words)."""
    from rich.text import Text

    detailed = [
        (card, source) for card, source in sources if source.strip() != _source_code(source)
    ]
    if not detailed:
        return []
    text = Text("sources: ", "dim")
    text.append("; ".join(f"{card} {source}" for card, source in detailed))
    return [text]


def card_tables(cards: CardSet) -> list[RenderableType]:
    """The card set as rich tables: expansions by department, airships by tier, Hindenburg."""
    from rich.table import Table
    from rich.text import Text

    from agents.cli.tableview import DEPARTMENT_STYLES, cost_text, effect_text, stars_text

    total = len(cards.expansions) + len(cards.airships) + len(cards.hindenburg)
    head = Text().append(f"Card set '{cards.name}'", "bold")
    head.append(
        f": {total} cards ({len(cards.expansions)} expansions, {len(cards.airships)} "
        f"airships, {len(cards.hindenburg)} Hindenburg phases)\n{cards.path}\n"
        f"sha256 {cards.digest}\nentrepreneur: side I "
    )
    head.append(cost_text(cards.entrepreneur_side_1)).append(", side II ").append(
        cost_text(cards.entrepreneur_side_2)
    )
    head.append("   (W/R/B = white/red/black dice; <n> = a fixed die)", "dim")
    head.append(
        "\nsource: S = a public source (the words after S say which values), "
        "R = reconstructed (docs/CARDS.md)",
        "dim",
    )
    out: list[RenderableType] = [head]
    era_names = {0: "starter", 1: "1", 2: "2"}
    for department, name in enumerate(DEPARTMENTS):
        table = Table(
            title=f"Expansions: {name}",
            title_style=DEPARTMENT_STYLES[department],
            title_justify="left",
            pad_edge=False,
        )
        for column in ("id", "era", "cost", "target", "effect", "stars", "source"):
            table.add_column(
                column,
                justify="right" if column in ("target", "stars") else "left",
                no_wrap=True,
            )
        rows = [e for e in cards.expansions if e.department == department]
        for e in rows:
            table.add_row(
                Text(e.id, DEPARTMENT_STYLES[department]),
                era_names[e.era],
                cost_text(e.cost),
                str(e.target),
                effect_text(e),
                stars_text(e.stars),
                _source_code(e.source),
            )
        out.append(table)
        out.extend(_source_notes([(e.id, e.source) for e in rows]))
    table = Table(
        title="Airships (tier 1 on top of each stack, tier 3 at the bottom)",
        title_style="bold",
        title_justify="left",
        pad_edge=False,
    )
    for column in ("id", "tier", "cost", "target", "stars", "source"):
        table.add_column(column, justify="right" if column in ("target", "stars") else "left")
    by_tier = sorted(cards.airships, key=lambda a: (a.tier, a.index))
    for i, a in enumerate(by_tier):
        last_of_tier = i + 1 == len(by_tier) or by_tier[i + 1].tier != a.tier
        table.add_row(
            a.id,
            str(a.tier),
            cost_text(a.cost),
            str(a.target),
            stars_text(a.stars),
            _source_code(a.source),
            end_section=last_of_tier,
        )
    out.append(table)
    out.extend(_source_notes([(a.id, a.source) for a in by_tier]))
    table = Table(
        title="Hindenburg phases (points: low, or high once all four are built)",
        title_style="bold",
        title_justify="left",
        pad_edge=False,
    )
    for column in ("phase", "id", "cost", "target", "low", "high", "source"):
        table.add_column(column, justify="left" if column in ("id", "cost", "source") else "right")
    for h in cards.hindenburg:
        table.add_row(
            str(h.index + 1),
            h.id,
            cost_text(h.cost),
            str(h.target),
            str(h.low),
            str(h.high),
            _source_code(h.source),
        )
    out.append(table)
    out.extend(_source_notes([(h.id, h.source) for h in cards.hindenburg]))
    return out
