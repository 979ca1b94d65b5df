//! Exact expected outcomes of the options at a decision node, over the rest of the current
//! action sequence: the first brick of the reaction-timing study.
//!
//! For each legal option the state is copied, the option applied, and every chance node is
//! enumerated with its exact probability until the action sequence ends. Decisions met on the
//! way are taken by a fixed, documented default: no further reactions, no nested action, no
//! firefight, no command order, no card, resting back rather than falling, the first fall point, and staying put on a
//! dodge move — so each option is valued on its own.

use crate::state::{Action, GameState, Player, Side, Step};
use serde::Serialize;

/// Expected results of one option, from the point of view of the side choosing it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionValue {
    /// The option.
    pub action: Action,
    /// Probability that the active model is hit (takes damage) during the sequence.
    pub p_active_hit: f64,
    /// Probability that the active model is down or taken out when the sequence ends.
    pub p_active_down: f64,
    /// Expected wounds lost by the other side's models.
    pub expected_wounds_dealt: f64,
    /// Expected wounds lost by the choosing side's models.
    pub expected_wounds_taken: f64,
    /// Expected AP spent by the choosing side (net of feat AP and refunds).
    pub expected_ap_spent: f64,
    /// Expected AP spent by the other side.
    pub expected_opponent_ap_spent: f64,
    /// Number of chance outcomes enumerated.
    pub leaves: u64,
}

/// Why an analysis could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The state is at a chance node or terminal.
    #[error("no side is choosing here ({0})")]
    NotADecision(String),
    /// Enumeration would take too long.
    #[error("more than {0} outcomes to enumerate")]
    TooLarge(u64),
}

/// The most chance outcomes one option may enumerate.
pub const MAX_LEAVES: u64 = 5_000_000;

/// Value every legal option of the side to move.
pub fn analyze(state: &GameState) -> Result<(Side, Vec<OptionValue>), AnalysisError> {
    let side = deciding_side(state)?;
    let mut out = Vec::new();
    for action in state.legal_actions() {
        let mut s = state.clone();
        s.apply_action(action).expect("legal action applies");
        out.push(value_from(state, side, action, &s)?);
    }
    Ok((side, out))
}

/// The side choosing at `state`, or why none is.
pub fn deciding_side(state: &GameState) -> Result<Side, AnalysisError> {
    match state.current_player() {
        Player::Side(side) => Ok(side),
        _ => Err(AnalysisError::NotADecision(state.describe_node())),
    }
}

/// The value for `side` of `action` taken at `start`, from `from`: a state reached from `start`
/// by taking `action` (and possibly later decisions of the same sequence). The rest of the
/// sequence is enumerated ([`for_each_outcome`]) with the default decisions, and results are
/// counted from `start`.
pub fn value_from(
    start: &GameState,
    side: Side,
    action: Action,
    from: &GameState,
) -> Result<OptionValue, AnalysisError> {
    value_within(start, side, action, from, MAX_LEAVES)
}

/// [`value_from`] with at most `max_leaves` outcomes enumerated (refused beyond them), for a
/// caller that answers at once only where the enumeration is small.
pub fn value_within(
    start: &GameState,
    side: Side,
    action: Action,
    from: &GameState,
    max_leaves: u64,
) -> Result<OptionValue, AnalysisError> {
    let active = start.dynamic().sequence.as_ref().map(|s| s.actor).or(start.dynamic().activating);
    let mut acc = Acc::default();
    let active = from.dynamic().sequence.as_ref().map(|q| q.actor).or(active);
    // The active model is hit when an armour roll of its was made on the way.
    let armour_on_active = |s: &GameState| {
        matches!(s.current_player(), Player::Chance)
            && matches!(s.node(), Some(Step::Armour { model, .. }) if Some(*model) == active)
    };
    for_each_outcome(from, max_leaves, &mut default_decision, &mut |end, p, trail| {
        let hit = trail.is_some_and(|t| t.states().any(armour_on_active));
        acc.leaf(start, end, side, active, p, hit);
    })?;
    Ok(OptionValue {
        action,
        p_active_hit: acc.hit,
        p_active_down: acc.down,
        expected_wounds_dealt: acc.dealt,
        expected_wounds_taken: acc.taken,
        expected_ap_spent: acc.ap,
        expected_opponent_ap_spent: acc.opp_ap,
        leaves: acc.leaves,
    })
}

/// What the outcomes of one option add up to.
#[derive(Default)]
struct Acc {
    hit: f64,
    down: f64,
    dealt: f64,
    taken: f64,
    ap: f64,
    opp_ap: f64,
    leaves: u64,
}

impl Acc {
    #[allow(clippy::too_many_arguments)]
    fn leaf(
        &mut self,
        start: &GameState,
        end: &GameState,
        side: Side,
        active: Option<u8>,
        p: f64,
        hit: bool,
    ) {
        self.leaves += 1;
        for (i, (a, b)) in start.models().iter().zip(end.models()).enumerate() {
            let lost = a.wounds.saturating_sub(b.wounds) as f64;
            let spent = a.ap as f64 - b.ap as f64;
            if a.side == side {
                self.taken += p * lost;
                self.ap += p * spent;
            } else {
                self.dealt += p * lost;
                self.opp_ap += p * spent;
            }
            if Some(i as u8) == active && !b.is_conscious() {
                self.down += p;
            }
        }
        if hit {
            self.hit += p;
        }
    }
}

