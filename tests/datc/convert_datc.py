#!/usr/bin/env python3
"""Convert the DATC data files into dipsolve's own case files, once.

Usage, from the repository root::

    python tests/datc/convert_datc.py ../shared/datc            # (re)write tests/datc/cases/
    python tests/datc/convert_datc.py ../shared/datc --check    # compare, write nothing

The two sources (see ``../shared/datc/README.md``, which lists every known defect):

* ``datc_v2.4_06.txt`` (godip's copy of jDip's file): complete end positions, DATC 2.4.
  Used for every case it has where DATC 3.0 agrees, and for its extra variants.
* ``datc.json`` (TedDriggs/diplomacy): DATC 3.0 numbering, per-order outcomes only.
  Used for the six 3.0 additions (6.B.15, 6.C.8, 6.C.9, 6.F.25, 6.G.19, 6.G.20), for
  6.J (2023 civil-disorder rule, 3.1-corrected setups) and where the text file is
  wrong (6.F.15, 6.G.8).  The end position of a JSON case is derived here: a unit whose
  move succeeds ends at its destination, every other unit stays, a unit that stays
  where another unit arrives is dislodged, and a dislodged unit with no retreat is
  destroyed.  Where an outcome is missing (``null``) or wrong, ``RESOLVE`` below gives
  the DATC 3.0 outcome with the reasoning, which is written into the case file.

Every departure from a data file is written into the case file as a ``# fix:`` comment.
Output is deterministic: the same sources give byte-identical files.

Each case file holds two ``.dip`` documents separated by a line ``=== expected``: the
position with its orders, then the expected position (units and dislodged units).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from dipsolve.map import POWERS, standard_map
from dipsolve.position import Unit, retreat_options

MAP = standard_map()
OUT_DIR = Path(__file__).resolve().parent / "cases"
TEXT_FILE = "datc_v2.4_06.txt"
JSON_FILE = "datc.json"

JSON_POWERS = {"AUS": "Austria", "ENG": "England", "FRA": "France", "GER": "Germany",
               "ITA": "Italy", "RUS": "Russia", "TUR": "Turkey"}

# ---------------------------------------------------------------------------------------
# Which source each DATC 3.0 case comes from, and the fixes.
# ---------------------------------------------------------------------------------------

#: Cases taken from datc.json instead of the text file, with the reason.
FROM_JSON = {
    "6.B.15": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
    "6.C.8": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
    "6.C.9": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
    "6.F.15": "the text file's entry (labelled 'CASE 6.F.14', the label used twice) is "
              "mis-encoded: it has F naf where the DATC has A North Africa, so the convoy "
              "to Wales never happens; the JSON entry is right",
    "6.F.25": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
    "6.G.8": "the text file follows DATC 2.4 (an explicit 'via convoy' with no convoy falls "
             "back to the land route, A bel reaches Holland); DATC 3.0 prefers no fallback: "
             "the move fails",
    "6.G.19": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
    "6.G.20": "added in DATC 3.0; the text file (DATC 2.4) lacks it",
}
for _n in range(1, 12):
    FROM_JSON[f"6.J.{_n}"] = ("DATC 3.0 changed 6.J to the 2023 civil-disorder rule with new "
                             "setups; the text file has the DATC 2.4 setups and the old rule "
                             "(datc.json's setups carry the DATC 3.1 corrections to 6.J)")

#: JSON entries to use where an id has several: (id, name) of the DATC-preferred one.
JSON_PICK = {
    "6.G.19": "2023",   # edition tag: the DATC 3.0 preference (both moves fail)
}

#: Notes on JSON entries, by case file id.
JSON_NOTES = {
    "6.G.19": ["fix: upstream runs the entry tagged edition 1971 (the armies swap) and "
               "ignores this one, tagged 2023; DATC 3.0 prefers the 2023 reading used here: "
               "the French F wes convoy is illegal (no route needs it) and the Italian F lyo "
               "cannot show French intent, so A mar - spa and A spa - mar bounce"],
    "6.J.11": ["the entry tagged edition 2023 (DATC 3.0's preference); datc.json also has a "
               "1971 entry, which keeps A tus"],
}

#: Extra JSON entries kept as additional cases: (id, name) -> file suffix.
JSON_EXTRA = {
    ("6.J.9", "t6j09_civil_disorder_must_be_counted_from_both_coasts_second_scenario"): ".scenario2",
}

#: Outcomes for JSON orders whose expectation is null (or wrong), keyed by case file id
#: and the JSON order string: (outcome, reasoning written into the case file).
RESOLVE: dict[str, dict[str, tuple[str, str]]] = {
    "6.B.15": {
        "ENG: F mao -> spa(nc)": (
            "Fails",
            "fix: datc.json expects this move to succeed (upstream ignores the case, it "
            "cannot express a coastless support); DATC 3.0 prefers that the French support "
            "without coast counts for the English move, so Italy's F wes - spa/sc "
            "(strength 2) and England's F mao - spa/nc (strength 2) bounce: nobody moves"),
    },
    "6.F.25": {
        "GER: A den -> nwy": (
            "Succeeds",
            "null in datc.json; DATC 3.0: 'The move from Denmark to Norway succeeds and cuts "
            "the support of Norway': the convoy in Skagerrak holds (Sweden only attacks it), "
            "A den - nwy has strength 2 (Finland) against F nwy's 1, so the Russian F nwy is "
            "dislodged; A yor - hol (convoyed, strength 2) dislodges the German A hol, "
            "cutting its support, so A ruh - bel fails against A bel"),
    },
}

#: Civil-disorder removals that datc.json states wrongly or not at all, by case file id.
CIVIL_DISORDER_FIX: dict[str, tuple[list[str], str]] = {
    "6.J.2": (["FRA: F lyo"], (
        "datc.json gives no civil-disorder removal; France owns only Paris and keeps three "
        "units, A par disbands by order and the second removal follows the 2023 rule: "
        "F lyo is 3 from Paris (LYO-MAR-BUR-PAR), A ruh is 2 (RUH-BUR-PAR): F lyo goes")),
    "6.J.9.scenario2": (["RUS: A alb"], (
        "fix: datc.json removes F ska; DATC 3.x (3.2: 6.J.10) removes A alb: Russia owns "
        "St Petersburg and Sevastopol; A alb is 3 from Sevastopol (ALB-SER-RUM-SEV), F ska "
        "is 2 from St Petersburg (SKA-NWY-STP), A sev is 0")),
}

#: Fixes applied to text-file cases: id -> list of (what, comment).  The edits themselves
#: are in `fix_text_case`.
TEXT_FIX_NOTES = {
    "6.A.5": ["fix: the text file misspells the power of A wal's order as 'Germnay'"],
    "6.D.9": ["fix: the text file has fleets in Albania and Trieste; the DATC has armies "
              "(the outcome is the same)"],
    "6.E.1": ["fix: the text file has A kie; the DATC has F Kiel (the outcome is the same)"],
    "6.F.5": ["fix: the text file labels this case 'CASE 6.F.E'"],
    "6.G.13": ["fix: the DATC 3.0 order is 'A Trieste - Venice via convoy'; the text file "
               "leaves out 'via convoy' (same outcome: Austria's own fleet convoys)"],
    "6.H.4": ["fix: the DATC's illegal retreat-phase order is F North Sea - Norwegian Sea; "
              "the text file has F nth-nwy (Norway); both are illegal"],
    "6.H.14": ["fix: the text file's PRESTATE leaves France's A par and Germany's A mar "
               "where they started although both moved (A par - pic and A mar - bur "
               "succeeded); after the movement phase they stand in Picardy and Burgundy",
               "fix: the preceding order of F eng is 'F eng S A pic - bel' in the DATC; the "
               "text file writes it as a convoy (no effect on the retreat)"],
    "6.H.15": ["fix: the text file's PRESTATE leaves France's F spa/sc in Spain although it "
               "moved to Portugal, and leaves out the dislodged English F por, so the case "
               "tested nothing; here F por (dislodged from Spain) orders the retreat the "
               "DATC discusses (DATC 3.2 writes it out), F por - spa/nc, which is illegal (no coastal crawl: the "
               "attacker came from Spain) and the fleet is disbanded"],
    "6.H.5": ["note: the text file's results list 'F con S A ruh-hol' for Russia; the DATC "
              "has F con S F bla - ank (no effect on the retreat)"],
    "6.I.1": ["note: Germany owns two centers (Kiel, Munich) and has one unit: one build "
              "(the text file's comment says three and two)"],
    "6.I.4": ["note: DATC 3.0 writes 'Build A St Petersburg(nc)', DATC 3.2 'Build F St "
              "Petersburg(nc)'; the text file's F stp/nc is kept (it fails either way: the "
              "south coast is occupied)"],
    "6.I.3": ["fix: the DATC orders 'Build A Berlin'; the text file has 'Build F ber' "
              "(both fail: Berlin is occupied)"],
}


# ---------------------------------------------------------------------------------------
# Small types
# ---------------------------------------------------------------------------------------

@dataclass
class Order:
    power: str
    typ: str                 # H M SH SM C B D R
    kind: str = ""           # unit kind ("A"/"F"); "" for WAIVE
    loc: str = ""
    skind: str = ""          # supported / convoyed unit
    sloc: str = ""
    target: str = ""
    via: bool = False
    note: str = ""           # trailing comment

    def text(self) -> str:
        t = self.typ
        if t == "H":
            s = f"{self.kind} {self.loc} H"
        elif t == "M":
            s = f"{self.kind} {self.loc} - {self.target}" + (" VIA" if self.via else "")
        elif t == "SH":
            s = f"{self.kind} {self.loc} S {self.skind} {self.sloc}"
        elif t == "SM":
            s = f"{self.kind} {self.loc} S {self.skind} {self.sloc} - {self.target}"
        elif t == "C":
            s = f"{self.kind} {self.loc} C {self.skind} {self.sloc} - {self.target}"
        elif t == "R":
            s = f"{self.kind} {self.loc} R {self.target}"
        elif t == "B":
            s = f"{self.kind} {self.loc} B"
        elif t == "D":
            s = f"{self.kind} {self.loc} D"
        else:
            raise ValueError(t)
        return f"{self.power}: {s}"


@dataclass
class Case:
    cid: str                  # "6.A.1"
    suffix: str = ""          # "" or ".old", ".mod", ...
    source: str = ""
    title: str = ""
    phase: str = "Spring 1901 Movement"
    units: list[Unit] = field(default_factory=list)
    centers: dict[str, str] | None = None          # province -> power (adjustment cases)
    dislodged: list[tuple[Unit, str | None]] = field(default_factory=list)
    standoffs: list[str] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    exp_units: list[Unit] = field(default_factory=list)
    exp_dislodged: list[Unit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)       # header comments
    results: list[str] = field(default_factory=list)     # preceding movement phase
    exp_notes: list[str] = field(default_factory=list)   # comments in the expected half

    @property
    def file_id(self) -> str:
        sec, num = self.cid.split(".")[1:]
        return f"6.{sec}.{int(num):02d}{self.suffix}"

    @property
    def key(self) -> str:
        return self.cid + self.suffix


# ---------------------------------------------------------------------------------------
# Locations and orders
# ---------------------------------------------------------------------------------------

def loc(text: str) -> str:
    """Canonical location for a data-file spelling ("nat", "spa/nc", "stp(nc)")."""
    t = text.strip().lower()
    if t == "nor":          # datc.json's typo for Norway (in the ignored 6.H.2 only)
        t = "nwy"
    out = MAP.location(t)
    if out is None:
        raise ValueError(f"unknown location {text!r}")
    return out


def prov(location: str) -> str:
    return location.split("/")[0]


def kind_of(text: str) -> str:
    k = text.strip().upper()
    if k not in ("A", "F"):
        raise ValueError(f"unit kind {text!r}")
    return k


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


def fix_text_case(c: Case) -> None:
    """The edits behind TEXT_FIX_NOTES."""
    def swap_units(units: list[Unit], old: Unit, new: Unit) -> list[Unit]:
        return [new if u == old else u for u in units]

    if c.key == "6.D.9":
        for lo in ("ALB", "TRI"):
            old, new = Unit("Austria", "F", lo), Unit("Austria", "A", lo)
            c.units = swap_units(c.units, old, new)
            c.exp_units = swap_units(c.exp_units, old, new)
            c.exp_dislodged = swap_units(c.exp_dislodged, old, new)
        for o in c.orders:
            if o.power == "Austria":
                o.kind = "A"
                if o.skind == "F" and o.sloc == "TRI":
                    o.skind = "A"
    elif c.key == "6.E.1":
        c.units = swap_units(c.units, Unit("Germany", "A", "KIE"), Unit("Germany", "F", "KIE"))
        c.exp_units = swap_units(c.exp_units, Unit("Germany", "A", "BER"), Unit("Germany", "F", "BER"))
        for o in c.orders:
            if o.loc == "KIE":
                o.kind = "F"
    elif c.key == "6.G.13":
        for o in c.orders:
            if o.typ == "M" and o.loc == "TRI":
                o.via = True
    elif c.key == "6.H.4":
        for o in c.orders:
            if o.loc == "NTH":
                o.target = "NWG"
    elif c.key == "6.H.14":
        c.units = swap_units(c.units, Unit("France", "A", "PAR"), Unit("France", "A", "PIC"))
        c.units = swap_units(c.units, Unit("Germany", "A", "MAR"), Unit("Germany", "A", "BUR"))
        c.exp_units = swap_units(c.exp_units, Unit("France", "A", "PAR"), Unit("France", "A", "PIC"))
        c.exp_units = swap_units(c.exp_units, Unit("Germany", "A", "MAR"), Unit("Germany", "A", "BUR"))
        c.results = [r.replace("England: F eng C A pic-bel", "England: F eng S A pic-bel") for r in c.results]
    elif c.key == "6.H.15":
        c.units = swap_units(c.units, Unit("France", "F", "SPA/SC"), Unit("France", "F", "POR"))
        c.exp_units = swap_units(c.exp_units, Unit("France", "F", "SPA/SC"), Unit("France", "F", "POR"))
        c.dislodged = [(Unit("England", "F", "POR"), "SPA")]
        c.orders = [Order("England", "R", "F", "POR", target="SPA/NC")]
    elif c.key == "6.I.3":
        for o in c.orders:
            o.kind = "A"
    c.notes += TEXT_FIX_NOTES.get(c.key, [])


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


def convoyed(o: Order) -> bool:
    """Whether an army's move goes by convoy in these cases: explicit, or not adjacent."""
    return o.kind == "A" and (o.via or not MAP.can_move("A", o.loc, prov(o.target)))


