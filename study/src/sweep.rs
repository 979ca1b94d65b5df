//! A sweep of reaction-timing situations: families generated from a config (the reactor's
//! profile — its attributes and weapon ranges —, its distance from the path and its position
//! along it, hard cover at the start or end of the path or none, the mover's and the reactor's
//! AP), each studied, and a map of where reacting early, reacting late, dodging or holding
//! the AP is best: heatmaps and a summary table.
//!
//! Config (TOML; `configs/studies/reaction_sweep.toml` is the shipped one):
//!
//! ```toml
//! board = "reaction_lanes.board"   # relative to the config's folder, or a board name
//! mover = "kaneda"
//! length = 6                # inches of the declared move, along a lane
//! actions = ["move", "charge"]  # a move along the lane, or a charge at the reactor from its start
//! reactors = ["slethssk", "nix"]
//! distances = [3, 5, 7, 9]  # rows between the lane and the reactor (perpendicular)
//! positions = [-3, 0, 3, 6, 9]  # the reactor's column from the path's start, along the move
//! cover = ["none", "start", "end"]  # the crates of lane A at the start or end of the move
//! mover_ap = [1, 2]         # the mover's AP before the move (1: no AP left to answer)
//! reactor_ap = [1]
//! samples = 0               # continuations per option (0: exact values only)
//! agent = "scripted"
//! seed = 0
//! hold_threshold = 0.05     # exact only: hold when no reaction nets more expected wounds
//! ```

use crate::beyond::{AgentFactory, Horizon, Sampling};
use crate::plot::{err, figure};
use crate::timing::{study, Study};
use engine::GameState;
use plotters::coord::Shift;
use plotters::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The lane rows and cover of the shipped board (see `configs/studies/reaction_lanes.board`).
const LANE_COVER: u8 = 8;
const LANE_OPEN: u8 = 26;
/// The middle column of the three crates below the covered lane (13 to 15).
const MIDDLE: i32 = 14;

/// A sweep config (see the module docs).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SweepConfig {
    /// Board name or path (relative to the config's folder).
    pub board: String,
    /// The mover's profile.
    pub mover: String,
    /// Length of the declared move in inches.
    pub length: u8,
    /// The declared actions: `move` (along the lane) and/or `charge` (at the reactor, from the
    /// move's start, ending next to it).
    #[serde(default = "default_actions")]
    pub actions: Vec<String>,
    /// Reactor profiles.
    pub reactors: Vec<String>,
    /// Rows between the lane and the reactor.
    pub distances: Vec<u8>,
    /// The reactor's column relative to the path's start, counted along the move.
    pub positions: Vec<i32>,
    /// Where the hard cover is: none, start or end.
    pub cover: Vec<String>,
    /// The mover's AP before the move.
    pub mover_ap: Vec<u8>,
    /// The reactor's AP.
    pub reactor_ap: Vec<u8>,
    /// Continuations per option (0: exact values only).
    #[serde(default)]
    pub samples: u32,
    /// Agent of the continuations.
    #[serde(default = "default_agent")]
    pub agent: String,
    /// Seed of the continuations.
    #[serde(default)]
    pub seed: u64,
    /// Exact only: holding is best when no reaction nets more expected wounds than this.
    #[serde(default = "default_threshold")]
    pub hold_threshold: f64,
    /// The config's folder, to resolve the board.
    #[serde(skip)]
    pub folder: PathBuf,
}

fn default_actions() -> Vec<String> {
    vec!["move".to_string()]
}

fn default_agent() -> String {
    "scripted".to_string()
}

fn default_threshold() -> f64 {
    0.05
}

