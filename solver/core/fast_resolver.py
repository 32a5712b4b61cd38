"""Matched movement orders as integer arrays, resolved by the compiled kernel (`dipsolve.core.fast_kernel`).

`dipsolve.core.resolver.Resolver` matches orders to units as the adjudicator does
(`dipsolve.core.rules.match_movement`); this module turns its fixed orders into one
``int64`` array (`encode`, once a resolver) and each order of a set into one int
(`column`, once per distinct order), runs the kernel in a `Workspace` (its scratch memory
allocated once a resolver) and reads its answer back into the board's own objects
(`Resolved`, each part when first asked).  The reference adjudicator stays the
definition: the tests run both on random positions and every DATC case and require the
same units, dislodgements and outcomes.  `adjudicate` takes a fresh phase through
`dipsolve.core.fast_phase` instead (the matching in the kernel too): for one phase,
matching in Python and turning the matching into arrays costs what the kernel saves
(BENCHMARKS.md, issue 26).

The kernel is compiled by numba, the optional extra ``dipsolve[fast]``
(``pip install 'dipsolve[fast]'``), once, and cached on disk (``cache=True``: the first
call of a fresh install compiles it, 10 to 40 s on a shared two-core machine; later
processes load it in 0.3 to 1.6 s, numba's import included, BENCHMARKS.md).  numba is
imported by `dipsolve.core.fast_kernel.warm`, never by ``import dipsolve``, and a
`Resolver` takes the compiled path by itself only once the kernel is loaded in the
process (`ready`): a search with a time limit never waits for numba.  Without numba (or with
``DIPSOLVE_NO_NUMBA=1`` in the environment) `available()` is false and every caller
takes the reference path, with the same answers.
"""

from __future__ import annotations

import numpy as np

from . import fast_kernel as k
from .map import Map
from .position import UNITS, Position, Unit, unit
from .rules import Matching

__all__ = ["MapIndex", "Resolved", "Workspace", "available", "column", "encode", "map_index",
           "pack", "workspace", "why_not"]

#: the callers' switch (tests and benchmarks turn the compiled path off to compare)
_enabled = k.numba_installed()


def available() -> bool:
    """Whether the compiled path is in use: numba is installed (it is imported, and the
    kernel compiled or loaded from its cache, on the first `run`) and not switched off."""
    return _enabled


def ready() -> bool:
    """Whether a `Resolver` takes the compiled path by itself: `available`, and the
    kernel compiled or loaded in this process (`dipsolve.core.fast_kernel.warm`)."""
    return _enabled and k.ready()


def set_enabled(on: bool) -> bool:
    """Use the compiled path (when numba is installed) or not; returns the previous setting."""
    global _enabled
    before = _enabled
    _enabled = bool(on) and k.numba_installed() and not k.why_not
    return before


def why_not() -> str:
    """Why the compiled path is not in use ("" when it is)."""
    if k.why_not:
        return k.why_not
    if not k.numba_installed():
        return "numba is not available (not installed); pip install 'dipsolve[fast]' adds it"
    return "" if _enabled else "switched off (dipsolve.core.fast_resolver.set_enabled)"


class MapIndex:
    """A map's integer indices, built once per map (``Map.memo``): provinces and
    locations numbered, powers numbered, and the adjacency matrix of provinces."""

    __slots__ = ("provinces", "province", "location", "locations", "power", "nb", "units")

    def __init__(self, m: Map) -> None:
        provinces = self.provinces = sorted(m.provinces)
        self.province = {p: i for i, p in enumerate(provinces)}
        self.province[""] = -1
        self.locations = sorted(set(m.province_of) | set(m.provinces))
        self.location = {loc: i for i, loc in enumerate(self.locations)}
        self.location[""] = -1
        #: power -> its place in the order of their names (the canonical order of units)
        self.power = {p: i for i, p in enumerate(sorted(m.powers))}
        #: unit -> its column of the kernel's array, unordered (`unit_rows`)
        self.units: dict[Unit, tuple[int, ...]] = {}
        nb = np.zeros((len(provinces), len(provinces)), np.uint8)
        for p, qs in m.neighbours.items():
            for q in qs:
                nb[self.province[p], self.province[q]] = 1
        self.nb = nb


    def unit_column(self, u: Unit, m: Map) -> tuple[int, ...] | None:
        """A unit's column of the kernel's array, unordered (holding); None for a unit
        of a power with no home center on the map (the reference path takes those)."""
        power = self.power.get(u.power)
        if power is None:
            return None
        return (self.province[m.province_of[u.location]], power, k.HOLD, -1, -1, 0, -1, -1,
                power * 2 + (u.kind != "A"), self.location[u.location])


def map_index(m: Map) -> MapIndex:
    """The map's `MapIndex`, made on first use and kept in its memo."""
    index = m.memo.get("fast.index")
    if index is None:
        index = m.memo["fast.index"] = MapIndex(m)
    return index


def unit_rows(position: Position) -> np.ndarray | None:
    """The kernel's array for ``position`` with every unit unordered (holding), from the
    map's table of units; kept in the position's memo.  None when a unit's power has no
    home center on the map."""
    memo = position.memo
    if "fast.units" not in memo:
        index = map_index(position.map)
        table = index.units
        cols: list[tuple[int, ...]] = []
        for u in position.units:
            c = table.get(u)
            if c is None:
                c = index.unit_column(u, position.map)
                if c is None:
                    break
                table[u] = c
            cols.append(c)
        memo["fast.units"] = (None if len(cols) < len(position.units)
                              else np.array(cols, np.int64).T if cols
                              else np.zeros((k.FIELDS, 0), np.int64))
    return memo["fast.units"]


