//! A whole match: every opening twice, colours swapped, games in parallel, a tally from the
//! first engine's side, an SPRT that can stop the match, and the JSON summary.

use super::openings::Opening;
use super::stats::{Sprt, Tally};
use super::{play_game, Ending, Played, Rules};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A match to play.
pub struct Plan {
    /// The game and the time control.
    pub rules: Rules,
    /// The two engines' command lines.
    pub engines: [String; 2],
    /// The openings, in order.
    pub openings: Vec<Opening>,
    /// Games in all (pairs of one opening with both colours; an odd last game plays the
    /// opening once).
    pub games: usize,
    /// Games played at the same time (each with its own two processes).
    pub concurrency: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
}

/// One game of the schedule: its opening and which engine has black.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    /// Position in the schedule, from 0.
    pub index: usize,
    /// Index of its opening.
    pub opening: usize,
    /// The engine (0 or 1) with black.
    pub black: usize,
}

/// The schedule: opening 0 with engine 0 black, then engine 1 black, opening 1, …
pub fn schedule(openings: usize, games: usize) -> Vec<Slot> {
    (0..games)
        .map(|index| Slot {
            index,
            opening: (index / 2) % openings.max(1),
            black: index % 2,
        })
        .collect()
}

/// Play `plan`; `report` sees every game as it ends (with the tally so far). Stops early when
/// the SPRT accepts a hypothesis or `stop` is set. Games come back in schedule order.
pub fn play(
    plan: &Plan,
    stop: &AtomicBool,
    report: &(dyn Fn(&Slot, &Played, &Tally) + Sync),
) -> Vec<(Slot, Played)> {
    let slots = schedule(plan.openings.len(), plan.games);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(Slot, Played)>> = Mutex::new(Vec::new());
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..plan.concurrency.max(1) {
            s.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&slot) = slots.get(i) else { return };
                let cmds = [plan.engines[0].as_str(), plan.engines[1].as_str()];
                let opening = &plan.openings[slot.opening].stones;
                let Some(game) = play_game(&plan.rules, cmds, slot.black, opening, stop) else {
                    return;
                };
                let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                t.add(game.score0());
                report(&slot, &game, &t);
                if plan.sprt.is_some_and(|sp| sp.state(&t).accepted.is_some()) {
                    stop.store(true, Ordering::Relaxed);
                }
                drop(t);
                done.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((slot, game));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(s, _)| s.index);
    done
}

/// The tally of `games` from engine 0's side.
pub fn tally(games: &[(Slot, Played)]) -> Tally {
    let mut t = Tally::default();
    for (_, g) in games {
        t.add(g.score0());
    }
    t
}

/// Mean thinking time per move of each engine.
pub fn mean_move_time(games: &[(Slot, Played)]) -> [Duration; 2] {
    let mut time = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    for (_, g) in games {
        for k in 0..2 {
            time[k] += g.time[k];
            moves[k] += g.moves[k];
        }
    }
    [0, 1].map(|k| time[k] / moves[k].max(1))
}

/// The JSON summary (`docs/json.md`).
pub fn summary_json(plan: &Plan, games: &[(Slot, Played)]) -> serde_json::Value {
    let t = tally(games);
    let count = |name: &str| {
        games
            .iter()
            .filter(|(_, g)| g.ending.name() == name)
            .count()
    };
    let mean = mean_move_time(games);
    let mut summary = tally_json(&t);
    let more = serde_json::json!({
        "adjudications": {"illegal": count("illegal"), "time": count("time"), "crash": count("crash")},
        "sprt": plan.sprt.map(|s| serde_json::to_value(s.state(&t)).expect("plain data")),
        "mean_move_ms": [mean[0].as_secs_f64() * 1e3, mean[1].as_secs_f64() * 1e3],
    });
    if let (Some(summary), serde_json::Value::Object(more)) = (summary.as_object_mut(), more) {
        summary.extend(more);
    }
    summary
}

/// A tally's statistics from the first engine's side: `{"games", "wins", "losses", "draws",
/// "score", "elo", "elo_95", "los"}` (`elo` and the interval's bounds `null` where infinite).
pub fn tally_json(t: &Tally) -> serde_json::Value {
    let (elo, [lo, hi]) = t.elo();
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    serde_json::json!({
        "games": t.games(),
        "wins": t.wins,
        "losses": t.losses,
        "draws": t.draws,
        "score": t.score(),
        "elo": finite(elo),
        "elo_95": [finite(lo), finite(hi)],
        "los": t.los(),
    })
}

/// One line per game for the progress report.
pub fn game_line(plan: &Plan, slot: &Slot, g: &Played, t: &Tally) -> String {
    let result = match g.winner {
        None => "draw".to_string(),
        Some(c) => {
            let k = if (c == crate::Color::Black) == (g.black == 0) {
                1
            } else {
                2
            };
            format!("engine {k} ({c}) wins")
        }
    };
    let why = match &g.ending {
        Ending::Illegal(w) | Ending::Crash(w) => format!("{}: {w}", g.ending.name()),
        e => e.name().to_string(),
    };
    format!(
        "game {} ({}, engine {} black): {result} by {why} after {} stones; score {}-{}-{}",
        slot.index + 1,
        plan.openings[slot.opening].name,
        slot.black + 1,
        g.stones.len(),
        t.wins,
        t.draws,
        t.losses
    )
}
