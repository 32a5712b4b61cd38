"""One fresh movement phase through the compiled kernel: `dipsolve.core.adjudicator.adjudicate`'s fast path.

`dipsolve.core.fast_resolver` serves a search that judges many order sets over one
position: it matches the orders in Python once and resolves each set in the kernel.  A
fresh phase (a game played, a record re-adjudicated, a benchmark's phase) is matched
once and resolved once, so here the matching is in the kernel too
(`dipsolve.core.fast_kernel.adjudicate_movement`), fed with integers only:

- each unit as ``RANK << 12 | location`` from a table of the map (`MapTables.unit_code`,
  the unit a named tuple hashed in C);
- each order by the code it carries from when it was made (`dipsolve.core.orders.code`:
  no order is hashed), with its power's number;
- the map's tables (`MapTables`: where each unit moves and what it reaches, the coast a
  fleet's move fills in, terrains, the adjacency, each numbered place name's location),
  made once per map and kept in its memo.

The kernel's answer is read back through the map's table of units (`MapTables.unit_of`):
the units after the phase; the units dislodged, each with its retreats (sorted, as
`dipsolve.core.adjudicator.after_movement` gives them) or destroyed for want of one; the
standoffs; after a Fall phase without retreats, the centers that change hands and
whether a power must adjust.  The adjudicator makes the next position from them
(`dipsolve.core.adjudicator.next_position`, as the reference path does) and leaves the
per-order results to the reference, computed when first asked.  Anything the kernel does
not take (an order without a code: a move naming its route, a kind other than
``"A"``/``"F"``, an order copied or unpickled; an order that is no unit's, a waive; a unit
of a power without home centers on the map, or not on it; a map too large for the codes)
makes `movement` return None, and the reference adjudicates the phase.
``tests/test_fast_phase.py`` runs both paths on random positions with odd orders, every
DATC case, the benchmark's phases and the real records, and requires the same outcomes;
every other test of `adjudicate` (the peer cross-check among them) runs on this path once
the test session has loaded the kernel.
"""

from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np

from . import fast_kernel as k
from . import fast_resolver
from .map import Map
from .orders import NAMES, Order, number_name
from .position import Dislodged, Position, Unit, unit

__all__ = ["MapTables", "movement", "tables"]

#: the shift of an order's power number (its index + 1) in the kernel's order code
_POWER_SHIFT = 42


class MapTables:
    """A map's tables for `dipsolve.core.fast_kernel.adjudicate_movement` (see there),
    and the tables that turn units into codes and codes into units."""

    __slots__ = ("grid", "lt", "nb", "nloc", "nprov", "names_seen", "unit_code", "unit_of",
                 "power_code", "center_code", "provinces", "locations", "location", "powers", "ws",
                 "usable")

    def __init__(self, m: Map) -> None:
        index = fast_resolver.map_index(m)
        provinces, locations = index.provinces, index.locations
        P, L = index.province, index.location
        nprov, nloc = self.nprov, self.nloc = len(provinces), len(locations)
        self.provinces, self.locations, self.location, self.nb = provinces, locations, L, index.nb
        #: whether the kernel can take this map (its codes hold 4,095 places, 63 powers);
        #: a map it cannot take gets empty tables, and `movement` leaves it to the reference
        self.usable = nloc < k.LOCATIONS and nprov < k.LOCATIONS and len(m.powers) < k._POWERS
        if not self.usable:
            nloc = nprov = 0
        grid = np.zeros((2 * nloc, nloc + 2 * nprov), np.int64)
        grid[:, nloc + nprov:] = -1
        for k_i, kind in enumerate(("A", "F") if self.usable else ()):
            for loc, (_, moves, reach, _) in m.unit_table[kind].items():
                r = k_i * nloc + L[loc]
                for d in moves:
                    grid[r, L[d]] = 1
                for p in reach:
                    grid[r, nloc + P[p]] = 1
                if kind == "F":
                    for p, prov in m.provinces.items():
                        if prov.coasts:
                            coasts = [c for c in m.fleet_locations.get(p, ()) if c in moves]
                            if len(coasts) == 1:
                                grid[r, nloc + nprov + P[p]] = L[coasts[0]]
        self.grid = grid
        po = m.province_of
        lt = np.full(nloc + 2 * nprov + 4096, -1, np.int64)
        for loc, i in L.items():
            if i >= 0 and self.usable:
                lt[i] = P[po.get(loc, loc)]
        terrains = {"land": k._LAND, "coast": k._COAST, "sea": k._SEA}
        home = {h: index.power[power] for power, hs in m.homes.items() if power in index.power
                for h in hs}
        for p, i in P.items():
            if i >= 0 and self.usable:
                prov = m.provinces[p]
                lt[nloc + i] = (terrains[prov.terrain] | (k._COASTS if prov.coasts else 0)
                                | (k._CENTER if p in m.centers else 0)
                                | (home.get(p, -1) + 1) << k._HOME)
                lt[nloc + nprov + i] = L[p]
        self.lt = lt
        self.names_seen = 0
        if self.usable:
            for name in locations:      # the map's own names numbered first (`NAMES` is
                number_name(name)       # bounded: odd names met earlier cannot crowd them out)
            self.refresh()
        else:
            self.names_seen = -1          # never equal to len(NAMES): see `movement`
        #: unit -> ``RANK << 12 | location`` (filled as units are met)
        self.unit_code: dict[Unit, int] = {}
        #: the powers by number
        self.powers = sorted(index.power, key=index.power.__getitem__)
        #: ``RANK << 12 | location`` -> the unit (the shared `Unit`)
        self.unit_of = _UnitOf(self.powers, locations)
        #: power -> its number in the kernel's order codes
        self.power_code = {p: (i + 1) << _POWER_SHIFT for p, i in index.power.items()}
        #: (center, owner) -> ``(power + 1) << 12 | province`` (an owner of the map's powers)
        self.center_code = {(c, power): (i + 1) << 12 | P[c]
                            for c in m.centers for power, i in index.power.items()}
        #: the kernel's scratch memory, by number of units: each taken from its list for
        #: a call and put back after it (so that threads never share one), made when the
        #: list is empty
        self.ws: dict[int, list[np.ndarray]] = {}

    def refresh(self) -> None:
        """Number the place names orders have named since the last call
        (`dipsolve.core.orders.NAMES`) with this map's locations."""
        L, lt, base = self.location, self.lt, self.nloc + 2 * self.nprov
        for name, i in NAMES.items():
            if i > self.names_seen:
                lt[base + i] = L.get(name, -1)
        self.names_seen = len(NAMES)

    def code_of(self, u: Unit, m: Map) -> int | None:
        """A unit's code (``RANK << 12 | location``), None for a unit the kernel does not
        take (a power without home centers on the map, a place not on it)."""
        index = fast_resolver.map_index(m)
        power, loc = index.power.get(u.power), index.location.get(u.location)
        kind = {"A": 0, "F": 1}.get(u.kind)
        if power is None or loc is None or loc < 0 or kind is None:
            return None
        if m.province_of.get(u.location) is None:
            return None
        code = self.unit_code[u] = (power * 2 + kind) << 12 | loc
        return code


