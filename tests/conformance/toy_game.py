"""Hidden Tricks: a tiny game with private hands, for the conformance suite only (not registered).

Airships hides nothing from one seat only (every seat's view is the same), so this game proves
the protocol and the generic layers (GameAEC, the leak test, the generic search bots) on
private information before a real game with hands arrives.

Rules: a deck of 18 cards, two of each value 1-9. Each player is dealt 3 cards (hidden from the
others). In turn from the leader, each player plays a card face up; the highest card wins the
trick (a tie at the top: nobody) and leads next. After a trick, if the deck holds a card for
everybody, each player draws one at random (from the leader on). The game ends when the hands
are empty; most tricks wins (a tie shares the win). Action ``v - 1`` plays a card of value ``v``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from airships_env.chance import uniform_below
from airships_env.protocol import IllegalActionError, Outcome, as_action_index, ranks_from

VALUES = 9
COPIES = 2
HAND = 3
NUM_ACTIONS = VALUES


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """One card played, and the cards drawn after it (seat, value) if it ended a trick."""

    action: int
    player: int
    drawn: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "action": self.action,
            "player": self.player,
            "drawn": [list(d) for d in self.drawn],
        }


def _generator_state(rng: np.random.Generator | None) -> dict[str, Any] | None:
    return None if rng is None else dict(rng.bit_generator.state)


def _generator(state: Mapping[str, Any] | None) -> np.random.Generator | None:
    if state is None:
        return None
    rng = np.random.default_rng()
    rng.bit_generator.state = dict(state)
    return rng


@dataclass(slots=True)
class TrickState:
    """A game of Hidden Tricks, true or as one seat sees it (``observer``)."""

    num_players: int
    hands: list[list[int]]  # sorted values
    deck: list[int]  # sorted values: a multiset, drawn from at random
    trick: list[int]  # the value each seat played in this trick, 0: not yet
    leader: int
    current_player: int
    tricks: list[int]
    played: list[int] = field(default_factory=list)
    rng: np.random.Generator | None = None
    observer: int | None = None  # a view's seat; None: the true state

    def is_terminal(self) -> bool:
        """No cards left in any hand."""
        return not any(self.hands)

    def legal_actions(self) -> list[int]:
        """The values in the acting seat's hand, as actions."""
        if self.is_terminal():
            return []
        return sorted({value - 1 for value in self.hands[self.current_player]})

    def apply_action(self, action: object, drawn: Any = None) -> TrickRecord:
        """Play a card; ``drawn`` forces the draws a record holds (a replay without generator)."""
        legal = self.legal_actions()
        index = as_action_index(action)
        if index is None or index not in legal:
            why = (
                "the game is over"
                if self.is_terminal()
                else f"an action is an integer index, got {type(action).__name__}"
                if index is None
                else f"no card of value {index + 1} in hand"
            )
            names = [action_name(a) for a in legal]
            raise IllegalActionError(action if index is None else index, "", legal, names, why)
        if self.observer is not None:
            raise ValueError("a view cannot advance the game; determinize(rng) gives a world")
        player = self.current_player
        self.hands[player].remove(index + 1)
        self.trick[player] = index + 1
        self.played.append(index + 1)
        following = (player + 1) % self.num_players
        if following != self.leader:
            self.current_player = following
            return TrickRecord(index, player)
        best = max(self.trick)
        top = [seat for seat in range(self.num_players) if self.trick[seat] == best]
        if len(top) == 1:
            self.tricks[top[0]] += 1
            self.leader = top[0]
        self.trick = [0] * self.num_players
        self.current_player = self.leader
        draws: list[tuple[int, int]] = []
        if len(self.deck) >= self.num_players:
            forced = None if drawn is None else [tuple(d) for d in drawn]
            for k in range(self.num_players):
                seat = (self.leader + k) % self.num_players
                if forced is not None:
                    value = forced[k][1]
                elif self.rng is None:
                    raise ValueError("no generator to draw with (pass the logged draws)")
                else:
                    value = self.deck[uniform_below(self.rng, len(self.deck))]
                self.deck.remove(value)
                self.hands[seat].append(value)
                self.hands[seat].sort()
                draws.append((seat, value))
        return TrickRecord(index, player, tuple(draws))

    def outcome(self) -> Outcome | None:
        """Tricks as scores; most tricks wins."""
        if not self.is_terminal():
            return None
        best = max(self.tricks)
        winners = tuple(s for s in range(self.num_players) if self.tricks[s] == best)
        return Outcome(
            tuple(float(t) for t in self.tricks), winners, ranks_from(winners, self.tricks)
        )

    def clone(self) -> TrickState:
        """An independent copy, the generator's state included."""
        return TrickState(
            self.num_players,
            [list(h) for h in self.hands],
            list(self.deck),
            list(self.trick),
            self.leader,
            self.current_player,
            list(self.tricks),
            list(self.played),
            _generator(_generator_state(self.rng)),
            self.observer,
        )

    def _unseen_by(self, seat: int) -> tuple[list[int], list[int]]:
        """The other seats (in order) and the pooled cards ``seat`` cannot see, sorted."""
        others = [s for s in range(self.num_players) if s != seat]
        pool = sorted([v for s in others for v in self.hands[s]] + self.deck)
        return others, pool

    def _dealt(self, seat: int, pool: list[int], others: list[int]) -> TrickState:
        """A copy with ``pool`` dealt into the other hands (sizes kept) and the rest the deck."""
        world = self.clone()
        at = 0
        for other in others:
            size = len(self.hands[other])
            world.hands[other] = sorted(pool[at : at + size])
            at += size
        world.deck = sorted(pool[at:])
        return world

    def view(self, seat: int) -> TrickState:
        """What ``seat`` sees: its hand; the other hands and the deck canonical; no generator."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        if self.observer is not None and self.observer != seat:
            raise ValueError(f"a view of seat {self.observer} cannot show seat {seat}'s")
        others, pool = self._unseen_by(seat)
        view = self._dealt(seat, pool, others)
        view.rng = None
        view.observer = seat
        return view

    def determinize(self, rng: np.random.Generator) -> TrickState:
        """A world: the cards the observer (a view's seat, else the seat to act) cannot see
        re-dealt from ``rng``, with a generator seeded from it."""
        seat = self.current_player if self.observer is None else self.observer
        others, pool = self._unseen_by(seat)
        seed = int(rng.bit_generator.random_raw()) >> 1
        for i in range(len(pool) - 1, 0, -1):
            j = uniform_below(rng, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        world = self._dealt(seat, pool, others)
        world.rng = np.random.default_rng(seed)
        world.observer = None
        return world

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, the generator's state included."""
        return {
            "num_players": self.num_players,
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "trick": list(self.trick),
            "leader": self.leader,
            "current_player": self.current_player,
            "tricks": list(self.tricks),
            "played": list(self.played),
            "rng": _generator_state(self.rng),
            "observer": self.observer,
        }


def action_name(action: int) -> str:
    """'play 7'."""
    return f"play {action + 1}"


class TricksPresenter:
    """Plain views of the table: a seat sees its own hand only."""

    def record_text(self, record: TrickRecord, state: Any) -> str:
        """'P1 plays 7'."""
        return f"P{record.player} plays {record.action + 1}"

    def ansi(self, view: TrickState, seat: int | None, last_record: Any) -> str:
        """The trick, the tricks won, and the seat's own hand."""
        lines = [f"trick {view.trick}  tricks won {view.tricks}  deck {len(view.deck)}"]
        if seat is not None:
            lines.append(f"your hand {view.hands[seat]}")
        return "\n".join(lines)

    def rgb(self, view: TrickState, seat: int | None, last_record: Any) -> np.ndarray:
        """One bar per seat, as long as its tricks."""
        picture = np.full((20 * view.num_players, 100, 3), 255, dtype=np.uint8)
        for s in range(view.num_players):
            picture[20 * s + 5 : 20 * s + 15, : 10 * view.tricks[s]] = (40, 90, 160)
        return picture

    def svg(self, view: TrickState, seat: int | None, last_record: Any) -> str:
        """The ANSI text as SVG lines."""
        text = self.ansi(view, seat, last_record).split("\n")
        rows = "".join(
            f'<text x="4" y="{16 * (k + 1)}">{line}</text>' for k, line in enumerate(text)
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40">{rows}</svg>'


class TricksGame:
    """Hidden Tricks as a protocol Game."""

    name = "tricks"
    title = "Hidden Tricks"
    version = 0
    player_counts = (2, 3, 4)
    num_actions = NUM_ACTIONS
    backends = ("python",)

    def action_name(self, action: int) -> str:
        """'play 7'."""
        return action_name(action)

    def new_state(
        self,
        num_players: int,
        seed: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        options: Any = None,
        data: Any = None,
        backend: str = "python",
    ) -> TrickState:
        """Deal 3 cards each from the shuffled deck."""
        if num_players not in self.player_counts or backend != "python":
            raise ValueError(f"tricks: 2-4 players on the python backend, got {num_players}")
        rng = rng if rng is not None else np.random.default_rng(seed)
        deck = sorted(v for v in range(1, VALUES + 1) for _ in range(COPIES))
        hands: list[list[int]] = [[] for _ in range(num_players)]
        for _ in range(HAND):
            for seat in range(num_players):
                value = deck[uniform_below(rng, len(deck))]
                deck.remove(value)
                hands[seat].append(value)
        return TrickState(
            num_players,
            [sorted(h) for h in hands],
            deck,
            [0] * num_players,
            0,
            0,
            [0] * num_players,
            [],
            rng,
        )

    def state_from_dict(self, data: Mapping[str, Any]) -> TrickState:
        """The state ``to_dict`` wrote."""
        return TrickState(
            data["num_players"],
            [list(h) for h in data["hands"]],
            list(data["deck"]),
            list(data["trick"]),
            data["leader"],
            data["current_player"],
            list(data["tricks"]),
            list(data["played"]),
            _generator(data["rng"]),
            data["observer"],
        )

    def record_from_dict(self, data: Mapping[str, Any]) -> TrickRecord:
        """The record ``to_dict`` wrote."""
        drawn = tuple((int(s), int(v)) for s, v in data["drawn"])
        return TrickRecord(data["action"], data["player"], drawn)

    def replay_action(self, state: TrickState, record: TrickRecord) -> TrickRecord:
        """Draw again with the state's generator, or the logged draws without one."""
        return state.apply_action(record.action, None if state.rng is not None else record.drawn)

    def observation_layout(self, num_players: int) -> list[tuple[str, int]]:
        """Own hand, the trick per seat (from the observer on), tricks, played cards, deck,
        hand sizes."""
        return [
            ("hand", VALUES),
            ("trick", (VALUES + 1) * num_players),
            ("tricks", num_players),
            ("played", VALUES),
            ("deck", 1),
            ("hand_sizes", num_players),
        ]

    def observation_size(self, num_players: int) -> int:
        """The sum of the layout's sizes."""
        return sum(size for _, size in self.observation_layout(num_players))

    def observe(self, view: TrickState, seat: int) -> np.ndarray:
        """Seat-relative, public information and the seat's own hand only."""
        n = view.num_players
        order = [(seat + k) % n for k in range(n)]
        hand = np.bincount(np.asarray(view.hands[seat], dtype=np.int64) - 1, minlength=VALUES)
        trick = np.zeros((n, VALUES + 1), dtype=np.float32)
        for row, s in enumerate(order):
            trick[row, view.trick[s]] = 1.0
        played = np.bincount(np.asarray(view.played, dtype=np.int64) - 1, minlength=VALUES)
        parts = [
            hand / COPIES,
            trick.ravel(),
            np.array([view.tricks[s] for s in order]) / 9.0,
            played / COPIES,
            [len(view.deck) / (VALUES * COPIES)],
            np.array([len(view.hands[s]) for s in order]) / HAND,
        ]
        return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])

    def bots(self) -> Mapping[str, str]:
        """No bots of its own: the generic ones serve."""
        return {}

    def presenter(self) -> TricksPresenter:
        """Plain views."""
        return TricksPresenter()

    def env(self, **kwargs: Any) -> Any:
        """The generic PettingZoo env."""
        from airships_env.game_aec import env

        return env(self, **kwargs)

    def single_agent_env(self, **kwargs: Any) -> Any:
        """The generic single-agent env."""
        from airships_env.game_single_agent import GameSingleAgentEnv

        return GameSingleAgentEnv(self, **kwargs)


GAME = TricksGame()
