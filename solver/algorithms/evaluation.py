"""Position evaluation: how good a position is for one power, as one number.

The searches of `dipsolve.search` compare the positions their order sets lead to with
these functions, so they are static (they look at the board, never at orders) and fast
(every table derived from a position is kept in `Position.memo`).

``influence`` — the "mountain" of Hall & Loeb, *Thoughts on programming a diplomat*
(seed ``002_…``, section 4.1).  Each power values every province (its *altitude*; a
values file per power, `load_values`, or the defaults of ``data/values.tsv``).  A power
controls a province its unit stands in; an empty province is shared among the units
nearest to it, counting each unit's distance by its own type (an army never reaches a
sea; the distances are computed once from the map and ignore convoys, as the seed's
footnote 7 says), one share per unit.  The evaluation is the sum of the values of what
the power controls, plus 100 for every supply center it owns and 50 for every other
center it occupies while ownership is still open (after Spring moves).  With the seed's
Turkish values this gives exactly the seed's 815 for the 1901 start (section 4.2).

Ownership is judged when it will be settled: in a Fall retreat phase (the position Fall
moves lead to when someone was dislodged) a center already belongs to the unit standing
in it, as it will once the retreats are made.

One of section 4.3's refinements is an option, off by default so that the plain model of
4.1 is what ``influence`` computes unless asked:

``raid_dilution``
    4.3.2's limited raiding: a unit's share of the foreign and neutral empty centers it
    is nearest to is divided by how many of them there are (a raider takes one a year).

Four others were options once, measured in play and not kept (their figures are in
docs/strength.md): centers worth more in a Fall movement position (4.3.7), owned empty
home centers exerting control (4.3.2), partial control of enemy-held provinces next to
the power's units (4.3.2), and a pull toward the front (4.3.3).

``centers`` — the supply centers a power owns (or will own once a Fall retreat phase
is over): the plain count that the adjustment phase turns into units.

``evaluator(name)`` returns either by name, for the searches and the command line.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from ..core.bounds import check_float
from ..core.errors import DipsolveSyntaxError
from ..core.names import unknown_power
from ..core.graph import distances, rings, steps
from ..core.map import Map
from ..core.position import Position, Unit, centers, owned_centers
from ..core.results import Deadline

Evaluation = Callable[[Position, str], float]

_FAR = 10 ** 6


# -- province values ----------------------------------------------------------------------

class ValuesError(DipsolveSyntaxError):
    """A mistake in a province values file, at ``file:line:col``."""

    def __init__(self, filename: str, line: int, column: int, message: str) -> None:
        super().__init__(message, filename=filename, line=line, column=column)


@dataclass(frozen=True)
class ProvinceValues:
    """A values file: the province values of one power (``power`` None: whoever is
    being solved for).  Provinces the file leaves out are worth ``default``."""

    values: Mapping[str, float]
    power: str | None = None
    default: float = 0.0

    def __post_init__(self) -> None:
        # every value finite and bounded (`dipsolve.bounds`): a NaN or an infinity would
        # make every sum the search compares equal to nothing
        for province, value in self.values.items():
            check_float(value, f"the value of {province}", "max_value")
        check_float(self.default, "the default value", "max_value")

    def table(self, game_map: Map) -> dict[str, float]:
        """Province -> value for every province of the map."""
        return {p: float(self.values.get(p, self.default)) for p in game_map.provinces}


@cache
def _values_file() -> tuple[list[str], dict[str, dict[str, float]]]:
    """The package's ``data/values.tsv``: its power columns and power -> province -> value."""
    data = resources.files("dipsolve") / "data" / "values.tsv"
    with data.open(encoding="utf-8") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        powers = [f for f in rows.fieldnames or () if f != "province"]
        table: dict[str, dict[str, float]] = {p: {} for p in powers}
        for row in rows:
            for power in powers:
                table[power][row["province"]] = float(row[power])
    return powers, table


