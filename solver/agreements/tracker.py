"""The tracker: a game's press heard in order, message by message, and each phase's orders checked against the agreements in force.

    >>> import dipsolve
    >>> t = AgreementTracker()
    >>> t.hear("S1901M", "France", "Germany", "PRP (DMZ (FRA GER) (BUR))").what
    'proposed'
    >>> t.hear("S1901M", "Germany", "France", "YES (PRP (DMZ (FRA GER) (BUR)))").what
    'accepted'
    >>> start = dipsolve.Position.initial()
    >>> [c.verdict.value for c in t.end_phase("S1901M", start, {"France": [dipsolve.Move("A", "PAR", "BUR")]})]
    ['broken']
    >>> t.result()[1].state.value, t.result().violations()["France"][0].line()
    ('broken', 'S1901M: A PAR - BUR breaks #1 DMZ (FRA GER) (BUR) (a move into Burgundy, to be kept demilitarized)')

The rules of the conversation (DAIDE message syntax v0.18, levels 10 to 30, as this
project reads them):

- ``PRP (arrangement)`` from a power proposes an agreement.  Its *parties* are the
  proposer, the powers it is sent to (``GLOBAL``: every other power of the board) and
  the powers the arrangement binds (`dipsolve.agreements.terms`).  A record keeps a
  message to several powers as one message per recipient: the same proposal by the same
  power in the same phase, while it is still open, gains the new recipients.
- ``YES (PRP (...))`` from a party accepts; the agreement is *accepted* once every
  party but the proposer has.  ``REJ`` or ``BWX`` (none of your business) from a party
  *rejects* it.  An answer matches the open proposal of the same arrangement (the order
  of its powers and provinces aside) of which the answerer is a party, the proposal of
  one of the answer's recipients first, the latest first.
- ``CCL (PRP (...))`` from the proposer *cancels* its proposal, open or accepted;
  ``CCL (YES (PRP (...)))`` from a party withdraws its acceptance of an open proposal,
  and *cancels* an accepted agreement.  A cancellation takes effect at once: the
  orders of the phase it is sent in are not checked against it.
- ``PRP (NOT (arrangement))``, once accepted by every party, *cancels* every accepted
  agreement on that arrangement all of whose parties are parties to it (DAIDE's way of
  ending an agreement), and itself *expires*, its work done.
- A proposal not accepted by the end of the phase it was made in *expires*.
- An accepted agreement holds until it is cancelled or broken: it is checked against
  the orders of every phase from the one it was accepted in (a phase's press comes
  before its orders) on (`dipsolve.agreements.checks`); a broken agreement is void
  from then on.  An agreement of promised orders only (``XDO``, ``AND`` of them)
  *expires* once the phase each was due in is over.

Messages in ``FRM (power) (powers) (message)`` or ``SND (powers) (message)`` are read
for the message inside (the sender and recipients they name).  Anything else (English
press, other DAIDE messages, answers to no proposal) is heard and ignored, with why.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from dipsolve.core.errors import DipsolveArgumentError, DipsolveError
from dipsolve.core.map import Map, standard_map
from dipsolve.core.names import check_power, check_text
from dipsolve.core.orders import Order
from dipsolve.core.position import Position
from dipsolve.grammar.levels import DAIDE_TOP
from dipsolve.grammar.message import Press
from dipsolve.grammar.orders import parse_order
from dipsolve.grammar.press import parse_press
from dipsolve.grammar.tokens import POWER_TOKENS
from dipsolve.grammar.tree import Node

from .checks import PhaseOrders, judge
from .model import TRANSITIONS, Agreement, Agreements, Change, Check, Said, State, Verdict
from .terms import Ending, Promise, Term, read_term

__all__ = ["AgreementTracker", "Heard", "track_agreements"]

#: the first words of the messages the tracker reads (others are not parsed at all)
_HEADS = frozenset({"PRP", "YES", "REJ", "BWX", "CCL", "FRM", "SND"})
#: how ``GLOBAL`` is written as a recipient
_EVERYONE = frozenset({"GLOBAL", "ALL"})


class Heard:
    """What one message did: ``what`` (``proposed``, ``copy`` (the same proposal again
    while it is open, maybe to other recipients, who become parties), ``accepted by one``, ``accepted``, ``rejected``, ``cancelled``,
    ``withdrawn`` (an acceptance), or ``ignored``), the agreement it is about, and why
    it was ignored."""

    __slots__ = ("said", "what", "agreement", "why")

    def __init__(self, said: Said, what: str, agreement: int | None = None, why: str = "") -> None:
        self.said, self.what, self.agreement, self.why = said, what, agreement, why

    def __repr__(self) -> str:
        about = f" #{self.agreement}" if self.agreement is not None else ""
        return f"<Heard {self.what}{about}{': ' + self.why if self.why else ''}>"


class AgreementTracker:
    """Agreements made, kept and broken, message by message and phase by phase.

    `hear` takes each message in the order it was sent; `end_phase` takes each phase's
    board and orders once its press is heard; `result` is the ledger so far
    (`Agreements`).  ``game_map`` (default: the standard map) names the powers."""

    def __init__(self, game_map: Map | None = None) -> None:
        self.map = game_map or standard_map()
        self._agreements: list[Agreement] = []
        self._phases: list[str] = []
        self._checked: list[str] = []
        self._ignored: list[tuple[Said, str]] = []
        self._messages = 0
        self._daide = 0
        #: agreement id -> the numbers of its promises already due and judged
        self._done: dict[int, set[int]] = {}
        #: agreement id -> the phase its proposal was made in
        self._made_in: dict[int, str] = {}

    # -- the press --------------------------------------------------------------------------
    def hear(self, phase: str, sender: str, recipients: str | Iterable[str], text: str | Press) -> Heard:
        """Hear one message of ``phase`` (its name, as ``"S1901M"``): ``sender`` (a power,
        any spelling), ``recipients`` (a power, ``"GLOBAL"``, or several), and the
        message, as text or as `parse_press` read it.  Returns what it did (`Heard`).
        Raises `DipsolveSyntaxError` for a power it does not know, `DipsolveArgumentError`
        for values of the wrong kind; text that is not DAIDE press is ignored."""
        phase = check_text(phase, "phase").strip()
        if phase in self._checked:
            raise DipsolveArgumentError(f"hear(): phase {phase!r} is over (its orders were checked)",
                                        expected="a phase not ended yet")
        who = check_power(sender, "sender", self.map)
        to = self._recipients(recipients, who)
        if not isinstance(text, (str, Press)):
            raise DipsolveArgumentError(f"hear(): text: expected the message's text or a Press, not a "
                                        f"{type(text).__name__}", expected="a string or a Press")
        self._enter(phase)
        said = Said(phase, self._messages, who, to, text if isinstance(text, str) else text.canonical)
        self._messages += 1
        press = text if isinstance(text, Press) else _read(text)
        if press is None or press.dialect != "daide":
            return self._ignore(said, "not DAIDE press")
        self._daide += 1
        body, who2, to2 = _unwrap(press.tree, who, to, self.map)
        if body is None:
            return self._ignore(said, "a FRM or SND whose powers are not all the board's")
        if (who2, to2) != (who, to):
            said = replace(said, sender=who2, recipients=to2)
        return self._dispatch(said, body, press)

    def _recipients(self, recipients: str | Iterable[str], sender: str) -> tuple[str, ...]:
        if isinstance(recipients, str):
            recipients = [recipients]
        elif not isinstance(recipients, Iterable):
            raise DipsolveArgumentError(f"hear(): recipients: expected a power or powers, not a "
                                        f"{type(recipients).__name__}", expected="a power or powers")
        out: dict[str, None] = {}
        for r in recipients:
            if isinstance(r, str) and r.strip().upper() in _EVERYONE:
                out.update(dict.fromkeys(p for p in self.map.powers if p != sender))
            else:
                out[check_power(r, "recipient", self.map)] = None
        return tuple(p for p in self.map.powers if p in out)

    def _enter(self, phase: str) -> None:
        if not self._phases or self._phases[-1] != phase:
            if phase in self._phases:
                raise DipsolveArgumentError(f"phase {phase!r} again after {self._phases[-1]!r}: the "
                                            f"tracker hears a game's phases in order, once each",
                                            expected="the next phase")
            self._phases.append(phase)

    def _ignore(self, said: Said, why: str) -> Heard:
        self._ignored.append((said, why))
        return Heard(said, "ignored", why=why)

    def _dispatch(self, said: Said, body: Node, press: Press) -> Heard:
        kids = body.children()
        if body.rule == "prp" and kids:
            return self._propose(said, read_term(kids[0], press.located_orders))
        if body.rule in ("yes", "rej", "bwx") and kids and kids[0].rule == "prp" and kids[0].children():
            term = read_term(kids[0].children()[0], press.located_orders)
            return self._answer(said, body.rule, term)
        if body.rule == "ccl" and kids:
            inner = kids[0]
            if inner.rule == "prp" and inner.children():
                return self._cancel(said, read_term(inner.children()[0], press.located_orders))
            if inner.rule == "yes" and inner.children() and inner.children()[0].rule == "prp" \
                    and inner.children()[0].children():
                return self._withdraw(said, read_term(inner.children()[0].children()[0], press.located_orders))
        return self._ignore(said, f"a {body.rule.upper()} message: about no agreement")

    def _propose(self, said: Said, term: Term) -> Heard:
        parties = set(said.recipients) | set(term.bound) | {said.sender}
        for i, a in enumerate(self._agreements):
            if a.state is State.PROPOSED and a.proposer == said.sender and a.term == term \
                    and self._made_in[a.id] == said.phase:
                self._agreements[i] = replace(a, parties=self._ordered(parties | set(a.parties)))
                return Heard(said, "copy", a.id)
        a = Agreement(len(self._agreements) + 1, term, said.sender, self._ordered(parties))
        self._made_in[a.id] = said.phase
        self._agreements.append(a)
        self._move(a.id, State.PROPOSED, said.phase, said, f"proposed by {said.sender} to "
                   f"{', '.join(said.recipients) or 'nobody'}")
        return Heard(said, "proposed", a.id)

    def _ordered(self, powers: Iterable[str]) -> tuple[str, ...]:
        chosen = set(powers)
        return tuple(p for p in self.map.powers if p in chosen) + tuple(sorted(chosen - set(self.map.powers)))

    def _find(self, term: Term, said: Said, states: tuple[State, ...], proposer: str | None = None,
              party: str | None = None) -> int | None:
        """The index of the agreement an answer or a cancellation is about: the same
        term, in one of ``states``; a proposal of one of the message's recipients first,
        the latest first."""
        found = [i for i, a in enumerate(self._agreements)
                 if a.state in states and a.term == term
                 and (proposer is None or a.proposer == proposer)
                 and (party is None or (party in a.parties and party != a.proposer))]
        if not found:
            return None
        return max(found, key=lambda i: (self._agreements[i].proposer in said.recipients, i))

    def _answer(self, said: Said, rule: str, term: Term) -> Heard:
        i = self._find(term, said, (State.PROPOSED,), party=said.sender)
        if i is None:
            return self._ignore(said, f"a {rule.upper()} to no open proposal of which {said.sender} is a party")
        a = self._agreements[i]
        if rule != "yes":
            how = "rejected" if rule == "rej" else "refused to answer (BWX: none of your business)"
            self._move(a.id, State.REJECTED, said.phase, said, f"{how} by {said.sender}")
            return Heard(said, "rejected", a.id)
        accepted = self._ordered(set(a.accepted_by) | {said.sender})
        a = self._agreements[i] = replace(a, accepted_by=accepted)
        if set(a.parties) - {a.proposer} - set(accepted):
            return Heard(said, "accepted by one", a.id)
        self._move(a.id, State.ACCEPTED, said.phase, said, f"accepted by {', '.join(accepted)}")
        if isinstance(a.term, Ending):
            self._end(a, said)
        return Heard(said, "accepted", a.id)

    def _end(self, ending: Agreement, said: Said) -> None:
        """An accepted ``NOT (arrangement)``: cancel the agreements on that arrangement."""
        assert isinstance(ending.term, Ending)
        ended = [a.id for a in self._agreements if a.state is State.ACCEPTED and a.term == ending.term.ended
                 and set(a.parties) <= set(ending.parties)]
        for id in ended:
            self._move(id, State.CANCELLED, said.phase, said, f"ended by #{ending.id}, accepted by every party")
        what = ", ".join(f"#{id}" for id in ended) or "no agreement in force"
        self._move(ending.id, State.EXPIRED, said.phase, said, f"done: it ended {what}")

    def _cancel(self, said: Said, term: Term) -> Heard:
        i = self._find(term, said, (State.PROPOSED, State.ACCEPTED), proposer=said.sender)
        if i is None:
            return self._ignore(said, f"a CCL of no proposal of {said.sender}'s in force")
        a = self._agreements[i]
        self._move(a.id, State.CANCELLED, said.phase, said, f"cancelled by its proposer, {said.sender}")
        return Heard(said, "cancelled", a.id)

    def _withdraw(self, said: Said, term: Term) -> Heard:
        found = [i for i, a in enumerate(self._agreements) if a.term == term and said.sender in a.accepted_by
                 and a.state in (State.PROPOSED, State.ACCEPTED)]
        if not found:
            return self._ignore(said, f"a CCL of a YES {said.sender} did not give to an agreement in force")
        i = found[-1]
        a = self._agreements[i]
        if a.state is State.PROPOSED:
            self._agreements[i] = replace(a, accepted_by=tuple(p for p in a.accepted_by if p != said.sender))
            return Heard(said, "withdrawn", a.id)
        self._move(a.id, State.CANCELLED, said.phase, said, f"cancelled by {said.sender}, who withdrew its YES")
        return Heard(said, "cancelled", a.id)

    def _move(self, id: int, state: State, phase: str, said: Said | None, note: str,
              check: Check | None = None) -> None:
        """Move agreement ``id`` to ``state`` (along `TRANSITIONS` only)."""
        i = id - 1
        a = self._agreements[i]
        if a.changes and state not in TRANSITIONS[a.state]:
            raise AssertionError(f"#{id}: {a.state.value} -> {state.value}")   # pragma: no cover - a bug
        self._agreements[i] = replace(a, state=state, changes=(*a.changes, Change(state, phase, said, note)))

    # -- the orders -------------------------------------------------------------------------
    def end_phase(self, phase: str, position: Position, orders: Mapping[str, Sequence[Order | str]]) -> list[Check]:
        """The phase ``phase`` was played from ``position`` with ``orders`` (power -> its
        orders, as played: each an `Order` or its text): check every agreement in force against them, then let the
        proposals still open expire.  Returns the checks made, one per agreement in force."""
        phase = check_text(phase, "phase").strip()
        if not isinstance(position, Position):
            raise DipsolveArgumentError("end_phase(): position: expected a Position", expected="a Position")
        if not isinstance(orders, Mapping):
            raise DipsolveArgumentError("end_phase(): orders: expected power -> orders", expected="a mapping")
        if phase in self._checked:
            raise DipsolveArgumentError(f"phase {phase!r} was checked already", expected="the next phase")
        self._enter(phase)
        given = {check_power(p, "orders", position.map): _orders(os, position) for p, os in orders.items()}
        played: PhaseOrders | None = None           # the phase adjudicated only if something is in force
        checks = []
        for i, a in enumerate(self._agreements):
            if a.state is not State.ACCEPTED:
                continue
            played = played or PhaseOrders(position, given)
            done = self._done.setdefault(a.id, set())
            verdict, breaches = judge(a.term, played, lambda n: n not in done, done)
            check = Check(phase, verdict, breaches)
            checks.append(check)
            self._agreements[i] = a = replace(a, checks=(*a.checks, check))
            if verdict is Verdict.BROKEN:
                who = ", ".join(dict.fromkeys(f"{b.power}: {b.order or 'no order'}" for b in breaches))
                self._move(a.id, State.BROKEN, phase, None, f"broken by {who}")
            elif a.term.checked and _promises_only(a.term) and len(done) == _promise_count(a.term):
                self._move(a.id, State.EXPIRED, phase, None, "done: the phases its orders were due in are over")
        for a in list(self._agreements):
            if a.state is State.PROPOSED:
                self._move(a.id, State.EXPIRED, phase, None, f"not accepted by every party by the end of {phase}")
        self._checked.append(phase)
        return checks

    def result(self) -> Agreements:
        """Every agreement as it stands now, and what was heard."""
        return Agreements(tuple(self._agreements), tuple(self._phases), tuple(self._checked), self.map.powers,
                          self._messages, self._daide, tuple(self._ignored))


def _orders(given: Any, position: Position) -> list[Order]:
    """A power's orders, each an `Order` or its text (read against ``position``)."""
    if isinstance(given, (str, Order)):
        given = [given]
    if not isinstance(given, Iterable):
        raise DipsolveArgumentError(f"end_phase(): orders: expected a power's orders, not a {type(given).__name__}",
                                    expected="orders")
    out = []
    for o in given:
        if isinstance(o, str):
            o = parse_order(o, position.map, position=position)
        elif not isinstance(o, Order):
            raise DipsolveArgumentError(f"end_phase(): expected an order or its text, not a {type(o).__name__}",
                                        expected="an order")
        out.append(o)
    return out