impl SweepConfig {
    /// Load and check a sweep config; errors name the file and field.
    pub fn load(path: &Path) -> Result<SweepConfig, String> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
        let mut c: SweepConfig = toml::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        c.folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let bad = |field: &str, why: &str| Err(format!("{file}: {field}: {why}"));
        for (field, empty) in [
            ("actions", c.actions.is_empty()),
            ("reactors", c.reactors.is_empty()),
            ("distances", c.distances.is_empty()),
            ("positions", c.positions.is_empty()),
            ("cover", c.cover.is_empty()),
            ("mover_ap", c.mover_ap.is_empty()),
            ("reactor_ap", c.reactor_ap.is_empty()),
        ] {
            if empty {
                return bad(field, "needs at least one value");
            }
        }
        if let Some(k) = c.cover.iter().find(|k| !matches!(k.as_str(), "none" | "start" | "end")) {
            return bad("cover", &format!("`{k}` is not none, start or end"));
        }
        if let Some(a) = c.actions.iter().find(|a| !matches!(a.as_str(), "move" | "charge")) {
            return bad("actions", &format!("`{a}` is not move or charge"));
        }
        if !(1..=12).contains(&c.length) {
            return bad("length", "must be 1 to 12 inches");
        }
        if c.distances.iter().any(|&d| !(2..=9).contains(&d)) {
            return bad("distances", "each must be 2 to 9 rows (the lanes leave 9 rows below them)");
        }
        if c.positions.iter().any(|&p| !(-12..=24).contains(&p)) {
            return bad("positions", "each must be -12 to 24 columns");
        }
        if c.mover_ap.iter().chain(&c.reactor_ap).any(|&a| a == 0) {
            return bad("mover_ap/reactor_ap", "AP must be at least 1 (to move, to react)");
        }
        if !(c.hold_threshold.is_finite() && c.hold_threshold >= 0.0) {
            return bad("hold_threshold", "must be a number of at least 0");
        }
        if c.samples > 10_000 {
            return bad("samples", "at most 10000");
        }
        Ok(c)
    }

    /// The board as `parse_setup` takes it: a path next to the config if there is one.
    fn board_ref(&self) -> String {
        let local = self.folder.join(&self.board);
        if local.is_file() {
            local.display().to_string()
        } else {
            self.board.clone()
        }
    }
}

/// One generated situation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Situation {
    /// The declared action: move or charge.
    pub action: String,
    /// Reactor profile.
    pub reactor: String,
    /// Rows between lane and reactor.
    pub distance: u8,
    /// Column of the reactor from the path's start, along the move.
    pub position: i32,
    /// Cover: none, start or end.
    pub cover: String,
    /// Mover's AP before the move.
    pub mover_ap: u8,
    /// Reactor's AP.
    pub reactor_ap: u8,
}

/// What is best in a situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Best {
    /// React with an attack at the first point it is possible (nothing later is better).
    Early,
    /// React with an attack at a later point, strictly better than at once.
    Late,
    /// Dodge.
    Dodge,
    /// Keep the AP.
    Hold,
    /// Nobody can react (out of sight or range everywhere).
    None,
}

impl Best {
    /// All categories, in legend order.
    pub const ALL: [Best; 5] = [Best::Early, Best::Late, Best::Dodge, Best::Hold, Best::None];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Best::Early => "early",
            Best::Late => "late",
            Best::Dodge => "dodge",
            Best::Hold => "hold",
            Best::None => "none",
        }
    }

    fn colour(self) -> RGBColor {
        match self {
            Best::Early => RGBColor(31, 119, 180),
            Best::Late => RGBColor(255, 127, 14),
            Best::Dodge => RGBColor(44, 160, 44),
            Best::Hold => RGBColor(150, 150, 150),
            Best::None => RGBColor(245, 245, 245),
        }
    }
}

/// One situation's result.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The situation.
    pub situation: Situation,
    /// What is best.
    pub best: Best,
    /// The best reaction's point, when reacting is best.
    pub best_point: Option<u8>,
    /// The best reaction's net expected wounds (the mover answering at best).
    pub best_net: f64,
    /// How much better the best point is than reacting at once with the same reaction.
    pub gain_over_at_once: f64,
    /// The best timing in words.
    pub verdict: String,
}

/// A whole sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepResult {
    /// The config.
    pub config: SweepConfig,
    /// Every situation, in generation order.
    pub outcomes: Vec<Outcome>,
}

