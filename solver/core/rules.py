"""The rules of play: what each order asks for and whether the rules allow it (matching, legality).

An order can be wrong in two ways, and dipsolve keeps them apart as python-chess
(``InvalidMoveError`` / ``IllegalMoveError``) and godip ("invalid" / "illegal") do:

- *not understood*: the text is no order (``A PAR --- BUR``): a `DipsolveSyntaxError`
  of the grammar, at its line and column;
- *understood but illegal*: the order is clear, and the rules forbid it in this
  position (``F ENG - PAR: a fleet cannot enter Paris (inland)``): a `Problem` here,
  naming the rule broken.

Each phase's orders are matched to their units once, by the functions the adjudicator
itself runs first (the engine's matching, `dipsolve.core.kernel`, for a movement phase;
`match_retreats` and `match_adjustments` here for the others):
an order for a missing unit, another power's unit, or a unit ordered twice is set aside
(DATC 4.C, 4.D.3), an illegal order is refused with its reason (DATC 4.E.1), and what
each legal order asks for is recorded for the resolution.  `validate_orders` asks the
same functions and stops there, so that legality is the adjudicator's, rule by rule;
`read_order` gives one order's reading to a model of the rules.  `RULES` lists the rules
by the names a `Problem` (and an ``OrderResult.rule``) carries:
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Mapping, NamedTuple

from .errors import DipsolveRuleError
from .board import route_problem
from .graph import coasts_in_reach, fill_coast
from .map import Map
from .orders import RETREAT_ORDERS, Build, Disband, Hold, Move, Order, Retreat, UnitOrder, Waive
from .position import Dislodged, Position, Unit

__all__ = ["CONVOY", "HOLD", "MOVE", "REFUSED", "RULES", "SUPPORT_HOLD", "SUPPORT_MOVE", "Rules",
           "OrderResult", "Problem", "Reading", "Reason", "match_adjustments", "match_retreats",
           "movement_results", "order_problem", "order_problems", "read_order", "unit_orders",
           "validate_orders"]

#: every rule an order can break, by name, with what it asks
RULES: dict[str, str] = {
    "phase": "an order belongs to the phase played: holds, moves, supports and convoys "
             "in movement; retreats and disbands in retreats; builds, removals and "
             "waives in adjustments",
    "unit": "the order names a unit that is there (a dislodged one in a retreat phase), "
            "of the type it says",
    "owner": "the unit belongs to the power that orders it",
    "location": "every place named is on the map",
    "terrain": "an army never enters a sea, a fleet never an inland province",
    "adjacency": "a move goes to a neighbouring place for that unit type and coast (an "
                 "army's may go by convoy: see 'convoy route')",
    "coast": "a fleet moving to a province with two coasts names one it can reach",
    "convoy route": "an army moved by convoy has a chain of fleet-held seas from its "
                    "province to its goal; a route the order names (A SMY - AEG - GRE) "
                    "goes through seas, each next to the one before",
    "support": "a support names another unit, in a place the supporter could move to, "
               "and a move that unit could make",
    "convoy": "only a fleet at sea convoys, only an army is convoyed, and the fleet lies "
              "on some route of fleets from the army to its goal",
    "retreat": "a dislodged unit retreats only to a place open to it (adjacent, empty, "
               "not its attacker's origin, not left empty by a standoff)",
    "build": "a build goes in an owned, empty home center, of a unit that can stand "
             "there, a fleet naming its coast",
    "builds left": "no more builds and waives than the power's centers over its units",
    "removals": "removals only when the power's units outnumber its centers, and no "
                "more than that",
    "one order": "each unit takes one order (with two different ones it holds, DATC 4.D.3)",
}
__doc__ = (__doc__ or "") + "".join(
    f"\n- ``{name}``: {text};" for name, text in RULES.items()).rstrip(";") + ".\n"


class Reason(str, Enum):
    """Why an order succeeded or failed.  ``str`` values are stable for ``--json``."""

    # success
    MOVED = "moved"
    HELD = "held"
    SUPPORTED = "supported"        # the support was given (not cut)
    CONVOYED = "convoyed"          # the convoy took effect
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    REMOVED = "removed"
    WAIVED = "waived"
    # failure
    BOUNCED = "bounced"            # the move was not strong enough
    DISLODGED = "dislodged"        # the unit was dislodged (whatever it was ordered)
    CUT = "cut"                    # the support was cut
    VOID = "void"                  # a support or convoy of an order that was not given
    NO_CONVOY = "no convoy"        # an army's convoy route was not there or was disrupted
    DISRUPTED = "disrupted"        # a convoying fleet was dislodged, or its convoy failed
    ILLEGAL = "illegal"            # not allowed by the rules; the unit held instead
    NOT_YOUR_UNIT = "not your unit"
    NO_UNIT = "no such unit"
    DUPLICATE = "ordered twice"    # a unit with two different orders holds (DATC 4.D.3)
    RETREAT_BOUNCED = "retreat bounced"
    CIVIL_DISORDER = "civil disorder"
    DESTROYED = "destroyed"        # dislodged with nowhere to retreat


#: reasons that mean an order broke a rule (the adjudicator refused it), rather than
#: failed in play
REFUSED = frozenset({Reason.ILLEGAL, Reason.NO_UNIT, Reason.NOT_YOUR_UNIT, Reason.DUPLICATE})


class OrderResult(NamedTuple):
    """One order's result: whether it succeeded, and why (``reason``, ``detail``); for
    an order that breaks a rule of play (illegal, no such unit, not your unit, ordered
    twice), the ``rule`` it breaks (one of `RULES`)."""

    power: str
    order: Order
    success: bool
    reason: Reason
    detail: str = ""
    rule: str = ""

    def __str__(self) -> str:
        tail = f" ({self.detail})" if self.detail else ""
        return f"{self.power}: {self.order}: {self.reason.value}{tail}"


# -- the readings an adjudication follows ---------------------------------------------------------

#: `Rules.convoy_intent`'s values: which army moves go by convoy when a land route exists too
CONVOY_INTENTS = ("own fleet", "via only")


@dataclass(frozen=True)
class Rules:
    """The readings an adjudication follows where the rules leave a choice (the DATC's own,
    its section 4) or where another engine departs from the DATC.  ``Rules()`` is the DATC
    3.0 preferences, what `adjudicate` follows unless told otherwise; `analyze` names a
    record's difference by re-adjudicating its phase under another reading.

    ``convoy_intent`` (DATC 4.A.3)
        ``"own fleet"`` (DATC 3.0): an army's move goes by convoy when ordered 'via convoy'
        or when a fleet of its own power is ordered to convoy it; ``"via only"``: only
        'via convoy' (Meta's engine, dipcc: a move to an adjacent province convoyed by the
        army's own fleet goes over land).
    ``land_fallback`` (6.G.8 as DATC 2.x and the `diplomacy` package have it)
        an army whose convoy fails moves over land where it can.
    ``convoyed_own_support`` (6.D.12, the `diplomacy` package)
        a power's support of a convoyed attack on its own unit counts.
    ``land_own_support_void`` (6.E.3, the `diplomacy` package)
        a power's support of an attack over land on its own unit counts for nothing, not
        even in a head-to-head battle.

        >>> Rules.diplomacy_package()
        Rules(convoy_intent='own fleet', land_fallback=True, convoyed_own_support=True, land_own_support_void=True)
    """

    convoy_intent: str = "own fleet"
    land_fallback: bool = False
    convoyed_own_support: bool = False
    land_own_support_void: bool = False

    def __post_init__(self) -> None:
        if self.convoy_intent not in CONVOY_INTENTS:
            from .errors import DipsolveSyntaxError
            raise DipsolveSyntaxError(f"rules: unknown convoy intent {self.convoy_intent!r} "
                                      f"(expected one of {', '.join(map(repr, CONVOY_INTENTS))})")
        for name in ("land_fallback", "convoyed_own_support", "land_own_support_void"):
            if type(getattr(self, name)) is not bool:
                from .errors import DipsolveArgumentError
                raise DipsolveArgumentError(f"rules: {name} must be True or False, not "
                                            f"{getattr(self, name)!r}", expected="True or False")

    @classmethod
    def diplomacy_package(cls) -> "Rules":
        """The readings of the `diplomacy` package (DATC 2.x where the DATC 3.0 differs, and
        its documented departures: 6.G.8, 6.D.12, 6.E.3)."""
        return cls(land_fallback=True, convoyed_own_support=True, land_own_support_void=True)

    @property
    def flags(self) -> int:
        """The engine's options (`dipsolve.core.tables`' ``RULE_*``)."""
        from . import tables as t
        return ((t.RULE_VIA_ONLY if self.convoy_intent == "via only" else 0)
                | (t.RULE_LAND_FALLBACK if self.land_fallback else 0)
                | (t.RULE_CONVOYED_OWN_SUPPORT if self.convoyed_own_support else 0)
                | (t.RULE_LAND_OWN_SUPPORT_VOID if self.land_own_support_void else 0))


# -- legality -----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Problem:
    """An order that is understood but breaks a rule: who gave it, the order, the
    rule's name (a key of `RULES`) and what is wrong, in words."""

    power: str
    order: Order
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.order}: {self.message}"


