"""Write ``examples/*.dip``: real positions from one game played through the ``diplomacy`` package.

Run by a developer (the ``diplomacy`` package is a test dependency)::

    python tests/tools/make_examples.py          # writes examples/*.dip
    python tests/tools/make_examples.py --check  # exits 1 if a file differs

Two years of a game that opens with named, well-known openings: Austria's Balkan Gambit,
England's Northern Opening, France's Burgundy attack, Germany's Danish Blitz, Italy's
Lepanto, Russia's Southern opening and Turkey's Black Sea opening; then Austria and
Turkey turn on Russia, England walks into Scandinavia and Italy sails east.  The
``diplomacy`` package adjudicates; each phase is written before it is played, in the
``.dip`` format (``Position.to_text``), with the orders given in it.  Attacker origins
and standoffs are read from the package's results; the retreat options it computes are
checked against ``dipsolve.core.board.retreat_options``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dipsolve.grammar import parse_order
from dipsolve.core.map import standard_map
from dipsolve.core.orders import Order
from dipsolve.core.board import retreat_options
from dipsolve.core.position import Dislodged, Phase, Position, Unit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: (file name, what the position is, the orders given in it)
GAME: list[tuple[str, str, dict[str, list[str]]]] = [
    ("start.dip", """\
Spring 1901: the standard starting position, with a well-known opening for every power:
Austria's Balkan Gambit (F TRI - ALB, A BUD - SER, A VIE - GAL), England's Northern
Opening, France's Burgundy attack (A MAR S A PAR - BUR), Germany's Danish Blitz,
Italy's Lepanto (F NAP - ION, A ROM - APU), Russia's Southern opening (A WAR - GAL
will bounce with Austria) and Turkey's Black Sea opening.""", {
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        "FRANCE": ["F BRE - MAO", "A PAR - BUR", "A MAR S A PAR - BUR"],
        "GERMANY": ["F KIE - DEN", "A BER - KIE", "A MUN - RUH"],
        "ITALY": ["F NAP - ION", "A ROM - APU", "A VEN H"],
        "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - RUM", "F STP/SC - BOT"],
        "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - CON"],
    }),
    ("f1901m.dip", """\
Fall 1901, after the openings (Galicia bounced).  England convoys into Norway, Italy
into Tunis (the Lepanto's second step); Austria, with the Black Sea fleet's support,
takes Rumania from Russia; France and Germany bounce in Belgium.""", {
        "AUSTRIA": ["A SER - RUM", "A VIE - GAL", "F ALB - GRE"],
        "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY VIA", "F NWG - BAR"],
        "FRANCE": ["A BUR - BEL", "F MAO - POR", "A MAR - SPA"],
        "GERMANY": ["A KIE - HOL", "A RUH - BEL", "F DEN H"],
        "ITALY": ["F ION C A APU - TUN", "A APU - TUN VIA", "A VEN H"],
        "RUSSIA": ["A WAR - GAL", "A UKR H", "F RUM H", "F BOT - SWE"],
        "TURKEY": ["F BLA S A SER - RUM", "A BUL H", "A CON H"],
    }),
    ("f1901r.dip", """\
Fall 1901 retreats: the Russian fleet in Rumania was dislodged by the army from Serbia
(so it may not retreat there); Belgium and Galicia were left empty by standoffs, and the
Black Sea and Bulgaria are held: Sevastopol is its only way out.""", {
        "RUSSIA": ["F RUM R SEV"],
    }),
    ("w1901a.dip", """\
Winter 1901 adjustments: every power gained centers in 1901; builds on the home
centers left empty (Russia builds on St Petersburg's north coast against England).""", {
        "AUSTRIA": ["A BUD B", "F TRI B"],
        "ENGLAND": ["F EDI B"],
        "FRANCE": ["F BRE B", "A MAR B"],
        "GERMANY": ["F KIE B", "A MUN B"],
        "ITALY": ["F NAP B"],
        "RUSSIA": ["F STP/NC B"],
        "TURKEY": ["F ANK B"],
    }),
    ("s1902m.dip", """\
Spring 1902: Austria and Turkey strike at Sevastopol, England at St Petersburg with
the Barents Sea's support; Russia slips into Galicia and Norway; Germany takes Belgium
with support from Holland.""", {
        "AUSTRIA": ["A RUM - SEV", "A VIE - GAL", "A BUD - SER", "F GRE H", "F TRI - ADR"],
        "ENGLAND": ["A NWY - STP", "F BAR S A NWY - STP", "F NTH - NWG", "F EDI - NTH"],
        "FRANCE": ["A BUR - BEL", "A MAR - BUR", "A SPA - GAS", "F POR - MAO", "F BRE - ENG"],
        "GERMANY": ["A RUH - BEL", "A HOL S A RUH - BEL", "A MUN - RUH", "F KIE - HEL", "F DEN H"],
        "ITALY": ["F ION - EAS", "F NAP - ION", "A VEN H", "A TUN H"],
        "RUSSIA": ["F SEV H", "A UKR - GAL", "A WAR S A UKR - GAL", "F SWE - NWY", "F STP/NC H"],
        "TURKEY": ["F BLA S A RUM - SEV", "A BUL - RUM", "A CON - BUL", "F ANK - CON"],
    }),
    ("s1902r.dip", """\
Spring 1902 retreats: two Russian fleets dislodged.  The one in Sevastopol (attacked
from Rumania) can only reach Armenia; the one on St Petersburg's north coast (attacked
from Norway, where a Russian fleet now stands) has nowhere to go and is disbanded.""", {
        "RUSSIA": ["F SEV R ARM"],
    }),
    ("f1902m.dip", """\
Fall 1902: England dislodges the Russian fleet from Norway while Germany takes Sweden
behind it; Russia and Austria bounce in Budapest, Italy and Turkey in the Aegean;
Italy's fleet takes Smyrna.""", {
        "AUSTRIA": ["A SEV H", "A SER - BUD", "A VIE H", "F GRE H", "F ADR - TRI"],
        "ENGLAND": ["A STP H", "F BAR S A STP", "F NWG - NWY", "F NTH S F NWG - NWY"],
        "FRANCE": ["A BUR - BEL", "F ENG S A BUR - BEL", "A MAR - PIE", "A GAS - SPA", "F MAO - WES"],
        "GERMANY": ["A BEL H", "A HOL S A BEL", "A RUH S A BEL", "F HEL H", "F DEN - SWE"],
        "ITALY": ["F EAS - SMY", "F ION - AEG", "A TUN H", "A VEN H"],
        "RUSSIA": ["A GAL - BUD", "A WAR - GAL", "F ARM - SEV", "F NWY H"],
        "TURKEY": ["F BLA S A SEV", "A RUM H", "A BUL H", "F CON - AEG"],
    }),
    ("f1902r.dip", """\
Fall 1902 retreats: the Russian fleet dislodged from Norway by the fleet from the
Norwegian Sea; Sweden is now German, so the Skagerrak is its only retreat.  Budapest
and the Aegean were left empty by standoffs.""", {
        "RUSSIA": ["F NWY R SKA"],
    }),
    ("w1902a.dip", """\
Winter 1902 adjustments: Russia is down to Moscow and Warsaw with four units and must
remove two; Germany builds two, Austria, England and Italy one each.""", {
        "AUSTRIA": ["A BUD B"],
        "ENGLAND": ["F LON B"],
        "GERMANY": ["A BER B", "F KIE B"],
        "ITALY": ["F NAP B"],
        "RUSSIA": ["F ARM D", "F SKA D"],
    }),
]

