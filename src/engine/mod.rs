//! The playing engine (`docs/engine.md`): chooses a whole move for the side to move.
//!
//! The threat search decides first: a row to complete is completed, a double-threat (or VCF)
//! win is played, and of the candidate moves only those after which the opponent has no
//! threat win within the engine's threat depth are searched when any is left. Among them an
//! iterative-deepening alpha-beta over whole moves, with a transposition table, picks the best
//! by the connection-type valuation of [`Params`].

mod alphabeta;
pub mod clock;
pub mod eval;
pub mod moves;
pub mod player;
pub mod seed000;
pub mod seed004;
mod table;

pub use clock::Clock;
pub use eval::{Params, Tuning};
pub use player::{engine_for, player_for, Player, PlayerKind};

use crate::geom::{Color, Point};
use crate::model::{Model, Threat};
use crate::search::proof::{proof_holds, ProofNode};
use crate::search::{Config, Outcome, Solver};
use crate::{Board, Position};
use alphabeta::Searcher;
use eval::{DECIDED, WIN};
use moves::Moves;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::Table;

/// The alpha-beta's table: 2^20 slots of 16 bytes (16 MiB), shared by its threads.
const TT_BITS: u32 = 20;

/// How long the engine may think. Without a time or a clock, the depth bounds the search (and
/// the result is the same on every run).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Wall time for the whole move; the engine answers within it.
    pub time: Option<Duration>,
    /// Deepest alpha-beta iteration, in whole moves (default 2 without a time).
    pub depth: Option<u32>,
    /// The side's game clock: the move gets its budget ([`Clock::budget`]), or `time` if that
    /// is less. Whoever plays the move charges the clock.
    pub clock: Option<Clock>,
}

impl Limits {
    /// `time` per move.
    pub fn per_move(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// `depth` whole moves, no time limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// The wall time of this move: `time`, capped by the clock's budget.
    pub fn move_time(&self) -> Option<Duration> {
        match (self.time, self.clock) {
            (t, Some(c)) => Some(t.map_or(c.budget(), |t| t.min(c.budget()))),
            (t, None) => t,
        }
    }
}

/// What the threat search says about the chosen move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move wins by force: the row now (`0`) or a threat win of this many plies.
    Win(u32),
    /// Every candidate move leaves the opponent a threat win (or more live windows than one
    /// move blocks): the position is lost against best play, as far as the engine sees.
    Loss,
    /// Neither.
    Open,
}

/// The engine's answer.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The stones to play (one or two).
    pub stones: Vec<Point>,
    /// Value for the side to move (`±1,000,000` minus plies for a decided game).
    pub eval: i32,
    /// Principal variation: this move and the expected replies, whole moves.
    pub pv: Vec<Vec<Point>>,
    /// What the threat search says.
    pub verdict: Verdict,
    /// Deepest completed alpha-beta iteration (0 when the threat search decided).
    pub depth: u32,
    /// Alpha-beta nodes plus threat-search nodes.
    pub nodes: u64,
    /// Wall time of the choice.
    pub time: Duration,
    /// For a threat win: its proof tree, rooted at this move (`docs/search.md`).
    pub proof: Option<ProofNode>,
}

/// An engine for one model type; the transposition table lives between moves.
pub struct Engine<M: Model> {
    params: Params,
    threat: Solver<M>,
    /// Threat searches of the other threads ([`Params::threads`]).
    pool: Vec<Solver<M>>,
    /// The alpha-beta, one per thread.
    searchers: Vec<Searcher<M>>,
    /// Their transposition table.
    table: Arc<Table>,
    nodes: u64,
    /// Set from outside ([`Engine::choose_until`]): every search ends with what it has.
    stop: Arc<AtomicBool>,
}

impl<M: Model> Engine<M> {
    /// An engine weighing by `params`.
    pub fn new(params: Params) -> Self {
        let threat = Solver::new(Config {
            depth: params.threat_depth,
            tt_entries: 1 << 16,
            ..Config::default()
        });
        let stop = Arc::new(AtomicBool::new(false));
        let table = Arc::new(Table::new(TT_BITS));
        let searchers = (0..params.threads.max(1))
            .map(|_| Searcher::new(params.clone(), Arc::clone(&table), Arc::clone(&stop)))
            .collect();
        Engine {
            params,
            threat,
            pool: Vec::new(),
            searchers,
            table,
            nodes: 0,
            stop,
        }
    }

