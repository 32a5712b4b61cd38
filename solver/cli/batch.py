"""``dipsolve batch``: solve, adjudicate or analyse many inputs, one JSON line each in a
results file as they finish; resumable, on local processes or on Ray.

    dipsolve batch INPUT... -o RESULTS.jsonl [--task solve|adjudicate|analyze]
                   [--power P] [--time-limit S] [--method M] [--evaluation E]
                   [--opponents O] [--jobs N] [--ray [ADDRESS]] [--json]

An INPUT is a position file (``.dip``, DAIDE ``NOW``/``SCO``), a folder (its position
and ``.json``/``.jsonl`` files, gzipped too), a glob (``'games/*.json'``), a file of JSON lines of
positions (``{"id": ..., "position": "<.dip text>"}``), or game records (the
``diplomacy`` package's saved-game JSON): every phase of every game is one input of
``solve`` and ``adjudicate``, every game one input of ``analyze``.

Every input has an id (its file; ``FILE:LINE`` or the line's ``id``; ``FILE#GAME:PHASE``)
and one line in RESULTS, appended as it finishes (`dipsolve.execution.journal`):
``{"id", "status", "attempts", "result" | "error"}`` with status ``ok``, ``error`` (the
input is bad: the error as ``--json`` gives it) or ``failed`` (its worker died twice, or
dipsolve failed on it).  Rerunning the same command skips every input with a line
(``failed`` ones are tried again).  RESULTS may be a pipe (a FIFO, ``-``): each line is
written to its reader as it finishes, and nothing is resumed; a pipe that nobody reads
is refused before any work (`dipsolve.cli.output.open_journal`).  The jobs run by `dipsolve.execution`: here, in
``--jobs`` local processes, or on Ray (``--ray``).  Exit status: 0 when every input is
``ok``, 2 when one is a bad input, 1 when one failed; Ctrl-C keeps every line written
(exit 130).

Time: ``--time-limit`` (default 5 s) bounds the search of each input of ``solve``, and
of each power in each movement phase of ``analyze``: a game of 20 movement phases is
up to 140 searches (7 powers), 12 minutes at most at the default
(``--adjudication-only``: seconds).  The run says its plan on stderr first (the inputs,
how many at once, the search time at most); then, on a terminal, a progress bar (in
this process: the phase and power at work), elsewhere a line as each input starts and
as it finishes.  Under ``--json``, no progress (``DIPSOLVE_PROGRESS=always`` shows it).
"""

from __future__ import annotations

import argparse
import functools
import glob
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..core.bounds import loads_json
from ..core.errors import DipsolveError, DipsolveLimitError
from ..core.results import Limits
from .interrupt import cooperative
from .options import (METHODS, OPPONENT_MODELS, UserError, add_evaluation, add_json, add_power,
                      add_nodes, add_ray, add_seed, add_time_limit, add_variant, integer, is_record,
                      load_kernel, record_variant,
                      range_help, read_text, source_name, warn_skipped)

if TYPE_CHECKING:
    from ..execution import Done

_DESCRIPTION = __doc__.split("\n\n", 2)[2].replace("``", "") if __doc__ else ""

#: the tasks of a batch
TASKS = ("solve", "adjudicate", "analyze")
#: the files a folder given as INPUT contributes
SUFFIXES = (".dip", ".daide", ".json", ".jsonl", ".json.gz", ".jsonl.gz")
#: how a results file (`dipsolve.execution.journal`) starts
RESULTS_HEAD = '{"dipsolve": "results"'