def order_problem(position: Position, power: str, order: Order) -> str | None:
    """What is wrong with one order, given alone by ``power`` in ``position`` (None if
    nothing is):

        >>> from dipsolve.core.orders import Move
        >>> from dipsolve.core.position import Unit
        >>> p = Position.build("S1901M", [Unit("England", "F", "ENG")])
        >>> order_problem(p, "England", Move("F", "ENG", "PAR"))
        'a fleet cannot enter Paris (inland)'
    """
    problem = order_problems(position, [(power, order)])[0]
    return problem.message if problem is not None else None


def validate_orders(position: Position,
                    orders: Mapping[str, Iterable[Order]] | Iterable[tuple[str, Order]]
                    ) -> list[Problem]:
    """Every problem of an order set (``{power: [Order]}`` or ``[(power, Order)]``), in
    the order given.  The orders are judged together: a second, different order for a
    unit and a build beyond the power's count are problems too."""
    return [p for p in order_problems(position, orders) if p is not None]


def order_problems(position: Position,
                   orders: Mapping[str, Iterable[Order]] | Iterable[tuple[str, Order]]
                   ) -> list[Problem | None]:
    """One entry per order given, in the order given: its `Problem`, or None."""
    pairs = ([(power, o) for power, os in orders.items() for o in os]
             if isinstance(orders, Mapping) else list(orders))
    by_power: dict[str, list[Order]] = {}
    for power, o in pairs:
        by_power.setdefault(power, []).append(o)
    # the verdicts, queued by (power, order): the same order given twice takes them in turn
    verdicts: dict[tuple[str, Order], deque[OrderResult]] = {}
    for r in _verdicts(position, by_power):
        verdicts.setdefault((r.power, r.order), deque()).append(r)
    retreating = position.phase.kind == "retreat"
    out: list[Problem | None] = []
    for power, o in pairs:
        # in a retreat phase a move is read as the unit's retreat
        key = Retreat(o.kind, o.location, o.target) if retreating and type(o) is Move else o
        queue = verdicts.get((power, key))
        verdict = queue.popleft() if queue else None
        if verdict is not None and verdict.reason in REFUSED:
            out.append(Problem(power, o, verdict.rule, verdict.detail))
        else:
            out.append(None)
    return out


