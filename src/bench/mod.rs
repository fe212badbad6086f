//! The speed benchmark: the same search over every test subset with each model; the
//! paper's Table 5 (nodes per second, rate against Raw) and the per-subset totals behind its
//! Figures 9 (non-winning sets) and 10 (winning sets); and the published VCF problems in both
//! searches ([`vcf`]).

pub mod vcf;

use crate::batch::solve_positions;
use crate::board::Position;
use crate::search::{Config, Outcome, Solution};
use crate::testsets::{parse_subset_file, Subset, SUBSETS};
use crate::Model;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The positions of one subset.
#[derive(Clone, Debug)]
pub struct BenchSet {
    /// Which subset.
    pub subset: Subset,
    /// Its positions (cheapest first, as the generator wrote them).
    pub positions: Vec<Position>,
}

/// The committed test sets (`testsets/*.txt`), compiled into the binary.
pub fn builtin_sets() -> Vec<BenchSet> {
    macro_rules! files {
        ($($name:literal),*) => {
            [$(($name, include_str!(concat!("../../testsets/", $name, ".txt")))),*]
        };
    }
    let texts =
        files!("W12", "W16", "W20", "W24", "W28", "N4", "N8", "N12", "N16", "N20", "N24", "N28");
    SUBSETS
        .iter()
        .zip(texts)
        .map(|(subset, (name, text))| {
            debug_assert_eq!(subset.name, name);
            BenchSet {
                subset: *subset,
                positions: parse_subset_file(text).expect("committed test sets parse"),
            }
        })
        .collect()
}

/// Test sets from `dir`: `W12.txt` … `N28.txt`, every one present and holding positions.
pub fn load_sets(dir: &Path) -> anyhow::Result<Vec<BenchSet>> {
    SUBSETS
        .iter()
        .map(|subset| {
            let path = dir.join(format!("{}.txt", subset.name));
            let text = crate::files::read_text(&path, crate::files::MAX_FILE).map_err(|e| {
                anyhow::anyhow!(
                    "{e} (a test-set directory holds W12.txt … N28.txt, as `cpbim testsets --out DIR` writes them)"
                )
            })?;
            let positions = parse_subset_file(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if positions.is_empty() {
                anyhow::bail!("{}: holds no positions", path.display());
            }
            Ok(BenchSet {
                subset: *subset,
                positions,
            })
        })
        .collect()
}

/// The first `n` positions of every subset (the cheapest ones: files are sorted by the nodes
/// the generator needed).
pub fn sample(sets: &[BenchSet], n: usize) -> Vec<BenchSet> {
    sets.iter()
        .map(|s| BenchSet {
            subset: s.subset,
            positions: s.positions.iter().take(n).cloned().collect(),
        })
        .collect()
}

/// One model's runs: per subset, per position.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// `raw`, `iu`, `cpbm`, `cpbim`.
    pub name: &'static str,
    /// Solutions per subset, in position order.
    pub sets: Vec<Vec<Solution>>,
}

impl ModelRun {
    /// Total nodes and search time of subset `k`.
    pub fn subset_total(&self, k: usize) -> (u64, Duration) {
        self.sets[k]
            .iter()
            .fold((0, Duration::ZERO), |(n, t), s| (n + s.nodes, t + s.time))
    }

    /// Total nodes and search time over all subsets.
    pub fn total(&self) -> (u64, Duration) {
        (0..self.sets.len()).fold((0, Duration::ZERO), |(n, t), k| {
            let (a, b) = self.subset_total(k);
            (n + a, t + b)
        })
    }

    /// Nodes per second of search time.
    pub fn nps(&self) -> f64 {
        let (n, t) = self.total();
        n as f64 / t.as_secs_f64().max(1e-9)
    }
}

/// Search configuration of the benchmark: depth limit 28, everything else default.
pub fn bench_config() -> Config {
    Config {
        depth: 28,
        // The paper's rule, so node counts compare with the paper's Table 5.
        complete: false,
        // The sets are defined by their smallest depths.
        shortest: true,
        ..Config::default()
    }
}

/// Run model `M` over `sets` with `cfg` (positions in parallel on rayon's threads; each
/// position's time is that of its own search on one thread). `progress` is called after each
/// position.
pub fn run_model<M: Model>(
    sets: &[BenchSet],
    cfg: &Config,
    stop: &AtomicBool,
    progress: &(dyn Fn() + Sync),
) -> ModelRun {
    ModelRun {
        name: M::NAME,
        sets: sets
            .iter()
            .map(|s| solve_positions::<M>(&s.positions, cfg, stop, &|_| progress()))
            .collect(),
    }
}

/// Positions from every game of `games` rewound `from..=to` whole moves from its end (games too
/// short for a rewind are skipped), game by game.
pub fn rewound_positions(
    games: &[crate::games::Recorded],
    from: usize,
    to: usize,
) -> Vec<Position> {
    games
        .iter()
        // Rewinding further than a game is long ends that game's positions.
        .flat_map(|g| (from..=to).map_while(move |back| crate::testsets::rewind(g, back)))
        .collect()
}

