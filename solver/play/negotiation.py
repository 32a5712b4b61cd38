"""A negotiating seat: what it proposes in the press, how it answers, and whether it keeps its word.

A `Negotiator` speaks for one power in DAIDE press at level 30 (`PCE`, `ALY ... VSS`,
`DMZ`, `XDO`, answered `YES` or `REJ`), keeps every message of the game in an
`dipsolve.agreements.AgreementTracker`, and each power's trust in a
`dipsolve.agreements.Trust` (a Beta-Bernoulli estimate from the agreements it kept and
broke).  `NegotiatingBot` is the seat: dipsolve's search (`DipsolveBot`) told what was
agreed.

*What it proposes* (each movement phase, `Negotiator.proposals`), to every *neighbour*
(a power one of whose units can reach a province one of its units can reach) that has
not ignored its proposals for a whole phase (a gunboat seat is not asked again):

- peace, ``PCE (us them)``, when not at peace with it yet, its trust is at least
  `PEACE_TRUST` and it is not the *leader* (the power with the most centres, at least
  `LEADER_MARGIN` more than ours and more than any other's);
- a demilitarized zone, ``DMZ (us them) (provinces)``, on their contested border (the
  empty provinces, not supply centres, that a unit of each can move into), when it is
  worth something to us (`dmz_value`);
- an alliance against the leader, ``ALY (us them) VSS (leader)``, to a power at peace
  with us, itself not the leader, that borders the leader too;
- a supporting order, ``XDO ((us unit) SUP (their unit))``, to an ally (at peace or
  allied with us) whose unit a third power's unit can reach and one of ours can support.

*How it answers* (`Negotiator.answer`): ``YES`` to peace or an alliance with powers it
trusts at least `PEACE_TRUST` and none of them the leader (an alliance against us, or
against one of its own parties: ``REJ``); to a DMZ worth at least nothing to us
(`dmz_value`); to a promised order that binds others only and attacks none of us, or
binds us to support a unit of the proposer's; to an ``AND`` of such; to the end of an
agreement (``NOT``); ``REJ`` to anything else.  A proposal heard after our orders went in
is accepted only if those orders keep it.

*Keeping its word* (`Negotiator.keep`): the orders the search found are checked against
every agreement in force that binds us (`dipsolve.agreements.checks.breaks`, one order at
a time); each order that breaks one is replaced by the unit's best legal order that
breaks none (a promised order, for a promised unit).  An ``honest`` seat plays the kept
orders.  An ``opportunistic`` one plays the searched orders instead when
`dipsolve.agreements.worth_breaking` says so: when what they gain over the kept orders
(the mean influence over draws of its model of the others) is more than the trust it
would lose (`Trust.lost`, one failure per agreement broken, a kept one less for each
tested before) times `TRUST_WORTH`.  In
retreats and adjustments either keeps its word: a retreat that would break an agreement
becomes one that breaks none, or a disband; a build in a demilitarized zone, a waive.
A seat bound by an agreement searches `KEEP_SHARE` less of its turn, kept for this; past
the turn's end it measures the gain over fewer draws and replaces a breaking order by the
first that breaks nothing (a hold first), so that the bot contract never stops it for it.

*Its search* (`Negotiator.tune`): an ally's control of the board counts as ours in
proportion to its trust (`dipsolve.strategy.Influence`'s ``allies``), and the policy the
seat draws the others' orders from is conditioned on what they agreed: a power bound by
an agreement in force keeps it in a draw with probability its trust
(`dipsolve.algorithms.order_policy.Restrained`).

*Without trust reasoning* (``trust_mode="prior"``, one of `TRUST_MODES`): every power is trusted
at the prior (`dipsolve.agreements.Trust`'s 2/3) whatever it kept or broke, in all of the
above: whom it makes peace with, how far an ally counts, how likely a promise is kept, and
what breaking its own word would cost.  It is the baseline the effect of trust is measured
against (``benchmarks/press.py``'s ``policy-prior`` series); ``"learned"`` is the default.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..agreements import Agreement, AgreementTracker, State, Trust, TRUST_WORTH, Verdict
from ..agreements.checks import attacks, breaks
from ..agreements.terms import AllOf, Alliance, Demilitarized, Ending, Peace, Promise, Term
from ..algorithms.evaluation import control, influence, values_for
from ..algorithms.order_policy import Restrained
from ..core.adjudicator import adjudicate
from ..core.errors import DipsolveArgumentError, DipsolveError
from ..core.graph import reachable_provinces
from ..core.legal import legal_orders
from ..core.map import Map, standard_map
from ..core.orders import Build, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitOrder, Waive
from ..core.position import Position, Unit
from ..core.results import Deadline, clock_named
from ..grammar.levels import DAIDE_TOP
from ..grammar.notation import format_order
from ..grammar.press import parse_press
from ..grammar.tokens import power_tokens
from ..search.opponents import zone
from ..search.strategy import Influence
from . import PRESS_POLICIES, TRUST_MODES
from .bots import DipsolveBot

__all__ = ["LEADER_MARGIN", "NegotiatingBot", "Negotiator", "PEACE_TRUST", "POLICIES", "TRUST_MODES",
           "dmz_value", "orders_seen"]

#: the press policies: keep every agreement, or break one when it is worth the trust lost
POLICIES = PRESS_POLICIES
#: the least trust in a power to be at peace or allied with it
PEACE_TRUST = 0.5
#: the leader has at least this many centres more than we have (and more than any other)
LEADER_MARGIN = 2
#: draws of the others' orders that the gain of breaking an agreement is measured over
KEEP_DRAWS = 4
#: the share of a turn a seat bound by an agreement keeps, after its search, to keep its word
#: (`Negotiator.keep` stops its work at the turn's end)
KEEP_SHARE = 0.2
#: at most this many provinces in a proposed DMZ
DMZ_SIZE = 2


def leader(position: Position, power: str) -> str | None:
    """The power with the most centres, more than any other's and at least `LEADER_MARGIN`
    more than ``power``'s (None: there is none, or it is ``power``)."""
    counts = sorted(((len(position.centers_of(p)), p) for p in position.map.powers), reverse=True)
    if not counts or (len(counts) > 1 and counts[0][0] == counts[1][0]):
        return None
    top, who = counts[0]
    if who == power or top < len(position.centers_of(power)) + LEADER_MARGIN:
        return None
    return who


