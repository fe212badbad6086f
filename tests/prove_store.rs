//! The proof search's on-disk store (`cpbim prove --store`, issue 27): a stopped search resumes
//! without doing again what it had finished, a proven position is answered at once — also in
//! any of the board's symmetries, its proof mapped back and checked on the raw board — and a
//! failure is only reused under the limits it was searched with.

mod common;

use common::threats::check_threat_proof;
use common::{colour, Plain, Rules};
use cpbim::prove::{prove, Answer, Limits, Store, Verdict};
use cpbim::{Color, Cpbim, Game, Point, Position, Raw};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Game 3 of `data/connect6_games.csv`, black to move: proven with one threat.
const GAME3: &str = "j10 j11 k10 k11 i12 l12 l9 m8 l11 n11 n9 n10 o12 k8 j9 i6 k9 i10 h11 g12 l7 h12 g11 f11 h9 h13 g10 h14 i13 g15 i15";

/// Prove black's win in `pos` with the store at `path` opened afresh (as a new process would).
fn run(pos: &Position, path: &Path, limits: Limits) -> Answer {
    run_on::<Cpbim>(pos, path, limits)
}

/// [`run`] with the model `M` at the leaves.
fn run_on<M: cpbim::Model>(pos: &Position, path: &Path, limits: Limits) -> Answer {
    let store = Store::open(path).expect("the store opens");
    let limits = Limits {
        store: Some(Arc::new(Mutex::new(store))),
        ..limits
    };
    prove::<M>(pos, Color::Black, &limits, &AtomicBool::new(false))
}

/// The brute-force checker's verdict on `answer`'s proof of black's win in `pos`.
fn checked(pos: &Position, answer: &Answer) -> Result<u32, String> {
    let Verdict::Proven(proof) = &answer.verdict else {
        return Err(format!("not proven: {answer:?}"));
    };
    let board = Plain::from_position(Rules::of(pos.game()), pos);
    check_threat_proof(
        &board,
        colour(Color::Black),
        &serde_json::to_value(proof).unwrap(),
    )
}

#[test]
fn a_stopped_proof_resumes_and_a_proven_one_is_answered_at_once() {
    let pos = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    let fresh = prove::<Cpbim>(
        &pos,
        Color::Black,
        &Limits::default(),
        &AtomicBool::new(false),
    );
    assert_eq!(checked(&pos, &fresh), Ok(1));
    for stop_at in [30, 60, 90] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.redb");
        // Every position stored, however cheap (the default keeps only costly ones).
        let every = Limits {
            store_min_nodes: 0,
            ..Limits::default()
        };
        let limits = Limits {
            max_nodes: Some(stop_at),
            ..every.clone()
        };
        let stopped = run(&pos, &path, limits);
        assert_eq!(stopped.verdict, Verdict::Stopped);
        let resumed = run(&pos, &path, every.clone());
        assert_eq!(checked(&pos, &resumed), Ok(1));
        assert!(resumed.store_hits > 0);
        // Nothing finished before the stop is searched again: only the root's own leaf
        // search and the nodes under way when it stopped.
        assert!(
            stopped.leaf_searches + resumed.leaf_searches <= fresh.leaf_searches + 8,
            "stopped at {stop_at}: {} + {} leaf searches against {} in one run",
            stopped.leaf_searches,
            resumed.leaf_searches,
            fresh.leaf_searches
        );
        assert!(resumed.leaf_searches < fresh.leaf_searches);
        let again = run(&pos, &path, every.clone());
        assert_eq!((again.nodes, again.leaf_searches), (0, 0));
        assert_eq!(again.verdict, resumed.verdict);
    }
}

/// Only positions whose search took `store_min_nodes` nodes or more are stored (and the root):
/// a store of fewer entries, and a stopped search still resumes to a proof that holds. A Renju
/// position of tests/data/prove/renju-vct.txt whose proof takes about 2,000 nodes.
#[test]
fn a_store_of_costly_positions_only_is_smaller_and_still_resumes() {
    let stones = "H8 H9 K6 K11 L13 J7 H10 H7 G6 H12 J10 G5 H6 L11";
    let pos = cpbim::parse_position(stones, Game::RENJU).unwrap();
    let limits = Limits {
        threats: 4,
        ..Limits::default()
    };
    let entries = |min: u64| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.redb");
        let stopped = run_on::<Raw>(
            &pos,
            &path,
            Limits {
                store_min_nodes: min,
                max_nodes: Some(1_000),
                ..limits.clone()
            },
        );
        assert_eq!(stopped.verdict, Verdict::Stopped);
        let resumed = run_on::<Raw>(
            &pos,
            &path,
            Limits {
                store_min_nodes: min,
                ..limits.clone()
            },
        );
        assert_eq!(checked(&pos, &resumed), Ok(resumed.threats_reached()));
        Store::open(&path).unwrap().len()
    };
    let (every, costly) = (entries(0), entries(100));
    eprintln!("entries: every position {every}, those of 100 nodes or more {costly}");
    assert!(costly > 0 && costly * 4 < every, "{costly} against {every}");
}

