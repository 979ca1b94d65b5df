//! The crew's choices inside other models' actions, by the UC reaction rules (seed 003,
//! "Enemy reactions vs movement", "Shoot (player)", "Close combat (player)"):
//! - a model attacked answers: shot at, it shoots back if it can, else dodges; attacked in
//!   close combat (or charged), it fights back if it can, else dodges;
//! - a model not attacked reacts to a movement entering its reaction range: a shooter (and a
//!   leader with a gun) shoots when the mover comes within its weapon's pass range, a
//!   brawler or beast (and a leader without a gun) fights when the mover comes within reach;
//!   no other reactions (nor to shots at other models: UC enemies react to movement only);
//! - as the mover, it answers each reaction that attacks it the same way (a firefight:
//!   shoot or fight back, else dodge), and never nests a shot in its move (its boxes shoot
//!   after moving).
//!
//! Among the reactions the rules allow, the point of the mover's path and the weapon are the
//! ones most disadvantageous to the mover, by the scripted player's estimates; models react
//! one at a time until no allowed reaction is left.

use super::deck::{shoots, CrewRole};
use crate::scripted::fields::Fields;
use crate::scripted::respond::{attack_on, score_firefights, score_reactions};
use crate::scripted::view::View;
use engine::state::{CombatKind, ModelId, Sequence};
use engine::{Action, GameState};

/// Whether `kind` attacks (a shot or close combat).
fn attacks(kind: CombatKind) -> bool {
    matches!(kind, CombatKind::Shoot { .. } | CombatKind::CloseCombat { .. })
}

/// The best allowed option by `scores`, if any.
fn best(legal: &[Action], scores: &[f64], allowed: impl Fn(Action) -> bool) -> Option<Action> {
    legal
        .iter()
        .zip(scores)
        .filter(|(&a, s)| allowed(a) && !s.is_nan())
        .max_by(|x, y| x.1.total_cmp(y.1).then(y.0.cmp(x.0)))
        .map(|(&a, _)| a)
}

/// The answer of the reacting side at a ChooseReaction node.
pub(crate) fn react(state: &GameState, view: &View, legal: &[Action]) -> Action {
    let stop = if legal.contains(&Action::EndReactions) { Action::EndReactions } else { legal[0] };
    let Some(seq) = state.dynamic().sequence.as_ref() else { return stop };
    let mut scores = Vec::with_capacity(legal.len());
    score_reactions(view, legal, &mut scores);
    let can = |r: ModelId, f: fn(CombatKind) -> bool| {
        legal.iter().any(|&a| matches!(a, Action::React { model, kind, .. } if model == r && f(kind)))
    };
    let allowed = |a: Action| {
        let Action::React { model: r, kind, point } = a else { return false };
        match attack_on(view, seq, r) {
            Some(strike) => {
                let back: fn(CombatKind) -> bool = if strike.ranged {
                    |k| matches!(k, CombatKind::Shoot { .. })
                } else {
                    |k| matches!(k, CombatKind::CloseCombat { .. })
                };
                back(kind) || (kind == CombatKind::Dodge && !can(r, back))
            }
            None => seq.has_path() && movement_reaction(state, seq, r, kind, point),
        }
    };
    best(legal, &scores, allowed).unwrap_or(stop)
}

/// Whether reactor `r` reacts with `kind` to the mover at `point` of its path.
fn movement_reaction(state: &GameState, seq: &Sequence, r: ModelId, kind: CombatKind, point: u8) -> bool {
    let gunner = match CrewRole::of(state, r) {
        CrewRole::Shooter => true,
        CrewRole::Leader => shoots(state, r),
        CrewRole::Brawler | CrewRole::Beast => false,
    };
    match kind {
        CombatKind::Shoot { weapon } if gunner => {
            let Some((pass, _)) = state.profile(r).weapons.get(weapon as usize).and_then(|w| w.range) else {
                return false;
            };
            let (cell, z) = match point.checked_sub(1).and_then(|k| seq.path.points.get(k as usize)) {
                Some(p) => (p.cell, p.z),
                None => {
                    let am = &state.models()[seq.actor as usize];
                    (am.cell, am.z)
                }
            };
            let rm = &state.models()[r as usize];
            state.board().edge_distance(rm.cell, rm.z, cell, z) <= pass as f32
        }
        CombatKind::CloseCombat { .. } => !gunner,
        _ => false,
    }
}

/// The mover's answer at a ChooseFirefight node.
pub(crate) fn firefight(view: &View, fields: &mut Fields, legal: &[Action]) -> Action {
    let stop = if legal.contains(&Action::NoFirefight) { Action::NoFirefight } else { legal[0] };
    let mut scores = Vec::with_capacity(legal.len());
    score_firefights(view, fields, legal, &mut scores);
    let can_answer = |r: ModelId| {
        legal
            .iter()
            .any(|&a| matches!(a, Action::Firefight { kind, reactor } if reactor == r && attacks(kind)))
    };
    // Only reactions that attack the mover are answered (the scripted estimate rules out
    // the others).
    let allowed = |i: usize| match legal[i] {
        Action::Firefight { kind, reactor } => {
            scores[i] > crate::scripted::act::NEVER / 2.0
                && (attacks(kind) || (kind == CombatKind::Dodge && !can_answer(reactor)))
        }
        _ => false,
    };
    (0..legal.len())
        .filter(|&i| allowed(i))
        .max_by(|&x, &y| scores[x].total_cmp(&scores[y]).then(legal[y].cmp(&legal[x])))
        .map_or(stop, |i| legal[i])
}
