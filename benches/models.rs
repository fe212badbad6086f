//! Position-model benchmarks over stone sequences from real games (`data/connect6_games.csv`).
//!
//! * `make_unmake`: replay each game stone by stone, then take every stone back: one element
//!   is one make + unmake pair.
//! * `search_step`: what the double-threat search does per node: make a stone, ask `thn` of
//!   both sides, unmake.
//! * `queries`: single queries on the positions met along the games.
//! * `from_board`: a model built from a board, as every search starts: the Connect6 positions
//!   of `queries`, and the 55 Renju problems of `tests/data/vcf/problems.txt`.
//!
//! Run: `cargo bench --bench models`. Compare models in one run (ratios), not across runs.

use cpbim::games::{bundled_games_path, load_games};
use cpbim::model::candidate_set;
use cpbim::Game;
use cpbim::{Board, Color, Cpbim, Cpbm, Iu, Model, Point, Raw};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// The first `n` games' stone sequences (all of them, colours by the rules).
fn sequences(n: usize) -> Vec<Vec<(Point, Color)>> {
    let games = load_games(&bundled_games_path()).expect("bundled games");
    games
        .iter()
        .take(n)
        .map(|g| {
            g.moves
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, Game::CONNECT6.color_of_stone(i)))
                .collect()
        })
        .collect()
}

fn replay<M: Model>(seqs: &[Vec<(Point, Color)>]) -> u64 {
    let mut m = M::from_board(&Board::new(Game::CONNECT6));
    let mut check = 0u64;
    for seq in seqs {
        for &(p, c) in seq {
            m.make(p, c);
        }
        check ^= m.zobrist();
        for _ in seq {
            m.unmake();
        }
    }
    check
}

fn step<M: Model>(seqs: &[Vec<(Point, Color)>]) -> u64 {
    let mut m = M::from_board(&Board::new(Game::CONNECT6));
    let mut sum = 0u64;
    for seq in seqs {
        for &(p, c) in seq {
            m.make(p, c);
            sum += (m.thn(c) + m.thn(c.opponent())) as u64;
        }
        for _ in seq {
            m.unmake();
        }
    }
    sum
}

fn make_unmake(c: &mut Criterion) {
    let seqs = sequences(200);
    let stones: u64 = seqs.iter().map(|s| s.len() as u64).sum();
    let expected = replay::<Raw>(&seqs);
    let mut g = c.benchmark_group("make_unmake");
    g.throughput(Throughput::Elements(stones));
    macro_rules! bench {
        ($m:ty) => {
            g.bench_function(<$m as Model>::NAME, |b| {
                b.iter(|| assert_eq!(replay::<$m>(black_box(&seqs)), expected))
            });
        };
    }
    bench!(Raw);
    bench!(Iu);
    bench!(Cpbm);
    bench!(Cpbim);
    g.finish();
}

fn search_step(c: &mut Criterion) {
    let seqs = sequences(200);
    let stones: u64 = seqs.iter().map(|s| s.len() as u64).sum();
    let expected = step::<Cpbim>(&seqs);
    let mut g = c.benchmark_group("search_step");
    g.throughput(Throughput::Elements(stones));
    macro_rules! bench {
        ($m:ty) => {
            g.bench_function(<$m as Model>::NAME, |b| {
                b.iter(|| assert_eq!(step::<$m>(black_box(&seqs)), expected))
            });
        };
    }
    bench!(Raw);
    bench!(Iu);
    bench!(Cpbm);
    bench!(Cpbim);
    g.finish();
}

/// Positions along the games: every fifth boundary of the first 40 games.
fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    for seq in sequences(40) {
        let mut b = Board::new(Game::CONNECT6);
        for (i, &(p, c)) in seq.iter().enumerate() {
            b.set(p, Some(c));
            if i % 10 == 0 {
                out.push(b.clone());
            }
        }
    }
    out
}

fn queries_for<M: Model>(c: &mut Criterion, boards: &[Board]) {
    let models: Vec<M> = boards.iter().map(M::from_board).collect();
    let mut g = c.benchmark_group("queries");
    g.throughput(Throughput::Elements(models.len() as u64));
    g.bench_function(BenchmarkId::new("thn", M::NAME), |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| m.thn(Color::Black) as u64)
                .sum::<u64>()
        })
    });
    g.bench_function(BenchmarkId::new("live_windows", M::NAME), |b| {
        let mut v = Vec::new();
        b.iter(|| {
            models
                .iter()
                .map(|m| {
                    m.live_windows(Color::White, &mut v);
                    v.len()
                })
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("candidate_set", M::NAME), |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| candidate_set(m, Color::Black).len())
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("composite_of_R", M::NAME), |b| {
        b.iter(|| {
            models
                .iter()
                .map(|m| {
                    candidate_set(m, Color::Black)
                        .iter()
                        .map(|p| m.composite(p, Color::Black) as usize)
                        .sum::<usize>()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

fn queries(c: &mut Criterion) {
    let boards = positions();
    queries_for::<Raw>(c, &boards);
    queries_for::<Iu>(c, &boards);
    queries_for::<Cpbm>(c, &boards);
    queries_for::<Cpbim>(c, &boards);
}

fn from_board_for<M: Model>(c: &mut Criterion, group: &str, boards: &[Board]) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function(M::NAME, |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| M::from_board(black_box(board)).zobrist())
                .fold(0, |a, z| a ^ z)
        })
    });
    g.finish();
}

/// The boards of the published Renju problems.
fn renju_boards() -> Vec<Board> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vcf/problems.txt"
    ))
    .expect("the VCF problems");
    cpbim::problems::parse_problems(&text)
        .expect("they parse")
        .iter()
        .map(|p| p.position(p.game).expect("a position").board().clone())
        .collect()
}

fn from_board(c: &mut Criterion) {
    let boards = positions();
    from_board_for::<Cpbim>(c, "from_board_connect6", &boards);
    from_board_for::<Cpbm>(c, "from_board_connect6", &boards);
    let renju = renju_boards();
    from_board_for::<cpbim::model::Cpbim5>(c, "from_board_renju", &renju);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = make_unmake, search_step, queries, from_board
}
criterion_main!(benches);
