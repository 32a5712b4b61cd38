"""What every solver returns and what it is given: `Status`, `Result`, `Limits`, `Deadline`.

One vocabulary for every question dipsolve answers by search or optimization (the
orders of a phase, the fastest path, the adjustment equilibria, Loeb's worst case):

- `Status`: ``optimal`` (proven, or certified: an equilibrium whose largest deviation
  gain is at most 1e-6), ``feasible`` (an answer, not proven best), ``infeasible`` (proven:
  no answer exists), ``timed out`` (the time limit came first: the best answer so far,
  if any, unproven), ``interrupted`` (a signal, Ctrl-C or SIGTERM, stopped it early:
  the best answer so far, unproven);
- `Result`: the fields every answer has (``status``, ``objective``, ``bound``,
  ``seconds``) and `Result.to_json`; each solver's result is a subclass with its own;
- `Limits`: what a caller may set on every solver: the time limit, a seed, workers;
- `Deadline`: one clock for the whole of a call, set-up included, that every loop checks;
- `request_stop`: stop every solver of the process now (the command line calls it on
  Ctrl-C and SIGTERM): every `Deadline` expires at once, and a blocking call registered
  with `on_stop` (a CP-SAT solve) is told to stop; `interrupted` marks an answer cut
  short so.

    >>> r = Result(status=Status.OPTIMAL, objective=3.0, bound=3.0, seconds=0.25)
    >>> r.status == "optimal", r.proven
    (True, True)
    >>> r.to_json()
    {'status': 'optimal', 'objective': 3.0, 'bound': 3.0, 'seconds': 0.25}
    >>> clock = iter([0.0, 0.5, 2.5]).__next__          # a clock to test with
    >>> d = Deadline(2.0, clock=clock)
    >>> d.remaining(), d.expired()
    (1.5, True)
"""

from __future__ import annotations

import dataclasses
import contextlib
import enum
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TypeVar

from . import kernel
from .bounds import check_float, check_int
from .errors import DipsolveSyntaxError

__all__ = ["Status", "Result", "Limits", "Deadline", "TimeUp", "Stopped", "jsonable",
           "request_stop", "stop_requested", "reset_stop", "on_stop", "interrupted"]


