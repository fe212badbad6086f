//! The threat-space proof search (`cpbim::prove`, issue 27): its proofs hold on the raw board
//! against every defence (the brute-force checker of `tests/common/threats.rs`, which trusts no
//! zone), cutting the defences to the relevance zone loses no proof that answering every
//! defence finds, depth-first and proof-number search prove the same positions, and it proves
//! wins that need a threat before the leaf search's win.

mod common;

use common::json::Compact;
use common::threats::check_threat_proof;
use common::{colour, random_position, Plain, Rules};
use cpbim::prove::each_reply::prove_each_reply;
use cpbim::prove::{prove, Answer, Effort, Limits, Search, Store, ThreatProof, Verdict};
use cpbim::search::{solve, Config, Outcome};
use cpbim::{Color, Game, Raw};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// What one game's comparison saw.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    leaf_wins: usize,
    threat_proofs: usize,
    defender_roots: usize,
    full_width_proofs: usize,
    zone_nodes: u64,
    proof_number_nodes: u64,
    full_width_nodes: u64,
    refutations: usize,
}

/// The refutation `answer` reports for `a`'s win in `pos` (within `l`) holds: there is one
/// exactly when the search ended "not proven" with `a` not to move, it is a legal move of the
/// side to move, and after it `a`'s win is not proven within the same limits (or the move
/// completes a row). 1 when there was one to check.
fn check_refutation(pos: &cpbim::Position, a: Color, l: &Limits, answer: &Answer) -> usize {
    let expected = answer.verdict == Verdict::NotProven && pos.to_move() != a;
    let Some(stones) = &answer.refutation else {
        assert!(
            !expected,
            "{pos:?}: {a:?}'s win not proven, no refutation ({:?}, {} threads)",
            l.search, l.threads
        );
        return 0;
    };
    assert!(
        expected,
        "{pos:?}: a refutation {stones:?} of {:?}",
        answer.verdict
    );
    let d = pos.to_move();
    let mut board = pos.board().clone();
    for (i, &x) in stones.iter().enumerate() {
        assert!(
            board.is_empty(x),
            "{pos:?}: refutation {stones:?} on a stone"
        );
        board.set(x, Some(d));
        if board.win_through(x, d).is_some() {
            assert_eq!(
                i + 1,
                stones.len(),
                "{pos:?}: {stones:?} goes on after a row"
            );
            return 1;
        }
    }
    assert_eq!(stones.len(), pos.stones_to_place(), "{pos:?}: {stones:?}");
    let after = pos.play(stones).expect("a legal move");
    let never = AtomicBool::new(false);
    let again = prove::<Raw>(&after, a, l, &never);
    assert_eq!(
        again.verdict,
        Verdict::NotProven,
        "{pos:?}: after the refutation {stones:?}, {a:?}'s win is proven within the same limits"
    );
    1
}

/// Prove random positions of `game` with zones and full width; check every proof.
fn compare(
    game: Game,
    seeds: std::ops::Range<u64>,
    stones: usize,
    limits: &Limits,
    defender_roots: bool,
) -> Seen {
    let never = AtomicBool::new(false);
    let full_width = Limits {
        zone: false,
        search: Search::DepthFirst,
        ..limits.clone()
    };
    let proof_number = Limits {
        search: Search::ProofNumber,
        ..limits.clone()
    };
    let threaded = Limits {
        threads: 2,
        ..limits.clone()
    };
    let mut seen = Seen::default();
    for seed in seeds {
        let Some(pos) = random_position(game, seed, stones) else {
            continue;
        };
        if pos.stones_to_place() != game.p() {
            continue;
        }
        seen.positions += 1;
        for a in [pos.to_move(), pos.to_move().opponent()] {
            // The defender to move at the root: answered in full width, only on small games.
            if a != pos.to_move() && !defender_roots {
                continue;
            }
            let zoned = prove::<Raw>(&pos, a, limits, &never);
            let proof_numbers = prove::<Raw>(&pos, a, &proof_number, &never);
            let full = prove::<Raw>(&pos, a, &full_width, &never);
            let on_two = prove::<Raw>(&pos, a, &threaded, &never);
            for (answer, l) in [
                (&zoned, limits),
                (&proof_numbers, &proof_number),
                (&on_two, &threaded),
            ] {
                seen.refutations += check_refutation(&pos, a, l, answer);
            }
            seen.zone_nodes += zoned.nodes;
            seen.proof_number_nodes += proof_numbers.nodes;
            seen.full_width_nodes += full.nodes;
            assert_eq!(
                zoned.verdict.is_proven(),
                proof_numbers.verdict.is_proven(),
                "{game} {pos:?}: {a:?}'s win by proof numbers and depth-first disagree"
            );
            assert_eq!(
                zoned.verdict.is_proven(),
                on_two.verdict.is_proven(),
                "{game} {pos:?}: {a:?}'s win on one thread and on two disagree"
            );
            if let Verdict::Proven(proof) = &on_two.verdict {
                assert_proof_holds(&pos, a, proof, &format!("{game} {pos:?}, two threads"));
            }
            if let Verdict::Proven(proof) = &full.verdict {
                seen.full_width_proofs += usize::from(proof.threats() > 0);
                assert!(
                    zoned.verdict.is_proven(),
                    "{game} {pos:?}: full width proves {a:?}'s win, the zone search does not"
                );
            }
            let (Verdict::Proven(proof), Verdict::Proven(other)) =
                (zoned.verdict, proof_numbers.verdict)
            else {
                continue;
            };
            for proof in [&proof, &other] {
                assert_proof_holds(&pos, a, proof, &format!("{game} {pos:?}"));
            }
            match proof {
                ThreatProof::Leaf { .. } => seen.leaf_wins += 1,
                ThreatProof::Threat { .. } | ThreatProof::Quiet { .. } => seen.threat_proofs += 1,
                ThreatProof::Defence { .. } => seen.defender_roots += 1,
            }
        }
    }
    seen
}

