//! The proof horizon (issue 27): for each bundled Connect6 game won by a side, how many of the
//! winner's moves before the end `solve` and `prove` each still prove the win, scanning back
//! from the last move until the first failure. One line per game, then the distribution of
//! the whole moves `prove` gains.
//!
//! `cargo run --release --example horizon -- FIRST COUNT SECONDS [THREADS] [LOG]`
//! (games FIRST+1 … FIRST+COUNT of data/connect6_games.csv; SECONDS per `prove`, on THREADS
//! threads, 1 by default). With LOG, each game's line is appended to that file as it is
//! done and the games it already holds are not searched again: a run stopped anywhere
//! resumes with the same command, losing at most the game in flight, and the distribution
//! printed at the end is the whole log's.
use cpbim::games::{bundled_games_path, load_games};
use cpbim::prove::{prove, Limits, Verdict};
use cpbim::search::{solve, Config, Outcome};
use cpbim::{Cpbim, Game, Position};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
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
    let log_path = args.get(4);
    let mut done = BTreeSet::new();
    if let Some(text) = log_path.and_then(|p| std::fs::read_to_string(p).ok()) {
        for (id, gain) in text.lines().filter_map(parse_line) {
            if done.insert(id) {
                *gains.entry(gain).or_default() += 1;
            }
        }
        eprintln!("{} games already in the log", done.len());
    }
    let mut log = log_path.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .expect("the log opens for appending")
    });
    for g in games.iter().skip(first as usize).take(count as usize) {
        let Some(winner) = g.winner else { continue };
        if done.contains(&g.id) {
            continue;
        }
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
        let line = format!(
            "game {} {} stones {}: solve {solved}, prove {proven} moves back ({:.1} s)",
            g.id,
            winner.name(),
            g.moves.len(),
            start.elapsed().as_secs_f64()
        );
        println!("{line}");
        if let Some(log) = &mut log {
            writeln!(log, "{line}")
                .and_then(|()| log.sync_data())
                .expect("the log is written");
        }
    }
    println!("whole moves gained by prove over solve: games");
    for (gain, games) in gains {
        println!("{gain:+} {games}");
    }
}

/// A game's id and the moves `prove` gained, from a line this program wrote (`None` for any
/// other line, such as one cut short by a stop).
fn parse_line(line: &str) -> Option<(u64, i64)> {
    let rest = line.strip_prefix("game ")?;
    let id = rest.split_whitespace().next()?.parse().ok()?;
    let (_, counts) = rest.split_once(": solve ")?;
    let (solved, rest) = counts.split_once(", prove ")?;
    let (proven, rest) = rest.split_once(" moves back (")?;
    rest.ends_with(" s)").then_some(())?;
    Some((
        id,
        proven.parse::<i64>().ok()? - solved.parse::<i64>().ok()?,
    ))
}