class _UnitOf(dict):
    """``RANK << 12 | location`` -> the shared `Unit`, made on first asking."""

    def __init__(self, powers: list[str], locations: list[str]) -> None:
        super().__init__()
        self.powers, self.locations = powers, locations

    def __missing__(self, code: int) -> Unit:
        rank = code >> 12
        u = self[code] = unit(self.powers[rank >> 1], "AF"[rank & 1], self.locations[code & 0xFFF])
        return u


def tables(m: Map) -> MapTables:
    """The map's `MapTables`, made on first use and kept in its memo."""
    t = m.memo.get("fast.phase")
    if t is None:
        t = m.memo["fast.phase"] = MapTables(m)
    return t


#: what `movement` returns: the units after the phase (dislodged ones left out, canonical
#: order), the units dislodged with their retreats, the units destroyed for want of one,
#: the standoff provinces (sorted), after a Fall phase without retreats the centers that
#: change hands and whether a power adjusts (else None), and the orders as read
Moved = tuple[tuple[Unit, ...], tuple[Dislodged, ...], tuple[Unit, ...], tuple[str, ...],
              "tuple[dict[str, str], bool] | None", dict[str, tuple[Order, ...]]]


def movement(position: Position, orders: Mapping[str, Iterable[Order]]) -> Moved | None:
    """A fresh movement phase adjudicated by the kernel (`Moved`); None when the reference
    must take the phase (see the module notes), or the compiled path is off or not loaded
    (`dipsolve.core.fast_resolver.ready`)."""
    if not fast_resolver.ready():
        return None
    kernel = k.matcher()
    units = position.units
    n = len(units)
    if not n:
        return None
    m = position.map
    t = m.memo.get("fast.phase")
    if t is None:
        t = tables(m)
    if t.names_seen != len(NAMES):
        if not t.usable:
            return None
        t.refresh()
    ucode = t.unit_code
    fall = position.phase.season == "Fall"
    centers = position.centers
    try:
        data = [n, len(centers) if fall else -1, *map(ucode.__getitem__, units)]
        if fall:
            data += map(t.center_code.__getitem__, centers)
    except KeyError:              # a unit met for the first time, or a stranger's center
        codes = [ucode[u] if u in ucode else t.code_of(u, m) for u in units]
        if None in codes or (fall and not all(c in t.center_code for c in centers)):
            return None
        data = [n, len(centers) if fall else -1, *codes]
        if fall:
            data += map(t.center_code.__getitem__, centers)
    power_code = t.power_code
    given = dict(zip(orders, map(tuple, orders.values())))
    try:
        data += [o._code | pc for power, os in given.items()          # type: ignore[attr-defined]
                 if (pc := power_code.get(power)) is not None for o in os]
    except AttributeError:        # an order that is no unit's (a waive)
        return None
    spare = t.ws.get(n)
    if spare is None:
        spare = t.ws[n] = []
    ws = spare.pop() if spare else k.workspace(n, t.nprov)
    length = kernel(np.array(data, np.int64), t.grid, t.lt, t.nb, ws)
    out = ws[:length].tolist()
    spare.append(ws)
    if not length:
        return None
    d = 2 + out[1]
    s = d + 1 + 3 * out[d]
    u = s + 1 + out[s]
    end = u + 1 + out[u]
    new_units = tuple(map(t.unit_of.__getitem__, out[u + 1:end]))
    if out[d]:
        provinces, locations = t.provinces, t.locations
        dislodged: list[Dislodged] = []
        destroyed: list[Unit] = []
        q = end
        while q < length:
            i, origin, count = out[q], out[q + 1], out[q + 2]
            if count:
                dislodged.append(Dislodged(units[i], provinces[origin] if origin >= 0 else None,
                                           tuple(map(locations.__getitem__, out[q + 3:q + 3 + count]))))
            else:
                destroyed.append(units[i])
            q += 3 + count
        return (new_units, tuple(dislodged), tuple(destroyed),
                tuple(map(provinces.__getitem__, out[s + 1:u])), None, given)
    if not fall:
        return new_units, (), (), (), None, given
    changes = {t.provinces[out[q]]: t.powers[out[q + 1]] for q in range(end + 2, length, 2)}
    return new_units, (), (), (), (changes, out[end] != 0), given
