"""Names checked at the public entry points: a power, a province or a location given to a
public function is made canonical, or refused with a `DipsolveSyntaxError` that names the
closest spellings, as the command line refuses them.

    >>> check_power("fra"), check_power("French"), check_power("TUR")
    ('France', 'France', 'Turkey')
    >>> check_power("Frnace")
    Traceback (most recent call last):
    ...
    dipsolve.core.errors.DipsolveSyntaxError: unknown power 'Frnace' (did you mean France? expected one of Austria, England, France, Germany, Italy, Russia, Turkey, or AUS, ENG, FRA, GER, ITA, RUS, TUR)
    >>> check_province(standard_map(), "Pariss")
    Traceback (most recent call last):
    ...
    dipsolve.core.errors.DipsolveSyntaxError: unknown province 'Pariss' (did you mean PAR, Paris?)

A value of the wrong kind (a number where a power's name goes) is a
`DipsolveArgumentError`: not understood, and a `TypeError` for code that catches that.
"""

from __future__ import annotations

import difflib
from typing import Any

from .errors import DipsolveArgumentError, DipsolveSyntaxError, quote
from .map import POWER_ALIASES, POWERS, Map, power_name, standard_map

__all__ = ["POWER_LIST", "check_power", "check_province", "check_location", "power_hint",
           "province_hint", "unknown_power", "check_text"]

#: the powers as an error lists them
POWER_LIST = f"{', '.join(POWERS)}, or AUS, ENG, FRA, GER, ITA, RUS, TUR"
#: past this many characters a name is close to none (difflib is quadratic in the length)
_LONGEST = 40


def check_text(value: Any, what: str) -> str:
    """``value`` if it is a string, else a `DipsolveArgumentError` naming ``what``."""
    if not isinstance(value, str):
        raise DipsolveArgumentError(f"{what}: expected a text, not {_kind(value)}",
                                    found=quote(repr(value)), expected="a text")
    return value


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__} ({quote(repr(value), 40)})"


def _close(key: str, names: list[str]) -> list[str]:
    if len(key) > _LONGEST:
        return []
    return difflib.get_close_matches(key, names, n=3, cutoff=0.75)


def power_hint(text: str) -> str:
    """The power ``text`` was probably meant to name (``"Frnace"``: ``"France"``), or ``""``."""
    key = text.strip().upper()
    found = []
    for alias in _close(key, list(POWER_ALIASES)):
        if POWER_ALIASES[alias] not in found:
            found.append(POWER_ALIASES[alias])
    return " or ".join(found)


def unknown_power(text: str) -> str:
    """The message for a power not known: the closest names, then every name."""
    hint = power_hint(text)
    near = f"did you mean {hint}? " if hint else ""
    return f"unknown power {quote(text)!r} ({near}expected one of {POWER_LIST})"


def check_power(value: Any, what: str = "power") -> str:
    """The canonical name of the power ``value`` names in any spelling (any case, full
    name, adjective, DAIDE token, abbreviation), or a `DipsolveSyntaxError` listing the
    closest names (`DipsolveArgumentError` for a value that is no text)."""
    if isinstance(value, str) and value in _CANONICAL:     # the common case
        return value
    name = power_name(check_text(value, what))
    if name is None:
        prefix = "" if what == "power" else f"{what}: "
        raise DipsolveSyntaxError(prefix + unknown_power(value), found=quote(value),
                                  expected="a power")
    return name


_CANONICAL = frozenset(POWERS)


def province_hint(game_map: Map, text: str) -> str:
    """`` (did you mean PAR, Paris?)`` for a name close to a province's, or ``""``."""
    key = "".join(ch for ch in text.upper() if ch.isalnum())
    close = _close(key, list(game_map.names))
    if not close:
        return ""
    provs = list(dict.fromkeys(game_map.names[c] for c in close))
    return " (did you mean " + " or ".join(f"{p}, {game_map.provinces[p].name}" for p in provs) + "?)"


def check_province(game_map: Map | None, value: Any, what: str = "province") -> str:
    """The province abbreviation ``value`` names in any spelling (``"paris"``: ``"PAR"``;
    a coast is dropped: ``"stp/nc"``: ``"STP"``), or a `DipsolveSyntaxError` naming the
    closest provinces."""
    m = game_map or standard_map()
    text = check_text(value, what)
    loc = m.location(text)
    prov = m.province_of.get(loc) if loc is not None else m.province(text)
    if prov is None:
        raise DipsolveSyntaxError(f"unknown {what} {quote(text)!r}{province_hint(m, text)}",
                                  found=quote(text), expected="a province")
    return prov


def check_location(game_map: Map | None, value: Any, what: str = "location") -> str:
    """The location ``value`` names (``"stp/nc"``: ``"STP/NC"``; ``"paris"``: ``"PAR"``),
    or a `DipsolveSyntaxError` naming the closest provinces."""
    m = game_map or standard_map()
    text = check_text(value, what)
    loc = m.location(text)
    if loc is None:
        check_province(m, text.partition("/")[0].partition("(")[0], what)
        raise DipsolveSyntaxError(f"unknown {what} {quote(text)!r} (the province has no such coast)",
                                  found=quote(text), expected="a location")
    return loc
