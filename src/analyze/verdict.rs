//! What each move of a game did (`cpbim analyze`, "Move verdicts" in docs/search.md): held,
//! kept a win, threw a win away, walked into a loss, or was played in a position already lost
//! — read from the double-threat searches of the boundaries before and after it, with the
//! defences searched only where a verdict needs them, and the engine's evaluation before and
//! after the move.

use super::{defenses, Boundary, Defenses, Searches};
use crate::board::points_text;
use crate::engine::{engine_for, Limits as EngineLimits, Params};
use crate::geom::{Color, Point};
use crate::search::Outcome;
use crate::{Model, Position};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// What one move did, as the searches see it (the double-threat search within the analysis's
/// depth limit: a verdict is never stronger than that search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move completed the row.
    Won,
    /// The mover had a win and still has one against every reply.
    KeptWin,
    /// The mover had a win; after the move the opponent has a reply after which it is gone (or
    /// the move left no threat at all).
    ThrewAwayWin,
    /// After the move the opponent has a win, though a move that held existed (the opponent
    /// had no threat, or the mover had a defence that held).
    WalkedIntoLoss,
    /// After the move the opponent has a win, and no move would have held: lost before it.
    AlreadyLost,
    /// Neither side's win changed hands.
    Held,
    /// A search the verdict needed ended undecided (a node or time limit, a stop).
    Unclear,
}

impl Verdict {
    /// The verdict as text and JSON say it (`walked into a loss`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::KeptWin => "kept the win",
            Verdict::ThrewAwayWin => "threw away a win",
            Verdict::WalkedIntoLoss => "walked into a loss",
            Verdict::AlreadyLost => "already lost",
            Verdict::Held => "held",
            Verdict::Unclear => "unclear",
        }
    }

    /// The mark of the move in a move list: `!` kept or won, `??` a loss walked into, `?` a
    /// win thrown away, nothing otherwise.
    pub fn mark(self) -> &'static str {
        match self {
            Verdict::Won | Verdict::KeptWin => "!",
            Verdict::WalkedIntoLoss => "??",
            Verdict::ThrewAwayWin => "?",
            _ => "",
        }
    }

    /// Did this move decide the game against its side, where another move would not have?
    pub fn is_mistake(self) -> bool {
        matches!(self, Verdict::WalkedIntoLoss | Verdict::ThrewAwayWin)
    }
}

/// The review of the move played from one boundary.
#[derive(Clone, Debug)]
pub struct Review {
    /// The side that played it.
    pub side: Color,
    /// Its stones.
    pub stones: Vec<Point>,
    /// What it did.
    pub verdict: Verdict,
    /// The engine's evaluation for `side` before the move (`None` when stopped).
    pub eval_before: Option<i32>,
    /// The same after the move (the evaluation of the next boundary, from `side`'s view;
    /// `None` after the game's last move).
    pub eval_after: Option<i32>,
    /// The engine's own choice where the move was played.
    pub engine_move: Vec<Point>,
}

/// The engine's depth for the evaluations of a review, in whole moves: shallow, so that a
/// review costs little beside the searches (a few milliseconds a boundary).
const EVAL_DEPTH: u32 = 2;

/// The engine's view of a boundary: its evaluation for the side to move and the move it would
/// play.
#[derive(Clone, Debug)]
pub struct Eval {
    /// Value for the side to move (`±1,000,000` minus plies for a decided game; docs/json.md,
    /// `move`).
    pub value: i32,
    /// The engine's move.
    pub stones: Vec<Point>,
}

