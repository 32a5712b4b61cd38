"""The ``dipsolve`` command line.

    dipsolve adjudicate FILE... [--orders ORDERS] [--json] [-o OUT | --out-dir DIR]
    dipsolve show FILE... [--json]
    dipsolve parse / validate / solve / path / adjust / play / render   (their own modules)

Human output goes to stdout; ``--json`` prints one JSON object per file (JSON lines, the
schema is in README.md).  A user mistake (unreadable file, bad syntax, an order for a unit
that is not there) prints ``file:line:col: what is wrong`` to stderr and exits with
status 2; no output file is written unless every input was good.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..adjudicator import Outcome, adjudicate
from ..errors import DipsolveError, DipsolveSyntaxError
from ..files import write_atomic
from ..orders import Order
from ..position import Position

EXIT_USAGE = 2


class UserError(DipsolveSyntaxError):
    """A mistake on the command line or in a file the command reads: reported in one
    line (or a few), exit status 2."""

    kind = "usage"


# -- reading ----------------------------------------------------------------------------

def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, expected a position file") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a text file (byte {e.start} is not UTF-8)") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None


def load(path: str) -> tuple[Position, dict[str, list[Order]]]:
    """A position file (``.dip`` or DAIDE ``NOW``/``SCO``) and the orders it holds."""
    from ..grammar import parse_position_text
    return parse_position_text(_read_text(path), path)


def load_orders(path: str, position: Position) -> dict[str, list[Order]]:
    """An orders file (one ``Power: order`` a line), checked against ``position``."""
    from ..grammar import parse_orders
    pairs = parse_orders(_read_text(path), path, position=position)
    orders: dict[str, list[Order]] = {}
    for power, order in pairs:
        orders.setdefault(power, []).append(order)
    return orders


# -- writing ----------------------------------------------------------------------------

def _units_by_power(position: Position) -> dict[str, list[str]]:
    return {p: [str(u) for u in position.units_of(p)] for p in position.powers()}


def position_json(position: Position) -> dict[str, Any]:
    return {
        "phase": position.phase.short,
        "phase_name": str(position.phase),
        "units": _units_by_power(position),
        "centers": {p: position.centers_of(p) for p in position.powers()},
        "dislodged": [{"power": d.unit.power, "unit": str(d.unit),
                       "attacker_origin": d.attacker_origin, "retreats": list(d.retreats)}
                      for d in position.dislodged],
        "standoffs": list(position.standoffs),
    }


def outcome_json(path: str, outcome: Outcome) -> dict[str, Any]:
    out = {"file": path, "phase": outcome.position.phase.short,
           "results": [{"power": r.power, "order": str(r.order), "success": r.success,
                        "reason": r.reason.value, "detail": r.detail} for r in outcome.results],
           "destroyed": [{"power": u.power, "unit": str(u)} for u in outcome.destroyed],
           "next": position_json(outcome.next)}
    return out


def outcome_text(path: str, outcome: Outcome) -> str:
    """The results as ``#`` comments, then the next position: valid ``.dip`` input."""
    lines = [f"# {path}: {outcome.position.phase} -> {outcome.next.phase}"]
    width = max((len(f"{r.power}: {r.order}") for r in outcome.results), default=0)
    for r in outcome.results:
        head = f"{r.power}: {r.order}"
        mark = "ok " if r.success else "-- "
        tail = f" ({r.detail})" if r.detail else ""
        lines.append(f"#   {mark}{head:<{width}}  {r.reason.value}{tail}")
    for u in outcome.destroyed:
        lines.append(f"#   destroyed: {u.power} {u}")
    lines.append("")
    lines.append(outcome.next.to_text())
    return "\n".join(lines)


def _progress(i: int, total: int) -> None:
    if total >= 20 and sys.stderr.isatty():
        done = int(30 * i / total)
        sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {i}/{total}")
        if i == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


# -- commands ---------------------------------------------------------------------------

