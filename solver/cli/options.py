"""The options and readers the commands share: ``--json``, ``--time-limit``, ``--nodes``, ``--power``,
``--evaluation``, ``--render``, ``--phase``; `read_text`, `load`, `load_orders`,
`write_render`, `write_file`; `load_kernel`; the
command line's errors (`UserError`, `FileError`, `UsageError`).

Each ``add_*`` function adds one option to a command's parser; `check` validates every
shared option once, after parsing and before any work (`dipsolve.cli.main` calls it), so
that each is checked the same way, with the same message, in every command:

- every number (``--time-limit``, ``--nodes``, ``--scale``, ``--level``, ``--workers``, ``--jobs``,
  ``--games``, ``--samples``, ``--beam``, ``--seed``; `NUMBERS`): within its bound of
  `dipsolve.core.bounds` (one validator: finite, in range; NaN and infinity refused), its
  digits counted before it is converted (`integer`, `number`);
- ``--variant NAME|FILE``: one of `VARIANTS` or a variant or map file, read into
  ``args.game_variant`` (the game whose map every position and name is read on; and,
  given, the one a game record must name: `record_variant`);
- ``--power P``: a power's name or DAIDE token on that map, replaced by the power's name;
- ``--evaluation NAME``: one of `EVALUATIONS` (``--evaluator`` is its old spelling);
- ``--render OUT``: a picture format dipsolve writes (``.svg`` or ``.png``);
- ``--ray ADDRESS``: not a file on disk (an input the parser took for the address);
- ``--nodes N`` without ``--time-limit``: the time limit, its safety net, made long
  enough for the nodes (`NODES_A_SECOND`).

Building the parser imports nothing but this module and `argparse`: the names offered
(`EVALUATIONS`, `METHODS`, ...) are written out here, and ``tests/test_cli.py`` checks
that they are the library's.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..core.bounds import (LIMITS, check_float, check_int, decode_text, gunzip, help_range,
                           limit_error, read_bytes)
from ..core.errors import DipsolveSyntaxError, quote
from ..core.results import WorkClock
from .errors import FileError, UsageError, UserError

#: CP-SAT's nodes a deterministic second under ``--nodes`` (`dipsolve.core.results.WorkClock`)
WORK_NODES = WorkClock.DETERMINISTIC_NODES

if TYPE_CHECKING:
    from ..core.orders import Order
    from ..core.position import Position
    from .output import Outputs

EXIT_USAGE = 2

#: the evaluations (`dipsolve.algorithms.evaluation.EVALUATORS`)
EVALUATIONS = ("influence", "centers")
#: the search methods of ``solve`` (`dipsolve.search.METHODS`) and the opponent models of a
#: dipsolve bot: the bot registry's (a light module)
from ..play.registry import (DIPSOLVE_METHODS as METHODS, OPPONENT_MODELS, SEAT_DEFAULT,  # noqa: E402
                             SEAT_MODELS)
#: how the phase game picks our orders (`dipsolve.search.methods.PICKS`)
PICKS = ("best", "sample")
#: the graph searches of ``path`` (`dipsolve.algorithms.path.ALGORITHMS`, ``ORDERS``, ``GOAL_TESTS``)
PATH_ALGORITHMS = ("bfs", "greedy", "astar")
PATH_ORDERS = ("alphabetical", "armies-first", "abbreviation", "reverse")
PATH_GOAL_TESTS = ("insertion", "removal")
#: who stands in the way of the exact path (`dipsolve.models.path_problem.OPPOSITIONS`)
PATH_OPPOSITIONS = ("none", "hold", "supported")
#: the variants dipsolve ships (`dipsolve.core.variant.VARIANTS`)
VARIANTS = ("standard", "pure", "ancmed")
#: the picture formats (`dipsolve.io.pictures.FORMATS`)
PICTURE_FORMATS = (".svg", ".png")


# -- numbers ----------------------------------------------------------------------------

#: the numeric options of the commands: dest -> (option, bound in `dipsolve.core.bounds.LIMITS`);
#: `check` validates each one a command has, with the one validator of `dipsolve.core.bounds`
NUMBERS = {
    "time_limit": ("--time-limit", "max_seconds"),
    "nodes": ("--nodes", "max_nodes"),
    "scale": ("--scale", "max_pixels"),
    "level": ("--level", "press_levels"),
    "workers": ("--workers", "max_workers"),
    "jobs": ("--jobs", "max_jobs"),
    "games": ("--games", "max_games"),
    "samples": ("--samples", "max_samples"),
    "beam": ("--beam", "max_beam"),
    "seed": ("--seed", "max_seed"),
    "timeout": ("--timeout", "max_seconds"),
}


def _shortened(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:8]}…{text[-4:]} ({len(text)} characters)"


class _TooLong(int):
    """An integer option of more digits than ``max_digits``, never converted: `check`
    refuses it in one line, naming the bound."""

    text = ""


def integer(text: str) -> int:
    """argparse type of the integer options: an integer, its digits counted before it is
    converted (its bound, and the digits of one too long, are checked by `check`)."""
    t = text.strip()
    digits = t.lstrip("+-")
    if digits.isdigit() and len(digits) > LIMITS["max_digits"].value:
        long = _TooLong(0)
        long.text = t
        return long
    return int(t)          # argparse says "invalid integer value: 'many'" for a ValueError


def number(text: str) -> float:
    """argparse type of the float options: a number (NaN, infinity and its bound are
    checked by `check`, so that every float option says the same)."""
    return float(text)     # argparse says "invalid number value: 'x'" for a ValueError


def range_help(dest: str) -> str:
    """The range of a numeric option, for its ``--help``."""
    option, bound = NUMBERS[dest]
    if bound == "max_pixels":
        return f"positive, finite, at most {LIMITS[bound].value:,} pixels in all"
    return help_range(bound) + ("; nan and inf refused" if dest in ("time_limit",) else "")


def check_numbers(args: argparse.Namespace) -> None:
    """Every numeric option of ``args`` within its bound, or a one-line
    `DipsolveLimitError` naming the option and the bound."""
    for dest, value in vars(args).items():
        if isinstance(value, _TooLong):
            option = "--" + dest.replace("_", "-")
            raise limit_error("max_digits", f"{option} {_shortened(value.text)}")
    for dest, (option, bound) in NUMBERS.items():
        value = getattr(args, dest, None)
        if value is None:
            continue
        if bound == "max_pixels":
            from ..core.bounds import check_picture
            from ..io.pictures_board import HEIGHT, WIDTH
            check_picture(WIDTH, HEIGHT, value, option)
        elif isinstance(value, float):
            check_float(value, option, bound)
        else:
            check_int(value, option, bound)


# -- options ----------------------------------------------------------------------------

def add_json(parser: argparse.ArgumentParser,
             help: str = "one JSON object per file (JSON lines)") -> None:
    """``--json``: machine-readable output, and errors as one JSON object on stdout."""
    parser.add_argument("--json", action="store_true", help=help)


class _Given(argparse.Action):
    """Store the value and note that it was given (``args.time_limit_given``): `check`
    lengthens a time limit left at its default to fit ``--nodes``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


