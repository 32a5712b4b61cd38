#!/usr/bin/env python3
"""Copy the shared press corpus into dipsolve's own test data, once.

Usage, from the repository root::

    python tests/tools/convert_press.py ../shared/press/press_cases.jsonl          # write
    python tests/tools/convert_press.py ../shared/press/press_cases.jsonl --check  # compare

``press_cases.jsonl`` (343 labelled strings; its README explains the labels) becomes
``tests/data/press_cases.jsonl``, the file ``tests/test_press.py`` reads; the tests never
need ``../shared``.  Each record keeps ``text``, ``valid``, ``level`` and ``source``, and
gains ``dialect``: ``"dpp"`` for the strings valid only in the DPP language of the Hall
& Loeb seed (labelled ``valid`` with ``level: null``), ``"both"`` for the DPP strings the
corpus marks "also valid DAIDE", ``"daide"`` for the rest.

Departures from the corpus are listed in ``FIXES`` with the reason, and the reason is
written into the record as ``"fix"``.  There are six: HUH and SLO messages that daidepp
(the corpus's source for them) labels level 10 because it has no server messages, while
the spec's Appendix B lists both as server-to-client messages at level OBS, the level
of every game ("HUH ( any_token_sequence )", "SLO ( power )"); HUH is precisely what a
level-0 server answers to press it does not admit.  Their lowest level is 0.  (Inside
an SND, where only the press reply HUH can stand, the corpus's level 10 stands.)

Output is deterministic: the same source gives a byte-identical file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "press_cases.jsonl"

_SERVER = ("Appendix B lists {what} as a server-to-client message at level OBS (every game); "
           "daidepp, the label's source, has no server messages. Lowest level 0, not 10.")

#: text -> (the fields changed, why)
FIXES: dict[str, tuple[dict, str]] = {
    "HUH (CCL (PRP (PCE (AUS FRA GER))))": ({"level": 0}, _SERVER.format(what="HUH (...)")),
    "HUH ( PRP ( PCE ( AUS ENG ) ) )": ({"level": 0}, _SERVER.format(what="HUH (...)")),
    "HUH ( PRP ( PCE ( AUS ENG FRA ) ) )": ({"level": 0}, _SERVER.format(what="HUH (...)")),
    "SLO (ENG)": ({"level": 0}, _SERVER.format(what="SLO (power)")),
    "SLO ( AUS )": ({"level": 0}, _SERVER.format(what="SLO (power)")),
    "SLO ( GER )": ({"level": 0}, _SERVER.format(what="SLO (power)")),
}


def convert(source: Path) -> str:
    out = []
    used = set()
    for raw in source.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        case = json.loads(raw)
        record = {"text": case["text"], "valid": case["valid"], "level": case["level"],
                  "dialect": ("dpp" if case["valid"] and case["level"] is None
                              else "both" if "also valid DAIDE" in case["source"] else "daide"),
                  "source": case["source"]}
        if case["text"] in FIXES:
            changes, why = FIXES[case["text"]]
            record.update(changes)
            record["fix"] = why
            used.add(case["text"])
        out.append(json.dumps(record, ensure_ascii=False))
    missing = set(FIXES) - used
    if missing:
        raise SystemExit(f"fixes for texts not in the corpus: {sorted(missing)}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="../shared/press/press_cases.jsonl")
    ap.add_argument("--check", action="store_true", help="compare with the copy, write nothing")
    args = ap.parse_args(argv)
    text = convert(args.source)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from a fresh conversion")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {text.count(chr(10))} cases, {len(FIXES)} fixed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
