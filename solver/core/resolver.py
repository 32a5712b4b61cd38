"""Many order sets over one position: `Resolver`, the adjudicator's movement phase for a search.

A search asks the same position the same question thousands of times, with one power's
(or a few powers') orders changed each time.  `Resolver` does once what does not
change: the position's tables (`dipsolve.core.rules.movement_table`), the fixed powers'
orders matched to their units (`dipsolve.core.rules.match_movement`), the map's
indices; each order set then matches only its own units onto a copy of that matching
and is resolved by the adjudicator's own steps (`dipsolve.core.adjudicator.settle`).
The `Resolution` says what a search needs (who is where, who is dislodged, which
centers change hands); the full `Outcome`, with the next `Position`, is built only on
request, by the adjudicator's own last step, so it is the one `adjudicate` gives::

    r = Resolver(position, {"France": [...], "Germany": [...]})   # fixed once
    for orders in candidates:                                     # England's sets
        res = r.resolve({"England": orders})
        res.units, res.dislodged, res.center_changes               # cheap
        res.next                                                   # the next Position

A search that judges a candidate set many times (against other powers' sets, in other
resolvers' rounds) packs it once, ``packed = r.pack({"England": orders})``, and resolves
``r.resolve(packed)``: on the compiled path that skips looking each `Order` up (about
half the cost of a set, BENCHMARKS.md, issue 26).

With numba installed (``pip install 'dipsolve[fast]'``) and its kernel loaded in the
process (`dipsolve.core.fast_kernel.warm`, which a long-running caller calls first: a
search never waits for numba inside its time limit) the resolution runs on the
compiled integer-array kernel (`dipsolve.core.fast_resolver`): the fixed orders made
into an array once, each distinct order into its unit's column once, the moves resolved
in machine code; the next `Position` is built from its answer on request, and the
per-order results by the reference steps, on request too.  ``Resolver(...,
compiled=False)`` takes the reference steps, as does every resolver without numba.

`resolve(orders)` equals ``adjudicate(position, {**fixed, **orders})`` (the tests check
it on random positions and on every DATC case): the orders of a power that is neither
fixed nor given are none (its units hold), and a power may not be both fixed and given.

Who calls it: the agenda search (`dipsolve.search.agenda`: its background orders fixed
once per search, each candidate set of its power resolved).  DumbBot
(`dipsolve.algorithms.dumbbot`) never adjudicates (it ranks destinations by its own
values), so it has nothing to route through here.  How the other searches should call
it (they belong to other issues today):

* the phase game (`dipsolve.search.phase_game`): every player's orders vary and the
  other powers hold, so ``self._resolver = Resolver(position)`` once in
  ``PhaseGame.__init__``, and in ``payoff`` and ``_value_against``
  ``self._resolver.resolve(orders).next`` where ``adjudicate(self.position,
  orders).next`` is now (the same `Position`; a payoff that needs only who is where
  can read ``.units`` and skip the next position);
* the opponent models (`dipsolve.search.opponents`: ``adjudicate(self.position,
  orders)`` per sampled scenario): a `Resolver` with the powers that do not change
  across the samples fixed;
* the adjustment equilibria (`dipsolve.models.equilibria`) resolve adjustment phases,
  which this module does not (they have no resolution to share: each removal set is a
  different board); they keep `adjudicate`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple, Protocol, Sequence

from . import fast_kernel, fast_resolver
from .adjudicator import (Outcome, _Movement, after_moves, after_movement, center_changes,
                          execute_movement, settle)
from .errors import DipsolveRuleError, DipsolveUnavailable
from .orders import Order
from .position import Position, Unit
from .rules import T_HOLD as _HOLD, OrderResult, match_movement, movement_table

__all__ = ["Packed", "Resolution", "Resolver"]


class _Answer(Protocol):
    """What the resolved moves do to the board (`dipsolve.core.adjudicator.after_moves`):
    `_Moves` on the reference path, `dipsolve.core.fast_resolver.Resolved` (read from the
    kernel's answer when asked) on the compiled one."""

    @property
    def movers(self) -> list[int]: ...
    @property
    def dislodged_by(self) -> dict[int, int]: ...
    @property
    def new_units(self) -> Sequence[Unit]: ...


class _Moves(NamedTuple):
    movers: list[int]
    dislodged_by: dict[int, int]
    new_units: Sequence[Unit]


class Resolution:
    """One order set resolved by a `Resolver`: what a search reads, and the full
    `Outcome` on request."""

    __slots__ = ("position", "_answer", "_make", "_outcome")

    def __init__(self, position: Position, answer: _Answer, make: Callable[[], Outcome]) -> None:
        self.position = position
        self._answer = answer
        self._make = make
        self._outcome: Outcome | None = None

    @property
    def units(self) -> tuple[Unit, ...]:
        """The units on the board after movement (dislodged ones left out), in
        canonical order: who is where."""
        return tuple(self._answer.new_units)

    @property
    def dislodged(self) -> tuple[Unit, ...]:
        """The units dislodged (where they stood), in board order."""
        units = self.position.units
        return tuple(units[i] for i in sorted(self._answer.dislodged_by))

    @property
    def moved(self) -> tuple[Unit, ...]:
        """The units whose move succeeded (where they stood), in board order."""
        units = self.position.units
        return tuple(units[i] for i in self._answer.movers)

    @property
    def center_changes(self) -> dict[str, str]:
        """In a Fall phase, the supply centers that change hands if the board stands as
        after this movement (center -> new owner; a retreat phase between may change
        it); in Spring, none."""
        if self.position.phase.season != "Fall":
            return {}
        return center_changes(self.position, self._answer.new_units)

    def outcome(self) -> Outcome:
        """The full `Outcome` (per-order results, the next position), as `adjudicate`
        gives it; built on the first call."""
        if self._outcome is None:
            self._outcome = self._make()
        return self._outcome

    @property
    def next(self) -> Position:
        """The position after this phase (`Outcome.next`)."""
        return self.outcome().next


class Packed:
    """An order set packed by `Resolver.pack` for that resolver: resolving it looks no
    order up (a search that resolves one candidate set many times packs it once)."""

    __slots__ = ("resolver", "orders", "codes")

    def __init__(self, resolver: "Resolver", orders: dict[str, tuple[Order, ...]],
                 codes: Any) -> None:
        self.resolver, self.orders, self.codes = resolver, orders, codes


class Resolver:
    """A movement phase's position with some powers' orders fixed, resolving many
    order sets of the other powers (see the module notes).  ``compiled``: resolve on
    the compiled kernel (`dipsolve.core.fast_resolver`; True loads it first, which on a
    fresh installation compiles it), by the reference adjudicator's steps (False), or
    (None, the default) on the kernel when it is loaded in this process
    (`dipsolve.core.fast_kernel.warm`), else by the reference; the answers are the same."""

    def __init__(self, position: Position, fixed: Mapping[str, Iterable[Order]] | None = None,
                 *, compiled: bool | None = None) -> None:
        if position.phase.kind != "movement":
            raise DipsolveRuleError(f"a Resolver resolves movement phases, not {position.phase}",
                                    rule="phase")
        self.position = position
        self.fixed: dict[str, tuple[Order, ...]] = {p: tuple(os) for p, os in (fixed or {}).items()}
        base = self._base = _Movement(position, movement_table(position))
        self._base_results = match_movement(base, position, self.fixed)
        # what each order set starts from: the matching's per-order lists, copied (but
        # the lists of units ordered to move and to support or convoy, which
        # match_movement makes anew), and the rest of it, shared (what `settle` makes
        # is left unset)
        values = [(name, getattr(base, name)) for name in _SLOTS if hasattr(base, name)
                  and name not in ("moving", "others")]
        self._copied = [(name, v) for name, v in values if isinstance(v, list)]
        self._shared = [(name, v) for name, v in values if not isinstance(v, list)]
        # the compiled path: the fixed orders as the kernel's array, once; each order of
        # a set packed into one int, once per distinct order (None: the reference path,
        # for a position with a unit of a power with no home center on the map, or a
        # unit given two fixed orders)
        if compiled is None:
            compiled = fast_resolver.ready()
        elif compiled:
            if not fast_resolver.available():
                raise DipsolveUnavailable("the compiled resolver is not available: "
                                          + fast_resolver.why_not())
            fast_kernel.warm()
        self._fast = fast_resolver.workspace(base, position) if compiled else None
        self._columns: dict[str, dict[Order, int]] = {}
        self._scratch: _Movement | None = None

    @property
    def compiled(self) -> bool:
        """Whether this resolver resolves on the compiled kernel."""
        return self._fast is not None

    def resolve(self, orders: Mapping[str, Iterable[Order]] | Packed) -> Resolution:
        """Resolve the fixed orders with ``orders`` (power -> orders, no fixed power; or
        an order set this resolver packed, `pack`)."""
        if isinstance(orders, Packed):
            if orders.resolver is not self:
                raise DipsolveRuleError("an order set packed by another Resolver",
                                        rule="packed-orders")
            if orders.codes is not None:
                fast = self._run_kernel(orders.codes, orders.orders)
                if fast is not None:
                    return fast
            return self._resolve_reference(orders.orders)
        self._check(orders)
        if self._fast is not None:
            fast = self._run_kernel(fast_resolver.pack(self._codes(orders)), orders)
            if fast is not None:
                return fast
        return self._resolve_reference(orders)

    def pack(self, orders: Mapping[str, Iterable[Order]]) -> Packed:
        """``orders`` (power -> orders, no fixed power) made ready for `resolve`: on the
        compiled path, the kernel's integer codes, made once; `resolve` of it equals
        `resolve` of ``orders``."""
        self._check(orders)
        given = {p: tuple(os) for p, os in orders.items()}
        return Packed(self, given, None if self._fast is None
                      else fast_resolver.pack(self._codes(given)))

    def _check(self, orders: Mapping[str, Iterable[Order]]) -> None:
        for power in orders:
            if power in self.fixed:
                raise DipsolveRuleError(f"{power}'s orders are fixed in this Resolver",
                                        rule="fixed-orders")

    def _resolve_reference(self, orders: Mapping[str, Iterable[Order]]) -> Resolution:
        position, base = self.position, self._base
        st = _Movement.__new__(_Movement)
        for name, value in self._shared:
            setattr(st, name, value)
        for name, lst in self._copied:
            setattr(st, name, lst[:])
        results = self._base_results + match_movement(st, position, orders)
        # match_movement leaves the units it ordered; the fixed ones come first
        if base.moving:
            st.moving = sorted(base.moving + st.moving)
        if base.others:
            st.others = sorted(base.others + st.others)
        settle(st)
        after = after_moves(st)
        moved, dislodged_by, new_units = after
        return Resolution(position, _Moves([i for i in st.moving if moved[i]], dislodged_by,
                                           new_units),
                          lambda: execute_movement(position, st, results, after))

    def _codes(self, orders: Mapping[str, Iterable[Order]]) -> list[int]:
        """Each order of the set as the kernel's code (`_column`, once per distinct
        order), those set aside (no such unit...) left out."""
        table = self._columns
        patch: list[int] = []
        append = patch.append
        for power, os in orders.items():
            packed = table.get(power)
            if packed is None:
                packed = table[power] = {}
            for o in os:
                v = packed.get(o)
                if v is None:
                    v = packed[o] = self._column(power, o)
                if v >= 0:                    # -1: set aside (no such unit...): in the results
                    append(v)
        return patch

    def _run_kernel(self, codes: Any, orders: Mapping[str, Iterable[Order]]) -> Resolution | None:
        """The set on the compiled kernel; None when it must take the reference path (a
        unit given two orders, or the kernel could not finish)."""
        assert self._fast is not None
        position = self.position
        r = self._fast.resolve(codes)
        if r is None:
            return None

        def outcome() -> Outcome:
            dislodged_by = r.dislodged_by     # origins and standoffs matter only to retreats
            nxt, destroyed = (after_movement(position, r.new_units, dislodged_by, r.origins,
                                             r.standoffs) if dislodged_by
                              else after_movement(position, r.new_units, dislodged_by, {}, set()))
            return Outcome(position, None, nxt, destroyed,
                           lambda: self._resolve_reference(orders).outcome().results)
        return Resolution(position, r, outcome)

    def _column(self, power: str, order: Order) -> int:
        """One order matched alone (`match_movement`), packed for the kernel
        (`dipsolve.core.fast_resolver.column`); -1 when it is set aside.  Matched on one
        scratch matching of the resolver, put back as it was after each order."""
        st = self._scratch
        if st is None:
            st = self._scratch = _Movement(self.position, movement_table(self.position))
        match_movement(st, self.position, {power: [order]})
        for i in st.moving or st.others or range(st.n):
            if st.orders[i] is not None:
                v = fast_resolver.column(st, fast_resolver.map_index(self.position.map), i)
                st.orders[i] = st.why[i] = None
                st.otype[i], st.via[i] = _HOLD, False
                st.dest[i] = st.dest_loc[i] = st.sup_prov[i] = st.sup_dest[i] = ""
                return v
        return -1

    def adjudicate(self, orders: Mapping[str, Iterable[Order]]) -> Outcome:
        """The full `Outcome` of one order set: ``resolve(orders).outcome()``."""
        return self.resolve(orders).outcome()


#: every attribute of a matching (`Matching` and the adjudicator's state)
_SLOTS: tuple[str, ...] = tuple(dict.fromkeys(
    name for cls in _Movement.__mro__ for name in getattr(cls, "__slots__", ())))
