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

/// A Renju position of tests/data/prove/renju-vct.txt, black to move, whose proof (4 threats
/// allowed) takes about 2,000 nodes.
const RENJU: &str = "H8 H9 K6 K11 L13 J7 H10 H7 G6 H12 J10 G5 H6 L11";

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
    let pos = cpbim::parse_position(RENJU, Game::RENJU).unwrap();
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

/// Black wastes a move in game 3: white, to move, has no win within `threats` at small limits.
/// Searched with the store at `path`.
fn white_fails(path: &Path, threats: u32) -> Answer {
    let pos = cpbim::parse_position(&format!("{GAME3} a1 a2"), Game::CONNECT6).unwrap();
    let limits = Limits {
        threats,
        width: 4,
        leaf_depth: 8,
        store: Some(Arc::new(Mutex::new(Store::open(path).unwrap()))),
        ..Limits::default()
    };
    prove::<Cpbim>(&pos, Color::White, &limits, &AtomicBool::new(false))
}

/// Stores searched apart, merged into one (`cpbim store merge`): the merged store answers what
/// each proved, its proofs accepted by the checker; of two failures of one position the larger
/// budget is kept, whatever the order; merging again takes nothing.
#[test]
fn merged_stores_answer_what_each_searched() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b, ab, ba] = ["a", "b", "ab", "ba"].map(|n| dir.path().join(format!("{n}.redb")));
    let connect6 = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    let renju = cpbim::parse_position(RENJU, Game::RENJU).unwrap();
    let four = Limits {
        threats: 4,
        ..Limits::default()
    };
    assert_eq!(
        checked(&connect6, &run(&connect6, &a, Limits::default())),
        Ok(1)
    );
    assert!(checked(&renju, &run_on::<Raw>(&renju, &b, four.clone())).is_ok());
    assert_eq!(white_fails(&a, 1).verdict, Verdict::NotProven);
    assert_eq!(white_fails(&b, 2).verdict, Verdict::NotProven);
    let held = |p: &Path| Store::open(p).unwrap().contents().unwrap();
    let (in_a, in_b) = (held(&a), held(&b));
    assert!(in_a.proven > 0 && in_b.proven > 0 && in_a.not_proven > 0 && in_b.not_proven > 0);
    let stop = AtomicBool::new(false);
    for (into, order) in [(&ab, [&a, &b]), (&ba, [&b, &a])] {
        let mut store = Store::open(into).unwrap();
        for source in order {
            let m = store.merge(source, &stop).unwrap();
            let from = held(source);
            assert!(m.complete);
            assert_eq!(m.proofs_added + m.proofs_known, from.proven);
            assert_eq!(m.failures_added + m.failures_known, from.not_proven);
            assert_eq!(m.other_format, 0);
        }
        // The two games' positions differ: every proof of each is in the merged store.
        assert_eq!(store.contents().unwrap().proven, in_a.proven + in_b.proven);
        for source in order {
            let again = store.merge(source, &stop).unwrap();
            assert_eq!((again.proofs_added, again.failures_added), (0, 0));
        }
        drop(store);
        let c6 = run(&connect6, into, Limits::default());
        assert_eq!((c6.nodes, c6.store_hits), (0, 1));
        assert_eq!(checked(&connect6, &c6), Ok(1));
        let r = run_on::<Raw>(&renju, into, four.clone());
        assert_eq!((r.nodes, r.store_hits), (0, 1));
        assert!(checked(&renju, &r).is_ok());
        // b's failure within 2 threats answers the root whichever store was merged first.
        let white = white_fails(into, 2);
        assert_eq!(
            (white.verdict, white.leaf_searches),
            (Verdict::NotProven, 1)
        );
    }
    // a alone knew the failure within 1 threat only: within 2 the root is searched.
    assert!(white_fails(&a, 2).leaf_searches > 1);
}

