"""``dipsolve parse --press``: read DAIDE or DPP messages; print each one's tree, the
lowest press level it needs, its canonical form (and English).

    dipsolve parse --press [--level N] [--dialect daide|dpp] [--english] [--json]
                   [--position FILE] TEXT... | -f FILE

This module adds the press options to the ``parse`` command of `dipsolve.cli.parse`
(`add_arguments`), which hands over to `run` when ``--press`` is given.  TEXT is one
message (its words joined by spaces); ``-f FILE`` reads one message a line (``-`` for
stdin; blank lines and lines starting with ``#`` are skipped).  A message that is not
understood, or needs a higher level than ``--level``, is reported as
``FILE:LINE:COL: ...`` with a caret under the token, and the exit status is 2.

With ``--position FILE`` every order the messages carry (in XDO, SUB, AND, ... but not
the results an ORD or THX reports) is judged against that position by
`dipsolve.core.rules.order_problem`, as ``dipsolve validate`` judges an orders file; an
illegal one is reported at its place (``<press>:1:10: F ENG - PAR: a fleet cannot enter
Paris (inland)``) and makes the exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .options import UserError, integer, load, range_help, read_input

EXIT_PROBLEMS = 2

#: orders that report what happened, not what is to be done: not judged by --position
_REPORTED = frozenset({"ord", "thx"})

_PRESS_HELP = """\
press mode: TEXT (or each line of -f FILE) is a DAIDE message (message syntax v0.18,
press levels 0-130, client-server messages too), or with --dialect dpp a message of the
1995 DPP language of the Hall & Loeb seed, e.g.
  dipsolve parse --press 'PRP (XDO ((ENG FLT EDI) SUP (ENG AMY LVP) MTO CLY))'
  dipsolve parse --press --dialect dpp --english 'FRM RUS (DMZ (BLA ARM))'
A message above --level is rejected naming the token and the level it needs.
--json prints one object per message: {"file", "line", "text", "valid", "dialect",
"level", "canonical", "tree", "english", "orders"} (each order with "problem" under
--position), or for a bad message {"file",
"line", "col", "text", "valid": false, "kind": "syntax"|"level", "error", "message",
"found", "expected", "needed_level"}: the error object of every command (``error`` the
error's branch, ``message`` what is wrong) and the press's own fields."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--press``, ``--level``, ``--dialect``, ``--english`` and ``--position``."""
    g = parser.add_argument_group("press", _PRESS_HELP)
    g.add_argument("--press", action="store_true",
                   help="read DAIDE (or DPP) messages instead of orders")
    g.add_argument("--level", type=integer, default=130, metavar="N",
                   help=f"the press level allowed, DAIDE only (0-130 as in DAIDE; 140-160 are "
                        f"daidepp's extensions, 8000 free text; {range_help('level')}; default 130)")
    g.add_argument("--dialect", choices=("daide", "dpp"), default="daide",
                   help="DAIDE message syntax (default) or the 1995 DPP language")
    g.add_argument("--english", action="store_true", help="also say each message in English")
    g.add_argument("--position", metavar="FILE",
                   help="judge the orders the messages carry against this position "
                        "(.dip or DAIDE NOW/SCO); reading orders, fill in from it what "
                        "they leave out (unit types, the coast of the unit ordered)")


def _messages(args: argparse.Namespace) -> tuple[list[tuple[int, str]], str]:
    """The messages to read, each with its line number, and the name errors give."""
    if args.text and args.file:
        raise UserError("give a message as TEXT or a file with -f FILE, not both")
    if not args.text and not args.file:
        raise UserError("nothing to parse: give a message as TEXT, or -f FILE ('-' for stdin)")
    if not args.file:
        return [(1, " ".join(args.text))], "<press>"
    text, name = read_input(args.file)
    lines = [(n, line) for n, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    return lines, name


def run(args: argparse.Namespace) -> int:
    """Read every message, print each (or its error); 2 if any was bad, else 0."""
    from ..grammar.errors import DipsolveError, DipsolveRuleError
    from ..grammar.press import PressLevelError, parse_press

    position = None
    if args.position:
        from ..core.rules import order_problem
        position, _ = load(args.position, args)
    messages, name = _messages(args)
    failed = False
    for number, text in messages:
        try:
            press = parse_press(text, level=args.level, dialect=args.dialect, source=name,
                                line=number)
        except DipsolveError as e:
            failed = True
            if args.json:
                obj: dict[str, Any] = {
                    **e.to_json(), "file": name, "text": text, "valid": False,
                    "kind": "level" if isinstance(e, PressLevelError) else "syntax",
                    "needed_level": e.needed if isinstance(e, PressLevelError) else None}
                print(json.dumps(obj))
            else:
                print(str(e), file=sys.stderr)
            continue
        problems: list[tuple[Any, str | None]] = []
        for at in press.located_orders:
            problem = None
            if position is not None and at.said_in not in _REPORTED and at.power is not None:
                problem = order_problem(position, at.power, at.order)
            problems.append((at, problem))
        if args.json:
            obj = {"file": name, "line": number, "text": text, "valid": True,
                   **press.to_json(), "english": press.english()}
            if position is not None:
                for entry, (_, problem) in zip(obj["orders"], problems):
                    entry["problem"] = problem
            print(json.dumps(obj))
        else:
            print(_human(press, args.english))
            print()
        for at, problem in problems:
            if problem is None:
                continue
            failed = True
            if not args.json:
                line = text.split("\n")[at.line - number]
                err = DipsolveRuleError(f"{at.order}: {problem}", filename=name, line=at.line,
                                        column=at.column, expected="a legal order",
                                        found=line[at.column - 1:at.column - 1 + at.width],
                                        source_line=line, width=at.width)
                print(str(err), file=sys.stderr)
    return EXIT_PROBLEMS if failed else 0


def _human(press: Any, english: bool) -> str:
    level = "none (DPP has no press levels)" if press.level is None else str(press.level)
    tree = "\n".join("  " + line for line in press.pretty().splitlines())
    lines = [f"canonical: {press.canonical}", f"level:     {level}", "tree:", tree]
    orders = press.orders()
    if orders:
        lines.append("orders:    " + "; ".join(f"{p}: {o}" if p else str(o) for p, o in orders))
    if english:
        lines.append(f"english:   {press.english()}")
    return "\n".join(lines)
