"""``dipsolve parse`` and ``dipsolve validate``: orders in any notation in; the canonical
form, another notation, or every problem out.

    dipsolve parse [TEXT ...] [-f FILE] [--format short|long|daide] [--power POWER] [--json]
    dipsolve validate ORDERS --position FILE [--json]

``parse`` reads one order (the TEXT words joined by spaces) or one order a line of
FILE (``-`` for stdin; ``#`` comments and blank lines are skipped) in short, long or
DAIDE notation and prints each in canonical short notation (or ``--format``).  Press
mode (``--press``, DAIDE and DPP messages) is added by `dipsolve.cli_press` when it is
installed.

``validate`` reads an orders file (one ``Power: order`` a line, or a DAIDE order) and
judges every order against a position: lines that are not understood (syntax) and
orders that are understood but illegal (rules, `dipsolve.rules`) are all reported,
each at its line and column; exit status 2 if there is any, 0 if every order is legal.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from dataclasses import asdict
from typing import Any

from .cli import UserError, _read_text, load
from .map import POWERS, power_name
from .orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, Waive

EXIT_PROBLEMS = 2

#: the ``type`` of an order in ``--json``
ORDER_TYPES = {Hold: "hold", Move: "move", SupportHold: "support_hold", SupportMove: "support_move",
               Convoy: "convoy", Retreat: "retreat", Disband: "disband", Build: "build",
               Waive: "waive"}

_PARSE_HELP = """\
Read orders and print each in canonical short notation (or --format long|daide).

TEXT is one order (its words are joined by spaces; quote it when it holds '->'):
  dipsolve parse 'A Paris -> Burgundy'            A PAR - BUR
  dipsolve parse France: F North Sea convoys A London - Norway
  dipsolve parse '( FRA AMY PAR ) MTO BUR'        France: A PAR - BUR
-f FILE reads one order a line ('-' for stdin; '#' comments, blank lines skipped).