def _reach(position: Position, power: str) -> set[str]:
    """The provinces the power's units can move into."""
    out: set[str] = set()
    for u in position.units_of(power):
        out.update(reachable_provinces(position.map, u))
    return out


def contested(position: Position, power: str, other: str) -> list[str]:
    """The two powers' contested border: the empty provinces, not supply centres, that a
    unit of each can move into (sorted)."""
    m = position.map
    both = _reach(position, power) & _reach(position, other)
    return sorted(p for p in both if p not in m.centers and p not in position.unit_in)


def dmz_value(position: Position, power: str, provinces: Iterable[str], others: Iterable[str],
              trust: Trust) -> float:
    """What a DMZ binding ``power`` and ``others`` on ``provinces`` is worth to ``power``,
    in the influence evaluation's units: for each province, the control the others have
    there (`dipsolve.algorithms.evaluation.control`) times the least trust among them,
    times what they could take from us through it (its value to us and our own centres
    next to it), less the control we give up there times its value to us."""
    others = [p for p in others if p != power]
    if not others:
        return 0.0
    m = position.map
    shares = control(position)
    values = values_for(power, m)
    ours = set(position.centers_of(power))
    t = min(trust.of(p) for p in others)
    total = 0.0
    for z in provinces:
        share = shares.get(z, {})
        theirs = sum(share.get(p, 0.0) for p in others)
        guarded = values.get(z, 0.0) + sum(values.get(c, 0.0) for c in m.neighbours.get(z, ()) if c in ours)
        total += t * theirs * guarded - share.get(power, 0.0) * values.get(z, 0.0)
    return total


