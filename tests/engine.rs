//! The playing engine (`cpbim::engine`): its moves are legal, it completes rows, plays threat
//! wins whose proofs check on the plain board, blocks every live window of the opponent when it
//! can, and gives the same answer twice under a depth limit.

mod common;

use common::{assert_legal, check_proof, colour, Plain, Rules};
use cpbim::engine::eval::DECIDED;
use cpbim::engine::{Choice, Engine, Limits, Params, Verdict};
use cpbim::model::Cpbim5;
use cpbim::search::{solve, Config, Outcome, Solver};
use cpbim::{Color, Cpbim, Game, Model, Position};
use std::sync::atomic::AtomicBool;

/// The positions of a committed test set (one per line, comments after `#`).
fn testset(name: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(format!(
        "{}/testsets/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the committed test sets");
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| cpbim::parse_position(l, Game::CONNECT6).expect("a test-set position"))
        .collect()
}

fn choose<M: Model>(pos: &Position, depth: u32) -> Choice {
    Engine::<M>::new(Params::default()).choose(pos, Limits::depth(depth))
}

#[test]
fn threat_wins_are_played_with_proofs_that_check() {
    for set in ["W12", "W16", "W20"] {
        let depth = set[1..].parse::<u32>().unwrap();
        for pos in testset(set).iter().take(12) {
            let c = choose::<Cpbim>(pos, 1);
            assert_legal(pos, &c.stones);
            // The sets were made under the canonical rule; the complete rule may win sooner.
            let Verdict::Win(d) = c.verdict else {
                panic!("{}: {c:?}", pos.to_stone_list())
            };
            assert!(d <= depth, "{}: {d}", pos.to_stone_list());
            let proof = serde_json::to_value(c.proof.as_ref().expect("a proof")).unwrap();
            let plain = Plain::from_position(Rules::of(pos.game()), pos);
            assert_eq!(check_proof(&plain, colour(pos.to_move()), &proof), Ok(d));
            let first: Vec<String> = proof["attack"]
                .as_array()
                .expect("the proof's first attack")
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            let mut stones: Vec<String> = c.stones.iter().map(|p| p.to_string()).collect();
            stones.sort();
            let mut first = first;
            first.sort();
            assert_eq!(stones, first);
        }
    }
}

/// After the engine's move the opponent has no live window left, whenever the opponent had
/// some and the engine does not call the game lost; by the plain board's brute force.
#[test]
fn live_windows_are_blocked_and_moves_are_legal() {
    let mut blocked = 0;
    for set in ["N4", "N8", "N12", "N16", "N20", "N24", "N28"] {
        for (i, pos) in testset(set).iter().enumerate() {
            let mut plain = Plain::from_position(Rules::of(pos.game()), pos);
            let (me, them) = (colour(pos.to_move()), 3 - colour(pos.to_move()));
            let threatened = !plain.live(them).is_empty();
            // Every threatened position, and every tenth of the others for legality.
            if !threatened && i % 10 != 0 {
                continue;
            }
            let c = choose::<Cpbim>(pos, 1);
            assert_legal(pos, &c.stones);
            for p in &c.stones {
                plain.cells[p.row() * plain.rules.m + p.col()] = me;
            }
            if plain.has_win(me) {
                continue;
            }
            if threatened && c.verdict != Verdict::Loss {
                assert!(
                    plain.live(them).is_empty(),
                    "{}: {c:?}",
                    pos.to_stone_list()
                );
                blocked += 1;
            }
        }
    }
    assert!(
        blocked >= 20,
        "only {blocked} positions with a threat to block"
    );
}

#[test]
fn a_row_is_completed() {
    // Black has J10 K10 L10 M10 N10 (five): black to move plays the sixth.
    let stones = "J10 A1 C1 K10 L10 E1 G1 M10 N10 I1 O1";
    let pos = cpbim::parse_position(stones, Game::CONNECT6).unwrap();
    assert_eq!(pos.to_move(), Color::Black);
    let c = choose::<Cpbim>(&pos, 1);
    assert_eq!(c.verdict, Verdict::Win(0));
    let mut board = pos.board().clone();
    for p in &c.stones {
        board.set(*p, Some(Color::Black));
    }
    assert!(board.find_win_of(Color::Black).is_some(), "{c:?}");
}