def _verdicts(position: Position, orders: Mapping[str, list[Order]]) -> list[OrderResult]:
    """The verdicts of the phase's matching, in the order judged: nothing about the play
    (a bounce, a dislodgement) is mixed in.  Every verdict is kept, successes too, so that
    the same order given twice, built once and refused once, is matched in turn."""
    kind = position.phase.kind
    if kind == "retreat":
        return match_retreats(position, orders)[0]
    if kind == "adjustment":
        return [r for _, verdicts, _ in match_adjustments(position, orders)[0] for r in verdicts]
    from .board import run_read
    answer, given, board = run_read(position, orders)
    return movement_results(position, answer, given, board, refused_only=True)


# -- movement: the matching is the engine's (`dipsolve.core.kernel`) ----------------------------

from .kernel import CONVOY as _CONVOY, HOLD as _HOLD, MOVE as _MOVE  # noqa: E402
from .kernel import SUPPORT_HOLD as _SUPH, SUPPORT_MOVE as _SUPM  # noqa: E402

def unit_orders(position: Position, orders: Mapping[str, Iterable[Order]]) -> dict[Unit, UnitOrder]:
    """Unit -> its order, matched by the engine's own matching (`dipsolve.core.kernel`),
    the one order-to-unit matching of dipsolve: an order for a missing unit, a unit of
    another kind or another power, or not for a movement phase is set aside (DATC 4.C); a
    unit given two different orders holds (DATC 4.D.3).  Units without an order are left
    out (they hold); an illegal order is kept as given (`read_order` says why it is a hold)."""
    from . import kernel as k
    from .board import run_read
    answer, given, _ = run_read(position, orders)
    out: dict[Unit, UnitOrder] = {}
    for i, u in enumerate(position.units):
        g = answer[i * k.AF + k.A_GIVEN]
        if g >= 0:
            twice = answer[i * k.AF + k.A_WHY] == k.W_TWICE
            out[u] = Hold(u.kind, u.location) if twice else given[g][1]      # type: ignore[assignment]
    return out