/// Solve-time distribution of each model's run over one list of positions: count, results,
/// median, 90th and 99th percentile, maximum and total time, nodes per second. Fails if the
/// runs disagree on any result, depth or node count.
pub fn latency_table(runs: &[(&str, Vec<Solution>)]) -> Result<String, String> {
    if let Some((first, rest)) = runs.split_first() {
        for (name, sols) in rest {
            for (i, (a, b)) in first.1.iter().zip(sols).enumerate() {
                if (a.outcome, a.depth, a.nodes) != (b.outcome, b.depth, b.nodes) {
                    return Err(format!(
                        "position {}: {} says {} {} in {} nodes, {name} says {} {} in {} nodes",
                        i + 1,
                        first.0,
                        a.outcome.name(),
                        a.depth,
                        a.nodes,
                        b.outcome.name(),
                        b.depth,
                        b.nodes
                    ));
                }
            }
        }
    }
    let mut out = format!(
        "{:<6} {:>6} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}\n",
        "model",
        "n",
        "win",
        "none",
        "other",
        "median ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "total s",
        "nps"
    );
    for (name, sols) in runs {
        let mut ms: Vec<f64> = sols.iter().map(|s| s.time.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let pct = |q: f64| {
            if ms.is_empty() {
                0.0
            } else {
                ms[((ms.len() - 1) as f64 * q).round() as usize]
            }
        };
        let count = |o: Outcome| sols.iter().filter(|s| s.outcome == o).count();
        let (wins, nones) = (count(Outcome::Win), count(Outcome::None));
        let nodes: u64 = sols.iter().map(|s| s.nodes).sum();
        let total: f64 = ms.iter().sum::<f64>() / 1e3;
        out += &format!(
            "{:<6} {:>6} {:>6} {:>6} {:>6} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.2} {:>10.0}\n",
            name,
            sols.len(),
            wins,
            nones,
            sols.len() - wins - nones,
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0),
            total,
            nodes as f64 / total.max(1e-9)
        );
    }
    Ok(out)
}

/// All models' runs over the same sets.
pub struct Report {
    /// The sets.
    pub sets: Vec<BenchSet>,
    /// One run per model, Raw first if present.
    pub models: Vec<ModelRun>,
}

