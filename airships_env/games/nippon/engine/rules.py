"""Nippon's rules: setup, legal actions, applying an action, scoring, the end (docs/nippon/RULES.md).

Rule ids in comments name the rule a line implements. Chance is only the bag (N2) and the setup
draws (N1): every draw comes from the state's generator through :func:`uniform_below`, and the
colours drawn by an action are returned in its record, so a log replays without a generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from airships_env.chance import uniform_below
from airships_env.games.nippon.engine import actions as A
from airships_env.games.nippon.engine.actions import NUM_ACTIONS, action_name
from airships_env.games.nippon.engine.data import (
    ACTION_KINDS,
    GIFT_KINDS,
    NUM_ACHIEVEMENTS,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_CONTRACTS,
    NUM_GOODS,
    NUM_REGIONS,
    SPACES_PER_CITY,
    WORKER_SPACES,
    NipponData,
)
from airships_env.games.nippon.engine.errors import IllegalActionError, LogError, ViewError
from airships_env.games.nippon.engine.model import Phase
from airships_env.games.nippon.engine.records import ActionRecord
from airships_env.protocol import Outcome, as_action_index, ranks_from

if TYPE_CHECKING:  # the state's methods call these rules; the rules take a state
    from airships_env.games.nippon.engine.state import State

__all__ = [
    "apply_action",
    "apply_legal_action",
    "final_breakdown",
    "legal_actions",
    "outcome",
    "region_influence",
    "replay",
    "replay_action",
]


class _Drawer:
    """Draws workers from the bag (N2): from the generator, or forced from a record's draws."""

    def __init__(self, s: State, forced: Iterator[int] | None, out: list[int]) -> None:
        self.s, self.forced, self.out = s, forced, out

    def draw(self) -> int:
        bag = self.s.bag
        total = sum(bag)
        if self.forced is not None:
            colour = next(self.forced, -1)
            if not 0 <= colour < NUM_COLOURS or bag[colour] == 0:
                raise LogError(
                    f"record: draw {len(self.out) + 1} names colour {colour}, not in the bag {bag}"
                )
        else:
            if self.s.rng is None:
                raise ViewError("a view has no generator: determinize it to play on")
            pick = uniform_below(self.s.rng, total)
            colour = 0
            while pick >= bag[colour]:
                pick -= bag[colour]
                colour += 1
        bag[colour] -= 1
        self.out.append(colour)
        return colour


def _fill_board(s: State, drawer: _Drawer) -> None:
    """T4, N3: top up the action spaces left to right, then the rows top to bottom; what the
    bag cannot give is owed to the place (paid by C5)."""
    cap = s.data.per_space
    for k, place in enumerate(s.spaces + s.rows):
        while sum(place) < cap and sum(s.bag) > 0:
            place[drawer.draw()] += 1
        s.owed[k] = cap - sum(place)


def _pay_owed(s: State, drawer: _Drawer) -> None:
    """C5, T4: workers back in the bag go to the places left short, in the order of N3."""
    for k, place in enumerate(s.spaces + s.rows):
        while s.owed[k] > 0 and sum(s.bag) > 0:
            place[drawer.draw()] += 1
            s.owed[k] -= 1


# ----------------------------------------------------------------------- small queries
def _level(s: State, good: int) -> int:
    return s.data.goods_levels[good]


def _missing_knowledge(s: State, p: int, good: int) -> int:
    need = s.data.level_knowledge[_level(s, good)]
    return max(0, need - s.knowledge[p])


def _can_invest_tile(s: State, p: int, tile: int) -> bool:
    f = s.data.factories[tile]
    return (
        s.factory_owner[tile] < 0
        and s.factory_tile[p][f.good] < 0
        and s.blueprints[p] >= _missing_knowledge(s, p, f.good)
        and s.yen[p] >= s.data.invest_cost
    )


def _machine_targets(s: State, p: int) -> list[int]:
    """A2: goods whose factory can take a +1 (needs a supply tile) or flip its +1."""
    out = []
    for g in range(NUM_GOODS):
        if s.factory_tile[p][g] < 0:
            continue
        m = s.machine[p][g]
        if m == 1 or (m == 0 and s.machinery_supply > 0):
            out.append(g)
    return out


def _can_reserve_machine(s: State, p: int) -> bool:
    """A2: a +1 into reserve only when no factory can be improved at all."""
    improvable = any(s.factory_tile[p][g] >= 0 and s.machine[p][g] < 2 for g in range(NUM_GOODS))
    return not improvable and s.machinery_supply > 0


def _can_produce(s: State, p: int, g: int) -> bool:
    t = s.factory_tile[p][g]
    return t >= 0 and s.coal[p] >= s.data.factories[t].coal


