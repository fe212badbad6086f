"""``python -m cpbim.runner``: plays the games of ``cpbim tune --runner`` as Dask tasks.

    cpbim tune --spec SPEC --state DIR --runner "python -m cpbim.runner tcp://HOST:8786"
    cpbim tune --spec SPEC --state DIR --runner "python -m cpbim.runner --local 2"

The tuner starts it once for the run; for each round it writes one game a line (JSON, then
the line ``end``; the protocol is in the repository's src/tune/remote.rs and docs/tune.md),
and ``quit`` at the end. Each game becomes one task that writes the
candidates' parameters to files on its worker, puts their paths where the engine commands say
``{PARAMS}`` and plays the game with ``cpbim.play_game``; each result is written back as one
JSON line as soon as its game ends. With a scheduler address the cluster is one that exists
(its workers need ``cpbim`` and the engines at the paths the commands name); ``--local N``
starts a LocalCluster of N one-thread workers on 127.0.0.1 for the run. Errors go to standard
error, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from typing import Any, Dict, List, Optional

from ._cpbim import play_game


def play(request: Dict[str, Any]) -> Dict[str, Any]:
    """One task: the game ``request`` asks for, on the worker."""
    with tempfile.TemporaryDirectory(prefix="cpbim-runner-") as folder:
        engines = []
        for side, (command, params) in enumerate(zip(request["engines"], request["params"])):
            if params is not None:
                path = os.path.join(folder, f"params-{side}.json")
                with open(path, "w") as f:
                    json.dump(params, f)
                command = command.replace("{PARAMS}", path)
            engines.append(command)
        rules = request["rules"]
        result = play_game(tuple(engines), game=rules["game"], opening=request["opening"],
                           black=request["black"], tc=rules["tc"])
    return dict(result, game=request["game"])


def read_requests(stream) -> Optional[List[Dict[str, Any]]]:
    """The games of one round asked for on ``stream``, up to the line ``end``; ``None`` at
    ``quit`` or the end of the input."""
    requests = []
    for line in stream:
        line = line.strip()
        if line == "end":
            return requests
        if line == "quit":
            return None
        if line:
            requests.append(json.loads(line))
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cpbim.runner",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("scheduler", nargs="?", help="a Dask scheduler's address (tcp://HOST:PORT)")
    ap.add_argument("--local", type=int, metavar="N",
                    help="start a LocalCluster of N one-thread workers on 127.0.0.1 instead")
    args = ap.parse_args(argv)
    if (args.scheduler is None) == (args.local is None):
        ap.error("give a scheduler's address or --local N (one of them)")
    if args.local is not None and args.local < 1:
        ap.error(f"--local {args.local}: give 1 worker or more")
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    try:
        if args.local is not None:
            cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, host="127.0.0.1",
                                   dashboard_address=None, silence_logs=logging.WARNING)
            client = Client(cluster)
        else:
            client = Client(args.scheduler)
        with client:
            while (requests := read_requests(sys.stdin)) is not None:
                futures = [client.submit(play, r, pure=False) for r in requests]
                for future in as_completed(futures):
                    print(json.dumps(future.result()), flush=True)
    except (OSError, ValueError, RuntimeError, TimeoutError) as e:
        print(f"cpbim.runner: {e}", file=sys.stderr)
        return 1
    finally:
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
