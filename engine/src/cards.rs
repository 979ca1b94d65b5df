//! Leader ability cards and effect cards (rulebook "Leader Abilities and Leader Ability Cards"
//! and "Effect Cards", p.74), read from `configs/cards/*.toml`.
//!
//! The rulebook texts hold no card texts, so the shipped cards are illustrative. An effect
//! card names when it can be played (its timing hook) and what it does; a leader ability card
//! names the standing special rule it grants the crew. Both use a small vocabulary the engine
//! knows how to apply; a user types in their own cards the same way.
//!
//! ```toml
//! illustrative = true
//! [[card]]
//! id = "artifacters_second_wind"
//! name = "Second Wind"
//! kind = "effect"              # effect | leader_ability
//! faction = "Artifacters"
//! points = 4                   # effect cards cost points; at most 10 points per crew
//! timing = "start_of_turn"     # effect cards: start_of_turn | after_test
//! effect = "gain_ap"           # effect cards: gain_ap (start_of_turn) | reroll (after_test)
//! amount = 1
//! text = "One model gains 1 AP (up to its maximum)."
//!
//! [[card]]
//! id = "artifacters_leaders_resolve"
//! name = "Leader's Resolve"
//! kind = "leader_ability"
//! faction = "Artifacters"
//! points = 0
//! rule = "marksmanship"        # leader abilities: close_combat | marksmanship | camouflage
//! amount = 1                   # the bonus of close_combat and marksmanship
//! covers = "other_members"     # other_members (the default) | all_members (the leader too)
//! text = "While the leader is conscious, ..."
//! ```
//!
//! An effect card is played once in the game, at its timing (p.74: "one use only events").
//! A leader ability card is never played: it is a standing special rule for the members of
//! the crew of the leader's faction, in force exactly while the leader is conscious (p.74:
//! "Most of these rules apply to all other members of the Crew which are of the same Faction.
//! In every case, this Special Rule only applies while the leader Model is Conscious"); see
//! `GameState::leader_rule_covering`. Recorded in docs/rulings.md (131, 148).

use crate::data::{read_file, DataError};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// Leader ability card or effect card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// A leader's ability card: at most one per crew, of the leader's faction; a standing rule.
    LeaderAbility,
    /// A one-use effect card: at most 10 points per crew, no duplicates.
    Effect,
}

/// When an effect card may be played: the engine offers it as a decision at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// After the initiative phase has granted AP.
    StartOfTurn,
    /// Right after one of the side's own models rolled a test.
    AfterTest,
}

/// What an effect card does when played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// One conscious model of the side gains `amount` AP, up to its maximum.
    GainAp,
    /// The test just rolled is re-rolled (never a Feat, a Blunder, or a re-roll, p.9).
    Reroll,
}

/// The standing special rule a leader ability card grants the models it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderRule {
    /// +`amount` Close Combat on every close-combat test (a blow, a charge, a reaction, a
    /// firefight).
    CloseCombat,
    /// +`amount` Marksmanship on every shot and template roll.
    Marksmanship,
    /// The Camouflage skill: −1 Marksmanship to shoot the model (p.14).
    Camouflage,
}

impl LeaderRule {
    /// Whether the rule has a size (`amount`).
    pub fn has_amount(self) -> bool {
        matches!(self, LeaderRule::CloseCombat | LeaderRule::Marksmanship)
    }
}

/// Whom a leader ability card's rule covers, among the crew's conscious members of the
/// leader's faction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Covers {
    /// "All other members of the Crew which are of the same Faction" (p.74; the default).
    #[default]
    OtherMembers,
    /// Those and the leader itself.
    AllMembers,
}

