"""Many games as one Stable-Baselines3 ``VecEnv``, stepped in the native core.

:class:`AirshipsVecEnv` holds ``num_envs`` games in a :class:`~airships_env.native.batch.
NativeBatch`: one call steps them all. In each game one seat is the learner (a random seat each
episode, or a fixed one); the other seats are *opponents*:

- a native bot, named by a spec: ``"random"``, ``"greedy"`` (options ``greedy:dice_weight=4``...)
  or ``"heuristic"`` (``heuristic:config=FILE`` or weight options): played inside the core's step,
  the same choices as the Python bots;
- any other :class:`~airships_env.policy.Policy` object (a league snapshot, the bundled ``ppo``):
  an *external* policy, evaluated between the core's steps for all games that wait on it at once:
  with ``act_batch(observations, masks)`` if the policy has it (one batched forward), else one
  :meth:`~airships_env.policy.Policy.act` per game. External policies must not keep state from
  one decision to the next.

It is usable by sb3-contrib's MaskablePPO directly (``action_masks()``, and ``env_method(
"action_masks")`` as its helper asks), without SubprocVecEnv. Rewards are the learner's, from the
same reward modes as the AEC environment (:func:`airships_env.aec.game_rewards`), at the end of
each game; an ended game's ``info`` holds ``terminal_observation``, ``TimeLimit.truncated``,
``scores``, ``winners`` and ``seat`` (the learner's), and the game restarts at once (auto-reset).
Seeds: see :mod:`airships_env.native.batch` (slot ``i``'s games do not depend on ``num_envs``);
``seed(s)`` then ``reset()`` starts the games afresh, as a VecEnv made with ``seed=s`` would
(opponents queued or external policies added since construction are forgotten).
Opponents for the next episode of chosen games can be queued with :meth:`queue_opponents` (a
league draws them game by game).

Needs the ``train`` extra (stable-baselines3) and the native core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

try:
    from stable_baselines3.common.vec_env.base_vec_env import (
        VecEnv,
        VecEnvIndices,
        VecEnvObs,
        VecEnvStepReturn,
    )
except ImportError as error:  # pragma: no cover - the train extra is not installed
    raise ImportError(
        "airships_env.vector needs stable-baselines3: pip install -e '.[train]' "
        "(with torch==2.13.0 first, see the README)"
    ) from error

from airships_env.bot_config import GreedyConfig, HeuristicConfig
from airships_env.engine import ACTION_NAMES, NUM_ACTIONS, ActionSpaceError, RulesOptions
from airships_env.native.batch import BOTS, EXTERNAL, LEARNER, NativeBatch, Opponent
from airships_env.native.table import BOTS as GAME_BOTS
from airships_env.observation import observation_high
from airships_env.policy import Decision, Policy
from airships_env.protocol import not_an_action_reason

OpponentSpec = str | Policy


def parse_bot_spec(spec: str, bots: Mapping[str, int] = BOTS) -> tuple[str, dict[str, Any]]:
    """A native bot spec ``name[:key=value,...]`` as its name and options (``bots``: the
    game's native bots)."""
    name, _, rest = spec.strip().partition(":")
    if name not in bots:
        raise ValueError(
            f"opponent {spec!r}: the core plays {', '.join(bots)}; pass any other agent "
            f"as a Policy object"
        )
    options: dict[str, Any] = {}
    for piece in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = piece.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"opponent {spec!r}: option {piece!r} is not key=value")
        text = value.strip()
        try:
            options[key.strip()] = float(text) if key.strip() != "config" else text
        except ValueError:
            options[key.strip()] = text
    return name, options


