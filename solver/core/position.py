"""Positions: an immutable, hashable snapshot of the board between two adjudications.

A ``Position`` holds the phase, the units, the supply-center owners and, in a retreat
phase, the dislodged units with their retreat options.  It never changes: the
adjudicator returns a new one.  Lookups (`unit_in`, `owner`) are built once per
position and are not part of equality or hashing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, NamedTuple

from .bounds import LIMITS, check_int, parse_int
from .errors import DipsolveRuleError, DipsolveSyntaxError
from .map import Map
from .names import check_power
from .variant import Variant
from .variant import variant as standard_variant

SEASONS = ("Spring", "Fall", "Winter")
MAX_YEAR = int(LIMITS["max_year"].value)
KINDS = ("movement", "retreat", "adjustment")


class PositionError(DipsolveRuleError):
    """A position that breaks the rules of the board (two units in one province, …)."""


class Unit(NamedTuple):
    """A unit on the board.  A named tuple: hashing, equality and the canonical order
    (power, kind, location) run at C speed, which the adjudicator leans on."""

    power: str
    kind: str        # "A" or "F"
    location: str    # "PAR", "STP/SC"

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"


@dataclass(frozen=True, slots=True)
class Phase:
    season: str      # "Spring", "Fall" or "Winter"
    year: int
    kind: str        # "movement", "retreat" or "adjustment"

    def __post_init__(self) -> None:
        if self.season not in SEASONS or self.kind not in KINDS:
            raise DipsolveSyntaxError(f"not a phase: {self.season} {self.year} {self.kind}")
        if not 1 <= self.year <= MAX_YEAR:
            check_int(self.year, "year", "max_year")

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.kind.capitalize()}"

    @property
    def short(self) -> str:
        """``S1901M``, ``F1901R``, ``W1901A``: the notation of DAIDE and the diplomacy package."""
        return f"{self.season[0]}{self.year}{self.kind[0].upper()}"

    @classmethod
    def parse(cls, text: str) -> "Phase":
        """Read ``S1901M`` or ``Spring 1901 Movement`` (``Fall 1901 Retreats``, ``Winter 1901 Builds``…).

        A year past ``max_year`` (`dipsolve.core.bounds`) raises `DipsolveLimitError`, its
        digits counted before it is converted."""
        t = text.strip()
        parts = t.replace(",", " ").split()
        if (len(parts) == 1 and len(t) >= 3 and t[0].upper() in "SFW" and t[-1].upper() in "MRA"
                and t[1:-1].isdigit() and t[1:-1].isascii()):
            season = {"S": "Spring", "F": "Fall", "W": "Winter"}[t[0].upper()]
            kind = {"M": "movement", "R": "retreat", "A": "adjustment"}[t[-1].upper()]
            return cls(season, parse_int(t[1:-1], "year", "max_year"), kind)
        if len(parts) == 3:
            named_season = {"spring": "Spring", "fall": "Fall", "autumn": "Fall",
                            "winter": "Winter"}.get(parts[0].lower())
            named_kind = {"movement": "movement", "moves": "movement", "move": "movement",
                          "retreat": "retreat", "retreats": "retreat", "adjustment": "adjustment",
                          "adjustments": "adjustment", "builds": "adjustment",
                          "build": "adjustment"}.get(parts[2].lower())
            if named_season and named_kind and parts[1].isdigit() and parts[1].isascii():
                return cls(named_season, parse_int(parts[1], "year", "max_year"), named_kind)
        raise DipsolveSyntaxError(f"not a phase: {text!r} (expected e.g. 'S1901M' or 'Spring 1901 Movement')")


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the movement phase before, waiting to retreat."""

    unit: Unit
    #: the province its attacker came from (it may not retreat there); None if the
    #: attacker was convoyed or the origin is not known
    attacker_origin: str | None
    #: the locations it may retreat to, sorted
    retreats: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.unit} (retreats: {' '.join(self.retreats) or 'none'})"


#: the shared ``Unit`` objects by (power, kind, location), as `unit` makes them
UNITS: dict[tuple[str, str, str], Unit] = {}


def unit(power: str, kind: str, location: str) -> Unit:
    """The shared ``Unit`` object for these values (units are values; sharing them
    saves building the same one again, which the adjudicator does for every move)."""
    key = (power, kind, location)
    u = UNITS.get(key)
    if u is None:
        u = UNITS[key] = Unit(power, kind, location)
    return u


