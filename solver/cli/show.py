"""``dipsolve show``: print position files in canonical ``.dip`` form, or as JSON.

    dipsolve show FILE... [--json]

`position_json` is the JSON form of a position every command prints (``adjudicate``'s
next position, ``adjust``'s replayed one).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from .options import add_json, add_phase, add_variant, load
if TYPE_CHECKING:
    from ..core.position import Position


def register(subparsers: Any) -> None:
    """Add ``show`` to the ``dipsolve`` subcommands."""
    s = subparsers.add_parser("show", help="print a position", description="Print each position file "
                              "in canonical .dip form (or JSON), with its orders.")
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="a .dip or DAIDE NOW/SCO file, or a game record (saved-game JSON) with --phase")
    add_phase(s)
    add_variant(s)
    add_json(s)
    s.set_defaults(func=cmd_show)


def position_json(position: "Position") -> dict[str, Any]:
    """A position as JSON: phase, units and centers by power, dislodged units, standoffs."""
    return {
        "phase": position.phase.short,
        "phase_name": str(position.phase),
        "units": {p: [str(u) for u in position.units_of(p)] for p in position.powers()},
        "centers": {p: position.centers_of(p) for p in position.powers()},
        "dislodged": [{"power": d.unit.power, "unit": str(d.unit),
                       "attacker_origin": d.attacker_origin, "retreats": list(d.retreats)}
                      for d in position.dislodged],
        "standoffs": list(position.standoffs),
    }


def cmd_show(args: argparse.Namespace) -> int:
    for path in args.files:
        position, orders = load(path, args)
        if args.json:
            obj = {"file": path, **position_json(position),
                   "orders": {p: [str(o) for o in os] for p, os in orders.items()}}
            print(json.dumps(obj))
        else:
            print(f"# {path}")
            print(position.to_text(orders))
    return 0