/// A symmetry of the 19×19 board, on (column, row).
type Symmetry = fn(usize, usize) -> (usize, usize);

/// `stones` under a symmetry of the 19×19 board.
fn transformed(pos: &Position, f: impl Fn(usize, usize) -> (usize, usize)) -> Position {
    let stones: Vec<Point> = pos
        .stones()
        .iter()
        .map(|x| {
            let (c, r) = f(x.col(), x.row());
            Point::new(c, r).unwrap()
        })
        .collect();
    Position::from_stones(*pos.game(), &stones).unwrap()
}

#[test]
fn a_proof_serves_every_symmetric_position_and_holds_there() {
    let pos = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let first = run(&pos, &path, Limits::default());
    assert_eq!(checked(&pos, &first), Ok(1));
    let symmetries: [Symmetry; 7] = [
        |c, r| (18 - c, r),
        |c, r| (c, 18 - r),
        |c, r| (18 - c, 18 - r),
        |c, r| (r, c),
        |c, r| (18 - r, c),
        |c, r| (r, 18 - c),
        |c, r| (18 - r, 18 - c),
    ];
    for (i, f) in symmetries.into_iter().enumerate() {
        let image = transformed(&pos, f);
        let answer = run(&image, &path, Limits::default());
        assert_eq!(answer.nodes, 0, "symmetry {i}: searched, not answered");
        assert_eq!(answer.store_hits, 1);
        assert_eq!(checked(&image, &answer), Ok(1), "symmetry {i}");
    }
}

#[test]
fn a_failure_is_reused_only_under_the_limits_it_was_searched_with() {
    // Black wastes a move in game 3; white, to move, has no win the search proves.
    let pos = cpbim::parse_position(&format!("{GAME3} a1 a2"), Game::CONNECT6).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let white = |limits: Limits| {
        let store = Store::open(&path).unwrap();
        let limits = Limits {
            store: Some(Arc::new(Mutex::new(store))),
            ..limits
        };
        prove::<Cpbim>(&pos, Color::White, &limits, &AtomicBool::new(false))
    };
    let small = Limits {
        width: 4,
        leaf_depth: 8,
        ..Limits::default()
    };
    let first = white(small.clone());
    assert_eq!(first.verdict, Verdict::NotProven);
    assert!(first.leaf_searches > 1);
    // The same limits: the root's failure is in the store (only the root's leaf search runs).
    let again = white(small.clone());
    assert_eq!(again.verdict, Verdict::NotProven);
    assert_eq!(again.leaf_searches, 1);
    // A wider search is not answered by the narrower one's failure.
    let wider = white(Limits { width: 6, ..small });
    assert!(wider.leaf_searches > 1);
}

#[test]
fn the_cli_refuses_a_store_it_cannot_use() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::binary::cpbim(
        &["prove", GAME3, "--store", dir.path().to_str().unwrap()],
        b"",
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.contains("proof store"), "{}", out.stderr);
    let garbage = dir.path().join("not-a-store");
    std::fs::write(&garbage, "this is not a database\n".repeat(100)).unwrap();
    let out = common::binary::cpbim(
        &["prove", GAME3, "--store", garbage.to_str().unwrap()],
        b"",
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.contains("proof store"), "{}", out.stderr);
    // The file is left as it was.
    assert!(std::fs::read_to_string(&garbage)
        .unwrap()
        .starts_with("this is not"));
}

/// The proof-number search reads and writes the same store: its proof is found again at once,
/// and the depth-first search takes it from there too.
#[test]
fn the_proof_number_search_shares_the_store() {
    let pos = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let proof_number = Limits {
        search: cpbim::prove::Search::ProofNumber,
        ..Limits::default()
    };
    let first = run(&pos, &path, proof_number.clone());
    assert_eq!(checked(&pos, &first), Ok(1));
    assert!(first.nodes > 0);
    for limits in [proof_number, Limits::default()] {
        let again = run(&pos, &path, limits);
        assert_eq!((again.nodes, again.store_hits), (0, 1));
        assert_eq!(again.verdict, first.verdict);
    }
}
