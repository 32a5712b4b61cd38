"""Whole games between bots, and series of games summed up as the Victorybot seed's table.

`play_game` plays one game from the 1901 start (or any position) through every phase —
movement, retreats, adjustments — each power's orders from the bot in its seat, each
phase resolved by `dipsolve.core.adjudicator.adjudicate`.  A game ends as the anchors'
harnesses end it (DipNet, Paquette et al. 2019, whose environment stops at 1935; FAIR's
harness, which calls a draw after five years without a change): as soon as a power owns
18 supply centers (a solo win); as a draw when no supply center has changed hands for
``draw_after`` years (default `DRAW_AFTER`, five; None: never); or after the Fall turn of
the last year (``until``, default `UNTIL`, 1935; that winter's adjustments change no
center, so they are not played).  One `dipsolve.Limits` is the game's: each seat's time a
phase, the clock it is measured on, the seed, and a node limit for the seats that search.
The same seed gives the same game as long as the bots only draw chance from the ``rng``
they are handed (DumbBot and RandomBot do; a search stopped by the clock need not answer
the same; one stopped by a node limit does).

`play_series` plays many games, optionally rotating the seats so that each bot plays
each power in turn, and `results_table` sums the records up per bot like the Victorybot
seed's table (``004_…``, "Experimental results": appearances, wins, eliminations, and
their rates), with the mean final center count beside them, and `standings` reports
them as DipNet's Table 4 does: each seat's game a win, a most-SC finish, a survival or a
defeat, with 95% intervals, the solos by the end of each year and the median solo year.

A power *wins* when it owns 18 or more centers; it is *eliminated* (*defeated*) when it
owns none at the end (it would lose its last units in the next adjustment phase, if it
has any).  In a game without a winner, the powers that own the most centers at the end
(several when they tie) finish with the *most SC*; the others that own a center
*survived*.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Container, Iterable, Mapping, Sequence

from ..core.adjudicator import REFUSED, adjudicate
from ..core.errors import DipsolveArgumentError, DipsolveLostError, DipsolveSyntaxError, quote
from .bots import Bot
from ..core.orders import Order
from ..core.position import Position
from ..core.variant import Variant
from ..core.variant import variant as standard_variant
from ..core.variant_files import find_variant
from ..core.results import WALL_WORKERS, Limits, Stopped, clock_named, stop_requested
from .contract import Fault, bot_name, described, run_bounded, take_turn, turn_bound

if TYPE_CHECKING:
    from ..execution import Executor

#: the last year a game is played to, unless told otherwise (DipNet's environment: 1935)
UNTIL = 1935
#: years without a supply center changing hands after which a game is a draw (FAIR's harness: five)
DRAW_AFTER = 5
#: the limits of a game unless told otherwise: 2 s a phase for each seat on the wall
#: clock, seed 0, no node limit
PLAY_LIMITS = Limits(time_limit=2.0)



@dataclass(frozen=True)
class PowerResult:
    """How one seat ended a game."""

    power: str
    bot: str
    centers: int
    units: int
    win: bool
    eliminated: bool
    #: orders the adjudicator refused (illegal, not its unit, ...): 0 for a correct bot
    refused: int
    #: thinking time over the game, and the longest single phase, in seconds (wall
    #: time: not part of equality, so a replayed game equals the original)
    seconds: float = field(default=0.0, compare=False)
    max_seconds: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class PhaseRecord:
    """One phase as played: its name and each power's orders (canonical notation)."""

    phase: str
    orders: dict[str, tuple[str, ...]]
    #: each power's thinking time in this phase, in seconds on the game's clock (not part
    #: of equality, so a replayed game equals the original)
    seconds: dict[str, float] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class GameRecord:
    """One game: who sat where, how each power ended, and every phase played."""

    seed: int
    until: int
    time_limit: float
    seats: dict[str, str]
    results: tuple[PowerResult, ...]
    winner: str | None
    final: Position = field(repr=False)
    phases: tuple[PhaseRecord, ...] = field(repr=False)
    seconds: float = 0.0
    #: the board the game started from (None: the standard game's 1901 start)
    start: Position | None = field(default=None, repr=False, compare=False)
    #: the years without a center changing hands that end a game in a draw (None: never)
    draw_after: int | None = None
    #: how the game ended: "solo", "draw" (``draw_after`` years without a change) or
    #: "year" (the Fall of ``until`` played)
    ended: str = "year"
    #: what the bots did against the contract (`dipsolve.play.contract`), in phase order
    faults: tuple[Fault, ...] = ()

    @property
    def solo_year(self) -> int | None:
        """The year of the Fall after which the winner owned its 18 centers (None: no solo)."""
        if self.winner is None:
            return None
        phase = self.final.phase          # the Winter after that Fall, or the Spring after it
        return phase.year - (phase.season == "Spring")

    @property
    def final_phase(self) -> str:
        return self.final.phase.short

    def result(self, power: str) -> PowerResult:
        return next(r for r in self.results if r.power == power)

    def to_json(self, history: bool = False) -> dict:
        out = {"seed": self.seed, "until": self.until, "draw_after": self.draw_after,
               "time_limit": self.time_limit,
               "seats": dict(self.seats), "final_phase": self.final_phase,
               "winner": self.winner, "ended": self.ended, "solo_year": self.solo_year,
               "seconds": round(self.seconds, 3),
               "phases_played": len(self.phases),
               "powers": [{"power": r.power, "bot": r.bot, "centers": r.centers, "units": r.units,
                           "win": r.win, "eliminated": r.eliminated,
                           "seconds": round(r.seconds, 3), "max_seconds": round(r.max_seconds, 3),
                           "refused": r.refused} for r in self.results],
               "faults": [f.to_json() for f in self.faults]}
        if history:
            out["phases"] = [{"phase": p.phase, "orders": {k: list(v) for k, v in p.orders.items()},
                              "seconds": {k: round(v, 4) for k, v in p.seconds.items()}}
                             for p in self.phases]
        return out


