"""The proof search's job level (cpbim.jobs, cpbim.dask.prove): the verdicts of cpbim.prove on
one machine, on Gomoku positions a few moves into the five-stone openings, with jobs small
enough that the tree is expanded; on simulated workers and on a LocalCluster of two worker
processes. Every proof is written to $CPBIM_JOB_PROOFS (scripts/test sets it), where the
brute-force checker of tests/job_level.rs reads it after this suite."""

import functools
import json
import os
import tempfile
from pathlib import Path

import cpbim
import cpbim.dask
import pytest
from cpbim import jobs

# Positions of engine self-play from data/five-openings.txt, the side whose win is asked, and
# the threat budget: the root to move (an attacker's node) or not (a defender's node).
PROVEN = [
    ("h8 h9 h10 i8 g9 g10 f11 f10 i11 f8", None),
    ("h8 i8 i9 f10 h9 j9 h7", "black"),
    ("h8 i8 g7 j6 h6 h7 f6", "black"),
    ("h8 h7 f10 g6 j6 i7 j7 j8 g9 h6", "white"),
]
NOT_PROVEN = [("h8 i7 h10 h7 i8 j8", "white")]
THREATS = 5

if os.environ.get("CPBIM_JOB_PROOFS"):
    PROOFS = Path(os.environ["CPBIM_JOB_PROOFS"])
else:
    # No checker reads them afterwards: a folder that goes with the test run.
    _SCRATCH = tempfile.TemporaryDirectory(prefix="cpbim-jobs-")
    PROOFS = Path(_SCRATCH.name)


@functools.lru_cache(maxsize=None)
def single(position, side):
    """cpbim.prove on one machine (one thread), once per position."""
    return cpbim.prove(position, game="gomoku", side=side, threats=THREATS)


def keep(name, position, answer):
    """Write a proof for the checker (tests/job_level.rs)."""
    PROOFS.mkdir(parents=True, exist_ok=True)
    record = {"position": position, "game": "gomoku", "side": answer["side"],
              "proof": answer["proof"]}
    (PROOFS / f"{name}.json").write_text(json.dumps(record))


@pytest.fixture
def client(dask_client):
    return dask_client


@pytest.mark.parametrize("i", range(len(PROVEN)))
def test_simulated_workers_prove_what_one_machine_proves(i):
    position, side = PROVEN[i]
    alone = single(position, side)
    assert alone["result"] == "proven"
    cache = {}
    for workers in (1, 3):
        answer = jobs.simulate(position, workers, cache, game="gomoku", side=side,
                               threats=THREATS, job_nodes=2000)
        assert answer["result"] == "proven", (workers, answer["jobs"])
        assert answer["side"] == alone["side"] and answer["to_move"] == alone["to_move"]
        # The root's first job ran out: the tree was expanded, and jobs answered its nodes.
        assert answer["tree"] > 1 and answer["jobs"] > 2
        assert 1 <= answer["threats"] <= THREATS
        assert len(answer["job_times_ms"]) == answer["jobs"]
        keep(f"simulated-{i}-{workers}", position, answer)


def _from_scratch(master):
    """The most-proving node found from numbers computed over the whole tree (the master's
    first way, kept here as the reference of the kept numbers)."""
    n = master.root
    pn, dn = master.numbers(n, None)
    if pn in (0, jobs.INF) or dn in (0, jobs.INF):
        return None
    while n.state == "inner":
        scored = [(master.numbers(c, n.attacker), i) for i, c in enumerate(n.children)]
        key = (lambda s: (s[0][0], s[1])) if n.attacker else (lambda s: (s[0][1], s[1]))
        best = min((s for s in scored if 0 < s[0][0] < jobs.INF and 0 < s[0][1] < jobs.INF),
                   key=key, default=None)
        if best is None:
            return None
        n = n.children[best[1]]
    return n if n.state in ("new", "stopped") else None