def default_values(game_map: Map | None = None) -> dict[str, dict[str, float]]:
    """Power -> province -> value on ``game_map`` (the standard map when none is given):
    the package's ``data/values.tsv`` for the map it was written for (the standard
    map: its powers and provinces), else `mountain` on each power's home centers.

    The table was made from one rule, then left to be tuned by hand: a power's home
    centers are worth 100; another supply center 90 − 10 per step (any unit type) from
    the power's nearest home center, at least 30; any other province 60 − 10 per step,
    at least 10 — Hall & Loeb's mountain with its peak on the power's homeland.
    """
    from ..core.map import standard_map
    m = game_map or standard_map()
    table = m.memo.get("evaluation.default_values")
    if table is None:
        powers, written = _values_file()
        if list(m.powers) == powers and all(set(written[p]) == set(m.provinces) for p in powers):
            table = written
        else:
            table = {p: mountain(m, m.homes.get(p, ())) for p in m.powers}
        m.memo["evaluation.default_values"] = table
    return table


def mountain(game_map: Map, peaks: Iterable[str], centers: Iterable[str] = ()) -> dict[str, float]:
    """Hall & Loeb's mountain by the rule ``data/values.tsv`` was made with, peaking on
    ``peaks`` (a power's home centers there): ``centers`` (and the peaks) are worth 100;
    another supply center 90 − 10 per step (any unit type) from the nearest peak, at
    least 30; any other province 60 − 10 per step, at least 10.

    With a power's *owned* centers as peaks, the mountain moves with the power as it
    grows (`moving_values`)."""
    top = set(centers) | set(peaks)
    dist = steps(game_map, peaks)
    out = {}
    for p in game_map.provinces:
        d = dist.get(p, 99)
        if p in top:
            out[p] = 100.0
        elif p in game_map.centers:
            out[p] = float(max(30, 90 - 10 * d))
        else:
            out[p] = float(max(10, 60 - 10 * d))
    return out


def moving_values(position: Position, power: str) -> dict[str, float]:
    """The mountain of `mountain` peaking on the centers ``power`` owns now (its home
    centers when it owns none): the values follow the front as the power grows (4.3.3)."""
    owned = position.centers_of(power) or sorted(position.map.homes.get(power, ()))
    return mountain(position.map, owned)


def values_for(power: str, game_map: Map, values: Mapping[str, float] | ProvinceValues | None = None
               ) -> dict[str, float]:
    """Province -> value for ``power``: ``values`` when given, else the defaults."""
    if values is None:
        base = default_values(game_map).get(power, {})
        return {p: base.get(p, 0.0) for p in game_map.provinces}
    if isinstance(values, ProvinceValues):
        return values.table(game_map)
    return {p: float(values.get(p, 0.0)) for p in game_map.provinces}


def parse_values(text: str, filename: str = "<string>", game_map: Map | None = None) -> ProvinceValues:
    """Read a values file: one ``PROVINCE VALUE`` a line (any spelling of the province;
    ``:`` or ``=`` may stand between), ``#`` comments, and optionally ``power: NAME``
    (whose values these are) and ``default: N`` (the value of provinces not listed).

        # Turkey's values of Hall & Loeb, section 4.2
        power: Turkey
        Constantinople 100
        Black Sea: 60
    """
    from ..core.map import standard_map
    m = game_map or standard_map()
    values: dict[str, float] = {}
    power: str | None = None
    default = 0.0
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        col = len(line) - len(line.lstrip()) + 1
        body = line.strip()
        for sep in (":", "="):
            if sep in body:
                name, _, number = body.partition(sep)
                break
        else:
            name, _, number = body.rpartition(" ")
            if not name:
                raise ValuesError(filename, n, col, f"found {body!r}, expected 'PROVINCE VALUE'")
        name, number = name.strip(), number.strip()
        key = name.lower()
        if key == "power":
            power = m.power(number)
            if power is None:
                raise ValuesError(filename, n, raw.index(number) + 1,
                                  f"unknown power {number!r} (expected one of {', '.join(m.powers)})")
            continue
        where = raw.find(number) + 1 if number else len(raw) + 1
        try:
            value = float(number)
        except ValueError:
            raise ValuesError(filename, n, where, f"found {number or 'end of line'!r}, expected a number") from None
        check_float(value, "value", "max_value", shown=number, filename=filename, line=n,
                    column=where, source_line=raw, width=len(number))
        if key == "default":
            default = value
            continue
        prov = m.province(name)
        if prov is None:
            raise ValuesError(filename, n, col, f"unknown province {name!r}, expected a province name")
        if prov in values:
            raise ValuesError(filename, n, col, f"{prov} is given a value twice")
        values[prov] = value
    return ProvinceValues(values, power, default)


