//! Movement ("Movement", "Danger Zone"): the squares an Advance reaches (stopping on
//! entering an enemy Danger Zone), and the destinations of Disengage and Reposition.

use crate::board::{Cell, HEIGHT, WIDTH};
use crate::state::Encounter;

impl Encounter {
    /// Whether square `c` is free for model `m` to step on (passable, nobody else there, no
    /// knocked-out Character lying there).
    fn free_for(&self, m: u8, c: Cell) -> bool {
        self.board.passable(c) && self.model_at(c).is_none_or(|o| o == m) && self.body_at(c).is_none()
    }

    /// Squares reachable by `m` in at most `steps` king moves through free squares; with
    /// `stop_in_zones`, a square inside an enemy Danger Zone ends the move there ("Model stops
    /// when entering enemy DZ regardless of remaining Movement"). The start is left out.
    pub(crate) fn reachable(&self, m: u8, steps: u8, stop_in_zones: bool) -> Vec<Cell> {
        let start = self.models[m as usize].cell;
        let mut seen = vec![start];
        let mut met = [false; WIDTH * HEIGHT];
        met[start.y as usize * WIDTH + start.x as usize] = true;
        let mut frontier = vec![start];
        for _ in 0..steps {
            let mut next = Vec::new();
            for &c in &frontier {
                if c != start && stop_in_zones && self.in_enemy_zone(m, c) {
                    continue;
                }
                for to in self.board.steps(c) {
                    let i = to.y as usize * WIDTH + to.x as usize;
                    if !met[i] && self.free_for(m, to) {
                        met[i] = true;
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
        out.retain(|&c| !self.in_enemy_zone(m, c));
        out
    }

    /// Drag ("Drag: Move adjacent prone Model up to ½M"): for the knocked-out Character `body`
    /// next to `m`, each square `m` may reach in up to ½M king moves (less Entangled; stopping
    /// on entering an enemy Danger Zone, as an Advance), with the square the body ends on: the
    /// last one the dragger left on its shortest way there (ruling).
    pub(crate) fn drag_squares(&self, m: u8, body: u8) -> Vec<(Cell, Cell)> {
        let model = &self.models[m as usize];
        let start = model.cell;
        let lying = self.models[body as usize].cell;
        if !self.models[body as usize].body() || !lying.adjacent(start) {
            return Vec::new();
        }
        let steps = (model.profile.movement / 2).saturating_sub(model.conditions.entangled);
        // Breadth first, remembering the square each was reached from; the body's own square
        // is free for the pair.
        let free = |c: Cell| c == lying || self.free_for(m, c);
        let mut seen: Vec<(Cell, Cell)> = vec![(start, start)];
        let mut frontier = vec![start];
        for _ in 0..steps {
            let mut next = Vec::new();
            for &c in &frontier {
                if c != start && self.in_enemy_zone(m, c) {
                    continue;
                }
                for to in self.board.steps(c) {
                    if free(to) && !seen.iter().any(|s| s.0 == to) {
                        seen.push((to, c));
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        let mut out: Vec<(Cell, Cell)> =
            seen.into_iter().filter(|&(c, _)| c != start && c != lying).collect();
        out.sort();
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