def _find_unit(position: Position, by_prov: Mapping[str, Unit], power: str, order: UnitOrder,
               results: list[OrderResult]) -> Unit | None:
    """The unit an order is for, or None after recording why it is not."""
    prov = position.map.province_of.get(order.location)
    unit = by_prov.get(prov) if prov else None
    if unit is None:
        results.append(OrderResult(power, order, False, Reason.NO_UNIT,
                                   f"no unit in {order.location}", "unit"))
        return None
    if unit.kind != order.kind:
        name = "army" if order.kind == "A" else "fleet"
        results.append(OrderResult(power, order, False, Reason.NO_UNIT,
                                   f"no {name} in {prov}: {unit} stands there", "unit"))
        return None
    if unit.power != power:
        results.append(OrderResult(power, order, False, Reason.NOT_YOUR_UNIT,
                                   f"{unit} belongs to {unit.power}", "owner"))
        return None
    return unit


def _not_for_phase(kind: str, o: Order) -> str:
    """Why an order is not one for a phase of this kind."""
    if kind == "movement":
        if isinstance(o, Retreat):
            return "a retreat order in a movement phase"
        return f"{type(o).__name__} is not an order for a movement phase"
    if kind == "retreat":
        return "only retreats and disbands are ordered in a retreat phase"
    return "only builds, removals and waives in an adjustment phase"


# -- retreats and adjustments: the matching ----------------------------------------------------------

def match_retreats(position: Position, orders: Mapping[str, Iterable[Order]]
                   ) -> tuple[list[OrderResult], dict[Unit, tuple[str, Retreat | Disband]], dict[Unit, str]]:
    """A retreat phase's orders matched to the dislodged units: the results of the orders
    set aside or refused, each unit's order (power, order), and where each unit ordered
    to retreat to a place open to it goes (an army's coast dropped, a fleet's one
    reachable coast filled in).  A move is read as a retreat."""
    m = position.map
    po = m.province_of
    results: list[OrderResult] = []
    by_prov = {po[d.unit.location]: d.unit for d in position.dislodged}
    info = {d.unit: d for d in position.dislodged}
    chosen: dict[Unit, tuple[str, Retreat | Disband]] = {}
    for power, os in orders.items():
        for o in os:
            if isinstance(o, Move):
                o = Retreat(o.kind, o.location, o.target)
            if not isinstance(o, RETREAT_ORDERS):
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("retreat", o), "phase"))
                continue
            u = _find_unit(position, by_prov, power, o, results)
            if u is None:
                continue
            if u in chosen and chosen[u][1] != o:
                results.append(OrderResult(power, o, False, Reason.DUPLICATE,
                                           f"{u} already ordered: {chosen[u][1]}", "one order"))
                continue
            chosen[u] = (power, o)
    targets: dict[Unit, str] = {}
    for u, (power, o) in chosen.items():
        if isinstance(o, Retreat):
            t, why = _retreat_target(m, info[u], o.target)
            if t is not None:
                targets[u] = t
            else:
                results.append(OrderResult(power, o, False, Reason.ILLEGAL, why, "retreat"))
    return results, chosen, targets


