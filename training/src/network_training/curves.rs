//! Learning curves of a run as a PNG, from its `metrics.jsonl`: the training losses (and the
//! validation losses of a bootstrap run) above, the evaluation scores with their 95% intervals
//! below (`eval/vs_NAME`, with `eval/vs_NAME_low` and `_high` where the run logged them).
//!
//! The font and the series colours are the workspace's shared look, [`eval::plot`].

use eval::plot::{register_shipped_font, COLOURS};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// Every scalar series of a run: name → (step, value), in file order.
pub type Series = BTreeMap<String, Vec<(f64, f64)>>;

/// Read a run's `metrics.jsonl` (a resumed run's points replace those logged after its
/// checkpoint by the run it resumed).
pub fn read_metrics(run: &Path) -> Result<Series, String> {
    let path = run.join("metrics.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut series = Series::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let object =
            value.as_object().ok_or_else(|| format!("{}:{}: not an object", path.display(), i + 1))?;
        let step = object
            .get("step")
            .and_then(|s| s.as_f64())
            .ok_or_else(|| format!("{}:{}: no step", path.display(), i + 1))?;
        for (k, v) in object.iter().filter(|(k, _)| k.as_str() != "step") {
            if let Some(v) = v.as_f64().filter(|v| v.is_finite()) {
                let points = series.entry(k.clone()).or_default();
                // A resumed run logs again from its last checkpoint: its points replace the
                // ones the killed run had logged from there on.
                let keep = points.partition_point(|p| p.0 < step);
                points.truncate(keep);
                points.push((step, v));
            }
        }
    }
    Ok(series)
}

/// How many of the series colours the curves cycle through.
const CURVE_COLOURS: usize = 6;

/// Draw a PNG with `draw` into a temporary file beside `out`, then rename it over `out` (the
/// shipped font registered first).
pub(crate) fn write_png(
    out: &Path,
    draw: impl FnOnce(&Path) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), String> {
    register_shipped_font();
    let tmp = out.with_extension(format!("tmp{}.png", std::process::id()));
    draw(&tmp).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Draw the curves of `series` into the PNG file `out` (written atomically); `title` heads it.
pub fn plot(series: &Series, title: &str, out: &Path) -> Result<(), String> {
    let losses: Vec<&String> =
        series.keys().filter(|k| k.ends_with("_loss") && !k.starts_with("eval/")).collect();
    let scores: Vec<&String> = series
        .keys()
        .filter(|k| k.starts_with("eval/") && !k.ends_with("_low") && !k.ends_with("_high"))
        .collect();
    if losses.is_empty() && scores.is_empty() {
        return Err("the metrics hold no losses and no evaluation scores to plot".into());
    }
    write_png(out, |tmp| {
        let root = BitMapBackend::new(tmp, (1000, 800)).into_drawing_area();
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 22))?;
        let (top, bottom) = root.split_vertically(400);
        let max_step = series.values().flatten().map(|p| p.0).fold(1.0, f64::max);
        let top_max = losses.iter().flat_map(|k| series[*k].iter().map(|p| p.1)).fold(0.1, f64::max) * 1.05;
        let mut chart = ChartBuilder::on(&top)
            .margin(12)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .caption("losses", ("sans-serif", 16))
            .build_cartesian_2d(0.0..max_step, 0.0..top_max)?;
        chart.configure_mesh().x_desc("step").label_style(("sans-serif", 12)).draw()?;
        for (i, k) in losses.iter().enumerate() {
            let colour = COLOURS[i % CURVE_COLOURS];
            chart
                .draw_series(LineSeries::new(series[*k].iter().copied(), colour.stroke_width(2)))?
                .label(k.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 12))
            .draw()?;
        let mut chart = ChartBuilder::on(&bottom)
            .margin(12)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .caption("evaluation scores (wins + draws/2) with 95% intervals", ("sans-serif", 16))
            .build_cartesian_2d(0.0..max_step, 0.0..1.0)?;
        chart.configure_mesh().x_desc("step").y_desc("score").label_style(("sans-serif", 12)).draw()?;
        for (i, k) in scores.iter().enumerate() {
            let colour = COLOURS[i % CURVE_COLOURS];
            let points = &series[*k];
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?
                .label(k.trim_start_matches("eval/"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2)));
            chart.draw_series(points.iter().map(|&(x, y)| Circle::new((x, y), 3, colour.filled())))?;
            if let (Some(low), Some(high)) =
                (series.get(&format!("{k}_low")), series.get(&format!("{k}_high")))
            {
                chart.draw_series(points.iter().zip(low).zip(high).map(
                    |((&(x, y), &(_, lo)), &(_, hi))| {
                        ErrorBar::new_vertical(x, lo, y, hi, colour.stroke_width(1), 8)
                    },
                ))?;
            }
        }
        if !scores.is_empty() {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .border_style(BLACK)
                .background_style(WHITE)
                .label_font(("sans-serif", 12))
                .draw()?;
        }
        root.present()?;
        Ok(())
    })
}

/// Plot the curves of a run into `out`.
pub fn plot_run(run: &Path, out: &Path) -> Result<(), String> {
    let series = read_metrics(run)?;
    plot(&series, &format!("run {}", run.display()), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_s_curves_are_drawn_into_a_png() {
        let run = std::env::temp_dir().join(format!("tde-curves-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&run);
        std::fs::create_dir_all(&run).unwrap();
        let lines = [
            r#"{"step":10,"train/policy_loss":2.0,"train/value_loss":0.5}"#,
            r#"{"step":20,"train/policy_loss":1.5,"train/value_loss":0.4}"#,
            r#"{"step":10,"train/policy_loss":1.9,"train/value_loss":0.5}"#,
            r#"{"step":20,"train/policy_loss":1.4,"train/value_loss":0.4}"#,
            r#"{"step":20,"eval/vs_scripted":0.3,"eval/vs_scripted_low":0.1,"eval/vs_scripted_high":0.5}"#,
        ];
        std::fs::write(run.join("metrics.jsonl"), lines.join("\n")).unwrap();
        let series = read_metrics(&run).unwrap();
        assert_eq!(
            series["train/policy_loss"],
            vec![(10.0, 1.9), (20.0, 1.4)],
            "a resumed run's points replace the old ones"
        );
        let out = run.join("curves.png");
        plot_run(&run, &out).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert!(bytes.len() > 5_000, "a drawn picture, {} bytes", bytes.len());
        std::fs::write(run.join("metrics.jsonl"), "{\"step\":1}\n").unwrap();
        assert!(plot_run(&run, &out).unwrap_err().contains("no losses"));
        std::fs::write(run.join("metrics.jsonl"), "not json\n").unwrap();
        assert!(plot_run(&run, &out).unwrap_err().contains("metrics.jsonl:1"));
        let _ = std::fs::remove_dir_all(&run);
    }
}
