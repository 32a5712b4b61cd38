"""``dipsolve render``: draw a position, its orders, their results or a plan (SVG or PNG).

    dipsolve render FILE [-o out.svg|out.png] [--orders | --orders-file ORDERS] [--results]
    dipsolve render [FILE] --plan PLAN.json [--alone] [-o out.svg|out.png]

(The ``--render OUT`` option of ``adjudicate``, ``solve`` and ``path`` is
`dipsolve.cli.options.add_render` and `~dipsolve.cli.options.write_render`.)

A plan file is JSON, the plan of ``dipsolve path --json`` or written by hand::

    {"power": "Germany",                       # power of orders written without one
     "plan": [                                 # or "phases"; or the file is the list
       {"phase": "S1901M",                     # optional: S1901M or "Spring 1901 Movement"
        "orders": ["A BER - KIE", "Germany: F KIE - DEN"]},   # or {"Germany": [...]}
       {"phase": "F1901M", "orders": [{"power": "Germany", "order": "A KIE - HOL"}]}]}

The plan is replayed through the adjudicator from FILE (or the 1901 start) before it is
drawn: every order is shown with the number of its phase, and one that fails in the
replay is drawn faint and marked.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .options import (UserError, add_json, add_phase, add_variant, check_render_path, load,
                      load_orders, number, range_help, read_text, source_name, variant_of)
from .output import Outputs
from .progress import is_terminal

if TYPE_CHECKING:
    from ..core.map import Map
    from ..core.orders import Order
    from ..core.position import Phase
    from ..io.pictures import Subject

Steps = list[tuple["Phase | None", dict[str, list["Order"]]]]

_DESCRIPTION = """\
Draw FILE (a .dip or DAIDE NOW/SCO file) on the map of Europe: every province a shape on
real coastlines (land beige, sea blue, impassable land grey), a supply center's province
in its owner's colour and marked with a dot, the coasts of Spain, Bulgaria and St
Petersburg dashed, units as discs (armies) and hulls (fleets) in their power's colour,
dislodged units ringed in red, a legend with each power's units and centers.
--edges adds the moves of the board as thin lines.

  --orders         add the orders of FILE's [orders] section: moves as arrows, supports
                   dashed, convoys as dotted rings with the army's arrow through the fleets
  --results        adjudicate those orders and mark what happened: a failed order is
                   faint, a bounce has a bar across its tip, a cut support a red cross,
                   a dislodged unit a red ring
  --plan PLAN      replay a plan (JSON: a list of phases with their orders, e.g.
                   [{"phase": "S1901M", "orders": ["Germany: A BER - KIE"]}, ...]) from
                   FILE, or from the 1901 start if FILE is left out, and draw its orders
                   numbered by phase; --alone replays it with only the planning powers'
                   units on the board

