"""Which source each DATC 3.0 case comes from, and every departure from a data file, with its reason.

The tables `build` in ``convert_datc.py`` and the readers in `datc_read` follow, and the
edits to text-file cases (`fix_text_case`); each reason is written into the case file
as a ``# fix:`` or a plain comment.
"""

from __future__ import annotations

from dipsolve.core.position import Unit

from datc_case import Case, Order

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