#[test]
fn threat_proofs_hold_against_every_defence_and_zones_lose_none() {
    for (name, stones, threats, seeds, defender_roots) in [
        ("connect(8,8,4,1,1)", 7, 2, 0..200, true),
        ("connect(9,9,5,1,1)", 9, 2, 0..300, true),
        ("connect(9,9,5,2,1)", 5, 1, 0..40, false),
        ("connect(9,9,6,2,1)", 9, 1, 0..40, false),
        // Renju: black's forbidden points in the zone (item 4 of docs/search.md).
        ("renju", 16, 1, 0..240, false),
    ] {
        let game: Game = name.parse().unwrap();
        let limits = Limits {
            threats,
            root_depth: 8,
            leaf_depth: 8,
            width: 12,
            ..Limits::default()
        };
        let seen = compare(game, seeds, stones, &limits, defender_roots);
        eprintln!("{name}: {seen:?}");
        assert!(
            seen.threat_proofs >= 2,
            "{name}: only {} proofs needed a threat",
            seen.threat_proofs
        );
        assert!(
            !defender_roots || seen.defender_roots >= 2,
            "{name}: only {} proofs with the defender to move",
            seen.defender_roots
        );
        assert!(
            !defender_roots || seen.refutations >= 10,
            "{name}: only {} refutations checked",
            seen.refutations
        );
    }
}

/// `a`'s win in `stones` of `game` with the default limits: the position and the proof, if
/// one is found.
fn prove_on(stones: &str, game: Game, a: Color) -> (cpbim::Position, Option<ThreatProof>) {
    let pos = cpbim::parse_position(stones, game).unwrap();
    let never = AtomicBool::new(false);
    match prove::<Raw>(&pos, a, &Limits::default(), &never).verdict {
        Verdict::Proven(proof) => (pos, Some(proof)),
        _ => (pos, None),
    }
}

/// The brute-force checker's verdict on `proof` (as JSON) of `a`'s win in `pos`; the same
/// read from the compact tree a proof file is checked from (`tests/prove_check.rs`).
fn check(pos: &cpbim::Position, a: Color, proof: &serde_json::Value) -> Result<u32, String> {
    let board = Plain::from_position(Rules::of(pos.game()), pos);
    let checked = check_threat_proof(&board, colour(a), proof);
    let compact: Compact = serde_json::from_value(proof.clone()).unwrap();
    assert_eq!(check_threat_proof(&board, colour(a), &compact), checked);
    checked
}

/// The brute-force checker accepts `proof` of `a`'s win in `pos`, and counts the threats the
/// proof says it has; otherwise a panic naming `what`.
fn assert_proof_holds(pos: &cpbim::Position, a: Color, proof: &ThreatProof, what: &str) {
    let json = serde_json::to_value(proof).unwrap();
    match check(pos, a, &json) {
        Ok(threats) => assert_eq!(threats, proof.threats(), "{what}: the threats counted"),
        Err(e) => panic!("{what} ({a:?}): the proof does not hold: {e}\n{json}"),
    }
}

/// Freestyle Gomoku: black makes two open threes with one stone; no four is on the board, so
/// the leaf search (fours only) finds nothing, and the proof search wins with that threat.
#[test]
fn a_double_three_is_proven_where_no_vcf_exists() {
    let stones = "H8 A1 J8 C1 I7 A3 I9 O15";
    let (pos, proof) = prove_on(stones, Game::GOMOKU, Color::Black);
    assert_eq!(pos.to_move(), Color::Black);
    let solved = solve::<Raw>(
        &pos,
        &Config {
            depth: 30,
            ..Config::default()
        },
    );
    assert_ne!(solved.outcome, Outcome::Win, "{solved:?}");
    let proof = proof.expect("proven");
    assert_eq!(proof.threats(), 1);
    assert_eq!(
        check(&pos, Color::Black, &serde_json::to_value(&proof).unwrap()),
        Ok(1)
    );
}

/// The same shape in Renju: the double three is forbidden to black, so no proof may play it;
/// whatever is proven is checked (black never on a forbidden point, every white reply tried).
#[test]
fn renju_proofs_never_play_a_forbidden_point() {
    let (pos, proof) = prove_on("H8 A1 J8 C1 I7 A3 I9 O15", Game::RENJU, Color::Black);
    let double_three = Game::RENJU.parse_point("I8").unwrap();
    assert!(cpbim::renju::is_forbidden(pos.board(), double_three));
    if let Some(proof) = proof {
        check(&pos, Color::Black, &serde_json::to_value(&proof).unwrap()).unwrap();
    }
}

/// The checker is not a rubber stamp: a proof whose replies are dropped, or whose threat is
/// moved, is refused.
#[test]
fn the_checker_refuses_a_proof_with_an_answer_missing() {
    let (pos, proof) = prove_on("H8 A1 J8 C1 I7 A3 I9 O15", Game::GOMOKU, Color::Black);
    let json = serde_json::to_value(proof.expect("proven")).unwrap();
    let mut broken = json.clone();
    broken["replies"] = serde_json::json!([]);
    assert!(check(&pos, Color::Black, &broken).is_err());
    let mut broken = json;
    broken["threat"] = serde_json::json!(["H10"]);
    assert!(check(&pos, Color::Black, &broken).is_err());
}