/// A merge reads only stores nobody is searching with, and refuses what is not a store.
#[test]
fn a_merge_refuses_a_store_in_use_and_a_file_that_is_not_one() {
    let dir = tempfile::tempdir().unwrap();
    let [busy, into] = ["busy", "into"].map(|n| dir.path().join(format!("{n}.redb")));
    let in_use = Store::open(&busy).unwrap();
    let mut store = Store::open(&into).unwrap();
    let stop = AtomicBool::new(false);
    let e = store.merge(&busy, &stop).unwrap_err().to_string();
    assert!(e.contains("in use"), "{e}");
    drop(in_use);
    assert!(store.merge(&busy, &stop).unwrap().complete);
    let garbage = dir.path().join("garbage");
    std::fs::write(&garbage, "this is not a database\n".repeat(100)).unwrap();
    let e = store.merge(&garbage, &stop).unwrap_err().to_string();
    assert!(e.contains("not a proof store"), "{e}");
}

/// `cpbim store info` and `cpbim store merge`: counts in text and JSON, a stopped-free merge
/// that the info then shows, and the usage errors.
#[test]
fn the_store_commands_count_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let [a, into] = ["a", "into"].map(|n| dir.path().join(format!("{n}.redb")));
    let connect6 = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    run(&connect6, &a, Limits::default());
    let held = Store::open(&a).unwrap().contents().unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let out = common::binary::cpbim(&["store", "info", &s(&a), "--json"], b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["proven"], held.proven);
    assert_eq!(v["not_proven"], held.not_proven);
    let out = common::binary::cpbim(
        &["store", "merge", &s(&a), "--into", &s(&into), "--json"],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["merged"][0]["proofs_added"], held.proven);
    assert_eq!(v["merged"][0]["complete"], true);
    assert_eq!(v["proven"], held.proven);
    let out = common::binary::cpbim(&["store", "info", &s(&into)], b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(&format!("{} proven", held.proven)),
        "{}",
        out.stdout
    );
    // The same file as source and target; a source that does not exist.
    let out = common::binary::cpbim(&["store", "merge", &s(&a), "--into", &s(&a)], b"", &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let missing = dir.path().join("missing.redb");
    let out = common::binary::cpbim(
        &["store", "merge", &s(&missing), "--into", &s(&into)],
        b"",
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("no such file"), "{}", out.stderr);
    assert!(!missing.exists());
}

/// A merge stopped (Ctrl-C) keeps what it took, committed; merging again takes the rest.
#[test]
fn a_stopped_merge_is_finished_by_merging_again() {
    let dir = tempfile::tempdir().unwrap();
    let [a, into] = ["a", "into"].map(|n| dir.path().join(format!("{n}.redb")));
    let connect6 = cpbim::parse_position(GAME3, Game::CONNECT6).unwrap();
    let every = Limits {
        store_min_nodes: 0,
        ..Limits::default()
    };
    run(&connect6, &a, every);
    let held = Store::open(&a).unwrap().contents().unwrap();
    assert!(held.proven > 1, "{held:?}");
    let stopped = Store::open(&into)
        .unwrap()
        .merge(&a, &AtomicBool::new(true))
        .unwrap();
    assert!(!stopped.complete);
    assert_eq!(stopped.proofs_added, 1);
    let mut store = Store::open(&into).unwrap();
    assert_eq!(store.contents().unwrap().proven, 1);
    let rest = store.merge(&a, &AtomicBool::new(false)).unwrap();
    assert!(rest.complete);
    assert_eq!((rest.proofs_added, rest.proofs_known), (held.proven - 1, 1));
    assert_eq!(store.contents().unwrap(), held);
}

