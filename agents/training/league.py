"""The opponent league: who sits in the learner's opponents' seats, episode by episode.

Two halves, one on each side of the process boundary of a ``SubprocVecEnv``:

- the main process keeps a :class:`League`: the bots with their weights, and the pool of frozen
  snapshots of the learner (at most ``pool_size``, the newest kept). It is saved as
  ``league.json`` beside every checkpoint, and turned into a :class:`LeagueMix` (members and
  draw weights, plain picklable data) that is sent to every environment;
- each environment holds a :class:`LeagueTable` and one :class:`LeagueSeat` per opponent seat.
  A LeagueSeat is an ordinary :class:`~airships_env.policy.Policy`: at each ``reset`` it draws
  its member from the generator the environment gives that seat (so the draws follow the
  environment's seed, not any global state), builds or reuses that member's agent, and plays
  it for the whole game. No hook in the environment is needed beyond the Policy protocol.

The self-play weight is shared evenly among the snapshots in the pool; while the pool is empty
the draw is over the bots alone. Frozen snapshots play through :class:`~agents.policy_agent.NetPolicy`: the actor
MLP read once from the checkpoint zip into numpy arrays (no torch, no optimizer, one process
thread), fed with the same observation vector and legal-action mask as the learner.

Any registered game trains this way: Airships in its own environments (native core or Python),
any other game in :class:`~airships_env.game_single_agent.GameSingleAgentEnv` over the game
protocol, with the game's bots (:func:`agents.registry.agents_for`) and snapshots of its learner.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from agents.games import DEFAULT_GAME
from agents.policy_agent import ActorNet, NetPolicy
from agents.registry import make_agent
from agents.training.config import LeagueConfig
from airships_env.policy import Decision, Policy

BOT, SNAPSHOT = "bot", "snapshot"


@dataclass(frozen=True)
class Member:
    """One possible occupant of an opponent seat: a bot spec or a snapshot path."""

    kind: str
    ref: str

    @property
    def label(self) -> str:
        """Short name for logs: the bot spec, or ``snapshot:<file stem>``."""
        return self.ref if self.kind == BOT else f"{SNAPSHOT}:{Path(self.ref).stem}"


@dataclass(frozen=True)
class LeagueMix:
    """The members of the league and their draw probabilities (sent to every environment)."""

    members: tuple[Member, ...]
    probabilities: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.members) != len(self.probabilities) or not self.members:
            raise ValueError("a league mix needs one probability per member, and members")
        if abs(sum(self.probabilities) - 1.0) > 1e-9 or min(self.probabilities) < 0:
            raise ValueError(f"league probabilities must sum to 1, got {self.probabilities}")

    def draw(self, rng: np.random.Generator) -> Member:
        """One member, drawn with the mix's probabilities from ``rng``."""
        index = int(np.searchsorted(np.cumsum(self.probabilities), rng.random(), side="right"))
        return self.members[min(index, len(self.members) - 1)]


@dataclass(frozen=True)
class Snapshot:
    """A frozen copy of the learner: the step it was taken at and its file."""

    step: int
    path: str  # relative to the run directory