def _region_free(s: State, r: int) -> int:
    used = sum(s.trains_in[r]) + sum(s.ships_in[r])
    return s.data.region_spaces(s.num_players) - used


def _can_piece(s: State, p: int, kind: int, r: int) -> bool:
    d = s.data
    placed, total = (
        (s.trains_placed[p], d.trains) if kind == A.K_TRAINS else (s.ships_placed[p], d.ships)
    )
    return placed < total and s.yen[p] >= d.piece_cost and _region_free(s, r) > 0


def _assignable(demands: Iterable[int], goods_cubes: list[int], used: int) -> bool:
    """A9: can the demands be paid with distinct goods not in ``used`` (bit set)?

    A good can pay a demand when it holds at least that many cubes, so the goods able to pay a
    larger demand are among those able to pay a smaller one: the demands can be paid exactly
    when the k-th largest demand is at most the k-th largest holding of the free goods.
    """
    need = sorted(demands, reverse=True)
    if not need:
        return True
    have = sorted((goods_cubes[g] for g in range(NUM_GOODS) if not used >> g & 1), reverse=True)
    if len(have) < len(need):
        return False
    return all(h >= c for h, c in zip(have, need, strict=False))


def _can_contract(s: State, p: int, k: int) -> bool:
    return not s.contracts_done[p][k] and _assignable(s.data.contracts[k].demands, s.cubes[p], 0)


def _max_tile(s: State, p: int, good: int, cubes: int) -> int:
    return s.data.influence_table[_level(s, good) - 1][cubes - 1]


def _city_player_tiles(s: State, city: int) -> int:
    return sum(1 for o in s.influence_owner[city] if o >= 0)


def _tile_fits(s: State, p: int, value_limit: int, beaten: int) -> bool:
    return any(s.tiles_supply[p][v - 1] > 0 for v in range(beaten + 1, value_limit + 1))


def _can_space(s: State, p: int, sp: int) -> bool:
    """A10: a space whose good p makes with a cube, beatable, in the action's region."""
    city, i = divmod(sp, SPACES_PER_CITY)
    if s.pend_region >= 0 and city // 2 != s.pend_region:
        return False
    good = s.city_goods[city][i]
    if s.factory_tile[p][good] < 0 or s.cubes[p][good] == 0:
        return False
    owner = s.influence_owner[city][i]
    if owner == p:
        return False
    if owner < 0 and _city_player_tiles(s, city) >= s.num_players:
        return False
    limit = _max_tile(s, p, good, min(3, s.cubes[p][good]))
    return _tile_fits(s, p, limit, s.influence_value[city][i])


def _can_kind(s: State, p: int, kind: int) -> bool:
    """T2: can action ``kind`` be performed at least once by ``p``?"""
    d = s.data
    if kind == A.K_INVEST:
        if s.yen[p] < d.invest_cost:  # the cost every tile needs: no tile to try
            return False
        return any(_can_invest_tile(s, p, t) for t in range(len(d.factories)))
    if kind == A.K_TECHNOLOGY:
        return s.yen[p] >= d.machine_cost and (
            bool(_machine_targets(s, p)) or _can_reserve_machine(s, p)
        )
    if kind == A.K_PRODUCE:
        return any(_can_produce(s, p, g) for g in range(NUM_GOODS))
    if kind == A.K_KNOWLEDGE:
        return s.yen[p] >= d.step_costs[0] and s.knowledge[p] < d.knowledge_max
    if kind == A.K_MINE:
        return s.yen[p] >= d.step_costs[0] and s.coal_pos[p] < len(d.coal_track) - 1
    if kind in (A.K_TRAINS, A.K_SHIPS):  # _can_piece, the seat's checks made once
        placed, total = (
            (s.trains_placed[p], d.trains) if kind == A.K_TRAINS else (s.ships_placed[p], d.ships)
        )
        if placed >= total or s.yen[p] < d.piece_cost:
            return False
        return any(_region_free(s, r) > 0 for r in range(NUM_REGIONS))
    if kind == A.K_EXPORT:
        if not any(s.cubes[p]):  # every demand needs a cube
            return False
        # _can_contract for each contract, the seat's holdings sorted once (_assignable)
        have = sorted(s.cubes[p][g] for g in range(NUM_GOODS))[::-1]
        done = s.contracts_done[p]
        for k, need in enumerate(_demands_sorted(d)):
            if (
                not done[k]
                and len(have) >= len(need)
                and all(h >= c for h, c in zip(have, need, strict=False))
            ):
                return True
        return False
    if kind == A.K_MARKET:
        if not any(s.cubes[p]):  # a space needs a cube of its good
            return False
        return any(_can_space(s, p, sp) for sp in range(NUM_CITIES * SPACES_PER_CITY))
    raise AssertionError(kind)