def _retreat_target(m: Map, d: Dislodged, target: str) -> tuple[str | None, str]:
    """Where a retreat order to ``target`` takes the dislodged unit, or None and why it
    may not go."""
    opts, po = d.retreats, m.province_of
    t = target
    if t not in opts and po.get(t) is not None:
        if d.unit.kind == "A":          # an army retreats to a province, whatever coast is named
            t = next((loc for loc in opts if po[loc] == po[t]), t)
        else:
            t = fill_coast(m, t, opts)
    if t in opts:
        return t, ""
    return None, f"{t} is not open to {d.unit} (open: {', '.join(opts) or 'nothing'})"


def match_adjustments(position: Position, orders: Mapping[str, Iterable[Order]]
                      ) -> tuple[list[tuple[str, list[OrderResult], int]], list[Unit], set[Unit]]:
    """An adjustment phase's orders judged power by power, first legal orders first (DATC
    4.D.4–4.D.6): for each power its verdicts and the removals it still owes (which civil
    disorder makes); the units built and the units removed."""
    m = position.map
    po = m.province_of
    by_prov = position.unit_in
    removed: set[Unit] = set()
    built: list[Unit] = []
    out: list[tuple[str, list[OrderResult], int]] = []
    for power in position.powers() + sorted(set(orders) - set(position.powers())):
        results: list[OrderResult] = []
        delta = position.adjustment(power)
        used = 0
        for o in orders.get(power, ()):
            if isinstance(o, (Build, Waive)):
                if delta <= 0:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} has no builds ({delta:+d})", "builds left"))
                    continue
                if used >= delta:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} may build only {delta}", "builds left"))
                    continue
                if isinstance(o, Waive):
                    used += 1
                    results.append(OrderResult(power, o, True, Reason.WAIVED))
                    continue
                why = _build_problem(position, power, o, built)
                if why:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL, why, "build"))
                    continue
                loc = po[o.location] if o.kind == "A" else o.location
                built.append(Unit(power, o.kind, loc))
                used += 1
                results.append(OrderResult(power, o, True, Reason.BUILT))
            elif isinstance(o, Disband):
                if delta >= 0:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} has no removals to make ({delta:+d})",
                                               "removals"))
                    continue
                u = _find_unit(position, by_prov, power, o, results)
                if u is None:
                    continue
                if u in removed:
                    results.append(OrderResult(power, o, False, Reason.DUPLICATE,
                                               f"{u} already removed", "one order"))
                    continue
                if used >= -delta:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               f"{power} must remove only {-delta}", "removals"))
                    continue
                removed.add(u)
                used += 1
                results.append(OrderResult(power, o, True, Reason.REMOVED))
            else:
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           _not_for_phase("adjustment", o), "phase"))
        out.append((power, results, -delta - used if delta < 0 else 0))
    return out, built, removed


