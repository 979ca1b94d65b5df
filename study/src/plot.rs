//! Pictures of a study, each as PNG and SVG (written atomically): the board around the path
//! with every point coloured by the value of reacting there (a panel per reactor), and the
//! curves of the odds and values along the path.
//!
//! The font and the series colours are the workspace's shared look, [`eval::plot`].

use crate::timing::Study;
use engine::board::{Cover, Terrain};
use engine::GameState;
use eval::plot::{register_shipped_font, COLOURS};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// A value in [0, 1] on a dark-blue → teal → yellow scale (after viridis).
pub fn scale(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.5 } * 4.0;
    let i = (t.floor() as usize).min(3);
    let f = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let lerp = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(lerp(a.0, b.0), lerp(a.1, b.1), lerp(a.2, b.2))
}

/// `text` broken at spaces into lines that fit `width` pixels at about `char_px` pixels a
/// character.
pub fn wrap(text: &str, width: u32, char_px: u32) -> Vec<String> {
    let max = ((width.saturating_sub(16)) / char_px.max(1)).max(20) as usize;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `area` under a title wrapped to its width (`px`: the font size); returns the rest.
pub fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    px: u32,
) -> Result<DrawingArea<DB, Shift>, String> {
    let lines = wrap(title, area.dim_in_pixel().0, px * 11 / 20);
    let line = px as i32 + 5;
    let (top, rest) = area.split_vertically(line * lines.len() as i32 + 6);
    for (k, text) in lines.iter().enumerate() {
        top.draw(&Text::new(text.clone(), (8, 4 + line * k as i32), ("sans-serif", px))).map_err(err)?;
    }
    Ok(rest)
}

/// An error of drawing, as text.
pub fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draw one figure as `dir/name.png` and `dir/name.svg` with `draw`, atomically (temporary
/// files renamed into place); returns the two paths.
pub fn figure<F, G>(dir: &Path, name: &str, size: (u32, u32), png: F, svg: G) -> Result<Vec<PathBuf>, String>
where
    F: FnOnce(&DrawingArea<BitMapBackend, Shift>) -> Result<(), String>,
    G: FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
{
    register_shipped_font();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let png_path = dir.join(format!("{name}.png"));
    let tmp = dir.join(format!(".{name}.tmp{}.png", std::process::id()));
    {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        png(&root).map_err(|e| format!("{}: {e}", png_path.display()))?;
        root.present().map_err(|e| format!("{}: {e}", png_path.display()))?;
    }
    std::fs::rename(&tmp, &png_path).map_err(|e| format!("{}: {e}", png_path.display()))?;
    let svg_path = dir.join(format!("{name}.svg"));
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        svg(&root).map_err(|e| format!("{}: {e}", svg_path.display()))?;
        root.present().map_err(|e| format!("{}: {e}", svg_path.display()))?;
    }
    engine::record::write_atomic(&svg_path, text.as_bytes()).map_err(err)?;
    Ok(vec![png_path, svg_path])
}

/// Write the study's board and curves figures into `dir`; returns the files written.
pub fn write_figures(study: &Study, state: &GameState, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let reactors = reactors(study);
    let width = 420 * reactors.len().max(1) as u32;
    let mut files =
        figure(dir, "board", (width, 520), |a| draw_board(a, study, state), |a| draw_board(a, study, state))?;
    let height = if study.sampled() { 960 } else { 700 };
    files.extend(figure(dir, "curves", (900, height), |a| draw_curves(a, study), |a| draw_curves(a, study))?);
    Ok(files)
}

/// The reacting models in the table, in order.
fn reactors(study: &Study) -> Vec<u8> {
    let mut out: Vec<u8> = study.exact.rows.iter().map(|r| r.reactor).collect();
    out.dedup();
    out
}

/// The value the study ranks a row by (the verdict's measure); a point not offered takes the
/// value of the offered point it is equivalent to.
fn row_value(study: &Study, i: usize) -> f64 {
    study.value(Some(study.twin(i)))
}

