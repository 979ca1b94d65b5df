//! What the arena needs from a game ([`MatchMaker`]) and what a game was drawn to be played
//! with ([`Lineup`]): the arena's only view of a game, implemented for TDE in
//! [`crate::games::drowned_earth`] and for the other games of the registry in [`crate::games`].

use agents::{Agent, Game};
use std::collections::BTreeMap;

/// What the arena needs from a game: its scenarios, fresh games, agents from their specs, and
/// how to read a finished game. Implemented for TDE in [`crate::games::drowned_earth`], for the other
/// games in [`crate::games`].
pub trait MatchMaker<G: Game>: Sync {
    /// The scenarios `--scenarios all` stands for.
    fn scenarios(&self) -> Vec<String>;
    /// The canonical name of a scenario typed by the user, or why it is unknown.
    fn scenario(&self, name: &str) -> Result<String, String>;
    /// A new game of `scenario` (a canonical name), before any decision, with its lineup
    /// drawn by `draw` (a seed) when the maker draws them (e.g. a board and crews per game).
    fn new_game(&self, scenario: &str, draw: u64) -> Result<(G, Lineup), String>;
    /// An agent from its spec, seeded.
    fn make_agent(&self, spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, String>;
    /// `player`'s margin in a finished game (e.g. victory points ahead).
    fn margin(&self, state: &G, player: usize) -> f64;
    /// A finished game's length, e.g. in decisions.
    fn length(&self, state: &G) -> u32;
    /// A game record as JSON: the initial state, every action (chance outcomes included) and
    /// the final state; `about` says who played and with which seeds.
    fn record(&self, initial: &G, actions: &[G::Action], last: &G, about: &RecordAbout) -> String;
    /// Figures of a finished game beyond its margin, each a name and `player`'s value (e.g.
    /// models lost to AI dinosaurs), reported per agent as means per game; none by default.
    fn figures(&self, _state: &G, _player: usize) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// The game options that make games differ (board, crews...), stored with the settings
    /// and compared on resume; each key names its command-line option.
    fn options(&self) -> BTreeMap<String, String>;
}

/// Who played a recorded game of the arena, and how it was seeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordAbout {
    /// One line for people: the arena's seed, the scenario, the game, who played which side
    /// and the lineup drawn.
    pub description: String,
    /// The agents' specs, player 0's first.
    pub players: [String; 2],
    /// The round's seed, from which the game's dice and agents' seeds are derived.
    pub seed: u64,
}

/// What a game was drawn to be played with beyond its scenario, by name (e.g. `board` →
/// `lagoon_docks`); empty when every game of the arena has the same.
pub type Lineup = BTreeMap<String, String>;