def register(subparsers: Any) -> None:
    """Add ``batch`` to the ``dipsolve`` subcommands."""
    p = subparsers.add_parser(
        "batch", help="solve, adjudicate or analyse many inputs into a resumable results file",
        description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a position file, a folder, a glob, JSON lines of positions, or game records")
    p.add_argument("-o", "--output", required=True, metavar="RESULTS",
                   help="the results file (JSON lines), appended to as inputs finish; a rerun "
                        "with the same settings skips what it holds")
    p.add_argument("--task", choices=TASKS, default="solve",
                   help="solve (dipsolve solve on each input: default), adjudicate (the "
                        "input's orders), analyze (whole game records: dipsolve analyze)")
    add_power(p, help="solve/analyze: only this power (default: every power)")
    add_time_limit(p, 5.0, help="solve: seconds an input (shared among its powers); analyze: "
                                "seconds a power and movement phase, for each one (default 5)")
    add_nodes(p, "the search of an input (solve: shared among its powers) or of a power and "
                 "movement phase (analyze)")
    add_seed(p, help="solve and analyze: the seed of every random choice of the search")
    p.add_argument("--method", choices=METHODS, default="agenda", help="solve: the search (default: agenda)")
    add_evaluation(p, help="solve: how positions are judged")
    p.add_argument("--opponents", choices=OPPONENT_MODELS,
                   help="solve: the opponent model (see dipsolve solve --help)")
    p.add_argument("--adjudication-only", action="store_true",
                   help="analyze: only re-adjudicate each game's phases (no search)")
    p.add_argument("--jobs", type=integer, metavar="N",
                   help=f"inputs worked on at once (default 1, here; with --ray: this machine's "
                        f"cores); more than 1: one process each ({range_help('jobs')})")
    add_ray(p)
    add_variant(p)
    add_json(p, help="print the summary as one JSON object")
    p.set_defaults(func=cmd_batch, stops_by_itself=True)


def make_executor(args: argparse.Namespace) -> Any:
    """The backend of ``--jobs`` and ``--ray`` (`dipsolve.execution.executor`)."""
    from ..execution import executor
    jobs = args.jobs if args.jobs is not None else (
        min(os.cpu_count() or 1, 64) if args.ray == "local" else 1)
    return executor(jobs, args.ray)


# -- the inputs ----------------------------------------------------------------------------

def _files(inputs: list[str], results: str) -> list[tuple[str, bool]]:
    """Every file the INPUT arguments name, and whether it was named itself: files as
    given, folders' files, globs (the results file itself left out)."""
    out: list[tuple[str, bool]] = []
    mine = os.path.realpath(results)
    for item in inputs:
        if os.path.isdir(item):
            found = sorted(os.path.normpath(os.path.join(item, n)) for n in os.listdir(item)
                           if n.endswith(SUFFIXES) and os.path.isfile(os.path.join(item, n))
                           and os.path.realpath(os.path.join(item, n)) != mine)
            if not found:
                raise UserError(f"no input in it (expected files ending {', '.join(SUFFIXES)})",
                                filename=item)
            out += [(f, False) for f in found]
        elif not os.path.lexists(item) and glob.has_magic(item):
            found = sorted(f for f in glob.glob(item)
                           if os.path.isfile(f) and os.path.realpath(f) != mine)
            if not found:
                raise UserError(f"{item!r}: no file matches")
            out += [(f, False) for f in found]
        else:
            out.append((item, True))
    return out


def _position_lines(text: str, name: str) -> Iterator[tuple[str, Any]] | None:
    """The inputs of a file of JSON lines of positions, or None if it is no such file."""
    lines = text.split("\n")
    first = next((ln for ln in lines if ln.strip()), "")
    try:
        head = loads_json(first, name)
    except (json.JSONDecodeError, DipsolveLimitError):
        return None
    if not isinstance(head, dict) or "position" not in head:
        return None

    def items() -> Iterator[tuple[str, Any]]:
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                obj = loads_json(line, name)
            except json.JSONDecodeError as e:
                err = UserError(f"not a JSON object ({e.msg}); expected "
                                f"{{\"id\": ..., \"position\": \"...\"}} a line",
                                filename=name, line=n, column=e.colno)
                yield f"{name}:{n}", ("bad", err)
                continue
            except DipsolveLimitError as e:          # a number of 5,000 digits, nesting too deep
                yield f"{name}:{n}", ("bad", e)
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("position"), str):
                yield f"{name}:{n}", ("bad", UserError("expected {\"id\": ..., \"position\": \"...\"}",
                                                       filename=name, line=n, column=1))
                continue
            key = obj.get("id")
            yield (str(key) if key is not None else f"{name}:{n}",
                   ("text", f"{name}:{n}", obj["position"], obj.get("orders")))
    return items()