def _promises_only(term: Term) -> bool:
    """Whether every arrangement of ``term`` that orders can keep is a promised order."""
    return all(isinstance(leaf, Promise) for leaf in term.leaves() if leaf.checked)


def _promise_count(term: Term) -> int:
    return sum(isinstance(leaf, Promise) for leaf in term.leaves())


def _read(text: str) -> Press | None:
    """The message as DAIDE press, or None when it is not (English, a typo, ...)."""
    if text.lstrip()[:3].upper() not in _HEADS:
        return None
    try:
        return parse_press(text, level=DAIDE_TOP)
    except DipsolveError:
        return None


def _unwrap(tree: Node, sender: str, recipients: tuple[str, ...], game_map: Map
            ) -> tuple[Node | None, str, tuple[str, ...]]:
    """The message inside ``FRM (power) (powers) (...)`` and ``SND (powers) (...)``, with
    the sender and recipients they name (None when a power is not the board's)."""
    if tree.rule not in ("frm_command", "send_message"):
        return tree, sender, recipients
    named = [POWER_TOKENS[w] for w in tree.words() if w in POWER_TOKENS]
    if any(game_map.power(p) is None for p in named) or not tree.children():
        return None, sender, recipients
    if tree.rule == "frm_command":
        sender, named = named[0], named[1:]
    body = tree.children()[-1]
    return body, sender, tuple(p for p in game_map.powers if p in set(named))