#: `--threat-years`: how far ahead a solo threat is looked for (`add_threats`)
THREAT_YEARS = 5
MAX_THREAT_YEARS = 20


def add_threats(parser: argparse.ArgumentParser, lead: str) -> None:
    """``--threats [MODEL]`` and ``--threat-years K``: each power's fewest game years to a
    solo from every Fall of a record (`dipsolve.analysis.solo_threats`; ``analyze``,
    ``view``); ``lead`` says what the option does in this command.  Checked by
    `check_threats`."""
    parser.add_argument("--threats", nargs="?", const="hold", choices=PATH_OPPOSITIONS, metavar="MODEL",
                        help=f"{lead}: each power's fewest game years to 18 centers from every Fall "
                             f"of the game (dipsolve path), against MODEL: hold (default: the "
                             f"others' units hold), supported (they may support each other's "
                             f"holds) or none (they are off the board); each answer within "
                             f"--time-limit seconds (default 10 here), proven or bounded")
    parser.add_argument("--threat-years", type=integer, default=THREAT_YEARS, metavar="K",
                        help=f"with --threats: look no further than K game years ahead (default {THREAT_YEARS})")


def check_threats(args: argparse.Namespace) -> None:
    """Refuse a ``--threat-years`` out of its range (`add_threats`)."""
    if not 1 <= args.threat_years <= MAX_THREAT_YEARS:
        raise UserError(f"--threat-years: {args.threat_years} is not a number of game years, "
                        f"expected 1 to {MAX_THREAT_YEARS}")


