"""cpbim.analyze gives the objects of `cpbim analyze --json` for one game."""

import cpbim
import pytest
from conftest import ROOT, cli_json_lines, run_cli


def untimed(value):
    """`value` without the `time_ms` keys, at every level."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "time_ms"}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


LINE = "J10 K11 I11 L11 J12 J9 J13 H11 H10"


@pytest.mark.parametrize(
    "text,game,args,kwargs",
    [
        (LINE, "connect6", [], {}),
        (LINE, "connect6", ["--defenses", "--radius", "1"], {"defenses": True, "radius": 1}),
        (LINE, "connect6", ["--no-eval", "--no-verdicts"], {"eval": False, "verdicts": False}),
        ("X-J8", "connect6", ["--depth", "12"], {"depth": 12}),
        ("h8 i9 j10 h9 h10", "gomoku", [], {}),
        ("E8 D8 F8 H12 G8 A1 H9 O1 H10 A15 H11 O15", "renju", [], {}),
    ],
)
def test_the_cli_objects(text, game, args, kwargs):
    cli = cli_json_lines("analyze", "--game", game, text, "--json", *args)
    py = cpbim.analyze(text, game=game, **kwargs)
    assert len(py) == len(cli) > 0
    assert untimed(py) == untimed(cli)


def test_a_finished_game_ends_with_its_end():
    cli = cli_json_lines("analyze", "data/connect6_games.csv", "--game-id", "1", "--json", "--no-eval")
    row = next(l for l in (ROOT / "data/connect6_games.csv").read_text().splitlines() if l.startswith("1,"))
    py = cpbim.analyze(row, eval=False, threads=2)
    assert untimed(py) == untimed(cli)
    assert py[-1]["result"] == "finished" and py[-1]["winner"] == "white"


def test_errors():
    done = run_cli("analyze", "J10 T11", check=False)
    with pytest.raises(ValueError) as e:
        cpbim.analyze("J10 T11")
    assert str(e.value) == done.stderr.splitlines()[0][len("error: "):]
    with pytest.raises(ValueError):
        cpbim.analyze(LINE, depth=5)
    with pytest.raises(ValueError):
        cpbim.analyze(LINE, threads=-2)
