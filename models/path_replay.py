"""A plan of the fastest path played through the adjudicator, with the power alone on the board.

`replay` is the check every plan of `dipsolve.models.path` passes before it is returned:
each order must succeed as planned, each phase must be the one the adjudicator reaches,
and the centers after each phase are counted as the adjudicator leaves them.  A plan
that fails is a bug (`ReplayError`, a `DipsolveInternalError`), never a user's mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from dipsolve.core.adjudicator import Outcome, Reason, adjudicate
from dipsolve.core.errors import DipsolveInternalError
from dipsolve.core.orders import Order
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



class ReplayError(DipsolveInternalError):
    """A plan that the adjudicator does not play out as planned (a bug, never user error)."""


_OK = {Reason.MOVED, Reason.HELD, Reason.CONVOYED, Reason.BUILT, Reason.REMOVED,
       Reason.DISBANDED, Reason.WAIVED}


def replay(position: Position, power: str, steps: Iterable[tuple[Phase, Sequence[Order]]],
           rules: str = "full", *, deadline: Deadline | None = None
           ) -> tuple[list[PlanPhase], list[Outcome]]:
    """Play a plan through the adjudicator with ``power`` alone on the board.

    Every order must succeed as planned (moves move, convoys convoy, builds build) and
    each phase must be the one the adjudicator reaches (a Winter with nothing to order
    may be skipped by the adjudicator, and is then left out of the plan).  Returns the
    plan with the centers after each phase (owned under the full rules; owned or passed
    through under the paper's) and the adjudicator's outcomes.  Raises `ReplayError`
    otherwise.  ``deadline`` is checked before each phase (`dipsolve.core.results.TimeUp`).
    """
    m = position.map
    po = m.province_of
    pos = position.alone({power})
    seen = set(pos.centers_of(power)) | {po[u.location] for u in pos.units if po[u.location] in m.centers}
    plan: list[PlanPhase] = []
    outcomes: list[Outcome] = []
    for phase, orders in steps:
        if deadline is not None:
            deadline.check()
        if pos.phase != phase:
            if phase.kind == "adjustment" and not orders:
                continue
            raise ReplayError(f"the plan has {phase} but the adjudicator reached {pos.phase}")
        outcome = adjudicate(pos, {power: list(orders)})
        bad = [r for r in outcome.results if not r.success or r.reason not in _OK]
        if bad or (outcome.destroyed and phase.kind == "movement"):
            raise ReplayError(f"{phase}: " + "; ".join(str(r) for r in bad)
                              + (f" destroyed: {outcome.destroyed}" if outcome.destroyed else ""))
        pos = outcome.next
        seen |= {po[u.location] for u in pos.units if po[u.location] in m.centers}
        count = len(pos.centers_of(power)) if rules == "full" else len(seen | set(pos.centers_of(power)))
        outcomes.append(outcome)
        if phase.kind == "movement" or orders:
            plan.append(PlanPhase(phase, tuple(orders), count, len(pos.units_of(power))))
    return plan, outcomes