def arrival(o: Order) -> str | None:
    """Where a successful move ends: an army drops a coast; a fleet ordered to a bicoastal
    province without coast goes to the only coast it can reach (None: no single one)."""
    if o.kind == "A":
        return prov(o.target)
    if o.target in MAP.fleet_moves:
        return o.target
    coasts = [c for c in MAP.fleet_locations[o.target] if MAP.can_move("F", o.loc, c)]
    return coasts[0] if len(coasts) == 1 else None


def direct(o: Order) -> bool:
    """Whether a move can be made without a convoy (so a failure can be a bounce)."""
    dest = arrival(o)
    return dest is not None and not convoyed(o) and MAP.can_move(o.kind, o.loc, dest)


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


def civil_disorder(units: list[Unit], centers: dict[str, str], power: str, n: int) -> list[Unit]:
    """The n units the 2023 rule removes: farthest from the nearest owned center (any unit
    over land and sea), fleets before armies, then alphabetical by province name."""
    owned = [p for p, o in centers.items() if o == power]
    dist = {p: 0 for p in owned}
    todo = deque(owned)
    while todo:
        p = todo.popleft()
        for q in sorted(MAP.neighbours[p]):
            if q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    mine = [u for u in units if u.power == power]
    mine.sort(key=lambda u: (-dist.get(prov(u.location), 99), u.kind != "F",
                             MAP.provinces[prov(u.location)].name))
    return mine[:n]


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


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------

