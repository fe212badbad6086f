//! The double-threat search: agreement with the brute-force reference on real positions, model
//! independence, table and ordering independence, and a proof check of every win.

mod common;

use common::{check_proof, reference_solve, Plain};
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{solve, Config, Ordering, Outcome, Solution};
use cpbim::Game;
use cpbim::{Cpbim, Cpbm, Iu, Model, Point, Position, Raw};

/// Positions rewound `back` whole moves (1..=5) from the ends of the bundled games, in order.
fn rewound(games: usize) -> Vec<(String, Position)> {
    let all = load_games(&bundled_games_path()).expect("bundled games");
    let mut out = Vec::new();
    for g in all.iter().take(games) {
        for back in 1..=5usize {
            let keep = g.moves.len().saturating_sub(2 * back);
            let keep = if keep % 2 == 0 {
                keep.saturating_sub(1)
            } else {
                keep
            };
            if let Ok(p) = Position::from_stones(Game::CONNECT6, &g.moves[..keep]) {
                out.push((format!("game {} back {back}", g.id), p));
            }
        }
    }
    out
}

fn plain(pos: &Position) -> Plain {
    let stones: Vec<String> = pos.stones().iter().map(Point::to_string).collect();
    let refs: Vec<&str> = stones.iter().map(String::as_str).collect();
    Plain::from_stones(&refs)
}

/// The shortest search of `config`.
fn shortest(config: &Config) -> Config {
    Config {
        shortest: true,
        ..config.clone()
    }
}

/// The default answer `first` agrees with the reference's `(result, depth)`: the same result,
/// a depth no smaller than the reference's smallest (a win's at most the limit), and exactly it
/// when the answer says it is the smallest — which Connect6's wins always are (its default
/// search deepens).
fn first_agrees(first: &Solution, (result, depth): (&str, u32), limit: u32, name: &str) {
    assert_eq!(first.outcome.name(), result, "{name}: first-win result");
    match first.outcome {
        Outcome::Win => {
            assert!(
                (depth..=limit).contains(&first.depth),
                "{name}: first win at {} (smallest {depth})",
                first.depth
            );
            assert!(first.minimal, "{name}: Connect6's wins are the shortest");
        }
        Outcome::None => assert!(first.depth >= depth, "{name}: none {}", first.depth),
        _ => assert!(!first.minimal, "{name}: {result} is never minimal"),
    }
    if first.minimal {
        assert_eq!(
            first.depth, depth,
            "{name}: a minimal depth is the smallest"
        );
    }
}

/// Solve with proof and check it with the brute-force checker.
fn solve_checked<M: Model>(pos: &Position, config: &Config) -> Solution {
    let cfg = Config {
        proof: true,
        ..config.clone()
    };
    let s = solve::<M>(pos, &cfg);
    if s.outcome == Outcome::Win {
        let proof = serde_json::to_value(s.proof.as_ref().expect("a proof")).unwrap();
        let b = plain(pos);
        let depth = check_proof(&b, b.to_move(), &proof)
            .unwrap_or_else(|e| panic!("bad proof for {:?}: {e}\n{proof}", pos));
        assert_eq!(depth, s.depth, "proof depth of {pos:?}");
        assert!(!s.line.is_empty());
    }
    s
}

#[test]
fn reference_search_agrees_on_real_positions() {
    use rayon::prelude::*;
    // Every rewind of the first 60 games, then the attacker-to-move rewinds (3 and 5 moves
    // back) of the next 240: most of the latter need real search.
    let positions: Vec<(String, Position)> = rewound(300)
        .into_iter()
        .enumerate()
        .filter(|(i, (name, _))| *i < 300 || name.ends_with("back 3") || name.ends_with("back 5"))
        .map(|(_, p)| p)
        .collect();
    let limit = 16;
    let cfg = Config {
        depth: limit,
        ..Config::default()
    };
    let short = shortest(&cfg);
    let results: Vec<Option<(&str, u32)>> = positions
        .par_iter()
        .map(|(_, pos)| reference_solve(&plain(pos), limit, 1_000_000))
        .collect();
    let mut by_result = std::collections::BTreeMap::new();
    let mut skipped = 0;
    for ((name, pos), reference) in positions.iter().zip(results) {
        let Some((result, depth)) = reference else {
            skipped += 1;
            continue;
        };
        let s = solve_checked::<Cpbim>(pos, &short);
        assert_eq!(
            (s.outcome.name(), s.depth),
            (result, depth),
            "{name}: {}",
            pos.to_stone_list()
        );
        assert!(s.minimal || s.outcome == Outcome::Nowin, "{name}");
        first_agrees(
            &solve_checked::<Cpbim>(pos, &cfg),
            (result, depth),
            limit,
            name,
        );
        *by_result.entry((result, depth)).or_insert(0) += 1;
    }
    let compared: usize = by_result.values().sum();
    let deep: usize = by_result
        .iter()
        .filter(|((_, d), _)| *d >= 4)
        .map(|(_, n)| n)
        .sum();
    eprintln!(
        "compared {compared} positions ({skipped} beyond the reference's budget): {by_result:?}"
    );
    assert!(compared >= 200, "only {compared} positions compared");
    assert!(
        deep >= 150,
        "only {deep} positions with an answer at depth 4 or more"
    );
    assert!(
        by_result.keys().any(|&(r, d)| r == "win" && d >= 12),
        "{by_result:?}"
    );
    assert!(
        by_result.keys().any(|&(r, d)| r == "none" && d >= 8),
        "{by_result:?}"
    );
}