class BatchVecEnv(VecEnv):
    """What every game's native VecEnv shares: a batch of the game's core (``self.batch``, with
    the arrays and methods of :class:`~airships_env.native.batch.NativeBatch`), native bots and
    external policies as opponents, the learner's steps, the infos, auto-reset and seeding.

    A game's subclass sets ``num_actions``, ``action_names`` and ``bot_codes`` (bot name ->
    controller code) and gives :meth:`_observation_high`, :meth:`_new_batch` (a batch for a seed,
    with ``self._settings`` and the game's data and bot settings), :meth:`_bot` (check a bot spec)
    and :meth:`_decision` (what an external policy without ``act_batch`` is given for a game);
    its ``__init__`` stores its own settings, then calls this one.
    """

    render_mode = None  # the games are not drawn here (a game's presenter draws a state)
    num_actions: int
    action_names: Sequence[str]
    bot_codes: Mapping[str, int]

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        *,
        seed: int = 0,
        reward: str = "win",
        max_turns: int | None = None,
        seat: int | str = "random",
    ):
        self._externals: list[Policy] = []
        self._spec_codes: dict[str, Opponent] = {}  # bot specs already checked and configured
        codes = self._opponent_list(opponents, num_players)
        # what a restart (seed(s), then reset()) builds its new batch from
        self._settings: dict[str, Any] = {
            "opponents": codes,
            "learner_seat": seat,
            "reward": reward,
            "max_turns": max_turns,
        }
        self.batch: Any = self._new_batch(num_envs, num_players, seed)
        self._constructed_externals = len(self._externals)
        self._pending_seed: int | None = None
        self.num_players = num_players
        observation_space = spaces.Box(
            low=self._observation_low(num_players),
            high=self._observation_high(num_players),
            shape=(self.batch.obs_size,),
            dtype=np.float32,
        )
        super().__init__(num_envs, observation_space, spaces.Discrete(self.num_actions))
        # int64, as policies give them: the batch checks the range before its int32 cast
        self._actions = np.full(num_envs, -1, dtype=np.int64)
        self._external_actions = np.full(num_envs, -1, dtype=np.int64)

    # -- what a game gives ----------------------------------------------------------------------
    def _observation_high(self, num_players: int) -> float | np.ndarray:
        """The upper bound of the observation space."""
        raise NotImplementedError

    def _observation_low(self, num_players: int) -> float | np.ndarray:
        """The lower bound of the observation space: 0 unless the game says otherwise."""
        return 0.0

    def _new_batch(self, num_envs: int, num_players: int, seed: int) -> Any:
        """A new batch of the game with ``self._settings`` (opponents, learner seat, reward,
        max_turns) from ``seed``."""
        raise NotImplementedError

    def _bot(self, opponent: str) -> Opponent:
        """Check a native bot spec (and take its settings); its name for the batch."""
        raise NotImplementedError

    def _decision(self, game: int) -> Decision:
        """The decision facing the seat to act in game ``game`` (an external policy's input)."""
        raise NotImplementedError

    # -- opponents ----------------------------------------------------------------------------
    def _opponent_list(
        self, opponents: OpponentSpec | Sequence[OpponentSpec], num_players: int
    ) -> list[Opponent]:
        listed = [opponents] if isinstance(opponents, (str, Policy)) else list(opponents)
        if len(listed) not in (1, num_players - 1):
            raise ValueError(
                f"expected {num_players - 1} opponents (one per other seat) or one for all, "
                f"got {len(listed)}"
            )
        return [self._opponent(o) for o in listed]

    def _opponent(self, opponent: OpponentSpec) -> Opponent:
        if isinstance(opponent, str):
            known = self._spec_codes.get(opponent)
            if known is not None:
                return known
            self._spec_codes[opponent] = code = self._bot(opponent)
            return code
        for index, known_policy in enumerate(self._externals):
            if known_policy is opponent:
                return index
        if not isinstance(opponent, Policy):
            raise TypeError(f"an opponent is a bot spec or a Policy, got {opponent!r}")
        self._externals.append(opponent)
        return len(self._externals) - 1

    def queue_opponents(
        self, games: Sequence[int] | np.ndarray, opponents: OpponentSpec | Sequence[OpponentSpec]
    ) -> None:
        """The opponents of the next episode of each game in ``games`` (native bots must be of
        the configurations this VecEnv was made with)."""
        self.batch.queue_opponents(games, self._opponent_list(opponents, self.num_players))

    @property
    def external_policies(self) -> tuple[Policy, ...]:
        """The external policies, by index."""
        return tuple(self._externals)

    # -- the VecEnv API -------------------------------------------------------------------------
    def _restart(self, seed: int) -> None:
        """New games from ``seed``: a new batch with the constructor's settings and opponents
        (the same data, rules and bot configurations as the current one)."""
        self.batch = self._new_batch(self.num_envs, self.num_players, seed)
        del self._externals[self._constructed_externals :]

    def _apply_seed(self) -> None:
        """Restart from the seed given to :meth:`seed`, if one is waiting."""
        if self._pending_seed is not None:
            seed, self._pending_seed = self._pending_seed, None
            self._restart(seed)

    def reset(self) -> VecEnvObs:
        """Start a new game in every slot (its next episode of the documented seed stream; after
        :meth:`seed`, the first episodes of the new seed)."""
        self._apply_seed()
        self.batch.reset()
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._play_externals(rewards, dones, infos)
        return self.batch.obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Store the learner's actions (one action index per game)."""
        self._actions[:] = self._checked(actions, np.arange(self.num_envs))

    def _checked(self, actions: Any, games: np.ndarray) -> np.ndarray:
        """The actions for ``games`` as integers; raises ActionSpaceError naming the first game
        whose value is no action (a float, NaN, out of the table), never casting it to one."""
        values = np.asarray(actions)
        if values.size != games.size:
            raise ValueError(f"expected {games.size} actions, got shape {values.shape}")
        values = values.reshape(games.size)
        integers = np.issubdtype(values.dtype, np.integer) and not np.issubdtype(
            values.dtype, np.bool_
        )
        bad = (
            np.arange(games.size)
            if not integers
            else np.flatnonzero((values < 0) | (values >= self.num_actions))
        )
        if bad.size:
            k = int(bad[0])
            game = int(games[k])
            legal = np.flatnonzero(self.batch.masks[game]).tolist()
            raise ActionSpaceError(
                values[k].item(),
                f"game {game}",
                legal,
                [self.action_names[a] for a in legal],
                not_an_action_reason(values[k], self.num_actions) or "not an action index",
            )
        return values

    def step_wait(self) -> VecEnvStepReturn:
        """One learner step in every game; opponents play until each learner acts again."""
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        learners = self.batch.learner.copy()
        self.batch.step(self._actions)
        self._collect(learners, rewards, dones, infos)
        self._play_externals(rewards, dones, infos)
        return self.batch.obs.copy(), rewards, dones, infos

    def _collect(
        self,
        learners: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """Rewards and infos of the games that ended in the last core step."""
        batch = self.batch
        ended = np.flatnonzero(batch.terminated | batch.truncated)
        for i in ended:
            seat = int(learners[i])
            rewards[i] += batch.rewards[i, seat]
            dones[i] = True
            infos[i] = {
                "terminal_observation": batch.final_obs[i].copy(),
                "TimeLimit.truncated": bool(batch.truncated[i]),
                "scores": batch.scores[i].tolist(),
                "winners": [s for s in range(self.num_players) if batch.winners[i] >> s & 1],
                "seat": seat,
            }

    def _play_externals(
        self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict[str, Any]]
    ) -> None:
        """Evaluate the external policies for every game that waits on one, in batches."""
        batch = self.batch
        while True:
            waiting = batch.controller >= EXTERNAL
            if not waiting.any():
                return
            actions = self._external_actions
            actions[:] = -1
            for index in np.unique(batch.controller[waiting]):
                games = np.flatnonzero(batch.controller == index)
                policy = self._externals[int(index) - EXTERNAL]
                actions[games] = self._act(policy, games)
            learners = batch.learner.copy()
            batch.step(actions)
            self._collect(learners, rewards, dones, infos)

    def _act(self, policy: Policy, games: np.ndarray) -> np.ndarray:
        act_batch = getattr(policy, "act_batch", None)
        if act_batch is not None:
            return self._checked(act_batch(self.batch.obs[games], self.batch.masks[games]), games)
        chosen = np.empty(len(games), dtype=np.int32)
        for k, i in enumerate(games):
            decision = self._decision(int(i))
            chosen[k] = self._checked(policy.act(decision), games[k : k + 1])[0]
        return chosen

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, bool (num_envs, num_actions)."""
        return self.batch.masks.copy()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of this VecEnv, once per selected game."""
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of this VecEnv."""
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks`` per game (what sb3-contrib asks for); other methods of this VecEnv."""
        selected = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.batch.masks
            return [masks[i].copy() for i in selected]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(selected)

    def has_attr(self, attr_name: str) -> bool:
        """Whether the VecEnv has the attribute (``action_masks`` included)."""
        return hasattr(self, attr_name)

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """The games are not Gymnasium environments: never wrapped."""
        return [False] * len(list(self._get_indices(indices)))

    def seed(self, seed: int | None = None) -> list[int | None]:
        """The next :meth:`reset` starts new games from ``seed`` (a whole number >= 0), as a
        VecEnv constructed with it would; None changes nothing."""
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        self._pending_seed = int(seed)
        return [int(seed)] * self.num_envs

    def __repr__(self) -> str:
        opponents = [code for code in self.batch.next_opponents[0]]
        names = {code: name for name, code in self.bot_codes.items()}
        shown = [names.get(int(c), f"external {int(c) - EXTERNAL}") for c in opponents]
        return (
            f"{type(self).__name__}(num_envs={self.num_envs}, num_players={self.num_players}, "
            f"opponents={shown}, learner={LEARNER})"
        )