def _wrap(text: str, width: int = 88) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width - 2:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def _comment(text: str, first: str = "# ", rest: str = "#   ") -> list[str]:
    lines = _wrap(text)
    return [first + lines[0]] + [rest + x for x in lines[1:]]


def _power_sections(units: list[Unit], centers: dict[str, str] | None) -> list[str]:
    out = []
    for power in POWERS:
        us = [u for u in units if u.power == power]
        cs = sorted(p for p, o in (centers or {}).items() if o == power)
        if not us and not cs:
            continue
        out.append(f"[{power}]")
        if us:
            out.append("units: " + ", ".join(str(u) for u in us))
        if cs:
            out.append("centers: " + ", ".join(cs))
        out.append("")
    return out


def next_phase(c: Case) -> str:
    season, year, kind = c.phase.split()
    if kind == "Movement":
        if c.exp_dislodged:
            return f"{season} {year} Retreat"
        return f"Fall {year} Movement" if season == "Spring" else f"Winter {year} Adjustment"
    if kind == "Retreat":
        return f"Fall {year} Movement" if season == "Spring" else f"Winter {year} Adjustment"
    return f"Spring {int(year) + 1} Movement"


def render(c: Case) -> str:
    title = c.title or "?"
    lines = [f"# DATC {c.cid}{c.suffix}: {title}", f"# source: {c.source}"]
    for n in c.notes:
        if n.startswith("fix:"):
            lines += _comment(n[4:].strip(), "# fix: ", "#      ")
        else:
            lines += _comment(n)
    if c.results:
        lines.append("# the movement phase before (from the text file's PRESTATE_RESULTS):")
        lines += [f"#   {r}" for r in c.results]
    lines += [f"phase: {c.phase}", ""]
    lines += _power_sections(c.units, c.centers)
    if c.dislodged or c.standoffs:
        lines.append("[dislodged]")
        for u, origin in c.dislodged:
            lines.append(f"{u.power}: {u}" + (f" from {origin}" if origin else ""))
        if c.standoffs:
            lines.append("standoffs: " + ", ".join(c.standoffs))
        lines.append("")
    if c.orders:
        lines.append("[orders]")
        for o in c.orders:
            lines.append(o.text() + (f"  # {o.note}" if o.note else ""))
        lines.append("")
    else:
        lines += ["# no orders", ""]
    lines.append("=== expected")
    lines.append(f"phase: {next_phase(c)}")
    lines.append("")
    lines += [f"# {n}" for n in c.exp_notes]
    lines += _power_sections(c.exp_units, None)
    if c.exp_dislodged:
        lines.append("[dislodged]")
        lines += [f"{u.power}: {u}" for u in c.exp_dislodged]
        lines.append("")
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# Putting it together
# ---------------------------------------------------------------------------------------

