"""The one progress display of dipsolve: `Progress`, on tqdm (a bar with ETA on a terminal, a widget in a notebook).

    with Progress(total=len(files)) as progress:      # a bar:  3/20 files  15%|██   | 3/20 [00:01<00:06]
        for i, path in enumerate(files, 1):
            ...
            progress.show(f"{i}/{len(files)}", done=i)

    with Progress() as progress:                      # a line of text and the time taken
        progress.show("12,000 evaluations (pure)")

It draws only on a terminal (never into a pipe, a file or a test's captured output) or,
in a Jupyter notebook, as tqdm's widget; it is silent under ``--json`` (`SILENT`, set by
the command line for the run) and when ``enabled`` is false.  The environment variable
``DIPSOLVE_PROGRESS`` overrides: ``never`` (no display at all) or ``always`` (on a
terminal even under ``--json``: a script that watches the work on a terminal, such as
tests/test_interrupts.py).  The bar fits the terminal's
width (as it is when the display opens), is redrawn at each `show` (or at most every
``mininterval`` seconds, and always at the end: a text skipped then is lost until the
next `show`, so the default is 0), and is erased when closed.  The clock is injectable (``clock``) so that tests see fixed times.
"""

from __future__ import annotations

import io
import os
import sys
import time
from typing import IO, Any, Callable

#: no progress at all for this run (the command line sets it under ``--json``)
SILENT = False


def in_notebook() -> bool:
    """Running in a Jupyter kernel (where tqdm draws a widget)."""
    ipython = sys.modules.get("IPython")
    if ipython is None or "ipykernel" not in sys.modules:
        return False
    shell = ipython.get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def silenced() -> bool:
    """No progress at all for this run: ``--json`` (`SILENT`) unless ``DIPSOLVE_PROGRESS``
    is ``always``, or ``DIPSOLVE_PROGRESS=never``."""
    wanted = os.environ.get("DIPSOLVE_PROGRESS", "").lower()
    return wanted == "never" or (SILENT and wanted != "always")


class Progress:
    """A progress display on ``stream`` (stderr): a bar with ETA when ``total`` is given,
    else a line of text with the time taken."""

    def __init__(self, total: int | None = None, *, stream: IO[str] | None = None,
                 enabled: bool = True, clock: Callable[[], float] = time.monotonic,
                 mininterval: float = 0.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        notebook = stream is None and in_notebook()
        self.live = enabled and not silenced() and (notebook or is_terminal(self.stream))
        self._total = total
        self._clock = clock
        self._mininterval = mininterval
        self._last = -1e18
        self._notebook = notebook
        self._bar: Any = self._open() if self.live else None     # the clock starts now

    @property
    def total(self) -> int | None:
        return self._total

    @total.setter
    def total(self, value: int | None) -> None:
        self._total = value
        if self._bar is not None:
            self._bar.total = value

    def _open(self) -> Any:
        if self._notebook:
            from tqdm.notebook import tqdm as bar_type
        else:
            from tqdm import tqdm as bar_type
        fmt = ("{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"
               if self._total else "{desc} [{elapsed}]")
        bar = bar_type(total=self._total, file=self.stream, leave=False, ncols=_width(self.stream), nrows=24,
                       bar_format=fmt, mininterval=0, miniters=0, delay=1e9, disable=False)
        # (delay: nothing drawn until the first `show`; nrows: one bar, whatever size a
        # terminal reports: tqdm draws nothing at all when a pseudo-terminal says 0 rows)
        bar._time = self._clock                       # tqdm's own clock, for tests
        bar.start_t = bar.last_print_t = self._clock()
        return bar

    def show(self, text: str, done: int | None = None) -> None:
        """Show ``text`` (and the bar filled to ``done`` of ``total``, if there is one)."""
        if self._bar is None:
            return
        bar = self._bar
        bar.set_description_str(text, refresh=False)
        if done is not None:
            bar.n = max(0, done)
        now = self._clock()
        final = done is not None and self._total is not None and done >= self._total
        if final or now - self._last >= self._mininterval:
            bar.delay = 0                             # drawn: erased when closed
            bar.refresh()
            self._last = now

    def clear(self) -> None:
        """Take the display off the terminal for a moment, so that a message printed next
        starts on a clean line (the next `show` draws it again)."""
        if self._bar is not None:
            self._bar.clear()

    def close(self) -> None:
        """Erase the display (if anything was drawn); the next output starts clean."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _width(stream: IO[str], default: int = 100) -> int:
    """The terminal's width in characters (``default`` when it does not say: a pseudo-
    terminal without a size reports 0)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        columns = 0
    return columns if columns >= 20 else default


def is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and not getattr(stream, "closed", False) and isatty())