def add_time_limit(parser: argparse.ArgumentParser, default: float | None, help: str) -> None:
    """``--time-limit S``: seconds of wall time (checked by `check`)."""
    parser.add_argument("--time-limit", type=number, default=default, metavar="S", action=_Given,
                        help=f"{help} ({range_help('time_limit')})")


#: ``--nodes N`` without ``--time-limit``: the time limit, the safety net, is at least one
#: second for this many nodes (on a loaded two-core machine the agenda search counted
#: 4,000 to 6,000 nodes a second, the phase game with its CP-SAT oracle about 1,000: the
#: nodes run out long before the net)
NODES_A_SECOND = 200


def add_nodes(parser: argparse.ArgumentParser, what: str = "the search of each file") -> None:
    """``--nodes N``: a limit counted in work instead of time (`dipsolve.Limits.nodes`),
    for an answer that repeats exactly; the time limit stays, as a safety net."""
    parser.add_argument(
        "--nodes", type=integer, default=None, metavar="N",
        help=f"stop {what} after N nodes of work instead of at a time (as python-chess's "
             f"Limit(nodes=N)): a node is one step of a search (an order set or position "
             f"judged, an iteration), CP-SAT runs on one worker and counts "
             f"{WORK_NODES:,} nodes a deterministic second; the same command with the same "
             f"--seed then prints the same answer on every run and machine. --time-limit stays "
             f"a safety net (default: the command's, or a second for every {NODES_A_SECOND:,} "
             f"nodes if longer); the status says which came first: 'node limit' or 'timed out' "
             f"({range_help('nodes')})")


def check_nodes(args: argparse.Namespace) -> None:
    """With ``--nodes`` and a time limit left at its default, the time limit (the safety
    net) lengthened to a second for every `NODES_A_SECOND` nodes if that is longer."""
    nodes = getattr(args, "nodes", None)
    if nodes is None or getattr(args, "time_limit", None) is None or getattr(args, "time_limit_given", False):
        return
    args.time_limit = min(LIMITS["max_seconds"].value, max(args.time_limit, nodes / NODES_A_SECOND))


def add_seed(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed K``: the seed of every random choice a command's search makes (the same
    command with the same seed, on one CP-SAT worker, prints the same answer)."""
    parser.add_argument("--seed", type=integer, default=0, metavar="K",
                        help=f"{help} (default 0; {range_help('seed')})")


def add_workers(parser: argparse.ArgumentParser, default: int, help: str) -> None:
    """``--workers N``: CP-SAT's threads (`dipsolve.Limits.workers`)."""
    parser.add_argument("--workers", type=integer, default=default, metavar="N",
                        help=f"{help} (default {default}; {range_help('workers')})")


def add_power(parser: argparse.ArgumentParser, help: str, required: bool = False) -> None:
    """``--power P``: a power's name or DAIDE token (made the power's name by `check`)."""
    parser.add_argument("--power", required=required, metavar="POWER", help=help)


def add_evaluation(parser: argparse.ArgumentParser, help: str) -> None:
    """``--evaluation NAME`` (default influence), and its old spelling ``--evaluator``."""
    parser.add_argument("--evaluation", default="influence", metavar="NAME",
                        help=f"{help}: {', '.join(EVALUATIONS)} (default: influence)")
    parser.add_argument("--evaluator", dest="evaluation", metavar="NAME", help=argparse.SUPPRESS)


def add_render(parser: argparse.ArgumentParser) -> None:
    """``--render OUT``: also draw the command's result (see `write_render`)."""
    parser.add_argument(
        "--render", metavar="OUT",
        help="also draw the result to OUT (.svg or .png; '{stem}' in OUT is replaced by "
             "each input file's name, for several files); see `dipsolve render --help`")