def inputs(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """``(id, item)`` for every input: an item is what a worker needs (`run_job`); a file
    that cannot be read or is no input at all is an item ``("bad", error)``."""
    out: list[tuple[str, Any]] = []
    for path, named in _files(args.inputs, args.output):
        name = source_name(path)
        try:
            text = read_text(path)
            if text.startswith(RESULTS_HEAD):
                if not named:
                    continue            # another run's results, in a folder of inputs
                raise UserError("a dipsolve results file, not an input", filename=name)
            if not is_record(text):
                if args.task == "analyze":
                    raise UserError("a position file: analyze takes game records (saved-game JSON)",
                                    filename=name)
                out.append((name, ("text", name, text, None)))
                continue
            lines = _position_lines(text, name)
            if lines is not None:
                if args.task == "analyze":
                    raise UserError("positions: analyze takes game records (saved-game JSON)",
                                    filename=name)
                out += list(lines)
                continue
            from ..io.records import read_records
            records = read_records(text, name, record_variant(args))
            warn_skipped(records, name)
            for record in records:
                if args.task == "analyze":
                    out.append((f"{name}#{record.id}", ("record", record)))
                    continue
                for phase in record.phases:
                    if phase.name == "COMPLETED" or (args.task == "adjudicate" and not phase.orders):
                        continue
                    out.append((f"{name}#{record.id}:{phase.name}",
                                ("phase", phase.position, phase.orders_of())))
        except DipsolveError as e:
            out.append((name, ("bad", e)))
    seen: dict[str, int] = {}
    for key, _ in out:
        seen[key] = seen.get(key, 0) + 1
    twice = [k for k, n in seen.items() if n > 1]
    if twice:
        raise UserError(f"two inputs with the id {twice[0]!r}: every input needs its own (a file "
                        f"given twice, or two lines with one \"id\")")
    return out


# -- one job, in a worker ------------------------------------------------------------------

def settings_of(args: argparse.Namespace) -> dict[str, Any]:
    """Every setting that changes an answer: the run a results file belongs to."""
    keep = {"task": args.task, "power": args.power, "time_limit": args.time_limit, "seed": args.seed,
            **({"nodes": args.nodes} if args.nodes is not None else {}),
            **({"variant": args.variant} if args.variant != "standard" else {})}
    if args.task == "solve":
        keep.update(method=args.method, evaluation=args.evaluation, opponents=args.opponents)
    if args.task == "analyze":
        keep.update(adjudication_only=args.adjudication_only)
    return {"command": "batch", **keep}


#: ``on_step(what, done, total)``: how far one input's work is (`dipsolve.analysis.analyze`'s)
Step = Callable[[str, int, int], None]


def run_job(job: tuple[dict[str, Any], Any], on_step: Step | None = None) -> dict[str, Any]:
    """One input's result line (without its id): ``{"status": "ok", "result": ...}``, or
    ``{"status": "error", "error": {...}}`` for a bad input.  Runs in a worker (in this
    process, ``on_step`` hears how far the input's work is)."""
    settings, item = job
    from ..core import kernel
    kernel.load()               # once a worker process, before its first search's clock
    try:
        return {"status": "ok", "result": _answer(settings, item, on_step)}
    except DipsolveError as e:
        return {"status": "error", "error": e.to_json()}


def _answer(settings: dict[str, Any], item: Any, on_step: Step | None = None) -> dict[str, Any]:
    kind = item[0]
    if kind == "bad":
        raise item[1]
    if kind == "record":
        from ..analysis import analyze
        power = settings["power"]
        limits = Limits(time_limit=settings["time_limit"], seed=settings.get("seed", 0),
                        nodes=settings.get("nodes"))
        return analyze(item[1], [power] if power else None, limits=limits, on_step=on_step,
                       check_only=settings.get("adjudication_only", False)).to_json()
    if kind == "text":
        from ..core.variant_files import find_variant
        from ..grammar import parse_orders, parse_position_text
        _, name, text, orders_text = item
        position, orders = parse_position_text(text, name,
                                               game_map=find_variant(settings.get("variant", "standard")).map)
        if orders_text is not None:
            if not isinstance(orders_text, str):
                raise UserError("\"orders\": expected a string of 'Power: order' lines", filename=name)
            orders = {}
            for p, order in parse_orders(orders_text, f"{name} (orders)", position=position):
                orders.setdefault(p, []).append(order)
    else:
        _, position, orders = item
        name = None
    if settings["task"] == "adjudicate":
        from ..core.adjudicator import adjudicate
        from .adjudicate import outcome_json
        out = outcome_json(name or "", adjudicate(position, orders))
        del out["file"]
        return out
    return _solve(settings, position, on_step)


def _solve(settings: dict[str, Any], position: Any, on_step: Step | None = None) -> dict[str, Any]:
    from ..api import solve
    from ..search.strategy import named
    from .solve import _powers
    powers = _powers(position, settings["power"])
    share = settings["time_limit"] / max(1, len(powers))
    nodes = settings.get("nodes")
    chosen = named(settings["method"], settings["opponents"], settings["evaluation"])
    limits = Limits(time_limit=share, seed=settings.get("seed", 0),
                    nodes=None if nodes is None else max(1, nodes // max(1, len(powers))))
    solutions = []
    for i, p in enumerate(powers):
        if on_step is not None:
            on_step(f"solving {p}", i, len(powers))
        obj = solve(position, p, chosen, limits=limits).to_json()
        obj.pop("trace", None)
        solutions.append(obj)
    return {"phase": position.phase.short, "solutions": solutions}


# -- the run -------------------------------------------------------------------------------

def line_of(done: Done) -> dict[str, Any]:
    """The results file's line of one finished job."""
    if done.ok:
        return {"id": done.key, **done.value, "attempts": done.attempts}
    return {"id": done.key, "status": "failed", "attempts": done.attempts,
            "error": {"error": "failed", "message": done.error}}


def cmd_batch(args: argparse.Namespace) -> int:
    from .output import check_destination, open_journal
    check_destination(args.output)      # a bad -o fails before any input is read
    items = inputs(args)
    settings = settings_of(args)
    counts = {"ok": 0, "error": 0, "failed": 0}
    with open_journal(args.output, settings) as journal:
        if journal.cut:
            print(f"dipsolve: {args.output}: cut off a line torn by an earlier run "
                  f"({journal.cut} bytes); its input is run again", file=sys.stderr)
        todo = [(key, (settings, item)) for key, item in items if key not in journal.done]
        skipped = len(items) - len(todo)
        if todo and settings["task"] != "adjudicate":
            load_kernel()   # the searches' kernel, here (compiled once, if need be) and in run_job
        with cooperative():
            status, backend = _run(args, journal, todo, skipped, len(items), counts)
    summary = {"results": args.output, "inputs": len(items), "skipped": skipped,
               **counts, "backend": backend, "status": status}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{len(items)} inputs: {skipped} already in {args.output}, {counts['ok']} ok, "
              f"{counts['error']} bad input, {counts['failed']} failed ({backend})"
              + ("; interrupted" if status == "interrupted" else ""))
    return 2 if counts["error"] else 1 if counts["failed"] else 0


def _run(args: argparse.Namespace, journal: Any, todo: list[tuple[str, Any]], skipped: int,
         total: int, counts: dict[str, int]) -> tuple[str, str]:
    """Run the inputs left to do, each line appended as it finishes.  The progress, on
    stderr (none under ``--json``): first the run's plan (`plan_line`); then on a
    terminal a bar (inputs done, the input at work and, in this process, how far it is),
    elsewhere (a log, a pipe) a line as each input starts and as it finishes."""
    from ..core.results import Stopped
    from ..execution import InProcess
    if not todo:
        return "finished", "nothing to run"
    from .progress import Progress, silenced
    bar = Progress(total=total)
    log = not bar.live and not silenced()
    finished, started = skipped, skipped
    began: dict[str, float] = {}
    current, at_work = "", ""           # the input last started; what the bar says of the work

    def say(text: str) -> None:
        bar.clear()
        print(f"dipsolve: {text}", file=sys.stderr, flush=True)

    def show() -> None:
        bar.show(f"{args.task} {finished}/{total} inputs" + (f"; {at_work}" if at_work else ""),
                 done=finished)

    def on_start(key: str) -> None:
        nonlocal started, current, at_work
        current, at_work = key, os.path.basename(key)
        if key in began:
            return                      # run again after its worker died: on_retry said so
        began[key] = time.monotonic()
        started += 1
        if log:
            say(f"batch: started {started}/{total}: {key}")
        show()

    def on_step(what: str, done: int, steps: int) -> None:
        nonlocal at_work
        at_work = f"{what} ({done}/{steps}) of {os.path.basename(current)}"
        show()

    def on_done(done: Done) -> None:
        nonlocal finished, at_work
        line = line_of(done)
        journal.append(line)
        counts[line["status"]] += 1
        finished += 1
        at_work = ""
        took = time.monotonic() - began.get(done.key, time.monotonic())
        if log:
            say(f"batch: finished {finished}/{total}: {done.key}: {line['status']} ({duration(took)})")
        if line["status"] != "ok":
            what = line["error"].get("message", "")
            say(f"{done.key}: {line['status']}: {what.splitlines()[0] if what else ''}")
        show()

    def on_retry(key: str, reason: str) -> None:
        say(f"{key}: its worker died ({reason}); running it again")

    try:
        with make_executor(args) as ex:
            backend = f"{ex.name}, {ex.workers} at once"
            if not silenced():
                say(plan_line(args, todo, skipped, ex))
            show()
            # in this process, the input's own steps reach the bar (a worker's cannot)
            here = isinstance(ex, InProcess) and bar.live
            fn = functools.partial(run_job, on_step=on_step) if here else run_job
            try:
                ex.run(fn, todo, on_done, on_retry, on_start=on_start)
            except Stopped:
                return "interrupted", backend
    finally:
        bar.close()
    return "finished", backend


def plan_line(args: argparse.Namespace, todo: list[tuple[str, Any]], skipped: int, ex: Any) -> str:
    """What the run will do, and how long its searches take in all: ``--time-limit``
    seconds an input (solve), or a power and movement phase of each game (analyze)."""
    head = (f"batch: {args.task} {len(todo)} input{'s' if len(todo) != 1 else ''}"
            + (f" ({skipped} already in {args.output})" if skipped else "")
            + f", {ex.workers} at once ({ex.name})")
    limit = args.time_limit
    if args.task == "solve":
        searching = limit * sum(1 for _, (_, item) in todo if item[0] != "bad")
        return head + (f": at most {limit:g} s an input (--time-limit), "
                       f"{duration(searching / ex.workers)} of search at most in all")
    if args.task == "analyze" and not args.adjudication_only:
        from ..analysis import searches
        powers = [args.power] if args.power else None
        count = sum(len(searches(item[1], powers)) for _, (_, item) in todo if item[0] == "record")
        return (head + f": {count} searches of at most {limit:g} s (one a power and movement "
                f"phase: --time-limit), {duration(count * limit / ex.workers)} of search at most in all")
    return head


def duration(seconds: float) -> str:
    """A span of time for people: ``0.4 s``, ``12 s``, ``2 min 51 s``, ``1 h 5 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"
