"""Write the fonts dipsolve's PNG pictures are drawn with: solver/data/fonts/.

The SVG names the font family "DejaVu Sans"; a PNG is rendered by resvg with exactly
the two faces kept here (regular and bold), so a picture comes out the same on every
machine, including a fresh one with no system fonts at all.  Only the characters the
pictures use are kept (printable ASCII and a few signs), which makes each face ~20 KB
instead of ~700 KB.

Source: DejaVu Sans 2.37 as Debian ships it (package fonts-dejavu-core,
/usr/share/fonts/truetype/dejavu/).  Licence: Bitstream Vera Fonts licence with DejaVu
changes in the public domain: redistribution and modification are allowed; a modified
font may not be called "Bitstream" or "Vera" (the subset keeps the name DejaVu Sans).
The licence text is written beside the fonts.

Run once (needs fonttools, a developer tool, not a dependency of dipsolve):

    pip install fonttools && python tests/tools/make_fonts.py
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "solver" / "data" / "fonts"
SOURCE = Path("/usr/share/fonts/truetype/dejavu")
COPYRIGHT = Path("/usr/share/doc/fonts-dejavu-core/copyright")
FACES = {"DejaVuSans.ttf": "DejaVuSans-subset.ttf",
         "DejaVuSans-Bold.ttf": "DejaVuSans-Bold-subset.ttf"}
#: printable ASCII, and the few signs the pictures' legend and titles use
TEXT = "".join(chr(c) for c in range(0x20, 0x7F)) + "\u00b7\u00d7\u2013\u2014\u2192\u2026"


def licence_text() -> str:
    """The Bitstream Vera licence paragraph of Debian's copyright file."""
    text = COPYRIGHT.read_text(encoding="utf-8")
    m = re.search(r"^Files: \*\n(.*?)(?=^Files: |\Z)", text, re.S | re.M)
    if not m:
        raise SystemExit(f"{COPYRIGHT}: no 'Files: *' paragraph")
    body = "\n".join(line[1:] if line.startswith(" ") else line
                     for line in m.group(1).splitlines())
    return ("DejaVu Sans (subset: the characters dipsolve's pictures use), made by\n"
            "tests/tools/make_fonts.py from DejaVu Sans 2.37 (Debian fonts-dejavu-core).\n\n"
            + body.replace("\n.\n", "\n\n").strip() + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE, help="folder holding DejaVuSans*.ttf")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for src, dst in FACES.items():
        opts = subset.Options()
        opts.layout_features = ["kern", "liga"]
        opts.name_IDs = ["*"]          # keep the names and the copyright notice
        opts.notdef_outline = True
        font = subset.load_font(str(args.source / src), opts)
        sub = subset.Subsetter(opts)
        sub.populate(text=TEXT)
        sub.subset(font)
        subset.save_font(font, str(OUT / dst), opts)
        print(f"{OUT / dst}: {(OUT / dst).stat().st_size} bytes")
    (OUT / "LICENSE-DejaVu.txt").write_text(licence_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
