//! The exact table of a reaction-timing study: for every reactor, every reaction kind and
//! every point of the mover's declared action, the exact expected outcome over the rest of the
//! action sequence (as `tde analyze` values it), what the reactor sees of the mover there
//! (cover, range band, stance, the attribute after modifiers), which points are equivalent,
//! and the mover's best firefight answer to each reaction.

use engine::analysis::{deciding_side, default_decision, value_from, OptionValue};
use engine::render::model_name;
use engine::state::{CombatKind, ModelId, Player, Side, Stance, Step};
use engine::{Action, GameState};
use serde::Serialize;

/// Why a situation cannot be studied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StudyError {
    /// The setup declares no action (a move or charge) being reacted to.
    NoDeclaredAction(String),
    /// Nobody on the reacting side can react anywhere along the action.
    NoReactor(String),
    /// The exact enumeration failed (too many outcomes).
    Analysis(String),
    /// The judge (the continuations' agent) could not be built or could not play.
    Agent(String),
    /// The setup file could not be read.
    Setup(String),
}

impl std::fmt::Display for StudyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StudyError::NoDeclaredAction(node) => write!(
                f,
                "the situation has no declared action to react to ({node}); add a [declared] \
                 move or charge to the setup (see engine/src/setup.rs)"
            ),
            StudyError::NoReactor(why) => write!(f, "no model can react: {why}"),
            StudyError::Analysis(e) => write!(f, "exact analysis failed: {e}"),
            StudyError::Agent(e) => write!(f, "the judge (the agent of the continuations): {e}"),
            StudyError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StudyError {}

/// One point of the mover's action as the study shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathPoint {
    /// Point number (0 = where the mover starts).
    pub point: u8,
    /// Column and row of the cell.
    pub cell: [u8; 2],
    /// Height of the mover's base.
    pub z: u8,
    /// The mover's stance there as sight sees it (standing, prone, climbing, swimming).
    pub stance: String,
}

/// What one reactor sees of the mover at one point with one reaction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sighting {
    /// Reach class of the point: 0 always reached, 1 only on a Pass or better of the mover's
    /// movement test, 2 only on Nailed It (3-5 the same after a dismount's separation).
    pub reach: u8,
    /// The test's attribute after modifiers (0 for dodges, close combat and templates).
    pub attr: u8,
    /// The mover is within the weapon's pass range (the short band).
    pub pass_range: bool,
    /// The mover is in hard cover (−1 to hit, +1 armour).
    pub hard_cover: bool,
    /// The mover is in soft cover (−1 to hit).
    pub soft_cover: bool,
    /// Distance between the bases, inches.
    pub distance: f32,
}

/// The mover's best firefight answer to one reaction and the values once it answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The firefight action (or no firefight).
    pub action: Action,
    /// It in words.
    pub text: String,
    /// The reaction's exact values once the mover answers so.
    pub value: OptionValue,
}

/// One reaction at one point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionRow {
    /// The reaction (`Action::React`).
    pub action: Action,
    /// The reacting model.
    pub reactor: ModelId,
    /// Its name.
    pub reactor_name: String,
    /// The reaction kind in words ("shoot Scattergun", "dodge", ...).
    pub kind: String,
    /// The point of the mover's action.
    pub point: u8,
    /// Whether `tde legal` offers this point (the first of its class).
    pub offered: bool,
    /// The offered point this one is equivalent to (same class), when it is not offered.
    pub same_as: Option<u8>,
    /// What the reactor sees there.
    pub sighting: Sighting,
    /// Exact values over the rest of the sequence with no answer from the mover (what
    /// `tde analyze` gives for the same option).
    pub exact: OptionValue,
    /// The mover's best firefight answer, when it has one that does better than none.
    pub answer: Option<Answer>,
}

/// The AP-counted net of exact values, for the choosing side: expected wounds dealt minus
/// taken, less `ap_value` wounds per AP it spends, plus `ap_value` per AP the other side spends
/// (a kept AP is worth what it buys later; `ap_value` is the stated exchange rate).
pub fn net_ap(v: &OptionValue, ap_value: f64) -> f64 {
    v.expected_wounds_dealt - v.expected_wounds_taken - ap_value * v.expected_ap_spent
        + ap_value * v.expected_opponent_ap_spent
}

impl ReactionRow {
    /// Expected wounds dealt minus taken by the reacting side once the mover answers at best.
    pub fn net(&self) -> f64 {
        let v = self.answered();
        v.expected_wounds_dealt - v.expected_wounds_taken
    }

    /// [`net`](Self::net) with the AP spent by both sides counted at the table's exchange rate
    /// (see [`net_ap`]).
    pub fn net_ap(&self, ap_value: f64) -> f64 {
        net_ap(self.answered(), ap_value)
    }

    /// The values once the mover answers at best (the unanswered values if it has no answer).
    pub fn answered(&self) -> &OptionValue {
        self.answer.as_ref().map_or(&self.exact, |a| &a.value)
    }
}