/// `cpbim prove --side black --each-reply S --store PATH`: every white reply proven in a search
/// of its own, the root's proof (every reply listed) accepted by the checker and kept in the
/// store, so the same command again answers from it; the option's usage errors.
#[test]
fn each_reply_on_its_own_keeps_the_roots_proof() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.redb");
    // Black's double three; white to move.
    let stones = "H8 A1 J8 C1 I7 A3 I9 O15 I8";
    let args = [
        "prove",
        stones,
        "--game",
        "gomoku",
        "--side",
        "black",
        "--each-reply",
        "5",
        "--threads",
        "2",
        "--json",
        "--store",
        store.to_str().unwrap(),
    ];
    let out = common::binary::cpbim(&args, b"", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["result"], "proven");
    let replies = v["each_reply"].as_array().unwrap();
    // Every empty point of the 15×15 board but the nine stones.
    assert_eq!(replies.len(), 225 - 9);
    assert!(replies.iter().all(|r| r["result"] == "proven"));
    assert_eq!(v["proof"]["replies"].as_array().unwrap().len(), 225 - 9);
    let pos = cpbim::parse_position(stones, Game::GOMOKU).unwrap();
    let board = Plain::from_position(Rules::of(pos.game()), &pos);
    assert!(check_threat_proof(&board, colour(Color::Black), &v["proof"]).is_ok());
    let again = common::binary::cpbim(&args, b"", &[]);
    let w: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(
        (&w["result"], &w["nodes"], &w["store_hits"]),
        (&v["result"], &0.into(), &1.into())
    );
    assert_eq!(w["each_reply"], serde_json::json!([]));
    assert_eq!(w["proof"], v["proof"]);
    // `store replies`: every reply proven here; none after another position (a black stone
    // and a white one more, far away: no reply's board is one proven here).
    let replies = |stones: &str, side: &str| {
        let store = store.to_str().unwrap();
        let args = ["store", "replies", store, stones, "--game", "gomoku"];
        common::binary::cpbim(&[&args[..], &["--side", side, "--json"]].concat(), b"", &[])
    };
    let out = replies(stones, "black");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(r["replies"], 225 - 9);
    assert_eq!(r["proven"].as_array().unwrap().len(), 225 - 9);
    assert_eq!(r["open"], serde_json::json!([]));
    let out = replies(&format!("{stones} O1 O14"), "black");
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(r["replies"], 225 - 11);
    assert_eq!(r["proven"], serde_json::json!([]));
    assert_eq!(r["open"].as_array().unwrap().len(), 225 - 11);
    assert_eq!(replies(stones, "white").code, 2, "white is to move: usage");
    let store = store.to_str().unwrap();
    let connect6 = ["store", "replies", store, "j10 k10 k11", "--side", "white"];
    let out = common::binary::cpbim(&connect6, b"", &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("one stone a move"), "{}", out.stderr);
    // The side to move's own win, and Connect6: refused as usage.
    let to_move = [
        "prove",
        stones,
        "--game",
        "gomoku",
        "--side",
        "white",
        "--each-reply",
        "5",
    ];
    assert_eq!(common::binary::cpbim(&to_move, b"", &[]).code, 2);
    let connect6 = [
        "prove",
        "j10 k10 k11",
        "--side",
        "white",
        "--each-reply",
        "5",
    ];
    let out = common::binary::cpbim(&connect6, b"", &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("one stone a move"), "{}", out.stderr);
}

/// A proof deeper than serde_json's 128 levels (a VCF of 81 plies at the root, mintaka-deep-a
/// of the bundled problems) is kept and read back from the store whole: the same proof,
/// accepted by the checker.
#[test]
fn a_deep_proof_is_read_back_from_the_store() {
    let problems = cpbim::problems::parse_problems(cpbim::problems::BUILT_IN_VCF).unwrap();
    let deep = problems.iter().find(|p| p.id == "mintaka-deep-a").unwrap();
    let pos = deep.position(Game::RENJU).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let limits = || Limits {
        root_depth: 200,
        threads: 1,
        ..Limits::default()
    };
    let first = run_on::<cpbim::model::Cpbim5>(&pos, &path, limits());
    let again = run_on::<cpbim::model::Cpbim5>(&pos, &path, limits());
    assert_eq!((again.nodes, again.store_hits), (0, 1));
    assert!(again.store_error.is_none(), "{:?}", again.store_error);
    let (Verdict::Proven(a), Verdict::Proven(b)) = (&first.verdict, &again.verdict) else {
        panic!("{:?} then {:?}", first.verdict.name(), again.verdict.name());
    };
    assert_eq!(a, b);
    let depth = |v: &serde_json::Value| -> usize {
        fn d(v: &serde_json::Value) -> usize {
            match v {
                serde_json::Value::Object(m) => 1 + m.values().map(d).max().unwrap_or(0),
                serde_json::Value::Array(a) => 1 + a.iter().map(d).max().unwrap_or(0),
                _ => 0,
            }
        }
        d(v)
    };
    let json = serde_json::to_string(b).unwrap();
    let mut reader = serde_json::Deserializer::from_str(&json);
    reader.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut reader).unwrap();
    assert!(depth(&value) > 128, "{}", depth(&value));
    assert!(checked(&pos, &again).is_ok());
}

