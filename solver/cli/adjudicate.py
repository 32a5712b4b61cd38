"""``dipsolve adjudicate``: resolve the phase of each position file and print the results
and the next position.

    dipsolve adjudicate FILE... [--orders ORDERS] [--json] [-o OUT | --out-dir DIR]
                        [--render OUT]

The human output is the results as ``#`` comments, then the next position in the
``.dip`` format, so that it can be adjudicated again; ``--json`` prints one JSON object
per file (JSON lines, the schema is in README.md).  Every output file (``-o``,
``--out-dir``, ``--render``) is checked before any input is read; every file is read
and adjudicated before anything is printed or written, and the output files are
written together at the end (`dipsolve.cli.output`): none unless every input was good
and every file could be written.  Ctrl-C prints the results finished and writes no file.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..core.results import stop_requested
from .interrupt import cooperative
from .options import (UserError, add_json, add_phase, add_render, add_variant, load, load_orders,
                      plan_render, write_render)
from .output import Outputs
from .progress import Progress
from .show import position_json

if TYPE_CHECKING:
    from ..core.adjudicator import Outcome
    from ..core.orders import Order
    from ..core.position import Position

#: files at which a progress bar is worth drawing
PROGRESS_FROM = 20


def register(subparsers: Any) -> None:
    """Add ``adjudicate`` to the ``dipsolve`` subcommands."""
    a = subparsers.add_parser(
        "adjudicate", help="resolve the phase of each position file",
        description="Resolve the phase in each FILE with the orders in the file's [orders] "
                    "section (or in ORDERS) and print each order's result and the next "
                    "position in the .dip format, so the output can be adjudicated again.")
    a.add_argument("files", nargs="+", metavar="FILE", help="a .dip file or a DAIDE NOW/SCO file, or a game record "
                   "(saved-game JSON) with --phase: its recorded orders are adjudicated")
    add_phase(a)
    add_variant(a)
    a.add_argument("--orders", metavar="ORDERS",
                   help="orders file, one 'Power: order' a line (replaces the file's [orders])")
    add_json(a)
    a.add_argument("-o", "--output", metavar="OUT",
                   help="also write the next position to OUT (replaced if it exists)")
    a.add_argument("--out-dir", metavar="DIR",
                   help="also write each next position to DIR/<name>.next.dip (DIR is made if "
                        "missing; two inputs with one name are refused)")
    add_render(a)
    a.set_defaults(func=cmd_adjudicate, stops_by_itself=True)


def outcome_json(path: str, outcome: "Outcome") -> dict[str, Any]:
    """One file's results and next position as JSON."""
    return {"file": path, "phase": outcome.position.phase.short,
            "results": [{"power": r.power, "order": str(r.order), "success": r.success,
                         "reason": r.reason.value, "detail": r.detail} for r in outcome.results],
            "destroyed": [{"power": u.power, "unit": str(u)} for u in outcome.destroyed],
            "next": position_json(outcome.next)}


def outcome_text(path: str, outcome: "Outcome") -> str:
    """The results as ``#`` comments, then the next position: valid ``.dip`` input."""
    lines = [f"# {path}: {outcome.position.phase} -> {outcome.next.phase}"]
    lines += [f"#   {line}" for line in outcome.result_lines()]
    lines.append("")
    lines.append(outcome.next.to_text())
    return "\n".join(lines)


def _next_name(path: str) -> str:
    """The file ``--out-dir`` writes the next position of ``path`` to: ``x.next.dip``."""
    stem = "stdin" if path == "-" else os.path.splitext(os.path.basename(path))[0]
    return stem + ".next.dip"


def _distinct_outputs(paths: list[str]) -> None:
    """Refuse, before anything is read or written, inputs whose next positions would be
    written to the same file of ``--out-dir`` (``a/x.dip`` and ``b/x.dip``): the first
    result would be lost."""
    seen: dict[str, str] = {}
    for path in paths:
        name = _next_name(path)
        if name in seen:
            raise UserError(f"--out-dir: {seen[name]} and {path} would both be written to "
                            f"{name}; adjudicate them into different folders")
        seen[name] = path


def _plan(args: argparse.Namespace) -> Outputs:
    """Every file this run will write, checked before any work."""
    outputs = Outputs()
    if args.out_dir:
        _distinct_outputs(args.files)
        for path in args.files:
            outputs.plan(os.path.join(args.out_dir, _next_name(path)), folder=True)
    if args.output:
        outputs.plan(args.output)
    plan_render(args, outputs, args.files)
    return outputs


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from ..core.adjudicator import adjudicate
    if args.output and len(args.files) > 1:
        raise UserError("-o/--output takes one FILE; use --out-dir DIR for several")
    if args.render and len(args.files) > 1 and "{stem}" not in args.render:
        raise UserError("--render takes one FILE; put '{stem}' in OUT to draw several")
    outputs = _plan(args)
    jobs: list[tuple[str, Position, Mapping[str, Iterable[Order]]]] = []
    for path in args.files:
        position, orders = load(path, args)
        if args.orders:
            orders = load_orders(args.orders, position)
        jobs.append((path, position, orders))
    rendered: list[tuple[str, Outcome]] = []
    total = len(jobs)
    with cooperative(), Progress(total, enabled=total >= PROGRESS_FROM) as progress:
        for n, (path, position, given) in enumerate(jobs, 1):
            if stop_requested():
                break
            rendered.append((path, adjudicate(position, given)))
            progress.show(f"{n}/{total}", done=n)
    # every input was good: now write (all files or none) and print
    if args.output and rendered:
        outputs.put(args.output, rendered[0][1].next.to_text())
    for path, outcome in rendered:
        if args.out_dir:
            outputs.put(os.path.join(args.out_dir, _next_name(path)), outcome.next.to_text())
        write_render(args, outcome, source=path, outputs=outputs)
    outputs.commit()
    for path, outcome in rendered:
        if args.json:
            print(json.dumps(outcome_json(path, outcome)))
        else:
            print(outcome_text(path, outcome))
    return 0