/// A real Connect6 game (game 3 of `data/connect6_games.csv`), black to move after 31 stones:
/// `solve` finds no double-threat win, `cpbim prove` proves black's with one threat, and its
/// proof file holds against every one of white's 44,000-odd two-stone replies.
#[test]
fn the_cli_proves_a_real_connect6_win_that_solve_does_not_see() {
    let stones = "j10 j11 k10 k11 i12 l12 l9 m8 l11 n11 n9 n10 o12 k8 j9 i6 k9 i10 h11 g12 l7 h12 g11 f11 h9 h13 g10 h14 i13 g15 i15";
    let solved = common::binary::cpbim(&["solve", stones], b"", &[]);
    assert!(solved.stdout.starts_with("none"), "{}", solved.stdout);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("proof.json");
    let out = common::binary::cpbim(
        &["prove", stones, "--json", "--proof", file.to_str().unwrap()],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(answer["result"], "proven");
    assert_eq!(answer["threats"], 1);
    let proof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(proof, answer["proof"]);
    assert_eq!(answer["proof_size"], attacker_moves(&proof));
    let pos = cpbim::parse_position(stones, Game::CONNECT6).unwrap();
    assert_eq!(check(&pos, Color::Black, &proof), Ok(1));
}

/// The attacker's moves in a proof's JSON (docs/json.md, `proof_size`): every threat, quiet
/// move, leaf attack and completed row, through every pass, reply and defence.
fn attacker_moves(node: &serde_json::Value) -> u64 {
    let own = ["six", "attack", "threat", "quiet"]
        .iter()
        .any(|k| node.get(k).is_some()) as u64;
    let inner = ["leaf", "pass", "next"]
        .iter()
        .filter_map(|k| node.get(k))
        .map(attacker_moves)
        .sum::<u64>();
    let listed = ["defenses", "replies"]
        .iter()
        .filter_map(|k| node.get(k)?.as_array())
        .flatten()
        .map(attacker_moves)
        .sum::<u64>();
    own + inner + listed
}

#[test]
fn the_cli_refuses_what_it_cannot_prove_and_says_what_it_did_not() {
    let run = |args: &[&str]| common::binary::cpbim(args, b"", &[]);
    // Connect6's first move is one stone.
    let out = run(&["prove", "j10 k11 k10", "--threats", "0"]);
    assert!(
        out.stdout.starts_with("not proven within the limits"),
        "{}",
        out.stdout
    );
    let out = run(&["prove", ""]);
    assert_eq!(out.code, 1);
    let out = run(&["prove", "j10", "--threats", "99"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--threats 99: at most"),
        "{}",
        out.stderr
    );
    let out = run(&["prove", "j10", "--width", "0"]);
    assert!(out.stderr.contains("--width"), "{}", out.stderr);
    let out = run(&["prove", "j10", "--leaf-depth", "7"]);
    assert!(out.stderr.contains("--leaf-depth"), "{}", out.stderr);
    let out = run(&[
        "prove",
        "--game",
        "gomoku",
        "H8 A1 J8 C1 I7 A3 I9 O15 I8",
        "--side",
        "black",
    ]);
    assert!(
        out.stdout.starts_with("proven: black wins"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("white to move: every move answered"),
        "{}",
        out.stdout
    );
    // Not proven with white to move: the white move not answered is named.
    let opening = ["prove", "H8 H9 J9", "--game", "gomoku", "--side", "black"];
    let out = run(&opening);
    assert!(out.stdout.starts_with("not proven"), "{}", out.stdout);
    assert!(
        out.stdout.contains("white's ") && out.stdout.contains(" is not answered within them"),
        "{}",
        out.stdout
    );
    let out = run(&[&opening[..], &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        json["refutation"].as_array().map(Vec::len),
        Some(1),
        "{json}"
    );
    // An opening of the games of five by name: the same search as of its three stones.
    let searched = |position: &str| {
        let args = [
            "--game",
            "gomoku",
            "--side",
            "black",
            "--threats",
            "1",
            "--threads",
            "1",
        ];
        let out = run(&[&["prove", position, "--json"][..], &args[..]].concat());
        let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let fields = ["result", "to_move", "nodes", "leaf_searches", "refutation"];
        fields.map(|f| json[f].clone())
    };
    assert_eq!(searched("Kagetsu"), searched("H8 H9 I9"));
    assert_eq!(searched("花月"), searched("H8 H9 I9"));
    assert_ne!(searched("Kagetsu"), searched("H8 H9 J9"));
    let out = run(&["prove", "j10 k11 k10 l11 l10", "--nodes", "5"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("stopped"), "{}", out.stdout);
}

/// After black's double three, white is to move: black's win is proven over every white move
/// (those outside the zone of black's win were white to pass answered by that win), and the
/// checker plays all of them.
#[test]
fn a_win_of_the_side_not_to_move_answers_every_move() {
    let stones = "H8 A1 J8 C1 I7 A3 I9 O15 I8";
    let (pos, proof) = prove_on(stones, Game::GOMOKU, Color::Black);
    assert_eq!(pos.to_move(), Color::White);
    let proof = proof.expect("proven");
    assert!(
        matches!(proof, ThreatProof::Defence { pass: Some(_), .. }),
        "{proof:?}"
    );
    let json = serde_json::to_value(&proof).unwrap();
    assert_eq!(check(&pos, Color::Black, &json), Ok(0));
    // White's win is not there to prove.
    assert_eq!(prove_on(stones, Game::GOMOKU, Color::White).1, None);
    // Without its pass proof the defence lists too little.
    let mut broken = json;
    broken["pass"] = serde_json::Value::Null;
    assert!(check(&pos, Color::Black, &broken).is_err());
}

/// Ctrl-C (or SIGTERM) stops a long proof search at once: it says `stopped`, writes no proof
/// file, and exits 130 (143).
#[cfg(unix)]
#[test]
fn a_signal_stops_a_proof_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("proof.json");
    // A real position (the first of tests/data/prove/horizon.txt) where the search runs on
    // for longer than 5 s.
    let stones = "j10 k10 j9 l11 k8 l9 j11";
    let args = [
        "prove",
        stones,
        "--threats",
        "4",
        "--proof",
        file.to_str().unwrap(),
    ];
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let (out, took) =
            common::binary::signalled(&args, std::time::Duration::from_millis(800), signal);
        assert_eq!(out.code, code, "{}", out.stderr);
        assert!(out.stdout.starts_with("stopped"), "{}", out.stdout);
        assert!(
            took < std::time::Duration::from_secs(2),
            "ended {took:?} after the signal"
        );
        assert!(!file.exists());
    }
}

/// `analyze --prove` asks the proof search at every boundary where the double-threat search
/// finds no win for the side to move, and says which it settles: the last boundary of game 3.
#[test]
fn analyze_marks_the_boundaries_that_prove_settles() {
    let stones = "j10 j11 k10 k11 i12 l12 l9 m8 l11 n11 n9 n10 o12 k8 j9 i6 k9 i10 h11 g12 l7 h12 g11 f11 h9 h13 g10 h14 i13 g15 i15";
    let out = common::binary::cpbim(
        &[
            "analyze",
            stones,
            "--prove",
            "--prove-time",
            "0.5",
            "--json",
        ],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let boundaries: Vec<serde_json::Value> = out
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(boundaries.len(), 16);
    for b in &boundaries {
        // Asked exactly where the side to move's own search found no win.
        assert_eq!(b.get("prove").is_some(), b["win"]["result"] != "win", "{b}");
    }
    let last = boundaries.last().unwrap();
    assert_eq!(last["win"]["result"], "none");
    assert_eq!(last["prove"]["result"], "proven");
    assert_eq!(last["prove"]["threats"], 1);
    let out = common::binary::cpbim(&["analyze", stones, "--prove", "--prove-time=-1"], b"", &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--prove-time"), "{}", out.stderr);
}

/// Renju threat wins (tests/data/prove/renju-vct.txt, where `solve` finds no win): every
/// 16th position and the one quintet's VCT does not find at its leaf depth 3 (line 218) are
/// proven by the CPBIM of the games of five, and each proof holds on the raw board against
/// every white and black reply the rules allow.
#[test]
fn renju_threat_wins_are_proven_and_checked() {
    let text = include_str!("data/prove/renju-vct.txt");
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert_eq!(lines.len(), 265);
    let never = AtomicBool::new(false);
    let mut threats = 0;
    for (i, line) in lines.iter().filter(|(i, _)| i % 16 == 0 || *i == 217) {
        let pos = cpbim::parse_position(line, Game::RENJU).unwrap();
        let a = pos.to_move();
        let answer = prove::<cpbim::model::Cpbim5>(&pos, a, &Limits::default(), &never);
        let Verdict::Proven(proof) = answer.verdict else {
            panic!("line {}: not proven: {:?}", i + 1, answer.verdict);
        };
        threats += usize::from(proof.threats() > 0);
        let json = serde_json::to_value(&proof).unwrap();
        if let Err(e) = check(&pos, a, &json) {
            panic!("line {}: the proof does not hold: {e}\n{json}", i + 1);
        }
    }
    assert!(threats >= 10, "only {threats} proofs needed a threat");
}

/// What the quiet moves' comparison saw.
#[derive(Default, Debug)]
struct QuietSeen {
    positions: usize,
    proven_without: usize,
    proven_with: usize,
    quiet_proofs: usize,
    nested_proofs: usize,
    nested_quiet: usize,
    full_width_proofs: usize,
    zone_nodes: u64,
    full_width_nodes: u64,
    proof_number_quiet: usize,
    proof_number_nodes: u64,
}

/// Does `proof` play a quiet move anywhere?
fn has_quiet(proof: &ThreatProof) -> bool {
    let json = serde_json::to_string(proof).unwrap();
    json.contains("\"quiet\"")
}

/// Does `proof` play a quiet move inside a quiet move's pass proof?
fn has_nested_quiet(proof: &ThreatProof) -> bool {
    use cpbim::prove::Reply;
    fn reply(r: &Reply) -> bool {
        matches!(r, Reply::Move { next, .. } if has_nested_quiet(next))
    }
    match proof {
        ThreatProof::Quiet { pass, replies, .. } => has_quiet(pass) || replies.iter().any(reply),
        ThreatProof::Threat { replies, .. } | ThreatProof::Defence { replies, .. } => {
            replies.iter().any(reply)
        }
        ThreatProof::Leaf { .. } => false,
    }
}

/// A position of `game` (one stone a move) of `stones` stones: black's within two points of
/// the centre and white's anywhere, none of them a row; `None` otherwise.
fn lopsided(game: Game, seed: u64, stones: usize) -> Option<cpbim::Position> {
    let mut rng = common::mutate::Rng(seed);
    let mut board = cpbim::Board::new(game);
    let mut text = Vec::new();
    for i in 0..stones {
        let c = game.color_of_stone(i);
        let free: Vec<cpbim::Point> = game
            .points()
            .filter(|&p| board.is_empty(p))
            .filter(|&p| c == Color::White || p.distance(game.center()) <= 2)
            .collect();
        let p = free[rng.below(free.len())];
        board.set(p, Some(c));
        if board.win_through(p, c).is_some() {
            return None;
        }
        text.push(p.to_string());
    }
    cpbim::parse_position(&text.join(" "), game).ok()
}

/// The positions [`lopsided`] makes of `seeds`, each with its seed.
fn lopsided_positions(
    game: Game,
    seeds: std::ops::Range<u64>,
    stones: usize,
) -> impl Iterator<Item = (u64, cpbim::Position)> {
    seeds.filter_map(move |seed| lopsided(game, seed, stones).map(|pos| (seed, pos)))
}

/// Limits for connect(9,9,5,1,1): `threats` threats, 8-ply searches, 12 threat moves a node.
fn small_board_limits(threats: u32) -> Limits {
    Limits {
        threats,
        root_depth: 8,
        leaf_depth: 8,
        width: 12,
        ..Limits::default()
    }
}

#[test]
fn quiet_moves_prove_more_and_their_zones_lose_nothing() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(9,9,5,1,1)".parse().unwrap();
    let without = small_board_limits(3);
    let with = Limits {
        quiet: 6,
        ..without.clone()
    };
    let full_width = Limits {
        zone: false,
        ..with.clone()
    };
    let nested = Limits {
        quiet_depth: 2,
        ..with.clone()
    };
    let threaded = Limits {
        threads: 2,
        ..with.clone()
    };
    let proof_number = Limits {
        search: Search::ProofNumber,
        ..with.clone()
    };
    let mut seen = QuietSeen::default();
    for (_, pos) in lopsided_positions(game, 0..60, 6) {
        seen.positions += 1;
        let a = pos.to_move();
        let plain = prove::<Raw>(&pos, a, &without, &never);
        let zoned = prove::<Raw>(&pos, a, &with, &never);
        let deeper = prove::<Raw>(&pos, a, &nested, &never);
        let full = prove::<Raw>(&pos, a, &full_width, &never);
        let on_two = prove::<Raw>(&pos, a, &threaded, &never);
        let proof_numbers = prove::<Raw>(&pos, a, &proof_number, &never);
        assert_eq!(
            zoned.verdict.is_proven(),
            on_two.verdict.is_proven(),
            "{pos:?}: quiet moves on one thread and on two disagree"
        );
        assert_eq!(
            zoned.verdict.is_proven(),
            proof_numbers.verdict.is_proven(),
            "{pos:?}: quiet moves depth-first and by proof numbers disagree"
        );
        seen.proof_number_nodes += proof_numbers.nodes;
        seen.proof_number_quiet +=
            matches!(&proof_numbers.verdict, Verdict::Proven(p) if has_quiet(p)) as usize;
        seen.zone_nodes += zoned.nodes;
        seen.full_width_nodes += full.nodes;
        seen.proven_without += usize::from(plain.verdict.is_proven());
        seen.full_width_proofs += usize::from(full.verdict.is_proven());
        assert!(
            !full.verdict.is_proven() || zoned.verdict.is_proven(),
            "{pos:?}: full width proves {a:?}'s win with quiet moves, the zone search does not"
        );
        assert!(
            !plain.verdict.is_proven() || zoned.verdict.is_proven(),
            "{pos:?}: proven without quiet moves, not with them"
        );
        assert!(
            !zoned.verdict.is_proven() || deeper.verdict.is_proven(),
            "{pos:?}: proven with quiet moves, not with nested ones"
        );
        if let Verdict::Proven(proof) = &deeper.verdict {
            seen.nested_proofs += 1;
            seen.nested_quiet += usize::from(has_nested_quiet(proof));
        }
        for answer in [&zoned, &deeper, &full, &on_two, &proof_numbers] {
            let Verdict::Proven(proof) = &answer.verdict else {
                continue;
            };
            assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
        }
        if let Verdict::Proven(proof) = &zoned.verdict {
            seen.proven_with += 1;
            seen.quiet_proofs += usize::from(has_quiet(proof));
        }
    }
    eprintln!("{game}: {seen:?}");
    assert!(
        seen.quiet_proofs >= 2 && seen.proven_with > seen.proven_without,
        "quiet moves proved too little: {seen:?}"
    );
    assert!(
        seen.proof_number_quiet >= 2,
        "no quiet move in the proof-number search's proofs: {seen:?}"
    );
}

/// A root where the defender is to move (`--side`): with quiet moves, the attacker's win were
/// the defender to pass may be a threat-space proof, and then only the defences inside its zone
/// are searched. White to move after black's fifth stone on 9×9: the zone search proves every
/// position that full width does, and the proofs hold.
#[test]
fn a_defender_roots_threat_space_pass_limits_its_moves() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(9,9,5,1,1)".parse().unwrap();
    let without = small_board_limits(3);
    // The root's pass is a quiet move's pass (the opening's last stone was the quiet move):
    // quiet moves inside it need a second level.
    let with = Limits {
        quiet: 6,
        quiet_depth: 2,
        ..without.clone()
    };
    let full_width = Limits {
        zone: false,
        ..with.clone()
    };
    let proof_number = Limits {
        search: Search::ProofNumber,
        ..with.clone()
    };
    let (mut positions, mut proven_without, mut proven_with, mut threat_passes, mut full_proofs) =
        (0, 0, 0, 0, 0);
    let mut proof_number_passes = 0;
    let (mut zone_nodes, mut full_nodes) = (0, 0);
    for (_, pos) in lopsided_positions(game, 0..40, 9) {
        positions += 1;
        assert_eq!(pos.to_move(), Color::White);
        let a = Color::Black;
        let plain = prove::<Raw>(&pos, a, &without, &never);
        let zoned = prove::<Raw>(&pos, a, &with, &never);
        let full = prove::<Raw>(&pos, a, &full_width, &never);
        let proof_numbers = prove::<Raw>(&pos, a, &proof_number, &never);
        assert!(
            !full.verdict.is_proven() || zoned.verdict.is_proven(),
            "{pos:?}: full width proves black's win, the zone search does not"
        );
        assert_eq!(
            zoned.verdict.is_proven(),
            proof_numbers.verdict.is_proven(),
            "{pos:?}: depth-first and proof numbers disagree"
        );
        if let Verdict::Proven(ThreatProof::Defence {
            pass: Some(pass), ..
        }) = &proof_numbers.verdict
        {
            proof_number_passes += usize::from(!matches!(**pass, ThreatProof::Leaf { .. }));
        }
        assert!(
            !plain.verdict.is_proven() || zoned.verdict.is_proven(),
            "{pos:?}: proven without quiet moves, not with them"
        );
        proven_without += usize::from(plain.verdict.is_proven());
        full_proofs += usize::from(full.verdict.is_proven());
        zone_nodes += zoned.nodes;
        full_nodes += full.nodes;
        for answer in [&zoned, &full, &proof_numbers] {
            let Verdict::Proven(proof) = &answer.verdict else {
                continue;
            };
            assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
        }
        if let Verdict::Proven(ThreatProof::Defence { pass, .. }) = &zoned.verdict {
            proven_with += 1;
            threat_passes += usize::from(
                pass.as_deref()
                    .is_some_and(|p| !matches!(p, ThreatProof::Leaf { .. })),
            );
        }
    }
    eprintln!(
        "{positions} positions: proven without quiet moves {proven_without}, with {proven_with} \
         ({threat_passes} by a threat-space pass; {proof_number_passes} by proof numbers), \
         full width {full_proofs}; nodes: zone {zone_nodes}, full width {full_nodes}"
    );
    assert!(
        threat_passes >= 2 && proven_with > proven_without,
        "threat-space passes proved too little"
    );
    assert!(
        proof_number_passes >= 2,
        "{proof_number_passes} threat-space passes in the proof-number search's proofs"
    );
}

/// A proof with a quiet move inside a quiet move's pass proof (`quiet_depth` 2) holds. Which
/// proof the search finds depends on its order: the position is `lopsided` seed 310, the only
/// one of seeds 0–399 whose proof at 4 threats has a nested quiet move since A's moves that
/// won lately are tried first (seed 53's before).
#[test]
fn a_nested_quiet_move_proof_holds() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(9,9,5,1,1)".parse().unwrap();
    let pos = cpbim::parse_position("D5 D7 E3 H3 G6 A3", game).unwrap();
    let limits = Limits {
        quiet: 6,
        quiet_depth: 2,
        ..small_board_limits(4)
    };
    let a = pos.to_move();
    let Verdict::Proven(proof) = prove::<Raw>(&pos, a, &limits, &never).verdict else {
        panic!("not proven");
    };
    assert!(has_nested_quiet(&proof), "no nested quiet move");
    assert_proof_holds(&pos, a, &proof, "nested quiet moves");
}

/// Renju's quiet moves: black's forbidden points in their zones, as attacker and defender.
#[test]
fn renju_quiet_move_proofs_hold() {
    let never = AtomicBool::new(false);
    let game: Game = "renju".parse().unwrap();
    // Black's quiet moves by proof numbers too, narrower (white's proof by proof numbers has
    // no quiet move).
    for (stones, a, threats, (width, quiet), search) in [
        (
            "a1 h8 o1 h9 a15",
            Color::White,
            5,
            (12, 6),
            Search::DepthFirst,
        ),
        (
            "h8 a1 i10 o1 k9 a15",
            Color::Black,
            4,
            (12, 6),
            Search::DepthFirst,
        ),
        (
            "h8 a1 i10 o1 k9 a15",
            Color::Black,
            4,
            (8, 4),
            Search::ProofNumber,
        ),
    ] {
        let pos = cpbim::parse_position(stones, game).unwrap();
        let limits = Limits {
            threats,
            width,
            quiet,
            search,
            ..Limits::default()
        };
        let start = std::time::Instant::now();
        let answer = prove::<Raw>(&pos, a, &limits, &never);
        let Verdict::Proven(proof) = &answer.verdict else {
            panic!("{stones} ({search:?}): {a:?}'s win not proven");
        };
        assert!(
            has_quiet(proof),
            "{stones} ({search:?}): no quiet move in the proof"
        );
        let proved = start.elapsed();
        assert_proof_holds(&pos, a, proof, &format!("{stones} ({search:?})"));
        eprintln!(
            "{stones} ({search:?}): proven in {proved:?}, checked in {:?}",
            start.elapsed() - proved
        );
    }
}

/// The proof horizon's deepest proofs hold (docs/search.md, "The proof horizon"): for every
/// game of docs/runs/horizon-60s.log where `prove` reached further back than `solve`, the
/// position at `prove`'s horizon is proven again (60 s, one thread, the run's limits
/// otherwise) and its proof checked by the brute-force checker. Slow (up to a minute and a
/// half a game): `cargo test --release --test prove -- --ignored horizon --nocapture`.
#[test]
#[ignore]
fn the_proof_horizons_deepest_proofs_hold() {
    use cpbim::games::{bundled_games_path, load_games};
    let log = std::fs::read_to_string("docs/runs/horizon-60s.log").unwrap();
    let games = load_games(&bundled_games_path()).unwrap();
    let never = AtomicBool::new(false);
    let limits = Limits {
        max_time: Some(std::time::Duration::from_secs(60)),
        threads: 1,
        ..Limits::default()
    };
    let (mut checked, mut not_again) = (0, 0);
    for line in log.lines() {
        // game ID SIDE stones N: solve S, prove P moves back (T s)
        let words: Vec<&str> = line
            .split([' ', ',', ':'])
            .filter(|w| !w.is_empty())
            .collect();
        let (id, solved, proven): (u64, usize, usize) = (
            words[1].parse().unwrap(),
            words[6].parse().unwrap(),
            words[8].parse().unwrap(),
        );
        if proven <= solved {
            continue;
        }
        let g = games.iter().find(|g| g.id == id).unwrap();
        let winner = g.winner.unwrap();
        let pos = (1..g.moves.len())
            .rev()
            .filter(|&n| Game::CONNECT6.is_move_boundary(n))
            .filter_map(|n| cpbim::Position::from_stones(Game::CONNECT6, &g.moves[..n]).ok())
            .filter(|pos| pos.to_move() == winner)
            .nth(proven - 1)
            .unwrap();
        let Verdict::Proven(proof) = prove::<cpbim::Cpbim>(&pos, winner, &limits, &never).verdict
        else {
            // The run had two threads: one may not find it again in the time.
            eprintln!("game {id}: not proven again {proven} moves back");
            not_again += 1;
            continue;
        };
        assert_proof_holds(
            &pos,
            winner,
            &proof,
            &format!("game {id}, {proven} moves back"),
        );
        checked += 1;
        eprintln!(
            "game {id}, {proven} moves back: {} threats, checked",
            proof.threats()
        );
    }
    eprintln!("{checked} proofs checked, {not_again} not proven again");
    assert!(checked > 0);
}

/// The refutation of a defender root in a game of two stones a move is a whole move (or the
/// one stone that completes a row), and after it the attacker's win is not proven within the
/// same limits: depth-first on one and two threads, and by proof numbers.
#[test]
fn a_refutation_of_two_stones_holds() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(10,10,6,2,2)".parse().unwrap();
    let limits = Limits {
        threats: 1,
        root_depth: 8,
        leaf_depth: 8,
        width: 12,
        ..Limits::default()
    };
    let searches = [
        limits.clone(),
        Limits {
            threads: 2,
            ..limits.clone()
        },
        Limits {
            search: Search::ProofNumber,
            ..limits.clone()
        },
    ];
    let (mut checked, mut pairs) = (0, 0);
    for seed in 0..12 {
        let Some(pos) = random_position(game, seed, 9) else {
            continue;
        };
        if pos.stones_to_place() != 2 {
            continue;
        }
        let a = pos.to_move().opponent();
        for l in &searches {
            let answer = prove::<Raw>(&pos, a, l, &never);
            checked += check_refutation(&pos, a, l, &answer);
            pairs += usize::from(answer.refutation.as_ref().is_some_and(|r| r.len() == 2));
        }
    }
    eprintln!("{checked} refutations checked, {pairs} of two stones");
    assert!(pairs >= 10, "only {pairs} refutations of two stones");
}

/// `--threat-step 2` searches the budgets 2, 4, … and `--threats` (the last always): it proves
/// exactly the positions that every budget proves, within the same `--threats` and no other
/// limit (a budget proves what the smaller ones do), and its proofs hold.
#[test]
fn a_threat_step_proves_what_every_budget_proves() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(9,9,5,1,1)".parse().unwrap();
    let every = Limits {
        quiet: 6,
        ..small_board_limits(4)
    };
    let second = Limits {
        threat_step: 2,
        ..every.clone()
    };
    let (mut positions, mut proofs, mut nodes) = (0, 0, [0u64; 2]);
    for (_, pos) in lopsided_positions(game, 0..60, 6) {
        positions += 1;
        let a = pos.to_move();
        let one = prove::<Raw>(&pos, a, &every, &never);
        let two = prove::<Raw>(&pos, a, &second, &never);
        assert_eq!(
            one.verdict.is_proven(),
            two.verdict.is_proven(),
            "{pos:?}: every budget and every second one disagree"
        );
        nodes[0] += one.nodes;
        nodes[1] += two.nodes;
        let Verdict::Proven(proof) = &two.verdict else {
            continue;
        };
        proofs += 1;
        assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
    }
    eprintln!("{game}: {positions} positions, {proofs} proven, nodes every budget / every second {nodes:?}");
    assert!(
        proofs >= 10,
        "too few proofs to compare: {proofs} of {positions}"
    );
}

