//! The AI side of a TDE game with Ulaya Chronicles dinosaurs ("The Drowned Earth Conversion",
//! seed 003): the tables a game's static data holds (which profiles are AI models, their decks
//! and behaviour) and the small changing state of the card AI (the discard piles, the box under
//! way).

use super::data::{EnemyProfile, UcData};
use crate::data::DataError;
use crate::profile::Profile;
use crate::state::{ModelState, Side, MAX_SIDES};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The side the AI-controlled models belong to: never a player of the game, never asked for a
/// decision; its choices are the rules' own, a player's, or a die roll.
pub const AI_SIDE: Side = 2;

/// Most action decks a game can use (the discard piles are fixed-size bitsets).
pub const MAX_DECKS: usize = 8;

/// Most cards in one action deck.
pub const MAX_CARDS: usize = 16;

/// Most ambush markers a game holds (a fixed-size table in [`UcState`]).
pub const MAX_MARKERS: usize = 8;

/// What a game with AI models knows about them, fixed for the whole game.
#[derive(Debug)]
pub struct UcGame {
    /// The AI models, decks, spawn tables and markers.
    pub data: UcData,
    /// For every profile of the game (`StaticData::profiles`): the AI model it is, an index
    /// into `data.enemies`, or `None` for the players' profiles.
    pub enemy_of: Vec<Option<u8>>,
    /// For every AI model of `data.enemies`: its profile index in the game.
    pub profile_of: Vec<u8>,
    /// For every AI model of `data.enemies`: the index of its deck in `data.decks`.
    pub deck_of: Vec<u8>,
    /// The spawn table the placed and spawned models are rolled on (index in
    /// `data.spawn_tables`).
    pub spawn_table: u8,
    /// AI models the players place before deployment.
    pub dinos: u8,
    /// Ambush markers the players place before deployment, after the AI models.
    pub ambush: u8,
    /// For every ambush marker kind of `data.markers`: the index of its spawn table.
    pub marker_table: Vec<u8>,
    /// A solo game: side A's crew faces the AI side alone; side B has no crew and no player,
    /// and the choices the rules give it are made at random (docs/rulings.md).
    pub solo: bool,
}

impl UcGame {
    /// Build the tables for a game: every AI model's profile joins `profiles` (so any of them
    /// can be placed or spawned); `spawn_table` names the table placements roll on; `dinos`
    /// AI models and `ambush` ambush markers are placed before deployment. Errors name the UC
    /// file and field.
    pub fn new(
        data: UcData,
        profiles: &mut Vec<Arc<Profile>>,
        spawn_table: &str,
        dinos: u8,
        ambush: u8,
    ) -> Result<UcGame, DataError> {
        let decks_file = data.sources.decks.0.clone();
        if data.decks.len() > MAX_DECKS {
            return Err(DataError::new(&decks_file, "deck", format!("at most {MAX_DECKS} decks")));
        }
        if let Some(d) = data.decks.iter().find(|d| d.cards.len() > MAX_CARDS || d.cards.is_empty()) {
            return Err(DataError::new(
                &decks_file,
                format!("deck \"{}\".card", d.id),
                format!("a deck holds 1 to {MAX_CARDS} cards"),
            ));
        }
        let table = data.spawn_tables.iter().position(|t| t.id == spawn_table).ok_or_else(|| {
            DataError::new(&data.sources.spawn.0, "table", format!("no spawn table \"{spawn_table}\""))
        })?;
        let mut profile_of = Vec::new();
        let mut deck_of = Vec::new();
        for e in &data.enemies {
            let idx = match profiles.iter().position(|p| p.id == e.profile.id) {
                Some(i) => i,
                None => {
                    profiles.push(e.profile.clone());
                    profiles.len() - 1
                }
            };
            if idx > u8::MAX as usize {
                return Err(DataError::new(&data.sources.enemies.0, "profile", "too many profiles"));
            }
            profile_of.push(idx as u8);
            let deck = data.decks.iter().position(|d| d.id == e.deck).expect("load_uc checks decks");
            deck_of.push(deck as u8);
        }
        let mut enemy_of = vec![None; profiles.len()];
        for (e, &p) in profile_of.iter().enumerate() {
            enemy_of[p as usize] = Some(e as u8);
        }
        if ambush as usize > MAX_MARKERS {
            return Err(DataError::new(
                "game settings",
                "ambush",
                format!("at most {MAX_MARKERS} ambush markers"),
            ));
        }
        if ambush > 0 && data.markers.is_empty() {
            return Err(DataError::new(&data.sources.spawn.0, "marker", "ambush markers need a marker kind"));
        }
        let marker_table = data
            .markers
            .iter()
            .map(|k| {
                data.spawn_tables.iter().position(|t| t.id == k.spawn_table).expect("load_uc checks tables")
                    as u8
            })
            .collect();
        Ok(UcGame {
            data,
            enemy_of,
            profile_of,
            deck_of,
            spawn_table: table as u8,
            dinos,
            ambush,
            marker_table,
            solo: false,
        })
    }

