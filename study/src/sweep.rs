//! A sweep of reaction-timing situations generated from setup templates (TOML): each template
//! names a board, a mover with its declared move (start and destination) and a grid of cells
//! where a reactor waits; the sweep crosses it with the reactor profiles, the declared actions
//! (the move, or a charge at the reactor), the mover's and the reactor's AP. Every situation is
//! studied ([`crate::timing`]) and classified: react early, react late, dodge, hold the AP,
//! uncertain (the verdict's intervals span 0) or none; heatmaps over the board, a summary and a
//! long-format export of every option ([`crate::export`]).
//!
//! Config (TOML; one file per shipped board in `configs/studies/templates/`):
//!
//! ```toml
//! samples = 0               # continuations per option (0: exact, AP-counted measure only)
//! judge = "fast:net=checkpoints/fast/gen-002.fnet"  # the agent playing the continuations (any
//!                           # `tde arena` spec; this one when not given)
//! seed = 0
//! seeds = [0, 777]          # optional: replicate at these independent seeds (replaces `seed`;
//!                           # a cell's verdict holds only when every seed settles on the same
//!                           # option, see `crate::sweep_replicate`)
//! ap_value = 0.5            # wounds per AP in the AP-counted net
//! confidence = 0.95         # of the paired intervals
//! measure = "return"        # the verdicts' measure: return (beyond, when sampled) or exact
//! budget = 0                # > samples: sample until settled, up to this many per option
//! actions = ["move", "charge"]
//! mover_ap = [1, 3]         # the mover's AP before it pays for the move
//! reactor_ap = [2]
//!
//! [[template]]
//! name = "lane_cover_start" # names the heatmaps and the rows of the export
//! board = "../reaction_lanes.board"  # relative to the file, or a board name
//! mover = "kaneda"
//! from = [14, 8]            # the mover's cell
//! to = [20, 8]              # the declared move's destination
//! reactors = ["lissz", "slethssk", "nix"]
//! grid = { x = [11, 26], y = [10, 17], step = 1 }  # reactor cells (column and row ranges)
//! # optional: the weapons (by name, from any profile in configs/factions) a model of the
//! # mover's or a reactor's profile carries instead of its own
//! weapons = { kaneda = ["Lagoon Revolver"], nix = ["Scattergun"] }
//! ```
//!
//! `ap_value` may also be `"rollouts"`: the exchange rate is derived in every situation from
//! rollouts by the judge ([`crate::aprate`]; needs `samples`).

use crate::beyond::{AgentFactory, Horizon, Paired, Sampling};
use crate::export::{option_records, OptionRecord};
use crate::plot::{err, figure};
use crate::timing::{study, ApValue, Measure, Study, StudyOptions, DEFAULT_AP_VALUE};
use engine::profile::Weapon;
use engine::state::StaticData;
use engine::{Action, GameState};
use plotters::coord::Shift;
use plotters::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The reactor cells of a template: column and row ranges (inclusive) and a step.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// First and last column.
    pub x: [u8; 2],
    /// First and last row.
    pub y: [u8; 2],
    /// Every `step`-th column and row.
    #[serde(default = "one")]
    pub step: u8,
}

fn one() -> u8 {
    1
}

impl Grid {
    /// The cells, row by row.
    pub fn cells(&self) -> Vec<[u8; 2]> {
        let step = self.step.max(1) as usize;
        let mut out = Vec::new();
        for y in (self.y[0]..=self.y[1]).step_by(step) {
            for x in (self.x[0]..=self.x[1]).step_by(step) {
                out.push([x, y]);
            }
        }
        out
    }
}

/// A setup template: a board, a mover and its declared move, reactors on a grid.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Its name (heatmaps, summary and export rows).
    pub name: String,
    /// Board name or path (relative to the config's folder).
    pub board: String,
    /// The mover's profile.
    pub mover: String,
    /// The mover's cell.
    pub from: [u8; 2],
    /// The declared move's destination.
    pub to: [u8; 2],
    /// Reactor profiles.
    pub reactors: Vec<String>,
    /// The cells a reactor waits on.
    pub grid: Grid,
    /// A short description (for the heatmaps' captions).
    #[serde(default)]
    pub about: String,
    /// Weapons by profile: a model of the mover's or a reactor's profile carries these (by
    /// name, from any profile in `configs/factions`, its own first) instead of its profile's.
    #[serde(default)]
    pub weapons: BTreeMap<String, Vec<String>>,
}

