"""Maps in the ``diplomacy`` package's map file format (``.map``, the DPjudge's), read
into a `Variant`: so that a map a user has in that format loads (``--variant FILE.map``).

The format, as the package documents it (``diplomacy/maps/*.map`` and the comments of
its ``diplomacy/engine/map.py``; nothing of its code is used here, its licence, the
AGPL, is not dipsolve's), is one statement a line, ``#`` starting a comment:

- ``Full Name = ABBR alias ...``: a place's name, abbreviation and other spellings
  (``+`` stands for a space in an alias; one ending in ``?`` is ambiguous and dropped);
- ``WATER|COAST|PORT|LAND|SHUT ABBR ABUTS place ...``: a location, its terrain and
  what it touches. A bicoastal province is written in lower case (``bul``), each coast
  in capitals (``BUL/EC``). In a list, a place in capitals may be reached by either unit,
  one in lower case (``smy``) by an army only, one in mixed case (``Tus``) by a fleet
  only; a fleet enters no ``LAND`` and names a bicoastal province's coast, an army
  enters no ``WATER``; ``SHUT`` is impassable (left out of the map here);
  ``AMEND ABBR ABUTS place -place`` adds and (``-``) removes what a location touches;
  ``DROP ABBR`` removes a location;
- ``POWER (ADJECTIVE) HOME ...`` starts a power: its home centers, then its units at the
  start (``A LOC``, ``F LOC``); ``HOME``/``HOMES``/``INHABITS`` replace or add homes;
  ``UNOWNED``/``NEUTRAL``/``CENTERS`` list the neutral supply centers;
  ``UNPLAYED POWER ...`` removes powers;
- ``BEGIN SEASON YEAR KIND`` (the first phase), ``VICTORY N`` (the centers that win;
  else more than half), ``MAP NAME`` / ``USE FILE`` (another map file first, beside
  this one), ``RULE ...`` (the package's rule switches: read and ignored, as
  ``DUMMY`` is).

Anything else, or a statement that names what the map does not have, is a
`VariantError` at ``file:line``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .map import Map, Province, make_map
from .variant import Variant, VariantError

__all__ = ["parse_map_file"]

_TERRAIN = {"WATER": "sea", "COAST": "coast", "PORT": "coast", "LAND": "land"}
_SEASONS = {"SPRING": "S", "SUMMER": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W"}
_KINDS = {"MOVEMENT": "M", "RETREATS": "R", "RETREAT": "R", "ADJUSTMENTS": "A", "ADJUSTMENT": "A"}
_IGNORED = ("RULE", "RULES", "DUMMY", "DUMMIES")


@dataclass
class _Read:
    """What the statements said so far (a ``MAP``/``USE`` file's first)."""

    kinds: dict[str, str] = field(default_factory=dict)          # location key -> WATER, ...
    abuts: dict[str, list[str]] = field(default_factory=dict)    # location key -> places
    names: dict[str, str] = field(default_factory=dict)          # ABBR -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)  # ABBR -> other spellings
    powers: list[str] = field(default_factory=list)              # in the file's order
    adjectives: dict[str, str] = field(default_factory=dict)
    homes: dict[str, list[str]] = field(default_factory=dict)
    neutral: list[str] = field(default_factory=list)
    units: dict[str, list[tuple[str, str, int, str]]] = field(default_factory=dict)
    begin: str = "S1901M"
    victory: int | None = None
    files: list[str] = field(default_factory=list)
    #: a supply center -> where it was first named (file, line), for its error
    named_at: dict[str, tuple[str, int]] = field(default_factory=dict)


def _key(read: _Read, loc: str) -> str | None:
    """The location key ``loc`` names in any case (``BUL``: ``bul``), if there is one."""
    for k in (loc, loc.upper(), loc.lower()):
        if k in read.kinds:
            return k
    return None


def _statement(read: _Read, words: list[str], line: str, where: tuple[str, int],
               power: str | None, include: Callable[[str, tuple[str, int]], None]) -> str | None:
    """Read one statement into ``read``; the power whose lines follow."""
    filename, n = where

    def error(message: str) -> VariantError:
        return VariantError(message, filename=filename, line=n, column=1)

    up = words[0].upper()
    if up == "VICTORY":
        if len(words) < 2 or not words[1].isdigit():
            raise error(f"found {line.strip()!r}, expected VICTORY and a number of centers")
        read.victory = int(words[1])
    elif up in ("MAP", "USE", "USES"):
        if len(words) < 2:
            raise error(f"{up} names no map file")
        for name in words[1:]:
            include(name if "." in name else f"{name}.map", where)
    elif up == "BEGIN":
        if len(words) != 4 or words[1].upper() not in _SEASONS or not words[2].isdigit() \
                or words[3].upper() not in _KINDS:
            raise error(f"found {line.strip()!r}, expected BEGIN SEASON YEAR KIND (BEGIN SPRING 1901 MOVEMENT)")
        read.begin = f"{_SEASONS[words[1].upper()]}{int(words[2])}{_KINDS[words[3].upper()]}"
    elif up in _IGNORED:
        pass
    elif "=" in line:
        name, _, rest = line.partition("=")
        spellings = rest.split()
        if not spellings or not name.strip():
            raise error(f"found {line.strip()!r}, expected 'Full Name = ABBR alias ...'")
        abbr = spellings[0].upper()
        if "/" not in abbr:           # a coast's own names are its province's
            read.names[abbr] = name.strip()
            read.aliases[abbr] = [a.replace("+", " ") for a in spellings[1:] if not a.endswith("?")]
    elif up in ("WATER", "COAST", "PORT", "LAND", "SHUT", "AMEND"):
        if len(words) < 2 or (len(words) > 2 and words[2].upper() != "ABUTS"):
            raise error(f"found {line.strip()!r}, expected {up} ABBR ABUTS place ...")
        loc = words[1]
        old = _key(read, loc)
        if up == "AMEND":
            if old is None:
                raise error(f"AMEND {loc}: no such location to amend")
            places = read.abuts[old]
        else:
            if old is not None:
                del read.kinds[old], read.abuts[old]
            read.kinds[loc] = up
            places = read.abuts[loc] = []
        for place in words[3:]:
            if place.startswith("-"):
                places[:] = [p for p in places if not p.upper().startswith(place[1:].upper())]
            else:
                places.append(place)
    elif up == "DROP":
        for loc in words[1:]:
            for k in [k for k in read.kinds if k.upper() == loc.upper() or k.upper().startswith(loc.upper() + "/")]:
                del read.kinds[k], read.abuts[k]
    elif up in ("A", "F"):
        if power is None or len(words) != 2:
            raise error(f"found {line.strip()!r}, expected a unit (A LOC or F LOC) after its power's line")
        read.units.setdefault(power, []).append((up, words[1].upper(), n, filename))
    elif up in ("HOME", "HOMES", "INHABITS", "OWNS"):
        if power is None:
            raise error(f"{up} before any power's line")
        if up != "OWNS":
            homes = read.homes.setdefault(power, [])
            if up != "INHABITS":
                homes.clear()
            homes += [w.upper() for w in words[1:] if w.upper() not in homes]
    elif up == "UNITS":
        if power is None:
            raise error("UNITS before any power's line")
        read.units[power] = []
    elif up == "UNPLAYED":
        goners = [w.strip(",").title() for w in words[1:] if w.strip(",")] or ([power] if power else [])
        for goner in goners:
            if goner not in read.powers:
                raise error(f"UNPLAYED {goner}: no such power")
            read.powers.remove(goner)
            read.homes.pop(goner, None)
            read.units.pop(goner, None)
        return None
    elif up in ("UNOWNED", "NEUTRAL", "CENTERS"):
        read.neutral += [w.upper() for w in words[1:]]
        for w in words[1:]:
            read.named_at.setdefault(w.upper(), where)
        return None
    else:
        if not words[0].replace("-", "").replace("_", "").isalpha() or len(words[0]) < 2:
            raise error(f"found {line.strip()!r}, expected a map statement (a location, a power, "
                        f"a name = abbreviation line, BEGIN, VICTORY, ...)")
        power = words[0].title()
        homes_named = words[1:]
        if homes_named and homes_named[0].startswith("("):
            adjective = homes_named.pop(0).strip("()").partition(":")[0].replace("+", " ")
            if adjective:
                read.adjectives[power] = adjective.title()
        if power not in read.powers:
            read.powers.append(power)
        homes = read.homes.setdefault(power, [])
        homes += [w.upper() for w in homes_named if w.upper() not in homes]
        for w in homes_named:
            read.named_at.setdefault(w.upper(), where)
    return power


def _lines(read: _Read, text: str, filename: str, open_beside: Callable[[str], tuple[str, str]]) -> None:
    """Read every statement of one file (and the files it includes) into ``read``."""
    read.files.append(filename)

    def include(name: str, where: tuple[str, int]) -> None:
        try:
            body, path = open_beside(name)
        except VariantError as e:
            raise VariantError(e.message, filename=where[0], line=where[1], column=1) from None
        if path in read.files:
            raise VariantError(f"{name} is read twice", filename=where[0], line=where[1], column=1)
        _lines(read, body, path, open_beside)

    power: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        words = line.split()
        if words:
            power = _statement(read, words, line, (filename, n), power, include)


def _army_moves(read: _Read, key: str, kind_of: Callable[[str], str | None]) -> set[str]:
    """The provinces an army in the province ``key`` moves to (see the module's docstring:
    the first place of the list that names a province decides, as the package reads it)."""
    out: set[str] = set()
    seen: set[str] = set()
    for place in read.abuts[key]:
        prov = place.upper()[:3] if "/" in place else place.upper()
        if prov in seen:
            continue
        seen.add(prov)
        if kind_of(prov) in ("LAND", "COAST", "PORT") and place != place.title():
            out.add(prov)
    return out


def _fleet_moves(read: _Read, key: str, fleet_at: set[str], kind_of: Callable[[str], str | None]) -> set[str]:
    """The locations a fleet at ``key`` moves to: capitalised places, not land, a coast
    named where the province has coasts."""
    out: set[str] = set()
    seen: set[str] = set()
    for place in read.abuts[key]:
        target = place.upper()
        if target in seen:
            continue
        seen.add(target)
        if place[0].isupper() and target in fleet_at and kind_of(target) != "LAND":
            out.add(target)
    return out


def parse_map_file(text: str, filename: str,
                   open_beside: Callable[[str], tuple[str, str]] | None = None) -> Variant:
    """A map file's text as a `Variant` (its name: ``filename``, which the peer engine
    loads too); ``open_beside(name)`` gives a file a ``MAP``/``USE`` line names, as
    ``(text, its name)``; `VariantError` at ``file:line`` for what breaks the format."""
    def nothing_beside(name: str) -> tuple[str, str]:
        raise VariantError(f"cannot read the file {name!r} it names: no file beside the text read")
    read = _Read()
    _lines(read, text, filename, open_beside or nothing_beside)

    def fail(message: str) -> VariantError:
        return VariantError(message, filename=filename)

    def kind_of(loc: str) -> str | None:
        k = _key(read, loc)
        return read.kinds[k] if k is not None else None

    provinces_at = sorted({k.upper()[:3] if "/" in k else k.upper() for k, v in read.kinds.items()
                           if v != "SHUT"})
    if not provinces_at:
        raise fail("no locations (expected WATER, COAST or LAND lines)")
    # where a fleet may stand: a sea or coast location written in capitals (a bicoastal
    # province itself is written in lower case, a fleet stands on its coasts)
    fleet_at = {k for k, v in read.kinds.items() if v in ("WATER", "COAST", "PORT") and k == k.upper()}
    for k, places in read.abuts.items():
        for place in places:
            base = place.upper()[:3] if "/" in place else place.upper()
            if _key(read, place) is None and _key(read, base) is None:
                raise fail(f"{k} touches {place}, which is no location of the map")
    centers = {c for homes in read.homes.values() for c in homes} | set(read.neutral)
    home_of = {c: p for p in read.powers for c in read.homes.get(p, [])}
    unknown = sorted(c for c in centers if c not in provinces_at)
    if unknown:
        where, n = read.named_at.get(unknown[0], (filename, 0))
        raise VariantError(f"{unknown[0]}: named as a supply center, but no province of the map "
                           f"(expected a location line for it, or a map statement here)",
                           filename=where, line=n or None, column=1 if n else None)
    provinces: dict[str, Province] = {}
    for abbr in provinces_at:
        key = _key(read, abbr)
        coasts = tuple(sorted(k.upper()[4:] for k in read.kinds if k.upper().startswith(abbr + "/")))
        kind = read.kinds[key] if key is not None else read.kinds[f"{abbr}/{coasts[0]}"]
        provinces[abbr] = Province(abbr=abbr, name=read.names.get(abbr, abbr), daide=abbr,
                                   terrain=_TERRAIN[kind], center=abbr in centers,
                                   home=home_of.get(abbr), coasts=coasts,
                                   aliases=tuple(read.aliases.get(abbr, ())))
    army = {abbr: frozenset(_army_moves(read, at, kind_of))
            for abbr in provinces_at if (at := _key(read, abbr)) is not None and read.kinds[at] != "WATER"}
    fleet = {loc: frozenset(_fleet_moves(read, loc, fleet_at, kind_of)) for loc in sorted(fleet_at)}
    powers = tuple(read.powers)
    game_map = make_map(provinces, army, fleet, powers,
                        aliases={p: tuple(a for a in (read.adjectives.get(p),) if a) for p in powers},
                        name=filename)
    units: list[tuple[str, str, str]] = []
    for power in powers:
        for kind, loc, n, where in read.units.get(power, []):
            if not game_map.can_stand(kind, loc):
                raise VariantError(f"{kind} {loc}: no such unit can stand on this map",
                                   filename=where, line=n, column=1)
            units.append((power, kind, loc))
    return Variant(filename, game_map, powers, read.begin, tuple(units),
                   read.victory or len(game_map.centers) // 2 + 1, ("Spring", "Fall", "Winter"))
