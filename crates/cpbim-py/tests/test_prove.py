"""cpbim.prove gives the object of `cpbim prove --json`."""

import cpbim
import pytest
from conftest import cli_json_lines, run_cli

GAME3 = (
    "j10 j11 k10 k11 i12 l12 l9 m8 l11 n11 n9 n10 o12 k8 j9 i6 k9 i10 h11 g12 l7 h12 g11 f11 "
    "h9 h13 g10 h14 i13 g15 i15"
)
UNTIMED = ("time_ms", "leaf_time_ms", "store_time_ms")


def untimed(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k not in UNTIMED}


@pytest.mark.parametrize(
    "text,game,args,kwargs",
    [
        (GAME3, "connect6", [], {}),
        (GAME3, "connect6", ["--search", "proof-number"], {"search": "proof-number"}),
        (GAME3, "connect6", ["--threats", "0"], {"threats": 0}),
        ("H8 A1 J8 C1 I7 A3 I9 O15", "gomoku", [], {}),
        ("h8 a1 h9 o1", "gomoku", ["--threats", "2", "--quiet", "4", "--nodes", "2000"],
         {"threats": 2, "quiet": 4, "nodes": 2000}),
        ("h8 a1 h9 o1", "gomoku", ["--threats", "3", "--quiet", "4", "--search", "proof-number", "--nodes", "5000"],
         {"threats": 3, "quiet": 4, "search": "proof-number", "nodes": 5000}),
        ("h8 i9 j10", "gomoku", ["--side", "black", "--nodes", "300"], {"side": "black", "nodes": 300}),
        ("H8 A1 J8 C1 I7 A3 I9 O15", "gomoku", ["--threats", "4", "--threat-step", "2"],
         {"threats": 4, "threat_step": 2}),
        ("J10 K11 L11", "connect6", ["--full-width", "--threats", "1", "--leaf-depth", "8"],
         {"full_width": True, "threats": 1, "leaf_depth": 8}),
    ],
)
def test_the_cli_object(text, game, args, kwargs):
    [cli] = cli_json_lines("prove", "--game", game, text, "--json", "--threads", "1", *args)
    py = cpbim.prove(text, game=game, **kwargs)
    assert untimed(py) == untimed(cli)
    assert list(py) == list(cli)


def test_each_reply_is_the_clis():
    """`each_reply=S` is `--each-reply S`: every reply of the side to move in a search of its
    own, each listed with its costs (times aside, the command line's object)."""

    def replies_untimed(answer: dict) -> dict:
        out = untimed(answer)
        out["each_reply"] = [{k: v for k, v in r.items() if k != "time_ms"} for r in out["each_reply"]]
        out["each_reply_total"] = {k: v for k, v in out["each_reply_total"].items() if k != "time_ms"}
        return out

    text = "H8 A1 J8 C1 I7 A3 I9 O15 I8"
    args = ["--side", "black", "--each-reply", "5"]
    [cli] = cli_json_lines("prove", "--game", "gomoku", text, "--json", "--threads", "1", *args)
    py = cpbim.prove(text, game="gomoku", side="black", each_reply=5)
    assert py["result"] == "proven" and len(py["each_reply"]) == 225 - 9
    assert replies_untimed(py) == replies_untimed(cli)
    with pytest.raises(ValueError, match="replies of the side to move"):
        cpbim.prove(text, game="gomoku", side="white", each_reply=5)
    with pytest.raises(ValueError, match="one stone a move"):
        cpbim.prove("j10 k10 k11", side="white", each_reply=5)
    with pytest.raises(ValueError, match="positive number of seconds"):
        cpbim.prove(text, game="gomoku", side="black", each_reply=0)


def test_game_3_is_proven_with_one_threat():
    answer = cpbim.prove(GAME3, threads=2)
    assert answer["result"] == "proven" and answer["threats"] == 1
    assert len(answer["proof"]["threat"]) == 2  # a move of two stones (which one may vary)


def test_errors():
    for text, args, kwargs in [
        ("J10 T11", [], {}),
        (GAME3, ["--leaf-depth", "5"], {"leaf_depth": 5}),
        (GAME3, ["--search", "proof-number", "--threads", "2"], {"search": "proof-number", "threads": 2}),
        (GAME3, ["--threat-step", "0"], {"threat_step": 0}),
    ]:
        done = run_cli("prove", text, *args, check=False)
        assert done.returncode != 0
        with pytest.raises(ValueError) as e:
            cpbim.prove(text, **kwargs)
        expected = done.stderr.strip().splitlines()[-1][len("error: "):]
        assert str(e.value) == expected.replace("--leaf-depth", "leaf_depth").replace("--threads", "threads"), text
    for kwargs in [{"threats": -1}, {"side": "red"}, {"search": "bfs"}, {"time": -1.0}, {"leaf_nodes": -5}, {"threat_step": -1}]:
        with pytest.raises(ValueError):
            cpbim.prove(GAME3, **kwargs)


def test_a_book_and_late_moves_are_the_clis(tmp_path):
    """`book=PATH` is `--book PATH` and `late=R` is `--late R` (times aside, the command line's
    object, the book's moves counted); a book that cannot be read is an `OSError`, one that
    does not read or is of another game a `ValueError` naming the file."""
    store, book = tmp_path / "s.redb", tmp_path / "book.txt"
    text = "H8 H9 K6 K11 L13 J7 H10 H7 G6 H12 J10 G5 H6 L11"
    opts = ["--game", "renju", "--threats", "4", "--threads", "1", "--json"]
    run_cli("prove", text, *opts, "--store", str(store), "--store-min-nodes", "0")
    run_cli("store", "book", str(store), "--game", "renju", "--out", str(book))
    for late in (0, 2):
        [cli] = cli_json_lines("prove", text, *opts, "--book", str(book), "--late", str(late))
        py = cpbim.prove(text, game="renju", threats=4, late=late, book=str(book))
        assert cli["result"] == "proven" and cli["book_moves"] >= 1
        assert untimed(py) == untimed(cli)
    with pytest.raises(OSError):
        cpbim.prove(text, game="renju", book=str(tmp_path / "none.txt"))
    with pytest.raises(ValueError, match="the book is of renju"):
        cpbim.prove(text, game="gomoku", book=str(book))
    book.write_text("game renju\nblack H8 H9 threat\n")
    with pytest.raises(ValueError, match=r"book .*book\.txt: line 2:"):
        cpbim.prove(text, game="renju", book=str(book))
    with pytest.raises(ValueError):
        cpbim.prove(text, game="renju", late=-1)