The picture goes to -o OUT (.svg or .png; written whole or not at all), or to stdout as
SVG when stdout is a file or a pipe (at a terminal, -o is asked for). PNG needs resvg-py (or cairosvg)."""


def register(subparsers: Any) -> None:
    """Add ``render`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "render", help="draw a position, its orders and results, or a plan (SVG/PNG)",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="a .dip or DAIDE NOW/SCO position file (optional with --plan), or a game "
                        "record (saved-game JSON) with --phase (--orders: its recorded orders)")
    add_phase(p)
    add_variant(p)
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the picture to OUT: .svg or .png (default: SVG on stdout)")
    p.add_argument("--orders", action="store_true", help="draw the orders in FILE's [orders] section")
    p.add_argument("--orders-file", metavar="ORDERS",
                   help="draw the orders in ORDERS (one 'Power: order' a line) instead")
    p.add_argument("--results", action="store_true",
                   help="adjudicate the orders and mark each result (implies --orders)")
    p.add_argument("--plan", metavar="PLAN.json", help="replay and draw a plan, moves numbered by phase")
    p.add_argument("--alone", action="store_true",
                   help="replay the plan with only the planning powers' units on the board "
                        "(as `dipsolve path` plans)")
    p.add_argument("--title", help="the picture's title (default: the phase)")
    p.add_argument("--edges", action="store_true",
                   help="draw the moves of the board (army, fleet) as thin lines over the map")
    p.add_argument("--scale", type=number, default=1.0,
                   help=f"PNG size factor (default 1: 1260x900 px; {range_help('scale')}, so at "
                        f"most 5.9)")
    add_json(p, help="print one JSON object describing the picture (with the SVG text "
                     "itself when there is no -o)")
    p.set_defaults(func=cmd_render)


# -- plans ---------------------------------------------------------------------------------

class _Cursor:
    """Finds JSON strings in the plan's text in document order, for ``line:col`` in errors."""

    def __init__(self, path: str, text: str) -> None:
        self.path, self.text, self.pos = path, text, 0

    def where(self, value: str) -> tuple[int, int] | None:
        for token in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
            i = self.text.find(token, self.pos)
            if i >= 0:
                self.pos = i + len(token)
                return self.text.count("\n", 0, i) + 1, i - (self.text.rfind("\n", 0, i) + 1) + 1
        return None

    def error(self, value: object, message: str, column_in: int | None = None) -> UserError:
        at = self.where(value) if isinstance(value, str) else None
        if at is None:
            return UserError(message, filename=self.path)
        line, col = at
        col += column_in if column_in is not None else 0
        return UserError(message, filename=self.path, line=line, column=col)


def load_plan(path: str, game_map: "Map | None" = None) -> Steps:
    """A plan file (see the module's docstring) as ``[(phase or None, {power: [Order]})]``,
    its powers and orders read on ``game_map`` (the standard map when None)."""
    return parse_plan(read_text(path), source_name(path), game_map)


def parse_plan(text: str, path: str = "<plan>", game_map: "Map | None" = None) -> Steps:
    """`load_plan` for a plan's text already read (``path``: the name errors give)."""
    from ..core.bounds import loads_json
    from ..core.errors import DipsolveError, DipsolveLimitError, DipsolveSyntaxError
    from ..grammar import parse_order
    from ..core.position import Phase, map_of
    m = map_of(game_map, None)
    power_name = m.power
    every_power = ", ".join(m.powers)
    try:
        doc = loads_json(text, path)      # nesting and numbers within dipsolve.core.bounds
    except json.JSONDecodeError as e:
        raise UserError(f"not JSON: {e.msg}", filename=path, line=e.lineno, column=e.colno) from None
    cur = _Cursor(path, text)
    default_power = None
    steps_doc: Any = doc
    if isinstance(doc, dict):
        if isinstance(doc.get("power"), str):
            default_power = power_name(doc["power"])
            if default_power is None:
                raise cur.error(doc["power"], f"unknown power {doc['power']!r}, expected one of "
                                              f"{every_power}")
        steps_doc = doc.get("plan", doc.get("phases"))
        if steps_doc is None:
            raise UserError(f"no \"plan\" in the JSON object, expected "
                            f"{{\"plan\": [{{\"phase\": ..., \"orders\": [...]}}, ...]}}", filename=path)
    if not isinstance(steps_doc, list) or not steps_doc:
        raise UserError(f"the plan is not a list of phases (or is empty), expected "
                        f"[{{\"phase\": \"S1901M\", \"orders\": [\"A BER - KIE\"]}}, ...]", filename=path)

    def read_order(power: str | None, text_: Any, where: str) -> tuple[str, Order]:
        if not isinstance(text_, str):
            raise UserError(f"{where}: an order is {json.dumps(text_)}, expected a string "
                            f"such as \"A BER - KIE\"", filename=path)
        body, column = text_, 0
        head, sep, rest = text_.partition(":")
        if sep and power_name(head) is not None:
            power, body, column = power_name(head), rest, len(head) + 1
        if power is None:
            raise cur.error(text_, f"{text_!r}: no power for this order, expected "
                                   f"\"Germany: {text_.strip()}\" or a \"power\" in the plan")
        stripped = len(body) - len(body.lstrip())
        try:
            return power, parse_order(body.strip(), game_map=m)
        except DipsolveError as e:
            raise cur.error(text_, f"{e.message}" + (f", expected {e.expected}" if e.expected else ""),
                            1 + column + stripped + (e.column or 1) - 1) from None

    steps: Steps = []
    for i, step in enumerate(steps_doc, 1):
        where = f"phase {i} of the plan"
        phase: Phase | None = None
        step_power = default_power
        if isinstance(step, list):
            raw: Any = step
        elif isinstance(step, dict):
            if "phase" in step and step["phase"] is not None:
                if not isinstance(step["phase"], str):
                    raise UserError(f"{where}: phase is {json.dumps(step['phase'])}, "
                                    f"expected e.g. \"S1901M\"", filename=path)
                try:
                    phase = Phase.parse(step["phase"])
                except DipsolveLimitError as e:  # a year past max_year
                    raise cur.error(step["phase"], e.message) from None
                except DipsolveSyntaxError:     # not a phase
                    raise cur.error(step["phase"], f"{step['phase']!r} is not a phase, expected e.g. "
                                                   f"\"S1901M\" or \"Spring 1901 Movement\"") from None
            if isinstance(step.get("power"), str):
                step_power = power_name(step["power"]) or step_power
            raw = step.get("orders", [])
        else:
            raise UserError(f"{where} is {json.dumps(step)[:40]}, expected "
                            f"{{\"phase\": ..., \"orders\": [...]}}", filename=path)
        orders: dict[str, list[Order]] = {}
        items: list[tuple[str | None, Any]] = []
        if isinstance(raw, dict):
            for power, os in raw.items():
                p = power_name(power)
                if p is None:
                    raise cur.error(power, f"unknown power {power!r}, expected one of {every_power}")
                if not isinstance(os, list):
                    raise UserError(f"{where}: orders of {p} are not a list", filename=path)
                items += [(p, o) for o in os]
        elif isinstance(raw, list):
            for o in raw:
                if isinstance(o, dict):
                    p = power_name(str(o.get("power", ""))) or step_power
                    items.append((p, o.get("order")))
                else:
                    items.append((step_power, o))
        else:
            raise UserError(f"{where}: \"orders\" is {json.dumps(raw)[:40]}, expected a "
                            f"list of orders or {{power: [orders]}}", filename=path)
        for power, o in items:
            p, order = read_order(power, o, where)
            orders.setdefault(p, []).append(order)
        steps.append((phase, orders))
    return steps


# -- the command ---------------------------------------------------------------------------

def cmd_render(args: argparse.Namespace) -> int:
    from ..core.adjudicator import adjudicate
    from ..core.position import Position
    from ..io.pictures import PlanError, picture_bytes, replay_plan, svg_for
    outputs = Outputs()
    if args.output:
        check_render_path(args.output)
        outputs.plan(args.output)           # a bad -o fails now, before any drawing
    elif not args.json and is_terminal(sys.stdout):
        # a picture is 60 KB of SVG: at a terminal it is never what was wanted
        raise UserError("render writes SVG text: give a file with -o OUT (.svg or .png), or send it "
                        "on (dipsolve render FILE > board.svg)")
    if args.plan and (args.orders or args.orders_file or args.results):
        raise UserError("--plan draws the plan's own orders; leave out --orders, --orders-file and --results")
    if args.alone and not args.plan:
        raise UserError("--alone applies to --plan only")
    if not args.file and not args.plan:
        raise UserError("render needs a FILE (a .dip or DAIDE file), or --plan PLAN.json")

    if args.file:
        position, file_orders = load(args.file, args)
    else:
        position, file_orders = Position.initial(variant_of(args)), {}
    info: dict[str, Any] = {"file": args.file, "phase": position.phase.short}
    subject: Subject
    orders: Mapping[str, Iterable[Order]] | None = None
    if args.plan:
        steps = load_plan(args.plan, position.map)
        if args.alone:
            position = position.alone({p for _, os in steps for p in os})
        try:
            outcomes = replay_plan(position, steps)
        except PlanError as e:      # the plan's orders do not replay: say which file
            raise UserError(str(e), filename=args.plan) from None
        subject = outcomes
        end = outcomes[-1].next
        results = [r for o in outcomes for r in o.results]
        powers = sorted({p for _, os in steps for p in os})
        info.update(picture="plan", plan={
            "file": args.plan, "phases": len(outcomes),
            "from": outcomes[0].position.phase.short, "to": end.phase.short,
            "orders": sum(len(os) for _, step in steps for os in step.values()),
            "failed": sum(1 for r in results if not r.success),
            "centers_after": {p: len(end.centers_of(p)) for p in powers}})
    else:
        if args.orders_file:
            orders = load_orders(args.orders_file, position)
        elif args.orders or args.results:
            orders = file_orders
        if args.results:
            outcome = adjudicate(position, orders or {})
            subject = outcome
            failed = sum(1 for r in outcome.results if not r.success)
            info.update(picture="results", results={
                "succeeded": len(outcome.results) - failed, "failed": failed,
                "next": outcome.next.phase.short})
        else:
            subject = position
            info.update(picture="orders" if orders else "position")
        info["orders"] = sum(len(list(os)) for os in (orders or {}).values())
    info["units"] = len(position.units)
    info["centers"] = len(position.centers)

    svg = svg_for(subject, orders, title=args.title, edges=args.edges)
    if args.output:
        data = picture_bytes(args.output, svg, args.scale)
        outputs.put(args.output, data)
        outputs.commit()
        info.update(output=args.output, format=os.path.splitext(args.output)[1].lower()[1:], bytes=len(data))
        if args.json:
            print(json.dumps(info))
        else:
            print(f"{args.output}: {info['picture']} of {position.phase} ({len(data):,} bytes)")
    else:
        info.update(output=None, format="svg", bytes=len(svg.encode("utf-8")))
        if args.json:
            print(json.dumps({**info, "svg": svg}))
        else:
            sys.stdout.write(svg)
    return 0
