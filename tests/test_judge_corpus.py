"""Orders as players write them (tests/data/judge_orders.tsv): read by `dipsolve parse`,
by `dipsolve validate` with the unit types left out, and by the fast path alike.

The corpus holds the email Judges' syntax (njudge, DPjudge), compact dashes, report lines
with their marks, convoy routes, several orders a line, power abbreviations and header
lines, every way of writing a coast, and orders with no unit type, each with the reading
`dipsolve parse -f` must print for it.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipsolve.cli import main
from dipsolve.core.errors import DipsolveError
from dipsolve.grammar import parse_order
from dipsolve.grammar.fastpath import fast_order_line, fast_orders_file
from dipsolve.grammar.orders import grammar_order_line, parse_orders, read_orders
from dipsolve.core.map import POWERS, standard_map
from dipsolve.core.orders import Build, Disband, Order, Retreat, UnitOrder, Waive
from dipsolve.core.position import Dislodged, Position, Unit

CORPUS = Path(__file__).resolve().parent / "data" / "judge_orders.tsv"
M = standard_map()


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            cls, text, reading = line.split("\t")
            rows.append((cls, text.replace("\\n", "\n"), reading))
    return rows


ROWS = _rows()
AMBIGUOUS = "ambiguous: "


def _readings(reading: str) -> list[str]:
    return reading.removeprefix(AMBIGUOUS).split(" | ")


def test_the_corpus_covers_every_form():
    assert len(ROWS) >= 150
    classes = {cls for cls, _, _ in ROWS}
    assert classes == {"compact", "words", "report", "route", "several", "power", "header",
                       "coast", "notype", "adjustment"}
    assert sum(r.startswith(AMBIGUOUS) for _, _, r in ROWS) >= 4


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("cls, text, reading", ROWS, ids=[f"{c}:{t}" for c, t, _ in ROWS])
def test_parse_reads_the_corpus(capsys, tmp_path, cls, text, reading):
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(text + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "parse", "-f", str(sheet))
    if reading.startswith(AMBIGUOUS):
        assert (code, out) == (2, "")
        assert "ambiguous order" in err and "Traceback" not in err
        said = " or ".join(_readings(reading))
        assert f"it reads as {said} (" in err
    else:
        assert (code, err) == (0, "")
        assert out.splitlines() == _readings(reading)


# ---------------------------------------------------------------- validate, unit types left out
_TYPE = re.compile(r"\b(army|fleet|a|f)\s+(?=[a-z])", re.IGNORECASE)


def _reading_orders(reading: str) -> list[tuple[str, Order]]:
    out = []
    for r in _readings(reading):
        power, _, body = r.rpartition(": ")
        out.append((power or "England", parse_order(body)))
    return out


def _position_for(orders: list[tuple[str, Order]]) -> Position:
    """A position holding every unit the orders name (the one ordered, the one
    supported or convoyed), in the phase the orders belong to."""
    units: dict[str, Unit] = {}
    dislodged = []
    kinds = {type(o) for _, o in orders}
    phase = ("W1901A" if kinds & {Build, Disband, Waive} else "F1901R" if Retreat in kinds
             else "S1901M")
    for power, o in orders:
        if not isinstance(o, UnitOrder) or isinstance(o, Build):
            continue
        named = [(o.kind, o.location)]
        for kind, loc in ((getattr(o, "supported_kind", None), getattr(o, "supported_location", None)),
                          (getattr(o, "convoyed_kind", None), getattr(o, "convoyed_location", None))):
            if kind is not None:
                named.append((kind, loc))
        for kind, loc in named:
            unit = Unit(power, kind, loc)
            if isinstance(o, Retreat) and loc == o.location:
                dislodged.append(Dislodged(unit, None, (o.target,)))
            else:
                units.setdefault(M.province_of[loc], unit)
    return Position.build(phase, units.values(), dislodged=dislodged)


@pytest.mark.parametrize("cls, text, reading", ROWS, ids=[f"{c}:{t}" for c, t, _ in ROWS])
def test_validate_reads_the_corpus_without_unit_types(capsys, tmp_path, cls, text, reading):
    """The text with its unit types left out reads as the reading (the first, where the
    text alone is ambiguous) against a position holding those units; `dipsolve
    validate` finds every order understood and every unit there."""
    orders = _reading_orders(reading)[:1] if reading.startswith(AMBIGUOUS) else _reading_orders(reading)
    position = _position_for(orders)
    builds = any(isinstance(o, Build) for _, o in orders)
    # a build's type is not on the board; a Judge's adjustment report ("Removes the
    # fleet in Brest.") always names it
    bare = text if builds or cls == "adjustment" else _TYPE.sub("", text)
    lines, errors = read_orders(bare, "sheet.txt", position=position, need_power=False)
    if builds and reading.startswith(AMBIGUOUS):     # nothing on the board tells a build's type
        assert [e.message for e in errors] == [f"ambiguous order {text!r}: it reads as "
                                               f"{' or '.join(_readings(reading))} (write the "
                                               f"unit type, A or F)"]
        return
    assert errors == []
    assert [o for _, o in orders] == [line.order for line in lines]

    pos_file = tmp_path / "position.dip"
    pos_file.write_text(position.to_text(), encoding="utf-8")
    sheet = tmp_path / "sheet.txt"
    with_power = bare if ":" in bare else f"England:\n{bare}"
    sheet.write_text(with_power + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "validate", str(sheet), "--position", str(pos_file), "--json")
    doc = json.loads(out)
    assert doc["orders"] == len(orders)
    assert [p for p in doc["problems"] if p["kind"] == "not understood" or p["rule"] == "unit"] == []


def test_parse_with_a_position_fills_in_the_unit_and_its_coast(capsys, tmp_path):
    position = Position.build("S1901M", [Unit("Italy", "F", "VEN"), Unit("France", "F", "SPA/NC"),
                                         Unit("Italy", "A", "ROM")])
    pos_file = tmp_path / "p.dip"
    pos_file.write_text(position.to_text(), encoding="utf-8")
    code, out, err = _run(capsys, "parse", "--position", str(pos_file), "Ven-Tri")
    assert (code, out, err) == (0, "F VEN - TRI\n", "")
    code, out, _ = _run(capsys, "parse", "--position", str(pos_file), "F Spa - Mao")
    assert (code, out) == (0, "F SPA/NC - MAO\n")
    # an order for a unit that is not there names the one that is
    code, out, err = _run(capsys, "parse", "--position", str(pos_file), "Tus-Pie")
    assert code == 2 and "order for TUS, but there is no unit in Tuscany" in err
    code, out, err = _run(capsys, "parse", "--position", str(pos_file), "A Ven-Tri")
    assert (code, out) == (2, "")
    assert err.startswith("<text>:1:1: order for A VEN, but there is no army in Venice: Italy's "
                          "F VEN is there")
    code, out, err = _run(capsys, "parse", "--position", str(pos_file), "Rom S Ven-Tri")
    assert (code, out) == (0, "A ROM S F VEN - TRI\n")
    pos_file.write_text(position.to_text() + "[orders]\nItaly:\nVen-Apu, Rom S Ven-Apu\n",
                        encoding="utf-8")
    code, out, err = _run(capsys, "adjudicate", str(pos_file))
    assert code == 0, err
    assert "F VEN - APU" in out


def test_validate_names_the_unit_that_is_there(capsys, tmp_path):
    pos_file = tmp_path / "p.dip"
    pos_file.write_text(Position.initial().to_text(), encoding="utf-8")
    sheet = tmp_path / "s.txt"
    sheet.write_text("Italy:\nF Ven-Tri\nTus-Pie\nTurkey:\nA Smy - Ion - Gre\nCon-Bla-Sev\n",
                     encoding="utf-8")
    code, out, _ = _run(capsys, "validate", str(sheet), "--position", str(pos_file))
    assert code == 2
    lines = [line.removeprefix(str(tmp_path) + "/") for line in out.splitlines()]
    assert "s.txt:2:1: F VEN - TRI: no fleet in VEN: A VEN stands there" in lines
    assert "s.txt:3:1: order for TUS, but there is no unit in Tuscany" in lines
    assert "s.txt:5:1: A SMY - ION - GRE: the route goes from SMY to ION, which are not adjacent" in lines
    assert ("s.txt:6:1: A CON - BLA - SEV: CON is not adjacent to SEV and no convoy route is "
            "possible") in lines


# ---------------------------------------------------------------- the issue's own examples
def test_the_issues_examples(capsys, tmp_path):
    assert _run(capsys, "parse", "A Ven-Tri") == (0, "A VEN - TRI\n", "")
    code, out, _ = _run(capsys, "parse", "Austria: Army Vienna -> Galicia.  (*bounce*)", "--json")
    obj = json.loads(out)
    assert code == 0
    assert (obj["output"], obj["mark"]) == ("Austria: A VIE - GAL", "bounce")
    assert _run(capsys, "parse", "F Mar - Spa") == (0, "F MAR - SPA/SC\n", "")
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("Germany:\nA Mun-Ruh\nF Kie-Hol, A Ber-Kie\n", encoding="utf-8")
    assert _run(capsys, "parse", "-f", str(sheet)) == (
        0, "Germany: A MUN - RUH\nGermany: F KIE - HOL\nGermany: A BER - KIE\n", "")
    code, out, err = _run(capsys, "parse", "Ven-Tri")
    assert (code, out) == (2, "")
    assert err.startswith("<text>:1:1: ambiguous order 'Ven-Tri': it reads as A VEN - TRI or "
                          "F VEN - TRI")
    code, out, err = _run(capsys, "parse", "A Ven-Tri @ Rom")
    assert (code, out) == (2, "")
    assert err.startswith("<text>:1:11: expected ")
    assert "Traceback" not in err


def test_marks_are_kept_in_json(capsys):
    code, out, _ = _run(capsys, "parse", "Italy: Army Venice -> Trieste.  (*bounce*)  (*dislodged*)",
                        "--json")
    assert json.loads(out)["mark"] == "bounce, dislodged"
    code, out, _ = _run(capsys, "parse", "A Ven H", "--json")
    assert json.loads(out)["mark"] is None


# ---------------------------------------------------------------- the fast path
def _canonical_texts() -> list[str]:
    out = []
    for _, _, reading in ROWS:
        if not reading.startswith(AMBIGUOUS):
            out += [r for r in _readings(reading)]
            out += [r.rpartition(": ")[2] for r in _readings(reading)]
    return out


def test_the_fast_path_gives_what_the_grammar_gives_on_the_corpus():
    taken = 0
    for text in _canonical_texts():
        fast = fast_order_line(text)
        if fast is not None:
            taken += 1
            assert fast == grammar_order_line(text), text
    assert taken >= 150


def test_the_fast_path_gives_what_the_grammar_gives_on_random_orders():
    from dipsolve.testing import benchmark_phases
    for position, orders in benchmark_phases(7, 40):
        lines = []
        for power, os in orders.items():
            for o in os:
                for text in (str(o), f"{power}: {o}"):
                    fast = fast_order_line(text)
                    assert fast is not None, text
                    assert fast == grammar_order_line(text), text
                lines.append(f"{power}: {o}")
        file_text = "\n".join(lines) + "\n"
        assert fast_orders_file(file_text) == parse_orders(file_text + "# not the fast path\n")


_TOKENS = sorted(M.province_of) + ["XYZ", "SPA/WC", "par"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["", "France: ", "Russia: ", "FRANCE: "]), st.sampled_from(["A", "F", "a"]),
       st.sampled_from(_TOKENS), st.sampled_from([" H", " D", " B", " - ", " R ", " S ", " C ", " - ",
                                                  " VIA", ""]),
       st.sampled_from(_TOKENS), st.sampled_from(["", " VIA", " - NWY", " - SPA", "  "]))
def test_the_fast_path_agrees_on_near_canonical_text(power, kind, loc, word, other, tail):
    for text in (f"{power}{kind} {loc}{word}", f"{power}{kind} {loc}{word}{other}{tail}",
                 f"{power}{kind} {loc}{word}{kind} {other}{tail}"):
        fast = fast_order_line(text)
        if fast is None:
            continue
        assert fast == grammar_order_line(text), text


# ---------------------------------------------------------------- never a crash
def _never_crashes(text: str) -> None:
    try:
        read_orders(text, need_power=False)
        parse_order(text)
    except DipsolveError:
        pass


_SOUP = ["A", "F", "Army", "Fleet", "Ven-Tri", "Mid-Atlantic", "Ocean", "Mid-Atlantic-Bre", "Ven",
         "Tri", "m", "move", "to", "moves", "stands", "s", "c", "d", "b", "r", "w", "-", "->", ",",
         ";", ".", "(*bounce*)", "(*", "*)", "Germany:", "Ger:", ":", "/nc", "(nc)", "/north coast",
         "(south coast)", "St.", "Petersburg", "via", "convoy", "\n", "#", "Austria-Hungary", "-Kie"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SOUP), max_size=14), st.sampled_from([" ", "", "\n"]))
def test_judge_token_soup_raises_only_our_errors(words, glue):
    _never_crashes(glue.join(words))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([t for _, t, _ in ROWS]), st.randoms(use_true_random=False))
def test_mutated_corpus_lines_raise_only_our_errors(text, rnd: random.Random):
    chars = list(text)
    for _ in range(rnd.randint(1, 4)):
        at = rnd.randint(0, len(chars))
        what = rnd.choice(["delete", "insert", "swap"])
        if what == "delete" and at < len(chars):
            del chars[at]
        elif what == "insert":
            chars.insert(at, rnd.choice(string.printable + "-(*)/,;.:é"))
        elif at + 1 < len(chars):
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
    _never_crashes("".join(chars))


def test_powers_by_two_letters_or_more_but_not_one():
    for power in POWERS:
        for k in range(2, len(power) + 1):
            assert parse_orders(f"{power[:k]}: WAIVE\n") == [(power, parse_order("WAIVE"))]
    with pytest.raises(DipsolveError) as info:
        parse_orders("G: WAIVE\n")
    assert "unknown power 'G'" in info.value.message


def test_adjudicate_reads_an_order_sheet(capsys):
    root = Path(__file__).resolve().parents[1]
    code, out, err = _run(capsys, "adjudicate", str(root / "examples" / "start.dip"), "--orders",
                          str(root / "examples" / "orders" / "judge-sheet.txt"))
    assert (code, err) == (0, "")
    assert "-- Austria: A VIE - GAL    bounced" in out
    assert "ok Turkey: A CON - BUL" in out


def test_a_power_name_alone_on_a_line_heads_the_orders_below_it():
    # order sheets as people and language models write them: "Austria" then its orders
    text = "Austria\nA VIE - GAL, F TRI - ALB\n\n  england  # the island\nF LON - NTH\nENG\nTurkish:\nA CON - BUL\n"
    lines, errors = read_orders(text, "sheet.txt")
    assert errors == []
    assert [(o.power, str(o.order)) for o in lines] == [
        ("Austria", "A VIE - GAL"), ("Austria", "F TRI - ALB"), ("England", "F LON - NTH"),
        ("England", "F ENG H"),          # ENG alone is the English Channel (a hold), no header
        ("Turkey", "A CON - BUL")]
    # a name that is neither a power nor a province is still refused, at its line
    _, errors = read_orders("Austrai\nA VIE - GAL\n", "sheet.txt")
    assert errors and errors[0].line == 1


_MARKED = [(t, r) for c, t, r in ROWS if "(*" in t]


@pytest.mark.parametrize("text, reading", _MARKED, ids=[t for t, _ in _MARKED])
def test_every_report_mark_is_kept(capsys, tmp_path, text, reading):
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(text + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "parse", "-f", str(sheet), "--json")
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["output"] for o in objs] == _readings(reading)
    # each line here has its marks after one order: they are that order's, joined
    written = [", ".join(re.findall(r"\(\*([^*]*)\*\)", line)) for line in text.splitlines()]
    assert [o["mark"] for o in objs if o["mark"] is not None] == [m for m in written if m]