HEADER = """\
{story}
#
# Written by tests/tools/make_examples.py from a game played through the diplomacy
# package; regenerate with `python tests/tools/make_examples.py`.
"""


def _province(loc: str) -> str:
    return loc.split("/")[0]


def position_of(game, before: Position | None, last_orders: dict[str, list[str]],
                last_results: dict) -> Position:
    """The game's current phase as a `Position`.

    In a retreat phase the dislodged units are read from the package's results (its
    state drops those that have no retreat) and their powers from the position before;
    the attacker's origin is the unit that moved into the province, unless it came by
    convoy; standoffs are provinces a bounced move aimed at that stand empty.
    """
    m = standard_map()
    state = game.get_state()
    phase = Phase.parse(game.get_current_phase())
    units = [Unit(power.capitalize(), *s.split())
             for power, strings in state["units"].items() for s in strings if not s.startswith("*")]
    centers = {c: power.capitalize() for power, cs in state["centers"].items() for c in cs}
    standoffs: set[str] = set()
    dislodged: list[Dislodged] = []
    if phase.kind == "retreat":
        assert before is not None
        occupied = {_province(u.location) for u in units}
        moves = {}  # "A SER" -> (origin province, target province, by convoy)
        for orders in last_orders.values():
            for o in orders:
                w = o.split()
                if len(w) >= 4 and w[2] == "-":
                    moves[f"{w[0]} {w[1]}"] = (_province(w[1]), _province(w[3]), w[-1] == "VIA")
        for unit, results in last_results.items():
            if "bounce" in {str(r) for r in results} and moves[unit][1] not in occupied:
                standoffs.add(moves[unit][1])
        for unit, results in last_results.items():
            if "dislodged" not in {str(r) for r in results}:
                continue
            kind, loc = unit.split()
            attackers = [v for u, v in moves.items() if v[1] == _province(loc) and not last_results[u]]
            origin = None if attackers[0][2] else attackers[0][0]
            power = next(u.power for u in before.units if (u.kind, u.location) == (kind, loc))
            u = Unit(power, kind, loc)
            given = tuple(sorted(state["retreats"][power.upper()].get(unit, [])))
            computed = retreat_options(m, u, origin, occupied, standoffs)
            assert computed == given, (unit, computed, given)
            dislodged.append(Dislodged(u, origin, given))
    return Position.build(phase, units, centers, dislodged, standoffs)


def build() -> dict[str, str]:
    """Play the game; return {file name: text}."""
    from diplomacy import Game

    game = Game()
    out: dict[str, str] = {}
    last_orders: dict[str, list[str]] = {}
    last_results: dict = {}
    position: Position | None = None
    for name, story, orders in GAME:
        position = position_of(game, position, last_orders, last_results)
        assert not position.problems(), position.problems()
        for power, os in orders.items():
            game.set_orders(power, os)
            assert sorted(game.get_orders(power)) == sorted(os), (name, power, game.get_orders(power))
        ours: dict[str, list[Order]] = {}
        for power, os in orders.items():
            for o in os:
                ours.setdefault(power.capitalize(), []).append(parse_order(o))
        header = HEADER.format(story="\n".join("# " + line for line in story.splitlines()))
        out[name] = header + "\n" + position.to_text(ours)
        if position.phase.kind == "movement":
            last_orders = orders
        game.process()
        last_results = {k: v for k, v in game.result_history.last_value().items()}
    return out


def main(argv: list[str]) -> int:
    files = build()
    if "--check" in argv:
        stale = [n for n, text in files.items()
                 if not (EXAMPLES / n).exists() or (EXAMPLES / n).read_text(encoding="utf-8") != text]
        for n in stale:
            print(f"examples/{n} differs from what tests/tools/make_examples.py writes")
        return 1 if stale else 0
    EXAMPLES.mkdir(exist_ok=True)
    for n, text in files.items():
        (EXAMPLES / n).write_text(text, encoding="utf-8")
        print(f"wrote examples/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
