//! The outputs a tune rewrites after every round: `history.csv`, `best.json`, `plot.svg`.

use super::spec::Spec;
use super::Step;
use crate::files::Staged;
use std::path::Path;

/// `history.csv`: one row per round, the round's score, the method's columns, then every
/// tuned parameter's value after the round.
pub fn history_csv(spec: &Spec, columns: &[&str], history: &[Step]) -> String {
    let mut out = String::from("round,score");
    for c in columns {
        out += &format!(",{c}");
    }
    for k in &spec.knobs {
        out += &format!(",{}", k.key);
    }
    out.push('\n');
    for (r, s) in history.iter().enumerate() {
        out += &format!("{},{:.4}", r + 1, s.score);
        for x in s.extra.iter().chain(&s.values) {
            out += &format!(",{x:.4}");
        }
        out.push('\n');
    }
    out
}

/// The best values rounded, as a whole parameter file.
pub fn best_json(spec: &Spec, values: &[f64]) -> String {
    let whole: Vec<i64> = values.iter().map(|v| v.round() as i64).collect();
    serde_json::to_string_pretty(&spec.json(&whole)).unwrap_or_default() + "\n"
}

/// The SVG of the parameters' trajectories (each scaled to its bounds: 0 at min, 1 at max)
/// above the rounds' scores (and their running mean over 20 rounds).
pub fn svg(spec: &Spec, history: &[Step], title: &str) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let rounds = history.len().max(2) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 700)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(460);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(1u32..rounds, 0f64..1f64)?;
        chart
            .configure_mesh()
            .x_desc("round")
            .y_desc("value within its bounds (0: min, 1: max)")
            .draw()?;
        for (i, k) in spec.knobs.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let span = (k.max - k.min).max(1e-9);
            let points = history
                .iter()
                .enumerate()
                .map(|(r, s)| (r as u32 + 1, (s.values[i] - k.min) / span));
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))?
                .label(k.key.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        let mut scores = ChartBuilder::on(&bottom)
            .margin(15)
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(1u32..rounds, 0f64..1f64)?;
        scores
            .configure_mesh()
            .x_desc("round")
            .y_desc("score of the round")
            .draw()?;
        scores.draw_series(
            history
                .iter()
                .enumerate()
                .map(|(r, s)| Circle::new((r as u32 + 1, s.score), 2, BLUE.mix(0.4).filled())),
        )?;
        let running = (0..history.len()).map(|r| {
            let from = r.saturating_sub(19);
            let w = &history[from..=r];
            (
                r as u32 + 1,
                w.iter().map(|s| s.score).sum::<f64>() / w.len() as f64,
            )
        });
        scores.draw_series(LineSeries::new(running, RED.stroke_width(2)))?;
        root.present()?;
    }
    Ok(svg)
}

/// Rewrite the three outputs together (each by temp+rename).
pub fn write_outputs(
    dir: &Path,
    spec: &Spec,
    columns: &[&str],
    history: &[Step],
    title: &str,
) -> anyhow::Result<()> {
    let Some(last) = history.last() else {
        return Ok(());
    };
    let mut staged = Staged::new();
    staged.add(
        &dir.join("history.csv"),
        history_csv(spec, columns, history),
    )?;
    staged.add(&dir.join("best.json"), best_json(spec, &last.values))?;
    staged.add(&dir.join("plot.svg"), svg(spec, history, title)?)?;
    staged.commit()?;
    Ok(())
}

/// The SVG of a round robin's points per player, one bar each in the players' order.
pub fn round_robin_svg(names: &[String], points: &[f64], title: &str) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let n = names.len().max(1) as u32;
    let top = points.iter().fold(1.0f64, |m, p| m.max(p.abs())) * 1.15;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(
                (0u32..n.saturating_sub(1).max(1)).into_segmented(),
                -top..top,
            )?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(names.len())
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_desc("points (win +1, loss −1, draw 0)")
            .draw()?;
        chart.draw_series(points.iter().enumerate().map(|(i, &p)| {
            let i = i as u32;
            let color = if names[i as usize].starts_with("random") {
                RED
            } else {
                BLUE
            };
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), p),
                ],
                color.mix(0.6).filled(),
            );
            bar.set_margin(0, 0, 12, 12);
            bar
        }))?;
        root.present()?;
    }
    Ok(svg)
}
