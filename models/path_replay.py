"""A plan of the fastest path played through the adjudicator, with the power alone on the board.

`replay` is the check every plan of `dipsolve.models.path` passes before it is returned:
each order must succeed as planned, each phase must be the one the adjudicator reaches,
and the centers after each phase are counted as the adjudicator leaves them.  A plan
that fails is a bug (`ReplayError`, a `DipsolveInternalError`), never a user's mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Mapping, Sequence

from dipsolve.core.adjudicator import Outcome, Reason, adjudicate
from dipsolve.core.errors import DipsolveInternalError
from dipsolve.core.graph import reachable_provinces
from dipsolve.core.orders import Hold, Move, Order, SupportHold, SupportMove
from dipsolve.core.position import Phase, Position
from dipsolve.core.results import Deadline


@dataclass(frozen=True)
class PlanPhase:
    """The power's orders for one phase of the plan, and where the replay stood after it."""

    phase: Phase
    orders: tuple[Order, ...]
    #: centers after this phase in the replay: owned (full rules) or passed through (paper)
    centers: int
    units: int
    #: the opposition's orders in this phase (the opposed models; none when it is alone)
    others: tuple[Order, ...] = ()



class ReplayError(DipsolveInternalError):
    """A plan that the adjudicator does not play out as planned (a bug, never user error)."""


_OK = {Reason.MOVED, Reason.HELD, Reason.CONVOYED, Reason.BUILT, Reason.REMOVED,
       Reason.DISBANDED, Reason.WAIVED, Reason.SUPPORTED}


def replay(position: Position, power: str, steps: Iterable[tuple[Phase, Sequence[Order]]],
           rules: str = "full", *, opposition: str = "none",
           bounces: Mapping[Phase, Collection[Order]] | None = None,
           defence: Mapping[Phase, Mapping[str, str | None]] | None = None,
           deadline: Deadline | None = None) -> tuple[list[PlanPhase], list[Outcome]]:
    """Play a plan through the adjudicator with ``power`` alone on the board, or, under
    an ``opposition`` (`dipsolve.models.path_problem.OPPOSITIONS`), against the other
    powers' units as that model has them play (`opposition_orders`): holding, or
    supporting each other's holds where the plan attacks, or as the known ``defence``
    orders them in its phases (`dipsolve.models.path_defence.given_defence`); a unit of theirs that is
    dislodged gives no retreat and is destroyed; they build nothing (a removal they owe
    is made by the rules' civil disorder).

    Every order must succeed as planned (moves move, supports support, convoys convoy,
    builds build; a move in ``bounces[phase]``, meant to cut a support, must bounce) and
    each phase must be the one the adjudicator reaches (a Winter with nothing to order
    may be skipped by the adjudicator, and is then left out of the plan; a retreat phase
    of their dislodged units is played with the movement before it).  Returns the plan
    with the centers after each phase (owned under the full rules; owned or passed
    through under the paper's) and the adjudicator's outcomes.  Raises `ReplayError`
    otherwise.  ``deadline`` is checked before each phase (`dipsolve.core.results.TimeUp`).
    """
    m = position.map
    po = m.province_of
    alone = opposition == "none"
    pos = position.alone({power}) if alone else position
    mine = {u.power for u in position.units_of(power)} or {power}
    seen = set(pos.centers_of(power)) | {po[u.location] for u in pos.units_of(power)
                                         if po[u.location] in m.centers}
    plan: list[PlanPhase] = []
    outcomes: list[Outcome] = []
    for phase, orders in steps:
        if deadline is not None:
            deadline.check()
        if pos.phase != phase:
            if phase.kind == "adjustment" and not orders:
                continue
            raise ReplayError(f"the plan has {phase} but the adjudicator reached {pos.phase}")
        others = {} if alone or phase.kind != "movement" else \
            opposition_orders(pos, power, orders, opposition, (defence or {}).get(phase))
        outcome = adjudicate(pos, {power: list(orders), **others})
        if phase.kind == "adjustment" and not alone:
            outcome = keep_theirs(pos, outcome, mine)
        meant = set((bounces or {}).get(phase, ()))
        bad = [r for r in outcome.results if r.power in mine
               and not (r.order in meant and r.reason == Reason.BOUNCED)
               and (not r.success or r.reason not in _OK or r.order in meant)]
        lost = [u for u in outcome.destroyed if u.power in mine] if not alone else outcome.destroyed
        if bad or (lost and phase.kind == "movement"):
            raise ReplayError(f"{phase}: " + "; ".join(str(r) for r in bad)
                              + (f" destroyed: {lost}" if lost else ""))
        outcomes.append(outcome)
        pos = outcome.next
        if pos.phase.kind == "retreat" and not alone:
            # their dislodged units, ordered nothing, are destroyed
            if any(d.unit.power in mine for d in pos.dislodged):
                raise ReplayError(f"{phase}: a unit of {power} was dislodged")
            outcome = adjudicate(pos, {})
            outcomes.append(outcome)
            pos = outcome.next
        seen |= {po[u.location] for u in pos.units_of(power) if po[u.location] in m.centers}
        count = len(pos.centers_of(power)) if rules == "full" else len(seen | set(pos.centers_of(power)))
        if phase.kind == "movement" or orders:
            given = tuple(o for os in others.values() for o in os)
            plan.append(PlanPhase(phase, tuple(orders), count, len(pos.units_of(power)), given))
    return plan, outcomes


