"""Mutated records of every format fed to Position, solve and solve_batch: a text that is not
a game is a ValueError (a bad line of a batch its error dict), never another exception or a
crash of the interpreter. The mutations follow tests/common/mutate.rs: valid records with a
few random insertions (multi-byte characters, bytes that are not UTF-8, brackets, huge
numbers), deletions, overwritten bytes, duplicated pieces, truncations and splices."""

import random

import cpbim
from cpbim import jobs
from conftest import ROOT, game_lines

CORPUS = [
    "J10 K11 I11 H11 I10",
    "j10, k11 # white\n i11",
    "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 C7 A8 A9 I5",
    "(;FF[4]GM[Connect6]SZ[19]PB[甲]PW[乙]RE[B+];B[j10];W[k11i11];B[h11i10])",
    "(;B[JJ];W[LH];W[HH];B[KK];B[JK])",
    "(;B[j10](;W[j9l11])(;W[a1a2]))",
    "{[C6][先手参赛队 甲 B][后手参赛队 乙 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];"
    "B(J,10);W(K,11)MARK[1];W(L,10);B(I,9);B(K,9)}",
    '1,"j10,k11,i11,h11,i10",white,white',
    '84,"j10,k11,i11",black,black',
    "(;GM[4]SZ[15];B[h8];W[i9];B[j10])",
    "",
]

SPICE = [
    "é", "中", "💥", "\ufeff", "\0", "\r", "\t", "\n", " ", "(", ")", "[", "]", ";", ",", "{",
    "}", "#", ".", "-", "\\", '"', "0", "19", "20", "99999999999999999999999", "T", "s", "X",
    "O", "B", "W", "MARK[1]",
]
RAW_SPICE = [b"\xff", b"\xe9", b"\xc3", b"\xe4\xb8"]


def corpus() -> list:
    diagram = cpbim.Position("J10 K11 I11 H11 I10").to_text("diagram")
    gomoku = cpbim.Position("h8 i9 j10", game="gomoku").to_text("diagram")
    lines = game_lines(ROOT / "testsets" / "W12.txt")[:5]
    return [s.encode() for s in CORPUS + [diagram, gomoku] + lines]


def mutate(seed: bytes, others: list, rng: random.Random) -> bytes:
    """`seed` with 1 to 6 random edits."""
    v = bytearray(seed)
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(v))
        kind = rng.randrange(7)
        if kind == 0:
            v[at:at] = rng.choice(SPICE).encode()
        elif kind == 1 and v:
            del v[at : at + rng.randint(1, 8)]
        elif kind == 2 and at < len(v):
            v[at] = rng.randrange(256)
        elif kind == 3 and at < len(v):
            v[at:at] = v[at : at + rng.randint(1, 16)]
        elif kind == 4:
            del v[at:]
        elif kind == 5:
            other = rng.choice(others)
            start = rng.randint(0, len(other))
            v[at:at] = other[start : start + rng.randint(1, 24)]
        else:
            v[at:at] = rng.choice(RAW_SPICE)
    return bytes(v)


def test_mutated_records():
    rng = random.Random(2026)
    seeds = corpus()
    counts = {"read": 0, "refused": 0}
    batch = []
    for _ in range(3000):
        data = mutate(rng.choice(seeds), seeds, rng)
        batch.append(data)
        text = data.decode("utf-8", "replace")
        for game in ("connect6", "gomoku"):
            try:
                p = cpbim.Position(text, game=game)
            except ValueError:
                counts["refused"] += 1
                continue
            counts["read"] += 1
            assert p.to_move in ("black", "white")
            try:
                answer = cpbim.solve(text, game=game, nodes=200)
            except ValueError as e:
                raise AssertionError(f"Position read it, solve refused it: {text!r}: {e}")
            assert answer["result"] in ("win", "none", "nowin", "unknown", "finished")
            for fmt in ("list", "diagram", "sgf", "contest", "csv"):
                try:
                    p.to_text(fmt)
                except ValueError:
                    pass
    # Both outcomes occur, so the mutations reach past the first check of the readers.
    assert counts["read"] > 100 and counts["refused"] > 100, counts
    answers = cpbim.solve_batch(batch, nodes=200, threads=2)
    assert len(answers) == len(batch)
    # A mutation that leaves only blanks or a comment is no game: None. (Python counts
    # \x1c-\x1f as blanks too, Rust does not: those lines are left out of the comparison.)
    for line, answer in zip(batch, answers):
        text = line.decode("utf-8", "replace")
        if not any("\x1c" <= ch <= "\x1f" for ch in text):
            assert (answer is None) == (text.split("#")[0].strip() == ""), line
    assert all(("error" in a) != ("result" in a) for a in answers if a is not None)
    assert any("not UTF-8" in a.get("error", "") for a in answers)


def test_mutated_records_for_the_job_level_and_the_games():
    """prove_expand, the job level's checks and play_game's opening read mutated records of the
    games of five: a ValueError or an answer, nothing else."""
    rng = random.Random(29)
    seeds = [s.encode() for s in ("h8 i9 j10 a1", "(;GM[4]SZ[15];B[h8];W[i9];B[j10])",
                                  "h8 h9 i9 g9 i8", "h8, i8 # x\n g7")]
    counts = {"answered": 0, "refused": 0}
    for _ in range(400):
        text = mutate(rng.choice(seeds), seeds, rng).decode("utf-8", "replace")
        try:
            e = cpbim.prove_expand(text, game="gomoku", leaf_nodes=300, width=4)
            assert e["node"] in ("lost", "leaf", "attacker", "defender")
            counts["answered"] += 1
        except ValueError:
            counts["refused"] += 1
        try:
            jobs.simulate(text, 2, game="gomoku", threats=1, job_nodes=50, leaf_nodes=300,
                          width=4, max_jobs=3)
        except ValueError:
            pass
        try:
            # An engine that does not exist: the opening is read first, then the game is lost
            # at once by crash.
            g = cpbim.play_game(("/nonexistent/a", "/nonexistent/b"), game="gomoku",
                                opening=text)
            assert g["ending"] == "crash"
        except ValueError:
            pass
    assert counts["answered"] > 20 and counts["refused"] > 20, counts
    for scores, sprt in [([0.25], None), ([float("nan")], None), ([1.0], "a,b,c,d"),
                         ([], "0,1,0.5,0.5"), ([1e308], None)]:
        try:
            cpbim.tally(scores, sprt=sprt)
        except ValueError:
            pass


def test_mutated_books(tmp_path):
    """prove(book=PATH) reads mutated books (the function the server's `book` reads them with
    too): an answer or a ValueError, nothing else."""
    lines = (ROOT / "data" / "books" / "kagetsu-freestyle.txt").read_text().splitlines()
    seeds = ["\n".join(lines[:8]).encode(), "\n".join(lines[2:5] + lines[-3:]).encode()]
    rng = random.Random(30)
    book = tmp_path / "book.txt"
    counts = {"answered": 0, "refused": 0}
    for _ in range(300):
        book.write_bytes(mutate(rng.choice(seeds), seeds, rng))
        try:
            a = cpbim.prove("H8 H9 I9 H7", game="gomoku", side="black", threats=1,
                            book=str(book))
            assert a["result"] in ("proven", "not proven", "stopped"), a["result"]
            counts["answered"] += 1
        except ValueError:
            counts["refused"] += 1
    # A book is refused whole for one line that does not read: most mutants are.
    assert counts["answered"] > 3 and counts["refused"] > 100, counts
