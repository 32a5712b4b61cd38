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

The map is checked as data, each mistake a `VariantError` (a `DipsolveLimitError` past a
bound of `dipsolve.core.bounds`) at the ``file:line:col`` that makes it, naming what was
found and what was expected: a statement the format does not have, or that names what
the map does not have; a year or a victory of more than ``max_digits`` digits (counted
before they are converted), a year out of ``max_year``, a first phase that is none of the
game (``WINTER ... MOVEMENT``), a victory of no center or of more centers than the map
has; a place that touches itself (``LAND PAR ABUTS PAR``: an army would move to where it
stands, support itself); a location written in mixed case (``LAND Par``: it is in
capitals, or in lower case for a province with coasts); a supply center home to two
powers; two units at the start in one province; more locations than ``max_locations``,
more powers than ``max_powers``, no power at all; two powers whose names start with the
same three letters (a power is printed short, and named in DAIDE, by them: ``POW`` would
be any of them).  Which files ``MAP``/``USE`` may name is up to the caller's
``open_beside`` (`dipsolve.core.variant_files`: files in the map's own folder only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Callable

from .bounds import LIMITS, check_digits, limit_error
from .map import COAST_NAMES, Province, make_map, place, word_spans
from .variant import Variant, VariantError, add_start_unit, check_start, check_victory

__all__ = ["parse_map_file"]

_TERRAIN = {"WATER": "sea", "COAST": "coast", "PORT": "coast", "LAND": "land"}
_SEASONS = {"SPRING": "S", "SUMMER": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W"}
_KINDS = {"MOVEMENT": "M", "RETREATS": "R", "RETREAT": "R", "ADJUSTMENTS": "A", "ADJUSTMENT": "A"}
_IGNORED = ("RULE", "RULES", "DUMMY", "DUMMIES")
#: a location's abbreviation, and the coasts a province may have (dipsolve's names)
_LOCATION = re.compile(r"[A-Za-z0-9]+(?:/[A-Za-z]+)?")
_COASTS = COAST_NAMES

#: where something was written, as an error takes it: ``filename``, ``line``, ``column``,
#: ``source_line``, ``width``
Where = dict[str, Any]


@dataclass
class _Read:
    """What the statements said so far (a ``MAP``/``USE`` file's first), and where.

    What ``AMEND ... -PLACE`` and ``DROP`` take away is not searched for when they are
    read (each would cost every list read so far: quadratic in a long file) but noted
    with its time (`tick`); a place, home, center or unit written before it is left out
    when the lists are read at the end (`_touches`, `gone`)."""

    kinds: dict[str, str] = field(default_factory=dict)          # location key -> WATER, ...
    #: location key -> (a place it touches, when it was written)
    abuts: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: location key -> a prefix (upper case) ``-PLACE`` removed -> when, the latest time
    removed: dict[str, dict[str, int]] = field(default_factory=dict)
    #: a province -> when it was last dropped; a province -> its location keys (bul, BUL/EC)
    dropped: dict[str, int] = field(default_factory=dict)
    keys_of: dict[str, set[str]] = field(default_factory=dict)
    clock: int = 0
    names: dict[str, str] = field(default_factory=dict)          # ABBR -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)  # ABBR -> other spellings
    powers: list[str] = field(default_factory=list)              # in the file's order
    adjectives: dict[str, str] = field(default_factory=dict)
    homes: dict[str, dict[str, int]] = field(default_factory=dict)  # power -> home -> when, in order
    neutral: list[tuple[str, int]] = field(default_factory=list)     # (center, when)
    units: dict[str, list[tuple[str, str, Where, int]]] = field(default_factory=dict)
    begin: str = "S1901M"
    victory: tuple[str, Where] | None = None
    files: list[str] = field(default_factory=list)
    #: (location key, a place it touches, upper case) -> where it was first written
    placed: dict[tuple[str, str], Where] = field(default_factory=dict)
    #: a supply center -> where it was first named; (power, home) -> where it was named
    named_at: dict[str, Where] = field(default_factory=dict)
    home_at: dict[tuple[str, str], Where] = field(default_factory=dict)
    #: power -> its line; location key -> its line
    power_at: dict[str, Where] = field(default_factory=dict)
    loc_at: dict[str, Where] = field(default_factory=dict)

    def tick(self) -> int:
        """The time of what is read now: later than all read before it."""
        self.clock += 1
        return self.clock

    def gone(self, province: str, when: int) -> bool:
        """Whether ``province``, named at ``when``, was dropped after it."""
        return self.dropped.get(province, 0) > when

    def forget(self, key: str) -> None:
        """The location ``key`` and what it touches taken off (dropped, or written anew)."""
        del self.kinds[key], self.abuts[key]
        self.removed.pop(key, None)
        self.keys_of[_province(key)].discard(key)


@dataclass
class _Line:
    """One statement: its file, number, text and words."""

    filename: str
    n: int
    raw: str
    words: list[str]
    #: where each word is (`word_spans`), found once: every word of a line is placed
    #: (a unit's, a home's, a neighbour's), and finding each anew cost the whole line
    spans: list[tuple[int, int]] | None = field(default=None, repr=False)

    def at(self, word: int | None = None) -> Where:
        """Where word ``word`` (None: the whole statement) is."""
        if self.spans is None:
            self.spans = word_spans(self.raw)
        return {"filename": self.filename, **place(self.raw, self.n, word, self.spans)}

    def error(self, message: str, word: int | None = None, **what: Any) -> VariantError:
        return VariantError(message, **self.at(word), **what)

    @property
    def text(self) -> str:
        return " ".join(self.words)


def _key(read: _Read, loc: str) -> str | None:
    """The location key ``loc`` names in any case (``BUL``: ``bul``), if there is one."""
    for k in (loc, loc.upper(), loc.lower()):
        if k in read.kinds:
            return k
    return None


def _province(loc: str) -> str:
    """The province a location or place names, upper case (``bul/ec``: ``BUL``)."""
    return loc.upper().split("/")[0]


def _statement(read: _Read, ln: _Line, power: str | None,
               include: Callable[[str, _Line, int], None]) -> str | None:
    """Read one statement into ``read``; the power whose lines follow."""
    words, line = ln.words, ln.raw.split("#", 1)[0]
    up = words[0].upper()
    if up == "VICTORY":
        if len(words) < 2:
            raise ln.error(f"found {ln.text!r}, expected VICTORY and a number of centers",
                           found=ln.text, expected="VICTORY N")
        for i, word in enumerate(words[1:], 1):     # the first wins; the others, as the peer's, read
            check_digits(word, "VICTORY", **ln.at(i))
            if not (word.isascii() and word.isdigit()):
                raise ln.error(f"VICTORY: found {word!r}, expected a number of supply centers", i,
                               found=word, expected="a number of supply centers")
        read.victory = (words[1], ln.at(1))
    elif up in ("MAP", "USE", "USES"):
        if len(words) < 2:
            raise ln.error(f"{up} names no map file", expected="a map file's name")
        for i, name in enumerate(words[1:], 1):
            include(name if "." in name else f"{name}.map", ln, i)
    elif up == "BEGIN":
        if len(words) != 4 or words[1].upper() not in _SEASONS or words[3].upper() not in _KINDS:
            raise ln.error(f"found {ln.text!r}, expected BEGIN SEASON YEAR KIND (BEGIN SPRING 1901 MOVEMENT)",
                           found=ln.text, expected="BEGIN SEASON YEAR KIND")
        read.begin = check_start(_SEASONS[words[1].upper()], words[2], _KINDS[words[3].upper()],
                                 **ln.at(2))
    elif up in _IGNORED:
        pass
    elif "=" in line:
        name, _, rest = line.partition("=")
        spellings = rest.split()
        if not spellings or not name.strip():
            raise ln.error(f"found {ln.text!r}, expected 'Full Name = ABBR alias ...'",
                           found=ln.text, expected="Full Name = ABBR alias ...")
        abbr = spellings[0].upper()
        if "/" not in abbr:           # a coast's own names are its province's
            read.names[abbr] = name.strip()
            read.aliases[abbr] = [a.replace("+", " ") for a in spellings[1:] if not a.endswith("?")]
    elif up in ("WATER", "COAST", "PORT", "LAND", "SHUT", "AMEND"):
        _location(read, ln, up)
    elif up == "DROP":
        _drop(read, [_province(w) for w in words[1:]])
    elif up in ("A", "F"):
        if power is None or len(words) != 2:
            raise ln.error(f"found {ln.text!r}, expected a unit (A LOC or F LOC) after its power's line",
                           found=ln.text, expected="A LOC or F LOC after a power's line")
        read.units.setdefault(power, []).append((up, words[1].upper(), ln.at(1), read.tick()))
    elif up in ("HOME", "HOMES", "INHABITS", "OWNS"):
        if power is None:
            raise ln.error(f"{up} before any power's line", 0, expected="a power's line first")
        if up != "OWNS":
            homes = read.homes.setdefault(power, {})
            if up != "INHABITS":
                homes.clear()
            _homes(read, ln, power, homes, 1)
    elif up == "UNITS":
        if power is None:
            raise ln.error("UNITS before any power's line", 0, expected="a power's line first")
        read.units[power] = []
    elif up == "UNPLAYED":
        for i, word in enumerate(words[1:], 1):
            goner = word.strip(",").title()
            if goner and goner not in read.powers:
                raise ln.error(f"UNPLAYED {goner}: no such power", i, found=goner, expected="a power of the map")
        goners = dict.fromkeys([w.strip(",").title() for w in words[1:] if w.strip(",")]
                               or ([power] if power else []))       # a power named twice goes once
        for goner in goners:
            read.powers.remove(goner)
            read.homes.pop(goner, None)
            read.units.pop(goner, None)
        return None
    elif up in ("UNOWNED", "NEUTRAL", "CENTERS"):
        now = read.tick()
        read.neutral += [(w.upper(), now) for w in words[1:]]
        for i, w in enumerate(words[1:], 1):
            read.named_at.setdefault(w.upper(), ln.at(i))
        return None
    else:
        return _power(read, ln)
    return power


def _location(read: _Read, ln: _Line, up: str) -> None:
    """``WATER|COAST|PORT|LAND|SHUT ABBR ABUTS place ...`` or ``AMEND ABBR ABUTS ...``."""
    words = ln.words
    if len(words) < 2 or (len(words) > 2 and words[2].upper() != "ABUTS"):
        raise ln.error(f"found {ln.text!r}, expected {up} ABBR ABUTS place ...",
                       2 if len(words) > 2 else None, expected=f"{up} ABBR ABUTS place ...")
    loc = words[1]
    if _LOCATION.fullmatch(loc) is None:
        raise ln.error(f"{up} {loc}: expected a location's abbreviation (letters and digits: PAR; a "
                       f"coast: SPA/NC)", 1, found=loc, expected="ABBR or ABBR/NC")
    if up != "AMEND" and loc not in (loc.upper(), loc.lower()):     # Par: a fleet-only place's spelling
        raise ln.error(f"{up} {loc}: a location is written in capitals ({loc.upper()}), or in lower "
                       f"case for a province with coasts ({loc.lower()})", 1, found=loc,
                       expected=f"{loc.upper()} or {loc.lower()}")
    if "/" in loc and up not in ("COAST", "PORT", "AMEND"):
        raise ln.error(f"{up} {loc}: a coast is a COAST location", 0, found=up, expected="COAST")
    if "/" in loc and (loc != loc.upper() or loc.upper().split("/")[1] not in _COASTS):
        raise ln.error(f"{up} {loc}: expected a coast in capitals, one of "
                       f"{', '.join(f'{_province(loc)}/{c}' for c in _COASTS)}", 1, found=loc,
                       expected="a coast: NC, SC, EC or WC")
    old = _key(read, loc)
    if up == "AMEND":
        if old is None:
            raise ln.error(f"AMEND {loc}: no such location to amend", 1, found=loc,
                           expected="a location of the map")
        key = old
    else:
        if old is not None:
            read.forget(old)
        elif len(read.kinds) >= LIMITS["max_locations"].value:
            raise limit_error("max_locations", f"a map of more than {len(read.kinds)} locations",
                              **ln.at(1))
        key = loc
        read.kinds[key] = up
        read.abuts[key] = []
        read.loc_at[key] = ln.at(1)
        read.keys_of.setdefault(_province(key), set()).add(key)
    places, removed = read.abuts[key], read.removed.setdefault(key, {})
    for i, place_ in enumerate(words[3:], 3):
        if place_.startswith("-"):         # every place written before it that starts so
            removed[place_[1:].upper()] = read.tick()
            continue
        if _province(place_) == _province(loc):
            raise ln.error(f"{loc} touches {place_}: itself (a unit there would move to where it "
                           f"stands, or support itself)", i, found=place_, expected="another province")
        places.append((place_, read.tick()))
        read.placed.setdefault((key, place_.upper()), ln.at(i))


def _drop(read: _Read, dropped: list[str]) -> None:
    """``DROP ABBR ...``: the provinces and their coasts taken off the map, and (as the
    ``diplomacy`` package drops them) out of every list that names them: what touches
    them, homes, neutral centers, units (those lists as they are read at the end: what
    named a province before its drop is left out, `_Read.gone`)."""
    now = read.tick()
    for province in dropped:
        for k in sorted(read.keys_of.get(province, ())):
            read.forget(k)
        read.dropped[province] = now


def _touches(read: _Read) -> dict[str, list[str]]:
    """Each location key -> the places it touches, in their order: those written, less
    those a later ``-PLACE`` of its own removed or a later ``DROP`` dropped."""
    out: dict[str, list[str]] = {}
    for key, places in read.abuts.items():
        removed_at = _removed_at([p.upper() for p, _ in places], read.removed.get(key, {}))
        out[key] = [p for (p, when), last in zip(places, removed_at)
                    if last < when and not read.gone(_province(p), when)]
    return out


def _removed_at(places: list[str], removed: dict[str, int]) -> list[int]:
    """For each of ``places`` (upper case), the time of the latest of ``removed`` (a
    prefix -> its time) it starts with, 0 for none.  The places and the prefixes are
    sorted together: the words a prefix starts follow it, one run, so the prefixes of
    each word are a stack as they are met (near-linear, where each place against each
    prefix was quadratic)."""
    out = [0] * len(places)
    if not removed:
        return out
    met = sorted([(x, 0, t) for x, t in removed.items()] + [(p, 1, i) for i, p in enumerate(places)])
    stack: list[tuple[str, int]] = []       # (a prefix, its latest time or a shorter one's)
    for text, is_place, value in met:
        while stack and not text.startswith(stack[-1][0]):
            stack.pop()
        latest = stack[-1][1] if stack else 0
        if is_place:
            out[value] = latest
        else:
            stack.append((text, max(value, latest)))
    return out


def _homes(read: _Read, ln: _Line, power: str, homes: dict[str, int], first: int) -> None:
    """The homes named from word ``first`` of ``ln`` added to ``power``'s ``homes`` (a
    dict for an ordered set: a home named again is found at once, not in a list)."""
    for i, w in enumerate(ln.words[first:], first):
        center = w.upper()
        if center in homes and read.gone(center, homes[center]):
            del homes[center]                  # dropped since: named again, it comes last
        homes.setdefault(center, read.tick())
        read.home_at.setdefault((power, center), ln.at(i))
        read.named_at.setdefault(center, ln.at(i))


def _power(read: _Read, ln: _Line) -> str:
    """``POWER (ADJECTIVE) HOME ...``: a power's line; the power."""
    words = ln.words
    if not words[0].replace("-", "").replace("_", "").isalpha() or len(words[0]) < 2:
        raise ln.error(f"found {ln.text!r}, expected a map statement (a location, a power, "
                       f"a name = abbreviation line, BEGIN, VICTORY, ...)", 0, found=words[0],
                       expected="a map statement")
    power = words[0].title()
    first = 1
    if len(words) > 1 and words[1].startswith("("):
        adjective = words[1].strip("()").partition(":")[0].replace("+", " ")
        if adjective:
            read.adjectives[power] = adjective.title()
        first = 2
    if power not in read.powers:
        if len(read.powers) >= LIMITS["max_powers"].value:
            raise limit_error("max_powers", f"a map of more than {len(read.powers)} powers", **ln.at(0))
        read.powers.append(power)
        read.power_at[power] = ln.at(0)
    _homes(read, ln, power, read.homes.setdefault(power, {}), first)
    return power


def _lines(read: _Read, text: str, filename: str, open_beside: Callable[[str], tuple[str, str]]) -> None:
    """Read every statement of one file (and the files it includes) into ``read``."""
    read.files.append(filename)

    def include(name: str, ln: _Line, word: int) -> None:
        try:
            body, path = open_beside(name)
        except VariantError as e:
            raise ln.error(e.message, word, found=name, expected="a map file in the map's folder") from None
        if path in read.files:
            raise ln.error(f"{name} is read twice", word, found=name, expected="a file not read yet")
        _lines(read, body, path, open_beside)

    power: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if words:
            power = _statement(read, _Line(filename, n, raw, words), power, include)


def _army_moves(touches: list[str], kind_of: Callable[[str], str | None]) -> set[str]:
    """The provinces an army moves to from the province that ``touches`` these places (see
    the module's docstring: the first place of the list that names a province decides, as
    the package reads it)."""
    out: set[str] = set()
    seen: set[str] = set()
    for place in touches:
        prov = place.upper()[:3] if "/" in place else place.upper()
        if prov in seen:
            continue
        seen.add(prov)
        if kind_of(prov) in ("LAND", "COAST", "PORT") and place != place.title():
            out.add(prov)
    return out


def _fleet_moves(touches: list[str], fleet_at: set[str], kind_of: Callable[[str], str | None]) -> set[str]:
    """The locations a fleet moves to from the location that ``touches`` these places:
    capitalised places, not land, a coast named where the province has coasts."""
    out: set[str] = set()
    seen: set[str] = set()
    for place in touches:
        target = place.upper()
        if target in seen:
            continue
        seen.add(target)
        if place[0].isupper() and target in fleet_at and kind_of(target) != "LAND":
            out.add(target)
    return out


def parse_map_file(text: str, filename: str,
                   open_beside: Callable[[str], tuple[str, str]] | None = None,
                   name: str | None = None) -> Variant:
    """A map file's text as a `Variant` named ``name`` (by default the file's name,
    ``small.map``: what a saved game's ``"map"`` says); ``open_beside(name)`` gives a file a
    ``MAP``/``USE`` line names, as ``(text, its name)``; `VariantError` at
    ``file:line:col`` for what breaks the format or the checks of the module's text."""
    def nothing_beside(name: str) -> tuple[str, str]:
        raise VariantError(f"cannot read the file {name!r} it names: no file beside the text read")
    read = _Read()
    _lines(read, text, filename, open_beside or nothing_beside)

    def kind_of(loc: str) -> str | None:
        k = _key(read, loc)
        return read.kinds[k] if k is not None else None

    provinces_at = sorted({_province(k) for k, v in read.kinds.items() if v != "SHUT"})
    if not provinces_at:
        raise VariantError("no locations (expected WATER, COAST or LAND lines)", filename=filename)
    if not read.powers:
        raise VariantError("no powers (expected a power's line: NAME (ADJECTIVE) HOME ...)",
                           filename=filename)
    # where a fleet may stand: a sea or coast location written in capitals (a bicoastal
    # province itself is written in lower case, a fleet stands on its coasts)
    fleet_at = {k for k, v in read.kinds.items() if v in ("WATER", "COAST", "PORT") and k == k.upper()}
    touches = _touches(read)
    for k, places in touches.items():
        for place_ in places:
            if _key(read, place_) is None and _key(read, _province(place_)) is None:
                where = read.placed.get((k, place_.upper()), {"filename": filename})
                raise VariantError(f"{k} touches {place_}, which is no location of the map",
                                   found=place_, expected="a location of the map", **where)
    _check_coasts(read, provinces_at)
    home_of = _home_of(read, filename)
    centers = set(home_of) | {c for c, when in read.neutral if not read.gone(c, when)}
    unknown = sorted(c for c in centers if c not in provinces_at)
    if unknown:
        raise VariantError(f"{unknown[0]}: named as a supply center, but no province of the map "
                           f"(expected a location line for it, or a map statement here)",
                           found=unknown[0], expected="a province of the map",
                           **read.named_at.get(unknown[0], {"filename": filename}))
    _distinct_tokens(read)
    provinces: dict[str, Province] = {}
    for abbr in provinces_at:
        key = _key(read, abbr)
        coasts = tuple(sorted(k.upper()[len(abbr) + 1:] for k in read.kinds if k.upper().startswith(abbr + "/")))
        kind = read.kinds[key] if key is not None else read.kinds[f"{abbr}/{coasts[0]}"]
        provinces[abbr] = Province(abbr=abbr, name=read.names.get(abbr, abbr), daide=abbr,
                                   terrain=_TERRAIN[kind], center=abbr in centers,
                                   home=home_of.get(abbr), coasts=coasts,
                                   aliases=tuple(read.aliases.get(abbr, ())))
    army = {abbr: frozenset(_army_moves(touches[at], kind_of))
            for abbr in provinces_at if (at := _key(read, abbr)) is not None and read.kinds[at] != "WATER"}
    fleet = {loc: frozenset(_fleet_moves(touches[loc], fleet_at, kind_of)) for loc in sorted(fleet_at)}
    powers = tuple(read.powers)
    name = name or PurePath(filename).name
    game_map = make_map(provinces, army, fleet, powers,
                        aliases={p: tuple(a for a in (read.adjectives.get(p),) if a) for p in powers},
                        name=name)
    victory = (len(game_map.centers) // 2 + 1 if read.victory is None
               else check_victory(read.victory[0], len(game_map.centers), **read.victory[1]))
    return Variant(name, game_map, powers, read.begin, _start_units(read, game_map), victory,
                   ("Spring", "Fall", "Winter"))


def _check_coasts(read: _Read, provinces_at: list[str]) -> None:
    """Each province whose fleets stand on its coasts written as the format says: in lower
    case, a COAST (``COAST bul``, with ``COAST BUL/EC``); every other coast or sea written
    in capitals (a fleet stands on it); else a `VariantError` at its line."""
    for abbr in provinces_at:
        key = _key(read, abbr)
        if key is None:
            continue
        coasts = [k for k in read.kinds if _province(k) == abbr and "/" in k]
        kind, at = read.kinds[key], read.loc_at.get(key, {})
        if coasts and (kind not in ("COAST", "PORT") or key == key.upper()):
            raise VariantError(f"{kind} {key}: a province with coasts ({', '.join(coasts)}) is a COAST "
                               f"written in lower case (COAST {key.lower()}: a fleet stands on its "
                               f"coasts)", found=f"{kind} {key}", expected=f"COAST {key.lower()}", **at)
        if not coasts and kind != "LAND" and key != key.upper():
            raise VariantError(f"{kind} {key}: a fleet stands here, so it is written in capitals "
                               f"({key.upper()}; lower case is a province with coasts, and it has none)",
                               found=key, expected=key.upper(), **at)


def _home_of(read: _Read, filename: str) -> dict[str, str]:
    """Each home center -> its power; a center home to two powers is a `VariantError`
    where the second names it."""
    home_of: dict[str, str] = {}
    for p in read.powers:
        for c, when in read.homes.get(p, {}).items():
            if read.gone(c, when):
                continue
            other = home_of.setdefault(c, p)
            if other != p:
                raise VariantError(f"{p}: {c} is a home of {other} already (a supply center is the "
                                   f"home of one power)", found=c, expected="a center of its own",
                                   **read.home_at.get((p, c), {"filename": filename}))
    return home_of


def _distinct_tokens(read: _Read) -> None:
    """Refuse two powers whose names start with the same three letters (a power's token,
    how it is printed short and named in DAIDE), at the second's line."""
    first: dict[str, str] = {}
    for p in read.powers:
        token = p[:3].upper()
        other = first.setdefault(token, p)
        if other != p:
            raise VariantError(f"power {p}: its short name {token} (the first three letters of its "
                               f"name) is {other}'s too; a power is printed short, and named in DAIDE, "
                               f"by them: give the powers names whose first three letters differ",
                               found=p, expected=f"a name not starting {token}", **read.power_at[p])


def _start_units(read: _Read, game_map: Any) -> tuple[tuple[str, str, str], ...]:
    """The units at the start, each checked (`add_start_unit`)."""
    units: list[tuple[str, str, str]] = []
    for power in game_map.powers:
        for kind, loc, where, when in read.units.get(power, []):
            if read.gone(_province(loc), when):
                continue
            add_start_unit(units, game_map, power, kind, loc, **where)
    return tuple(units)
