//! Books of proven positions (`cpbim store book`, `cpbim prove --book`; issue 27): a book
//! written from a store finds every proof again without the store, each proof accepted by the
//! brute-force checker, at fewer nodes than the search without it; its text reads back as the
//! same book; and the commands refuse a book of another game and name a bad line.

mod common;

use common::threats::check_threat_proof;
use common::{colour, Plain, Rules};
use cpbim::prove::{prove, Answer, Book, Limits, Search, Store, Verdict};
use cpbim::{Game, Position};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Every 8th position of tests/data/prove/renju-vct.txt (Renju threat wins `solve` does not
/// find), with its side to move.
fn renju_positions() -> Vec<Position> {
    include_str!("data/prove/renju-vct.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(8)
        .map(|l| cpbim::parse_position(l, Game::RENJU).unwrap())
        .collect()
}

/// The brute-force checker's verdict on `answer`'s proof of the side to move's win in `pos`.
fn checked(pos: &Position, answer: &Answer) -> Result<u32, String> {
    let Verdict::Proven(proof) = &answer.verdict else {
        return Err(format!("not proven: {:?}", answer.verdict));
    };
    let board = Plain::from_position(Rules::of(pos.game()), pos);
    let proof = serde_json::to_value(proof).unwrap();
    check_threat_proof(&board, colour(pos.to_move()), &proof)
}

fn run(pos: &Position, limits: &Limits) -> Answer {
    prove::<cpbim::model::Cpbim5>(pos, pos.to_move(), limits, &AtomicBool::new(false))
}

#[test]
fn a_book_finds_every_proof_again_checked_and_cheaper() {
    let positions = renju_positions();
    assert_eq!(positions.len(), 34);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let store = Arc::new(Mutex::new(Store::open(&path).unwrap()));
    let limits = Limits {
        threats: 4,
        ..Limits::default()
    };
    // The searches without a book, each position's costly nodes kept in the store.
    let with_store = Limits {
        store: Some(store.clone()),
        store_min_nodes: 100,
        ..limits.clone()
    };
    let plain: Vec<Answer> = positions.iter().map(|p| run(p, &with_store)).collect();
    for (pos, answer) in positions.iter().zip(&plain) {
        assert!(checked(pos, answer).is_ok(), "{:?}", answer.verdict);
    }
    drop(with_store);
    let store = Arc::try_unwrap(store).unwrap().into_inner().unwrap();
    let book = Book::of_store(&store, Game::RENJU, &AtomicBool::new(false)).unwrap();
    // Every root is in the store (the root is kept whatever it cost), so in the book unless
    // its proof is the leaf search's alone.
    assert!(
        book.len() >= positions.len() / 2,
        "{} positions",
        book.len()
    );
    assert_eq!(Book::parse(&book.to_text()).unwrap(), book);
    // A signal (Ctrl-C sets the flag) ends the export before its first position: `store
    // book` then writes nothing and says so.
    assert!(Book::of_store(&store, Game::RENJU, &AtomicBool::new(true))
        .unwrap()
        .is_empty());
    assert!(
        Book::of_store(&store, Game::GOMOKU, &AtomicBool::new(false))
            .unwrap()
            .is_empty()
    );
    // Again, from the book alone: every proof found and accepted, at fewer nodes in all.
    let booked = Limits {
        book: Some(Arc::new(book)),
        ..limits
    };
    let (mut before, mut after, mut followed) = (0, 0, 0);
    for (pos, first) in positions.iter().zip(&plain) {
        let again = run(pos, &booked);
        assert!(checked(pos, &again).is_ok(), "{:?}", again.verdict);
        before += first.nodes;
        after += again.nodes;
        followed += again.book_moves;
    }
    eprintln!("nodes without the book {before}, with it {after}; {followed} book moves proved");
    assert!(followed >= positions.len() as u64 / 2, "{followed}");
    assert!(
        after * 2 < before,
        "{after} nodes with the book, {before} without"
    );
}

/// The Kagetsu run's book (data/books/, freestyle Gomoku): two of white's replies in the
/// centre proven again at the run's limits with the book's moves (about 1.5 s each), each proof
/// accepted by the brute-force checker (10–20 s each; F9 and F10 as well, 25 and 52 s, when
/// this was written) — a book of a game of five without Renju's rules, as the test above is of
/// Renju.
#[test]
fn the_kagetsu_book_proves_central_replies_checked() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/books/kagetsu-freestyle.txt");
    let book = Book::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(book.game(), Game::GOMOKU);
    let limits = Limits {
        threats: 11,
        quiet: 8,
        quiet_depth: 3,
        width: 16,
        threads: 1,
        book: Some(Arc::new(book)),
        ..Limits::default()
    };
    for reply in ["H7", "J9"] {
        let pos = cpbim::parse_position(&format!("H8 H9 I9 {reply}"), Game::GOMOKU).unwrap();
        let answer = run(&pos, &limits);
        let checked = checked(&pos, &answer);
        assert!(checked.is_ok(), "{reply}: {checked:?}");
        assert!(answer.book_moves > 0, "{reply}: no book move");
    }
}

#[test]
fn a_book_that_does_not_read_names_its_line() {
    let err = |text: &str| Book::parse(text).unwrap_err().to_string();
    assert!(err("").contains("game G"));
    assert!(err("# only a comment\n").contains("game G"));
    assert!(err("game tennis\n").starts_with("line 1:"));
    let game = "# a book\ngame renju\n";
    let line3 = |l: &str| err(&format!("{game}{l}\n"));
    for (line, says) in [
        ("black H8 H9 threat I9", "5 fields"),
        ("grey H8 H9 threat I9 1", "black` or `white"),
        ("black H8,H8 H9 threat I9 1", "twice"),
        ("black H8 H9 threat Z99 1", "Z99"),
        ("black H8 H9 swap I9 1", "`threat` or `quiet`"),
        ("black H8 H9 threat H8 1", "not empty"),
        ("black H8 H9 threat I9+I10 1", "1 to 1 stones"),
        ("black H8 H9 threat I9 many", "whole number"),
    ] {
        let e = line3(line);
        assert!(e.starts_with("line 3:") && e.contains(says), "{line}: {e}");
    }
    let book = Book::parse(&format!("{game}black H8 H9 quiet I9 2\n")).unwrap();
    assert_eq!((book.game(), book.len()), (Game::RENJU, 1));
}

/// The user's path: `prove --store`, `store book`, `prove --book` on another machine (no
/// store); a book of another game and a book that does not read are refused.
#[test]
fn the_book_commands_write_and_read_a_book() {
    let dir = tempfile::tempdir().unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let (store, book) = (dir.path().join("s.redb"), dir.path().join("book.txt"));
    let pos = "H8 H9 K6 K11 L13 J7 H10 H7 G6 H12 J10 G5 H6 L11";
    let prove_args = [
        "prove",
        pos,
        "--game",
        "renju",
        "--threats",
        "4",
        "--threads",
        "1",
    ];
    let mut args: Vec<String> = prove_args.iter().map(|a| a.to_string()).collect();
    args.extend([
        "--store".into(),
        s(&store),
        "--store-min-nodes".into(),
        "0".into(),
    ]);
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = common::binary::cpbim(
        &[
            "store",
            "book",
            &s(&store),
            "--game",
            "renju",
            "--out",
            &s(&book),
        ],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("positions of renju"), "{}", out.stdout);
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.lines().any(|l| l == "game renju"), "{text}");
    let mut args: Vec<String> = prove_args.iter().map(|a| a.to_string()).collect();
    args.extend(["--book".into(), s(&book)]);
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("proven: black wins"), "{}", out.stdout);
    assert!(out.stdout.contains("by the book's move"), "{}", out.stdout);
    // Another game: a usage error before any search.
    args[3] = "gomoku".into();
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("the book is of renju"),
        "{}",
        out.stderr
    );
    std::fs::write(&book, "game renju\nblack H8 H9 threat\n").unwrap();
    args[3] = "renju".into();
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("line 2:"), "{}", out.stderr);
}

