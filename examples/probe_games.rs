//! Solve positions rewound from real game ends with one model, printing one line each.
//! `cargo run --release --example probe_games -- cpbim 16 50`
use cpbim::games::{bundled_games_path, load_games};
use cpbim::search::{solve, Config};
use cpbim::Game;
use cpbim::{Cpbim, Cpbm, Iu, Model, Position, Raw};

fn run<M: Model>(depth: u32, n: usize) {
    let games = load_games(&bundled_games_path()).unwrap();
    let cfg = Config {
        depth,
        ..Config::default()
    };
    let (mut nodes, mut time) = (0u64, 0.0);
    for g in games.iter().take(n) {
        for back in 1..=5usize {
            let moves = g.moves.len();
            // Whole moves: the last move is 2 stones (or 1 if only the first).
            let keep = moves.saturating_sub(2 * back);
            let keep = if keep % 2 == 0 {
                keep.saturating_sub(1)
            } else {
                keep
            };
            let Ok(pos) = Position::from_stones(Game::CONNECT6, &g.moves[..keep]) else {
                continue;
            };
            let s = solve::<M>(&pos, &cfg);
            nodes += s.nodes;
            time += s.time.as_secs_f64();
            println!(
                "game {} back {back}: {} {} nodes {} {:.2} ms",
                g.id,
                s.outcome.name(),
                s.depth,
                s.nodes,
                s.time.as_secs_f64() * 1e3
            );
        }
    }
    println!(
        "{}: {nodes} nodes in {time:.3} s = {:.0} nodes/s",
        M::NAME,
        nodes as f64 / time
    );
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let depth = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
    let n = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    match a.get(1).map(String::as_str).unwrap_or("cpbim") {
        "raw" => run::<Raw>(depth, n),
        "iu" => run::<Iu>(depth, n),
        "cpbm" => run::<Cpbm>(depth, n),
        _ => run::<Cpbim>(depth, n),
    }
}