/// `--late R`: a move ranked R or lower costs one threat more. Its proofs hold and spend no
/// more threats on a line than the budget; with R at the width no move is late, and the search
/// is the plain one, node for node.
#[test]
fn late_moves_cost_a_threat_more_and_their_proofs_hold() {
    let never = AtomicBool::new(false);
    let game: Game = "connect(9,9,5,1,1)".parse().unwrap();
    let plain = Limits {
        quiet: 6,
        ..small_board_limits(4)
    };
    let none_late = Limits {
        late: plain.width,
        ..plain.clone()
    };
    let late = Limits {
        late: 2,
        threats: 5,
        ..plain.clone()
    };
    let (mut positions, mut proofs, mut nodes) = (0, [0; 2], [0u64; 2]);
    for (_, pos) in lopsided_positions(game, 0..60, 6) {
        positions += 1;
        let a = pos.to_move();
        let one = prove::<Raw>(&pos, a, &plain, &never);
        let same = prove::<Raw>(&pos, a, &none_late, &never);
        assert_eq!(
            (one.verdict.is_proven(), one.nodes, one.leaf_searches),
            (same.verdict.is_proven(), same.nodes, same.leaf_searches),
            "{pos:?}: no move late, yet another search"
        );
        let two = prove::<Raw>(&pos, a, &late, &never);
        nodes[0] += one.nodes;
        nodes[1] += two.nodes;
        proofs[0] += usize::from(one.verdict.is_proven());
        let Verdict::Proven(proof) = &two.verdict else {
            continue;
        };
        proofs[1] += 1;
        assert!(
            proof.threats() <= late.threats,
            "{pos:?}: more threats than the budget"
        );
        assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
    }
    eprintln!("{game}: {positions} positions, proven plain / late {proofs:?}, nodes {nodes:?}");
    assert!(proofs[1] >= 10, "too few proofs: {proofs:?} of {positions}");
}

