"""Trust: how far each power keeps its word, a Beta-Bernoulli estimate from the checks of the agreements it was bound by.

    >>> import dipsolve
    >>> from dipsolve.agreements import AgreementTracker
    >>> t = AgreementTracker()
    >>> _ = t.hear("S1901M", "France", "Germany", "PRP (DMZ (FRA GER) (BUR))")
    >>> _ = t.hear("S1901M", "Germany", "France", "YES (PRP (DMZ (FRA GER) (BUR)))")
    >>> _ = t.end_phase("S1901M", dipsolve.Position.initial(), {"France": ["A PAR - BUR"]})
    >>> trust = Trust.from_agreements(t.result())
    >>> round(trust.of("France"), 3), round(trust.of("Germany"), 3), round(trust.of("Italy"), 3)
    (0.5, 0.75, 0.667)

Each agreement is one trial for every power it binds, once a phase's orders have tested
it (`dipsolve.agreements.checks`): a power whose order broke it failed, the others bound
by it kept their word (so far: an agreement kept for years and then broken is a failure),
and an agreement never tested is no trial at all.  A power's trust is the mean of its
Beta posterior: ``(PRIOR_KEPT + kept) / (PRIOR_KEPT + PRIOR_BROKEN + kept + broken)``,
from the prior Beta(2, 1): a power never tested is trusted 2/3, more than not, so that a
seat may offer and accept its first agreements.

Why a trial an agreement and not a trial a phase checked: counted by the phase, a power
with a few agreements in force gains a kept trial for each of them every phase, and its
betrayals drown.  Measured (``benchmarks/press.py``'s ``policy`` series, one opportunistic
seat among six honest ones, 25 games, 2026-11-29): the stabber broke 1,187 of the 1,776
agreements it was bound by, yet its trust counted by the phase ended at a median of 0.85
(some 300 kept checks a game against 70 broken agreements), above every threshold an
honest seat acts on; counted by the agreement it is 0.33.

Why a Bayesian estimate rather than the Hall & Loeb seed's tit-for-tat (``002_…``, section
5: co-operate until betrayed, then retaliate): a seat's search needs a *degree* of trust,
a probability, not a switch: how far an ally's units count as its own, with what chance
a power that agreed a demilitarized zone stays out of it (the seat's opponent model draws
its orders so), and how much trust a betrayal would cost (`Trust.lost`), to weigh against
what breaking an agreement gains (`worth_breaking`).  The Beta mean gives all three, and
still punishes as tit-for-tat does, more sharply the shorter a power's record: from the
prior, one betrayal takes a power from 2/3 to 1/2; after ten agreements kept, from 12/13 to
12/14.

Every power's orders are public once a phase is adjudicated, so trust is a power's
record, the same in every seat's eyes (as far as each sees the orders).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .model import Agreements, Check, Verdict
from .terms import Term

__all__ = ["PRIOR_BROKEN", "PRIOR_KEPT", "TRUST_WORTH", "Trust", "worth_breaking"]

#: the Beta prior's pseudo-counts: agreements kept, and broken, before any is checked
PRIOR_KEPT = 2.0
PRIOR_BROKEN = 1.0
#: what a seat's whole trust is worth to it, in the influence evaluation's units (100 a
#: supply centre owned, `dipsolve.algorithms.evaluation.influence`): a betrayal that costs
#: 1/6 of trust (2/3 -> 1/2, a power's first) must gain more than about 1.7 centres' worth
TRUST_WORTH = 1000.0


@dataclass(frozen=True)
class Trust:
    """Each power's record: the checks in which it kept (``kept``) and broke
    (``broken``) an agreement it was bound by; `of` its trust."""

    kept: Mapping[str, float] = field(default_factory=dict)
    broken: Mapping[str, float] = field(default_factory=dict)

    def of(self, power: str) -> float:
        """The power's trust: the mean of its Beta posterior, in (0, 1)."""
        k, b = self.kept.get(power, 0.0), self.broken.get(power, 0.0)
        return (PRIOR_KEPT + k) / (PRIOR_KEPT + PRIOR_BROKEN + k + b)

    def after_breaking(self, power: str, times: int = 1, were_kept: int = 0) -> float:
        """The power's trust once it has broken ``times`` agreements more, ``were_kept``
        of them tested before (counted kept so far: they move to broken)."""
        k = self.kept.get(power, 0.0) - min(were_kept, times)
        b = self.broken.get(power, 0.0) + times
        return (PRIOR_KEPT + k) / (PRIOR_KEPT + PRIOR_BROKEN + k + b)

    def lost(self, power: str, times: int = 1, were_kept: int = 0) -> float:
        """The trust the power would lose by breaking ``times`` agreements now
        (`after_breaking`)."""
        return self.of(power) - self.after_breaking(power, times, were_kept)

    def worth_breaking(self, power: str, gain: float, times: int = 1, worth: float = TRUST_WORTH,
                       were_kept: int = 0) -> bool:
        """Whether ``power`` breaking ``times`` agreements (``were_kept`` of them tested
        before) for ``gain`` is worth it (`worth_breaking`, with the trust it would lose)."""
        return worth_breaking(gain, self.lost(power, times, were_kept), worth)

    def observe(self, term: Term, checks: Iterable[Check]) -> Trust:
        """The record with one more agreement on ``term``, checked as ``checks`` say: its
        breakers failed, the other powers it binds kept their word (an agreement no check
        tested: no change)."""
        tested = [c for c in checks if c.verdict is not Verdict.UNTESTED]
        if not tested:
            return self
        breakers = {b.power for c in tested for b in c.breaches}
        kept, broken = dict(self.kept), dict(self.broken)
        for power in term.bound:
            if power in breakers:
                broken[power] = broken.get(power, 0.0) + 1.0
            else:
                kept[power] = kept.get(power, 0.0) + 1.0
        for power in breakers - set(term.bound):      # never: a breach is a bound power's
            broken[power] = broken.get(power, 0.0) + 1.0
        return Trust(kept, broken)

    @classmethod
    def from_agreements(cls, ledger: Agreements | Iterable) -> Trust:
        """Every power's record in a game's agreements (`dipsolve.agreements.Agreements`,
        or any agreements with their checks): a trial an agreement tested."""
        trust = cls()
        for a in ledger:
            trust = trust.observe(a.term, a.checks)
        return trust

    def to_json(self, powers: Iterable[str] = ()) -> dict:
        """Power -> ``{"trust", "kept", "broken"}`` for ``powers`` and every power with a record."""
        names = dict.fromkeys([*powers, *self.kept, *self.broken])
        return {p: {"trust": round(self.of(p), 6), "kept": self.kept.get(p, 0.0), "broken": self.broken.get(p, 0.0)}
                for p in names}


def worth_breaking(gain: float, lost: float, worth: float = TRUST_WORTH) -> bool:
    """The rule a seat breaks an agreement by: only when what breaking it gains (in the
    evaluation's units: the value of the orders that break it less that of the best
    orders that keep it) is more than the trust it would lose (`Trust.lost`) times what
    its trust is worth (``worth``, `TRUST_WORTH`).  An honest seat's worth is infinite:
    it never breaks one."""
    return gain > worth * lost