def add_ray(p: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: the jobs on Ray (`dipsolve.execution.ray_cluster`): ``play``, ``batch``."""
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="run the jobs on Ray (pip install 'dipsolve[cluster]'): alone, a local "
                        "Ray started for the run with --jobs CPUs; with ADDRESS (ray://HOST:10001, "
                        "HOST:6379, auto), an existing cluster with dipsolve installed on every "
                        "node (write --ray=ADDRESS before the inputs); see docs/cluster.md")


def check_ray(value: str | None) -> None:
    """Refuse an ``--ray`` value that is an input the parser took for an address."""
    if value is not None and value != "local" and os.path.exists(value):
        raise UserError(f"--ray {value!r}: a file, not a Ray address (write --ray=ADDRESS, or put "
                        f"--ray after the inputs)")


def add_variant(parser: argparse.ArgumentParser, records: bool = True) -> None:
    """``--variant NAME|FILE``: the game whose map the command's positions, orders and
    powers are read on (`check` reads it into ``args.game_variant``); for a command that
    reads game records (``records``), also the map file a record's game was played on
    (`record_variant`)."""
    also = (" A game record names its own variant: give --variant FILE for a game played "
            "on a map or variant file (the record names the file: small.map)") if records else ""
    parser.add_argument("--variant", metavar="NAME|FILE", default="standard", action=_Given,
                        help=f"the variant: its map, powers, start and victory; one of "
                             f"{', '.join(VARIANTS)} (default standard), or a variant file "
                             f"(.variant) or a map file of the diplomacy package's format (.map), "
                             f"whose MAP/USE files are read from its own folder.{also}")


def record_variant(args: argparse.Namespace | None) -> Any:
    """The variant a game record is read on (`dipsolve.io.records.read_records`):
    ``--variant``'s when it was given (the record must name it), else None (the record's
    own ``"map"``, one of the variants dipsolve ships)."""
    return variant_of(args) if getattr(args, "variant_given", False) else None


def variant_of(args: argparse.Namespace | None) -> Any:
    """The `dipsolve.core.variant.Variant` ``--variant`` named (read by `check`), or the
    standard game's when the command has no such option."""
    chosen = getattr(args, "game_variant", None)
    if chosen is None:
        from ..core.variant import variant
        chosen = variant("standard")
    return chosen


def check_variant(args: argparse.Namespace) -> None:
    """Read ``--variant`` into ``args.game_variant``, or `UserError` naming the variants."""
    text = getattr(args, "variant", None)
    if not isinstance(text, str) or hasattr(args, "game_variant"):
        return
    from ..core.variant_files import find_variant
    try:
        args.game_variant = find_variant(text)
    except DipsolveSyntaxError as e:
        if e.filename:
            raise
        raise UserError(f"--variant {text!r}: {e.message}") from None


def check(args: argparse.Namespace) -> None:
    """Validate the shared options in ``args`` (those its command has), before any work."""
    check_numbers(args)
    check_nodes(args)
    check_variant(args)
    if getattr(args, "power", None) is not None:
        args.power = power(args.power, game_map=variant_of(args).map)
    if getattr(args, "evaluation", None) is not None and args.evaluation not in EVALUATIONS:
        raise UserError(f"--evaluation {args.evaluation!r}: unknown evaluation "
                        f"(expected one of {', '.join(EVALUATIONS)})")
    check_render_path(getattr(args, "render", None))
    check_ray(getattr(args, "ray", None))


def power(text: str, option: str = "--power", game_map: Any = None) -> str:
    """The power of ``game_map`` (the standard map when None) ``text`` names (``TUR``,
    ``turkey``: ``Turkey``), or `UserError` naming the closest (`dipsolve.core.names`:
    the library's own check says the same)."""
    from ..core.map import power_name
    from ..core.names import unknown_power
    name = power_name(text, game_map)
    if name is None:
        raise UserError(f"{option}: {unknown_power(text, game_map)}")
    return name


