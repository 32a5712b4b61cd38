#!/usr/bin/env python3
"""Convert the DATC data files into dipsolve's own case files, once.

Usage, from the repository root::

    python tests/datc/convert_datc.py ../shared/datc            # (re)write tests/datc/cases/
    python tests/datc/convert_datc.py ../shared/datc --check    # compare, write nothing
    python tests/datc/convert_datc.py ../shared/datc --out /tmp/cases && diff -r /tmp/cases tests/datc/cases

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

This script puts the cases together (`build`); its parts sit beside it, one job each:
``datc_case.py`` (a case, its orders, the map's answers), ``datc_fixes.py`` (which
source each case comes from, and every fix with its reason), ``datc_read.py`` (reading
both data files) and ``datc_write.py`` (writing a case file).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:      # loaded by a test, not run
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from dipsolve.core.position import Unit  # noqa: E402  (the converter's modules are beside it)

from datc_case import JSON_FILE, TEXT_FILE, Case, civil_disorder  # noqa: E402
from datc_fixes import FROM_JSON, JSON_EXTRA, JSON_PICK, fix_text_case  # noqa: E402
from datc_read import (check_text_case, convert_json_case, convert_text_case,  # noqa: E402
                       json_id, json_title, parse_json_order, parse_text_order, read_text_file,
                       text_label)
from datc_write import case_text  # noqa: E402

__all__ = ["build", "main", "parse_text_order", "parse_json_order", "civil_disorder", "Unit",
           "Case"]

OUT_DIR = Path(__file__).resolve().parent / "cases"


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

    files = {f"{c.file_id}.case": case_text(c) for c in cases}
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
