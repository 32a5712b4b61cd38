"""The standard map: provinces, locations, adjacency, supply centers and names.

The map is declared in ``data/standard.map`` (terrain, centers, homes, coasts, and the
moves open to an army and to a fleet from every location) and ``data/provinces.tsv``
(every province's names, DAIDE token and aliases).  Nothing here is computed from
geometry; everything is read once into plain dicts and frozensets of strings.

Locations are upper-case strings: a province abbreviation (``"PAR"``) or, for a
fleet on a bicoastal province, the province and its coast (``"STP/NC"``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Iterator


def declarations(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """The lines of a declared data file (``data/*.map``, ``data/*.variant``): ``(line
    number, keyword, its words)``, comments (``#``) and blank lines left out."""
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if words:
            yield n, words[0], words[1:]


def _standard_powers() -> tuple[str, ...]:
    text = (resources.files("dipsolve") / "data" / "standard.variant").read_text(encoding="utf-8")
    return next(tuple(words) for _, key, words in declarations(text) if key == "powers")


#: the standard game's powers, in their order of play: the standard variant's data
#: (``data/standard.variant``, `dipsolve.core.variant`); a map's own are `Map.powers`
POWERS: tuple[str, ...] = _standard_powers()

#: DAIDE power tokens and the other spellings accepted for a power.
POWER_ALIASES: dict[str, str] = {}
for _p, _tok in zip(POWERS, ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")):
    for _alias in (_p, _tok, _p[:3]):
        POWER_ALIASES[_alias.upper()] = _p
POWER_ALIASES.update({"AUSTRIA-HUNGARY": "Austria", "AUSTRIAHUNGARY": "Austria", "AUSTRIAN": "Austria",
                      "ENGLISH": "England", "FRENCH": "France", "GERMAN": "Germany",
                      "ITALIAN": "Italy", "RUSSIAN": "Russia", "TURKISH": "Turkey",
                      "UK": "England", "BRITAIN": "England"})

#: DAIDE coast tokens and their canonical two-letter names.
COAST_ALIASES = {"NC": "NC", "SC": "SC", "EC": "EC", "WC": "WC",
                 "NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC",
                 "N": "NC", "S": "SC", "E": "EC", "W": "WC",
                 "NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC",
                 "NORTH COAST": "NC", "SOUTH COAST": "SC", "EAST COAST": "EC", "WEST COAST": "WC"}


def power_name(text: str) -> str | None:
    """The canonical name of a power (``"FRA"`` → ``"France"``), or None."""
    return POWER_ALIASES.get(text.strip().upper())


@dataclass(frozen=True)
class Province:
    abbr: str                      # "STP": the canonical abbreviation
    name: str                      # "St Petersburg"
    daide: str                     # "STP"; "ECH" for the English Channel
    terrain: str                   # "land", "coast" or "sea"
    center: bool
    home: str | None               # the power whose home center it is
    coasts: tuple[str, ...]        # ("NC", "SC") for a bicoastal province, else ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Map:
    """The board: read-only lookups shared by every position and every search."""

    provinces: dict[str, Province]
    #: army moves: province -> provinces
    army_moves: dict[str, frozenset[str]]
    #: fleet moves: location -> locations (coasts are their own locations)
    fleet_moves: dict[str, frozenset[str]]
    #: every location -> its province ("STP/NC" -> "STP", "PAR" -> "PAR")
    province_of: dict[str, str] = field(default_factory=dict)
    #: province -> the locations a fleet may stand on there ("SPA" -> ("SPA/NC", "SPA/SC"))
    fleet_locations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: any accepted spelling (upper-case) -> province abbreviation
    names: dict[str, str] = field(default_factory=dict)
    centers: frozenset[str] = frozenset()
    homes: dict[str, frozenset[str]] = field(default_factory=dict)
    #: province -> "land", "coast" or "sea"
    terrain: dict[str, str] = field(default_factory=dict)
    #: province -> provinces adjacent to it for any unit (used for convoy and influence)
    neighbours: dict[str, frozenset[str]] = field(default_factory=dict)
    #: fleet location -> the provinces it can move to (coasts folded into provinces)
    fleet_reach: dict[str, frozenset[str]] = field(default_factory=dict)
    #: "A"/"F" -> location -> (province, locations it moves to, provinces it moves to,
    #: whether it is a fleet at sea): one lookup per unit for the adjudicator
    unit_table: dict[str, dict[str, tuple[str, frozenset[str], frozenset[str], bool]]] = \
        field(default_factory=dict)
    #: the powers whose home centers are on this map, in their order of play
    powers: tuple[str, ...] = POWERS
    #: tables derived from the map alone, built on first use and kept as long as the map
    #: (`dipsolve.core.graph`'s distances and routes, the bots' boards): never part of equality
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    # -- lookups -------------------------------------------------------------
    def province(self, text: str) -> str | None:
        """The province abbreviation for any accepted spelling, or None."""
        return self.names.get(_fold(text))

    def location(self, text: str) -> str | None:
        """A location from text such as ``stp/nc``, ``STP(NC)``, ``St Petersburg (north coast)``.

        Returns the canonical location (``"STP/NC"``), a coastless province (``"STP"``) if
        no coast was given, or None when the text names no province or an unknown coast.
        """
        t = text.strip()
        coast: str | None = None
        for sep in ("/", "("):
            if sep in t:
                t, _, c = t.partition(sep)
                coast = c.strip().rstrip(")").strip()
                break
        prov = self.province(t)
        if prov is None:
            return None
        if coast is None:
            return prov
        code = COAST_ALIASES.get(coast.upper())
        if code is None or code not in self.provinces[prov].coasts:
            return None
        return f"{prov}/{code}"

    def is_sea(self, prov: str) -> bool:
        return self.provinces[prov].terrain == "sea"

    def is_land(self, prov: str) -> bool:
        return self.provinces[prov].terrain == "land"

    def can_stand(self, kind: str, loc: str) -> bool:
        """Whether a unit of this kind (``"A"`` or ``"F"``) may occupy this location."""
        if kind == "A":
            return loc in self.army_moves
        return loc in self.fleet_moves

    def unit_places(self, province: str) -> tuple[tuple[str, str], ...]:
        """Every unit that may stand in ``province``, as ``(kind, location)``: an army
        unless it is a sea, a fleet on each of its coasts (on the province itself when it
        has one coast) unless it is inland.  So what may be built in a home center
        (``STP``: ``("A", "STP"), ("F", "STP/NC"), ("F", "STP/SC")``): the one definition
        of build sites, which the legal builds and the check of a build share."""
        table = self.memo.get("map.unit_places")
        if table is None:
            table = self.memo["map.unit_places"] = {}
        places = table.get(province)
        if places is None:
            places = table[province] = (
                ((("A", province),) if province in self.army_moves else ())
                + tuple(("F", loc) for loc in self.fleet_locations.get(province, ())))
        return places

    def can_move(self, kind: str, src: str, dst: str) -> bool:
        """Whether a unit of this kind can move from ``src`` to ``dst`` without a convoy."""
        if kind == "A":
            return dst in self.army_moves.get(src, ())
        return dst in self.fleet_moves.get(src, ())


def _fold(text: str) -> str:
    """Spelling-insensitive key: letters and digits only, upper case ("St. Petersburg" -> "STPETERSBURG")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def _names_for(row: dict[str, str]) -> list[str]:
    names = [row["abbr"], row["daide"], row["name"]]
    names += [a for a in row["aliases"].split(",") if a.strip()]
    return names


@cache
def standard_map() -> Map:
    """The standard map, read from the package's data files once per process."""
    data = resources.files("dipsolve") / "data"
    provinces: dict[str, Province] = {}
    with (data / "provinces.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    names: dict[str, str] = {}
    for row in rows:
        abbr = row["abbr"]
        coasts = tuple(c.upper() for c in row["coasts"].split(",") if c)
        provinces[abbr] = Province(
            abbr=abbr, name=row["name"], daide=row["daide"], terrain=row["type"],
            center=row["supply_center"] == "yes", home=row["home"] or None, coasts=coasts,
            aliases=tuple(a.strip() for a in row["aliases"].split(",") if a.strip()))
        for n in _names_for(row):
            names.setdefault(_fold(n), abbr)
    # the canonical abbreviation always wins over another province's alias
    for abbr in provinces:
        names[_fold(abbr)] = abbr

    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    for raw in (data / "standard.map").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("province"):
            continue
        kind, rest = line.split(None, 1)
        src, _, dsts = rest.partition(":")
        (army if kind == "army" else fleet)[src.strip()] = frozenset(dsts.split())

    province_of = {p: p for p in provinces}
    fleet_locations: dict[str, tuple[str, ...]] = {}
    for p, prov in provinces.items():
        if prov.terrain == "land":
            fleet_locations[p] = ()
        elif prov.coasts:
            fleet_locations[p] = tuple(f"{p}/{c}" for c in prov.coasts)
            for loc in fleet_locations[p]:
                province_of[loc] = p
        else:
            fleet_locations[p] = (p,)

    neighbours: dict[str, set[str]] = {p: set() for p in provinces}
    for src, moves in army.items():
        neighbours[src] |= moves
    for src, moves in fleet.items():
        neighbours[province_of[src]] |= {province_of[d] for d in moves}

    homes: dict[str, set[str]] = {p: set() for p in POWERS}
    for p, prov in provinces.items():
        if prov.home:
            homes[prov.home].add(p)
    return Map(
        provinces=provinces, army_moves=army, fleet_moves=fleet, province_of=province_of,
        fleet_locations=fleet_locations, names=names,
        centers=frozenset(p for p, v in provinces.items() if v.center),
        terrain={p: v.terrain for p, v in provinces.items()},
        homes={k: frozenset(v) for k, v in homes.items()},
        neighbours={k: frozenset(v) for k, v in neighbours.items()},
        powers=POWERS,
        fleet_reach={k: frozenset(province_of[d] for d in v) for k, v in fleet.items()},
        unit_table={
            "A": {loc: (loc, moves, moves, False) for loc, moves in army.items()},
            "F": {loc: (province_of[loc], moves, frozenset(province_of[d] for d in moves),
                        provinces[province_of[loc]].terrain == "sea")
                  for loc, moves in fleet.items()}})
