//! The Encounter behind the agents crate's [`Game`] trait: player 0 the party, player 1 the
//! Dungeon Master; a declaration is visible only to the side that makes it.

use crate::flow::Node;
use crate::state::{Action, Encounter, Phase};
use agents::{Game, Turn};
use std::hash::{Hash, Hasher};

impl Game for Encounter {
    type Action = Action;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.node() {
            Node::Decision(p) => Turn::Player(p),
            Node::Chance => Turn::Chance,
            Node::Terminal => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.legal_into(out);
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.act(action)
    }

    fn apply_legal(&mut self, action: Action) {
        self.act_unchecked(action);
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.chance_odds()
    }

    /// +1 to the winner, −1 to the loser, 0 each for a draw or while playing.
    fn returns(&self) -> Vec<f64> {
        match self.winner() {
            Some(w) => (0..2).map(|p| if p == w { 1.0 } else { -1.0 }).collect(),
            None => vec![0.0, 0.0],
        }
    }

    fn is_visible(&self, player: usize) -> bool {
        match self.node() {
            Node::Decision(p) if self.phase() == Phase::Declare && self.pending().is_empty() => p == player,
            _ => true,
        }
    }

    fn observation(&self, player: usize) -> String {
        self.observation_text(player)
    }

    fn information_state_key(&self, player: usize) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.observation_text(player).hash(&mut h);
        h.finish()
    }

    fn determinize(&self, player: usize, rng: &mut dyn rand::RngCore) -> Encounter {
        self.resample_hidden(player, rng)
    }
}