class League:
    """The main process's view of the league: bot weights and the snapshot pool."""

    def __init__(self, config: LeagueConfig, run_dir: str | os.PathLike[str]):
        self.config = config
        self.run_dir = Path(run_dir)
        self.snapshots: list[Snapshot] = []

    @property
    def snapshot_dir(self) -> Path:
        """Where snapshots are written."""
        return self.run_dir / "league"

    def add_snapshot(self, step: int, path: str | os.PathLike[str]) -> None:
        """Put a saved snapshot in the pool, dropping the oldest beyond ``pool_size``."""
        relative = os.path.relpath(Path(path), self.run_dir)
        self.snapshots = [s for s in self.snapshots if s.step != step]
        self.snapshots.append(Snapshot(step, relative))
        self.snapshots.sort(key=lambda s: s.step)
        del self.snapshots[: max(0, len(self.snapshots) - self.config.pool_size)]

    def mix(self) -> LeagueMix:
        """The members and draw probabilities the environments should use now."""
        members: list[Member] = []
        weights: list[float] = []
        for spec, weight in self.config.bots.items():
            if weight > 0:
                members.append(Member(BOT, spec))
                weights.append(weight)
        if self.snapshots and self.config.self_play > 0:
            share = self.config.self_play / len(self.snapshots)
            for snapshot in self.snapshots:
                members.append(Member(SNAPSHOT, str((self.run_dir / snapshot.path).resolve())))
                weights.append(share)
        total = sum(weights)
        return LeagueMix(tuple(members), tuple(w / total for w in weights))

    def to_dict(self) -> dict[str, Any]:
        """What ``league.json`` holds."""
        return {
            "bots": dict(self.config.bots),
            "self_play": self.config.self_play,
            "pool_size": self.config.pool_size,
            "snapshots": [{"step": s.step, "path": s.path} for s in self.snapshots],
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``league.json`` atomically."""
        write_json_atomic(path, self.to_dict())

    def load(self, path: str | os.PathLike[str]) -> None:
        """Restore the snapshot pool from a ``league.json`` (the weights come from the config)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.snapshots = []
        for entry in data["snapshots"]:
            snapshot = Snapshot(int(entry["step"]), str(entry["path"]))
            if not (self.run_dir / snapshot.path).is_file():
                raise FileNotFoundError(
                    f"{path}: snapshot {snapshot.path} of the league pool is missing"
                )
            self.snapshots.append(snapshot)


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write JSON to a temporary file and rename it over ``path`` (never half-written)."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, path)


# ---------------------------------------------------------------------------------------------
# The worker side
# ---------------------------------------------------------------------------------------------
class LeagueTable:
    """One environment's league: the current mix and the agents built for it, per seat slot."""

    def __init__(
        self,
        mix: LeagueMix,
        slots: int,
        deterministic_snapshots: bool = False,
        game: str = DEFAULT_GAME,
    ):
        self.mix = mix
        self.slots = slots
        self.deterministic_snapshots = deterministic_snapshots
        self.game = game
        self._agents: dict[tuple[int, Member], Policy] = {}
        self._nets: dict[str, ActorNet] = {}

    def set_mix(self, mix: LeagueMix) -> None:
        """Use a new mix from the next game on; forget agents of members no longer in it."""
        self.mix = mix
        kept = set(mix.members)
        self._agents = {key: agent for key, agent in self._agents.items() if key[1] in kept}
        paths = {m.ref for m in kept if m.kind == SNAPSHOT}
        self._nets = {path: net for path, net in self._nets.items() if path in paths}

    def forget_agents(self) -> None:
        """Build every agent afresh from now on (what follows then depends on the seeds and
        the mix alone, not on the games the agents played before)."""
        self._agents = {}
        self._nets = {}

    def agent(self, slot: int, member: Member) -> Policy:
        """The agent playing ``member`` in seat slot ``slot`` (built on first use)."""
        key = (slot, member)
        agent = self._agents.get(key)
        if agent is None:
            if member.kind == BOT:
                agent = make_agent(
                    member.ref, game=None if self.game == DEFAULT_GAME else self.game
                )
            else:
                net = self._nets.get(member.ref)
                if net is None:
                    net = self._nets[member.ref] = ActorNet(member.ref, self.game)
                agent = NetPolicy(net, self.deterministic_snapshots, member.label)
            self._agents[key] = agent
        return agent


class LeagueSeat:
    """A Policy that becomes a freshly drawn league member at every game."""

    name = "league"

    def __init__(self, table: LeagueTable, slot: int):
        self.table = table
        self.slot = slot
        self.member: Member | None = None
        self._agent: Policy | None = None
        self.seconds = 0.0  # wall time in the members' act (what --profile calls opponents)

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Draw this game's member from ``rng`` and reset it with the same generator."""
        self.member = self.table.mix.draw(rng)
        self._agent = self.table.agent(self.slot, self.member)
        self._agent.reset(seat, num_players, rng)

    def act(self, decision: Decision) -> int:
        """The drawn member's action."""
        if self._agent is None:
            raise RuntimeError("LeagueSeat.act before reset")
        started = time.perf_counter()
        try:
            return self._agent.act(decision)
        finally:
            self.seconds += time.perf_counter() - started


def league_seats(
    mix: LeagueMix,
    opponents: int,
    deterministic_snapshots: bool = False,
    game: str = DEFAULT_GAME,
) -> tuple[LeagueTable, list[LeagueSeat]]:
    """A table and ``opponents`` seats sharing it."""
    table = LeagueTable(mix, opponents, deterministic_snapshots, game)
    return table, [LeagueSeat(table, slot) for slot in range(opponents)]


def member_labels(seats: Sequence[LeagueSeat]) -> list[str]:
    """The labels of the members the seats drew for the current game."""
    return [seat.member.label if seat.member is not None else "?" for seat in seats]


# ---------------------------------------------------------------------------------------------
# The training environment
# ---------------------------------------------------------------------------------------------
def _isolate_worker() -> None:
    """In a SubprocVecEnv worker: leave Ctrl-C to the main process (which stops the run and
    saves a checkpoint) and keep any torch use to one thread."""
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def make_league_env(
    num_players: int,
    mix: LeagueMix,
    *,
    reward: str = "win",
    max_turns: int | None = None,
    deterministic_snapshots: bool = False,
    worker: bool = False,
    backend: str = "native",
    game: str = DEFAULT_GAME,
) -> Any:
    """An ``AirshipsSingleAgentEnv`` (learner at a random seat) whose opponents are league
    seats, wrapped in :class:`LeagueEnv`. ``max_turns`` truncates a game (a policy that keeps
    making an attempt it cannot win never ends its game). ``worker``: the env lives in a
    subprocess. ``backend``: the engine behind the environment (``native`` where built, or the
    ``python`` reference, whose bots then play in Python too). Another ``game``: a
    ``GameSingleAgentEnv`` of it (``max_turns`` counts actions there; ``native`` where the game
    has a native core, else its reference)."""
    if worker:
        _isolate_worker()
    table, seats = league_seats(mix, num_players - 1, deterministic_snapshots, game)
    if game != DEFAULT_GAME:
        from airships_env.game_single_agent import GameSingleAgentEnv
        from airships_env.registry import get_game

        rules = get_game(game)
        generic = GameSingleAgentEnv(
            rules,
            num_players,
            seats,
            seat="random",
            reward=reward,
            max_turns=max_turns,
            backend=backend if backend in rules.backends else None,
        )
        return LeagueEnv(generic, table, seats)
    from airships_env.single_agent import AirshipsSingleAgentEnv

    env = AirshipsSingleAgentEnv(
        num_players,
        seats,
        seat="random",
        reward=reward,
        max_turns=max_turns,
        backend=None if backend == "native" else backend,
    )
    return LeagueEnv(env, table, seats)


@dataclass(frozen=True)
class LeagueEnvFactory:
    """Builds one training environment; picklable, and cheap to unpickle in a worker (this
    module needs neither torch nor stable-baselines3 until a snapshot is loaded)."""

    num_players: int
    mix: LeagueMix
    reward: str = "win"
    max_turns: int | None = None
    deterministic_snapshots: bool = False
    worker: bool = False
    backend: str = "native"
    game: str = DEFAULT_GAME

    def __call__(self) -> Any:
        """A fresh environment."""
        return make_league_env(
            self.num_players,
            self.mix,
            reward=self.reward,
            max_turns=self.max_turns,
            deterministic_snapshots=self.deterministic_snapshots,
            worker=self.worker,
            backend=self.backend,
            game=self.game,
        )


class LeagueEnv(gymnasium.Wrapper):
    """The single-agent env plus the league: ``set_league(mix)`` (called through
    ``VecEnv.env_method``) and, in the info of a game's last step, ``info["league"] =
    {"opponents": [member labels], "win": the learner's share of the win}``."""

    def __init__(self, env: Any, table: LeagueTable, seats: list[LeagueSeat]):
        super().__init__(env)
        self.table = table
        self.seats = seats
        self.seconds = 0.0  # wall time in reset and step, the opponents' moves included

    def league_timing(self) -> tuple[float, float]:
        """Seconds spent in this environment's resets and steps, and the part of them in the
        opponents' policies (asked through ``VecEnv.env_method``; see :class:`LeagueClock`)."""
        return self.seconds, sum(seat.seconds for seat in self.seats)

    def set_league(self, mix: LeagueMix) -> None:
        """Draw opponents from ``mix`` from the next game on."""
        self.table.set_mix(mix)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new game; a seeded one also rebuilds the league's agents, so that the games from
        a seed depend on that seed and the mix alone (a resumed run deals them again)."""
        if seed is not None:
            self.table.forget_agents()
        started = time.perf_counter()
        try:
            return self.env.reset(seed=seed, options=options)
        finally:
            self.seconds += time.perf_counter() - started

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the learner's current decision."""
        unwrapped: Any = self.env.unwrapped
        return unwrapped.action_masks()

    def step(self, action: Any) -> Any:
        """One learner step; a finished game's info gets the ``league`` entry."""
        started = time.perf_counter()
        try:
            observation, reward, terminated, truncated, info = self.env.step(action)
        finally:
            self.seconds += time.perf_counter() - started
        if terminated or truncated:
            info = dict(info)
            info["league"] = {
                "opponents": member_labels(self.seats),
                "win": learner_win_share(self.env.unwrapped),
            }
        return observation, reward, terminated, truncated, info


class LeagueClock:
    """How much of a vector of :class:`LeagueEnv` s' time goes to the opponents' policies:
    the share of the environments' own reset and step time spent in their league seats, summed
    over the environments (so it holds for a SubprocVecEnv, whose workers run side by side, as
    for a DummyVecEnv). :class:`~agents.training.callbacks.TimedVecEnv` applies it to the wall
    time it measures around the vector env."""

    def __init__(self, venv: Any):
        self.venv = venv

    def opponent_share(self) -> float:
        """Opponents' seconds over environment seconds so far, every environment together."""
        timings = self.venv.env_method("league_timing")
        total = sum(seconds for seconds, _ in timings)
        return sum(opponents for _, opponents in timings) / total if total > 0 else 0.0


def learner_win_share(env: Any) -> float:
    """The learner's share of the win in a single-agent env's finished game (1/k for k
    winners, else 0; 0 for a game cut short): an ``AirshipsSingleAgentEnv``'s, or a
    ``GameSingleAgentEnv``'s (its state's ``outcome()``)."""
    from airships_env.game_single_agent import GameSingleAgentEnv

    if isinstance(env, GameSingleAgentEnv):
        outcome = env.aec_env.state.outcome()
        winners: Sequence[int] = outcome.winners if outcome is not None else ()
    else:
        winners = env.aec_env.game.winners or ()
    return 1.0 / len(winners) if env.seat in winners else 0.0
