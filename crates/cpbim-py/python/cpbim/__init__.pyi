"""cpbim: a threat-space solver for Connect6 and the k-in-a-row family, from Python."""

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

__version__: str

def solve(
    position: str,
    game: str = "connect6",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    proof: bool = False,
    to_move: Optional[str] = None,
) -> Dict[str, Any]:
    """Solve one game: the object ``cpbim solve --json`` prints for it.

    ``position`` is the text of one game in any format the command line reads (a stone
    list, a diagram, SGF, a contest record, a row of the game-record CSV), not a path.
    ``game``: ``connect6``, ``gomoku``, ``gomoku-standard``, ``renju``, ``NAME:SIZE`` or
    ``connect(m,n,k,p,q)``. ``depth``: plies, whole rounds (default 28); ``nodes`` and ``time``
    (seconds) bound the search (result ``unknown``); ``proof`` attaches the proof tree of a
    win; ``to_move`` (``"black"``/``"white"``) sets the side to move of a puzzle diagram.

    Returns ``{"result", "depth", "minimal", "line", "nodes", "time_ms"}`` (plus ``"proof"``),
    or for a finished game ``{"result": "finished", "winner", "row", "last_move"}``.
    Raises ``ValueError`` for a text that is not a game or an option out of range.
    """

def solve_batch(
    lines: Iterable[Union[str, bytes]],
    game: str = "connect6",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    proof: bool = False,
    to_move: Optional[str] = None,
    threads: int = 1,
) -> List[Optional[Dict[str, Any]]]:
    """Solve one game per line, on ``threads`` threads (0: every core), answers in order.

    Each answer is what :func:`solve` returns for that line (the objects of
    ``cpbim solve --json`` for a file of these lines, without ``"input_line"``); a line that is
    not a game gets ``{"error": message}`` instead of an exception. A blank or comment-only
    line (``# …``) is not a game, as in a file the CLI reads: its answer is ``None``, so that
    answer ``i`` is always line ``i``'s. Every search starts from a fresh table, so answers and
    node counts do not depend on ``threads``.
    """

def analyze(
    position: str,
    game: str = "connect6",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    to_move: Optional[str] = None,
    defenses: bool = False,
    radius: int = 2,
    eval: bool = True,
    verdicts: bool = True,
    threads: int = 1,
) -> List[Dict[str, Any]]:
    """Move-by-move analysis of one game: the objects ``cpbim analyze --json`` prints, one per
    move boundary (``stones``, ``to_move``, ``last_move``, ``live_windows``, ``thn``, ``win``,
    ``threat``, ``eval``, ``review``, with ``defenses`` the defences), then one for the end of a
    finished game. ``position`` may also be a DIF opening name (``"X-J8"``). ``depth``,
    ``nodes``, ``time`` bound each search as in :func:`solve`; ``eval=False`` and
    ``verdicts=False`` are ``--no-eval`` and ``--no-verdicts``; ``threads`` (0: every core)
    run the defence searches. Raises ``ValueError`` for a text that is not a game.
    """

def move(
    position: str,
    game: str = "connect6",
    depth: Optional[int] = None,
    time: Optional[float] = None,
    to_move: Optional[str] = None,
    player: str = "cpbim",
) -> Dict[str, Any]:
    """The engine's move: the object ``cpbim move --json`` prints.

    ``depth``: alpha-beta depth in whole moves, 1 to 9 (default 2 without ``time``; the same
    answer on every run); ``time``: seconds for the move (not with ``depth``); ``player``:
    ``cpbim`` (the engine) or a baseline player, ``seed000`` (Connect6) or ``seed004`` (the
    games of five). Returns ``{"move", "eval", "verdict", "win_depth", "depth", "pv", "nodes",
    "time_ms"}``. Raises ``ValueError`` for a text that is not a game, a finished game, a full
    board or an option out of range.
    """

def prove(
    position: str,
    game: str = "connect6",
    side: Optional[str] = None,
    threats: int = 2,
    depth: Optional[int] = None,
    leaf_depth: int = 24,
    leaf_nodes: int = 1_000_000,
    width: int = 24,
    quiet: int = 0,
    quiet_depth: int = 1,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    full_width: bool = False,
    search: str = "depth-first",
    threads: int = 1,
    to_move: Optional[str] = None,
    threat_step: int = 1,
    each_reply: Optional[float] = None,
) -> Dict[str, Any]:
    """Threat-space proof search: the object ``cpbim prove --json`` prints (``result``:
    ``proven``, ``not proven`` or ``stopped``; ``limits``; counts; ``proof``). The options are
    ``cpbim prove``'s (``side`` asks for the win of the side not to move; ``search``:
    ``depth-first`` or ``proof-number``; ``each_reply=S`` is ``--each-reply S``, with
    ``each_reply`` and ``each_reply_total`` in the object), except ``threads``, 1 by default
    (0: every core; with more than one the proof and the counts may vary from run to run, the
    verdict does not). No store. Raises ``ValueError`` for a text that is not a game or an
    option out of range.
    """

