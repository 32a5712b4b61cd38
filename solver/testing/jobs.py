"""Job functions for the tests and benchmarks of `dipsolve.execution`: importable by name
in any worker (a local process or a Ray worker), as a job's function must be.

- `square`: ``n * n`` (a job that does nothing, for overheads);
- `square_or_fail`: as `square`, but a negative ``n`` raises `ValueError`;
- `die_once`: ``(folder, n)``: the first run of job ``n`` kills its own worker (SIGKILL)
  after leaving a mark in ``folder``, a second run answers ``n * n``; ``n`` < 0 dies
  every time.
"""

from __future__ import annotations

import os
import signal


def square(n: int) -> int:
    return n * n


def square_or_fail(n: int) -> int:
    if n < 0:
        raise ValueError(f"job {n} is wrong")
    return n * n


def die_once(task: tuple[str, int]) -> int:
    folder, n = task
    mark = os.path.join(folder, f"ran-{n}")
    if n < 0 or not os.path.exists(mark):
        with open(mark, "a") as fh:
            fh.write("x")
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n
