"""The bot contract (`dipsolve.play.contract`): a bot's turn is bounded, a bot that raises or
overruns is stopped and named, what is not an order is refused and counted, and a stop
request ends a game whatever its bots do.

No test here waits on the wall clock for a result: an overrun is made by a clock of the
test's (`take_turn`'s ``wall``), and a game with a bot that sleeps forever ends because the
contract stops it, whatever the machine's speed.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.core.errors import DipsolveArgumentError, DipsolveRuleError
from dipsolve.core.orders import Hold, Move
from dipsolve.core.position import Position
from dipsolve.core.results import Limits, Stopped, request_stop, reset_stop
from dipsolve.play.bots import DumbBotPlayer
from dipsolve.play.contract import CPU_STRETCH, take_turn, turn_bound
from dipsolve.play.games import play_game, play_series

START = Position.initial()
DUMB = DumbBotPlayer()


class Sleeper:
    """Thinks forever (until the test lets it go)."""

    name = "sleeper"

    def __init__(self) -> None:
        self.calls = 0
        self.release = threading.Event()

    def orders(self, position, power, deadline_s, rng):
        self.calls += 1
        self.release.wait()
        return []


class Raiser:
    name = "raiser"
    calls = 0

    def orders(self, position, power, deadline_s, rng):
        Raiser.calls += 1
        return 1 / 0


class Returns:
    """Returns what it is given, in every phase."""

    def __init__(self, value, name="returns") -> None:
        self.value, self.name = value, name

    def orders(self, position, power, deadline_s, rng):
        return self.value


def _seats(power: str, bot) -> dict:
    return {p: (bot if p == power else DUMB) for p in START.map.powers}


def _fake_wall(step: float):
    """A wall clock that moves ``step`` seconds each time it is read."""
    counter = itertools.count()
    return lambda: next(counter) * step


def test_the_bound_is_the_limit_and_a_margin_stretched_on_the_cpu_clock():
    assert turn_bound(2.0) == 3.0 and turn_bound(0.1) == 1.1 and turn_bound(10.0) == 15.0
    assert turn_bound(2.0, "cpu") == 3.0 * CPU_STRETCH


def test_a_bot_past_its_bound_is_stopped_and_named():
    bot = Sleeper()
    turn = take_turn(bot, START, "France", 2.0, random.Random(0), wall=_fake_wall(1.0))
    bot.release.set()
    f = turn.fault
    assert turn.orders == [] and f is not None and f.stopped and f.what == "overran its turn"
    assert f.line() == ("S1901M: France's bot sleeper overran its turn (still thinking 3 s into a turn "
                        "of 2 s): France's units hold from here on")


def test_a_game_with_a_bot_that_sleeps_forever_ends_and_says_so():
    bot = Sleeper()
    record = play_game(_seats("France", bot), limits=Limits(time_limit=0.05), until=1902)
    bot.release.set()
    assert bot.calls == 1                          # asked once, then never again
    assert [f.to_json()["what"] for f in record.faults] == ["overran its turn"]
    assert record.faults[0].phase == "S1901M" and record.faults[0].stopped
    # France's units held from then on: no orders of France in any phase
    assert all("France" not in ph.orders for ph in record.phases)
    assert record.to_json()["faults"][0]["power"] == "France"


def test_a_bot_that_raises_is_stopped_and_its_power_holds():
    Raiser.calls = 0
    record = play_game(_seats("Italy", Raiser()), limits=Limits(time_limit=0.5), until=1902)
    assert Raiser.calls == 1 and len(record.faults) == 1
    f = record.faults[0]
    assert (f.phase, f.power, f.what, f.detail) == ("S1901M", "Italy", "raised",
                                                   "ZeroDivisionError: division by zero")
    assert all("Italy" not in ph.orders for ph in record.phases)


def test_what_is_not_an_order_is_refused_counted_and_named():
    good = Move("A", "PAR", "BUR")
    record = play_game(_seats("France", Returns([good, 42, None, "A MAR - SPA"])),
                       limits=Limits(time_limit=0.5), until=1901)
    # each movement phase: three refused, the move kept and played
    assert record.result("France").refused >= 6
    assert [f.phase for f in record.faults] == ["S1901M", "F1901M"]
    assert "3 of the 4 things it gave, refused: 42, None, 'A MAR - SPA'" in record.faults[0].detail
    assert record.phases[0].orders["France"] == ("A PAR - BUR",)
    assert not record.faults[0].stopped
    record = play_game(_seats("France", Returns(42)), limits=Limits(time_limit=0.5), until=1901)
    assert record.faults[0].detail == "returned 42, not a list of orders"
    assert all("France" not in ph.orders for ph in record.phases)


def test_dipsolves_own_refusal_holds_one_turn_only():
    class Refuses:
        name = "refuses"
        calls = 0

        def orders(self, position, power, deadline_s, rng):
            Refuses.calls += 1
            raise DipsolveRuleError("nothing to say")
    record = play_game(_seats("Germany", Refuses()), limits=Limits(time_limit=0.5), until=1901)
    assert Refuses.calls == 2 and [f.what for f in record.faults] == ["found no orders"] * 2
    assert not any(f.stopped for f in record.faults)


def test_a_bot_whose_observe_or_prepare_raises_sits_out():
    class BadObserver(Returns):
        def observe(self, position, orders):
            raise ValueError("cannot learn")

    class BadPrepare(Returns):
        def prepare(self):
            raise RuntimeError("no model")

    record = play_game(_seats("Russia", BadObserver([])), limits=Limits(time_limit=0.5), until=1901)
    assert [(f.phase, f.what) for f in record.faults] == [("S1901M", "raised in observe()")]
    record = play_game(_seats("Russia", BadPrepare([])), limits=Limits(time_limit=0.5), until=1901)
    assert [(f.phase, f.what, f.detail) for f in record.faults] == [
        ("S1901M", "raised in prepare()", "RuntimeError: no model")]
    assert all("Russia" not in ph.orders for ph in record.phases)


def test_a_stop_request_ends_a_game_while_a_bot_thinks():
    class StopsThenSleeps(Sleeper):
        def orders(self, position, power, deadline_s, rng):
            request_stop()
            return super().orders(position, power, deadline_s, rng)
    bot = StopsThenSleeps()
    try:
        with pytest.raises(Stopped):
            play_game(_seats("England", bot), limits=Limits(time_limit=60.0), until=1910)
    finally:
        reset_stop()
        bot.release.set()


def test_an_unpicklable_bot_is_refused_before_a_game_in_another_process():
    class Unpicklable(Returns):
        def __init__(self):
            super().__init__([], "unpicklable")
            self.lock = threading.Lock()
    with pytest.raises(DipsolveArgumentError, match="cannot be sent to another process"):
        play_series([Unpicklable()] + [DUMB] * 6, 2, jobs=2, until=1901)


# -- fuzzed: whatever a bot returns, the harness answers with orders or a fault ---------

_ANY = st.recursive(st.none() | st.integers() | st.text(max_size=8) | st.floats()
                    | st.sampled_from([Hold("A", "PAR"), Move("A", "PAR", "BUR"), Move("F", "XXX", "YYY")]),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                    max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(value=_ANY)
def test_whatever_a_bot_returns_the_turn_is_orders_or_a_fault(value):
    turn = take_turn(Returns(value), START, "France", 1.0, random.Random(0))
    assert all(isinstance(o, dipsolve.Order) for o in turn.orders)
    if turn.fault is not None:
        assert not turn.fault.stopped and turn.refused >= 1
        assert turn.fault.line() and json.dumps(turn.fault.to_json())
    else:
        assert turn.refused == 0


# -- the command line -----------------------------------------------------------------------

BOTS = '''
import pathlib, time
class Sleeper:
    name = "sleeper"
    def orders(self, position, power, deadline_s, rng):
        time.sleep(1e6)
class Slow:
    """Thinks its whole turn in game 2; says so in a file first."""
    name = "slow"
    def orders(self, position, power, deadline_s, rng):
        if position.phase.year == 1901 and getattr(self, "games", 0):
            pathlib.Path(__file__).with_name("thinking").touch()
            time.sleep(1e6)
        return []
    def prepare(self):
        self.games = getattr(self, "games", -1) + 1
'''


def _cli(*argv: str, cwd: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "dipsolve", *argv], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_play_with_a_bot_that_sleeps_forever_ends(tmp_path):
    (tmp_path / "bots.py").write_text(BOTS, encoding="utf-8")
    proc = _cli("play", "--bots", "bots.py:Sleeper,dumbbot", "--games", "1", "--until", "1901",
                "--time-limit", "0.1", "--json", cwd=tmp_path)
    out, err = proc.communicate(timeout=600)
    d = json.loads(out)
    assert proc.returncode == 0 and d["status"] == "finished"
    assert [f["what"] for f in d["games"][0]["faults"]] == ["overran its turn"]


def test_one_ctrl_c_ends_play_while_a_bot_thinks_keeping_the_finished_games(tmp_path):
    (tmp_path / "bots.py").write_text(BOTS, encoding="utf-8")
    proc = _cli("play", "--bots", "bots.py:Slow,dumbbot", "--games", "2", "--until", "1901",
                "--time-limit", "60", cwd=tmp_path)
    try:
        for _ in range(6000):                   # until the bot thinks in game 2 (or the game ends)
            if (tmp_path / "thinking").exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert (tmp_path / "thinking").exists(), proc.communicate(timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "game 1 (seed 0)" in out and "interrupted: 1 of 2 games finished" in err
    assert "Traceback" not in err
