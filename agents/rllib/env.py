"""Any registered game as an RLlib ``MultiAgentEnv``: Airships stepped in its native core,
every other game through the game protocol (:class:`GameMultiAgentEnv`).

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

:class:`GameMultiAgentEnv` is the same table for any other registered game, over the protocol
alone (``game.new_state``, ``state.view``, ``game.observe``, ``outcome()``): the same league
and agent ids, the game's observation vector and ``game.num_actions`` mask, rewards of
:func:`~airships_env.game_aec.outcome_rewards`; a league bot is any agent spec of that game,
played in Python inside the step. Episode ``e`` after ``reset(seed=s)`` deals from
``SeedSequence([s, 0, e])`` (the game, the learner's seat and each bot's generator) and draws
its opponents from ``SeedSequence([s, 1, e])`` as Airships' table does. :func:`env_class` picks
the class of a game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from agents.games import DEFAULT_GAME
from airships_env.engine import NUM_ACTIONS
from airships_env.game_aec import observation_bounds, outcome_rewards
from airships_env.native.batch import BOTS, EXTERNAL, LEARNER, NativeBatch
from airships_env.policy import Decision, Policy
from airships_env.registry import get_game

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
    def from_mapping(cls, data: Mapping[str, Any], game: str = DEFAULT_GAME) -> LeagueWeights:
        """From ``{"self_play": w, "snapshots": w, "bots": {spec: w}, "ready": k}``; the bots
        are the ones Airships' core plays, or agent specs of another ``game``."""
        bots = data.get("bots", dict(cls.bots))
        if game == DEFAULT_GAME:
            for name in bots:
                if name not in BOTS:
                    raise ValueError(f"league bot {name!r}: the core plays {', '.join(BOTS)}")
        else:
            check_league_bots(game, bots)
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


def check_league_bots(game: str, bots: Collection[str]) -> None:
    """ValueError unless every league bot is an agent spec of ``game`` (naming its agents)."""
    from agents.registry import agents_for, parse_spec

    known = agents_for(game)
    for spec in bots:
        name, _ = parse_spec(spec, game)
        if name not in known and "." not in name:
            raise ValueError(f"league bot {spec!r}: {game}'s agents are {', '.join(known)}")


def observation_space(num_players: int, game: str = DEFAULT_GAME) -> gymnasium.spaces.Dict:
    """An agent's observation space: the game's observation vector (within its bounds) and
    the legal-action mask."""
    rules = get_game(game)
    low, high = observation_bounds(rules, num_players)
    actions = rules.num_actions
    return gymnasium.spaces.Dict(
        {
            "observations": gymnasium.spaces.Box(low, high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (actions,), dtype=np.float32),
        }
    )