Notations read (tokens in any case, provinces in any spelling of
solver/data/provinces.tsv, an optional 'Power:' in front):
  short   A PAR - BUR, A PAR H, A MUN S A BER - KIE, A MUN S A BER, F NTH C A LON - NWY,
          A LON - NWY VIA, F STP/SC - BOT, F BRE R MAO, A PAR D, F STP/NC B, WAIVE
  long    A Paris -> Burgundy (or =>, to, moves to), A Paris holds, A Munich supports
          A Berlin -> Kiel, F North Sea convoys A London -> Norway, F Brest retreats to
          Mid-Atlantic Ocean, Disband A Paris, Remove A Paris, Build F St Petersburg
          (north coast), waive
  daide   ( FRA AMY PAR ) MTO BUR, ( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR,
          ( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY, ( ENG AMY LON ) CTO NWY VIA ( NTH ),
          ( ENG FLT LON ) RTO YOR, ( RUS FLT ( STP NCS ) ) BLD, ( FRA AMY PAR ) DSB, FRA WVE

An order that is not understood is reported as FILE:LINE:COL with a caret under the
offending text and what would have been accepted there; every bad line is reported,
and the exit status is then 2.  --json prints one JSON object per line read:
  {"file", "line", "column", "text", "power", "type", "order", "output", "fields"}
or, for a line not understood, {"file", "line", "column", "error", "found", "expected"}."""

_VALIDATE_HELP = """\
Judge every order of ORDERS (one 'Power: order' a line in short or long notation, or a
DAIDE order) against the position in FILE (.dip or DAIDE NOW/SCO; its own [orders]
are ignored).

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
    """Add ``parse`` and ``validate`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser("parse", help="read orders in any notation, print them canonical",
                              description=_PARSE_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", metavar="TEXT", help="one order (its words are joined)")
    p.add_argument("-f", "--file", metavar="FILE", help="read one order a line from FILE ('-': stdin)")
    p.add_argument("--format", choices=("short", "long", "daide"), default="short",
                   help="the notation to print (default: short, the canonical one)")
    p.add_argument("--power", metavar="POWER",
                   help="the power of orders written without one (DAIDE output names it)")
    p.add_argument("--json", action="store_true", help="one JSON object per line read (JSON lines)")
    press = _press_module()
    if press is not None:
        press.add_arguments(p)    # --press, --level, --dialect, --english, --position
    p.set_defaults(func=cmd_parse)

    v = subparsers.add_parser("validate", help="check orders against a position: syntax and rules",
                              description=_VALIDATE_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("orders", metavar="ORDERS",
                   help="orders file, one 'Power: order' a line ('-': stdin)")
    v.add_argument("--position", required=True, metavar="FILE",
                   help="the position the orders are for (.dip or DAIDE NOW/SCO)")
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.set_defaults(func=cmd_validate)


def _press_module():
    """`dipsolve.cli_press` (press mode of ``parse``), or None while it is not written."""
    try:
        return importlib.import_module(".cli_press", __package__)
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}.cli_press":
            raise
        return None


# -- parse ---------------------------------------------------------------------------------

def _input(path: str) -> tuple[str, str]:
    """The text of a file (``-``: stdin) and the name errors give it."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    return _read_text(path), path


def _error_json(e) -> dict[str, Any]:
    return {"file": e.filename, "line": e.line, "column": e.column, "error": e.message,
            "found": e.found, "expected": e.expected}


def cmd_parse(args: argparse.Namespace) -> int:
    if getattr(args, "press", False):
        return _press_module().run(args)  # type: ignore[union-attr]
    from .grammar.orders import FormatError, format_order, read_orders

    if args.text and args.file:
        raise UserError("give an order as TEXT or a file with -f FILE, not both")
    if not args.text and not args.file:
        raise UserError("nothing to parse: give an order as TEXT, or -f FILE ('-' for stdin)")
    default_power = None
    if args.power:
        default_power = power_name(args.power)
        if default_power is None:
            raise UserError(f"--power {args.power}: unknown power, expected one of {', '.join(POWERS)}")
    text, name = _input(args.file) if args.file else (" ".join(args.text), "<text>")
    lines, errors = read_orders(text, name, need_power=False)

    entries: list[tuple[int, int, dict[str, Any] | None, str]] = []   # line, col, json, human
    failed = bool(errors)
    for e in errors:
        entries.append((e.line or 0, e.column or 0, _error_json(e), str(e)))
    for line in lines:
        power = line.power or default_power
        try:
            output = format_order(line.order, power, args.format)
        except FormatError as e:
            failed = True
            advice = " (write 'France: ...' or give --power)" if power is None else ""
            message = f"{line.location}: {e}{advice}"
            entries.append((line.line, line.column, {
                "file": line.filename, "line": line.line, "column": line.column,
                "error": str(e), "found": line.text, "expected": None}, message))
            continue
        entries.append((line.line, line.column, {
            "file": line.filename, "line": line.line, "column": line.column, "text": line.text,
            "power": power, "type": ORDER_TYPES[type(line.order)], "order": str(line.order),
            "output": output, "fields": asdict(line.order)}, output))
    entries.sort(key=lambda x: (x[0], x[1]))
    for _, _, obj, human in entries:
        if args.json:
            print(json.dumps(obj))
        elif obj is not None and "error" in obj:
            print(human, file=sys.stderr)
        else:
            print(human)
    return EXIT_PROBLEMS if failed else 0


# -- validate ------------------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    from .grammar.errors import DipsolveSyntaxError
    from .grammar.orders import read_orders
    from .rules import order_problems

    position, _ = load(args.position)
    text, name = _input(args.orders)
    lines, errors = read_orders(text, name, game_map=position.map)
    verdicts = order_problems(position, [(line.power, line.order) for line in lines])

    problems: list[tuple[int, int, dict[str, Any], str]] = []
    for e in errors:
        kind = "syntax" if isinstance(e, DipsolveSyntaxError) else "name"
        problems.append((e.line or 0, e.column or 0, {
            "line": e.line, "column": e.column, "kind": "not understood", "power": None,
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
            print(f"{name}: {total} orders for {position.phase}: {legal} legal, {illegal} illegal, "
                  f"{len(errors)} not understood")
        else:
            print(f"{name}: {total} orders for {position.phase}: all legal")
    return EXIT_PROBLEMS if problems else 0