def load_values(path: str | Path, game_map: Map | None = None) -> ProvinceValues:
    """A values file from disk (see `parse_values`)."""
    from ..core.bounds import read_input
    return parse_values(read_input(path), str(path), game_map)


# -- the influence model ------------------------------------------------------------------
# distances (fewest moves of a unit, convoys not counted: seed, footnote 7) and rings (the
# same by level: the nearest-unit race of `control` runs level by level on these with set
# operations) are `dipsolve.graph`'s, computed once per map


@dataclass(frozen=True)
class Source:
    """Something that exerts control: a unit, or a dislodged unit (one step behind its
    retreats)."""

    power: str
    #: provinces at distance 0, 1, 2, …
    rings: tuple[frozenset[str], ...]


def _merged(parts: list[tuple[tuple[frozenset[str], ...], int]]) -> tuple[frozenset[str], ...]:
    """The rings of a source that starts from several places, each ``offset`` moves late."""
    levels: dict[int, set[str]] = {}
    for rs, offset in parts:
        for d, ring in enumerate(rs):
            levels.setdefault(d + offset, set()).update(ring)
    out: list[frozenset[str]] = []
    seen: set[str] = set()
    for d in range(max(levels) + 1 if levels else 0):
        fresh = levels.get(d, set()) - seen
        seen |= fresh
        out.append(frozenset(fresh))
    return tuple(out)


def _sources(position: Position) -> list[Source]:
    m = position.map
    out = [Source(u.power, rings(m, u.kind, u.location)) for u in position.units]
    for d in position.dislodged:
        if d.retreats:
            out.append(Source(d.unit.power, _merged([(rings(m, d.unit.kind, r), 1) for r in d.retreats])))
    return out


def control(position: Position, *, raid_dilution: bool = False) -> dict[str, dict[str, float]]:
    """Province -> power -> the share of control it has (shares of a province sum to 1,
    or to less under ``raid_dilution``; a province nobody can reach is absent).

    The race is run level by level: at distance 0, 1, 2, … every source claims the
    still unclaimed provinces of its ring; a province claimed at a level is shared by
    every source that claimed it there.  Kept in ``position.memo``: the table serves
    every power and every values file.
    """
    key = ("control", raid_dilution)
    memo = position.memo
    table = memo.get(key)
    if table is not None:
        return table
    m = position.map
    occupied = position.unit_in
    sources = _sources(position)
    table = {p: {u.power: 1.0} for p, u in occupied.items()}
    open_ = set(m.provinces) - occupied.keys()
    nearest_of: dict[str, list[int]] = {}
    level = 0
    while open_:
        found: dict[str, list[int]] = {}
        any_ring = False
        for i, s in enumerate(sources):
            rs = s.rings
            if level < len(rs):
                any_ring = True
                for p in rs[level] & open_:
                    found.setdefault(p, []).append(i)
        if not any_ring:
            break
        open_ -= found.keys()
        nearest_of.update(found)
        level += 1
    if raid_dilution:
        # a unit nearest to several foreign or neutral empty centers can take one a year
        owner = position.owner
        raided: dict[int, int] = {}
        for p, near in nearest_of.items():
            if p in m.centers:
                for i in near:
                    if owner.get(p) != sources[i].power:
                        raided[i] = raided.get(i, 0) + 1
    for p, near in nearest_of.items():
        shares: dict[str, float] = {}
        each = 1.0 / len(near)
        for i in near:
            w = each
            if raid_dilution and p in m.centers and position.owner.get(p) != sources[i].power:
                w /= raided[i]
            shares[sources[i].power] = shares.get(sources[i].power, 0.0) + w
        table[p] = shares
    memo[key] = table
    return table


