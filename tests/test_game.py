"""`dipsolve.Game`: a game's history phase by phase, played, taken back, and to and from
the ``diplomacy`` package's saved-game JSON without loss (issue 27)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dipsolve
from dipsolve.io.records import load_records
from dipsolve.testing.peer import real_records

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted([*ROOT.glob("examples/records/*.json"), ROOT / "tests/data/doc_commands/daide_game.json",
                  *real_records().values(), *ROOT.glob("tests/data/records/*.json")])


def _variant(path: Path) -> object:
    """The variant a record is read on: the example map file's for the game played on it
    (its ``"map"`` is ``"isles.map"``), else None (its own, a shipped one)."""
    if not path.name.startswith("isles-"):
        return None
    from dipsolve.core.variant_files import find_variant
    return find_variant(str(ROOT / "examples" / "variants" / "isles.map"))


def test_process_undo_and_the_phases():
    game = dipsolve.Game()
    assert (game.phase.short, game.position, len(game)) == ("S1901M", dipsolve.Position.initial(), 1)
    out = game.process({"France": ["A PAR - BUR", "F BRE - MAO"], "GER": [dipsolve.Move("A", "MUN", "BUR")]})
    assert out.result_for("PAR").reason == "bounced"
    assert game.position == out.next and game.phase.short == "F1901M"
    first = game.phases[0]
    assert first.name == "S1901M" and first.outcome is out
    assert [str(o) for o in first.orders["France"]] == ["A PAR - BUR", "F BRE - MAO"]
    assert first.results["A PAR"] == ("bounce",)
    game.process({"France": ["F MAO - SPA/NC"]})
    assert [ph.name for ph in game] == ["S1901M", "F1901M", "W1901A"]
    assert game.undo().name == "F1901M" and game.phase.short == "F1901M"
    assert game.undo().name == "S1901M" and game.position == dipsolve.Position.initial()
    with pytest.raises(dipsolve.DipsolveRuleError):
        game.undo()


def test_press_stays_with_its_phase_and_is_written():
    game = dipsolve.Game()
    game.say("France", "England", "PRP (PCE (ENG FRA))")
    game.say("ENG", "GLOBAL", "hello")
    game.process({})
    assert game.phases[0].messages == (("France", "England", "PRP (PCE (ENG FRA))"), ("England", "GLOBAL", "hello"))
    again = dipsolve.Game.from_json(game.to_json())
    assert again.phases[0].messages == game.phases[0].messages


def test_bad_arguments_are_family_errors():
    with pytest.raises(dipsolve.DipsolveArgumentError):
        dipsolve.Game("S1901M")
    with pytest.raises(dipsolve.DipsolveArgumentError):
        dipsolve.Game().process("France: A PAR - BUR")
    with pytest.raises(dipsolve.DipsolveError):
        dipsolve.Game().process({"Frnace": ["A PAR - BUR"]})
    with pytest.raises(dipsolve.DipsolveError):
        dipsolve.Game().process({"France": ["A PAR - Burgundyy"]})
    for players in ({"France": 3}, ["alice"], {"Frnace": "alice"}):
        with pytest.raises(dipsolve.DipsolveError):
            dipsolve.Game(players=players)
    assert dipsolve.Game(players={"fra": "alice"}).record.players == {"France": "alice"}


@pytest.mark.parametrize("orders", [{"France": None}, {"France": 5}, {"France": [None]},
                                    {"France": [3.5]}, {5: ["A PAR - BUR"]}, {None: []}],
                         ids=["none", "a-number", "a-none-order", "a-number-order", "a-number-power",
                              "a-none-power"])
def test_a_value_of_the_wrong_kind_in_the_orders_is_an_argument_error(orders):
    game = dipsolve.Game()
    with pytest.raises(dipsolve.DipsolveArgumentError):
        game.process(orders)
    assert len(game) == 1 and game.phase.short == "S1901M"        # nothing played


def test_one_power_under_two_spellings_is_one_list_of_orders_as_adjudicate_reads_it():
    """``"France"`` and ``"FRANCE"`` (or ``"fra"``) are one power: its orders are one list,
    so a unit given two different orders across them is ordered twice (DATC 4.D.3), as in
    one list, where one spelling's orders were silently dropped."""
    start = dipsolve.Position.initial()
    split = dipsolve.Game().process({"France": ["A PAR - BUR"], "FRANCE": ["A PAR - PIC"]})
    together = dipsolve.Game().process({"France": ["A PAR - BUR", "A PAR - PIC"]})
    direct = dipsolve.adjudicate(start, {"France": ["A PAR - BUR"], "FRANCE": ["A PAR - PIC"]})
    assert split.results == together.results == direct.results and split.next == together.next
    assert {str(r.order): r.reason.value for r in split.results if "PAR" in str(r.order)} == {
        "A PAR - BUR": "ordered twice", "A PAR - PIC": "ordered twice"}
    game = dipsolve.Game()
    game.process({"fra": ["A PAR - BUR"], "France": ["F BRE - MAO"]})      # no unit twice: both kept
    assert {str(o) for o in game.phases[0].orders["France"]} == {"A PAR - BUR", "F BRE - MAO"}
    assert {"BUR", "MAO"} <= set(game.position.unit_in)


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_every_record_round_trips(path):
    game = dipsolve.Game.load(str(path), variant=_variant(path))
    record = load_records(str(path), _variant(path))[0]
    # the game holds every phase of the record: board, orders, results, press
    assert game.record == record
    written = game.dumps()
    again = dipsolve.Game.from_json(json.loads(written), variant=_variant(path))
    assert again.record == record and again.dumps() == written
    assert [ph.name for ph in again] == record.names
    assert again.position == record.final


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_the_first_write_is_the_source(path):
    """Read and written back, a record is the file's own JSON: its timestamps, zobrist
    hashes, message times, the order of its lists, and keys dipsolve does not use."""
    source = json.loads(path.read_text())
    assert dipsolve.Game.load(str(path), variant=_variant(path)).to_json() == source


