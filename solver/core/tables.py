"""The rules engine's layout and its convoy-route search: the numbers every engine function shares.

The engine (`dipsolve.core.kernel`, `dipsolve.core.resolution`) works on flat integer
arrays: the map's tables ``bt`` (a header of sizes and offsets, then the tables, made by
`dipsolve.core.board.Board`), the units and the orders given as rows of ints, the answer
as rows of ints.  Their fields are named here, once; so are the order types, the reasons
an order is refused, the results, the decisions' states, the one allocation helper
(`ints`) and the one convoy-chain search over the map's adjacency (`sea_route`, and
`on_route` for the convoys an order may give).
"""

from __future__ import annotations

from typing import Any

#: an engine array, as the engine functions' annotations name it: a flat array of int64
#: (numba's ``int64[::1]``) when compiled, a list of ints as plain Python; `load` compiles
#: each function for the types its annotations give (``Ints`` and ``int``), once
Ints = Any
#: rows of ints made by `rows` (a 2-d int64 array, ``int64[:, ::1]``, when compiled; a
#: list of lists as plain Python)
Rows = Any

# -- the map's tables (`bt`): a header of sizes and offsets, then the tables -----------------

#: header fields of ``bt``: the numbers of provinces and locations, then where each table
#: starts: each location's province, each province's terrain and number of coasts, the
#: moves of an army and of a fleet (location by location), the provinces an army and a
#: fleet reach from a location, the coast a fleet's move to a province fills in, the
#: provinces' adjacency, where a fleet may stand, each location's place in name order
H_P, H_L = 0, 1
(O_LPROV, O_TERR, O_NCOAST, O_AMOVE, O_FMOVE, O_AREACH, O_FREACH, O_FILL, O_NB, O_FSTAND,
 O_LORDER) = range(2, 13)
HEADER = 13
#: terrains (``bt[O_TERR + p]``)
LAND, COAST, SEA = 0, 1, 2

# -- the rows of units and orders --------------------------------------------------------------

#: a unit: its power, kind (0 army, 1 fleet) and location, and its rank in the canonical
#: order of units (`dipsolve.core.position.Unit`: by power's name, then kind; the location's
#: name breaks ties, by the map's ``O_LORDER``)
U_POWER, U_KIND, U_LOC, U_RANK = range(4)
UF = 4
#: an order: the power giving it, its type, its unit's kind and location, its target, the
#: other unit's kind and location (supported, convoyed), flags (`F_VIA`, `F_BAD_ROUTE`)
#: and an id telling apart orders whose other fields are equal (names not on the map, a
#: route named): 0 for an order with none, else numbered in each phase (`ID_MAX`)
R_POWER, R_TYPE, R_KIND, R_LOC, R_TARGET, R_OKIND, R_OLOC, R_FLAGS, R_ID = range(9)
OF = 9
F_VIA, F_BAD_ROUTE = 1, 2
#: the engine's inputs, one int64 for each unit and each order (a Python int made by
#: `pack_unit` and `pack_order` at the boundary, `dipsolve.core.board`; unpacked into the
#: rows above by `unpack` in the engine): each field stored plus
#: an offset so that it is never negative, in this many bits
UNIT_BITS = ((U_POWER, 0, 8, 0), (U_KIND, 8, 1, 0), (U_LOC, 9, 13, 0), (U_RANK, 22, 10, 0))
ORDER_BITS = ((R_TYPE, 0, 4, 0), (R_KIND, 4, 2, 1), (R_LOC, 6, 13, 2), (R_TARGET, 19, 13, 2),
               (R_OKIND, 32, 2, 1), (R_OLOC, 34, 13, 2), (R_FLAGS, 47, 2, 0),
               (R_POWER, 49, 8, 1), (R_ID, 57, 6, 0))
