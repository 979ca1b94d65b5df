//! Movement ("Movement", "Danger Zone"): the squares an Advance reaches (stopping on
//! entering an enemy Danger Zone), and the destinations of Disengage and Reposition.

use crate::board::Cell;
use crate::state::Encounter;

impl Encounter {
    /// Whether square `c` is free for model `m` to step on (passable, nobody else there).
    fn free_for(&self, m: u8, c: Cell) -> bool {
        self.board.passable(c) && self.model_at(c).is_none_or(|o| o == m)
    }

    /// Squares reachable by `m` in at most `steps` king moves through free squares; with
    /// `stop_in_zones`, a square inside an enemy Danger Zone ends the move there ("Model stops
    /// when entering enemy DZ regardless of remaining Movement"). The start is left out.
    pub(crate) fn reachable(&self, m: u8, steps: u8, stop_in_zones: bool) -> Vec<Cell> {
        let start = self.models[m as usize].cell;
        let mut seen = vec![start];
        let mut frontier = vec![start];
        for _ in 0..steps {
            let mut next = Vec::new();
            for &c in &frontier {
                if c != start && stop_in_zones && !self.zone_enemies(m, c).is_empty() {
                    continue;
                }
                for to in self.board.steps(c) {
                    if !seen.contains(&to) && self.free_for(m, to) {
                        seen.push(to);
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        seen.retain(|&c| c != start);
        seen.sort();
        seen
    }

    /// Advance: up to Movement squares (half of it Hidden, less Entangled X), stopping on
    /// entering an enemy Danger Zone.
    pub(crate) fn advance_squares(&self, m: u8) -> Vec<Cell> {
        let model = &self.models[m as usize];
        let c = model.conditions;
        let movement = model.profile.movement >> c.hidden as u8;
        self.reachable(m, movement.saturating_sub(c.entangled), true)
    }

    /// Disengage: squares within two moves outside every enemy Danger Zone (ruling).
    pub(crate) fn disengage_squares(&self, m: u8) -> Vec<Cell> {
        let mut out = self.reachable(m, 2, false);
        out.retain(|&c| self.zone_enemies(m, c).is_empty());
        out
    }

    /// Reposition: an adjacent free square still inside the Danger Zone of an enemy engaging
    /// `m`.
    pub(crate) fn reposition_squares(&self, m: u8) -> Vec<Cell> {
        let here = self.zone_enemies(m, self.models[m as usize].cell);
        let mut out = self.reachable(m, 1, false);
        out.retain(|&c| self.zone_enemies(m, c).iter().any(|e| here.contains(e)));
        out
    }
}
