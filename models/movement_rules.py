"""The movement rules of Diplomacy as CP-SAT constraints: orders in, outcome out.

`dipsolve.core.adjudicator` resolves one set of orders by Kruijswijk's guess algorithm
("The Math of Adjudication", DATC section 5).  This module writes the same decisions as
constraints over literals, so that a solver can reason about *every* order set a power
might give at once (`dipsolve.models.order_model`).  For each unit the caller hands in
its possible orders, each with a literal that is true when the unit is given that order
(a choice variable for the power being solved, the constant ``True`` for an order that is
fixed); `Resolution` then defines, for one opponent scenario,

``S[i, d]``  the move of unit ``i`` to province ``d`` succeeds (DATC 5: attack strength
             against hold, defend and prevent strengths);
``P[i, d]``  the army ``i`` has a convoy route to ``d`` of fleets ordered to convoy it
             that are not dislodged;
``D[i]``     unit ``i`` is dislodged (a move into its province succeeds and it did not
             move away);
``G(s)``     a support is given: it is valid (the supported unit does what is
             supported), not cut (by an attack of another power, not from the province
             the support is aimed at, whose convoy route if any stands) and its supporter
             is not dislodged;

and from them where every unit stands afterwards.  Strengths are sums of support
literals compared with reified linear constraints.  Orders are read exactly as the
adjudicator reads them (`read_order` calls its own order check, so an illegal order is
a hold here too, and ``via`` means what it means there: a ``VIA`` move, a move to a
province the army does not border, or an adjacent move that a fleet of the army's own
power is ordered to convoy, DATC 4.A.3).

Why the constraints have exactly one solution, the adjudicator's
------------------------------------------------------------------
Written as equations, the decisions can have several solutions where the adjudicator's
guess algorithm meets a cycle.  Two kinds of cycle exist:

*Circular movement.*  Without convoy routes in play, the success of a move depends on
other moves only through the unit standing in its destination (whether that unit moves
away; whether it dislodges one of the mover's supporters or beats a rival head to head):
every move depends on at most one other move, so the dependency cycles are rings of
units each moving into the next one's province, and around such a ring a move can only
gain from the next one succeeding.  All-fail and all-succeed may then both solve the
equations; the adjudicator's backup rule takes all-succeed, the greatest solution.  The
model gets it with *ranks*: a move that fails although it would have succeeded had the
unit in its destination moved away must have a higher rank (an integer) than that unit.
Along a ring the ranks cannot all increase, so a ring fails only when one of its moves
fails for a reason of its own, exactly as in the adjudicator.

*Convoy paradoxes* (DATC 4.A.2).  A convoy route depends on whether its fleets are
dislodged; an attack on a fleet depends on supports that a convoyed army may cut.  When
these dependencies close a cycle (`convoy_cycles`: an army, convoyed or not depending on
a route, that could cut a support given into the sea of a fleet on a route it depends
on, directly or through other convoys), the adjudicator's Szykman rule decides, and that
is not written here: such order sets are *excluded*.  `convoy_cycles` finds every cycle
the given options could form (it looks at the options, so it never misses one, and may
flag a cycle that the orders finally chosen would not close); callers remove options to
break them (`dipsolve.models.order_model`) or raise `ParadoxError`.  With no such cycle,
convoy routes depend only on decisions outside any cycle, and the rest above holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence, Union

from ortools.sat.python import cp_model
from ortools.sat.python.cp_model_helper import Literal as CpLiteral

from dipsolve.core.errors import DipsolveUnsupported
from dipsolve.core.graph import sea_route
from dipsolve.core.rules import CONVOY, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Reading, read_order
from dipsolve.core.orders import Order
from dipsolve.core.position import Position, Unit

#: a literal: a CP-SAT Boolean variable, its negation, or a Python constant
Lit = Union[bool, CpLiteral]


def _dest(move: Reading) -> str:
    """The destination location of a move's reading (a coast for a fleet)."""
    if move.dest_loc is None:
        raise ValueError(f"{move.order} is read as no move")
    return move.dest_loc