    /// The AI model a game model is, if it is one.
    pub fn enemy(&self, m: &ModelState) -> Option<&EnemyProfile> {
        self.enemy_of.get(m.profile as usize).copied().flatten().map(|e| &self.data.enemies[e as usize])
    }

    /// The deck index of an AI model (by its model state).
    pub fn deck_of_model(&self, m: &ModelState) -> Option<u8> {
        let e = self.enemy_of.get(m.profile as usize).copied().flatten()?;
        Some(self.deck_of[e as usize])
    }

    /// The enemy index (into `data.enemies`) of each face of the game's spawn table.
    pub fn spawn_faces(&self) -> [u8; 10] {
        self.table_faces(self.spawn_table)
    }

    /// The enemy index (into `data.enemies`) of each face of spawn table `table`.
    pub fn table_faces(&self, table: u8) -> [u8; 10] {
        let table = &self.data.spawn_tables[table as usize];
        std::array::from_fn(|i| {
            self.data.enemies.iter().position(|e| e.id == table.faces[i]).expect("load_uc checks faces") as u8
        })
    }
}

/// An ambush marker on the table (seed 003, "Ambush markers"): an enemy that has not been
/// seen yet. Models may move through it but not stand on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AmbushMarker {
    /// Where it lies.
    pub cell: crate::board::CellIdx,
    /// Its kind (index into the UC data's `markers`): its triggers and spawn table.
    pub kind: u8,
    /// Active side up (an enemy alert to danger); passive (unaware) otherwise.
    pub active: bool,
    /// The player model whose noise it heard since the last enemy phase (within 12"): the
    /// enemy phase flips it, or springs it against that model.
    pub heard_by: Option<crate::state::ModelId>,
}

/// The card AI's changing state: which cards of each deck are in its discard pile, and the AI
/// move under way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UcState {
    /// Bit `c` of entry `d`: card `c` of deck `d` has been drawn since the last shuffle.
    pub drawn: [u16; MAX_DECKS],
    /// Inches of the AI move under way (its box's, with an elite bonus).
    pub move_inches: u8,
    /// The AI move under way rolled frenzy: its box is resolved a second time.
    pub frenzy: bool,
    /// The AI move under way is a box's with an amber movement symbol: no dynamic movement
    /// test, the full move as though it nailed it.
    #[serde(default)]
    pub amber: bool,
    /// The AI move under way is a box's with a red movement symbol: it moves over the
    /// terrain as though it were open ground.
    #[serde(default)]
    pub red: bool,
    /// An AI model's movement reaction is under way: no one may react to it.
    pub reacting: bool,
    /// Bit `m` of entry `s`: model `m` was hit by an attack of side `s`'s in the sequence under
    /// way (cleared when it ends), to tell who put a model out of action.
    #[serde(default)]
    pub hit_by: [u64; MAX_SIDES],
    /// Entry `[by][side]`: models of `side` put out of action (down or taken out) in a
    /// sequence in which side `by`'s attacks hit them: the dinosaurs' toll on each crew
    /// (`[AI_SIDE][side]`) and the dinosaurs each crew took out (`[side][AI_SIDE]`).
    #[serde(default)]
    pub out_of_action: [[u8; MAX_SIDES]; MAX_SIDES],
    /// Confusion tokens on AI models, model `m`'s at `[m / 32][m % 32]` (seed 003: a
    /// confused AI model discards a token instead of drawing a card or reacting).
    #[serde(default)]
    pub confusion: [[u8; 32]; 2],
    /// Where the first noise since the last enemy phase began was made: that phase spawns an
    /// AI model at the spawn point nearest it (seed 003, "Noise reactions").
    #[serde(default)]
    pub noise: Option<crate::board::CellIdx>,
    /// The ambush markers; marker `i` is on the table while bit `i` of `marker_mask` is set.
    #[serde(default)]
    pub markers: [AmbushMarker; MAX_MARKERS],
    /// Which entries of `markers` lie on the table.
    #[serde(default)]
    pub marker_mask: u8,
    /// The elite `damage +N` of the card whose attack is under way (0 otherwise): added to the
    /// damage of the AI model's own attack (seed 003, "Enemy phase"; ruling 134).
    #[serde(default)]
    pub card_damage: u8,
}