/// A sweep config (see the module docs).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SweepConfig {
    /// The templates.
    #[serde(rename = "template")]
    pub templates: Vec<Template>,
    /// The declared actions: `move` (to the template's destination) and/or `charge` (at the
    /// reactor, ending next to it).
    #[serde(default = "default_actions")]
    pub actions: Vec<String>,
    /// The mover's AP before it pays for its action.
    pub mover_ap: Vec<u8>,
    /// The reactor's AP.
    pub reactor_ap: Vec<u8>,
    /// Continuations per option (0: exact values only).
    #[serde(default)]
    pub samples: u32,
    /// The judge: the agent of the continuations.
    #[serde(default = "default_agent", alias = "agent")]
    pub judge: String,
    /// Seed of the continuations.
    #[serde(default)]
    pub seed: u64,
    /// Replicate the sweep at these independent seeds (two or more; replaces `seed`): every
    /// seed's sweep is run on its own and a cell's verdict holds only when every seed settles
    /// on the same option ([`crate::sweep_replicate`]). Empty: `seed` alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<u64>,
    /// Wounds per AP in the AP-counted net, or `"rollouts"` to derive it in every situation.
    #[serde(default = "default_ap_value")]
    pub ap_value: ApValue,
    /// The measure the verdicts decide by: `return` (beyond the sequence when sampled) or
    /// `exact` (the AP-counted net, whatever is sampled).
    #[serde(default)]
    pub measure: Measure,
    /// Confidence of the paired intervals.
    #[serde(default = "default_confidence")]
    pub confidence: f64,
    /// Sample until settled, up to this many samples per option (0 or at most `samples`: no).
    #[serde(default)]
    pub budget: u32,
    /// The config's file, for errors.
    #[serde(skip)]
    pub file: String,
    /// The config's folder, to resolve boards.
    #[serde(skip)]
    pub folder: PathBuf,
}

fn default_actions() -> Vec<String> {
    vec!["move".to_string()]
}

fn default_agent() -> String {
    crate::beyond::DEFAULT_JUDGE.to_string()
}

fn default_ap_value() -> ApValue {
    ApValue::Stated(DEFAULT_AP_VALUE)
}

fn default_confidence() -> f64 {
    0.95
}

impl SweepConfig {
    /// Load and check a sweep config: every template's board, profiles, cells and declared
    /// move are tried; errors name the file and the field.
    pub fn load(path: &Path) -> Result<SweepConfig, String> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
        let mut c: SweepConfig = toml::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        c.file = file.clone();
        c.folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        c.check()?;
        Ok(c)
    }

    /// Check the config (see [`load`](Self::load)).
    pub fn check(&self) -> Result<(), String> {
        let file = &self.file;
        let bad = |field: &str, why: &str| Err(format!("{file}: {field}: {why}"));
        for (field, empty) in [
            ("template", self.templates.is_empty()),
            ("actions", self.actions.is_empty()),
            ("mover_ap", self.mover_ap.is_empty()),
            ("reactor_ap", self.reactor_ap.is_empty()),
        ] {
            if empty {
                return bad(field, "needs at least one value");
            }
        }
        if let Some(a) = self.actions.iter().find(|a| !matches!(a.as_str(), "move" | "charge")) {
            return bad("actions", &format!("`{a}` is not move or charge"));
        }
        if self.mover_ap.iter().chain(&self.reactor_ap).any(|&a| a == 0) {
            return bad("mover_ap/reactor_ap", "AP must be at least 1 (to move, to react)");
        }
        if self.ap_value == ApValue::Rollouts && self.samples < 2 {
            return bad("ap_value", "\"rollouts\" needs samples of at least 2 (the rollouts that derive it)");
        }
        if !(0.5..1.0).contains(&self.confidence) {
            return bad("confidence", "must be at least 0.5 and below 1");
        }
        if !self.seeds.is_empty() {
            if self.seeds.len() < 2 {
                return bad("seeds", "needs two or more seeds to replicate (or give `seed` alone)");
            }
            if self.samples == 0 {
                return bad("seeds", "replication needs samples above 0 (an exact sweep has no seed)");
            }
            if let Some(s) =
                self.seeds.iter().enumerate().find_map(|(i, s)| self.seeds[..i].contains(s).then_some(s))
            {
                return bad("seeds", &format!("seed {s} is given twice; the seeds must be independent"));
            }
        }
        if self.samples > 10_000 || self.budget > 100_000 {
            return bad("samples/budget", "at most 10000 samples and a budget of 100000");
        }
        let configs = engine::data::configs_dir();
        let catalog =
            engine::profile::load_catalog(&configs.join("factions")).map_err(|e| format!("{file}: {e}"))?;
        let mut names = Vec::new();
        for (i, t) in self.templates.iter().enumerate() {
            let at = |field: &str| format!("template[{i}] ({}).{field}", t.name);
            if t.name.is_empty() || !t.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return bad(&at("name"), "needs letters, digits, _ or - only");
            }
            if names.contains(&t.name) {
                return bad(&at("name"), "is used by two templates");
            }
            names.push(t.name.clone());
            if t.reactors.is_empty() {
                return bad(&at("reactors"), "needs at least one profile");
            }
            if t.grid.x[0] > t.grid.x[1] || t.grid.y[0] > t.grid.y[1] || t.grid.step == 0 {
                return bad(
                    &at("grid"),
                    "needs x = [first, last] and y = [first, last] in order, step at least 1",
                );
            }
            // The move alone: the board, the mover and its move must work.
            let alone = format!(
                "board = {:?}\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = {:?}\nat = [{}, {}]\nap = {}\n\n[declared]\naction = \"move\"\nto = [{}, {}]\n",
                self.board_ref(t),
                t.mover,
                t.from[0],
                t.from[1],
                self.mover_ap.iter().max().copied().unwrap_or(1),
                t.to[0],
                t.to[1]
            );
            match engine::setup::parse_setup(&alone, &format!("{file}: {}", at("to")), &configs) {
                Ok(state) => {
                    let (w, h) = (state.board().width(), state.board().depth());
                    if t.grid.x[1] >= w || t.grid.y[1] >= h {
                        return bad(&at("grid"), &format!("reaches off the {w}x{h} board"));
                    }
                }
                Err(e) => {
                    return bad(
                        &at("board/mover/from/to"),
                        &format!("the declared move is not possible: {e}"),
                    )
                }
            }
            for r in &t.reactors {
                if catalog.get(r).is_none() {
                    return bad(&at("reactors"), &format!("no profile `{r}` in configs/factions"));
                }
            }
            for profile in t.weapons.keys() {
                let field = at(&format!("weapons.{profile}"));
                if *profile != t.mover && !t.reactors.contains(profile) {
                    return bad(&field, "names neither the mover nor a reactor of the template");
                }
                weapons_of(&catalog, t, profile).map_err(|why| format!("{file}: {field}: {why}"))?;
            }
        }
        Ok(())
    }

    /// The board as `parse_setup` takes it: a path next to the config if there is one.
    fn board_ref(&self, t: &Template) -> String {
        let local = self.folder.join(&t.board);
        if local.is_file() {
            local.display().to_string()
        } else {
            t.board.clone()
        }
    }

    /// The setup text of one situation before the mover declares: the mover at the
    /// template's start with `mover_ap` (before it pays for its action), the reactor
    /// (revealed, so that it can be charged) at `at`.
    fn setup_text(&self, t: &Template, reactor: &str, at: [u8; 2], mover_ap: u8, reactor_ap: u8) -> String {
        format!(
            "board = {board:?}\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = {mover:?}\nat = [{}, {}]\nap = {mover_ap}\n\n\
             [[model]]\nside = 1\nprofile = {reactor:?}\nat = [{}, {}]\nap = {reactor_ap}\nstealth = false\n",
            t.from[0],
            t.from[1],
            at[0],
            at[1],
            board = self.board_ref(t),
            mover = t.mover,
        )
    }
}

