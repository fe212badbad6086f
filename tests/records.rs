//! Finished games and the record formats: every game of the bundled CSV reads as a finished
//! game whose end agrees with a brute-force six check and with the CSV's winner column; every
//! format writes what it reads; `analyze` runs through 200 random finished games.

mod common;

use common::{point, Plain};
use cpbim::analyze::{analyze_record, AnalyzeConfig};
use cpbim::games::{bundled_games_path, load_games, Recorded};
use cpbim::notation::{self, Format};
use cpbim::search::{Config, Outcome};
use cpbim::Game;
use cpbim::{Color, Record};
use std::sync::atomic::AtomicBool;

fn games() -> Vec<Recorded> {
    load_games(&bundled_games_path()).unwrap()
}

fn code(c: Color) -> u8 {
    if c == Color::Black {
        1
    } else {
        2
    }
}

fn plain(stones: &[cpbim::Point]) -> Plain {
    let names: Vec<String> = stones.iter().map(ToString::to_string).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    Plain::from_stones(&refs)
}

#[test]
fn every_bundled_game_is_a_finished_game_as_brute_force_sees_it() {
    let games = games();
    assert_eq!(games.len(), 8282);
    let mut first_stone_endings = 0;
    for g in &games {
        let r = Record::from_stones(Game::CONNECT6, &g.moves)
            .unwrap_or_else(|e| panic!("game {}: {e}", g.id));
        let w = r
            .win()
            .unwrap_or_else(|| panic!("game {} is not finished", g.id));
        assert_eq!(Some(w.winner), g.winner, "game {}", g.id);
        // The six is on the board, of the winner's colour, in a line.
        let end = plain(&g.moves);
        for &p in &w.row {
            assert_eq!(
                end.cells[point(&p.to_string())],
                code(w.winner),
                "game {}",
                g.id
            );
        }
        assert!(end.has_six(code(w.winner)), "game {}", g.id);
        // Before the winning move nobody had six; the move is the end of the record.
        let n = g.moves.len() - w.last_move.len();
        assert_eq!(&g.moves[n..], &w.last_move[..]);
        let before = plain(&g.moves[..n]);
        assert!(!before.has_six(1) && !before.has_six(2), "game {}", g.id);
        assert_eq!(r.before_end().unwrap().stones(), &g.moves[..n]);
        if w.last_move.len() == 1 && n > 1 {
            first_stone_endings += 1;
            // The record ends on the first stone of a move: that stone made six.
            assert!(!plain(&g.moves[..n]).has_six(code(w.winner)));
        }
    }
    // Counted with `cpbim solve data/connect6_games.csv --json` (last_move of one stone).
    assert_eq!(first_stone_endings, 175);
}

#[test]
fn every_format_writes_what_it_reads() {
    for g in games().iter().step_by(97) {
        let mut r = Record::from_stones(Game::CONNECT6, &g.moves).unwrap();
        r.info.id = Some(g.id);
        for f in Format::ALL {
            let text = notation::write(&r, f).unwrap();
            let back = notation::parse_record(&text, Game::CONNECT6)
                .unwrap_or_else(|e| panic!("{f:?}: {e}\n{text}"));
            assert_eq!(back.board(), r.board(), "{f:?}");
            let (bw, rw) = (back.win().unwrap(), r.win().unwrap());
            assert_eq!((bw.winner, &bw.row), (rw.winner, &rw.row), "{f:?}");
            // A diagram has no play order, so no last move.
            if f != Format::Diagram {
                assert_eq!(back.stones(), r.stones(), "{f:?}");
                assert_eq!(bw.last_move, rw.last_move, "{f:?}");
            }
        }
    }
}

#[test]
fn a_contest_record_in_gb2312_is_the_csv_game() {
    let g = games().into_iter().find(|g| g.id == 84).unwrap();
    let mut r = Record::from_stones(Game::CONNECT6, &g.moves).unwrap();
    r.info.black = Some("先手参赛队 甲".into());
    let text = notation::write(&r, Format::Contest).unwrap();
    let (bytes, _, unmappable) = encoding_rs::GB18030.encode(&text);
    assert!(!unmappable && std::str::from_utf8(&bytes).is_err());
    let back = cpbim::batch::read_line(&bytes, Game::CONNECT6.into()).unwrap();
    assert_eq!(back.stones(), r.stones());
    assert_eq!(back.info.black.as_deref(), Some("先手参赛队 甲"));
    let result = match g.winner {
        Some(Color::Black) => "先手胜",
        _ => "后手胜",
    };
    assert_eq!(back.info.result.as_deref(), Some(result));
}

#[test]
fn analyze_reads_200_random_finished_games() {
    let games = games();
    let stop = AtomicBool::new(false);
    let cfg = AnalyzeConfig {
        search: Config {
            max_nodes: Some(20_000),
            ..Config::default()
        },
        // The searches only: the engine's evaluations and the verdicts' defence searches would
        // cost ~0.8 s a game.
        eval: false,
        review: false,
        ..AnalyzeConfig::default()
    };
    // 200 games picked by a fixed linear congruential sequence.
    let mut x: u64 = 2026;
    for _ in 0..200 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let g = &games[(x >> 33) as usize % games.len()];
        let r = Record::from_stones(Game::CONNECT6, &g.moves).unwrap();
        let a = analyze_record::<cpbim::Cpbim>(&r, &cfg, &stop, &|_| {}).unwrap();
        let end = a.end.as_ref().expect("finished");
        assert_eq!(Some(end.winner), g.winner, "game {}", g.id);
        let played = g.moves.len() - end.last_move.len();
        assert_eq!(a.boundaries.len(), played.div_ceil(2), "game {}", g.id);
        assert_eq!(a.boundaries.last().unwrap().stones, played, "game {}", g.id);
        // The winner was to move at the last boundary, and the solver saw the win at depth 0:
        // completing six takes a live window.
        let last = a.boundaries.last().unwrap();
        assert_eq!(last.to_move, end.winner, "game {}", g.id);
        assert_eq!(
            (last.win.outcome, last.win.depth),
            (Outcome::Win, 0),
            "game {}",
            g.id
        );
    }
}

#[test]
fn rewinding_further_than_any_game_ends_at_its_start() {
    let games: Vec<Recorded> = games().into_iter().take(20).collect();
    let all = cpbim::bench::rewound_positions(&games, 1, usize::MAX);
    // Every whole move of every game but its first stone (at most one position per move).
    let moves: usize = games.iter().map(|g| g.moves.len().div_ceil(2)).sum();
    assert!(
        !all.is_empty() && all.len() <= moves,
        "{} of {moves}",
        all.len()
    );
    assert_eq!(cpbim::testsets::rewind(&games[0], usize::MAX), None);
}