def _bonus_legal(s: State, p: int) -> list[int]:
    """T3: the blueprint bonuses ``p`` may take now (3 blueprints, the track not at its end)."""
    d = s.data
    if s.blueprints[p] < d.blueprints_per_bonus:
        return []
    out = []
    if s.coal_pos[p] < len(d.coal_track) - 1:
        out.append(A.BONUS)
    if s.knowledge[p] < d.knowledge_max:
        out.append(A.BONUS + 1)
    if s.money_pos[p] < len(d.money_track) - 1:
        out.append(A.BONUS + 2)
    return out


def _bonus_keeps_steps(s: State, p: int, bonus: int) -> bool:
    """Whether the action in progress still has a step after blueprint bonus ``bonus``."""
    saved = (s.blueprints[p], s.coal_pos[p], s.knowledge[p], s.money_pos[p])
    s.blueprints[p] -= s.data.blueprints_per_bonus
    _advance(s, p, ("coal_track", "knowledge_track", "money_track")[bonus - A.BONUS], 1)
    ok = bool(_step_actions(s, p))
    s.blueprints[p], s.coal_pos[p], s.knowledge[p], s.money_pos[p] = saved
    return ok


def _reward_level(s: State, p: int) -> int:
    k = len(s.workers[p])
    return s.data.worker_levels[k - 1] if k else 0


def _reward_classes(s: State, level: int) -> list[int]:
    """C3: reward actions (level-1) * 3 + gift still on display at ``level`` or lower."""
    out = set()
    for t in s.rewards_left:
        rw = s.data.rewards[t]
        if rw.level <= level:
            out.add((rw.level - 1) * len(GIFT_KINDS) + GIFT_KINDS.index(rw.gift))
    return sorted(out)


_SPACE_OF: dict[str, tuple[int, ...]] = {}  # by data digest: a few at most, never pickled


def _space_of(d: NipponData) -> tuple[int, ...]:
    """Each action kind's action space (``d.action_space_of`` as a table, built once)."""
    table = _SPACE_OF.get(d.digest)
    if table is None:
        if len(_SPACE_OF) >= 8:
            _SPACE_OF.clear()
        table = _SPACE_OF[d.digest] = tuple(map(d.action_space_of, range(len(ACTION_KINDS))))
    return table


_DEMANDS_SORTED: dict[str, tuple[list[int], ...]] = {}  # by data digest, like _SPACE_OF


def _demands_sorted(d: NipponData) -> tuple[list[int], ...]:
    """Each contract's demands, largest first (what _assignable sorts), built once."""
    table = _DEMANDS_SORTED.get(d.digest)
    if table is None:
        if len(_DEMANDS_SORTED) >= 8:
            _DEMANDS_SORTED.clear()
        table = _DEMANDS_SORTED[d.digest] = tuple(
            sorted(d.contracts[k].demands, reverse=True) for k in range(NUM_CONTRACTS)
        )
    return table


# ------------------------------------------------------------------------- legal actions
def legal_actions(s: State) -> list[int]:
    """The legal action indices of the seat to act, sorted."""
    if s.game_over:
        return []
    p = s.current
    ph = s.phase
    out: list[int] = []
    bonus = _bonus_legal(s, p) if ph not in (Phase.REWARD, Phase.ACHIEVEMENT) else []
    if ph == Phase.TURN:
        if len(s.workers[p]) < WORKER_SPACES:  # T1
            space_of = _space_of(s.data)
            for kind in range(len(ACTION_KINDS)):
                space = s.spaces[space_of[kind]]
                if sum(space) and _can_kind(s, p, kind):
                    out.extend(A.take(kind, c) for c in range(NUM_COLOURS) if space[c])
        if s.workers[p] or not out:
            out.append(A.CONSOLIDATE)
        out.extend(bonus)
    elif ph == Phase.FINISH:
        out = [*bonus, A.STOP]
    elif ph == Phase.REWARD:
        out = [A.REWARD + c for c in _reward_classes(s, _reward_level(s, p))]
    elif ph == Phase.ACHIEVEMENT:
        out = [A.ACHIEVEMENT + k for k in range(NUM_ACHIEVEMENTS) if s.achievements[p][k] == 0]
    else:
        if s.pend_units == 0:  # T3: a bonus may not leave the action without a step
            bonus = [b for b in bonus if _bonus_keeps_steps(s, p, b)]
        out = _step_actions(s, p) + bonus
        if s.pend_units > 0 and ph in (
            Phase.PRODUCE,
            Phase.TECHNOLOGY,
            Phase.PIECES,
            Phase.CONTRACT,
            Phase.SPACE,
        ):
            out.append(A.STOP)
    return sorted(out)


