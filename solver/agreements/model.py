"""Agreements as data: `Agreement` (its terms, parties, state and history), the messages and checks that changed it, and `Agreements`, a game's whole ledger.

An agreement moves along `TRANSITIONS` only:

    proposed -> accepted | rejected | cancelled | expired
    accepted -> broken | cancelled | expired

``rejected``, ``cancelled``, ``broken`` and ``expired`` are final.  Every move is a
`Change` naming the phase and the message that made it (none when the orders of a phase
broke it, or when its time ran out); every phase an accepted agreement was in force is
a `Check`: kept, broken (with the `Breach`\\ es: which power's order broke which term)
or not tested (nothing in the phase could have broken it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterator, Sequence

from dipsolve.core.orders import Order

from .terms import Scope, Term

__all__ = ["Agreement", "Agreements", "Breach", "Change", "Check", "Said", "State", "TRANSITIONS", "Verdict",
           "Violation"]


class State(str, Enum):
    """Where an agreement stands.  ``str`` values are stable for ``--json``."""

    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    CANCELLED = "cancelled"
    BROKEN = "broken"
    EXPIRED = "expired"


#: the states an agreement may move to from each state (the final ones: none)
TRANSITIONS: dict[State, frozenset[State]] = {
    State.PROPOSED: frozenset({State.ACCEPTED, State.REJECTED, State.CANCELLED, State.EXPIRED}),
    State.ACCEPTED: frozenset({State.BROKEN, State.CANCELLED, State.EXPIRED}),
    State.REJECTED: frozenset(), State.CANCELLED: frozenset(), State.BROKEN: frozenset(),
    State.EXPIRED: frozenset(),
}


class Verdict(str, Enum):
    """What one phase's orders did to an agreement in force."""

    KEPT = "kept"
    BROKEN = "broken"
    UNTESTED = "not tested"


@dataclass(frozen=True)
class Said:
    """A message as the tracker heard it: the phase, its place among the game's messages
    (0 for the first), who sent it to whom, and its text."""

    phase: str
    index: int
    sender: str
    recipients: tuple[str, ...]
    text: str

    def to_json(self) -> dict:
        return {"phase": self.phase, "index": self.index, "sender": self.sender,
                "recipients": list(self.recipients), "text": self.text}


@dataclass(frozen=True)
class Change:
    """One move of an agreement's state: to ``state``, in ``phase``, by ``message`` (None:
    by the phase's orders or its end), and why in words."""

    state: State
    phase: str
    message: Said | None
    note: str

    def to_json(self) -> dict:
        return {"state": self.state.value, "phase": self.phase, "note": self.note,
                "message": None if self.message is None else self.message.to_json()}


@dataclass(frozen=True)
class Breach:
    """An order that broke a term: whose, which (None: the power gave none, as with a
    promised order never given), the term's text, and how in words."""

    power: str
    order: Order | None
    term: str
    why: str

    def to_json(self) -> dict:
        return {"power": self.power, "order": None if self.order is None else str(self.order),
                "term": self.term, "why": self.why}


@dataclass(frozen=True)
class Check:
    """An agreement checked against one phase's orders."""

    phase: str
    verdict: Verdict
    breaches: tuple[Breach, ...] = ()

    def to_json(self) -> dict:
        return {"phase": self.phase, "verdict": self.verdict.value, "breaches": [b.to_json() for b in self.breaches]}