/// A quiet move the book names is followed even where the search does not rank it among its
/// first `--quiet` candidates (an engine's move given as a hint need not be: I7's I5 and I6
/// after the engine's G8, 2026-12-07): black's quiet win in Renju proven with six quiet
/// candidates and with one, each from another first move; with one and a book line naming the
/// first move of the six's proof, the proof starts with the book's move, and is checked.
#[test]
fn a_quiet_book_move_below_the_candidates_is_followed() {
    let pos = cpbim::parse_position("h8 a1 i10 o1 k9 a15", Game::RENJU).unwrap();
    let limits = |quiet, book: Option<Book>| Limits {
        threats: 5,
        width: 12,
        quiet,
        search: Search::DepthFirst,
        book: book.map(Arc::new),
        ..Limits::default()
    };
    let first_quiet = |answer: &Answer| match &answer.verdict {
        Verdict::Proven(proof) => {
            let json = serde_json::to_value(proof).unwrap();
            json["quiet"][0].as_str().map(String::from)
        }
        _ => None,
    };
    let wide = run(&pos, &limits(6, None));
    let narrow = run(&pos, &limits(1, None));
    let (Some(m), Some(top)) = (first_quiet(&wide), first_quiet(&narrow)) else {
        panic!(
            "not proven by a quiet move: {:?} {:?}",
            wide.verdict, narrow.verdict
        );
    };
    assert_ne!(
        m, top,
        "the six candidates' proof starts with the first candidate"
    );
    let line = format!(
        "game renju\nblack H8,I10,K9 A1,O1,A15 quiet {m} {}\n",
        wide.threats
    );
    let booked = run(&pos, &limits(1, Some(Book::parse(&line).unwrap())));
    assert_eq!(first_quiet(&booked), Some(m.clone()), "{m} not followed");
    assert_eq!(booked.book_moves, 1);
    assert!(checked(&pos, &booked).is_ok(), "{:?}", booked.verdict);
}