class ParadoxError(DipsolveUnsupported):
    """Orders that may form a convoy paradox (DATC 4.A.2), which the model does not cover."""


class Model(cp_model.CpModel):
    """A CP-SAT model without the camelCase aliases `CpModel` adds to every instance
    (this package uses the snake_case API only): `predict` builds one model per phase,
    and the aliases cost more than a small model."""

    def _add_pre_pep8_methods(self) -> None:
        pass


# -- literals that fold constants ---------------------------------------------------------------

def _key(lit) -> int:
    return lit.index


class Logic:
    """Boolean algebra on CP-SAT literals: constants fold away at build time (a fixed
    order makes most of its unit's decisions constants) and equal terms are shared."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.model = model
        self._and: dict[tuple[int, ...], Lit] = {}
        self._gt: dict[tuple, Lit] = {}

    @staticmethod
    def neg(lit: Lit) -> Lit:
        if lit is True or lit is False:
            return not lit
        return ~lit

    def all(self, lits: Iterable[Lit]) -> Lit:
        """A literal true exactly when every one of ``lits`` is."""
        terms: dict[int, Lit] = {}
        for lit in lits:
            if lit is False:
                return False
            if lit is True:
                continue
            k = _key(lit)
            if -k - 1 in terms:
                return False
            terms[k] = lit
        if not terms:
            return True
        if len(terms) == 1:
            return next(iter(terms.values()))
        key = tuple(sorted(terms))
        b = self._and.get(key)
        if b is None:
            b = self._and[key] = self.model.new_bool_var("")
            vals = list(terms.values())
            self.model.add_bool_and(vals).only_enforce_if(b)
            self.model.add_bool_or([~v for v in vals]).only_enforce_if(~b)
        return b

    def any(self, lits: Iterable[Lit]) -> Lit:
        """A literal true exactly when one of ``lits`` is."""
        return self.neg(self.all(self.neg(x) for x in lits))

    def more(self, plus: Sequence[Lit], minus: Sequence[Lit]) -> Lit:
        """A literal for ``1 + sum(plus) > 1 + sum(minus)``: one strength beats another."""
        base = sum(1 for x in plus if x is True) - sum(1 for x in minus if x is True)
        p = [x for x in plus if x is not True and x is not False]
        q = [x for x in minus if x is not True and x is not False]
        if base - len(q) >= 1:
            return True
        if base + len(p) < 1:
            return False
        key = (base, tuple(sorted(_key(x) for x in p)), tuple(sorted(_key(x) for x in q)))
        b = self._gt.get(key)
        if b is None:
            b = self._gt[key] = self.model.new_bool_var("")
            expr = sum(p) - sum(q) + base
            self.model.add(expr >= 1).only_enforce_if(b)
            self.model.add(expr <= 0).only_enforce_if(~b)
        return b

    def define(self, var: cp_model.IntVar, lit: Lit) -> None:
        """Constrain the variable ``var`` to equal ``lit``."""
        if lit is True or lit is False:
            self.model.add(var == int(lit))
        else:
            self.model.add(var == lit)

    def value(self, solver: cp_model.CpSolver, lit: Lit) -> bool:
        if lit is True or lit is False:
            return lit
        return bool(solver.boolean_value(lit))


# -- one scenario's decisions --------------------------------------------------------------------

Options = Mapping[Unit, Sequence[tuple[Lit, Reading]]]


class Resolution:
    """The movement rules for one set of options: every unit's possible orders with
    their literals (at most one true per unit; a unit with none true holds).

    Build it, then read the literals of the outcome, unit by unit (by index in
    ``position.units``): ``S_any[i]`` it moved, ``D[i]`` it was dislodged, ``stay[i]``
    it ends the phase where it started, ``arrive[i]`` location -> it ends there after
    moving; or, after a solve, `outcome`.
    """

    def __init__(self, logic: Logic, position: Position, options: Options, name: str = "") -> None:
        self.logic = logic
        self.position = position
        self.name = name
        m = position.map
        po = m.province_of
        self.units = position.units
        n = len(self.units)
        self.prov = [po[u.location] for u in self.units]
        self.at = {p: i for i, p in enumerate(self.prov)}
        L = logic
        # the options of each unit, sorted by what they ask for
        self.moves: list[dict[str, list[tuple[Lit, Reading]]]] = [{} for _ in range(n)]
        self.hold_supports: list[list[tuple[int, Lit, Reading]]] = [[] for _ in range(n)]
        self.move_supports: dict[tuple[int, str], list[tuple[int, Lit, Reading]]] = {}
        self.convoys: dict[tuple[int, str], list[tuple[int, Lit]]] = {}
        index = {u: i for i, u in enumerate(self.units)}
        for u, opts in options.items():
            i = index[u]
            for x, r in opts:
                if x is False:
                    continue
                if r.kind == MOVE:
                    self.moves[i].setdefault(r.dest, []).append((x, r))  # type: ignore[arg-type]
                elif r.kind == SUPPORT_HOLD:
                    self.hold_supports[self.at[r.supported]].append((i, x, r))  # type: ignore[index]
                elif r.kind == SUPPORT_MOVE:
                    key = (self.at[r.supported], r.target)  # type: ignore[index]
                    self.move_supports.setdefault(key, []).append((i, x, r))  # type: ignore[arg-type]
                elif r.kind == CONVOY:
                    key = (self.at[r.supported], r.target)  # type: ignore[index]
                    self.convoys.setdefault(key, []).append((i, x))  # type: ignore[arg-type]
        power = self.power = [u.power for u in self.units]

        # what each unit is ordered to do (constants for fixed orders)
        self.mv: dict[tuple[int, str], Lit] = {}
        self.mv_loc: dict[tuple[int, str], Lit] = {}
        self.via: dict[tuple[int, str], Lit] = {}
        self.plain: dict[tuple[int, str], Lit] = {}
        self.movers_to: dict[str, list[int]] = {}
        for i in range(n):
            for d, opts in self.moves[i].items():
                # DATC 4.A.3: an adjacent move goes by convoy when a fleet of the army's
                # own power is ordered to convoy it there
                intent = L.any(x for f, x in self.convoys.get((i, d), ()) if power[f] == power[i])
                self.mv[i, d] = L.any(x for x, _ in opts)
                self.via[i, d] = L.any(x if r.via else L.all((x, intent)) for x, r in opts)
                self.plain[i, d] = L.any(L.all((x, L.neg(intent))) for x, r in opts if not r.via)
                for x, r in opts:
                    loc = _dest(r)
                    self.mv_loc[i, loc] = L.any((self.mv_loc.get((i, loc), False), x))
                if self.mv[i, d] is not False:
                    self.movers_to.setdefault(d, []).append(i)
        self.moving = [L.any(self.mv.get((i, d), False) for d in self.moves[i]) for i in range(n)]

        # the decisions: S is a variable per possible move; everything else a formula
        self.S: dict[tuple[int, str], Lit] = {}
        for i in range(n):
            for d in self.moves[i]:
                if self.mv[i, d] is not False:
                    self.S[i, d] = logic.model.new_bool_var(f"{name}S[{self.units[i]}-{d}]")
        self.S_any = [L.any(self.S.get((i, d), False) for d in self.moves[i]) for i in range(n)]
        self._D: dict[int, Lit] = {}
        self._P: dict[tuple[int, str], Lit] = {}
        self._A: dict[tuple[int, str], Lit] = {}
        self._G: dict[tuple[int, Reading], Lit] = {}
        self.rank: dict[int, cp_model.IntVar] = {}
        for (i, d), s in self.S.items():
            logic.define(s, self._success(i, d))  # type: ignore[arg-type]
        # the outcome's literals, made now so that a solve can read them
        self.D = [self.dislodged(i) for i in range(n)]
        self.arrive = [self._arrivals(i) for i in range(n)]
        self.stay = [L.all((L.neg(self.S_any[i]), L.neg(self.D[i]))) for i in range(n)]

    # -- the decisions ---------------------------------------------------------------------------
    def dislodged(self, u: int) -> Lit:
        """D[u]: a move into u's province succeeds and u did not move away."""
        d = self._D.get(u)
        if d is None:
            L = self.logic
            hit = L.any(self.S[m, self.prov[u]] for m in self.movers_to.get(self.prov[u], ()))
            d = self._D[u] = L.all((hit, L.neg(self.S_any[u])))
        return d

    def path(self, i: int, dest: str) -> Lit:
        """P[i, dest]: a chain of fleets, each validly ordered to convoy army i to dest and
        not dislodged, links i's coast to dest (the adjudicator's `sea_route`)."""
        key = (i, dest)
        p = self._P.get(key)
        if p is not None:
            return p
        L = self.logic
        nb = self.position.map.neighbours
        fleets: dict[str, Lit] = {}
        for f, x in self.convoys.get(key, ()):
            ok = L.all((x, self.via[i, dest], L.neg(self.dislodged(f))))
            fleets[self.prov[f]] = L.any((fleets.get(self.prov[f], False), ok))
        # reach[s]: a chain of available fleets from the army's coast ends at sea s
        reach = {s: (a if s in nb[self.prov[i]] else False) for s, a in fleets.items()}
        for _ in range(len(fleets) - 1):
            reach = {s: L.all((a, L.any([reach[s]] + [reach[t] for t in nb[s] if t in reach])))
                     for s, a in fleets.items()}
        p = self._P[key] = L.any(r for s, r in reach.items() if dest in nb[s])
        return p

    def attacks(self, m: int, p: str) -> Lit:
        """Unit m moves against province p and, if convoyed, its route stands: such an
        attack cuts a support there (the adjudicator's `_path_ok`)."""
        key = (m, p)
        a = self._A.get(key)
        if a is None:
            a = self._A[key] = self.logic.any((self.plain[key], self.path(m, p)))
        return a

    def given(self, s: int, r: Reading) -> Lit:
        """G: the support r of unit s is valid, not cut and s is not dislodged."""
        key = (s, r)
        g = self._G.get(key)
        if g is not None:
            return g
        L = self.logic
        j = self.at[r.supported]  # type: ignore[index]
        if r.kind == SUPPORT_HOLD:
            valid = L.neg(self.moving[j])
            against = None
        elif r.coast is None:
            valid = self.mv.get((j, r.target), False)  # type: ignore[arg-type]
            against = r.target
        else:
            valid = self.mv_loc.get((j, r.coast), False)
            against = r.target
        if valid is False:
            g = False
        else:
            here = self.prov[s]
            cut = L.any(self.attacks(m, here) for m in self.movers_to.get(here, ())
                        if self.power[m] != self.power[s] and self.prov[m] != against)
            g = L.all((valid, L.neg(cut), L.neg(self.dislodged(s))))
        self._G[key] = g
        return g

    def _supports(self, i: int, d: str, exclude_power: str | None = None) -> list[Lit]:
        """The literals of the supports given to i's move to d (one per support option;
        at most one of a supporter's is true), leaving out those of ``exclude_power``."""
        out = []
        for s, x, r in self.move_supports.get((i, d), ()):
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            out.append(self.logic.all((x, self.given(s, r))))
        return out

    def _hold_supports(self, j: int) -> list[Lit]:
        return [self.logic.all((x, self.given(s, r))) for s, x, r in self.hold_supports[j]]

    def _success(self, i: int, d: str) -> Lit:
        """The formula for S[i, d] (`dipsolve.core.adjudicator._decide_move`)."""
        L = self.logic
        mv = self.mv[i, d]
        path_ok = L.any((self.plain[i, d], self.path(i, d)))
        j = self.at.get(d)
        pi = self.prov[i]
        # the other moves into d that may prevent this one, each with its strength
        rivals = []
        for k in self.movers_to.get(d, ()):
            if k == i:
                continue
            active = self.attacks(k, d)
            if j is not None and (j, self.prov[k]) in self.S:
                # k beaten head to head by the unit leaving d prevents nothing
                pk = self.prov[k]
                beaten = L.all((self.plain[k, d], self.S[j, pk], self.plain[j, pk]))
                active = L.all((active, L.neg(beaten)))
            if active is not False:
                rivals.append((active, self._supports(k, d)))

        def beats_rivals(att: list[Lit]) -> Lit:
            return L.all(L.any((L.neg(a), L.more(att, strength))) for a, strength in rivals)

        att_all = self._supports(i, d)
        if j is None:
            return L.all((mv, path_ok, beats_rivals(att_all)))
        h2h = L.all((self.plain[i, d], self.plain.get((j, pi), False)))
        leaves = L.all((self.S_any[j], L.neg(h2h)))
        ok_left = beats_rivals(att_all)
        if self.power[j] == self.power[i]:
            ok_stays: Lit = False        # no unit dislodges one of its own power
        else:
            att = self._supports(i, d, exclude_power=self.power[j])
            defend = self._supports(j, pi) if (j, pi) in self.mv else []
            beats_unit = L.any((
                L.all((h2h, L.more(att, defend))),
                L.all((L.neg(h2h), self.moving[j], L.more(att, []))),   # j failed to leave: hold 1
                L.all((L.neg(self.moving[j]), L.more(att, self._hold_supports(j))))))
            ok_stays = L.all((beats_unit, beats_rivals(att)))
        self._rank(i, j, [mv, path_ok, ok_left, self.moving[j], L.neg(h2h)], self.S[i, d])
        return L.all((mv, path_ok, L.any((L.all((leaves, ok_left)), L.all((L.neg(leaves), ok_stays))))))

    def _rank(self, i: int, j: int, would: list[Lit], success: Lit) -> None:
        """Circular movement (see the module notes): if i's move fails although it would
        succeed were j gone (``would``), j stayed for a reason of lower rank."""
        conds = [c for c in would + [self.logic.neg(success)] if c is not True]
        if any(c is False for c in conds):
            return
        model = self.logic.model
        n = len(self.units)
        for u in (i, j):
            if u not in self.rank:
                self.rank[u] = model.new_int_var(0, n, f"{self.name}rank[{self.units[u]}]")
        model.add(self.rank[i] >= self.rank[j] + 1).only_enforce_if(conds)

    # -- the outcome -----------------------------------------------------------------------------
    def _arrivals(self, i: int) -> dict[str, Lit]:
        L = self.logic
        out = {}
        for d, opts in self.moves[i].items():
            s = self.S.get((i, d), False)
            if s is False:
                continue
            locs = {_dest(r) for _, r in opts}
            for loc in sorted(locs):
                out[loc] = s if len(locs) == 1 else L.all((s, self.mv_loc[i, loc]))
        return out

    def outcome(self, solver: cp_model.CpSolver) -> tuple[frozenset[Unit], frozenset[Unit], tuple[Unit, ...]]:
        """After a solve: (units that moved, units dislodged, the units on the board after
        the movement, in canonical order)."""
        v = self.logic.value
        moved, dislodged, after = set(), set(), []
        for i, u in enumerate(self.units):
            if v(solver, self.D[i]):
                dislodged.add(u)
                continue
            where = u.location
            for loc, lit in self.arrive[i].items():
                if v(solver, lit):
                    where = loc
                    moved.add(u)
            after.append(Unit(u.power, u.kind, where))
        return frozenset(moved), frozenset(dislodged), tuple(sorted(after))


