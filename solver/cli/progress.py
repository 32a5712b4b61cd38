"""The one progress display of the command line: a status line on stderr, redrawn in place.

    with Progress(total=len(files)) as progress:      # a bar: [#####.........] 3/20
        for i, path in enumerate(files, 1):
            ...
            progress.show(f"{i}/{len(files)}", done=i)

    with Progress() as progress:                      # a line of text, no bar
        progress.show("12,000 evaluations (pure)")

It draws only when its stream is a terminal (never into a pipe, a file or a test's
captured output), erases what it drew when closed, and pads each line so that a shorter
one leaves nothing of the longer one behind.
"""

from __future__ import annotations

import sys
from typing import IO, Any

#: characters of the bar between its brackets
BAR_WIDTH = 30


class Progress:
    """A status line on ``stream`` (stderr), with a bar when ``total`` is given."""

    def __init__(self, total: int | None = None, *, stream: IO[str] | None = None,
                 enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.live = enabled and _is_terminal(self.stream)
        self._drawn = 0                 # the length of the line on the screen

    def show(self, text: str, done: int | None = None) -> None:
        """Draw ``text`` (after the bar filled to ``done`` of ``total``, if there is one)."""
        if not self.live:
            return
        line = text
        if self.total and done is not None:
            filled = int(BAR_WIDTH * min(max(done, 0), self.total) / self.total)
            line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {text}"
        pad = " " * max(0, self._drawn - len(line))
        self.stream.write(f"\r{line}{pad}")
        self.stream.flush()
        self._drawn = len(line)

    def close(self) -> None:
        """Erase the line (if anything was drawn); the next output starts clean."""
        if self.live and self._drawn:
            self.stream.write("\r" + " " * self._drawn + "\r")
            self.stream.flush()
        self._drawn = 0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and not getattr(stream, "closed", False) and isatty())
