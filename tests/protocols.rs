//! `cpbim engine` through a real child process, one transcript per protocol: the replies a
//! GUI or manager expects, legal moves, and error replies (never a crash) for garbage.

mod common;

use common::binary::cpbim;
use cpbim::{Board, Color, Game, Point};

/// Run `cpbim engine ARGS` on `input`; its stdout lines.
fn session(args: &[&str], input: &str) -> (Vec<String>, String, i32) {
    let mut all = vec!["engine"];
    all.extend_from_slice(args);
    let o = cpbim(&all, input.as_bytes(), &[]);
    assert!(o.clean(), "{}", o.stderr);
    (
        o.lines().iter().map(|s| s.to_string()).collect(),
        o.stderr,
        o.code,
    )
}

/// Cloudict letters to a point: column then row, A = left / bottom.
fn letters(s: &str) -> Vec<Point> {
    s.as_bytes()
        .chunks(2)
        .map(|c| Point::new((c[0] - b'A') as usize, (c[1] - b'A') as usize).unwrap())
        .collect()
}

/// Gomocup x,y (from the top-left corner) to a point of a 15×15 board.
fn xy(s: &str) -> Point {
    let (x, y) = s.split_once(',').unwrap();
    Point::new(x.parse().unwrap(), 14 - y.parse::<usize>().unwrap()).unwrap()
}

#[test]
fn gomocup_as_a_manager_drives_it() {
    let (out, _, code) = session(
        &["--protocol", "gomocup"],
        "START 15\nINFO timeout_turn 200\nINFO rule 4\nBEGIN\nTURN 8,8\nABOUT\nTURN 8,8\nFOO\nEND\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "7,7", "black opens on the centre");
    let second = xy(&out[2]);
    assert!(second != xy("7,7") && second != xy("8,8"), "{out:?}");
    assert!(out[3].starts_with("name=\"cpbim\""), "{out:?}");
    // In the protocol's own coordinates.
    assert_eq!(out[4], "ERROR 8,8 is occupied", "{out:?}");
    assert!(out[5].starts_with("UNKNOWN"), "{out:?}");
    assert_eq!(out.len(), 6);
    // BOARD: own stones 1, the opponent's 2; the counts say the engine is white.
    let (out, _, _) = session(
        &["--protocol", "gomocup"],
        "START 15\nINFO timeout_turn 200\nBOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\nTAKEBACK 3,3\nRESTART\nEND\n",
    );
    let p = xy(&out[1]);
    assert!(![xy("7,7"), xy("8,8"), xy("7,8")].contains(&p), "{out:?}");
    assert!(out[2].starts_with("ERROR"), "{out:?}");
    assert_eq!(out[3], "OK");
    // Renju: YXSHOWFORBID lists black's forbidden points, the same as the tests' own
    // reference finds on the board after the engine's (white) reply. Black F8 G8 H9 H10
    // make H8 a double three unless white blocks.
    let black = ["5,7", "6,7", "7,6", "7,5"];
    let white = ["0,14", "0,13", "0,12"];
    let mut board = String::from("BOARD\n");
    for (b, w) in black.iter().zip(white.iter().chain(std::iter::once(&""))) {
        board += &format!("{b},2\n");
        if !w.is_empty() {
            board += &format!("{w},1\n");
        }
    }
    let (out, _, _) = session(
        &["--protocol", "gomocup"],
        &format!("START 15\nINFO rule 4\nINFO timeout_turn 100\n{board}DONE\nYXSHOWFORBID\nEND\n"),
    );
    let mut plain = common::Plain::empty(common::Rules::of(&Game::RENJU));
    let mut put = |p: Point, c: u8| plain.cells[p.row() * 15 + p.col()] = c;
    black.iter().for_each(|s| put(xy(s), 1));
    white.iter().for_each(|s| put(xy(s), 2));
    put(xy(&out[1]), 2);
    let listed = out[2]
        .strip_prefix("FORBID ")
        .and_then(|l| l.strip_suffix('.'));
    let listed: Vec<usize> = listed
        .expect("a FORBID line")
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let s = std::str::from_utf8(c).unwrap();
            let (x, y) = (
                s[..2].parse::<usize>().unwrap(),
                s[2..].parse::<usize>().unwrap(),
            );
            (14 - y) * 15 + x
        })
        .collect();
    let expected: Vec<usize> = (0..225)
        .filter(|&i| plain.cells[i] == 0 && plain.forbids(1, i))
        .collect();
    assert_eq!(listed, expected, "{out:?}");
}