def seat_rng(seed: int, power: str) -> random.Random:
    """The random stream of one seat in one game (a string seed is hashed the same way
    in every process, so a game replays anywhere)."""
    return random.Random(f"dipsolve-play:{seed}:{power}")


def _foresees(bot: Bot) -> bool:
    """Whether a seat foresees (a ``foresee(position, orders)`` method and ``foresees``
    true): it orders after the other seats and is shown their orders of the phase first.
    No player can; `benchmarks/play.py`'s ``clairvoyant`` seat uses it to measure what
    knowing the others' orders is worth to the search, the bound of every opponent model."""
    return bool(getattr(bot, "foresees", False)) and callable(getattr(bot, "foresee", None))


def _ended(position: Position, until: int, variant: Variant, draw_after: int | None,
           changed: int) -> str | None:
    """How the game ends at ``position``, or None if it goes on: "solo", "draw" (no center
    changed hands since the Fall of ``changed``, ``draw_after`` years or more before this
    Spring) or "year" (the Fall of ``until`` played)."""
    phase = position.phase
    if variant.winner(position.centers) is not None:
        return "solo"
    if phase.year > until or (phase.year == until and phase.season == "Winter"):
        return "year"
    if (draw_after is not None and phase.season == "Spring" and phase.kind == "movement"
            and phase.year - 1 - changed >= draw_after):
        return "draw"
    return None


def _to_order(position: Position, power: str) -> bool:
    """Whether ``power`` has anything to order in this phase."""
    kind = position.phase.kind
    if kind == "movement":
        return any(u.power == power for u in position.units)
    if kind == "retreat":
        return any(d.unit.power == power for d in position.dislodged)
    return position.adjustment(power) != 0