/// The exact part of a study.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactTable {
    /// The reacting side.
    pub side: Side,
    /// The moving (active) model.
    pub mover: ModelId,
    /// Its name.
    pub mover_name: String,
    /// The declared action in words.
    pub declared: String,
    /// Every point of the action.
    pub path: Vec<PathPoint>,
    /// Every reaction at every point, by reactor, kind, then point.
    pub rows: Vec<ReactionRow>,
    /// Holding the AP (no reaction): its exact values.
    pub hold: OptionValue,
    /// The exchange rate of the AP-counted net: wounds per AP (the mover's answers were chosen
    /// by it).
    pub ap_value: f64,
}

/// Load a situation from setup text (`file` names it in errors, names resolve under
/// `configs`): it must declare an action and leave the reacting side a reaction to choose. The
/// moving side's decisions before the reactions (a command order, a card) are declined.
pub fn situation_from_text(
    text: &str,
    file: &str,
    configs: &std::path::Path,
) -> Result<GameState, StudyError> {
    let mut state =
        engine::setup::parse_setup(text, file, configs).map_err(|e| StudyError::Setup(e.to_string()))?;
    // The moving side's own decisions before the reactions (a leader's command order, a card)
    // take the analysis defaults: none.
    while state.dynamic().sequence.is_some()
        && state.node() != Some(&Step::ChooseReaction)
        && state.current_player() == Player::Side(state.dynamic().active)
    {
        let a = default_decision(&state);
        state.apply_action(a).map_err(|e| StudyError::Setup(format!("{file}: {e}")))?;
    }
    let declared = text.parse::<toml::Table>().is_ok_and(|t| t.contains_key("declared"));
    if state.node() == Some(&Step::ChooseReaction) {
        return Ok(state);
    }
    if !declared {
        return Err(StudyError::NoDeclaredAction(format!("{file}: {}", state.describe_node())));
    }
    // The declared action was resolved at once: the engine skips a reaction choice nobody has.
    let side = state.models().iter().find(|m| m.side != state.dynamic().active).map_or(1, |m| m.side);
    Err(StudyError::NoReactor(format!(
        "{file}: no model of side {side} has an AP and sight (or reach) of the mover at any point of its action"
    )))
}

/// [`situation_from_text`] on a setup file.
pub fn load_situation(path: &std::path::Path) -> Result<GameState, StudyError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| StudyError::Setup(format!("{file}: {e}")))?;
    situation_from_text(&text, &file, &engine::data::configs_dir())
}

/// Build the exact table of the reaction choice pending in `state`; the mover answers every
/// reaction with the firefight that leaves the reacting side the lowest AP-counted net at
/// `ap_value` wounds per AP.
pub fn exact_table(state: &GameState, ap_value: f64) -> Result<ExactTable, StudyError> {
    let node = state.describe_node();
    let Some(seq) = state.dynamic().sequence.as_ref() else {
        return Err(StudyError::NoDeclaredAction(node));
    };
    if state.node() != Some(&Step::ChooseReaction) {
        return Err(StudyError::NoDeclaredAction(node));
    }
    let side = deciding_side(state).map_err(|e| StudyError::Analysis(e.to_string()))?;
    let mover = seq.actor;
    let points = state.reaction_points();
    if points.is_empty() {
        let why = match state.models().iter().filter(|m| m.side == side && m.is_conscious()).count() {
            0 => format!("side {side} has no conscious model"),
            _ => format!(
                "no model of side {side} has an AP and sight of {} (or reach) at any point of its action",
                model_name(state, mover)
            ),
        };
        return Err(StudyError::NoReactor(why));
    }
    let last = if seq.has_path() { seq.path.points.len() as u8 } else { 0 };
    let path = (0..=last)
        .map(|k| {
            let pose = state.mover_pose(k).expect("a point of the action");
            let (x, y) = state.board().xy(pose.cell);
            let cell = state.board().cell(pose.cell);
            let stance = if pose.z > cell.height {
                Stance::Climbing
            } else if pose.swimming {
                Stance::Swimming
            } else if matches!(pose.volume, engine::board::Volume::Base) {
                Stance::Prone
            } else {
                Stance::Standing
            };
            PathPoint { point: k, cell: [x, y], z: pose.z, stance: stance_word(stance).to_string() }
        })
        .collect();
    let analysis = |e: engine::analysis::AnalysisError| StudyError::Analysis(e.to_string());
    let mut rows = Vec::with_capacity(points.len());
    for rp in &points {
        let Action::React { model: r, kind, point } = rp.action else { continue };
        let mut after = state.clone();
        after.apply_reaction_anywhere(rp.action).expect("a listed reaction applies");
        let exact = value_from(state, side, rp.action, &after).map_err(analysis)?;
        let answer = best_answer(state, side, rp.action, &after, ap_value).map_err(analysis)?;
        let same_as = (!rp.offered).then(|| {
            points
                .iter()
                .find(|q| q.offered && q.class == rp.class && same_reaction(q.action, rp.action))
                .map_or(0, |q| react_point(q.action))
        });
        let mover_pose = state.mover_pose(point).expect("a point of the action");
        let rp_pose = state.pose(r);
        let seen = state.sight_between(r, rp_pose, mover, mover_pose);
        rows.push(ReactionRow {
            action: rp.action,
            reactor: r,
            reactor_name: model_name(state, r),
            kind: kind_name(state, r, kind),
            point,
            offered: rp.offered,
            same_as,
            sighting: Sighting {
                reach: rp.class.reach,
                attr: rp.class.attr,
                pass_range: rp.class.pass_range,
                hard_cover: rp.class.hard_cover,
                soft_cover: seen.is_some_and(|s| s.sight.soft_cover),
                distance: state.board().edge_distance(rp_pose.cell, rp_pose.z, mover_pose.cell, mover_pose.z),
            },
            exact,
            answer,
        });
    }
    rows.sort_by_key(|r| (r.reactor, kind_order(r.action), r.point));
    let mut held = state.clone();
    held.apply_action(Action::EndReactions).expect("ending reactions is always legal");
    let hold = value_from(state, side, Action::EndReactions, &held).map_err(analysis)?;
    Ok(ExactTable {
        side,
        mover,
        mover_name: model_name(state, mover),
        declared: engine::render::describe_action(state, seq.declared),
        path,
        rows,
        hold,
        ap_value,
    })
}