/// The colour of a cell of the board map.
fn cell_colour(state: &GameState, x: u8, y: u8) -> RGBColor {
    let board = state.board();
    let c = board.cell(board.idx(x, y));
    let h = c.height.min(12) as f64 / 12.0;
    let shade = |base: (f64, f64, f64)| {
        let k = 1.0 - 0.45 * h;
        RGBColor((base.0 * k) as u8, (base.1 * k) as u8, (base.2 * k) as u8)
    };
    match (c.terrain, c.cover) {
        (Terrain::Water, _) => RGBColor(170, 205, 235),
        (Terrain::Impassable, _) => RGBColor(40, 40, 40),
        (Terrain::Rough, _) => shade((190.0, 180.0, 130.0)),
        (_, Cover::Hard) => shade((160.0, 110.0, 70.0)),
        (_, Cover::Soft) => shade((120.0, 190.0, 110.0)),
        _ => shade((235.0, 235.0, 225.0)),
    }
}

/// The board around the path, one panel per reactor.
pub fn draw_board<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    study: &Study,
    state: &GameState,
) -> Result<(), String> {
    let e = &study.exact;
    let board = state.board();
    let rs = reactors(study);
    let values: Vec<f64> = (0..e.rows.len()).map(|i| row_value(study, i)).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let norm = |v: f64| if hi - lo > 1e-12 { (v - lo) / (hi - lo) } else { 0.5 };
    // The window: path and reactors with a margin.
    let mut cells: Vec<[u8; 2]> = e.path.iter().map(|p| p.cell).collect();
    for &r in &rs {
        let (x, y) = board.xy(state.models()[r as usize].cell);
        cells.push([x, y]);
    }
    let m = 3i32;
    let x0 = (cells.iter().map(|c| c[0] as i32).min().unwrap_or(0) - m).max(0);
    let x1 = (cells.iter().map(|c| c[0] as i32).max().unwrap_or(0) + m).min(board.width() as i32 - 1);
    let y0 = (cells.iter().map(|c| c[1] as i32).min().unwrap_or(0) - m).max(0);
    let y1 = (cells.iter().map(|c| c[1] as i32).max().unwrap_or(0) + m).min(board.depth() as i32 - 1);
    let what = if study.by_return() { "value beyond the sequence" } else { "AP-counted net" };
    let hold = study.value(None);
    let width = root.dim_in_pixel().0;
    let root = titled(root, &format!("{}: {}", study.situation, e.declared), 15)?;
    let judge = match &study.sampling {
        Some(sm) if study.by_return() => {
            format!("judge {}, {} samples", sm.agent, study.hold_beyond.as_ref().map_or(0, |h| h.samples))
        }
        _ => format!("exact, AP at {}", study.ap_rate_label()),
    };
    let mut lines = wrap(
        &format!(
            "point colour: best {what} of reacting there ({judge}), {lo:+.2} (dark) to {hi:+.2} (yellow); holding the AP: {hold:+.2}; grey ring: cannot react there"
        ),
        width,
        6,
    );
    lines.extend(wrap(
        "cells: brown hard cover, green soft cover, blue water, darker higher; red square: the reactor",
        width,
        6,
    ));
    let (main, foot) = root.split_vertically(root.dim_in_pixel().1 as i32 - 16 * lines.len() as i32 - 8);
    for (k, line) in lines.iter().enumerate() {
        foot.draw(&Text::new(line.clone(), (8, 4 + 16 * k as i32), ("sans-serif", 11))).map_err(err)?;
    }
    let panels = main.split_evenly((1, rs.len().max(1)));
    for (panel, &r) in panels.iter().zip(&rs) {
        let name = engine::render::model_name(state, r);
        let mut chart = ChartBuilder::on(panel)
            .margin(8)
            .caption(format!("reactor {name}"), ("sans-serif", 14))
            .x_label_area_size(22)
            .y_label_area_size(26)
            .build_cartesian_2d(x0 as f64..(x1 + 1) as f64, (y1 + 1) as f64..y0 as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style(("sans-serif", 10))
            .draw()
            .map_err(err)?;
        let mut rects = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = cell_colour(state, x as u8, y as u8);
                rects.push(Rectangle::new(
                    [(x as f64, y as f64), (x as f64 + 1.0, y as f64 + 1.0)],
                    c.filled(),
                ));
            }
        }
        chart.draw_series(rects).map_err(err)?;
        let centre = |c: [u8; 2]| (c[0] as f64 + 0.5, c[1] as f64 + 0.5);
        chart
            .draw_series(LineSeries::new(e.path.iter().map(|p| centre(p.cell)), BLACK.stroke_width(2)))
            .map_err(err)?;
        for p in &e.path {
            let best = e
                .rows
                .iter()
                .enumerate()
                .filter(|(_, row)| row.reactor == r && row.point == p.point)
                .map(|(i, _)| values[i])
                .fold(None, |b: Option<f64>, v| Some(b.map_or(v, |b| b.max(v))));
            let at = centre(p.cell);
            match best {
                Some(v) => {
                    chart.draw_series([Circle::new(at, 9, scale(norm(v)).filled())]).map_err(err)?;
                    chart.draw_series([Circle::new(at, 9, BLACK.stroke_width(1))]).map_err(err)?;
                }
                None => {
                    chart
                        .draw_series([Circle::new(at, 7, RGBColor(120, 120, 120).stroke_width(2))])
                        .map_err(err)?;
                }
            }
            let ink = if best.is_none_or(|v| norm(v) > 0.6) { BLACK } else { WHITE };
            let label = p.point.to_string();
            let dx = -3 * label.len() as i32;
            chart
                .draw_series([EmptyElement::at(at)
                    + Text::new(label, (dx, -6), ("sans-serif", 11).into_font().color(&ink))])
                .map_err(err)?;
        }
        for (i, model) in state.models().iter().enumerate() {
            let (x, y) = board.xy(model.cell);
            if (x as i32) < x0 || x as i32 > x1 || (y as i32) < y0 || y as i32 > y1 {
                continue;
            }
            let letter = engine::render::model_letter(state, i as u8).to_string();
            let colour = if i as u8 == r {
                RGBColor(200, 30, 30)
            } else if model.side == e.side {
                RGBColor(120, 60, 60)
            } else {
                RGBColor(30, 60, 200)
            };
            let at = centre([x, y]);
            if i as u8 == e.mover {
                continue; // the mover is drawn as point 0 of its path
            }
            chart
                .draw_series([Rectangle::new(
                    [(at.0 - 0.45, at.1 - 0.45), (at.0 + 0.45, at.1 + 0.45)],
                    colour.filled(),
                )])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    letter,
                    (at.0 - 0.25, at.1 - 0.35),
                    ("sans-serif", 12).into_font().color(&WHITE),
                )])
                .map_err(err)?;
        }
    }
    Ok(())
}