def check_render_path(path: str | None) -> None:
    """Raise `UserError` now (before any work) if ``path`` names an unknown picture format."""
    suffix = os.path.splitext(path)[1] if path else ""
    if path and suffix.lower() not in PICTURE_FORMATS:
        raise UserError(f"unknown picture format {suffix or '(no suffix)'!r} "
                        f"(expected .svg or .png)", filename=path)


def render_path(args: argparse.Namespace, source: str | None = None) -> str | None:
    """The file ``--render`` draws ``source``'s result to ('{stem}' replaced), or None."""
    template = getattr(args, "render", None)
    if not template:
        return None
    if source is None:
        return template
    stem = "stdin" if source == "-" else os.path.splitext(os.path.basename(source))[0]
    return template.replace("{stem}", stem)


def plan_render(args: argparse.Namespace, outputs: "Outputs", sources: Iterable[str]) -> None:
    """Check ``--render``'s file for each input now, before any work
    (`dipsolve.cli.output.Outputs.plan`: two inputs drawn to one file are refused)."""
    for source in sources:
        path = render_path(args, source)
        if path:
            outputs.plan(path)


def write_render(args: argparse.Namespace, subject: Any,
                 orders: Mapping[str, Iterable["Order"]] | None = None, *,
                 source: str | None = None, outputs: "Outputs | None" = None) -> str | None:
    """Honour ``--render`` if it was given: draw ``subject`` (a Position with optional
    ``orders``, an Outcome, or a replayed plan) for `output.Outputs` to write with the
    run's other files (``outputs``), or now.  Returns the path, or None."""
    path = render_path(args, source)
    if not path:
        return None
    from ..io.pictures import picture_bytes, svg_for
    from .output import Outputs
    data = picture_bytes(path, svg_for(subject, orders))
    if outputs is None:
        one = Outputs()
        one.put(path, data)
        one.commit()
    else:
        outputs.put(path, data)
    return path


def write_file(path: str, data: str | bytes) -> None:
    """Write one finished result to ``path`` now, whole or not at all, through the one
    writer (`dipsolve.cli.output`: ``PATH: cannot write: REASON`` on any error), even
    after Ctrl-C: it is complete (a game played to its end, saved as it ends).  A command
    whose files hold an answer the signal may cut short plans them with
    `dipsolve.cli.output.Outputs` instead."""
    from .output import Outputs
    one = Outputs()
    one.put(path, data)
    one.commit(finished=True)


# -- reading ----------------------------------------------------------------------------

#: standard input is read at most once a run (a second ``-`` would find it empty)
_STDIN_READ: list[bool] = []


