//! A card box as the active model's TDE actions (seed 003, "Enemy phase" and "Movement
//! (enemy)"): first its move, then its act, each a TDE action of 1 AP.
//!
//! The move goes towards the nearest position where the box's target symbol holds
//! ([`super::targets`]), at most the box's inches (plus an elite `move +N`) along the
//! engine's own movement search: when a position within reach holds the symbol, the model
//! goes there, preferring (in order) the one that meets the symbol best, cover from the
//! nearest enemy, and the shortest walk; otherwise it goes as far towards the nearest such
//! position as it can, preferring cover among equally close cells. A model already where the
//! symbol holds does not move ("stopping if you reach it"); one that must move moves even
//! when staying would keep its cover ("must move if able"). A close-combat box whose target
//! is in reach is one Charge (the move and the attack in one action). A move that gains
//! nothing towards the target is not made: the box's move cannot be done.
//!
//! The act attacks the enemy most disadvantaged by it: the legal shot (or template) or close
//! combat of the highest expected harm, by the scripted player's exact odds.

use super::targets::Judge;
use crate::scripted::act::template_at;
use crate::scripted::estimate::{melee, shot, single, Spot};
use crate::scripted::fields::{Fields, FAR};
use crate::scripted::paths::standing_spec;
use crate::scripted::view::View;
use engine::movement::{reachable, ORTHO};
use engine::state::{ModelId, MoverOccupancy};
use engine::uc::data::{ActionBox, BoxAct, TargetSymbol};
use engine::Action;

/// What to do about a box's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The whole box in one action (a charge).
    Whole(Action),
    /// The box's move; its act follows.
    Move(Action),
    /// No move: already there, or no move can be made; the act follows.
    Stay,
}

/// The move (or charge) of box `bx` for model `m`, `bonus` extra inches.
pub(crate) fn plan(
    view: &View,
    fields: &mut Fields,
    m: ModelId,
    bx: ActionBox,
    bonus: u8,
    legal: &[Action],
) -> Plan {
    let state = view.state;
    let judge = Judge::new(state, m);
    if judge.enemies.is_empty() {
        return Plan::Stay;
    }
    let board = state.board();
    let limit = (bx.inches as u16 + bonus as u16) * ORTHO;
    let mut cost = vec![FAR; board.len()];
    reachable(board, &MoverOccupancy { state, mover: m }, &standing_spec(state, m), |r| {
        cost[r.cell as usize] = r.cost
    });
    let within = |dest: u16| cost.get(dest as usize).is_some_and(|&c| c <= limit);
    if bx.target == TargetSymbol::CloseCombat && bx.act == BoxAct::CloseCombat {
        let best = legal
            .iter()
            .filter_map(|&a| match a {
                Action::Charge { target, weapon, dest } if within(dest) => {
                    let z = board.cell(dest).height;
                    let s = melee(state, m, weapon, target, (dest, z), true);
                    Some((view.strike_value(&s, single(s.attr, view.nf)), a))
                }
                _ => None,
            })
            .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)));
        if let Some((_, a)) = best {
            return Plan::Whole(a);
        }
    }
    let here = Spot::of(state, m);
    if judge.holds(bx.target, here) {
        return Plan::Stay;
    }
    let moves: Vec<u16> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Move { dest, prone: false } if dest != here.cell && within(dest) => Some(dest),
            _ => None,
        })
        .collect();
    if moves.is_empty() {
        return Plan::Stay;
    }
    // A position within reach where the symbol holds: the best of them.
    let holding =
        moves.iter().map(|&d| (d, judge.spot(d))).filter(|&(_, s)| judge.holds(bx.target, s)).max_by_key(
            |&(d, s)| {
                (
                    judge.extra(bx.target, s),
                    judge.in_cover(s),
                    std::cmp::Reverse(cost[d as usize]),
                    std::cmp::Reverse(d),
                )
            },
        );
    if let Some((dest, _)) = holding {
        return Plan::Move(Action::Move { dest, prone: false });
    }
    // Otherwise as far towards the nearest such position as the move goes.
    let Some(field) = judge.approach(fields, bx.target) else { return Plan::Stay };
    let now = field[here.cell as usize];
    let best = moves
        .iter()
        .map(|&d| (d, field[d as usize] / ORTHO))
        .min_by_key(|&(d, inches)| (inches, !judge.in_cover(judge.spot(d)), cost[d as usize], d));
    match best {
        Some((dest, inches)) if field[dest as usize] < now && inches < FAR / ORTHO => {
            Plan::Move(Action::Move { dest, prone: false })
        }
        _ => Plan::Stay,
    }
}

/// The box's act by model `m`: its best attack of that kind, if any is legal.
pub(crate) fn act(view: &View, m: ModelId, act: BoxAct, legal: &[Action]) -> Option<Action> {
    match act {
        BoxAct::Shoot => best_attack(view, m, legal, false, true),
        BoxAct::CloseCombat => best_attack(view, m, legal, true, false),
        BoxAct::Nothing => None,
    }
}

/// Model `m`'s legal attack (close combat when `close`, shots and templates when `ranged`)
/// that harms the enemy most, by expected value.
pub(crate) fn best_attack(
    view: &View,
    m: ModelId,
    legal: &[Action],
    close: bool,
    ranged: bool,
) -> Option<Action> {
    let state = view.state;
    let me = &state.models()[m as usize];
    let here = Spot::of(state, m);
    legal
        .iter()
        .filter_map(|&a| {
            let value = match a {
                Action::CloseCombat { weapon, target } if close => {
                    let s = melee(state, m, weapon, target, (me.cell, me.z), false);
                    view.strike_value(&s, single(s.attr_alone, view.nf))
                }
                Action::Shoot { weapon, target } if ranged => {
                    // A shot the estimate cannot see is still legal: the least wanted.
                    shot(state, m, weapon, target, here, Spot::of(state, target), true)
                        .map_or(0.0, |s| view.strike_value(&s, single(s.attr, view.nf)))
                }
                Action::Template { weapon, at } if ranged => {
                    let v = template_at(view, m, weapon, at);
                    if v <= 0.0 {
                        return None;
                    }
                    v
                }
                _ => return None,
            };
            Some((value, a))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)))
        .map(|(_, a)| a)
}