def column(st: Matching, index: MapIndex, i: int) -> int:
    """Unit ``i``'s matched order packed into one int, the kernel's patch
    (`dipsolve.core.fast_kernel.pack`)."""
    pi = index.province
    return k.pack(i, st.otype[i], pi[st.dest[i]], index.location[st.dest_loc[i]], int(st.via[i]),
                  pi[st.sup_prov[i]], pi[st.sup_dest[i]])


def encode(st: Matching, position: Position) -> np.ndarray | None:
    """The matched orders of ``st`` (after `match_movement`) written into the position's
    array (None: see `unit_rows`; or a unit given two orders, left to the reference)."""
    base = unit_rows(position)
    if base is None:
        return None
    index = map_index(position.map)
    patch = [column(st, index, i) for i in st.moving + st.others]
    k.compiled()               # k.patched compiled, when numba is there
    arr = k.patched(base, pack(patch))
    return arr if arr.shape[1] == base.shape[1] else None


_NO_PATCH = np.zeros(0, np.int64)


class Resolved:
    """What the kernel's answer does to the board, as `dipsolve.core.adjudicator.after_moves`
    says it, and what the retreats need: each read from the kernel's answer (a list of
    ints) when first asked, so that a search pays only for what it reads."""

    __slots__ = ("out", "position", "placed", "_at")

    def __init__(self, out: list[int], position: Position, placed: "_Placed") -> None:
        self.out, self.position, self.placed = out, position, placed
        self._at: tuple[int, int, int] | None = None

    def _offsets(self) -> tuple[int, int, int]:
        """Where the dislodged units, the standoffs and the units left start in ``out``."""
        at = self._at
        if at is None:
            out = self.out
            d = 2 + out[1]
            s = d + 1 + 3 * out[d]
            at = self._at = (d, s, s + 1 + out[s])
        return at

    @property
    def movers(self) -> list[int]:
        """The units whose move succeeded (their indices, in board order)."""
        return [c >> 12 for c in self.out[2:2 + self.out[1]]]

    @property
    def dislodged_by(self) -> dict[int, int]:
        """The units dislodged: unit index -> the index of the unit that dislodged it."""
        d, s, _ = self._offsets()
        out = self.out
        return {out[q]: out[q + 1] for q in range(d + 1, s, 3)}

    @property
    def new_units(self) -> tuple[Unit, ...]:
        """The units on the board after movement, dislodged ones left out, in canonical
        order."""
        return tuple(map(self.placed.__getitem__, self.out[self._offsets()[2] + 1:]))

    @property
    def origins(self) -> dict[int, str | None]:
        """Unit index of a dislodged unit -> its attacker's origin (None: it came by convoy)."""
        d, s, _ = self._offsets()
        out, units, po = self.out, self.position.units, self.position.map.province_of
        return {out[q]: None if out[q + 2] else po[units[out[q + 1]].location]
                for q in range(d + 1, s, 3)}

    @property
    def standoffs(self) -> set[str]:
        """The provinces left empty by a standoff (only when a unit is dislodged)."""
        _, s, u = self._offsets()
        provinces = map_index(self.position.map).provinces
        return {provinces[d] for d in self.out[s + 1:u]}


def pack(patch: list[int]) -> np.ndarray:
    """Packed orders (`column`) as the kernel's patch."""
    return np.array(patch, np.int64) if patch else _NO_PATCH


class Workspace:
    """One position's compiled resolution, made once by a caller that resolves many
    order sets over it (`dipsolve.core.resolver.Resolver`): the kernel, the fixed orders'
    array (`encode`), the map's adjacency, the kernel's scratch memory
    (`dipsolve.core.fast_kernel.workspace`, allocated once and reused by every set) and
    the table its answers are read back through."""

    __slots__ = ("position", "base", "nb", "ws", "kernel", "placed")

    def __init__(self, position: Position, base: np.ndarray, kernel) -> None:
        index = map_index(position.map)
        self.position, self.base, self.nb, self.kernel = position, base, index.nb, kernel
        self.ws = k.workspace(base.shape[1], len(index.provinces))
        placed = position.memo.get("fast.placed")
        if placed is None:
            placed = position.memo["fast.placed"] = _Placed(position.units, index.locations)
        self.placed: _Placed = placed

    def resolve(self, patch: np.ndarray) -> Resolved | None:
        """The kernel's answer for the fixed orders and ``patch`` (packed by `column`,
        `pack`), or None when the caller must take the reference path (the kernel could
        not finish, or a unit was given two orders)."""
        length = self.kernel(self.base, patch, self.nb, self.ws)
        if not length:
            return None
        return Resolved(self.ws[:length].tolist(), self.position, self.placed)


def workspace(st: Matching, position: Position) -> Workspace | None:
    """The `Workspace` of ``position`` with the matched orders of ``st`` fixed (after
    `match_movement`), or None when the reference path must take it (see `encode`, or
    numba is installed but cannot be imported)."""
    global _enabled
    kernel = k.compiled()
    if kernel is None:            # numba is installed but cannot be imported
        _enabled = False
        return None
    base = encode(st, position)
    return None if base is None else Workspace(position, base, kernel)


class _Placed(dict):
    """``index << 12 | location`` -> the unit ``index`` of the position standing at
    ``location`` (the shared `Unit`), made on first asking (a position's memo)."""

    def __init__(self, units: tuple[Unit, ...], locations: list[str]) -> None:
        super().__init__()
        self.units, self.locations = units, locations

    def __missing__(self, code: int) -> Unit:
        u = self.units[code >> 12]
        key = (u.power, u.kind, self.locations[code & 0xFFF])
        nu = UNITS.get(key)
        self[code] = nu = nu if nu is not None else unit(*key)
        return nu