    /// Its parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// [`Engine::choose`], ended early (with the best move found so far) once `stop` is set
    /// from another thread.
    pub fn choose_until(&mut self, pos: &Position, limits: Limits, stop: &AtomicBool) -> Choice {
        let own = Arc::clone(&self.stop);
        let done = AtomicBool::new(false);
        let choice = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        own.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let choice = self.choose(pos, limits);
            done.store(true, Ordering::Relaxed);
            choice
        });
        self.stop.store(false, Ordering::Relaxed);
        choice
    }

    /// Choose the move for the side to move of `pos` (which must not be finished and must
    /// have an empty point).
    pub fn choose(&mut self, pos: &Position, limits: Limits) -> Choice {
        let start = Instant::now();
        let limits = Limits {
            time: limits.move_time(),
            ..limits
        };
        self.nodes = 0;
        // Keep a margin for the answer itself.
        let deadline = limits.time.map(|t| start + t.mul_f64(0.9));
        self.table.new_generation();
        for s in &mut self.searchers {
            s.start(deadline);
        }
        let side = pos.to_move();
        let n = pos.stones_to_place();
        let mut m = M::from_board(pos.board());
        let decided = |stones: Vec<Point>, eval, verdict, nodes| Choice {
            pv: vec![stones.clone()],
            stones,
            eval,
            verdict,
            depth: 0,
            nodes,
            time: start.elapsed(),
            proof: None,
        };
        if let Some(stones) = self.completion(&m, side, n) {
            return decided(stones, WIN, Verdict::Win(0), 1);
        }
        self.threat_limits(self.params.win_depth, limits.time.map(|t| t / 4), true);
        let s = self.threat.solve(pos, &self.stop);
        self.nodes += s.nodes;
        if s.outcome == Outcome::Win {
            let first = s.line[0].clone();
            let win = decided(
                first,
                WIN - s.depth as i32,
                Verdict::Win(s.depth),
                self.nodes,
            );
            return Choice {
                proof: s.proof,
                ..win
            };
        }
        let mut root = match moves::generate(&mut m, side, n, &self.params) {
            Moves::Some(mv) => mv,
            Moves::Lost => {
                let stones = self.any_stones(&m, side, n);
                return decided(stones, -WIN + 1, Verdict::Loss, self.nodes);
            }
        };
        let part = |k: u32| limits.time.map(|t| t / k);
        self.defence_first(&mut m, side, n, &mut root, part(10));
        let mut verdict = self.keep_safe(&m, side, &mut root, part(3));
        if verdict == Verdict::Loss {
            let held = self.wider_defence(&mut m, side, n, part(2));
            if !held.is_empty() {
                root = held;
                verdict = Verdict::Open;
            }
        }
        self.alpha_beta_root(&mut m, side, root, limits, verdict, start)
    }

    /// When the opponent would have a threat win if `side` passed, put the moves most likely
    /// to hold at the front of `root`: those through the stones of its attacks, then those
    /// that make a threat of `side`'s own.
    fn defence_first(
        &mut self,
        m: &mut M,
        side: Color,
        n: usize,
        root: &mut Vec<moves::Move>,
        time: Option<Duration>,
    ) {
        self.threat_limits(self.params.threat_depth, time, false);
        let s = self
            .threat
            .solve_for(m.board(), side.opponent(), &self.stop);
        self.nodes += s.nodes;
        if s.outcome != Outcome::Win || s.line.is_empty() {
            return;
        }
        let key: Vec<Point> = s.line.iter().step_by(2).flatten().copied().collect();
        let mut front = moves::through(m, side, n, &key, &self.params);
        for mv in moves::counter_threats(m, side, n, &self.params) {
            if !front.contains(&mv) {
                front.push(mv);
            }
        }
        root.retain(|mv| !front.iter().any(|f| f.stones == mv.stones));
        front.append(root);
        *root = front;
    }

    /// Drop the moves after which the opponent has a threat win, checking them in order
    /// (`threads` at a time) within `time` and stopping once `safe_moves` have held; `Loss`
    /// when none holds. Moves whose check ran out of time count only when none was proved
    /// safe.
    fn keep_safe(
        &mut self,
        m: &M,
        side: Color,
        root: &mut Vec<moves::Move>,
        time: Option<Duration>,
    ) -> Verdict {
        let until = time.map(|t| Instant::now() + t);
        let threads = self.params.threads.max(1);
        let (mut safe, mut unsettled) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < root.len() && safe.len() < self.params.safe_moves {
            let left = until.map(|u| u.saturating_duration_since(Instant::now()));
            if left.is_some_and(|l| l.is_zero()) {
                // Not checked at all: as good as a check that ran out of time.
                unsettled.extend(root[i..].iter().cloned());
                break;
            }
            let rounds = (root.len() - i)
                .min(self.params.safe_moves)
                .div_ceil(threads);
            let batch = &root[i..(i + threads).min(root.len())];
            let each = left.map(|l| l / rounds as u32);
            for (mv, held) in batch.iter().zip(self.check(m.board(), side, batch, each)) {
                match held {
                    Some(true) => safe.push(mv.clone()),
                    Some(false) => {}
                    None => unsettled.push(mv.clone()),
                }
            }
            i += batch.len();
        }
        if !safe.is_empty() {
            *root = safe;
        } else if !unsettled.is_empty() {
            *root = unsettled;
        } else {
            return Verdict::Loss;
        }
        Verdict::Open
    }

    /// When none of the candidate moves holds: every move among the `2 × width` best points,
    /// best first, is checked against the opponent's threat win within `time` (a proof of
    /// that win which stays valid with the move on the board refutes it without a search);
    /// the first `safe_moves` that hold.
    fn wider_defence(
        &mut self,
        m: &mut M,
        side: Color,
        n: usize,
        time: Option<Duration>,
    ) -> Vec<moves::Move> {
        let until = time.map(|t| Instant::now() + t);
        self.threat_limits(self.params.threat_depth, time, true);
        let s = self
            .threat
            .solve_for(m.board(), side.opponent(), &self.stop);
        self.nodes += s.nodes;
        let Some(proof) = s.proof else {
            return Vec::new();
        };
        let complete = self.threat.config().complete;
        let mut held = Vec::new();
        for mv in moves::wide(m, side, n, 2 * self.params.width, &self.params) {
            let left = until.map(|u| u.saturating_duration_since(Instant::now()));
            if left.is_some_and(|l| l.is_zero())
                || self.stop.load(Ordering::Relaxed)
                || held.len() == self.params.safe_moves
            {
                break;
            }
            mv.stones.iter().for_each(|&p| m.make(p, side));
            let refuted = proof_holds(m, side.opponent(), complete, &proof);
            mv.stones.iter().for_each(|_| m.unmake());
            if refuted {
                continue;
            }
            self.threat_limits(self.params.threat_depth, left, false);
            let (h, nodes) = holds(&mut self.threat, m.board(), side, &mv, &self.stop);
            self.nodes += nodes;
            if h == Some(true) {
                held.push(mv);
            }
        }
        held
    }

    /// Does each of `moves` hold ([`holds`])? One on this thread, several on as many threads
    /// (each with a threat search of its own), each within `time`.
    fn check(
        &mut self,
        board: &Board,
        side: Color,
        moves: &[moves::Move],
        time: Option<Duration>,
    ) -> Vec<Option<bool>> {
        let config = self.threat_config(self.params.threat_depth, time, false);
        if let [mv] = moves {
            self.threat.set_config(config);
            let (held, nodes) = holds(&mut self.threat, board, side, mv, &self.stop);
            self.nodes += nodes;
            return vec![held];
        }
        while self.pool.len() < moves.len() {
            self.pool.push(Solver::new(config.clone()));
        }
        let stop = &self.stop;
        let results: Vec<(Option<bool>, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .pool
                .iter_mut()
                .zip(moves)
                .map(|(solver, mv)| {
                    solver.set_config(config.clone());
                    scope.spawn(move || holds(solver, board, side, mv, stop))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a safety check panicked"))
                .collect()
        });
        self.nodes += results.iter().map(|r| r.1).sum::<u64>();
        results.into_iter().map(|r| r.0).collect()
    }

    /// Stones that complete a winning row of `side` now, topped up to `n` stones.
    fn completion(&self, m: &M, side: Color, n: usize) -> Option<Vec<Point>> {
        let mut windows: Vec<Threat> = Vec::new();
        m.live_windows(side, &mut windows);
        let w = windows.iter().find(|w| w.points().count() <= n)?;
        let mut stones: Vec<Point> = w.points().collect();
        if stones.len() < n {
            let more = self.any_stones(m, side, n);
            stones.extend(more.into_iter().filter(|p| !w.contains(*p)));
            stones.truncate(n);
        }
        Some(stones)
    }

    /// The best-valued legal stones, when nothing better can be said.
    fn any_stones(&self, m: &M, side: Color, n: usize) -> Vec<Point> {
        let mut ranked: Vec<(i32, Point)> = m
            .game()
            .points()
            .filter(|&p| moves::playable(m, side, p))
            .map(|p| (-self.params.point_value(m, p, side), p))
            .collect();
        ranked.sort();
        ranked.into_iter().take(n).map(|r| r.1).collect()
    }

    /// The threat searches that follow go `depth` plies deep and get `time` each (and build
    /// proofs of wins).
    fn threat_limits(&mut self, depth: u32, time: Option<Duration>, proof: bool) {
        let config = self.threat_config(depth, time, proof);
        self.threat.set_config(config);
    }

    /// A threat search `depth` plies deep within `time` (building proofs of wins).
    fn threat_config(&self, depth: u32, time: Option<Duration>, proof: bool) -> Config {
        Config {
            depth,
            max_time: time,
            tt_entries: 1 << 16,
            proof,
            ..Config::default()
        }
    }

    fn alpha_beta_root(
        &mut self,
        m: &mut M,
        side: Color,
        mut root: Vec<moves::Move>,
        limits: Limits,
        verdict: Verdict,
        start: Instant,
    ) -> Choice {
        let max_depth = limits
            .depth
            .unwrap_or(if limits.time.is_some() { 64 } else { 2 });
        let mut best = (root[0].stones.clone(), 0, vec![root[0].stones.clone()]);
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            let (found, complete) =
                alphabeta::root_iteration(&mut self.searchers, m, side, &root, depth);
            let Some((i, score, pv)) = found else { break };
            best = (root[i].stones.clone(), score, pv);
            if complete {
                depth_done = depth;
            }
            // Search the best move first next time.
            let mv = root.remove(i);
            root.insert(0, mv);
            if !complete || score.abs() >= DECIDED {
                break;
            }
        }
        // A decided score of the alpha-beta stays in `eval`: it is searched over the engine's
        // own candidate moves, not proved, so it never makes the verdict a forced win.
        self.nodes += self.searchers.iter().map(|s| s.nodes).sum::<u64>();
        Choice {
            stones: best.0,
            eval: best.1,
            pv: best.2,
            verdict,
            depth: depth_done,
            nodes: self.nodes,
            time: start.elapsed(),
            proof: None,
        }
    }
}

/// After `mv` of `side` on `board`, has the opponent no threat win within `solver`'s depth?
/// `None` when the search ran out of time; and the nodes it took.
fn holds<M: Model>(
    solver: &mut Solver<M>,
    board: &Board,
    side: Color,
    mv: &moves::Move,
    stop: &AtomicBool,
) -> (Option<bool>, u64) {
    let mut after = board.clone();
    for &p in &mv.stones {
        after.set(p, Some(side));
    }
    let (outcome, _, nodes) = solver.wins_within(&after, side.opponent(), stop);
    let held = match outcome {
        Outcome::Win => Some(false),
        Outcome::Unknown => None,
        Outcome::None | Outcome::Nowin => Some(true),
    };
    (held, nodes)
}
