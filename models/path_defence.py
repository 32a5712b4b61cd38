"""A known defence for `dipsolve.models.path`: the other powers' orders, phase by phase.

In the opposed models their units never move, so a defence is holds and supports of a
hold, by their units as they stand at the path's start (`given_defence`).  Written as a
file (`read_defence`, ``dipsolve path --defence FILE``): a phase heading in brackets,
then that phase's orders as an orders file has them (docs/orders.md), ``#`` comments::

    # France holds Paris with Picardy's support for a year
    [S1909M]
    France: A PIC S A PAR
    [F1909M]
    France: A PIC S A PAR, A PAR S A PIC

A unit a phase leaves out holds; phases the file leaves out follow the opposition model.
"""

from __future__ import annotations

import os
import re
from typing import Any, Container, Mapping, Sequence, Union

from dipsolve.core.bounds import read_input
from dipsolve.core.graph import reachable_provinces
from dipsolve.core.errors import DipsolveArgumentError, DipsolveError, DipsolveRuleError, DipsolveSyntaxError
from dipsolve.core.orders import Hold, Order, SupportHold
from dipsolve.core.position import Phase, Position
from dipsolve.grammar.orders import read_orders

#: a known defence: movement phase (or its name, "F1905M") -> the other powers' orders in it
Defence = Union[Mapping[Phase, Sequence[Order]], Mapping[str, Sequence[Order]],
                Mapping[Union[Phase, str], Sequence[Order]]]


def _when(phase: Phase) -> tuple[int, int]:
    """A phase's place in the game (movement and adjustment phases)."""
    return phase.year, ("Spring", "Fall", "Winter").index(phase.season)


def given_defence(position: Position, power: str, defence: Defence) -> dict[Phase, dict[str, str | None]]:
    """A known defence as the model reads it: movement phase -> province of a unit of
    theirs -> the province whose hold it supports (None: it holds; a unit a phase leaves
    unordered holds).  Their units never move in the opposed models, so a defence is
    holds and supports of a hold, by the units of the other powers as they stand in
    ``position``, in movement phases from ``position``'s on.  Anything else is refused
    (`DipsolveRuleError`, ``rule`` "path-defence")."""
    if not isinstance(defence, Mapping):
        raise DipsolveArgumentError(f"a defence maps movement phases to orders, not {defence!r}",
                                    expected="a mapping of phases to orders")
    out: dict[Phase, dict[str, str | None]] = {}
    for key, orders in defence.items():
        phase = Phase.parse(key) if isinstance(key, str) else key
        if not isinstance(phase, Phase):
            raise DipsolveArgumentError(f"a defence's phase is a Phase or its name, not {key!r}",
                                        expected="a phase")
        check_phase(position, phase, out)
        given = out[phase] = {}
        for order in orders:
            give(position, power, phase, order, given)
    return out


def _refuse(message: str) -> DipsolveRuleError:
    return DipsolveRuleError(message, rule="path-defence")


def check_phase(position: Position, phase: Phase, seen: Container[Phase]) -> None:
    """Refuse ``phase`` as a defence's phase: not a movement phase, before the path's start
    (``position``'s), or one of ``seen`` again."""
    if phase.kind != "movement":
        raise _refuse(f"a defence orders movement phases; {phase.short} is not one")
    if _when(phase) < _when(position.phase):
        raise _refuse(f"the defence's {phase.short} comes before the path's start, {position.phase.short}")
    if phase in seen:
        raise _refuse(f"the defence gives {phase.short} twice")


def give(position: Position, power: str, phase: Phase, order: Order, given: dict[str, str | None]) -> None:
    """Add ``order`` to ``given``, the defence of ``phase`` so far (province of a unit of
    theirs -> the province it supports, None: it holds), or refuse it."""
    po = position.map.province_of
    if not isinstance(order, (Hold, SupportHold)):
        raise _refuse(f"{phase.short}: {order}: the others' units never move in a path's "
                      f"opposition: a defence holds or supports a hold")
    at = po.get(order.location)
    unit = position.unit_in.get(at) if at else None
    if at is None or unit is None or unit.power == power or unit.kind != order.kind or unit.location != order.location:
        mine = unit is not None and unit.power == power
        raise _refuse(f"{phase.short}: {order}: " + (f"a unit of {power}, whose orders are the plan's"
                      if mine else f"no unit of the other powers stands in {order.location}"))
    if at in given:
        raise _refuse(f"{phase.short}: the unit in {order.location} is ordered twice")
    to = None
    if isinstance(order, SupportHold):
        to = po.get(order.supported_location)
        held = position.unit_in.get(to) if to else None
        if held is None or held.power == power or held.kind != order.supported_kind \
                or held.location != order.supported_location:
            raise _refuse(f"{phase.short}: {order}: no unit of the other powers stands in "
                          f"{order.supported_location} to support")
        if to not in reachable_provinces(position.map, unit):
            raise _refuse(f"{phase.short}: {order}: {unit.location} cannot support into {order.supported_location}")
    given[at] = to