/// The engine's view of each of `positions` at [`EVAL_DEPTH`] (`None` after a stop): what
/// `cpbim move --depth 2` says there, threat searches included. The positions are split into
/// one run of consecutive positions per thread, each with its own engine.
pub(super) fn evaluations(positions: &[&Position], stop: &AtomicBool) -> Vec<Option<Eval>> {
    let Some(first) = positions.first() else {
        return Vec::new();
    };
    let params = Params {
        threads: 1,
        ..Params::for_game(first.game())
    };
    let run = positions.len().div_ceil(rayon::current_num_threads());
    positions
        .par_chunks(run)
        .flat_map_iter(|chunk| {
            let mut engine = engine_for(first.game(), params.clone());
            chunk
                .iter()
                .map(|pos| {
                    let game = pos.game();
                    if stop.load(Ordering::Relaxed) || pos.board().stones() == game.m() * game.n() {
                        return None;
                    }
                    let choice = engine.choose_until(pos, EngineLimits::depth(EVAL_DEPTH), stop);
                    Some(Eval {
                        value: choice.eval,
                        stones: choice.stones,
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

impl<M: Model> Searches<'_, M> {
    /// Has `side`, to move on `pos` and facing the threat of boundary `b`, a move that holds?
    /// `None` when undecided. Uses the boundary's defences when the analysis found them.
    fn can_hold(&self, pos: &Position, b: &Boundary) -> Option<bool> {
        match b.threat.outcome {
            Outcome::None | Outcome::Nowin => return Some(true),
            Outcome::Unknown => return None,
            Outcome::Win => {}
        }
        let searched;
        let d: &Defenses = match &b.defenses {
            Some(d) if d.needed && !d.stopped => d,
            _ => {
                // One move that holds is enough: the search stops at the first.
                searched = defenses(pos.board(), pos.to_move(), self, true);
                &searched
            }
        };
        match (d.holding, d.unknown) {
            (0, 0) => Some(false),
            (0, _) => None,
            _ => Some(true),
        }
    }
}

/// Review the move played from each boundary but the last (`positions[i]` is boundary i's
/// position; the move from i is the last move of boundary i + 1), the boundaries' engine
/// views ([`Boundary::eval`]) already set.
pub(super) fn review<M: Model>(
    positions: &[&Position],
    boundaries: &mut [Boundary],
    searches: &Searches<'_, M>,
) {
    // Whether the side to move at boundary j can hold, searched at most once: the verdict of
    // the move into j and of the move from j may both ask.
    let memo = std::cell::RefCell::new(vec![None; boundaries.len()]);
    let can_hold = |j: usize, b: &Boundary| {
        if let Some(known) = memo.borrow()[j] {
            return known;
        }
        let found = searches.can_hold(positions[j], b);
        memo.borrow_mut()[j] = Some(found);
        found
    };
    for i in 0..boundaries.len().saturating_sub(1) {
        let (b, next) = (&boundaries[i], &boundaries[i + 1]);
        let verdict = verdict(
            b,
            next,
            || can_hold(i, b),
            || can_hold(i + 1, next).map(|holds| !holds),
        );
        boundaries[i].review = Some(Review::of(
            b,
            next.last_move.clone(),
            verdict,
            next.eval.as_ref(),
        ));
    }
}

impl Review {
    /// The review of the move `stones` played from `b`, with the engine's view after it.
    pub fn of(b: &Boundary, stones: Vec<Point>, verdict: Verdict, after: Option<&Eval>) -> Review {
        Review {
            side: b.to_move,
            stones,
            verdict,
            eval_before: b.eval.as_ref().map(|e| e.value),
            eval_after: after.map(|e| -e.value),
            engine_move: b
                .eval
                .as_ref()
                .map(|e| e.stones.clone())
                .unwrap_or_default(),
        }
    }
}

/// The verdict of the move from boundary `b` to boundary `next`; `could_hold` (did the mover
/// have a move that held at `b`?) and `keeps` (does the mover's threat at `next` beat every
/// reply?) are asked only when the verdict depends on them.
fn verdict(
    b: &Boundary,
    next: &Boundary,
    could_hold: impl FnOnce() -> Option<bool>,
    keeps: impl FnOnce() -> Option<bool>,
) -> Verdict {
    let had_win = b.win.outcome == Outcome::Win;
    match next.win.outcome {
        // The opponent, to move after it, wins.
        Outcome::Win if had_win => Verdict::ThrewAwayWin,
        Outcome::Win => match could_hold() {
            Some(true) => Verdict::WalkedIntoLoss,
            Some(false) => Verdict::AlreadyLost,
            None => Verdict::Unclear,
        },
        Outcome::Unknown => Verdict::Unclear,
        Outcome::None | Outcome::Nowin if had_win => match keeps() {
            Some(true) => Verdict::KeptWin,
            Some(false) => Verdict::ThrewAwayWin,
            None => Verdict::Unclear,
        },
        Outcome::None | Outcome::Nowin if b.win.outcome == Outcome::Unknown => Verdict::Unclear,
        Outcome::None | Outcome::Nowin => Verdict::Held,
    }
}

/// An evaluation as text, from the view it was given in: `+35`, `-120`, `win`/`loss` for the
/// engine's decided values.
fn eval_text(v: i32) -> String {
    const DECIDED: i32 = 900_000;
    match v {
        v if v >= DECIDED => "win".to_string(),
        v if v <= -DECIDED => "loss".to_string(),
        v => format!("{v:+}"),
    }
}

/// `white K9 L10: walked into a loss ??  (eval +35 → loss; engine: L10 M11)`.
pub fn review_text(r: &Review) -> String {
    let mut s = format!(
        "{} {}: {}",
        r.side,
        points_text(&r.stones),
        r.verdict.name()
    );
    if !r.verdict.mark().is_empty() {
        s += &format!(" {}", r.verdict.mark());
    }
    let mut notes = Vec::new();
    if let Some(before) = r.eval_before {
        notes.push(match r.eval_after {
            Some(after) => format!("eval {} → {}", eval_text(before), eval_text(after)),
            None => format!("eval {}", eval_text(before)),
        });
    }
    if !r.engine_move.is_empty() && r.engine_move != r.stones && r.verdict != Verdict::Won {
        notes.push(format!("engine: {}", points_text(&r.engine_move)));
    }
    if !notes.is_empty() {
        s += &format!("  ({})", notes.join("; "));
    }
    s
}

/// `{"side", "move", "verdict", "mark", "eval_before", "eval_after", "engine_move"}`.
pub fn review_json(r: &Review) -> serde_json::Value {
    serde_json::json!({
        "side": r.side.name(),
        "move": r.stones,
        "verdict": r.verdict.name(),
        "mark": r.verdict.mark(),
        "eval_before": r.eval_before,
        "eval_after": r.eval_after,
        "engine_move": r.engine_move,
    })
}

/// `{"value", "move"}` of the engine's view of a boundary.
pub fn eval_json(e: &Eval) -> serde_json::Value {
    serde_json::json!({ "value": e.value, "move": e.stones })
}

/// The first move of a game that threw a win away or walked into a loss: `white@23 ??`, or
/// `-` when none did.
pub fn first_mistake(boundaries: &[Boundary]) -> String {
    boundaries
        .iter()
        .filter_map(|b| b.review.as_ref().map(|r| (b, r)))
        .find(|(_, r)| r.verdict.is_mistake())
        .map_or("-".to_string(), |(b, r)| {
            format!("{}@{} {}", r.side, b.stones, r.verdict.mark())
        })
}