/// How one series of the curves is drawn: its colour, its line (solid, dashed or dotted) and
/// its marker shape, so that curves that overlap stay apart.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// The series' colour.
    pub colour: RGBColor,
    /// 0 solid, 1 dashed, 2 dotted.
    pub dash: usize,
    /// 0 circle, 1 triangle, 2 square, 3 diamond.
    pub shape: usize,
}

impl Look {
    /// The look of series `k`.
    pub fn of(k: usize) -> Look {
        Look { colour: COLOURS[k % COLOURS.len()], dash: k % 3, shape: k % 4 }
    }

    /// The shape's outline around `(0, 0)` in pixels, radius `r`.
    fn outline(&self, r: i32) -> Vec<(i32, i32)> {
        match self.shape {
            0 => (0..=16)
                .map(|i| {
                    let a = i as f64 * std::f64::consts::PI / 8.0;
                    ((r as f64 * a.cos()).round() as i32, (r as f64 * a.sin()).round() as i32)
                })
                .collect(),
            1 => vec![(0, -r - 1), (r + 1, r), (-r - 1, r), (0, -r - 1)],
            2 => vec![(-r, -r), (r, -r), (r, r), (-r, r), (-r, -r)],
            _ => vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0), (0, -r - 1)],
        }
    }
}

