"""cpbim.dask: cpbim on a ``distributed`` cluster: many positions solved (``solve_many``), a
proof by the proof search's job level (``prove``), a match of engine games (``match``), each
as Dask tasks.

Needs ``dask[distributed]`` (``pip install 'cpbim[dask]'``); ``import cpbim`` alone does not.
The workers must be able to import ``cpbim`` (the same package installed where they run).
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

try:
    import distributed
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cpbim.dask needs dask[distributed]: pip install 'cpbim[dask]' "
        "(or pip install 'dask[distributed]')"
    ) from error

from ._cpbim import Position, play_game, solve_batch, tally
from ._cpbim import openings as _openings

__all__ = ["match", "prove", "solve_many"]

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
            "no Dask client: pass client=, or create one first, e.g. "
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
) -> List[Optional[Dict[str, Any]]]:
    """Solve one game per line on a Dask cluster: what ``cpbim.solve_batch`` returns for the
    same lines, in the same order (``None`` for a blank or comment-only line).

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


def prove(
    position: str,
    client: Optional["distributed.Client"] = None,
    *,
    game: str = "connect6",
    side: Optional[str] = None,
    threats: int = 2,
    job_nodes: int = 20_000,
    depth: Optional[int] = None,
    leaf_depth: int = 24,
    leaf_nodes: int = 1_000_000,
    width: int = 24,
    quiet: int = 0,
    quiet_depth: int = 1,
    full_width: bool = False,
    to_move: Optional[str] = None,
    time: Optional[float] = None,
    max_jobs: Optional[int] = None,
    progress: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> Dict[str, Any]:
    """Prove ``side``'s win in ``position`` by the proof search's job level on a Dask cluster
    (Wu et al.'s job-level proof-number search; ``cpbim.jobs`` has the method): this process
    keeps the top of a proof-number tree, and each job, one Dask task, is ``cpbim.prove`` of
    one of its frontier positions within ``job_nodes`` nodes (or, when a job ran out of them,
    ``cpbim.prove_expand`` of it), two under way for each of the cluster's worker threads.

    The options are ``cpbim.prove``'s and bound each job the same way (``threats``: the
    threat budget of the whole proof). ``time`` (seconds) and ``max_jobs`` bound the whole
    run; ``progress``, when given, is called with ``{"jobs", "tree", "running"}`` after each
    job. Games of one stone a move (Gomoku, Renju, connect(m,n,k,1,1)); a Connect6 position
    raises ``ValueError`` (``cpbim.prove(threads=…)`` proves those on one machine).

    Returns ``cpbim.prove``'s object (``result``: ``proven``, ``not proven`` or ``stopped``;
    ``proof`` in the same form, checked by the same checker) with the job level's counts:
    ``jobs`` (answered), ``jobs_used`` (not made moot by a sibling's answer), ``tree`` (the
    master's nodes), ``job_time_ms`` (their sum), ``job_times_ms`` (each), and ``limits``
    with ``job_nodes`` and ``workers``. Bad options raise before any task is submitted; a
    task's exception is raised here, the jobs under way cancelled.
    """
    from . import jobs

    return jobs.prove_with(
        lambda: jobs.DaskRunner(client if client is not None else _current_client()),
        position,
        game=game,
        side=side,
        threats=threats,
        job_nodes=job_nodes,
        depth=depth,
        leaf_depth=leaf_depth,
        leaf_nodes=leaf_nodes,
        width=width,
        quiet=quiet,
        quiet_depth=quiet_depth,
        full_width=full_width,
        to_move=to_move,
        time=time,
        max_jobs=max_jobs,
        progress=progress,
    )


def _game_task(engines, game, opening, black, tc):
    """One task: one game (``cpbim.play_game``) on the worker."""
    return play_game(tuple(engines), game=game, opening=opening, black=black, tc=tc)


def match(
    engines: Sequence[str],
    client: Optional["distributed.Client"] = None,
    *,
    game: str = "connect6",
    openings: Optional[Sequence[str]] = None,
    games: Optional[int] = None,
    tc: Optional[str] = None,
    sprt: Optional[str] = None,
) -> Dict[str, Any]:
    """Play a match between two engine commands on a Dask cluster, one game a task: what
    ``cpbim match`` plays on one machine, its schedule and statistics.

    ``engines`` are the two commands (run with ``sh -c`` on the workers, so each worker must
    have them at the same path), speaking the game's protocol (Cloudict for Connect6, Gomocup
    for the games of five). ``openings`` are stone lists (default: ``cpbim.openings(game)``);
    game ``i`` plays opening ``(i // 2) % len(openings)`` with engine ``i % 2`` black, as
    ``cpbim match`` schedules them; ``games`` defaults to every opening twice. ``tc`` is
    ``cpbim match --tc``. With ``sprt`` (``"elo0,elo1,alpha,beta"``) the games still pending
    are cancelled once the test accepts a hypothesis.

    Returns ``{"summary": …, "games": […]}``: the summary is ``cpbim.tally`` of the games
    played (from the first engine's side) with ``adjudications`` (``illegal``, ``time``,
    ``crash``); the games are ``cpbim.play_game``'s objects with their ``index`` and
    ``opening``, in schedule order.
    """
    engines = list(engines) if not isinstance(engines, str) else [engines]
    if len(engines) != 2 or not all(isinstance(e, str) and e.strip() for e in engines):
        raise ValueError("engines: give two engine commands")
    openings = list(openings) if openings is not None else _openings(game)
    if not openings or not all(isinstance(o, str) for o in openings):
        raise ValueError("openings: give one stone list (str) per opening")
    if games is None:
        games = 2 * len(openings)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games {games!r}: give a whole number of games, 1 or more")
    tally([], sprt=sprt)  # the test's errors, before anything is submitted
    schedule = [(i, openings[(i // 2) % len(openings)], i % 2) for i in range(games)]
    for opening in openings:
        Position(opening, game=game)  # every opening read here first
    if client is None:
        client = _current_client()
    futures = {
        client.submit(_game_task, engines, game, opening, black, tc, pure=False): (i, opening)
        for i, opening, black in schedule
    }
    played = {}
    try:
        for future in distributed.as_completed(list(futures), loop=client.loop):
            i, opening = futures[future]
            played[i] = dict(future.result(), index=i, opening=opening)
            if sprt is not None:
                state = tally([g["score"] for g in played.values()], sprt=sprt)["sprt"]
                if state["accepted"] is not None:
                    break
    finally:
        client.cancel([f for f in futures if not f.done()])
    ordered = [played[i] for i in sorted(played)]
    summary = tally([g["score"] for g in ordered], sprt=sprt)
    summary["adjudications"] = {
        name: sum(1 for g in ordered if g["ending"] == name)
        for name in ("illegal", "time", "crash")
    }
    return {"summary": summary, "games": ordered}
