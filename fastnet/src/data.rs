//! Labelled positions: what the network learns from, how games make them, and their files.
//!
//! A [`Dataset`] holds positions (each a side's view: its sorted features), each with a value
//! target (the game's result for that side, or a mix with a search's value), a margin target
//! and, at decisions with a choice, the legal actions' features, priors and policy targets.
//! [`generate`] plays games between teachers (generations of the learned player, at a small
//! softmax temperature so games differ, and the scripted player), each scenario, board and
//! crews drawn per game, and keeps the decisions with a choice (all or a share): a learned
//! teacher's for the mover's policy and value and, for value only, the other side's view; the
//! scripted player's, which has no softmax to learn from, for value only; and a share of the
//! other nodes for value only. Files ([`Dataset::save`],
//! [`Dataset::load`]) are a small binary format with a header, checked on load.

use crate::action_features::{action_features, ActionFeatures, ACTION_FEATURES, MAX_ACTION_FEATURES};
use crate::features::{position_features, POSITION_FEATURES};
use crate::prior::{Prior, PRIOR_TEMPERATURE};
use agents::learned::Generation;
use agents::{Agent, Game, LearnedAgent, ScriptedAgent, Turn};
use engine::scenario::types::Scenario;
use engine::state::Side;
use engine::GameState;
use eval::lineup::Lineups;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// One legal action of a position with a policy target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionSample {
    /// Its features.
    pub features: ActionFeatures,
    /// The prior player's score (see [`crate::prior`]).
    pub prior: f32,
    /// Its weight in the policy target: its probability in a search's policy, or, for the
    /// move a policy-gradient game played, that move's advantage (of either sign; the other
    /// actions 0).
    pub target: f32,
}

/// One position of a dataset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// First of its features in [`Dataset::features`].
    pub feature_start: u32,
    /// How many.
    pub feature_len: u16,
    /// First of its actions in [`Dataset::actions`].
    pub action_start: u32,
    /// How many (0: a value-only position).
    pub action_len: u16,
    /// The value target for the side whose view it is, in [−1, 1].
    pub value: f32,
    /// The margin target (see [`margin_target`]).
    pub margin: f32,
    /// Its sibling group: consecutive positions of one group are the children of one decision
    /// seen from one side (`tde fast branches`), whose values a sibling loss compares; 0: none.
    pub group: u32,
}

/// Labelled positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Every position's features, one after the other.
    pub features: Vec<u16>,
    /// The positions.
    pub positions: Vec<Position>,
    /// Every position's actions, one after the other.
    pub actions: Vec<ActionSample>,
    /// The sibling groups so far: groups are numbered from 1 to this.
    pub groups: u32,
}

/// The margin target of a victory-point margin: in tens of points in a skirmish, in victory
/// points otherwise, limited to ±6 and divided by 6.
pub fn margin_target(margin: i32, scenario: Scenario) -> f32 {
    let unit = if scenario == Scenario::Skirmish { 10.0 } else { 1.0 };
    (margin as f32 / unit).clamp(-6.0, 6.0) / 6.0
}

impl Dataset {
    /// The features of position `p`.
    pub fn features_of(&self, p: &Position) -> &[u16] {
        &self.features[p.feature_start as usize..p.feature_start as usize + p.feature_len as usize]
    }

    /// The actions of position `p`.
    pub fn actions_of(&self, p: &Position) -> &[ActionSample] {
        &self.actions[p.action_start as usize..p.action_start as usize + p.action_len as usize]
    }

    /// Positions with a policy target.
    pub fn policy_positions(&self) -> usize {
        self.positions.iter().filter(|p| p.action_len > 0).count()
    }

    /// Append a position outside any sibling group.
    pub fn push(&mut self, features: &[u16], actions: &[ActionSample], value: f32, margin: f32) {
        self.push_in_group(features, actions, value, margin, 0);
    }

    /// Append a position of sibling group `group` (0: none; see [`Dataset::new_group`]): a
    /// group's positions are pushed one after the other.
    pub fn push_in_group(
        &mut self,
        features: &[u16],
        actions: &[ActionSample],
        value: f32,
        margin: f32,
        group: u32,
    ) {
        self.positions.push(Position {
            feature_start: self.features.len() as u32,
            feature_len: features.len() as u16,
            action_start: self.actions.len() as u32,
            action_len: actions.len() as u16,
            value,
            margin,
            group,
        });
        self.features.extend_from_slice(features);
        self.actions.extend_from_slice(actions);
    }

