//! The outcomes of a chance node in words: what kind of roll or draw the node is (a player's
//! attribute test, an AI model's enemy die, an armour roll, a scatter, the initiative
//! roll-off, a spawn roll, an AI card draw, ...), what is rolled, and what each outcome is,
//! beside its exact probability.

use super::actors::{absent_decision, is_ai};
use super::dinosaur_ai::{drawable, step_table};
use super::procedure::pending_test;
use super::spawning::table_outcomes;
use super::{Action, EnemyStep, GameState, Player, Step};
use crate::dice::TestLevel;
use crate::scenario::types::ScenarioStep;
use crate::uc::enemy_die::{from_test_outcome, EnemyLevel};
use serde::Serialize;

/// What kind of roll or draw a chance node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceKind {
    /// A player's model tests an attribute (movement, combat, interact, command,
    /// infiltration); the outcomes are result levels (with the high die where ties need it).
    AttributeTest,
    /// An AI model tests an attribute with the enemy die (seed 003): frenzy, pass or fail.
    EnemyDie,
    /// An armour roll; the outcome is the number of wounds.
    ArmourRoll,
    /// The cleanup armour roll of a model on fire: it saves or burns.
    FireRoll,
    /// Where a template scatters; the outcomes are the cells it may land on.
    Scatter,
    /// The firer's Intelligence roll to hurt a stealthed model under a template.
    StealthRoll,
    /// The initiative roll-off: which side rolls lowest.
    RollOff,
    /// Scavenger Hunt: the number under a marker, drawn when a model first looks at it.
    MarkerNumber,
    /// Scavenger Hunt: the number a side seeks.
    SoughtNumber,
    /// A roll on a spawn table for an AI model: one placed before deployment, one a noise
    /// brings, or one springing from an ambush marker.
    SpawnRoll,
    /// The kind of an ambush marker placed before deployment.
    AmbushMarkerKind,
    /// The action card an AI model draws from its deck.
    AiCardDraw,
    /// A choice of the side without a player in a solo game, made at random.
    AbsentChoice,
}

impl ChanceKind {
    /// The kind in words.
    pub fn label(self) -> &'static str {
        match self {
            ChanceKind::AttributeTest => "attribute test",
            ChanceKind::EnemyDie => "enemy die test",
            ChanceKind::ArmourRoll => "armour roll",
            ChanceKind::FireRoll => "fire roll",
            ChanceKind::Scatter => "template scatter",
            ChanceKind::StealthRoll => "roll to hurt a stealthed model",
            ChanceKind::RollOff => "initiative roll-off",
            ChanceKind::MarkerNumber => "marker number draw",
            ChanceKind::SoughtNumber => "number sought roll",
            ChanceKind::SpawnRoll => "spawn roll",
            ChanceKind::AmbushMarkerKind => "ambush marker kind roll",
            ChanceKind::AiCardDraw => "AI card draw",
            ChanceKind::AbsentChoice => "random choice of the side without a player",
        }
    }
}

/// One outcome of a chance node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChanceOutcome {
    /// The action that picks it (`Action::Chance(i)`).
    pub action: Action,
    /// Its exact probability (the node's outcomes sum to 1).
    pub probability: f64,
    /// The kind of roll or draw.
    pub kind: ChanceKind,
    /// What is rolled or drawn, e.g. "Nix [A] movement test" or "Raptor [1] draws an action
    /// card".
    pub roll: String,
    /// What this outcome is, e.g. "pass (high die 7)", "2 wounds" or "card \"Stalk\"".
    pub outcome: String,
}

impl ChanceOutcome {
    /// "roll: outcome", the one-line description of the outcome.
    pub fn text(&self) -> String {
        format!("{}: {}", self.roll, self.outcome)
    }
}

impl GameState {
    /// The kind of the chance node on top, or `None` when the node is not a chance node.
    pub fn chance_kind(&self) -> Option<ChanceKind> {
        if self.current_player() != Player::Chance {
            return None;
        }
        if absent_decision(self) {
            return Some(ChanceKind::AbsentChoice);
        }
        Some(match self.dyn_.steps.last()? {
            Step::Test { model, .. } if is_ai(self, *model) => ChanceKind::EnemyDie,
            Step::Test { .. } => ChanceKind::AttributeTest,
            Step::Armour { .. } => ChanceKind::ArmourRoll,
            Step::FireRoll { .. } => ChanceKind::FireRoll,
            Step::Scatter { .. } => ChanceKind::Scatter,
            Step::TemplateStealth { .. } => ChanceKind::StealthRoll,
            Step::RollOff => ChanceKind::RollOff,
            Step::Scenario(ScenarioStep::DrawNumber { .. }) => ChanceKind::MarkerNumber,
            Step::Scenario(ScenarioStep::RollSought(_)) => ChanceKind::SoughtNumber,
            Step::Enemy(
                EnemyStep::RollPlacement { .. } | EnemyStep::Spawn { .. } | EnemyStep::Ambush { .. },
            ) => ChanceKind::SpawnRoll,
            Step::Enemy(EnemyStep::RollMarker { .. }) => ChanceKind::AmbushMarkerKind,
            Step::Enemy(EnemyStep::Draw { .. }) => ChanceKind::AiCardDraw,
            _ => return None,
        })
    }