def _build_problem(position: Position, power: str, o: Build, built: list[Unit]) -> str:
    m = position.map
    prov = m.province_of.get(o.location)
    if prov is None:
        return f"unknown location {o.location}"
    if prov not in m.homes.get(power, ()):
        return f"{prov} is not a home center of {power}"
    if position.owner.get(prov) != power:
        return f"{power} does not own {prov}"
    if prov in position.unit_in or any(m.province_of[b.location] == prov for b in built):
        return f"{prov} is occupied"
    if (o.kind, o.location) in m.unit_places(prov):      # the build sites: one definition
        return ""
    # why not, in words
    if o.kind == "A":
        if m.is_sea(prov):
            return "an army cannot be built at sea"
        return f"an army is built in {prov}, not on a coast ({o.location})"
    if m.is_land(prov):
        return f"a fleet cannot be built in {m.provinces[prov].name} (inland)"
    if m.provinces[prov].coasts and o.location == prov:
        return f"the coast must be given for a fleet built in {m.provinces[prov].name}"
    if o.location not in m.fleet_moves:
        return f"unknown coast {o.location}"
    return ""


# -- one order's reading, for the models and the searches -------------------------------------------

#: the kinds of order a `Reading` reports
HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY = "hold", "move", "support hold", "support move", "convoy"
_KIND_NAMES = {_HOLD: HOLD, _MOVE: MOVE, _SUPH: SUPPORT_HOLD, _SUPM: SUPPORT_MOVE, _CONVOY: CONVOY}


@dataclass(frozen=True, slots=True)
class Reading:
    """What one order asks for, as the adjudicator reads it (DATC 4.E.1: an illegal
    order is a hold, ``illegal`` says why)."""

    order: Order
    kind: str                    # HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE or CONVOY
    dest: str | None = None      # move: the destination province
    dest_loc: str | None = None  # move: the destination location (a coast for a fleet)
    via: bool = False            # move: by convoy whatever fleets are ordered (VIA, or not adjacent)
    supported: str | None = None  # support or convoy: the province of the unit helped
    target: str | None = None    # support of a move, convoy: its destination province
    coast: str | None = None     # support of a fleet's move: the coast it names
    illegal: str | None = None


def read_order(position: Position, unit: Unit, order: Order) -> Reading:
    """The adjudicator's reading of ``order`` given to ``unit`` (a unit of ``position``,
    in a movement phase), by the engine's own check (`dipsolve.core.kernel.movement`, ``READ_ONLY``), so
    that legality, coasts and convoy routes mean the same to a model of the rules as to
    the adjudicator.  `DipsolveRuleError` when the order is not for that unit."""
    from . import kernel as k
    from .board import run_read
    po = position.map.province_of
    if (not isinstance(order, UnitOrder) or order.kind != unit.kind
            or po.get(order.location) != po[unit.location] or unit not in position.units):
        raise DipsolveRuleError(f"{order} is not an order for {unit} ({unit.power})")
    answer, _, board = run_read(position, {unit.power: [order]})
    a = position.units.index(unit) * k.AF
    t = answer[a + k.A_TYPE]
    places = board.locations                 # a province's number is its location's
    dest = places[answer[a + k.A_DEST]] if answer[a + k.A_DEST] >= 0 else None
    dloc = places[answer[a + k.A_DLOC]] if answer[a + k.A_DLOC] >= 0 else None
    sprov = places[answer[a + k.A_SPROV]] if answer[a + k.A_SPROV] >= 0 else None
    sdest = places[answer[a + k.A_SDEST]] if answer[a + k.A_SDEST] >= 0 else None
    why = answer[a + k.A_WHY]
    return Reading(order, _KIND_NAMES[t], dest, dloc if t == _MOVE else None, bool(answer[a + k.A_VIA]),
                   sprov, sdest, dloc if t == _SUPM else None,
                   _why(why, order, unit, position)[1] if why != k.W_NONE else None)


# -- the engine's answer in words ------------------------------------------------------------------

