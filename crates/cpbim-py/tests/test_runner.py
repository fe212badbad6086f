"""`cpbim tune --runner "python -m cpbim.runner ADDRESS"`: a tune whose games are Dask tasks on
the LocalCluster is the run `cpbim tune` plays on its own (a fixed depth: the same games), and
a runner that fails ends the run with its error, the games played kept."""

import sys

from conftest import run_cli

SPEC = """{"own[5]": {"min": 20, "max": 120, "step": 6},
  "opponent[5]": {"min": 0, "max": 60, "step": 3},
  "attack[7]": {"min": 100, "max": 260, "step": 8}}"""


def tune(tmp_path, state, *extra):
    spec = tmp_path / "spec.json"
    spec.write_text(SPEC)
    return run_cli("tune", "--params", str(spec), "--state", str(tmp_path / state), "--depth",
                   "1", "--iterations", "4", "--r-end", "0.2", "--seed", "5", *extra,
                   check=False)


def test_a_tune_on_dask_is_the_tune_on_one_machine(dask_client, tmp_path):
    alone = tune(tmp_path, "alone")
    assert alone.returncode == 0, alone.stderr
    runner = f"{sys.executable} -m cpbim.runner {dask_client.scheduler.address}"
    on_dask = tune(tmp_path, "dask", "--runner", runner)
    assert on_dask.returncode == 0, on_dask.stderr
    for name in ("history.csv", "best.json"):
        assert (tmp_path / "dask" / name).read_text() == (tmp_path / "alone" / name).read_text()
    games = (tmp_path / "alone" / "games.csv").read_text().splitlines()
    # The runner answers games as they end: the same lines, maybe in another order in a round.
    assert sorted((tmp_path / "dask" / "games.csv").read_text().splitlines()) == sorted(games)
    assert len(games) == 1 + 4 * 2


def test_a_runner_that_fails_ends_the_run_with_its_error(tmp_path):
    failed = tune(tmp_path, "failed", "--runner", "echo '{\"game\": 0}'; exit 3")
    assert failed.returncode != 0
    assert "--runner" in failed.stderr, failed.stderr
    bad = tune(tmp_path, "bad", "--runner", f"{sys.executable} -m cpbim.runner")
    assert bad.returncode != 0
    assert "scheduler" in bad.stderr and "--runner" in bad.stderr, bad.stderr