class Status(enum.StrEnum):
    """How good an answer is; equal to its own text (``Status.OPTIMAL == "optimal"``)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    TIMED_OUT = "timed out"
    INTERRUPTED = "interrupted"


def jsonable(value: Any) -> Any:
    """``value`` made of what `json.dumps` writes: enums as their value, orders, units and
    phases as their text (``str()``), dataclasses and mappings as objects, sequences and
    sets as lists (sets sorted), infinite or NaN floats as None."""
    if value is None or isinstance(value, (bool, int, str)):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if hasattr(value, "to_json") and not isinstance(value, type):
        return value.to_json()
    if (dataclasses.is_dataclass(value) and not isinstance(value, type)
            and type(value).__str__ is object.__str__):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return [jsonable(v) for v in value]
    return str(value)


@dataclass(frozen=True, kw_only=True)
class Result:
    """The fields every solver's answer has.

    ``objective`` is the value of the answer (what was maximised or minimised, in the
    solver's own units: a position value, movement phases, a deviation gain), ``bound``
    the best bound proven on it (None when none was), ``seconds`` the wall time of the
    whole call, set-up included."""

    status: Status
    objective: float | None = None
    bound: float | None = None
    seconds: float = 0.0

    @property
    def proven(self) -> bool:
        """True when the answer is proven: optimal, or proven infeasible."""
        return self.status in (Status.OPTIMAL, Status.INFEASIBLE)

    def to_json(self) -> dict[str, Any]:
        """Every field, in declaration order, as JSON values (see `jsonable`)."""
        return {f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)
                if f.repr}


#: the clocks a time limit can be measured on
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def clock_named(name: str) -> Callable[[], float]:
    """The clock of `CLOCKS` called ``name``; a `DipsolveSyntaxError` for any other name."""
    clock = CLOCKS.get(name) if isinstance(name, str) else None
    if clock is None:
        raise DipsolveSyntaxError(f"clock must be one of {', '.join(CLOCKS)}, not {name!r}",
                                  found=str(name), expected="wall or cpu")
    return clock


#: CP-SAT's workers where a search races a wall clock (`dipsolve solve`, a dipsolve seat
#: on the wall clock): one worker takes 10-30 times longer to prove the Turkish example
#: optimal; ``solve --workers 1`` gives the same answer for the same seed
WALL_WORKERS = 2


@dataclass(frozen=True)
class Limits:
    """What a caller may set on every solver.

    ``time_limit`` in seconds of wall time for the whole call (set-up included; a solver
    returns its best answer so far when it runs out), ``seed`` for every random choice,
    ``workers`` for solvers that can use several threads (CP-SAT).  ``clock``: "wall"
    (default) or "cpu", this process's CPU time (`time.process_time`): a bot's time per
    move measured on a shared machine, where other work must not shorten its search (a
    CP-SAT worker thread's time counts too, so use one worker on it)."""

    time_limit: float = 5.0
    seed: int = 0
    workers: int = 1
    clock: str = "wall"

    def __post_init__(self) -> None:
        # the bounds of `dipsolve.core.bounds` (a DipsolveLimitError, a DipsolveSyntaxError):
        # positive, finite, at most max_seconds; 1 to max_workers workers
        check_float(self.time_limit, "time limit", "max_seconds")
        if not isinstance(self.workers, int) or isinstance(self.workers, bool):
            raise DipsolveSyntaxError(f"workers must be a whole number, not {self.workers!r}")
        check_int(self.workers, "workers", "max_workers")
        clock_named(self.clock)

    def deadline(self, clock: Callable[[], float] | None = None) -> "Deadline":
        """A deadline ``time_limit`` seconds from now, on ``clock`` (default: the one
        ``self.clock`` names)."""
        return Deadline(self.time_limit, clock=clock or clock_named(self.clock))


# -- stopping on request ----------------------------------------------------------------

#: set by `request_stop`: read by every `Deadline` (a plain global: a check in the hot
#: loops costs one lookup)
_stopped = False
_on_stop: list[Callable[[], None]] = []
_lock = threading.Lock()


def request_stop() -> None:
    """Stop the work of this process as soon as it can: every `Deadline` expires now
    (solvers return their best answer so far), and every callback registered with
    `on_stop` is called (once).  Safe to call from a signal handler or another thread."""
    global _stopped
    _stopped = True
    with _lock:
        callbacks = list(_on_stop)
    for callback in callbacks:
        try:
            callback()
        except Exception:        # a solver already finished: nothing to stop
            pass


def stop_requested() -> bool:
    """True once `request_stop` has been called (until `reset_stop`)."""
    return _stopped


def reset_stop() -> None:
    """Forget a stop request (a new run in the same process: the tests)."""
    global _stopped
    _stopped = False


@contextlib.contextmanager
def on_stop(callback: Callable[[], None]) -> Iterator[None]:
    """While the block runs, `request_stop` calls ``callback`` (a blocking call's own
    stop: ``CpSolver.stop_search``); called at once if a stop was already requested."""
    with _lock:
        _on_stop.append(callback)
    try:
        if _stopped:
            callback()
        yield
    finally:
        with _lock:
            _on_stop.remove(callback)


R = TypeVar("R", bound="Result")


def interrupted(result: R, cut_short: tuple[Status, ...] = (Status.TIMED_OUT,)) -> R:
    """``result`` with status ``interrupted`` if a stop was requested and its status
    says it was cut short (``cut_short``: ``timed out``, and for a solver that calls an
    answer stopped by its clock ``feasible``, that too); a proof found before the stop
    stands."""
    if _stopped and result.status in cut_short:
        return dataclasses.replace(result, status=Status.INTERRUPTED)
    return result


class Stopped(Exception):
    """Raised by work that has no partial answer to give (a game half played) when a
    stop was requested; its caller keeps what was finished."""


class TimeUp(Exception):
    """Raised inside a solver by `Deadline.check` when its time is up; the solver
    catches it and returns its best answer so far (never reaches a caller)."""


#: when the first `Deadline` of this process started (`time.perf_counter`), None before:
#: where a command's time limit starts counting (``DIPSOLVE_TIMINGS``, benchmarks/time_limits.py)
first_start: float | None = None


class Deadline:
    """One clock for a whole call.  ``clock`` is injectable, so tests never depend on
    the machine being idle.

    `check` raises `TimeUp` once the time is up, for loops that unwind to a place that
    knows the best answer so far; `expired` and `remaining` are for loops that stop by
    themselves; `part` gives a nested deadline for a phase of the work."""

    __slots__ = ("clock", "start", "end")

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.perf_counter,
                 start: float | None = None) -> None:
        global first_start
        if start is None and not kernel.loaded():
            kernel.load()           # the engine compiles or loads before any clock starts
        self.clock = clock
        self.start = clock() if start is None else start
        self.end = self.start + seconds
        if first_start is None and clock is time.perf_counter:
            first_start = self.start

    def elapsed(self) -> float:
        return self.clock() - self.start

    def remaining(self) -> float:
        """Seconds left (never below zero; none once a stop was requested)."""
        return 0.0 if _stopped else max(0.0, self.end - self.clock())

    def expired(self) -> bool:
        return _stopped or self.clock() >= self.end

    def check(self) -> None:
        """Raise `TimeUp` if the time is up (or a stop was requested)."""
        if _stopped or self.clock() >= self.end:
            raise TimeUp

    def part(self, fraction: float) -> "Deadline":
        """A deadline for a phase of the work: ``fraction`` of the time still left."""
        now = self.clock()
        return Deadline(0.0 if _stopped else max(0.0, self.end - now) * fraction, clock=self.clock, start=now)
