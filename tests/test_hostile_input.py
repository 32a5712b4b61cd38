"""Input written as an attacker would: armies offered a coast as a retreat, in every
reader; orders of 100 kB; names that look like others.  Each is refused in one error of
the project's family, in time linear in the input (counted, never timed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dipsolve
from dipsolve.core.bounds import LIMITS
from dipsolve.core.errors import DipsolveError, DipsolveLimitError, DipsolveRuleError
from dipsolve.grammar import parse_position_text
from dipsolve.core.position import Dislodged, Position, Unit

ROOT = Path(__file__).resolve().parent.parent
F1901R = (ROOT / "examples" / "f1901r.dip").read_text(encoding="utf-8")
F1901M = (ROOT / "examples" / "f1901m.dip").read_text(encoding="utf-8")


# -- armies never take a coast -------------------------------------------------------------

def _with_dislodged(line: str) -> str:
    return F1901R.replace("Russia: F RUM from SER retreats SEV\n",
                          f"Russia: F RUM from SER retreats SEV\n{line}\n")


@pytest.mark.parametrize("line, rule", [
    ("Russia: A MOS retreats STP/NC", "army-retreat-on-coast"),
    ("Russia: A MOS retreats STP/SC, UKR", "army-retreat-on-coast"),
    ("Russia: A MOS retreats St Petersburg (north coast)", "army-retreat-on-coast"),
    ("Russia: A MOS retreats NTH", "army-retreat-at-sea"),
    ("Russia: F STP/NC retreats BAR, UKR", "fleet-retreat-inland"),
])
def test_the_dip_reader_refuses_an_army_retreating_to_a_coast(line, rule):
    with pytest.raises(DipsolveRuleError) as info:
        parse_position_text(_with_dislodged(line), "r.dip")
    bad = [e for e in info.value.errors if getattr(e, "rule", None) == rule]
    assert bad and bad[0].line == 40 and bad[0].filename == "r.dip"
    assert "provinces for an army" in (bad[0].expected or "")


@pytest.mark.parametrize("now", [
    "NOW (SUM 1901) (RUS AMY MOS MRT ((STP NCS) UKR))",
    "NOW (AUT 1901) (RUS AMY MOS MRT ((STP SCS)))",
    "NOW (SUM 1901) (RUS AMY MOS MRT (UKR (STP NCS)))",
])
def test_the_daide_reader_refuses_an_army_retreating_to_a_coast(now):
    with pytest.raises(DipsolveRuleError) as info:
        parse_position_text(now, "now.daide")
    assert info.value.rule == "army-retreat-on-coast" and info.value.column == 16


@pytest.mark.parametrize("options", [["STP/NC"], ["STP/SC", "UKR"], ["UKR", "STP/NC"]])
def test_the_record_reader_refuses_an_army_retreating_to_a_coast(options):
    from dipsolve.io.records import dumps_records, read_records, replay
    game = json.loads(dumps_records([replay(Position.initial(), [{}], id="g")]))
    state = game["phases"][0]["state"]
    game["phases"][0]["name"] = "S1901R"
    state["units"]["RUSSIA"].append("*A MOS")
    state["retreats"]["RUSSIA"] = {"A MOS": options}
    with pytest.raises(DipsolveError, match="an army retreats to a province, not to a coast"):
        read_records(json.dumps(game), "g.json")


def test_no_writer_gives_an_army_a_coast():
    """A position built by hand with an army offered a coast: `problems` names it, and
    the writers give the province (which reads back)."""
    m = dipsolve.standard_map()
    bad = Position.build("Fall 1901 Retreat", [Unit("Russia", "A", "WAR")], {},
                         [Dislodged(Unit("Russia", "A", "MOS"), None, ("STP/NC", "UKR"))], game_map=m)
    assert any("not to a coast" in msg for msg, _ in bad.problems())
    text = bad.to_text()
    assert "retreats STP, UKR" in text and "STP/NC" not in text
    back, _ = parse_position_text(text)
    assert back.dislodged[0].retreats == ("STP", "UKR")
    from dipsolve.io.records import dumps_records, replay
    written = dumps_records([replay(bad, [], id="g")])
    assert "STP/NC" not in written


def test_adjudicate_cannot_write_an_army_on_a_coast(tmp_path, capsys):
    from dipsolve.cli import main
    f = tmp_path / "r.dip"
    f.write_text(_with_dislodged("Russia: A MOS retreats STP/NC").replace(
        "Russia: F RUM R SEV", "Russia: F RUM R SEV\nRussia: A MOS R STP/NC"))
    out = tmp_path / "next.dip"
    assert main(["adjudicate", str(f), "-o", str(out)]) == 2
    assert "army-retreat" not in capsys.readouterr().out and not out.exists()


# -- the order reader: bounded, and linear ---------------------------------------------------

@pytest.mark.parametrize("text", [
    "A PAR - BUR" + " BUR" * 25_000,                   # 100 kB of unknown words
    "France: " + "A PAR - BUR " * 2000,                 # 2000 orders with no separator: one order
    "( FRA AMY PAR ) MTO " + "BUR " * 3000,
    "A " + "x" * 100_000,
])
def test_an_order_line_past_its_bound_is_refused_before_it_is_read(text, monkeypatch):
    import dipsolve.grammar.orders as orders
    monkeypatch.setattr(orders, "orders_parser", lambda: pytest.fail("the line was parsed"))
    limit = int(LIMITS["max_order_length"].value)
    for read in (lambda: dipsolve.parse_orders(text), lambda: dipsolve.parse_order(text)):
        with pytest.raises(DipsolveLimitError) as info:
            read()
        e = info.value
        assert e.limit == "max_order_length" and e.column == limit + 1 and len(str(e)) < 700


def test_a_whole_phase_on_one_line_is_read_each_order_bounded():
    """The bound is on each order, not the line (docs/orders.md allows several orders a
    line): a phase of 34 orders in words on one line reads; one order past the bound after
    a separator is refused at its own place."""
    line = "Russia: " + "; ".join(["Army Moscow moves to Ukraine", "Fleet Sevastopol moves to Black Sea",
                                   "Army Warsaw supports Army Moscow to Ukraine"] * 14)
    assert len(line) > int(LIMITS["max_order_length"].value)
    assert len(dipsolve.parse_orders(line)) == 42
    limit = int(LIMITS["max_order_length"].value)
    head = "France: A PAR - BUR, "
    with pytest.raises(DipsolveLimitError) as info:
        dipsolve.parse_orders(head + "A MAR - SPA" + " SPA" * 400)
    assert info.value.column == len(head) + limit + 1 and "an order of 1,611 characters" in info.value.message


def _lookups(monkeypatch, text: str) -> int:
    """How many names the reader looks up on the map to refuse ``text``."""
    from dipsolve.core.map import Map
    count = [0]
    real = Map.province

    def counted(self, name):
        count[0] += 1
        return real(self, name)

    monkeypatch.setattr(Map, "province", counted)
    with pytest.raises(DipsolveError):
        dipsolve.parse_orders(text, position=parse_position_text(F1901M)[0])
    monkeypatch.setattr(Map, "province", real)
    return count[0]


@pytest.mark.parametrize("word", ["BUR", "X", "Paris", "St. Petersburg"])
def test_suggestions_for_an_unknown_name_look_up_a_bounded_number_of_heads(monkeypatch, word):
    """The recovery after an unknown name tries the heads of the name that could be a
    province (no longer than the map's longest name): as many lookups for 900 characters
    of words as for 150, where it was one a word, each of the whole head (quadratic)."""
    many = 900 // (len(word) + 1)            # within max_order_length
    short = _lookups(monkeypatch, "France: A BUR - PAR " + " ".join([word] * (many // 6)))
    long = _lookups(monkeypatch, "France: A BUR - PAR " + " ".join([word] * many))
    assert long == short


def test_an_unknown_name_is_quoted_short_and_escaped():
    with pytest.raises(DipsolveError) as info:
        dipsolve.parse_order("A PAR - B\u0410R" + " BUR" * 200)
    text = str(info.value)
    assert all(line.isprintable() for line in text.splitlines()) and "\\u0410" in text
    assert "\u0410" not in text and len(text.splitlines()[0]) < 400


@pytest.mark.parametrize("text", ["\u0410 PAR - BUR", "A PAR \u2013 BUR", "A PAR - BUR\u200b",
                                  "A \u202ePAR - BUR"])
def test_look_alike_text_is_shown_escaped_under_the_error(text):
    with pytest.raises(DipsolveError) as info:
        dipsolve.parse_order(text)
    shown = str(info.value)
    assert "\\u" in shown and all(ch.isprintable() and (ch.isascii() or ch == "…")
                                  for line in shown.splitlines() for ch in line)


@pytest.mark.parametrize("order", ["A PAR - BUR" + " BUR" * 25_000, "A " + "PAR " * 260 + "- BUR",
                                   "A PAR - " + "X" * 900])
def test_a_long_order_inside_a_record_is_refused_not_a_hang(tmp_path, capsys, order):
    """``analyze`` reads a record's orders with the order reader: past the bound at
    once, within it in linear time (the name lookups are bounded)."""
    from dipsolve.cli import main
    from dipsolve.io.records import dumps_records, replay
    game = json.loads(dumps_records([replay(Position.initial(), [{}], id="g")]))
    game["phases"][0]["orders"]["FRANCE"] = [order]
    f = tmp_path / "g.json"
    f.write_text(json.dumps(game))
    assert main(["analyze", str(f), "--adjudication-only"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) <= 3 and "cannot read the order" in err and len(err) < 1500


@pytest.mark.parametrize("lines", [["A XX"] * 300, ["France: A PAR - " + "Q" * 900] * 100,
                                   ["France: A PAR - BUR", "nonsense ((("] * 150])
def test_a_file_of_many_bad_lines_is_split_once(monkeypatch, lines):
    """Each line of an orders file is read alone, each with its place in the whole
    text: the text is split into lines once, not once for each bad line (which was
    quadratic: 4,000 bad lines took 29 s and 1 GB; a fuzz example of 30,000 took the
    machine's 24 GB)."""
    from dipsolve.grammar.errors import Source
    splits = [0]
    real = Source._split

    def counting(self):
        if self._lines is None:
            splits[0] += 1
        return real(self)

    monkeypatch.setattr(Source, "_split", counting)
    text = "\n".join(lines)
    with pytest.raises(DipsolveError) as info:
        dipsolve.parse_orders(text)
    bad = sum(1 for line in lines if line != "France: A PAR - BUR")
    assert len(info.value.errors) == bad and splits[0] == 1
    splits[0] = 0
    with pytest.raises(DipsolveError):
        parse_position_text("phase: S1901M\n[orders]\n" + text)
    assert splits[0] == 1


# -- a record's game id on the terminal: quoted as every error quotes ------------------------

#: a game id that would clear the screen, ring, start a line of its own and turn the text
#: right to left, were it printed as it is
HOSTILE_ID = "g\x1b[2J\x07\r\nfake: line\u202eTXT"
RECORD = ROOT / "examples" / "records" / "dumbbot-1903.json"


def _record_of(tmp_path: Path, *ids: str) -> str:
    """The example record once for each of ``ids``, each under that id (JSON lines)."""
    game = json.loads(RECORD.read_text(encoding="utf-8"))
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({**game, "id": i}) + "\n" for i in ids), encoding="utf-8")
    return str(path)