    /// Every outcome of the chance node on top, in the order of
    /// [`chance_outcomes`](Self::chance_outcomes), with its probability, kind and words;
    /// empty when the node is not a chance node.
    pub fn described_chance_outcomes(&self) -> Vec<ChanceOutcome> {
        let Some(kind) = self.chance_kind() else { return Vec::new() };
        let roll = roll_text(self, kind);
        self.chance_outcomes()
            .into_iter()
            .enumerate()
            .map(|(i, (action, probability))| ChanceOutcome {
                action,
                probability,
                kind,
                roll: roll.clone(),
                outcome: outcome_text(self, kind, i as u8),
            })
            .collect()
    }
}

/// Chance outcome `i` of the node on top in words, "roll: outcome" (for game logs, which see
/// everything).
pub(crate) fn describe_outcome(state: &GameState, i: u8) -> String {
    match state.chance_kind() {
        Some(kind) => format!("{}: {}", roll_text(state, kind), outcome_text(state, kind, i)),
        None => format!("chance #{i}"),
    }
}

/// "side A".
fn side_name(side: u8) -> String {
    format!("side {}", (b'A' + side.min(25)) as char)
}

/// (x,y) of a cell.
fn at(state: &GameState, cell: crate::board::CellIdx) -> String {
    let (x, y) = state.board().xy(cell);
    format!("({x},{y})")
}

/// What the chance node of kind `kind` on top rolls or draws.
fn roll_text(state: &GameState, kind: ChanceKind) -> String {
    let d = &state.dyn_;
    let uc = state.stat.uc.as_deref();
    let table_name = |step: &EnemyStep| {
        uc.map_or_else(String::new, |uc| uc.data.spawn_tables[step_table(state, step) as usize].id.clone())
    };
    match (kind, d.steps.last()) {
        (ChanceKind::AbsentChoice, _) => {
            format!(
                "{} has no player and chooses at random ({})",
                side_name(super::ABSENT_SIDE),
                state.describe_node()
            )
        }
        (_, Some(Step::Test { model, purpose, .. })) => {
            let die = if kind == ChanceKind::EnemyDie { " with the enemy die" } else { "" };
            format!("{} {} test{die}", state.model_name(*model), state.test_name(*purpose))
        }
        (_, Some(Step::Armour { model, damage, target, mount })) => format!(
            "{}{} armour roll ({damage} {}, each saving on {target} or less)",
            state.model_name(*model),
            if *mount { "'s mount" } else { "" },
            if *damage == 1 { "die" } else { "dice" }
        ),
        (_, Some(Step::FireRoll { model })) => {
            format!("{} on fire rolls its armour", state.model_name(*model))
        }
        (_, Some(Step::Scatter { template, distance })) => {
            let t = d.sequence.as_ref().map(|s| s.templates[*template as usize]);
            let weapon = t
                .and_then(|t| state.profile(t.firer).weapons.get(t.weapon as usize))
                .map_or_else(String::new, |w| format!("{} ", w.name));
            let how_far = distance.map_or_else(|| "a D10 inches".to_string(), |x| format!("{x}\""));
            let from = t.map_or_else(String::new, |t| format!(" from {}", at(state, t.at)));
            format!("the {weapon}template scatters {how_far}{from}")
        }
        (_, Some(Step::TemplateStealth { template, model, .. })) => {
            let firer = d.sequence.as_ref().map(|s| s.templates[*template as usize].firer);
            let firer = firer.map_or_else(|| "the firer".to_string(), |f| state.model_name(f));
            format!("{firer} tests Intelligence to hurt stealthed {}", state.model_name(*model))
        }
        (_, Some(Step::RollOff)) => "initiative roll-off".to_string(),
        (_, Some(Step::Scenario(ScenarioStep::DrawNumber { marker }))) => {
            format!("the number under marker {}", *marker as u16 + 1)
        }
        (_, Some(Step::Scenario(ScenarioStep::RollSought(side)))) => {
            format!("the number {} seeks", side_name(*side))
        }
        (_, Some(Step::Enemy(step @ EnemyStep::RollPlacement { chooser }))) => {
            format!(
                "spawn roll on the {} table for the AI model {} places",
                table_name(step),
                side_name(*chooser)
            )
        }
        (_, Some(Step::Enemy(step @ EnemyStep::Spawn { near }))) => format!(
            "spawn roll on the {} table for the AI model a noise at {} brings",
            table_name(step),
            at(state, *near)
        ),
        (_, Some(Step::Enemy(step @ EnemyStep::Ambush { cell, .. }))) => format!(
            "spawn roll on the {} table for the ambush marker at {}",
            table_name(step),
            at(state, *cell)
        ),
        (_, Some(Step::Enemy(EnemyStep::RollMarker { chooser }))) => {
            format!("the kind of the ambush marker {} places", side_name(*chooser))
        }
        (_, Some(Step::Enemy(EnemyStep::Draw { model }))) => {
            format!("{} draws an action card", state.model_name(*model))
        }
        _ => kind.label().to_string(),
    }
}

