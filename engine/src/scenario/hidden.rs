//! Hidden information: the Grudge Match grudges and the Scavenger Hunt marker numbers.
//!
//! A player's view of the dynamic state ([`GameState::masked`]) removes what it cannot know:
//! the enemy's grudge until it is announced, and the numbers of markers it has not looked at.
//! The information-state key hashes that view; [`GameState::determinize`] fills the hidden
//! facts back in at random, consistently with everything the player has seen, so that search
//! can sample worlds without reading the true ones.

use super::types::Grudge;
use crate::state::{DynState, GameState, Health, ModelId, Side};
use rand::seq::SliceRandom;
use rand::Rng;
use std::hash::{Hash, Hasher};

impl GameState {
    /// Whether `observer` learns which action or chance outcome is taken at the current node.
    /// It does not for an enemy's secret grudge (p.80), nor for the number under a marker an
    /// enemy model looks at first (p.84): search must not tell those outcomes apart.
    pub fn node_visible_to(&self, observer: Side) -> bool {
        use crate::scenario::types::ScenarioStep;
        use crate::state::Step;
        let steps = &self.dynamic().steps;
        match steps.last() {
            Some(Step::Scenario(ScenarioStep::ChooseGrudge(side))) => *side == observer,
            Some(Step::Scenario(ScenarioStep::DrawNumber { .. })) => match steps.iter().rev().nth(1) {
                Some(Step::Scenario(ScenarioStep::ResolveLook { model, .. })) => {
                    self.dynamic().models[*model as usize].side == observer
                }
                _ => true,
            },
            _ => true,
        }
    }

    /// The dynamic state as `player` knows it: the enemy's unannounced grudge and the numbers
    /// of markers `player` has not seen are removed. Two states that differ only in facts
    /// hidden from `player` give equal views.
    pub fn masked(&self, player: Side) -> DynState {
        let mut d = self.dynamic().clone();
        d.scenario.mask(player);
        d
    }

    /// A key for `player`'s information state within this game: equal for all states of the
    /// same set-up (board, crews, scenario) that `player` cannot tell apart (a stable FNV-1a
    /// hash of [`masked`](Self::masked); the set-up itself is not hashed).
    pub fn information_state_key(&self, player: Side) -> u64 {
        let mut h = crate::state::Fnv64::default();
        player.hash(&mut h);
        self.masked(player).hash(&mut h);
        h.finish()
    }

    /// A full state drawn from `player`'s information state: hidden facts replaced by a random
    /// sample consistent with what `player` has seen (its own knowledge, the public "not the
    /// number sought" facts, the absence of an announcement). With nothing hidden, a clone.
    pub fn determinize<R: Rng + ?Sized>(&self, player: Side, rng: &mut R) -> GameState {
        let mut s = self.clone();
        let enemy = 1 - player;
        if let Some(g) = self.dynamic().scenario.grudges[enemy as usize].filter(|g| !g.revealed) {
            s.dyn_.scenario.grudges[enemy as usize] = Some(sample_grudge(self, enemy, g, rng));
        }
        sample_numbers(&mut s, player, rng);
        s
    }
}

/// A grudge for `side` that `side`'s enemy cannot rule out: a holder among its characters and
/// a target among the enemy's characters not yet taken out (a target taken out would have
/// completed the grudge, and it would have been announced).
fn sample_grudge<R: Rng + ?Sized>(state: &GameState, side: Side, truth: Grudge, rng: &mut R) -> Grudge {
    let chars = |s: Side, alive: bool| -> Vec<ModelId> {
        (0..state.models().len() as ModelId)
            .filter(|&m| {
                let model = &state.models()[m as usize];
                model.side == s
                    && super::common::is_character(state, m)
                    && (!alive || model.health != Health::TakenOut)
            })
            .collect()
    };
    let holders = chars(side, false);
    let targets = chars(1 - side, true);
    Grudge {
        holder: *holders.choose(rng).unwrap_or(&truth.holder),
        target: *targets.choose(rng).unwrap_or(&truth.target),
        ..truth
    }
}

/// Give the markers whose numbers only the enemy has seen numbers `player` cannot rule out:
/// distinct, not among those `player` knows, and not any number the marker is publicly known
/// not to be. A random search that always succeeds, since the true numbers qualify.
fn sample_numbers<R: Rng + ?Sized>(state: &mut GameState, player: Side, rng: &mut R) {
    let markers = &state.dyn_.scenario.markers;
    let unknown: Vec<usize> =
        (0..markers.len()).filter(|&i| markers[i].number.is_some() && !markers[i].known_to(player)).collect();
    if unknown.is_empty() {
        return;
    }
    let known: Vec<u8> = markers.iter().filter(|m| m.known_to(player)).filter_map(|m| m.number).collect();
    let mut free: Vec<u8> = (1..=6).filter(|n| !known.contains(n)).collect();
    free.shuffle(rng);
    let not: Vec<u8> = unknown.iter().map(|&i| markers[i].not).collect();
    let mut chosen = vec![0u8; unknown.len()];
    let found = assign(&not, &free, 0, &mut chosen);
    debug_assert!(found, "the true numbers are always consistent");
    for (k, &i) in unknown.iter().enumerate() {
        state.dyn_.scenario.markers[i].number = Some(chosen[k]);
    }
}

/// Backtracking: give marker `k..` distinct numbers from `free` (in its shuffled order) that
/// avoid each marker's `not` mask.
fn assign(not: &[u8], free: &[u8], k: usize, chosen: &mut [u8]) -> bool {
    if k == not.len() {
        return true;
    }
    for &n in free {
        if not[k] & (1 << n) != 0 || chosen[..k].contains(&n) {
            continue;
        }
        chosen[k] = n;
        if assign(not, free, k + 1, chosen) {
            return true;
        }
    }
    false
}
