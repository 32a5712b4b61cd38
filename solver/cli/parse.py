"""``dipsolve parse``: orders in any notation in; the canonical form or another notation out.

    dipsolve parse [TEXT ...] [-f FILE] [--format short|long|daide] [--power POWER] [--json]

Reads one order (the TEXT words joined by spaces) or one order a line of FILE (``-`` for
stdin; ``#`` comments and blank lines are skipped) in short, long or DAIDE notation and
prints each in canonical short notation (or ``--format``).  Press mode (``--press``,
DAIDE and DPP messages) is `dipsolve.cli.press`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import press
from .options import UserError, add_json, add_power, add_variant, load, read_input, variant_of

EXIT_PROBLEMS = 2

#: the ``type`` of an order in ``--json``, by the name of its class in `dipsolve.core.orders`
ORDER_TYPES = {"Hold": "hold", "Move": "move", "SupportHold": "support_hold",
               "SupportMove": "support_move", "Convoy": "convoy", "Retreat": "retreat",
               "Disband": "disband", "Build": "build", "Waive": "waive"}

_PARSE_HELP = """\
Read orders and print each in canonical short notation (or --format long|daide).

TEXT is one order (its words are joined by spaces; quote it when it holds '->'):
  dipsolve parse 'A Paris -> Burgundy'            A PAR - BUR
  dipsolve parse France: F North Sea convoys A London - Norway
  dipsolve parse '( FRA AMY PAR ) MTO BUR'        France: A PAR - BUR
  dipsolve parse 'A Ven-Tri'                      A VEN - TRI
  dipsolve parse 'Austria: Army Vienna -> Galicia.  (*bounce*)'   Austria: A VIE - GAL
-f FILE reads an order sheet ('-' for stdin; '#' comments, blank lines skipped): one
order or several a line (',' or ';' between them), 'Power:' in front of a line, or
'Power:' alone on a line for the lines below it.  --position FILE fills in what an
order left out (the unit type, the coast of the unit ordered) from that position.

Notations read (tokens in any case, provinces in any spelling of
solver/data/provinces.tsv, an optional 'Power:' in front, any abbreviation of the
power of two letters or more):
  short   A PAR - BUR, A PAR H, A MUN S A BER - KIE, A MUN S A BER, F NTH C A LON - NWY,
          A LON - NWY VIA, F STP/SC - BOT, F BRE R MAO, A PAR D, F STP/NC B, WAIVE
  long    A Paris -> Burgundy (or =>, to, moves to), A Paris holds, A Munich supports
          A Berlin -> Kiel, F North Sea convoys A London -> Norway, F Brest retreats to
          Mid-Atlantic Ocean, Disband A Paris, Remove A Paris, Build F St Petersburg
          (north coast), waive
  Judges  (njudge, DPjudge) A Ven-Tri, Ven - Tri (no unit type: the map or --position
          tells it), A Rome m Apulia, A Vienna stands, Army Venice HOLD., F Nth C A Edi-Nwy,
          A Smy - Aeg - Gre (a convoy route), F Stp/north coast, A Par r (remove), w,
          a report mark after an order: Army Vienna -> Galicia.  (*bounce*)
  daide   ( FRA AMY PAR ) MTO BUR, ( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR,
          ( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY, ( ENG AMY LON ) CTO NWY VIA ( NTH ),
          ( ENG FLT LON ) RTO YOR, ( RUS FLT ( STP NCS ) ) BLD, ( FRA AMY PAR ) DSB, FRA WVE

An ambiguous order (a unit type left out that neither the map nor --position tells)
is reported with its readings.  An order that is not understood is reported as FILE:LINE:COL with a caret under the
offending text and what would have been accepted there; every bad line is reported,
and the exit status is then 2.  --json prints one JSON object per line read:
  {"file", "line", "column", "text", "power", "type", "order", "output", "fields", "mark"}
or, for a line not understood or not expressible in the notation, the error object of
every command, {"error", "file", "line", "col", "message", "found", "expected"} (with
"rule" for a rule)."""


def register(subparsers: Any) -> None:
    """Add ``parse`` (with its press mode) to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser("parse", help="read orders in any notation, print them canonical",
                              description=_PARSE_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", metavar="TEXT", help="one order (its words are joined)")
    p.add_argument("-f", "--file", metavar="FILE", help="read one order a line from FILE ('-': stdin)")
    p.add_argument("--format", choices=("short", "long", "daide"), default="short",
                   help="the notation to print (default: short, the canonical one)")
    add_power(p, help="the power of orders written without one (DAIDE output names it)")
    add_variant(p)
    add_json(p, help="one JSON object per line read (JSON lines)")
    press.add_arguments(p)    # --press, --level, --dialect, --english, --position
    p.set_defaults(func=cmd_parse)


def error_json(e: Any) -> dict[str, Any]:
    """A line that is not understood (a `DipsolveError`) in ``--json``: the error object
    of every command (`DipsolveError.to_json`)."""
    return dict(e.to_json())


def cmd_parse(args: argparse.Namespace) -> int:
    if args.press:
        return press.run(args)
    from dataclasses import asdict

    from ..grammar.orders import FormatError, format_order, read_orders

    if args.text and args.file:
        raise UserError("give an order as TEXT or a file with -f FILE, not both")
    if not args.text and not args.file:
        raise UserError("nothing to parse: give an order as TEXT, or -f FILE ('-' for stdin)")
    default_power = args.power          # a power's name (options.check)
    text, name = read_input(args.file) if args.file else (" ".join(args.text), "<text>")
    position = load(args.position, args)[0] if args.position else None
    game_map = position.map if position is not None else variant_of(args).map
    lines, errors = read_orders(text, name, need_power=False, position=position, check_units=True,
                                game_map=game_map)

    entries: list[tuple[int, int, dict[str, Any] | None, str]] = []   # line, col, json, human
    failed = bool(errors)
    for e in errors:
        entries.append((e.line or 0, e.column or 0, error_json(e), str(e)))
    for line in lines:
        power = line.power or default_power
        try:
            output = format_order(line.order, power, args.format, game_map=game_map)
        except FormatError as e:
            failed = True
            advice = " (write 'France: ...' or give --power)" if power is None else ""
            message = f"{line.location}: {e}{advice}"
            entries.append((line.line, line.column, {
                **e.to_json(), "file": line.filename, "line": line.line, "col": line.column,
                "found": line.text}, message))
            continue
        entries.append((line.line, line.column, {
            "file": line.filename, "line": line.line, "column": line.column, "text": line.text,
            "power": power, "type": ORDER_TYPES[type(line.order).__name__], "order": str(line.order),
            "output": output, "fields": asdict(line.order), "mark": line.mark}, output))
    entries.sort(key=lambda x: (x[0], x[1]))
    for _, _, obj, human in entries:
        if args.json:
            print(json.dumps(obj))
        elif obj is not None and "error" in obj:
            print(human, file=sys.stderr)
        else:
            print(human)
    return EXIT_PROBLEMS if failed else 0