def play_game(seats: Mapping[str, Bot], *, limits: Limits | None = None, until: int = UNTIL,
              start: Position | None = None,
              on_phase: Callable[[Position], None] | None = None,
              variant: Variant | None = None,
              draw_after: int | None = DRAW_AFTER) -> GameRecord:
    """Play one game: ``seats`` maps every power to its bot, until a solo, a draw after
    ``draw_after`` years without a center changing hands, or the Fall of ``until``.

    ``limits`` (`dipsolve.Limits`, default `PLAY_LIMITS`) are the game's: each phase,
    every power with something to order (units to move, units to retreat, builds or
    removals owed) is asked for its orders with ``limits.time_limit`` seconds (a seat
    that foresees, `_foresees`, last, shown the others' orders first), drawing chance
    from its own stream of ``limits.seed`` (`seat_rng`); each power's thinking time is
    measured on ``limits.clock`` ("wall" or "cpu"); a seat that takes the game's limits
    (``with_limits``: a dipsolve seat, which then searches on that clock and within
    ``limits.nodes`` of work a phase) plays under them.  A seat's CP-SAT workers are its
    own (they follow its clock): ``limits.workers`` is left at 1.  The phase is
    adjudicated (a bot with an ``observe(position, orders)`` method is shown every
    power's orders) and the next begins.  A bot with a ``prepare()`` method is prepared
    once before the game, outside its clock (a dipsolve seat loads its method's model
    there, in every process that plays).  ``on_phase`` is called with each position
    before it is played (for a progress bar).  ``variant``: the game's powers, start and
    victory (`dipsolve.core.variant`; the standard game by default).
    """
    limits = game_limits(limits, "play_game")
    seed, time_limit, tick = limits.seed, limits.time_limit, clock_named(limits.clock)
    v = variant or standard_variant()
    powers = v.powers
    missing = [p for p in powers if p not in seats]
    if missing:
        raise DipsolveSyntaxError(f"no bot seated for {', '.join(missing)}")
    position = start or Position.initial(v)
    if start is None and v.name != "standard":
        start = position          # the record names a variant's start (None: the standard 1901)
    if until < position.phase.year:
        raise DipsolveSyntaxError(f"the game starts in {position.phase.year}, after the last year {until}")
    if draw_after is not None and (type(draw_after) is not int or draw_after < 1):
        raise DipsolveSyntaxError(f"draw_after: expected a number of years, 1 or more, or None; "
                                  f"found {draw_after!r}")
    seats = _under(seats, limits)
    faults: list[Fault] = []
    stopped: set[str] = set()                # powers whose bots the contract stopped
    bots = {id(b): b for b in seats.values()}
    for key, bot in bots.items():
        prepare = getattr(bot, "prepare", None)
        if prepare is not None:
            # outside the game's clock (a model loaded, numba's cache read: no bound), a
            # stop request heard; a bot whose prepare raises sits out the game
            _, _, error = run_bounded(prepare, None, "dipsolve-bot-prepare")
            if error is not None:
                _stop_bot(seats, key, position.phase.short, "raised in prepare()", described(error),
                          faults, stopped)
    rngs = {p: seat_rng(seed, p) for p in powers}
    bound = turn_bound(time_limit, limits.clock)     # the wall time a bot's turn may take
    # the seats that foresee order last (`_foresees`), the others in the order of play
    seers = {p for p in powers if _foresees(seats[p])}
    order = sorted(powers, key=lambda p: p in seers)
    thinking = {p: 0.0 for p in powers}
    longest = {p: 0.0 for p in powers}
    refused = {p: 0 for p in powers}
    phases: list[PhaseRecord] = []
    began = time.perf_counter()
    # the year of the last Fall after which a center changed hands (the start: the year before)
    changed = position.phase.year - 1
    owners = position.centers
    while (ended := _ended(position, until, v, draw_after, changed)) is None:
        if stop_requested():
            raise Stopped           # a game half played is no result
        if on_phase is not None:
            on_phase(position)
        orders: dict[str, list[Order]] = {}
        spent_by: dict[str, float] = {}
        for power in order:
            if power in stopped or not _to_order(position, power):
                continue             # a bot the contract stopped: its units hold (civil disorder)
            t0 = tick()
            if power in seers:
                # a benchmark's bound, never a fair seat: shown this phase's orders of the
                # seats before it (every seat that does not foresee)
                getattr(seats[power], "foresee")(position, {p: tuple(os) for p, os in orders.items()
                                                            if p not in seers})
            turn = take_turn(seats[power], position, power, time_limit, rngs[power], clock=limits.clock)
            spent = spent_by[power] = tick() - t0
            thinking[power] += spent
            longest[power] = max(longest[power], spent)
            refused[power] += turn.refused
            if turn.fault is not None:
                faults.append(turn.fault)
                if turn.fault.stopped:
                    stopped.add(power)
            if turn.orders:
                orders[power] = turn.orders
        outcome = adjudicate(position, orders)
        for key, bot in bots.items():
            observe = getattr(bot, "observe", None)
            if observe is not None and any(seats[p] is bot and p not in stopped for p in powers):
                # every order is public once adjudicated; a power asked (timed) that gave
                # none is shown with none (its units held, or disbanded in a retreat); held
                # to a turn's bound, as its orders are
                shown = {p: orders.get(p, []) for p in spent_by}
                finished, _, error = run_bounded(lambda: observe(position, shown), bound,
                                                 "dipsolve-bot-observe")
                if not finished or error is not None:
                    _stop_bot(seats, key, position.phase.short,
                              "raised in observe()" if finished else "overran observe()",
                              described(error) if error is not None else
                              f"still running {bound:g} s after the phase", faults, stopped)
        for r in outcome.results:
            if r.reason in REFUSED and r.power in refused:
                refused[r.power] += 1
        phases.append(PhaseRecord(position.phase.short,
                                  {p: tuple(str(o) for o in os) for p, os in orders.items()},
                                  spent_by))
        position = outcome.next
        if position.centers != owners:
            owners = position.centers
            changed = position.phase.year - (position.phase.season == "Spring")
    counts = {p: len(position.centers_of(p)) for p in powers}
    winner = v.winner(position.centers)
    results = tuple(PowerResult(p, seats[p].name, counts[p], len(position.units_of(p)),
                                p == winner, counts[p] == 0, refused[p], thinking[p], longest[p])
                    for p in powers)
    return GameRecord(seed, until, time_limit, {p: seats[p].name for p in powers}, results,
                      winner, position, tuple(phases), time.perf_counter() - began, start,
                      draw_after, ended, tuple(faults))


