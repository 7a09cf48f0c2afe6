"""The opponent league in the native core: many training games in one process.

:func:`native_league_vec_env` builds the ``vec_env: native`` training environment of a game: its
native VecEnv (a :class:`~airships_env.vector.BatchVecEnv`, named by the game object's
``native_vec_env()``: Airships' :class:`~airships_env.vector.AirshipsVecEnv`, Clockwork City's
:class:`~airships_env.games.clockwork.vector.ClockworkVecEnv`, Australia's
:class:`~airships_env.games.australia.vector.AustraliaVecEnv`, Nippon's
:class:`~airships_env.games.nippon.vector.NipponVecEnv`) whose opponents are drawn from the
league (:mod:`agents.training.league`) seat by seat and game by game; :class:`NativeLeagueVecEnv`
is Airships'. Needs stable-baselines3 and the native core.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.policy_agent import ActorNet, NetPolicy
from agents.registry import make_agent, parse_spec
from agents.training.league import BOT, LeagueMix, Member
from airships_env.policy import Policy
from airships_env.registry import get_game
from airships_env.vector import AirshipsVecEnv, BatchVecEnv


class LeagueDraws(BatchVecEnv):
    """``num_envs`` training games in the native core whose opponents are drawn from the league,
    seat by seat and game by game, as :class:`LeagueSeat` does for a Python environment (mixed
    into a game's native VecEnv: it comes first among the bases).

    Bots named random, greedy or heuristic are played inside the core's step; snapshots (and a
    ``ppo`` spec) are external policies evaluated in one batched forward for every game waiting
    on them. Draws come from one generator per game slot, seeded from ``seed`` and the slot, so
    they do not depend on timing. A finished game's info gets ``info["league"]`` as in
    :class:`LeagueEnv`. ``external_seconds`` counts the wall time spent in external policies.
    """

    game_name: str | None = None  # the registered game whose agents a ``ppo`` spec names

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        mix: LeagueMix,
        *,
        seed: int,
        reward: str = "win",
        max_turns: int | None = None,
        deterministic_snapshots: bool = False,
    ):
        super().__init__(
            num_envs,
            num_players,
            opponents="random",
            seed=seed,
            reward=reward,
            max_turns=max_turns,
        )
        self.mix = mix
        self.deterministic_snapshots = deterministic_snapshots
        self.external_seconds = 0.0
        self._start_draws(seed)

    def _start_draws(self, seed: int) -> None:
        """Fresh draw generators and no member built yet: what follows depends on ``seed``
        and the mix alone."""
        self._seed = seed
        self._members: dict[Member, Any] = {}
        self._nets: dict[str, ActorNet] = {}
        self._draws = [np.random.default_rng([seed, slot, 0x1EA6]) for slot in range(self.num_envs)]
        self._current: list[list[Member]] = [[] for _ in range(self.num_envs)]
        self._next: list[list[Member]] = [[] for _ in range(self.num_envs)]

    def _restart(self, seed: int) -> None:
        """New games and new draws from ``seed`` (after :meth:`seed`): the same as a VecEnv
        constructed with it and the current mix."""
        super()._restart(seed)
        self._start_draws(seed)

    def set_league(self, mix: LeagueMix) -> None:
        """Draw opponents from ``mix`` from the next draw on."""
        self.mix = mix

    def _occupant(self, member: Member) -> Any:
        """The native bot spec or the external policy that plays ``member``."""
        occupant = self._members.get(member)
        if occupant is not None:
            return occupant
        if member.kind == BOT:
            name, _ = parse_spec(member.ref)
            if name == "ppo":
                policy = make_agent(member.ref, game=self.game_name)
                policy.reset(0, self.num_players, np.random.default_rng([self._seed, 0x99]))
                occupant = policy
            else:
                occupant = member.ref
        else:
            net = self._nets.get(member.ref)
            if net is None:
                net = self._nets[member.ref] = ActorNet(member.ref, game=self.game_name)
            occupant = NetPolicy(net, self.deterministic_snapshots, member.label)
            occupant.rng = np.random.default_rng([self._seed, len(self._members), 0x5A])
        self._members[member] = occupant
        return occupant

    def _draw(self, games: Sequence[int]) -> None:
        """Draw and queue the opponents of the next episode of each game in ``games``."""
        for game in games:
            members = [self.mix.draw(self._draws[game]) for _ in range(self.num_players - 1)]
            self._next[game] = members
            self.queue_opponents([game], [self._occupant(m) for m in members])

    def reset(self) -> Any:
        """New games everywhere, with freshly drawn opponents (after :meth:`seed`, games and
        draws start afresh from that seed)."""
        self._apply_seed()
        everyone = range(self.num_envs)
        self._draw(everyone)
        self._current = list(self._next)
        observations = super().reset()
        self._draw(everyone)  # the opponents of each slot's second game
        return observations

    def step_wait(self) -> Any:
        """One learner step; a finished game's info gets the ``league`` entry."""
        observations, rewards, dones, infos = super().step_wait()
        ended = np.flatnonzero(dones)
        for game in ended:
            info = infos[game]
            winners = info.get("winners", [])
            won = (not info.get("TimeLimit.truncated")) and info.get("seat") in winners
            info["league"] = {
                "opponents": [m.label for m in self._current[game]],
                "win": 1.0 / len(winners) if won else 0.0,
            }
            self._current[game] = self._next[game]
        self._draw(ended.tolist())
        return observations, rewards, dones, infos

    def _act(self, policy: Policy, games: np.ndarray) -> np.ndarray:
        started = time.perf_counter()
        try:
            return super()._act(policy, games)
        finally:
            self.external_seconds += time.perf_counter() - started


class NativeLeagueVecEnv(LeagueDraws, AirshipsVecEnv):
    """Airships' league in the native core (:class:`LeagueDraws` over AirshipsVecEnv)."""


_LEAGUE_CLASSES: dict[str, type[LeagueDraws]] = {"airships": NativeLeagueVecEnv}


def league_vec_env_class(game: str) -> type[LeagueDraws]:
    """The league VecEnv class of ``game``: its native VecEnv (the game object's
    ``native_vec_env()``, ``module:Class``) with :class:`LeagueDraws` first; ValueError for a
    game without one."""
    known = _LEAGUE_CLASSES.get(game)
    if known is not None:
        return known
    spec = getattr(get_game(game), "native_vec_env", None)
    if spec is None:
        raise ValueError(f"{game} has no native vector environment (use vec_env: subproc)")
    module_name, _, class_name = spec().partition(":")
    base = getattr(importlib.import_module(module_name), class_name)
    made = type(f"{base.__name__}League", (LeagueDraws, base), {"game_name": game})
    _LEAGUE_CLASSES[game] = made
    return made


def native_league_vec_env(
    game: str,
    num_envs: int,
    num_players: int,
    mix: LeagueMix,
    *,
    seed: int,
    reward: str = "win",
    max_turns: int | None = None,
    deterministic_snapshots: bool = False,
) -> LeagueDraws:
    """``game``'s league VecEnv in the native core (see :func:`league_vec_env_class`)."""
    return league_vec_env_class(game)(
        num_envs,
        num_players,
        mix,
        seed=seed,
        reward=reward,
        max_turns=max_turns,
        deterministic_snapshots=deterministic_snapshots,
    )
