//! The alpha-beta over whole moves: negamax with a transposition table, the leaves valued
//! by a small threat search and [`Params::evaluate`]. One [`Searcher`] per thread, each with
//! its leaf search, all with one [`Table`]; the root's moves after the first are shared out
//! among them.

use super::eval::{Params, WIN};
use super::moves::{self, Moves};
use super::table::{Bound, Entry, Table};
use crate::geom::{Color, Point};
use crate::model::Model;
use crate::search::{Config, Outcome, Solver};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The search was stopped by the clock.
pub struct OutOfTime;

/// A root move's result: its index, score and line.
pub type Scored = (usize, i32, Vec<Vec<Point>>);

/// One thread's alpha-beta: its leaf search, and the transposition table it shares with the
/// other threads (kept between moves).
pub struct Searcher<M: Model> {
    params: Params,
    /// `params` with `pairs` set to `reply_pairs`: for the opponent's moves.
    replies: Params,
    /// The side whose move is being chosen.
    chooser: Color,
    tt: Arc<Table>,
    /// The small threat search of the leaves.
    leaf: Solver<M>,
    /// Nodes since the last [`Searcher::start`].
    pub nodes: u64,
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
}

impl<M: Model> Searcher<M> {
    /// A searcher weighing by `params`, storing into `tt`, ending when `stop` is set.
    pub fn new(params: Params, tt: Arc<Table>, stop: Arc<AtomicBool>) -> Self {
        let leaf = Solver::new(Config {
            depth: params.leaf_depth,
            max_nodes: Some(params.leaf_nodes),
            tt_entries: 1 << 14,
            ..Config::default()
        });
        let replies = Params {
            pairs: if params.reply_pairs == 0 {
                params.pairs
            } else {
                params.reply_pairs
            },
            ..params.clone()
        };
        Searcher {
            params,
            replies,
            chooser: Color::Black,
            tt,
            leaf,
            nodes: 0,
            deadline: None,
            stop,
        }
    }

    /// Start a move's search: no nodes yet, end at `deadline`.
    pub fn start(&mut self, deadline: Option<Instant>) {
        self.nodes = 0;
        self.deadline = deadline;
    }

    /// The score (for `side`) and line of root move `mv` searched `depth` whole moves deep,
    /// this move included: a score above `alpha` is exact, one at or below it a bound.
    pub fn root_move(
        &mut self,
        m: &mut M,
        side: Color,
        mv: &moves::Move,
        depth: u32,
        alpha: i32,
    ) -> Result<(i32, Vec<Vec<Point>>), OutOfTime> {
        self.chooser = side;
        let later = alpha > -WIN - 1;
        let (score, mut line) = self.probed(m, side, mv, later, false, depth, 0, alpha, WIN + 1)?;
        line.insert(0, mv.stones.clone());
        Ok((score, line))
    }