/// The weapons template `t` gives a model of `profile`: `None` when it keeps its profile's;
/// an error when a name is found in no profile, the list is empty or too long.
fn weapons_of(
    catalog: &engine::profile::Catalog,
    t: &Template,
    profile: &str,
) -> Result<Option<Vec<Weapon>>, String> {
    let Some(names) = t.weapons.get(profile) else { return Ok(None) };
    let max = engine::state::model::MAX_WEAPONS;
    if names.is_empty() || names.len() > max {
        return Err(format!("needs 1 to {max} weapon names, got {}", names.len()));
    }
    let own = catalog.get(profile);
    let mut out = Vec::new();
    for name in names {
        let found = own
            .into_iter()
            .chain(catalog.profiles())
            .flat_map(|p| p.weapons.iter())
            .find(|w| w.name == *name)
            .ok_or_else(|| {
                let theirs: Vec<&str> =
                    own.map(|p| p.weapons.iter().map(|w| w.name.as_str()).collect()).unwrap_or_default();
                format!(
                    "no weapon `{name}` in any profile of configs/factions (`{profile}` carries: {})",
                    theirs.join(", ")
                )
            })?;
        out.push(found.clone());
    }
    Ok(Some(out))
}

/// `state` with the given models carrying other weapons: each gets a copy of its profile with
/// them (the same id and everything else).
fn with_weapons(state: &GameState, choices: &[(usize, Vec<Weapon>)]) -> GameState {
    let st = state.static_data();
    let mut profiles = st.profiles.clone();
    let mut dyn_ = state.dynamic().clone();
    for (m, weapons) in choices {
        let mut p = (*profiles[dyn_.models[*m].profile as usize]).clone();
        p.weapons = weapons.clone();
        profiles.push(Arc::new(p));
        dyn_.models[*m].profile = (profiles.len() - 1) as u8;
    }
    let stat = StaticData {
        board: Arc::clone(&st.board),
        profiles,
        variant: st.variant,
        max_turns: st.max_turns,
        sides: st.sides,
        cards: st.cards.clone(),
        scenario: st.scenario,
        uc: st.uc.clone(),
    };
    GameState::from_parts(Arc::new(stat), dyn_)
}

/// The weapons template `t` gives its mover and `reactor`, in words.
fn weapons_label(t: &Template, reactor: &str) -> String {
    let parts: Vec<String> = [t.mover.as_str(), reactor]
        .iter()
        .filter_map(|p| t.weapons.get(*p).map(|w| format!("{p}: {}", w.join(" + "))))
        .collect();
    if parts.is_empty() {
        "profiles'".to_string()
    } else {
        parts.join("; ")
    }
}

