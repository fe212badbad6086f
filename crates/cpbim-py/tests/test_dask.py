"""cpbim.dask.solve_many on a LocalCluster of two worker processes: the answers of
cpbim.solve_batch and of the CLI, in order, one task per batch."""

import os
import subprocess
import sys

import cpbim
import cpbim.dask
import distributed
import pytest
from conftest import ROOT, cli_json_lines, game_lines, without_time
from distributed import Client

W12 = game_lines(ROOT / "testsets" / "W12.txt")
N12 = game_lines(ROOT / "testsets" / "N12.txt")


@pytest.fixture
def client(dask_client):
    # conftest's cluster; not the default client: `client=None` must find only what a test
    # makes current.
    return dask_client


@pytest.fixture
def cluster(dask_client):
    return dask_client.cluster


def timeless(answers):
    return [without_time(a) for a in answers]


class NoClient:
    """A client that fails the test when solve_many touches it."""

    def __getattr__(self, name):
        raise AssertionError(f"solve_many used the client ({name}) before checking its options")


def test_the_test_sets_are_the_batch_and_the_cli(client):
    cli = cli_json_lines("solve", "testsets/W12.txt", "--json", "--threads", "1")
    cli += cli_json_lines("solve", "testsets/N12.txt", "--json", "--threads", "1")
    lines = W12 + N12
    assert len(lines) == len(cli) == 160
    with distributed.get_task_stream(client) as stream:
        answers = cpbim.dask.solve_many(lines, client, batch_size=7)
    assert len(stream.data) == 23  # 22 batches of 7 lines and one of 6
    assert timeless(answers) == timeless(cli)
    assert timeless(answers) == timeless(cpbim.solve_batch(lines))
    assert [a["result"] for a in answers[:80]] == ["win"] * 80
    # The default batches (16 lines at least) give the same list.
    assert timeless(cpbim.dask.solve_many(lines, client)) == timeless(cli)
    # Comment and blank lines answer None in their places, whichever batch they land in.
    mixed = ["# W12", lines[0], "", lines[1], "  # end"] * 4
    answers = cpbim.dask.solve_many(mixed, client, batch_size=3)
    assert [a is None for a in answers] == [i % 5 in (0, 2, 4) for i in range(20)]
    assert timeless([a for a in answers if a is not None]) == timeless(cli[:2] * 4)


def test_the_batches_deal_every_line_once():
    batches = cpbim.dask._batches(960, None, 2)
    assert sorted(i for b in batches for i in b) == list(range(960))
    assert all(b == sorted(b) for b in batches)
    assert batches[0] != list(range(120))  # shuffled, not the first 120 lines
    sizes = [len(b) for b in batches]
    assert sizes[:3] == [120, 105, 92] and sizes[-1] <= 16
    assert sizes == sorted(sizes, reverse=True) and min(sizes[:-1]) == 16
    assert batches == cpbim.dask._batches(960, None, 2)  # the same on every call
    assert [len(b) for b in cpbim.dask._batches(20, None, 2)] == [16, 4]
    assert [len(b) for b in cpbim.dask._batches(20, 7, 2)] == [7, 7, 6]


def test_the_workers_are_other_processes_with_the_package(client):
    [answer] = cpbim.dask.solve_many(W12[:1], client)
    assert answer["result"] == "win"
    # A lambda is pickled by value; the workers cannot import this test module.
    seen = client.run(lambda: (os.getpid(), sys.modules["cpbim._cpbim"].__file__))
    assert len(seen) == 2
    pids = {pid for pid, _ in seen.values()}
    assert len(pids) == 2 and os.getpid() not in pids
    assert {path for _, path in seen.values()} == {cpbim._cpbim.__file__}


def test_a_bad_line_gets_its_error_at_its_index(client):
    lines = W12[:20]
    lines[9:9] = ["J10 T11 I11"]
    lines[15:15] = [b"J10 K11 \xff"]
    answers = cpbim.dask.solve_many(lines, client, batch_size=3, nodes=100000)
    assert timeless(answers) == timeless(cpbim.solve_batch(lines, nodes=100000))
    errors = [i for i, a in enumerate(answers) if "error" in a]
    assert errors == [9, 15]
    assert "off the board" in answers[9]["error"]
    assert all(a["result"] == "win" for i, a in enumerate(answers) if i not in errors)


def test_bad_options_raise_before_anything_is_submitted(client):
    for kwargs, error, message in [
        ({"depth": 6}, ValueError, "depth 6"),
        ({"game": "chess"}, ValueError, "chess"),
        ({"to_move": "red"}, ValueError, "red"),
        ({"depth": "12"}, TypeError, "depth must be an int"),
        ({"batch_size": 0}, ValueError, "batch_size 0"),
        ({"batch_size": 2.5}, TypeError, "batch_size"),
    ]:
        with pytest.raises(error, match=message):
            cpbim.dask.solve_many(W12[:3], NoClient(), **kwargs)
        with pytest.raises(error, match=message):
            cpbim.dask.solve_many(W12[:3], client, **kwargs)
    with pytest.raises(TypeError, match="not one string"):
        cpbim.dask.solve_many(W12[0], NoClient())
    with pytest.raises(TypeError, match=r"not int \(line 1\)"):
        cpbim.dask.solve_many([W12[0], 7], NoClient())
    assert cpbim.dask.solve_many([], client) == []


def test_no_client_is_the_current_client(cluster, client):
    expected = timeless(cpbim.solve_batch(N12[:10]))
    with Client(cluster) as current:
        assert distributed.get_client() is current
        assert timeless(cpbim.dask.solve_many(N12[:10], batch_size=4)) == expected
    with client.as_current():
        assert timeless(cpbim.dask.solve_many(N12[:10])) == expected


def test_without_any_client_a_clear_error(client):
    # The fixture's client is not the default one, and the one above is closed.
    assert distributed.client._get_global_client() is None
    with pytest.raises(ValueError, match="no Dask client: pass client=, or create one"):
        cpbim.dask.solve_many(W12[:3])


def test_import_cpbim_alone_does_not_import_dask():
    code = "import sys, cpbim; print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
