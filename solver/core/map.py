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
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Iterator

from .bounds import LIMITS, limit_error
from .errors import DipsolveSyntaxError


def declarations(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """The lines of a declared data file (``data/*.map``, ``data/*.variant``): ``(line
    number, keyword, its words)``, comments (``#``) and blank lines left out."""
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if words:
            yield n, words[0], words[1:]


_WORD = re.compile(r"\S+")


def word_spans(raw: str) -> list[tuple[int, int]]:
    """Where each word of the line ``raw`` (``#`` starts a comment) starts and ends: what
    `place` finds a word's column in.  A reader that places many words of one line
    finds them once and hands them to `place` (else each word costs the whole line)."""
    return [m.span() for m in _WORD.finditer(raw.split("#", 1)[0])] or [(0, 0)]


def place(raw: str, n: int, word: int | None = None,
          spans: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """Where word ``word`` (0: the line's first; None: the whole statement) of the line
    ``raw`` (line ``n`` of its file; ``#`` starts a comment) is, as an error takes it:
    ``line``, ``column``, ``source_line``, ``width``; ``spans``: the line's `word_spans`,
    if they are found already."""
    spans = spans or word_spans(raw)
    if word is None:
        start, end = spans[0][0], spans[-1][1]
    else:
        start, end = spans[min(word, len(spans) - 1)]
    return {"line": n, "column": start + 1, "source_line": raw, "width": max(1, end - start)}


def power_spellings(powers: tuple[str, ...], tokens: dict[str, str], aliases: dict[str, tuple[str, ...]]
                    ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Every accepted spelling of a map's powers (upper case) -> the power: its name, its
    DAIDE token (``tokens``), the first three letters of its name and its ``aliases``;
    and the spellings that would name several powers (``POW`` for Powera and Powerb),
    which name none: -> those powers.  A power's own name is always its own."""
    claims: dict[str, list[str]] = {}
    for p in powers:
        for alias in (p, tokens.get(p, p[:3]), p[:3], *aliases.get(p, ())):
            owners = claims.setdefault(alias.upper(), [])
            if p not in owners:
                owners.append(p)
    for p in powers:             # a power's own name wins over another's abbreviation
        claims[p.upper()] = [p]
    out = {alias: owners[0] for alias, owners in claims.items() if len(owners) == 1}
    return out, {alias: tuple(owners) for alias, owners in claims.items() if len(owners) > 1}


#: the coasts a province may have, by their canonical names
COAST_NAMES = ("NC", "SC", "EC", "WC")
#: a province's abbreviation in a declared map
_ABBR = re.compile(r"[A-Za-z0-9]+")

#: DAIDE coast tokens and their canonical two-letter names.
COAST_ALIASES = {"NC": "NC", "SC": "SC", "EC": "EC", "WC": "WC",
                 "NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC",
                 "N": "NC", "S": "SC", "E": "EC", "W": "WC",
                 "NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC",
                 "NORTH COAST": "NC", "SOUTH COAST": "SC", "EAST COAST": "EC", "WEST COAST": "WC"}


def power_name(text: str, game_map: "Map | None" = None) -> str | None:
    """The canonical name of a power (``"FRA"`` → ``"France"``) on ``game_map`` (the
    standard map's powers when none is given), or None."""
    if game_map is not None:
        return game_map.power(text)
    return _standard_power_aliases().get(text.strip().upper())


@cache
def _standard_power_aliases() -> dict[str, str]:
    return standard_map().power_aliases


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
    powers: tuple[str, ...] = ()
    #: the name of the variant whose map this is ("standard"; a saved game's "map")
    name: str = ""
    #: any accepted spelling of a power (upper case) -> the power (`power_spellings`)
    power_aliases: dict[str, str] = field(default_factory=dict)
    #: power -> its DAIDE token ("France" -> "FRA"; a variant's: the first three letters)
    power_tokens: dict[str, str] = field(default_factory=dict)
    #: a spelling that would name several powers (the first letters of Powera and
    #: Powerb) -> those powers: it names none (`power_spellings`)
    ambiguous_powers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: tables derived from the map alone, built on first use and kept as long as the map
    #: (`dipsolve.core.graph`'s distances and routes, the bots' boards): never part of equality
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    # -- lookups -------------------------------------------------------------
    def power(self, text: str) -> str | None:
        """The power of this map that ``text`` names (``"FRA"``, ``"france"``), or None."""
        return self.power_aliases.get(text.strip().upper())

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


class MapFileError(DipsolveSyntaxError):
    """A declared map or variant file that breaks its format, at ``file:line:col``
    (`dipsolve.core.variant` raises it as a `VariantError`)."""


def declared_powers(text: str, filename: str = "<string>"
                   ) -> tuple[tuple[str, ...], dict[str, str], dict[str, tuple[str, ...]]]:
    """A variant file's powers: ``(powers in their order of play, power -> DAIDE token,
    power -> other spellings)``, from its ``powers`` line and its ``power NAME TOKEN
    [ALIAS ...]`` lines (a power without one has the first three letters of its name);
    `MapFileError` at ``filename:line:col`` for a power named twice, past ``max_powers``,
    or whose token is another's (the token is how a power is printed short)."""
    raw = text.splitlines()
    powers: tuple[str, ...] = ()
    tokens: dict[str, str] = {}
    aliases: dict[str, tuple[str, ...]] = {}
    token_at: dict[str, dict[str, Any]] = {}
    for n, key, words in declarations(text):
        if key == "powers":
            powers = tuple(words)
            for i, p in enumerate(words):
                token_at.setdefault(p, place(raw[n - 1], n, i + 1))
                if i >= LIMITS["max_powers"].value:
                    raise limit_error("max_powers", f"a map of {len(words)} powers", filename=filename,
                                      **place(raw[n - 1], n, i + 1))
                if p in words[:i]:
                    raise MapFileError(f"powers: {p} is named twice", filename=filename,
                                       **place(raw[n - 1], n, i + 1), found=p, expected="each power once")
        elif key == "power":
            if len(words) < 2 or words[0] not in powers:
                raise MapFileError(f"power {' '.join(words)!r}: expected a power of the powers "
                                   f"line (written before it), its token and its other names",
                                   filename=filename, **place(raw[n - 1], n, 1))
            tokens[words[0]] = words[1].upper()
            aliases[words[0]] = tuple(words[2:])
            token_at[words[0]] = place(raw[n - 1], n, 2)
    first: dict[str, str] = {}
    for p in powers:
        token = tokens.get(p, p[:3].upper())
        other = first.setdefault(token, p)
        if other != p:
            how = "" if p in tokens else (" (the first three letters of its name: give it a token of "
                                          "its own, power NAME TOKEN)")
            raise MapFileError(f"power {p}: its token {token} is {other}'s too{how}; a power's "
                               f"token is how it is printed short, and must name it alone",
                               filename=filename, **token_at[p], found=token, expected="a token of its own")
    tokens = {p: tokens.get(p, p[:3].upper()) for p in powers}
    return powers, tokens, aliases


def make_map(provinces: dict[str, Province], army: dict[str, frozenset[str]],
             fleet: dict[str, frozenset[str]], powers: tuple[str, ...],
             tokens: dict[str, str] | None = None,
             aliases: dict[str, tuple[str, ...]] | None = None, name: str = "") -> Map:
    """A `Map` named ``name`` from its declared facts (provinces, the moves of an army from each
    province and of a fleet from each location, the powers with their tokens and other
    names); every other table is made from them here, the one place for every map."""
    tokens = tokens if tokens is not None else {p: p[:3].upper() for p in powers}
    names: dict[str, str] = {}
    for abbr, prov in provinces.items():
        for n in (abbr, prov.daide, prov.name, *prov.aliases):
            names.setdefault(_fold(n), abbr)
    for abbr in provinces:       # the canonical abbreviation always wins over another's alias
        names[_fold(abbr)] = abbr
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
    homes: dict[str, set[str]] = {p: set() for p in powers}
    for p, prov in provinces.items():
        if prov.home:
            homes.setdefault(prov.home, set()).add(p)
    spellings, ambiguous = power_spellings(powers, tokens, aliases or {})
    return Map(
        provinces=provinces, army_moves=army, fleet_moves=fleet, province_of=province_of,
        fleet_locations=fleet_locations, names=names,
        centers=frozenset(p for p, v in provinces.items() if v.center),
        terrain={p: v.terrain for p, v in provinces.items()},
        homes={k: frozenset(v) for k, v in homes.items()},
        neighbours={k: frozenset(v) for k, v in neighbours.items()},
        powers=powers, name=name, power_aliases=spellings, ambiguous_powers=ambiguous,
        power_tokens=dict(tokens),
        fleet_reach={k: frozenset(province_of[d] for d in v) for k, v in fleet.items()},
        unit_table={
            "A": {loc: (loc, moves, moves, False) for loc, moves in army.items()},
            "F": {loc: (province_of[loc], moves, frozenset(province_of[d] for d in moves),
                        provinces[province_of[loc]].terrain == "sea")
                  for loc, moves in fleet.items()}})


_TERRAINS = ("land", "coast", "sea")


def read_declared_map(text: str, powers: tuple[str, ...], tokens: dict[str, str] | None = None,
                      aliases: dict[str, tuple[str, ...]] | None = None,
                      name_rows: list[dict[str, str]] | None = None, name: str = "",
                      filename: str = "<string>") -> Map:
    """A map in dipsolve's declared format (``data/standard.map`` says it): ``province``
    lines (with ``name=Full_Name`` and ``alias=a,b`` when no ``name_rows`` of a names
    table are given), ``army`` and ``fleet`` lines; `MapFileError` at the
    ``filename:line:col`` that breaks it: a home that is no supply center, a move to or
    from a place the map does not have, a move within one province (``army PAR: PAR``),
    more provinces than ``max_locations``."""
    rows = {r["abbr"]: r for r in name_rows or []}
    raw = text.splitlines()
    provinces: dict[str, Province] = {}
    moves: dict[str, dict[str, frozenset[str]]] = {"army": {}, "fleet": {}}
    lines: dict[tuple[str, str], int] = {}

    def error(message: str, n: int, word: int | None, **what: Any) -> MapFileError:
        return MapFileError(message, filename=filename, **place(raw[n - 1], n, word), **what)

    for n, key, words in declarations(text):
        if key == "province":
            if not words or words[0] in provinces or len(words) < 2 or words[1] not in _TERRAINS:
                raise error(f"province {' '.join(words)!r}: expected a new abbreviation "
                            f"and one of {', '.join(_TERRAINS)}", n, None)
            if len(provinces) >= LIMITS["max_locations"].value:
                raise limit_error("max_locations", f"a map of more than {len(provinces)} provinces",
                                  filename=filename, **place(raw[n - 1], n, 1))
            abbr, terrain, opts = words[0], words[1], dict(w.partition("=")[::2] for w in words[2:])
            if set(opts) - {"center", "home", "coasts", "name", "alias"} or \
                    (opts.get("home") and opts["home"] not in powers):
                raise error(f"province {abbr}: expected center, home=POWER (a power of the "
                            f"variant), coasts=NC,SC, name=Full_Name or alias=a,b", n, None)
            if _ABBR.fullmatch(abbr) is None or any(c.upper() not in COAST_NAMES
                                                    for c in opts.get("coasts", "").split(",") if c):
                raise error(f"province {abbr}: expected an abbreviation of letters and digits, and "
                            f"coasts among {', '.join(COAST_NAMES)}", n, None, found=abbr)
            if opts.get("home") and "center" not in opts:
                at = next(i for i, w in enumerate(words, 1) if w.startswith("home="))
                raise error(f"province {abbr}: home={opts['home']}, but not a supply center (a home "
                            f"is a supply center: write center too)", n, at,
                            found=f"home={opts['home']}", expected="center")
            row = rows.get(abbr, {})
            provinces[abbr] = Province(
                abbr=abbr, name=row.get("name") or opts.get("name", abbr).replace("_", " "),
                daide=row.get("daide") or abbr, terrain=terrain, center="center" in opts,
                home=opts.get("home") or None,
                coasts=tuple(c.upper() for c in opts.get("coasts", "").split(",") if c),
                aliases=tuple(a.strip().replace("_", " ") for a in
                              (row.get("aliases") or opts.get("alias", "")).split(",") if a.strip()))
        elif key in moves and words and words[0].endswith(":"):
            src = words[0][:-1]
            for i, dst in enumerate(words[1:], 2):
                if dst.split("/")[0] == src.split("/")[0]:
                    raise error(f"{key} {src}: {dst} is in its own province (a unit never moves "
                                f"to where it stands)", n, i, found=dst, expected="another province")
            moves[key][src] = frozenset(words[1:])
            lines[key, src] = n
        else:
            raise error(f"found {' '.join([key, *words])!r}, expected a province, army "
                        f"or fleet line", n, None)
    # where each unit may stand (as `make_map` makes `Map.fleet_locations`): every line's
    # place is one, and moves to places with a line of their own
    stands = {"army": {p for p, v in provinces.items() if v.terrain != "sea"},
              "fleet": {loc for p, v in provinces.items() if v.terrain != "land"
                        for loc in ([f"{p}/{c}" for c in v.coasts] or [p])}}
    for (kind, src), n in lines.items():
        bad = [x for x in (src, *sorted(moves[kind][src])) if x not in stands[kind] or x not in moves[kind]]
        if bad:
            where = raw[n - 1].split("#", 1)[0].split()
            raise error(f"{kind} {src}: {', '.join(bad)} is no place for an {kind}", n,
                        where.index(bad[0]) if bad[0] in where else 1, found=bad[0])
    return make_map(provinces, moves["army"], moves["fleet"], powers, tokens, aliases, name)


def _standard_powers() -> tuple[str, ...]:
    text = (resources.files("dipsolve") / "data" / "standard.variant").read_text(encoding="utf-8")
    return declared_powers(text)[0]


#: the standard game's powers, in their order of play: the standard variant's data
#: (``data/standard.variant``, `dipsolve.core.variant`); a map's own are `Map.powers`,
#: and code that has a position or a map reads them there
POWERS: tuple[str, ...] = _standard_powers()


@cache
def standard_map() -> Map:
    """The standard map (``data/standard.map``, its names in ``data/provinces.tsv``, its
    powers in ``data/standard.variant``), read once per process: the standard variant's
    map (`dipsolve.core.variant.variant`), and the default of an API given no map."""
    data = resources.files("dipsolve") / "data"
    with (data / "provinces.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    powers, tokens, aliases = declared_powers((data / "standard.variant").read_text(encoding="utf-8"))
    return read_declared_map((data / "standard.map").read_text(encoding="utf-8"), powers, tokens,
                             aliases, rows, "standard")
