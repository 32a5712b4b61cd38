"""``dipsolve view``: a whole game as one self-contained HTML page (`dipsolve.io.pictures_html`).

    dipsolve view GAME.json [-o game.html] [--game ID] [--title TEXT] [--threats [MODEL]]
                  [--variant NAME|FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.errors import quote
from ..core.results import Limits
from .options import (THREAT_YEARS, UserError, add_json, add_threats, add_time_limit, add_variant,
                      check_threats, is_record, read_text, record_variant, source_name, warn_skipped)
from .output import Outputs
from .progress import Progress, is_terminal

#: phases at which a progress bar is worth drawing
PROGRESS_FROM = 20

_DESCRIPTION = """\
Write GAME.json (a game record: the diplomacy package's saved-game JSON, or dipsolve's)
as one HTML page that steps through every phase: the map with the orders given and
their results, the supply-center chart with the phase marked, and the phase's press
(all of it, or one power's); who played each power (where the record says) and how the
game ended, with the final centers.  Buttons, a phase list and the keyboard (left/right
arrows, Home, End) move between phases; game.html#F1903M opens a phase.  The map zooms
(+ - 0, the buttons, the mouse wheel) and moves (drag it, or Shift and the arrows).
The page is self-contained: open it in any browser, no server and no network.
`dipsolve analyze --html` writes the same page with dipsolve's suggested orders beside
the played ones.  --threats adds the solo-threat chart: each power's fewest game years to
18 centers from every Fall (dipsolve path against a defence), when a solo became
possible and when it was stopped.

The page goes to -o OUT (written whole or not at all), or to stdout when stdout is a file
or a pipe (at a terminal, -o is asked for)."""


def register(subparsers: Any) -> None:
    """Add ``view`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "view", help="a whole game as one HTML page that steps through its phases",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="GAME.json", help="a game record (saved-game JSON, one game or JSON lines)")
    p.add_argument("--game", metavar="ID", help="for a record of several games: the game's id or index (0: the first)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the page to OUT (default: stdout)")
    p.add_argument("--title", help="the page's title (default: Game ID)")
    add_threats(p, "add the solo-threat chart to the page")
    add_time_limit(p, None, help="with --threats: seconds for each power's answer in each Fall (default 10)")
    add_variant(p)
    add_json(p, help="print one JSON object: the file written, the game, its phases, the page's "
                     "size (and the threats, with --threats)")
    p.set_defaults(func=cmd_view)


def cmd_view(args: argparse.Namespace) -> int:
    from ..io.pictures_html import game_html
    from ..io.records import pick, read_records
    if not args.output and not args.json and is_terminal(sys.stdout):
        # a page is megabytes of HTML: at a terminal it is never what was wanted
        raise UserError("view writes an HTML page: give a file with -o OUT (game.html), or send it "
                        "on (dipsolve view GAME.json > game.html)")
    text, name = read_text(args.file), source_name(args.file)
    if not is_record(text):
        raise UserError("not a game record: view reads the diplomacy package's saved-game JSON",
                        filename=name)
    check_threats(args)
    if args.threats is None and (args.threat_years != THREAT_YEARS or args.time_limit is not None):
        raise UserError(f"{'--threat-years' if args.threat_years != THREAT_YEARS else '--time-limit'} "
                        f"applies to --threats only: view does no other work")
    outputs = Outputs()
    if args.output:
        outputs.plan(args.output)
    record = pick(read_records(text, name, record_variant(args)), args.game, name)
    warn_skipped([record], name)
    threats = _threats(args, record) if args.threats is not None else None
    with Progress(total=len(record.phases), enabled=len(record.phases) >= PROGRESS_FROM) as progress:
        page = game_html(record, title=args.title, threats=threats,
                         on_phase=lambda done, total: progress.show(f"drawing {done}/{total} phases", done=done))
    data = page.encode("utf-8")
    if args.output:
        outputs.put(args.output, data)
        outputs.commit()
    elif not args.json:
        print(page, end="")
    if args.json:
        print(json.dumps({"file": name, "game": record.id, "phases": len(record.phases),
                          "warnings": list(record.warnings), "output": args.output, "bytes": len(data),
                          **({} if threats is None else {"threats": threats.to_json()}),
                          **({} if args.output else {"html": page})}))
    elif args.output:
        print(f"{args.output}: game {quote(record.id)}, {len(record.phases)} phases ({len(data):,} bytes)")
    return 0


def _threats(args: argparse.Namespace, record: Any) -> Any:
    """Each power's fewest years to a solo from every Fall (`dipsolve.analysis.solo_threats`),
    with a progress line (Ctrl-C stops the command where it is: no page is written)."""
    from ..analysis import THREAT_LIMITS, solo_threats, threat_cases
    total = len(threat_cases(record))
    with Progress(total=max(1, total)) as progress:
        done = [0]

        def step(what: str) -> None:
            progress.show(f"solo threats: {what} ({done[0]}/{total})", done=done[0])
            done[0] += 1
        limits = THREAT_LIMITS if args.time_limit is None else Limits(time_limit=args.time_limit)
        return solo_threats(record, args.threats, limits=limits,
                            years=args.threat_years, on_step=step)
