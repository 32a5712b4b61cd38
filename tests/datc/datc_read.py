"""Reading the two DATC data files: the text file's cases and datc.json's entries, as `Case`s.

``datc_v2.4_06.txt`` gives complete end positions (`read_text_file`, `convert_text_case`,
checked by `check_text_case`); ``datc.json`` gives per-order outcomes, from which the
end position is derived (`convert_json_case`).  Orders in both notations are read by
`parse_text_order` and `parse_json_order`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dipsolve.core.map import POWERS
from dipsolve.core.board import retreat_options
from dipsolve.core.position import Unit

from datc_case import (JSON_FILE, MAP, TEXT_FILE, Case, Order, arrival, civil_disorder, convoyed,
                       direct, kind_of, loc, prov)
from datc_fixes import CIVIL_DISORDER_FIX, JSON_NOTES, RESOLVE

JSON_POWERS = {"AUS": "Austria", "ENG": "England", "FRA": "France", "GER": "Germany",
               "ITA": "Italy", "RUS": "Russia", "TUR": "Turkey"}


# ---------------------------------------------------------------------------------------
# Orders
# ---------------------------------------------------------------------------------------

_VIA = re.compile(r"\s+via\s+convoy\s*$", re.I)


def parse_text_order(power: str, body: str, note: str = "") -> Order:
    """An order in the text file's notation (``F nth-pic``, ``A lvp supports A yor-yor``,
    ``F nth C A lon-bel``, ``Build F stp/nc``, ``Remove pic``)."""
    via = bool(_VIA.search(body))
    body = _VIA.sub("", body)
    body = re.sub(r"\s*-\s*", " - ", body.strip())
    w = body.split()
    lw = [x.lower() for x in w]
    if lw[0] == "build":
        return Order(power, "B", kind_of(w[1]), loc(w[2]), note=note)
    if lw[0] == "remove":
        return Order(power, "D", "?", loc(w[1]), note=note)      # kind filled in later
    k, src = kind_of(w[0]), loc(w[1])
    rest = lw[2:]
    if rest in (["h"], ["hold"]):
        return Order(power, "H", k, src, note=note)
    if len(rest) == 2 and rest[0] == "-":
        return Order(power, "M", k, src, target=loc(rest[1]), via=via, note=note)
    if rest[0] in ("s", "supports"):
        sk, sl = kind_of(rest[1]), loc(rest[2])
        if len(rest) == 3:
            return Order(power, "SH", k, src, sk, sl, note=note)
        if len(rest) == 5 and rest[3] == "-":
            return Order(power, "SM", k, src, sk, sl, loc(rest[4]), note=note)
    if rest[0] in ("c", "convoys") and len(rest) == 5 and rest[3] == "-":
        return Order(power, "C", k, src, kind_of(rest[1]), loc(rest[2]), loc(rest[4]), note=note)
    raise ValueError(f"cannot read order {body!r}")


_JSON_ORDER = re.compile(r"^(?P<pow>[A-Z]{3}):\s+(?P<k>[AF])\s+(?P<loc>[a-z]{3}(?:\([a-z]{2}\))?)\s+(?P<rest>.*)$")
_JSON_LOC = r"[a-z]{3}(?:\([a-z]{2}\))?"


def parse_json_order(text: str) -> Order:
    m = _JSON_ORDER.match(text.strip())
    if not m:
        raise ValueError(f"cannot read JSON order {text!r}")
    power = JSON_POWERS[m["pow"]]
    k, src, rest = m["k"], loc(m["loc"]), m["rest"].strip()
    r = rest.lower()
    if r in ("hold", "holds"):
        return Order(power, "H", k, src)
    if r == "build":
        return Order(power, "B", k, src)
    if r == "disband":
        return Order(power, "D", k, src)
    mm = re.match(rf"^->\s+({_JSON_LOC})(\s+via convoy)?$", r)
    if mm:
        return Order(power, "M", k, src, target=loc(mm[1]), via=bool(mm[2]))
    mm = re.match(rf"^supports\s+([af])\s+({_JSON_LOC})(?:\s+->\s+({_JSON_LOC}))?$", r)
    if mm:
        if mm[3]:
            return Order(power, "SM", k, src, mm[1].upper(), loc(mm[2]), loc(mm[3]))
        return Order(power, "SH", k, src, mm[1].upper(), loc(mm[2]))
    mm = re.match(rf"^convoys\s+(?:a\s+)?({_JSON_LOC})\s+->\s+({_JSON_LOC})$", r)
    if mm:
        return Order(power, "C", k, src, "A", loc(mm[1]), loc(mm[2]))
    raise ValueError(f"cannot read JSON order {text!r}")


# ---------------------------------------------------------------------------------------
# The text file
# ---------------------------------------------------------------------------------------

_UNIT_LINE = re.compile(r"^([A-Za-z]+)\s*:?\s+([AaFf])\s+(\S+)\s*$")
_KEYWORDS = ("CASE", "PRESTATE_SETPHASE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE",
             "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "ORDERS", "POSTSTATE",
             "POSTSTATE_SAME", "POSTSTATE_DISLODGED", "END", "VARIANT_ALL")
_POWER_TYPOS = {"Germnay": "Germany"}


def power_of(text: str) -> str:
    p = _POWER_TYPOS.get(text, text)
    if p not in POWERS:
        raise ValueError(f"unknown power {text!r}")
    return p


def read_unit(line: str) -> Unit:
    m = _UNIT_LINE.match(line)
    if not m:
        raise ValueError(f"cannot read unit line {line!r}")
    return Unit(power_of(m[1]), kind_of(m[2]), loc(m[3]))


def phase_name(text: str) -> str:
    season, year, kind = text.replace(",", " ").split()
    if kind.lower() == "adjustment":      # the text file's 'Fall 1901, Adjustment'
        season = "Winter"
    return f"{season} {year} {kind.capitalize()}"


@dataclass
class RawText:
    label: str
    comments: list[str]
    phase: str | None = None
    owners: list[Unit] | None = None
    pre: list[Unit] = field(default_factory=list)
    pre_dislodged: list[Unit] = field(default_factory=list)
    results: list[tuple[bool, str, str, str]] = field(default_factory=list)  # ok, power, body, raw
    orders: list[tuple[str, str, str]] = field(default_factory=list)        # power, body, note
    post: list[Unit] | None = None
    post_dislodged: list[Unit] = field(default_factory=list)
    post_comments: list[str] = field(default_factory=list)


def read_text_file(path: Path) -> list[RawText]:
    cases: list[RawText] = []
    cur: RawText | None = None
    block = None
    pending: list[str] = []
    for raw in path.read_text(encoding="ascii").splitlines():
        content, _, comment = raw.partition("#")
        line = content.strip()
        comment = comment.strip().lstrip("#").strip()
        if not line:
            if raw.strip().startswith("####"):
                pending = []
            elif cur is None and comment:
                pending.append(comment)
            elif cur is not None and comment and block in ("POSTSTATE", "POSTSTATE_DISLODGED"):
                cur.post_comments.append(comment)
            continue
        word = line.split()[0]
        if word in _KEYWORDS:
            rest = line[len(word):].strip()
            if word == "CASE":
                cur = RawText(label=rest, comments=[c for c in pending if c])
                pending = []
                block = None
            elif word == "END":
                assert cur is not None
                cases.append(cur)
                cur, block = None, None
            elif word == "VARIANT_ALL":
                pending = []
            elif word == "PRESTATE_SETPHASE":
                cur.phase = phase_name(rest)
            elif word == "POSTSTATE_SAME":
                cur.post = list(cur.pre)
            else:
                block = word
                if word == "PRESTATE_SUPPLYCENTER_OWNERS":
                    cur.owners = []
                elif word == "POSTSTATE":
                    cur.post = []
            continue
        assert cur is not None, raw
        if block == "PRESTATE_SUPPLYCENTER_OWNERS":
            cur.owners.append(read_unit(line))
        elif block == "PRESTATE":
            cur.pre.append(read_unit(line))
        elif block == "PRESTATE_DISLODGED":
            cur.pre_dislodged.append(read_unit(line))
        elif block == "POSTSTATE":
            cur.post.append(read_unit(line))
        elif block == "POSTSTATE_DISLODGED":
            cur.post_dislodged.append(read_unit(line))
        elif block == "PRESTATE_RESULTS":
            m = re.match(r"^(SUCCESS|FAILURE):\s*([A-Za-z]+):\s*(.*)$", line)
            cur.results.append((m[1] == "SUCCESS", power_of(m[2]), m[3].strip(), line))
        elif block == "ORDERS":
            p, _, body = line.partition(":")
            cur.orders.append((p.strip(), body.strip(), comment))
        else:
            raise ValueError(f"line outside a block: {raw!r}")
    return cases


def text_label(label: str) -> tuple[str, str]:
    """``"6.A.5.old (Nov-24-2001 DATC)"`` -> ("6.A.5", ".old")."""
    m = re.match(r"^6\.([A-J])\.(\d+|E)((?:\.[A-Za-z0-9]+)*)", label)
    num = m[2]
    if num == "E":                    # 'CASE 6.F.E' is 6.F.5
        num = "5"
    return f"6.{m[1]}.{num}", m[3]


def convert_text_case(raw: RawText, cid: str, suffix: str) -> Case:
    c = Case(cid=cid, suffix=suffix, source=f"{TEXT_FILE} (CASE {raw.label})")
    c.phase = raw.phase or "Spring 1901 Movement"
    if raw.phase is None:
        c.notes.append("the text file gives no PRESTATE_SETPHASE: Spring 1901 Movement")
    if raw.comments:
        c.notes.append("text file: " + " ".join(raw.comments))
    c.units = list(raw.pre)
    if raw.owners is not None:
        c.centers = {prov(u.location): u.power for u in raw.owners}
    retreat = c.phase.endswith("Retreat")
    dislodged_at = {prov(u.location): u for u in raw.pre_dislodged}
    for p, body, note in raw.orders:
        o = parse_text_order(power_of(p), body, note)
        if o.typ == "D" and o.kind == "?":
            unit = next((u for u in c.units if prov(u.location) == prov(o.loc)), None)
            if unit is None:
                raise ValueError(f"{cid}: removal of an empty province {o.loc}")
            o.kind, o.loc = unit.kind, unit.location
        if retreat and o.typ == "M" and prov(o.loc) in dislodged_at and \
                dislodged_at[prov(o.loc)].kind == o.kind:
            o.typ = "R"            # the text file writes retreats as moves
        c.orders.append(o)
    if retreat:
        c.results = [("SUCCESS: " if ok else "FAILURE: ") + f"{p}: {b}" for ok, p, b, _ in raw.results]
        res = [(ok, parse_text_order(p, b)) for ok, p, b, _ in raw.results]
        for u in raw.pre_dislodged:
            movers = [o for ok, o in res if ok and o.typ == "M" and prov(o.target) == prov(u.location)]
            if len(movers) != 1:
                raise ValueError(f"{cid}: no single attacker for {u}")
            c.dislodged.append((u, None if movers[0].via else prov(movers[0].loc)))
        occupied = {prov(u.location) for u in c.units}
        failed: dict[str, int] = {}
        for ok, o in res:
            if not ok and o.typ == "M" and not o.via:
                failed[prov(o.target)] = failed.get(prov(o.target), 0) + 1
        c.standoffs = sorted(p for p, n in failed.items() if n >= 2 and p not in occupied)
    c.exp_units = list(raw.post if raw.post is not None else raw.pre)
    c.exp_dislodged = list(raw.post_dislodged)
    return c


# ---------------------------------------------------------------------------------------
# datc.json
# ---------------------------------------------------------------------------------------

def json_id(case: dict) -> str:
    return case["url"].split("#", 1)[1]


def json_title(case: dict) -> str:
    name = re.sub(r"^t6[a-j]\d\d_", "", case["name"])
    return name.replace("_", " ")


def json_unit(text: str) -> Unit:
    p, _, rest = text.partition(":")
    k, lo = rest.split()
    return Unit(JSON_POWERS[p.strip()], k, loc(lo))


def derive_movement(c: Case, outcomes: dict[int, str]) -> None:
    """End position of a movement phase from per-order outcomes (index into c.orders)."""
    by_loc = {u.location: u for u in c.units}
    moved: dict[Unit, Order] = {}
    for i, o in enumerate(c.orders):
        if o.typ == "M" and outcomes.get(i) == "Succeeds":
            unit = by_loc.get(o.loc)
            if unit is None:
                raise ValueError(f"{c.key}: successful move of a missing unit: {o.text()}")
            moved[unit] = o
    after: list[Unit] = []
    for u in c.units:
        o = moved.get(u)
        after.append(Unit(u.power, u.kind, arrival(o)) if o else u)
    arrivals = {prov(arrival(o)): o for o in moved.values()}
    occupied = {prov(u.location) for u in after}
    failed: dict[str, int] = {}
    for i, o in enumerate(c.orders):
        if o.typ == "M" and outcomes.get(i) == "Fails" and direct(o):
            failed[prov(o.target)] = failed.get(prov(o.target), 0) + 1
    standoffs = sorted(p for p, n in failed.items() if n >= 2 and p not in occupied)
    for u in c.units:
        if u in moved or prov(u.location) not in arrivals:
            continue
        attacker = arrivals[prov(u.location)]
        origin = None if convoyed(attacker) else prov(attacker.loc)
        opts = retreat_options(MAP, u, origin, occupied, standoffs)
        if opts:
            c.exp_dislodged.append(u)
        else:
            c.exp_notes.append(f"{u.power} {u} is dislodged and cannot retreat: destroyed")
    c.exp_units = [a for u, a in zip(c.units, after) if u in moved or prov(u.location) not in arrivals]


def derive_adjustment(c: Case, outcomes: dict[int, str], removals: list[Unit]) -> None:
    units = list(c.units)
    for i, o in enumerate(c.orders):
        if outcomes.get(i) != "Succeeds":
            continue
        if o.typ == "B":
            units.append(Unit(o.power, o.kind, o.loc))
        elif o.typ == "D":
            units.remove(Unit(o.power, o.kind, o.loc))
    for u in removals:
        units.remove(u)
    for power in POWERS:
        n_units = sum(u.power == power for u in units)
        n_centers = sum(o == power for o in c.centers.values())
        if n_units > n_centers:
            raise ValueError(f"{c.key}: {power} still has {n_units} units for {n_centers} centers")
    c.exp_units = units


def convert_json_case(jc: dict, suffix: str = "") -> Case:
    cid = json_id(jc)
    c = Case(cid=cid, suffix=suffix, source=f"{JSON_FILE} ({jc['name']}"
             + (f", edition {jc['edition']}" if "edition" in jc else "") + ")")
    c.title = json_title(jc)
    c.notes += JSON_NOTES.get(c.key, [])
    if "ignore" in jc:
        c.notes.append(f"datc.json marks this entry ignored upstream: {jc['ignore']!r}")
    resolve = RESOLVE.get(c.key, {})
    outcomes: dict[int, str] = {}
    for i, (text, result) in enumerate(jc["orders"].items()):
        o = parse_json_order(text)
        if text in resolve:
            result, why = resolve[text]
            c.notes.append(f"fix: {text}: {why[4:].strip()}" if why.startswith("fix:")
                           else f"{text}: {why}")
        outcomes[i] = result
        c.orders.append(o)
    if jc["phase"] == "Main":
        if "starting_state" in jc:
            c.units = [json_unit(s) for s in jc["starting_state"]]
        else:
            c.units = [Unit(o.power, o.kind, o.loc) for o in c.orders]
        c.phase = "Spring 1901 Movement"
        for i, o in enumerate(c.orders):
            if o.typ == "M" and outcomes[i] is None:
                raise ValueError(f"{c.key}: move {o.text()} has no outcome: add it to RESOLVE")
        derive_movement(c, outcomes)
        return c
    if jc["phase"] != "Build":
        raise ValueError(f"{c.key}: only Main and Build entries are converted")
    c.phase = "Winter 1901 Adjustment"
    c.units = [json_unit(s) for s in jc.get("starting_state", [])]
    centers = {p: power for power, homes in MAP.homes.items() for p in homes}
    for p, who in jc.get("occupiers", {}).items():
        centers[loc(p)] = JSON_POWERS[who]
    for u in c.units:
        if prov(u.location) in MAP.centers:
            centers[prov(u.location)] = u.power
    c.centers = dict(sorted(centers.items()))
    c.notes.append("ownership as datc.json defines it: the 1901 home centers, then its "
                   "'occupiers', then every unit's province that is a center")
    stated = [json_unit(s) for s in jc.get("civil_disorder", [])]
    if c.key in CIVIL_DISORDER_FIX:
        texts, why = CIVIL_DISORDER_FIX[c.key]
        removals = [json_unit(s) for s in texts]
        c.notes.append(why)
    else:
        removals = stated
    # check the removals against the 2023 rule
    left = list(c.units)
    for i, o in enumerate(c.orders):
        if outcomes.get(i) == "Succeeds" and o.typ == "D":
            left.remove(Unit(o.power, o.kind, o.loc))
    for power in POWERS:
        excess = sum(u.power == power for u in left) - sum(o == power for o in c.centers.values())
        if excess > 0:
            computed = civil_disorder(left, c.centers, power, excess)
            if sorted(computed) != sorted(u for u in removals if u.power == power):
                raise ValueError(f"{c.key}: civil disorder removes {computed}, the data says {removals}")
            c.notes.append("civil disorder (2023 rule): " + ", ".join(
                f"{u.power} {u}" for u in computed) + " removed")
    derive_adjustment(c, outcomes, removals)
    return c


# ---------------------------------------------------------------------------------------
# Checks on the text file's end positions
# ---------------------------------------------------------------------------------------

def check_text_case(c: Case) -> list[str]:
    """Warnings where the text file's end position looks inconsistent with the map:
    a dislodged unit without retreat, a vanished unit that could have retreated."""
    if not c.phase.endswith("Movement"):
        return []
    warn = []
    before = {u.location: u for u in c.units}
    after = {prov(u.location): u for u in c.exp_units}
    occupied = set(after)
    moves = {prov(o.loc): o for o in c.orders if o.typ == "M"}
    failed: dict[str, int] = {}
    for u in c.units:
        o = moves.get(prov(u.location))
        if o and direct(o) and Unit(u.power, u.kind, arrival(o)) not in c.exp_units:
            failed[prov(o.target)] = failed.get(prov(o.target), 0) + 1
    standoffs = [p for p, n in failed.items() if n >= 2 and p not in occupied]
    def moved(u: Unit) -> bool:
        o = moves.get(prov(u.location))
        return o is not None and arrival(o) is not None and \
            Unit(u.power, u.kind, arrival(o)) in c.exp_units
    gone = [u for u in c.units if u not in c.exp_units and u not in c.exp_dislodged
            and not moved(u)]
    for u in c.exp_dislodged + gone:
        attacker = after.get(prov(u.location))
        if attacker is None:
            warn.append(f"{c.key}: {u} dislodged but nobody arrived")
            continue
        o = next((o for o in c.orders if o.typ == "M" and prov(o.target) == prov(u.location)
                  and before.get(o.loc) and before[o.loc].power == attacker.power
                  and before[o.loc].kind == attacker.kind), None)
        origin = None if o is None or convoyed(o) or _intent(c, o) else prov(o.loc)
        opts = retreat_options(MAP, u, origin, occupied, standoffs)
        if u in c.exp_dislodged and not opts:
            warn.append(f"{c.key}: {u.power} {u} listed dislodged but has no retreat")
        if u in gone and opts:
            warn.append(f"{c.key}: {u.power} {u} vanished but could retreat to {opts}")
        if u in gone and not opts:
            c.exp_notes.append(f"{u.power} {u} is dislodged and cannot retreat: destroyed")
    return warn


def _intent(c: Case, o: Order) -> bool:
    """A convoy order for this move from a fleet of the army's own power (DATC 4.A.3)."""
    power = next(u.power for u in c.units if u.location == o.loc)
    return o.kind == "A" and any(
        x.typ == "C" and x.power == power and x.sloc == o.loc and prov(x.target) == prov(o.target)
        for x in c.orders)