def test_the_kept_numbers_are_the_numbers_of_the_whole_tree(monkeypatch):
    """At every choice of a job, every node's kept numbers equal the numbers computed from its
    subtree, and the node chosen is the one the whole tree's numbers choose."""
    chosen = []

    def checked(master):
        stack = [(master.root, None)]
        while stack:
            n, parent_attacker = stack.pop()
            if not any(a.settled() for a in _above(n)):
                assert (n.pn, n.dn) == master.numbers(n, parent_attacker), n.stones
            stack.extend((c, n.attacker) for c in n.children)
        node = most_proving(master)
        assert node is _from_scratch(master)
        chosen.append(node)
        return node

    most_proving = jobs.Master.most_proving
    monkeypatch.setattr(jobs.Master, "most_proving", checked)
    for position, side in PROVEN[:2] + NOT_PROVEN:
        answer = jobs.simulate(position, 3, game="gomoku", side=side, threats=THREATS,
                               job_nodes=300)
        assert answer["result"] == single(position, side)["result"]
    assert sum(n is not None for n in chosen) > 50


def _above(n):
    """The nodes strictly above ``n`` (a settled one makes ``n``'s numbers moot)."""
    while n.parent is not None:
        n = n.parent
        yield n


@pytest.mark.parametrize("i", range(len(NOT_PROVEN)))
def test_what_one_machine_does_not_prove_is_not_proven(i):
    position, side = NOT_PROVEN[i]
    assert single(position, side)["result"] == "not proven"
    answer = jobs.simulate(position, 2, game="gomoku", side=side, threats=THREATS,
                           job_nodes=300)
    assert answer["result"] == "not proven" and answer["proof"] is None


def test_a_big_enough_job_is_the_whole_search():
    position, side = PROVEN[0]
    answer = jobs.simulate(position, 2, game="gomoku", side=side, threats=THREATS,
                           job_nodes=10**7)
    assert answer["result"] == "proven"
    assert answer["jobs"] == 1 and answer["tree"] == 1
    assert answer["proof"] == single(position, side)["proof"]


def test_dask_workers_prove_what_one_machine_proves(client):
    for i, (position, side) in enumerate(PROVEN[:3] + NOT_PROVEN):
        answer = cpbim.dask.prove(position, client, game="gomoku", side=side, threats=THREATS,
                                  job_nodes=2000)
        assert answer["result"] == single(position, side)["result"], position
        assert answer["limits"]["workers"] == 2
        if answer["result"] == "proven":
            assert answer["jobs"] > 1
            keep(f"dask-{i}", position, answer)


def test_limits_of_the_whole_run_stop_it(client):
    position, side = PROVEN[0]
    answer = cpbim.dask.prove(position, client, game="gomoku", side=side, threats=THREATS,
                              job_nodes=50, max_jobs=3)
    assert answer["result"] == "stopped" and answer["jobs"] <= 3 and answer["proof"] is None


def test_what_cannot_start_is_refused_before_any_job():
    refused = [
        ({"position": "J10 K11 I11", "game": "connect6"}, "one stone a move"),
        ({"position": "h8 h9", "game": "gomoku", "job_nodes": 0}, "job_nodes 0"),
        ({"position": "h8 h9", "game": "gomoku", "job_nodes": 2.5}, "job_nodes 2.5"),
        ({"position": "h8 h9", "game": "gomoku", "width": -1}, "width"),
        ({"position": "h8 h9", "game": "gomoku", "side": "red"}, "side"),
        ({"position": "h8 q99", "game": "gomoku"}, "q99"),
        ({"position": "h8 h9", "game": "gomoku", "time": 0}, "time 0"),
    ]
    for kwargs, message in refused:
        position = kwargs.pop("position")
        with pytest.raises((ValueError, OverflowError), match=message):
            jobs.simulate(position, 2, **kwargs)
        with pytest.raises((ValueError, OverflowError), match=message):
            cpbim.dask.prove(position, NoClient(), **kwargs)


class NoClient:
    """A client that fails the test when it is used before the options are checked."""

    def __getattr__(self, name):
        raise AssertionError(f"the client was used ({name}) before the options were checked")


def test_the_threats_of_a_proof_are_counted_as_prove_counts_them():
    for position, side in PROVEN:
        alone = single(position, side)
        assert jobs.threats_of(alone["proof"]) == alone["threats"]