class GameBatchVecEnv(BatchVecEnv):
    """The VecEnv of a game whose core fills the shared batch (``src/gbatch.c``: Clockwork City,
    Australia, Nippon): its ``batch_type`` (a :class:`~airships_env.native.table.NativeBatch`)
    made with the rules options and data given here, the game object's observation bounds, the
    native bots ``random`` / ``greedy`` / ``heuristic`` (no options unless a subclass takes them)
    and, for an external policy without ``act_batch``, the acting seat's view as the Python
    environments give it. A game's subclass names its ``game`` object, ``batch_type``,
    ``num_actions`` and ``action_names``."""

    game: ClassVar[Any]
    batch_type: ClassVar[Any]
    bot_codes = GAME_BOTS

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        *,
        seed: int = 0,
        reward: str = "win",
        max_turns: int | None = None,
        seat: int | str = "random",
        options: Any = None,
        data: Any = None,
    ):
        self._rules = options
        self._game_data = data
        super().__init__(
            num_envs,
            num_players,
            opponents,
            seed=seed,
            reward=reward,
            max_turns=max_turns,
            seat=seat,
        )

    def _observation_low(self, num_players: int) -> float:
        """The game's lower bound (GameAEC's observation space)."""
        return float(self.game.observation_bounds(num_players)[0])

    def _observation_high(self, num_players: int) -> float:
        """The game's upper bound (GameAEC's observation space)."""
        return float(self.game.observation_bounds(num_players)[1])

    def _batch_options(self) -> dict[str, Any]:
        """What the game's batch takes beyond the shared settings (none here)."""
        return {}

    def _new_batch(self, num_envs: int, num_players: int, seed: int) -> Any:
        """A batch with the rules and data this VecEnv was made with."""
        return self.batch_type(
            num_envs,
            num_players,
            seed=seed,
            options=self._rules,
            data=self._game_data,
            **self._batch_options(),
            **self._settings,
        )

    def _bot(self, opponent: str) -> Opponent:
        """Check a native bot spec: the bots take no options (a subclass may take some)."""
        name, options = parse_bot_spec(opponent, self.bot_codes)
        if options:
            raise ValueError(f"opponent {opponent!r}: the {name} bot takes no options")
        return name

    def _decision(self, game: int) -> Decision:
        """The decision facing the seat to act in game ``game``: its view, as the Python
        environments give it."""
        return Decision.for_game(self.game, self.batch.game_state(game))


