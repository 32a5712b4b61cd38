"""The compiled resolver's kernel is loaded before any clock starts: `fast_kernel.warm`
(its one line when it must compile first), called by a dipsolve seat's ``prepare()``
(before every game, in every process, and before the DAIDE seat connects), by ``dipsolve
play`` and ``daide`` before they check a dipsolve seat, and by a ``batch`` that searches;
a game without a dipsolve seat loads no numba."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipsolve.cli import main
from dipsolve.cli.play import seating
from dipsolve.core import fast_kernel
from dipsolve.core.map import POWERS
from dipsolve.play.bots import DipsolveBot
from dipsolve.play.daide import seat
from dipsolve.play.games import play_game
from dipsolve.play.registry import make_bot
from dipsolve.play.daide.wire import DaideConnectionError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def calls(monkeypatch) -> list[str]:
    """What happened, in order: each `fast_kernel.warm` call is "warm" (and still loads)."""
    events: list[str] = []
    real = fast_kernel.warm

    def warm(note=None) -> float:
        events.append("warm")
        return real(note)
    monkeypatch.setattr(fast_kernel, "warm", warm)
    return events


@pytest.mark.skipif(not fast_kernel.numba_installed(), reason="numba is not installed")
def test_warm_says_it_compiles_only_when_numba_has_no_kernel_cached(monkeypatch):
    notes: list[str] = []
    monkeypatch.setattr(fast_kernel, "_ready", [])          # as in a new process
    monkeypatch.setattr(fast_kernel, "_cached", lambda: False)
    fast_kernel.warm(notes.append)
    assert len(notes) == 1 and "compiling" in notes[0] and fast_kernel.ready()
    assert fast_kernel.warm(notes.append) == 0.0 and len(notes) == 1    # loaded: nothing to do
    monkeypatch.setattr(fast_kernel, "_ready", [])
    monkeypatch.setattr(fast_kernel, "_cached", lambda: True)
    fast_kernel.warm(notes.append)
    assert len(notes) == 1 and fast_kernel.ready()


@pytest.mark.skipif(not fast_kernel.numba_installed(), reason="numba is not installed")
def test_once_warm_the_kernel_is_in_numbas_cache_where_numba_looks():
    fast_kernel.warm()
    assert fast_kernel._cached()


def test_a_dipsolve_seat_loads_the_kernel_when_prepared_and_other_bots_do_not(calls):
    make_bot("dipsolve").prepare()      # play_game prepares every bot before the game
    assert calls == ["warm"]
    for name in ("dumbbot", "random", "greedy"):
        bot = make_bot(name)
        getattr(bot, "prepare", lambda: None)()
    assert calls == ["warm"]
    play_game({p: make_bot("dumbbot") for p in POWERS}, until=1901)
    assert calls == ["warm"]


def test_dipsolve_play_and_daide_load_the_kernel_before_a_dipsolve_seat_is_checked(monkeypatch,
                                                                                   calls):
    checked: list[list[str]] = []
    monkeypatch.setattr(DipsolveBot, "check", lambda self: checked.append(list(calls)))
    seating("dipsolve,dumbbot", [])      # the seats of `dipsolve play` and `dipsolve daide`
    assert checked == [["warm"]]
    seating("dumbbot,random", [])
    assert calls == ["warm"]


@pytest.mark.parametrize("task, loads", [("solve", True), ("adjudicate", False)])
def test_a_batch_that_searches_loads_the_kernel_first(tmp_path, capsys, calls, task, loads):
    out = tmp_path / "r.jsonl"
    code = main(["batch", str(EXAMPLES / "s1902m.dip"), "-o", str(out), "--task", task,
                 "--power", "FRA", "--time-limit", "0.2", "--jobs", "1", "--json"])
    capsys.readouterr()
    assert code == 0
    assert (calls[:1] == ["warm"]) == loads and ("warm" in calls) == loads


@pytest.mark.parametrize("bot, loads", [("dipsolve", True), ("random", False)])
def test_the_daide_seat_prepares_its_bot_before_it_connects(monkeypatch, calls, bot, loads):
    class NoServer:
        @staticmethod
        def open(*args, **kwargs):
            calls.append("connect")
            raise DaideConnectionError("no server here")
    monkeypatch.setattr(seat, "Connection", NoServer)
    with pytest.raises(DaideConnectionError):
        seat.play_daide("127.0.0.1", 1, bot)
    assert calls == (["warm", "connect"] if loads else ["connect"])
