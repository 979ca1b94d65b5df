//! Leader ability cards and effect cards (rulebook "Leader Abilities and Leader Ability Cards"
//! and "Effect Cards", p.74), read from `configs/cards/*.toml`.
//!
//! The rulebook texts hold no card texts, so the shipped cards are illustrative. A card names
//! when it can be played (its timing hook) and what it does, in a small effect vocabulary the
//! engine knows how to apply; a user types in their own cards the same way.
//!
//! ```toml
//! illustrative = true
//! [[card]]
//! id = "artifacters_second_wind"
//! name = "Second Wind"
//! kind = "effect"              # effect | leader_ability
//! faction = "Artifacters"
//! points = 4                   # effect cards cost points; at most 10 points per crew
//! timing = "start_of_turn"     # start_of_turn | after_test
//! effect = "gain_ap"           # gain_ap (start_of_turn) | reroll (after_test)
//! amount = 1
//! limit = "once_per_game"      # once_per_game (the default) | once_per_turn (leader abilities)
//! text = "One model gains 1 AP (up to its maximum)."
//! ```
//!
//! Conditions of use (p.74, recorded in docs/rulings.md): a side plays only its own cards, at
//! their timing; a leader ability card only while that side's leader is conscious on the
//! table ("this Special Rule only applies while the leader Model is Conscious"); an effect
//! card once in the game; a leader ability card once in the game or once per turn as it says.

use crate::data::{read_file, DataError};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// Leader ability card or effect card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// A leader's ability card: at most one per crew, of the leader's faction.
    LeaderAbility,
    /// A one-use effect card: at most 10 points per crew, no duplicates.
    Effect,
}

/// When a card may be played: the engine offers it as a decision at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// After the initiative phase has granted AP.
    StartOfTurn,
    /// Right after one of the side's own models rolled a test.
    AfterTest,
}

/// How often a card may be played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// Once in the game (effect cards are "one use only", p.74; the default).
    #[default]
    OncePerGame,
    /// Once in each turn (a leader ability that lasts, p.74): usable again from the next turn.
    OncePerTurn,
}

/// What a card does when played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// One conscious model of the side gains `amount` AP, up to its maximum.
    GainAp,
    /// The test just rolled is re-rolled (never a Feat, a Blunder, or a re-roll, p.9).
    Reroll,
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
    /// When it is played.
    pub timing: Timing,
    /// What it does.
    pub effect: Effect,
    /// Size of the effect (AP gained).
    #[serde(default)]
    pub amount: u8,
    /// How often it may be played (`once_per_game`, the default, or `once_per_turn`).
    #[serde(default)]
    pub limit: Limit,
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

/// Read every `*.toml` in `dir` (sorted by name), checking each card: timing and effect must
/// fit together, effect cards cost 1..=10 points, ids are unique.
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
            let field = |name: &str| format!("card[{i}].{name}");
            let fits = matches!(
                (card.timing, card.effect),
                (Timing::StartOfTurn, Effect::GainAp) | (Timing::AfterTest, Effect::Reroll)
            );
            if !fits {
                return Err(DataError::new(
                    &file,
                    field("effect"),
                    format!("{:?} cannot be played at {:?}", card.effect, card.timing),
                ));
            }
            if card.kind == CardKind::Effect && !(1..=10).contains(&card.points) {
                return Err(DataError::new(&file, field("points"), "an effect card costs 1 to 10 points"));
            }
            if card.kind == CardKind::Effect && card.limit != Limit::OncePerGame {
                return Err(DataError::new(&file, field("limit"), "an effect card is one use only (p.74)"));
            }
            if card.effect == Effect::GainAp && card.amount == 0 {
                return Err(DataError::new(&file, field("amount"), "gain_ap needs an amount of at least 1"));
            }
            if cards.iter().any(|c| c.id == card.id) {
                return Err(DataError::new(
                    &file,
                    field("id"),
                    format!("card id \"{}\" is used twice", card.id),
                ));
            }
            cards.push(Arc::new(card));
        }
    }
    cards.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(CardCatalog { cards })
}
