"""A variant of the game as a value: its map, its powers (and their home centers), the
neutral centers, the start, the victory condition and the seasons.

The standard game is one variant's data (``data/standard.variant``, beside the board's
``data/standard.map``), read once by ``variant("standard")``; `Position.initial`, the
games of `dipsolve.play` and the DAIDE seat take the start and the victory from it.

    >>> v = variant("standard")
    >>> v.powers[:3], v.victory, len(v.start_units), len(v.neutral_centers)
    (('Austria', 'England', 'France'), 18, 22, 12)
    >>> v.start_phase, v.seasons, sorted(v.homes["Russia"])
    ('S1901M', ('Spring', 'Fall', 'Winter'), ['MOS', 'SEV', 'STP', 'WAR'])
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Callable, Iterable

from .bounds import LIMITS, check_digits, limit_error, parse_int
from .errors import DipsolveSyntaxError
from .map import (Map, MapFileError, declarations, declared_powers, place, read_declared_map,
                  standard_map)

__all__ = ["VARIANTS", "Variant", "VariantError", "parse_variant", "read_variant", "variant",
           "check_start", "check_victory", "add_start_unit"]

#: the variants dipsolve ships (``data/NAME.variant`` and the board it names, ``data/NAME.map``):
#: the standard game, Pure (Danny Loeb) and Ancient Mediterranean (Don Hessong)
VARIANTS = ("standard", "pure", "ancmed")

#: the lines of a variant file, each with the number of words it takes (None: any)
_KEYS = {"name": 1, "map": 1, "powers": None, "power": None, "start": 1, "unit": 3, "victory": 1,
         "seasons": None}


class VariantError(DipsolveSyntaxError):
    """A variant file that breaks its format, at ``file:line``."""


@dataclass(frozen=True)
class Variant:
    """One game's board and rules of play: ``map``, ``powers`` in their order of play,
    the first phase (``start_phase``, as ``S1901M``) and its units (``start_units``:
    ``(power, kind, location)``; every home center is owned by its power at the start),
    the supply centers that win alone (``victory``) and the ``seasons`` of a year."""

    name: str
    map: Map
    powers: tuple[str, ...]
    start_phase: str
    start_units: tuple[tuple[str, str, str], ...]
    victory: int
    seasons: tuple[str, ...]

    @property
    def homes(self) -> dict[str, frozenset[str]]:
        """Power -> its home centers."""
        return {p: self.map.homes.get(p, frozenset()) for p in self.powers}

    @property
    def neutral_centers(self) -> frozenset[str]:
        """The supply centers no power owns at the start."""
        return self.map.centers - frozenset().union(*self.map.homes.values())

    def winner(self, owners: Iterable[tuple[str, str]]) -> str | None:
        """The power that owns ``victory`` centers or more among ``owners`` (``(center,
        power)`` pairs, as `Position.centers`), if one does."""
        counts: dict[str, int] = {}
        for _, power in owners:
            counts[power] = counts.get(power, 0) + 1
        return next((p for p in self.powers if counts.get(p, 0) >= self.victory), None)


def _as_variant_error(e: MapFileError) -> "VariantError":
    """A declared map's or variant file's error (`MapFileError`) as a `VariantError`, its
    place kept."""
    return VariantError(e.message, filename=e.filename, line=e.line, column=e.column,
                        source_line=e.source_line, width=e.width, found=e.found, expected=e.expected)


def check_start(season: str, year: str, kind: str, **where: Any) -> str:
    """A variant's first phase, from its season (``S``, ``F``, ``W``), year (digits) and
    kind (``M``, ``R``, ``A``), as ``S1901M``: the year within ``max_year`` (its digits
    counted first), a movement or retreat phase in Spring or Fall, an adjustment phase in
    Winter; else `VariantError` (`DipsolveLimitError` for the year) at ``where``
    (``filename``, ``line``, ``column``, ...)."""
    shown = f"{season}{year}{kind}"
    if not (year.isascii() and year.isdigit()):
        raise VariantError(f"start: found {shown!r}, expected a phase such as S1901M",
                           found=shown, expected="a phase such as S1901M", **where)
    number = parse_int(year, "year", "max_year", **where)
    if (season == "W") != (kind == "A"):
        raise VariantError(f"start: {shown} is no phase of the game (a movement or retreat phase is "
                           f"in Spring or Fall, an adjustment phase in Winter)", found=shown,
                           expected="S or F with M or R, W with A", **where)
    return f"{season}{number}{kind}"


def check_victory(text: str, centers: int, **where: Any) -> int:
    """The supply centers that win (``text``: digits, counted first), 1 to the map's
    ``centers``; else `VariantError` (`DipsolveLimitError` for too many digits) at ``where``."""
    if not (text.isascii() and text.isdigit()):
        raise VariantError(f"victory: found {text!r}, expected a number of supply centers",
                           found=text, expected="a number of supply centers", **where)
    number = int(check_digits(text, "victory", **where))
    if not 1 <= number <= centers:
        has = f"{centers} supply centers" if centers else "no supply center"
        raise VariantError(f"victory {number}: the map has {has}, expected 1 to {centers} "
                           f"(the supply centers that win)", found=text,
                           expected=f"1 to {centers}", **where)
    return number


def add_start_unit(units: list[tuple[str, str, str]], game_map: Map, power: str, kind: str, loc: str,
                   **where: Any) -> None:
    """Add ``power``'s unit ``kind`` at ``loc`` to the start's ``units``, checked: a unit
    that may stand there, one a province, no more than ``max_units`` (a start that reads
    back as a position); else `VariantError` (`DipsolveLimitError`) at ``where``."""
    if kind not in ("A", "F") or not game_map.can_stand(kind, loc):
        raise VariantError(f"{kind} {loc}: no such unit can stand on this map", found=f"{kind} {loc}",
                           expected="a unit on a place it may stand", **where)
    prov = game_map.province_of[loc]
    other = next((u for u in units if game_map.province_of[u[2]] == prov), None)
    if other is not None:
        raise VariantError(f"{power} {kind} {loc}: {prov} already has {other[1]} {other[2]} ({other[0]}); "
                           f"one unit a province", found=loc, expected="a province of its own", **where)
    if len(units) >= LIMITS["max_units"].value:
        raise limit_error("max_units", f"a start of more than {len(units)} units", **where)
    units.append((power, kind, loc))


_START = re.compile(r"([SFW])(.*)([MRA])")


def parse_variant(text: str, game_map: Map, filename: str = "<string>", name: str | None = None) -> Variant:
    """A variant file (``data/standard.variant`` says the format) on ``game_map``; its name
    ``name``, or its ``name`` line's; `VariantError` at the ``file:line:col`` that breaks it."""
    raw = text.splitlines()
    fields: dict[str, list[str]] = {}
    at: dict[str, int] = {}
    units: list[tuple[str, str, str]] = []
    try:
        declared_powers(text, filename)
    except MapFileError as e:
        raise _as_variant_error(e) from None

    def where(n: int, word: int | None) -> dict[str, Any]:
        return {"filename": filename, **place(raw[n - 1], n, word)}

    for n, key, words in declarations(text):
        if key not in _KEYS or (_KEYS[key] is not None and len(words) != _KEYS[key]):
            raise VariantError(f"found {' '.join([key, *words])!r}, expected one of "
                               f"{', '.join(_KEYS)} with its words", **where(n, None))
        if key == "power":
            continue
        if key == "unit":
            power, kind, loc = words
            if power not in game_map.powers:
                raise VariantError(f"unit {power} {kind} {loc}: {power} is no power of the powers line "
                                   f"({' '.join(game_map.powers)})", found=power, expected="a power",
                                   **where(n, 1))
            add_start_unit(units, game_map, power, kind, loc, **where(n, 3))
        else:
            fields[key], at[key] = words, n
    missing = [k for k in ("name", "powers", "start", "victory", "seasons") if k not in fields]
    if missing:
        raise VariantError(f"no {', '.join(missing)} line", filename=filename)
    victory = check_victory(fields["victory"][0], len(game_map.centers), **where(at["victory"], 1))
    start = _START.fullmatch(fields["start"][0])
    if start is None:
        raise VariantError(f"start: found {fields['start'][0]!r}, expected a phase such as S1901M",
                           found=fields["start"][0], expected="a phase such as S1901M",
                           **where(at["start"], 1))
    start_phase = check_start(*start.groups(), **where(at["start"], 1))
    powers = tuple(fields["powers"])
    if powers != game_map.powers:
        raise VariantError(f"powers {' '.join(powers)}: the map's are {' '.join(game_map.powers)}",
                           **where(at["powers"], None))
    return Variant(name or fields["name"][0], game_map, powers, start_phase, tuple(units),
                   victory, tuple(fields["seasons"]))