def _ownership_open(position: Position) -> bool:
    """Whether occupying a center does not yet make it one's own (Spring moves done,
    Fall moves to come): the phases in which the seed's +50 for an occupied center applies."""
    ph = position.phase
    return (ph.season == "Spring") or (ph.season == "Fall" and ph.kind == "movement")


_VALUE_TABLES: dict[tuple[int, str, int], tuple[object, dict[str, float], np.ndarray]] = {}


def _values(game_map: Map, power: str, values) -> tuple[object, dict[str, float], np.ndarray]:
    """`values_for`, as a table and as a vector in `_Grid` order, kept for the values
    object it was made from (a search judges thousands of positions with the same
    values)."""
    key = (id(game_map), power, id(values))
    hit = _VALUE_TABLES.get(key)
    if hit is None or hit[0] is not values:
        if len(_VALUE_TABLES) > 256:
            _VALUE_TABLES.clear()
        table = values_for(power, game_map, values)
        vector = np.array([table[p] for p in _grid(game_map).provinces])
        hit = _VALUE_TABLES[key] = (values, table, vector)
    return hit


def _value_table(game_map: Map, power: str, values) -> dict[str, float]:
    return _values(game_map, power, values)[1]


def _value_vector(game_map: Map, power: str, values) -> np.ndarray:
    return _values(game_map, power, values)[2]


class _Grid:
    """A map's provinces in a fixed order and every unit location's distances as a row
    of one matrix (for `_shares`): the nearest-unit race of `control` as array
    operations."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        self.provinces = sorted(game_map.provinces)
        self.index = {p: k for k, p in enumerate(self.provinces)}
        places = ([("A", loc) for loc in sorted(game_map.army_moves)]
                  + [("F", loc) for loc in sorted(game_map.fleet_moves)])
        self.row_of = {place: k for k, place in enumerate(places)}
        self.dist = np.full((len(places), len(self.provinces)), _FAR, dtype=np.int64)
        for k, (kind, loc) in enumerate(places):
            for p, d in distances(game_map, kind, loc).items():
                self.dist[k, self.index[p]] = d


_GRIDS: dict[int, _Grid] = {}


def _grid(game_map: Map) -> _Grid:
    g = _GRIDS.get(id(game_map))
    if g is None or g.map is not game_map:
        g = _GRIDS[id(game_map)] = _Grid(game_map)
    return g


def _shares(position: Position) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`control` without ``raid_dilution``, as arrays (kept in ``position.memo``): which
    source is nearest to which province (sources × provinces, in `_Grid` order), how
    many sources share each province, and each source's power."""
    memo = position.memo
    out = memo.get("control shares")
    if out is not None:
        return out
    g = _grid(position.map)
    row_of = g.row_of
    powers = [u.power for u in position.units]
    dist = g.dist[[row_of[(u.kind, u.location)] for u in position.units]]
    retreating = [d for d in position.dislodged if d.retreats]
    if retreating:
        extra = [g.dist[[row_of[(d.unit.kind, r)] for r in d.retreats]].min(axis=0) + 1
                 for d in retreating]
        dist = np.vstack([dist] + extra)
        powers += [d.unit.power for d in retreating]
    near = dist == dist.min(axis=0)
    near &= dist < _FAR
    count = near.sum(axis=0)
    count[count == 0] = 1
    out = memo["control shares"] = (near, count, powers)
    return out


def _control_value(position: Position, power: str, vector: np.ndarray,
                   allies: Mapping[str, float] | None = None) -> float:
    """Sum over provinces of ``vector`` × ``power``'s share of control (and each ally's
    share times its weight in ``allies``)."""
    if not position.units and not position.dislodged:
        return 0.0
    near, count, powers = _shares(position)
    if allies:
        weight = np.array([1.0 if p == power else float(allies.get(p, 0.0)) for p in powers])
        if not weight.any():
            return 0.0
        return float((vector / count) @ (weight @ near))
    mine = np.fromiter((p == power for p in powers), dtype=bool, count=len(powers))
    if not mine.any():
        return 0.0
    return float((vector / count) @ near[mine].sum(axis=0))


