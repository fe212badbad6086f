//! Move-by-move threat analysis of a line (`cpbim analyze`): at every move boundary, who is to
//! move, the live windows and threat numbers of both sides, whether the side to move has a
//! double-threat win, whether the opponent would have one if the side to move passed (the
//! threat the move must answer), and optionally which moves answer it.

mod report;
mod verdict;

pub use report::{
    analysis_json, board_svg, boundary_json, boundary_text, end_json, end_text, summary_header,
    summary_row,
};
pub use verdict::{
    eval_json, first_mistake, review_json, review_text, Eval, Review, Verdict as MoveVerdict,
};

use crate::batch::Solvers;
use crate::board::{Board, Position};
use crate::game::Game;
use crate::geom::{ByColor, Color, Point};
use crate::record::{Record, Win};
use crate::renju;
use crate::search::proof::{proof_holds, ProofNode};
use crate::search::{Config, Outcome, Solution};
use crate::{Cpbim, Model};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What to compute.
#[derive(Clone, Debug)]
pub struct AnalyzeConfig {
    /// The search of every question (depth limit, node and time limits per search).
    pub search: Config,
    /// Also find the defences (pairs of stones of the side to move after which the opponent has
    /// no double-threat win).
    pub defenses: bool,
    /// Candidate points for defences: empty points within this Chebyshev distance of a stone.
    pub radius: usize,
    /// Also run the threat-space proof search (`cpbim prove`) for the side to move wherever
    /// its own search found no win, within these limits.
    pub prove: Option<crate::prove::Limits>,
    /// The engine's evaluation at every boundary ([`Boundary::eval`], and the reviews'
    /// evaluations before and after each move): about 40 ms a boundary.
    pub eval: bool,
    /// The verdict of every move ([`Boundary::review`]): where a side's win changes hands, the
    /// moves that hold are searched.
    pub review: bool,
}

impl Default for AnalyzeConfig {
    fn default() -> Self {
        AnalyzeConfig {
            search: Config::default(),
            defenses: false,
            radius: 2,
            prove: None,
            eval: true,
            review: true,
        }
    }
}

/// The defences of one move boundary. They are looked for only when the opponent has a
/// threat (its search if the side to move passed did not end `none` or `nowin`); otherwise
/// `needed` is false and nothing is counted.
#[derive(Clone, Debug, Default)]
pub struct Defenses {
    /// Was there a threat to answer?
    pub needed: bool,
    /// Did a stop request (Ctrl-C) come before the search? Then nothing is counted.
    pub stopped: bool,
    /// Candidate points (empty, within the radius of a stone).
    pub points: usize,
    /// Candidate moves: pairs of candidate points (single points in games of one stone per
    /// move).
    pub pairs: usize,
    /// Pairs after which the opponent has no double-threat win within the depth limit.
    pub holding: usize,
    /// Pairs the limits left undecided.
    pub unknown: usize,
    /// Pairs shown not to hold by a known proof of the opponent's win that stays valid with
    /// the pair on the board (no search needed).
    pub carried: usize,
    /// Nodes of the searches (the single-stone proofs and the pairs not carried).
    pub nodes: u64,
    /// Wall time of the defence search.
    pub time: std::time::Duration,
    /// The holding moves (pairs, or single stones in games of one stone per move), in point
    /// order.
    pub moves: Vec<Vec<Point>>,
    /// The points appearing in the most holding pairs, with their counts, most first (at most
    /// 10).
    pub key_points: Vec<(Point, usize)>,
}

