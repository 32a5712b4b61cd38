"""Game records (dipsolve.io.records): the diplomacy package's saved-game JSON read phase by
phase as the peer's own engine played it, written from dipsolve's games so that the peer
loads and replays them, read back unchanged, and bad records refused in one line."""

from __future__ import annotations

import dataclasses
import json
import os
import pytest

import dipsolve
from dipsolve.core.errors import DipsolveError, DipsolveRuleError, DipsolveSyntaxError
from dipsolve.io.game import load_record
from dipsolve.io.records import dumps_records, read_records
from dipsolve.io.game import Game

diplomacy = pytest.importorskip("diplomacy")
from diplomacy.utils.export import (load_saved_games_from_disk,  # noqa: E402
                                    to_saved_game_format)

from dipsolve.testing.peer import OUR_POWER, from_peer_game  # noqa: E402
from dipsolve.testing.peer import random_peer_game as peer_game  # noqa: E402
from dipsolve.core.results import Limits


@pytest.fixture(scope="module")
def peer_records():
    """Ten peer-made games (seven years each), each as the peer's saved game and its boards."""
    out = []
    for seed in range(10):
        game, boards = peer_game(seed)
        out.append((to_saved_game_format(game), boards))
    return out


def test_peer_record_reads_back_phase_by_phase(peer_records):
    kinds = set()
    for saved, boards in peer_records:
        record = read_records(json.dumps(saved), "peer.json")[0]
        assert record.id == saved["id"]
        assert record.names == [p["name"] for p in saved["phases"]]
        assert len(record.phases) == len(boards)
        for phase, board, raw in zip(record.phases, boards, saved["phases"]):
            # the peer knows no standoff list: the record's is derived (checked below)
            assert dataclasses.replace(phase.position, standoffs=()) == board, phase.name
            kinds.add(phase.position.phase.kind)
            given = {OUR_POWER[p]: sorted(os) for p, os in raw["orders"].items() if os}
            assert {p: sorted(str(o) for o in os) for p, os in phase.orders.items() if os} == given
            assert {u: list(c) for u, c in phase.results.items()} == raw["results"]
    assert kinds == {"movement", "retreat", "adjustment"}


def test_standoffs_of_a_retreat_phase_are_dipsolves(peer_records):
    """The standoffs a record's retreat phase is given are those dipsolve's adjudication
    of the movement phase before finds (where the two engines agree on it)."""
    seen = 0
    for saved, _ in peer_records:
        record = read_records(json.dumps(saved))[0]
        for before, phase in zip(record.phases, record.phases[1:]):
            if phase.position.phase.kind != "retreat":
                continue
            ours = dipsolve.adjudicate(before.position, before.orders_of()).next
            if set(ours.units) == set(phase.position.units):
                assert ours.standoffs == phase.position.standoffs, phase.name
                seen += 1
    assert seen >= 2       # and every retreat phase of a dipsolve game (the round trip below)


def test_a_drawn_game_ends_on_completed():
    game, boards = peer_game(2, until="S1903M")
    game.draw()
    record = read_records(json.dumps(to_saved_game_format(game)))[0]
    assert record.names[-2:] == ["S1903M", "COMPLETED"]
    assert dataclasses.replace(record.final, standoffs=()) == boards[-1]
    assert record.phase("COMPLETED").position == record.final
    # the peer's note names the draw's members: every power with a unit left
    drawn = tuple(p for p in dipsolve.POWERS if record.phases[-2].position.units_of(p))
    assert record.winners == drawn and record.result.how == "draw" and record.result.winners == drawn
    assert record.result.line().startswith(f"a draw: {', '.join(drawn)}; centers: ")
    # named again: written from the values, the note too, and read back
    solo = dataclasses.replace(record, winners=("France",))
    assert solo.to_json()["phases"][-1]["state"]["note"] == "Victory by: FRA"
    back = read_records(json.dumps(solo.to_json()))[0]
    assert back == solo and back.result.how == "solo" and back.result.winners == ("France",)


def test_players_as_the_record_names_them():
    """A ``"players"`` object (a name, or an object with one, as a DAIDE server's SMR gives
    a player's name and version) or the peer's own power objects (their controllers):
    read, written back as the file wrote them, and from the values once changed."""
    game, _ = peer_game(1, until="F1901M")
    saved = to_saved_game_format(game)
    saved["players"] = {"FRANCE": "alice", "ENGLAND": {"name": "DumbBot", "version": "1.0"}}
    record = read_records(json.dumps(saved))[0]
    assert record.players == {"France": "alice", "England": "DumbBot"}
    assert Game.from_record(record).to_json() == saved
    changed = dataclasses.replace(record, players={"Turkey": "bob </td><script>"})
    assert changed.to_json()["players"] == {"TURKEY": "bob </td><script>"}
    assert read_records(json.dumps(changed.to_json()))[0] == changed
    # the peer's power objects (its game's to_dict): every controller but the dummy, in order
    game.get_power("RUSSIA").set_controlled("carol")
    game.get_power("RUSSIA").set_controlled(None)
    game.get_power("RUSSIA").set_controlled("dave")
    game.get_power("ITALY").set_controlled("erin")
    saved = {**to_saved_game_format(game), "powers": game.to_dict()["powers"]}
    assert read_records(json.dumps(saved))[0].players == {"Italy": "erin", "Russia": "carol, dave"}
    # a record that says nothing of its players
    assert read_records(json.dumps(to_saved_game_format(game)))[0].players == {}


