//! Posing a situation (for tests and studies): put a model on a square, set its conditions
//! wounds, Reactions or Fatigue, Stress and Corruption, or the sides' resources. Each refuses an impossible request and changes nothing
//! then.

use crate::board::Cell;
use crate::conditions::Conditions;
use crate::state::Encounter;

impl Encounter {
    /// Put model `m` on `c` (a passable square nobody else holds).
    pub fn pose_at(&mut self, m: u8, c: Cell) -> Result<(), String> {
        if m as usize >= self.models.len() {
            return Err(format!("no model {m}"));
        }
        if !self.board.passable(c)
            || self.model_at(c).is_some_and(|o| o != m)
            || self.body_at(c).is_some_and(|o| o != m)
        {
            return Err(format!("square ({},{}) is not free", c.x, c.y));
        }
        self.models[m as usize].cell = c;
        Ok(())
    }

    /// Set model `m`'s conditions.
    pub fn pose_conditions(&mut self, m: u8, conditions: Conditions) -> Result<(), String> {
        let model = self.models.get_mut(m as usize).ok_or(format!("no model {m}"))?;
        model.conditions = conditions;
        Ok(())
    }

    /// Set model `m`'s Wounds left (1 up to its profile's); taking it out of play is the
    /// rules' business.
    pub fn pose_wounds(&mut self, m: u8, wounds: u8) -> Result<(), String> {
        let model = self.models.get_mut(m as usize).ok_or(format!("no model {m}"))?;
        if wounds == 0 || wounds > model.profile.wounds {
            return Err(format!("wounds {wounds} outside 1..={}", model.profile.wounds));
        }
        model.wounds = wounds;
        Ok(())
    }

    /// Set model `m`'s Reactions left (up to its Attacks).
    pub fn pose_reactions(&mut self, m: u8, reactions: u8) -> Result<(), String> {
        let model = self.models.get_mut(m as usize).ok_or(format!("no model {m}"))?;
        if reactions > model.profile.interrupts() {
            return Err(format!("reactions {reactions} above its Interrupts {}", model.profile.interrupts()));
        }
        model.reactions = reactions;
        Ok(())
    }

    /// Set Character `m`'s Fatigue, Stress and Corruption (each below its limit:
    /// [`crate::data::FATIGUE_LIMIT`] and the others, Fatigue up to it), with the Distressed
    /// and Strained they bring ([`crate::state::Model::feel`]).
    pub fn pose_tracks(&mut self, m: u8, fatigue: u8, stress: u8, corruption: u8) -> Result<(), String> {
        use crate::data::{CORRUPTION_THRESHOLD, FATIGUE_LIMIT, STRESS_LIMIT};
        let model = self.models.get_mut(m as usize).ok_or(format!("no model {m}"))?;
        if model.profile.kind != crate::data::Kind::Character {
            return Err(format!("model {m} is not a Character"));
        }
        if fatigue > FATIGUE_LIMIT || stress > STRESS_LIMIT || corruption > CORRUPTION_THRESHOLD {
            return Err(format!("tracks {fatigue}/{stress}/{corruption} above their limits"));
        }
        (model.fatigue, model.stress, model.corruption) = (fatigue, stress, corruption);
        model.feel();
        Ok(())
    }

    /// Set the party's Momentum, the Adversary Pool and the DM's Threat.
    pub fn pose_resources(&mut self, momentum: u8, pool: u8, threat: u8) {
        self.momentum = momentum;
        self.pool = pool;
        self.threat = threat;
    }
}
