//! Replays the bundled games on one model, for profiling: `cargo run --release --example replay -- cpbim 20`.
use cpbim::games::{bundled_games_path, load_games};
use cpbim::Game;
use cpbim::{Board, Cpbim, Cpbm, Iu, Model, Raw};
use std::time::Instant;

fn run<M: Model>(rounds: usize) {
    let games = load_games(&bundled_games_path()).expect("games");
    let seqs: Vec<_> = games.iter().take(200).map(|g| g.moves.clone()).collect();
    let mut m = M::from_board(&Board::new(Game::CONNECT6));
    let t = Instant::now();
    let mut pairs = 0u64;
    for _ in 0..rounds {
        for s in &seqs {
            for (i, &p) in s.iter().enumerate() {
                m.make(p, Game::CONNECT6.color_of_stone(i));
            }
            for _ in s {
                m.unmake();
            }
            pairs += s.len() as u64;
        }
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{}: {pairs} pairs in {e:.3} s = {:.2} M pairs/s",
        M::NAME,
        pairs as f64 / e / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    match args.get(1).map(String::as_str).unwrap_or("cpbim") {
        "raw" => run::<Raw>(rounds),
        "iu" => run::<Iu>(rounds),
        "cpbm" => run::<Cpbm>(rounds),
        _ => run::<Cpbim>(rounds),
    }
}
