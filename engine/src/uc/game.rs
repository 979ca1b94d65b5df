//! The AI side of a TDE game with Ulaya Chronicles dinosaurs ("The Drowned Earth Conversion",
//! seed 003): the tables a game's static data holds (which profiles are AI models, their decks
//! and behaviour).

use super::data::{EnemyProfile, UcData};
use crate::data::DataError;
use crate::profile::Profile;
use crate::state::{ModelState, Side};
use std::sync::Arc;

/// The side the AI-controlled models belong to: never a player of the game, never asked for a
/// decision; its choices are the rules' own, a player's, or a die roll.
pub const AI_SIDE: Side = 2;

/// Most action decks a game can use (the discard piles are fixed-size bitsets).
pub const MAX_DECKS: usize = 8;

/// Most cards in one action deck.
pub const MAX_CARDS: usize = 16;

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
}

impl UcGame {
    /// Build the tables for a game: every AI model's profile joins `profiles` (so any of them
    /// can be placed or spawned); `spawn_table` names the table placements roll on. Errors name
    /// the UC file and field.
    pub fn new(
        data: UcData,
        profiles: &mut Vec<Arc<Profile>>,
        spawn_table: &str,
        dinos: u8,
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
        Ok(UcGame { data, enemy_of, profile_of, deck_of, spawn_table: table as u8, dinos })
    }

    /// The AI model a game model is, if it is one.
    pub fn enemy(&self, m: &ModelState) -> Option<&EnemyProfile> {
        self.enemy_of.get(m.profile as usize).copied().flatten().map(|e| &self.data.enemies[e as usize])
    }

    /// The enemy index (into `data.enemies`) of each face of the spawn table.
    pub fn spawn_faces(&self) -> [u8; 10] {
        let table = &self.data.spawn_tables[self.spawn_table as usize];
        std::array::from_fn(|i| {
            self.data.enemies.iter().position(|e| e.id == table.faces[i]).expect("load_uc checks faces") as u8
        })
    }
}