def test_json_lines_of_many_games(peer_records, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(saved) + "\n" for saved, _ in peer_records[:3]))
    records = dipsolve.load_records(str(path))
    assert [r.id for r in records] == [saved["id"] for saved, _ in peer_records[:3]]
    with pytest.raises(DipsolveSyntaxError, match="3 games in the record"):
        load_record(str(path))
    assert load_record(str(path), game=1).id == records[1].id
    assert load_record(str(path), game=records[2].id).id == records[2].id


def test_phase_lookup(peer_records):
    record = read_records(json.dumps(peer_records[0][0]))[0]
    assert record.phase("f1901m").position.phase.short == "F1901M"
    assert record.phase("Fall 1901 Movement").name == "F1901M"
    with pytest.raises(DipsolveSyntaxError, match=r"no phase 'S1950M' .*it has S1901M F1901M"):
        record.phase("S1950M")


@pytest.fixture(scope="module")
def played():
    bots = {p: (dipsolve.RandomBot() if i % 2 else dipsolve.DumbBotPlayer())
            for i, p in enumerate(dipsolve.POWERS)}
    return dipsolve.play_game(bots, limits=Limits(time_limit=1.0, seed=3), until=1904)


def test_written_game_loads_in_the_peer_and_replays(played, tmp_path):
    record = Game.from_play(played).record
    assert record.final == played.final
    path = tmp_path / "game.jsonl"
    path.write_text(dumps_records([record]))
    loaded = load_saved_games_from_disk(str(path))
    assert len(loaded) == 1
    assert loaded[0].get_current_phase() == played.final.phase.short
    assert from_peer_game(loaded[0]) == dataclasses.replace(played.final, standoffs=())
    # the peer's own engine, given each phase's orders from the start, ends on the same board
    game = diplomacy.Game()
    for phase in json.loads(path.read_text())["phases"][:-1]:
        assert game.get_current_phase() == phase["name"]
        for power, orders in phase["orders"].items():
            game.set_orders(power, orders)
        game.process()
    assert from_peer_game(game) == played.final


def test_written_game_round_trips(played):
    record = Game.from_play(played).record
    assert any(p.position.phase.kind == "retreat" for p in record.phases)
    back = read_records(dumps_records([record]), "game.jsonl")
    assert back == [record]
    assert json.loads(dumps_records(back)) == json.loads(dumps_records([record]))


# -- bad records -----------------------------------------------------------------------------

def _bad(text: str) -> DipsolveError:
    with pytest.raises(DipsolveError) as info:
        read_records(text, "bad.json")
    return info.value