#[test]
fn the_same_answer_twice_under_a_depth_limit() {
    for pos in testset("N16").iter().take(5) {
        let a = choose::<Cpbim>(pos, 2);
        let b = choose::<Cpbim>(pos, 2);
        assert_eq!((a.stones, a.eval, a.pv), (b.stones, b.eval, b.pv));
    }
}

/// Positions from games against Cloudict where every candidate the engine checks first is
/// refuted, yet some move holds (found by `cpbim analyze --defenses`): the wider defence finds
/// one, and after it the opponent has no threat win within the engine's threat depth.
#[test]
fn a_holding_defence_is_found_beyond_the_first_candidates() {
    for stones in [
        "j10 i11 k10 k11 i9 j12 l12 h8 h10 f6 i12 j8 g11 k7 f12 h12 h9",
        "j10 j11 k9 k11 i9 l10 l12 h8 j8 f6 l9 h10 k7 m5 g11 i8 l8",
    ] {
        let pos = cpbim::parse_position(stones, Game::CONNECT6).unwrap();
        let threat = Solver::<Cpbim>::new(Config::default()).solve_for(
            pos.board(),
            pos.to_move().opponent(),
            &AtomicBool::new(false),
        );
        assert_eq!(threat.outcome, Outcome::Win, "{stones}: a threat to answer");
        let c = choose::<Cpbim>(&pos, 1);
        assert_eq!(c.verdict, Verdict::Open, "{stones}: {c:?}");
        let after = pos.play(&c.stones).unwrap();
        let config = Config {
            depth: Params::default().threat_depth,
            ..Config::default()
        };
        let s = solve::<Cpbim>(&after, &config);
        assert_ne!(s.outcome, Outcome::Win, "{stones}: {c:?} does not hold");
    }
}

/// Two threads share out the root's moves, each with its own table: the value of the position
/// at a depth limit is the one thread's (the move may differ only between equal values).
#[test]
fn two_threads_find_the_value_one_thread_finds() {
    let two = Params {
        threads: 2,
        ..Params::default()
    };
    for pos in testset("N16").iter().take(6) {
        let a = choose::<Cpbim>(pos, 2);
        let b = Engine::<Cpbim>::new(two.clone()).choose(pos, Limits::depth(2));
        assert_legal(pos, &b.stones);
        assert_eq!(a.eval, b.eval, "{}", pos.to_stone_list());
    }
}

/// Quiet middle games from matches against Cloudict (21 stones, white to move).
const QUIET_MIDDLE_GAMES: [&str; 2] = [
    "j10 j8 k12 i9 k9 i11 k11 l9 l11 j9 l12 l8 j12 m7 l6 o9 m10 j7 j6 j5 n9",
    "j10 i9 g11 h10 i10 g9 g10 g8 h9 h11 j11 i11 g13 h12 i12 f7 f9 d5 j13 l15 k10",
];

/// The opponent's replies inside the alpha-beta are `reply_pairs` wide: as wide as `pairs`,
/// the engine is the one with a single width (same move, value and nodes); narrower, the same
/// depth searches fewer nodes and the move is still legal.
#[test]
fn the_replies_have_their_own_width() {
    let with = |reply_pairs| Params {
        reply_pairs,
        ..Params::default()
    };
    let (mut wide_nodes, mut narrow_nodes, mut searched) = (0, 0, 0);
    for stones in QUIET_MIDDLE_GAMES {
        let pos = &cpbim::parse_position(stones, Game::CONNECT6).unwrap();
        let run = |p: Params| Engine::<Cpbim>::new(p).choose(pos, Limits::depth(3));
        let single = run(with(0));
        let same = run(with(Params::default().pairs));
        assert_eq!(
            (&single.stones, single.eval, single.nodes),
            (&same.stones, same.eval, same.nodes)
        );
        let narrow = run(with(4));
        assert_legal(pos, &narrow.stones);
        wide_nodes += single.nodes;
        narrow_nodes += narrow.nodes;
        searched += usize::from(single.depth == 3);
    }
    assert!(searched > 0, "no position reached the alpha-beta");
    assert!(narrow_nodes < wide_nodes, "{narrow_nodes} {wide_nodes}");
}