/// A line sent in a transcript and the replies expected to it.
struct Exchange {
    input: String,
    expected: Vec<String>,
    /// What the engine answered (filled by [`run_transcript`]).
    replies: Vec<String>,
}

/// A session of a transcript file: the engine's arguments, its exchanges, and the texts its
/// standard error must contain.
struct Transcript {
    line: usize,
    args: Vec<String>,
    exchanges: Vec<Exchange>,
    stderr: Vec<String>,
}

/// The sessions of `tests/data/protocols/NAME`. Lines: `$ ARGS` starts a session, `> LINE` is
/// sent, `< TEXT` is expected back (`<` alone: an empty line; `*` any word; a last word `...`
/// any rest of the line), `! TEXT` must be on standard error; `#` lines and blank lines are
/// comments.
fn transcripts(name: &str) -> Vec<Transcript> {
    let path = format!("{}/tests/data/protocols/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the transcript reads");
    let mut sessions: Vec<Transcript> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let here = || format!("{path}:{}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(args) = line.strip_prefix("$ ") {
            sessions.push(Transcript {
                line: i + 1,
                args: args.split_whitespace().map(str::to_string).collect(),
                exchanges: Vec::new(),
                stderr: Vec::new(),
            });
            continue;
        }
        let session = sessions
            .last_mut()
            .unwrap_or_else(|| panic!("{}: no `$`", here()));
        let (mark, rest) = line.split_at(1);
        let rest = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        match mark {
            ">" => session.exchanges.push(Exchange {
                input: rest,
                expected: Vec::new(),
                replies: Vec::new(),
            }),
            "<" => session
                .exchanges
                .last_mut()
                .unwrap_or_else(|| panic!("{}: a reply before any input", here()))
                .expected
                .push(rest),
            "!" => session.stderr.push(rest),
            _ => panic!("{}: unknown line {line:?}", here()),
        }
    }
    sessions
}

/// Does `line` match `pattern` (`*` any word, a last word `...` any rest)?
fn matches(pattern: &str, line: &str) -> bool {
    let want: Vec<&str> = pattern.split(' ').collect();
    let got: Vec<&str> = line.split(' ').collect();
    let (want, open) = match want.split_last() {
        Some((&"...", head)) => (head, true),
        _ => (&want[..], false),
    };
    let lengths = if open {
        got.len() >= want.len()
    } else {
        got.len() == want.len()
    };
    lengths
        && want
            .iter()
            .zip(&got)
            .all(|(w, g)| *w == *g || (*w == "*" && !g.is_empty()))
}

/// Run a session through the binary: every reply as the transcript says, in order, standard
/// error holding its texts, exit status 0. The replies are filed with their exchanges.
fn run_transcript(t: &mut Transcript) {
    let input: String = t
        .exchanges
        .iter()
        .map(|e| format!("{}\n", e.input))
        .collect();
    let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
    let (out, err, code) = session(&args, &input);
    let at = format!("session at line {}", t.line);
    assert_eq!(code, 0, "{at}: {err}");
    let expected: Vec<&String> = t.exchanges.iter().flat_map(|e| &e.expected).collect();
    for (i, (want, got)) in expected.iter().zip(&out).enumerate() {
        assert!(
            matches(want, got),
            "{at}: reply line {i} {got:?}, not {want:?}"
        );
    }
    assert_eq!(out.len(), expected.len(), "{at}: got {out:#?}");
    for text in &t.stderr {
        assert!(err.contains(text.as_str()), "{at}: {text:?} not in {err}");
    }
    let mut replies = out.into_iter();
    for e in &mut t.exchanges {
        e.replies = replies.by_ref().take(e.expected.len()).collect();
    }
}

/// SAU stones: Cloudict letters, `@@` for an absent second.
fn sau_stones(text: &str) -> Vec<Point> {
    letters(text.trim_end_matches("@@"))
}

