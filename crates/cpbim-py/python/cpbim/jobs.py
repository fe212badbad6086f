"""The proof search's job level: a proof-number tree kept here, `prove` jobs run elsewhere.

Wu et al.'s job-level proof-number search (JL-PNS, IEEE TCIAIG 5(1), 2013): a master keeps the
top of a proof-number tree and sends its most-proving frontier positions as jobs to workers:
here ``cpbim.prove`` of one position with a node budget (``job_nodes``), and
``cpbim.prove_expand`` when a job ran out of it. A job's answer settles its node (proven: a
proof; not proven within the limits) or, when it stopped, the node is expanded into the children
``prove`` itself searches there:

- the attacker to move: its threat moves (moves after which, were the defender to pass, the
  leaf search would win), each followed by the defender to move with one threat fewer;
- the defender to move: its moves inside the relevance zone of the attacker's win were it to
  pass (every move where there is none), each followed by the attacker with the same threats.

Proof numbers are the usual (an attacker node: the least proof number of its children, the sum
of their disproof numbers; a defender node the other way round; 1 and 1 at the frontier). While
a job runs, its node counts as the answer that leaves its parent open (a failed move under the
attacker, an answered move under the defender), so the next job goes to a sibling: every
worker keeps busy with the alternatives and defences the proof needs. A settled node stops the
jobs under it.

The proofs are built from the jobs' proofs and the expansions, in the form ``cpbim prove
--json`` writes (docs/json.md), and are checked by the same checker. The executor is anything
with ``submit``/``next``/``cancel``/``slots``: Dask (``cpbim.dask.prove``) or a simulation
(``Simulated``: jobs run here one after another, their measured times placed on a virtual
clock with any number of workers — the model of the speed-up at many workers).
"""

from __future__ import annotations

import heapq
import itertools
import time as _time
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _cpbim

INF = 1 << 62

# What the expansion and the jobs are given, by name (prove's options).
_LEAF = ("leaf_depth", "leaf_nodes", "width", "full_width")
_JOB = _LEAF + ("depth", "quiet", "quiet_depth")


def run_job(kind: str, stones: Tuple[str, ...], game: str, side: str, threats: int,
            options: Dict[str, Any]) -> Tuple[Dict[str, Any], float]:
    """One job (``"prove"`` or ``"expand"``) on the position reached by ``stones``; its answer
    and its time in seconds, measured where it ran."""
    text = " ".join(stones)
    start = _time.perf_counter()
    if kind == "expand":
        answer = _cpbim.prove_expand(text, game=game, side=side,
                                     **{k: options[k] for k in _LEAF})
    else:
        answer = _cpbim.prove(text, game=game, side=side, threats=threats,
                              nodes=options["job_nodes"], threads=1,
                              **{k: options[k] for k in _JOB})
        answer = {"result": answer["result"], "proof": answer["proof"],
                  "nodes": answer["nodes"]}
    return answer, _time.perf_counter() - start


class _Node:
    __slots__ = ("stones", "attacker", "threats", "move", "parent", "children", "state",
                 "proof", "pass_", "handle", "pn", "dn")

    def __init__(self, stones, attacker, threats, move=None, parent=None):
        self.stones = stones          # the position, as the stones played
        self.attacker = attacker      # the attacker to move (an OR node)
        self.threats = threats        # threat moves left on a line through it
        self.move = move              # the move that reached it
        self.parent = parent
        self.children: List[_Node] = []
        # new (a prove job to run), stopped (to expand), running, expanding, inner,
        # proven, failed
        self.state = "new"
        self.proof = None
        self.pass_ = None             # the defender's node: the attacker's win were it to pass
        self.handle = None            # the job under way
        self.pn, self.dn = 1, 1       # Master.numbers, kept up to date by Master._update

    def settled(self) -> bool:
        return self.state in ("proven", "failed")


def _combined(attacker: bool, kids: List[Tuple[int, int]]) -> Tuple[int, int]:
    """An inner node's numbers from its children's: the attacker's node takes the least proof
    number and the sum of the disproof numbers, the defender's node the other way round."""
    pns, dns = [k[0] for k in kids], [k[1] for k in kids]
    if attacker:
        return min(pns), min(INF, sum(dns))
    return min(INF, sum(pns)), min(dns)


