"""cpbim.move gives the object of `cpbim move --json`."""

import cpbim
import pytest
from conftest import ROOT, cli_json_lines, game_lines, run_cli, without_time


@pytest.mark.parametrize(
    "line,game,args",
    [
        ("J10 K11 L11", "connect6", []),
        ("J10 K11 L11", "connect6", ["--depth", "1"]),
        ("J10 K11 L11 H11 I10", "connect6", ["--depth", "3"]),
        ("h8 i9 j10", "gomoku", []),
        ("h8 i9 j10", "renju", ["--depth", "2"]),
        ("J10 K11 L11", "connect6", ["--player", "seed000"]),
        ("h8 i9 j10", "gomoku", ["--player", "seed004"]),
    ],
)
def test_the_engine_moves_as_the_cli(line, game, args):
    [cli] = cli_json_lines("move", "--game", game, line, "--json", *args)
    kwargs = {}
    if "--depth" in args:
        kwargs["depth"] = int(args[args.index("--depth") + 1])
    if "--player" in args:
        kwargs["player"] = args[args.index("--player") + 1]
    assert without_time(cpbim.move(line, game=game, **kwargs)) == without_time(cli)


def test_wins_of_the_test_set():
    for line in game_lines(ROOT / "testsets" / "W12.txt")[:10]:
        answer = cpbim.move(line)
        assert answer["verdict"] == "win" and answer["win_depth"] == 12, line
        assert without_time(answer) == without_time(cli_json_lines("move", line, "--json")[0])


def test_a_time_limit():
    answer = cpbim.move("J10 K11 L11", time=0.2)
    assert answer["time_ms"] < 1000 and len(answer["move"]) == 2


def test_errors_are_value_errors_with_the_cli_messages():
    row = next(l for l in (ROOT / "data/connect6_games.csv").read_text().splitlines() if l.startswith("1,"))
    for text, args, kwargs in [
        (row, [], {}),
        ("J10 T11", [], {}),
        ("J10 K11 L11", ["--depth", "10"], {"depth": 10}),
        ("J10 K11 L11", ["--player", "seed004"], {"player": "seed004"}),
    ]:
        done = run_cli("move", text, *args, check=False)
        assert done.returncode != 0
        with pytest.raises(ValueError) as e:
            cpbim.move(text, **kwargs)
        expected = done.stderr.strip()[len("error: "):]
        assert str(e.value) == expected.replace("--depth", "depth").replace("--player", "player"), text
    for kwargs in [{"depth": 2, "time": 1.0}, {"time": 0.0}, {"player": "nobody"}, {"depth": 0}]:
        with pytest.raises(ValueError):
            cpbim.move("J10 K11 L11", **kwargs)
