//! Test sets from real games (`testsets/README.md`; paper §8.1).
//!
//! Winning subsets `W12 … W28`: positions whose double-threat solution depth is exactly 12, …,
//! 28. Non-winning subsets `N4 … N28`: positions where the search ends `none` at maximum depth
//! 4, …, 28 (the depth at which the exhausted tree first proves there is no solution).
//!
//! The generator walks the games of a record file in an order shuffled from a fixed seed,
//! rewinds each game 1, 2, … whole moves from its end, skips positions already seen, solves
//! each with a depth limit of 28 and a node budget, and puts the position in its subset until
//! that holds the number asked for. Positions whose search exceeds the budget are left out, so
//! the sets hold positions the solver settles within the budget (the README of the sets says
//! which budget). Everything is deterministic: the same records, seed and budget give the same
//! sets on any machine and any number of threads.

use crate::batch::solve_positions;
use crate::board::Position;
use crate::game::Game;
use crate::games::Recorded;
use crate::search::{Config, Outcome};
use crate::{zobrist, Model};
use fxhash::FxHashSet;
use std::sync::atomic::AtomicBool;

/// One subset: its name, the outcome and depth its positions have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subset {
    /// `W12`, …, `N28`.
    pub name: &'static str,
    /// `Win` for W-sets, `None` for N-sets.
    pub outcome: Outcome,
    /// The solution depth (W) or the depth at which the exhausted tree proves none (N).
    pub depth: u32,
}

/// The twelve subsets of the paper: W12…W28, then N4…N28.
pub const SUBSETS: [Subset; 12] = [
    Subset {
        name: "W12",
        outcome: Outcome::Win,
        depth: 12,
    },
    Subset {
        name: "W16",
        outcome: Outcome::Win,
        depth: 16,
    },
    Subset {
        name: "W20",
        outcome: Outcome::Win,
        depth: 20,
    },
    Subset {
        name: "W24",
        outcome: Outcome::Win,
        depth: 24,
    },
    Subset {
        name: "W28",
        outcome: Outcome::Win,
        depth: 28,
    },
    Subset {
        name: "N4",
        outcome: Outcome::None,
        depth: 4,
    },
    Subset {
        name: "N8",
        outcome: Outcome::None,
        depth: 8,
    },
    Subset {
        name: "N12",
        outcome: Outcome::None,
        depth: 12,
    },
    Subset {
        name: "N16",
        outcome: Outcome::None,
        depth: 16,
    },
    Subset {
        name: "N20",
        outcome: Outcome::None,
        depth: 20,
    },
    Subset {
        name: "N24",
        outcome: Outcome::None,
        depth: 24,
    },
    Subset {
        name: "N28",
        outcome: Outcome::None,
        depth: 28,
    },
];

/// Where a test position came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position.
    pub position: Position,
    /// `game_id` of its game.
    pub game: u64,
    /// Whole moves taken back from the game's end.
    pub back: usize,
    /// Nodes the generating search used.
    pub nodes: u64,
}

/// Generator settings.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Seed of the game order.
    pub seed: u64,
    /// Positions per subset.
    pub per_set: usize,
    /// Node budget per position.
    pub max_nodes: u64,
    /// Rewind at most this many whole moves.
    pub max_back: usize,
    /// Positions solved per parallel batch.
    pub chunk: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 2026,
            per_set: 80,
            max_nodes: 500_000,
            max_back: 30,
            chunk: 1024,
        }
    }
}

/// What the generator found.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// Entries per subset, in [`SUBSETS`] order.
    pub sets: Vec<Vec<Entry>>,
    /// Positions solved.
    pub examined: usize,
    /// Of those, how many exceeded the node budget.
    pub over_budget: usize,
    /// Games whose positions were all examined.
    pub games_used: usize,
}

impl Generated {
    /// Are all subsets full?
    pub fn full(&self, per_set: usize) -> bool {
        self.sets.iter().all(|s| s.len() >= per_set)
    }
}