class AirshipsVecEnv(BatchVecEnv):
    """``num_envs`` Airships games in the native core as one VecEnv (see the module docstring)."""

    num_actions = NUM_ACTIONS
    action_names = ACTION_NAMES
    bot_codes = BOTS

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        *,
        seed: int = 0,
        reward: str = "win",
        max_turns: int | None = None,
        seat: int | str = "random",
        card_file: str | None = None,
        rules_options: RulesOptions | None = None,
    ):
        self._greedy: GreedyConfig | None = None
        self._heuristic: HeuristicConfig | None = None
        self._card_file = card_file
        self._rules_options = rules_options
        super().__init__(
            num_envs,
            num_players,
            opponents,
            seed=seed,
            reward=reward,
            max_turns=max_turns,
            seat=seat,
        )

    def _observation_high(self, num_players: int) -> float | np.ndarray:
        """Airships' bounds (:func:`airships_env.observation.observation_high`)."""
        return observation_high(num_players)

    def _new_batch(self, num_envs: int, num_players: int, seed: int) -> NativeBatch:
        """A batch with the first batch's cards, rules and bot configurations."""
        old: NativeBatch | None = getattr(self, "batch", None)
        return NativeBatch(
            num_envs,
            num_players,
            seed=seed,
            cards=old.cards if old is not None else self._card_file,
            options=old.options if old is not None else self._rules_options,
            greedy=old.greedy if old is not None else self._greedy,
            heuristic=old.heuristic if old is not None else self._heuristic,
            **self._settings,
        )

    def _bot(self, opponent: str) -> Opponent:
        """Check a native bot spec and take its weights (once per distinct spec)."""
        name, options = parse_bot_spec(opponent, BOTS)
        if name == "greedy":
            config = GreedyConfig(**options)
            if self._greedy is not None and config != self._greedy:
                raise ValueError("one VecEnv plays one greedy configuration")
            self._greedy = config
        elif name == "heuristic":
            path = options.pop("config", None)
            heuristic = HeuristicConfig.load(path, **options)
            if self._heuristic is not None and heuristic != self._heuristic:
                raise ValueError("one VecEnv plays one heuristic configuration")
            self._heuristic = heuristic
        elif options:
            raise ValueError(f"opponent {opponent!r}: the random bot takes no options")
        return name

    def _decision(self, game: int) -> Decision:
        """The seat to act's decision in game ``game`` (from its exported state)."""
        return Decision.from_state(self.batch.game_state(game))
