"""Airships as an RLlib ``MultiAgentEnv``, stepped in the native core.

One :class:`AirshipsMultiAgentEnv` is one game table (RLlib vectorizes tables with
``num_envs_per_env_runner``). It holds a one-game :class:`~airships_env.native.batch.NativeBatch`
whose every non-bot seat is a *Python seat* that RLlib plays, so every seat can be an agent.
Who sits where is drawn per episode from the *league* (:class:`LeagueWeights`):

- one seat (drawn by the core, ``learner_seat="random"``) is the learning policy ``main``;
- every other seat is drawn by weight: ``self`` (``main`` again: self-play, it learns from that
  seat too), ``snapshots`` (one of the frozen past copies ``snap0``..``snap<k-1>`` filled so
  far, uniformly) or a native bot (``random``, ``greedy``, ``heuristic``), which the core plays
  inside the step, so no RLlib agent stands for it.

Agent ids are ``"<module>@<seat>"`` (``main@0``, ``snap3@1``): :func:`module_for_agent` is the
policy mapping function. Observations are ``{"observations": float32 (obs,), "action_mask":
float32 (83,)}`` (the keys RLlib's action-masking module reads); only the seat to act gets one.
Rewards (``win`` or ``score``, as the AEC environment gives them) come at the end, to every
Python seat that acted. Seeds: ``reset(seed=s)`` restarts the table's deal stream from ``s``
(episode ``e`` deals as slot 0, episode ``e`` of a ``NativeBatch`` seeded ``s``); the league draws
come from ``SeedSequence([s, 1, e])``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from airships_env.engine import NUM_ACTIONS
from airships_env.native.batch import BOTS, EXTERNAL, LEARNER, NativeBatch
from airships_env.observation import observation_high

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as error:  # pragma: no cover - the rllib extra is not installed
    raise ImportError(
        "agents.rllib needs ray[rllib]: pip install -e '.[rllib]' (or make venv)"
    ) from error

MAIN = "main"
SEPARATOR = "@"
BOT_NAMES = tuple(BOTS)  # random, greedy, heuristic


def snapshot_id(slot: int) -> str:
    """The module id of snapshot slot ``slot``."""
    return f"snap{slot}"


def agent_id(module: str, seat: int) -> str:
    """The agent id of ``module`` playing ``seat``."""
    return f"{module}{SEPARATOR}{seat}"


def module_for_agent(agent: str, *args: Any, **kwargs: Any) -> str:
    """The policy mapping function: the module named in the agent id."""
    return agent.partition(SEPARATOR)[0]


@dataclass(frozen=True)
class LeagueWeights:
    """Weights of the opponents drawn for each non-learner seat, and the snapshots ready."""

    self_play: float = 0.3
    snapshots: float = 0.3
    bots: tuple[tuple[str, float], ...] = (("random", 0.1), ("greedy", 0.3), ("heuristic", 0.3))
    ready: int = 0  # snapshot slots filled so far

    def choices(self) -> tuple[list[str], np.ndarray]:
        """The kinds that can be drawn now (``self``, ``snapshots``, bot names) and their
        probabilities (snapshots only once one is ready; only ``self`` if all weights are 0)."""
        kinds: list[str] = []
        weights: list[float] = []
        for kind, weight in (("self", self.self_play), ("snapshots", self.snapshots), *self.bots):
            if weight > 0 and (kind != "snapshots" or self.ready > 0):
                kinds.append(kind)
                weights.append(weight)
        if not kinds:
            return ["self"], np.ones(1)
        total = np.asarray(weights, dtype=np.float64)
        return kinds, total / total.sum()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> LeagueWeights:
        """From ``{"self_play": w, "snapshots": w, "bots": {name: w}, "ready": k}``."""
        bots = data.get("bots", dict(cls.bots))
        for name in bots:
            if name not in BOTS:
                raise ValueError(f"league bot {name!r}: the core plays {', '.join(BOTS)}")
        return cls(
            float(data.get("self_play", cls.self_play)),
            float(data.get("snapshots", cls.snapshots)),
            tuple((str(k), float(v)) for k, v in bots.items()),
            int(data.get("ready", 0)),
        )

    def to_mapping(self) -> dict[str, Any]:
        """The inverse of :meth:`from_mapping`."""
        return {
            "self_play": self.self_play,
            "snapshots": self.snapshots,
            "bots": dict(self.bots),
            "ready": self.ready,
        }


def observation_space(num_players: int) -> gymnasium.spaces.Dict:
    """An agent's observation space: the observation vector and the legal-action mask."""
    high = observation_high(num_players)
    return gymnasium.spaces.Dict(
        {
            "observations": gymnasium.spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), dtype=np.float32),
        }
    )


