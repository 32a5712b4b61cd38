"""Independent tasks in worker processes: at most N at once, each result handed back in
task order, a worker that dies reported with its task, and everything stopped on request.

    run_tasks(play_one, tasks, jobs=2, on_result=keep, on_lost=report)

Each worker is a fresh interpreter (``spawn``: no fork of a process holding threads)
that takes one task after another over its own pipe.  The parent waits on the pipes and
on the processes themselves, so a worker that dies (killed, out of memory, a crash in a
library) is seen at once: its task is reported to ``on_lost`` with the reason
(``killed by SIGKILL``), a new worker takes the next task, and every result already
finished is kept.  Workers ignore SIGINT and SIGHUP: a Ctrl-C at the terminal (or the
terminal closing) reaches the whole process group, and it is the parent that decides (`dipsolve.core.results.request_stop`):
it terminates the workers, hands back every result finished (in task order) and raises
`dipsolve.core.results.Stopped`.  An exception raised by a task is raised in the parent.
"""

from __future__ import annotations

import signal
from collections import deque
from typing import Any, Callable, Sequence

from ..core.results import Stopped, stop_requested

#: seconds between two looks at the stop flag while waiting for the workers
POLL = 0.1


def death(exitcode: int | None) -> str:
    """How a process ended, in words: ``killed by SIGKILL``, ``exit status 3``."""
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


#: the signals a worker leaves to its parent: Ctrl-C and a closed terminal reach the whole
#: process group, and the parent decides (it stops the workers itself)
_PARENTS = {signal.SIGINT} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


def _serve(conn: Any, fn: Callable[[Any], Any]) -> None:
    """A worker: run the tasks the parent sends until it sends None or goes away (then
    quietly: a parent gone is no error of the worker's)."""
    for signum in _PARENTS:
        signal.signal(signum, signal.SIG_IGN)        # the parent handles Ctrl-C, SIGHUP
    if hasattr(signal, "pthread_sigmask"):           # blocked since its start: see _Worker
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _PARENTS)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        index, task = item
        try:
            out = ("ok", index, fn(task))
        except Exception as e:          # handed to the parent, which raises it
            out = ("error", index, e)
        try:
            try:
                conn.send(out)
            except (OSError, EOFError):
                raise
            except Exception as e:      # the result or the error cannot be pickled
                conn.send(("error", index, RuntimeError(f"task {index}: {type(e).__name__}: {e}")))
        except (OSError, EOFError):     # the parent went away (BrokenPipeError): stop quietly
            return


class _Worker:
    def __init__(self, ctx: Any, fn: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, fn), daemon=True)
        # the new interpreter starts with SIGINT blocked (a blocked signal stays blocked
        # across exec), so that a Ctrl-C while it imports is no KeyboardInterrupt
        # traceback from it; it ignores SIGINT before unblocking it.  In this process
        # another thread takes a SIGINT meanwhile, and nothing is lost.
        blocking = hasattr(signal, "pthread_sigmask")
        if blocking:
            # multiprocessing starts its helper process on the first start, and unblocks
            # SIGINT in this thread when it has: start it first
            from multiprocessing import resource_tracker
            resource_tracker.ensure_running()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENTS) if blocking else None
        try:
            self.process.start()
        finally:
            if old is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        child.close()
        self.index: int | None = None

    def give(self, index: int, task: Any) -> None:
        self.index = index
        self.conn.send((index, task))

    def stop(self, now: bool) -> None:
        if not now and self.index is None and self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int, *,
              on_result: Callable[[int, Any], None],
              on_lost: Callable[[int, str], None], on_start: Callable[[int], None] | None = None,
              ordered: bool = True) -> None:
    """Run ``fn(task)`` for every task in at most ``jobs`` worker processes (``fn`` is a
    module-level function); ``on_result(i, value)`` for each in task order,
    ``on_lost(i, reason)`` (in that order too) for a task whose worker died; with
    ``ordered=False`` each as soon as it is known (`dipsolve.execution`);
    ``on_start(i)`` as task ``i`` is handed to a worker.  Raises
    `Stopped` after a stop request, once every finished result has been handed back."""
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("spawn")
    pending = deque(range(len(tasks)))
    done: dict[int, tuple[bool, Any]] = {}        # index -> (finished?, value or reason)
    next_out = 0
    workers: list[_Worker] = []

    def hand_back(all_finished: bool = False) -> None:
        nonlocal next_out
        if not ordered:
            for index in list(done):
                ok, value = done.pop(index)
                (on_result if ok else on_lost)(index, value)
            return
        while next_out < len(tasks) and (next_out in done or all_finished):
            if next_out in done:
                ok, value = done.pop(next_out)
                (on_result if ok else on_lost)(next_out, value)
            next_out += 1

    stopped = False
    try:
        while pending or any(w.index is not None for w in workers):
            if stop_requested():
                stopped = True
                break
            for w in list(workers):
                if w.index is None and pending:
                    i = pending.popleft()
                    try:
                        w.give(i, tasks[i])
                    except OSError:         # an idle worker died: another takes the task
                        pending.appendleft(i)
                        w.index = None
                        w.stop(now=True)
                        workers.remove(w)
                        continue
                    if on_start is not None:
                        on_start(i)
            while pending and len(workers) < jobs:
                w = _Worker(ctx, fn)
                workers.append(w)
                i = pending.popleft()
                w.give(i, tasks[i])
                if on_start is not None:
                    on_start(i)
            busy = [w for w in workers if w.index is not None]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], POLL)
            for w in busy:
                if w.conn in ready or w.process.sentinel in ready:
                    message = None
                    try:
                        if w.conn.poll():
                            message = w.conn.recv()
                    except (EOFError, OSError):
                        message = None
                    if message is not None:
                        kind, index, value = message
                        if kind == "error":
                            raise value
                        done[index] = (True, value)
                        w.index = None
                    elif not w.process.is_alive() or w.process.sentinel in ready:
                        w.process.join(1)
                        if stop_requested():     # killed with us (SIGTERM to the group)
                            stopped = True
                            break
                        index = w.index
                        assert index is not None
                        done[index] = (False, death(w.process.exitcode))
                        w.index = None
                        w.stop(now=True)
                        workers.remove(w)
            hand_back()
            if stopped:
                break
    finally:
        for w in workers:
            w.stop(now=stopped or w.index is not None)
    if stopped:
        hand_back(all_finished=True)
        raise Stopped
    hand_back()