/// What the mover is to a reactor at a point, for its marker: in hard cover (hollow marker),
/// soft cover (a dot inside a hollow marker), in the open (filled), and beyond the weapon's
/// pass range (a grey ring around it).
#[derive(Clone, Copy, Debug)]
struct Seen {
    hard: bool,
    soft: bool,
    long: bool,
}

/// Draw a series' line through `pts` in its look.
fn draw_line<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    pts: Vec<(f64, f64)>,
    look: Look,
) -> Result<(), String> {
    let style = look.colour.stroke_width(2);
    match look.dash {
        0 => chart.draw_series(LineSeries::new(pts, style)).map(|_| ()),
        1 => chart.draw_series(DashedLineSeries::new(pts, 9, 5, style)).map(|_| ()),
        _ => chart.draw_series(DashedLineSeries::new(pts, 3, 4, style)).map(|_| ()),
    }
    .map_err(err)
}

/// Draw a series' marker at `at` in its look, filled or not by what the mover is there.
fn draw_marker<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    at: (f64, f64),
    look: Look,
    seen: Seen,
) -> Result<(), String> {
    let r = 5;
    if seen.long {
        chart
            .draw_series([
                EmptyElement::at(at) + Circle::new((0, 0), r + 5, RGBColor(130, 130, 130).stroke_width(2))
            ])
            .map_err(err)?;
    }
    let outline = look.outline(r);
    if seen.hard || seen.soft {
        chart
            .draw_series([EmptyElement::at(at) + Polygon::new(outline.clone(), WHITE.filled())])
            .map_err(err)?;
        chart
            .draw_series([EmptyElement::at(at) + PathElement::new(outline, look.colour.stroke_width(2))])
            .map_err(err)?;
        if seen.soft {
            chart
                .draw_series([EmptyElement::at(at) + Circle::new((0, 0), 2, look.colour.filled())])
                .map_err(err)?;
        }
    } else {
        chart
            .draw_series([EmptyElement::at(at) + Polygon::new(outline, look.colour.filled())])
            .map_err(err)?;
    }
    Ok(())
}

/// The x axis of a panel of the curves: the points of the path.
fn path_axis<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: usize,
    y_desc: &str,
) -> Result<(), String> {
    chart
        .configure_mesh()
        .x_desc("point of the path")
        .x_labels(points + 1)
        .x_label_formatter(&|v| {
            if (v - v.round()).abs() < 1e-6 {
                format!("{}", v.round())
            } else {
                String::new()
            }
        })
        .light_line_style(WHITE)
        .y_desc(y_desc)
        .label_style(("sans-serif", 11))
        .draw()
        .map_err(err)
}