#: a phase heading: ``[S1909M]`` (or ``[Spring 1909 Movement]``), a comment after it
_HEADING = re.compile(r"^\s*\[(?P<phase>[^\]]*)\]\s*(#.*)?$")


def read_defence(text: str, filename: str, position: Position, power: str) -> dict[Phase, list[Order]]:
    """A defence file (see the module notes) for ``power``'s path from ``position``: each
    phase's orders, each checked as `given_defence` checks them (`check_phase`, `give`).
    Every mistake is reported at its file, line and column (`DipsolveSyntaxError`,
    `DipsolveRuleError`: one error listing them all when there are several)."""
    if not isinstance(text, str):
        raise DipsolveArgumentError(f"a defence is read from a text, not {type(text).__name__}",
                                    expected="a text")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    errors: list[DipsolveError] = []
    out: dict[Phase, list[Order]] = {}
    sections: list[tuple[Phase, int, int]] = []       # phase, its heading's index, the next heading's
    current: tuple[Phase, int] | None = None
    po = position.map.province_of

    def at(n: int, column: int, message: str, kind: type[DipsolveError] = DipsolveSyntaxError,
           width: int = 1, **more: Any) -> DipsolveError:
        return kind(message, filename=filename, line=n + 1, column=column,
                    source_line=lines[n], width=width, **more)

    for n, line in enumerate(lines):
        body = line.split("#", 1)[0].strip()
        head = _HEADING.match(line)
        if head:
            if current is not None:
                sections.append((current[0], current[1], n))
                current = None
            name = head.group("phase").strip()
            column = line.index("[") + 2
            try:
                phase = Phase.parse(name)
            except DipsolveError:
                errors.append(at(n, column, f"not a phase: {name!r}", width=max(1, len(name)),
                                 found=name, expected="a movement phase, as [S1909M]"))
                current = None
                continue
            try:
                check_phase(position, phase, out)
            except DipsolveRuleError as e:
                errors.append(at(n, column, e.message, DipsolveRuleError, max(1, len(name)), rule="path-defence"))
                current = None
                continue
            out[phase] = []
            current = (phase, n)
        elif body and current is None and not errors:
            errors.append(at(n, len(line) - len(line.lstrip()) + 1,
                             "an order before any phase heading", found=body,
                             expected="a phase heading, as [S1909M], above the orders"))
    if current is not None:
        sections.append((current[0], current[1], len(lines)))
    for phase, first, end in sections:
        # the section alone, at its place in the file: its errors name the file's lines
        part = "\n" * (first + 1) + "\n".join(lines[first + 1:end])
        read, wrong = read_orders(part, filename, position=position, check_units=True)
        errors.extend(wrong)
        given: dict[str, str | None] = {}
        for o in read:
            n = o.line - 1
            unit = position.unit_in.get(po.get(getattr(o.order, "location", ""), ""))
            if o.power is not None and unit is not None and unit.power != o.power:
                errors.append(at(n, o.column, f"{o.order} is {unit.power}'s unit, not {o.power}'s",
                                 DipsolveRuleError, len(o.text), rule="path-defence"))
                continue
            try:
                give(position, power, phase, o.order, given)
            except DipsolveRuleError as e:
                errors.append(at(n, o.column, e.message, DipsolveRuleError, len(o.text), rule="path-defence"))
                continue
            out[phase].append(o.order)
    if errors:
        raise DipsolveError.combine(errors)
    return out


def load_defence(path: str | os.PathLike[str], position: Position, power: str) -> dict[Phase, list[Order]]:
    """A defence file from disk (`read_defence`)."""
    return read_defence(read_input(path), os.fspath(path), position, power)
