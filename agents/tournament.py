"""Rated tournaments: a pool of agents from a YAML file, played through the arena machinery.

Formats:

- ``round_robin``: every group of ``players`` distinct agents of the pool (every pair for 2
  players) plays ``games`` games, seat-rotated (rounded up to whole rotations). Games of the
  groups are interleaved (game index = round * groups + group), so a run stopped half-way has
  played every group about equally, and the ``k``-th game of every group uses the same deal:
  every group meets the same deals;
- ``pool``: ``games`` games in all, in blocks of one seat rotation; each block draws a random
  group of ``players`` distinct agents from the pool (from the run seed).

Ratings: OpenSkill's Plackett-Luce model (default; made for rankings of 3-4 players), or
another OpenSkill model, or TrueSkill when the ``trueskill`` package is installed. Each game is
one ranking of its seats by place (the game's outcome ranks; Airships: score, then airships,
E3; equal places are ties, so a shared win is a tie for first). The config names its game
(``game:``, default airships) and its ``players`` must be one of that game's player counts;
``rules:`` (a mapping of the game's rules options, checked by the game's own
``options_from_dict``; default: the game's rules) sets the rules every game is dealt with.
These models update online, one game at a time, so one pass depends on the order of the games
(with a few dozen games per agent, enough to swap close agents). The ratings are therefore
computed over ``RATING_ORDERS`` orders: the game-index order and seeded shuffles of it; ``mu``
is the mean over the orders and ``sigma`` combines the mean posterior variance with the variance
of ``mu`` across orders. The result does not depend on the number of workers or on the order
the games finished in. The leaderboard ranks by the ordinal ``mu - 3 sigma``.

The head-to-head matrix: for agents A and B, over the games where both played, the fraction in
which A placed above B (a tie counts one half).

Outputs in the ``output`` directory: ``results.jsonl`` (the arena results file; re-running
resumes it), ``leaderboard.json``, ``ratings.png`` and ``pairwise.png``.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from pydantic import AfterValidator, BeforeValidator, Field, PrivateAttr, model_validator

from agents.arena import (
    MAX_STEPS,
    SEATINGS,
    Executor,
    GameSpec,
    deal_seed,
    round_up_games,
    run_schedule,
    seat_arrangements,
)
from agents.games import DEFAULT_GAME, counts_text, rules_record
from agents.registry import AgentUnavailableError, make_agent, parse_spec
from agents.stats import Summary, error_lines, fmt_ms, print_table, summarize
from airships_env.configfile import ConfigError, Count, Strict, read_mapping, validate_config
from airships_env.registry import games, get_game

FORMATS = ("round_robin", "pool")
RATING_MODELS = {
    "plackett_luce": "PlackettLuce",
    "thurstone_mosteller_full": "ThurstoneMostellerFull",
    "thurstone_mosteller_part": "ThurstoneMostellerPart",
    "bradley_terry_full": "BradleyTerryFull",
    "bradley_terry_part": "BradleyTerryPart",
    "trueskill": "",
}
_POOL_STREAM = 2
#: Orders of the games the ratings are averaged over, and the seed of their shuffles.
RATING_ORDERS = 16
_ORDER_SEED = 20_240


# ---------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------
def _agent_entry(value: Any) -> Any:
    """A pool entry given as a bare spec string is ``{spec: ...}``."""
    if isinstance(value, str):
        return {"spec": value}
    if not isinstance(value, dict):
        raise ValueError("a spec string or a mapping with name, spec and optional")
    return value


def _agent_spec(value: str) -> str:
    if not value.strip():
        raise ValueError("an agent spec string")
    try:
        parse_spec(value)
    except ValueError as exc:
        raise ValueError(f"an agent spec name[:key=value,...] ({exc})") from None
    return value.strip()


def _one_of(options: Sequence[str]) -> Any:
    def check(value: str) -> str:
        if value not in options:
            raise ValueError(f"one of {', '.join(options)}")
        return value

    return AfterValidator(check)


def _registered_game(value: str) -> str:
    if value not in games():
        raise ValueError(f"one of the registered games ({', '.join(games())})")
    return value


class AgentEntry(Strict):
    """One agent of the pool: its display name, its spec, and whether it may be left out."""

    name: Annotated[str, AfterValidator(str.strip), Field(min_length=1)]
    spec: Annotated[str, AfterValidator(_agent_spec)]
    optional: bool = False

    @model_validator(mode="before")
    @classmethod
    def _name_defaults_to_spec(cls, data: Any) -> Any:
        if (
            isinstance(data, dict)
            and data.get("name") is None
            and isinstance(data.get("spec"), str)
        ):
            return {**data, "name": data["spec"].strip()}
        return data


class TournamentConfig(Strict):
    """A validated tournament configuration (see ``configs/tournament.yaml``)."""

    agents: list[Annotated[AgentEntry, BeforeValidator(_agent_entry)]]
    # The game played (a registered name); a config without one is an Airships tournament.
    game: Annotated[str, AfterValidator(_registered_game)] = DEFAULT_GAME
    players: Annotated[Count, Field(ge=1)] = 2  # one of the game's player counts
    # The game's rules options every game is dealt with (name -> value; checked against the
    # game in config_from_dict); empty: the game's own rules.
    rules: dict[str, Any] = Field(default_factory=dict)
    format: Annotated[str, _one_of(FORMATS)] = "round_robin"
    games: Annotated[Count, Field(ge=1)] = 20
    paired: bool = True
    seating: Annotated[str, _one_of(SEATINGS)] = "cyclic"
    seed: Annotated[Count, Field(ge=0)] = 0
    workers: Annotated[Count, Field(ge=1)] | None = None
    output: Annotated[str, Field(min_length=1)] = "results/tournament"
    rating: Annotated[str, _one_of(tuple(RATING_MODELS))] = "plackett_luce"
    name: Annotated[str, Field(min_length=1)] = "tournament"
    max_steps: Annotated[Count, Field(ge=1)] = MAX_STEPS
    # Play the games as tasks on a Ray cluster: an address, "default" (RAY_ADDRESS, else a
    # local cluster) or "local"; null plays them here. The results do not depend on it.
    ray: Annotated[str, Field(min_length=1)] | None = None

    _source: str = PrivateAttr(default="<config>")

    @property
    def source(self) -> str:
        """The file this config was read from."""
        return self._source

    def replace(self, **changes: Any) -> TournamentConfig:
        """A validated copy with keys changed (command-line overrides get the file's checks)."""
        data = self.model_dump(exclude_none=False)
        data.update(changes)
        return config_from_dict(data, self.source)

    def results_config(self, agent_specs: dict[str, str]) -> dict[str, Any]:
        """What the results file records and a resumed run must match (``rules``: the options
        that differ from the game's defaults, only when there are some)."""
        config: dict[str, Any] = {
            "kind": "tournament",
            "game": self.game,
            "agents": agent_specs,
            "players": self.players,
            "format": self.format,
            "games": self.games,
            "paired": self.paired,
            "seating": self.seating,
            "seed": self.seed,
            "max_steps": self.max_steps,
            "save_logs": False,
        }
        recorded = rules_record(self.game, self.rules)
        if recorded:
            config["rules"] = recorded
        return config


def config_from_dict(data: Any, source: str = "<config>") -> TournamentConfig:
    """Validate a parsed YAML mapping (:mod:`airships_env.configfile`); errors name the file
    and the key."""
    config = validate_config(data, TournamentConfig, source)
    config._source = source
    try:
        rules_record(config.game, config.rules)
    except ValueError as exc:
        raise ConfigError(f"{source}: rules: {exc}") from None
    counts = get_game(config.game).player_counts
    if config.players not in counts:
        raise ConfigError(
            f"{source}: players: expected {counts_text(counts)} (the player counts of "
            f"{config.game}), found {config.players}"
        )
    names = [entry.name for entry in config.agents]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(
            f"{source}: agents: expected distinct names, found {duplicates} repeated "
            f"(give each copy a name:)"
        )
    if config.rating == "trueskill" and importlib.util.find_spec("trueskill") is None:
        raise ConfigError(
            f"{source}: rating: 'trueskill' needs the trueskill package (pip install "
            f"trueskill); plackett_luce needs nothing more"
        )
    if len(config.agents) < config.players:
        raise ConfigError(
            f"{source}: agents: {len(config.agents)} agents cannot fill {config.players} seats "
            f"with distinct agents"
        )
    return config


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament YAML file (an empty file is an error)."""
    return config_from_dict(read_mapping(path, "configs/tournament.yaml"), str(path))


def available_agents(config: TournamentConfig) -> tuple[dict[str, str], list[str]]:
    """The pool's ``name -> spec`` without the optional agents that cannot be built, and a
    note for each agent left out. A required agent that cannot be built raises."""
    agents: dict[str, str] = {}
    notes: list[str] = []
    for entry in config.agents:
        try:
            make_agent(entry.spec, num_players=config.players, game=config.game)
        except (AgentUnavailableError, OSError, ValueError) as exc:
            if not entry.optional:
                raise ValueError(
                    f"{config.source}: agent {entry.name!r} ({entry.spec}): {exc}"
                ) from exc
            notes.append(f"left out optional agent {entry.name!r}: {exc}")
            continue
        agents[entry.name] = entry.spec
    if len(agents) < config.players:
        raise ValueError(
            f"{config.source}: only {len(agents)} agents available for {config.players} seats"
        )
    return agents, notes


# ---------------------------------------------------------------------------------------------
# The schedule
# ---------------------------------------------------------------------------------------------
def tournament_schedule(names: Sequence[str], config: TournamentConfig) -> list[GameSpec]:
    """Every game of the tournament, by game index (see the module docstring)."""
    players = config.players
    arrangements = seat_arrangements(players, config.seating)
    block = len(arrangements)
    games = round_up_games(config.games, players, config.seating)
    schedule: list[GameSpec] = []
    if config.format == "round_robin":
        groups = list(itertools.combinations(names, players))
        for local in range(games):
            deal = local // block if config.paired else local
            order = arrangements[local % block]
            for group_index, group in enumerate(groups):
                schedule.append(
                    GameSpec(
                        local * len(groups) + group_index,
                        deal,
                        deal_seed(config.seed, deal),
                        tuple(group[i] for i in order),
                    )
                )
    else:
        for game in range(games):
            round_index = game // block
            rng = np.random.default_rng([config.seed, _POOL_STREAM, round_index])
            drawn = sorted(rng.choice(len(names), players, replace=False))
            pool_group = [names[int(i)] for i in drawn]
            deal = round_index if config.paired else game
            order = arrangements[game % block]
            schedule.append(
                GameSpec(
                    game, deal, deal_seed(config.seed, deal), tuple(pool_group[i] for i in order)
                )
            )
    return schedule


# ---------------------------------------------------------------------------------------------
# Ratings and head-to-head
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """A skill estimate: mean, standard deviation, and the ordinal ``mu - 3 sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate used for ranking."""
        return self.mu - 3 * self.sigma


def rate_games(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    model: str = "plackett_luce",
    orders: int = RATING_ORDERS,
) -> dict[str, Rating]:
    """Ratings from the finished games, over ``orders`` orderings of them (see the module
    docstring): the game-index order, then seeded shuffles of it."""
    games = sorted((r for r in records if not r.get("error")), key=lambda r: r["game"])
    if model not in RATING_MODELS:
        raise ValueError(f"unknown rating model {model!r}; known: {', '.join(RATING_MODELS)}")
    one_pass = _trueskill_pass if model == "trueskill" else _openskill_pass
    shuffler = np.random.default_rng(_ORDER_SEED)
    passes = []
    for index in range(max(1, orders)):
        order = games if index == 0 else [games[i] for i in shuffler.permutation(len(games))]
        passes.append(one_pass(order, names, model))
    ratings = {}
    for name in names:
        mus = np.array([p[name][0] for p in passes])
        variances = np.array([p[name][1] ** 2 for p in passes])
        # Law of total variance: the posterior spread plus the spread due to the order.
        ratings[name] = Rating(float(mus.mean()), float(np.sqrt(variances.mean() + mus.var())))
    return ratings


def _openskill_pass(
    games: Sequence[dict[str, Any]], names: Sequence[str], model: str
) -> dict[str, tuple[float, float]]:
    import openskill.models

    rater = getattr(openskill.models, RATING_MODELS[model])()
    current = {name: rater.rating(name=name) for name in names}
    for record in games:
        seats = record["seats"]
        teams = rater.rate([[current[name]] for name in seats], ranks=list(record["ranks"]))
        for name, team in zip(seats, teams, strict=True):
            current[name] = team[0]
    return {name: (float(r.mu), float(r.sigma)) for name, r in current.items()}


def _trueskill_pass(
    games: Sequence[dict[str, Any]], names: Sequence[str], model: str
) -> dict[str, tuple[float, float]]:
    import trueskill  # type: ignore[import-not-found]

    env = trueskill.TrueSkill()
    current = {name: env.create_rating() for name in names}
    for record in games:
        seats = record["seats"]
        teams = env.rate(
            [(current[name],) for name in seats], ranks=[rank - 1 for rank in record["ranks"]]
        )
        for name, team in zip(seats, teams, strict=True):
            current[name] = team[0]
    return {name: (float(r.mu), float(r.sigma)) for name, r in current.items()}


def head_to_head(
    records: Sequence[dict[str, Any]], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """``(rate, count)``: ``rate[a, b]`` is how often agent a placed above b (ties 1/2) in the
    ``count[a, b]`` finished games where both played; NaN where they never met."""
    index = {name: i for i, name in enumerate(names)}
    above = np.zeros((len(names), len(names)))
    count = np.zeros((len(names), len(names)), dtype=int)
    for record in records:
        if record.get("error"):
            continue
        seats, ranks = record["seats"], record["ranks"]
        for a, b in itertools.permutations(range(len(seats)), 2):
            i, j = index[seats[a]], index[seats[b]]
            count[i, j] += 1
            above[i, j] += 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(count > 0, above / np.maximum(count, 1), np.nan)
    return rate, count


# ---------------------------------------------------------------------------------------------
# Running and reporting
# ---------------------------------------------------------------------------------------------
@dataclass
class TournamentResult:
    """Everything a tournament produced."""

    config: TournamentConfig
    names: list[str]
    records: list[dict[str, Any]]
    ratings: dict[str, Rating]
    summary: Summary
    pairwise: np.ndarray
    pairwise_games: np.ndarray
    output: Path
    notes: list[str] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)

    def leaderboard(self) -> list[str]:
        """Agent names, best first (by ordinal, then mu)."""
        return sorted(self.names, key=lambda n: (-self.ratings[n].ordinal, -self.ratings[n].mu, n))

    def to_dict(self) -> dict[str, Any]:
        """The leaderboard, ratings, per-agent figures and the head-to-head matrix as JSON."""
        board = []
        for place, name in enumerate(self.leaderboard(), start=1):
            rating = self.ratings[name]
            stats = self.summary.agents[name]
            board.append(
                {
                    "place": place,
                    "name": name,
                    "spec": self._spec(name),
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ordinal": rating.ordinal,
                    **stats.to_dict(),
                }
            )
        return {
            "name": self.config.name,
            "game": self.config.game,
            "players": self.config.players,
            "format": self.config.format,
            "rating": self.config.rating,
            "games": self.summary.games,
            "errors": self.summary.to_dict()["errors"],
            "leaderboard": board,
            "pairwise": {
                "agents": self.names,
                "rate": [
                    [None if math.isnan(v) else float(v) for v in row] for row in self.pairwise
                ],
                "games": self.pairwise_games.tolist(),
            },
            "notes": self.notes,
        }

    def _spec(self, name: str) -> str:
        return next(e.spec for e in self.config.agents if e.name == name)


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    output: str | Path | None = None,
    progress: bool = False,
    restart: bool = False,
    plots: bool = True,
) -> TournamentResult:
    """Play (or resume) the tournament, rate it, and write the JSON and the plots.

    ``restart`` deletes the results of an earlier run in the output directory first.
    """
    agent_specs, notes = available_agents(config)
    names = list(agent_specs)
    out_dir = Path(output if output is not None else config.output)
    out_dir.mkdir(parents=True, exist_ok=True)
    results_path = out_dir / "results.jsonl"
    if restart and results_path.exists():
        results_path.unlink()
    schedule = tournament_schedule(names, config)
    executor: Executor | None = None
    if config.ray is not None:  # the config's cluster (the rllib extra); else play here
        from agents.rllib.arena import RayExecutor

        executor = RayExecutor(config.ray)
    records = run_schedule(
        schedule,
        agent_specs,
        seed=config.seed,
        config=config.results_config(agent_specs),
        out=results_path,
        workers=workers if workers is not None else config.workers,
        max_steps=config.max_steps,
        progress=progress,
        description=config.name,
        executor=executor,
        game=config.game,
        rules=config.rules,
    )
    ratings = rate_games(records, names, config.rating)
    summary = summarize(records, names)
    rate, count = head_to_head(records, names)
    result = TournamentResult(config, names, records, ratings, summary, rate, count, out_dir, notes)
    (out_dir / "leaderboard.json").write_text(
        json.dumps(result.to_dict(), indent=2) + "\n", encoding="utf-8"
    )
    if plots:
        result.plots = write_plots(result, out_dir)
    return result


def leaderboard_rows(result: TournamentResult) -> tuple[list[str], list[list[str]]]:
    """Column names and text rows of the leaderboard table."""
    columns = [
        "#",
        "agent",
        "mu ± sigma",
        "ordinal",
        "games",
        "win rate",
        "95% CI",
        "mean score",
        "mean margin",
        "ms/decision",
        "errors",
    ]
    rows = []
    for place, name in enumerate(result.leaderboard(), start=1):
        rating = result.ratings[name]
        stats = result.summary.agents[name]
        low, high = stats.interval
        rows.append(
            [
                str(place),
                name,
                f"{rating.mu:.2f} ± {rating.sigma:.2f}",
                f"{rating.ordinal:.2f}",
                str(stats.games),
                _fmt(stats.win_rate),
                f"{low:.3f}-{high:.3f}",
                _fmt(stats.mean_score, 2),
                _fmt(stats.mean_margin, 2),
                fmt_ms(stats.ms_per_decision),
                str(stats.errors),
            ]
        )
    return columns, rows


def pairwise_rows(result: TournamentResult) -> tuple[list[str], list[list[str]]]:
    """The head-to-head matrix as text (row agent placed above column agent)."""
    order = result.leaderboard()
    index = {name: i for i, name in enumerate(result.names)}
    columns = ["row above column", *order]
    rows = []
    for a in order:
        row = [a]
        for b in order:
            value = result.pairwise[index[a], index[b]]
            row.append("" if a == b else _fmt(value, 2) if not math.isnan(value) else "-")
        rows.append(row)
    return columns, rows


def _fmt(value: float, digits: int = 3) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


#: The leaderboard table's caption: what its rating columns mean.
ORDINAL_NOTE = (
    "mu ± sigma: the OpenSkill rating (mean skill and its uncertainty); ordinal = mu - 3 sigma, "
    "the conservative estimate the table is ranked by (the skill is above it with 99.9% "
    "confidence, so an agent with few games ranks low until its sigma shrinks)"
)


def print_report(result: TournamentResult, file: Any = None) -> None:
    """The leaderboard, the head-to-head matrix, errors and where the files are."""
    config = result.config
    for note in result.notes:
        print(note, file=file)
    columns, rows = leaderboard_rows(result)
    print_table(
        columns,
        rows,
        f"{config.name}: {config.players}-player {config.format}, "
        f"{result.summary.games} games, {config.rating} ratings",
        file,
        left=2,
    )
    print(ORDINAL_NOTE, file=file)
    columns, rows = pairwise_rows(result)
    print_table(
        columns, rows, "Head-to-head: how often the row agent placed above the column agent", file
    )
    for line in error_lines(result.summary.errors):
        print(line, file=file)
    print(f"results: {result.output / 'results.jsonl'}", file=file)
    print(f"leaderboard: {result.output / 'leaderboard.json'}", file=file)
    for path in result.plots:
        print(f"plot: {path}", file=file)


def write_plots(result: TournamentResult, out_dir: Path) -> list[Path]:
    """``ratings.png`` (mu with 95% intervals, best on top) and ``pairwise.png`` (heatmap)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = result.leaderboard()
    config = result.config
    paths = []

    # Ratings: best at the top; bars are mu ± 2 sigma, the dot is mu, the tick the ordinal.
    height = 1.9 + 0.45 * len(order)
    fig, ax = plt.subplots(figsize=(7.5, height))
    ys = np.arange(len(order))[::-1]
    mus = np.array([result.ratings[n].mu for n in order])
    sigmas = np.array([result.ratings[n].sigma for n in order])
    ax.errorbar(
        mus,
        ys,
        xerr=2 * sigmas,
        fmt="o",
        color="#1f4e79",
        ecolor="#7aa6d6",
        elinewidth=6,
        capsize=0,
        markersize=7,
    )
    ax.scatter(mus - 3 * sigmas, ys, marker="|", s=200, color="#c0392b", zorder=3)
    for y, mu, sigma in zip(ys, mus, sigmas, strict=True):
        ax.annotate(
            f"{mu:.1f} ± {sigma:.1f}",
            (mu + 2 * sigma, y),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
        )
    ax.set_yticks(ys, order)
    ax.set_ylim(-0.7, len(order) - 0.3)
    low = float(np.min(mus - 3 * sigmas))
    high = float(np.max(mus + 2 * sigmas))
    ax.set_xlim(low - 0.05 * (high - low + 1), high + 0.22 * (high - low + 1))
    ax.set_xlabel(
        f"{config.rating.replace('_', '-')} rating: dot μ, bar μ ± 2σ (≈95%), "
        f"red tick μ − 3σ (the ranking)",
        fontsize=9,
    )
    ax.set_title(
        f"{config.name}: ratings after {result.summary.games} games ({config.players} players)",
        fontsize=11,
    )
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path = out_dir / "ratings.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    paths.append(path)

    # Head-to-head heatmap, in leaderboard order.
    index = [result.names.index(n) for n in order]
    matrix = result.pairwise[np.ix_(index, index)]
    counts = result.pairwise_games[np.ix_(index, index)]
    size = 2.2 + 0.9 * len(order)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    shown = np.ma.masked_invalid(matrix)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#c8c8c8")
    image = ax.imshow(shown, cmap=cmap, vmin=0.0, vmax=1.0)
    for i in range(len(order)):
        for j in range(len(order)):
            if i == j:
                continue
            value = matrix[i, j]
            if math.isnan(value):
                ax.text(j, i, "–", ha="center", va="center", fontsize=9, color="#777777")
                continue
            colour = "white" if abs(value - 0.5) > 0.3 else "black"
            ax.text(
                j,
                i,
                f"{value:.2f}\n({counts[i, j]})",
                ha="center",
                va="center",
                fontsize=9,
                color=colour,
            )
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title(
        "Head-to-head: P(agent places above opponent)\n(games together in brackets)", fontsize=11
    )
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    path = out_dir / "pairwise.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    paths.append(path)
    return paths