def _first(text: str, key: str) -> tuple[int, str] | None:
    """The line and first word of a variant file's ``key`` line, if it has one."""
    return next(((n, words[0]) for n, k, words in declarations(text) if k == key and words), None)


def read_variant(text: str, filename: str, read_beside: Callable[[str], str],
                 name: str | None = None) -> Variant:
    """A variant file and the map it names (a declared map in dipsolve's format, read by
    ``read_beside(name)``), or `VariantError` at the line of either that breaks it; the
    variant's name ``name`` (a user's file: its file's name), or its ``name`` line's."""
    try:
        powers, tokens, aliases = declared_powers(text, filename)
    except MapFileError as e:
        raise _as_variant_error(e) from None
    map_line = _first(text, "map")
    if map_line is None:
        raise VariantError("no map line", filename=filename)
    n, map_name = map_line
    try:
        body = read_beside(map_name)
    except VariantError as e:
        raise VariantError(e.message, filename=filename, **place(text.splitlines()[n - 1], n, 1),
                           found=map_name, expected="a map file in the variant's folder") from None
    named = _first(text, "name")
    try:
        game_map = read_declared_map(body, powers, tokens, aliases, name=name or (named[1] if named else ""),
                                     filename=os.path.join(os.path.dirname(filename), map_name))
    except MapFileError as e:
        raise _as_variant_error(e) from None
    return parse_variant(text, game_map, filename, name)


@cache
def variant(name: str = "standard") -> Variant:
    """A variant dipsolve ships, by name (`VARIANTS`); `DipsolveSyntaxError` for another."""
    if name not in VARIANTS:
        raise DipsolveSyntaxError(f"unknown variant {name!r} (expected one of {', '.join(VARIANTS)}, "
                                  f"or a variant or map file)", found=name,
                                  expected=", ".join(VARIANTS))
    data = resources.files("dipsolve") / "data"
    text = (data / f"{name}.variant").read_text(encoding="utf-8")
    if name == "standard":
        return parse_variant(text, standard_map(), "standard.variant")
    return read_variant(text, f"{name}.variant", lambda f: (data / f).read_text(encoding="utf-8"))
