"""The compiled resolver's kernel is loaded before any clock starts: `fast_kernel.warm`
(its one line when it must compile first), and its calls at the start of ``dipsolve
play``, of a ``batch`` that searches, and of the DAIDE seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipsolve.cli import main
from dipsolve.core import fast_kernel
from dipsolve.play import games
from dipsolve.play.daide import seat
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


def test_dipsolve_play_loads_the_kernel_before_its_first_game(monkeypatch, capsys, calls):
    real = games.play_game

    def play_game(*args, **kwargs):
        calls.append("game")
        return real(*args, **kwargs)
    monkeypatch.setattr(games, "play_game", play_game)
    assert main(["play", "--bots", "dumbbot,random", "--games", "1", "--until", "1901"]) == 0
    assert calls[0] == "warm" and calls.count("game") == 1
    capsys.readouterr()


@pytest.mark.parametrize("task, loads", [("solve", True), ("adjudicate", False)])
def test_a_batch_that_searches_loads_the_kernel_first(tmp_path, capsys, calls, task, loads):
    out = tmp_path / "r.jsonl"
    code = main(["batch", str(EXAMPLES / "s1902m.dip"), "-o", str(out), "--task", task,
                 "--power", "FRA", "--time-limit", "0.2", "--jobs", "1", "--json"])
    capsys.readouterr()
    assert code == 0
    assert (calls[:1] == ["warm"]) == loads and ("warm" in calls) == loads


def test_the_daide_seat_loads_the_kernel_before_it_connects(monkeypatch, calls):
    class NoServer:
        @staticmethod
        def open(*args, **kwargs):
            calls.append("connect")
            raise DaideConnectionError("no server here")
    monkeypatch.setattr(seat, "Connection", NoServer)
    with pytest.raises(DaideConnectionError):
        seat.play_daide("127.0.0.1", 1, "random")
    assert calls == ["warm", "connect"]