def source_name(path: str) -> str:
    """The name errors give the input ``path``: ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else path


def read_text(path: str) -> str:
    """The text of the file at ``path``, or of standard input for ``-``: UTF-8 with or
    without a byte-order mark, any line ends (LF, CRLF, CR: read as LF), at most
    ``max_file_bytes`` of it (`dipsolve.core.bounds`), gzip data decompressed (within
    the same bound); a `FileError` that names it when it cannot be read."""
    if path == "-":
        if _STDIN_READ:
            raise FileError("standard input can be read once: give '-' for one input only",
                            filename="<stdin>")
        _STDIN_READ.append(True)
        limit = int(LIMITS["max_file_bytes"].value)
        data = (sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer")
                else sys.stdin.read(limit + 1).encode())
        if len(data) > limit:
            raise limit_error("max_file_bytes", f"more than {limit:,} bytes", filename="<stdin>")
        try:
            return decode_text(gunzip(data, "<stdin>"))
        except UnicodeDecodeError as e:
            raise FileError(f"not a text file (byte {e.start} is not UTF-8)",
                            filename="<stdin>") from None
    try:
        return decode_text(read_bytes(path))     # at most max_file_bytes
    except FileNotFoundError:
        raise FileError("no such file", filename=path) from None
    except IsADirectoryError:
        raise FileError("is a directory, expected a file", filename=path) from None
    except UnicodeDecodeError as e:
        raise FileError(f"not a text file (byte {e.start} is not UTF-8)", filename=path) from None
    except OSError as e:
        raise FileError(f"cannot read: {e.strerror}", filename=path) from None


def read_input(path: str) -> tuple[str, str]:
    """The text of a file, or of stdin for ``-``, and the name errors give it."""
    return read_text(path), source_name(path)


def warn_skipped(records: Iterable[Any], name: str) -> None:
    """Say on stderr what reading each game record skipped (`Record.warnings`: press in a
    shape the reader cannot take), naming the file, the game and the phases."""
    for record in records:
        for warning in record.warnings:
            print(f"dipsolve: {name}: game {quote(record.id)}: warning: {warning} (the boards and orders "
                  f"are read)", file=sys.stderr, flush=True)


def is_record(text: str) -> bool:
    """Whether a file's text is a game record (JSON) rather than a position file: a
    position file starts with a word (``phase:``, ``NOW``) or a comment, never ``{``/``[``."""
    return text.lstrip()[:1] in ("{", "[")


def load(path: str, select: argparse.Namespace | None = None
         ) -> tuple["Position", dict[str, list["Order"]]]:
    """A position file (``.dip`` or DAIDE ``NOW``/``SCO``) and the orders it holds; or,
    for a game record (the ``diplomacy`` package's saved-game JSON), the phase that
    ``--phase`` (and, for a file of several games, ``--game``) in ``select`` names, with
    the orders recorded for it."""
    position, orders, _ = load_with_history(path, select)
    return position, orders


def load_with_history(path: str, select: argparse.Namespace | None = None
                      ) -> tuple["Position", dict[str, list["Order"]],
                                 tuple[tuple["Position", dict[str, list["Order"]]], ...]]:
    """As `load`, and the game's movement phases before the one taken, each with every
    power's recorded orders (what the learned opponent model fits: none for a position
    file)."""
    text, name = read_text(path), source_name(path)
    phase = getattr(select, "phase", None)
    game = getattr(select, "game", None)
    if not is_record(text):
        if phase is not None or game is not None:
            raise UserError(f"{'--phase' if phase is not None else '--game'} picks a phase of a game "
                            f"record (saved-game JSON); this is a position file", filename=name)
        from ..grammar import parse_position_text
        return (*parse_position_text(text, name, game_map=variant_of(select).map), ())
    from ..io.records import describe_names, pick, read_records
    record = pick(read_records(text, name, record_variant(select)), game, name)
    warn_skipped([record], name)
    if phase is None:
        raise UserError(f"a game record: say which phase with --phase (it has "
                        f"{describe_names(record.names)})", filename=name)
    try:
        chosen = record.phase(phase)
    except DipsolveSyntaxError as e:
        raise UserError(f"--phase: {e.message}", filename=name) from None
    return chosen.position, chosen.orders_of(), record.movements_before(chosen)


def add_phase(parser: argparse.ArgumentParser) -> None:
    """``--phase NAME`` and ``--game ID``: which phase of a game record (the ``diplomacy``
    package's saved-game JSON) to take where a position file is taken (see `load`)."""
    parser.add_argument("--phase", metavar="NAME",
                        help="for a game record (saved-game JSON) given as FILE: the phase to take "
                             "(S1903M, F1903R, W1903A), with the orders recorded for it")
    parser.add_argument("--game", metavar="ID",
                        help="for a record of several games: the game's id, or its index (0 for the first)")


def load_orders(path: str, position: "Position") -> dict[str, list["Order"]]:
    """An orders file (one ``Power: order`` a line), checked against ``position``."""
    from ..grammar import parse_orders
    pairs = parse_orders(read_text(path), source_name(path), position=position)
    orders: dict[str, list[Order]] = {}
    for power_, order in pairs:
        orders.setdefault(power_, []).append(order)
    return orders


def load_kernel() -> None:
    """Load the rules engine (`dipsolve.core.kernel.load`: compiled where numba is
    installed) before a command's first adjudication or search, so that no bot or solver
    pays for it inside its time limit; one line on stderr when it must compile first."""
    from ..core import kernel
    kernel.load(note=lambda line: print(f"dipsolve: {line}", file=sys.stderr, flush=True))
