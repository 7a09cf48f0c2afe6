"""Behaviour cloning: start the learner from a teacher bot's play instead of random weights.

PPO from random weights spends its first million steps rediscovering what a hand-written bot
already knows (which expansions build a dice engine, when a chip is worth keeping). Cloning the
bot first puts the learner at the bot's level in minutes; PPO then only has to improve on it.

1. :func:`collect_demonstrations`: the teacher (an agent spec of the game, usually
   ``heuristic``) plays every seat of ``games`` seeded games on the game's engine; every
   decision of every seat is recorded as the learner would see it: the seat's observation
   vector, its legal-action mask and the teacher's action, plus the seat's discounted return
   under the training reward (discounted by ``gamma`` per own decision, as the learner's
   environment gives it). Game ``g`` is fixed by ``(seed, g)`` alone (the arena's
   ``deal_seed(seed, g)`` and the teachers' own generators ``agent_rng(seed, g, seat)``),
   whatever the number of workers. Games cut at ``max_turns`` are dropped (they have no result
   to learn a value from).

   Airships plays on its engine directly (:mod:`airships_env.observation`,
   :func:`airships_env.aec.game_rewards`, ``max_turns`` in turns), as its training env does.
   Every other registered game plays through the game protocol (``game.new_state``,
   :meth:`~airships_env.policy.Decision.for_game`, the rewards of
   :func:`~airships_env.game_aec.outcome_rewards`, ``max_turns`` in actions): what its
   :class:`~airships_env.game_aec.GameAEC`, and so its PPO learner, sees.
2. :func:`clone_policy`: supervised training of a MaskablePPO policy on them: the actor by
   cross-entropy on the masked action distribution, the critic by squared error on the returns
   (so PPO's first advantages are not noise that would wash the clone out). The last
   ``validation`` share of the games is held out to report accuracy and value error, beside
   the accuracy a uniform choice among the legal actions would have.

3. DAgger (``pretrain.dagger_rounds``): a clone copies most of the teacher's decisions and still
   loses most games against it, because one wrong step leads it into states the teacher never
   visits, where it has learned nothing. Each round the current clone plays one seat of new
   games (seat ``g % n`` of game ``g``; the teacher plays the others and labels every decision,
   the clone's too), those rows join the training rows, and the clone is trained again on all
   of them. The round's games also measure the clone: its win share against the teacher and
   how often it already chose the teacher's action on the states it reached.

The teacher sees a :class:`~airships_env.policy.Decision` only (public information), so nothing
hidden reaches the demonstrations either.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agents.arena import agent_rng, deal_seed
from agents.bots.native_tables import TableNativeBots, python_view
from agents.executors import game_native_bots
from agents.games import DEFAULT_GAME
from agents.hint import Hinter
from agents.registry import make_agent
from agents.workers import single_threaded_workers
from airships_env.aec import game_rewards
from airships_env.engine import new_game
from airships_env.game_aec import outcome_rewards
from airships_env.policy import Decision, Policy
from airships_env.protocol import Game
from airships_env.registry import get_game

#: Games per task handed to a worker (small enough for a smooth progress bar).
CHUNK_GAMES = 25


@dataclass
class Demonstrations:
    """Decisions of teacher games, one row per decision (every seat of every game)."""

    observations: np.ndarray  # float32 (rows, observation size)
    masks: np.ndarray  # bool (rows, NUM_ACTIONS)
    actions: np.ndarray  # int64 (rows,)
    returns: np.ndarray  # float32 (rows,): discounted final reward of the deciding seat
    games: np.ndarray  # int64 (rows,): game index of each row
    dropped_games: int = 0  # games cut at max_turns, not recorded
    student_games: int = 0  # finished games with a student seat (DAgger rounds)
    student_wins: float = 0.0  # the student's wins in them (a draw shared: 1 / winners)
    student_agreed: int = 0  # the student's decisions that equal the teacher's label
    student_decisions: int = 0  # the student's decisions in them

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    @property
    def student_win_share(self) -> float:
        """The student's share of its games' wins (nan without student games)."""
        return self.student_wins / self.student_games if self.student_games else float("nan")

    @property
    def student_agreement(self) -> float:
        """How often the student chose the teacher's action (nan without student games)."""
        return (
            self.student_agreed / self.student_decisions if self.student_decisions else float("nan")
        )

    @classmethod
    def concat(cls, parts: list[Demonstrations]) -> Demonstrations:
        """The rows of ``parts`` in order (their counters summed)."""
        return cls(
            observations=np.concatenate([p.observations for p in parts]),
            masks=np.concatenate([p.masks for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            returns=np.concatenate([p.returns for p in parts]),
            games=np.concatenate([p.games for p in parts]),
            **{key: sum(getattr(p, key) for p in parts) for key in _COUNTERS},
        )

    def save(self, path: str | Path) -> Path:
        """Write as a compressed ``.npz`` file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.stem + ".tmp.npz")
        np.savez_compressed(temporary, **asdict(self))  # observations are sparse: ~30x smaller
        temporary.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> Demonstrations:
        """Read a file written by :meth:`save`."""
        with np.load(Path(path)) as data:
            counters = {key: data[key].item() for key in _COUNTERS if key in data.files}
            return cls(
                **{key: data[key] for key in data.files if key not in _COUNTERS},
                **counters,
            )


#: The scalar fields of :class:`Demonstrations` (saved as 0-d arrays).
_COUNTERS = (
    "dropped_games",
    "student_games",
    "student_wins",
    "student_agreed",
    "student_decisions",
)


#: One decision of a teacher game: (seat, observation, int8 mask, the teacher's action).
Row = tuple[int, np.ndarray, np.ndarray, int]


@dataclass
class Played:
    """One recorded game: its rows, every seat's final rewards under the training reward and
    under ``"win"`` (None for a game cut short), and the student's agreement with its labels."""

    rows: list[Row]
    final: list[float] | None = None
    wins: list[float] | None = None
    agreed: int = 0
    decisions: int = 0


def _decide(
    players: list[Policy],
    teachers: list[Policy],
    decision: Decision,
    game: Played,
    hinters: Sequence[Hinter] = (),
) -> int:
    """The acting seat's move; records the teacher's label (its own move in a teacher seat)
    and the observation the learner reads (with ``hinters``: followed by the seat's hint)."""
    action = players[decision.seat].act(decision)
    label = action
    if players[decision.seat] is not teachers[decision.seat]:  # a student seat: ask the teacher
        label = teachers[decision.seat].act(decision)
        game.agreed += int(label == action)
        game.decisions += 1
    observation = hinters[decision.seat].observation(decision) if hinters else decision.observation
    game.rows.append((decision.seat, observation, decision.action_mask, label))
    return action


def _airships_game(
    players: list[Policy],
    teachers: list[Policy],
    num_players: int,
    deal: int,
    reward: str,
    max_turns: int | None,
) -> Played:
    """One Airships game on its engine (the fast path, cut after ``max_turns`` turns)."""
    state = new_game(num_players, seed=deal)
    game = Played([])
    while not state.is_terminal():
        if max_turns is not None and state.turn > max_turns:
            return game
        state.apply_action(_decide(players, teachers, Decision.from_state(state), game))
    game.final, game.wins = game_rewards(state, reward), game_rewards(state, "win")
    return game


def _scored(game: Played, rules: Game, state: Any, reward: str) -> Played:
    """``game`` with the finished ``state``'s rewards (the training reward and the win share),
    as the game's environment gives them."""
    outcome = state.outcome()
    assert outcome is not None  # a terminal state has one
    scale = float(getattr(rules, "score_scale", 1.0))
    game.final = outcome_rewards(outcome, reward, scale)
    game.wins = outcome_rewards(outcome, "win", scale)
    return game


def _protocol_game(
    rules: Game,
    players: list[Policy],
    teachers: list[Policy],
    num_players: int,
    deal: int,
    reward: str,
    max_turns: int | None,
    hinters: Sequence[Hinter] = (),
) -> Played:
    """One game of any registered game through the protocol: observed as its
    :class:`~airships_env.game_aec.GameAEC` observes it (``game.observe`` of the seat's view),
    cut after ``max_turns`` actions as that env truncates."""
    state = rules.new_state(num_players, seed=deal)
    game = Played([])
    played = 0
    while not state.is_terminal():
        if max_turns is not None and played >= max_turns:
            return game
        decision = Decision.for_game(rules, state)
        state.apply_action(_decide(players, teachers, decision, game, hinters))
        played += 1
    return _scored(game, rules, state, reward)


def _native_twin(teacher: Policy, game: str) -> tuple[TableNativeBots, str, Any] | None:
    """The teacher's twin in the game's native core (the core's bot and its parameter), or
    None: Airships (its engine path), no core, or a teacher without a twin."""
    if game == DEFAULT_GAME:
        return None
    bots = game_native_bots(game)
    if not isinstance(bots, TableNativeBots):
        return None
    plan = bots.plan({"teacher": teacher})
    if plan is None:
        return None
    return bots, plan.bots["teacher"], plan.parameters["teacher"]


def _native_game(
    rules: Game,
    twin: tuple[TableNativeBots, str, Any],
    learner: Policy | None,
    num_players: int,
    seed: int,
    index: int,
    reward: str,
    max_turns: int | None,
) -> Played:
    """Game ``index`` as :func:`_protocol_game` plays it, in the game's native core: the deal,
    the rules, the observations and the teacher's decisions (its twin, from the generators the
    Python teachers get) all there; only the student's forward pass is in Python. The same
    rows, returns and counters as the Python path (a test holds them equal)."""
    bots, bot, parameter = twin
    state = bots.new_game(num_players, deal_seed(seed, index))
    rngs = [agent_rng(seed, index, seat) for seat in range(num_players)]
    student = index % num_players if learner is not None else -1
    if learner is not None:  # the labelling teacher's own generator, as in _play_chunk
        rngs[student] = agent_rng(seed, index, student + num_players)
    memories = [bots.start_memory] * num_players
    game = Played([])
    played = 0
    while not state.is_terminal():
        if max_turns is not None and played >= max_turns:
            return game
        seat = state.current_player
        legal = tuple(state.legal_actions())
        observation = state.observe(seat)
        mask = np.zeros(rules.num_actions, dtype=np.int8)
        mask[list(legal)] = 1
        label, memories[seat] = bots.decide(state, rngs[seat], bot, parameter, memories[seat])
        action = label
        if seat == student:
            assert learner is not None
            # the student reads the observation; its view is made only if it asks
            view = partial(python_view, state, seat)
            decision = Decision(
                view, seat, legal, observe=partial(np.copy, observation), game=rules
            )
            action = learner.act(decision)
            game.agreed += int(label == action)
            game.decisions += 1
        game.rows.append((seat, observation, mask, label))
        state.apply_action(action)
        played += 1
    return _scored(game, rules, state, reward)


def _play_chunk(
    teacher: str,
    num_players: int,
    seed: int,
    game_indices: list[int],
    reward: str,
    gamma: float,
    max_turns: int | None,
    game: str = DEFAULT_GAME,
    student: str | None = None,
    native: bool = True,
    hint: str | None = None,
) -> tuple[list[np.ndarray], list[int | float]]:
    """Play the given games (the teacher in every seat, or the ``student`` model zip in seat
    ``g % n`` of game ``g``); returns row blocks and the counters of :data:`_COUNTERS`.
    ``native``: play in the game's native core when the teacher has a twin there. ``hint``:
    every row's observation ends with that bot's choice (:mod:`agents.hint`; the games are
    then played through the protocol)."""
    teachers = [_make_teacher(teacher, game) for _ in range(num_players)]
    rules = None if game == DEFAULT_GAME else get_game(game)
    hinters = [Hinter(game, hint) for _ in range(num_players)] if hint is not None else []
    twin = _native_twin(teachers[0], game) if native and not hinters else None
    learner = None
    if student is not None:
        from agents.policy_agent import ActorNet, NetPolicy

        learner = NetPolicy(ActorNet(student, game), deterministic=True, name="student")
        if not learner.reads_observation_only:  # a hinted student's bot reads the view
            twin = None
    observations, masks, actions, returns, games = [], [], [], [], []
    counters: list[int | float] = [0, 0, 0.0, 0, 0]  # in the order of _COUNTERS
    for index in game_indices:
        players = list(teachers)
        if learner is not None:
            players[index % num_players] = learner
        for seat, agent in enumerate(players):
            agent.reset(seat, num_players, agent_rng(seed, index, seat))
            if agent is not teachers[seat]:  # the labelling teacher gets a generator of its own
                teachers[seat].reset(seat, num_players, agent_rng(seed, index, seat + num_players))
        for seat, hinter in enumerate(hinters):  # and so does the hint
            hinter.reset(seat, num_players, agent_rng(seed, index, seat + 2 * num_players))
        deal = deal_seed(seed, index)
        if rules is None:
            played = _airships_game(players, teachers, num_players, deal, reward, max_turns)
        elif twin is not None:
            played = _native_game(rules, twin, learner, num_players, seed, index, reward, max_turns)
        else:
            played = _protocol_game(
                rules, players, teachers, num_players, deal, reward, max_turns, hinters
            )
        if played.final is None or played.wins is None:
            counters[0] += 1
            continue
        if learner is not None:
            counters[1] += 1
            counters[2] += max(0.0, played.wins[index % num_players])
            counters[3] += played.agreed
            counters[4] += played.decisions
        rows, final = played.rows, played.final
        # The learner's reward arrives with its last decision: discount by own decisions left.
        remaining = [0] * num_players
        discounted = np.empty(len(rows), dtype=np.float32)
        for row in range(len(rows) - 1, -1, -1):
            seat = rows[row][0]
            discounted[row] = final[seat] * gamma ** remaining[seat]
            remaining[seat] += 1
        observations.append(np.stack([row[1] for row in rows]))
        masks.append(np.stack([row[2] for row in rows]).astype(bool))
        actions.append(np.array([row[3] for row in rows], dtype=np.int64))
        returns.append(discounted)
        games.append(np.full(len(rows), index, dtype=np.int64))
    blocks = [
        np.concatenate(part) if part else np.empty(0)
        for part in (observations, masks, actions, returns, games)
    ]
    return blocks, counters


def _make_teacher(teacher: str, game: str) -> Policy:
    """The teacher agent of ``game`` (Airships' names without a game, as its league makes
    them)."""
    return make_agent(teacher, game=None if game == DEFAULT_GAME else game)


def _chunks(games: int, first: int = 0) -> Iterator[list[int]]:
    for start in range(first, first + games, CHUNK_GAMES):
        yield list(range(start, min(first + games, start + CHUNK_GAMES)))


def collect_demonstrations(
    teacher: str,
    num_players: int,
    games: int,
    seed: int,
    *,
    reward: str = "score",
    gamma: float = 1.0,
    max_turns: int | None = 300,
    workers: int = 1,
    progress: bool = False,
    game: str = DEFAULT_GAME,
    student: str | None = None,
    first_game: int = 0,
    native: bool = True,
    hint: str | None = None,
) -> Demonstrations:
    """Play games ``first_game`` .. ``first_game + games - 1`` of ``game`` and record every
    decision with the teacher's action (see the module docstring); with a ``student`` (a model
    zip of the game) it plays seat ``g % n`` of game ``g`` (DAgger). ``native``: where the
    game's core has the teacher's twin (Clockwork City, Australia, Nippon and their random,
    greedy and heuristic bots) the games are played there, with the same rows."""
    from tqdm import tqdm

    _make_teacher(teacher, game)  # a bad spec fails here, before any worker starts
    play = partial(
        _play_chunk,
        teacher,
        num_players,
        seed,
        reward=reward,
        gamma=gamma,
        max_turns=max_turns,
        game=game,
        student=student,
        native=native,
        hint=hint,
    )
    results: dict[int, tuple[list[np.ndarray], list[int | float]]] = {}
    label = f"teacher games ({teacher})" if game == DEFAULT_GAME else f"{game} games ({teacher})"
    bar = tqdm(
        total=games,
        disable=not progress,
        desc=label if student is None else f"DAgger games (student vs {teacher})",
        unit="game",
        dynamic_ncols=True,
        file=sys.stderr,
    )
    with bar:
        if workers <= 1:
            for chunk in _chunks(games, first_game):
                results[chunk[0]] = play(chunk)
                bar.update(len(chunk))
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as executor:
                with single_threaded_workers():  # the executor starts its processes on submit
                    futures = {
                        executor.submit(play, chunk): chunk for chunk in _chunks(games, first_game)
                    }
                for future, chunk in futures.items():
                    results[chunk[0]] = future.result()
                    bar.update(len(chunk))
    ordered = [results[start] for start in sorted(results)]
    parts = [[blocks[k] for blocks, _ in ordered if blocks[k].size] for k in range(5)]
    if not parts[2]:
        raise RuntimeError(f"no teacher game of {teacher!r} finished within {max_turns} turns")
    totals = [sum(counter[k] for _, counter in ordered) for k in range(len(_COUNTERS))]
    return Demonstrations(
        observations=np.concatenate(parts[0]).astype(np.float32, copy=False),
        masks=np.concatenate(parts[1]).astype(bool, copy=False),
        actions=np.concatenate(parts[2]).astype(np.int64, copy=False),
        returns=np.concatenate(parts[3]).astype(np.float32, copy=False),
        games=np.concatenate(parts[4]).astype(np.int64, copy=False),
        dropped_games=int(totals[0]),
        student_games=int(totals[1]),
        student_wins=float(totals[2]),
        student_agreed=int(totals[3]),
        student_decisions=int(totals[4]),
    )


@dataclass
class CloneReport:
    """How well the policy learned the teacher (accuracy = argmax action == teacher action)."""

    rows: int
    train_rows: int
    validation_rows: int
    epochs: int
    train_accuracy: float
    validation_accuracy: float | None
    validation_value_mse: float | None
    return_variance: float
    seconds: float
    uniform_accuracy: float  # a uniform choice among the legal actions on the measured rows

    def text(self) -> str:
        """One line for the log."""
        held_out = (
            f"held-out accuracy {self.validation_accuracy:.3f} (uniform over the legal "
            f"actions: {self.uniform_accuracy:.3f}), value error "
            f"{self.validation_value_mse:.4f} (return variance {self.return_variance:.4f})"
            if self.validation_accuracy is not None
            else f"no held-out games (uniform over the legal actions: {self.uniform_accuracy:.3f})"
        )
        return (
            f"cloned the teacher on {self.train_rows} decisions in {self.epochs} epochs "
            f"({self.seconds:.0f} s): train accuracy {self.train_accuracy:.3f}, {held_out}"
        )


def _split(demos: Demonstrations, validation: float) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of the training and held-out games (the last ``validation`` share)."""
    game_ids = np.unique(demos.games)
    held = round(len(game_ids) * validation)
    if held == 0 or held == len(game_ids):
        return np.arange(len(demos)), np.empty(0, dtype=np.int64)
    held_out = demos.games >= game_ids[len(game_ids) - held]
    return np.flatnonzero(~held_out), np.flatnonzero(held_out)


def uniform_accuracy(demos: Demonstrations, rows: np.ndarray) -> float:
    """The expected accuracy of a uniform choice among the legal actions on ``rows``."""
    if not len(rows):
        return 0.0
    return float(np.mean(1.0 / demos.masks[rows].sum(axis=1)))


def _measure(
    policy: Any, demos: Demonstrations, rows: np.ndarray, batch: int
) -> tuple[float, float]:
    """Accuracy of the policy's most likely action and squared value error on ``rows``."""
    import torch

    correct, squared = 0, 0.0
    with torch.no_grad():
        for start in range(0, len(rows), batch):
            index = rows[start : start + batch]
            obs = torch.as_tensor(demos.observations[index], device=policy.device)
            masks = torch.as_tensor(demos.masks[index], device=policy.device)
            distribution = policy.get_distribution(obs, action_masks=masks)
            chosen = distribution.distribution.probs.argmax(dim=1).cpu().numpy()
            correct += int((chosen == demos.actions[index]).sum())
            values = policy.predict_values(obs).squeeze(1).cpu().numpy()
            squared += float(((values - demos.returns[index]) ** 2).sum())
    return correct / max(1, len(rows)), squared / max(1, len(rows))


def clone_policy(
    policy: Any,
    demos: Demonstrations,
    *,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    validation: float,
    seed: int,
    log: Callable[[str], None] | None = None,
    extra: Demonstrations | None = None,
) -> CloneReport:
    """Fit a MaskablePPO policy's actor to the teacher's actions and its critic to the returns;
    the last ``validation`` share of ``demos``' games is held out, and the rows of ``extra``
    (DAgger's) are only trained on."""
    import torch

    started = time.perf_counter()
    train_rows, held_rows = _split(demos, validation)
    if extra is not None and len(extra):
        train_rows = np.concatenate([train_rows, len(demos) + np.arange(len(extra))])
        demos = Demonstrations.concat([demos, extra])
    generator = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    for epoch in range(epochs):
        order = generator.permutation(train_rows)
        total_loss, batches = 0.0, 0
        for start in range(0, len(order), batch_size):
            index = np.sort(order[start : start + batch_size])
            obs, actions, masks, returns = (
                torch.as_tensor(part[index], device=policy.device)
                for part in (demos.observations, demos.actions, demos.masks, demos.returns)
            )
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            loss = -log_prob.mean() + value_coef * torch.nn.functional.mse_loss(
                values.flatten(), returns
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
            batches += 1
        if log is not None:
            log(f"cloning epoch {epoch + 1}/{epochs}: loss {total_loss / max(1, batches):.4f}")
    policy.set_training_mode(False)
    train_accuracy, _ = _measure(policy, demos, train_rows, 4096)
    held_accuracy, held_mse = (None, None)
    if len(held_rows):
        held_accuracy, held_mse = _measure(policy, demos, held_rows, 4096)
    return CloneReport(
        rows=len(demos),
        train_rows=len(train_rows),
        validation_rows=len(held_rows),
        epochs=epochs,
        train_accuracy=train_accuracy,
        validation_accuracy=held_accuracy,
        validation_value_mse=held_mse,
        return_variance=float(np.var(demos.returns)),
        seconds=time.perf_counter() - started,
        uniform_accuracy=uniform_accuracy(demos, held_rows if len(held_rows) else train_rows),
    )