/// splitmix64 step.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The games in an order shuffled from `seed` (Fisher–Yates).
pub fn shuffled(games: &[Recorded], seed: u64) -> Vec<&Recorded> {
    let mut v: Vec<&Recorded> = games.iter().collect();
    let mut state = seed;
    for i in (1..v.len()).rev() {
        let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

/// The position `back` whole moves before the end of `game` (None if that is before the start
/// or not a legal position).
pub fn rewind(game: &Recorded, back: usize) -> Option<Position> {
    let n = game.moves.len();
    // The stones of the last `back` moves: two each, except black's single first stone.
    let keep = n.checked_sub(back.checked_mul(2)?)?;
    let keep = if keep.is_multiple_of(2) {
        keep.checked_sub(1)?
    } else {
        keep
    };
    Position::from_stones(Game::CONNECT6, &game.moves[..keep]).ok()
}

/// The subset a solved position belongs to, if any.
pub fn subset_of(outcome: Outcome, depth: u32) -> Option<usize> {
    SUBSETS
        .iter()
        .position(|s| s.outcome == outcome && s.depth == depth)
}

/// Generate the test sets from `games` with model `M`. `progress(&generated)` is called after
/// every chunk.
pub fn generate<M: Model>(
    games: &[Recorded],
    cfg: &GenConfig,
    stop: &AtomicBool,
    progress: &(dyn Fn(&Generated) + Sync),
) -> Generated {
    let solve_cfg = Config {
        depth: 28,
        max_nodes: Some(cfg.max_nodes),
        // The paper's rule: the sets are the paper's, and the benchmark runs them so.
        complete: false,
        ..Config::default()
    };
    let mut out = Generated {
        sets: vec![Vec::new(); SUBSETS.len()],
        ..Generated::default()
    };
    let mut seen = FxHashSet::default();
    let order = shuffled(games, cfg.seed);
    let mut pending: Vec<(u64, usize, Position)> = Vec::new();
    let flush = |pending: &mut Vec<(u64, usize, Position)>, out: &mut Generated| {
        let positions: Vec<Position> = pending.iter().map(|p| p.2.clone()).collect();
        let solved = solve_positions::<M>(&positions, &solve_cfg, stop, &|_| {});
        for ((game, back, position), s) in pending.drain(..).zip(solved) {
            out.examined += 1;
            match s.outcome {
                Outcome::Unknown => out.over_budget += 1,
                o => {
                    if let Some(k) = subset_of(o, s.depth) {
                        if out.sets[k].len() < cfg.per_set {
                            out.sets[k].push(Entry {
                                position,
                                game,
                                back,
                                nodes: s.nodes,
                            });
                        }
                    }
                }
            }
        }
        progress(out);
    };
    for game in order {
        for back in 1..=cfg.max_back {
            let Some(pos) = rewind(game, back) else { break };
            if seen.insert(zobrist::board_key(pos.board())) {
                pending.push((game.id, back, pos));
            }
        }
        out.games_used += 1;
        if pending.len() >= cfg.chunk {
            flush(&mut pending, &mut out);
            if out.full(cfg.per_set) || stop.load(std::sync::atomic::Ordering::Relaxed) {
                return out;
            }
        }
    }
    flush(&mut pending, &mut out);
    out
}

/// The file text of one subset: a comment header, then one stone list per line with its source,
/// cheapest first (by the nodes the generating search needed; ties keep discovery order).
pub fn subset_file(subset: &Subset, entries: &[Entry], header: &str) -> String {
    let mut entries: Vec<&Entry> = entries.iter().collect();
    entries.sort_by_key(|e| e.nodes);
    let what = match subset.outcome {
        Outcome::Win => format!("double-threat solution depth exactly {}", subset.depth),
        _ => format!(
            "no double-threat win; the exhausted tree proves it at depth {}",
            subset.depth
        ),
    };
    let mut s = format!(
        "# {}: {} positions, {what}.\n# {header}\n",
        subset.name,
        entries.len()
    );
    for e in entries {
        s.push_str(&format!(
            "{}  # game {} rewound {} moves, {} nodes\n",
            e.position
                .stones()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            e.game,
            e.back,
            e.nodes
        ));
    }
    s
}

/// Read a subset file: the positions of its non-comment lines.
pub fn parse_subset_file(text: &str) -> Result<Vec<Position>, crate::ParseError> {
    text.lines()
        .filter(|l| !crate::notation::is_blank(l))
        .map(|l| crate::notation::parse_position(l, Game::CONNECT6))
        .collect()
}

/// The README of a directory of test sets: how they were made (`command`, `source` of the
/// games, how many) and a table of the subsets.
pub fn readme(
    generated: &Generated,
    cfg: &GenConfig,
    command: &str,
    source: &str,
    games: usize,
) -> String {
    let mut table =
        String::from("| subset | positions | total nodes | median nodes |\n|---|---|---|---|\n");
    for (subset, entries) in SUBSETS.iter().zip(&generated.sets) {
        let mut nodes: Vec<u64> = entries.iter().map(|e| e.nodes).collect();
        nodes.sort_unstable();
        let median = nodes.get(nodes.len() / 2).copied().unwrap_or(0);
        table.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            subset.name,
            entries.len(),
            nodes.iter().sum::<u64>(),
            median
        ));
    }
    format!(
        "# Test sets\n\nMade by `{command}` from `{source}` ({games} games).\n\n\
Games are taken in an order shuffled from the seed; each is rewound 1, 2, …, {} whole moves from its end; \
positions already seen are skipped; each position is solved by `cpbim` (CPBIM model) with a depth limit of 28 \
and a budget of {} nodes, and goes into its subset until the subset holds {}. Positions whose search \
needed more nodes are left out: the sets hold positions the solver settles within the budget.\n\n\
- `W<d>.txt`: the side to move has a double-threat win whose smallest depth is exactly d plies.\n\
- `N<d>.txt`: no double-threat win; the exhausted search tree proves it at depth d.\n\n\
One stone list per line (play order), a comment naming the game (`game_id` of the CSV) and how many \
moves it was rewound. {} positions were solved ({} over budget) from {} games.\n\n{table}",
        cfg.max_back,
        cfg.max_nodes,
        cfg.per_set,
        generated.examined,
        generated.over_budget,
        generated.games_used,
    )
}