def _step_actions(s: State, p: int) -> list[int]:
    d = s.data
    ph = s.phase
    if ph == Phase.STEPS:
        pos, end = (
            (s.knowledge[p], d.knowledge_max)
            if s.pend_kind == A.K_KNOWLEDGE
            else (s.coal_pos[p], len(d.coal_track) - 1)
        )
        return [
            A.AMOUNT + n - 1
            for n in (1, 2, 3)
            if s.yen[p] >= d.step_costs[n - 1] and pos + n <= end
        ]
    if ph == Phase.INVEST:
        return [A.INVEST + t for t in range(len(d.factories)) if _can_invest_tile(s, p, t)]
    if ph == Phase.PRODUCE:
        return [
            A.PRODUCE + g
            for g in range(NUM_GOODS)
            if not s.pend_mask >> g & 1 and _can_produce(s, p, g)
        ]
    if ph == Phase.TECHNOLOGY:
        if s.yen[p] < d.machine_cost:
            return []
        out = [A.MACHINE + g for g in _machine_targets(s, p)]
        if _can_reserve_machine(s, p):
            out.append(A.MACHINE_RESERVE)
        return out
    if ph == Phase.PIECES:
        return [
            A.REGION + r for r in range(NUM_REGIONS)
            if not s.pend_mask >> r & 1 and _can_piece(s, p, s.pend_kind, r)
        ]  # fmt: skip
    if ph == Phase.CONTRACT:
        return [A.CONTRACT + k for k in range(NUM_CONTRACTS) if _can_contract(s, p, k)]
    if ph == Phase.DELIVER:
        demands = d.contracts[s.pend_contract].demands
        need = demands[s.pend_demand]
        rest = demands[s.pend_demand + 1 :]
        return [
            A.DELIVER + g for g in range(NUM_GOODS)
            if not s.pend_goods >> g & 1 and s.cubes[p][g] >= need
            and _assignable(rest, s.cubes[p], s.pend_goods | 1 << g)
        ]  # fmt: skip
    if ph == Phase.SPACE:
        return [A.SPACE + sp for sp in range(NUM_CITIES * SPACES_PER_CITY) if _can_space(s, p, sp)]
    if ph == Phase.CUBES:
        city, i = divmod(s.pend_space, SPACES_PER_CITY)
        good = s.city_goods[city][i]
        beaten = s.influence_value[city][i]
        return [
            A.AMOUNT + n - 1 for n in (1, 2, 3)
            if s.cubes[p][good] >= n and _tile_fits(s, p, _max_tile(s, p, good, n), beaten)
        ]  # fmt: skip
    if ph == Phase.TILE:
        city, i = divmod(s.pend_space, SPACES_PER_CITY)
        good = s.city_goods[city][i]
        limit = _max_tile(s, p, good, s.pend_cubes)
        return [
            A.TILE + v - 1 for v in range(s.influence_value[city][i] + 1, limit + 1)
            if s.tiles_supply[p][v - 1] > 0
        ]  # fmt: skip
    raise AssertionError(ph)


# --------------------------------------------------------------------------------- apply
def apply_action(s: State, action: Any, _forced: Iterator[int] | None = None) -> ActionRecord:
    """Apply a legal action (T1-T4, A, C, F, E); its record holds the bag draws."""
    if s.is_view:
        raise ViewError("a view cannot advance: determinize it first")
    if s.rng is None and _forced is None:  # checked before anything changes
        raise ViewError("a state without a generator only replays records (replay_action)")
    index = as_action_index(action)
    legal = legal_actions(s)
    if index is None or index not in legal:
        why = (
            "the game is over" if s.game_over
            else "not an action index" if index is None
            else f"outside 0..{NUM_ACTIONS - 1}" if not 0 <= index < NUM_ACTIONS
            else f"'{action_name(index)}' is not legal now"
        )  # fmt: skip
        raise IllegalActionError(
            action, Phase.NAMES[s.phase], legal, [action_name(a) for a in legal], why
        )
    return _apply_checked(s, index, _forced)


def apply_legal_action(s: State, action: int) -> ActionRecord:
    """``apply_action`` without the legality check, for a caller that took ``action`` (an int)
    from ``legal_actions`` of this state unchanged since (the generic environments)."""
    if s.is_view:
        raise ViewError("a view cannot advance: determinize it first")
    if s.rng is None:  # checked before anything changes
        raise ViewError("a state without a generator only replays records (replay_action)")
    return _apply_checked(s, action, None)


def _apply_checked(s: State, index: int, _forced: Iterator[int] | None) -> ActionRecord:
    """Apply a legal action (checked by the caller); its record holds the bag draws."""
    draws: list[int] = []
    drawer = _Drawer(s, _forced, draws)
    p = s.current
    _apply(s, p, index, drawer)
    return ActionRecord(index, p, tuple(draws))