    /// A new sibling group's number.
    pub fn new_group(&mut self) -> u32 {
        self.groups += 1;
        self.groups
    }

    /// The positions of position `i`'s sibling group (only `i` outside any group): the run of
    /// consecutive positions with its group number.
    pub fn siblings_of(&self, i: usize) -> std::ops::Range<usize> {
        let group = self.positions[i].group;
        if group == 0 {
            return i..i + 1;
        }
        let mut start = i;
        while start > 0 && self.positions[start - 1].group == group {
            start -= 1;
        }
        let mut end = i + 1;
        while end < self.positions.len() && self.positions[end].group == group {
            end += 1;
        }
        start..end
    }

    /// Append every position of `other`, its sibling groups renumbered after this one's.
    pub fn append(&mut self, other: &Dataset) {
        let offset = self.groups;
        for p in &other.positions {
            let group = if p.group == 0 { 0 } else { p.group + offset };
            self.push_in_group(other.features_of(p), other.actions_of(p), p.value, p.margin, group);
        }
        self.groups += other.groups;
    }

    /// Write the dataset to `path` atomically (a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut bytes = Vec::with_capacity(32 + self.features.len() * 2 + self.positions.len() * 28);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for n in [self.positions.len(), self.features.len(), self.actions.len()] {
            bytes.extend_from_slice(&(n as u64).to_le_bytes());
        }
        for p in &self.positions {
            bytes.extend_from_slice(&p.feature_start.to_le_bytes());
            bytes.extend_from_slice(&p.feature_len.to_le_bytes());
            bytes.extend_from_slice(&p.action_start.to_le_bytes());
            bytes.extend_from_slice(&p.action_len.to_le_bytes());
            bytes.extend_from_slice(&p.value.to_le_bytes());
            bytes.extend_from_slice(&p.margin.to_le_bytes());
            bytes.extend_from_slice(&p.group.to_le_bytes());
        }
        for f in &self.features {
            bytes.extend_from_slice(&f.to_le_bytes());
        }
        for a in &self.actions {
            bytes.push(a.features.len);
            for id in a.features.ids {
                bytes.extend_from_slice(&id.to_le_bytes());
            }
            bytes.extend_from_slice(&a.prior.to_le_bytes());
            bytes.extend_from_slice(&a.target.to_le_bytes());
        }
        crate::files::write_atomically(path, &bytes)
    }

    /// Read a dataset [`save`](Self::save) wrote, checking every count, range and feature;
    /// an error names the file and what is wrong.
    pub fn load(path: &Path) -> Result<Dataset, String> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        parse(&bytes).map_err(|e| format!("{}: not a fast-network dataset: {e}", path.display()))
    }
}

/// The first bytes of a dataset file.
const MAGIC: &[u8; 8] = b"TDEFDATA";
/// The dataset file format's version (3: each position's sibling group; 2: position features
/// with the proximity groups, read as positions outside any sibling group; a version-1 file
/// holds the first feature set only and must be made again).
const VERSION: u32 = 3;

/// A little-endian reader over a byte slice that names what ran out.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file ends inside {what} (byte {})", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().expect("8 bytes")))
    }
    fn f32(&mut self, what: &str) -> Result<f32, String> {
        let v = f32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes"));
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!("{what} is not a finite number"))
        }
    }
}

