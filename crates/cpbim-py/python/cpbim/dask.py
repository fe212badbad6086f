"""cpbim.dask: many positions solved as Dask tasks on a ``distributed`` cluster.

Needs ``dask[distributed]`` (``pip install 'cpbim[dask]'``); ``import cpbim`` alone does not.
The workers must be able to import ``cpbim`` (the same package installed where they run).
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, Iterable, List, Optional, Union

try:
    import distributed
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cpbim.dask needs dask[distributed]: pip install 'cpbim[dask]' "
        "(or pip install 'dask[distributed]')"
    ) from error

from ._cpbim import solve_batch

__all__ = ["solve_many"]

#: Without ``batch_size``, a batch holds the lines not yet dealt divided by SHARE times the
#: worker threads, and at least MIN_BATCH (the last one may hold fewer).
SHARE = 4
MIN_BATCH = 16


def _solve_lines(
    lines: List[Union[str, bytes]],
    game: str,
    depth: Optional[int],
    nodes: Optional[int],
    time: Optional[float],
    proof: bool,
    to_move: Optional[str],
) -> List[Dict[str, Any]]:
    """One task: ``solve_batch`` on one batch, on the worker's one thread."""
    return solve_batch(
        lines,
        game=game,
        depth=depth,
        nodes=nodes,
        time=time,
        proof=proof,
        to_move=to_move,
        threads=1,
    )


def _current_client() -> "distributed.Client":
    try:
        return distributed.get_client()
    except ValueError:
        raise ValueError(
            "solve_many: no Dask client: pass client=, or create one first, e.g. "
            "distributed.Client(distributed.LocalCluster(n_workers=2, threads_per_worker=1)) "
            "or distributed.Client('tcp://scheduler:8786')"
        ) from None


def _batches(count: int, batch_size: Optional[int], threads: int) -> List[List[int]]:
    """The indices of ``count`` lines dealt into batches: in one fixed shuffled order (the same
    for every call), each batch's indices increasing. The batches hold ``batch_size`` lines, or
    without it shrink from ``count / (SHARE * threads)`` to ``MIN_BATCH``."""
    order = list(range(count))
    random.Random(0).shuffle(order)
    batches, start = [], 0
    while start < count:
        size = batch_size or max(MIN_BATCH, math.ceil((count - start) / (SHARE * threads)))
        batches.append(sorted(order[start : start + size]))
        start += size
    return batches


def solve_many(
    positions: Iterable[Union[str, bytes]],
    client: Optional["distributed.Client"] = None,
    batch_size: Optional[int] = None,
    *,
    game: str = "connect6",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    proof: bool = False,
    to_move: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """Solve one game per line on a Dask cluster: what ``cpbim.solve_batch`` returns for the
    same lines, in the same order.

    ``positions`` holds the lines (str or bytes), one game each, as ``solve_batch`` takes them.
    ``client`` is a ``distributed.Client``; ``None`` takes the current one
    (``distributed.get_client()``: the client of a ``with Client(...)`` block, else the latest
    one made), and with none at all raises ``ValueError``. The lines are dealt into batches,
    each one task that runs ``solve_batch(batch, threads=1, ...)`` on a worker: Dask's workers
    and their threads are the parallelism. A batch takes its lines from one fixed shuffled
    order of the input (the same on every call), so that neighbouring lines, often alike in
    cost (a test set sorted by depth, the positions of one game), spread over the batches.
    With ``batch_size``, every batch holds that many lines (the last one the rest). Without
    it, the batches shrink: each holds the lines not yet dealt divided by 4 times the worker
    threads the client sees at the call, and at least 16, so the first batches give each
    thread about a quarter of its part and the last ones are short. Start the workers before
    the call (``client.wait_for_workers(n)``): with none yet, the batches are cut for one
    thread. ``game``, ``depth``, ``nodes``, ``time``, ``proof`` and ``to_move`` are
    ``solve_batch``'s and bound each line's search.

    The options, ``batch_size`` and the lines' types are checked here before any task is
    submitted: a bad option raises ``ValueError`` (the command line's message) or
    ``TypeError`` at once. A line that is not a game gets its ``{"error": message}`` at its
    index and the other lines are answered. When a worker dies, the scheduler runs its tasks
    again on the other workers (up to ``distributed.scheduler.allowed-failures`` times, 3 by
    default, then ``distributed.KilledWorker``); an exception raised by a task is raised here
    and the batches still pending are cancelled, as they are when this call is interrupted.
    """
    if isinstance(positions, (str, bytes)):
        raise TypeError("positions must be a list of lines (str or bytes), not one string")
    lines = list(positions)
    for index, line in enumerate(lines):
        if not isinstance(line, (str, bytes)):
            raise TypeError(
                f"positions must hold str or bytes, not {type(line).__name__} (line {index})"
            )
    if batch_size is not None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise TypeError(f"batch_size must be an int, not {type(batch_size).__name__}")
        if batch_size < 1:
            raise ValueError(f"batch_size {batch_size}: a batch holds at least 1 line")
    limits = dict(game=game, depth=depth, nodes=nodes, time=time, proof=proof, to_move=to_move)
    solve_batch([], **limits)  # the options' errors, before anything is submitted
    if client is None:
        client = _current_client()
    if not lines:
        return []
    threads = 1 if batch_size else max(1, sum(client.nthreads().values()))
    batches = _batches(len(lines), batch_size, threads)
    # pure=False: every call its own tasks (answers with a time limit, and time_ms, differ
    # from run to run), so cancelling them below touches no other call's.
    futures = client.map(
        _solve_lines,
        [[lines[i] for i in batch] for batch in batches],
        key="cpbim-solve_many",
        pure=False,
        **limits,
    )
    try:
        results = client.gather(futures)
    except BaseException:
        client.cancel(futures)
        raise
    answers: List[Any] = [None] * len(lines)
    for batch, batch_answers in zip(batches, results):
        for index, answer in zip(batch, batch_answers):
            answers[index] = answer
    return answers