def track_agreements(record: Any) -> Agreements:
    """The agreements a game's DAIDE press made, each checked against every phase's
    orders (a `dipsolve.Record`, or a `dipsolve.Game`'s ``record``: each phase's
    messages, then its orders; the last phase, not played yet, is only heard, as is the
    phase a game was ended in before its orders: no order at all, and the next phase
    (the record's end) the same season).
    Messages from or to a power the board does not have are ignored, with why."""
    phases = list(record.phases)
    tracker = AgreementTracker(phases[0].position.map if phases else None)
    for n, ph in enumerate(phases):
        tracker._enter(ph.name)
        for sender, recipient, text in ph.messages:
            try:
                tracker.hear(ph.name, sender, recipient, text)
            except DipsolveError as e:
                tracker._messages += 1
                tracker._ignored.append((Said(ph.name, tracker._messages - 1, str(sender), (str(recipient),),
                                              str(text)), f"not heard: {e}"))
        if n < len(phases) - 1 and not _ended_in(ph, phases[n + 1]):
            tracker.end_phase(ph.name, ph.position, ph.orders)
    return tracker.result()


def _ended_in(phase: Any, after: Any) -> bool:
    """Whether the game was ended in ``phase`` before its orders (none, and ``after``,
    the record's end, is the same season: nothing was played)."""
    return not any(phase.orders.values()) and after.position.phase == phase.position.phase
