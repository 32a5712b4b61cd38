"""The bridge to the ``diplomacy`` package (PyPI 1.1.2), the peer engine we test against.

The peer is a dev/test dependency, never needed by the library: it is imported lazily,
inside the functions here.  Its conventions and ours differ only in spelling:

=================  ==========================  ======================================
                   dipsolve                    diplomacy package
=================  ==========================  ======================================
power              ``"France"``                ``"FRANCE"``
phase              ``Phase("Spring", 1901,     ``"S1901M"`` (``Phase.short``)
                   "movement")``
unit               ``Unit("Russia", "F",       ``"F STP/SC"`` filed under ``RUSSIA``;
                   "STP/SC")``                 a dislodged one as ``"*F STP/SC"``
order              ``str(order)``              the same short notation (``A PAR - BUR``,
                                               ``A LON - NWY VIA``, ``A PAR R BUR``,
                                               ``A PAR D``, ``A PAR B``, ``WAIVE``)
=================  ==========================  ======================================

Province abbreviations are the same on both sides (our map was generated from the
peer's).  Differences of representation (not of rules) are normalised here, so that a
test comparing the two engines sees only rule differences:

* the peer keeps no dislodged unit without a retreat option (neither do we: such a unit
  is destroyed at once); we read its retreat options back sorted;
* the peer names an army's retreat by province and a fleet's by location (as we do);
* the peer has no notion of a standoff list or of a convoyed attacker's origin in a
  position: `from_peer_game` gives ``standoffs=()`` and the attacker's origin it knows.

Main entry points: `to_peer_game` (a Position into a fresh peer ``Game``),
`from_peer_game` (back), `set_peer_orders`, `peer_adjudicate` (push, order,
process, read back: a `PeerOutcome`), and `random_peer_game` (a whole game the peer's
engine plays with random legal orders, for game records).
"""

from __future__ import annotations

import time
from pathlib import Path
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping

from ..core.map import Map, standard_map
from ..core.orders import Order
from ..core.position import Dislodged, Phase, Position, Unit

if TYPE_CHECKING:
    from ..core.adjudicator import Outcome

#: our power name -> the peer's, in the standard game (the peer's is ours in capitals)
PEER_POWER = {p: p.upper() for p in standard_map().powers}
#: the peer's power name -> ours, in the standard game
OUR_POWER = {v: k for k, v in PEER_POWER.items()}


def _our_powers(game_map: Map) -> dict[str, str]:
    """The peer's power name -> ours, on ``game_map``."""
    return {p.upper(): p for p in game_map.powers}


def peer_unit(unit: Unit) -> str:
    """``Unit("Russia", "F", "STP/SC")`` -> ``"F STP/SC"``."""
    return f"{unit.kind} {unit.location}"


def peer_order(order: Order) -> str:
    """An order in the peer's notation: our canonical short notation is the peer's."""
    return str(order)


def new_peer_game(map_name: str = "standard"):
    """A fresh peer game on its map ``map_name`` (one of the peer's maps by name, or a
    map file's path; the peer caches a map after the first game on it)."""
    from diplomacy import Game

    return Game(map_name=map_name)


def to_peer_game(position: Position, game=None):
    """A peer ``Game`` standing exactly at ``position``.

    Units, dislodged units (with exactly our retreat options and attacker origins) and
    center owners are replaced; powers keep the standard home centers.  Pass ``game`` to
    reuse a game object (its history is cleared).
    """
    if game is None:
        game = new_peer_game(position.map.name or "standard")
    else:
        game._clear_history()
    game.clear_units()
    game.clear_centers()
    game.dislodged = {}
    game.set_current_phase(position.phase.short)
    by_power: dict[str, list[str]] = {p.upper(): [] for p in position.map.powers}
    for u in position.units:
        by_power[u.power.upper()].append(peer_unit(u))
    for d in position.dislodged:
        by_power[d.unit.power.upper()].append("*" + peer_unit(d.unit))
    for power, units in by_power.items():
        if units:
            game.set_units(power, units, reset=True)
    centers: dict[str, list[str]] = {}
    for prov, owner in position.centers:
        centers.setdefault(owner.upper(), []).append(prov)
    for power, provs in centers.items():
        game.set_centers(power, provs, reset=True)
    # set_units computed the peer's own retreat options (it ignores attacker origins and
    # standoffs); replace them with the position's.
    for d in position.dislodged:
        power = game.get_power(d.unit.power.upper())
        power.retreats[peer_unit(d.unit)] = list(d.retreats)
        if d.attacker_origin:
            game.dislodged[peer_unit(d.unit)] = d.attacker_origin
    for power in game.powers.values():
        power.homes = list(game.map.homes[power.name])
    game.rebuild_hash()
    game.build_caches()
    return game


def _unit_from_peer(power: str, text: str, game_map: Map | None = None) -> Unit:
    kind, loc = text.lstrip("*").split()
    return Unit(_our_powers(game_map or standard_map())[power], kind, loc.upper())


