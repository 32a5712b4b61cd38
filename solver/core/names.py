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
from .map import Map, standard_map

__all__ = ["power_list", "check_power", "check_province", "check_location", "power_hint",
           "province_hint", "unknown_power", "check_text"]


def power_list(game_map: Map | None = None) -> str:
    """The powers of ``game_map`` (the standard map's when none is given) as an error
    lists them: their names, then their DAIDE tokens."""
    m = game_map or standard_map()
    return f"{', '.join(m.powers)}, or {', '.join(m.power_tokens[p] for p in m.powers)}"
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


def power_hint(text: str, game_map: Map | None = None) -> str:
    """The power of ``game_map`` ``text`` was probably meant to name (``"Frnace"``:
    ``"France"``), or ``""``."""
    aliases = (game_map or standard_map()).power_aliases
    found = []
    for alias in _close(text.strip().upper(), list(aliases)):
        if aliases[alias] not in found:
            found.append(aliases[alias])
    return " or ".join(found)


def unknown_power(text: str, game_map: Map | None = None) -> str:
    """The message for a power not known on ``game_map``: the powers it could name (a
    spelling several share: `Map.ambiguous_powers`), or the closest names, then every name."""
    shared = (game_map or standard_map()).ambiguous_powers.get(text.strip().upper())
    if shared:
        return (f"{quote(text)!r} names {len(shared)} powers ({', '.join(shared[:6])}"
                f"{', ...' if len(shared) > 6 else ''}): give one's full name or token")
    hint = power_hint(text, game_map)
    near = f"did you mean {hint}? " if hint else ""
    return f"unknown power {quote(text)!r} ({near}expected one of {power_list(game_map)})"


def check_power(value: Any, what: str = "power", game_map: Map | None = None) -> str:
    """The canonical name of the power of ``game_map`` (the standard map when none is
    given) that ``value`` names in any spelling (any case, full name, adjective, DAIDE
    token, abbreviation), or a `DipsolveSyntaxError` listing the closest names
    (`DipsolveArgumentError` for a value that is no text)."""
    m = game_map or standard_map()
    if isinstance(value, str) and value in m.powers:     # the common case
        return value
    name = m.power(check_text(value, what))
    if name is None:
        prefix = "" if what == "power" else f"{what}: "
        raise DipsolveSyntaxError(prefix + unknown_power(value, m), found=quote(value),
                                  expected="a power")
    return name


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