/// The analysis of one move boundary.
#[derive(Clone, Debug)]
pub struct Boundary {
    /// Stones on the board.
    pub stones: usize,
    /// The stones of the move that led here (empty at the start).
    pub last_move: Vec<Point>,
    /// The side to move.
    pub to_move: Color,
    /// Live windows (six points, ≥ 4 own stones, no opponent stone) of each side.
    pub live_windows: ByColor<usize>,
    /// Threat numbers of each side (capped at 3).
    pub thn: ByColor<u8>,
    /// The side to move's double-threat search.
    pub win: Solution,
    /// The opponent's double-threat search if the side to move passed.
    pub threat: Solution,
    /// With [`AnalyzeConfig::defenses`]: the moves that answer the threat.
    pub defenses: Option<Defenses>,
    /// With [`AnalyzeConfig::prove`], where the side to move's search found no win: the proof
    /// search's answer for the side to move.
    pub proved: Option<crate::prove::Answer>,
    /// The engine's evaluation and move here (`None` after a stop).
    pub eval: Option<Eval>,
    /// What the move played from here did (none after a game's last boundary when it is not
    /// finished, nor for a diagram).
    pub review: Option<Review>,
}

/// Progress of an analysis: boundaries finished, and searches done of those known so far.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Boundaries finished.
    pub boundaries_done: usize,
    /// Boundaries in the line.
    pub boundaries: usize,
    /// Searches done.
    pub searches_done: usize,
    /// Searches known so far (grows when a boundary's defences are enumerated).
    pub searches: usize,
}

/// The move boundaries of a line of `n` stones of `game` after black's first move: 1, 3, 5, …
/// in Connect6, 1, 2, 3, … in Gomoku.
pub fn boundaries(game: &Game, n: usize) -> impl Iterator<Item = usize> + use<> {
    let game = *game;
    (1..=n).filter(move |&i| game.is_move_boundary(i))
}

/// The analysis of a game: every move boundary, and how the game ended if it did.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Every move boundary after black's first stone, up to the last one before the end.
    pub boundaries: Vec<Boundary>,
    /// How a finished game ended: the winning move and its six.
    pub end: Option<Win>,
    /// Stones of the whole game.
    pub stones: usize,
}