def map_of(game_map: Map | None, position: "Position | None") -> Map:
    """The map an API works on: the one it is given, else the position's, else the
    standard variant's (for text read with neither, as an order without a board)."""
    if game_map is not None:
        return game_map
    return position.map if position is not None else standard_variant().map


def written_retreats(game_map: Map, d: "Dislodged") -> tuple[str, ...]:
    """The retreats of ``d`` as a writer gives them: an army's as provinces (an army
    never takes a coast, whatever a position built by hand holds), each once."""
    if d.unit.kind != "A":
        return d.retreats
    return tuple(dict.fromkeys(game_map.province_of.get(r, r) for r in d.retreats))


@dataclass(frozen=True)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    #: (province, owner) pairs, sorted by province
    centers: tuple[tuple[str, str], ...] = ()
    dislodged: tuple[Dislodged, ...] = ()
    #: provinces left vacant by a standoff in the movement phase before (retreat phases)
    standoffs: tuple[str, ...] = ()
    map: Map = field(default_factory=lambda: standard_variant().map, compare=False, repr=False)
    _unit_in: dict[str, Unit] | None = field(default=None, compare=False, repr=False, hash=False)
    _owner: dict[str, str] | None = field(default=None, compare=False, repr=False, hash=False)
    _memo: dict | None = field(default=None, compare=False, repr=False, hash=False)

    # -- construction --------------------------------------------------------
    @classmethod
    def build(cls, phase: Phase | str, units: Iterable[Unit] = (),
              centers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
              dislodged: Iterable[Dislodged] = (), standoffs: Iterable[str] = (),
              game_map: Map | None = None) -> "Position":
        """A position from any iterables, sorted into canonical order."""
        if isinstance(phase, str):
            phase = Phase.parse(phase)
        items = centers.items() if isinstance(centers, Mapping) else centers
        return cls(phase=phase, units=tuple(sorted(units)),
                   centers=tuple(sorted(items)),
                   dislodged=tuple(sorted(dislodged, key=lambda d: d.unit)),
                   standoffs=tuple(sorted(set(standoffs))),
                   map=game_map or standard_variant().map)

    @classmethod
    def _canonical(cls, phase: Phase, units: tuple[Unit, ...], centers: tuple[tuple[str, str], ...],
                   dislodged: tuple[Dislodged, ...], standoffs: tuple[str, ...], game_map: Map) -> "Position":
        """A position from parts already in canonical order (the adjudicator's fast
        path: no sorting, no per-field ``__setattr__``)."""
        obj = object.__new__(cls)
        obj.__dict__.update(phase=phase, units=units, centers=centers, dislodged=dislodged,
                            standoffs=standoffs, map=game_map, _unit_in=None, _owner=None, _memo=None)
        return obj

    def __getstate__(self) -> dict:
        """What a pickle holds (a worker process's copy, Ray's object store): the
        position, not the tables derived from it (`memo`: the engine's inputs among
        them, which a zero-copy store would give back read-only), made again there."""
        return {**self.__dict__, "_unit_in": None, "_owner": None, "_memo": None}

    @classmethod
    def initial(cls, variant: "Variant | None" = None) -> "Position":
        """The start of a variant (the standard game's: Spring 1901, the 22 units on their
        home centers): its first phase and units, every home center owned by its power."""
        v = variant or standard_variant()
        centers = {c: power for power, homes in v.homes.items() for c in homes}
        return cls.build(v.start_phase, [Unit(*u) for u in v.start_units], centers, game_map=v.map)

    @classmethod
    def from_text(cls, text: str, filename: str = "<string>", game_map: Map | None = None) -> "Position":
        """The position written in ``text`` on ``game_map`` (a variant's map; the standard
        map when None): the ``.dip`` format (``to_text``'s) or DAIDE ``NOW``/``SCO`` messages.  Orders in the text are read and checked, then left
        out (``dipsolve.parse_position`` returns them too).  Raises `DipsolveSyntaxError`
        or `DipsolveRuleError` at ``filename:line:col``.

            >>> p = Position.from_text("phase: S1901M\\n[France]\\nunits: A PAR\\ncenters: PAR\\n")
            >>> Position.from_text(p.to_text()) == p
            True
        """
        # The one place the core reads text: the parser lives in the grammar layer and
        # loads only here (the layering contract lists this import as allowed).
        from ..grammar.position import parse_position_text
        return parse_position_text(text, filename, game_map=game_map)[0]

    @classmethod
    def from_file(cls, path: str) -> "Position":
        """The position in the file at ``path`` (see `from_text`); a file that cannot be
        read is a `DipsolveFileError`."""
        from .bounds import read_input
        return cls.from_text(read_input(path), str(path))

    def _repr_svg_(self) -> str:
        """The board as a picture, for notebooks (`dipsolve.io.pictures.position_svg`; a
        variant's as a schematic)."""
        from ..io.pictures import position_svg
        return position_svg(self)

    # -- lookups -------------------------------------------------------------
    @property
    def unit_in(self) -> dict[str, Unit]:
        """Province -> the (not dislodged) unit standing there."""
        table = self._unit_in
        if table is None:
            po = self.map.province_of
            table = {po[u.location]: u for u in self.units}
            object.__setattr__(self, "_unit_in", table)
        return table

    @property
    def owner(self) -> dict[str, str]:
        """Supply center -> owning power (unowned centers are absent)."""
        table = self._owner
        if table is None:
            table = dict(self.centers)
            object.__setattr__(self, "_owner", table)
        return table

    @property
    def memo(self) -> dict:
        """A per-position scratch dict for derived tables (the position never changes, so
        whatever is derived from it once stays true)."""
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        return memo

    def _power(self, power: str) -> str:
        """``power`` by its canonical name: a power of the board in any spelling, or one
        with a unit or center here; else `DipsolveSyntaxError` naming the closest."""
        if isinstance(power, str) and power in self.map.powers:
            return power
        if isinstance(power, str) and power in self.powers():
            return power
        return check_power(power, game_map=self.map)

    def units_of(self, power: str) -> list[Unit]:
        """The units of ``power`` (any spelling: ``"AUS"``, ``"austria"``)."""
        power = self._power(power)
        return [u for u in self.units if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        """The supply centers ``power`` owns (any spelling)."""
        power = self._power(power)
        return [p for p, o in self.centers if o == power]

    def powers(self) -> list[str]:
        """Powers that still have a unit or a center, in the map's order of play."""
        alive = {u.power for u in self.units} | {o for _, o in self.centers}
        alive |= {d.unit.power for d in self.dislodged}
        order = self.map.powers
        return [p for p in order if p in alive] + sorted(alive - set(order))

    def adjustment(self, power: str) -> int:
        """Centers minus units: builds owed (> 0) or removals owed (< 0)."""
        return len(self.centers_of(power)) - len(self.units_of(power))

    def alone(self, powers: Iterable[str]) -> "Position":
        """The position with only ``powers``' units on it (every supply center keeps its
        owner): a power unopposed, as `dipsolve path` plans and `render --alone` draws."""
        if isinstance(powers, str):
            powers = [powers]
        keep = {self._power(p) for p in powers}
        return Position.build(self.phase, [u for u in self.units if u.power in keep], self.centers,
                              [d for d in self.dislodged if d.unit.power in keep],
                              self.standoffs, self.map)

    def buildable(self, power: str) -> list[str]:
        """Home centers of the power that it owns and that stand empty."""
        power = self._power(power)
        owner, occupied = self.owner, self.unit_in
        return sorted(p for p in self.map.homes.get(power, ())
                      if owner.get(p) == power and p not in occupied)

    # -- checks --------------------------------------------------------------
    def problems(self) -> list[tuple[str, object]]:
        """Every way this position breaks the board's rules, as ``(message, subject)``
        pairs (the subject is the offending Unit, Dislodged, or center province)."""
        m = self.map
        out: list[tuple[str, object]] = []
        seen: dict[str, Unit] = {}
        for u in self.units + tuple(d.unit for d in self.dislodged):
            if u.kind not in ("A", "F"):
                out.append((f"unknown unit type {u.kind!r} (expected A or F)", u))
                continue
            if u.location not in m.province_of:
                out.append((f"unknown location {u.location!r}", u))
                continue
            prov = m.province_of[u.location]
            terrain = m.provinces[prov].terrain
            if u.kind == "A" and terrain == "sea":
                out.append((f"an army cannot stand in {m.provinces[prov].name} (a sea)", u))
            elif u.kind == "F" and terrain == "land":
                out.append((f"a fleet cannot stand in {m.provinces[prov].name} (inland)", u))
            elif u.kind == "F" and m.provinces[prov].coasts and u.location == prov:
                coasts = " or ".join(f"{prov}/{c}" for c in m.provinces[prov].coasts)
                out.append((f"a fleet in {m.provinces[prov].name} must name its coast ({coasts})", u))
            elif u.kind == "A" and u.location != prov:
                out.append((f"an army stands in a province, not on a coast: {prov}", u))
        for u in self.units:
            where = m.province_of.get(u.location)
            if where is None:
                continue
            if where in seen:
                out.append((f"two units in {m.provinces[where].name}: {seen[where]} ({seen[where].power}) and {u} ({u.power})", u))
            else:
                seen[where] = u
        for d in self.dislodged:           # where each may retreat: places its kind may stand
            u = d.unit
            for r in d.retreats:
                if r not in m.province_of:
                    out.append((f"unknown location {r!r} among the retreats of {u}", u))
                    continue
                prov = m.province_of[r]
                terrain = m.provinces[prov].terrain
                if u.kind == "A" and r != prov:
                    out.append((f"an army retreats to a province, not to a coast: {u} retreats {r} "
                                f"(the army's retreat is {prov})", u))
                elif u.kind == "A" and terrain == "sea":
                    out.append((f"an army cannot retreat to {m.provinces[prov].name} (a sea)", u))
                elif u.kind == "F" and terrain == "land":
                    out.append((f"a fleet cannot retreat to {m.provinces[prov].name} (inland)", u))
        dislodged_in: dict[str, Unit] = {}
        for d in self.dislodged:
            where = m.province_of.get(d.unit.location)
            if where is None:
                continue
            if where in dislodged_in:
                first = dislodged_in[where]
                out.append((f"two dislodged units in {m.provinces[where].name}: "
                            f"{first} ({first.power}) and {d.unit} ({d.unit.power})", d.unit))
            else:
                dislodged_in[where] = d.unit
        owned: dict[str, str] = {}
        for prov, power in self.centers:
            if prov not in m.centers:
                out.append((f"{prov} is not a supply center", prov))
            elif prov in owned:
                out.append((f"supply center {prov} owned twice ({owned[prov]} and {power})", prov))
            owned[prov] = power
        if len(self.centers) > len(m.centers):
            out.append((f"{len(self.centers)} supply centers owned; the board has {len(m.centers)}", None))
        for u in self.units:
            if u.power not in m.powers:
                out.append((f"unknown power {u.power!r} (expected one of {', '.join(m.powers)})", u))
        return out

    def validate(self) -> "Position":
        """Raise `PositionError` naming the first problem, else return self."""
        probs = self.problems()
        if probs:
            raise PositionError("; ".join(msg for msg, _ in probs))
        return self

    # -- text ----------------------------------------------------------------
    def to_text(self, orders: Mapping[str, Iterable[object]] | None = None) -> str:
        """The position in the ``.dip`` format (see ``grammar/position.lark``)."""
        lines = [f"phase: {self.phase}", ""]
        for power in self.powers():
            units = self.units_of(power)
            centers = self.centers_of(power)
            lines.append(f"[{power}]")
            lines.append("units: " + ", ".join(str(u) for u in units))
            lines.append("centers: " + ", ".join(centers))
            lines.append("")
        if self.dislodged or self.standoffs:
            lines.append("[dislodged]")
            for d in self.dislodged:
                origin = f" from {d.attacker_origin}" if d.attacker_origin else ""
                retreats = written_retreats(self.map, d)
                lines.append(f"{d.unit.power}: {d.unit}{origin} retreats {', '.join(retreats) or 'none'}")
            if self.standoffs:
                lines.append("standoffs: " + ", ".join(self.standoffs))
            lines.append("")
        if orders:
            lines.append("[orders]")
            for power, os in orders.items():
                for o in os:
                    lines.append(f"{power}: {o}")
            lines.append("")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


# -- who owns the centers: the evaluations and DumbBot count with it -------------------

def owned_centers(position: Position) -> dict[str, str]:
    """Supply center -> the power that owns it, or will own it once the current phase
    is over without further moves: in a Fall retreat phase, a center goes to the unit
    that stands in it (the rules hand centers over after the Fall retreats)."""
    memo = position.memo
    table = memo.get("owned centers")
    if table is None:
        table = dict(position.owner)
        ph = position.phase
        if ph.season == "Fall" and ph.kind == "retreat":
            for p, u in position.unit_in.items():
                if p in position.map.centers:
                    table[p] = u.power
        memo["owned centers"] = table
    return table


def centers(position: Position, power: str) -> float:
    """Supply centers ``power`` owns (in a Fall retreat phase: will own, see
    `owned_centers`)."""
    return float(sum(1 for o in owned_centers(position).values() if o == power))