    /// `mv` of `side` played at `ply`, the opponent's reply searched `depth − 1` whole moves
    /// deep within the window (`alpha`, `beta`) of `side`, taken back: the score for `side` and
    /// the line after `mv`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn after(
        &mut self,
        m: &mut M,
        side: Color,
        mv: &moves::Move,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, Vec<Vec<Point>>), OutOfTime> {
        for &p in &mv.stones {
            m.make(p, side);
        }
        let r = self.negamax(m, side.opponent(), depth - 1, ply + 1, -beta, -alpha);
        for _ in &mv.stones {
            m.unmake();
        }
        let (score, line) = r?;
        Ok((-score, line))
    }

    /// [`Searcher::after`], with `late_moves` set first probed: a move after its node's first
    /// (`later`) with a null window, a `late` one of a quiet node (no live window to answer)
    /// also one whole move shallower; searched again whole only when the probe beats `alpha`.
    #[allow(clippy::too_many_arguments)]
    fn probed(
        &mut self,
        m: &mut M,
        side: Color,
        mv: &moves::Move,
        later: bool,
        late: bool,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, Vec<Vec<Point>>), OutOfTime> {
        if self.params.late_moves == 0 || !later {
            return self.after(m, side, mv, depth, ply, alpha, beta);
        }
        let reduced = late && depth >= 2;
        let probe_depth = if reduced { depth - 1 } else { depth };
        let probe = self.after(m, side, mv, probe_depth, ply, alpha, alpha + 1)?;
        if probe.0 <= alpha || (!reduced && probe.0 >= beta) {
            return Ok(probe);
        }
        self.after(m, side, mv, depth, ply, alpha, beta)
    }

    /// The value of a leaf for `side` to move, facing `threats` (the stones its opponent's
    /// live windows cost it): a win when its small threat search finds one, else the
    /// valuation.
    fn leaf_value(&mut self, m: &M, side: Color, threats: usize, ply: u32) -> i32 {
        if self.params.leaf_depth > 0 {
            let (outcome, depth, nodes) = self.leaf.wins_within(m.board(), side, &self.stop);
            self.nodes += nodes;
            if outcome == Outcome::Win {
                return WIN - ply as i32 - depth as i32;
            }
        }
        self.params.evaluate(m, side, threats)
    }

    /// Negamax with alpha-beta for `side` to move; the score and the principal variation.
    fn negamax(
        &mut self,
        m: &mut M,
        side: Color,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Vec<Vec<Point>>), OutOfTime> {
        self.nodes += 1;
        // Every node: the leaves' threat searches make nodes costly and uneven (a count of
        // nodes between looks at the clock let a move overrun its time by a tenth).
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(OutOfTime);
        }
        if m.thn(side) > 0 {
            return Ok((WIN - ply as i32, Vec::new()));
        }
        if m.board().stones() == m.game().point_count() {
            return Ok((0, Vec::new()));
        }
        let key = m.zobrist() ^ (side.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut tt_move = None;
        if let Some(e) = self.tt.get(key) {
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cut {
                    return Ok((e.score, vec![e.best_stones()]));
                }
            }
            tt_move = Some(e.best_stones());
        }
        let p = m.game().p();
        let lost = Ok((-WIN + ply as i32 + 1, Vec::new()));
        let threats = m.thn(side.opponent()) as usize;
        if threats > p {
            return lost;
        }
        // One stone a move, a live window of the opponent has one answer, and the block costs
        // no depth, at the leaves too: a line of fours and blocks is followed to its end
        // instead of hiding what comes after it beyond the horizon.
        let forced = p == 1 && threats > 0;
        if depth == 0 && !forced {
            return Ok((self.leaf_value(m, side, threats, ply), Vec::new()));
        }
        let params = if side == self.chooser {
            &self.params
        } else {
            &self.replies
        };
        let mut list = match moves::generate(m, side, p, params) {
            Moves::Lost => return lost,
            Moves::Some(list) => list,
        };
        if let Some(tm) = tt_move {
            if let Some(i) = list.iter().position(|mv| mv.stones == tm) {
                let mv = list.remove(i);
                list.insert(0, mv);
            }
        }
        let reach = if forced { depth + 1 } else { depth };
        let alpha0 = alpha;
        let mut best = (-WIN - 1, Vec::new());
        for (i, mv) in list.iter().enumerate() {
            let late = threats == 0 && i >= self.params.late_moves;
            let (score, mut line) =
                self.probed(m, side, mv, i > 0, late, reach, ply, alpha, beta)?;
            if score > best.0 {
                line.insert(0, mv.stones.clone());
                best = (score, line);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best.0 <= alpha0 {
            Bound::Upper
        } else if best.0 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(first) = best.1.first() {
            let stone = |i: usize| first.get(i).copied();
            self.tt.put(
                key,
                &Entry {
                    depth,
                    score: best.0,
                    bound,
                    best: [stone(0), stone(1)],
                },
            );
        }
        Ok(best)
    }
}

/// One iteration at the root, `depth` whole moves deep, on as many threads as `searchers`:
/// the first move on the first searcher, then the others shared out, each searched against
/// the best score so far. The best move (its index, score and line; ties to the earlier
/// move) and whether every move was searched; when the clock ends it, the best of the moves
/// searched (the first is the last iteration's best, so one that beat it is better at this
/// depth), or none.
pub fn root_iteration<M: Model>(
    searchers: &mut [Searcher<M>],
    m: &mut M,
    side: Color,
    root: &[moves::Move],
    depth: u32,
) -> (Option<Scored>, bool) {
    let Ok((score, line)) = searchers[0].root_move(m, side, &root[0], depth, -WIN - 1) else {
        return (None, false);
    };
    let best = Mutex::new((0, score, line));
    let alpha = AtomicI32::new(score);
    let next = AtomicUsize::new(1);
    let complete = AtomicBool::new(true);
    let work = |searcher: &mut Searcher<M>, m: &mut M| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(mv) = root.get(i) else { break };
        let a = alpha.load(Ordering::Relaxed);
        let Ok((s, line)) = searcher.root_move(m, side, mv, depth, a) else {
            complete.store(false, Ordering::Relaxed);
            break;
        };
        if s > a {
            alpha.fetch_max(s, Ordering::Relaxed);
            let mut b = best.lock().expect("no thread panicked holding it");
            if s > b.1 || (s == b.1 && i < b.0) {
                *b = (i, s, line);
            }
        }
    };
    let work = &work;
    let (first, rest) = searchers.split_first_mut().expect("a searcher");
    std::thread::scope(|scope| {
        for searcher in rest.iter_mut() {
            let mut own = M::from_board(m.board());
            scope.spawn(move || work(searcher, &mut own));
        }
        work(first, m);
    });
    let best = best.into_inner().expect("no thread panicked holding it");
    (Some(best), complete.into_inner())
}
