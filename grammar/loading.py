"""Building the LALR parsers: once per process, and their analysis cached on disk between runs.

Lark analyses a grammar each time a parser is built (tens of milliseconds for
``position.lark``), which every command that reads a file pays at start-up.  Lark can
keep that analysis in a cache file and check it against the grammar and the options on
every load (a changed grammar is analysed again); `lalr_parser` puts the file in the
user's cache folder (``$XDG_CACHE_HOME/dipsolve`` or ``~/.cache/dipsolve``), never in a
shared temporary folder, and builds without a cache when that folder cannot be written
(``DIPSOLVE_NO_CACHE=1`` turns it off).

    >>> parser = lalr_parser("daide.lark")
    >>> parser.options.parser
    'lalr'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lark import Lark

__all__ = ["lalr_parser", "cache_folder"]

_HERE = Path(__file__).resolve().parent


def cache_folder() -> Path | None:
    """The folder for the parsers' cache files, made if need be; None when caching is
    off or the folder cannot be written."""
    if os.environ.get("DIPSOLVE_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "dipsolve"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def lalr_parser(grammar: str, **options: Any) -> Lark:
    """The LALR parser (contextual lexer, positions kept) of ``grammar``, a ``.lark`` file
    beside this module; ``options`` are Lark's."""
    options = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, **options}
    folder = cache_folder()
    if folder is not None:
        from lark import __version__ as lark_version
        options["cache"] = str(folder / f"{Path(grammar).stem}-lark{lark_version}.cache")
    return Lark.open(str(_HERE / grammar), **options)
