"""Bots of the user's own (issue 27): the `Bot` protocol, the registry, entry points of the
group ``dipsolve.bots``, ``FILE.py:CLASS`` and ``MODULE:CLASS``, the help generated from
the registry, and the example bot in ``examples/bots/`` at ``dipsolve play``."""

from __future__ import annotations

import importlib.metadata
import json
import random
from pathlib import Path

import pytest

import dipsolve
from dipsolve.cli import main
from dipsolve.core.map import POWERS
from dipsolve.play import registry as bots
from dipsolve.play.games import play_game
from dipsolve.core.results import Limits

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "bots" / "greedy.py")


def test_the_example_bot_is_seated_by_file_and_class_and_plays_legal_orders():
    bot = dipsolve.make_bot(f"{EXAMPLE}:GreedyBot")
    assert bot.name == "example-greedy"
    record = play_game({p: bot for p in POWERS}, limits=Limits(seed=2), until=1902)
    assert record.final.phase.year >= 1902
    # greedy: the 12 neutral centers are grabbed (22 owned at the start)
    assert len(record.final.centers) > 22


def test_play_seats_the_example_bot_beside_dumbbot(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = main(["play", "--bots", "examples/bots/greedy.py:GreedyBot,dumbbot", "--games", "1",
                 "--until", "1902", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    table = {row["bot"] for row in json.loads(out)["table"]}
    assert table == {"example-greedy", "dumbbot"}


def test_an_installed_bot_is_found_through_its_entry_point(monkeypatch):
    point = importlib.metadata.EntryPoint(name="mybot", value="dipsolve.play.bots:GreedyBot",
                                          group=bots.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group=None: [point] if group == bots.ENTRY_POINT_GROUP else [])
    assert dipsolve.make_bot("mybot").name == "greedy"
    with pytest.raises(dipsolve.DipsolveSyntaxError, match="unknown bot 'mybotx'.*mybot"):
        dipsolve.make_bot("mybotx")


def test_a_registered_bot_is_seated_and_listed(capsys):
    bots.register_bot("holder", lambda options, variant: _Holder(), "holds everything")
    try:
        assert dipsolve.make_bot("holder").name == "holder"
        assert "holder (holds everything)" in bots.bots_help()
        with pytest.raises(SystemExit):
            main(["play", "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "holder (holds everything)" in help_text and "FILE.py:CLASS" in help_text
    finally:
        del bots.REGISTRY["holder"]


class _Holder:
    name = "holder"

    def orders(self, position, power, deadline_s, rng):
        return []


@pytest.mark.parametrize("spec, error, message", [
    ("nosuch.py:Bot", dipsolve.DipsolveFileError, "no such Python file"),
    (f"{EXAMPLE}:NoBot", dipsolve.DipsolveSyntaxError, "has no 'NoBot' \\(its classes: GreedyBot\\)"),
    ("dipsolve.core.map:Map", dipsolve.DipsolveUnavailable, "could not be made"),
    ("dipsolve.core.map:POWERS", dipsolve.DipsolveSyntaxError, "is not a bot"),
    ("no_such_module_here:Bot", dipsolve.DipsolveUnavailable, "does not load: ModuleNotFoundError"),
    ("dipsolve:alphabeta", dipsolve.DipsolveSyntaxError, "unknown dipsolve method 'alphabeta'"),
    ("greedy:fast", dipsolve.DipsolveSyntaxError, "takes nothing after ':'"),
])
def test_a_bot_that_cannot_be_seated_is_refused_before_the_game(spec, error, message):
    with pytest.raises(error, match=message):
        dipsolve.make_bot(spec)


def test_the_cli_refuses_a_bad_bot_with_status_2(capsys):
    assert main(["play", "--bots", "nosuch.py:Bot"]) == 2
    assert "no such Python file" in capsys.readouterr().err


def test_the_example_bot_answers_every_kind_of_phase():
    bot = dipsolve.make_bot(f"{EXAMPLE}:GreedyBot")
    rng = random.Random(0)
    for name, power in (("f1901r.dip", None), ("w1901a.dip", None), ("s1902m.dip", "France")):
        position = dipsolve.Position.from_file(dipsolve.example(name))
        for p in ([power] if power else position.powers()):
            orders = bot.orders(position, p, 1.0, rng)
            assert all(isinstance(o, dipsolve.Order) for o in orders)
            assert [x for x in dipsolve.order_problems(position, {p: orders}) if x is not None] == []