# -- convoy paradoxes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ConvoyDependency:
    """One link of a possible convoy paradox: the route of ``convoy`` (army,
    destination) may depend on the route of ``cutter``, whose army could cut
    ``support`` (given into the sea of a fleet on a route of ``convoy``)."""

    convoy: tuple[Unit, str]
    cutter: tuple[Unit, str]
    support: tuple[Unit, Order]
    #: every (unit, order) the link needs; take one away and the link is gone
    orders: frozenset[tuple[Unit, Order]]

    def __str__(self) -> str:
        (a, d), (c, e), (s, o) = self.convoy, self.cutter, self.support
        return (f"the convoy of {a} to {d} may depend on {c} reaching {e} by convoy, "
                f"which would cut {o}")


def convoy_cycles(position: Position, options: Mapping[Unit, Sequence[Reading]]) -> list[ConvoyDependency]:
    """The links that could close a convoy paradox among these options (every unit's
    possible orders, as `read_order` readings): the links of every cycle of the graph
    whose nodes are the possible convoys (army, destination) and whose edges are
    `ConvoyDependency` links.  An empty list: no order set drawn from the options can
    meet a convoy paradox, and `Resolution` is exact for all of them."""
    m = position.map
    po = m.province_of
    unit_in = position.unit_in
    moves: dict[tuple[Unit, str], list[Reading]] = {}
    convoy_orders: dict[tuple[Unit, str], list[tuple[Unit, Reading]]] = {}
    supports_into: dict[str, list[tuple[Unit, Reading]]] = {}
    for u, rs in options.items():
        for r in rs:
            if r.kind == MOVE:
                moves.setdefault((u, r.dest), []).append(r)  # type: ignore[arg-type]
            elif r.kind == CONVOY:
                convoy_orders.setdefault((unit_in[r.supported], r.target), []).append((u, r))  # type: ignore[index, arg-type]
            elif r.kind == SUPPORT_HOLD:
                supports_into.setdefault(r.supported, []).append((u, r))  # type: ignore[arg-type]
            elif r.kind == SUPPORT_MOVE:
                supports_into.setdefault(r.target, []).append((u, r))  # type: ignore[arg-type]
    # the convoys that may happen: an army's move that can go by convoy, with fleets
    # ordered to convoy it that could form a route
    convoys: dict[tuple[Unit, str], list[tuple[Unit, Reading]]] = {}
    for (a, d), fleets in convoy_orders.items():
        rs = moves.get((a, d), [])
        if not any(r.via for r in rs) and not (rs and any(f.power == a.power for f, _ in fleets)):
            continue
        if sea_route(m, po[a.location], d, {po[f.location] for f, _ in fleets}):
            convoys[a, d] = fleets
    by_dest: dict[str, list[tuple[Unit, str]]] = {}
    for a, d in convoys:
        by_dest.setdefault(d, []).append((a, d))
    links: list[ConvoyDependency] = []
    for c, fleets in sorted(convoys.items()):
        base = {(c[0], r.order) for r in moves[c]}
        for f, fr in fleets:
            sea = po[f.location]
            for s, sr in supports_into.get(sea, ()):
                # the attack on the fleet the support takes part in: the supported move,
                # or (a support to hold) any move into the fleet's sea
                if sr.kind == SUPPORT_MOVE:
                    attacks = [(unit_in[sr.supported], r) for r in moves.get((unit_in[sr.supported], sea), [])]  # type: ignore[index]
                else:
                    attacks = [(j, r) for (j, d), rs in moves.items() if d == sea for r in rs]
                for j, r in attacks:
                    need = base | {(f, fr.order), (s, sr.order), (j, r.order)}
                    for c2 in by_dest.get(po[s.location], ()):
                        if c2[0].power == s.power:
                            continue
                        need2 = need | {(c2[0], r2.order) for r2 in moves[c2]} | \
                            {(g, gr.order) for g, gr in convoys[c2]}
                        links.append(ConvoyDependency(c, c2, (s, sr.order), frozenset(need2)))
    # keep the links on cycles (Tarjan's strongly connected components)
    graph: dict[tuple[Unit, str], set[tuple[Unit, str]]] = {c: set() for c in convoys}
    for link in links:
        graph[link.convoy].add(link.cutter)
    comp = _components(graph)
    return [link for link in links if comp[link.convoy] == comp[link.cutter]
            and (link.convoy == link.cutter or _size(comp, comp[link.convoy]) > 1)]


def _size(comp: dict, c: int) -> int:
    return sum(1 for v in comp.values() if v == c)


def _components(graph: dict) -> dict:
    """Node -> the number of its strongly connected component (Tarjan, iterative)."""
    index: dict = {}
    low: dict = {}
    comp: dict = {}
    stack: list = []
    on: set = set()
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp[w] = index[v]
                        if w == v:
                            break
    return comp
