//! The named terms the scripted player adds up to score an action, and the weights that scale
//! them.
//!
//! Every score of a decision the scripted player weighs is a sum of these terms, each
//! multiplied by its weight where it enters the sum. With every weight 1 (the
//! [`TermWeights::SCRIPTED`] the scripted player uses) the product leaves each term exactly as it
//! is, so the scores are those of the hand-written player to the last bit. Terms added later
//! (see [`Term::is_added`]) weigh 0 there, so the hand-written player never computes them. Other weights give
//! the learned player ([`crate::learned`]), whose weights policy iteration fits. A score is
//! linear in the weights, so a term's value for an action is the score's change per unit of
//! its weight (what [`crate::learned::features`] measures).
//!
//! Options the player never takes score [`NEVER`]; [`TermWeights::weigh`] leaves
//! such sentinels alone, so no weight can turn a forbidden option into a good one.

/// Score for options never worth taking (kept legal as a last resort).
pub const NEVER: f64 = -1.0e6;

/// One named term of the scripted player's scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// Progress toward the model's goal at the cell it ends on.
    Progress,
    /// Cover of the cell it ends on.
    Cover,
    /// Ending in water.
    Water,
    /// Expected harm the enemies can do to the model where it ends.
    Risk,
    /// Best attack the model will have from where it ends, with AP left.
    Fire,
    /// Value of AP kept for reactions while enemies are still to act.
    Keep,
    /// An attack's expected value if the target does not oppose it.
    AttackAlone,
    /// An attack's expected value if the target dodges, shoots or fights back.
    AttackOpposed,
    /// A template's expected hits, enemies less friends.
    Template,
    /// A reveal's chance of uncovering a stealthed enemy.
    Reveal,
    /// Dodging in the model's own activation (a carrier slipping out of combat).
    Dodge,
    /// Objective points of an Interact (markers, first aid, repair, ambush markers).
    Objective,
    /// Leaving the table with a prize.
    Leave,
    /// Crawling prone.
    Crawl,
    /// Progress lost when a climb or leap on the way falls short.
    Shortfall,
    /// Activation order: the model's best attack from where it stands.
    ActivateAttack,
    /// Activation order: the model has an objective task.
    ActivateTask,
    /// Activation order: danger where the model stands.
    ActivateDanger,
    /// Activation order: AP the model holds.
    ActivateAp,
    /// Activation order: a leader that can give orders goes first.
    ActivateLeader,
    /// A reaction's expected gain: harm done and harm prevented.
    ReactValue,
    /// A reaction's cost: the AP it spends.
    ReactCost,
    /// A nested action's cost: what the AP would buy after the move.
    NestedSpare,
    /// A firefight's expected gain.
    FirefightValue,
    /// A firefight's cost: the AP it spends.
    FirefightSpare,
    /// A command order's expected AP moved to a better use.
    CommandGain,
    /// A command order's risk: the donor's AP lost on a blunder.
    CommandCost,
    /// A card's expected gain (AP where they are worth most, a re-roll that matters).
    CardValue,
    /// Holding an AP card for later in the game.
    CardHold,
    /// Standing near a friend or objective the enemy threatens (a leader in Assassinate, a
    /// prize carrier, a marker carrier, a held objective). An added term: the hand-written
    /// player gives it weight 0.
    Guard,
    /// Reacting late along a mover's path (the share of the path behind it, less a half). An
    /// added term, weight 0 in the hand-written player; with [`Term::ReactEarly`] it sets
    /// when along a move a reaction is best, beyond the odds at each point.
    ReactLate,
    /// Reacting early along a mover's path (a half less the share of the path behind it). An
    /// added term, weight 0 in the hand-written player.
    ReactEarly,
}

/// Number of terms.
pub const TERMS: usize = 32;

impl Term {
    /// Every term, in order (its index is its place in a weight vector).
    pub const ALL: [Term; TERMS] = [
        Term::Progress,
        Term::Cover,
        Term::Water,
        Term::Risk,
        Term::Fire,
        Term::Keep,
        Term::AttackAlone,
        Term::AttackOpposed,
        Term::Template,
        Term::Reveal,
        Term::Dodge,
        Term::Objective,
        Term::Leave,
        Term::Crawl,
        Term::Shortfall,
        Term::ActivateAttack,
        Term::ActivateTask,
        Term::ActivateDanger,
        Term::ActivateAp,
        Term::ActivateLeader,
        Term::ReactValue,
        Term::ReactCost,
        Term::NestedSpare,
        Term::FirefightValue,
        Term::FirefightSpare,
        Term::CommandGain,
        Term::CommandCost,
        Term::CardValue,
        Term::CardHold,
        Term::Guard,
        Term::ReactLate,
        Term::ReactEarly,
    ];