/// What outcome `i` of the chance node of kind `kind` on top is.
fn outcome_text(state: &GameState, kind: ChanceKind, i: u8) -> String {
    let d = &state.dyn_;
    let uc = state.stat.uc.as_deref();
    match (kind, d.steps.last()) {
        (ChanceKind::AbsentChoice, _) => {
            format!("option {} of {}", i as usize + 1, state.chance_outcomes().len())
        }
        (ChanceKind::AttributeTest, _) => match pending_test(state).and_then(|t| t.get(i as usize)) {
            Some((o, _)) if o.high_die > 0 => format!("{} (high die {})", o.level.words(), o.high_die),
            Some((o, _)) => o.level.words().to_string(),
            None => format!("outcome {i}"),
        },
        (ChanceKind::EnemyDie, _) => match pending_test(state).and_then(|t| t.get(i as usize)) {
            Some((o, _)) => {
                let e = from_test_outcome(*o);
                match e.level {
                    EnemyLevel::Frenzy => "Frenzy".to_string(),
                    EnemyLevel::Pass if e.face > 0 => format!("Pass (face {})", e.face),
                    EnemyLevel::Pass => TestLevel::Pass.words().to_string(),
                    EnemyLevel::Fail => TestLevel::Fail.words().to_string(),
                }
            }
            None => format!("outcome {i}"),
        },
        (ChanceKind::ArmourRoll, _) => match i {
            0 => "no wound".to_string(),
            1 => "1 wound".to_string(),
            _ => format!("{i} wounds"),
        },
        (ChanceKind::FireRoll, _) => {
            if i == 0 { "saves, one fire token less" } else { "burns for 1 wound" }.to_string()
        }
        (ChanceKind::Scatter, Some(Step::Scatter { template, distance })) => {
            let cells = super::combat::scatter_outcomes(state, *template, *distance);
            cells
                .get(i as usize)
                .map_or_else(|| format!("outcome {i}"), |(c, _)| format!("lands at {}", at(state, *c)))
        }
        (ChanceKind::StealthRoll, _) => {
            if i == 0 { "success: it may hurt" } else { "failure: no harm" }.to_string()
        }
        (ChanceKind::RollOff, _) => format!("{} rolls lowest", side_name(i)),
        (ChanceKind::MarkerNumber | ChanceKind::SoughtNumber, Some(Step::Scenario(s))) => {
            let values = state.rules().chance_values(state, s);
            values.get(i as usize).map_or_else(|| format!("outcome {i}"), |n| format!("number {n}"))
        }
        (ChanceKind::SpawnRoll, Some(Step::Enemy(step))) => {
            let enemy = table_outcomes(state, step_table(state, step)).get(i as usize).map(|&(e, _)| e);
            match (uc, enemy) {
                (Some(uc), Some(e)) => uc.data.enemies[e as usize].profile.name.clone(),
                _ => format!("outcome {i}"),
            }
        }
        (ChanceKind::AmbushMarkerKind, _) => uc
            .and_then(|uc| uc.data.markers.get(i as usize))
            .map_or_else(|| format!("kind {i}"), |k| k.id.clone()),
        (ChanceKind::AiCardDraw, Some(Step::Enemy(EnemyStep::Draw { model }))) => {
            let card = drawable(state, *model).nth(i as usize);
            let deck = uc.and_then(|uc| uc.deck_of_model(&d.models[*model as usize]));
            match (uc, deck, card) {
                (Some(uc), Some(deck), Some(c)) => {
                    format!("card \"{}\"", uc.data.decks[deck as usize].cards[c as usize].name)
                }
                _ => format!("outcome {i}"),
            }
        }
        _ => format!("outcome {i}"),
    }
}