/// Why a game cannot be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// Not a line (a diagram), or not a game.
    #[error(transparent)]
    Parse(#[from] crate::notation::ParseError),
    /// A line that is not a legal game.
    #[error(transparent)]
    Position(#[from] crate::PositionError),
}

/// Analyse every move boundary of a game with model `M` ([`analyze_stones`]); a finished game
/// is analysed up to the position its winning move was played from, and its end is reported.
/// A diagram (no play order, a puzzle with its side to move) is one position: that position
/// is analysed as a boundary with no last move, and a finished diagram has no boundary.
pub fn analyze_record<M: Model>(
    record: &Record,
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Analysis, AnalyzeError> {
    let boundaries = if record.ordered() {
        let played = record
            .before_end()
            .map_or(record.stones().len(), |p| p.stones().len());
        analyze_stones::<M>(
            *record.game(),
            &record.stones()[..played],
            cfg,
            stop,
            progress,
        )?
    } else {
        let at: Vec<At> = record
            .position()
            .into_iter()
            .map(|pos| At {
                stones: pos.board().stones(),
                last_move: Vec::new(),
                pos,
            })
            .collect();
        analyze_positions::<M>(&at, cfg, stop, progress)
    };
    let mut boundaries = boundaries;
    // The winning move of a finished game is played from its last boundary.
    if let (Some(_), true, Some(last)) = (record.win(), record.ordered(), boundaries.last_mut()) {
        let stones = record.stones()[last.stones..].to_vec();
        last.review = Some(Review::of(last, stones, MoveVerdict::Won, None));
    }
    Ok(Analysis {
        boundaries,
        end: record.win().cloned(),
        stones: record.stones().len(),
    })
}

/// Empty points within Chebyshev distance `radius` of a stone.
pub fn candidate_points(board: &Board, radius: usize) -> Vec<Point> {
    let stones: Vec<Point> = board.iter().map(|s| s.0).collect();
    board
        .game()
        .points()
        .filter(|&p| board.is_empty(p) && stones.iter().any(|&s| s.distance(p) <= radius))
        .collect()
}

/// Analyse every move boundary of `stones`, a Connect6 line (black's first stone, then two per
/// move; it may end inside a move, the partial move is ignored), with CPBIM.
pub fn analyze_line(
    stones: &[Point],
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Boundary>, crate::PositionError> {
    analyze_stones::<Cpbim>(Game::CONNECT6, stones, cfg, stop, progress)
}

/// Analyse every move boundary of `stones`, a line of `game` (it may end inside a move, the
/// partial move is ignored), with model `M`. `progress` is called after every search.
pub fn analyze_stones<M: Model>(
    game: Game,
    stones: &[Point],
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Boundary>, crate::PositionError> {
    let at: Vec<At> = boundaries(&game, stones.len())
        .map(|n| {
            Ok(At {
                stones: n,
                last_move: stones[game.move_of_stone(n - 1).start..n].to_vec(),
                pos: Position::from_stones(game, &stones[..n])?,
            })
        })
        .collect::<Result<_, crate::PositionError>>()?;
    Ok(analyze_positions::<M>(&at, cfg, stop, progress))
}

/// A position to analyse: its stone count, the move that led to it, the position.
struct At {
    stones: usize,
    last_move: Vec<Point>,
    pos: Position,
}

/// Analyse the positions `at` with model `M`, searching in parallel; `progress` is called
/// after every search.
fn analyze_positions<M: Model>(
    at: &[At],
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Boundary> {
    let positions: Vec<&Position> = at.iter().map(|a| &a.pos).collect();
    let solvers = Solvers::<M>::new(&cfg.search);
    let provers = Solvers::<M>::new(&Config {
        proof: true,
        ..cfg.search.clone()
    });
    let done = AtomicUsize::new(0);
    let known = AtomicUsize::new(2 * positions.len());
    let finished = AtomicUsize::new(0);
    let tick = || {
        progress(Progress {
            boundaries_done: finished.load(Ordering::Relaxed),
            boundaries: positions.len(),
            searches_done: done.fetch_add(1, Ordering::Relaxed) + 1,
            searches: known.load(Ordering::Relaxed),
        })
    };
    // The two questions of every boundary, in parallel.
    let questions: Vec<(usize, Color)> = (0..positions.len())
        .flat_map(|i| {
            let c = positions[i].to_move();
            [(i, c), (i, c.opponent())]
        })
        .collect();
    let answers: Vec<Solution> = questions
        .par_iter()
        .map(|&(i, attacker)| {
            let s = solvers.solve_for(positions[i].board(), attacker, stop);
            tick();
            s
        })
        .collect();
    let mut proved = proofs::<M>(&positions, &answers, cfg, stop, &known, &tick);
    let mut evals = if cfg.eval {
        verdict::evaluations(&positions, stop)
    } else {
        vec![None; positions.len()]
    };
    let searches = Searches {
        solvers: &solvers,
        provers: &provers,
        pass_provers: &provers,
        radius: cfg.radius,
        stop,
        known: &known,
        tick: &tick,
    };
    let mut out = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let board = pos.board();
        let model = M::from_board(board);
        let mut windows = Vec::new();
        let live_windows = ByColor::new(|c| {
            model.live_windows(c, &mut windows);
            windows.len()
        });
        let thn = ByColor::new(|c| model.thn(c));
        let threat = answers[2 * i + 1].clone();
        let needed = !matches!(threat.outcome, Outcome::None | Outcome::Nowin);
        let defenses = cfg.defenses.then(|| {
            if !needed || stop.load(Ordering::Relaxed) {
                return Defenses {
                    needed,
                    stopped: needed,
                    ..Defenses::default()
                };
            }
            defenses(board, pos.to_move(), &searches, false)
        });
        finished.fetch_add(1, Ordering::Relaxed);
        out.push(Boundary {
            stones: at[i].stones,
            last_move: at[i].last_move.clone(),
            to_move: pos.to_move(),
            live_windows,
            thn,
            win: answers[2 * i].clone(),
            threat,
            defenses,
            proved: proved[i].take(),
            eval: evals[i].take(),
            review: None,
        });
    }
    if cfg.review && at.iter().all(|a| !a.last_move.is_empty()) {
        // The verdicts' defence searches: each bounded, so that a review stays a matter of
        // seconds (a move left undecided makes its verdict `unclear`, never a wrong one).
        let capped = Config {
            max_nodes: Some(
                cfg.search
                    .max_nodes
                    .map_or(VERDICT_NODES, |n| n.min(VERDICT_NODES)),
            ),
            ..cfg.search.clone()
        };
        let solvers = Solvers::<M>::new(&capped);
        let provers = Solvers::<M>::new(&Config {
            proof: true,
            ..capped
        });
        let searches = Searches {
            solvers: &solvers,
            provers: &provers,
            ..searches
        };
        verdict::review::<M>(&positions, &mut out, &searches);
    }
    out
}

/// With [`AnalyzeConfig::prove`]: the proof search for the side to move at every boundary
/// where its own search (`answers[2i]`) found no win, in parallel (one thread each).
fn proofs<M: Model>(
    positions: &[&Position],
    answers: &[Solution],
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    known: &AtomicUsize,
    tick: &(dyn Fn() + Sync),
) -> Vec<Option<crate::prove::Answer>> {
    let asked = |i: usize| {
        let pos = positions[i];
        cfg.prove.is_some()
            && answers[2 * i].outcome != Outcome::Win
            && pos.board().find_win_of(pos.to_move().opponent()).is_none()
            && pos.stones_to_place() == pos.game().p()
    };
    let Some(limits) = &cfg.prove else {
        return positions.iter().map(|_| None).collect();
    };
    let limits = crate::prove::Limits {
        threads: 1,
        ..limits.clone()
    };
    known.fetch_add(
        (0..positions.len()).filter(|&i| asked(i)).count(),
        Ordering::Relaxed,
    );
    (0..positions.len())
        .into_par_iter()
        .map(|i| {
            asked(i).then(|| {
                let pos = positions[i];
                let answer = crate::prove::prove::<M>(pos, pos.to_move(), &limits, stop);
                tick();
                answer
            })
        })
        .collect()
}

/// Nodes of each search a verdict asks for (the defences where a side's win changes hands).
pub const VERDICT_NODES: u64 = 100_000;

/// How the searches of one analysis run: its solvers (one for the questions, one for proofs),
/// the defences' candidate radius, the stop flag and the progress counters.
pub(super) struct Searches<'a, M: Model> {
    pub solvers: &'a Solvers<M>,
    pub provers: &'a Solvers<M>,
    /// The proof of the opponent's win were the side to move to pass: the analysis's own
    /// question, asked within the analysis's limits (the other searches may be capped).
    pub pass_provers: &'a Solvers<M>,
    pub radius: usize,
    pub stop: &'a AtomicBool,
    pub known: &'a AtomicUsize,
    pub tick: &'a (dyn Fn() + Sync),
}

/// The pairs of `side` (to move on `board`) after which the opponent has no double-threat win
/// within the depth limit. Every pair of candidate points is decided on its own: either a known
/// proof of the opponent's win is checked to stay valid with the pair on the board, or the pair
/// is searched. Nothing is inferred from other pairs (with the search's candidate rules, "one
/// more stone never helps the opponent" holds in practice but is not a theorem).
///
/// With `first_only` the search stops at the first move that holds (the moves not searched
/// count as `unknown`): enough to know whether one does.
fn defenses<M: Model>(
    board: &Board,
    side: Color,
    searches: &Searches<'_, M>,
    first_only: bool,
) -> Defenses {
    let Searches {
        solvers,
        provers,
        pass_provers,
        radius,
        stop,
        known,
        tick,
    } = *searches;
    let found = AtomicBool::new(false);
    let mut points = candidate_points(board, radius);
    if renju::applies(board.game(), side) {
        points.retain(|&x| !renju::is_forbidden(board, x));
    }
    let two = board.game().p() == 2;
    let moves: Vec<Vec<Point>> = if two {
        points
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| points[i + 1..].iter().map(move |&b| vec![a, b]))
            .collect()
    } else {
        points.iter().map(|&a| vec![a]).collect()
    };
    let mut d = Defenses {
        needed: true,
        points: points.len(),
        pairs: moves.len(),
        ..Defenses::default()
    };
    let t0 = std::time::Instant::now();
    let singles = if two { points.len() } else { 0 };
    known.fetch_add(moves.len() + singles + 1, Ordering::Relaxed);
    let opponent = side.opponent();
    // Proofs of the opponent's wins carried over: a move that leaves a known proof valid
    // (checked on the position with the move, under the search's rules) does not hold, without
    // a search. The known proofs: the opponent's win if `side` passed, and, for moves of two
    // stones, its win after each single candidate stone of `side`.
    let with_stones = |stones: &[Point]| {
        let mut after = board.clone();
        for &p in stones {
            after.set(p, Some(side));
        }
        after
    };
    let proof_nodes = AtomicUsize::new(0);
    let proof_of = |stones: &[Point]| {
        let provers = if stones.is_empty() {
            pass_provers
        } else {
            provers
        };
        let s = provers.solve_for(&with_stones(stones), opponent, stop);
        proof_nodes.fetch_add(s.nodes as usize, Ordering::Relaxed);
        tick();
        s.proof
    };
    let threat_proof = proof_of(&[]);
    // Looking for one move that holds: the moves through the threat's first attack first.
    let mut moves = moves;
    if first_only {
        if let Some(ProofNode::Attack { attack, .. } | ProofNode::Six { six: attack }) =
            &threat_proof
        {
            moves.sort_by_key(|mv| {
                std::cmp::Reverse(mv.iter().filter(|x| attack.contains(x)).count())
            });
        }
    }
    let single: Vec<Option<ProofNode>> = if two {
        points.par_iter().map(|&p| proof_of(&[p])).collect()
    } else {
        Vec::new()
    };
    let index = |p: Point| {
        points
            .binary_search(&p)
            .expect("moves are of candidate points")
    };
    let complete = provers.config().complete;
    let carried = AtomicUsize::new(0);
    let results: Vec<(Outcome, u32, u64)> = moves
        .par_iter()
        .map(|mv| {
            if stop.load(Ordering::Relaxed) || found.load(Ordering::Relaxed) {
                return (Outcome::Unknown, 0, 0);
            }
            let after = with_stones(mv);
            let mut m = M::from_board(&after);
            let mut known: Vec<&Option<ProofNode>> = vec![&threat_proof];
            if two {
                known.extend(mv.iter().map(|&x| &single[index(x)]));
            }
            let still = known.iter().any(|pr| {
                pr.as_ref()
                    .is_some_and(|pr| proof_holds(&mut m, opponent, complete, pr))
            });
            let r = if still {
                carried.fetch_add(1, Ordering::Relaxed);
                (Outcome::Win, 0, 0)
            } else {
                solvers.wins_within(&after, opponent, stop)
            };
            if first_only && matches!(r.0, Outcome::None | Outcome::Nowin) {
                found.store(true, Ordering::Relaxed);
            }
            tick();
            r
        })
        .collect();
    d.carried = carried.load(Ordering::Relaxed);
    d.nodes = results.iter().map(|r| r.2).sum::<u64>() + proof_nodes.load(Ordering::Relaxed) as u64;
    d.time = t0.elapsed();
    let results: Vec<Outcome> = results.iter().map(|r| r.0).collect();
    let mut count = vec![0usize; crate::geom::MAX_POINTS];
    for (mv, outcome) in moves.into_iter().zip(results) {
        match outcome {
            Outcome::Win => {}
            Outcome::Unknown => d.unknown += 1,
            Outcome::None | Outcome::Nowin => {
                d.holding += 1;
                for x in &mv {
                    count[x.index()] += 1;
                }
                d.moves.push(mv);
            }
        }
    }
    let mut keys: Vec<(Point, usize)> = points
        .iter()
        .map(|&p| (p, count[p.index()]))
        .filter(|&(_, c)| c > 0)
        .collect();
    keys.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    keys.truncate(10);
    d.key_points = keys;
    d
}