def _why(code: int, o: UnitOrder, unit: Unit, position: Position) -> tuple[str, str]:
    """The rule (a key of `RULES`) and the words for the engine's refusal ``code``
    (`dipsolve.core.kernel`'s ``W_*``) of order ``o`` given to ``unit``."""
    from . import kernel as k
    m = position.map
    po = m.province_of
    prov = po[unit.location]
    if code == k.W_PHASE:
        return "phase", _not_for_phase("movement", o)
    if code == k.W_SELF_SUPPORT:
        return "support", "a unit cannot support itself"
    if code == k.W_SUPPORTED_LOC:
        return "location", f"unknown location {o.supported_location}"  # type: ignore[attr-defined]
    if code == k.W_CONVOY_FLEET:
        return "convoy", "only a fleet at sea can convoy"
    if code == k.W_CONVOY_LOC:
        return "location", "unknown location in convoy order"
    if code == k.W_CONVOY_ARMY:
        return "convoy", "only an army can be convoyed"
    if code == k.W_MOVE_OWN_PROVINCE:
        return "adjacency", "a unit cannot move to its own province"
    if code == k.W_SUPPORT_OWN_PROVINCE:
        return "support", "a unit cannot support a move into its own province"
    target = getattr(o, "target", "")
    tprov = po.get(target, "")
    sprov = po.get(getattr(o, "supported_location", getattr(o, "convoyed_location", "")), "")
    if code == k.W_DEST_LOC:
        return "location", f"unknown destination {target}"
    if code == k.W_SUPPORT_HOLD_REACH:
        return "support", f"{unit} cannot reach {sprov}, so cannot support a unit there"
    if code == k.W_NOTHING_TO_SUPPORT:
        return "support", f"no unit in {sprov} to support"
    if code == k.W_SUPPORT_MOVE_REACH:
        return "support", f"{unit} cannot reach {tprov}, so cannot support a move there"
    if code == k.W_SUPPORTED_CANNOT:
        return "support", f"{position.unit_in[sprov]} cannot move to {tprov}"
    if code == k.W_ROUTE:
        return "convoy route", route_problem(m, unit.kind, prov, tprov, o.route) or ""  # type: ignore[attr-defined]
    if code == k.W_ARMY_SEA:
        return "terrain", f"an army cannot enter {m.provinces[tprov].name} (a sea)"
    if code == k.W_ARMY_ADJACENT:
        return "adjacency", f"{prov} is not adjacent to {tprov} and no convoy route is possible"
    if code == k.W_NO_ROUTE:
        return "convoy route", f"no convoy route from {prov} to {tprov} is possible"
    if code == k.W_FLEET_LAND:
        return "terrain", f"a fleet cannot enter {m.provinces[tprov].name} (inland)"
    if code == k.W_FLEET_ADJACENT:
        return "adjacency", f"{unit.location} is not adjacent to {tprov}"
    if code == k.W_COAST_NEEDED:
        reach = coasts_in_reach(m, tprov, m.fleet_moves[unit.location])
        return "coast", f"the coast of {tprov} must be given ({' or '.join(reach)})"
    if code == k.W_WRONG_COAST:
        return "coast", f"{unit.location} cannot reach {target} (wrong coast)"
    if code == k.W_FLEET_ADJACENT_LOC:
        return "adjacency", f"{unit.location} is not adjacent to {target}"
    if code == k.W_NOTHING_TO_CONVOY:
        return "convoy", f"no unit in {sprov} to convoy"
    if code == k.W_CONVOY_IMPOSSIBLE:
        return "convoy", f"no convoy from {sprov} to {tprov} is possible"
    if code == k.W_CONVOY_OFF_ROUTE:
        return "convoy", f"{prov} is on no convoy route from {sprov} to {tprov}"
    raise AssertionError(f"no words for the engine's refusal {code}")


def _results_table() -> dict[int, tuple[bool, Reason]]:
    from . import tables as t
    return {t.X_HELD: (True, Reason.HELD), t.X_MOVED: (True, Reason.MOVED),
            t.X_NO_CONVOY: (False, Reason.NO_CONVOY), t.X_BOUNCED: (False, Reason.BOUNCED),
            t.X_SUPPORTED: (True, Reason.SUPPORTED), t.X_CUT: (False, Reason.CUT),
            t.X_DISRUPTED: (False, Reason.DISRUPTED), t.X_CONVOYED: (True, Reason.CONVOYED)}


#: the engine's results (`dipsolve.core.tables`' ``X_*``, but void) as (success, reason)
_RESULTS = _results_table()


