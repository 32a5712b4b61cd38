"""Agreements made in the press: DAIDE proposals turned into agreements, and each phase's orders checked against them.

The press clauses dipsolve reads at DAIDE levels 10 to 30 (``PCE``, ``ALY``/``VSS``,
``DMZ``, ``XDO``, ``AND``, ``ORR``, ``NOT``, proposed by ``PRP`` and answered by ``YES``,
``REJ``, ``BWX``, ``CCL``) become `Agreement`\\ s with their parties, scope, state and
history; after each phase, every agreement in force is checked against the orders
played: kept, broken (by which order) or not tested.

- ``terms``: what an arrangement binds whom to (`Peace`, `Alliance`, `Demilitarized`,
  `Promise`, `AllOf`, `AnyOf`, `Ending`, `Unchecked`);
- ``model``: the agreement as data (`Agreement`, `State` and its `TRANSITIONS`, `Change`,
  `Check`, `Breach`, `Violation`, the ledger `Agreements`);
- ``checks``: what keeps and breaks each term in a phase's orders;
- ``tracker``: the conversation's rules (`AgreementTracker`, `track_agreements`);
- ``trust``: each power's trust, a Beta-Bernoulli estimate from the agreements it kept
  and broke (`Trust`), and the rule a seat breaks one by (`worth_breaking`).

This layer reads the grammar's parsed press and the core's positions and orders, and
nothing above them.
"""

from .model import TRANSITIONS, Agreement, Agreements, Breach, Change, Check, Said, State, Verdict, Violation
from .terms import AllOf, Alliance, AnyOf, Demilitarized, Ending, Peace, Promise, Scope, Term, Unchecked
from .tracker import AgreementTracker, Heard, track_agreements
from .trust import TRUST_WORTH, Trust, worth_breaking

__all__ = ["TRANSITIONS", "TRUST_WORTH", "Agreement", "AgreementTracker", "Agreements", "AllOf", "Alliance", "AnyOf", "Breach",
           "Change", "Check", "Demilitarized", "Ending", "Heard", "Peace", "Promise", "Said", "Scope", "State",
           "Term", "Trust", "Unchecked", "Verdict", "Violation", "track_agreements", "worth_breaking"]
