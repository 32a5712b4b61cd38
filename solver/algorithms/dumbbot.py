"""DumbBot: David Norman's reference bot of the DAIDE community (2003), as an opponent.

No search: a value for every place a unit can stand, then each unit goes to the best
place next to it, with a random chance of the second best, third best, ...  Implemented
from the published description (daide.org.uk, "Summaries - DumBot Algorithm", s0003)
and the logic of the original C++ source (diplomacy/daide-client,
``bots/dumbbot/dumbbot.cpp``, release 8~2~b); no code is copied.  The Victorybot seed
(``004_…``, "Related work") names it as the first bot to beat.

The values, in the original's words and order:

1. **Power size** ``x² + 4x + 16``, ``x`` the power's supply-center count.  As in the
   original, the unowned centers count as one more pseudo-power (`NEUTRAL`): twelve
   neutral centers at the start make it size 208, so a neutral center is worth far more
   than a great power's (37).  Other ports differ here (a constant 16, or 0) and open
   differently; this one follows the original.
2. **Attack value** of a supply center we do not own: its owner's size.  **Defence
   value** of a center we own: the size of the largest other power with a unit that can
   move into it.  Other provinces: 0.
3. **Proximity[0]** of a *coast* (a place a unit stands: ``("A", "SPA")``,
   ``("F", "SPA/NC")``, one per unit kind and coast, as DAIDE's coasts are) = attack ×
   700 + defence × 300 in spring (600 / 400 in fall).  **Proximity[n]**, n = 1..9 =
   (proximity[n−1] of the coast + the sum of proximity[n−1] over the coasts it moves to,
   the larger one only when two of them are in one province) / 5, in integers.
4. **Strength** of a province: how many of our units stand in it or can move into it;
   **competition**: the most any one other power has.  Like the original, a unit counts
   once for each coast of the province it can move to (a fleet in the Mid-Atlantic
   counts twice for Spain).
5. **Destination value** of a coast = Σ proximity[n] × w[n] + 1000 × strength − 1000 ×
   competition, w = [100, 1000, 30, 10, 6, 5, 4, 3, 2, 1] in spring and
   [1000, 100, 30, 10, 6, 5, 4, 3, 2, 1] in fall.  In winter: Σ proximity[n] ×
   [1000, 100, 30, …][n] + 1000 × defence (with the spring proximity[0]).

Orders (`movement_orders`, `retreat_orders`, `adjustment_orders`) are in each function's
docstring.  Where this port departs from the original (all small; the README's
section on play lists them too):

* equal values: the original keeps its candidates in a C++ ``map`` keyed by value, so of
  two places with the same value only the first (by DAIDE province number) can ever be
  chosen, and of two units whose locations have the same value only the last can be
  removed; here every candidate is kept and ties go in location order;
* a unit that waits for its own unit in the province it wants (the original moves it
  behind that unit in the order of play) could wait for ever when two units want each
  other's province; here a wait that would close such a circle (or a unit's wait after
  as many waits as there are units) is refused, as a destination the original rejects
  would be;
* random numbers come from Python's ``random.Random`` (the original: C ``rand()``), so
  the same seed does not reproduce the original's games, only this port's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Mapping, Sequence, TypeVar

from ..core.map import Map
from ..core.orders import (Build, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove,
                     Waive)
from ..core.position import Position, Unit

#: the pseudo-power that owns every unowned supply center (the original's power index
#: ``MAX_POWERS``)
NEUTRAL = "neutral"

#: a place a unit stands: its kind and its location (``("F", "STP/NC")``); DAIDE's coast
Coast = tuple[str, str]

T = TypeVar("T")


@dataclass(frozen=True)
class Weights:
    """The original's constants ("values that seemed right at the time - there has been
    no attempt to optimise them", D. Norman).  Frozen so a variant is a new object."""

    spring_attack: int = 700
    spring_defence: int = 300
    fall_attack: int = 600
    fall_defence: int = 400
    spring_proximity: tuple[int, ...] = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    fall_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    strength: int = 1000
    competition: int = 1000
    build_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    build_defence: int = 1000
    remove_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    remove_defence: int = 1000
    #: percent chance of looking past the current candidate at all
    play_alternative: int = 50
    #: a gap of g (as a fraction of the better value) makes the step less likely by
    #: g × this percent: zero chance from a 20% gap
    alternative_difference_modifier: int = 500
    #: size = a x² + b x + c for a power with x centers
    size: tuple[int, int, int] = (1, 4, 16)

    @property
    def depth(self) -> int:
        return len(self.spring_proximity)