def _apply(s: State, p: int, a: int, drawer: _Drawer) -> None:
    d = s.data
    if A.BONUS <= a < A.STOP:  # T3
        s.blueprints[p] -= d.blueprints_per_bonus
        _advance(s, p, ("coal_track", "knowledge_track", "money_track")[a - A.BONUS], 1)
        if s.phase == Phase.FINISH and not _bonus_legal(s, p):
            _end_turn(s, p)  # T3: nothing left to choose
        return
    if a < A.CONSOLIDATE:  # T2
        kind, colour = divmod(a - A.TAKE, NUM_COLOURS)
        space = _space_of(d)[kind]
        s.spaces[space][colour] -= 1
        s.workers[p].append(colour)
        _refill_space(s, space, drawer)
        _start_action(s, p, kind)
        return
    if a == A.CONSOLIDATE:
        _consolidate(s, p, drawer)
        return
    if a == A.STOP:
        _end_main_action(s, p) if s.phase != Phase.FINISH else _end_turn(s, p)
        return
    ph = s.phase
    if ph == Phase.STEPS:  # A4, A5
        n = a - A.AMOUNT + 1
        s.yen[p] -= d.step_costs[n - 1]
        _advance(s, p, "knowledge_track" if s.pend_kind == A.K_KNOWLEDGE else "coal_track", n)
        _end_main_action(s, p)
    elif ph == Phase.INVEST:  # A1
        _invest(s, p, a - A.INVEST)
        _end_main_action(s, p)
    elif ph == Phase.PRODUCE:  # A3
        g = a - A.PRODUCE
        s.coal[p] -= d.factories[s.factory_tile[p][g]].coal
        made = 1 + s.machine[p][g]
        s.cubes[p][g] = min(d.factory_capacity, s.cubes[p][g] + made)
        _unit_done(s, p, 1 << g)
    elif ph == Phase.TECHNOLOGY:  # A2
        s.yen[p] -= d.machine_cost
        if a == A.MACHINE_RESERVE:
            s.machinery_supply -= 1
            s.machine_reserve[p] += 1
        else:
            _improve_machine(s, p, a - A.MACHINE)
        _unit_done(s, p, 0)
    elif ph == Phase.PIECES:  # A6, A7, A8
        r = a - A.REGION
        s.yen[p] -= d.piece_cost
        if s.pend_kind == A.K_TRAINS:
            s.trains_placed[p] += 1
            s.trains_in[r][p] += 1
        else:
            s.ships_placed[p] += 1
            s.ships_in[r][p] += 1
        _advance(s, p, "money_track", 1)  # A8
        _unit_done(s, p, 1 << r)
    elif ph == Phase.CONTRACT:  # A9
        s.pend_contract, s.pend_demand, s.pend_goods = a - A.CONTRACT, 0, 0
        s.phase = Phase.DELIVER
    elif ph == Phase.DELIVER:
        g = a - A.DELIVER
        c = d.contracts[s.pend_contract]
        s.cubes[p][g] -= c.demands[s.pend_demand]
        s.pend_goods |= 1 << g
        s.pend_demand += 1
        if s.pend_demand == len(c.demands):
            s.contracts_done[p][s.pend_contract] = 1
            s.vp[p] += c.vp
            _gain(s, p, c.bonus, c.amount)
            s.phase = Phase.CONTRACT
            s.pend_contract = -1
            _unit_done(s, p, 0)
    elif ph == Phase.SPACE:  # A10
        s.pend_space = a - A.SPACE
        s.pend_region = s.pend_space // SPACES_PER_CITY // 2
        s.phase = Phase.CUBES
    elif ph == Phase.CUBES:
        city, i = divmod(s.pend_space, SPACES_PER_CITY)
        s.pend_cubes = a - A.AMOUNT + 1
        s.cubes[p][s.city_goods[city][i]] -= s.pend_cubes
        s.phase = Phase.TILE
    elif ph == Phase.TILE:
        _place_tile(s, p, a - A.TILE + 1)
        s.phase = Phase.SPACE
        _unit_done(s, p, 0)
    elif ph == Phase.REWARD:  # C3
        _take_reward(s, p, a - A.REWARD, drawer)
    elif ph == Phase.ACHIEVEMENT:  # C4
        s.achievements[p][a - A.ACHIEVEMENT] = s.pend_multiplier
        s.pend_multiplier = 0
        _finish_consolidation(s, p, drawer)
    else:  # pragma: no cover - legal_actions guards every phase
        raise AssertionError((ph, a))


