"""The ``dipsolve`` command: its parser, and the one place an error reaches the user.

    dipsolve adjudicate | show | parse | validate | solve | path | adjust | play | render | view | analyze
             | batch | daide

Each command lives in its own module of `dipsolve.cli` with ``register(subparsers)``
(its options) and the function that runs it; the options several commands share are in
`dipsolve.cli.options`.  Building the parser imports no solver, grammar or model:
``dipsolve --help`` stays fast, and a command imports what it needs when it runs.

Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a command without a traceback: what it finished
is printed, no file is written, and the exit status is 130, 143 or 129
(`dipsolve.cli.interrupt`).

Human output goes to stdout.  A user's mistake (an unreadable file, bad syntax, an order
for a unit that is not there, an unknown option) prints ``file:line:col: what is wrong``
to stderr and exits with status 2; with ``--json`` on the command line it is one JSON
object on stdout instead, ``{"error", "file", "line", "col", "message", ...}``
(`dipsolve.core.errors.DipsolveError.to_json`), and the exit status is 2 all the same.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import sys
from typing import Any, NoReturn, Sequence

from ..core import kernel
from ..core.errors import DipsolveError, quote
from . import interrupt, options, progress
from .options import EXIT_USAGE, UsageError

#: the commands, in the order ``--help`` lists them (each a module of dipsolve.cli)
COMMANDS = ("adjudicate", "show", "parse", "validate", "solve", "path", "adjust", "play", "render",
            "view", "analyze", "batch", "daide")


def version() -> str:
    """dipsolve's version, from the installed package's metadata."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("dipsolve")
    except PackageNotFoundError:      # run from a checkout that was never installed
        return "unknown"


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are raised as `UsageError` so that `main`
    reports them like every other error (as JSON under ``--json``)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, prog=self.prog, usage=self.format_usage())


class _Version(argparse.Action):
    """``--version``: reads the package's metadata only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"dipsolve {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command (imports only the command modules' option lists)."""
    from . import (adjudicate, adjust, analyze, batch, daide, parse, path, play, render, show, solve,
                   validate, view)
    p = Parser(
        prog="dipsolve",
        description="A declarative solver for Diplomacy (standard map, Avalon Hill rules).",
        epilog="Position files use the .dip format (see README.md); DAIDE NOW/SCO files are read too, "
               "and a phase of a game record (the diplomacy package's saved-game JSON) with --phase.")
    p.add_argument("--version", action=_Version, help="print dipsolve's version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for command in (adjudicate, show, parse, validate, solve, path, adjust, play, render, view, analyze,
                    batch, daide):
        command.register(sub)
    return p


def check_command(argv: Sequence[str], parser: argparse.ArgumentParser) -> None:
    """Refuse a command line whose command (its first word that is no option: ``dipsolve``
    itself takes only ``--help`` and ``--version``) is none of `COMMANDS`, naming the
    closest, as a misspelt power is: ``unknown command 'solv' (did you mean solve? ...)``."""
    word = next((a for a in argv if not a.startswith("-")), None)
    if word is None or word in COMMANDS:
        return
    close = difflib.get_close_matches(word.lower(), COMMANDS, n=2, cutoff=0.6)
    near = f"did you mean {' or '.join(close)}? " if close else ""
    raise UsageError(f"unknown command {quote(word)!r} ({near}expected one of {', '.join(COMMANDS)})",
                     prog=parser.prog, usage=parser.format_usage(), found=quote(word),
                     expected="a command")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``dipsolve`` command line; the exit status (0, or 2 for a user's mistake).

    A usage error (unknown option, missing argument) exits through `SystemExit` with
    status 2, as argparse's own do; ``--help`` and ``--version`` with status 0."""
    argv = list(sys.argv[1:] if argv is None else argv)
    options._STDIN_READ.clear()          # one run, one read of standard input
    with interrupt.Signals():
        try:
            try:
                return _run(argv)
            except (interrupt.Interrupted, KeyboardInterrupt) as e:
                signum = getattr(e, "signum", None) or interrupt.received() or 2
                sys.stdout.flush()
                what = interrupt.SIGNALS.get(signum, "a signal")
                if "--json" in argv:
                    print(json.dumps({"error": "interrupted", "signal": what,
                                      "message": f"interrupted by {what}"}))
                else:
                    print(f"dipsolve: interrupted by {what}", file=sys.stderr)
                return 128 + int(signum)
        except OSError as e:
            # the terminal is gone (SIGHUP: EIO) or nobody reads any more (EPIPE): what
            # is left to say cannot be said; no traceback, and nothing more at exit
            if e.errno not in (errno.EIO, errno.EPIPE, errno.ENXIO):
                raise
            _mute()
            return interrupt.exit_status() or 1


def _mute() -> None:
    """Send what is left on stdout and stderr nowhere (they write to a closed terminal
    or pipe: the flush at exit would fail again)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (AttributeError, ValueError, OSError):
            pass
    os.close(devnull)


def _run(argv: list[str]) -> int:
    # a signal while the command line is read (milliseconds) waits for the command: one
    # that stops by itself (``stops_by_itself``: play, solve, ...) then answers with what
    # it has (play: the table of no game); any other stops at once
    with interrupt.cooperative():
        parser = build_parser()
        try:
            check_command(argv, parser)
            args = parser.parse_args(argv)
        except UsageError as e:
            report_error(e, as_json="--json" in argv)
            raise SystemExit(EXIT_USAGE) from None
    if interrupt.received() and not getattr(args, "stops_by_itself", False):
        raise interrupt.Interrupted(interrupt.received() or 2)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    progress.SILENT = bool(getattr(args, "json", False))     # no progress under --json
    kernel.announce(lambda line: print(f"dipsolve: {line}", file=sys.stderr, flush=True))
    try:
        options.check(args)
        status = int(args.func(args))
    except DipsolveError as e:
        report_error(e, as_json=bool(getattr(args, "json", False)))
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    finally:
        progress.SILENT = False
        if os.environ.get("DIPSOLVE_TIMINGS"):
            _timings()
    stopped = interrupt.exit_status()
    if stopped is not None:
        print(f"dipsolve: interrupted by {interrupt.name()}", file=sys.stderr)
        return stopped
    return status


def _timings() -> None:
    """``DIPSOLVE_TIMINGS=1``: how long the command ran from the moment its time limit
    started counting (its first `Deadline`) to its last output, one JSON line on stderr,
    for benchmarks/time_limits.py; start-up (Python, imports, reading the input) is the
    rest of the process's wall time."""
    import json
    import time

    from ..core import results
    start = results.first_start
    work = None if start is None else round(time.perf_counter() - start, 4)
    sys.stderr.write("dipsolve-timings: " + json.dumps({"work": work}) + "\n")


def report_error(e: DipsolveError, as_json: bool = False) -> None:
    """The one place an error reaches the user: ``file:line:col: message`` (with its
    caret) on stderr, or under ``--json`` one JSON object on stdout."""
    if as_json:
        print(json.dumps(e.to_json()))
        return
    if isinstance(e, UsageError):          # as argparse says it
        sys.stderr.write(e.usage)
        sys.stderr.write(f"{e.prog}: error: {e.message}\n")
        return
    text = str(e)
    head = text.split()[0] if text.split() else ""
    print(f"dipsolve: {text}" if e.location is None and ":" not in head else text,
          file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