def _stop_bot(seats: Mapping[str, Bot], key: int, phase: str, what: str, detail: str,
              faults: list[Fault], stopped: set[str]) -> None:
    """The contract stops a bot (by ``id``) outside its turns: every power it plays holds
    from ``phase`` on, each named in a `Fault`."""
    for power, bot in seats.items():
        if id(bot) == key and power not in stopped:
            stopped.add(power)
            faults.append(Fault(phase, power, bot_name(bot), what, detail, True))


def game_limits(limits: Limits | None, name: str, default: Limits = PLAY_LIMITS) -> Limits:
    """A game's ``limits`` (``default`` when None), refused when they set CP-SAT's
    workers: a seat's workers are its own (`dipsolve.play.bots.DipsolveBot.limits`)."""
    limits = limits if limits is not None else default
    if limits.workers != 1:
        raise DipsolveArgumentError(
            f"{name}(): limits.workers={limits.workers}: a seat's CP-SAT workers are its own "
            f"(one on the CPU clock or with a node limit, {WALL_WORKERS} on the wall clock); "
            f"give the game's limits without workers", expected="Limits(workers=1)")
    return limits


def under_limits(bot: Bot, limits: Limits) -> Bot:
    """A seat as it plays under a game's ``limits``: a bot with a ``with_limits(limits)``
    method (`dipsolve.play.bots.DipsolveBot`) as it returns, another as it is."""
    take = getattr(bot, "with_limits", None)
    return take(limits) if take is not None else bot


def _under(seats: Mapping[str, Bot], limits: Limits) -> dict[str, Bot]:
    """The seats as they play under the game's ``limits``: a bot with a
    ``with_limits(limits)`` method (`dipsolve.play.bots.DipsolveBot`) as it returns, the
    others as they are; a bot seated twice stays one bot (it prepares and observes once)."""
    under: dict[int, Bot] = {}
    for bot in seats.values():
        if id(bot) not in under:
            under[id(bot)] = under_limits(bot, limits)
    return {p: under[id(bot)] for p, bot in seats.items()}