def orders_seen(before: Position, after: Position, known: Mapping[str, Sequence[Order]]) -> dict[str, list[Order]]:
    """A movement phase's orders as far as a seat can know them: those it was told
    (``known``: a DAIDE server reports a seat its own), and for the others, what the next
    board shows: a unit found next door (a unit of its power and type where none stood)
    moved there, the rest held (a failed move, a support or a convoy leaves no trace)."""
    out = {p: list(os) for p, os in known.items()}
    if before.phase.kind != "movement":
        return out
    m = before.map
    po = m.province_of
    after_units = list(after.units) + [d.unit for d in after.dislodged]
    was = {(u.power, u.kind, po[u.location]) for u in before.units}
    stayed = {(u.power, u.kind, po[u.location]) for u in after_units}
    arrived = [u for u in after.units if (u.power, u.kind, po[u.location]) not in was]
    for u in before.units:
        if u.power in known:
            continue
        order: Order = Hold(u.kind, u.location)
        if (u.power, u.kind, po[u.location]) not in stayed:
            reach = set(reachable_provinces(m, u))
            to = next((a for a in arrived if a.power == u.power and a.kind == u.kind
                       and po[a.location] in reach), None)
            if to is not None:
                arrived.remove(to)
                order = Move(u.kind, u.location, to.location)
        out.setdefault(u.power, []).append(order)
    return out


def check_policy(policy: str, trust: str) -> None:
    """`DipsolveArgumentError` unless ``policy`` is one of `POLICIES` and ``trust`` of `TRUST_MODES`."""
    for value, choices, what in ((policy, POLICIES, "press policy"), (trust, TRUST_MODES, "trust")):
        if value not in choices:
            raise DipsolveArgumentError(f"{what} {value!r}: expected one of {', '.join(choices)}",
                                        expected=" or ".join(choices))