fn parse(bytes: &[u8]) -> Result<Dataset, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8, "the header")? != MAGIC {
        return Err("it does not start with TDEFDATA".into());
    }
    let version = r.u32("the version")?;
    if version != VERSION && version != 2 {
        return Err(format!(
            "format version {version}, this build reads {VERSION} (an older version holds an earlier \
             feature set: make the data again with `tde fast data`)"
        ));
    }
    let positions = r.u64("the position count")? as usize;
    let features = r.u64("the feature count")? as usize;
    let actions = r.u64("the action count")? as usize;
    // Each count must fit in what is left, before anything is allocated for it.
    let left = bytes.len().saturating_sub(r.at);
    let position_bytes = if version == 2 { 20 } else { 24 };
    if positions.saturating_mul(position_bytes).saturating_add(features.saturating_mul(2)) > left {
        return Err(format!("the file ends inside its {positions} positions and {features} features"));
    }
    let mut d = Dataset {
        features: Vec::with_capacity(features),
        positions: Vec::with_capacity(positions),
        actions: Vec::new(),
        groups: 0,
    };
    for i in 0..positions {
        let what = format!("position {i}");
        let p = Position {
            feature_start: r.u32(&what)?,
            feature_len: r.u16(&what)?,
            action_start: r.u32(&what)?,
            action_len: r.u16(&what)?,
            value: r.f32(&format!("position {i}'s value"))?,
            margin: r.f32(&format!("position {i}'s margin"))?,
            group: if version == 2 { 0 } else { r.u32(&format!("position {i}'s group"))? },
        };
        if p.feature_start as usize + p.feature_len as usize > features
            || p.action_start as usize + p.action_len as usize > actions
        {
            return Err(format!("position {i} points past the features or actions"));
        }
        if !(-1.0..=1.0).contains(&p.value) || !(-1.0..=1.0).contains(&p.margin) {
            return Err(format!("position {i}: value {} or margin {} outside [-1, 1]", p.value, p.margin));
        }
        d.groups = d.groups.max(p.group);
        d.positions.push(p);
    }
    for i in 0..features {
        let f = r.u16("the features")?;
        if f as usize >= POSITION_FEATURES {
            return Err(format!("feature {i} is {f}, beyond the {POSITION_FEATURES} features"));
        }
        d.features.push(f);
    }
    if actions.saturating_mul(9 + 2 * MAX_ACTION_FEATURES) > bytes.len().saturating_sub(r.at) {
        return Err(format!("the file ends inside its {actions} actions"));
    }
    d.actions.reserve(actions);
    for i in 0..actions {
        let what = format!("action {i}");
        let len = r.take(1, &what)?[0];
        if len as usize > MAX_ACTION_FEATURES {
            return Err(format!("action {i} has {len} features, at most {MAX_ACTION_FEATURES}"));
        }
        let mut features = ActionFeatures { len, ids: [0; MAX_ACTION_FEATURES] };
        for id in &mut features.ids {
            *id = r.u16(&what)?;
        }
        if features.as_slice().iter().any(|&g| g as usize >= ACTION_FEATURES) {
            return Err(format!("action {i} has a feature beyond the {ACTION_FEATURES} action features"));
        }
        let prior = r.f32(&format!("action {i}'s prior"))?;
        let target = r.f32(&format!("action {i}'s target"))?;
        d.actions.push(ActionSample { features, prior, target });
    }
    if r.at != bytes.len() {
        return Err(format!("{} bytes after the last action", bytes.len() - r.at));
    }
    Ok(d)
}

/// A player whose games [`generate`] learns from.
#[derive(Clone)]
pub enum Teacher {
    /// A generation of the learned player: its softmax is the policy target.
    Learned(Arc<Generation>),
    /// The scripted player: its positions teach the value only.
    Scripted,
}

/// The two kinds of teacher a game can seat.
enum Seat {
    Learned(Box<LearnedAgent>),
    Scripted(Box<ScriptedAgent>),
}

impl Seat {
    fn select_action(&mut self, state: &GameState) -> engine::Action {
        match self {
            Seat::Learned(a) => a.select_action(state),
            Seat::Scripted(a) => a.select_action(state),
        }
    }

    /// The learned teacher's softmax over the legal actions of its last decision.
    fn policy_target(&self) -> Option<Vec<(engine::Action, f64)>> {
        match self {
            Seat::Learned(a) => a.last_search(),
            Seat::Scripted(_) => None,
        }
    }
}

/// How [`generate`] plays its games.
#[derive(Clone)]
pub struct DataPlan {
    /// Games to play.
    pub games: u64,
    /// Seed of the first game (game `g` uses `seed + g`).
    pub seed: u64,
    /// The teachers: each game draws one for each side.
    pub teachers: Vec<Teacher>,
    /// The softmax temperature the teachers play at (0: their best action) and that their
    /// policy targets are taken at.
    pub temperature: f64,
    /// The prior's generation (see [`crate::prior`]).
    pub prior: Arc<Generation>,
    /// Share of chance nodes and one-action decisions kept as value-only positions.
    pub other_nodes: f64,
    /// Share of decisions with a choice kept (1: every one). Below 1, a game gives fewer,
    /// less alike positions for the same cost of features: more games for the same data, so
    /// more independent results for the value head to learn from.
    pub decisions: f64,
}

/// Play `plan.games` games (in parallel), each of a scenario drawn from the five and a board
/// and crews drawn by `lineups`, and label their positions; `progress` is called after each
/// game. Game `g` is the same whatever the number of threads.
pub fn generate(plan: &DataPlan, lineups: &Lineups, progress: &(dyn Fn() + Sync)) -> Result<Dataset, String> {
    let parts: Vec<Dataset> = (0..plan.games)
        .into_par_iter()
        .map(|g| {
            let d = game_positions(plan, lineups, plan.seed.wrapping_add(g))?;
            progress();
            Ok(d)
        })
        .collect::<Result<_, String>>()?;
    let mut all = Dataset::default();
    for p in &parts {
        all.append(p);
    }
    Ok(all)
}