#[test]
fn canonical_rule_agrees_with_the_reference() {
    use rayon::prelude::*;
    // Every rewind of the first 60 games, under the paper's rule (both attack stones in R).
    let positions: Vec<(String, Position)> = rewound(60);
    let limit = 16;
    let cfg = Config {
        depth: limit,
        complete: false,
        ..Config::default()
    };
    let results: Vec<Option<(&str, u32)>> = positions
        .par_iter()
        .map(|(_, pos)| {
            let b = Plain {
                complete: false,
                ..plain(pos)
            };
            reference_solve(&b, limit, 1_000_000)
        })
        .collect();
    let mut compared = 0;
    for ((name, pos), reference) in positions.iter().zip(results) {
        let Some((result, depth)) = reference else {
            continue;
        };
        let s = solve::<Cpbim>(pos, &shortest(&cfg));
        assert_eq!((s.outcome.name(), s.depth), (result, depth), "{name}");
        first_agrees(&solve::<Cpbim>(pos, &cfg), (result, depth), limit, name);
        compared += 1;
    }
    assert!(compared >= 250, "only {compared} positions compared");
}

#[test]
fn the_complete_rule_finds_a_quiet_second_stone() {
    // White to move (game 3397 rewound): I9 alone makes two threats, O9 is the quiet stone
    // outside R that prepares the rest (M8 before the threatening first stones were tried
    // first); the paper's rule (both stones in R) finds no win at all.
    let line = "J10 I12 J9 J11 I10 H10 K11 H9 K12 G8 L13 I11 H12 G13 I13 K9 J13 L8 L11 K10 L10 N10 J8 K8 J7 K7 M9 J6 O11";
    let pos = cpbim::parse_position(line, Game::CONNECT6).unwrap();
    let complete = solve_checked::<Cpbim>(&pos, &shortest(&Config::default()));
    assert_eq!((complete.outcome, complete.depth), (Outcome::Win, 28));
    let first = solve_checked::<Cpbim>(&pos, &Config::default());
    assert_eq!((first.outcome, first.depth), (Outcome::Win, 28));
    let first: Vec<String> = complete.line[0].iter().map(Point::to_string).collect();
    assert_eq!(first, ["I9", "O9"]);
    let canonical = solve::<Cpbim>(
        &pos,
        &Config {
            complete: false,
            ..Config::default()
        },
    );
    assert_eq!(canonical.outcome, Outcome::None);
    // The canonical checker refuses the complete proof's first attack (M8 is outside R).
    let proof = serde_json::to_value(complete.proof.as_ref().unwrap()).unwrap();
    let b = Plain {
        complete: false,
        ..plain(&pos)
    };
    let e = check_proof(&b, b.to_move(), &proof).unwrap_err();
    assert!(e.contains("not in R"), "{e}");
}

#[test]
fn four_models_identical_results_and_node_counts() {
    let cfg = Config {
        depth: 12,
        ..Config::default()
    };
    let positions = rewound(12);
    let mut total = 0;
    for (name, pos) in &positions {
        let a = solve::<Cpbim>(pos, &cfg);
        let b = solve::<Cpbm>(pos, &cfg);
        let c = solve::<Iu>(pos, &cfg);
        let d = solve::<Raw>(pos, &cfg);
        for (m, x) in [("cpbm", &b), ("iu", &c), ("raw", &d)] {
            assert_eq!(
                (x.outcome, x.depth, x.nodes, &x.line),
                (a.outcome, a.depth, a.nodes, &a.line),
                "{name}: {m} differs from cpbim"
            );
        }
        total += a.nodes;
    }
    assert!(
        total > 10_000,
        "the set should make the models work: {total} nodes"
    );
}

#[test]
fn result_does_not_depend_on_table_or_ordering() {
    let positions = rewound(40);
    let base = Config {
        depth: 16,
        ..Config::default()
    };
    let variants = [
        Config {
            tt_entries: 0,
            ..base.clone()
        },
        Config {
            ordering: Ordering::PLAIN,
            ..base.clone()
        },
        Config {
            tt_entries: 1 << 8,
            ordering: Ordering {
                history: false,
                ..Ordering::ALL
            },
            ..base.clone()
        },
    ];
    for (name, pos) in &positions {
        // The shortest search's result and depth, and the first-win search's result, are
        // facts about the position.
        let s = solve::<Cpbim>(pos, &shortest(&base));
        let first = solve::<Cpbim>(pos, &base);
        assert_eq!(first.outcome, s.outcome, "{name}");
        for v in &variants {
            let t = solve::<Cpbim>(pos, &shortest(v));
            assert_eq!((t.outcome, t.depth), (s.outcome, s.depth), "{name}");
            assert_eq!(solve::<Cpbim>(pos, v).outcome, s.outcome, "{name}");
        }
    }
}