/// One generated situation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Situation {
    /// The template's name.
    pub template: String,
    /// The declared action: move or charge.
    pub action: String,
    /// Reactor profile.
    pub reactor: String,
    /// The reactor's cell.
    pub cell: [u8; 2],
    /// The reactor's least distance to the mover's straight way from start to destination, in
    /// cells (rounded), for the summary.
    pub distance: u8,
    /// Mover's AP before it pays for its action (the setup's; the action costs one of them).
    pub mover_ap: u8,
    /// Reactor's AP.
    pub reactor_ap: u8,
    /// The weapons the template gives the mover and the reactor, in words ("profiles'" when
    /// both keep their own).
    pub weapons: String,
}

impl Situation {
    /// A short name.
    pub fn name(&self) -> String {
        format!(
            "{} {} {} at ({},{}) ap {}/{}",
            self.template,
            self.action,
            self.reactor,
            self.cell[0],
            self.cell[1],
            self.mover_ap,
            self.reactor_ap
        )
    }
}

/// What is best in a situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Best {
    /// React with an attack at its first offered point (nothing later is better).
    Early,
    /// React with an attack at a later point, better than at once.
    Late,
    /// Dodge.
    Dodge,
    /// Keep the AP.
    Hold,
    /// The verdict is not settled: an interval of its comparisons spans 0.
    Uncertain,
    /// Nobody can react (out of sight or range everywhere), or no such situation.
    None,
}

impl Best {
    /// All categories, in legend order.
    pub const ALL: [Best; 6] =
        [Best::Early, Best::Late, Best::Dodge, Best::Hold, Best::Uncertain, Best::None];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Best::Early => "early",
            Best::Late => "late",
            Best::Dodge => "dodge",
            Best::Hold => "hold",
            Best::Uncertain => "uncertain",
            Best::None => "none",
        }
    }

    fn colour(self) -> RGBColor {
        match self {
            Best::Early => eval::plot::BLUE,
            Best::Late => eval::plot::ORANGE,
            Best::Dodge => eval::plot::GREEN,
            Best::Hold => RGBColor(150, 150, 150),
            Best::Uncertain => eval::plot::RED,
            Best::None => RGBColor(245, 245, 245),
        }
    }
}

/// One situation's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The situation.
    pub situation: Situation,
    /// The mover's AP once it has paid for its action (what it has left to answer with);
    /// absent when there is no such situation.
    pub mover_ap_left: Option<u8>,
    /// What is best.
    pub best: Best,
    /// What would be best if the verdict were taken at face value (the class without
    /// "uncertain").
    pub leaning: Best,
    /// The best reaction's point, when reacting is best.
    pub best_point: Option<u8>,
    /// The best option minus reacting at once with the same reaction, on the verdict's measure
    /// (with its interval when sampled), when the best is a later point.
    pub gain_over_at_once: Option<Paired>,
    /// The best option minus holding the AP (or, when holding is best, minus the best reaction).
    pub versus_hold: Option<Paired>,
    /// The verdict's measure in words.
    pub measure: String,
    /// The best timing in words.
    pub verdict: String,
    /// Every option of the situation (long format).
    pub options: Vec<OptionRecord>,
}

/// A whole sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepResult {
    /// The config.
    pub config: SweepConfig,
    /// Every situation, in generation order.
    pub outcomes: Vec<Outcome>,
}