class InfluenceBatch:
    """`influence` (default values, none of 4.3's refinements) of many positions at
    once: the same model, as array operations over a batch (for the adjustment game of
    `dipsolve.models.equilibria`, which values thousands of positions that differ only
    in a few builds and removals).

    The positions share ``position``'s map, phase and center owners and differ in which
    of ``units`` stand on the board: a position is a row of a boolean mask over
    ``units``.  Each unit has a row of distances (`_Grid`); an occupied province belongs
    to its occupant, an empty one is shared by the present units nearest to it (one
    share each; unreachable: nobody's); then the power's province values, +100 per
    owned center and +50 per center it occupies but does not own while ownership is
    open.  The values agree with `influence`'s up to the order of the floating-point
    sums (about 1e-13).

        >>> from dipsolve.core.map import standard_map
        >>> from dipsolve.core.position import Phase
        >>> m = standard_map()
        >>> units = [Unit("Turkey", "F", "ANK"), Unit("Turkey", "A", "CON"),
        ...          Unit("Russia", "F", "SEV")]
        >>> pos = Position.build(Phase("Spring", 1901, "movement"), units, {}, game_map=m)
        >>> batch = InfluenceBatch(pos, units)
        >>> masks = np.array([[True, True, True], [True, True, False]])
        >>> fast = batch.values(masks, "Turkey")
        >>> alone = Position.build(pos.phase, units[:2], {}, game_map=m)
        >>> [round(float(v), 9) for v in fast] == [round(influence(pos, "Turkey"), 9),
        ...                                         round(influence(alone, "Turkey"), 9)]
        True
    """

    #: positions valued together (the batch's arrays are rows x units x provinces)
    CHUNK = 256

    def __init__(self, position: Position, units: Sequence[Unit]) -> None:
        m = position.map
        g = _grid(m)
        po = m.province_of
        self.units = tuple(units)
        self.far = np.int32(_FAR)
        self.dist = g.dist[[g.row_of[(u.kind, u.location)] for u in self.units]].astype(np.int32)
        self.powers = sorted({u.power for u in self.units})
        self.power_of = np.array([self.powers.index(u.power) for u in self.units], dtype=np.int64)
        self.province = np.array([g.index[po[u.location]] for u in self.units], dtype=np.int64)
        self._map = m
        self._owners = owned_centers(position)
        self._open = _ownership_open(position)
        self._provinces = g.provinces
        self._tables: dict[str, tuple[np.ndarray, float, np.ndarray]] = {}

    def power_tables(self, power: str) -> tuple[np.ndarray, float, np.ndarray]:
        """The power's province values, its owned centers' bonus, and the occupation
        bonus of each province (in `_Grid` order)."""
        t = self._tables.get(power)
        if t is None:
            m, owners = self._map, self._owners
            v = values_for(power, m, None)
            vals = np.array([v[q] for q in self._provinces])
            const = 100.0 * sum(1 for o in owners.values() if o == power)
            bonus = np.array([50.0 if self._open and q in m.centers and owners.get(q) != power
                              else 0.0 for q in self._provinces])
            t = self._tables[power] = (vals, const, bonus)
        return t

    def values(self, masks: np.ndarray, power: str, deadline: Deadline | None = None) -> np.ndarray:
        """The power's value of each position given by a row of ``masks`` (positions x
        units), `CHUNK` rows at a time; raises `dipsolve.results.TimeUp` between
        chunks once ``deadline`` has passed."""
        out = np.empty(len(masks))
        for s in range(0, len(masks), self.CHUNK):
            if deadline is not None:
                deadline.check()
            out[s:s + self.CHUNK] = self._values(masks[s:s + self.CHUNK], power)
        return out

    def _values(self, masks: np.ndarray, power: str) -> np.ndarray:
        vals, const, bonus = self.power_tables(power)
        me = self.power_of == (self.powers.index(power) if power in self.powers else -1)
        d = np.where(masks[:, :, None], self.dist[None, :, :], self.far)     # R x U x P
        nearest = d.min(axis=1)                                              # R x P
        near = (d == nearest[:, None, :]) & (nearest < self.far)[:, None, :]
        count = near.sum(axis=1)
        mine = near[:, me, :].sum(axis=1)
        share = np.where(count > 0, mine / np.maximum(count, 1), 0.0)
        occupied = np.zeros(share.shape, bool)
        occupied_mine = np.zeros(share.shape, bool)
        r, k = np.nonzero(masks)
        occupied[r, self.province[k]] = True
        sel = me[k]
        occupied_mine[r[sel], self.province[k[sel]]] = True
        share = np.where(occupied, occupied_mine.astype(float), share)
        return share @ vals + occupied_mine @ bonus + const