def _refill_space(s: State, space: int, drawer: _Drawer) -> None:
    """T4: an emptied action space takes the topmost row; no row left: the marker moves."""
    if sum(s.spaces[space]):
        return
    first_row = len(s.spaces)
    for k, row in enumerate(s.rows):
        if sum(row):
            s.spaces[space] = list(row)
            row[:] = [0] * NUM_COLOURS
            s.owed[space] = s.owed[first_row + k]
            s.owed[first_row + k] = 0
            column_left = sum(map(sum, s.rows)) + sum(s.owed[first_row:])
            if s.options.marker_trigger == "column_empties" and column_left == 0:
                break  # T4a: the column has just emptied
            return
    if s.marker < s.data.golden_from:
        _move_marker(s)
    _fill_board(s, drawer)


def _move_marker(s: State) -> None:
    """K3, F1, E1: one step; a scoring space scores; the first golden space starts the end."""
    d = s.data
    s.marker += 1
    if s.marker in d.scoring_spaces:
        _score_phase(s, d.scoring_spaces.index(s.marker))
    if s.marker == d.golden_from and s.golden_turns == -2:
        s.golden_turns = -1  # E1: this turn does not count


def _start_action(s: State, p: int, kind: int) -> None:
    s.pend_kind, s.pend_units, s.pend_mask = kind, 0, 0
    s.pend_region = s.pend_contract = s.pend_space = -1
    s.pend_demand = s.pend_goods = s.pend_cubes = 0
    s.phase = _KIND_PHASE[kind]


#: the phase an action kind starts (T2)
_KIND_PHASE = {
    A.K_INVEST: Phase.INVEST, A.K_TECHNOLOGY: Phase.TECHNOLOGY, A.K_PRODUCE: Phase.PRODUCE,
    A.K_KNOWLEDGE: Phase.STEPS, A.K_MINE: Phase.STEPS, A.K_TRAINS: Phase.PIECES,
    A.K_SHIPS: Phase.PIECES, A.K_EXPORT: Phase.CONTRACT, A.K_MARKET: Phase.SPACE,
}  # fmt: skip


def _unit_done(s: State, p: int, mask_bits: int) -> None:
    """One of the 1..3 units done: stop by itself at the limit or when no unit is possible."""
    s.pend_units += 1
    s.pend_mask |= mask_bits
    if s.pend_units >= s.data.max_units or not _step_actions(s, p):
        _end_main_action(s, p)


def _end_main_action(s: State, p: int) -> None:
    """T3: after the main action, a player with bonuses available may take them or stop."""
    s.pend_kind, s.pend_units, s.pend_mask, s.pend_region = -1, 0, 0, -1
    s.pend_contract, s.pend_space, s.pend_demand, s.pend_goods, s.pend_cubes = -1, -1, 0, 0, 0
    if _bonus_legal(s, p):
        s.phase = Phase.FINISH
    else:
        _end_turn(s, p)


def _end_turn(s: State, p: int) -> None:
    """The turn passes clockwise; golden rounds step the marker and end the game (E1)."""
    d = s.data
    s.last_turn[p] = s.turn_count
    s.turn_count += 1
    s.phase = Phase.TURN
    s.current = (p + 1) % s.num_players
    if s.golden_turns >= -1:
        s.golden_turns += 1
        if s.golden_turns > 0 and s.golden_turns % s.num_players == 0:
            s.marker += 1
            if s.marker in d.scoring_spaces:
                _score_phase(s, d.scoring_spaces.index(s.marker))
            if s.marker >= d.track_spaces - 1:
                _final_scoring(s)  # E2, E3
                s.game_over = 1
                s.phase = Phase.OVER


def _advance(s: State, p: int, track: str, n: int) -> None:
    """Advance a track by ``n``; beyond its end is lost (T5)."""
    d = s.data
    if track == "coal_track":
        s.coal_pos[p] = min(len(d.coal_track) - 1, s.coal_pos[p] + n)
    elif track == "money_track":
        s.money_pos[p] = min(len(d.money_track) - 1, s.money_pos[p] + n)
    else:
        s.knowledge[p] = min(d.knowledge_max, s.knowledge[p] + n)


def _gain(s: State, p: int, kind: str, amount: int) -> None:
    """A factory power, a contract bonus, a region bonus or a reward gift."""
    if kind in ("coal_track", "money_track", "knowledge_track"):
        _advance(s, p, kind, amount)
    elif kind == "blueprints":
        s.blueprints[p] += amount
    elif kind == "coal":
        s.coal[p] += amount
    elif kind == "yen":
        s.yen[p] += amount
    elif kind == "vp":
        s.vp[p] += amount
    elif kind != "none":
        raise AssertionError(kind)  # "machine" is handled where a factory is known