class Master:
    """The job level's tree for ``side``'s win in the position reached by ``stones``."""

    def __init__(self, stones: List[str], game: str, side: str, to_move: str, threats: int,
                 options: Dict[str, Any]):
        self.game, self.side, self.to_move, self.options = game, side, to_move, options
        self.root = _Node(tuple(stones), to_move == side, threats)
        self.nodes = 1
        self.jobs: List[Dict[str, Any]] = []

    # --- proof and disproof numbers -------------------------------------------------------
    def numbers(self, n: _Node, parent_attacker: Optional[bool]) -> Tuple[int, int]:
        """``n``'s numbers, a running job counted as the answer that leaves its parent open."""
        if n.state == "proven":
            return 0, INF
        if n.state == "failed":
            return INF, 0
        if n.state in ("running", "expanding"):
            return (INF, 0) if parent_attacker in (True, None) else (0, INF)
        if n.state in ("new", "stopped"):
            return 1, 1
        return _combined(n.attacker, [self.numbers(c, n.attacker) for c in n.children])

    def _update(self, n: _Node) -> None:
        """After ``n``'s state or children changed: its kept numbers and those above it, up to
        the first that does not change (what :meth:`numbers` computes from scratch)."""
        while n is not None:
            parent_attacker = n.parent.attacker if n.parent is not None else None
            if n.state == "inner":
                numbers = _combined(n.attacker, [(c.pn, c.dn) for c in n.children])
            else:
                numbers = self.numbers(n, parent_attacker)
            if numbers == (n.pn, n.dn):
                return
            n.pn, n.dn = numbers
            n = n.parent

    def most_proving(self) -> Optional[_Node]:
        """The frontier node the next job should go to, or ``None`` while none is open: down
        the kept numbers, one child list a level (walking the whole tree for them at every
        choice made the master quadratic in the tree)."""
        n = self.root
        pn, dn = n.pn, n.dn
        if pn in (0, INF) or dn in (0, INF):
            return None
        while n.state == "inner":
            scored = [((c.pn, c.dn), i) for i, c in enumerate(n.children)]
            key = (lambda s: (s[0][0], s[1])) if n.attacker else (lambda s: (s[0][1], s[1]))
            best = min((s for s in scored if 0 < s[0][0] < INF and 0 < s[0][1] < INF),
                       key=key, default=None)
            if best is None:
                return None
            n = n.children[best[1]]
        return n if n.state in ("new", "stopped") else None

    # --- jobs ------------------------------------------------------------------------------
    def start(self, n: _Node, runner) -> None:
        kind = "prove" if n.state == "new" else "expand"
        n.state = "running" if kind == "prove" else "expanding"
        n.handle = runner.submit(n, kind, n.stones, self.game, self.side, n.threats,
                                 self.options)
        self._update(n)

    def finished(self, n: _Node, kind: str, answer: Dict[str, Any], seconds: float,
                 runner) -> None:
        """A job of ``n`` answered: settle, or expand, the node."""
        moot = self._moot(n)
        self.jobs.append({"kind": kind, "ms": seconds * 1e3, "used": not moot})
        n.handle = None
        if moot:
            return
        if kind == "prove":
            if answer["result"] == "proven":
                self.settle(n, "proven", answer["proof"], runner)
            elif answer["result"] == "not proven":
                self.settle(n, "failed", None, runner)
            else:
                n.state = "stopped"
                self._update(n)
            return
        self.expanded(n, answer, runner)

    def _moot(self, n: _Node) -> bool:
        """Is ``n`` or a node above it settled already (its job's answer no longer needed)?"""
        while n is not None:
            if n.settled():
                return True
            n = n.parent
        return False

    def expanded(self, n: _Node, e: Dict[str, Any], runner) -> None:
        kind = e["node"]
        if kind == "lost":
            return self.settle(n, "failed", None, runner)
        if kind == "leaf":
            return self.settle(n, "proven", e["proof"], runner)
        if kind == "attacker":
            moves = e["moves"] if n.threats > 0 else []
            n.children = [_Node(n.stones + tuple(m), False, n.threats - 1, m, n) for m in moves]
        else:
            n.pass_ = e["pass"]
            n.children = [_Node(n.stones + tuple(m), True, n.threats, m, n) for m in e["moves"]]
        self.nodes += len(n.children)
        if not n.attacker and n.pass_ is None and n.parent is not None:
            # After the attacker's move, no leaf win were the defender to pass: no threat
            # (whatever the defences, the proof's form needs one).
            return self.settle(n, "failed", None, runner)
        if not n.children:
            # No threat move: not proven. No defence inside the zone: the pass win answers
            # every move (no pass win and no move: the board is full, a draw).
            if n.attacker or n.pass_ is None:
                return self.settle(n, "failed", None, runner)
            return self.settle(n, "proven", {"pass": {"leaf": n.pass_}, "replies": []}, runner)
        n.state = "inner"
        self._update(n)

    def settle(self, n: _Node, state: str, proof, runner) -> None:
        """``n`` proven (with ``proof``) or failed; its jobs below stopped, its parent told."""
        n.state, n.proof = state, proof
        self._update(n)
        self._cancel_below(n, runner)
        p = n.parent
        if p is None or p.settled():
            return
        if p.attacker:
            if state == "proven":
                self.settle(p, "proven", _threat_proof(n.move, proof), runner)
            elif all(c.state == "failed" for c in p.children):
                self.settle(p, "failed", None, runner)
        elif state == "failed":
            self.settle(p, "failed", None, runner)
        elif all(c.state == "proven" for c in p.children):
            replies = [{"stones": c.move, "next": c.proof} for c in p.children]
            passed = {"leaf": p.pass_} if p.pass_ is not None else None
            self.settle(p, "proven", {"pass": passed, "replies": replies}, runner)

    def _cancel_below(self, n: _Node, runner) -> None:
        for c in n.children:
            if c.handle is not None:
                runner.cancel(c.handle)
                c.handle = None
            self._cancel_below(c, runner)

    def run(self, runner, deadline: Optional[float] = None, max_jobs: Optional[int] = None,
            progress: Optional[Callable[[Dict[str, Any]], None]] = None) -> str:
        """Run jobs on ``runner`` until the root is settled or a limit is reached; the result
        (``proven``, ``not proven`` or ``stopped``)."""
        try:
            return self._run(runner, deadline, max_jobs, progress)
        finally:
            runner.cancel_all()

    def _run(self, runner, deadline, max_jobs, progress) -> str:
        started = 0
        while not self.root.settled():
            while runner.running() < runner.slots() and (max_jobs is None or started < max_jobs):
                n = self.most_proving()
                if n is None:
                    break
                self.start(n, runner)
                started += 1
            if runner.running() == 0:
                # Nothing open and nothing under way: a job limit was reached.
                break
            if deadline is not None and _time.monotonic() >= deadline:
                break
            n, kind, answer, seconds = runner.next(deadline)
            if n is None:
                break
            self.finished(n, kind, answer, seconds, runner)
            if progress is not None:
                progress({"jobs": len(self.jobs), "tree": self.nodes,
                          "running": runner.running()})
        if self.root.state == "proven":
            return "proven"
        return "not proven" if self.root.state == "failed" else "stopped"