class AirshipsMultiAgentEnv(MultiAgentEnv):
    """One Airships table for RLlib: every non-bot seat an agent (see the module docstring).

    ``config`` keys: ``num_players`` (2), ``reward`` (``win``), ``seed`` (0), ``league`` (a
    :class:`LeagueWeights` mapping), ``pool_size`` (snapshot slots, for the agent ids).
    """

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        self.num_players = int(config.get("num_players", 2))
        self.reward = str(config.get("reward", "win"))
        self.pool_size = int(config.get("pool_size", 0))
        league = config.get("league")
        self.league = (
            league
            if isinstance(league, LeagueWeights)
            else LeagueWeights.from_mapping(league or {})
        )
        # Each table of each env runner gets its own stream unless reset(seed=...) says.
        worker = int(getattr(config, "worker_index", 0))
        vector = int(getattr(config, "vector_index", 0))
        self._seed = int(config.get("seed", 0)) * 1_000_003 + worker * 1009 + vector
        modules = [MAIN, *(snapshot_id(k) for k in range(self.pool_size))]
        self.possible_agents = [agent_id(m, s) for m in modules for s in range(self.num_players)]
        self.agents = list(self.possible_agents)
        space = observation_space(self.num_players)
        action = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.observation_space = space
        self.action_space = action
        self._batch: NativeBatch | None = None
        self._episode = 0
        self._actions = np.full(1, -1, dtype=np.int32)
        self._seat_agents: list[str | None] = [None] * self.num_players
        self._acted: set[int] = set()
        self._acting: str | None = None

    def set_league(self, league: LeagueWeights | Mapping[str, Any]) -> None:
        """Change the league (new snapshots ready, new weights) from the next episode on."""
        self.league = (
            league if isinstance(league, LeagueWeights) else LeagueWeights.from_mapping(league)
        )

    def _new_batch(self, seed: int) -> NativeBatch:
        return NativeBatch(
            1,
            self.num_players,
            seed=seed,
            opponents=[0] * (self.num_players - 1),  # external policy 0 until drawn
            learner_seat="random",
            reward=self.reward,
            autoreset=False,
        )

    def _draw_opponents(self) -> list[str | int]:
        """This episode's opponents, from the seat after the learner's: a bot name or an
        external index (0 = main, 1 + k = snapshot slot k)."""
        rng = np.random.default_rng(np.random.SeedSequence([self._seed, 1, self._episode]))
        kinds, probabilities = self.league.choices()
        drawn: list[str | int] = []
        for _ in range(self.num_players - 1):
            kind = kinds[int(rng.choice(len(kinds), p=probabilities))]
            if kind == "self":
                drawn.append(0)
            elif kind == "snapshots":
                drawn.append(1 + int(rng.integers(min(self.league.ready, self.pool_size))))
            else:
                drawn.append(kind)
        return drawn

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start the next game; returns the first Python seat's observation."""
        if seed is not None or self._batch is None:
            self._seed = int(seed) if seed is not None else self._seed
            self._batch = self._new_batch(self._seed)
            self._episode = 0
        else:
            self._episode += 1
        batch = self._batch
        batch.queue_opponents([0], self._draw_opponents())
        batch.reset()
        controllers = batch.seat_controllers(0)
        self._seat_agents = [self._seat_agent(seat, code) for seat, code in enumerate(controllers)]
        self._acted = set()
        return self._observe(), {}

    def _seat_agent(self, seat: int, code: int) -> str | None:
        if code in (LEARNER, EXTERNAL):
            return agent_id(MAIN, seat)
        if code > EXTERNAL:
            return agent_id(snapshot_id(code - EXTERNAL - 1), seat)
        return None  # a native bot

    def _observe(self) -> dict[str, Any]:
        assert self._batch is not None
        seat = int(self._batch.acting[0])
        agent = self._seat_agents[seat]
        assert agent is not None, "the core stopped on a bot's seat"
        self._acting = agent
        self._acted.add(seat)
        return {
            agent: {
                "observations": self._batch.obs[0].copy(),
                "action_mask": self._batch.masks[0].astype(np.float32),
            }
        }

    def step(
        self, action_dict: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the acting agent's action and play the bots up to the next Python seat."""
        assert self._batch is not None and self._acting is not None
        batch = self._batch
        self._actions[0] = int(action_dict[self._acting])
        batch.step(self._actions)
        if batch.terminated[0] or batch.truncated[0]:
            truncated = bool(batch.truncated[0])
            done = {
                agent: True
                for seat, agent in enumerate(self._seat_agents)
                if agent is not None and seat in self._acted
            }
            rewards = {
                agent: float(batch.rewards[0, seat])
                for seat, agent in enumerate(self._seat_agents)
                if agent is not None and seat in self._acted
            }
            infos = {
                agent: {
                    "score": int(batch.scores[0, seat]),
                    "won": bool(batch.winners[0] >> seat & 1),
                }
                for seat, agent in enumerate(self._seat_agents)
                if agent is not None and seat in self._acted
            }
            self._acting = None
            terminateds = {**({} if truncated else done), "__all__": not truncated}
            truncateds = {**(done if truncated else {}), "__all__": truncated}
            return {}, rewards, terminateds, truncateds, infos
        observation = self._observe()
        # RLlib wants a reward with every observation of an agent that acted before.
        rewards = dict.fromkeys(observation, 0.0)
        return observation, rewards, {"__all__": False}, {"__all__": False}, {}
