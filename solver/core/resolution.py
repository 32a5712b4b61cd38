"""Step 3 of a movement phase: every decision resolved, an iterative fixpoint of strength bounds.

The decisions of DATC section 5 (a move succeeds, a unit is dislodged, a convoy path holds,
a support is given) are settled sweep after sweep from the bounds of the strengths they
depend on (attack, hold, defend, prevent), as Meta's dipcc resolves to a fixpoint of
min/max strengths; nothing is recursive, so numba compiles and caches every function.  When
a sweep settles nothing, the decisions left form cycles: the first cycle that depends on no
other (Tarjan's algorithm, `_first_cycle`) is settled as Kruijswijk's guess algorithm ("The
Math of Adjudication") settles it: one of its moves is guessed both ways; one consistent
answer is taken, two or none call for the backup rule (a convoy paradox fails its convoys,
Szykman; circular movement succeeds: DATC 4.A.2, 4.A.3).  `settle` is the step as the
kernel calls it; steps 1, 2's matching and 4 are `dipsolve.core.kernel`'s.
"""

from __future__ import annotations

from .tables import (CONVOY, H_P, MOVE, NO, RULE_CONVOYED_OWN_SUPPORT, RULE_LAND_OWN_SUPPORT_VOID,
                     Ints, RULE_VIA_ONLY, SUPPORT_HOLD, SUPPORT_MOVE, UNKNOWN, YES, ints,
                     rows, sea_route)

#: the work array ``w`` of the resolution, one array so that a call passes one: rows of
#: ``n`` ints (the units' orders as read, the moves and supports indexed: see `settle`), then
#: the first move into each province (``P`` ints); a row's ``i``-th int is ``w[ROW * n + i]``
(W_OTYPE, W_DEST, W_SDEST, W_PROV, W_POWER, W_OCC, W_H2H, W_MNEXT, W_HS, W_MS, W_SNEXT,
 W_VIA) = range(12)
W_ROWS = 12

#
# The decisions, numbered so that one sweep takes the supports first, then the convoy
# paths, the moves and the dislodgements: node ``s`` the support of unit ``s`` is given,
# ``n + i`` the convoy path of unit ``i``'s move holds, ``2n + i`` unit ``i``'s move
# succeeds, ``3n + u`` unit ``u`` is dislodged.  Each is UNKNOWN, YES or NO in ``state``.

def _count(state: Ints, head: int, w: Ints, n: int, against: int):
    """The supports of the list starting at ``head`` (linked by row ``W_SNEXT``): how many
    are given and how many not cut, of every power and of the power ``against`` alone:
    ``(given, not cut, given by against, not cut by against)``."""
    given = 0
    possible = 0
    given_of = 0
    possible_of = 0
    s = head
    while s >= 0:
        v = state[s]
        if v != NO:
            possible += 1
            if v == YES:
                given += 1
            if w[W_POWER * n + s] == against:
                possible_of += 1
                if v == YES:
                    given_of += 1
        s = w[W_SNEXT * n + s]
    return given, possible, given_of, possible_of


def _move_verdict(i: int, jstays: int, n: int, state: Ints, w: Ints, rules: int):
    """Move ``i``'s verdict (YES, NO or UNKNOWN) with the unit in its destination
    staying (``jstays``) or leaving, from the bounds of the strengths (DATC section 5)."""
    path = state[n + i]
    if path == NO:
        return NO
    j = w[W_OCC * n + i]
    # attack strength
    a_lo, a_hi, lo_j, hi_j = _count(state, w[W_MS * n + i], w, n, w[W_POWER * n + j] if j >= 0 else w[W_POWER * n + i])
    if j >= 0 and jstays:
        if w[W_POWER * n + j] == w[W_POWER * n + i]:
            return NO                    # no unit dislodges one of its own power
        if not ((rules & RULE_CONVOYED_OWN_SUPPORT) != 0 and w[W_VIA * n + i] != 0):
            a_lo -= lo_j                  # nor is supported against its own unit (6.D.12)
            a_hi -= hi_j
    a_lo += 1
    a_hi += 1
    if path == UNKNOWN:
        a_lo = 0
    win = path == YES
    h = w[W_H2H * n + i]
    if h >= 0:                            # the defend strength of the unit met head to head
        d_lo, d_hi, _, _ = _count(state, w[W_MS * n + h], w, n, w[W_POWER * n + i])
        if a_hi <= d_lo + 1:
            return NO
        if a_lo <= d_hi + 1:
            win = False
    elif j >= 0:                          # the hold strength of the province
        if w[W_OTYPE * n + j] == MOVE:
            hold = 1 if jstays else 0
            if a_hi <= hold:
                return NO
            if a_lo <= hold:
                win = False
        else:
            d_lo, d_hi, _, _ = _count(state, w[W_HS * n + j], w, n, w[W_POWER * n + i])
            if a_hi <= d_lo + 1:
                return NO
            if a_lo <= d_hi + 1:
                win = False
    k = w[W_ROWS * n + w[W_DEST * n + i]]
    while k >= 0:                         # the prevent strength of every other move there
        if k != i:
            pk = state[n + k]
            hk = w[W_H2H * n + k]
            beaten = NO if hk < 0 else state[2 * n + hk]
            if pk != NO and beaten != YES:
                p_lo, p_hi, _, _ = _count(state, w[W_MS * n + k], w, n, w[W_POWER * n + i])
                p_lo += 1
                p_hi += 1
                if pk == UNKNOWN or beaten == UNKNOWN:
                    p_lo = 0
                if a_hi <= p_lo:
                    return NO
                if a_lo <= p_hi:
                    win = False
        k = w[W_MNEXT * n + k]
    return YES if win else UNKNOWN


