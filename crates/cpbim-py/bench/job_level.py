"""The proof search's job level, measured: the same verdicts as one machine, the speed-up at 1
and 2 Dask workers, and a model of it at 16 and 64 from the jobs' measured times.

    target/python-env/bin/python crates/cpbim-py/bench/job_level.py \\
        [--positions crates/cpbim-py/bench/gomoku-job-level.txt] [--job-nodes 2000] \\
        [--threats 5] [--proofs DIR]

For every position (a line `POSITION<TAB>SIDE`, SIDE `-` for the side to move): `cpbim.prove`
on one machine with 1 and 2 threads; `cpbim.dask.prove` on a LocalCluster of 1 and of 2 worker
processes (one thread each; the cluster started before the clock); and the simulation
(`cpbim.jobs.simulate`) at 1, 2, 16 and 64 workers, whose jobs run here one after another and
whose times are placed on a virtual clock. Prints a table and the totals' ratios; fails when a
verdict differs from the single machine's. With --proofs, every proof is written there for the
brute-force checker (`CPBIM_JOB_PROOFS=DIR cargo test --release --test job_level -- --ignored`).
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import cpbim
import cpbim.dask
from cpbim import jobs
from distributed import Client, LocalCluster

HERE = Path(__file__).resolve().parent


def read_positions(path):
    rows = []
    for line in Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            position, side = line.split("\t")
            rows.append((position, None if side == "-" else side))
    return rows


def timed(f):
    start = time.perf_counter()
    answer = f()
    return answer, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", default=HERE / "gomoku-job-level.txt")
    ap.add_argument("--job-nodes", type=int, default=2000)
    ap.add_argument("--threats", type=int, default=5)
    ap.add_argument("--proofs", type=Path)
    args = ap.parse_args()
    rows = read_positions(args.positions)
    limits = {"game": "gomoku", "threats": args.threats}
    clusters = {}
    for workers in (1, 2):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1",
                               processes=True, dashboard_address=None)
        clusters[workers] = (cluster, Client(cluster, set_as_default=False))
    totals = {}
    job_times = []
    print(f"load {os.getloadavg()[0]:.2f}; job_nodes {args.job_nodes}; threats {args.threats}")
    print("position | side | verdict | 1 thread | 2 threads | dask 1 | dask 2 | jobs | "
          "sim 1 | sim 2 | sim 16 | sim 64 (s)")
    for i, (position, side) in enumerate(rows):
        row = {}
        one, row["threads 1"] = timed(lambda: cpbim.prove(position, side=side, threads=1,
                                                          **limits))
        _, row["threads 2"] = timed(lambda: cpbim.prove(position, side=side, threads=2,
                                                        **limits))
        verdicts = {one["result"]}
        for workers, (_, client) in clusters.items():
            answer, row[f"dask {workers}"] = timed(lambda: cpbim.dask.prove(
                position, client, side=side, job_nodes=args.job_nodes, **limits))
            verdicts.add(answer["result"])
            jobs_run = answer["jobs"]
            if args.proofs and answer["proof"] is not None:
                args.proofs.mkdir(parents=True, exist_ok=True)
                (args.proofs / f"bench-{i}-dask{workers}.json").write_text(json.dumps({
                    "position": position, "game": "gomoku", "side": answer["side"],
                    "proof": answer["proof"]}))
        cache = {}
        for workers in (1, 2, 16, 64):
            answer = jobs.simulate(position, workers, cache, side=side,
                                   job_nodes=args.job_nodes, **limits)
            row[f"sim {workers}"] = answer["time_ms"] / 1e3
            verdicts.add(answer["result"])
            if workers == 1:
                job_times += answer["job_times_ms"]
        if len(verdicts) != 1:
            sys.exit(f"{position}: the verdicts differ: {sorted(verdicts)}")
        for k, v in row.items():
            totals[k] = totals.get(k, 0.0) + v
        cells = " | ".join(f"{row[k]:.2f}" for k in ("threads 1", "threads 2", "dask 1",
                                                      "dask 2"))
        sims = " | ".join(f"{row[f'sim {w}']:.2f}" for w in (1, 2, 16, 64))
        print(f"{position} | {side or '-'} | {one['result']} | {cells} | {jobs_run} | {sims}",
              flush=True)
    print("total | | | " + " | ".join(f"{totals[k]:.2f}" for k in (
        "threads 1", "threads 2", "dask 1", "dask 2")) + " | | " + " | ".join(
        f"{totals[f'sim {w}']:.2f}" for w in (1, 2, 16, 64)))
    q = statistics.quantiles(job_times, n=100)
    print(f"jobs (simulation, 1 worker): {len(job_times)}, median {q[49]:.1f} ms, "
          f"90th percentile {q[89]:.1f} ms, max {max(job_times):.1f} ms")
    print(f"speed-up, Dask 2 workers over 1: {totals['dask 1'] / totals['dask 2']:.2f}; "
          f"one machine 2 threads over 1: {totals['threads 1'] / totals['threads 2']:.2f}")
    print(f"Dask 1 worker over one machine's 1 thread: {totals['dask 1'] / totals['threads 1']:.2f}")
    for w in (2, 16, 64):
        print(f"model, {w} workers over 1: {totals['sim 1'] / totals[f'sim {w}']:.2f}")
    for cluster, client in clusters.values():
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