def keep_theirs(before: Position, outcome: Outcome, mine: Collection[str]) -> Outcome:
    """A Winter of the opposed models: the power's builds and removals as the
    adjudicator makes them, the others' units all kept (a power of theirs that owes
    removals makes none: the defence at its strongest, since a unit of theirs never
    helps the plan; the rules would have it remove)."""
    nxt = outcome.next
    theirs = [u for u in before.units if u.power not in mine]
    kept = Position.build(nxt.phase, [u for u in nxt.units if u.power in mine] + theirs, nxt.owner,
                          game_map=nxt.map)
    return Outcome(outcome.position, tuple(r for r in outcome.results if r.power in mine), kept,
                   tuple(u for u in outcome.destroyed if u.power in mine))


def opposition_orders(position: Position, power: str, orders: Sequence[Order],
                      opposition: str, given: Mapping[str, str | None] | None = None
                      ) -> dict[str, list[Order]]:
    """The other powers' orders in a movement phase of a replay: every unit holds
    (``hold``); under ``supported``, each supports the hold of a neighbour of its that
    the plan attacks, the one whose attack has the fewest supports to spare (the
    strongest defence of the plan's weakest attack), and holds if none is attacked.
    A phase of a known defence is played as ``given`` (province of a unit of theirs ->
    the province whose hold it supports, None: it holds; a support of a unit our plan
    has destroyed becomes a hold, and a unit it leaves out holds)."""
    po = position.map.province_of
    mine = set(position.units_of(power))
    theirs = [u for u in position.units if u not in mine]
    out: dict[str, list[Order]] = {}
    if given is not None:
        standing = {po[u.location]: u for u in theirs}
        for u in theirs:
            to = given.get(po[u.location])
            target = standing.get(to) if to else None
            out.setdefault(u.power, []).append(
                SupportHold(u.kind, u.location, target.kind, target.location) if target else Hold(u.kind, u.location))
        return out
    if opposition != "supported":
        for u in theirs:
            out.setdefault(u.power, []).append(Hold(u.kind, u.location))
        return out
    held = {po[u.location]: u for u in theirs}
    spare: dict[str, int] = {}
    for o in orders:
        if isinstance(o, Move) and po[o.target] in held:
            spare.setdefault(po[o.target], -1)
    for o in orders:
        if isinstance(o, SupportMove) and po[o.target] in spare:
            spare[po[o.target]] += 1
    for u in theirs:
        can = [e for e in sorted(spare) if e != po[u.location]
               and e in reachable_provinces(position.map, u)]
        if can:
            e = min(can, key=lambda p: (spare[p], p))
            spare[e] -= 1
            target = held[e]
            out.setdefault(u.power, []).append(SupportHold(u.kind, u.location, target.kind, target.location))
        else:
            out.setdefault(u.power, []).append(Hold(u.kind, u.location))
    return out