def _decide(x: int, n: int, state: Ints, w: Ints, bt: Ints, held: Ints, rules: int):
    """Decision ``x``'s verdict from the state of the others (UNKNOWN when the bounds
    do not settle it)."""
    if x < n:                             # support of unit x: cut or given
        s = x
        dis = state[3 * n + s]
        if dis == YES:
            return NO
        against = w[W_SDEST * n + s] if w[W_OTYPE * n + s] == SUPPORT_MOVE else -1
        unknown = dis == UNKNOWN
        m = w[W_ROWS * n + w[W_PROV * n + s]]
        while m >= 0:
            if w[W_POWER * n + m] != w[W_POWER * n + s] and w[W_PROV * n + m] != against:
                pm = state[n + m]
                if pm == YES:
                    return NO
                if pm == UNKNOWN:
                    unknown = True
            m = w[W_MNEXT * n + m]
        return UNKNOWN if unknown else YES
    if x < 2 * n:                         # convoy path of unit i
        i = x - n
        P = bt[H_P]
        for p in range(P):
            held[p] = 0
            held[P + p] = 0
        f = w[W_HS * n + i]                         # the convoying fleets (see `movement`)
        while f >= 0:
            d = state[3 * n + f]
            if d != YES:
                held[w[W_PROV * n + f]] = 1         # not dislodged, or may not be
            if d == NO:
                held[P + w[W_PROV * n + f]] = 1     # surely not dislodged
            f = w[W_SNEXT * n + f]
        if not sea_route(bt, w[W_PROV * n + i], w[W_DEST * n + i], held):
            return NO
        for p in range(P):
            held[p] = held[P + p]
        if sea_route(bt, w[W_PROV * n + i], w[W_DEST * n + i], held):
            return YES
        return UNKNOWN
    if x < 3 * n:                         # move of unit i
        i = x - 2 * n
        j = w[W_OCC * n + i]
        # the verdict with the unit in its destination staying or leaving; when that is
        # not known, both (the flags are run-time values, so numba compiles one version)
        stays = j < 0 or w[W_OTYPE * n + j] != MOVE or w[W_H2H * n + i] == j
        if stays:
            return _move_verdict(i, stays, n, state, w, rules)
        mj = state[2 * n + j]
        if mj == YES:
            return _move_verdict(i, stays, n, state, w, rules)
        if mj == NO:
            return _move_verdict(i, not stays, n, state, w, rules)
        a = _move_verdict(i, stays, n, state, w, rules)
        b = _move_verdict(i, not stays, n, state, w, rules)
        return a if a == b else UNKNOWN
    u = x - 3 * n                         # unit u dislodged
    if w[W_OTYPE * n + u] == MOVE:
        mu = state[2 * n + u]
        if mu == YES:
            return NO
    else:
        mu = NO
    unknown = False
    m = w[W_ROWS * n + w[W_PROV * n + u]]
    while m >= 0:
        v = state[2 * n + m]
        if v == YES:
            if mu == NO:
                return YES
            unknown = True
        elif v == UNKNOWN:
            unknown = True
        m = w[W_MNEXT * n + m]
    return UNKNOWN if unknown else NO