/// `late_moves`: null windows for the moves after the first leave the value of a search of
/// fixed depth as it was (the same tree, only cut sooner); reducing the later moves of quiet
/// nodes by one whole move searches fewer nodes at depth 4 (at depth 3 the re-searches of
/// the moves a reduced probe could not refute cost about what the reductions save), and the
/// move is still legal.
#[test]
fn late_moves_are_probed_first() {
    let with = |late_moves| Params {
        late_moves,
        ..Params::default()
    };
    let (mut whole_nodes, mut reduced_nodes) = (0, 0);
    for stones in QUIET_MIDDLE_GAMES {
        let pos = &cpbim::parse_position(stones, Game::CONNECT6).unwrap();
        let run = |p: Params| Engine::<Cpbim>::new(p).choose(pos, Limits::depth(4));
        let plain = run(with(0));
        assert_eq!(plain.depth, 4, "the alpha-beta ran");
        let windows = run(with(usize::MAX));
        assert_eq!(windows.eval, plain.eval, "{stones}");
        let reduced = run(with(4));
        assert_legal(pos, &reduced.stones);
        whole_nodes += plain.nodes;
        reduced_nodes += reduced.nodes;
    }
    assert!(reduced_nodes < whole_nodes, "{reduced_nodes} {whole_nodes}");
}

/// Gomoku and Renju through the same code: legal single stones, Renju's black never on a
/// forbidden point, on positions of random play.
#[test]
fn gomoku_and_renju_moves_are_legal() {
    for game in [Game::GOMOKU, Game::RENJU] {
        let mut pos = Position::empty(game);
        for _ in 0..40 {
            let c = choose::<Cpbim5>(&pos, 1);
            assert_legal(&pos, &c.stones);
            let mut after = pos.board().clone();
            for p in &c.stones {
                after.set(*p, Some(pos.to_move()));
            }
            if after.find_win_of(pos.to_move()).is_some() {
                break;
            }
            pos = pos.play(&c.stones).expect("a legal move");
        }
        assert!(pos.board().stones() >= 9, "{game}: {}", pos.to_stone_list());
    }
}

/// Gomoku, white to move against two open threes of black (one stone blocks only one of
/// them), with two fours of its own that black must block: white is lost, and a search three
/// moves deep sees it, because a block that is the only answer to a four costs no depth
/// (without that it takes five: the fours push black's win beyond the horizon).
#[test]
fn fours_and_their_blocks_do_not_hide_a_loss_beyond_the_horizon() {
    let stones = "f8 o1 g8 o2 h8 o3 c3 a13 c4 a14 c5 a15 m12";
    let pos = cpbim::parse_position(stones, Game::GOMOKU).unwrap();
    assert_eq!(pos.to_move(), Color::White);
    let c = Engine::<Cpbim5>::new(Params::five()).choose(&pos, Limits::depth(3));
    assert_legal(&pos, &c.stones);
    assert!(c.eval <= -DECIDED, "{c:?}");
}

/// Gomoku, black to move with a double three at H8 (no four anywhere, so no VCF): the
/// alpha-beta sees the win, but over its own candidate moves and without a proof, so the
/// score shows it and the verdict does not call it forced.
#[test]
fn a_win_seen_only_by_the_alpha_beta_is_not_called_forced() {
    let pos = cpbim::parse_position("f8 a1 g8 a15 h6 o1 h7 o15", Game::GOMOKU).unwrap();
    let c = Engine::<Cpbim5>::new(Params::five()).choose(&pos, Limits::depth(3));
    assert!(c.eval >= DECIDED, "{c:?}");
    assert_eq!(
        (c.verdict, c.proof.is_none()),
        (Verdict::Open, true),
        "{c:?}"
    );
}