/// Replays sessions of a protocol with Cloudict's letters (cloudict, sau: `@@` for an absent
/// stone) on a board of its own: every stone the engine plays is on an empty point, one on an
/// empty board, two otherwise. `new`/`end` start over, `black`/`white` place set-up stones,
/// `move` is the opponent's move, and the engine plays the side that did not place last.
fn replay_letters(t: &Transcript) {
    let mut board = Board::new(Game::CONNECT6);
    let mut last = Color::White;
    for e in &t.exchanges {
        let (cmd, rest) = e.input.split_once(' ').unwrap_or((&e.input, ""));
        match cmd {
            // Black moves first, whoever the engine plays.
            "new" | "end" => {
                board = Board::new(Game::CONNECT6);
                last = Color::White;
            }
            "black" | "white" => {
                last = if cmd == "black" {
                    Color::Black
                } else {
                    Color::White
                };
                for p in sau_stones(rest) {
                    board.set(p, Some(last));
                }
            }
            "move" if !e.replies.is_empty() => {
                last = last.opponent();
                for p in sau_stones(rest) {
                    assert!(board.is_empty(p), "{p} taken");
                    board.set(p, Some(last));
                }
            }
            _ => {}
        }
        if let Some(mine) = e.replies.first().and_then(|r| r.strip_prefix("move ")) {
            let stones = sau_stones(mine);
            let needed = if board.stones() == 0 { 1 } else { 2 };
            assert_eq!(stones.len(), needed, "{mine}");
            last = last.opponent();
            for p in stones {
                assert!(board.is_empty(p), "{mine}: {p} is taken");
                board.set(p, Some(last));
            }
        }
    }
}

#[test]
fn sau_transcripts() {
    for mut t in transcripts("sau.txt") {
        run_transcript(&mut t);
        replay_letters(&t);
    }
}

/// Refused moves are named in each protocol's own coordinates: the letters of Cloudict and
/// SAU (on standard error, neither has an error reply) and Gomocup's `x,y` (above).
#[test]
fn a_refused_move_is_named_in_the_protocols_coordinates() {
    for protocol in ["cloudict", "sau"] {
        let (_, err, code) = session(
            &["--protocol", protocol, "--depth", "1"],
            "new black\nmove JJ\nmove JJ\nquit\n",
        );
        assert_eq!(code, 0, "{protocol}");
        assert!(err.contains("JJ is occupied"), "{protocol}: {err}");
    }
}

#[test]
fn cloudict_transcripts() {
    for mut t in transcripts("cloudict.txt") {
        run_transcript(&mut t);
        replay_letters(&t);
    }
}

/// A GTP vertex (`K10`: columns without I, row 1 at the bottom) of Connect6.
fn gtp_point(v: &str) -> Point {
    const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";
    let v = v.to_ascii_uppercase();
    let col = COLUMNS.find(&v[..1]).expect("a column letter");
    let row: usize = v[1..].parse().expect("a row number");
    Point::new(col, row - 1).unwrap()
}

/// The vertex of a point of Connect6.
fn gtp_vertex(p: Point) -> String {
    const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRST";
    format!("{}{}", COLUMNS[p.col()] as char, p.row() + 1)
}

/// Replays the gtp sessions on a board of its own: the stones `play` accepted and `genmove`
/// answered, each of the colour the turn cycle B, W, W, B, B, … gives and on an empty point;
/// `undo` takes one back; `gogui-rules_legal_moves` lists exactly the empty points (none once
/// somebody has six) and `gogui-rules_side_to_move` names the colour of the next stone.
#[test]
fn gtp_transcripts() {
    let game = Game::CONNECT6;
    for mut t in transcripts("gtp.txt") {
        run_transcript(&mut t);
        let mut board = Board::new(game);
        let mut stones: Vec<Point> = Vec::new();
        for e in &t.exchanges {
            let Some(first) = e.replies.first().filter(|r| r.starts_with('=')) else {
                continue;
            };
            let result = first.split_once(' ').map_or("", |(_, r)| r);
            let words: Vec<&str> = e.input.split_whitespace().collect();
            let words = match words.first() {
                Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => &words[1..],
                _ => &words[..],
            };
            let turn = game.color_of_stone(stones.len());
            let mut put = |v: &str, color: &str| {
                let p = gtp_point(v);
                assert_eq!(color.chars().next(), turn.name().chars().next(), "{e:?}");
                assert!(board.is_empty(p), "{v} is taken");
                board.set(p, Some(turn));
                stones.push(p);
            };
            match words {
                ["play", color, v] => put(v, color),
                ["genmove", color] => put(result, color),
                ["undo"] => board.set(stones.pop().unwrap(), None),
                ["clear_board"] | ["boardsize", _] => {
                    board = Board::new(game);
                    stones.clear();
                }
                ["gogui-rules_legal_moves"] => {
                    let mut listed: Vec<&str> = result.split_whitespace().collect();
                    listed.sort();
                    let over = Color::ALL.iter().any(|&c| board.find_win_of(c).is_some());
                    let mut empty: Vec<String> = if over {
                        Vec::new()
                    } else {
                        game.points()
                            .filter(|&p| board.is_empty(p))
                            .map(gtp_vertex)
                            .collect()
                    };
                    empty.sort();
                    assert_eq!(listed, empty);
                }
                ["gogui-rules_side_to_move"] => assert_eq!(result, turn.name()),
                _ => {}
            }
        }
    }
}

