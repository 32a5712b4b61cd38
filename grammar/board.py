"""The board's problems as errors at the text: each of `Position.problems()` at its token.

A position read from a ``.dip`` file or from DAIDE ``NOW``/``SCO`` is put together and
then checked as a whole (`dipsolve.core.position.Position.problems`); `board_errors` reports
each problem at the token that wrote its subject, as a `DipsolveRuleError` naming the
rule broken, or a `DipsolveSyntaxError` for a name that names nothing:

    >>> board_rule("an army cannot stand in North Sea (a sea)")
    'army-at-sea'
    >>> board_rule("two units in Paris: A PAR (France) and A PAR (Germany)")
    'one-unit-per-province'
    >>> board_rule("unknown power 'Prussia' (expected one of Austria, ...)") is None
    True
"""

from __future__ import annotations

import re
from typing import Mapping

from dipsolve.core.map import Map
from dipsolve.core.position import Position, Unit

from .errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError, Source, Span

__all__ = ["BOARD_RULES", "board_errors", "board_rule"]


def board_errors(position: Position, source: Source, unit_at: Mapping[Unit, list[Span]],
                 center_at: Mapping[str, list[Span]],
                 centers_in_order: list[Span]) -> list[DipsolveError]:
    """`Position.problems()`, each at the token that wrote its subject (the last one,
    when the same unit or center was written twice): a `DipsolveRuleError` naming its
    rule (`BOARD_RULES`), or a `DipsolveSyntaxError` for a name that names nothing."""
    out: list[DipsolveError] = []
    n_centers = len(position.map.centers)
    for message, subject in position.problems():
        if isinstance(subject, Unit):
            at = unit_at.get(subject, [None])[-1]
        elif isinstance(subject, str):
            at = center_at.get(subject, [None])[-1]
        elif subject is None and len(centers_in_order) > n_centers:
            at = centers_in_order[n_centers]
        else:
            at = None
        rule = board_rule(message)
        expected = (_RETREATS_EXPECTED if rule in _RETREAT_RULES
                    else _expected_for(subject, position.map))
        if at is None:
            out.append(DipsolveRuleError(message, rule=rule, filename=source.filename,
                                         expected=expected) if rule is not None
                       else DipsolveSyntaxError(message, filename=source.filename,
                                                expected=expected))
        elif rule is not None:
            out.append(source.at(DipsolveRuleError, message, at, expected, rule=rule))
        else:
            out.append(source.at(DipsolveSyntaxError, message, at, expected))
    return out


#: the board's rules, by name, each with how `Position.problems()` words a breach
BOARD_RULES: dict[str, str] = {
    "army-at-sea": "an army cannot stand in ",
    "fleet-inland": "a fleet cannot stand in ",
    "coast-required": "a fleet in * must name its coast",
    "army-on-coast": "an army stands in a province, not on a coast",
    "army-retreat-on-coast": "an army retreats to a province, not to a coast",
    "army-retreat-at-sea": "an army cannot retreat to ",
    "fleet-retreat-inland": "a fleet cannot retreat to ",
    "one-unit-per-province": "two units in ",
    "one-dislodged-per-province": "two dislodged units in ",
    "not-a-center": "* is not a supply center",
    "one-owner-per-center": "supply center * owned twice",
    "too-many-centers": "* supply centers owned; the board has ",
}
_RETREAT_RULES = ("army-retreat-on-coast", "army-retreat-at-sea", "fleet-retreat-inland")
_RETREATS_EXPECTED = "retreats the unit may stand in: provinces for an army, coasts or seas for a fleet"
#: what `Position.problems()` says of a name that names nothing (not understood)
_UNKNOWN_NAMES = ("unknown unit type ", "unknown location ", "unknown power ")
_BOARD_PATTERNS = [(re.compile(".*".join(map(re.escape, words.split("*")))), rule)
                   for rule, words in BOARD_RULES.items()]


def board_rule(message: str) -> str | None:
    """The rule a message of `Position.problems()` reports (None for an unknown name,
    which is not understood rather than not allowed; "board" for a problem not listed
    in `BOARD_RULES`)."""
    if message.startswith(_UNKNOWN_NAMES):
        return None
    for pattern, rule in _BOARD_PATTERNS:
        if pattern.match(message):
            return rule
    return "board"


def _expected_for(subject: object, m: Map) -> str:
    """What would have been right, for a subject of `Position.problems()`."""
    if isinstance(subject, Unit):
        prov = m.province_of.get(subject.location)
        if prov is None or subject.kind not in ("A", "F"):
            return "a unit on a location of the map"
        terrain = m.provinces[prov].terrain
        if subject.kind == "A" and (terrain == "sea" or subject.location != prov):
            return "an army on land or a coast, not at sea or on one coast"
        if subject.kind == "F" and terrain == "land":
            return "a fleet on a coast or at sea"
        if subject.kind == "F" and subject.location == prov and m.provinces[prov].coasts:
            return " or ".join(m.fleet_locations[prov])
        if subject.power not in m.powers:
            return "one of " + ", ".join(m.powers)
        return "one unit in each province"
    if isinstance(subject, str):
        return "a supply center" if subject not in m.centers else "one owner for each center"
    return f"at most {len(m.centers)} supply centers"