#: at most this many powers and locations can be packed
MAX_POWERS, MAX_LOCATIONS = 254, 8189
#: the largest id (``R_ID``).  The boundary numbers a phase's orders that need one from 1,
#: in order, among the orders of one power equal in every other field; ids past this one
#: are all ``ID_MAX``.  That is exact: a unit's orders are only ever compared with the
#: first one matched to it (a repeat or another order), and the first one of its kind has
#: id 1.
ID_MAX = 63


def _packer(layout, what):
    """A row of ints as one int, by ``layout``: one expression made for it (the loop over
    the fields cost 1.7 us an order; the boundary packs every order it has not seen)."""
    terms = " | ".join(f"((row[{field}] + {offset}) << {shift})" for field, shift, bits, offset in layout)
    fn = eval(f"lambda row: {terms}")     # noqa: S307 (the layout's numbers only)
    fn.__doc__ = f"{what}'s row as one int (see the layout above)."
    return fn


#: a unit's row (`UF` ints) as one int (`UNIT_BITS`)
pack_unit = _packer(UNIT_BITS, "A unit")
#: an order's row (`OF` ints) as one int (`ORDER_BITS`; its id at most `ID_MAX`)
pack_order = _packer(ORDER_BITS, "An order")


def unpack(packed, stride, layout):
    """Rows of ``stride`` ints from their packed ints, by ``layout`` (`UNIT_BITS` for the
    units, `ORDER_BITS` for the orders)."""
    n = len(packed)
    out = ints(n * stride, 0)
    for i in range(n):
        v = packed[i]
        for field, shift, bits, offset in layout:
            out[i * stride + field] = ((v >> shift) & ((1 << bits) - 1)) - offset
    return out


def unpack_lists(packed, stride, layout):
    """`unpack` as plain Python runs it (`dipsolve.core.kernel.load` binds it when the
    engine is not compiled): the same rows, each packed int read by one expression made
    for its layout, a third of the time of the loop over the fields."""
    read = _READERS.get(layout)
    if read is None:
        fields = sorted(layout)
        assert [f[0] for f in fields] == list(range(stride))
        terms = ", ".join(f"((v >> {shift}) & {(1 << bits) - 1}) - {offset}"
                          for _, shift, bits, offset in fields)
        read = _READERS[layout] = eval(f"lambda v: ({terms},)")     # noqa: S307 (numbers only)
    out = []
    for v in packed:
        out += read(v)
    return out


#: `unpack_lists`' readers, by layout
_READERS: dict = {}


#: order types
HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, RETREAT, DISBAND, BUILD, OTHER = range(9)

# -- the answer (`movement`'s ``out``) -------------------------------------------------------

#: per unit: the order read (type, destination province and location, by convoy, the
#: other unit's province, the supported or convoyed destination), why it was refused
#: (`W_*`), the index of the order given (-1: none), the result (`X_*`), the unit that
#: dislodged it (-1: none)
A_TYPE, A_DEST, A_DLOC, A_VIA, A_SPROV, A_SDEST, A_WHY, A_GIVEN, A_RESULT, A_BY = range(10)
AF = 10
#: per order: how it was matched (`S_*`)
S_MATCHED, S_NO_UNIT, S_WRONG_KIND, S_NOT_YOURS, S_PHASE, S_REPEATED, S_TWICE = range(7)
#: results
(X_HELD, X_MOVED, X_NO_CONVOY, X_BOUNCED, X_VOID, X_SUPPORTED, X_CUT, X_CONVOYED,
 X_DISRUPTED) = range(1, 10)
#: why an order was refused (each names a rule of `dipsolve.core.rules.RULES`)
(W_NONE, W_PHASE, W_SUPPORTED_LOC, W_SELF_SUPPORT, W_SUPPORT_HOLD_REACH, W_NOTHING_TO_SUPPORT,
 W_DEST_LOC, W_SUPPORT_OWN_PROVINCE, W_SUPPORT_MOVE_REACH, W_SUPPORTED_CANNOT, W_MOVE_OWN_PROVINCE,
 W_ROUTE, W_ARMY_SEA, W_ARMY_ADJACENT, W_NO_ROUTE, W_FLEET_LAND, W_FLEET_ADJACENT,
 W_COAST_NEEDED, W_WRONG_COAST, W_FLEET_ADJACENT_LOC, W_CONVOY_FLEET, W_CONVOY_LOC,
 W_NOTHING_TO_CONVOY, W_CONVOY_ARMY, W_CONVOY_IMPOSSIBLE, W_CONVOY_OFF_ROUTE, W_TWICE) = range(27)