DEFAULT_WEIGHTS = Weights()


# -- the map as DumbBot sees it -----------------------------------------------------------

@dataclass(frozen=True, eq=False)
class _Board:
    """Coasts and their moves, grouped by province (built once per map); the same
    moves as integer indices for the proximity iterations."""

    coasts: tuple[Coast, ...]
    index: dict[Coast, int]
    #: coast -> the coasts it moves to, grouped by province: ((c1,), (c2, c3), ...)
    moves: dict[Coast, tuple[tuple[Coast, ...], ...]]
    #: coast -> the province of each coast it moves to, once per coast (so a fleet in
    #: MAO lists SPA twice, as the original counts it)
    move_provinces: dict[Coast, tuple[str, ...]]
    #: by coast index: its province; the indices of the moves that are the only one
    #: into their province; the groups of indices of moves into one province
    province: tuple[str, ...]
    single: tuple[tuple[int, ...], ...]
    several: tuple[tuple[tuple[int, ...], ...], ...]


def _board(game_map: Map) -> _Board:
    """The map's `_Board`, built on first use and kept in `Map.memo`."""
    board = game_map.memo.get("dumbbot.board")
    if board is None:
        board = game_map.memo["dumbbot.board"] = _build_board(game_map)
    return board


def _build_board(game_map: Map) -> _Board:
    po = game_map.province_of
    coasts: list[Coast] = [("A", p) for p in sorted(game_map.army_moves)]
    coasts += [("F", loc) for loc in sorted(game_map.fleet_moves)]
    index = {c: i for i, c in enumerate(coasts)}
    moves: dict[Coast, tuple[tuple[Coast, ...], ...]] = {}
    move_provinces: dict[Coast, tuple[str, ...]] = {}
    for kind, loc in coasts:
        table = game_map.army_moves if kind == "A" else game_map.fleet_moves
        dests = sorted(table[loc])
        groups: dict[str, list[Coast]] = {}
        for d in dests:
            groups.setdefault(po[d], []).append((kind, d))
        moves[(kind, loc)] = tuple(tuple(g) for g in groups.values())
        move_provinces[(kind, loc)] = tuple(po[d] for d in dests)
    single = tuple(tuple(index[g[0]] for g in moves[c] if len(g) == 1) for c in coasts)
    several = tuple(tuple(tuple(index[x] for x in g) for g in moves[c] if len(g) > 1) for c in coasts)
    return _Board(tuple(coasts), index, moves, move_provinces,
                  tuple(po[c[1]] for c in coasts), single, several)


# -- the values ------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Values:
    """Everything DumbBot computes for one power in one position, before it orders."""

    power: str
    #: power (and `NEUTRAL`) -> size, a x² + b x + c
    sizes: dict[str, int]
    #: province -> attack value (supply centers we do not own)
    attack: dict[str, int]
    #: province -> defence value (supply centers we own)
    defence: dict[str, int]
    #: proximity[n][coast], n = 0 .. depth-1
    proximity: tuple[dict[Coast, int], ...]
    #: province -> our units in or next to it
    strength: dict[str, int]
    #: province -> the most units any other power has in or next to it
    competition: dict[str, int]
    #: coast -> destination value (movement and retreat) or build/removal value (winter)
    destination: dict[Coast, int] = field(default_factory=dict)


def power_sizes(position: Position, weights: Weights = DEFAULT_WEIGHTS) -> dict[str, int]:
    """Each power's size, and the neutral pseudo-power's (all unowned centers as one)."""
    a, b, c = weights.size
    count = {p: 0 for p in (*position.map.powers, NEUTRAL)}
    owner = position.owner
    for prov in position.map.centers:
        who = owner.get(prov, NEUTRAL)
        count[who] = count.get(who, 0) + 1
    return {p: a * x * x + b * x + c for p, x in count.items()}


def _season_weights(position: Position, weights: Weights) -> tuple[int, int]:
    """Attack and defence weights: fall in a fall phase, spring otherwise (the original
    uses spring's for its winter values too)."""
    if position.phase.season == "Fall":
        return weights.fall_attack, weights.fall_defence
    return weights.spring_attack, weights.spring_defence


