"""Australia bots: ``greedy``, ``heuristic`` and the baseline ``kind_random`` (the generic
``random`` is :class:`airships_env.policy.RandomPolicy`).

The bot reads only the acting seat's :class:`~airships_env.policy.Decision`: its legal actions
and its view (own hand, the public map and tracks; other hands by back only, V1-V3). To look one
action ahead it plays on a re-deal of what the view hides (``view.determinize`` with the bot's
own generator), never on the true state.

- ``greedy`` plays the card and placement that score most now: every legal action is tried on the
  re-dealt world, and within a card play or a take-back or a move the best continuation counts
  too; the value is the seat's VP + dollars after it (dollars are VP at the end, E3). Among
  equal values it prefers flying where a card of its hand can be played, and otherwise chooses
  at random with its own generator.
- ``heuristic`` looks as far as greedy but judges the position, not the score alone (see
  :class:`HeuristicBot`).
"""

from __future__ import annotations

from airships_env.chance import uniform_below
from airships_env.games.australia.engine import actions as A
from airships_env.games.australia.engine.actions import kind_uniform_choice
from airships_env.games.australia.engine.data import NUM_BACKS, NUM_COLOURS
from airships_env.games.australia.engine.rules import is_open_to
from airships_env.games.australia.engine.state import MOVE_TO, PLACE, TAKE_BACK, State
from airships_env.policy import Decision, SeatedPolicy

__all__ = ["GreedyBot", "HeuristicBot", "KindRandomBot"]

_INNER = (PLACE, TAKE_BACK, MOVE_TO)  # phases inside one action of the same seat


def wealth(state: State, seat: int) -> int:
    """VP + dollars: the seat's final score if the game ended now (E3)."""
    return state.vp[seat] + state.dollars[seat]


class KindRandomBot(SeatedPolicy):
    """Random, each kind of action (fly, play, place, ...) equally likely first: a baseline that
    plays its cards (uniform random mostly flies)."""

    name = "kind-random"

    def act(self, decision: Decision) -> int:
        """A kind-uniform random legal action."""
        return kind_uniform_choice(
            list(decision.legal_actions), lambda k: uniform_below(self.rng, k)
        )


class GreedyBot(SeatedPolicy):
    """The action (with its best continuation inside the same action) that scores most now."""

    name = "greedy"

    def act(self, decision: Decision) -> int:
        """Choose one of the legal actions."""
        legal = list(decision.legal_actions)
        if len(legal) == 1:
            return legal[0]
        view: State = decision.view
        seat = decision.seat
        if view.phase_name in ("setup draw", "draw"):
            return self.choose_stack(view, seat, legal)
        world = view.determinize(self.rng)
        values = [self.value(world, seat, action, depth=2) + self.bonus(view, seat, action)
                  for action in legal]  # fmt: skip
        best = max(values)
        choices = [a for a, v in zip(legal, values, strict=True) if v >= best - 1e-9]
        return choices[uniform_below(self.rng, len(choices))]

    def value(self, world: State, seat: int, action: int, depth: int) -> float:
        """The seat's VP + dollars gained by ``action`` and its best continuation."""
        after = world.clone()
        after.apply_action(action)
        gained = float(wealth(after, seat) - wealth(world, seat))
        if depth > 1 and after.phase in _INNER and after.current == seat:
            gained += max(
                self.value(after, seat, follow, depth - 1) for follow in after.legal_actions()
            )
        return gained

    def bonus(self, view: State, seat: int, action: int) -> float:
        """Tie-breaks below one VP: fly where a card of the hand fits and a location is open."""
        if A.FLY <= action < A.PLAY:
            region = action - A.FLY
            colour = view.data.regions[region].colour
            playable = any(
                view.hands[seat][back * NUM_COLOURS + colour] for back in range(NUM_BACKS)
            )
            open_ = any(is_open_to(view, loc, seat) for loc in view.data.region_locations[region])
            return 0.5 if playable and open_ else 0.0
        if A.TAKE_BACK <= action < A.DONE_TAKING and view.supply[seat] > 0:
            return -0.5  # take back only when out of rangers
        return 0.0

    def choose_stack(self, view: State, seat: int, legal: list[int]) -> int:
        """Rangers while the supply is large, dollars when it runs low."""
        wanted = A.draw(0) if view.supply[seat] >= 6 else A.draw(NUM_BACKS - 1)
        if wanted in legal:
            return wanted
        return legal[uniform_below(self.rng, len(legal))]


class HeuristicBot(GreedyBot):
    """Greedy's one-action look-ahead with a judgement of the position instead of the score
    alone: own VP + dollars against the opponents' mean (points handed to them count against),
    the expected worth of own rangers standing in regions whose projects are still open, a
    finishing chance where the plane stands, and a cost for leaving a project one step from
    completion to the next player."""

    name = "heuristic"

    def act(self, decision: Decision) -> int:
        """Choose one of the legal actions."""
        legal = list(decision.legal_actions)
        if len(legal) == 1:
            return legal[0]
        view: State = decision.view
        seat = decision.seat
        if view.phase_name in ("setup draw", "draw"):
            return self.choose_stack(view, seat, legal)
        world = view.determinize(self.rng)
        values = [self.judge(world, seat, action, depth=2) for action in legal]
        best = max(values)
        choices = [a for a, v in zip(legal, values, strict=True) if v >= best - 1e-9]
        return choices[uniform_below(self.rng, len(choices))]

    def judge(self, world: State, seat: int, action: int, depth: int) -> float:
        """The position after ``action`` and the best rest of the same action."""
        after = world.clone()
        after.apply_action(action)
        if depth > 1 and after.phase in _INNER and after.current == seat:
            return max(
                self.judge(after, seat, follow, depth - 1) for follow in after.legal_actions()
            )
        return self.position(after, seat)

    def position(self, state: State, seat: int) -> float:
        """How good ``state`` is for ``seat`` (higher is better)."""
        n = state.num_players
        others = [s for s in range(n) if s != seat]
        value = wealth(state, seat) - sum(wealth(state, s) for s in others) / len(others)
        value += 0.2 * state.supply[seat] + 0.3 * state.ranger_track.count(seat)
        data = state.data
        for region in range(len(data.regions)):
            locations = data.region_locations[region]
            count = sum(sum(state.rangers[loc]) for loc in locations)
            tile = state.tile_value[region]
            open_projects = state.conservation[region] + (
                1 if tile and (not state.tile_up[region] or count <= tile) else 0
            )
            if not open_projects:
                continue
            mine = sum(
                state.rangers[loc][seat] * (2 if data.locations[loc].kind else 1)
                for loc in locations
            )
            value += 0.4 * mine * open_projects
            empty = sum(1 for loc in locations if sum(state.rangers[loc]) == 0)
            if state.conservation[region] and empty == 1:
                value -= 1.0  # the next player may take the 3-point bonus
            if tile and state.tile_up[region] and 1 <= tile - count <= 2:
                value -= 0.6
        if not state.is_terminal() and state.current == seat and state.actions_left > 0:
            value += 0.5 * self.chance_here(state, seat)
        return value

    def chance_here(self, state: State, seat: int) -> float:
        """1 when a card in hand fits the plane's region and a location there is open."""
        plane = state.plane[seat]
        if plane < 0:
            return 0.0
        colour = state.data.regions[plane].colour
        fits = any(state.hands[seat][b * NUM_COLOURS + colour] for b in range(NUM_BACKS))
        open_ = any(is_open_to(state, loc, seat) for loc in state.data.region_locations[plane])
        return 1.0 if fits and open_ and state.supply[seat] > 0 else 0.0