def test_truncated_record(peer_records):
    text = json.dumps(peer_records[0][0])
    e = _bad(text[: len(text) // 2])
    assert isinstance(e, DipsolveSyntaxError)
    assert "truncated" in e.message and e.location.startswith("bad.json:1:")
    assert "\n" not in e.message


def test_unknown_phase_name_is_located(peer_records):
    saved = json.loads(json.dumps(peer_records[0][0]))
    saved["phases"][2]["name"] = "X1901Q"
    text = json.dumps(saved, indent=1)
    e = _bad(text)
    assert "unknown phase name 'X1901Q'" in e.message
    line = text.splitlines()[e.line - 1]
    assert line[e.column - 1:].startswith('"X1901Q"')


@pytest.mark.parametrize("edit, message, kind", [
    (lambda g: g["phases"][0]["state"]["units"].update(PRUSSIA=["A BER"]), "unknown power 'PRUSSIA'",
     DipsolveSyntaxError),
    (lambda g: g["phases"][0]["state"]["units"]["FRANCE"].append("A XYZ"), "unknown location 'XYZ'",
     DipsolveSyntaxError),
    (lambda g: g["phases"][0]["orders"]["FRANCE"].append("A PAR ~ BUR"), "cannot read the order",
     DipsolveSyntaxError),
    (lambda g: g["phases"][0]["state"]["units"]["FRANCE"].append("A BUD"), "two units in Budapest",
     DipsolveRuleError),
    (lambda g: g["phases"][0]["orders"].update(France=["A PAR H"]),
     "the orders of France are given twice, under 'FRANCE' and 'France'", DipsolveSyntaxError),
    (lambda g: g.update(map="colonial"), "not a variant dipsolve ships (standard, pure, ancmed); a game "
                                         "on a map file is read with that file (--variant PATH/colonial.map",
     DipsolveSyntaxError),
    (lambda g: g.update(map=["standard"]), "map: expected a variant's name (a string), found list",
     DipsolveSyntaxError),
    (lambda g: g.update(map="../../etc/passwd"), "a game on a map file is read with that file (--variant "
                                                 "PATH/passwd.map", DipsolveSyntaxError),
    (lambda g: g.pop("phases"), "not a saved game", DipsolveSyntaxError),
    (lambda g: g["phases"][1].update(state=[]), "expected a JSON object, found list", DipsolveSyntaxError),
    (lambda g: g.update(players={"PRUSSIA": "x"}), "unknown power 'PRUSSIA'", DipsolveSyntaxError),
    (lambda g: g.update(players={"FRANCE": 3}), "players: FRANCE: expected a name", DipsolveSyntaxError),
    (lambda g: g.update(players={"FRANCE": {"version": "1"}}), "players: FRANCE: expected a name",
     DipsolveSyntaxError),
    (lambda g: g.update(players=["alice"]), "players: expected a JSON object, found list", DipsolveSyntaxError),
])
def test_bad_records(peer_records, edit, message, kind):
    saved = json.loads(json.dumps(peer_records[0][0]))
    edit(saved)
    e = _bad(json.dumps(saved))
    assert isinstance(e, kind) and message in e.message
    assert e.location is not None and e.location.startswith("bad.json:1:")


def _language_model_game() -> tuple[dict, str]:
    """A small game as language-model players' records keep it: the diplomacy package's
    format, but each phase's messages one string (and, once, a list with a string in it)."""
    path = os.path.join(os.path.dirname(__file__), "..", "examples", "records", "dumbbot-1903.json")
    with open(path) as f:
        game = json.load(f)
    for ph in game["phases"][:2]:
        ph["messages"] = "FRANCE -> ENGLAND: an alliance against Germany?\nENGLAND -> FRANCE: agreed."
    game["phases"][3]["messages"] = ["hi", {"sender": "FRANCE", "recipient": "GERMANY", "message": "hello"}]
    return game, json.dumps(game)


def test_press_in_another_shape_is_skipped_and_said_and_the_game_read():
    """Issue 49: "messages: expected a JSON list, found str" refused the whole game.  The
    boards and orders are read as without the press, and `Record.warnings` names what was
    skipped and in which phases; the file is written back as it was."""
    game, text = _language_model_game()
    (record,) = read_records(text, "llm.json")
    plain = read_records(json.dumps({**game, "phases": [{**ph, "messages": []} for ph in game["phases"]]}))[0]
    assert [(p.name, p.position, p.orders) for p in record.phases] == \
        [(p.name, p.position, p.orders) for p in plain.phases]
    assert record.warnings == (
        "the messages of phases S1901M F1901M skipped: expected a JSON list, found a string",
        "messages of phase S1902M skipped: expected JSON objects, found a string")
    assert record.phases[0].messages == () and record.phases[3].messages == (("FRANCE", "GERMANY", "hello"),)
    assert json.loads(dumps_records([record])) == game
    assert Game.from_record(record).record.warnings == record.warnings
    assert plain.warnings == ()


def test_not_json_and_empty():
    assert _bad("").message.startswith("empty record")
    e = _bad('{"id": 1,\n "phases": [}')
    assert e.message.startswith("not JSON") and (e.line, e.column) == (2, 13)


# -- the library keeps the command line's bounds -----------------------------------------

def test_load_record_refuses_a_file_past_the_size_bound_before_reading_it(tmp_path, monkeypatch):
    from dipsolve.core.bounds import LIMITS
    big = tmp_path / "big.json"
    with open(big, "wb") as f:                 # sparse: 50 MB that are never read
        f.truncate(50 * 1024 * 1024)
    opened: list[str] = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda p, *a, **k: (opened.append(str(p)), real_open(p, *a, **k))[1])
    with pytest.raises(dipsolve.DipsolveLimitError) as info:
        dipsolve.load_record(str(big))
    assert info.value.limit == "max_file_bytes" and str(big) not in opened
    assert f"{LIMITS['max_file_bytes'].value:,.0f}" in str(info.value)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_load_record_refuses_a_device_before_reading(device):
    for load in (dipsolve.load_record, dipsolve.load_records):
        with pytest.raises(dipsolve.DipsolveSyntaxError, match="a device, not a file"):
            load(device)


def test_a_pipe_is_read_up_to_the_bound(tmp_path):
    import threading
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = json.dumps({"id": "g", "map": "standard", "rules": [], "phases": []})
    writer = threading.Thread(target=lambda: fifo.write_text(text))
    writer.start()
    try:
        with pytest.raises(dipsolve.DipsolveError):     # read whole, then judged: no phases
            dipsolve.load_record(str(fifo))
    finally:
        writer.join(10)


def test_reading_puts_the_garbage_collector_back_as_it_was():
    import gc
    good = '{"id": "g", "map": "standard", "rules": [], "phases": [{"name": "S1901M", ' \
           '"state": {"units": {}, "centers": {}}, "orders": {}}]}'
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            gc.enable() if enabled else gc.disable()
            read_records(good)
            with pytest.raises(DipsolveError):
                read_records('{"phases": 3}')
            assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