def build(src: Path) -> tuple[dict[str, str], list[str]]:
    """All case files (file name -> text) and the warnings."""
    data = json.loads((src / JSON_FILE).read_text(encoding="utf-8"))["cases"]
    titles: dict[str, str] = {}
    for jc in data:
        titles.setdefault(json_id(jc), json_title(jc))
    titles["6.D.16"] = "convoying a unit dislodging a unit of same power is allowed"
    cases: list[Case] = []
    warnings: list[str] = []

    text_v24_6j = {"6.J.3", "6.J.4", "6.J.5", "6.J.6", "6.J.8", "6.J.9.part1", "6.J.9.part2",
                   "6.J.10", "6.J.11"}
    seen_labels: set[str] = set()
    for raw in read_text_file(src / TEXT_FILE):
        cid, suffix = text_label(raw.label)
        if raw.label.startswith("6.F.14") and "6.F.14" in seen_labels:
            cid = "6.F.15"            # the second 'CASE 6.F.14' is 6.F.15 (taken from JSON)
        seen_labels.add(raw.label.split()[0])
        key = cid + suffix
        if cid.startswith("6.J."):
            if key not in text_v24_6j:
                continue
            suffix = ".v2_4" + suffix
        elif cid in FROM_JSON and not suffix:
            continue
        c = convert_text_case(raw, cid, suffix)
        c.title = titles.get(cid, "")
        if cid.startswith("6.J."):
            c.notes.insert(0, "an extra case: the DATC 2.4 setup of this case (DATC 3.0 changed "
                           "the setups of 6.J); its end position, re-derived under the 2023 "
                           "civil-disorder rule, is the text file's")
            left = list(c.units)
            power = c.units[0].power
            excess = len(left) - sum(o == power for o in c.centers.values())
            computed = civil_disorder(left, c.centers, power, excess)
            expected_gone = [u for u in c.units if u not in c.exp_units]
            if sorted(computed) != sorted(expected_gone):
                raise ValueError(f"{c.key}: 2023 rule removes {computed}, text file {expected_gone}")
        elif suffix:
            c.notes.insert(0, "an extra case (not a DATC 3.0 case id): a variant kept from the "
                           "text file; its end position holds under DATC 3.0")
        fix_text_case(c)
        warnings += check_text_case(c)
        cases.append(c)

    by_id: dict[str, list[dict]] = {}
    for jc in data:
        by_id.setdefault(json_id(jc), []).append(jc)
    for cid in sorted(FROM_JSON):
        entries = by_id[cid]
        if cid in JSON_PICK:
            entries = [e for e in entries if e.get("edition") == JSON_PICK[cid]]
        else:
            entries = [e for e in entries if (cid, e["name"]) not in JSON_EXTRA]
        if len(entries) != 1:
            entries = [e for e in entries if e.get("edition") in (None, "2023")]
        assert len(entries) == 1, (cid, [e["name"] for e in entries])
        c = convert_json_case(entries[0])
        wrong_text = cid in ("6.F.15", "6.G.8")      # the text file has it wrong
        c.notes.insert(0, ("fix: " if wrong_text else "") + f"from {JSON_FILE}: {FROM_JSON[cid]}")
        cases.append(c)
    for (cid, name), suffix in sorted(JSON_EXTRA.items()):
        jc = next(e for e in by_id[cid] if e["name"] == name)
        c = convert_json_case(jc, suffix)
        c.notes.insert(0, f"the second scenario of DATC 3.0 {cid} (DATC 3.2: 6.J.10)")
        cases.append(c)

    files = {f"{c.file_id}.case": render(c) for c in cases}
    ids = {c.cid for c in cases if not c.suffix}
    missing = [f"6.{s}.{n}" for s, k in zip("ABCDEFGHIJ", (12, 15, 9, 34, 15, 25, 20, 16, 7, 11))
               for n in range(1, k + 1) if f"6.{s}.{n}" not in ids]
    if missing:
        raise ValueError(f"DATC 3.0 cases without a file: {missing}")
    return dict(sorted(files.items())), warnings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="the folder with datc_v2.4_06.txt and datc.json")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="where the .case files go")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the files in --out differ")
    args = ap.parse_args(argv)
    files, warnings = build(args.source)
    for w in warnings:
        print("warning:", w, file=sys.stderr)
    if args.check:
        present = {p.name: p.read_text(encoding="utf-8") for p in args.out.glob("*.case")}
        diff = sorted(set(files) ^ set(present)) + sorted(
            n for n in files if n in present and files[n] != present[n])
        for n in diff:
            print("differs:", n, file=sys.stderr)
        return 1 if diff else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.case"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"{len(files)} case files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
