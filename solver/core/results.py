"""What every solver returns and what it is given: `Status`, `Result`, `Limits`, `Deadline`.

One vocabulary for every question dipsolve answers by search or optimization (the
orders of a phase, the fastest path, the adjustment equilibria, Loeb's worst case):

- `Status`: ``optimal`` (proven, or certified: an equilibrium whose largest deviation
  gain is at most 1e-6), ``feasible`` (an answer, not proven best), ``infeasible`` (proven:
  no answer exists), ``timed out`` (the time limit came first: the best answer so far,
  if any, unproven), ``node limit`` (the limit counted in work, ``Limits.nodes``, came
  first: the same, and the same answer on every run), ``interrupted`` (a signal, Ctrl-C
  or SIGTERM, stopped it early: the best answer so far, unproven);
- `Result`: the fields every answer has (``status``, ``objective``, ``bound``,
  ``seconds``) and `Result.to_json`; each solver's result is a subclass with its own;
- `Limits`: what a caller may set on every solver: the time limit, a seed, workers, and a
  limit counted in work (``nodes``) for an answer that repeats exactly;
- `Deadline`: one clock for the whole of a call, set-up included, that every loop checks;
  `WorkClock`: a clock that counts work instead of seconds (``Limits.nodes``), so that
  every check of every solver honours a work limit as it honours a time limit;
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
    >>> w = Limits(time_limit=60, nodes=3).deadline()    # on a work clock: each look is one
    >>> [w.expired() for _ in range(4)], w.counts_work
    ([False, False, True, True], True)
"""

from __future__ import annotations

import dataclasses
import contextlib
import enum
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TypeVar, cast

from . import kernel
from .bounds import check_float, check_int
from .errors import DipsolveSyntaxError

__all__ = ["Status", "Result", "Limits", "Deadline", "WorkClock", "TimeUp", "Stopped", "jsonable",
           "request_stop", "stop_requested", "reset_stop", "on_stop", "interrupted", "limited"]


