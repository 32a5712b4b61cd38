"""The engine's one bit layout (`dipsolve.core.tables`): a unit's and an order's row packed
into one int and read back, by the loop numba compiles and by plain Python's reader."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dipsolve.core import kernel
from dipsolve.core import tables as t


def _rows(layout, stride):
    """Rows whose every field fits its bits (each stored plus its offset)."""
    fields = sorted(layout)
    return st.tuples(*(st.integers(-offset, (1 << bits) - 1 - offset)
                       for _, _, bits, offset in fields)).map(list)


@settings(max_examples=300, deadline=None)
@given(st.lists(_rows(t.ORDER_BITS, t.OF), max_size=8), st.lists(_rows(t.UNIT_BITS, t.UF), max_size=8))
def test_rows_packed_read_back_the_same_by_both_readers(orders, units):
    for rows, stride, layout, pack in ((orders, t.OF, t.ORDER_BITS, t.pack_order),
                                       (units, t.UF, t.UNIT_BITS, t.pack_unit)):
        packed = [pack(r) for r in rows]
        assert all(0 <= v < 1 << 63 for v in packed)       # an int64, never negative
        flat = [x for r in rows for x in r]
        assert kernel.plain("unpack")(packed, stride, layout) == flat     # the loop, as written
        assert t.unpack_lists(packed, stride, layout) == flat


def test_the_boundarys_sums_pack_every_order_as_the_layout_does():
    # `Board.order_code` adds each field's term to its type's base (the packing is
    # linear); `Board._row` reads any order field by field: the same int, every order
    from dipsolve.core.board import board_of
    from dipsolve.core.map import standard_map
    from dipsolve.core.orders import Hold, Move, SupportMove
    from dipsolve.testing import benchmark_phases

    board = board_of(standard_map())
    orders = [o for _, given in benchmark_phases(5, 200) for os in given.values() for o in os]
    orders += [Move("F", "MAO", "SPA/NC", via_convoy=True), Hold("F", "STP/SC"),
               SupportMove("F", "GOL", "F", "MAR", "SPA/SC"), Move("A", "XYZ", "PAR")]
    assert len({type(o) for o in orders}) == 5
    for o in orders:
        assert board.order_code(o) == t.pack_order((0, *board._row(o))), o
