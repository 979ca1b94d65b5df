//! Leader Ability Cards as standing special rules (p.74, "Leader Abilities and Leader Ability
//! Cards": "Most of these rules apply to all other members of the Crew which are of the same
//! Faction. In every case, this Special Rule only applies while the leader Model is
//! Conscious"): which models a side's leader card covers at this moment, and the bonus it
//! gives them. Nothing is played or spent: the rule is looked up where it applies, so it is
//! off while the leader is down and on again once First Aid brings the leader back.

use super::model::{ModelId, Side};
use super::GameState;
use crate::cards::{Card, CardKind, Covers, LeaderRule};
use crate::profile::Role;
use std::sync::Arc;

impl GameState {
    /// Side `side`'s leader ability card, if its crew took one (at most one, p.74).
    pub fn leader_card(&self, side: Side) -> Option<&Arc<Card>> {
        self.stat.cards.get(side as usize)?.iter().find(|c| c.kind == CardKind::LeaderAbility)
    }

    /// The side's leader (the model of role Leader: a mounted leader's cavalry model, or its
    /// rider once dismounted) while it is conscious on the table.
    pub fn conscious_leader(&self, side: Side) -> Option<ModelId> {
        self.dyn_
            .models
            .iter()
            .enumerate()
            .find(|(m, model)| {
                model.side == side && model.is_conscious() && self.profile(*m as ModelId).role == Role::Leader
            })
            .map(|(m, _)| m as ModelId)
    }

    /// The leader ability card whose rule covers model `m` now: `m` is a conscious member of
    /// the crew of its leader's faction (other than the leader itself unless the card says
    /// `all_members`), and the leader is conscious. `None` when no rule covers it.
    pub fn leader_rule_covering(&self, m: ModelId) -> Option<&Arc<Card>> {
        let model = self.dyn_.models.get(m as usize)?;
        let card = self.leader_card(model.side)?;
        if !model.is_conscious() {
            return None;
        }
        let leader = self.conscious_leader(model.side)?;
        let covered = match card.covers {
            Covers::OtherMembers => leader != m,
            Covers::AllMembers => true,
        };
        (covered && self.profile(m).faction == self.profile(leader).faction).then_some(card)
    }

    /// Whether a leader card with `rule` covers model `m` now.
    pub fn has_leader_rule(&self, m: ModelId, rule: LeaderRule) -> bool {
        self.leader_rule_covering(m).is_some_and(|card| card.rule == Some(rule))
    }

    /// The bonus `rule` (close combat, marksmanship) gives model `m` now: the card's amount
    /// when a leader card with that rule covers `m`, else 0.
    pub fn leader_bonus(&self, m: ModelId, rule: LeaderRule) -> i32 {
        match self.leader_rule_covering(m) {
            Some(card) if card.rule == Some(rule) => card.amount as i32,
            _ => 0,
        }
    }
}