#: the engine's options (`dipsolve.core.rules.Rules` sets them; 0 is DATC 3.0's preferences):
#: only 'via convoy' makes a move go by convoy (DATC 4.A.3, as Meta's engine has it); an
#: army whose convoy fails goes over land if it can (6.G.8 as DATC 2.x and the `diplomacy`
#: package have it); a power's support of a convoyed attack on its own unit counts (6.D.12,
#: the `diplomacy` package); a power's support of an attack over land on its own unit
#: counts for nothing (6.E.3, the `diplomacy` package)
RULE_VIA_ONLY, RULE_LAND_FALLBACK, RULE_CONVOYED_OWN_SUPPORT, RULE_LAND_OWN_SUPPORT_VOID = 1, 2, 4, 8
#: not a rule: `dipsolve.core.kernel.movement` stops after matching and reading the orders
READ_ONLY = 16

# decision states
UNKNOWN, YES, NO = 0, 1, 2


def rows(count: int, n: int, value: int):
    """``count`` rows of ``n`` ints set to ``value``, made in one go (``rows(...)[k]`` is a
    row that writes through): lists as plain Python, a 2-d array when compiled."""
    return [[value] * n for _ in range(count)]


def ints(n: int, value: int):
    """``n`` ints set to ``value``: a list as plain Python, an array when compiled
    (`dipsolve.core.kernel.load`)."""
    return [value] * n


# -- convoy routes: one chain search ----------------------------------------------------------

def sea_route(bt: Ints, src: int, dst: int, held: Ints):
    """Whether an army in province ``src`` can be carried to ``dst`` through seas whose
    ``held[p]`` is set, each next to the one before (breadth first over the map's
    adjacency of provinces)."""
    P = bt[H_P]
    nb = bt[O_NB]
    seen = ints(P, 0)
    queue = ints(P, 0)
    tail = 0
    for s in range(P):
        if held[s] != 0 and bt[nb + src * P + s] != 0:
            seen[s] = 1
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        if bt[nb + s * P + dst] != 0:
            return True
        for t in range(P):
            if held[t] != 0 and seen[t] == 0 and t != src and bt[nb + s * P + t] != 0:
                seen[t] = 1
                queue[tail] = t
                tail += 1
    return False


def on_route(bt: Ints, src: int, dst: int, sea: int, held: Ints):
    """Whether the fleet in ``sea`` is necessary for some convoy route from ``src`` to
    ``dst`` through the seas ``held``: on a chain with no shortcut (no two places on it
    adjacent but consecutive ones), each chain ending at the first sea next to ``dst``
    (DATC 4.E.1, case 6.G.19).  Depth first, on an explicit path."""
    P = bt[H_P]
    nb = bt[O_NB]
    path = ints(P + 1, 0)
    cursor = ints(P + 1, 0)
    depth = 0
    path[0] = src
    while depth >= 0:
        last = path[depth]
        if depth > 0 and bt[nb + last * P + dst] != 0:
            for q in range(1, depth + 1):
                if path[q] == sea:
                    return True
            depth -= 1
            continue
        found = -1
        t = cursor[depth]
        while t < P and found < 0:
            if held[t] != 0 and bt[nb + last * P + t] != 0:
                ok = True
                for q in range(depth + 1):
                    if path[q] == t or (q < depth and bt[nb + t * P + path[q]] != 0):
                        ok = False
                        break
                if ok:
                    found = t
            t += 1
        if found < 0:
            depth -= 1
        else:
            cursor[depth] = found + 1
            depth += 1
            path[depth] = found
            cursor[depth] = 0
    return False