def _plain(text: str) -> bool:
    """Nothing in ``text`` that a terminal would act on or show otherwise than as read."""
    return all(ch.isprintable() and (ch.isascii() or ch == "…") for line in text.split("\n") for ch in line)


def test_analyze_quotes_the_game_id_in_its_report_and_its_progress(tmp_path, capsys, monkeypatch):
    import dipsolve.cli.progress
    from dipsolve.cli import main
    from dipsolve.core.errors import quote
    monkeypatch.setattr(dipsolve.cli.progress, "is_terminal", lambda stream: True)   # the progress drawn
    assert main(["analyze", _record_of(tmp_path, HOSTILE_ID, "plain"), "--adjudication-only"]) == 0
    out, err = capsys.readouterr()
    assert _plain(out) and f"game {quote(HOSTILE_ID)}, 12 phases" in out and "\nfake: line" not in out
    # the bar redraws itself with CR and escape sequences of its own: the id is quoted in it
    assert f"game {quote(HOSTILE_ID)}: checking" in err and HOSTILE_ID not in err
    assert "\x07" not in err and "\u202e" not in err and "fake: line" not in err.replace(quote(HOSTILE_ID), "")


def test_view_quotes_the_game_id_in_the_line_it_prints(tmp_path, capsys):
    from dipsolve.cli import main
    from dipsolve.core.errors import quote
    page = tmp_path / "game.html"
    assert main(["view", _record_of(tmp_path, HOSTILE_ID), "-o", str(page)]) == 0
    out, err = capsys.readouterr()
    assert _plain(out) and f"{page}: game {quote(HOSTILE_ID)}, 12 phases" in out and err == ""
    assert main(["view", _record_of(tmp_path, HOSTILE_ID), "--json"]) == 0      # JSON: escaped already
    assert json.loads(capsys.readouterr().out)["game"] == HOSTILE_ID


def test_a_warning_about_a_record_quotes_its_game_id(capsys):
    from types import SimpleNamespace
    from dipsolve.cli.options import warn_skipped
    from dipsolve.core.errors import quote
    warn_skipped([SimpleNamespace(id=HOSTILE_ID, warnings=("press skipped in phase S1901M",))], "games.json")
    err = capsys.readouterr().err
    assert _plain(err) and err.startswith(f"dipsolve: games.json: game {quote(HOSTILE_ID)}: warning:")
