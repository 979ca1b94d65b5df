//! Counting what happens in games — reactions, firefights, nested actions, abilities and
//! weapon properties — from the actions taken and what each step changed, for fuzzing
//! reports and tests that check random play exercises every rule.

use crate::state::{Action, GameState, InteractKind};
use serde::Serialize;

/// How often each interactive rule, ability and weapon property came up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EventCounts {
    /// Reactions declared.
    pub reactions: u64,
    /// Firefights declared.
    pub firefights: u64,
    /// Nested actions declared.
    pub nested: u64,
    /// Command orders declared.
    pub command_orders: u64,
    /// First Aid attempts.
    pub first_aid: u64,
    /// Repair attempts.
    pub repairs: u64,
    /// Opposed tests rolled.
    pub opposed_tests: u64,
    /// Fire tokens placed.
    pub fire_tokens: u64,
    /// Models blinded.
    pub blinded: u64,
    /// Models slowed.
    pub slowed: u64,
    /// Models knocked down by a Knockdown hit.
    pub knocked_down: u64,
    /// Models stunned (AP removed by a Stun hit).
    pub stunned: u64,
    /// Weapons jammed.
    pub jams: u64,
    /// Weapons lost for the game (Finite, or a blundered repair).
    pub weapons_lost: u64,
    /// Models healed.
    pub healed: u64,
    /// Stealthed models revealed.
    pub revealed: u64,
    /// Cavalry models separated into rider and mount.
    pub separations: u64,
}

impl EventCounts {
    /// Count what `action` did, taking the state from `before` to `after`.
    pub fn count(&mut self, action: Action, before: &GameState, after: &GameState) {
        match action {
            Action::React { .. } => self.reactions += 1,
            Action::Firefight { .. } => self.firefights += 1,
            Action::Nested { .. } => self.nested += 1,
            Action::Command { .. } => self.command_orders += 1,
            Action::Interact { kind: InteractKind::FirstAid, .. } => self.first_aid += 1,
            Action::Interact { kind: InteractKind::Repair { .. }, .. } => self.repairs += 1,
            _ => {}
        }
        if let Some(crate::state::Step::Test { opposed: true, .. }) = before.node() {
            self.opposed_tests += 1;
        }
        let kind = |s: &GameState, i: usize| s.profile(i as u8).model_type;
        self.separations += (0..before.models().len())
            .filter(|&i| {
                kind(before, i) == crate::profile::ModelType::Cavalry
                    && kind(after, i) != crate::profile::ModelType::Cavalry
            })
            .count() as u64;
        for (a, b) in before.models().iter().zip(after.models()) {
            self.fire_tokens += b.tokens.fire.saturating_sub(a.tokens.fire) as u64;
            self.blinded += (b.tokens.blind && !a.tokens.blind) as u64;
            self.slowed += (b.tokens.slow_activations > a.tokens.slow_activations) as u64;
            self.jams += (b.jammed & !a.jammed).count_ones() as u64;
            self.weapons_lost += (b.broken & !a.broken).count_ones() as u64;
            self.healed += (b.wounds > a.wounds && b.is_on_table()) as u64;
            self.revealed += (a.tokens.stealth && !b.tokens.stealth) as u64;
            // Knockdown and Stun wait in the model's pending effects until the sequence ends.
            let applied = !a.pending.is_empty() && b.pending.is_empty();
            self.knocked_down += (applied && a.pending.knockdown) as u64;
            self.stunned += (applied && a.pending.stun > 0) as u64;
        }
    }
}
