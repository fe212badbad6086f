"""cpbim: a threat-space solver for Connect6 and the k-in-a-row family, from Python.

Every function answers with the JSON object the ``cpbim`` command line prints with ``--json``
(docs/json.md in the repository), as Python dicts and lists. Searches release the interpreter
lock, so several Python threads search at once; Ctrl-C stops a search and raises
``KeyboardInterrupt``. Bad input and bad options raise ``ValueError`` with the command line's
message; a failure inside the library raises ``RuntimeError``. ``cpbim.dask.solve_many`` (with
``dask[distributed]`` installed) solves many lines as tasks on a Dask cluster.
"""

from ._cpbim import (
    Position,
    __version__,
    analyze,
    kb_stats,
    move,
    openings,
    play_game,
    prove,
    prove_expand,
    solve,
    solve_batch,
    tally,
)

__all__ = [
    "Position",
    "__version__",
    "analyze",
    "kb_stats",
    "move",
    "openings",
    "play_game",
    "prove",
    "prove_expand",
    "solve",
    "solve_batch",
    "tally",
]
