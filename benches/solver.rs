//! The double-threat solver on a small fixed subset of the committed test sets (the two
//! cheapest positions of W12, W16, W20, N8, N12 and N16), once per model. Throughput is in
//! search nodes; every iteration asserts the node count, so a faster-but-different search
//! cannot pass unnoticed.
//!
//! Run: `cargo bench --bench solver`.

use cpbim::bench::{builtin_sets, sample};
use cpbim::search::{Config, Solver};
use cpbim::{Cpbim, Cpbm, Iu, Model, Position, Raw};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

fn positions() -> Vec<Position> {
    sample(&builtin_sets(), 2)
        .into_iter()
        .filter(|s| ["W12", "W16", "W20", "N8", "N12", "N16"].contains(&s.subset.name))
        .flat_map(|s| s.positions)
        .collect()
}

fn nodes<M: Model>(solver: &mut Solver<M>, positions: &[Position]) -> u64 {
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|p| solver.solve(black_box(p), &stop).nodes)
        .sum()
}

fn solver(c: &mut Criterion) {
    let positions = positions();
    let cfg = Config {
        depth: 28,
        ..Config::default()
    };
    let expected = nodes(&mut Solver::<Cpbim>::new(cfg.clone()), &positions);
    let mut g = c.benchmark_group("solve");
    g.throughput(Throughput::Elements(expected));
    macro_rules! bench {
        ($m:ty) => {
            let mut solver = Solver::<$m>::new(cfg.clone());
            g.bench_function(<$m as Model>::NAME, |b| {
                b.iter(|| assert_eq!(nodes(&mut solver, &positions), expected))
            });
        };
    }
    bench!(Raw);
    bench!(Iu);
    bench!(Cpbm);
    bench!(Cpbim);
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = solver
}
criterion_main!(benches);