def _propagate(pending: Ints, count: int, n: int, state: Ints, w: Ints, bt: Ints, held: Ints,
               rules: int):
    """Settle every pending decision the others' bounds settle, sweep after sweep until a
    sweep settles none; returns how many are left pending (compacted at the start of
    ``pending``; a decision settled already, a guess among them, is dropped)."""
    changed = True
    while changed and count > 0:
        changed = False
        left = 0
        for q in range(count):
            x = pending[q]
            if state[x] != UNKNOWN:
                continue
            v = _decide(x, n, state, w, bt, held, rules)
            if v != UNKNOWN:
                state[x] = v
                changed = True
                continue
            pending[left] = x
            left += 1
        count = left
    return count


def _dependencies(x: int, n: int, state: Ints, w: Ints, out: Ints):
    """The pending decisions ``x`` depends on, written to ``out``; their number."""
    c = 0
    if x < n:
        s = x
        out[c] = 3 * n + s
        c += 1
        m = w[W_ROWS * n + w[W_PROV * n + s]]
        while m >= 0:
            out[c] = n + m
            c += 1
            m = w[W_MNEXT * n + m]
    elif x < 2 * n:
        f = w[W_HS * n + x - n]
        while f >= 0:
            out[c] = 3 * n + f
            c += 1
            f = w[W_SNEXT * n + f]
    elif x < 3 * n:
        i = x - 2 * n
        out[c] = n + i
        c += 1
        j = w[W_OCC * n + i]
        if j >= 0:
            if w[W_OTYPE * n + j] == MOVE:
                out[c] = 2 * n + j
                c += 1
            else:
                s = w[W_HS * n + j]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = w[W_SNEXT * n + s]
        for unit in (i, w[W_H2H * n + i]):
            if unit >= 0:
                s = w[W_MS * n + unit]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = w[W_SNEXT * n + s]
        k = w[W_ROWS * n + w[W_DEST * n + i]]
        while k >= 0:
            if k != i:
                out[c] = n + k
                c += 1
                if w[W_H2H * n + k] >= 0:
                    out[c] = 2 * n + w[W_H2H * n + k]
                    c += 1
                s = w[W_MS * n + k]
                while s >= 0:
                    out[c] = s
                    c += 1
                    s = w[W_SNEXT * n + s]
            k = w[W_MNEXT * n + k]
    else:
        u = x - 3 * n
        out[c] = 2 * n + u
        c += 1
        m = w[W_ROWS * n + w[W_PROV * n + u]]
        while m >= 0:
            out[c] = 2 * n + m
            c += 1
            m = w[W_MNEXT * n + m]
    # only the pending ones count
    k = 0
    for q in range(c):
        if state[out[q]] == UNKNOWN:
            out[k] = out[q]
            k += 1
    return k


def _first_cycle(pending: Ints, count: int, n: int, state: Ints, w: Ints, member: Ints):
    """Mark in ``member`` the decisions of the first strongly connected set of pending
    decisions that depends on no other pending one (Tarjan's algorithm on an explicit
    stack: its first finished set is such a one); returns its size."""
    N = 4 * n
    index = ints(N, -1)
    low = ints(N, 0)
    onstack = ints(N, 0)
    stack = ints(N, 0)
    call = ints(N, 0)
    edge = ints(N, 0)
    W = 3 * n + 4                         # at most this many dependencies a decision
    deps = ints(N * W, 0)
    ndeps = ints(N, 0)
    scratch = ints(4 * n + 8, 0)
    for q in range(count):
        x = pending[q]
        k = _dependencies(x, n, state, w, scratch)
        ndeps[x] = k
        for e in range(k):
            deps[x * W + e] = scratch[e]
    counter = 0
    sp = 0
    for q in range(count):
        root = pending[q]
        if index[root] >= 0:
            continue
        top = -1
        w = root                          # the decision to visit next (-1: none)
        while True:
            if w >= 0:                    # visit w: number it, stack it, walk its edges
                index[w] = counter
                low[w] = counter
                counter += 1
                stack[sp] = w
                sp += 1
                onstack[w] = 1
                top += 1
                call[top] = w
                edge[top] = 0
                w = -1
            if top < 0:
                break
            v = call[top]
            if edge[top] < ndeps[v]:
                t = deps[v * W + edge[top]]
                edge[top] += 1
                if index[t] < 0:
                    w = t
                elif onstack[t] != 0 and index[t] < low[v]:
                    low[v] = index[t]
                continue
            if low[v] == index[v]:        # v roots a strongly connected set: the first
                size = 0
                while True:
                    sp -= 1
                    t = stack[sp]
                    onstack[t] = 0
                    member[t] = 1
                    size += 1
                    if t == v:
                        break
                return size
            top -= 1
            if top >= 0 and low[v] < low[call[top]]:
                low[call[top]] = low[v]
    return 0


