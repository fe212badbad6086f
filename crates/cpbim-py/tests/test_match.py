"""Engine games from Python: cpbim.play_game (cpbim match's referee), cpbim.tally (its
statistics) and cpbim.dask.match (a match, one game a Dask task, on a LocalCluster of two
worker processes): the same games and the same summary as `cpbim match`."""

import json
import shlex

import cpbim
import cpbim.dask
import pytest
from conftest import cli_binary, run_cli

OPENINGS = ["h8 h9 i9", "h8 i9 h10", "h8 h7 j9"]


def engine(depth):
    """The cpbim engine at a fixed depth: the same moves on every run."""
    return f"{shlex.quote(str(cli_binary()))} engine --protocol gomocup --depth {depth}"


ENGINES = (engine(1), engine(2))


def cli_match(games, openings, tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("\n".join(openings) + "\n")
    out = run_cli("match", "--game", "gomoku", "--engine", ENGINES[0], "--engine", ENGINES[1],
                  "--games", str(games), "--openings", str(path), "--json",
                  "--records", str(tmp_path / "sgf"))
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_game_is_a_legal_game_with_its_result():
    g = cpbim.play_game(ENGINES, game="gomoku", opening="h8 h9 i9", black=1)
    assert g["black"] == 1
    assert g["stones"][:3] == ["H8", "H9", "I9"]
    pos = cpbim.Position(" ".join(g["stones"]), game="gomoku")
    if g["ending"] == "row":
        assert pos.finished is not None
        winner = pos.finished["winner"]
        assert g["winner"] == winner
        assert g["score"] == (1.0 if (winner == "black") == (g["black"] == 0) else 0.0)
    assert sum(g["moves"]) >= len(g["stones"]) - 3


def test_an_engine_that_cannot_start_loses_by_crash():
    g = cpbim.play_game(("/nonexistent/engine", ENGINES[1]), game="gomoku", black=0)
    assert g["ending"] == "crash" and g["winner"] == "white" and g["score"] == 0.0
    assert g["reason"]


def test_the_tally_is_the_match_summary():
    t = cpbim.tally([1, 1, 0.5, 0, 1], sprt="0,10,0.05,0.05")
    assert (t["games"], t["wins"], t["draws"], t["losses"]) == (5, 3, 1, 1)
    assert t["score"] == pytest.approx(0.7)
    assert t["elo_95"][0] < t["elo"] < 400
    assert t["sprt"]["accepted"] is None and t["sprt"]["upper"] > 0
    assert cpbim.tally([1, 1])["elo"] is None  # a score of 1: infinite
    for bad, message in [(([0.3],), "score 0.3"), (([1], "10,0"), "sprt")]:
        with pytest.raises(ValueError, match=message):
            cpbim.tally(*bad)


def test_bad_games_are_refused():
    refused = [
        ({"engines": ENGINES, "game": "connect(9,9,4,1,1)"}, "no protocol"),
        ({"engines": ENGINES, "game": "gomoku", "black": 2}, "black 2"),
        ({"engines": ENGINES, "game": "gomoku", "tc": "fast"}, "tc"),
        ({"engines": ENGINES, "game": "gomoku", "opening": "h8 z99"}, "z99"),
    ]
    for kwargs, message in refused:
        with pytest.raises(ValueError, match=message):
            cpbim.play_game(**kwargs)


def test_a_dask_match_plays_the_cli_match(dask_client, tmp_path):
    cli = cli_match(6, OPENINGS, tmp_path)
    played = cpbim.dask.match(ENGINES, dask_client, game="gomoku", openings=OPENINGS)
    summary = played["summary"]
    for key in ("games", "wins", "losses", "draws", "score", "elo", "elo_95", "los",
                "adjudications"):
        assert summary[key] == cli[key], key
    assert [g["index"] for g in played["games"]] == list(range(6))
    assert [g["black"] for g in played["games"]] == [0, 1] * 3
    assert [g["opening"] for g in played["games"]] == [o for o in OPENINGS for _ in (0, 1)]
    # The same games as the CLI's records, stone for stone.
    for g in played["games"]:
        sgf = (tmp_path / "sgf" / f"game-{g['index'] + 1:04}.sgf").read_text()
        assert cpbim.Position(sgf, game="gomoku").stones == g["stones"]


def test_a_dask_match_stops_when_the_sprt_decides(dask_client):
    openings = cpbim.openings("gomoku")
    played = cpbim.dask.match(ENGINES, dask_client, game="gomoku", openings=openings,
                              sprt="-400,-300,0.2,0.2")
    assert played["summary"]["sprt"]["accepted"] is not None
    assert played["summary"]["games"] < 2 * len(openings)


def test_a_dask_match_checks_its_options_first():
    class NoClient:
        def __getattr__(self, name):
            raise AssertionError(f"the client was used ({name})")

    for kwargs, message in [
        ({"engines": [ENGINES[0]]}, "two engine"),
        ({"engines": ENGINES, "games": 0}, "games 0"),
        ({"engines": ENGINES, "openings": []}, "openings"),
        ({"engines": ENGINES, "openings": ["h8 q99"], "game": "gomoku"}, "q99"),
        ({"engines": ENGINES, "sprt": "1,2"}, "sprt"),
    ]:
        engines = kwargs.pop("engines")
        with pytest.raises(ValueError, match=message):
            cpbim.dask.match(engines, NoClient(), **kwargs)