/// Curves along the path: the chance to hit and the net expected wounds of each reaction,
/// and the values beyond the sequence with their intervals when sampled. Each series has its
/// colour, line and marker shape; a marker is hollow where the mover is in hard cover, dotted
/// in soft cover, ringed in grey beyond the weapon's pass range.
pub fn draw_curves<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, study: &Study) -> Result<(), String> {
    let e = &study.exact;
    let last = e.path.len().saturating_sub(1) as f64;
    let mut series: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, r) in e.rows.iter().enumerate() {
        let name = format!("{} {}", r.reactor_name, r.kind);
        match series.iter_mut().find(|(n, _)| *n == name) {
            Some((_, rows)) => rows.push(i),
            None => series.push((name, vec![i])),
        }
    }
    let seen = |i: usize| {
        let s = &e.rows[i].sighting;
        Seen { hard: s.hard_cover, soft: s.soft_cover && !s.hard_cover, long: !s.pass_range }
    };
    let root = titled(root, &format!("{}: odds and values along the path", study.situation), 16)?;
    let judge = match &study.sampling {
        Some(sm) if study.sampled() => format!(
            "judge {}, {} samples per option, seed {}",
            sm.agent,
            study.hold_beyond.as_ref().map_or(0, |h| h.samples),
            sm.seed
        ),
        _ => "no judge (exact values only)".to_string(),
    };
    let foot_text = format!(
        "markers: filled = mover in the open, hollow = in hard cover, dot inside = in soft cover, grey ring = beyond the weapon's pass range (long band); {judge}; AP at {}",
        study.ap_rate_label()
    );
    let width = root.dim_in_pixel().0 as i32;
    // The legend: a row (or more) of line, marker and name per series, under the panels.
    let mut entries = Vec::new();
    let (mut x, mut row) = (8, 0);
    for (k, (name, _)) in series.iter().enumerate() {
        let w = 40 + 7 * name.chars().count() as i32;
        if x + w > width && x > 8 {
            (x, row) = (8, row + 1);
        }
        entries.push((k, name.clone(), x, row));
        x += w;
    }
    let legend_rows = row + 1;
    let lines = wrap(&foot_text, width as u32, 6);
    let foot_height = 20 * legend_rows + 16 * lines.len() as i32 + 12;
    let (root, foot) = root.split_vertically(root.dim_in_pixel().1 as i32 - foot_height);
    for (k, name, x, row) in entries {
        let look = Look::of(k);
        let y = 10 + 20 * row;
        let line: Vec<(i32, i32)> = match look.dash {
            0 => vec![(x, y), (x + 28, y)],
            _ => vec![(x, y), (x + 8, y)],
        };
        foot.draw(&PathElement::new(line, look.colour.stroke_width(2))).map_err(err)?;
        if look.dash > 0 {
            foot.draw(&PathElement::new(vec![(x + 20, y), (x + 28, y)], look.colour.stroke_width(2)))
                .map_err(err)?;
        }
        let outline: Vec<(i32, i32)> = look.outline(5).iter().map(|&(a, b)| (a + x + 14, b + y)).collect();
        foot.draw(&Polygon::new(outline, look.colour.filled())).map_err(err)?;
        foot.draw(&Text::new(name, (x + 34, y - 6), ("sans-serif", 12))).map_err(err)?;
    }
    for (k, line) in lines.iter().enumerate() {
        let y = 20 * legend_rows + 4 + 16 * k as i32;
        foot.draw(&Text::new(line.clone(), (8, y), ("sans-serif", 11))).map_err(err)?;
    }
    let panels = if study.sampled() { root.split_evenly((3, 1)) } else { root.split_evenly((2, 1)) };
    let x_range = -0.3..last + 0.3;
    let n = series.len().max(1) as f64;
    // Series side by side around each point, so that equal values do not hide each other.
    let dx = |k: usize| (k as f64 - (n - 1.0) / 2.0) * 0.08;
    // Chance to hit the mover.
    let mut chart = ChartBuilder::on(&panels[0])
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .caption("chance to hit the mover", ("sans-serif", 13))
        .build_cartesian_2d(x_range.clone(), 0.0..1.05)
        .map_err(err)?;
    path_axis(&mut chart, e.path.len(), "P(hit)")?;
    for (k, (_, rows)) in series.iter().enumerate() {
        let look = Look::of(k);
        let pts: Vec<(f64, f64)> =
            rows.iter().map(|&i| (e.rows[i].point as f64 + dx(k), e.rows[i].exact.p_active_hit)).collect();
        draw_line(&mut chart, pts.clone(), look)?;
        for (&i, &p) in rows.iter().zip(&pts) {
            draw_marker(&mut chart, p, look, seen(i))?;
        }
    }
    // Net expected wounds.
    let nets: Vec<f64> = e.rows.iter().map(|r| r.net()).chain([0.0]).collect();
    let (lo, hi) = (nets.iter().copied().fold(0.0, f64::min), nets.iter().copied().fold(0.0, f64::max));
    let pad = ((hi - lo) * 0.1).max(0.05);
    let mut chart = ChartBuilder::on(&panels[1])
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .caption(
            "expected wounds dealt minus taken, the mover answering at best (dashed grey: holding the AP)",
            ("sans-serif", 13),
        )
        .build_cartesian_2d(x_range.clone(), lo - pad..hi + pad)
        .map_err(err)?;
    path_axis(&mut chart, e.path.len(), "net wounds")?;
    let hold = e.hold.expected_wounds_dealt - e.hold.expected_wounds_taken;
    chart
        .draw_series(DashedLineSeries::new(
            [(-0.3, hold), (last + 0.3, hold)],
            6,
            4,
            RGBColor(120, 120, 120).stroke_width(2),
        ))
        .map_err(err)?;
    for (k, (_, rows)) in series.iter().enumerate() {
        let look = Look::of(k);
        let pts: Vec<(f64, f64)> =
            rows.iter().map(|&i| (e.rows[i].point as f64 + dx(k), e.rows[i].net())).collect();
        draw_line(&mut chart, pts.clone(), look)?;
        for (&i, &p) in rows.iter().zip(&pts) {
            draw_marker(&mut chart, p, look, seen(i))?;
        }
    }
    if let (Some(panel), Some(h)) = (panels.get(2), &study.hold_beyond) {
        let sampled = study.beyond.iter().filter(|b| b.samples > 0);
        let lows = sampled.clone().map(|b| b.low).chain([h.low]).fold(1.0, f64::min);
        let highs = sampled.map(|b| b.high).chain([h.high]).fold(-1.0, f64::max);
        let mut chart = ChartBuilder::on(panel)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .caption(
                format!(
                    "value beyond the sequence, intervals at z = {:.2} (offered points only; grey band: holding the AP)",
                    study.z(),
                ),
                ("sans-serif", 13),
            )
            .build_cartesian_2d(x_range, (lows - 0.05)..(highs + 0.05))
            .map_err(err)?;
        path_axis(&mut chart, e.path.len(), "mean return")?;
        chart
            .draw_series([Rectangle::new(
                [(-0.3, h.low), (last + 0.3, h.high)],
                RGBColor(200, 200, 200).mix(0.5).filled(),
            )])
            .map_err(err)?;
        chart
            .draw_series(DashedLineSeries::new(
                [(-0.3, h.mean), (last + 0.3, h.mean)],
                6,
                4,
                RGBColor(90, 90, 90).stroke_width(2),
            ))
            .map_err(err)?;
        for (k, (_, rows)) in series.iter().enumerate() {
            let look = Look::of(k);
            let rows: Vec<usize> = rows.iter().copied().filter(|&i| study.beyond[i].samples > 0).collect();
            let x = |i: usize| e.rows[i].point as f64 + 1.5 * dx(k);
            let pts: Vec<(f64, f64)> = rows.iter().map(|&i| (x(i), study.beyond[i].mean)).collect();
            draw_line(&mut chart, pts.clone(), look)?;
            chart
                .draw_series(rows.iter().map(|&i| {
                    let b = &study.beyond[i];
                    ErrorBar::new_vertical(x(i), b.low, b.mean, b.high, look.colour.stroke_width(1), 6)
                }))
                .map_err(err)?;
            for (&i, &p) in rows.iter().zip(&pts) {
                draw_marker(&mut chart, p, look, seen(i))?;
            }
        }
    }
    Ok(())
}
