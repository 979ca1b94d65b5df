//! The crew's action decks (`configs/uc/crew_decks.toml`, illustrative), the role that picks
//! a model's deck, and the seeded draw piles.
//!
//! The decks use the UC deck format ([`parse_decks`]) and must be exactly one per role:
//! `shooter`, `brawler`, `leader`, `beast`. A model's role comes from its profile (ruling in
//! `docs/rulings.md`, "UC card AI playing a crew"): a beast by its type; the crew's leader by
//! its Leader role; a shooter when it carries a ranged weapon that shoots at models (not a
//! template, pass range over 1") and its Marksmanship is at least its Close Combat; anyone
//! else is a brawler. The leader is the crew's elite model: only it resolves cards' elite
//! effects.

use engine::data::DataError;
use engine::profile::{ModelType, Role};
use engine::state::template::template_of;
use engine::state::{ModelId, Side};
use engine::uc::data::{parse_decks, Deck};
use engine::GameState;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Which deck a crew model draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrewRole {
    /// Models that fight at range.
    Shooter,
    /// Models that fight in close combat.
    Brawler,
    /// The crew's leader (the elite model).
    Leader,
    /// Beasts.
    Beast,
}

impl CrewRole {
    /// Every role, in deck order.
    pub const ALL: [CrewRole; 4] = [CrewRole::Shooter, CrewRole::Brawler, CrewRole::Leader, CrewRole::Beast];

    /// The deck id of the role in the deck file.
    pub fn id(self) -> &'static str {
        match self {
            CrewRole::Shooter => "shooter",
            CrewRole::Brawler => "brawler",
            CrewRole::Leader => "leader",
            CrewRole::Beast => "beast",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The role of model `m` by its profile (see the module doc).
    pub fn of(state: &GameState, m: ModelId) -> CrewRole {
        let p = state.profile(m);
        if p.model_type == ModelType::Beast {
            CrewRole::Beast
        } else if p.role == Role::Leader {
            CrewRole::Leader
        } else if shoots(state, m) && p.marksmanship >= p.cc {
            CrewRole::Shooter
        } else {
            CrewRole::Brawler
        }
    }
}

/// Whether model `m` carries a ranged weapon that shoots at models.
pub(crate) fn shoots(state: &GameState, m: ModelId) -> bool {
    state
        .profile(m)
        .weapons
        .iter()
        .any(|w| w.range.is_some_and(|(pass, _)| pass > 1) && template_of(w).is_none())
}

/// Whether model `m` resolves elite effects: the crew's leader.
pub fn is_elite(state: &GameState, m: ModelId) -> bool {
    state.profile(m).role == Role::Leader
}

/// One deck per role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrewDecks {
    decks: [Deck; 4],
}

impl CrewDecks {
    /// Parse a crew deck file: the UC deck format with exactly the decks `shooter`,
    /// `brawler`, `leader` and `beast`. Errors name `file`, the field and why.
    pub fn parse(text: &str, file: &str) -> Result<CrewDecks, DataError> {
        let decks = parse_decks(text, file)?;
        let names: Vec<&str> = CrewRole::ALL.iter().map(|r| r.id()).collect();
        if let Some(d) = decks.iter().find(|d| !names.contains(&d.id.as_str())) {
            return Err(DataError::new(
                file,
                format!("deck \"{}\".id", d.id),
                format!("not a crew role; crew decks are {}", names.join(", ")),
            ));
        }
        let take = |role: CrewRole| {
            decks.iter().find(|d| d.id == role.id()).cloned().ok_or_else(|| {
                DataError::new(
                    file,
                    "deck",
                    format!("no deck \"{}\"; crew decks are {}", role.id(), names.join(", ")),
                )
            })
        };
        Ok(CrewDecks {
            decks: [
                take(CrewRole::Shooter)?,
                take(CrewRole::Brawler)?,
                take(CrewRole::Leader)?,
                take(CrewRole::Beast)?,
            ],
        })
    }

    /// Load a crew deck file.
    pub fn load(path: &Path) -> Result<CrewDecks, DataError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| DataError::new(name.clone(), "(file)", format!("cannot read: {e}")))?;
        CrewDecks::parse(&text, &name)
    }

    /// The shipped (or `$TDE_CONFIGS`) crew decks: `configs/uc/crew_decks.toml`.
    pub fn shipped() -> Result<CrewDecks, DataError> {
        CrewDecks::load(&engine::data::configs_dir().join("uc").join("crew_decks.toml"))
    }

    /// The deck of `role`.
    pub fn deck(&self, role: CrewRole) -> &Deck {
        &self.decks[role.index()]
    }
}

/// The draw piles of both sides, one per role, reshuffled (in full) at each new turn and
/// whenever a pile runs out during a turn.
pub(crate) struct Piles {
    rng: ChaCha8Rng,
    /// `[side][role]`: the turn the pile was shuffled for, and the card indices left in it.
    piles: [[(u8, Vec<usize>); 4]; 2],
}

impl Piles {
    /// Empty piles (shuffled at the first draw) with their own generator.
    pub fn new(seed: u64) -> Piles {
        Piles { rng: ChaCha8Rng::seed_from_u64(seed), piles: Default::default() }
    }

    /// Draw a card (its index in the deck of `size` cards) for a model of `side` and `role`
    /// in `turn`.
    pub fn draw(&mut self, side: Side, role: CrewRole, turn: u8, size: usize) -> usize {
        let (shuffled, left) = &mut self.piles[side as usize & 1][role.index()];
        if *shuffled != turn || left.is_empty() {
            *shuffled = turn;
            left.clear();
            left.extend(0..size);
            left.shuffle(&mut self.rng);
        }
        left.pop().unwrap_or(0)
    }
}