/// The game and limits of the `--each-reply` tests: 9×9, five in a row, 3 threats and quiet
/// moves.
fn each_reply_game_and_limits() -> (Game, Limits) {
    let limits = Limits {
        quiet: 6,
        quiet_depth: 2,
        ..small_board_limits(3)
    };
    ("connect(9,9,5,1,1)".parse().unwrap(), limits)
}

/// `--each-reply` with a store keeps each reply's record there, so that a run cut short (here
/// by its node limit; a signal or a kill alike) is continued by the next: the second run
/// reports each reply's costs over both runs — a reply the first proved keeps its record, one
/// it stopped has its searches counted on — and its totals are both runs' costs.
#[test]
fn each_reply_records_carry_over_from_run_to_run() {
    let never = AtomicBool::new(false);
    let (game, limits) = each_reply_game_and_limits();
    let slice = std::time::Duration::from_secs(60);
    let a = Color::Black;
    // The first position whose replies, searched without a store, are all proven with a few
    // hundred nodes or more.
    let (pos, full) = lopsided_positions(game, 0..40, 9)
        .map(|(_, pos)| {
            let full = prove_each_reply::<Raw>(&pos, a, &limits, slice, &never);
            (pos, full)
        })
        .find(|(_, full)| full.answer.verdict.is_proven() && full.answer.nodes >= 300)
        .expect("a position of the seeds");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    let with_store = |max_nodes| Limits {
        store: Some(Arc::new(Mutex::new(Store::open(&path).unwrap()))),
        max_nodes,
        ..limits.clone()
    };
    let one = prove_each_reply::<Raw>(
        &pos,
        a,
        &with_store(Some(full.answer.nodes / 2)),
        slice,
        &never,
    );
    assert_eq!(one.answer.verdict, Verdict::Stopped, "{pos:?}");
    let two = prove_each_reply::<Raw>(&pos, a, &with_store(None), slice, &never);
    // The replies' proofs read back from the store hold.
    let Verdict::Proven(proof) = &two.answer.verdict else {
        panic!("{pos:?} not proven with the store");
    };
    assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
    let (mut kept, mut continued) = (0, 0);
    for (r1, r2) in one.replies.iter().zip(&two.replies) {
        assert_eq!(r1.stone, r2.stone);
        let (e1, e2) = (&r1.effort, &r2.effort);
        assert_eq!(e2.result, "proven");
        match e1.result.as_str() {
            "proven" => {
                assert_eq!(
                    e2, e1,
                    "{}: answered from the store, its record kept",
                    r1.stone
                );
                kept += 1;
            }
            "stopped" => {
                assert_eq!(e2.passes, e1.passes + 1, "{}", r1.stone);
                assert!(
                    e2.nodes >= e1.nodes && e2.time_ms > e1.time_ms,
                    "{}",
                    r1.stone
                );
                continued += 1;
            }
            _ => assert_eq!(e1, &Effort::default(), "{}: not searched", r1.stone),
        }
    }
    assert!(
        kept > 0 && continued == 1,
        "{kept} kept, {continued} continued"
    );
    assert_eq!(two.total.nodes, one.answer.nodes + two.answer.nodes);
    let records = Store::open(&path)
        .unwrap()
        .contents()
        .unwrap()
        .reply_records;
    assert_eq!(records as usize, two.replies.len());
}