def draw_opponents(
    league: LeagueWeights, seed: int, episode: int, opponents: int, pool_size: int
) -> list[str | int]:
    """An episode's opponents, from the seat after the learner's: a bot or an external index
    (0 = main, 1 + k = snapshot slot k), drawn from ``SeedSequence([seed, 1, episode])``."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 1, episode]))
    kinds, probabilities = league.choices()
    drawn: list[str | int] = []
    for _ in range(opponents):
        kind = kinds[int(rng.choice(len(kinds), p=probabilities))]
        if kind == "self":
            drawn.append(0)
        elif kind == "snapshots":
            drawn.append(1 + int(rng.integers(min(league.ready, pool_size))))
        else:
            drawn.append(kind)
    return drawn


def _table_seed(config: Mapping[str, Any]) -> int:
    """The deal stream of a table: each table of each env runner its own unless
    ``reset(seed=...)`` says."""
    worker = int(getattr(config, "worker_index", 0))
    vector = int(getattr(config, "vector_index", 0))
    return int(config.get("seed", 0)) * 1_000_003 + worker * 1009 + vector


def _league(league: Any, game: str) -> LeagueWeights:
    """A :class:`LeagueWeights` as is, or read from its mapping."""
    if isinstance(league, LeagueWeights):
        return league
    return LeagueWeights.from_mapping(league or {}, game)


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
        self.league = _league(config.get("league"), DEFAULT_GAME)
        self._seed = _table_seed(config)
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
        self.league = _league(league, DEFAULT_GAME)

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
        drawn = draw_opponents(
            self.league, self._seed, self._episode, self.num_players - 1, self.pool_size
        )
        batch.queue_opponents([0], drawn)
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


class GameMultiAgentEnv(MultiAgentEnv):
    """One table of any registered game for RLlib, over the game protocol (see the module
    docstring): the learner's seat drawn per episode, every other seat ``main`` again, a
    snapshot or a bot of the game played here in Python.

    ``config`` keys: ``game`` (a registered name), ``num_players`` (the game's smallest
    count), ``reward`` (``win``), ``seed`` (0), ``league`` (a :class:`LeagueWeights` mapping of
    that game's agent specs), ``pool_size`` (snapshot slots, for the agent ids).
    """

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        config = config if config is not None else {}
        self.game = get_game(str(config.get("game", DEFAULT_GAME)))
        self.num_players = int(config.get("num_players", min(self.game.player_counts)))
        if self.num_players not in self.game.player_counts:
            raise ValueError(
                f"{self.game.name} is played by {self.game.player_counts} players, "
                f"got num_players {self.num_players}"
            )
        self.reward = str(config.get("reward", "win"))
        self.score_scale = float(getattr(self.game, "score_scale", 1.0))
        self.pool_size = int(config.get("pool_size", 0))
        self.league = _league(config.get("league"), self.game.name)
        self._seed = _table_seed(config)
        modules = [MAIN, *(snapshot_id(k) for k in range(self.pool_size))]
        self.possible_agents = [agent_id(m, s) for m in modules for s in range(self.num_players)]
        self.agents = list(self.possible_agents)
        space = observation_space(self.num_players, self.game.name)
        action = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.observation_space = space
        self.action_space = action
        self.state: Any = None
        self._episode = -1
        self._bots: dict[tuple[int, str], Policy] = {}  # (seat, spec) -> agent, built once
        self._seat_agents: list[str | None] = [None] * self.num_players
        self._seat_bots: dict[int, Policy] = {}
        self._acted: set[int] = set()
        self._acting: str | None = None

    def set_league(self, league: LeagueWeights | Mapping[str, Any]) -> None:
        """Change the league (new snapshots ready, new weights) from the next episode on."""
        self.league = _league(league, self.game.name)

    def _bot(self, seat: int, spec: str) -> Policy:
        """The agent of ``spec`` for ``seat`` (made on first use, reused after)."""
        from agents.registry import make_agent

        bot = self._bots.get((seat, spec))
        if bot is None:
            bot = make_agent(spec, num_players=self.num_players, game=self.game)
            self._bots[(seat, spec)] = bot
        return bot

    def _deal(self) -> None:
        """Seat this episode's table and deal its game."""
        chance = np.random.SeedSequence([self._seed, 0, self._episode])
        game_seed, seat_seed, *bot_seeds = chance.spawn(2 + self.num_players)
        learner = int(np.random.default_rng(seat_seed).integers(self.num_players))
        drawn = draw_opponents(
            self.league, self._seed, self._episode, self.num_players - 1, self.pool_size
        )
        self._seat_agents = [None] * self.num_players
        self._seat_agents[learner] = agent_id(MAIN, learner)
        self._seat_bots = {}
        for k, who in enumerate(drawn):
            seat = (learner + 1 + k) % self.num_players
            if isinstance(who, str):
                bot = self._bot(seat, who)
                bot.reset(seat, self.num_players, np.random.default_rng(bot_seeds[seat]))
                self._seat_bots[seat] = bot
            else:
                module = MAIN if who == 0 else snapshot_id(who - 1)
                self._seat_agents[seat] = agent_id(module, seat)
        self.state = self.game.new_state(self.num_players, rng=np.random.default_rng(game_seed))
        self._acted = set()

    def _play_bots(self) -> None:
        """Bots act until a Python seat is to act or the game is over."""
        state = self.state
        while not state.is_terminal():
            bot = self._seat_bots.get(state.current_player)
            if bot is None:
                return
            state.apply_action(bot.act(Decision.for_game(self.game, state)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start the next game; returns the first Python seat's observation (a game the bots
        finish before any Python seat acts is skipped: the next episode is dealt)."""
        if seed is not None:
            self._seed = int(seed)
            self._episode = -1
        while True:
            self._episode += 1
            self._deal()
            self._play_bots()
            if not self.state.is_terminal():
                return self._observe(), {}

    def _observe(self) -> dict[str, Any]:
        state = self.state
        seat = int(state.current_player)
        agent = self._seat_agents[seat]
        assert agent is not None, "a bot's seat is to act"
        self._acting = agent
        self._acted.add(seat)
        mask = np.zeros(self.game.num_actions, dtype=np.float32)
        mask[state.legal_actions()] = 1.0
        return {
            agent: {
                "observations": self.game.observe(state.view(seat), seat),
                "action_mask": mask,
            }
        }

    def step(
        self, action_dict: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the acting agent's action and play the bots up to the next Python seat."""
        assert self.state is not None and self._acting is not None
        state = self.state
        state.apply_action(int(action_dict[self._acting]))
        self._play_bots()
        if not state.is_terminal():
            observation = self._observe()
            # RLlib wants a reward with every observation of an agent that acted before.
            return (
                observation,
                dict.fromkeys(observation, 0.0),
                {"__all__": False},
                {"__all__": False},
                {},
            )
        outcome = state.outcome()
        assert outcome is not None  # a terminal state has one
        rewards = outcome_rewards(outcome, self.reward, self.score_scale)
        seated = [
            (seat, agent)
            for seat, agent in enumerate(self._seat_agents)
            if agent is not None and seat in self._acted
        ]
        self._acting = None
        return (
            {},
            {agent: float(rewards[seat]) for seat, agent in seated},
            {**{agent: True for _, agent in seated}, "__all__": True},
            {"__all__": False},
            {
                agent: {"score": outcome.scores[seat], "won": seat in outcome.winners}
                for seat, agent in seated
            },
        )


def env_class(game: str) -> type[MultiAgentEnv]:
    """The RLlib env of a game: Airships' native table, else the protocol's."""
    return AirshipsMultiAgentEnv if game == DEFAULT_GAME else GameMultiAgentEnv