def movement_results(position: Position, out: Any, given: list[tuple[str, Order]],
                     board: object, refused_only: bool = False) -> list[OrderResult]:
    """The results of a movement phase from the engine's answer (`dipsolve.core.kernel.movement`):
    one per unit in board order (its order, or a hold when it had none), then the orders
    set aside (no such unit, not your unit, not for this phase) in the order given, then
    the second orders of units ordered twice.  ``refused_only``: the orders refused
    alone (``out`` then may be `dipsolve.core.kernel.movement`'s with ``READ_ONLY``, nothing resolved)."""
    from . import kernel as k
    if type(out) is not list:
        out = out.tolist()
    units = position.units
    n, AF = len(units), k.AF
    provinces = board.provinces          # type: ignore[attr-defined]
    po = position.map.province_of
    set_aside: list[OrderResult] = []
    extra: dict[int, list[tuple[str, Order]]] = {}
    statuses = out[n * AF:n * AF + len(given)]
    if any(s != k.S_MATCHED for s in statuses):
        index = {u: i for i, u in enumerate(units)}
        for r, (power, o) in enumerate(given):
            status = statuses[r]
            if status == k.S_MATCHED or status == k.S_REPEATED:
                continue
            if status == k.S_TWICE:
                more = extra.setdefault(index[position.unit_in[po[o.location]]], [])  # type: ignore[attr-defined]
                if all(e != o for _, e in more):
                    more.append((power, o))
            elif status == k.S_PHASE:
                set_aside.append(OrderResult(power, o, False, Reason.ILLEGAL, _not_for_phase("movement", o), "phase"))
            else:
                _find_unit(position, position.unit_in, power, o, set_aside)   # type: ignore[arg-type]
    results: list[OrderResult] = []
    append, new = results.append, tuple.__new__
    A_GIVEN, A_BY, A_WHY, A_RESULT, W_NONE, X_VOID, X_HELD = (
        k.A_GIVEN, k.A_BY, k.A_WHY, k.A_RESULT, k.W_NONE, k.X_VOID, k.X_HELD)
    for i, u in enumerate(units):
        a = i * AF
        why = out[a + A_WHY]
        if refused_only and why == W_NONE:
            continue
        g = out[a + A_GIVEN]
        order: Order = given[g][1] if g >= 0 else Hold(u.kind, u.location)
        power = u.power
        by = out[a + A_BY]
        if why != W_NONE:
            if why == k.W_TWICE:
                reason, rule = Reason.DUPLICATE, "one order"
                detail = "two different orders: " + "; ".join(map(str, [order, *(e for _, e in extra[i])]))
            else:
                reason = Reason.ILLEGAL
                rule, detail = _why(why, order, u, position)            # type: ignore[arg-type]
            if by >= 0:
                detail = f"{detail}; dislodged by {units[by]}"
            append(OrderResult(power, order, False, reason, detail, rule))
            continue
        if by >= 0:
            append(OrderResult(power, order, False, Reason.DISLODGED, f"by {units[by]}"))
            continue
        x = out[a + A_RESULT]
        if x == X_VOID:
            j = position.unit_in[provinces[out[a + k.A_SPROV]]]
            t = out[a + k.A_TYPE]
            sdest = provinces[out[a + k.A_SDEST]] if out[a + k.A_SDEST] >= 0 else ""
            if t == k.SUPPORT_HOLD:
                detail = f"{j} moved instead of holding"
            elif t == k.SUPPORT_MOVE:
                detail = f"{j} was not ordered to {sdest}"
            else:
                detail = f"{j} was not ordered to {sdest} by convoy"
            append(OrderResult(power, order, False, Reason.VOID, detail))
        else:
            success, reason = _RESULTS[x]
            # the named tuple made whole (its fields in order), as its constructor would
            append(new(OrderResult, (power, order, success, reason,
                                     "no order" if x == X_HELD and g < 0 else "", "")))
    for i, more in extra.items():
        for power, e in more:
            set_aside.append(OrderResult(power, e, False, Reason.DUPLICATE, "the unit holds", "one order"))
    return results + set_aside
