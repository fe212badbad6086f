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

#[test]
fn cloudict_as_connectmore_drives_it() {
    // The GUI's sequence: name, new black (the engine opens), then the opponent's moves.
    let (out, err, code) = session(
        &["--protocol", "cloudict", "--time", "0.2"],
        "name\nnew black\nmove KJKK\nmove LLLM\nbogus\nmove ZZZZ\nquit\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out[0], "name cpbim");
    assert_eq!(out[1], "move JJ");
    assert_eq!(out.len(), 4, "{out:?}");
    let mut board = Board::new(Game::CONNECT6);
    board.set(letters("JJ")[0], Some(Color::Black));
    for (theirs, mine) in [("KJKK", &out[2]), ("LLLM", &out[3])] {
        for p in letters(theirs) {
            board.set(p, Some(Color::White));
        }
        let mine = mine.strip_prefix("move ").expect("a move reply");
        assert_eq!(mine.len(), 4, "{mine}");
        for p in letters(mine) {
            assert!(board.is_empty(p), "{p} is taken");
            board.set(p, Some(Color::Black));
        }
    }
    assert!(
        err.contains("unknown command \"bogus\"") && err.contains("bad stone"),
        "{err}"
    );
    // Playing white: `new white` answers nothing; black's first stone gets two stones back.
    let (out, _, _) = session(
        &["--protocol", "cloudict", "--time", "0.2"],
        "new white\nmove JJ\nquit\n",
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("move ") && out[0].len() == 9, "{out:?}");
    // Set-up stones, then `next`: the engine plays the side that did not place last.
    let (out, _, _) = session(
        &["--protocol", "cloudict"],
        "new white\nblack JJ\nwhite KJKK\ndepth 1\nnext\nquit\n",
    );
    assert_eq!(out[0], "Set the search depth to 1.");
    assert!(out[1].starts_with("move ") && out[1].len() == 9, "{out:?}");
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
    assert!(out[4].starts_with("ERROR"), "occupied: {out:?}");
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