def from_peer_game(game, game_map: Map | None = None) -> Position:
    """The peer game's current position as a dipsolve `Position` on ``game_map`` (the
    map of the peer's game; the standard map when None).

    A retreat phase's dislodged units carry the peer's retreat options; the attacker's
    origin is the one the peer recorded (None when the attacker came by convoy or the
    peer does not know it); standoffs are not known to the peer and are left empty.
    """
    m = game_map or standard_map()
    phase = Phase.parse(game.get_current_phase())
    units: list[Unit] = []
    dislodged: list[Dislodged] = []
    centers: dict[str, str] = {}
    command = getattr(game, "command", {}) or {}
    via_sites = {u[2:5] for u in command if game._is_moving_via_convoy(u)}
    for power in game.powers.values():
        for text in power.units:
            units.append(_unit_from_peer(power.name, text, m))
        for text, options in power.retreats.items():
            if not options:          # the peer's "destroyed": we never keep those
                continue
            origin = game.dislodged.get(text)
            if origin is not None:
                origin = origin.upper()[:3]
                if origin in via_sites:
                    origin = None
            dislodged.append(Dislodged(_unit_from_peer(power.name, text, m), origin or None,
                                       tuple(sorted(o.upper() for o in options))))
        for c in power.centers:
            centers[c] = _our_powers(m)[power.name]
    return Position.build(phase, units, centers, dislodged, game_map=m)


def set_peer_orders(game, orders: Mapping[str, Iterable[Order]]) -> dict[str, list[str]]:
    """File dipsolve orders with the peer; returns the strings filed, per peer power."""
    filed: dict[str, list[str]] = {}
    for power, os in orders.items():
        strings = [peer_order(o) for o in os]
        name = power.upper()
        filed[name] = strings
        game.set_orders(name, strings)
    return filed


@dataclass
class PeerOutcome:
    """What the peer made of one phase."""

    #: the position after the phase (the next phase's position), read back from the peer;
    #: None when the peer's game ended
    next: Position | None
    #: units dislodged with no retreat option, destroyed at once (movement phases)
    destroyed: tuple[Unit, ...]
    #: the peer's result codes per unit (``{"A PAR": ["bounce"], ...}``), by our power
    results: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: the phase the peer ended in, as it names it (``"S1902M"``, ``"COMPLETED"``)
    peer_phase: str = ""
    #: wall time of the peer's ``process()`` alone, in seconds
    seconds: float = 0.0
    #: the peer game object, standing at ``next`` (for chaining phases)
    game: object = None
    #: the peer's complaints about the orders filed (orders it voided or ignored)
    errors: list[str] = field(default_factory=list)
    #: movement phases: each dislodged unit (destroyed or not) -> (the province its
    #: attacker came from, whether the peer moved that attacker by convoy)
    attackers: dict[Unit, tuple[str, bool]] = field(default_factory=dict)


def process_peer(game, orders: Mapping[str, Iterable[Order]] | None = None,
                 game_map: Map | None = None) -> PeerOutcome:
    """File ``orders`` with an existing peer game, process one phase, read the result back
    on ``game_map`` (the game's map; the standard map when None)."""
    m = game_map or standard_map()
    if orders:
        set_peer_orders(game, orders)
    before = {p.name: set(p.units) for p in game.powers.values()}
    was_movement = game.phase_type == "M"
    # keep the peer's complaints about the orders, and stop it printing them
    errors = [str(e) for e in game.error]
    game.error = []
    t0 = time.perf_counter()
    game.process()
    seconds = time.perf_counter() - t0
    destroyed: list[Unit] = []
    attackers: dict[Unit, tuple[str, bool]] = {}
    if was_movement:
        # the peer's own notion of a convoyed move (explicit VIA, or a convoy path it used)
        via = {u[2:5] for u in game.command if game._is_moving_via_convoy(u)}
        for text, site in game.dislodged.items():
            for name, units in before.items():
                if text in units:
                    attackers[_unit_from_peer(name, text, m)] = (site[:3].upper(), site[:3].upper() in via)
        # units the peer popped (dislodged without a retreat) and did not keep
        for text in game.popped:
            for name, units in before.items():
                if text in units:
                    destroyed.append(_unit_from_peer(name, text, m))
    raw = game.get_order_status()
    results = {_our_powers(m)[p]: {u: [getattr(c, "message", str(c)) for c in codes] for u, codes in r.items()}
               for p, r in raw.items() if r}
    phase = game.get_current_phase()
    if phase in ("COMPLETED", "FORMING"):
        nxt = None
    else:
        nxt = from_peer_game(game, m)
    return PeerOutcome(next=nxt, destroyed=tuple(sorted(destroyed)), results=results,
                       peer_phase=phase, seconds=seconds, game=game, errors=errors,
                       attackers=attackers)