def _threat_proof(move: List[str], after: Dict[str, Any]) -> Dict[str, Any]:
    """The attacker's threat ``move`` proven by ``after``, the defender's root proof after it
    (its pass win a leaf: the move is a threat)."""
    passed = after.get("pass")
    if not isinstance(passed, dict) or "leaf" not in passed:
        raise RuntimeError(f"internal error (a bug in cpbim): the threat {move} has no pass win")
    return {"threat": list(move), "pass": passed["leaf"], "replies": after["replies"]}


def threats_of(proof: Optional[Dict[str, Any]]) -> int:
    """Threat moves on the longest line of ``proof`` (a quiet move counts one, and its pass
    proof's line is a line too), as ``cpbim prove`` counts them."""
    if not proof or "leaf" in proof:
        return 0
    lines = [_reply_threats(r) for r in proof.get("replies", [])]
    if "threat" in proof:
        return 1 + max(lines, default=0)
    lines.append(threats_of(proof.get("pass")))
    return ("quiet" in proof) + max(lines)


def _reply_threats(reply: Dict[str, Any]) -> int:
    if "next" in reply:
        return threats_of(reply["next"])
    return max((_reply_threats(r) for r in reply.get("replies", [])), default=0)


class Simulated:
    """A runner with ``workers`` virtual workers: each job runs here when submitted, and its
    measured time is placed on a virtual clock (first free worker, first come); answers arrive
    in the order they would finish. A job already run (the same position, kind and threats)
    is answered from ``cache`` with the time it took then. A cancelled job keeps its worker
    until its time is up, as a Dask task already running does."""

    def __init__(self, workers: int, cache: Optional[Dict[Any, Any]] = None):
        self.workers = workers
        self.cache = {} if cache is None else cache
        self.clock = 0.0
        self.free = [0.0] * workers
        self.queue: List[Any] = []
        self.cancelled = set()
        self.ids = itertools.count()

    def slots(self) -> int:
        return self.workers

    def threads(self) -> int:
        return self.workers

    def elapsed(self, start: float) -> float:
        """Seconds on the virtual clock."""
        return self.clock

    def running(self) -> int:
        return sum(1 for e in self.queue if e[1] not in self.cancelled)

    def submit(self, node, kind, stones, game, side, threats, options):
        key = (kind, stones, game, side, threats)
        if key not in self.cache:
            self.cache[key] = run_job(kind, stones, game, side, threats, options)
        answer, seconds = self.cache[key]
        start = max(self.clock, heapq.heappop(self.free))
        heapq.heappush(self.free, start + seconds)
        handle = next(self.ids)
        heapq.heappush(self.queue, (start + seconds, handle, node, kind, answer, seconds))
        return handle

    def next(self, deadline=None):
        while self.queue:
            at, handle, node, kind, answer, seconds = heapq.heappop(self.queue)
            self.clock = max(self.clock, at)
            if handle in self.cancelled:
                continue
            return node, kind, answer, seconds
        return None, None, None, None

    def cancel(self, handle) -> None:
        self.cancelled.add(handle)

    def cancel_all(self) -> None:
        self.cancelled.update(e[1] for e in self.queue)