def cmd_adjudicate(args: argparse.Namespace) -> int:
    from .render import check_render_path, write_render
    if args.output and len(args.files) > 1:
        raise UserError("-o/--output takes one FILE; use --out-dir DIR for several")
    check_render_path(args.render)
    if args.render and len(args.files) > 1 and "{stem}" not in args.render:
        raise UserError("--render takes one FILE; put '{stem}' in OUT to draw several")
    jobs: list[tuple[str, Position, Mapping[str, Iterable[Order]]]] = []
    for path in args.files:
        position, orders = load(path)
        if args.orders:
            orders = load_orders(args.orders, position)
        jobs.append((path, position, orders))
    rendered: list[tuple[str, Outcome]] = []
    for n, (path, position, orders) in enumerate(jobs, 1):
        rendered.append((path, adjudicate(position, orders)))
        _progress(n, len(jobs))
    # every input was good: now print and write
    for path, outcome in rendered:
        if args.json:
            print(json.dumps(outcome_json(path, outcome)))
        else:
            print(outcome_text(path, outcome))
    if args.output:
        write_atomic(Path(args.output), rendered[0][1].next.to_text())
    if args.out_dir:
        for path, outcome in rendered:
            write_atomic(Path(args.out_dir) / (Path(path).stem + ".next.dip"), outcome.next.to_text())
    for path, outcome in rendered:
        write_render(args, outcome, source=path)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    for path in args.files:
        position, orders = load(path)
        if args.json:
            obj = {"file": path, **position_json(position),
                   "orders": {p: [str(o) for o in os] for p, os in orders.items()}}
            print(json.dumps(obj))
        else:
            print(f"# {path}")
            print(position.to_text(orders))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dipsolve",
        description="A declarative solver for Diplomacy (standard map, Avalon Hill rules).",
        epilog="Position files use the .dip format (see README.md); DAIDE NOW/SCO files are read too.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    p.add_argument("--version", action="version", version="dipsolve 0.1.0")

    a = sub.add_parser(
        "adjudicate", help="resolve the phase of each position file",
        description="Resolve the phase in each FILE with the orders in the file's [orders] "
                    "section (or in ORDERS) and print each order's result and the next "
                    "position in the .dip format, so the output can be adjudicated again.")
    a.add_argument("files", nargs="+", metavar="FILE", help="a .dip file or a DAIDE NOW/SCO file")
    a.add_argument("--orders", metavar="ORDERS",
                   help="orders file, one 'Power: order' a line (replaces the file's [orders])")
    a.add_argument("--json", action="store_true", help="one JSON object per file (JSON lines)")
    a.add_argument("-o", "--output", metavar="OUT", help="also write the next position to OUT")
    a.add_argument("--out-dir", metavar="DIR", help="also write each next position to DIR/<name>.next.dip")
    from . import render as cli_render
    cli_render.add_render_argument(a)
    a.set_defaults(func=cmd_adjudicate)

    s = sub.add_parser("show", help="print a position", description="Print each position file "
                       "in canonical .dip form (or JSON), with its orders.")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--json", action="store_true", help="one JSON object per file (JSON lines)")
    s.set_defaults(func=cmd_show)

    # the other commands live in their own modules, each with register(subparsers)
    from . import adjust as cli_adjust, parse as cli_parse, path as cli_path, play as cli_play, solve as cli_solve
    for module in (cli_parse, cli_solve, cli_path, cli_adjust, cli_play, cli_render):
        module.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args)
    except DipsolveError as e:
        report_error(e, as_json=bool(getattr(args, "json", False)))
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


def report_error(e: DipsolveError, as_json: bool = False) -> None:
    """The one place an error reaches the user: ``file:line:col: message`` (with its
    caret) on stderr, or under ``--json`` one JSON object on stdout."""
    if as_json:
        print(json.dumps(e.to_json()))
        return
    text = str(e)
    head = text.split()[0] if text.split() else ""
    print(f"dipsolve: {text}" if e.location is None and ":" not in head else text,
          file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
