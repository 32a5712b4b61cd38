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

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Callable, Iterable

from .errors import DipsolveSyntaxError
from .map import Map, MapFileError, declarations, declared_powers, read_declared_map, standard_map

__all__ = ["VARIANTS", "Variant", "VariantError", "parse_variant", "read_variant", "variant"]

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


def parse_variant(text: str, game_map: Map, filename: str = "<string>") -> Variant:
    """A variant file (``data/standard.variant`` says the format) on ``game_map``."""
    fields: dict[str, list[str]] = {}
    units: list[tuple[str, str, str]] = []
    try:
        declared_powers(text)
    except MapFileError as e:
        raise VariantError(str(e), filename=filename, line=e.line, column=1) from None
    for n, key, words in declarations(text):
        if key not in _KEYS or (_KEYS[key] is not None and len(words) != _KEYS[key]):
            raise VariantError(f"found {' '.join([key, *words])!r}, expected one of "
                               f"{', '.join(_KEYS)} with its words", filename=filename, line=n, column=1)
        if key == "power":
            continue
        if key == "unit":
            power, kind, loc = words
            if kind not in ("A", "F") or not game_map.can_stand(kind, loc):
                raise VariantError(f"{kind} {loc}: no such unit can stand on this map",
                                   filename=filename, line=n, column=1)
            units.append((power, kind, loc))
        else:
            fields[key] = words
    missing = [k for k in ("name", "powers", "start", "victory", "seasons") if k not in fields]
    if missing:
        raise VariantError(f"no {', '.join(missing)} line", filename=filename)
    if not fields["victory"][0].isdigit():
        raise VariantError(f"victory: found {fields['victory'][0]!r}, expected a number of centers",
                           filename=filename)
    powers = tuple(fields["powers"])
    if powers != game_map.powers:
        raise VariantError(f"powers {' '.join(powers)}: the map's are {' '.join(game_map.powers)}",
                           filename=filename)
    strangers = sorted({u[0] for u in units} - set(powers))
    if strangers:
        raise VariantError(f"units of powers not on the powers line: {', '.join(strangers)}",
                           filename=filename)
    return Variant(fields["name"][0], game_map, powers, fields["start"][0], tuple(units),
                   int(fields["victory"][0]), tuple(fields["seasons"]))


def _first(text: str, key: str) -> str | None:
    """The first word of a variant file's ``key`` line, if it has one."""
    return next((words[0] for _, k, words in declarations(text) if k == key and words), None)


def read_variant(text: str, filename: str, read_beside: Callable[[str], str]) -> Variant:
    """A variant file and the map it names (a declared map in dipsolve's format, read by
    ``read_beside(name)``), or `VariantError` at the line of either that breaks it."""
    try:
        powers, tokens, aliases = declared_powers(text)
    except MapFileError as e:
        raise VariantError(str(e), filename=filename, line=e.line, column=1) from None
    map_name = _first(text, "map")
    if map_name is None:
        raise VariantError("no map line", filename=filename)
    try:
        game_map = read_declared_map(read_beside(map_name), powers, tokens, aliases,
                                     name=_first(text, "name") or "")
    except MapFileError as e:
        raise VariantError(str(e), filename=map_name, line=e.line, column=1) from None
    return parse_variant(text, game_map, filename)


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