@dataclass
class Negotiator:
    """The press of one power (see the module's notes): ``policy`` one of `POLICIES`;
    ``level``: the server's press level (every message is read by the grammar at it
    before it goes: `write`); ``worth``: what its trust is worth (`TRUST_WORTH`);
    ``trust_mode``: one of `TRUST_MODES` (``"prior"``: no trust reasoning, every power trusted
    at the prior whatever it did)."""

    power: str
    policy: str = "honest"
    game_map: Map = field(default_factory=standard_map)
    level: int = 30
    worth: float = TRUST_WORTH
    trust_mode: str = "learned"
    #: every message written and sent, and those the grammar refused (text, why)
    sent: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    #: what `keep` decided each movement phase: (phase, agreements its orders broke, gain, cost, broken?)
    decisions: list[tuple[str, int, float, float, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_policy(self.policy, self.trust_mode)
        self.tracker = AgreementTracker(self.game_map)
        self.token = {p: t for t, p in power_tokens(self.game_map).items()}
        self.phase: str | None = None
        #: the phase our orders went in (a proposal heard after them: judged by them)
        self.ordered: tuple[str, Sequence[Order], Position] | None = None
        #: power -> how many proposals we made to it; the powers that ever answered one
        self._asked: dict[str, int] = {}
        self._answered: set[str] = set()
        self._trust: Trust | None = None

    # -- the record --------------------------------------------------------------------
    @property
    def trust(self) -> Trust:
        """Each power's trust: learned from the agreements it kept and broke, or (``trust_mode``
        "prior") the prior for every power, whatever it did."""
        if self._trust is None:
            self._trust = Trust() if self.trust_mode == "prior" else Trust.from_agreements(self.tracker.result())
        return self._trust

    def agreements(self) -> list[Agreement]:
        return list(self.tracker.result())

    def in_force(self) -> list[Agreement]:
        """The agreements accepted and neither broken, cancelled nor expired."""
        return [a for a in self.agreements() if a.state is State.ACCEPTED]

    def at_peace(self, other: str) -> bool:
        return any(isinstance(leaf, (Peace, Alliance)) and {self.power, other} <= set(leaf.powers)
                   for a in self.in_force() for leaf in a.term.leaves())

    def allies(self) -> dict[str, float]:
        """The powers at peace or allied with us, by an agreement in force -> their trust."""
        out = {}
        for a in self.in_force():
            for leaf in a.term.leaves():
                if isinstance(leaf, (Peace, Alliance)) and self.power in leaf.powers:
                    out.update({p: self.trust.of(p) for p in leaf.powers if p != self.power})
        return out

    def binding(self, power: str) -> list[Agreement]:
        """The agreements that bind ``power``: those in force, and for our own power our
        proposals still open in this phase too (an answer may come after our orders
        went in: we order as if it were yes)."""
        return [a for a in self.agreements() if power in a.term.bound and (
            a.state is State.ACCEPTED or (power == self.power and a.proposer == power
                                          and a.state is State.PROPOSED and a.changes[0].phase == self.phase))]

    def terms_binding(self, power: str) -> list[Term]:
        return [a.term for a in self.binding(power)]

    def restraints(self) -> dict[str, tuple[float, Callable[[Position, Unit, Order], bool]]]:
        """Power (not us) -> (its trust, what its agreements in force forbid it)."""
        out = {}
        for p in self.game_map.powers:
            terms = self.terms_binding(p) if p != self.power else []
            if terms:
                out[p] = (self.trust.of(p), _forbids(terms))
        return out

    # -- the messages ------------------------------------------------------------------
    def write(self, recipients: Sequence[str], body: str, turn: str | None = None) -> str | None:
        """``SND (turn) (recipients) (body)`` (``turn`` as DAIDE writes it, ``SPR 1901``:
        the diplomacy package's server reads no SND without it), if dipsolve's press
        grammar reads it at the server's level (else None, the refusal counted in
        ``refused``)."""
        when = f"({turn}) " if turn else ""
        text = f"SND {when}({' '.join(self.token[r] for r in recipients)}) ({body})"
        try:
            parse_press(text, level=min(self.level, DAIDE_TOP))
        except DipsolveError as e:
            self.refused.append((text, e.message))
            return None
        return text

    def said(self, phase: str, recipients: Sequence[str], text: str) -> None:
        """A message we sent (its SND text), heard by our tracker."""
        self._enter(phase)
        self.sent.append(text)
        self.tracker.hear(phase, self.power, list(recipients), text)
        self._trust = None

    def _enter(self, phase: str) -> None:
        if phase != self.phase:
            self.phase = phase

    def hear(self, phase: str, sender: str, recipients: Sequence[str], text: str,
             position: Position | None) -> list[tuple[tuple[str, ...], str]]:
        """A message the server passed on; the answers to send ((recipients, body) each):
        ``YES`` or ``REJ`` to a proposal we are a party to (`answer`), and the
        cancellation of our own proposal when the sender, earlier in the order of play,
        proposed the same (so that one agreement is made, not two)."""
        self._enter(phase)
        try:
            heard = self.tracker.hear(phase, sender, list(recipients), text)
        except DipsolveError:
            return []
        self._trust = None
        if heard.what in ("accepted by one", "accepted", "rejected"):
            self._answered.add(heard.said.sender)
        if heard.what != "proposed" or heard.agreement is None or position is None:
            return []
        a = self.tracker.result()[heard.agreement]
        if self.power not in a.parties or a.proposer == self.power:
            return []
        self._answered.add(a.proposer)
        replies: list[tuple[tuple[str, ...], str]] = []
        mine = [b for b in self.agreements() if b.proposer == self.power and b.term == a.term
                and b.state is State.PROPOSED and a.proposer in b.parties]
        if mine:
            order = self.game_map.powers
            if order.index(a.proposer) > order.index(self.power):
                return []            # ours came first in the order of play: theirs is cancelled
            replies += [((a.proposer,), f"CCL (PRP ({b.text}))") for b in mine]
        yes = self.answer(position, a)
        replies.append(((a.proposer,), f"{'YES' if yes else 'REJ'} (PRP ({a.text}))"))
        return replies

    def answer(self, position: Position, a: Agreement) -> bool:
        """Whether we accept agreement ``a`` (see the module's notes)."""
        if not self._acceptable(position, a.term, a.proposer):
            return False
        if self.ordered is not None and self.ordered[0] == self.phase and position.phase.kind == "movement":
            _, orders, pos = self.ordered            # too late to change them: they must keep it
            return not any(breaks(a.term, pos, u, o) for u, o in _units_of(pos, self.power, orders))
        return True

    def _acceptable(self, position: Position, term: Term, proposer: str) -> bool:
        me, trust = self.power, self.trust
        top = leader(position, me)
        if isinstance(term, AllOf):
            return all(self._acceptable(position, p, proposer) for p in term.parts)
        if isinstance(term, Ending):
            return True
        if isinstance(term, Alliance):
            if me in term.against or set(term.powers) & set(term.against) or me not in term.powers:
                return False
            return all(p == me or (trust.of(p) >= PEACE_TRUST and p != top) for p in term.powers)
        if isinstance(term, Peace):
            return me in term.powers and all(p == me or (trust.of(p) >= PEACE_TRUST and p != top)
                                            for p in term.powers)
        if isinstance(term, Demilitarized):
            if me not in term.powers:
                return True
            return dmz_value(position, me, term.provinces, term.powers, trust) >= 0
        if isinstance(term, Promise):
            if term.power != me:
                return not any(v == me for v, _ in attacks(position, term.power, term.order))
            o = term.order
            helped = position.unit_in.get(position.map.province_of.get(getattr(o, "supported_location", ""), ""))
            return (isinstance(o, (SupportHold, SupportMove)) and helped is not None
                    and helped.power == proposer and trust.of(proposer) >= PEACE_TRUST)
        return False

    def proposals(self, position: Position) -> list[tuple[tuple[str, ...], str]]:
        """What to propose in this movement phase: (recipients, ``PRP (...)``) each."""
        if position.phase.kind != "movement" or not position.units_of(self.power):
            return []
        me, trust, tok = self.power, self.trust, self.token
        top = leader(position, me)
        mine = _reach(position, me)
        out: list[tuple[tuple[str, ...], str]] = []
        in_force = {a.term for a in self.in_force()}
        # our units already promised an order: none is promised twice
        promised = {leaf.order.location for t in self.terms_binding(me) for leaf in t.leaves()
                    if isinstance(leaf, Promise) and isinstance(leaf.order, UnitOrder)}
        for other in self.game_map.powers:
            if other == me or not position.units_of(other) or not (mine & _reach(position, other)):
                continue
            if self._asked.get(other, 0) >= 1 and other not in self._answered:
                continue                     # it ignored a whole phase of proposals: gunboat
            pair = " ".join(tok[p] for p in self.game_map.powers if p in (me, other))
            if other != top and trust.of(other) >= PEACE_TRUST and not self.at_peace(other):
                out.append(((other,), f"PRP (PCE ({pair}))"))
            zone_ = contested(position, me, other)
            zone_ = sorted(zone_, key=lambda p: -values_for(me, position.map).get(p, 0.0))[:DMZ_SIZE]
            if zone_ and dmz_value(position, me, zone_, [other], trust) >= 0 \
                    and Demilitarized(tuple(p for p in self.game_map.powers if p in (me, other)),
                                      tuple(sorted(zone_))) not in in_force:
                names = " ".join(position.map.provinces[p].daide.upper() for p in sorted(zone_))
                out.append(((other,), f"PRP (DMZ ({pair}) ({names}))"))
            if top is not None and other != top and self.at_peace(other) and _reach(position, top) & _reach(position, other):
                if not any(isinstance(t, Alliance) and set(t.powers) == {me, other} for t in in_force):
                    out.append(((other,), f"PRP (ALY ({pair}) VSS ({tok[top]}))"))
            if self.at_peace(other):
                support = self._support_for(position, other, promised)
                if support is not None:
                    out.append(((other,), f"PRP (XDO ({support}))"))
        for recipients, _ in out:
            for r in recipients:
                self._asked[r] = self._asked.get(r, 0) + 1
        return out

    def _support_for(self, position: Position, ally: str, promised: set[str]) -> str | None:
        """A support a unit of ours not ``promised`` yet (its location is not in it; it
        is added) can give a unit of ``ally`` that a third power can reach (its DAIDE
        text), or None."""
        m = position.map
        po = m.province_of
        threatened: set[str] = set()
        for u in position.units:
            if u.power not in (self.power, ally):
                threatened.update(reachable_provinces(m, u))
        for theirs in position.units_of(ally):
            if po[theirs.location] not in threatened:
                continue
            for ours in position.units_of(self.power):
                o = SupportHold(ours.kind, ours.location, theirs.kind, theirs.location)
                if ours.location not in promised and o in legal_orders(position, ours):
                    promised.add(ours.location)
                    return format_order(o, self.power, "daide", position=position)
        return None

    # -- the orders --------------------------------------------------------------------
    def phase_over(self, phase: str, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        """The phase is over: check every agreement in force against its orders."""
        self._enter(phase)
        try:
            self.tracker.end_phase(phase, position, orders)
        except DipsolveError:
            pass
        self._trust = None

    def keep(self, position: Position, orders: Sequence[Order], rng: random.Random,
             policy: Any = None, allies: Mapping[str, float] | None = None,
             deadline: Deadline | None = None) -> list[Order]:
        """The orders to play (see the module's notes): ``orders`` the search found;
        ``policy`` draws the others' orders (an `OrderPolicy`; None: they hold).  Past
        ``deadline`` the work is cut short, never the keeping: the gain of breaking is
        measured over fewer draws (one at least), and an order that breaks an agreement
        is replaced by the first of the unit's orders that breaks none (a hold first)."""
        deadline = deadline or Deadline(math.inf)
        orders = list(orders)
        terms = self.terms_binding(self.power)
        forbids = _forbids(terms)
        if position.phase.kind != "movement":
            return _kept_elsewhere(position, self.power, orders, forbids)
        evaluate = _evaluation(self.power, allies)
        draws = _draws(position, self.power, policy, rng, deadline)
        mine = dict(_units_of(position, self.power, orders))
        broken = [a for a in self.binding(self.power) if any(breaks(a.term, position, u, o) for u, o in mine.items())]
        if not broken:
            return orders
        kept = dict(mine)
        for u, o in mine.items():
            if forbids(position, u, o):
                kept[u] = _best_allowed(position, self.power, u, kept, forbids, evaluate, deadline)
        kept_orders = [kept[u] for u in kept]
        gain = _mean_value(position, self.power, orders, draws, evaluate) \
            - _mean_value(position, self.power, kept_orders, draws, evaluate)
        # those tested before count kept so far: breaking them moves them to broken
        were_kept = sum(any(c.verdict is not Verdict.UNTESTED for c in a.checks) for a in broken)
        cost = self.worth * self.trust.lost(self.power, len(broken), were_kept)
        stab = self.policy == "opportunistic" and self.trust.worth_breaking(self.power, gain, len(broken),
                                                                            self.worth, were_kept)
        self.decisions.append((position.phase.short, len(broken), gain, cost, stab))
        return orders if stab else kept_orders

    def played(self, position: Position, orders: Sequence[Order]) -> None:
        """Our orders for this phase went in."""
        self.ordered = (position.phase.short, list(orders), position)


def _kept_elsewhere(position: Position, power: str, orders: list[Order],
                    forbids: Callable[[Position, Unit, Order], bool]) -> list[Order]:
    """A retreat or adjustment phase's orders kept to our word (there a seat never
    weighs breaking it): a retreat that would break an agreement becomes another
    retreat that breaks none, or a disband; a build, a waive."""
    out: list[Order] = []
    dislodged = {d.unit.location: d.unit for d in position.dislodged if d.unit.power == power}
    for o in orders:
        if isinstance(o, Build):
            unit = Unit(power, o.kind, o.location)
            out.append(Waive() if forbids(position, unit, o) else o)
        elif isinstance(o, (Retreat, Disband)) and o.location in dislodged:
            unit = dislodged[o.location]
            if forbids(position, unit, o):
                o = next((x for x in legal_orders(position, unit) if not forbids(position, unit, x)),
                         Disband(unit.kind, unit.location))
            out.append(o)
        else:
            out.append(o)
    return out


def _forbids(terms: Sequence[Term]) -> Callable[[Position, Unit, Order], bool]:
    """Whether an order breaks one of ``terms`` (`breaks`), each answer kept on the
    position (``position.memo``): a policy's draws ask it of the same orders again and
    again, sample after sample."""
    key = ("negotiation.forbids", object())

    def forbids(position: Position, unit: Unit, order: Order) -> bool:
        seen = position.memo.setdefault(key, {})
        answer = seen.get((unit, order))
        if answer is None:
            answer = seen[(unit, order)] = any(breaks(t, position, unit, order) for t in terms)
        return answer
    return forbids


def _units_of(position: Position, power: str, orders: Iterable[Order]) -> list[tuple[Unit, Order]]:
    by_province = {position.map.province_of[u.location]: u for u in position.units_of(power)}
    out = []
    for o in orders:
        loc = getattr(o, "location", None)
        u = by_province.get(position.map.province_of.get(loc, "")) if loc else None
        if u is not None:
            out.append((u, o))
    return out


def _evaluation(power: str, allies: Mapping[str, float] | None) -> Callable[[Position], float]:
    return lambda pos: influence(pos, power, allies=allies)


def _draws(position: Position, power: str, policy: Any, rng: random.Random,
           deadline: Deadline) -> list[dict[str, list[Order]]]:
    """`KEEP_DRAWS` draws of the others' orders (fewer past ``deadline``, one at least)."""
    if policy is None:
        return [{}]
    others = sorted({u.power for u in position.units if u.power != power})
    out: list[dict[str, list[Order]]] = []
    for _ in range(KEEP_DRAWS):
        if out and deadline.expired():
            break
        out.append({p: list(policy(position, p, random.Random(rng.randrange(1 << 30)))) for p in others})
    return out


def _mean_value(position: Position, power: str, orders: Sequence[Order], draws: list[dict[str, list[Order]]],
                evaluate: Callable[[Position], float]) -> float:
    total = 0.0
    for others in draws:
        total += evaluate(adjudicate(position, {**others, power: list(orders)}).next)
    return total / len(draws)


def _best_allowed(position: Position, power: str, unit: Unit, orders: Mapping[Unit, Order],
                  forbids: Callable[[Position, Unit, Order], bool], evaluate: Callable[[Position], float],
                  deadline: Deadline) -> Order:
    """The unit's legal order that breaks no agreement and is worth most, the power's
    other orders as given and the others holding, as far as ``deadline`` allows (the
    first such order, a hold first, when it has passed; a hold when every order breaks
    one)."""
    allowed = [o for o in legal_orders(position, unit) if not forbids(position, unit, o)]
    if not allowed:
        return Hold(unit.kind, unit.location)
    best: tuple[float, Order] = (-math.inf, allowed[0])
    for o in allowed:
        if deadline.expired():
            break
        trial = [o if u == unit else x for u, x in orders.items()]
        v = evaluate(adjudicate(position, {power: trial}).next)
        if v > best[0]:
            best = (v, o)
    return best[1]


@dataclass(frozen=True)
class NegotiatingBot:
    """A dipsolve seat that negotiates: ``bot``'s search told what ``negotiator`` knows
    (its allies' control counted by trust, the others' policy conditioned on what they
    agreed), its orders kept to its word as its policy says (`Negotiator.keep`)."""

    bot: DipsolveBot
    negotiator: Negotiator

    @property
    def name(self) -> str:
        return f"{self.bot.name}+press:{self.negotiator.policy}"

    def prepare(self) -> None:
        self.bot.prepare()

    def observe(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> None:
        self.bot.observe(position, orders)

    def tune(self, power: str) -> DipsolveBot:
        """The search told what was agreed (see the module's notes)."""
        allies = self.negotiator.allies()
        restraints = self.negotiator.restraints()
        bot = self.bot
        if allies and isinstance(bot.strategy.evaluation, Influence):
            ev = bot.strategy.evaluation
            friends = {**(ev.allies or {}), power: allies}
            bot = dataclasses.replace(bot, strategy=dataclasses.replace(
                bot.strategy, evaluation=dataclasses.replace(ev, allies=friends)))
        if restraints:
            bot = dataclasses.replace(bot, restraints=restraints)
        return bot

    def orders(self, position: Position, power: str, deadline_s: float, rng: random.Random) -> list[Order]:
        bot = self.tune(power)
        turn = Deadline(deadline_s, clock=clock_named(bot.clock))
        bound = bool(self.negotiator.terms_binding(power))
        # bound by an agreement: `KEEP_SHARE` of the turn kept for `Negotiator.keep`
        orders = bot.orders(position, power, deadline_s * (1 - KEEP_SHARE) if bound else deadline_s, rng)
        if not bound:
            return orders
        if position.phase.kind != "movement":
            return self.negotiator.keep(position, orders, rng, deadline=turn)
        policy = Restrained(bot.policy(power).weights, restraints=self.negotiator.restraints()) if bot.learns else None
        return self.negotiator.keep(position, orders, rng, policy, self.negotiator.allies(), turn)