/// The point of a reaction.
fn react_point(a: Action) -> u8 {
    match a {
        Action::React { point, .. } => point,
        _ => 0,
    }
}

/// Whether two reactions are by the same model with the same kind.
fn same_reaction(a: Action, b: Action) -> bool {
    matches!((a, b), (Action::React { model: m1, kind: k1, .. }, Action::React { model: m2, kind: k2, .. }) if m1 == m2 && k1 == k2)
}

/// Sort key of a reaction's kind: shots, templates, reveals, close combat, then dodges.
fn kind_order(a: Action) -> (u8, u8) {
    match a {
        Action::React { kind, .. } => match kind {
            CombatKind::Shoot { weapon } => (0, weapon),
            CombatKind::Template { weapon } => (1, weapon),
            CombatKind::Reveal => (2, 0),
            CombatKind::CloseCombat { weapon } => (3, weapon),
            CombatKind::Dodge => (4, 0),
        },
        _ => (5, 0),
    }
}

/// A reaction kind in words.
pub fn kind_name(state: &GameState, m: ModelId, kind: CombatKind) -> String {
    let weapon =
        |w: u8| state.profile(m).weapons.get(w as usize).map_or_else(String::new, |w| w.name.clone());
    match kind {
        CombatKind::Shoot { weapon: w } => format!("shoot {}", weapon(w)),
        CombatKind::Template { weapon: w } => format!("template {}", weapon(w)),
        CombatKind::CloseCombat { weapon: w } => format!("fight {}", weapon(w)),
        CombatKind::Reveal => "reveal".to_string(),
        CombatKind::Dodge => "dodge".to_string(),
    }
}

/// The state in which the mover chooses its firefight answer to `reaction` (applied in
/// `after`): the reacting side's other decisions take the analysis defaults (no more
/// reactions, no command order). `None` when the sequence reaches no such choice.
pub fn firefight_node(after: &GameState, side: Side) -> Option<GameState> {
    let mut s = after.clone();
    loop {
        match s.current_player() {
            Player::Side(p) if p != side && s.node() == Some(&Step::ChooseFirefight) => return Some(s),
            Player::Side(_) if s.dynamic().sequence.is_some() => {
                let a = default_decision(&s);
                s.apply_action(a).expect("default decision is legal");
            }
            _ => return None,
        }
    }
}

/// The mover's best firefight answer to `reaction` (already applied in `after`): each answer
/// is valued exactly, and the one that leaves the reacting side the lowest AP-counted net
/// ([`net_ap`] at `ap_value`: an answer costs the mover an AP) is kept if it does strictly
/// better than not answering. `None` when the mover has no firefight to choose or none helps it.
fn best_answer(
    start: &GameState,
    side: Side,
    reaction: Action,
    after: &GameState,
    ap_value: f64,
) -> Result<Option<Answer>, engine::analysis::AnalysisError> {
    let Some(s) = firefight_node(after, side) else { return Ok(None) };
    let net = |v: &OptionValue| net_ap(v, ap_value);
    let value_of = |f: Action| {
        let mut t = s.clone();
        t.apply_action(f).expect("legal firefight");
        value_from(start, side, reaction, &t)
    };
    // A firefight must do strictly better for the mover than not answering.
    let mut floor = net(&value_of(Action::NoFirefight)?);
    let mut best: Option<(Action, OptionValue)> = None;
    for f in s.legal_actions().into_iter().filter(|&f| f != Action::NoFirefight) {
        let v = value_of(f)?;
        if net(&v) < floor - 1e-12 {
            floor = net(&v);
            best = Some((f, v));
        }
    }
    Ok(best.map(|(action, value)| Answer {
        action,
        text: engine::render::describe_action(&s, action),
        value,
    }))
}

/// A stance in words.
fn stance_word(s: Stance) -> &'static str {
    match s {
        Stance::Standing => "standing",
        Stance::Prone => "prone",
        Stance::Swimming => "swimming",
        Stance::Climbing => "climbing",
    }
}