def rotated(seating: Sequence[Bot], shift: int, powers: Sequence[str] | None = None) -> dict[str, Bot]:
    """The seating with every bot moved ``shift`` seats on (Austria's bot to England, …),
    so that over seven games each bot plays each power once; ``powers``: the variant's
    in their order of play (the standard game's when None)."""
    powers = powers if powers is not None else standard_variant().powers
    n = len(powers)
    return {powers[(i + shift) % n]: seating[i] for i in range(n)}


def play_series(seating: Sequence[Bot], games: int, *, limits: Limits | None = None,
                until: int = UNTIL, rotate: bool = False, jobs: int = 1,
                executor: Executor | None = None, skip: Container[int] = (),
                on_phase: Callable[[int, Position], None] | None = None,
                on_game: Callable[[GameRecord], None] | None = None,
                on_lost: Callable[[int, str], None] | None = None,
                on_retry: Callable[[int, str], None] | None = None,
                variant: str = "standard", draw_after: int | None = DRAW_AFTER) -> list[GameRecord]:
    """Play ``games`` games of ``variant`` (a name of `dipsolve.core.variant.VARIANTS`, or
    a variant or map file: `dipsolve.core.variant_files.find_variant`)
    with the bots of ``seating``, one a power (in the variant's order of play), each game
    under ``limits`` (`play_game`; default `PLAY_LIMITS`) but for its seed: game ``i`` has
    seed ``limits.seed + i`` and, with ``rotate``, the seating moved ``i`` seats on.
    ``on_phase(i, position)`` and ``on_game(record)`` report progress.
    The games numbered in ``skip`` are not played (a run resumed: they were before).

    ``jobs`` > 1 plays that many games at once, each in its own process (the games
    are independent; give each a core of its own, or the bots that think against the
    clock think less); ``executor`` (`dipsolve.execution`: local processes or Ray) plays
    them where it runs jobs.  Either way ``on_phase`` is not called, ``on_game`` is, as
    each game ends; a game whose worker dies is played again (``on_retry(i, reason)``),
    and one that died twice, or whose bot raised, is reported to ``on_lost(i, reason)``
    and left out (without ``on_lost``: `GameLost`).  The list returned is in game order.

    After `dipsolve.core.results.request_stop` (Ctrl-C at the command line) the game being
    played is dropped and `dipsolve.core.results.Stopped` is raised, once ``on_game`` has had
    every game finished.
    """
    limits = game_limits(limits, "play_series")
    seed = limits.seed
    powers = find_variant(variant).powers
    if len(seating) != len(powers):
        raise DipsolveSyntaxError(f"a seating names {len(powers)} bots, not {len(seating)}")
    if jobs < 1:
        raise DipsolveSyntaxError(f"jobs must be 1 or more, not {jobs}")
    tasks = [(rotated(seating, i if rotate else 0, powers), dataclasses.replace(limits, seed=seed + i),
              until, variant, draw_after) for i in range(games)]
    todo = [i for i in range(games) if i not in skip]
    records = []
    if executor is not None or (jobs > 1 and len(todo) > 1):
        from ..execution import Done, LocalPool
        played: dict[int, GameRecord] = {}

        def finished(done: Done) -> None:
            i = int(done.key)
            if done.ok:
                played[i] = done.value
                if on_game is not None:
                    on_game(done.value)
            elif on_lost is None:
                raise GameLost(f"game {i + 1} (seed {seed + i}): {done.error}")
            else:
                on_lost(i, done.error or "")

        def again(key: str, reason: str) -> None:
            if on_retry is not None:
                on_retry(int(key), reason)

        _check_picklable(seating)
        pool = executor if executor is not None else LocalPool(min(jobs, len(todo)))
        pool.run(_play_task, [(str(i), tasks[i]) for i in todo], finished, again)
        return [played[i] for i in sorted(played)]
    for i in todo:
        hook = (lambda pos, i=i: on_phase(i, pos)) if on_phase is not None else None
        record = _play_task(tasks[i], hook)
        records.append(record)
        if on_game is not None:
            on_game(record)
    return records


