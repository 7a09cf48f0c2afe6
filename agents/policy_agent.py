"""Trained policies as agents: a MaskablePPO ``.zip`` played in numpy.

The actor of a saved sb3-contrib ``MaskablePPO`` MLP policy is read once from the zip into numpy
arrays (:class:`ActorNet`); :class:`NetPolicy` plays it with the legal-action mask: the masked
argmax, or a masked sample drawn from the agent's own generator. The same code plays the
bundled models (``ppo:path=...``) and the frozen snapshots of the training league.

A model zip records its game (``game.json``, :func:`agents.games.model_game`; none: Airships)
and, when saved by training since it was kept, its player count
(:func:`agents.games.recorded_players`). An actor is loaded for one game and refuses a zip of
another, or one whose action count or observation size is not that game's, and a table of
another size than the recorded one (or, without a record, than its observation size fits).
Airships' ``ppo`` is :class:`PPOAgent`; every other game's is :class:`GamePPOAgent` (the generic
agents' ``ppo``), which plays any game from a zip trained for it (``airships train --game
NAME``). Without a path, both play the game's bundled policy for the table's player count
(:func:`bundled_model`), where one ships. Compared with
``model.predict`` it is about ten times faster for one observation and has no process-wide side
effect (no torch thread count, no global torch seed). Loading needs the ``train`` extra (the zip
holds torch tensors); playing needs only numpy.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents.hint import Hinter, check_hint
from airships_env.policy import Decision
from airships_env.protocol import Game

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
    "ELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0.0))),
    "LeakyReLU": lambda x: np.where(x > 0, x, 0.01 * x),
}


class TableMismatchError(ValueError):
    """A trained policy asked to play at a table of another size than it was trained for."""


def _game(game: Game | str | None) -> Game:
    """The game an actor plays (None: Airships)."""
    from agents.games import DEFAULT_GAME, resolve_game

    return resolve_game(DEFAULT_GAME if game is None else game)


class ActorNet:
    """The actor of a MaskablePPO MLP policy as numpy arrays: observation -> action logits.

    ``game`` (a Game or a registered name; None: Airships) is the game it must have been
    trained for: the zip's recorded game, action count and observation size are checked."""

    def __init__(self, path: str | os.PathLike[str], game: Game | str | None = None):
        self.game = _game(game)
        model_path = Path(path)
        if not model_path.exists() and model_path.suffix != ".zip":
            model_path = model_path.with_suffix(".zip")  # SB3 appends .zip when saving
        if not model_path.exists():
            raise FileNotFoundError(f"PPO model {str(path)!r} not found")
        from agents.games import model_game, recorded_players

        try:
            trained = model_game(model_path)
            self.trained_players = recorded_players(model_path)
        except zipfile.BadZipFile as exc:
            raise ValueError(f"{model_path}: not a stable-baselines3 model zip ({exc})") from exc
        if trained != self.game.name:  # its observations and actions are another game's
            raise ValueError(
                f"{model_path}: a policy for {trained} (its game.json says), not for "
                f"{self.game.name}"
            )
        try:
            from stable_baselines3.common.save_util import load_from_zip_file
        except ModuleNotFoundError as exc:  # the model zip holds torch tensors: SB3 reads it
            from agents.registry import missing_package

            raise missing_package("ppo", exc.name or "stable_baselines3") from exc

        data, params, _ = load_from_zip_file(str(model_path), device="cpu")
        if data is None or "policy" not in params:
            raise ValueError(f"{model_path}: not a stable-baselines3 model zip")
        kwargs = data.get("policy_kwargs", {})
        #: The bot whose choice ends the observation (:mod:`agents.hint`), or None.
        self.hint: str | None = kwargs.get("hint")
        activation = kwargs.get("activation_fn")
        name = getattr(activation, "__name__", "Tanh")
        if name not in _ACTIVATIONS:
            raise ValueError(
                f"{model_path}: activation {name} is not supported "
                f"(supported: {', '.join(_ACTIVATIONS)})"
            )
        self.activation = _ACTIVATIONS[name]
        policy_state: dict[str, Any] = params["policy"]  # type: ignore[assignment]
        state = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in policy_state.items()}
        if "action_net.weight" not in state:
            raise ValueError(f"{model_path}: not an MLP actor-critic policy (no action_net)")
        layers = sorted(
            int(key.split(".")[2])
            for key in state
            if key.startswith("mlp_extractor.policy_net.") and key.endswith(".weight")
        )
        self.hidden = [
            (
                state[f"mlp_extractor.policy_net.{i}.weight"],
                state[f"mlp_extractor.policy_net.{i}.bias"],
            )
            for i in layers
        ]
        self.head = (state["action_net.weight"], state["action_net.bias"])
        self.observation_size = self.hidden[0][0].shape[1] if self.hidden else self.head[0].shape[1]
        actions = self.head[0].shape[0]
        if actions != self.game.num_actions:
            raise ValueError(
                f"PPO model {model_path}: its action space has {actions} actions, "
                f"{self.game.name} has {self.game.num_actions}"
            )
        self.beta = 0.0
        if self.hint is not None:
            try:
                check_hint(self.hint, self.game.name)
            except ValueError as exc:
                raise ValueError(f"PPO model {model_path}: {exc}") from None
            if "beta" not in state:
                raise ValueError(f"PPO model {model_path}: a hinted policy without its beta")
            self.beta = float(state["beta"])
        self.path = str(model_path)

    @property
    def num_players(self) -> int | None:
        """The table size this actor was trained for (recorded in its zip, else told by its
        observation size), or None when the size fits no table of this version (an older
        observation layout)."""
        if self.trained_players is not None:
            return self.trained_players
        for players in self.game.player_counts:
            if self.game.observation_size(players) + self.hint_size == self.observation_size:
                return players
        return None

    @property
    def hint_size(self) -> int:
        """The entries the hint adds to the game's observation (0 without a hint)."""
        return self.game.num_actions if self.hint is not None else 0

    def check_table(self, num_players: int) -> None:
        """Raise :class:`TableMismatchError` unless this actor plays ``num_players`` seats."""
        wanted = self.game.observation_size(num_players) + self.hint_size
        if self.observation_size == wanted and self.trained_players in (None, num_players):
            return
        trained = self.num_players
        if trained is not None:
            raise TableMismatchError(
                f"PPO model {self.path} was trained for {trained} players, but this table has "
                f"{num_players} players: give a {num_players}-player model "
                f"(ppo:path=FILE.zip) or play with --players {trained}"
            )
        raise TableMismatchError(
            f"PPO model {self.path} takes observations of size {self.observation_size}, which "
            f"fits no table of this version (a {num_players}-player table gives {wanted}): "
            f"it was trained with an older observation layout; retrain it"
        )

    @classmethod
    def from_layers(
        cls,
        hidden: list[tuple[np.ndarray, np.ndarray]],
        head: tuple[np.ndarray, np.ndarray],
        activation: str,
        path: str,
        game: Game | str | None = None,
    ) -> ActorNet:
        """An actor of ``game`` (None: Airships) from its weights (``(out, in)`` matrices and
        biases), e.g. an exported RLlib policy (:mod:`agents.rllib.export`)."""
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"{path}: activation {activation} is not supported "
                f"(supported: {', '.join(_ACTIVATIONS)})"
            )
        net = cls.__new__(cls)
        net.game = _game(game)
        net.trained_players = None
        net.hint, net.beta = None, 0.0
        net.activation = _ACTIVATIONS[activation]
        net.hidden = [(w.astype(np.float32), b.astype(np.float32)) for w, b in hidden]
        net.head = (head[0].astype(np.float32), head[1].astype(np.float32))
        net.observation_size = net.hidden[0][0].shape[1] if net.hidden else net.head[0].shape[1]
        if net.head[0].shape[0] != net.game.num_actions:
            raise ValueError(
                f"policy {path}: its action space has {net.head[0].shape[0]} actions, "
                f"the game has {net.game.num_actions}"
            )
        net.path = path
        return net

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked action logits for one observation vector."""
        if observation.shape != (self.observation_size,):
            raise ValueError(
                f"PPO model {self.path} expects observations of size {self.observation_size}, "
                f"got shape {observation.shape}: it was trained for another player count "
                f"(or an older observation layout)"
            )
        hidden = observation.astype(np.float32, copy=False)
        for weight, bias in self.hidden:
            hidden = self.activation(weight @ hidden + bias)
        weight, bias = self.head
        logits = weight @ hidden + bias
        if self.hint is not None:  # the hint's one-hot ends the observation
            logits = logits + self.beta * observation[-self.hint_size :]
        return logits

    def batch_logits(self, observations: np.ndarray) -> np.ndarray:
        """Unmasked action logits for a batch of observation vectors (one row each)."""
        if observations.ndim != 2 or observations.shape[1] != self.observation_size:
            raise ValueError(
                f"PPO model {self.path} expects observations of size {self.observation_size}, "
                f"got shape {observations.shape}: it was trained for another player count "
                f"(or an older observation layout)"
            )
        hidden = observations.astype(np.float32, copy=False)
        for weight, bias in self.hidden:
            hidden = self.activation(hidden @ weight.T + bias)
        weight, bias = self.head
        logits = hidden @ weight.T + bias
        if self.hint is not None:
            logits = logits + self.beta * observations[:, -self.hint_size :]
        return logits


class NetPolicy:
    """Plays an :class:`ActorNet`: masked argmax, or a masked sample from its own generator.
    A hinted actor (:mod:`agents.hint`) gets its hint from the game's bot, which draws from a
    generator of its own (taken from this game's generator at ``reset``)."""

    def __init__(self, net: ActorNet, deterministic: bool = True, name: str = "ppo"):
        self.net = net
        self.deterministic = bool(deterministic)
        self.name = name
        self.rng = np.random.default_rng(0)
        self._hinters: dict[tuple[str, str], Hinter] = {}

    @property
    def reads_observation_only(self) -> bool:
        """``act`` reads only the decision's observation and legal actions (never its view), so
        the arena may seat it in a game played in a native core (agents/bots/native_tables.py);
        a hinted actor's bot reads the view."""
        return self.net.hint is None

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take this game's generator (and give the hint's bot one drawn from it)."""
        self.rng = rng
        if self.net.hint is not None:
            self._hinter().reset(seat, num_players, np.random.default_rng(int(rng.integers(2**63))))

    def _hinter(self) -> Hinter:
        """The hint's maker for the actor's game and bot (one per pair, kept)."""
        key = (self.net.game.name, str(self.net.hint))
        if key not in self._hinters:
            self._hinters[key] = Hinter(*key)
        return self._hinters[key]

    def observation(self, decision: Decision) -> np.ndarray:
        """What the actor reads: the decision's observation (a hinted actor's: with its hint)."""
        if self.net.hint is None:
            return np.asarray(decision.observation)
        return self._hinter().observation(decision)

    def check_table(self, num_players: int) -> None:
        """Raise :class:`TableMismatchError` (a ValueError naming the file, the player count it
        was trained for and the table's) unless the policy plays ``num_players`` seats."""
        self.net.check_table(num_players)

    def act(self, decision: Decision) -> int:
        """The chosen legal action; reads only the observation vector and the legal actions."""
        legal = np.asarray(decision.legal_actions)
        logits = self.net.logits(self.observation(decision))[legal].astype(np.float64)
        if self.deterministic:
            return int(legal[int(np.argmax(logits))])
        weights = np.exp(logits - logits.max())
        cumulative = np.cumsum(weights)
        index = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        return int(legal[min(index, len(legal) - 1)])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The chosen legal action for each row (one batched forward): masked argmax, or masked
        samples from the policy's generator."""
        if self.net.hint is not None:
            raise ValueError(
                f"PPO model {self.net.path} takes a hint from the {self.net.hint} bot, which "
                f"reads each decision's view: it plays decision by decision (act), not on "
                f"batched observations"
            )
        logits = self.net.batch_logits(observations).astype(np.float64)
        logits[~masks.astype(bool)] = -np.inf
        if self.deterministic:
            return logits.argmax(axis=1).astype(np.int32)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        cumulative = np.cumsum(weights, axis=1)
        draws = self.rng.random(len(logits))[:, None] * cumulative[:, -1:]
        chosen = (cumulative <= draws).sum(axis=1)
        return np.minimum(chosen, logits.shape[1] - 1).astype(np.int32)


MODELS_DIR = Path(__file__).resolve().parent / "models"


def bundled_model(num_players: int, game: str | None = None) -> Path:
    """The path of a game's bundled policy for a player count: ``agents/models/ppo_<n>p.zip``
    for Airships (``game`` None or ``airships``), ``agents/models/<game>/ppo_<n>p.zip`` for
    another game."""
    from agents.games import DEFAULT_GAME

    name = f"ppo_{num_players}p.zip"
    return MODELS_DIR / name if game in (None, DEFAULT_GAME) else MODELS_DIR / str(game) / name


class PPOAgent(NetPolicy):
    """A saved MaskablePPO model as an agent: ``ppo:path=FILE.zip``, or ``ppo`` alone for the
    game's bundled policy of the table's player count (loaded when the first game starts).
    ``game`` (a Game or a registered name; None: Airships) is the game it plays."""

    def __init__(
        self,
        path: str | None = None,
        deterministic: bool = True,
        name: str = "ppo",
        game: Game | str | None = None,
    ):
        self.path = path
        self._nets: dict[int, ActorNet] = {}
        self.game = _game(game)
        net = ActorNet(path, self.game) if path is not None else _NO_NET
        super().__init__(net, deterministic, name)

    @staticmethod
    def ships_for(game: Game | str) -> bool:
        """Whether ``game`` has a bundled policy for at least one of its player counts (else
        its ``ppo`` plays only with ``path=``)."""
        rules = _game(game)
        return any(bundled_model(n, rules.name).exists() for n in rules.player_counts)

    def reset(self, seat: int, num_players: int, rng: np.random.Generator) -> None:
        """Take this game's generator; without a path, load the bundled model for this game."""
        if self.path is None:
            self.net = self._bundled(num_players)
        super().reset(seat, num_players, rng)

    @property
    def reads_observation_only(self) -> bool:
        """As :class:`NetPolicy`'s; without a path, true when no bundled model of the game
        takes a hint (the table size, and so the model, is known only at ``reset``)."""
        if self.path is not None:
            return self.net.hint is None
        return all(
            self._bundled(n).hint is None
            for n in self.game.player_counts
            if bundled_model(n, self.game.name).exists()
        )

    def check_table(self, num_players: int) -> None:
        """Raise unless the policy plays ``num_players`` seats; without a path, the bundled
        model for that count must exist and fit (FileNotFoundError / TableMismatchError)."""
        net = self._bundled(num_players) if self.path is None else self.net
        net.check_table(num_players)

    def _bundled(self, num_players: int) -> ActorNet:
        """The bundled model for a player count, loaded once."""
        net = self._nets.get(num_players)
        if net is None:
            model = bundled_model(num_players, self.game.name)
            if not model.exists():
                raise FileNotFoundError(
                    f"no bundled {num_players}-player policy for {self.game.name} ({model}); "
                    f"give one with ppo:path=FILE.zip"
                )
            net = self._nets[num_players] = ActorNet(model, self.game)
        return net


class GamePPOAgent(PPOAgent):
    """A saved MaskablePPO model of any game as an agent: ``ppo:path=FILE.zip``, or ``ppo``
    alone for the game's bundled policy (the generic agents' ``ppo``;
    :func:`agents.registry.make_agent` gives it the game whose agent table names it). The zip
    must record that game (:func:`agents.games.model_game`); built by hand with a path and no
    game, it plays the game its zip names."""

    def __init__(
        self,
        path: str | None = None,
        deterministic: bool = True,
        name: str = "ppo",
        game: Game | str | None = None,
    ):
        if game is None:
            if path is None:
                raise ValueError("a ppo agent without a model path needs its game")
            from agents.games import model_game

            game = model_game(path)  # built by hand: the zip names its game
        super().__init__(path, deterministic, name, game)


class _NoNet(ActorNet):
    """Stands in until a bundled model is chosen at the first reset."""

    def __init__(self) -> None:
        self.path = "<bundled model, chosen by the player count at reset>"
        self.hint = None

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Refuse: the agent was never reset for a game."""
        raise RuntimeError("PPOAgent without a path plays only after reset(seat, num_players, rng)")


_NO_NET = _NoNet()