def random_peer_game(seed: int, until: str = "S1908M", game_map: Map | None = None):
    """A game played by the peer's own engine from the 1901 start, each power giving a
    random legal order (``game.get_all_possible_orders()``, drawn with ``seed``) to each
    unit, up to the phase ``until``; and the peer's board before each phase, as dipsolve
    positions.  The same seed plays the same game (the peer's sets are sorted first)."""
    import random

    m = game_map or standard_map()
    game = new_peer_game(m.name or "standard")
    rng = random.Random(seed)
    boards = []
    while not game.is_game_done and game.get_current_phase() != until:
        boards.append(from_peer_game(game, m))
        possible = game.get_all_possible_orders()
        for power in sorted(game.powers):
            locs = sorted(game.get_orderable_locations(power))
            game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]])
        game.process()
    boards.append(from_peer_game(game, m))
    return game, boards


def peer_adjudicate(position: Position, orders: Mapping[str, Iterable[Order]], game=None) -> PeerOutcome:
    """Adjudicate one phase with the peer: push ``position``, file ``orders``, process."""
    game = to_peer_game(position, game)
    return process_peer(game, orders, position.map)


# -- comparing the two engines ---------------------------------------------------------

def compare(outcome, peer: PeerOutcome) -> list[str]:
    """The differences between a dipsolve `Outcome` and a `PeerOutcome` of the same phase,
    one line each (empty when they agree): the next phase, units, dislodged units with
    their retreat options, units destroyed for want of a retreat, and center owners."""
    from ..io.records import board_differences

    ours = outcome.next
    if peer.next is None:
        return [f"phase: dipsolve {ours.phase.short}, peer {peer.peer_phase}"]
    diffs = board_differences(ours, peer.next, names=("dipsolve", "peer"))
    if outcome.position.phase.kind == "movement":
        da, db = set(outcome.destroyed), set(peer.destroyed)
        for u in sorted(da ^ db):
            diffs.append(f"destroyed (no retreat) only in {'dipsolve' if u in da else 'peer'}: {u.power} {u}")
    return diffs


@dataclass
class Crosscheck:
    """One phase adjudicated by both engines."""

    position: Position
    orders: Mapping[str, list[Order]]
    ours: Outcome
    peer: PeerOutcome
    diffs: list[str]

    def report(self) -> str:
        """Position, orders, both results and the differences: what a failing test prints."""
        lines = [self.position.to_text(self.orders), "[differences]", *self.diffs, "",
                 "[dipsolve results]", *(str(r) for r in self.ours.results), "",
                 "[peer results]"]
        for power, res in sorted(self.peer.results.items()):
            for unit, codes in sorted(res.items()):
                lines.append(f"{power}: {unit}: {', '.join(codes) or 'ok'}")
        if self.peer.errors:
            lines += ["", "[peer order errors]", *self.peer.errors]
        lines += ["", "[dipsolve next]", self.ours.next.to_text()]
        if self.peer.next is not None:
            lines += ["[peer next]", self.peer.next.to_text()]
        return "\n".join(lines)


def crosscheck(position: Position, orders: Mapping[str, list[Order]], game=None) -> Crosscheck:
    """Adjudicate one phase with dipsolve and with the peer and compare them.

    Pass ``game`` (a peer game already standing at ``position``, as `Crosscheck.peer.game`
    is after the phase before) to chain phases without pushing the position again.
    """
    from ..core.adjudicator import adjudicate

    ours = adjudicate(position, orders)
    if game is None:
        peer = peer_adjudicate(position, orders)
    else:
        peer = process_peer(game, orders, position.map)
    return Crosscheck(position, orders, ours, peer, compare(ours, peer))


#: real games people played on the peer's server, which the peer's own tests replay
#: (``diplomacy/tests/network/N.json`` in its installed package): our name -> its file.
#: They are read where the peer installs them, never copied into this repository (the
#: peer is AGPL-3.0-or-later; dipsolve is MIT): tests/data/records/README.md.
REAL_RECORDS = {"diplomacy-001ce02c.json": "2.json", "diplomacy-0021f2cf.json": "3.json"}


def real_records() -> dict[str, Path]:
    """`REAL_RECORDS` as paths into the installed peer (empty when it is not installed)."""
    try:
        import diplomacy
    except ImportError:
        return {}
    base = Path(diplomacy.__file__).resolve().parent / "tests" / "network"
    return {name: base / file for name, file in REAL_RECORDS.items() if (base / file).is_file()}


def hundred_year_end(owed: bool) -> dict:
    """A record of the peer's own making that ends as the peer ends every game that
    reaches the Fall of 2000 (its 100th year): the peer plays F2000M from the standard
    opening units and writes W2000A and COMPLETED.  With ``owed``, Italy takes Trieste
    from Austria (``F TRI - ALB``, ``A VEN - TRI``), so that Austria owes a removal the
    peer never makes; without, nothing changes hands and nothing is due.  The saved-game
    dict (``diplomacy.utils.export.to_saved_game_format``)."""
    from diplomacy.utils.export import to_saved_game_format

    start = Position.initial()
    fall = Position.build(Phase("Fall", 2000, "movement"), start.units, dict(start.owner), [], (),
                          game_map=start.map)
    game = to_peer_game(fall)
    if owed:
        game.set_orders("AUSTRIA", ["F TRI - ALB"])
        game.set_orders("ITALY", ["A VEN - TRI"])
    else:
        game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    return to_saved_game_format(game)
