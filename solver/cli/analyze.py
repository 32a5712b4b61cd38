"""``dipsolve analyze``: a whole game record checked and weighed phase by phase (`dipsolve.analysis`).

    dipsolve analyze GAME.json [--game ID] [--power P] [--time-limit S] [--adjudication-only]
                     [--threats [MODEL]] [--agreements] [--variant NAME|FILE] [--json] [--render DIR]

Prints the adjudication check (the phases where dipsolve's adjudication of the recorded
orders differs from the record, each with the peer's documented quirk that explains it,
if one does), then a table per power: each movement phase, the orders played, dipsolve's
own orders for that board, and the value lost (dipsolve's minus the played, both judged
by the influence evaluation after the phase against the orders the others really gave).
``--agreements``, instead of weighing the orders, lists the agreements the record's DAIDE
press made (PRP of PCE, ALY, DMZ, XDO, AND, ORR; YES, REJ, BWX, CCL) and checks each
against every phase's orders: kept, broken (by which order) or not tested; then each
power's violations.  ``--html OUT.html`` writes the game as one page (as ``dipsolve view``)
with dipsolve's orders beside the played ones. ``--render DIR`` draws the center counts per power over the game into
``DIR/centers.svg`` and ``DIR/centers.png``.  ``--json`` prints the whole report as one
JSON object.  A file of several games (JSON lines) is analysed game after game, unless
``--game`` picks one (JSON: one object a game; pictures ``DIR/centers-ID.svg``), with a
summary line at the end.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ..core.errors import quote
from ..core.results import Limits, stop_requested
from .interrupt import cooperative
from .options import (UserError, add_json, add_nodes, add_power, add_seed, add_threats, add_time_limit,
                      add_variant, check_threats, is_record, read_text, record_variant, source_name,
                      warn_skipped)
from .output import Outputs
from .progress import Progress
from .tables import fold_table

_DESCRIPTION = __doc__.split("\n\n", 2)[2].replace("``", "") if __doc__ else ""


def register(subparsers: Any) -> None:
    """Add ``analyze`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "analyze", help="check a game record's adjudication and weigh each power's orders against dipsolve's",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="GAME.json",
                   help="a game record: the diplomacy package's saved-game JSON (one game, or JSON lines)")
    p.add_argument("--game", metavar="ID", help="for a record of several games: the game's id or index "
                                              "(0: the first); default: every game, one after the other")
    add_power(p, help="weigh only this power's orders (default: every power)")
    add_time_limit(p, 1.0, help="seconds dipsolve's search takes for each power and movement phase (default 1)")
    add_nodes(p, "dipsolve's search of each power and movement phase")
    add_seed(p, help="the seed of every random choice of dipsolve's search in each phase")
    p.add_argument("--adjudication-only", action="store_true",
                   help="only re-adjudicate the phases (no search: fast, for many records)")
    add_threats(p, "instead of weighing the orders")
    add_variant(p)
    p.add_argument("--agreements", action="store_true",
                   help="instead of weighing the orders: the agreements made in the record's DAIDE "
                        "press (proposals and their answers), each checked against the orders of every "
                        "phase (kept, broken, not tested), and each power's violations (with --power: "
                        "that power's agreements only)")
    add_json(p, help="print the whole report as one JSON object")
    p.add_argument("--render", dest="render_dir", metavar="DIR",
                   help="draw the center counts per power over the game into DIR/centers.svg and .png")
    p.add_argument("--html", metavar="OUT.html",
                   help="also write the game as one HTML page (as dipsolve view) with dipsolve's "
                        "suggested orders beside the played ones")
    p.set_defaults(func=cmd_analyze, stops_by_itself=True)


def cmd_analyze(args: argparse.Namespace) -> int:
    from ..io.game import Game
    from ..io.records import pick, read_records
    text, name = read_text(args.file), source_name(args.file)
    if not is_record(text):
        raise UserError("not a game record: analyze reads the diplomacy package's saved-game JSON",
                        filename=name)
    if args.threats is not None and args.adjudication_only:
        raise UserError("--threats and --adjudication-only: pick one (--threats re-adjudicates too)")
    check_threats(args)
    records = read_records(text, name, record_variant(args))
    if args.game is not None or len(records) == 1:
        records = [pick(records, args.game, name)]
    warn_skipped(records, name)
    # each game read as a `Game` (its history), analysed as the record it writes
    records = [Game.from_record(r).record for r in records]
    outputs = Outputs()                 # every picture, checked before any work
    stems = {record.id: "centers" if len(records) == 1 else f"centers-{_safe(record.id)}"
             for record in records}
    if args.html:
        if len(records) > 1:
            raise UserError("--html draws one game: pick it with --game", filename=name)
        outputs.plan(args.html)
    if args.render_dir:
        for record in records:
            for suffix in PICTURES:
                outputs.plan(os.path.join(args.render_dir, stems[record.id] + suffix), folder=True)
    totals = {"games": 0, "checked": 0, "differences": 0, "unexplained": 0}
    with cooperative():                 # Ctrl-C: the report of what was finished, exit 130
        for record in records:
            if stop_requested():
                break
            with Progress(total=1) as progress:
                def step(what: str, done: int, total: int) -> None:
                    progress.total = max(1, total)
                    head = f"game {quote(record.id)}: " if len(records) > 1 else ""
                    progress.show(f"{head}{what} ({done}/{total})", done=done)
                result = analyze_one(record, args, step)
            _report(args, name, record, result, stems, outputs, totals)
    if len(records) > 1 and not args.json:
        print()
        print(f"# {totals['games']} games: {totals['checked']} phases re-adjudicated, "
              f"{totals['differences']} {'differs' if totals['differences'] == 1 else 'differ'} from the "
              f"record, {totals['unexplained']} not explained "
              f"by any documented quirk")
    return 0


def _report(args: argparse.Namespace, name: str, record: Any, result: Any, stems: dict[str, str],
            outputs: Any, totals: dict[str, int]) -> None:
    """Print one game's report (and draw its chart, unless the analysis was cut short)."""
    pictures = (_render(args.render_dir, result, stems[record.id], outputs)
                if args.render_dir and not result.interrupted else [])
    if args.html and not result.interrupted:
        from ..io.pictures_html import game_html
        outputs.put(args.html, game_html(record, result).encode("utf-8"))
        pictures += outputs.commit()
    if args.json:
        print(json.dumps({"file": name, **result.to_json(), "time_limit": _time_limit(args),
                          "nodes": args.nodes, "limit": "time" if args.nodes is None else "nodes",
                          "pictures": pictures}))
    else:
        if totals["games"]:
            print()
        print(report_text(name, result, _time_limit(args), pictures, nodes=args.nodes, power=args.power))
    totals["games"] += 1
    totals["checked"] += len(result.checks)
    totals["differences"] += len(result.differences)
    totals["unexplained"] += len(result.unexplained)


def analyze_one(record: Any, args: argparse.Namespace, step: Any) -> Any:
    from ..analysis import analyze
    limits = Limits(time_limit=_time_limit(args), seed=args.seed, nodes=args.nodes)
    return analyze(record, [args.power] if args.power else None, limits=limits,
                   on_step=step, check_only=args.adjudication_only, threats=args.threats,
                   threat_years=args.threat_years, agreements=args.agreements)


def _time_limit(args: argparse.Namespace) -> float:
    """--time-limit, or with --threats and no --time-limit given, `THREAT_LIMITS`' ten seconds."""
    if args.threats is not None and not getattr(args, "time_limit_given", False):
        from ..analysis import THREAT_LIMITS
        return THREAT_LIMITS.time_limit
    return float(args.time_limit)


def report_text(name: str, result: Any, time_limit: float, pictures: list[str],
                nodes: int | None = None, power: str | None = None) -> str:
    """The report of one game, for people (``nodes``: the searches' node limit, if any;
    ``power``: the agreements of that power only)."""
    from ..analysis import EXPLANATIONS, QUIRKS
    record = result.record
    names = record.names
    lines = [f"# {name}: game {quote(record.id)}, {len(names)} phases ({names[0]} to {names[-1]})"]
    if result.interrupted:
        lines.append(f"# interrupted: the report of the {len(result.checks)} phases checked and "
                     f"the {sum(map(len, result.moves.values()))} searches finished before the stop")
    diffs, unexplained = result.differences, result.unexplained
    head = f"adjudication: {len(result.checks)} phases re-adjudicated; "
    if not diffs:
        lines.append(head + "dipsolve gives the record's next board in every one")
    else:
        named = {q for c in diffs for q in c.quirks}
        tail = ("all explained by the peer's documented quirks" if not unexplained and named <= set(QUIRKS)
                else "all explained by documented quirks and record conventions" if not unexplained
                else f"{len(unexplained)} not explained by any documented quirk")
        lines.append(head + f"{len(diffs)} {'differs' if len(diffs) == 1 else 'differ'} from the record, {tail}")
        for c in diffs:
            why = "; ".join(EXPLANATIONS[q] for q in c.quirks) if c.quirks else "no documented quirk"
            lines.append(f"  {c.phase}: {'' if c.explained else 'UNEXPLAINED: '}{why}")
            lines += [f"      {line}" for line in c.differences]
    for power in result.moves:
        limit = f"{time_limit:g} s" if nodes is None else f"{nodes} nodes"
        lines += ["", f"## {power} (dipsolve's orders: agenda search, {limit} a phase)",
                  fold_table(["phase", "played", "dipsolve's", "value lost"], result.table_rows(power),
                             right={3}),
                  result.table_summary(power)]
    if result.threats is not None:
        lines += ["", *threats_text(result.threats, time_limit, nodes)]
    if result.agreements is not None:
        lines += ["", *agreements_text(result.agreements, power)]
    lines += [f"# wrote {path}" for path in pictures]
    return "\n".join(lines)


_MODELS = {"none": "the others' units off the board", "hold": "the others' units holding",
           "supported": "the others' units holding and supporting each other's holds"}


def threats_text(threats: Any, time_limit: float, nodes: int | None = None) -> list[str]:
    """The solo-threat table: a row a Fall, a column a power, the fewest game years."""
    limit = f"{time_limit:g} s" if nodes is None else f"{nodes} nodes"
    lines = [f"## solo threats: the fewest game years to {threats.target} centers from each Fall, "
             f"against {_MODELS[threats.opposition]}, looking {threats.years} years ahead ({limit} an answer)",
             fold_table(["phase", *threats.powers], threats.table_rows(), right=set(range(1, 8))),
             f"  (3: proven; ≤3: a plan, not proven fewest; ≥3: no plan yet, none shorter; "
             f"-: none within {threats.years} years, proven)"]
    lines += [f"  {line}" for line in threats.summary()] or ["  nobody can reach a solo within the years looked at"]
    return lines


def agreements_text(ledger: Any, power: str | None = None) -> list[str]:
    """The agreements of a game's press (`dipsolve.agreements.Agreements`): a table, a row
    an agreement, then each power's violations (``power``: its agreements only)."""
    shown = [a for a in ledger if power is None or power in a.parties]
    whose = f" {power} is a party to" if power else ""
    if not ledger.daide:
        said = (f"none of the record's {ledger.messages} messages is DAIDE press" if ledger.messages
                else "the record has no press")
        return [f"## agreements: none ({said})"]
    counted = f"{len(shown)} of the {len(ledger)}" if power else f"{len(ledger)}"
    lines = [f"## agreements{whose}: {counted} proposed in the DAIDE press ({ledger.daide} of "
             f"{ledger.messages} messages), checked against the orders of {len(ledger.checked)} phases"]
    if shown:
        lines.append(fold_table(["#", "agreement", "proposer", "parties", "state", "checks"],
                                [(str(a.id), a.text, a.proposer, list(a.parties),
                                  f"{a.state.value} {a.changes[-1].phase}", _checks_cell(a)) for a in shown],
                                right={0}))
    violations = ledger.violations()
    powers = [p for p in ledger.parties if power is None or p == power]
    lines.append(f"## violations{' of ' + power if power else ', per power'}")
    if not powers:
        lines.append("(no power is a party to an agreement)")
    for p in powers:
        broke = violations.get(p, [])
        bound = sum(p in a.bound and a.checks != () for a in ledger)
        if not broke:
            lines.append(f"{p}: none (bound by {bound} agreement{'' if bound == 1 else 's'} in force)")
            continue
        lines.append(f"{p}: {len(broke)} violation{'' if len(broke) == 1 else 's'}")
        lines += [f"  {v.line()}" for v in broke]
    if powers:
        from ..agreements import Trust
        trust = Trust.from_agreements(ledger)
        lines.append("## trust at the end (the mean of Beta(2 + agreements kept, 1 + broken); never tested: 2/3)")
        lines += [f"{p}: {trust.of(p):.2f} (kept {trust.kept.get(p, 0):g}, broke {trust.broken.get(p, 0):g})"
                  for p in powers]
    return lines


def _checks_cell(a: Any) -> str:
    """An agreement's checks in a few words: how many phases kept it and did not test
    it, and the phase that broke it."""
    if not a.checks:
        return "-"
    counts = {v: sum(c.verdict.value == v for c in a.checks) for v in ("kept", "not tested")}
    parts = [f"{v} {n}" for v, n in counts.items() if n]
    parts += [f"broken {c.phase}" for c in a.checks if c.verdict.value == "broken"]
    return ", ".join(parts)


def _safe(text: str) -> str:
    """A game's id as part of a file name."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "game"


#: the pictures ``--render DIR`` draws of each game
PICTURES = (".svg", ".png")


def _render(folder: str, result: Any, stem: str, outputs: Any) -> list[str]:
    """Draw one game's chart as SVG and PNG, written together (or neither) now: the
    report that follows names them."""
    from ..io.pictures import picture_bytes
    from ..io.pictures_chart import centers_chart_svg
    svg = centers_chart_svg(result.record.names, result.centers,
                            title=f"Supply centers: game {result.record.id}")
    for suffix in PICTURES:
        path = os.path.join(folder, stem + suffix)
        outputs.put(path, picture_bytes(path, svg))
    return list(outputs.commit())
