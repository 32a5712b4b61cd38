"""``dipsolve validate``: judge every order of an orders file against a position.

    dipsolve validate ORDERS --position FILE [--json]

Reads an orders file (one ``Power: order`` a line, or a DAIDE order) and judges every
order against a position: lines that are not understood (syntax) and orders that are
understood but illegal (rules, `dipsolve.core.rules`) are all reported, each at its line
and column; exit status 2 if there is any, 0 if every order is legal.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .options import add_json, add_variant, load, read_input

EXIT_PROBLEMS = 2

_VALIDATE_HELP = """\
Judge every order of ORDERS (an order sheet as `dipsolve parse -f` reads it: 'Power:
order' lines or 'Power:' headers, several orders a line, any notation) against the
position in FILE (.dip or DAIDE NOW/SCO; its own [orders] are ignored).  What an order
leaves out (the unit type, the coast of the unit ordered) is read from the position.

Two kinds of problem are reported, each as ORDERS:LINE:COL:
  not understood   the line is no order (a syntax error, an unknown province or power):
                   the message shows the line with a caret and what was expected
  illegal          the order is clear but the rules forbid it here, e.g.
                   orders.txt:3:9: F ENG - PAR: a fleet cannot enter Paris (inland)

The rules (the adjudicator's own; --json names them): phase, unit, owner, location,
terrain, adjacency, coast, convoy route, support, convoy, retreat, build, builds left,
removals, one order.  Exit status 2 if there is any problem, 0 if every order is legal.
--json prints one JSON object: {"file", "position", "phase", "orders", "legal",
"problems": [{"line", "column", "kind", "power", "order", "rule", "message", ...}]}."""


def register(subparsers: Any) -> None:
    """Add ``validate`` to the ``dipsolve`` subcommands."""
    v = subparsers.add_parser("validate", help="check orders against a position: syntax and rules",
                              description=_VALIDATE_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("orders", metavar="ORDERS",
                   help="orders file, one 'Power: order' a line ('-': stdin)")
    v.add_argument("--position", required=True, metavar="FILE",
                   help="the position the orders are for (.dip or DAIDE NOW/SCO)")
    add_variant(v)
    add_json(v, help="print one JSON object")
    v.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from ..grammar.errors import DipsolveSyntaxError
    from ..grammar.orders import read_orders
    from ..core.rules import order_problems

    position, _ = load(args.position, args)
    text, name = read_input(args.orders)
    lines, errors = read_orders(text, name, position=position)
    given = []
    for line in lines:
        assert line.power is not None     # read_orders with a map reads a power on every line
        given.append((line.power, line.order))
    verdicts = order_problems(position, given)

    problems: list[tuple[int, int, dict[str, Any], str]] = []
    for e in errors:
        # an order with its unit type left out and no unit there to read it from breaks
        # the rule "unit"; anything else is not understood
        rule = getattr(e, "rule", None)
        kind = "syntax" if isinstance(e, DipsolveSyntaxError) else rule or "name"
        problems.append((e.line or 0, e.column or 0, {
            "line": e.line, "column": e.column,
            "kind": "illegal" if rule == "unit" else "not understood", "power": None,
            "order": None, "rule": kind, "message": e.message, "found": e.found,
            "expected": e.expected}, str(e)))
    for line, p in zip(lines, verdicts):
        if p is not None:
            problems.append((line.line, line.column, {
                "line": line.line, "column": line.column, "kind": "illegal", "power": p.power,
                "order": str(p.order), "rule": p.rule, "message": p.message, "found": line.text,
                "expected": None}, f"{line.location}: {p}"))
    problems.sort(key=lambda x: (x[0], x[1]))
    total = len(lines) + len(errors)
    legal = sum(1 for v in verdicts if v is None)
    if args.json:
        print(json.dumps({"file": name, "position": args.position, "phase": position.phase.short,
                          "orders": total, "legal": legal,
                          "problems": [obj for _, _, obj, _ in problems]}))
    else:
        for _, _, _, human in problems:
            print(human)
        if problems:
            illegal = len(lines) - legal
            unread = sum(1 for e in errors if getattr(e, "rule", None) != "unit")
            illegal += len(errors) - unread
            print(f"{name}: {total} orders for {position.phase}: {legal} legal, {illegal} illegal, "
                  f"{unread} not understood")
        else:
            print(f"{name}: {total} orders for {position.phase}: all legal")
    return EXIT_PROBLEMS if problems else 0
