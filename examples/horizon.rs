//! The proof horizon (issue 27): for each bundled Connect6 game won by a side, how many of the
//! winner's moves before the end `solve` and `prove` each still prove the win, scanning back
//! from the last move until the first failure. One line per game, then the distribution of
//! the whole moves `prove` gains.
//!
//! `cargo run --release --example horizon -- FIRST COUNT SECONDS [THREADS]`
//! (games FIRST+1 … FIRST+COUNT of data/connect6_games.csv; SECONDS per `prove`, on THREADS
//! threads, 1 by default).
use cpbim::games::{bundled_games_path, load_games};
use cpbim::prove::{prove, Limits, Verdict};
use cpbim::search::{solve, Config, Outcome};
use cpbim::{Cpbim, Game, Position};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).map_or(default, |s| s.parse().unwrap());
    let (first, count, seconds) = (number(0, 0), number(1, 20), number(2, 10));
    let threads = number(3, 1) as usize;
    let games = load_games(&bundled_games_path()).expect("the bundled games");
    let limits = Limits {
        max_time: Some(Duration::from_secs(seconds)),
        threads,
        ..Limits::default()
    };
    let never = AtomicBool::new(false);
    let mut gains: BTreeMap<i64, usize> = BTreeMap::new();
    for g in games.iter().skip(first as usize).take(count as usize) {
        let Some(winner) = g.winner else { continue };
        // The winner's move boundaries, the last first.
        let mine: Vec<Position> = (1..g.moves.len())
            .rev()
            .filter(|&n| Game::CONNECT6.is_move_boundary(n))
            .filter_map(|n| Position::from_stones(Game::CONNECT6, &g.moves[..n]).ok())
            .filter(|pos| pos.to_move() == winner)
            .collect();
        let start = Instant::now();
        let solved = mine
            .iter()
            .take_while(|pos| solve::<Cpbim>(pos, &Config::default()).outcome == Outcome::Win)
            .count();
        let proven = mine
            .iter()
            .take_while(|pos| {
                let answer = prove::<Cpbim>(pos, winner, &limits, &never);
                matches!(answer.verdict, Verdict::Proven(_))
            })
            .count();
        *gains.entry(proven as i64 - solved as i64).or_default() += 1;
        println!(
            "game {} {} stones {}: solve {solved}, prove {proven} moves back ({:.1} s)",
            g.id,
            winner.name(),
            g.moves.len(),
            start.elapsed().as_secs_f64()
        );
    }
    println!("whole moves gained by prove over solve: games");
    for (gain, games) in gains {
        println!("{gain:+} {games}");
    }
}