def _check_picklable(seating: Sequence[Bot]) -> None:
    """Refuse, before any game, a bot that cannot be sent to another process (docs/bots.md:
    a plain class can)."""
    import pickle
    for bot in {id(b): b for b in seating}.values():
        try:
            pickle.dumps(bot)
        except Exception as e:
            raise DipsolveArgumentError(
                f"the bot {quote(bot_name(bot))} cannot be sent to another process to play there "
                f"({described(e)}): play its games in this one (no --jobs, no --ray), or make "
                f"it picklable (docs/bots.md)", expected="a picklable bot") from None


class GameLost(DipsolveLostError):
    """A game's worker process died twice, or its bot raised (`play_series` with
    ``jobs`` or an executor, and no ``on_lost``)."""


def _play_task(task, on_phase: Callable[[Position], None] | None = None) -> GameRecord:
    seats, limits, until, variant, draw_after = task
    return play_game(seats, limits=limits, until=until, on_phase=on_phase,
                     variant=find_variant(variant), draw_after=draw_after)


# -- the results table ---------------------------------------------------------------------

@dataclass(frozen=True)
class TableRow:
    """One bot's results over a series, per seat it played (a seat: one power in one game)."""

    bot: str
    games: int          # games it sat in
    seats: int          # powers it played, over all games
    wins: int
    eliminations: int
    centers: float      # mean final supply centers per seat
    seconds: float      # mean thinking time per seat (one power through one game)
    max_seconds: float  # the longest single phase

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def elimination_rate(self) -> float:
        return self.eliminations / self.seats if self.seats else 0.0

    def to_json(self) -> dict:
        return {"bot": self.bot, "games": self.games, "seats": self.seats, "wins": self.wins,
                "eliminations": self.eliminations, "win_rate": round(self.win_rate, 4),
                "elimination_rate": round(self.elimination_rate, 4),
                "mean_centers": round(self.centers, 3), "seconds_per_game": round(self.seconds, 3),
                "max_seconds": round(self.max_seconds, 3)}


def results_table(records: Iterable[GameRecord]) -> list[TableRow]:
    """Per bot: the games it sat in, the seats it played, its solo wins and eliminations,
    its mean final center count and its mean thinking time per seat."""
    acc: dict[str, dict] = {}
    for rec in records:
        for r in rec.results:
            a = acc.setdefault(r.bot, {"games": set(), "seats": 0, "wins": 0, "elim": 0,
                                       "centers": 0, "seconds": 0.0, "max": 0.0})
            a["games"].add(id(rec))
            a["seats"] += 1
            a["wins"] += r.win
            a["elim"] += r.eliminated
            a["centers"] += r.centers
            a["seconds"] += r.seconds
            a["max"] = max(a["max"], r.max_seconds)
    return [TableRow(bot, len(a["games"]), a["seats"], a["wins"], a["elim"],
                     a["centers"] / a["seats"], a["seconds"] / a["seats"], a["max"])
            for bot, a in sorted(acc.items())]


def format_table(rows: Sequence[TableRow]) -> str:
    """The table as text, like the Victorybot seed's."""
    w = max([len("bot")] + [len(r.bot) for r in rows]) + 2
    lines = [f"{'bot':<{w}}{'games':>6}{'seats':>7}{'wins':>6}{'elim':>6}"
             f"{'% win':>8}{'% elim':>8}{'centers':>9}{'s/game':>8}{'max s':>7}"]
    for r in rows:
        lines.append(f"{r.bot:<{w}}{r.games:>6}{r.seats:>7}{r.wins:>6}{r.eliminations:>6}"
                     f"{100 * r.win_rate:>8.1f}{100 * r.elimination_rate:>8.1f}{r.centers:>9.2f}"
                     f"{r.seconds:>8.2f}{r.max_seconds:>7.2f}")
    return "\n".join(lines)