    /// The term's name in weights files (snake case).
    pub fn name(self) -> &'static str {
        match self {
            Term::Progress => "progress",
            Term::Cover => "cover",
            Term::Water => "water",
            Term::Risk => "risk",
            Term::Fire => "fire",
            Term::Keep => "keep",
            Term::AttackAlone => "attack_alone",
            Term::AttackOpposed => "attack_opposed",
            Term::Template => "template",
            Term::Reveal => "reveal",
            Term::Dodge => "dodge",
            Term::Objective => "objective",
            Term::Leave => "leave",
            Term::Crawl => "crawl",
            Term::Shortfall => "shortfall",
            Term::ActivateAttack => "activate_attack",
            Term::ActivateTask => "activate_task",
            Term::ActivateDanger => "activate_danger",
            Term::ActivateAp => "activate_ap",
            Term::ActivateLeader => "activate_leader",
            Term::ReactValue => "react_value",
            Term::ReactCost => "react_cost",
            Term::NestedSpare => "nested_spare",
            Term::FirefightValue => "firefight_value",
            Term::FirefightSpare => "firefight_spare",
            Term::CommandGain => "command_gain",
            Term::CommandCost => "command_cost",
            Term::CardValue => "card_value",
            Term::CardHold => "card_hold",
            Term::Guard => "guard",
            Term::ReactLate => "react_late",
            Term::ReactEarly => "react_early",
        }
    }

    /// Whether the term was added to the hand-written player's own: it weighs 0 in
    /// [`TermWeights::SCRIPTED`], and a weights file written before it may leave it out.
    pub const fn is_added(self) -> bool {
        matches!(self, Term::Guard | Term::ReactLate | Term::ReactEarly)
    }

    /// The weight the hand-written player gives the term: 1, or 0 for an added term.
    pub const fn scripted_weight(self) -> f64 {
        if self.is_added() {
            0.0
        } else {
            1.0
        }
    }

    /// The term called `name`, if any.
    pub fn from_name(name: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A weight for every term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TermWeights(pub [f64; TERMS]);

impl Default for TermWeights {
    fn default() -> Self {
        TermWeights::SCRIPTED
    }
}

impl TermWeights {
    /// The hand-written scripted player: every weight 1 but the added terms' 0
    /// ([`Term::scripted_weight`]).
    pub const SCRIPTED: TermWeights = {
        let mut w = [0.0; TERMS];
        let mut k = 0;
        while k < TERMS {
            w[k] = Term::ALL[k].scripted_weight();
            k += 1;
        }
        TermWeights(w)
    };

    /// The weight of `term`.
    pub fn get(&self, term: Term) -> f64 {
        self.0[term as usize]
    }

    /// `value` scaled by the weight of `term`; a value at or below half of
    /// [`NEVER`] (an option never to take) is left as it is.
    pub fn weigh(&self, term: Term, value: f64) -> f64 {
        if value <= NEVER / 2.0 {
            value
        } else {
            self.0[term as usize] * value
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_indices_follow_the_order() {
        for (i, t) in Term::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
            assert_eq!(Term::from_name(t.name()), Some(t));
        }
        assert_eq!(Term::from_name("nope"), None);
    }

    #[test]
    fn the_scripted_weights_are_one_but_for_added_terms() {
        for t in Term::ALL {
            assert_eq!(TermWeights::SCRIPTED.get(t), t.scripted_weight());
        }
        assert_eq!(TermWeights::SCRIPTED.get(Term::Guard), 0.0);
        assert_eq!(TermWeights::SCRIPTED.get(Term::Progress), 1.0);
    }

    #[test]
    fn unit_weights_leave_values_exact_and_never_stays_never() {
        let x = 0.1 + 0.2;
        assert_eq!(TermWeights::SCRIPTED.weigh(Term::Risk, x).to_bits(), x.to_bits());
        let mut w = TermWeights::SCRIPTED;
        w.0[Term::Leave as usize] = -3.0;
        assert_eq!(w.weigh(Term::Leave, NEVER), NEVER);
        assert_eq!(w.weigh(Term::Leave, 2.0), -6.0);
    }
}