/// The states on the way from where an enumeration started to one of its outcomes, each with
/// the action taken there (a chance outcome or a decision).
pub struct Trail<'a> {
    /// The latest state on the way.
    pub state: &'a GameState,
    /// The action taken at it.
    pub action: Action,
    /// The way to it, `None` at the state the enumeration started from.
    pub up: Option<&'a Trail<'a>>,
}

impl<'a> Trail<'a> {
    /// The states on the way, the latest first, back to the one the enumeration started from.
    pub fn states(&self) -> impl Iterator<Item = &'a GameState> + '_ {
        self.steps().map(|(s, _)| s)
    }

    /// The states on the way with the action taken at each, the latest first.
    pub fn steps(&self) -> impl Iterator<Item = (&'a GameState, Action)> + '_ {
        std::iter::successors(Some(self), |t| t.up).map(|t| (t.state, t.action))
    }
}

/// Every way the rest of the action sequence under way at `from` can go: every chance node
/// enumerated with its exact probability, every decision on the way taken by `decide`, until
/// the sequence ends or the game does. `visit` gets each end state, its probability and the
/// states on the way to it (`None` when `from` itself is the end). Returns the number of
/// outcomes; refused when there are more than `max_leaves`.
pub fn for_each_outcome(
    from: &GameState,
    max_leaves: u64,
    decide: &mut dyn FnMut(&GameState) -> Action,
    visit: &mut dyn FnMut(&GameState, f64, Option<&Trail>),
) -> Result<u64, AnalysisError> {
    for_each_outcome_until(from, max_leaves, decide, &mut |_, _| false, visit)
}

/// [`for_each_outcome`] for a figure that is known before the sequence ends (the result of
/// one test, say): a state where `settled(state, way)` holds is an outcome of its own, visited
/// with its probability (that of every way on from it, counted whole) and followed no
/// further. What `visit` reads off the way to such a state must be what it would read off
/// every end below it; the count returned is of outcomes visited.
pub fn for_each_outcome_until(
    from: &GameState,
    max_leaves: u64,
    decide: &mut dyn FnMut(&GameState) -> Action,
    settled: &mut dyn FnMut(&GameState, Option<&Trail>) -> bool,
    visit: &mut dyn FnMut(&GameState, f64, Option<&Trail>),
) -> Result<u64, AnalysisError> {
    let mut walk = Walk { leaves: 0, max_leaves, decide, settled, visit };
    walk.from(from, 1.0, None)?;
    Ok(walk.leaves)
}

/// The depth-first enumeration of [`for_each_outcome_until`].
struct Walk<'d, 's, 'v> {
    leaves: u64,
    max_leaves: u64,
    decide: &'d mut dyn FnMut(&GameState) -> Action,
    settled: &'s mut dyn FnMut(&GameState, Option<&Trail>) -> bool,
    visit: &'v mut dyn FnMut(&GameState, f64, Option<&Trail>),
}

impl Walk<'_, '_, '_> {
    fn from(&mut self, s: &GameState, p: f64, up: Option<&Trail>) -> Result<(), AnalysisError> {
        if self.leaves > self.max_leaves {
            return Err(AnalysisError::TooLarge(self.max_leaves));
        }
        let player = s.current_player();
        if s.dynamic().sequence.is_none()
            || s.is_terminal()
            || player == Player::Terminal
            || (self.settled)(s, up)
        {
            self.leaves += 1;
            (self.visit)(s, p, up);
            return Ok(());
        }
        match player {
            Player::Chance => {
                for (action, q) in s.chance_outcomes() {
                    let mut next = s.clone();
                    next.apply_action(action).expect("chance outcome applies");
                    self.from(&next, p * q, Some(&Trail { state: s, action, up }))?;
                }
                Ok(())
            }
            _ => {
                let action = (self.decide)(s);
                let mut next = s.clone();
                next.apply_action(action).expect("a decision among the legal actions applies");
                self.from(&next, p, Some(&Trail { state: s, action, up }))
            }
        }
    }
}

/// The fixed choice for decisions inside the analysed sequence (see the module docs).
pub fn default_decision(s: &GameState) -> Action {
    let legal = s.legal_actions();
    let prefer = [
        Action::EndReactions,
        Action::NoNested,
        Action::NoFirefight,
        Action::NoCommand,
        Action::NoCard,
        Action::RestBack,
    ];
    if let Some(&a) = prefer.iter().find(|a| legal.contains(a)) {
        return a;
    }
    if let Some(Step::ChooseDodgeMove { model, .. }) = s.node() {
        let stay = Action::DodgeMove(s.models()[*model as usize].cell);
        if legal.contains(&stay) {
            return stay;
        }
    }
    legal[0]
}