def influence(position: Position, power: str,
              values: Mapping[str, float] | ProvinceValues | None = None, *,
              center_bonus: float = 100.0, occupied_bonus: float = 50.0,
              raid_dilution: bool = False, allies: Mapping[str, float] | None = None) -> float:
    """The influence evaluation of Hall & Loeb 4.1 for ``power`` (see the module notes).

    ``values``: province -> value for this power (a mapping or a `ProvinceValues`);
    None takes the power's defaults.  ``raid_dilution`` is 4.3.2's limited raiding.
    ``allies``: power -> a weight from 0 to 1: the control an ally's units have counts
    for ``power`` times its weight (a negotiating seat's trust in the ally,
    `dipsolve.agreements.Trust`), as if its units were the power's own in that
    proportion; its centres and units stay its own.  An ally the map does not know is
    refused (`DipsolveSyntaxError`), not counted as nobody.
    """
    m = position.map
    for ally in allies or ():
        if ally not in m.powers:
            raise DipsolveSyntaxError(f"allies: {unknown_power(str(ally), m)}", found=str(ally),
                                      expected="a power of the map")
    if raid_dilution:
        vals = _value_table(m, power, values)
        shares = control(position, raid_dilution=raid_dilution)
        weight = {power: 1.0, **{p: float(w) for p, w in (allies or {}).items() if p != power}}
        total = 0.0
        for p, share in shares.items():
            for who, s in share.items():
                if s and weight.get(who):
                    total += vals[p] * s * weight[who]
    else:
        # the same sum, as arrays (`_shares`): the searches judge thousands of positions
        total = _control_value(position, power, _value_vector(m, power, values),
                               {p: w for p, w in allies.items() if p != power} if allies else None)
    owners = owned_centers(position)
    total += center_bonus * sum(1 for o in owners.values() if o == power)
    if occupied_bonus and _ownership_open(position):
        for p, u in position.unit_in.items():
            if u.power == power and p in m.centers and owners.get(p) != power:
                total += occupied_bonus
    return total


def evaluator(name: str, values: Mapping[str, Mapping[str, float] | ProvinceValues] | None = None,
              allies: Mapping[str, Mapping[str, float]] | None = None, **options) -> Evaluation:
    """An evaluation function ``(position, power) -> float`` by name.

    ``"influence"``: `influence` with the default values, or ``values[power]`` where
    given (power -> values), its allies ``allies[power]`` where given (power -> ally ->
    weight), and any of its options; ``"centers"``: `centers`.  DumbBot's
    province values as an evaluation were measured in play and not kept
    (docs/strength.md).
    """
    if name == "influence":
        if not values and not options and not allies:
            return influence
        per_power = dict(values or {})
        friends = {p: dict(w) for p, w in (allies or {}).items()}

        def evaluate(position: Position, power: str) -> float:
            return influence(position, power, per_power.get(power), allies=friends.get(power), **options)
        return evaluate
    if name == "centers":
        return centers
    raise DipsolveSyntaxError(f"unknown evaluation {name!r} (expected one of {', '.join(EVALUATORS)})")


EVALUATORS = ("influence", "centers")