def _improve_machine(s: State, p: int, g: int) -> None:
    """A2: a +1 on a factory without machine (from the supply) or flip its +1 to +2."""
    if s.machine[p][g] == 0:
        if s.machinery_supply <= 0:
            return
        s.machinery_supply -= 1
    s.machine[p][g] = min(2, s.machine[p][g] + 1)


def _invest(s: State, p: int, tile: int) -> None:
    """A1: pay, blueprints for missing knowledge, the power, then the reserve machines."""
    d = s.data
    f = d.factories[tile]
    s.yen[p] -= d.invest_cost
    s.blueprints[p] -= _missing_knowledge(s, p, f.good)
    s.factory_owner[tile] = p
    s.factory_tile[p][f.good] = tile
    held = s.machine_reserve[p]
    if held >= 2:  # one tile flipped on, the other back to the supply
        s.machine[p][f.good] = 2
        s.machine_reserve[p] -= 2
        s.machinery_supply += 1
    elif held == 1:
        s.machine[p][f.good] = 1
        s.machine_reserve[p] = 0
    if f.power == "machine":
        for _ in range(f.amount):
            if s.machine[p][f.good] < 2:
                _improve_machine(s, p, f.good)
    else:
        _gain(s, p, f.power, f.amount)


def _place_tile(s: State, p: int, value: int) -> None:
    """A10: the tile on the chosen space, beating a lower tile; the region bonus."""
    city, i = divmod(s.pend_space, SPACES_PER_CITY)
    owner = s.influence_owner[city][i]
    if owner >= 0:  # A10a
        if s.options.captured_tile == "returns":
            s.tiles_supply[owner][s.influence_value[city][i] - 1] += 1
        else:
            s.tiles_removed[owner] += 1
    s.tiles_supply[p][value - 1] -= 1
    s.influence_owner[city][i] = p
    s.influence_value[city][i] = value
    kind, amount = s.data.region_bonus[city // 2]
    _gain(s, p, kind, amount)
    s.pend_space, s.pend_cubes = -1, 0


# --------------------------------------------------------------------------- consolidate
def _consolidate(s: State, p: int, drawer: _Drawer) -> None:
    """C1, C2, then C3 (a choice when tiles qualify) or straight on to C5."""
    d = s.data
    s.yen[p] = d.money_track[s.money_pos[p]]  # C1 + C2
    s.coal[p] = d.coal_track[s.coal_pos[p]]
    level = _reward_level(s, p)
    if _reward_classes(s, level):
        s.phase = Phase.REWARD
        return
    if not s.rewards_left and level >= 1:  # C3: all gone -> a x2
        _place_multiplier(s, p, 2, drawer)
        return
    _finish_consolidation(s, p, drawer)


def _take_reward(s: State, p: int, cls: int, drawer: _Drawer) -> None:
    d = s.data
    level, gift = divmod(cls, len(GIFT_KINDS))
    tile = next(
        t for t in s.rewards_left
        if d.rewards[t].level == level + 1 and d.rewards[t].gift == GIFT_KINDS[gift]
    )  # fmt: skip
    s.rewards_left.remove(tile)
    _gain(s, p, GIFT_KINDS[gift], d.gift_amounts[gift])
    _place_multiplier(s, p, d.rewards[tile].multiplier, drawer)


def _place_multiplier(s: State, p: int, multiplier: int, drawer: _Drawer) -> None:
    """C4: the player chooses an empty achievement space; none empty: the multiplier is lost."""
    if any(m == 0 for m in s.achievements[p]):
        s.pend_multiplier = multiplier
        s.phase = Phase.ACHIEVEMENT
    else:
        _finish_consolidation(s, p, drawer)


def _finish_consolidation(s: State, p: int, drawer: _Drawer) -> None:
    """C5: workers back to the bag, pay per colour, then the board fills from the bag."""
    _pay_workers(s, p)
    _pay_owed(s, drawer)
    _end_main_action(s, p)


def _pay_workers(s: State, p: int) -> None:
    """C5, E3: 3 per distinct colour, 2 VP lost per colour not paid; workers to the bag."""
    d = s.data
    colours = len(set(s.workers[p]))
    paid = min(colours, s.yen[p] // d.colour_cost) if d.colour_cost else colours
    s.yen[p] -= paid * d.colour_cost
    s.vp[p] -= (colours - paid) * d.unpaid_vp
    for c in s.workers[p]:
        s.bag[c] += 1
    s.workers[p] = []


# ------------------------------------------------------------------------------- scoring
def region_influence(s: State, r: int) -> tuple[list[int], int]:
    """F2: each seat's influence in region ``r`` and the neutral rival's."""
    d = s.data
    per = [s.trains_in[r][p] * d.train_influence for p in range(s.num_players)]
    neutral = 0
    for city in (2 * r, 2 * r + 1):
        for i in range(SPACES_PER_CITY):
            owner = s.influence_owner[city][i]
            if owner >= 0:
                per[owner] += s.influence_value[city][i]
            else:
                neutral += d.neutral[i]
    return per, neutral if s.options.neutral_competes else 0


def _score_phase(s: State, phase: int) -> None:
    """F1-F4: majorities and ships in every region."""
    d = s.data
    table = d.majority_vp[phase]
    for r in range(NUM_REGIONS):
        per, neutral = region_influence(s, r)
        entrants = [(v, p) for p, v in enumerate(per) if v > 0]
        if neutral > 0:
            entrants.append((neutral, -1))
        entrants.sort(key=lambda e: -e[0])
        k = 0
        place = [-1] * s.num_players
        while k < len(entrants):
            members = [e[1] for e in entrants if e[0] == entrants[k][0]]
            covered = [table[j] if j < len(table) else 0 for j in range(k, k + len(members))]
            share = (
                sum(covered) // len(members) if s.options.majority_ties == "split" else covered[-1]
            )
            for m in members:
                if m >= 0:
                    place[m] = k
                    s.vp[m] += share
                    s.scored[phase][m] += share
            k += len(members)
        for p in range(s.num_players):  # F4
            ships = s.ships_in[r][p]
            if not ships:
                continue
            if place[p] < 0:
                each = d.ship_vp_no_place
            else:
                each = d.ship_vp[min(place[p], len(d.ship_vp) - 1)]
            s.vp[p] += ships * each
            s.scored[phase][p] += ships * each


def achievement_base(s: State, p: int, kind: str) -> int:
    """E3: the value an achievement space counts (before dividing by its ``per``)."""
    d = s.data
    if kind == "contracts":
        return sum(s.contracts_done[p])
    if kind == "yen":
        return s.yen[p]
    if kind == "knowledge_stars":
        return sum(1 for k in d.knowledge_stars if s.knowledge[p] >= k)
    if kind == "coal_stars":
        return sum(1 for k in d.coal_stars if s.coal_pos[p] >= k)
    if kind == "ship_stars":
        return sum(d.ship_stars[: s.ships_placed[p]])
    if kind == "train_stars":
        return sum(d.train_stars[: s.trains_placed[p]])
    if kind == "factories":
        return sum(1 for t in s.factory_tile[p] if t >= 0)
    if kind == "machines":
        return sum(s.machine[p])
    if kind == "influence":
        return sum(1 for row in s.influence_owner for o in row if o == p)
    raise AssertionError(kind)


def final_breakdown(s: State, p: int) -> list[int]:
    """E3: the VP of each achievement space of ``p`` (base // per x multiplier)."""
    out = []
    for k, ach in enumerate(s.data.achievements):
        mult = s.achievements[p][k] or ach.printed
        out.append(achievement_base(s, p, ach.kind) // ach.per * mult)
    return out


def _final_scoring(s: State) -> None:
    """E3: final income, pay the workers on the board, then the achievements."""
    d = s.data
    for p in range(s.num_players):
        s.yen[p] = d.money_track[s.money_pos[p]]
        _pay_workers(s, p)
    for p in range(s.num_players):
        s.vp[p] += sum(final_breakdown(s, p))


def outcome(s: State) -> Outcome | None:
    """E4: most VP; a tie goes to the tied player who took a turn last."""
    if not s.game_over:
        return None
    keys = [(s.vp[p], s.last_turn[p]) for p in range(s.num_players)]
    best = max(keys)
    winners = tuple(p for p in range(s.num_players) if keys[p] == best)
    return Outcome(tuple(float(v) for v in s.vp), winners, ranks_from(winners, keys))


# -------------------------------------------------------------------------------- replay
def replay_action(s: State, record: ActionRecord) -> ActionRecord:
    """Apply a record: draws from the generator when the state has one, else the record's."""
    if record.seat != s.current:
        raise LogError(
            f"record {record.name!r}: seat {record.seat}, but seat {s.current} is to act"
        )
    if s.rng is not None:
        new = apply_action(s, record.action)
    else:
        forced = iter(record.draws)
        new = apply_action(s, record.action, _forced=forced)
        if next(forced, None) is not None:
            raise LogError(f"record {record.name!r}: more draws than the action made")
    if new != record:
        raise LogError(
            f"record {record.name!r}: replays as {new.to_dict()}, not {record.to_dict()}"
        )
    return new


def replay(start: State, records: Iterable[ActionRecord]) -> State:
    """A copy of ``start`` after every record, checked (LogError naming the first mismatch)."""
    s = start.clone()
    for i, rec in enumerate(records):
        try:
            replay_action(s, rec)
        except (IllegalActionError, LogError) as exc:
            raise LogError(f"log entry {i + 1}: {exc}") from exc
    return s