def _guess(x: int, value: int, pending: Ints, count: int, n: int, state: Ints, w: Ints, bt: Ints,
           held: Ints, rules: int):
    """The verdict of decision ``x`` when it is guessed ``value`` and everything else
    settled by that guess: YES, NO or UNKNOWN."""
    st = ints(4 * n, 0)
    for q in range(4 * n):
        st[q] = state[q]
    pend = ints(count, 0)
    for q in range(count):
        pend[q] = pending[q]
    st[x] = value                         # held at the guess: `_propagate` leaves it
    _propagate(pend, count, n, st, w, bt, held, rules)
    st[x] = UNKNOWN
    return _decide(x, n, st, w, bt, held, rules)


def _stalled(pending: Ints, count: int, n: int, state: Ints, w: Ints, bt: Ints, held: Ints,
             rules: int):
    """Settle one cycle of the pending decisions, where the fixpoint stalled: the first
    that depends on no other (`_first_cycle`).  One of its moves is guessed both ways
    (Kruijswijk's guess algorithm, "The Math of Adjudication"): one consistent answer is
    taken; two or none call for the backup rule (DATC 4.A.2, 4.A.3 and section 5.B): the
    convoys of a paradox fail (Szykman), else every move of the circular movement
    succeeds."""
    member = ints(4 * n, 0)
    _first_cycle(pending, count, n, state, w, member)
    x = -1
    paths = False
    for q in range(4 * n):
        if member[q] != 0:
            if x < 0 and 2 * n <= q < 3 * n:
                x = q
            if n <= q < 2 * n:
                paths = True
    if x >= 0:
        guesses = ints(2, NO)             # the guesses as run-time values: one compiled _guess
        guesses[1] = YES
        if_no = _guess(x, guesses[0], pending, count, n, state, w, bt, held, rules)
        if_yes = _guess(x, guesses[1], pending, count, n, state, w, bt, held, rules)
        if if_no == if_yes and if_no != UNKNOWN:
            state[x] = if_no              # the same verdict whatever the guess
            return
    for q in range(4 * n):
        if member[q] != 0:
            if paths:
                if n <= q < 2 * n:
                    state[q] = NO        # Szykman: the convoys of the paradox fail
            elif 2 * n <= q < 3 * n:
                state[q] = YES           # circular movement: every move succeeds