impl UcState {
    /// The cards of deck `deck` (of `cards` cards) that can be drawn now: those not drawn since
    /// the last shuffle, or the whole deck when every card has been drawn (the discard pile is
    /// shuffled back, docs/rulings.md).
    pub fn drawable(&self, deck: u8, cards: usize) -> impl Iterator<Item = u8> {
        let full = if cards >= 16 { u16::MAX } else { (1u16 << cards) - 1 };
        let drawn = self.drawn[deck as usize] & full;
        let pile = if drawn == full { 0 } else { drawn };
        (0..cards as u8).filter(move |&c| pile & (1 << c) == 0)
    }

    /// Draw card `card` of deck `deck` (of `cards` cards), reshuffling first when it was empty.
    pub fn draw(&mut self, deck: u8, cards: usize, card: u8) {
        let full = if cards >= 16 { u16::MAX } else { (1u16 << cards) - 1 };
        if self.drawn[deck as usize] & full == full {
            self.drawn[deck as usize] = 0;
        }
        self.drawn[deck as usize] |= 1 << card;
    }

    /// Confusion tokens on model `m`.
    pub fn confusion(&self, m: crate::state::ModelId) -> u8 {
        self.confusion[m as usize / 32][m as usize % 32]
    }

    /// Give model `m` `n` more confusion tokens.
    pub fn confuse(&mut self, m: crate::state::ModelId, n: u8) {
        let t = &mut self.confusion[m as usize / 32][m as usize % 32];
        *t = t.saturating_add(n);
    }

    /// Discard one of model `m`'s confusion tokens: whether it had one.
    pub fn discard_confusion(&mut self, m: crate::state::ModelId) -> bool {
        let t = &mut self.confusion[m as usize / 32][m as usize % 32];
        let had = *t > 0;
        *t = t.saturating_sub(1);
        had
    }

    /// The ambush marker lying on `cell`, if any.
    pub fn marker_at(&self, cell: crate::board::CellIdx) -> Option<u8> {
        if self.marker_mask == 0 {
            return None;
        }
        self.markers_on_table().find(|&(_, m)| m.cell == cell).map(|(i, _)| i)
    }

    /// The ambush markers on the table, with their indices.
    pub fn markers_on_table(&self) -> impl Iterator<Item = (u8, AmbushMarker)> + '_ {
        let mask = self.marker_mask;
        (0..MAX_MARKERS as u8).filter(move |i| mask & (1 << i) != 0).map(|i| (i, self.markers[i as usize]))
    }

    /// Put a passive marker of `kind` on `cell`: its index, or None when the table is full.
    pub fn add_marker(&mut self, cell: crate::board::CellIdx, kind: u8) -> Option<u8> {
        let i = (0..MAX_MARKERS as u8).find(|i| self.marker_mask & (1 << i) == 0)?;
        self.markers[i as usize] = AmbushMarker { cell, kind, active: false, heard_by: None };
        self.marker_mask |= 1 << i;
        Some(i)
    }

    /// Take marker `i` off the table.
    pub fn remove_marker(&mut self, i: u8) {
        self.marker_mask &= !(1 << i);
        self.markers[i as usize] = AmbushMarker::default();
    }

    /// Models of `side` put out of action by attacks of side `by` so far.
    pub fn out_of_action_by(&self, by: Side, side: Side) -> u8 {
        self.out_of_action[by as usize][side as usize]
    }

    /// Shuffle every discard pile back (the start phase, UC "Turn structure" 1.4).
    pub fn shuffle(&mut self) {
        self.drawn = [0; MAX_DECKS];
    }
}

/// Games without AI models hash as they did before the AI side existed: the state is hashed
/// only when a card has been drawn.
impl Hash for UcState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if *self != UcState::default() {
            self.drawn.hash(state);
            self.move_inches.hash(state);
            self.frenzy.hash(state);
            self.amber.hash(state);
            self.red.hash(state);
            self.reacting.hash(state);
            self.hit_by.hash(state);
            self.out_of_action.hash(state);
            self.confusion.hash(state);
            self.noise.hash(state);
            self.markers.hash(state);
            self.marker_mask.hash(state);
            self.card_damage.hash(state);
        }
    }
}