/// Every situation of the config, in a fixed order.
pub fn situations(c: &SweepConfig) -> Vec<Situation> {
    let mut out = Vec::new();
    for t in &c.templates {
        for action in &c.actions {
            for reactor in &t.reactors {
                for &mover_ap in &c.mover_ap {
                    for &reactor_ap in &c.reactor_ap {
                        for cell in t.grid.cells() {
                            out.push(Situation {
                                template: t.name.clone(),
                                action: action.clone(),
                                reactor: reactor.clone(),
                                cell,
                                distance: distance_to_way(t.from, t.to, cell),
                                mover_ap,
                                reactor_ap,
                                weapons: weapons_label(t, reactor),
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The least distance in cells from `p` to the segment from `a` to `b`, rounded.
fn distance_to_way(a: [u8; 2], b: [u8; 2], p: [u8; 2]) -> u8 {
    let f = |v: [u8; 2]| (v[0] as f64, v[1] as f64);
    let ((ax, ay), (bx, by), (px, py)) = (f(a), f(b), f(p));
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 { (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
    let (qx, qy) = (ax + t * dx, ay + t * dy);
    ((px - qx).hypot(py - qy)).round().min(255.0) as u8
}

/// The state of a situation, or why there is none (the reactor's cell is blocked or on the
/// mover's way, a charge cannot reach it): the setup without the declared action, the
/// template's weapons given, then the action declared.
fn situation_state(c: &SweepConfig, t: &Template, s: &Situation) -> Result<GameState, String> {
    let configs = engine::data::configs_dir();
    let name = format!("{}: {}", c.file, s.name());
    let text = c.setup_text(t, &s.reactor, s.cell, s.mover_ap, s.reactor_ap);
    let mut state = engine::setup::parse_setup(&text, &name, &configs).map_err(|e| e.to_string())?;
    let catalog = engine::profile::load_catalog(&configs.join("factions")).map_err(|e| e.to_string())?;
    let mut choices = Vec::new();
    for (m, profile) in [(0, &t.mover), (1, &s.reactor)] {
        if let Some(w) = weapons_of(&catalog, t, profile)? {
            choices.push((m, w));
        }
    }
    if !choices.is_empty() {
        state = with_weapons(&state, &choices);
    }
    let board = state.board();
    let idx = |c: [u8; 2]| board.idx(c[0], c[1]);
    let declare = |action: Action| -> Result<GameState, String> {
        let mut st = state.clone();
        st.apply_action(action).map_err(|e| format!("{name}: declared {}: {e}", s.action))?;
        if st.node() == Some(&engine::state::Step::ChooseNested) {
            st.apply_action(Action::NoNested).expect("declining a nested action is always legal");
        }
        Ok(st)
    };
    if s.action == "move" {
        return declare(Action::Move { dest: idx(t.to), prone: false });
    }
    // A charge ends next to the reactor, on the neighbouring cell nearest the mover's start,
    // with the mover's first weapon it can charge with.
    let mut ends: Vec<[u8; 2]> = [(0i32, -1i32), (-1, 0), (1, 0), (0, 1)]
        .iter()
        .filter_map(|(dx, dy)| {
            let (x, y) = (s.cell[0] as i32 + dx, s.cell[1] as i32 + dy);
            (x >= 0 && y >= 0 && x < board.width() as i32 && y < board.depth() as i32)
                .then_some([x as u8, y as u8])
        })
        .collect();
    let d2 = |e: &[u8; 2]| {
        let (dx, dy) = (e[0] as i32 - t.from[0] as i32, e[1] as i32 - t.from[1] as i32);
        dx * dx + dy * dy
    };
    ends.sort_by_key(d2);
    let weapons = state.profile(0).weapons.len() as u8;
    let mut first_error = None;
    for end in ends {
        for weapon in 0..weapons {
            match declare(Action::Charge { target: 1, weapon, dest: idx(end) }) {
                Ok(st) => return Ok(st),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    Err(format!("no charge: {}", first_error.unwrap_or_default()))
}

/// Study every situation of the config (in parallel) at its `seed` and classify what is best
/// (a config's `seeds` are run one sweep each by [`crate::sweep_replicate::run`]).
pub fn run(c: &SweepConfig, factory: &AgentFactory) -> Result<SweepResult, String> {
    // A named judge is checked even when nothing is sampled; the default one (a network file
    // found from the repository root) only when it plays.
    if c.samples > 0 || c.judge != crate::beyond::DEFAULT_JUDGE {
        factory(&c.judge, c.seed).map_err(|e| format!("{}: judge: `{}`: {e}", c.file, c.judge))?;
    }
    let sampling =
        Sampling { agent: c.judge.clone(), samples: c.samples, seed: c.seed, horizon: Horizon::Game };
    let options = StudyOptions {
        ap_value: match c.ap_value {
            ApValue::Stated(v) => v,
            ApValue::Rollouts => DEFAULT_AP_VALUE,
        },
        ap_from_rollouts: c.ap_value == ApValue::Rollouts,
        exact_verdict: c.measure == Measure::Exact,
        confidence: c.confidence,
        until_settled: (c.budget > c.samples).then_some(c.budget),
    };
    let outcomes = situations(c)
        .into_par_iter()
        .map(|s| {
            let t = c.templates.iter().find(|t| t.name == s.template).expect("the situation's template");
            match situation_state(c, t, &s) {
                Ok(state) => classify(s, &state, &sampling, &options, factory),
                Err(e) => Ok(nothing(s, e)),
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SweepResult { config: c.clone(), outcomes })
}

/// The outcome of a situation where nobody reacts.
fn nothing(situation: Situation, verdict: String) -> Outcome {
    Outcome {
        situation,
        mover_ap_left: None,
        best: Best::None,
        leaning: Best::None,
        best_point: None,
        gain_over_at_once: None,
        versus_hold: None,
        measure: String::new(),
        verdict,
        options: Vec::new(),
    }
}

/// Study one situation and classify what is best.
fn classify(
    s: Situation,
    state: &GameState,
    sampling: &Sampling,
    options: &StudyOptions,
    factory: &AgentFactory,
) -> Result<Outcome, String> {
    let name = s.name();
    if state.node() != Some(&engine::state::Step::ChooseReaction) {
        return Ok(nothing(s, "nobody can react".into()));
    }
    let sampled = (sampling.samples > 0).then_some((sampling, factory));
    let mover = state.dynamic().sequence.as_ref().map_or(0, |q| q.actor);
    let left = state.models()[mover as usize].ap;
    let mut outcome = match study(state, &name, sampled, options) {
        Ok(st) => outcome_of(s, &st),
        Err(crate::exact::StudyError::NoReactor(why)) => nothing(s, why),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    outcome.mover_ap_left = Some(left);
    Ok(outcome)
}

/// The outcome of a finished study.
pub fn outcome_of(s: Situation, st: &Study) -> Outcome {
    let Some(best) = st.best else { return nothing(s, st.verdict.clone()) };
    let leaning = match best {
        None => Best::Hold,
        Some(b) if st.exact.rows[b].kind == "dodge" => Best::Dodge,
        Some(b) if st.at_once(b) != b => Best::Late,
        Some(_) => Best::Early,
    };
    let at_once = st.comparisons.iter().find(|c| c.label.starts_with("reacting at once")).map(|c| c.diff);
    let versus_hold = st.comparisons.first().map(|c| c.diff);
    Outcome {
        situation: s,
        mover_ap_left: None,
        best: if st.settled { leaning } else { Best::Uncertain },
        leaning,
        best_point: best.map(|b| st.exact.rows[b].point),
        gain_over_at_once: at_once,
        versus_hold,
        measure: st.measure.clone(),
        verdict: st.verdict.clone(),
        options: option_records(st),
    }
}

/// The summary table: for every value of every axis, how often each choice is best, and the
/// mean gain of waiting where late is best (on the verdicts' measure).
pub fn render_summary(r: &SweepResult) -> String {
    let c = &r.config;
    let measure = heatmap_measure(c);
    let mut out = format!(
        "{} situations; {measure}; best choice by axis value (counts; uncertain: an interval of the verdict spans 0), mean gain of waiting where late is best:\n",
        r.outcomes.len()
    );
    let _ = writeln!(
        out,
        "\n| axis | value | early | late | dodge | hold | uncertain | none | mean gain of late |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    type Axis = (&'static str, fn(&Situation) -> String);
    let axes: [Axis; 7] = [
        ("template", |s| s.template.clone()),
        ("action", |s| s.action.clone()),
        ("reactor", |s| s.reactor.clone()),
        ("distance", |s| s.distance.to_string()),
        ("mover AP before the action", |s| s.mover_ap.to_string()),
        ("reactor AP", |s| s.reactor_ap.to_string()),
        ("weapons", |s| s.weapons.clone()),
    ];
    for (axis, value) in axes {
        let mut values: Vec<String> = Vec::new();
        for o in &r.outcomes {
            let v = value(&o.situation);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        if axis == "distance" {
            values.sort_by_key(|v| v.parse::<u32>().unwrap_or(0));
        }
        for v in values {
            let group: Vec<&Outcome> = r.outcomes.iter().filter(|o| value(&o.situation) == v).collect();
            let _ = writeln!(out, "| {axis} | {v} | {}", verdict_cells(&group));
        }
    }
    let _ = writeln!(
        out,
        "\nBy template, action, reactor and the mover's AP (before the action → left to answer with once it is paid):\n\n\
         | template | action | reactor | mover AP | early | late | dodge | hold | uncertain | none | mean gain of late |\n\
         |---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
    );
    let mut keys: Vec<(String, String, String, u8)> = Vec::new();
    for o in &r.outcomes {
        let s = &o.situation;
        let k = (s.template.clone(), s.action.clone(), s.reactor.clone(), s.mover_ap);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (template, action, reactor, ap) in keys {
        let group: Vec<&Outcome> = r
            .outcomes
            .iter()
            .filter(|o| {
                let s = &o.situation;
                s.template == template && s.action == action && s.reactor == reactor && s.mover_ap == ap
            })
            .collect();
        let left = group.iter().find_map(|o| o.mover_ap_left).map_or("-".to_string(), |l| l.to_string());
        let _ =
            writeln!(out, "| {template} | {action} | {reactor} | {ap} → {left} | {}", verdict_cells(&group));
    }
    out
}

/// A summary row's verdict cells: how many situations each verdict won (early, late, dodge,
/// hold, uncertain, none) and the mean gain of reacting late where late won, then `|`.
fn verdict_cells(group: &[&Outcome]) -> String {
    let count = |b: Best| group.iter().filter(|o| o.best == b).count();
    let gains: Vec<f64> = group
        .iter()
        .filter(|o| o.best == Best::Late)
        .filter_map(|o| o.gain_over_at_once.map(|g| g.mean))
        .collect();
    let gain = if gains.is_empty() {
        "-".to_string()
    } else {
        format!("{:+.3}", gains.iter().sum::<f64>() / gains.len() as f64)
    };
    format!(
        "{} | {} | {} | {} | {} | {} | {gain} |",
        count(Best::Early),
        count(Best::Late),
        count(Best::Dodge),
        count(Best::Hold),
        count(Best::Uncertain),
        count(Best::None)
    )
}

/// The name of a sweep's full export in its folder: compact JSON, gzipped.
pub const EXPORT_NAME: &str = "sweep.json.gz";

/// Write the heatmaps and the summary (see [`write_figures`]), the results with every option
/// (`sweep.json.gz`: compact JSON, gzipped, from which [`read_export`] and `tde study
/// reaction-timing --replot` redraw the figures without re-running) and the long-format export
/// (`sweep.csv`) into `dir`; `meta` is written into the exports. Returns the files written.
pub fn write_outputs(
    r: &SweepResult,
    dir: &Path,
    meta: &crate::export::Meta,
) -> Result<Vec<PathBuf>, String> {
    let mut files = write_figures(r, dir)?;
    files.push(write_export(&Export { meta: meta.clone(), sweep: r.clone() }, dir)?);
    files.push(write_csv(r, dir, meta)?);
    Ok(files)
}

/// Write `export` into `dir` as [`EXPORT_NAME`] (compact JSON, gzipped); returns its path.
pub fn write_export(export: &Export, dir: &Path) -> Result<PathBuf, String> {
    let json = dir.join(EXPORT_NAME);
    let text = serde_json::to_vec(export).map_err(err)?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, &text).map_err(err)?;
    engine::record::write_atomic(&json, &gz.finish().map_err(err)?).map_err(err)?;
    Ok(json)
}

/// A sweep's full export: what produced it and every result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Export {
    /// The run's metadata.
    pub meta: crate::export::Meta,
    /// The results.
    pub sweep: SweepResult,
}

/// Read a sweep's full export (`sweep.json.gz`, or an older plain `sweep.json`); errors name
/// the file.
pub fn read_export(path: &Path) -> Result<Export, String> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{file}: {e}"))?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes.as_slice()), &mut out)
            .map_err(|e| format!("{file}: not a readable gzip file: {e}"))?;
        out
    } else {
        bytes
    };
    serde_json::from_slice(&text).map_err(|e| format!("{file}: not a sweep export: {e}"))
}

/// Write the heatmaps (one figure per template, action, mover AP and reactor AP: a panel per
/// reactor over the board's grid) and the summary (`summary.md`) into `dir`: all drawn from
/// the results alone, so an export redraws them. Returns the files written.
pub fn write_figures(r: &SweepResult, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let c = &r.config;
    for t in &c.templates {
        for action in &c.actions {
            for &map in &c.mover_ap {
                for &rap in &c.reactor_ap {
                    let name = format!("heatmap_{}_{action}_ap{map}_{rap}", t.name);
                    let cols = (t.grid.x[1] - t.grid.x[0]) as u32 / t.grid.step.max(1) as u32 + 1;
                    let rows = (t.grid.y[1] - t.grid.y[0]) as u32 / t.grid.step.max(1) as u32 + 1;
                    let cell = (560 / cols.max(1)).clamp(14, 40);
                    let size = (
                        ((cols * cell + 70) * t.reactors.len() as u32 + 20).max(900),
                        (rows * cell + 110).max(260) + 75,
                    );
                    files.extend(figure(
                        dir,
                        &name,
                        size,
                        |a| draw_heatmap(a, r, t, action, map, rap),
                        |a| draw_heatmap(a, r, t, action, map, rap),
                    )?);
                }
            }
        }
    }
    let summary = dir.join("summary.md");
    engine::record::write_atomic(&summary, render_summary(r).as_bytes()).map_err(err)?;
    files.push(summary);
    Ok(files)
}

/// Write the long-format export (`sweep.csv`) into `dir`; returns its path.
fn write_csv(r: &SweepResult, dir: &Path, meta: &crate::export::Meta) -> Result<PathBuf, String> {
    let csv = dir.join("sweep.csv");
    let rows: Vec<(Vec<String>, &OptionRecord)> = r
        .outcomes
        .iter()
        .flat_map(|o| {
            let s = &o.situation;
            let fields = vec![
                s.template.clone(),
                s.action.clone(),
                s.reactor.clone(),
                s.cell[0].to_string(),
                s.cell[1].to_string(),
                s.distance.to_string(),
                s.mover_ap.to_string(),
                s.reactor_ap.to_string(),
                o.mover_ap_left.map_or_else(String::new, |l| l.to_string()),
                s.weapons.clone(),
                o.best.name().to_string(),
            ];
            o.options.iter().map(move |x| (fields.clone(), x))
        })
        .collect();
    let prefix = "template,action,reactor_profile,cell_x,cell_y,distance,mover_ap,reactor_ap,mover_ap_left,weapons,verdict_class";
    engine::record::write_atomic(&csv, crate::export::long_csv(prefix, &rows, meta).as_bytes())
        .map_err(err)?;
    Ok(csv)
}

/// The measure and judge of a sweep's verdicts, in words (the summary's and each heatmap's
/// caption).
pub fn heatmap_measure(c: &SweepConfig) -> String {
    let rate = c.ap_value;
    let seeds = if c.seeds.is_empty() {
        format!("seed {}", c.seed)
    } else {
        format!(
            "seeds {} (held only where every seed settles on the same option, else uncertain)",
            c.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        )
    };
    let sampled = format!(
        "judge {}, {} samples per option{}, {seeds}, {:.0}% overall paired intervals (Bonferroni over looks and pairs)",
        c.judge,
        c.samples,
        if c.budget > c.samples { format!(" (until settled, up to {})", c.budget) } else { String::new() },
        100.0 * c.confidence
    );
    match (c.samples > 0, c.measure) {
        (true, Measure::Return) => {
            format!("measure: return beyond the sequence; {sampled} (uncertain: one spans 0)")
        }
        (true, Measure::Exact) => format!("measure: exact AP-counted net ({rate}; {sampled})"),
        (false, _) => {
            format!(
                "measure: exact AP-counted net ({rate}); no judge (nothing sampled); uncertain: an exact tie"
            )
        }
    }
}

/// One heatmap figure: for each reactor a panel of the template's grid, each cell coloured by
/// what is best with the reactor there, labelled with the best point and the gain of waiting
/// (late) on the verdict's measure; the mover's way drawn from its start (dot) to its
/// destination.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: &SweepResult,
    t: &Template,
    action: &str,
    mover_ap: u8,
    reactor_ap: u8,
) -> Result<(), String> {
    let c = &r.config;
    let what = if action == "charge" { "charging the reactor".to_string() } else { "moving".to_string() };
    let measure = heatmap_measure(c);
    let left = r
        .outcomes
        .iter()
        .find(|o| {
            let s = &o.situation;
            s.template == t.name && s.action == action && s.mover_ap == mover_ap && o.mover_ap_left.is_some()
        })
        .and_then(|o| o.mover_ap_left)
        .map_or(String::new(), |l| format!(", {l} left"));
    let title = format!(
        "{}: {} {what} (AP {mover_ap} before the action{left}), reactor AP {reactor_ap}",
        t.name, t.mover
    );
    let root = root.titled(&title, ("sans-serif", 13)).map_err(err)?;
    let lines = crate::plot::wrap(&measure, root.dim_in_pixel().0, 6);
    let (main, foot) = root.split_vertically(root.dim_in_pixel().1 as i32 - 30 - 15 * lines.len() as i32);
    for (k, line) in lines.iter().enumerate() {
        foot.draw(&Text::new(line.clone(), (10, 28 + 15 * k as i32), ("sans-serif", 11))).map_err(err)?;
    }
    let mut x = 10;
    for b in Best::ALL {
        foot.draw(&Rectangle::new([(x, 6), (x + 14, 20)], b.colour().filled())).map_err(err)?;
        foot.draw(&Text::new(b.name(), (x + 18, 6), ("sans-serif", 12))).map_err(err)?;
        x += 90;
    }
    foot.draw(&Text::new("label: best point, gain of waiting", (x + 10, 6), ("sans-serif", 12)))
        .map_err(err)?;
    let panels = main.split_evenly((1, t.reactors.len()));
    let (x0, x1, y0, y1) = (t.grid.x[0] as f64, t.grid.x[1] as f64, t.grid.y[0] as f64, t.grid.y[1] as f64);
    let xr = (x0.min(t.from[0] as f64).min(t.to[0] as f64) - 0.5)
        ..(x1.max(t.from[0] as f64).max(t.to[0] as f64) + 0.5);
    let yr = (y1.max(t.from[1] as f64).max(t.to[1] as f64) + 0.5)
        ..(y0.min(t.from[1] as f64).min(t.to[1] as f64) - 0.5);
    let step = t.grid.step.max(1) as f64;
    for (i, reactor) in t.reactors.iter().enumerate() {
        let mut chart = ChartBuilder::on(&panels[i])
            .margin(6)
            .caption(reactor, ("sans-serif", 12))
            .x_label_area_size(24)
            .y_label_area_size(30)
            .build_cartesian_2d(xr.clone(), yr.clone())
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("column")
            .y_desc("row")
            .label_style(("sans-serif", 10))
            .draw()
            .map_err(err)?;
        for o in r.outcomes.iter().filter(|o| {
            o.situation.template == t.name
                && o.situation.reactor == *reactor
                && o.situation.action == action
                && o.situation.mover_ap == mover_ap
                && o.situation.reactor_ap == reactor_ap
        }) {
            let (x, y) = (o.situation.cell[0] as f64, o.situation.cell[1] as f64);
            let h = 0.47 * step;
            chart
                .draw_series([Rectangle::new([(x - h, y - h), (x + h, y + h)], o.best.colour().filled())])
                .map_err(err)?;
            let label = match (o.best, o.leaning, o.best_point) {
                (Best::None, ..) | (_, Best::Hold, _) => String::new(),
                (_, Best::Late, Some(k)) => {
                    format!("p{k} {:+.1}", o.gain_over_at_once.map_or(0.0, |g| g.mean))
                }
                (_, _, Some(k)) => format!("p{k}"),
                _ => String::new(),
            };
            chart.draw_series([Text::new(label, (x - h, y - 0.1), ("sans-serif", 9))]).map_err(err)?;
        }
        let way = [(t.from[0] as f64, t.from[1] as f64), (t.to[0] as f64, t.to[1] as f64)];
        chart.draw_series([PathElement::new(way.to_vec(), BLACK.stroke_width(2))]).map_err(err)?;
        chart.draw_series([Circle::new(way[0], 4, BLACK.filled())]).map_err(err)?;
    }
    Ok(())
}