impl std::fmt::Debug for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} → {:?}", self.input, self.replies)
    }
}

/// `genmove` thinks a whole move on the first stone of a side's turn and answers its second
/// stone on the next `genmove`: the two are the move the same engine answers over `sau`. When
/// something changed in between (here the stored point was taken), it thinks again.
#[test]
fn gtp_genmove_keeps_the_second_stone() {
    let (sau, _, _) = session(
        &["--protocol", "sau", "--depth", "1"],
        "new white\nmove JJ@@\n",
    );
    let whole = sau_stones(sau[0].strip_prefix("move ").expect("a move"));
    assert_eq!(whole.len(), 2, "{sau:?}");
    let (out, _, _) = session(
        &["--protocol", "gtp", "--depth", "1"],
        "play b K10\ngenmove w\ngenmove w\n",
    );
    let vertices: Vec<Point> = out
        .iter()
        .filter_map(|l| l.strip_prefix("= "))
        .map(gtp_point)
        .collect();
    assert_eq!(vertices, whole, "{out:?}");
    let second = gtp_vertex(whole[1]);
    let (out, _, _) = session(
        &["--protocol", "gtp", "--depth", "1"],
        &format!("play b K10\ngenmove w\nundo\nplay w {second}\ngenmove w\n"),
    );
    let last = out.iter().rev().find_map(|l| l.strip_prefix("= ")).unwrap();
    let last = gtp_point(last);
    assert!(last != whole[1] && last != gtp_point("K10"), "{out:?}");
}

/// Replays the gomocup sessions on a 15×15 board of its own: `START`/`RESTART` clear it,
/// `TURN` and `BOARD` place the opponent's (and set-up) stones, `TAKEBACK` that was answered
/// `OK` removes one, and every move the engine answers is on an empty point of the board (only
/// emptiness is checked, so the colours are the engine's white and the rest black).
fn replay_gomocup(t: &Transcript) {
    let mut board = Board::new(Game::GOMOKU);
    let mut in_board = false;
    for e in &t.exchanges {
        let (cmd, rest) = e.input.split_once(' ').unwrap_or((&e.input, ""));
        let reply = e.replies.first().map(String::as_str).unwrap_or("");
        match cmd {
            "START" | "RECTSTART" | "RESTART" => board = Board::new(Game::GOMOKU),
            "BOARD" => in_board = true,
            "DONE" => in_board = false,
            "TURN" if !reply.starts_with("ERROR") => board.set(xy(rest), Some(Color::Black)),
            "TAKEBACK" if reply == "OK" => board.set(xy(rest), None),
            line if in_board => {
                let (at, who) = line.rsplit_once(',').unwrap();
                let own = if who == "1" {
                    Color::White
                } else {
                    Color::Black
                };
                board.set(xy(at), Some(own));
            }
            _ => {}
        }
        let played = reply
            .split_once(',')
            .is_some_and(|(x, y)| x.parse::<usize>().is_ok() && y.parse::<usize>().is_ok());
        if played {
            let p = xy(reply);
            assert!(board.is_empty(p), "{reply} is taken");
            board.set(p, Some(Color::White));
        }
    }
}

#[test]
fn gomocup_transcripts() {
    let sessions = transcripts("gomocup.txt");
    assert!(sessions.len() >= 5);
    for mut t in sessions {
        run_transcript(&mut t);
        replay_gomocup(&t);
    }
}

#[test]
fn gomocup_board_blocks_end_and_overflow_cleanly() {
    // END inside BOARD ends the session at once (no move is thought about).
    let (out, _, code) = session(
        &["--protocol", "gomocup", "--depth", "1"],
        "START 15\nBOARD\n7,7,1\nEND\nBOARD\n7,8,2\nDONE\n",
    );
    assert_eq!((out, code), (vec!["OK".to_string()], 0));
    // More lines than points: an error, and the session goes on with a cleared board.
    let mut input = "START 5\nBOARD\n".to_string();
    for i in 0..26 {
        input += &format!("{},{},1\n", i % 5, i / 5);
    }
    input += "BEGIN\nEND\n";
    let (out, _, _) = session(&["--protocol", "gomocup", "--depth", "1"], &input);
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("ERROR BOARD: more lines than the 25 points"),
        "{out:?}"
    );
    assert_eq!(out.len(), 3, "{out:?}");
}