class DaskRunner:
    """A runner whose jobs are tasks of a ``distributed.Client``, ``per_thread`` under way
    for each of the cluster's worker threads (one more waits at each thread while one runs,
    so the round trip to the scheduler is not a thread's idle time). A cancelled task that is
    running already finishes on its worker (Dask cannot interrupt it); its answer is dropped."""

    def __init__(self, client, per_thread: int = 2):
        from distributed import as_completed

        self.client = client
        self.per_thread = per_thread
        self.pending: Dict[Any, Tuple[_Node, str]] = {}
        self.finishing = as_completed(loop=client.loop)

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def slots(self) -> int:
        return self.per_thread * self.threads()

    def elapsed(self, start: float) -> float:
        return _time.monotonic() - start

    def running(self) -> int:
        return len(self.pending)

    def submit(self, node, kind, stones, game, side, threats, options):
        future = self.client.submit(run_job, kind, stones, game, side, threats, options,
                                    pure=False)
        self.pending[future] = (node, kind)
        self.finishing.add(future)
        return future

    def next(self, deadline=None):
        while self.pending:
            if deadline is not None and not self.finishing.has_ready():
                if _time.monotonic() >= deadline:
                    return None, None, None, None
                _time.sleep(0.005)
                continue
            future = next(self.finishing)
            if future not in self.pending:
                continue  # cancelled
            node, kind = self.pending.pop(future)
            answer, seconds = future.result()
            return node, kind, answer, seconds
        return None, None, None, None

    def cancel(self, handle) -> None:
        if self.pending.pop(handle, None) is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for future in list(self.pending):
            self.cancel(future)