impl Report {
    /// Every position must have the answer its subset says, and every model must visit the
    /// same number of nodes on it. The first discrepancy, if any.
    pub fn check(&self) -> Result<(), String> {
        for (k, set) in self.sets.iter().enumerate() {
            for (i, pos) in set.positions.iter().enumerate() {
                let first = &self.models[0].sets[k][i];
                let expected = (set.subset.outcome, set.subset.depth);
                if (first.outcome, first.depth) != expected {
                    return Err(format!(
                        "{} position {} ({}): {} found {} {}, the subset says {} {}",
                        set.subset.name,
                        i + 1,
                        pos.to_stone_list(),
                        self.models[0].name,
                        first.outcome.name(),
                        first.depth,
                        expected.0.name(),
                        expected.1
                    ));
                }
                for m in &self.models[1..] {
                    let s = &m.sets[k][i];
                    if (s.outcome, s.depth, s.nodes) != (first.outcome, first.depth, first.nodes) {
                        return Err(format!(
                            "{} position {} ({}): {} visited {} nodes ({} {}), {} visited {} ({} {})",
                            set.subset.name,
                            i + 1,
                            pos.to_stone_list(),
                            self.models[0].name,
                            first.nodes,
                            first.outcome.name(),
                            first.depth,
                            m.name,
                            s.nodes,
                            s.outcome.name(),
                            s.depth
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn raw_nps(&self) -> Option<f64> {
        self.models
            .iter()
            .find(|m| m.name == "raw")
            .map(ModelRun::nps)
    }

    /// Table 5: nodes per second and the rate against Raw, one column per model.
    pub fn table5(&self) -> String {
        let mut s = String::from("Table 5: search speed over all subsets\n");
        s.push_str(&format!("{:<8}", ""));
        for m in &self.models {
            s.push_str(&format!("{:>12}", m.name));
        }
        s.push_str(&format!("\n{:<8}", "nodes"));
        for m in &self.models {
            s.push_str(&format!("{:>12}", m.total().0));
        }
        s.push_str(&format!("\n{:<8}", "time s"));
        for m in &self.models {
            s.push_str(&format!("{:>12.2}", m.total().1.as_secs_f64()));
        }
        s.push_str(&format!("\n{:<8}", "nps"));
        for m in &self.models {
            s.push_str(&format!("{:>12.0}", m.nps()));
        }
        if let Some(raw) = self.raw_nps() {
            s.push_str(&format!("\n{:<8}", "rate"));
            for m in &self.models {
                s.push_str(&format!("{:>12.2}", m.nps() / raw));
            }
        }
        if let Some(cpbim) = self.models.iter().find(|m| m.name == "cpbim") {
            s.push_str(&format!("\n{:<8}", "cpbim/x"));
            for m in &self.models {
                s.push_str(&format!("{:>12.2}", cpbim.nps() / m.nps()));
            }
        }
        s.push('\n');
        s
    }

    /// Per-subset totals (the data of Figures 9 and 10): time in seconds per model.
    pub fn subsets_table(&self) -> String {
        let mut s = format!("{:<6}{:>5}{:>12}", "subset", "n", "nodes");
        for m in &self.models {
            s.push_str(&format!("{:>11}", format!("{} s", m.name)));
        }
        s.push('\n');
        for (k, set) in self.sets.iter().enumerate() {
            s.push_str(&format!(
                "{:<6}{:>5}{:>12}",
                set.subset.name,
                set.positions.len(),
                self.models[0].subset_total(k).0
            ));
            for m in &self.models {
                s.push_str(&format!("{:>11.3}", m.subset_total(k).1.as_secs_f64()));
            }
            s.push('\n');
        }
        s
    }

    /// The JSON of `cpbim bench --json` (`docs/json.md`): `{"models": {name: {"nodes", "time_ms", "nps", "rate"}}, "subsets": [...]}`.
    pub fn json(&self) -> Value {
        let raw = self.raw_nps();
        let mut models = serde_json::Map::new();
        for m in &self.models {
            let (n, t) = m.total();
            let mut v = json!({"nodes": n, "time_ms": t.as_secs_f64() * 1e3, "nps": m.nps()});
            if let Some(r) = raw {
                v["rate"] = json!(m.nps() / r);
            }
            models.insert(m.name.to_string(), v);
        }
        let subsets: Vec<Value> = self
            .sets
            .iter()
            .enumerate()
            .map(|(k, set)| {
                let mut per = serde_json::Map::new();
                for m in &self.models {
                    let (n, t) = m.subset_total(k);
                    per.insert(
                        m.name.to_string(),
                        json!({"nodes": n, "time_ms": t.as_secs_f64() * 1e3}),
                    );
                }
                json!({
                    "name": set.subset.name,
                    "result": set.subset.outcome.name(),
                    "depth": set.subset.depth,
                    "positions": set.positions.len(),
                    "models": per,
                })
            })
            .collect();
        json!({"models": models, "subsets": subsets})
    }

    /// CSV: one row per subset and model.
    pub fn csv(&self) -> String {
        let mut s = String::from("subset,result,depth,positions,model,nodes,time_ms,nps\n");
        for (k, set) in self.sets.iter().enumerate() {
            for m in &self.models {
                let (n, t) = m.subset_total(k);
                let ms = t.as_secs_f64() * 1e3;
                s.push_str(&format!(
                    "{},{},{},{},{},{},{:.3},{:.0}\n",
                    set.subset.name,
                    set.subset.outcome.name(),
                    set.subset.depth,
                    set.positions.len(),
                    m.name,
                    n,
                    ms,
                    n as f64 / (ms / 1e3).max(1e-9)
                ));
            }
        }
        s
    }

    /// Write `figure9.svg` (non-winning subsets), `figure10.svg` (winning subsets) and
    /// `bench.csv` into `dir`, all three complete before any replaces its old version.
    pub fn write_figures(&self, dir: &Path) -> anyhow::Result<()> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.display()))?;
        let mut staged = crate::files::Staged::new();
        staged.add(&dir.join("bench.csv"), self.csv())?;
        let figure9 = self.plot(
            Outcome::None,
            "Figure 9: non-winning sets, total time per subset",
        )?;
        staged.add(&dir.join("figure9.svg"), figure9)?;
        let figure10 = self.plot(
            Outcome::Win,
            "Figure 10: winning sets, total time per subset",
        )?;
        staged.add(&dir.join("figure10.svg"), figure10)?;
        staged.commit()?;
        Ok(())
    }

    /// The SVG text of one figure.
    fn plot(&self, outcome: Outcome, title: &str) -> anyhow::Result<String> {
        use plotters::prelude::*;
        let ks: Vec<usize> = (0..self.sets.len())
            .filter(|&k| self.sets[k].subset.outcome == outcome)
            .collect();
        let depths: Vec<u32> = ks.iter().map(|&k| self.sets[k].subset.depth).collect();
        let (lo, hi) = (
            *depths.iter().min().unwrap_or(&0),
            *depths.iter().max().unwrap_or(&28),
        );
        let secs = |m: &ModelRun, k: usize| m.subset_total(k).1.as_secs_f64().max(1e-4);
        let ymax = self
            .models
            .iter()
            .flat_map(|m| ks.iter().map(move |&k| secs(m, k)))
            .fold(1e-3, f64::max);
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (800, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(lo..hi, (1e-4f64..ymax * 2.0).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("maximum search depth of the subset (plies)")
            .y_desc("total search time of the subset (s, log scale)")
            .x_labels(depths.len().max(2))
            .draw()?;
        let colors = [RED, BLUE, GREEN, BLACK];
        for (i, m) in self.models.iter().enumerate() {
            let color = colors[i % colors.len()];
            let points: Vec<(u32, f64)> = ks
                .iter()
                .map(|&k| (self.sets[k].subset.depth, secs(m, k)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
                .label(m.name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart.draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 4, color.filled())),
            )?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        drop(chart);
        drop(root);
        Ok(svg)
    }
}