class Status(enum.StrEnum):
    """How good an answer is; equal to its own text (``Status.OPTIMAL == "optimal"``)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    TIMED_OUT = "timed out"
    NODE_LIMIT = "node limit"
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
    CP-SAT worker thread's time counts too, so use one worker on it).

    ``nodes``: a limit counted in work instead of time (as python-chess's
    ``Limit(nodes=...)``), for an answer that repeats exactly, whatever the machine and
    its load: the call's `Deadline` runs on a `WorkClock`, on which every look a solver
    takes at its clock counts one node (the searches look once per step, per order set
    judged, per position evaluated, per iteration), and CP-SAT runs on one worker with a
    deterministic time of `WorkClock.DETERMINISTIC_NODES` nodes a deterministic second
    (`dipsolve.models.cpsat`).  ``time_limit`` (on ``clock``) still applies, as a safety
    net: the status says which limit stopped the work, ``node limit`` (the answer is the
    same on every run) or ``timed out`` (the safety net came first: it may not be).

        >>> Limits(nodes=20_000)
        Limits(time_limit=5.0, seed=0, workers=1, clock='wall', nodes=20000)
    """

    time_limit: float = 5.0
    seed: int = 0
    workers: int = 1
    clock: str = "wall"
    nodes: int | None = None

    def __post_init__(self) -> None:
        # the bounds of `dipsolve.core.bounds` (a DipsolveLimitError, a DipsolveSyntaxError):
        # positive, finite, at most max_seconds; 1 to max_workers workers; 1 to max_nodes nodes
        check_float(self.time_limit, "time limit", "max_seconds")
        for name in ("workers", "seed") + (("nodes",) if self.nodes is not None else ()):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise DipsolveSyntaxError(f"{name} must be a whole number, not {value!r}",
                                          found=repr(value), expected="a whole number")
        check_int(self.workers, "workers", "max_workers")
        check_int(self.seed, "seed", "max_seed")
        if self.nodes is not None:
            check_int(self.nodes, "node limit", "max_nodes")
        clock_named(self.clock)

    @property
    def limit(self) -> str:
        """Which limit stops the work: "nodes" (the time limit its safety net) or "time"."""
        return "time" if self.nodes is None else "nodes"

    def deadline(self, clock: Callable[[], float] | None = None) -> "Deadline":
        """A deadline ``time_limit`` seconds from now, on ``clock`` (default: the one
        ``self.clock`` names); with ``nodes``, ``nodes`` units of work from now on a
        `WorkClock`, whose safety net is that deadline."""
        timer = Deadline(self.time_limit, clock=clock or clock_named(self.clock))
        if self.nodes is None:
            return timer
        return Deadline(self.nodes, clock=WorkClock(timer))

    def to_json(self) -> dict[str, Any]:
        """The limits as JSON, with ``limit``: which of them stops the work."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["limit"] = self.limit
        return out


class WorkClock:
    """A clock that counts work instead of seconds (`Limits.nodes`): each reading is one
    unit of work, a *node* (a solver reads its clock once per step of its loops: a node
    of the agenda, an order set judged, an iteration of the phase game), and `spend` adds
    work done out of sight (CP-SAT's deterministic time, `DETERMINISTIC_NODES` nodes a
    deterministic second).  A `Deadline` on it expires after so many nodes, its `part`
    is a share of the nodes left, and every check of every solver honours it as it
    honours seconds: the same call with the same seed does the same work and gives the
    same answer, however loaded the machine.

    ``safety``: the time limit's deadline, the safety net.  Once it has expired the clock
    reads infinity, so that every deadline on it expires too (`safety_hit`: the answer
    was cut by the time, not the work).

        >>> w = WorkClock(Deadline(60.0))
        >>> w(), w(), w.spend(10), w()
        (1, 2, None, 13)
    """

    __slots__ = ("count", "safety", "safety_hit")

    #: CP-SAT's deterministic time counts this many nodes a deterministic second: about
    #: what the phase game (the search that calls CP-SAT as its best-response oracle)
    #: counts in the wall time CP-SAT takes for one, so that the oracle's share of a node
    #: limit is about its share of a time limit (measured on a loaded two-core machine:
    #: the phase game counted about 1,000 nodes a second, the agenda search 4,000 to
    #: 5,700; CP-SAT took 2.4 s of wall time a deterministic second on the order and path
    #: models)
    DETERMINISTIC_NODES = 2_500

    def __init__(self, safety: "Deadline") -> None:
        self.count = 0
        self.safety = safety
        self.safety_hit = False

    def __call__(self) -> float:
        self.count += 1
        if self.safety_hit or self.safety.clock() >= self.safety.end:
            self.safety_hit = True
            return math.inf
        return self.count

    def spend(self, nodes: float) -> None:
        """Count ``nodes`` of work done out of sight (never less than none)."""
        self.count += max(0, math.ceil(nodes))

    def seconds_left(self) -> float:
        """Seconds left before the safety net (its clock's)."""
        return self.safety.remaining()


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


def limited(result: R, deadline: "Deadline") -> R:
    """``result`` with the status that says which limit of its ``deadline`` came first,
    when that is a `WorkClock` (`Limits.nodes`) and no stop was requested (`interrupted`
    says that one): ``node limit`` for ``timed out`` when the nodes ran out before the
    safety net; ``timed out`` for ``feasible`` (an anytime answer, the phase game's) when
    the safety net, the time limit, cut the work (the answer may then not repeat).
    Otherwise as it is.  Every solver that takes `Limits` returns its answer through it."""
    clock = deadline.clock
    if not isinstance(clock, WorkClock) or _stopped:
        return result
    if result.status == Status.TIMED_OUT and not clock.safety_hit:
        return dataclasses.replace(result, status=Status.NODE_LIMIT)
    if result.status == Status.FEASIBLE and clock.safety_hit:
        return dataclasses.replace(result, status=Status.TIMED_OUT)
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
    the machine being idle; on a `WorkClock` it counts work instead of seconds
    (`Limits.nodes`: `counts_work`), and every figure of it (``start``, ``end``,
    `remaining`, `elapsed`) is then in nodes.

    `check` raises `TimeUp` once the time is up, for loops that unwind to a place that
    knows the best answer so far; `expired` and `remaining` are for loops that stop by
    themselves; `part` gives a nested deadline for a phase of the work; `seconds` is the
    time the work took (what a `Result` reports), whatever the clock counts."""

    __slots__ = ("clock", "start", "end", "timer_start")

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.perf_counter,
                 start: float | None = None) -> None:
        global first_start
        if start is None and not kernel.loaded():
            kernel.load()           # the engine compiles or loads before any clock starts
        self.clock = clock
        if start is None:           # (on a work clock, making a deadline is no work)
            start = clock.count if isinstance(clock, WorkClock) else clock()
        self.start = start
        self.end = self.start + seconds
        #: the safety net's clock when this deadline began (on a work clock)
        self.timer_start = clock.safety.clock() if isinstance(clock, WorkClock) else None
        if first_start is None and clock is time.perf_counter:
            first_start = self.start

    @property
    def counts_work(self) -> bool:
        """Whether this deadline counts work (`Limits.nodes`) rather than seconds."""
        return isinstance(self.clock, WorkClock)

    def elapsed(self) -> float:
        """What the clock counted since the start: seconds, or nodes on a work clock."""
        return self.clock() - self.start

    def seconds(self) -> float:
        """The seconds since the start (on a work clock, on its safety net's clock): the
        ``seconds`` a solver's `Result` reports."""
        if self.timer_start is not None:
            return cast(WorkClock, self.clock).safety.clock() - self.timer_start
        return self.elapsed()

    def seconds_left(self) -> float:
        """Seconds left (`remaining`; on a work clock, before its safety net): for work
        that cannot be counted in nodes (a CBC solve, an import)."""
        if self.timer_start is not None:
            return cast(WorkClock, self.clock).seconds_left()
        return self.remaining()

    def out_of_time(self) -> None:
        """Say that time, not work, cut this deadline's work short (CBC stopped by its
        own time limit): on a work clock, its safety net counts as passed from now on, so
        every deadline on it expires and `limited` leaves the status ``timed out``."""
        if isinstance(self.clock, WorkClock):
            self.clock.safety_hit = True

    def limit_name(self) -> str:
        """The limit this deadline stands for, as a sentence names it: "the node limit"
        on a work clock whose safety net has not passed, else "the time limit"."""
        clock = self.clock
        if isinstance(clock, WorkClock) and not clock.safety_hit:
            return "the node limit"
        return "the time limit"

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