/// A position waiting for its game's result.
struct Pending {
    observer: Side,
    features: std::ops::Range<usize>,
    actions: std::ops::Range<usize>,
}

/// The labelled positions of one game played with `seed`.
pub fn game_positions(plan: &DataPlan, lineups: &Lineups, seed: u64) -> Result<Dataset, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6a09_e667_f3bc_c908);
    let scenario = Scenario::ALL[rng.gen_range(0..Scenario::ALL.len())];
    let (mut state, _) = lineups.game(scenario, rng.gen())?;
    let mut teachers: Vec<Seat> = (0..2)
        .map(|side| match &plan.teachers[rng.gen_range(0..plan.teachers.len())] {
            Teacher::Learned(g) => {
                let mut agent =
                    LearnedAgent::new(g.clone(), plan.temperature, "teacher", seed.wrapping_add(side));
                agent.set_teach(Some(plan.temperature.max(PRIOR_TEMPERATURE)));
                Seat::Learned(Box::new(agent))
            }
            Teacher::Scripted => Seat::Scripted(Box::new(ScriptedAgent::new(seed.wrapping_add(side)))),
        })
        .collect();
    let mut prior = Prior::new(plan.prior.clone(), seed);
    let mut feats = Vec::new();
    let mut all_features: Vec<u16> = Vec::new();
    let mut all_actions: Vec<ActionSample> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut legal = Vec::new();
    let mut priors = Vec::new();
    let mut keep = |state: &GameState, observer: Side, actions: &[ActionSample], feats: &mut Vec<u16>| {
        position_features(state, observer, feats);
        let f0 = all_features.len();
        all_features.extend_from_slice(feats);
        let a0 = all_actions.len();
        all_actions.extend_from_slice(actions);
        pending.push(Pending { observer, features: f0..all_features.len(), actions: a0..all_actions.len() });
    };
    let mut action_samples = Vec::new();
    loop {
        match Game::turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => {
                if rng.gen_bool(plan.other_nodes) {
                    for side in 0..2 {
                        keep(&state, side, &[], &mut feats);
                    }
                }
                let outcome = state.sample_chance(&mut rng).ok_or("a chance node without outcomes")?;
                state.apply_legal(outcome);
            }
            Turn::Player(p) => {
                let side = p as Side;
                let action = teachers[p].select_action(&state);
                state.legal_actions_into(&mut legal);
                let searched =
                    teachers[p].policy_target().filter(|t| legal.len() >= 2 && t.len() == legal.len());
                // Drawn only below 1, so that a plan keeping every decision plays the games it always played.
                let kept = plan.decisions >= 1.0 || rng.gen_bool(plan.decisions.max(0.0));
                let scripted_choice = legal.len() >= 2 && matches!(teachers[p], Seat::Scripted(_));
                match searched {
                    Some(_) if !kept => {}
                    Some(target) => {
                        prior.priors(&state, &legal, &mut priors);
                        action_samples.clear();
                        for ((a, &pr), (ta, tp)) in legal.iter().zip(&priors).zip(&target) {
                            debug_assert_eq!(a, ta);
                            action_samples.push(ActionSample {
                                features: action_features(&state, side, *a),
                                prior: pr,
                                target: *tp as f32,
                            });
                        }
                        keep(&state, side, &action_samples, &mut feats);
                        keep(&state, 1 - side, &[], &mut feats);
                    }
                    // The scripted player's choices: value only, at the decisions' share.
                    None if scripted_choice && kept => {
                        for s in 0..2 {
                            keep(&state, s, &[], &mut feats);
                        }
                    }
                    None if scripted_choice => {}
                    None if rng.gen_bool(plan.other_nodes) => {
                        for s in 0..2 {
                            keep(&state, s, &[], &mut feats);
                        }
                    }
                    None => {}
                }
                state.apply_legal(action);
            }
        }
    }
    let outcome = state.outcome();
    let returns = state.returns();
    let mut d = Dataset::default();
    for p in pending {
        let value = returns[p.observer as usize] as f32;
        let margin = margin_target(outcome.margin(p.observer), scenario);
        d.push(&all_features[p.features], &all_actions[p.actions], value, margin);
    }
    Ok(d)
}
