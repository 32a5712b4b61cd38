"""The bot contract: what the harness holds every bot's turn to (`dipsolve.play_game`, the
DAIDE seat).

A bot is code the harness did not write (docs/bots.md), so each turn runs in a thread of
its own while the game waits for it (`take_turn`):

- **time**: a turn has the phase's ``time_limit`` seconds on the game's clock.  A bot still
  thinking at `turn_bound` seconds on the wall clock (the limit and a margin of half of it,
  at least `TURN_MARGIN`; on the CPU clock, whose seconds a loaded machine stretches,
  `CPU_STRETCH` times that) is stopped: its power's units hold (as in civil disorder) in
  that phase and every later one, and the game says so (`Fault`).  Python cannot kill a
  thread: the stopped bot's thread is left to finish on its own, and never keeps the
  process alive (a daemon thread);
- **faults**: a bot that raises is stopped the same way, its exception named in one line
  (one that raises a `dipsolve.DipsolveError`, dipsolve's own refusal, holds that turn only);
  what it returns that is not a list of orders (``42``, ``None`` in the list, a text) is
  refused, counted with the phase's refused orders, and named;
- **stopping**: the game waits in steps of `POLL` seconds, so a stop request (Ctrl-C,
  `dipsolve.core.results.request_stop`) is seen at once, whatever the bot is doing.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, Callable

from ..core.errors import DipsolveError, quote
from ..core.orders import Order
from ..core.position import Position
from ..core.results import Stopped, stop_requested

__all__ = ["Fault", "Turn", "take_turn", "turn_bound", "TURN_MARGIN", "CPU_STRETCH", "POLL"]

#: the least margin a turn has past its time limit, in seconds of wall time
TURN_MARGIN = 1.0
#: on the CPU clock a turn may take this many times its bound in wall time (other work on
#: a shared machine stretches a CPU second; a dipsolve seat's own deadline is on that clock)
CPU_STRETCH = 4.0
#: how often the game looks at a stop request while a bot thinks, in seconds
POLL = 0.05


def turn_bound(time_limit: float, clock: str = "wall") -> float:
    """The wall time after which a turn of ``time_limit`` seconds on ``clock`` is stopped:
    the limit and half of it again, at least `TURN_MARGIN` more, stretched by
    `CPU_STRETCH` on the CPU clock.

        >>> turn_bound(2.0), turn_bound(2.0, "cpu"), turn_bound(10.0)
        (3.0, 12.0, 15.0)
    """
    bound = time_limit + max(TURN_MARGIN, time_limit / 2)
    return bound * CPU_STRETCH if clock == "cpu" else bound


@dataclass(frozen=True)
class Fault:
    """What a bot did against the contract in one phase: ``what`` is "overran", "raised"
    or "not orders"; ``detail`` says what (the exception, the things refused)."""

    phase: str
    power: str
    bot: str
    what: str
    detail: str
    #: the bot was stopped: its power holds from this phase on
    stopped: bool

    def line(self) -> str:
        """One line for people: ``S1903M: France's bot 'sleeper' overran its turn (...):
        France's units hold from here on``."""
        tail = f": {self.power}'s units hold from here on" if self.stopped else ""
        return f"{self.phase}: {self.power}'s bot {quote(self.bot)} {self.what} ({self.detail}){tail}"

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "power": self.power, "bot": self.bot, "what": self.what,
                "detail": self.detail, "stopped": self.stopped}


@dataclass(frozen=True)
class Turn:
    """A turn's end: the orders kept, the things refused (not orders) and the fault."""

    orders: list[Order]
    refused: int = 0
    fault: Fault | None = None


def take_turn(bot: Any, position: Position, power: str, time_limit: float, rng: random.Random, *,
              clock: str = "wall", wall: Callable[[], float] | None = None) -> Turn:
    """Ask ``bot`` for ``power``'s orders in ``position`` under the contract (see the
    module's text).  Raises `dipsolve.core.results.Stopped` when a stop is requested
    while it thinks.  ``wall``: the wall clock to bound the turn by (a test's; default
    `time.monotonic`)."""
    name = bot_name(bot)
    bound = turn_bound(time_limit, clock)
    phase = position.phase.short
    ended, given, error = run_bounded(lambda: bot.orders(position, power, time_limit, rng), bound,
                                      f"dipsolve-bot-{power}", wall)
    if not ended:
        detail = (f"still thinking {bound:g} s into a turn of {time_limit:g} s"
                  + (" on the CPU clock" if clock == "cpu" else ""))
        return Turn([], 0, Fault(phase, power, name, "overran its turn", detail, True))
    if error is not None:
        if isinstance(error, DipsolveError):      # dipsolve's own refusal: this turn only
            return Turn([], 0, Fault(phase, power, name, "found no orders", quote(error.message, 120), False))
        return Turn([], 0, Fault(phase, power, name, "raised", described(error), True))
    return _checked(given, phase, power, name)


def bot_name(bot: Any) -> str:
    """A bot's name for a fault, whatever its ``name`` is."""
    try:
        return str(getattr(bot, "name", type(bot).__name__))
    except Exception:                                  # a name that raises is the bot's fault too
        return type(bot).__name__


def described(error: BaseException) -> str:
    """An exception in one short escaped line: ``ZeroDivisionError: division by zero``."""
    try:
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    except Exception:
        text = type(error).__name__
    return quote(text, 120)


def run_bounded(call: Callable[[], Any], bound: float | None, name: str = "dipsolve-bot",
                wall: Callable[[], float] | None = None) -> tuple[bool, Any, BaseException | None]:
    """Run ``call`` in a daemon thread and wait for it at most ``bound`` seconds of wall
    time (None: as long as it takes), looking at stop requests every `POLL` seconds
    (`dipsolve.core.results.Stopped`).  Returns (ended in time, its value, what it raised)."""
    import time
    tick = wall or time.monotonic
    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as e:                    # the bot's fault, whatever it is
            box["error"] = e
        finally:
            done.set()

    thread = threading.Thread(target=run, name=name, daemon=True)
    began = tick()
    thread.start()
    while not done.wait(POLL):
        if stop_requested():
            raise Stopped
        if bound is not None and tick() - began > bound:
            return False, None, None
    return True, box.get("value"), box.get("error")


def _checked(given: Any, phase: str, power: str, name: str) -> Turn:
    """The orders of what a bot returned: a list (or tuple) of `Order` objects; anything
    else refused and named."""
    if given is None:
        given = []
    if not isinstance(given, (list, tuple)):
        detail = f"returned {_shown(given)}, not a list of orders"
        return Turn([], 1, Fault(phase, power, name, "gave what is not orders", detail, False))
    kept = [o for o in given if isinstance(o, Order)]
    bad = [o for o in given if not isinstance(o, Order)]
    if not bad:
        return Turn(kept)
    shown = ", ".join(_shown(b) for b in bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
    detail = f"{len(bad)} of the {len(given)} things it gave, refused: {shown}"
    return Turn(kept, len(bad), Fault(phase, power, name, "gave what is not orders", detail, False))


def _shown(value: Any) -> str:
    """A value a bot returned, short and escaped: its type and its text."""
    try:
        text = repr(value)
    except Exception:                                  # a repr that raises is the bot's too
        text = f"<{type(value).__name__}>"
    return quote(text, 40)