def prove_with(make_runner: Callable[[], Any], position: str, *, game: str = "connect6",
               side: Optional[str] = None,
               threats: int = 2, job_nodes: int = 20_000, depth: Optional[int] = None,
               leaf_depth: int = 24, leaf_nodes: int = 1_000_000, width: int = 24,
               quiet: int = 0, quiet_depth: int = 1, full_width: bool = False,
               to_move: Optional[str] = None, time: Optional[float] = None,
               max_jobs: Optional[int] = None,
               progress: Optional[Callable[[Dict[str, Any]], None]] = None) -> Dict[str, Any]:
    """``side``'s win in ``position`` proven by jobs on the runner ``make_runner`` makes once
    the options are checked (a :class:`DaskRunner`, a :class:`Simulated`); the options as
    ``cpbim.prove``'s, each job given ``job_nodes`` nodes; ``time`` (seconds) and ``max_jobs``
    bound the whole run (``stopped`` then)."""
    options = options_of(job_nodes, depth, leaf_depth, leaf_nodes, width, quiet, quiet_depth,
                         full_width)
    if time is not None and not time > 0:
        raise ValueError(f"time {time!r}: give a number of seconds above 0")
    master = master_for(position, game, side, to_move, threats, options)
    runner = make_runner()
    start = _time.monotonic()
    deadline = None if time is None else start + time
    result = master.run(runner, deadline, max_jobs, progress)
    return answer_of(master, result, threats, options, runner.elapsed(start), runner.threads())


def simulate(position: str, workers: int, cache: Optional[Dict[Any, Any]] = None,
             **options) -> Dict[str, Any]:
    """:func:`prove_with` on :class:`Simulated` workers: the jobs run here, one after another,
    and ``time_ms`` is the time ``workers`` workers would have taken (each job's measured time
    on a virtual clock). ``cache`` keeps the jobs' answers and times between calls."""
    return prove_with(lambda: Simulated(workers, cache), position, **options)


def options_of(job_nodes: int, depth, leaf_depth, leaf_nodes, width, quiet, quiet_depth,
               full_width) -> Dict[str, Any]:
    """The options every job gets."""
    if not isinstance(job_nodes, int) or isinstance(job_nodes, bool) or job_nodes < 1:
        raise ValueError(f"job_nodes {job_nodes!r}: give a whole number of nodes, 1 or more")
    return {"job_nodes": job_nodes, "depth": depth, "leaf_depth": leaf_depth,
            "leaf_nodes": leaf_nodes, "width": width, "quiet": quiet,
            "quiet_depth": quiet_depth, "full_width": full_width}


def master_for(position: str, game: str, side: Optional[str], to_move: Optional[str],
               threats: int, options: Dict[str, Any]) -> Master:
    """The master of ``side``'s proof in ``position``; ``ValueError`` for what cannot start
    (checked here, before any job: the position, the options, the game)."""
    pos = _cpbim.Position(position, game=game, to_move=to_move)
    if pos.stones_per_move != 1:
        raise ValueError(f"{pos.game}: the job level expands games of one stone a move "
                         "(gomoku, renju, connect(m,n,k,1,1)); prove Connect6 with "
                         "cpbim.prove(threads=...)")
    if pos.finished is not None:
        raise ValueError("the game is over: there is nothing to prove")
    replayed = _cpbim.Position(" ".join(pos.stones), game=game)
    if replayed.to_move != pos.to_move:
        raise ValueError("the job level needs a position whose side to move follows from its "
                         "stones (a record or a list, not a diagram with --to-move)")
    side = side or pos.to_move
    # The options and the side, checked by a search that ends at once (an empty board).
    _cpbim.prove("", game=game, side=side, threats=threats, nodes=1,
                 **{k: options[k] for k in _JOB})
    return Master(list(pos.stones), pos.game, side, pos.to_move, threats, options)


def answer_of(master: Master, result: str, threats: int, options: Dict[str, Any],
              seconds: float, workers: int) -> Dict[str, Any]:
    """The job level's answer, in the shape of ``cpbim.prove``'s."""
    proof = master.root.proof if result == "proven" else None
    times = [j["ms"] for j in master.jobs]
    return {
        "result": result,
        "game": master.game,
        "to_move": master.to_move,
        "side": master.side,
        "threats": threats_of(proof) if proof is not None else threats,
        "limits": dict(options, threats=threats, workers=workers),
        "jobs": len(master.jobs),
        "jobs_used": sum(1 for j in master.jobs if j["used"]),
        "tree": master.nodes,
        "time_ms": seconds * 1e3,
        "job_time_ms": sum(times),
        "job_times_ms": times,
        "proof": proof,
    }