/// Every situation of the config, in a fixed order.
pub fn situations(c: &SweepConfig) -> Vec<Situation> {
    let mut out = Vec::new();
    for action in &c.actions {
        for reactor in &c.reactors {
            for cover in &c.cover {
                for &mover_ap in &c.mover_ap {
                    for &reactor_ap in &c.reactor_ap {
                        for &distance in &c.distances {
                            for &position in &c.positions {
                                out.push(Situation {
                                    action: action.clone(),
                                    reactor: reactor.clone(),
                                    distance,
                                    position,
                                    cover: cover.clone(),
                                    mover_ap,
                                    reactor_ap,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The setup text of a situation: the lane, start and end of the move, the reactor below
/// (revealed: no stealth token, so that it can be charged); a charge uses the mover's weapon
/// number `weapon`.
pub fn setup_text(c: &SweepConfig, s: &Situation, weapon: u8) -> String {
    let len = c.length as i32;
    // Covered start: the move begins at the crates and runs right; covered end: it runs left
    // and ends at them; no cover: the open lane.
    let (row, start, dir) = match s.cover.as_str() {
        "start" => (LANE_COVER, MIDDLE, 1),
        "end" => (LANE_COVER, MIDDLE + len, -1),
        _ => (LANE_OPEN, 12, 1),
    };
    let end = start + dir * len;
    let rx = (start + dir * s.position).clamp(0, 35);
    let ry = row as i32 + s.distance as i32;
    let declared = if s.action == "charge" {
        format!("action = \"charge\"\ntarget = 1\nweapon = {weapon}\nto = [{rx}, {}]\n", ry - 1)
    } else {
        format!("action = \"move\"\nto = [{end}, {row}]\n")
    };
    format!(
        "board = {board:?}\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = {mover:?}\nat = [{start}, {row}]\nap = {map}\n\n\
         [[model]]\nside = 1\nprofile = {reactor:?}\nat = [{rx}, {ry}]\nap = {rap}\nstealth = false\n\n[declared]\n{declared}",
        board = c.board_ref(),
        mover = c.mover,
        map = s.mover_ap,
        reactor = s.reactor,
        rap = s.reactor_ap,
    )
}

/// Study every situation of the config (in parallel) and classify what is best.
pub fn run(c: &SweepConfig, factory: &AgentFactory) -> Result<SweepResult, String> {
    let configs = engine::data::configs_dir();
    let sampling =
        Sampling { agent: c.agent.clone(), samples: c.samples, seed: c.seed, horizon: Horizon::Game };
    let outcomes = situations(c)
        .into_par_iter()
        .map(|s| {
            let name = format!(
                "{} {} d{} p{} cover {} ap {}/{}",
                s.action, s.reactor, s.distance, s.position, s.cover, s.mover_ap, s.reactor_ap
            );
            // A charge takes the mover's first weapon it can charge with (close combat).
            let weapons = if s.action == "charge" { 0..4u8 } else { 0..1 };
            let mut first_error = None;
            let mut state = None;
            for w in weapons {
                match engine::setup::parse_setup(&setup_text(c, &s, w), &name, &configs) {
                    Ok(st) => {
                        state = Some(st);
                        break;
                    }
                    Err(e) => {
                        first_error.get_or_insert(e.to_string());
                    }
                }
            }
            let Some(state) = state else {
                let e = first_error.unwrap_or_default();
                // A charge the mover cannot make (out of reach) has nothing to react to.
                return if s.action == "charge" { Ok(nothing(s, format!("no charge: {e}"))) } else { Err(e) };
            };
            classify(c, s, &state, &name, &sampling, factory)
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SweepResult { config: c.clone(), outcomes })
}

/// The outcome of a situation where nobody reacts.
fn nothing(situation: Situation, verdict: String) -> Outcome {
    Outcome { situation, best: Best::None, best_point: None, best_net: 0.0, gain_over_at_once: 0.0, verdict }
}

/// Study one situation and classify what is best.
fn classify(
    c: &SweepConfig,
    s: Situation,
    state: &GameState,
    name: &str,
    sampling: &Sampling,
    factory: &AgentFactory,
) -> Result<Outcome, String> {
    let none = |verdict: String| nothing(s.clone(), verdict);
    if state.dynamic().steps.last() != Some(&engine::state::Step::ChooseReaction) {
        return Ok(none("nobody can react".into()));
    }
    let st: Study = match study(state, name, Some((sampling, factory))) {
        Ok(st) => st,
        Err(crate::exact::StudyError::NoReactor(why)) => return Ok(none(why)),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let Some(b) = st.best_row() else { return Ok(none("nobody can react".into())) };
    let row = &st.exact.rows[b];
    let first = &st.exact.rows[st.at_once(b)];
    let hold = match (st.beyond.get(b), st.hold_beyond) {
        (Some(e), Some(h)) => h.mean > e.mean,
        _ => row.net() < c.hold_threshold,
    };
    let best = if hold {
        Best::Hold
    } else if row.kind == "dodge" {
        Best::Dodge
    } else if row.point > first.point {
        Best::Late
    } else {
        Best::Early
    };
    Ok(Outcome {
        situation: s,
        best,
        best_point: (!hold).then_some(row.point),
        best_net: row.net(),
        gain_over_at_once: row.net() - first.net(),
        verdict: st.verdict.clone(),
    })
}

/// The summary table: for every value of every axis, how often each choice is best and the
/// mean gain of the best point over reacting at once.
pub fn render_summary(r: &SweepResult) -> String {
    let mut out = format!(
        "{} situations; best choice by axis value (counts), mean gain of waiting:\n",
        r.outcomes.len()
    );
    let _ = writeln!(out, "\n| axis | value | early | late | dodge | hold | none | mean gain |");
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
    type Axis = (&'static str, fn(&Situation) -> String);
    let axes: [Axis; 7] = [
        ("action", |s| s.action.clone()),
        ("reactor", |s| s.reactor.clone()),
        ("cover", |s| s.cover.clone()),
        ("distance", |s| s.distance.to_string()),
        ("position", |s| s.position.to_string()),
        ("mover AP", |s| s.mover_ap.to_string()),
        ("reactor AP", |s| s.reactor_ap.to_string()),
    ];
    for (axis, value) in axes {
        let mut values: Vec<String> = Vec::new();
        for o in &r.outcomes {
            let v = value(&o.situation);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        for v in values {
            let group: Vec<&Outcome> = r.outcomes.iter().filter(|o| value(&o.situation) == v).collect();
            let count = |b: Best| group.iter().filter(|o| o.best == b).count();
            let reacting: Vec<f64> = group
                .iter()
                .filter(|o| matches!(o.best, Best::Early | Best::Late))
                .map(|o| o.gain_over_at_once)
                .collect();
            let gain = reacting.iter().sum::<f64>() / reacting.len().max(1) as f64;
            let _ = writeln!(
                out,
                "| {axis} | {v} | {} | {} | {} | {} | {} | {gain:+.3} |",
                count(Best::Early),
                count(Best::Late),
                count(Best::Dodge),
                count(Best::Hold),
                count(Best::None)
            );
        }
    }
    out
}

/// Write the heatmaps (one figure per mover AP and reactor AP: a panel per reactor and cover,
/// distance across, position down), the summary (`summary.md`) and the results
/// (`sweep.json`) into `dir`; returns the files written.
pub fn write_outputs(r: &SweepResult, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let c = &r.config;
    for action in &c.actions {
        for &map in &c.mover_ap {
            for &rap in &c.reactor_ap {
                let name = format!("heatmap_{action}_ap{map}_{rap}");
                let size = (300 * c.cover.len() as u32 + 40, 260 * c.reactors.len() as u32 + 90);
                files.extend(figure(
                    dir,
                    &name,
                    size,
                    |a| draw_heatmap(a, r, action, map, rap),
                    |a| draw_heatmap(a, r, action, map, rap),
                )?);
            }
        }
    }
    let summary = dir.join("summary.md");
    engine::record::write_atomic(&summary, render_summary(r).as_bytes()).map_err(err)?;
    files.push(summary);
    let json = dir.join("sweep.json");
    let text = serde_json::to_string_pretty(r).map_err(err)?;
    engine::record::write_atomic(&json, text.as_bytes()).map_err(err)?;
    files.push(json);
    Ok(files)
}

/// One heatmap figure.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: &SweepResult,
    action: &str,
    mover_ap: u8,
    reactor_ap: u8,
) -> Result<(), String> {
    let c = &r.config;
    let what = if action == "charge" {
        "charging the reactor".to_string()
    } else {
        format!("moving {}\"", c.length)
    };
    let title = format!(
        "best reaction: {} {what} (AP {mover_ap}), reactor AP {reactor_ap}; label: best point, its gain over reacting at once",
        c.mover
    );
    let root = root.titled(&title, ("sans-serif", 13)).map_err(err)?;
    let (main, foot) = root.split_vertically(root.dim_in_pixel().1 as i32 - 30);
    let mut x = 10;
    for b in Best::ALL {
        foot.draw(&Rectangle::new([(x, 6), (x + 14, 20)], b.colour().filled())).map_err(err)?;
        foot.draw(&Text::new(b.name(), (x + 18, 6), ("sans-serif", 12))).map_err(err)?;
        x += 80;
    }
    let panels = main.split_evenly((c.reactors.len(), c.cover.len()));
    let mut dists = c.distances.clone();
    dists.sort_unstable();
    let mut pos = c.positions.clone();
    pos.sort_unstable();
    for (i, reactor) in c.reactors.iter().enumerate() {
        for (j, cover) in c.cover.iter().enumerate() {
            let panel = &panels[i * c.cover.len() + j];
            let mut chart = ChartBuilder::on(panel)
                .margin(6)
                .caption(format!("{reactor}, cover {cover}"), ("sans-serif", 12))
                .x_label_area_size(28)
                .y_label_area_size(34)
                .build_cartesian_2d(-0.5..dists.len() as f64 - 0.5, -0.5..pos.len() as f64 - 0.5)
                .map_err(err)?;
            let (dl, pl) = (dists.clone(), pos.clone());
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc("distance from the path (rows)")
                .y_desc("position along")
                .x_labels(dl.len())
                .y_labels(pl.len())
                .x_label_formatter(&move |v| cell_label(*v, &dl))
                .y_label_formatter(&move |v| cell_label(*v, &pl))
                .label_style(("sans-serif", 10))
                .draw()
                .map_err(err)?;
            for o in r.outcomes.iter().filter(|o| {
                o.situation.reactor == *reactor
                    && o.situation.action == action
                    && o.situation.cover == *cover
                    && o.situation.mover_ap == mover_ap
                    && o.situation.reactor_ap == reactor_ap
            }) {
                let (Some(xi), Some(yi)) = (
                    dists.iter().position(|&d| d == o.situation.distance),
                    pos.iter().position(|&p| p == o.situation.position),
                ) else {
                    continue;
                };
                let (x, y) = (xi as f64, yi as f64);
                chart
                    .draw_series([Rectangle::new(
                        [(x - 0.47, y - 0.47), (x + 0.47, y + 0.47)],
                        o.best.colour().filled(),
                    )])
                    .map_err(err)?;
                let (point, gain) = match (o.best, o.best_point) {
                    (Best::Late, Some(k)) => (format!("p{k}"), format!("{:+.2}", o.gain_over_at_once)),
                    (Best::Early | Best::Dodge, Some(k)) => (format!("p{k}"), String::new()),
                    _ => (String::new(), String::new()),
                };
                chart.draw_series([Text::new(point, (x - 0.4, y + 0.4), ("sans-serif", 10))]).map_err(err)?;
                chart.draw_series([Text::new(gain, (x - 0.4, y - 0.05), ("sans-serif", 9))]).map_err(err)?;
            }
        }
    }
    Ok(())
}

/// The label of a heatmap axis at `v`: the value of the cell centred there, or nothing between
/// cells.
fn cell_label<T: ToString>(v: f64, values: &[T]) -> String {
    if (v - v.round()).abs() > 1e-6 || v < -0.5 {
        return String::new();
    }
    values.get(v.round() as usize).map_or(String::new(), T::to_string)
}
