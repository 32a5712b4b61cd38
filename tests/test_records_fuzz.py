"""Fuzzing the game-record reader (hypothesis): arbitrary JSON, and real records mutated
(a value replaced, a key dropped, the text cut or a character changed), are read or
refused with a `dipsolve.core.errors.DipsolveError` — never another exception."""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.core.errors import DipsolveError
from dipsolve.io.records import Record, read_records
from dipsolve.io.game import Game
from dipsolve.core.results import Limits

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["S1901M", "F1901R", "W1901A", "COMPLETED", "FRANCE",
                                               "A PAR", "*F STP/SC", "PAR", "A PAR - BUR", "bounce"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "map", "rules", "phases", "name", "state", "units", "retreats",
                         "centers", "orders", "results", "FRANCE", "A PAR", "x"]) | st.text(max_size=6),
        children, max_size=5),
    max_leaves=30)


@cache
def saved_game() -> dict:
    """A small real record: eight phases (retreats among them) of a game between DumbBot
    and random bots."""
    bots = {p: (dipsolve.RandomBot() if i % 2 else dipsolve.DumbBotPlayer())
            for i, p in enumerate(dipsolve.POWERS)}
    return Game.from_play(dipsolve.play_game(bots, limits=Limits(time_limit=1.0, seed=3), until=1902)).record.to_json()


def _read(text: str) -> None:
    try:
        records = read_records(text, "fuzz.json")
    except DipsolveError as e:
        assert str(e)          # an error that can be printed
        return
    assert all(isinstance(r, Record) for r in records)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_json(value):
    _read(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_game_shapes(value):
    _read(json.dumps({"id": "x", "map": "standard", "phases": [value]}))
    _read(json.dumps({"id": "x", "phases": [{"name": "S1901M", "state": value, "orders": value}]}))


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


@cache
def all_paths() -> list[tuple]:
    return list(_paths(saved_game()))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), json_values, st.booleans())
@pytest.mark.slow  # many whole records mutated and read
def test_mutated_record(data, replacement, drop):
    game = json.loads(json.dumps(saved_game()))
    path = data.draw(st.sampled_from(all_paths()[1:]))
    parent = game
    for key in path[:-1]:
        parent = parent[key]
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    _read(json.dumps(game))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_cut_or_changed_text(data):
    text = json.dumps(saved_game())
    i = data.draw(st.integers(0, len(text) - 1))
    if data.draw(st.booleans()):
        _read(text[:i])
    else:
        _read(text[:i] + data.draw(st.characters()) + text[i + 1:])