def settle(bt: Ints, prov: Ints, power: Ints, at: Ints, held: Ints, otype: Ints, dest: Ints,
           dloc: Ints, via: Ints, sprov: Ints, sdest: Ints, rules: int, land: Ints):
    """Steps 2 and 3 of a movement phase whose orders are matched (`dipsolve.core.kernel`'s
    ``_match``): convoy intent (``via`` is updated), the moves and supports indexed, every
    decision resolved.  Returns the decisions' ``state`` (see the numbering above), the
    moves into each province (``mhead``, linked by ``mnext``), the unit each move meets
    head to head, and whether each support or convoy is of an order given (``valid``).
    ``rules``: the engine's options (`dipsolve.core.tables`' ``RULE_*``); ``land``: the
    armies that go over land whatever convoy is ordered for them (``RULE_LAND_FALLBACK``)."""
    P = bt[H_P]
    n = len(prov)
    # 2. convoy intent (DATC 3.0, 4.A.3): a fleet of the army's power ordered to convoy it
    #    (unless the rules take only 'via convoy' as intent)
    if (rules & RULE_VIA_ONLY) == 0:
        for i in range(n):
            if otype[i] == CONVOY:
                a = at[sprov[i]]
                if (otype[a] == MOVE and dest[a] == sdest[i] and power[a] == power[i]
                        and land[a] == 0):
                    via[a] = 1
    # the moves into each province, the unit each move meets, head to head or standing
    mhead = ints(P, -1)
    # the rows by unit, made in one go: the next move to the same province, the unit a move
    # meets standing or head to head; the lists of supports (``hs``, ``ms``, ``snext``,
    # below), whether a support or convoy is of an order given
    ru = rows(7, n, -1)
    mnext, occ, h2h, hs, ms, snext, valid = ru[0], ru[1], ru[2], ru[3], ru[4], ru[5], ru[6]
    for i in range(n):
        valid[i] = 0
    for i in range(n - 1, -1, -1):
        if otype[i] == MOVE:
            mnext[i] = mhead[dest[i]]
            mhead[dest[i]] = i
    for i in range(n):
        if otype[i] == MOVE:
            j = at[dest[i]]
            occ[i] = j
            if j >= 0 and otype[j] == MOVE and dest[j] == prov[i] and via[i] == 0 and via[j] == 0:
                h2h[i] = j
    # the supports of each unit's hold (``hs``; for an army by convoy: the fleets convoying
    # it) and of its move (``ms``), linked by ``snext``; ``valid``: the support or convoy
    # is of an order given
    for i in range(n - 1, -1, -1):
        t = otype[i]
        if t != SUPPORT_HOLD and t != SUPPORT_MOVE and t != CONVOY:
            continue
        j = at[sprov[i]]
        if t == SUPPORT_HOLD:
            if otype[j] != MOVE:
                valid[i] = 1
                snext[i] = hs[j]
                hs[j] = i
        elif t == SUPPORT_MOVE:
            # a support that names a coast must name the coast moved to (DATC 4.B.4); the
            # rules may void a support of a move over land against one's own unit (6.E.3)
            own = at[sdest[i]] >= 0 and power[at[sdest[i]]] == power[i] and via[j] == 0
            if (otype[j] == MOVE and dest[j] == sdest[i] and (dloc[i] < 0 or dloc[i] == dloc[j])
                    and not (own and (rules & RULE_LAND_OWN_SUPPORT_VOID) != 0)):
                valid[i] = 1
                snext[i] = ms[j]
                ms[j] = i
        elif otype[j] == MOVE and via[j] != 0 and dest[j] == sdest[i]:
            valid[i] = 1
            snext[i] = hs[j]
            hs[j] = i
    # 3. resolve: the decisions, settled ones first (see `_decide` for the numbering)
    state = ints(4 * n, NO)
    pending = ints(4 * n, 0)
    count = 0
    for i in range(n):
        if (otype[i] == SUPPORT_HOLD or otype[i] == SUPPORT_MOVE) and valid[i] != 0:
            state[i] = UNKNOWN
            pending[count] = i
            count += 1
    for i in range(n):
        if otype[i] == MOVE:
            state[n + i] = UNKNOWN if via[i] != 0 else YES
            if via[i] != 0:
                pending[count] = n + i
                count += 1
    for i in range(n):
        if otype[i] == MOVE:
            if occ[i] < 0 and via[i] == 0 and mnext[i] < 0 and mhead[dest[i]] == i:
                state[2 * n + i] = YES   # alone into an empty province
            else:
                state[2 * n + i] = UNKNOWN
                pending[count] = 2 * n + i
                count += 1
    for u in range(n):
        if mhead[prov[u]] >= 0:
            state[3 * n + u] = UNKNOWN
            pending[count] = 3 * n + u
            count += 1
    # the work array of the decisions (see `W_ROWS`)
    w = ints(W_ROWS * n + P, -1)
    for i in range(n):
        w[W_OTYPE * n + i] = otype[i]
        w[W_DEST * n + i] = dest[i]
        w[W_SDEST * n + i] = sdest[i]
        w[W_PROV * n + i] = prov[i]
        w[W_POWER * n + i] = power[i]
        w[W_OCC * n + i] = occ[i]
        w[W_H2H * n + i] = h2h[i]
        w[W_MNEXT * n + i] = mnext[i]
        w[W_HS * n + i] = hs[i]
        w[W_MS * n + i] = ms[i]
        w[W_SNEXT * n + i] = snext[i]
        w[W_VIA * n + i] = via[i]
    for p in range(P):
        w[W_ROWS * n + p] = mhead[p]
    count = _propagate(pending, count, n, state, w, bt, held, rules)
    while count > 0:
        _stalled(pending, count, n, state, w, bt, held, rules)
        count = _propagate(pending, count, n, state, w, bt, held, rules)
    return state, mhead, mnext, h2h, valid
