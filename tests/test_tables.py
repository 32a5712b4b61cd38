"""Wide tables at the command line fold to the terminal's width (dipsolve.cli.tables, on rich)."""

from __future__ import annotations

from dipsolve.cli.tables import fold_table, terminal_width

ORDERS = ["A BUR S A PIC - PAR", "A GAS - PAR", "A HOL - BEL", "F ENG - IRI", "F MAO - WES"]


def test_a_wide_table_folds_to_the_width_and_keeps_each_order_whole():
    rows = [("F1903M", ORDERS, ORDERS[::-1], "+70.2")] * 3
    for width in (60, 90, 200):
        text = fold_table(["phase", "played", "dipsolve's", "value lost"], rows, width=width, right={3})
        lines = text.splitlines()
        assert max(map(len, lines)) <= width
        assert lines[0].split() == ["phase", "played", "dipsolve's", "value", "lost"]
        if width >= 90:                        # room for the longest order: never broken in one
            for order in ORDERS:
                assert sum(line.count(order) for line in lines) == 3 * 2
        assert "\u00a4" not in text
    narrow = fold_table(["phase", "played"], [("S1901M", ORDERS)], width=40)
    assert len(narrow.splitlines()) > 3        # wrapped, not cut
    wide = fold_table(["phase", "played"], [("S1901M", ORDERS)], width=200)
    assert len(wide.splitlines()) == 3         # heading, rule, one row


def test_the_value_column_is_aligned_right():
    text = fold_table(["power", "lost"], [("France", "+1.0"), ("Italy", "-12.5")], width=40, right={1})
    rows = text.splitlines()[2:]
    assert len({len(r) for r in rows}) == 1    # right edges line up


def test_terminal_width_follows_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "77")
    assert terminal_width() == 77
    monkeypatch.setenv("COLUMNS", "10")
    assert terminal_width() == 40               # never narrower than a usable table
