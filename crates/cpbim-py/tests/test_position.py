"""cpbim.Position reads every format the CLI reads and writes what `cpbim position` writes."""

import cpbim
import pytest
from conftest import ROOT, run_cli

LINE = "J10 K11 I11 H11 I10"
FORMATS = ["list", "diagram", "sgf", "contest", "csv"]


def cli_position(text: str, fmt: str, *args: str) -> str:
    return run_cli("position", "--format", fmt, *args, text).stdout.rstrip("\n")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reads_back_and_writes_as_the_cli(fmt):
    written = cli_position(LINE, fmt)
    p = cpbim.Position(written)
    assert p.to_text(fmt) == written
    assert p.game == "connect6"
    assert p.to_move == "white"
    if fmt != "diagram":
        assert p.stones == LINE.split() and p.ordered
    else:
        assert sorted(p.stones) == sorted(LINE.split()) and not p.ordered
    # Written in every other format as the CLI writes it (a contest record keeps its teams), or
    # refused with the CLI's message (a diagram has no play order).
    for other in FORMATS:
        done = run_cli("position", "--format", other, written, check=False)
        if done.returncode == 0:
            assert p.to_text(other) == done.stdout.rstrip("\n"), other
        else:
            with pytest.raises(ValueError) as e:
                p.to_text(other)
            assert str(e.value) == done.stderr.strip()[len("error: "):]


def test_the_properties_and_methods():
    p = cpbim.Position("j10, k11 i11 # a comment")
    assert p.stones == ["J10", "K11", "I11"]
    assert p.to_move == "black"
    assert p.finished is None
    assert p.to_sgf() == "(;FF[4]GM[Connect6]SZ[19];B[j10];W[k11i11])"
    assert p.to_sgf() == p.to_text("sgf") == cli_position("J10 K11 I11", "sgf")
    assert repr(p) == 'Position("J10  K11 I11", game="connect6")'
    assert eval(repr(p), {"Position": cpbim.Position}) == p
    assert str(p) == cli_position("J10 K11 I11", "diagram")
    assert p != cpbim.Position("J10")
    with pytest.raises(ValueError):
        p.to_text("png")


def test_a_finished_game_from_the_csv():
    row = next(l for l in (ROOT / "data/connect6_games.csv").read_text().splitlines() if l.startswith("1,"))
    p = cpbim.Position(row)
    assert p.finished == cpbim.solve(row)
    assert p.finished["winner"] == "white"
    assert p.stones[-2:] == ["O15", "P16"] and len(p.stones) == 43
    assert p.to_text() == cli_position("data/connect6_games.csv", "list", "--game-id", "1")


def test_other_games_and_puzzles():
    g = cpbim.Position("h8 i9 j10", game="gomoku")
    assert g.game == "gomoku" and g.stones == ["H8", "I9", "J10"] and g.to_move == "white"
    assert g.to_text() == run_cli("position", "--game", "gomoku", "--format", "list", "h8 i9 j10").stdout.rstrip("\n")
    diagram = cpbim.Position(LINE).to_text("diagram")
    assert cpbim.Position(diagram, to_move="black").to_move == "black"
    assert cpbim.Position(diagram, to_move="white").to_move == "white"
    assert "diagram" in repr(cpbim.Position(diagram))


def test_not_a_game_is_a_value_error_with_the_cli_message():
    for text, game in [("J10 T11 I11", "connect6"), ("J10 J10", "connect6"), ("P16", "gomoku"), ("(;B[j10];W[", "connect6")]:
        with pytest.raises(ValueError) as e:
            cpbim.Position(text, game=game)
        done = run_cli("position", "--game", game, text, check=False)
        assert done.returncode != 0
        assert str(e.value) == done.stderr.strip()[len("error: "):], text
    empty = cpbim.Position("")
    assert empty.stones == [] and empty.to_move == "black"
    with pytest.raises(ValueError):
        cpbim.Position("J10", game="go")
    with pytest.raises(ValueError):
        cpbim.Position("J10", to_move="both")