/// `--each-reply`: a defender's root proven one reply at a time (a search of its own each,
/// every legal reply). White to move after black's fifth stone on 9×9, the limits of the test
/// above: it proves the positions the root's own search proves, on one thread and on two,
/// and its proofs — every reply listed — hold.
#[test]
fn each_reply_on_its_own_proves_what_the_roots_search_does() {
    let never = AtomicBool::new(false);
    let (game, limits) = each_reply_game_and_limits();
    let two = Limits {
        threads: 2,
        ..limits.clone()
    };
    let slice = std::time::Duration::from_secs(60);
    let (mut root_proofs, mut each_proofs, mut root_nodes, mut each_nodes) = (0, 0, 0, 0);
    for (seed, pos) in lopsided_positions(game, 0..40, 9) {
        let a = Color::Black;
        let root = prove::<Raw>(&pos, a, &limits, &never);
        // Two threads on every fourth position (the verdict is the same; it saves time).
        let configs = if seed % 4 == 0 {
            vec![&limits, &two]
        } else {
            vec![&limits]
        };
        for l in configs {
            let each = prove_each_reply::<Raw>(&pos, a, l, slice, &never);
            assert_eq!(
                root.verdict.is_proven(),
                each.answer.verdict.is_proven(),
                "{pos:?}, {} threads: {:?}",
                l.threads,
                each.replies
            );
            if let Verdict::Proven(proof) = &each.answer.verdict {
                assert!(matches!(proof, ThreatProof::Defence { pass: None, .. }));
                assert_proof_holds(&pos, a, proof, &format!("{pos:?}"));
            } else {
                let r = each
                    .answer
                    .refutation
                    .expect("the reply not proven is named");
                assert!(each
                    .replies
                    .iter()
                    .any(|x| x.stone == r[0] && x.effort.result == "not proven"));
            }
            if l.threads == 1 {
                each_proofs += usize::from(each.answer.verdict.is_proven());
                each_nodes += each.answer.nodes;
            }
        }
        root_proofs += usize::from(root.verdict.is_proven());
        root_nodes += root.nodes;
    }
    eprintln!("proven: root {root_proofs}, each reply {each_proofs}; nodes {root_nodes} against {each_nodes}");
    assert!(root_proofs >= 10);
}