@dataclass(frozen=True)
class Agreement:
    """A proposal made in the press and what became of it.

    ``id`` counts the proposals of a game from 1; ``term`` is what it says (`Term`);
    ``proposer`` sent it; ``parties`` are the proposer, the powers it was sent to and the
    powers it binds (every party but the proposer must say ``YES``); ``accepted_by`` the
    parties that have; ``state`` is where it stands now, ``changes`` every move that led
    there, ``checks`` every phase it was in force."""

    id: int
    term: Term
    proposer: str
    parties: tuple[str, ...]
    state: State = State.PROPOSED
    changes: tuple[Change, ...] = ()
    checks: tuple[Check, ...] = ()
    accepted_by: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """``peace``, ``alliance``, ``dmz``, ``order``, ``and``, ``or``, ``end`` or ``other``."""
        return self.term.kind

    @property
    def text(self) -> str:
        """The arrangement in canonical DAIDE."""
        return self.term.text

    @property
    def bound(self) -> tuple[str, ...]:
        """The powers whose orders it binds."""
        return self.term.bound

    @property
    def scope(self) -> Scope:
        return self.term.scope()

    def english(self) -> str:
        """What it holds its parties to, in English ("France and Germany are at peace.")."""
        return self.term.english()

    @property
    def covers(self) -> tuple[str, ...]:
        """The phases it was in force and checked in (from the phase it was accepted in,
        whose orders come after its press, until it was broken, cancelled or expired)."""
        return tuple(c.phase for c in self.checks)

    def state_after(self, phase: str, phases: Sequence[str]) -> State | None:
        """Its state at the end of ``phase``, one of ``phases`` (the game's phases in
        order); None when it was not proposed yet."""
        at = {p: i for i, p in enumerate(phases)}
        end = at[phase]
        state = None
        for c in self.changes:
            if at.get(c.phase, end + 1) > end:
                break
            state = c.state
        return state

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "english": self.english(),
                "proposer": self.proposer, "parties": list(self.parties), "bound": list(self.bound),
                "accepted_by": list(self.accepted_by), "state": self.state.value, "scope": self.scope.to_json(),
                "covers": list(self.covers), "changes": [c.to_json() for c in self.changes],
                "checks": [c.to_json() for c in self.checks]}


@dataclass(frozen=True)
class Violation:
    """A power's order that broke an agreement it was bound by."""

    power: str
    phase: str
    agreement: int
    text: str
    order: Order | None
    why: str

    def line(self) -> str:
        what = "no order" if self.order is None else str(self.order)
        return f"{self.phase}: {what} breaks #{self.agreement} {self.text} ({self.why})"

    def to_json(self) -> dict:
        return {"phase": self.phase, "agreement": self.agreement, "text": self.text,
                "order": None if self.order is None else str(self.order), "why": self.why}


@dataclass(frozen=True)
class Agreements:
    """A game's agreements: every proposal in the order it was made; ``phases``, every
    phase the tracker went through, in order, and ``checked``, those whose orders it
    checked; what was heard (``messages`` in all, ``daide`` of them read as DAIDE press,
    ``ignored``: messages about no agreement, or answers to none, with why)."""

    agreements: tuple[Agreement, ...] = ()
    phases: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()
    #: the board's powers, in their order of play
    powers: tuple[str, ...] = ()
    messages: int = 0
    daide: int = 0
    ignored: tuple[tuple[Said, str], ...] = field(default=(), repr=False)

    def __iter__(self) -> Iterator[Agreement]:
        return iter(self.agreements)

    def __len__(self) -> int:
        return len(self.agreements)

    def __getitem__(self, id: int) -> Agreement:
        """The agreement numbered ``id`` (from 1)."""
        for a in self.agreements:
            if a.id == id:
                return a
        raise KeyError(id)

    @property
    def parties(self) -> tuple[str, ...]:
        """Every power that is a party to an agreement, in the order of play."""
        named = {p for a in self.agreements for p in a.parties}
        return tuple(p for p in self.powers if p in named) + tuple(sorted(named - set(self.powers)))

    def of(self, power: str) -> list[Agreement]:
        """The agreements ``power`` is a party to."""
        return [a for a in self.agreements if power in a.parties]

    def violations(self) -> dict[str, list[Violation]]:
        """Power -> the orders of it that broke an agreement, phase by phase."""
        out: dict[str, list[Violation]] = {}
        for a in self.agreements:
            for c in a.checks:
                for b in c.breaches:
                    out.setdefault(b.power, []).append(Violation(b.power, c.phase, a.id, a.text, b.order, b.why))
        order = {p: i for i, p in enumerate(self.phases)}
        for vs in out.values():
            vs.sort(key=lambda v: (order.get(v.phase, len(order)), v.agreement))
        return out

    def after(self, phase: str) -> dict[int, State]:
        """Every agreement's state at the end of ``phase`` (those proposed by then)."""
        if phase not in self.phases:
            raise KeyError(phase)
        out = {}
        for a in self.agreements:
            s = a.state_after(phase, self.phases)
            if s is not None:
                out[a.id] = s
        return out

    def to_json(self) -> dict:
        return {"messages": self.messages, "daide": self.daide, "phases": list(self.phases),
                "checked": list(self.checked),
                "agreements": [a.to_json() for a in self.agreements],
                "violations": {p: [v.to_json() for v in vs] for p, vs in self.violations().items()}}