# -- the standings, as DipNet's Table 4 --------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k`` of ``n`` (95% by default), as a
    pair of fractions; (0, 1) for no trials."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Standing:
    """One bot's seats over a series, each one outcome as DipNet's Table 4 counts them
    (Paquette et al. 2019): a solo win, the most centers of a game without a winner
    (shared when tied), survived (a center or more, neither of those), or defeated (no
    center at the end); and the year of each of its solos."""

    bot: str
    seats: int
    wins: int
    most: int
    survived: int
    defeated: int
    #: the year of the Fall after which each of its solos came, in order
    solo_years: tuple[int, ...]

    def interval(self, k: int) -> tuple[float, float]:
        """The 95% interval (Wilson) of ``k`` of its seats."""
        return wilson(k, self.seats)

    @property
    def median_solo_year(self) -> int | None:
        """The median solo year over all its seats (a seat without a solo counted as
        never): the first year by whose end half of its seats had soloed; None when
        fewer than half ever did."""
        half = (self.seats + 1) // 2
        if not self.seats or len(self.solo_years) < half:
            return None
        return self.solo_years[half - 1]

    def solos_by(self) -> list[tuple[int, int]]:
        """(year, solos by the end of it) for every year from its first solo to its last."""
        if not self.solo_years:
            return []
        return [(y, sum(1 for s in self.solo_years if s <= y))
                for y in range(self.solo_years[0], self.solo_years[-1] + 1)]

    def to_json(self) -> dict:
        def part(k: int) -> dict:
            lo, hi = self.interval(k)
            return {"count": k, "rate": round(k / self.seats, 4) if self.seats else 0.0,
                    "low": round(lo, 4), "high": round(hi, 4)}
        return {"bot": self.bot, "seats": self.seats, "win": part(self.wins), "most_sc": part(self.most),
                "survived": part(self.survived), "defeated": part(self.defeated),
                "median_solo_year": self.median_solo_year,
                "solos_by_year": {str(y): k for y, k in self.solos_by()}}


def standings(records: Iterable[GameRecord]) -> list[Standing]:
    """Per bot, its seats counted as DipNet's Table 4 counts them (`Standing`)."""
    acc: dict[str, dict] = {}
    for rec in records:
        top = max((r.centers for r in rec.results), default=0)
        for r in rec.results:
            a = acc.setdefault(r.bot, {"seats": 0, "win": 0, "most": 0, "survived": 0,
                                       "defeated": 0, "years": []})
            a["seats"] += 1
            if r.win:
                a["win"] += 1
                year = rec.solo_year
                if year is not None:
                    a["years"].append(year)
            elif r.centers == 0:
                a["defeated"] += 1
            elif rec.winner is None and r.centers == top:
                a["most"] += 1
            else:
                a["survived"] += 1
    return [Standing(bot, a["seats"], a["win"], a["most"], a["survived"], a["defeated"],
                     tuple(sorted(a["years"])))
            for bot, a in sorted(acc.items())]


def format_standings(rows: Sequence[Standing]) -> str:
    """The standings as text: each outcome's share of the bot's seats with its 95%
    interval, the median solo year, then the solos by the end of each year."""
    def cell(row: Standing, k: int) -> str:
        lo, hi = row.interval(k)
        return f"{100 * k / row.seats:5.1f}% ({100 * lo:.0f}-{100 * hi:.0f})" if row.seats else "-"
    w = max([len("bot")] + [len(r.bot) for r in rows]) + 2
    lines = [f"{'bot':<{w}}{'seats':>5}  {'win':<16}{'most SC':<16}{'survived':<16}{'defeated':<16}"
             f"{'median solo':>11}"]
    for r in rows:
        median = str(r.median_solo_year) if r.median_solo_year is not None else "-"
        lines.append(f"{r.bot:<{w}}{r.seats:>5}  {cell(r, r.wins):<16}{cell(r, r.most):<16}"
                     f"{cell(r, r.survived):<16}{cell(r, r.defeated):<16}{median:>11}")
    for r in rows:
        if r.solo_years:
            lines.append(f"{r.bot}: solos by the end of " + ", ".join(
                f"{y} {100 * k / r.seats:.0f}%" for y, k in r.solos_by()))
    return "\n".join(lines)