def test_a_phase_played_anew_is_written_from_its_values():
    path = next(p for p in RECORDS if p.name == "2.json")
    source = json.loads(path.read_text())
    game = dipsolve.Game.load(str(path))
    for _ in range(len(game) - 3):
        game.undo()
    last = game.phases[-2]
    game.undo()
    game.process(last.orders)
    written = game.to_json()["phases"]
    assert written[:-2] == source["phases"][:len(written) - 2]      # untouched: as read
    assert written[-2]["state"]["timestamp"] == 0                   # played again: dipsolve's own
    assert written[-2]["state"]["timestamp"] != source["phases"][len(written) - 2]["state"]["timestamp"]
    assert dipsolve.Game.from_json(game.to_json()).record == game.record


#: how each record ends (`Record.result`): how, the winners, the last phase's name
RESULTS = {
    "dumbbot-1903.json": ("unfinished", (), "W1903A"), "peer-random-1903.json": ("unfinished", (), "S1904M"),
    # a game on a map file (five centers win there): its victory read from the file
    "isles-dumbbot.json": ("solo", ("Amber",), "W1903A"),
    # the peer's DAIDE server ended it as a draw of the six powers left ("Victory by: ENG, ...")
    "daide_game.json": ("draw", ("England", "France", "Germany", "Italy", "Russia", "Turkey"), "COMPLETED"),
    "2.json": ("unfinished", (), "S1912R"), "3.json": ("unfinished", (), "F1913M"),
    # Meta's records stop at the last phase played on webDiplomacy and say no more
    "meta-game_433761_ENGLAND_AG.json": ("unfinished", (), "S1909M"),
    "meta-game_435086_FRANCE_RT.json": ("unfinished", (), "W1908A"),
    "meta-game_443831_GERMANY_EI.json": ("unfinished", (), "S1909M"),
}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_who_played_and_how_each_record_ends(path):
    record = dipsolve.load_record(str(path), variant=_variant(path))
    # play --save names the seats' bots; none of the others names its players
    seats = {p: "dumbbot" for p in dipsolve.POWERS} if path.name == "dumbbot-1903.json" else \
        {"Amber": "dumbbot", "Cobalt": "random"} if path.name == "isles-dumbbot.json" else {}
    assert record.players == seats
    result = record.result
    assert (result.how, result.winners, result.phase) == RESULTS[path.name]
    powers = record.final.map.powers
    assert result.centers == {p: len(record.final.centers_of(p)) for p in powers}
    assert list(result.centers) == list(powers)


def test_a_solo_is_the_variants_victory_on_the_last_board():
    start = dipsolve.Position.initial()
    french = {c: "France" for c in sorted(start.map.centers)[:18]}
    won = dipsolve.Game(dipsolve.Position.build(start.phase, [], french, game_map=start.map)).record
    assert won.result.how == "solo" and won.result.winners == ("France",)
    assert won.result.line() == "a solo win for France; centers: France 18, " + ", ".join(
        f"{p} 0" for p in dipsolve.POWERS if p != "France")


def test_load_record_and_play_save_go_through_the_game(tmp_path, capsys):
    from dipsolve.cli import main
    assert main(["play", "--until", "1901", "--bots", "dumbbot", "--seed", "2", "--save", str(tmp_path)]) == 0
    capsys.readouterr()
    saved = tmp_path / "game-2.json"
    game = dipsolve.Game.load(str(saved))
    assert dipsolve.load_record(str(saved)) == game.record
    assert saved.read_text() == game.dumps()
    # who sat where: the seats' bots, written as "players"
    assert game.record.players == {p: "dumbbot" for p in dipsolve.POWERS}
    assert json.loads(saved.read_text())["players"] == {p.upper(): "dumbbot" for p in dipsolve.POWERS}
    # its history replays: every phase's outcome leads to the next phase's board
    for ph, nxt in zip(game.phases, game.phases[1:]):
        assert ph.outcome.next == nxt.position


def test_the_board_as_a_picture():
    svg = dipsolve.Game()._repr_svg_()
    assert "<svg" in svg[:500]
