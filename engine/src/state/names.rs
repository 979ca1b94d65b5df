//! How text names a model (its map letter, its name with the letter) and a test.

use super::{CombatKind, GameState, ModelId, Purpose};

impl GameState {
    /// The letter that marks model `m` on the map: side A upper case, side B lower case, AI
    /// dinosaurs the digits 1-9 then 0 (and `&` beyond ten).
    pub fn model_letter(&self, m: ModelId) -> char {
        let side = self.models()[m as usize].side;
        let index = self.models()[..m as usize].iter().filter(|o| o.side == side).count() as u8;
        match side {
            0 => (b'A' + index % 26) as char,
            1 => (b'a' + index % 26) as char,
            _ if index < 10 => (b'0' + (index + 1) % 10) as char,
            _ => '&',
        }
    }

    /// "Nix [A]": a model's name and map letter.
    pub fn model_name(&self, m: ModelId) -> String {
        format!("{} [{}]", self.profile(m).name, self.model_letter(m))
    }

    /// What a test is for, in words.
    pub(crate) fn test_name(&self, purpose: Purpose) -> &'static str {
        match purpose {
            Purpose::Movement => "movement",
            Purpose::Interact => "interact",
            Purpose::Command => "command",
            Purpose::Infiltrate => "infiltration",
            Purpose::Combat(i) => {
                match self.dynamic().sequence.as_ref().and_then(|s| s.rolls.get(i as usize)).map(|r| r.kind) {
                    Some(CombatKind::Shoot { .. }) => "shooting",
                    Some(CombatKind::CloseCombat { .. }) => "close combat",
                    Some(CombatKind::Dodge) => "dodge",
                    Some(CombatKind::Reveal) => "reveal",
                    Some(CombatKind::Template { .. }) => "template",
                    None => "combat",
                }
            }
        }
    }
}