def prove_expand(
    position: str,
    game: str = "connect6",
    side: Optional[str] = None,
    leaf_depth: int = 24,
    leaf_nodes: int = 1_000_000,
    width: int = 24,
    full_width: bool = False,
    to_move: Optional[str] = None,
) -> Dict[str, Any]:
    """One node of ``prove``'s search expanded (for a proof-number tree kept in Python, as
    ``cpbim.dask.prove`` keeps one): ``{"node": "lost"}`` (the other side has a row),
    ``{"node": "leaf", "proof": {"leaf": NODE}}`` (the leaf search wins), ``{"node":
    "attacker", "moves": [[stones], ...]}`` (the side's threat moves, the most promising
    first) or ``{"node": "defender", "pass": NODE | None, "moves": [[stones], ...]}`` (the
    side's win were the defender to pass, and the defender's moves inside its zone). Games of
    one stone a move; ``ValueError`` for Connect6."""

def play_game(
    engines: Tuple[str, str],
    game: str = "connect6",
    opening: Optional[str] = None,
    black: int = 0,
    tc: Optional[str] = None,
) -> Dict[str, Any]:
    """One game between two engine commands (run with ``sh -c``, speaking the game's protocol,
    as ``cpbim match --engine``), engine ``black`` (0 or 1) playing black, from the stones of
    ``opening`` (whole moves); ``tc`` as ``cpbim match --tc``. ``{"black", "winner": "black" |
    "white" | None, "score": engine 0's points, "ending": "row" | "full board" | "illegal" |
    "time" | "crash", "reason", "stones", "moves", "move_ms"}``. An engine that cannot start
    loses by ``crash``."""

def openings(game: str = "connect6") -> List[str]:
    """``cpbim match``'s built-in openings of ``game`` as stone lists (Connect6: the 24 named
    openings; a game of one stone a move: the 26 three-stone ones)."""

def tally(scores: List[float], sprt: Optional[str] = None) -> Dict[str, Any]:
    """The statistics ``cpbim match --json`` reports for games that scored ``scores`` (1, 0.5
    or 0 each) for the first engine: ``games``, ``wins``, ``losses``, ``draws``, ``score``,
    ``elo``, ``elo_95``, ``los``, and with ``sprt="elo0,elo1,alpha,beta"`` where the test
    stands (``{"llr", "lower", "upper", "accepted"}``)."""

def kb_stats(game: Optional[str] = None) -> Dict[str, Any]:
    """The knowledge base: ``cpbim kb stats --json`` (Tables 1 and 2 of the paper), or with a
    game ``cpbim kb stats --game GAME --json`` (its tables, counts per type, sizes)."""

class Position:
    """A game read from any format the command line reads (stone list, diagram, SGF, contest
    record, CSV row), in progress or finished. Raises ``ValueError`` when the text is not a
    game of ``game``."""

    def __init__(
        self, text: str, game: str = "connect6", to_move: Optional[str] = None
    ) -> None: ...
    @property
    def stones(self) -> List[str]:
        """The stones in play order, as point names (``["J10", "K11", "I11"]``)."""
    @property
    def to_move(self) -> str:
        """``"black"`` or ``"white"`` (for a finished game, the loser)."""
    @property
    def game(self) -> str:
        """The game's name (``connect6``, ``gomoku``, …)."""
    @property
    def stones_per_move(self) -> int:
        """Stones placed in one move: 2 in Connect6, 1 in the games of five."""
    @property
    def ordered(self) -> bool:
        """Whether the play order was read (``False`` for a diagram)."""
    @property
    def finished(self) -> Optional[Dict[str, Any]]:
        """For a finished game, ``solve``'s ``finished`` object; else ``None``."""
    def to_text(self, format: str = "list") -> str:
        """The game as ``cpbim position --format FORMAT`` writes it: ``list``, ``diagram``,
        ``sgf``, ``contest`` or ``csv``. ``ValueError`` when the format cannot hold it."""
    def to_sgf(self) -> str:
        """The game as SGF (``to_text("sgf")``)."""
    def __eq__(self, other: object) -> bool: ...