def _center_values(position: Position, power: str, sizes: Mapping[str, int]
                   ) -> tuple[dict[str, int], dict[str, int]]:
    """Attack values of the centers we do not own, defence values of those we do."""
    m = position.map
    table = m.unit_table
    unit_in = position.unit_in
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    for prov, who in _owners(position):
        if who != power:
            attack[prov] = sizes.get(who, 0)
            continue
        best = 0
        for near in m.neighbours[prov]:
            u = unit_in.get(near)
            if u is None or u.power == power or sizes.get(u.power, 0) <= best:
                continue
            if prov in table[u.kind][u.location][2]:
                best = sizes[u.power]
        defence[prov] = best
    return attack, defence


def _owners(position: Position) -> list[tuple[str, str]]:
    owner = position.owner
    return [(prov, owner.get(prov, NEUTRAL)) for prov in sorted(position.map.centers)]


def _proximity(board: _Board, attack: Mapping[str, int], defence: Mapping[str, int],
               attack_w: int, defence_w: int, depth: int) -> list[list[int]]:
    """proximity[n] by coast index: [0] from the attack and defence values, then each
    level spread from the one before (the larger coast only, for two in one province)."""
    base = [attack.get(p, 0) * attack_w + defence.get(p, 0) * defence_w for p in board.province]
    levels = [base]
    single, several = board.single, board.several
    for _ in range(1, depth):
        prev = levels[-1]
        get = prev.__getitem__
        cur = []
        for i, here in enumerate(prev):
            total = here + sum(map(get, single[i]))
            for group in several[i]:
                total += max(map(get, group))
            cur.append(total // 5)
        levels.append(cur)
    return levels


def _contest(position: Position, power: str, board: _Board) -> tuple[dict[str, int], dict[str, int]]:
    """Strength and competition: units in or next to each province (a unit counts once
    per coast of the province it can move to, as in the original)."""
    po = position.map.province_of
    count: dict[str, dict[str, int]] = {}
    for u in position.units:
        for prov in (po[u.location], *board.move_provinces[(u.kind, u.location)]):
            per = count.setdefault(prov, {})
            per[u.power] = per.get(u.power, 0) + 1
    strength = {prov: per.get(power, 0) for prov, per in count.items()}
    competition = {prov: max((n for p, n in per.items() if p != power), default=0)
                   for prov, per in count.items()}
    return strength, competition


def _tables(position: Position, power: str, weights: Weights) -> tuple:
    """Board, sizes, attack and defence values, proximity levels (by coast index),
    strength and competition: all the values before the destination values."""
    board = _board(position.map)
    sizes = power_sizes(position, weights)
    attack, defence = _center_values(position, power, sizes)
    levels = _proximity(board, attack, defence, *_season_weights(position, weights), weights.depth)
    strength, competition = _contest(position, power, board)
    return board, sizes, attack, defence, levels, strength, competition


def values(position: Position, power: str, weights: Weights = DEFAULT_WEIGHTS) -> Values:
    """DumbBot's values for ``power`` in ``position`` (any phase): sizes, attack and
    defence values, proximities, strength, competition and destination values."""
    board, sizes, attack, defence, levels, strength, competition = _tables(position, power, weights)
    if position.phase.kind == "adjustment":
        removing = position.adjustment(power) < 0
        prox_w = weights.remove_proximity if removing else weights.build_proximity
        def_w = weights.remove_defence if removing else weights.build_defence
        extra = [def_w * defence.get(p, 0) for p in board.province]
    else:
        prox_w = weights.fall_proximity if position.phase.season == "Fall" else weights.spring_proximity
        extra = [weights.strength * strength.get(p, 0) - weights.competition * competition.get(p, 0)
                 for p in board.province]
    destination = {c: sum(level[i] * w for level, w in zip(levels, prox_w)) + extra[i]
                   for i, c in enumerate(board.coasts)}
    proximity = tuple(dict(zip(board.coasts, level)) for level in levels)
    return Values(power, sizes, attack, defence, proximity, strength, competition, destination)


# -- choosing among ranked candidates ---------------------------------------------------------

def _c_div(a: int, b: int) -> int:
    """Integer division truncating toward zero, as C's ``/`` (values may be negative)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _pick(ranked: Sequence[tuple[int, T]], rng: random.Random, weights: Weights) -> int:
    """The index chosen among ``(value, candidate)`` pairs ranked best first: step to the
    next one with probability ``play_alternative`` % × (1 − gap × modifier / 100), the gap
    measured against the current value (50% − 2.5% per percent of gap, nothing from 20%),
    and keep stepping while the coin says so."""
    i = 0
    while i + 1 < len(ranked):
        here, there = ranked[i][0], ranked[i + 1][0]
        chance = 0 if here == 0 else _c_div((here - there) * weights.alternative_difference_modifier, here)
        if rng.randrange(100) < weights.play_alternative and rng.randrange(100) >= chance:
            i += 1
        else:
            break
    return i


def _ranked(pairs: list[tuple[int, T]], key, best_first: bool = True) -> list[tuple[int, T]]:
    """Sort by value (best first, or lowest first), ties in ``key`` order."""
    sign = -1 if best_first else 1
    return sorted(pairs, key=lambda vc: (sign * vc[0], key(vc[1])))


# -- orders -------------------------------------------------------------------------------------

def orders(position: Position, power: str, rng: random.Random,
           weights: Weights = DEFAULT_WEIGHTS) -> list[Order]:
    """DumbBot's orders for ``power`` in the position's phase (movement, retreat or
    adjustment); an empty list when it has nothing to order."""
    kind = position.phase.kind
    if kind == "movement":
        if not position.units_of(power):
            return []
        return movement_orders(position, power, rng, weights)
    if kind == "retreat":
        if not any(d.unit.power == power for d in position.dislodged):
            return []
        return retreat_orders(position, power, rng, weights)
    if position.adjustment(power) == 0:
        return []
    return adjustment_orders(position, power, rng, weights)


def movement_orders(position: Position, power: str, rng: random.Random,
                    weights: Weights = DEFAULT_WEIGHTS) -> list[Order]:
    """One order per unit of ``power``, chosen as the original does.

    The units are taken in a random order.  Each ranks the coasts it can move to by
    destination value, and its own coast at value + 1 (holding), and picks with
    `_pick`.  Then:

    * its own place: hold;
    * a place where one of our units stands that has no order yet: wait, and come back
      to this unit right after that one (unless that would close a circle of waits, or
      the unit has waited as many times as there are units: then the place is refused);
    * a place where one of our units stands and does not move: support it to hold if
      the competition there is above 1, else refuse the place;
    * a place one of our units already moves to: support that move if there is any
      competition, else refuse the place;
    * otherwise move there (an enemy unit there is simply attacked).

    A refused place is struck off and the unit picks again among the rest (holding is
    never refused).  Last, every unit left holding supports instead the most valuable
    neighbouring move with competition, or neighbouring hold with competition above 1,
    if one has a positive value.  No convoys.
    """
    vals = values(position, power, weights)
    value = vals.destination
    competition = vals.competition
    m = position.map
    po = m.province_of
    unit_in = position.unit_in
    board = _board(m)

    queue = sorted(position.units_of(power))
    rng.shuffle(queue)
    given: dict[Unit, Order] = {}
    moving_to: dict[str, Unit] = {}         # province -> our unit ordered to move there
    waits_for: dict[Unit, Unit] = {}
    waited: dict[Unit, int] = {}

    def may_wait(u: Unit, occupant: Unit) -> bool:
        """Not if the occupant waits, through others, for this unit (a circle), nor
        once a unit has waited as often as there are units (a guard: the queue always
        moves on)."""
        if waited.get(u, 0) >= len(queue):
            return False
        x: Unit | None = occupant
        while x is not None:
            if x == u:
                return False
            x = waits_for.get(x)
        return True

    while queue:
        u = queue[0]
        here = (u.kind, u.location)
        here_prov = po[u.location]
        cands = [(value[c], c) for group in board.moves[here] for c in group]
        cands.append((value[here] + 1, here))
        cands = _ranked(cands, key=lambda c: c[1])
        deferred = False
        while True:
            i = _pick(cands, rng, weights)
            dest = cands[i][1]
            prov = po[dest[1]]
            if prov == here_prov:
                given[u] = Hold(u.kind, u.location)
                break
            occupant = unit_in.get(prov)
            if occupant is not None and occupant.power == power:
                if occupant not in given:
                    if not may_wait(u, occupant):
                        del cands[i]
                        continue
                    # wait for it: play this unit again right after the occupant
                    waits_for[u] = occupant
                    waited[u] = waited.get(u, 0) + 1
                    queue.remove(u)
                    queue.insert(queue.index(occupant) + 1, u)
                    deferred = True
                    break
                if not isinstance(given[occupant], Move):
                    if competition.get(prov, 0) > 1:
                        given[u] = SupportHold(u.kind, u.location, occupant.kind, occupant.location)
                        break
                    del cands[i]
                    continue
            mover = moving_to.get(prov)
            if mover is not None:
                if competition.get(prov, 0) > 0:
                    given[u] = SupportMove(u.kind, u.location, mover.kind, mover.location, prov)
                    break
                del cands[i]
                continue
            given[u] = Move(u.kind, u.location, dest[1])
            moving_to[prov] = u
            break
        if not deferred:
            queue.pop(0)
            waits_for.pop(u, None)

    _use_wasted_holds(position, power, given, moving_to, vals, board)
    return [given[u] for u in sorted(given)]


def _use_wasted_holds(position: Position, power: str, given: dict[Unit, Order],
                      moving_to: dict[str, Unit], vals: Values, board: _Board) -> None:
    """Turn each hold into the most valuable support next to it (the original's
    ``check_for_wasted_holds``): of a move into a province with competition, or of one
    of our units not moving, in a province with competition above 1."""
    po = position.map.province_of
    unit_in = position.unit_in
    for u in sorted(given):
        if not isinstance(given[u], Hold):
            continue
        best = 0
        choice: SupportHold | SupportMove | None = None
        for group in board.moves[(u.kind, u.location)]:
            for c in group:
                prov = po[c[1]]
                v = vals.destination[c]
                if prov in moving_to:
                    if vals.competition.get(prov, 0) > 0 and v > best:
                        mover = moving_to[prov]
                        best, choice = v, SupportMove(u.kind, u.location, mover.kind, mover.location, prov)
                else:
                    held = unit_in.get(prov)
                    if (held is not None and held.power == power and not isinstance(given.get(held), Move)
                            and vals.competition.get(prov, 0) > 1 and v > best):
                        best, choice = v, SupportHold(u.kind, u.location, held.kind, held.location)
        if choice is not None:
            given[u] = choice


def retreat_orders(position: Position, power: str, rng: random.Random,
                   weights: Weights = DEFAULT_WEIGHTS) -> list[Order]:
    """A retreat or disband for each dislodged unit of ``power``: in a random order,
    each picks among its retreat options by destination value as a move does, never
    to a province another of ours retreats to; with nowhere left, it disbands."""
    vals = values(position, power, weights)
    po = position.map.province_of
    mine = [d for d in position.dislodged if d.unit.power == power]
    rng.shuffle(mine)
    taken: set[str] = set()
    out: list[Order] = []
    for d in mine:
        u = d.unit
        cands = _ranked([(vals.destination[(u.kind, loc)], loc) for loc in d.retreats], key=str)
        while cands:
            i = _pick(cands, rng, weights)
            loc = cands[i][1]
            if po[loc] in taken:
                del cands[i]
                continue
            taken.add(po[loc])
            out.append(Retreat(u.kind, u.location, loc))
            break
        else:
            out.append(Disband(u.kind, u.location))
    return out


def adjustment_orders(position: Position, power: str, rng: random.Random,
                      weights: Weights = DEFAULT_WEIGHTS) -> list[Order]:
    """Builds or removals for ``power``.

    Builds: every coast of every vacant owned home center (an army, or a fleet on each
    coast) ranked by winter value and picked as moves are; a chosen province's other
    coasts are struck off; builds left over for want of a place are waived.
    Removals: the units ranked from the lowest winter value of their place up, picked
    the same way (the original walks this list with the same formula, which for
    positive values makes each step up the list a plain 50% chance).
    """
    delta = position.adjustment(power)
    if delta == 0:
        return []
    vals = values(position, power, weights)
    value = vals.destination
    m = position.map
    out: list[Order] = []
    if delta > 0:
        cands: list[tuple[int, Coast]] = []
        for prov in position.buildable(power):
            cands += [(value[place], place) for place in m.unit_places(prov)]
        cands = _ranked(cands, key=lambda c: c)
        left = delta
        while cands and left:
            i = _pick(cands, rng, weights)
            kind, loc = cands[i][1]
            out.append(Build(kind, loc))
            prov = m.province_of[loc]
            cands = [vc for vc in cands if m.province_of[vc[1][1]] != prov]
            left -= 1
        out += [Waive() for _ in range(left)]
        return out
    units = _ranked([(value[(u.kind, u.location)], u) for u in position.units_of(power)],
                    key=lambda u: u, best_first=False)
    for _ in range(-delta):
        i = _pick(units, rng, weights)
        u = units.pop(i)[1]
        out.append(Disband(u.kind, u.location))
    return out
