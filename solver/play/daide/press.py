"""A negotiating seat's press at a DAIDE table: proposals sent, answers given, each phase's agreements checked.

`PressDesk` is what ``dipsolve daide --press LEVEL`` adds to a seat
(`dipsolve.play.daide.client.DaideSession`); its `dipsolve.play.negotiation.Negotiator`
decides what to say, the desk says it:

1. each new board (NOW): the phase before is over, and its agreements are checked against
   its orders as the seat knows them (its own, from ORD; the others', as the board shows
   them: `dipsolve.play.negotiation.orders_seen`);
2. in a movement phase, before the bot decides (the seat has said ``NOT (GOF)``): the
   negotiator's proposals go out, then the seat reads the table's messages, answering
   each proposal it is a party to, until every proposal of its own has been answered or
   ``wait`` seconds have passed (or a message that is not press arrives: the turn's end,
   the game's);
3. then the bot decides, told what was agreed (`dipsolve.play.negotiation.NegotiatingBot`),
   and a proposal heard after its orders went in is judged by them.

Every message goes out as ``SND (powers) (message)`` only once dipsolve's own press
grammar has read it at the server's level (HLO's ``LVL``; `Negotiator.write`); one it
refuses is not sent, and counted (``refused``), as is every message of ours the server
answered with ``REJ`` or ``HUH`` (``rejected``).  The seat's history keeps what it sent
beside what it was sent (`dipsolve.play.daide.history.SeatHistory.press`), so its saved
game holds the whole conversation.  At a level below 10 (no press) the desk says nothing.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from dipsolve.core.errors import DipsolveArgumentError
from dipsolve.core.position import Position
from dipsolve.io.records import RecordPhase

from ..negotiation import Negotiator, check_policy, orders_seen
from .history import SeatHistory
from .wire import Connection, TokenTable, Variant, daide_turn

__all__ = ["PRESS_WAIT", "Press", "PressDesk"]

#: seconds a seat waits, each movement phase, for the answers to its proposals
PRESS_WAIT = 3.0


@dataclass(frozen=True)
class Press:
    """How a dipsolve seat negotiates at a DAIDE table (``dipsolve daide --press``), one
    setting: ``level``, the press level it speaks at (10 to 130; the server's, if lower,
    is the one its messages are read at); ``policy``, "honest" (it keeps every agreement)
    or "opportunistic" (it breaks one when that is worth the trust lost); ``wait``, the
    seconds it waits each movement phase for the answers to its proposals; ``trust``,
    "learned" (each power's from the agreements it kept and broke) or "prior" (every
    power at the prior whatever it did: no trust reasoning).  Anything else is refused
    (`DipsolveArgumentError`).

        >>> Press(30, policy="opportunistic")
        Press(level=30, policy='opportunistic', wait=3.0, trust='learned')
    """

    level: int = 30
    policy: str = "honest"
    wait: float = PRESS_WAIT
    trust: str = "learned"

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int) or not 10 <= self.level <= 130:
            raise DipsolveArgumentError(f"press level {self.level!r} is not a whole number from 10 to 130",
                                        expected="10 to 130")
        check_policy(self.policy, self.trust)
        wait = self.wait
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not (math.isfinite(wait) and 0 < wait <= 600):
            raise DipsolveArgumentError(f"press wait {wait!r} is not a number of seconds above 0 and at most 600",
                                        expected="seconds")
        object.__setattr__(self, "wait", float(wait))


#: the messages a seat reads while it waits (the others stop the wait)
_PRESS_TIME = frozenset({"FRM", "YES", "REJ", "HUH", "PRN", "TME", "NOT", "CCD", "OUT", "ADM"})


class DaideSession(Protocol):
    """What the desk uses of its seat (`dipsolve.play.daide.client.DaideSession`, which
    holds the desk: a protocol, so that the two modules do not import each other)."""

    conn: Connection
    table: TokenTable | None
    power: str | None
    variant: Variant
    history: SeatHistory

    def send(self, text: str) -> None: ...

    def receive(self) -> tuple[str, Any] | None: ...

    def handle(self, text: str, tree: Any) -> None: ...

    def say(self, text: str) -> None: ...


class PressDesk:
    """The press of one seat (see the module's notes)."""

    def __init__(self, negotiator: Negotiator, wait: float = PRESS_WAIT, level: int = 30) -> None:
        self.negotiator = negotiator
        self.wait = wait
        #: the seat's own press level (``--press``): its messages are read at the lower of it and the server's
        self.level = level
        #: messages of ours the server answered with REJ or HUH
        self.rejected: list[str] = []
        self.position: Position | None = None

    @property
    def refused(self) -> int:
        """Messages dipsolve's grammar refused to send."""
        return len(self.negotiator.refused)

    def on(self, session: DaideSession) -> bool:
        """Whether the table has press (level 10 and up) and the seat a power."""
        return min(self.level, session.variant.level) >= 10 and session.power is not None

    def on_board(self, session: DaideSession, closed: RecordPhase | None, position: Position) -> None:
        """A new board: the phase before it is over."""
        self.position = position
        if session.power is not None:
            self.negotiator.power = session.power
        self.negotiator.level = min(self.level, session.variant.level)
        if closed is not None and self.on(session):
            self.negotiator.phase_over(closed.name, closed.position,
                                       orders_seen(closed.position, position, closed.orders))

    def before_orders(self, session: DaideSession, position: Position) -> None:
        """Propose, then read and answer the table's press for up to ``wait`` seconds."""
        if not self.on(session) or position.phase.kind != "movement":
            return
        for recipients, body in self.negotiator.proposals(position):
            self.send(session, recipients, body)
        end = time.monotonic() + self.wait
        while self._waiting(position) and time.monotonic() < end and not session.conn.closed:
            pending = session.conn.poll()
            if not pending:
                time.sleep(0.05)
                continue
            assert session.table is not None
            first = pending[0]
            head = session.table.by_code.get(first.body[0] << 8 | first.body[1]) if len(first.body) >= 2 else None
            if head not in _PRESS_TIME:
                return                       # the turn's end or the game's: handled by the session
            got = session.receive()
            if got is None:
                return
            session.handle(*got)

    def _waiting(self, position: Position) -> bool:
        """Whether a proposal of ours made in this phase is still open."""
        n = self.negotiator
        return any(a.proposer == n.power and a.state.value == "proposed" and a.changes
                   and a.changes[0].phase == position.phase.short for a in n.agreements())

    def after_orders(self, position: Position, orders: Sequence) -> None:
        self.negotiator.played(position, orders)

    def on_frm(self, session: DaideSession, sender: str, recipients: Sequence[str], text: str) -> None:
        """A message passed on by the server: heard, and answered if it asks us."""
        if not self.on(session) or self.position is None:
            return
        for to, body in self.negotiator.hear(self.position.phase.short, sender, recipients, text, self.position):
            self.send(session, to, body)

    def send(self, session: DaideSession, recipients: Sequence[str], body: str) -> None:
        """``SND`` a message, if the grammar reads it at the server's level."""
        assert session.power is not None and self.position is not None
        text = self.negotiator.write(recipients, body, daide_turn(self.position))
        if text is None:
            session.say(f"not sent (dipsolve's press grammar refused it): {body}")
            return
        session.send(text)
        self.negotiator.said(self.position.phase.short, recipients, text)
        session.history.press(session.power, list(recipients), text)

    def answered(self, head: str, text: str) -> None:
        """The server's ``REJ`` or ``HUH`` of a message of ours."""
        if head in ("REJ", "HUH") and "SND" in text.split():
            self.rejected.append(text)

    def summary(self) -> dict:
        """What the seat said and agreed: ``policy``, ``trust_mode``, ``sent`` (messages), ``refused`` (by
        dipsolve's grammar, not sent), ``rejected`` (by the server), ``proposed`` (our
        proposals), ``agreements`` (accepted, ours or not: those in force and those since
        broken, expired or cancelled), ``broken`` (by each power's orders, as the seat saw
        them), ``stabs`` (agreements our orders broke on purpose) and ``trust`` per power."""
        n = self.negotiator
        ledger = n.tracker.result()
        accepted = [a for a in ledger if any(c.state.value == "accepted" for c in a.changes)]
        broken: dict[str, int] = {}
        for power, vs in ledger.violations().items():
            broken[power] = len({v.agreement for v in vs})
        return {"policy": n.policy, "trust_mode": n.trust_mode, "sent": len(n.sent), "refused": self.refused, "rejected": len(self.rejected),
                "proposed": sum(1 for a in ledger if a.proposer == n.power), "agreements": len(accepted),
                "broken": broken, "stabs": sum(d[1] for d in n.decisions if d[4]),
                "trust": {p: round(n.trust.of(p), 3) for p in ledger.powers}}