/// One card.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Stable identifier used in crew files.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Leader ability or effect card.
    pub kind: CardKind,
    /// Faction, or "Neutral".
    pub faction: String,
    /// Points cost.
    pub points: u16,
    /// When an effect card is played (effect cards only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
    /// What an effect card does (effect cards only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// The standing rule a leader ability card grants (leader ability cards only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<LeaderRule>,
    /// Whom a leader ability card's rule covers.
    #[serde(default)]
    pub covers: Covers,
    /// Size of the effect or rule (AP gained, attribute bonus).
    #[serde(default)]
    pub amount: u8,
    /// Card text, for people.
    #[serde(default)]
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    illustrative: bool,
    #[serde(default, rename = "card")]
    cards: Vec<Card>,
}

/// All cards known to a game, sorted by id.
#[derive(Clone, Debug, Default)]
pub struct CardCatalog {
    cards: Vec<Arc<Card>>,
}

impl CardCatalog {
    /// The card with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<Card>> {
        self.cards.binary_search_by(|c| c.id.as_str().cmp(id)).ok().map(|i| &self.cards[i])
    }

    /// Every card.
    pub fn cards(&self) -> &[Arc<Card>] {
        &self.cards
    }
}

/// Why `card` is not a well-formed card, as (field, reason): an effect card has a timing and
/// an effect that fit together and no rule, costs 1..=10 points and gains at least 1 AP; a
/// leader ability card has a rule and neither timing nor effect (it is never played, p.74),
/// and a bonus of at least 1 where its rule has one.
fn card_error(card: &Card) -> Option<(&'static str, String)> {
    match card.kind {
        CardKind::Effect => {
            let (Some(timing), Some(effect)) = (card.timing, card.effect) else {
                let missing = if card.timing.is_none() { "timing" } else { "effect" };
                return Some((missing, format!("an effect card needs a {missing}")));
            };
            if card.rule.is_some() {
                return Some(("rule", "an effect card is played, it grants no standing rule".into()));
            }
            let fits = matches!(
                (timing, effect),
                (Timing::StartOfTurn, Effect::GainAp) | (Timing::AfterTest, Effect::Reroll)
            );
            if !fits {
                return Some(("effect", format!("{effect:?} cannot be played at {timing:?}")));
            }
            if !(1..=10).contains(&card.points) {
                return Some(("points", "an effect card costs 1 to 10 points".into()));
            }
            if effect == Effect::GainAp && card.amount == 0 {
                return Some(("amount", "gain_ap needs an amount of at least 1".into()));
            }
        }
        CardKind::LeaderAbility => {
            let Some(rule) = card.rule else {
                return Some((
                    "rule",
                    "a leader ability card needs a rule: close_combat, marksmanship or camouflage".into(),
                ));
            };
            for (field, set) in [("timing", card.timing.is_some()), ("effect", card.effect.is_some())] {
                if set {
                    return Some((
                        field,
                        "a leader ability card is a standing rule while the leader is conscious, never \
                         played (p.74): give it a rule, not a timing or an effect"
                            .into(),
                    ));
                }
            }
            if rule.has_amount() && card.amount == 0 {
                return Some(("amount", format!("{rule:?} needs an amount of at least 1")));
            }
        }
    }
    None
}

/// Read every `*.toml` in `dir` (sorted by name), checking each card (see [`Card`]: an effect
/// card's timing and effect fit together, a leader ability card has a rule); ids are unique.
pub fn load_cards(dir: &Path) -> Result<CardCatalog, DataError> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| DataError::new(dir.display().to_string(), "(folder)", e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut cards: Vec<Arc<Card>> = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let text = read_file(&path)?;
        let raw: RawFile = toml::from_str(&text).map_err(|e| crate::data::toml_error(&text, &file, &e))?;
        let _ = raw.illustrative;
        for (i, card) in raw.cards.into_iter().enumerate() {
            if let Some((name, reason)) = card_error(&card) {
                return Err(DataError::new(&file, format!("card[{i}].{name}"), reason));
            }
            if cards.iter().any(|c| c.id == card.id) {
                return Err(DataError::new(
                    &file,
                    format!("card[{i}].id"),
                    format!("card id \"{}\" is used twice", card.id),
                ));
            }
            cards.push(Arc::new(card));
        }
    }
    cards.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(CardCatalog { cards })
}
