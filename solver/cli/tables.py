"""Tables for people at the command line, folded to the terminal's width (rich).

    print(fold_table(["phase", "played", "dipsolve's", "value lost"], rows, right={3}))

A cell too long for its column wraps at spaces (or folds inside a long word) within the
column, so a table never runs past the terminal; without a terminal (a pipe, a file)
the width is ``COLUMNS`` or 100.  Plain text: no colour, no box characters beyond a rule
under the heading, so the output reads the same in a log.
"""

from __future__ import annotations

import io
import os
import shutil
from typing import Iterable, Sequence, Union

__all__ = ["fold_table", "terminal_width", "Cell"]

#: a cell: text, or items (orders, say) kept whole on a line when the cell wraps
Cell = Union[str, Sequence[str]]
#: stands for a space inside an item while rich lays the table out (one column wide, never
#: a place to break), then turned back into a space
_JOIN = "\u00a4"


def terminal_width(default: int = 100) -> int:
    """The terminal's width in characters (``COLUMNS`` if set; ``default`` with no terminal)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return max(40, int(os.environ["COLUMNS"]))
    return max(40, shutil.get_terminal_size((default, 24)).columns)


def _cell(c: Cell) -> str:
    if isinstance(c, str):
        return c
    return ", ".join(item.replace(" ", _JOIN) for item in c)


def fold_table(head: Sequence[str], rows: Iterable[Sequence[Cell]], *, width: int | None = None,
               right: Iterable[int] = ()) -> str:
    """The table as text no wider than ``width`` (default: `terminal_width`): columns in
    ``right`` (indexes) aligned right; long cells wrapped within their column, a cell of
    items (a list) between its items."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    width = width or terminal_width()
    right = set(right)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False,
                  header_style="", padding=(0, 1))
    for i, h in enumerate(head):
        table.add_column(h, justify="right" if i in right else "left", overflow="fold",
                         no_wrap=False)
    for r in rows:
        table.add_row(*(_cell(c) for c in r))
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, highlight=False, emoji=False,
            markup=False, force_terminal=False, soft_wrap=False).print(table)
    return "\n".join(line.rstrip().replace(_JOIN, " ") for line in out.getvalue().splitlines())
