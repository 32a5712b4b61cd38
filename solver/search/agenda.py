"""The best-first agenda search of Hall & Loeb (seed ``002_…``, sections 3.2–3.4, 4.2, 4.3.1).

A node is a *partial order set* of one power: orders for some of its units, the others
keeping their default order (hold, unless a seed says otherwise).  Its value is the
evaluation of the position the adjudicator makes of it, every other power giving its
background orders (hold, unless told otherwise).  The agenda holds the leaves of the
tree, best first; the search

1. starts from the seeds: the empty set (everybody keeps the default: "all hold" in the
   seed's example, section 3.4), and any complete order sets handed in (last turn's
   orders, orders suggested by an ally) as candidates of their own;
2. dives depth-first, always into the best child of the node it just expanded, until it
   holds a complete order set (section 3.3), so that an answer exists at once;
3. then goes best-first: the top of the agenda is expanded, or, when it is complete,
   *tested* (against enemy orders: the ``test`` function an opponent model supplies,
   `dipsolve.search.opponents`); the best tested set is the answer at any moment.

A node's children order one more unit: every useful order of every unordered unit
(`legal.useful_orders`); supports only of moves and holds already decided (Table 4:
"there is no need to generate support orders for moves before other units have
moved"); and, as section 4.3.1 asks, a move together with every combination of
supports the unordered units can give it, and a long convoy together with its chain of
fleets, each as one step.  Each expansion also inserts the node itself as a complete
set ("the special element", footnote 8: the remaining units keep their defaults).

Duplicate pruning (3.3): order sets are keyed by their *set* of orders, so a
permutation of a set already seen is never evaluated again.  Beam search (3.3): with
``beam_width`` the agenda keeps only its best entries.  Order sets that break a maxim
of footnote 5 (`legal.useless`) are never put on the agenda.

Everything stops at the ``deadline`` (a `dipsolve.core.results.Deadline`, checked before every
step and every child; the ``test`` checks it too): the best tested set so far is returned, and
whether the agenda ran empty (every useful order set was looked at: the answer is then
optimal for this evaluation and test).
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from ..core.errors import DipsolveRuleError
from ..core.resolver import Resolver
from ..core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, unit_key
from ..core.position import Position, Unit
from ..core.results import Deadline
from ..core.graph import convoy_routes
from ..core.legal import useful_orders, useless

Evaluation = Callable[[Position, str], float]
#: complete order set -> its tested value, or None when the deadline cut the test short
Test = Callable[[tuple[Order, ...]], "float | None"]

#: up to this many possible supporters, every combination of them goes on the agenda
#: with a move; beyond it, each one alone and all of them together
MAX_SUPPORT_COMBINATIONS = 4
#: the trace lists at most this many agenda entries per step, for this many steps
#: (afterwards one line per step)
TRACE_ROWS = 40
TRACE_STEPS = 6


@dataclass(frozen=True)
class Tested:
    """A complete order set that was tested: its value in the test and on the agenda."""

    orders: tuple[Order, ...]
    value: float
    agenda_value: float


@dataclass
class AgendaResult:
    """What an agenda search found (see `agenda_search`)."""

    best: Tested | None
    tested: list[Tested]
    #: complete order sets reached, best agenda value first (tested or not)
    complete: list[tuple[float, tuple[Order, ...]]]
    expansions: int
    evaluations: int
    exhausted: bool           # the agenda ran empty with nothing cut by the beam
    timed_out: bool
    trace: list[str] = field(default_factory=list)


class _Node:
    __slots__ = ("orders", "value", "complete", "seq", "new")

    def __init__(self, orders: frozenset, value: float, complete: bool, seq: int):
        self.orders, self.value, self.complete, self.seq = orders, value, complete, seq
        self.new = True

    def key(self) -> tuple:
        return (-self.value, self.seq)


class AgendaSearch:
    """One power's agenda search in one position (see the module notes)."""

    def __init__(self, position: Position, power: str, evaluate: Evaluation, *,
                 background: Mapping[str, Sequence[Order]] | None = None,
                 defaults: Iterable[Order] = (), seeds: Iterable[Iterable[Order]] = (),
                 test: Test | None = None, beam_width: int | None = None,
                 deadline: Deadline | None = None, trace: bool = False,
                 foreign: bool = False, units: Iterable[Unit] | None = None) -> None:
        if position.phase.kind != "movement":
            raise DipsolveRuleError(f"the agenda search orders a movement phase, not {position.phase}")
        self.position, self.power, self.evaluate = position, power, evaluate
        m = position.map
        self.po = po = m.province_of
        self.background = {p: list(os) for p, os in (background or {}).items() if p != power}
        #: the position with the background orders matched once; each set matches its own
        self.resolver = Resolver(position, self.background)
        options = useful_orders(position, power, foreign=foreign)
        chosen = set(units) if units is not None else None
        #: the units searched (others keep their default), in board order
        self.units = [u for u in options if chosen is None or u in chosen]
        self.options = options
        self.unit_at = {po[u.location]: u for u in position.units_of(power)}
        self.defaults: dict[Unit, Order] = {u: Hold(u.kind, u.location) for u in position.units_of(power)}
        for o in defaults:
            u = self.unit_at.get(po.get(getattr(o, "location", ""), ""))
            if u is not None:
                self.defaults[u] = o
        self.seeds = [tuple(s) for s in seeds]
        # the test as given (None: the plain value, `run` takes `_plain_test`); never the
        # bound `_plain_test` kept on self, a cycle that leaves the whole agenda to the cyclic
        # collector (a full collection of tens of thousands of nodes, 0.1 s inside some
        # later phase's time)
        self.test = test
        self.beam_width = beam_width
        self.deadline = deadline if deadline is not None else Deadline(math.inf)
        self.tracing = trace
        self.trace: list[str] = []
        self.values: dict[frozenset, float] = {}
        self.expansions = 0
        self.seen: set[frozenset] = set()
        self.seen_complete: set[frozenset] = set()
        self.agenda: list[tuple[tuple, _Node]] = []
        self.seq = itertools.count()
        self.beam_cut = False
        self.complete_nodes: list[_Node] = []
        self.own_fleets_at_sea = [u for u in self.units
                                  if u.kind == "F" and m.is_sea(po[u.location])]

    # -- values --------------------------------------------------------------------------
    def full(self, partial: frozenset) -> tuple[Order, ...]:
        """The complete order set a partial one stands for: defaults for the rest."""
        ordered = {self.po[o.location] for o in partial}
        rest = [o for u, o in self.defaults.items() if self.po[u.location] not in ordered]
        return self._in_board_order(list(partial) + rest)

    def _in_board_order(self, orders: Iterable[Order]) -> tuple[Order, ...]:
        """Orders sorted as their units are on the board (armies, then fleets)."""
        return tuple(sorted(orders, key=unit_key))

    def value(self, partial: frozenset) -> float:
        """The evaluation of the position this (partial) order set leads to."""
        v = self.values.get(partial)
        if v is None:
            nxt = self.resolver.resolve({self.power: self.full(partial)}).next
            v = self.values[partial] = self.evaluate(nxt, self.power)
        return v

    def _plain_test(self, orders: tuple[Order, ...]) -> float:
        return self.value(frozenset(orders))

    # -- children ------------------------------------------------------------------------
    def children(self, partial: frozenset) -> list[frozenset]:
        """The order sets one step deeper than ``partial`` (see the module notes)."""
        po = self.po
        ordered = {po[o.location] for o in partial}
        moving = {po[o.location]: po[o.target] for o in partial if type(o) is Move}
        free = [u for u in self.units if po[u.location] not in ordered]
        free_provs = {po[u.location] for u in free}
        out: list[frozenset] = []
        for u in free:
            for o in self.options[u]:
                if isinstance(o, Convoy):
                    # a fleet joins a convoy of a move already decided
                    if moving.get(po[o.convoyed_location]) == po[o.target]:
                        out.append(partial | {o})
                elif isinstance(o, SupportMove):
                    sprov = po[o.supported_location]
                    if moving.get(sprov) != po[o.target]:
                        continue
                    out.append(partial | {o})
                elif isinstance(o, SupportHold):
                    sprov = po[o.supported_location]
                    if sprov in moving or sprov not in self.unit_at:
                        continue
                    if sprov in free_provs and type(self.defaults[self.unit_at[sprov]]) is Move:
                        continue
                    out.append(partial | {o})
                elif isinstance(o, Move):
                    if o.via_convoy:
                        out += self._convoyed(partial, u, o, free)
                    else:
                        out += self._supported(partial, u, o, free)
        return out

    def _supported(self, partial: frozenset, u: Unit, move: Move, free: list[Unit]) -> list[frozenset]:
        """The move alone and with each combination of supports the free units can give
        it (4.3.1, massive support)."""
        po = self.po
        target = po[move.target]
        helpers = []
        for h in free:
            if h == u:
                continue
            for o in self.options[h]:
                if type(o) is SupportMove and po[o.supported_location] == po[u.location] \
                        and po[o.target] == target:
                    helpers.append(o)
                    break
        base = partial | {move}
        out = [base]
        if not helpers:
            return out
        if len(helpers) <= MAX_SUPPORT_COMBINATIONS:
            for r in range(1, len(helpers) + 1):
                out += [base | set(c) for c in itertools.combinations(helpers, r)]
        else:
            out += [base | {h} for h in helpers] + [base | set(helpers)]
        return out

    def _convoyed(self, partial: frozenset, army: Unit, move: Move, free: list[Unit]) -> list[frozenset]:
        """A move by convoy alone (its fleets may join later, one a step) and together
        with the convoy orders of the power's own free fleets along a shortest chain
        (4.3.1: long convoys as one step)."""
        fleets = [f for f in self.own_fleets_at_sea if f in free]
        routes = convoy_routes(self.position, army, fleets)
        dest = self.po[move.target]
        chain = routes.get(dest)
        alone = partial | {move}
        if not chain:
            return [alone]
        return [alone, alone | {Convoy(f.location, "A", army.location, dest) for f in chain}]

    # -- the agenda ----------------------------------------------------------------------
    def _push(self, node: _Node) -> None:
        heapq.heappush(self.agenda, (node.key(), node))

    def _add(self, partial: frozenset, complete: bool) -> _Node | None:
        """Put an order set on the agenda unless it (or a permutation of it) is there
        already or breaks a maxim; returns its node."""
        if complete or len(partial) == len(self.units) and self._covers(partial):
            key = frozenset(self.full(partial))
            if key in self.seen_complete:
                return None
            self.seen_complete.add(key)
            complete = True
        else:
            if partial in self.seen:
                return None
            self.seen.add(partial)
        # a complete set is checked with its defaults; a partial one only for what it
        # orders (a unit not yet ordered may still move out of the way)
        if useless(self.position, self.full(partial) if complete else partial, complete=complete):
            return None
        node = _Node(partial, self.value(partial), complete, next(self.seq))
        self._push(node)
        if complete:
            self.complete_nodes.append(node)
        return node

    def _covers(self, partial: frozenset) -> bool:
        ordered = {self.po[o.location] for o in partial}
        return all(self.po[u.location] in ordered for u in self.units)

    def _expand(self, node: _Node) -> list[_Node]:
        self.expansions += 1
        kids = []
        for child in self.children(node.orders):
            if self.deadline.expired():
                break
            k = self._add(child, False)
            if k is not None:
                kids.append(k)
        # the node itself, complete: the remaining units keep their defaults (footnote 8)
        k = self._add(node.orders, True)
        if k is not None:
            kids.append(k)
        self._trim()
        return kids

    def _trim(self) -> None:
        if self.beam_width and len(self.agenda) > self.beam_width:
            self.agenda = heapq.nsmallest(self.beam_width, self.agenda)
            heapq.heapify(self.agenda)
            self.beam_cut = True

    def _describe(self, node: _Node) -> str:
        orders = self.full(node.orders) if node.complete else self._in_board_order(node.orders)
        return "{" + ", ".join(str(o) for o in orders) + "}"

    def _trace_agenda(self, step: int, note: str = "") -> None:
        if not self.tracing:
            return
        if step > TRACE_STEPS:
            new = sum(1 for _, node in self.agenda if node.new)
            self.trace.append(f"Agenda t = {step}{note}: {new} new, {len(self.agenda)} on the agenda")
            for _, node in self.agenda:
                node.new = False
            return
        self.trace.append(f"Agenda t = {step}{note}")
        rows = sorted(self.agenda)
        for (_, node) in rows[:TRACE_ROWS]:
            mark = "*" if node.new else " "
            self.trace.append(f"  {mark} {self._describe(node)} = {node.value:g}")
        if len(rows) > TRACE_ROWS:
            self.trace.append(f"    ... {len(rows) - TRACE_ROWS} more")
        for (_, node) in rows:
            node.new = False

    # -- the search ----------------------------------------------------------------------
    def run(self) -> AgendaResult:
        tested: list[Tested] = []
        best: Tested | None = None
        timed_out = False

        # a local, not an attribute: the bound `_plain_test` kept on self is a cycle
        test = self.test or self._plain_test

        def run_test(node: _Node) -> None:
            nonlocal best
            orders = self.full(node.orders)
            v = test(orders)
            if v is None:
                return
            t = Tested(orders, v, node.value)
            tested.append(t)
            if best is None or v > best.value:
                best = t
            if self.tracing:
                verdict = "the best so far" if best is t else f"not better than {best.value:g}"
                self.trace.append(f"  tested {self._describe(node)}: {v:g} ({verdict})")

        root: frozenset[Order] = frozenset()
        self.seen.add(root)
        start = _Node(root, self.value(root), False, next(self.seq))
        self._push(start)
        for s in self.seeds:
            self._add(frozenset(s), True)
        step = 0
        self._trace_agenda(step)
        # depth-first until a complete order set exists (3.3)
        current: _Node | None = None
        while current is None or not current.complete:
            if self.deadline.expired():
                timed_out = True
                break
            if current is None:
                # the dive starts at the root, whatever seeds stand above it
                current = start
                self.agenda.remove((start.key(), start))
                heapq.heapify(self.agenda)
            kids = self._expand(current)
            step += 1
            if not kids:
                # nothing new below: test this node as it stands
                kid = self._add(current.orders, True)
                kids = [kid] if kid else []
                if not kids:
                    break
            best_kid = min(kids, key=_Node.key)
            self._trace_agenda(step, f" (depth-first: {self._describe(best_kid)} next)")
            self.agenda.remove((best_kid.key(), best_kid))
            heapq.heapify(self.agenda)
            current = best_kid
        if current is not None and current.complete and not timed_out:
            run_test(current)
        # then best-first (3.2)
        while self.agenda and not timed_out:
            if self.deadline.expired():
                timed_out = True
                break
            node = heapq.heappop(self.agenda)[1]
            if node.complete:
                run_test(node)
                continue
            self._expand(node)
            step += 1
            self._trace_agenda(step, f" (expanded {self._describe(node)})")
        if best is None:
            # the deadline came before any test: the depth-first dive's set or a seed,
            # whichever the agenda values most, untested
            node = max([current or start] + self.complete_nodes, key=lambda n: n.value)
            orders = self.full(node.orders)
            best = Tested(orders, node.value, node.value)
        complete = [(n.value, self.full(n.orders))
                    for n in sorted(self.complete_nodes, key=_Node.key)]
        return AgendaResult(best=best, tested=sorted(tested, key=lambda t: -t.value),
                            complete=complete, expansions=self.expansions,
                            evaluations=len(self.values),
                            exhausted=not self.agenda and not timed_out and not self.beam_cut,
                            timed_out=timed_out, trace=self.trace)


def agenda_search(position: Position, power: str, evaluate: Evaluation, **options) -> AgendaResult:
    """Run `AgendaSearch` (its keyword options: ``background``, ``defaults``, ``seeds``,
    ``test``, ``beam_width``, ``deadline``, ``trace``, ``foreign``, ``units``)."""
    return AgendaSearch(position, power, evaluate, **options).run()
