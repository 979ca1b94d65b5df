//! Forcing a stuck door ("Extended Checks", "Interact"; ruling): an Extended Brawn check, one
//! roll per activation of the model forcing it ("Each roll consumes 1 unit of Time"), the
//! Marks kept by the door between rolls and models; reaching the Obstacle opens it, Marks at 0
//! or below jam it for the rest of the Encounter.

use crate::board::Cell;
use crate::checks::{extended_step, marks_odds, Extended};
use crate::state::{Action, Encounter};

/// Target number of the dice of a roll to force a stuck door (illustrative).
pub const FORCE_TARGET: u8 = 4;

/// Obstacle of the Extended check that forces a stuck door (illustrative).
pub const FORCE_OBSTACLE: u8 = 3;

impl Encounter {
    /// Dice of model `m`'s roll to force a door: its Strength (the Reference Value of Brawn),
    /// less Weakened, at least 1.
    pub(crate) fn force_dice(&self, m: u8) -> u8 {
        self.models[m as usize].strength().max(1)
    }

    /// The chance outcomes of a roll by `m` to force a door: `Face(k)` for `k − dice` Marks,
    /// with their exact odds.
    pub(crate) fn force_odds(&self, m: u8) -> Vec<(Action, f64)> {
        marks_odds(self.force_dice(m), FORCE_TARGET)
            .into_iter()
            .enumerate()
            .filter(|o| o.1 > 0.0)
            .map(|(k, p)| (Action::Face(k as u8), p))
            .collect()
    }

    /// Apply the roll `Face(k)` of `m` forcing `door`: add its Marks to the door's and open
    /// or jam the door when the Extended check ends.
    pub(crate) fn force_roll(&mut self, m: u8, door: Cell, k: u8) {
        let marks = k as i32 - self.force_dice(m) as i32;
        let Some(i) = self.stuck.iter().position(|d| d.cell == door) else { return };
        let step = extended_step(self.stuck[i].marks, marks, FORCE_OBSTACLE, false);
        match step {
            Extended::Going(total) => self.stuck[i].marks = total,
            Extended::Done(o) if o.succeeded() => {
                self.stuck[i].marks += marks;
                let _ = self.board.open_door(door);
            }
            Extended::Done(_) => {
                self.stuck[i].marks += marks;
                self.stuck[i].jammed = true;
            }
        }
        self.note(|s| format!("  {} rolls {marks:+} Marks on the stuck door: {step:?}", s.name(m)));
    }
}