/// The proofs' table as `cpbim prove` writes it (docs/design/prove.md, "Store"): canonical key →
/// the proof's JSON, zstd-compressed since step 21, plain before.
const PROVEN: redb::TableDefinition<&[u8], &[u8]> = redb::TableDefinition::new("proven");

/// Every entry of the proofs' table of the store at `path`.
fn stored_proofs(path: &Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    use redb::ReadableTable;
    let db = redb::Database::open(path).unwrap();
    let tx = db.begin_read().unwrap();
    let table = tx.open_table(PROVEN).unwrap();
    let entries = table.iter().unwrap();
    entries
        .map(|e| {
            let (k, v) = e.unwrap();
            (k.value().to_vec(), v.value().to_vec())
        })
        .collect()
}

/// Proofs are stored compressed; a store of plain JSON proofs (as written before) is still
/// read, and a merge of it into another compresses them.
#[test]
fn proofs_are_stored_compressed_and_plain_ones_still_read() {
    const ZSTD: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
    let pos = cpbim::parse_position(RENJU, Game::RENJU).unwrap();
    let limits = || Limits {
        threats: 4,
        ..Limits::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let [new, old, merged] = ["new", "old", "merged"].map(|n| dir.path().join(format!("{n}.redb")));
    assert!(checked(&pos, &run_on::<Raw>(&pos, &new, limits())).is_ok());
    let packed = stored_proofs(&new);
    assert!(!packed.is_empty());
    let plain: Vec<(Vec<u8>, Vec<u8>)> = packed
        .iter()
        .map(|(k, v)| {
            assert!(v.starts_with(&ZSTD), "a proof not compressed");
            let json = zstd::decode_all(v.as_slice()).unwrap();
            assert!(serde_json::from_slice::<serde_json::Value>(&json).is_ok());
            (k.clone(), json)
        })
        .collect();
    let size = |e: &[(Vec<u8>, Vec<u8>)]| e.iter().map(|(_, v)| v.len()).sum::<usize>();
    eprintln!(
        "proofs: {} bytes of JSON, {} compressed",
        size(&plain),
        size(&packed)
    );
    assert!(size(&packed) * 3 < size(&plain));
    // A store as written before: the same proofs, in plain JSON, and no failures.
    let db = redb::Database::create(&old).unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut table = tx.open_table(PROVEN).unwrap();
        for (k, v) in &plain {
            table.insert(k.as_slice(), v.as_slice()).unwrap();
        }
        let failed = redb::TableDefinition::<&[u8], u64>::new("failed");
        tx.open_table(failed).unwrap();
    }
    tx.commit().unwrap();
    drop(db);
    let again = run_on::<Raw>(&pos, &old, limits());
    assert_eq!((again.nodes, again.store_hits), (0, 1));
    assert!(checked(&pos, &again).is_ok());
    let mut store = Store::open(&merged).unwrap();
    let m = store.merge(&old, &AtomicBool::new(false)).unwrap();
    assert_eq!(m.proofs_added, plain.len() as u64);
    drop(store);
    assert_eq!(stored_proofs(&merged), packed);
}
