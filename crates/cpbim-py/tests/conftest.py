"""Shared helpers: the repository's root and the `cpbim` binary the answers are compared with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli_binary() -> Path:
    """The CLI to compare with: $CPBIM_BIN, else target/release/cpbim (scripts/test builds it)."""
    path = Path(os.environ.get("CPBIM_BIN", ROOT / "target" / "release" / "cpbim"))
    if not path.is_file():
        pytest.fail(f"no cpbim binary at {path}: run `cargo build --release` or set CPBIM_BIN")
    return path


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the CLI from the repository's root; its output as text."""
    return subprocess.run(
        [str(cli_binary()), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=check,
    )


def cli_json_lines(*args: str, check: bool = True) -> list:
    """The JSON objects the CLI prints, one a line."""
    out = run_cli(*args, check=check).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def without_time(answer: dict) -> dict:
    """An answer without what differs from run to run (`time_ms`) and the CLI's line number."""
    return {k: v for k, v in answer.items() if k not in ("time_ms", "input_line")}


def game_lines(path: Path) -> list:
    """The lines of a file that hold a game, as the CLI's batch reads them (blank and
    comment-only lines skipped)."""
    return [l for l in path.read_text().splitlines() if l.strip() and not l.lstrip().startswith("#")]


@pytest.fixture(scope="session")
def dask_client():
    """A LocalCluster of two worker processes (one thread each) on 127.0.0.1, shared by the
    tests of cpbim.dask; not the default client (tests of `client=None` make their own)."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", processes=True,
                      dashboard_address=None) as cluster:
        with Client(cluster, set_as_default=False) as client:
            yield client
