"""Throughput of cpbim.dask.solve_many against the CLI on the twelve committed test sets.

    target/python-env/bin/python crates/cpbim-py/bench/dask_throughput.py --cli target/release/cpbim

Times, for every test set (testsets/*.txt) and for the game lines of all twelve in one input:
`cpbim solve FILE --threads 1` and `--threads 2` (the wall time of the whole process, its output
to /dev/null), and `solve_many` on a LocalCluster of 1 worker process and of 2 (1 thread each;
the cluster is started, and `cpbim` imported on its workers, before the timer starts). The
--repeats rounds each run every cell once, so that other work on the machine falls on every
column; the table has the medians and the ratios Dask / CLI at 1 and at 2. Every answer of every
solve_many run is checked against `cpbim solve FILE --json --threads 1` (result and depth). The
load averages after each round and the CPU time other processes took during the runs (the
machine's busy time less this benchmark's) say how quiet the machine was.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cpbim
import cpbim.dask
import dask
import distributed
import psutil  # distributed's dependency
from distributed import Client, LocalCluster

ROOT = Path(__file__).resolve().parents[3]


def game_lines(path):
    """The lines of a file that hold a game, as the CLI's batch reads them."""
    return [
        l for l in path.read_text().splitlines() if l.strip() and not l.lstrip().startswith("#")
    ]


def set_order(path):
    """N4, N8, …, N28, then W12, …, W28."""
    return (path.stem[0], int(path.stem[1:]))


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def busy_seconds():
    """The machine's CPU time spent so far, all processes, all cores."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0)


def steal_seconds():
    """The CPU time the hypervisor gave to other machines while this one wanted it."""
    return getattr(psutil.cpu_times(), "steal", 0.0)


def own_seconds():
    """The CPU time of this process and of its children that ended (the CLI's runs, the
    clusters' worker processes once closed)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def cli_time(cli, path, threads):
    start = time.perf_counter()
    subprocess.run(
        [cli, "solve", str(path), "--threads", str(threads)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - start


def cli_verdicts(cli, path):
    out = subprocess.run(
        [cli, "solve", str(path), "--json", "--threads", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [(a["result"], a.get("depth")) for a in map(json.loads, out.splitlines()) if a]


def dask_time(client, lines, expected, batch_size):
    start = time.perf_counter()
    answers = cpbim.dask.solve_many(lines, client, batch_size)
    elapsed = time.perf_counter() - start
    got = [(a["result"], a.get("depth")) for a in answers]
    if got != expected:
        wrong = next(i for i, (g, e) in enumerate(zip(got, expected)) if g != e)
        sys.exit(f"solve_many differs from the CLI at line {wrong}: {got[wrong]} != {expected[wrong]}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "target" / "release" / "cpbim"))
    parser.add_argument("--repeats", type=int, default=3, help="runs of each cell (median)")
    parser.add_argument(
        "--batch-size", type=int, default=None, help="solve_many's batch_size (default: its own)"
    )
    args = parser.parse_args()
    cli = str(Path(args.cli).resolve())

    sets = sorted((ROOT / "testsets").glob("*.txt"), key=set_order)
    names = [p.stem for p in sets]
    lines = {p.stem: game_lines(p) for p in sets}
    everything = [l for name in names for l in lines[name]]
    expected = {p.stem: cli_verdicts(cli, p) for p in sets}
    expected["all"] = [v for name in names for v in expected[name]]
    lines["all"] = everything
    rows = names + ["all"]

    print(
        f"{os.cpu_count()} cores, load {load()} at the start;"
        f" cpbim {cpbim.__version__}, dask {dask.__version__}, distributed {distributed.__version__},"
        f" Python {sys.version.split()[0]}; {args.repeats} runs a cell, medians"
    )
    times = {}  # (column, row) -> [seconds]
    busy_start, ours_start, steal_start = busy_seconds(), own_seconds(), steal_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        all_file = Path(tmp) / "all.txt"
        all_file.write_text("\n".join(everything) + "\n")
        files = {**{p.stem: p for p in sets}, "all": all_file}
        # Round after round, so that what else runs on the machine falls on every column.
        for run in range(args.repeats):
            for threads in (1, 2):
                for row in rows:
                    times.setdefault((f"cli{threads}", row), []).append(
                        cli_time(cli, files[row], threads)
                    )
            for workers in (1, 2):
                with LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    host="127.0.0.1",
                    processes=True,
                    dashboard_address=None,
                ) as cluster, Client(cluster) as client:
                    client.run(__import__, "cpbim.dask")
                    for row in rows:
                        times.setdefault((f"dask{workers}", row), []).append(
                            dask_time(client, lines[row], expected[row], args.batch_size)
                        )
            print(f"run {run + 1}: load {load()}", flush=True)
    busy, ours = busy_seconds() - busy_start, own_seconds() - ours_start
    print(
        f"CPU time: {busy:.1f} s on the machine during the runs, {ours:.1f} s of it this"
        f" benchmark's (its processes, the CLI's and the workers'), {max(busy - ours, 0):.1f} s"
        f" other processes'; {steal_seconds() - steal_start:.1f} s stolen by the hypervisor\n"
    )

    med = {key: statistics.median(value) for key, value in times.items()}
    for column in ("cli1", "cli2", "dask1", "dask2"):
        med[(column, "sum of sets")] = sum(med[(column, name)] for name in names)
    header = (
        f"{'set':<12} {'lines':>5} {'CLI 1 thr':>10} {'CLI 2 thr':>10} {'Dask 1 wkr':>11}"
        f" {'Dask 2 wkr':>11} {'ratio 1':>8} {'ratio 2':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in names + ["sum of sets", "all"]:
        count = len(everything) if row in ("all", "sum of sets") else len(lines[row])
        c1, c2, d1, d2 = (med[(column, row)] for column in ("cli1", "cli2", "dask1", "dask2"))
        label = "all (1 call)" if row == "all" else row
        print(
            f"{label:<12} {count:>5} {c1:>10.3f} {c2:>10.3f} {d1:>11.3f} {d2:>11.3f}"
            f" {d1 / c1:>8.2f} {d2 / c2:>8.2f}"
        )
    print("\nseconds (wall); ratio n: Dask with n workers / CLI with n threads")
    print(
        "all (1 call), every run: "
        + "; ".join(
            f"{label} " + " ".join(f"{t:.3f}" for t in times[(column, "all")])
            for column, label in [
                ("cli1", "CLI 1"),
                ("cli2", "CLI 2"),
                ("dask1", "Dask 1"),
                ("dask2", "Dask 2"),
            ]
        )
    )


if __name__ == "__main__":
    main()
