"""cpbim.solve and cpbim.solve_batch give the objects of `cpbim solve --json`."""

import cpbim
import pytest
from conftest import ROOT, cli_json_lines, game_lines, run_cli, without_time

GOMOKU_LINE = "E8 D8 F8 H12 G8 A1 H9 O1 H10 A15 H11 O15"


def test_the_example_is_the_cli_answer():
    text = (ROOT / "examples/positions/example.txt").read_text()
    [cli] = cli_json_lines("solve", "examples/positions/example.txt", "--json")
    py = cpbim.solve(text)
    assert py["result"] == "win" and py["depth"] == 16
    assert list(py) == [k for k in cli if k != "input_line"]  # same keys, same order
    assert without_time(py) == without_time(cli)
    assert isinstance(py["time_ms"], float)


@pytest.mark.parametrize("testset", ["W12.txt", "N12.txt"])
def test_a_test_set_line_by_line(testset):
    path = ROOT / "testsets" / testset
    cli = cli_json_lines("solve", f"testsets/{testset}", "--json", "--threads", "1")
    lines = game_lines(path)
    assert len(cli) == len(lines) == 80
    for line, expected in zip(lines, cli):
        assert without_time(cpbim.solve(line)) == without_time(expected), line


def test_a_batch_is_the_cli_batch_in_order():
    path = ROOT / "testsets" / "W16.txt"
    lines = game_lines(path)[:40]
    cli = [without_time(a) for a in cli_json_lines("solve", "testsets/W16.txt", "--json")][:40]
    for threads in (1, 2, 0):
        py = cpbim.solve_batch(lines, threads=threads)
        assert [without_time(a) for a in py] == cli


def test_bad_lines_of_a_batch_get_the_cli_errors(tmp_path):
    lines = ["J10 K11 I11", "J10 T11 I11", "J10 J10", "(;B[j10];W[k11", "J10 K11 I11 H11 I10"]
    file = tmp_path / "lines.txt"
    file.write_bytes("\n".join(lines).encode() + b"\nJ10 K11 \xff\n")
    cli = cli_json_lines("solve", str(file), "--json", "--nodes", "500", check=False)
    py = cpbim.solve_batch(lines + [b"J10 K11 \xff"], nodes=500)
    assert [without_time(a) for a in py] == [without_time(a) for a in cli]
    errors = [a for a in py if "error" in a]
    assert len(errors) == 4 and all(list(a) == ["error"] for a in errors)


def test_comment_and_blank_lines_of_a_batch_answer_none(tmp_path):
    """A batch reads lines as the CLI reads a file: blank and comment-only lines are not games.
    They answer None, so answer i is line i's; the CLI's input_line numbers say the same."""
    lines = ["# a set of two", "J10 K11 I11", "", "   # indented", "J10 K11 I11 H11 I10  # c", "\t"]
    file = tmp_path / "lines.txt"
    file.write_text("\n".join(lines) + "\n")
    cli = cli_json_lines("solve", str(file), "--json")
    py = cpbim.solve_batch(lines)
    assert [i for i, a in enumerate(py) if a is not None] == [a["input_line"] - 1 for a in cli] == [1, 4]
    assert [without_time(a) for a in py if a is not None] == [without_time(a) for a in cli]
    assert cpbim.solve_batch(["# only", b"", b"#"]) == [None, None, None]


def test_options_are_the_cli_options():
    line = game_lines(ROOT / "testsets" / "W20.txt")[0]
    for args, kwargs in [
        (["--depth", "12"], {"depth": 12}),
        (["--nodes", "50"], {"nodes": 50}),
        (["--proof"], {"proof": True}),
        (["--depth", "0"], {"depth": 0}),
    ]:
        [cli] = cli_json_lines("solve", line, "--json", *args)
        assert without_time(cpbim.solve(line, **kwargs)) == without_time(cli), args
    assert "proof" in cpbim.solve(line, proof=True)
    assert cpbim.solve(line, nodes=50)["result"] == "unknown"


@pytest.mark.parametrize("game", ["gomoku", "renju", "gomoku-standard"])
def test_the_games_of_five(game):
    [cli] = cli_json_lines("solve", "--game", game, GOMOKU_LINE, "--json", "--proof")
    assert without_time(cpbim.solve(GOMOKU_LINE, game=game, proof=True)) == without_time(cli)


def test_a_finished_game_and_a_puzzle():
    row = next(l for l in (ROOT / "data/connect6_games.csv").read_text().splitlines() if l.startswith("1,"))
    [cli] = cli_json_lines("solve", "data/connect6_games.csv", "--game-id", "1", "--json")
    assert cpbim.solve(row) == cli
    assert cli["result"] == "finished" and cli["winner"] == "white"
    diagram = cpbim.Position("J10 K11 I11 H11 I10").to_text("diagram")
    for side in ("black", "white"):
        [cli] = cli_json_lines("solve", "--to-move", side, diagram, "--json")
        assert without_time(cpbim.solve(diagram, to_move=side)) == without_time(cli)


def cli_error(*args: str) -> str:
    """The message of a CLI run that fails, without `error: `."""
    done = run_cli(*args, check=False)
    assert done.returncode != 0
    assert done.stderr.startswith("error: "), done.stderr
    return done.stderr[len("error: "):].strip()


def test_bad_input_is_a_value_error_with_the_cli_message():
    for text in ["J10 T11 I11", "J10 J10", "Q99", "(;B[j10];W[k11", "J10 K11 I11 H11 I10 Z"]:
        with pytest.raises(ValueError) as e:
            cpbim.solve(text)
        assert str(e.value) == cli_error("solve", text), text


def test_bad_options_are_value_errors():
    # The CLI's messages, with the option named as the keyword.
    with pytest.raises(ValueError) as e:
        cpbim.solve("J10", depth=6)
    assert str(e.value) == cli_error("solve", "J10", "--depth", "6").replace("--depth", "depth")
    with pytest.raises(ValueError) as e:
        cpbim.solve("J10", time=-1.0)
    assert str(e.value) == cli_error("solve", "J10", "--time=-1").replace("--time", "time")
    for kwargs in [
        {"depth": 10_000},
        {"depth": -4},
        {"nodes": -1},
        {"nodes": 2**70},
        {"time": float("nan")},
        {"time": float("inf")},
        {"game": "chess"},
        {"game": "connect(3,3,3,1,1)"},
        {"to_move": "red"},
    ]:
        with pytest.raises(ValueError):
            cpbim.solve("J10 K11 I11", **kwargs)
    with pytest.raises(ValueError):
        cpbim.solve_batch(["J10"], threads=-1)
    with pytest.raises(TypeError):
        cpbim.solve("J10", depth="12")
    with pytest.raises(TypeError):
        cpbim.solve("J10", nodes=1.5)
    with pytest.raises(TypeError):
        cpbim.solve_batch("J10 K11 I11")
    with pytest.raises(TypeError):
        cpbim.solve_batch([1, 2])


def test_kb_stats_is_the_cli_object():
    [cli] = cli_json_lines("kb", "stats", "--json")
    assert cpbim.kb_stats() == cli
    assert cli["total"] == 1048512
    for game in ("gomoku", "renju"):
        [cli] = cli_json_lines("kb", "stats", "--json", "--game", game)
        assert cpbim.kb_stats(game) == cli
    with pytest.raises(ValueError):
        cpbim.kb_stats("go")
