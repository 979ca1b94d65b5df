//! Legal-action generation: what the side to move may do at each decision node.

use super::abilities::interact_options;
use super::action::CombatKind;
use super::actors::{can_activate, has_eligible, other_side};
use super::command::{command_options, may_command};
use super::declare::{actor_pose, reaches, reveal, shot};
use super::move_resolution::pass_budget;
use super::move_resolution::{move_spec, MoverOccupancy};
use super::sequence::{RollRole, Sequence};
use super::sight::Pose;
use super::step::Step;
use super::thinning::{digest, fall_follow, template_follow, wet_follow, ReactionPoint, Thinning, DIGEST};
use super::{Action, GameState, ModelId, Side, Stance};
use crate::movement::{self, MoveSpec, Occupancy, PathPoint, StepKind, ORTHO};

/// Fill `out` with the actions available at the current node, sorted and without duplicates:
/// a chance node's outcomes (the absent side's random choices in a solo game among them), or
/// a decision's options.
pub(super) fn generate(state: &GameState, out: &mut Vec<Action>) {
    let Some(step) = state.node() else { return };
    if step.is_chance() || super::actors::absent_decision(state) {
        let n = state.chance_outcomes().len();
        out.extend((0..n).map(|i| Action::Chance(i as u8)));
    } else {
        decisions(state, out);
    }
}

/// Fill `out` with the options of the decision on top of the stack, sorted and without
/// duplicates.
pub(super) fn decisions(state: &GameState, out: &mut Vec<Action>) {
    let d = state.dynamic();
    let Some(step) = d.steps.last() else { return };
    match step {
        Step::ChooseInitiative(_) => out.extend([Action::TakeInitiative, Action::GiveInitiative]),
        Step::ChooseActivation => {
            for (i, m) in d.models.iter().enumerate() {
                if m.side == d.active && can_activate(m) {
                    out.push(Action::Activate(i as ModelId));
                }
            }
            if d.pass_tokens[d.active as usize] > 0 && has_eligible(state, other_side(d.active)) {
                out.push(Action::PassToken);
            }
        }
        Step::ChooseAction(m) => {
            // Generated in order (the random-play invariants check every list).
            model_actions(state, *m, Want::ALL, out);
            debug_assert!(strictly_ascending(out), "model actions out of order");
            return;
        }
        Step::ChooseNested => {
            out.push(Action::NoNested);
            nested_options(state, out);
        }
        Step::ChooseReaction | Step::ChooseReactionBy(_) => {
            out.push(Action::EndReactions);
            reaction_options(state, reacting_side(state, step), None, false, out, None);
        }
        Step::ChooseFirefight => {
            out.push(Action::NoFirefight);
            firefight_options(state, out);
        }
        Step::ChooseCommand => {
            out.push(Action::NoCommand);
            command_options(state, out);
        }
        Step::ChooseCommandAp { .. } => super::command::amount_options(out),
        Step::ChooseCard { .. } => {
            out.push(Action::NoCard);
            card_options(state, out);
        }
        Step::ChooseAllocation { .. } => out.extend([Action::AllocateRider, Action::AllocateMount]),
        Step::ChooseContinuer { rider, mount } => {
            out.extend([Action::Activate(*rider), Action::Activate(*mount)])
        }
        Step::ChooseMidAir => out.extend([Action::RestBack, Action::Fall]),
        Step::ChooseFallPoint { .. } => {
            let seq = d.sequence.as_ref().expect("sequence");
            let first = seq.path.first_dynamic.unwrap_or(0);
            out.extend((first..seq.path.points.len()).map(|i| Action::FallPoint(i as u8)));
        }
        Step::ChooseDodgeMove { model, budget } => dodge_moves(state, *model, *budget as u16, out),
        Step::Scenario(s) => state.rules().legal(state, s, out),
        Step::Enemy(super::EnemyStep::Place { .. } | super::EnemyStep::PlaceMarker { .. }) => {
            super::spawning::placement_options(state, out)
        }
        _ => {}
    }
    // Any other list is sorted (a stable sort, which merges the ascending runs options come
    // in) and deduplicated, unless it is in order already.
    if !strictly_ascending(out) {
        out.sort();
        out.dedup();
    }
}

/// Which kinds of model action to generate: everything for `legal_actions`, one kind when
/// validating a single action.
#[derive(Clone, Copy)]
pub(super) struct Want {
    /// Standing moves.
    pub moves: bool,
    /// Crawling moves.
    pub crawls: bool,
    /// Shots.
    pub shots: bool,
    /// Charges.
    pub charges: bool,
    /// Interact actions.
    pub interacts: bool,
}

impl Want {
    /// Every kind.
    pub(super) const ALL: Want =
        Want { moves: true, crawls: true, shots: true, charges: true, interacts: true };

    /// Only what is needed to decide whether `action` is legal.
    fn for_action(action: Action) -> Want {
        Want {
            moves: matches!(
                action,
                Action::Move { prone: false, .. }
                    | Action::Dismount { .. }
                    | Action::Remount { .. }
                    | Action::LeaveTable
            ),
            crawls: matches!(action, Action::Move { prone: true, .. }),
            shots: matches!(action, Action::Shoot { .. } | Action::Reveal { .. } | Action::Template { .. }),
            charges: matches!(action, Action::Charge { .. }),
            interacts: matches!(action, Action::Interact { .. }),
        }
    }
}

/// Whether `action` is legal at the current decision node, computing only the kind of action
/// it is (a single movement search for a move or charge).
pub(super) fn is_legal(state: &GameState, action: Action) -> bool {
    with_scratch(|out| is_listed(state, action, out))
}

/// Whether `action` is among the options of its kind at the current decision node (`out`, an
/// empty list, receives them).
fn is_listed(state: &GameState, action: Action, out: &mut Vec<Action>) -> bool {
    match state.node() {
        Some(Step::ChooseAction(m)) => model_actions(state, *m, Want::for_action(action), out),
        Some(step @ (Step::ChooseReaction | Step::ChooseReactionBy(_))) => match action {
            Action::React { model, .. } => {
                reaction_options(state, reacting_side(state, step), Some(model), false, out, None)
            }
            other => return other == Action::EndReactions,
        },
        Some(_) => generate(state, out),
        None => {}
    }
    out.contains(&action)
}

/// The actions of the active model (p.22): move, shoot, dodge, charge, close combat or end.
/// A model in base contact with an enemy may only fight or dodge (p.40).
/// An AI model holds no AP: its options are what its card's box may turn into.
pub(super) fn model_actions(state: &GameState, m: ModelId, want: Want, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    if model.ap == 0 && model.side != crate::uc::AI_SIDE {
        out.push(Action::EndActivation);
        return;
    }
    let profile = state.profile(m);
    // A model in base contact with an enemy may only dodge, fight it or end (p.33).
    let free = state.enemies_in_contact(m).next().is_none();
    // Options are generated in the order of the `Action` variants and, within a variant, in
    // the order of their fields, so that the list needs no sorting (`decisions` checks):
    // crawls and charges, found by their own searches, wait in their own lists.
    reusing(&PENDING, |pending| {
        pending.charges.clear();
        pending.crawls.clear();
        if free {
            // What the end cells of every move below are checked against, gathered once.
            let ends = EndCells::of(state, m);
            let moves_from = out.len();
            if want.moves || want.charges {
                moves_and_charges(state, m, want, &ends, out, &mut pending.charges);
            }
            // Beasts never go prone or crawl voluntarily, cavalry never prone at all (p.61).
            let beast = matches!(
                profile.model_type,
                crate::profile::ModelType::Beast | crate::profile::ModelType::Cavalry
            );
            if want.crawls && !beast && !matches!(model.stance, Stance::Swimming | Stance::Climbing) {
                crawls(state, m, &ends, &mut pending.crawls);
                merge_moves(out, moves_from, &pending.crawls);
            }
            if want.moves && profile.model_type == crate::profile::ModelType::Cavalry {
                dismounts(state, m, &ends, out);
            }
            if want.moves {
                remounts(state, m, out);
            }
            if want.shots {
                shots(state, m, out);
            }
        }
        out.push(Action::Dodge);
        // Found by destination cell; listed by target, weapon and destination.
        pending.charges.sort_unstable();
        out.extend_from_slice(&pending.charges);
    });
    // Close combat: enemies in base contact, or within a Reach(X) weapon's reach (p.53).
    let pose = state.pose(m);
    for (wi, w) in profile.weapons.iter().enumerate() {
        if w.is_ranged() || !model.can_use(wi as u8, w.scarce()) {
            continue;
        }
        for (t, tm) in state.models().iter().enumerate() {
            let t = t as ModelId;
            if tm.side != model.side
                && tm.is_on_table()
                && reaches(state, m, pose, wi as u8, t, state.pose(t))
            {
                out.push(Action::CloseCombat { weapon: wi as u8, target: t });
            }
        }
    }
    if free && want.interacts {
        let from = out.len();
        interact_options(state, m, out);
        out[from..].sort_unstable();
    }
    out.push(Action::EndActivation);
    if free && want.moves && state.rules().may_leave(state, m) {
        out.push(Action::LeaveTable);
    }
}

/// Options found out of their place in the sorted list, kept apart until it is their turn.
#[derive(Default)]
struct Pending {
    /// The charges found along a model's move search.
    charges: Vec<Action>,
    /// Its crawling moves, by destination cell.
    crawls: Vec<Action>,
}

thread_local! {
    /// Reused, so that listing a model's options allocates nothing once warm.
    static PENDING: std::cell::RefCell<Pending> = std::cell::RefCell::new(Pending::default());
}

/// Merge the crawling moves `crawls` into the standing moves `out[from..]`, both by
/// destination cell, so that `out[from..]` lists both by (destination, prone).
fn merge_moves(out: &mut Vec<Action>, from: usize, crawls: &[Action]) {
    let key = |a: &Action| match *a {
        Action::Move { dest, prone } => (dest, prone),
        _ => unreachable!("only moves are merged"),
    };
    // From the back: the larger of the two last items goes to the end of the grown list.
    let (mut i, mut j) = (out.len(), crawls.len());
    out.resize(out.len() + crawls.len(), Action::Dodge);
    let mut end = out.len();
    while j > 0 {
        end -= 1;
        if i > from && key(&out[i - 1]) > key(&crawls[j - 1]) {
            out[end] = out[i - 1];
            i -= 1;
        } else {
            out[end] = crawls[j - 1];
            j -= 1;
        }
    }
}

/// What a move's end cells are checked against, gathered once per listing of a mover's
/// destinations (one bit per cell): the cells other models or ambush markers occupy, and the
/// cells next to a conscious enemy, where base contact with an enemy is possible and the exact
/// test runs. Boards beyond [`EndCells::CELLS`] cells fall back to the exact tests everywhere.
struct EndCells {
    occupied: [u64; EndCells::CELLS / 64],
    near_enemy: [u64; EndCells::CELLS / 64],
    /// The board is too large for the bitsets: ask the occupancy and test contact everywhere.
    exact: bool,
}

impl EndCells {
    // The largest shipped board class, 48"×48".
    const CELLS: usize = 48 * 48;

    fn of(state: &GameState, m: ModelId) -> EndCells {
        let board = state.board();
        let mut cells =
            EndCells { occupied: [0; Self::CELLS / 64], near_enemy: [0; Self::CELLS / 64], exact: false };
        if board.len() > Self::CELLS {
            cells.exact = true;
            return cells;
        }
        let set = |bits: &mut [u64; Self::CELLS / 64], c: u16| bits[c as usize / 64] |= 1 << (c % 64);
        let side = state.models()[m as usize].side;
        for (i, o) in state.models().iter().enumerate() {
            if i as ModelId == m || !o.is_on_table() {
                continue;
            }
            set(&mut cells.occupied, o.cell);
            if o.side == side || !o.is_conscious() {
                continue;
            }
            let (x, y) = board.xy(o.cell);
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                if let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                    set(&mut cells.near_enemy, c);
                }
            }
        }
        // No model may stand on an ambush marker (seed 003, "Ambush markers").
        for (_, marker) in state.dynamic().uc.markers_on_table() {
            set(&mut cells.occupied, marker.cell);
        }
        cells
    }

    /// Another model or an ambush marker is on `cell` (as [`MoverOccupancy::occupied`] says).
    fn occupied(&self, occ: &MoverOccupancy, cell: u16) -> bool {
        if self.exact {
            return occ.occupied(cell);
        }
        self.occupied[cell as usize / 64] & (1 << (cell % 64)) != 0
    }

    fn may_touch_enemy(&self, cell: u16) -> bool {
        self.exact || self.near_enemy[cell as usize / 64] & (1 << (cell % 64)) != 0
    }
}

/// Whether a move to `cell` may end there: free, and not in base contact with an enemy (only
/// a charge may end in base contact, p.33).
fn move_may_end(
    state: &GameState,
    occ: &MoverOccupancy,
    ends: &EndCells,
    m: ModelId,
    cell: u16,
    stays: bool,
) -> bool {
    let side = state.models()[m as usize].side;
    (stays || !ends.occupied(occ, cell))
        && !(ends.may_touch_enemy(cell)
            && state.touches_enemy(side, cell, state.board().cell(cell).height, Some(m)))
}

/// Standing moves and charges share one movement search (p.24, p.33).
fn moves_and_charges(
    state: &GameState,
    m: ModelId,
    want: Want,
    ends: &EndCells,
    out: &mut Vec<Action>,
    charges: &mut Vec<Action>,
) {
    let model = state.models()[m as usize];
    let board = state.board();
    let profile = state.profile(m);
    let occ = MoverOccupancy { state, mover: m };
    let (spec, stance_cost) = move_spec(state, m, false);
    // The models that may be charged, with their columns and rows.
    let mut targets = [(0 as ModelId, 0i32, 0i32); 32];
    let mut n_targets = 0;
    if want.charges {
        for (t, tm) in state.models().iter().enumerate() {
            // A stealthed model may not be charged (p.48).
            if tm.side != model.side && tm.is_conscious() && !tm.tokens.stealth && n_targets < targets.len() {
                let (x, y) = board.xy(tm.cell);
                targets[n_targets] = (t as ModelId, x as i32, y as i32);
                n_targets += 1;
            }
        }
    }
    // Cells reach(X)" plus one away, rounded up to whole cells, bound every close combat.
    let max_reach = profile.weapons.iter().filter_map(|w| w.reach()).max().unwrap_or(0) as i32 + 2;
    movement::reachable(board, &occ, &spec, |r| {
        let stays = r.cell == model.cell && r.cost == 0;
        if want.moves && !(stays && stance_cost == 0) && move_may_end(state, &occ, ends, m, r.cell, stays) {
            out.push(Action::Move { dest: r.cell, prone: false });
        }
        if n_targets == 0 || stays || ends.occupied(&occ, r.cell) {
            return;
        }
        let dest = PathPoint {
            cell: r.cell,
            z: board.cell(r.cell).height,
            cost: r.cost,
            rest: true,
            kind: StepKind::Normal,
        };
        let mut dest_pose = None;
        let (dx, dy) = board.xy(r.cell);
        for &(t, tx, ty) in &targets[..n_targets] {
            // Cheap test first: a target beyond base contact and every reach is skipped.
            if (dx as i32 - tx).abs().max((dy as i32 - ty).abs()) > max_reach {
                continue;
            }
            let dest_pose = *dest_pose.get_or_insert_with(|| state.path_pose(m, &dest, false));
            let tp = state.pose(t);
            for (wi, w) in profile.weapons.iter().enumerate() {
                if !w.is_ranged()
                    && model.can_use(wi as u8, w.scarce())
                    && reaches(state, m, dest_pose, wi as u8, t, tp)
                {
                    charges.push(Action::Charge { target: t, weapon: wi as u8, dest: r.cell });
                }
            }
        }
    });
}

/// Crawling moves: go (or stay) prone and crawl (p.25).
fn crawls(state: &GameState, m: ModelId, ends: &EndCells, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let occ = MoverOccupancy { state, mover: m };
    let (spec, stance_cost) = move_spec(state, m, true);
    movement::reachable(state.board(), &occ, &spec, |r| {
        let stays = r.cell == model.cell && r.cost == 0;
        if !(stays && stance_cost == 0) && move_may_end(state, &occ, ends, m, r.cell, stays) {
            out.push(Action::Move { dest: r.cell, prone: true });
        }
    });
}

/// Shoot actions (p.30): every ranged weapon and enemy target that [`shot`] allows — a usable
/// weapon, sight, range, a target not engaged with a friend of the shooter, and the nearest-
/// target rule when enemies screen it.
fn shots(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    let pose = state.pose(m);
    for (wi, w) in state.profile(m).weapons.iter().enumerate() {
        if !w.is_ranged() {
            continue;
        }
        for t in 0..state.models().len() as ModelId {
            let tm = &state.models()[t as usize];
            if tm.side == state.models()[m as usize].side || !tm.is_on_table() {
                continue;
            }
            if shot(state, m, pose, wi as u8, t, state.pose(t), RollRole::Main, 0).is_some() {
                out.push(Action::Shoot { weapon: wi as u8, target: t });
            }
        }
    }
    // Template weapons are placed at a small set of candidate points (p.51).
    let model = &state.models()[m as usize];
    let mut cells = Vec::new();
    for (wi, w) in state.profile(m).weapons.iter().enumerate() {
        if w.is_ranged() && super::template::template_of(w).is_some() && model.can_use(wi as u8, w.scarce()) {
            cells.clear();
            super::template::placements(state, m, wi as u8, &mut cells);
            cells.sort_unstable();
            out.extend(cells.iter().map(|&at| Action::Template { weapon: wi as u8, at }));
        }
    }
    // The Reveal shoot action needs no weapon (p.49).
    for t in 0..state.models().len() as ModelId {
        let tm = &state.models()[t as usize];
        if tm.side != state.models()[m as usize].side
            && tm.is_conscious()
            && reveal(state, m, pose, t, state.pose(t), RollRole::Main, 0).is_some()
        {
            out.push(Action::Reveal { target: t });
        }
    }
}

/// Dodge-move destinations (p.32): normal or restricted movement within the allowance (or, on
/// Nailed It, 1" of dynamic movement), not into base contact with an enemy (a dodge move may
/// not charge); staying put is allowed.
fn dodge_moves(state: &GameState, m: ModelId, budget: u16, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let board = state.board();
    out.push(Action::DodgeMove(model.cell));
    let occ = MoverOccupancy { state, mover: m };
    let spec = MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: model.stance == Stance::Prone,
        budget_free: budget,
        budget_restricted: budget,
        ignore_terrain: false,
    };
    // Nailed It (a 2" allowance) may instead make 1" of dynamic movement without a test.
    let dynamic_allowance = if budget >= 2 * ORTHO { ORTHO } else { 0 };
    movement::reachable(board, &occ, &spec, |r| {
        if (r.dynamic && r.cost > dynamic_allowance) || occ.occupied(r.cell) {
            return;
        }
        if state.touches_enemy(model.side, r.cell, board.cell(r.cell).height, Some(m)) {
            return;
        }
        out.push(Action::DodgeMove(r.cell));
    });
}

/// Whether an optional declaration step (nested action, reaction, firefight) offers anything
/// besides declining.
pub(super) fn has_declarations(state: &GameState, step: &Step) -> bool {
    if let Step::ChooseCard { .. } = step {
        return with_scratch(|out| {
            card_options(state, out);
            !out.is_empty()
        });
    }
    let d = state.dynamic();
    let Some(seq) = d.sequence.as_ref() else { return false };
    let actor = &d.models[seq.actor as usize];
    if actor.ap == 0 && matches!(step, Step::ChooseNested | Step::ChooseFirefight) {
        return false;
    }
    match step {
        // Dodging is always possible, so there is something to declare whenever the
        // conditions of the step hold.
        Step::ChooseNested => matches!(seq.declared, Action::Move { .. }),
        Step::ChooseFirefight => {
            matches!(seq.declared, Action::Move { .. } | Action::Interact { .. })
                && !seq.has_nested()
                && seq.rolls.iter().any(|r| r.role == RollRole::Reaction && r.attacks(seq.actor))
        }
        Step::ChooseReaction | Step::ChooseReactionBy(_) => with_scratch(|out| {
            reaction_options(state, reacting_side(state, step), None, true, out, None);
            !out.is_empty()
        }),
        Step::ChooseCommand => {
            if !may_command(state, seq) {
                return false;
            }
            with_scratch(|out| {
                command_options(state, out);
                !out.is_empty()
            })
        }
        _ => false,
    }
}

thread_local! {
    /// An option list for the questions asked of a node (is this legal, is there anything to
    /// declare), reused so that asking allocates nothing once warm.
    static SCRATCH: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Run `f` with an empty reused option list.
fn with_scratch<R>(f: impl FnOnce(&mut Vec<Action>) -> R) -> R {
    reusing(&SCRATCH, |out| {
        out.clear();
        f(out)
    })
}

/// Run `f` with the buffers kept in `slot` for this thread; they are taken out while `f` runs,
/// so a nested call simply starts with fresh (empty) ones.
fn reusing<T: Default, R>(
    slot: &'static std::thread::LocalKey<std::cell::RefCell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut buffers = slot.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let result = f(&mut buffers);
    slot.with(|c| *c.borrow_mut() = buffers);
    result
}

/// Whether `options` is sorted with no duplicates, as every option list must be.
pub(crate) fn strictly_ascending(options: &[Action]) -> bool {
    options.windows(2).all(|w| w[0] < w[1])
}

/// Nested actions (p.28): one shoot or dodge at a point of the move's path, for one more AP.
fn nested_options(state: &GameState, out: &mut Vec<Action>) {
    let seq = state.dynamic().sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let model = state.models()[actor as usize];
    if model.ap == 0 || !matches!(seq.declared, Action::Move { .. }) {
        return;
    }
    let budget = pass_budget(state, seq);
    let profile = state.profile(actor);
    let mut thin = Thinning::new();
    for k in seq.action_points() {
        let pose = actor_pose(state, seq, k);
        let class = seq.reach_class(k, budget);
        if thin.first((actor, actor, CombatKind::Dodge, class, 0, false, false, 0)) {
            out.push(Action::Nested { kind: CombatKind::Dodge, target: actor, point: k });
        }
        if state.touches_enemy(model.side, pose.cell, pose.z, Some(actor)) {
            continue; // in base contact a model may only fight or dodge
        }
        for (wi, w) in profile.weapons.iter().enumerate() {
            if !w.is_ranged() {
                continue;
            }
            for (t, tm) in state.models().iter().enumerate() {
                let t = t as ModelId;
                if tm.side == model.side || !tm.is_on_table() {
                    continue;
                }
                // A template is a Shoot Action (p.51), so it may be nested too, placed over an
                // enemy model as the main action's templates are.
                if super::template::template_of(w).is_some() {
                    let mover_at = Some((actor, pose.cell, pose.z));
                    if model.can_use(wi as u8, w.scarce())
                        && super::template::placement_ok(state, actor, pose, wi as u8, tm.cell, mover_at)
                    {
                        let roll = super::declare::template_roll(state, actor, pose, wi as u8, tm.cell, k);
                        if thin.first((actor, t, roll.kind, class, roll.attr, roll.pass_range, false, 0)) {
                            out.push(Action::Nested { kind: roll.kind, target: t, point: k });
                        }
                    }
                    continue;
                }
                if let Some(roll) = shot(state, actor, pose, wi as u8, t, state.pose(t), RollRole::Nested, k)
                {
                    if thin.first((
                        actor,
                        t,
                        roll.kind,
                        class,
                        roll.attr,
                        roll.pass_range,
                        roll.hard_cover,
                        0,
                    )) {
                        out.push(Action::Nested { kind: roll.kind, target: t, point: k });
                    }
                }
            }
        }
    }
}

/// The side reacting at a reaction step: the player named, or the active model's opponent.
pub(super) fn reacting_side(state: &GameState, step: &Step) -> Side {
    match step {
        Step::ChooseReactionBy(s) => *s,
        _ => {
            let d = state.dynamic();
            other_side(d.models[d.sequence.as_ref().expect("sequence").actor as usize].side)
        }
    }
}

/// Reactions (p.36): each model of the reacting side with an AP, once per action, with a
/// combat action at a point of the active model's action where it sees it. Damaging reactions
/// target the active model; models in base contact with an enemy may only fight or dodge;
/// against a charge, models other than its target may fight or dodge only if the charge ends
/// in base contact with them.
///
/// `only` restricts the options to one reacting model; `first` stops as soon as
/// one option is known (for callers that ask only whether there is any);
/// `all`, when given, receives every reaction at every point, thinned away or not.
pub(super) fn reaction_options(
    state: &GameState,
    reacting: Side,
    only: Option<ModelId>,
    first: bool,
    out: &mut Vec<Action>,
    mut all: Option<&mut Vec<ReactionPoint>>,
) {
    let d = state.dynamic();
    let seq = d.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let budget = pass_budget(state, seq);
    let last = *seq.action_points().end();
    let charge_target = match seq.declared {
        Action::Charge { target, .. } => Some(target),
        _ => None,
    };
    // The active model's blow, if it strikes one model: (target, weapon).
    let blow = match seq.declared {
        Action::Charge { target, weapon, .. } | Action::CloseCombat { target, weapon } => {
            Some((target, weapon))
        }
        _ => None,
    };
    // The start and every path point (24 in place, as the path keeps them).
    let poses: crate::inline_vec::InlineVec<Pose, 25> =
        seq.action_points().map(|k| actor_pose(state, seq, k)).collect();
    // What follows a reaction at each point besides the reactor's own test (ruling 147).
    let (falls, wet) = if first {
        (Default::default(), Default::default())
    } else {
        (fall_follow(state, seq, budget), wet_follow(state, seq))
    };
    for (r, rm) in d.models.iter().enumerate() {
        let r = r as ModelId;
        if rm.side != reacting
            || !rm.is_conscious()
            || (rm.ap == 0 && rm.side != crate::uc::AI_SIDE)
            || seq.has_reacted(r)
            || only.is_some_and(|o| o != r)
        {
            continue;
        }
        let rp = state.pose(r);
        // In contact with an enemy other than the mover: engaged at every point.
        let engaged_elsewhere = state.enemies_in_contact(r).any(|e| e != actor);
        let profile = state.profile(r);
        let mut thin = Thinning::new();
        for k in seq.action_points() {
            if first && !out.is_empty() {
                return;
            }
            let pose = poses[k as usize];
            let class = seq.reach_class(k, budget);
            // What follows here: the worst fall the reacting side may still choose, and for
            // attacks the mover's firefight answers and whether water puts out a Fire hit.
            let fall = if first { 0 } else { falls[k as usize] };
            let answered =
                if first { 0 } else { digest(digest(DIGEST, fall), answers_digest(state, seq, r, k)) };
            let attack = |fire: bool| digest(answered, u64::from(fire && !first && wet[k as usize]));
            let contact = super::sight::cells_touch(state, rp.cell, rp.z, pose.cell, pose.z);
            // "Models which are in Base to Base Contact with an enemy Model may only perform a CC
            // or Dodge Action" (p.40): also where the mover touches the reactor at this point.
            let engaged = engaged_elsewhere || contact;
            // A stealthed active model can be revealed by a model that would see it (p.49).
            if !engaged {
                if let Some(roll) = reveal(state, r, rp, actor, pose, RollRole::Reaction, k) {
                    let action = Action::React { model: r, kind: CombatKind::Reveal, point: k };
                    let key =
                        (r, actor, roll.kind, class, roll.attr, roll.pass_range, roll.hard_cover, answered);
                    if thin.offer(key, action, &mut all) {
                        out.push(action);
                    }
                }
            }
            let sees = contact || state.sight_between(r, rp, actor, pose).is_some();
            if !sees {
                continue; // a reactor needs sight of the active model at its point (p.36)
            }
            // A charge lets bystanders fight or dodge only where it ends in contact with them.
            let may_fight = charge_target.is_none_or(|t| t == r || k == last);
            let dodge_ok = charge_target.is_none() || (may_fight && (charge_target == Some(r) || contact));
            if first && dodge_ok {
                // Asked only whether there is any reaction: a dodge is one.
                out.push(Action::React { model: r, kind: CombatKind::Dodge, point: k });
                return;
            }
            if !engaged {
                // A template reaction is placed over the active model where it reacts (p.51).
                for (wi, w) in profile.weapons.iter().enumerate() {
                    let kind = CombatKind::Template { weapon: wi as u8 };
                    if w.is_ranged()
                        && super::template::template_of(w).is_some()
                        && rm.can_use(wi as u8, w.scarce())
                        && super::template::placement_ok(
                            state,
                            r,
                            rp,
                            wi as u8,
                            pose.cell,
                            Some((actor, pose.cell, pose.z)),
                        )
                        && thin.offer(
                            (
                                r,
                                actor,
                                kind,
                                class,
                                0,
                                false,
                                false,
                                template_follow(state, r, rp, wi as u8, pose, k, attack(w.fire() > 0)),
                            ),
                            Action::React { model: r, kind, point: k },
                            &mut all,
                        )
                    {
                        out.push(Action::React { model: r, kind, point: k });
                    }
                }
                for (wi, w) in profile.weapons.iter().enumerate() {
                    if !w.is_ranged() {
                        continue;
                    }
                    if let Some(roll) = shot(state, r, rp, wi as u8, actor, pose, RollRole::Reaction, k) {
                        let action = Action::React { model: r, kind: roll.kind, point: k };
                        let follow = attack(w.fire() > 0);
                        let key =
                            (r, actor, roll.kind, class, roll.attr, roll.pass_range, roll.hard_cover, follow);
                        if thin.offer(key, action, &mut all) {
                            out.push(action);
                        }
                    }
                }
            }
            let dodge = Action::React { model: r, kind: CombatKind::Dodge, point: k };
            if dodge_ok
                && thin.offer((r, actor, CombatKind::Dodge, class, 0, false, false, fall), dodge, &mut all)
            {
                out.push(dodge);
            }
            if may_fight {
                // "The Enemy Model may react as normal, but if they react with a CC Action they
                // will be unable to cause Damage unless they too have Reach" (p.53): the target
                // of a blow that reaches it may fight back from beyond its own reach.
                let struck =
                    blow.is_some_and(|(t, w)| t == r && k == last && reaches(state, actor, pose, w, r, rp));
                for (wi, w) in profile.weapons.iter().enumerate() {
                    let kind = CombatKind::CloseCombat { weapon: wi as u8 };
                    if !w.is_ranged()
                        && rm.can_use(wi as u8, w.scarce())
                        && (struck || reaches(state, r, rp, wi as u8, actor, pose))
                        && thin.offer(
                            (r, actor, kind, class, 0, false, false, attack(w.fire() > 0)),
                            Action::React { model: r, kind, point: k },
                            &mut all,
                        )
                    {
                        out.push(Action::React { model: r, kind, point: k });
                    }
                }
            }
        }
    }
}

/// Firefights (p.38): against a reaction (a shot or close combat) to its move, the active
/// model may spend an AP on a combat action against that reactor — shoot it, fight it, or
/// dodge — at the reaction's point. Not after a nested action, and only one per action.
fn firefight_options(state: &GameState, out: &mut Vec<Action>) {
    let seq = state.dynamic().sequence.as_ref().expect("sequence");
    if !may_firefight(state, seq) {
        return;
    }
    let actor = seq.actor;
    for reaction in seq.rolls.iter().filter(|r| r.role == RollRole::Reaction && r.attacks(actor)) {
        firefight_answers(state, seq, reaction.model, reaction.point, |action, _| out.push(action));
    }
}

/// Whether the active model may answer a reaction with a firefight (p.38): it has an AP, its
/// action is a move or an interaction, and it declared no nested action.
fn may_firefight(state: &GameState, seq: &Sequence) -> bool {
    state.dynamic().models[seq.actor as usize].ap > 0
        && matches!(seq.declared, Action::Move { .. } | Action::Interact { .. })
        && !seq.has_nested()
}

/// The active model's firefights against reactor `r` reacting at point `point` (p.38): a dodge,
/// a template placed over the reactor, a shot at it, a blow that reaches it; each with its test
/// (`None` for the dodge and blows, whose tests do not depend on the point).
fn firefight_answers(
    state: &GameState,
    seq: &Sequence,
    r: ModelId,
    point: u8,
    mut each: impl FnMut(Action, Option<super::sequence::CombatRoll>),
) {
    let actor = seq.actor;
    let model = state.dynamic().models[actor as usize];
    let profile = state.profile(actor);
    let pose = actor_pose(state, seq, point);
    let rp = state.pose(r);
    each(Action::Firefight { kind: CombatKind::Dodge, reactor: r }, None);
    let engaged = state.touches_enemy(model.side, pose.cell, pose.z, Some(actor));
    for (wi, w) in profile.weapons.iter().enumerate() {
        let weapon = wi as u8;
        if w.is_ranged() && super::template::template_of(w).is_some() {
            // A template firefight is placed over the reactor (p.51).
            let mover_at = Some((actor, pose.cell, pose.z));
            if !engaged
                && model.can_use(weapon, w.scarce())
                && super::template::placement_ok(state, actor, pose, weapon, rp.cell, mover_at)
            {
                let roll = super::declare::template_roll(state, actor, pose, weapon, rp.cell, point);
                each(Action::Firefight { kind: CombatKind::Template { weapon }, reactor: r }, Some(roll));
            }
        } else if w.is_ranged() {
            if engaged {
                continue;
            }
            if let Some(roll) = shot(state, actor, pose, weapon, r, rp, RollRole::Firefight, point) {
                each(Action::Firefight { kind: CombatKind::Shoot { weapon }, reactor: r }, Some(roll));
            }
        } else if model.can_use(weapon, w.scarce()) && reaches(state, actor, pose, weapon, r, rp) {
            each(Action::Firefight { kind: CombatKind::CloseCombat { weapon }, reactor: r }, None);
        }
    }
}

/// A digest of the active model's firefight answers to reactor `r` reacting at `point`: which
/// it may declare and each one's test there (0 when it may declare none).
fn answers_digest(state: &GameState, seq: &Sequence, r: ModelId, point: u8) -> u64 {
    if !may_firefight(state, seq) {
        return 0;
    }
    let mut h = DIGEST;
    firefight_answers(state, seq, r, point, |action, roll| {
        if let Action::Firefight { kind, .. } = action {
            let (k, w) = match kind {
                CombatKind::Shoot { weapon } => (1, weapon),
                CombatKind::Template { weapon } => (2, weapon),
                CombatKind::CloseCombat { weapon } => (3, weapon),
                CombatKind::Reveal => (4, 0),
                CombatKind::Dodge => (5, 0),
            };
            h = digest(h, (k << 8) | w as u64);
        }
        if let Some(roll) = roll {
            h = digest(h, (roll.attr as u64) << 2 | (roll.pass_range as u64) << 1 | roll.hard_cover as u64);
        }
    });
    h
}

/// Cards the side may play now (p.74): its unused effect cards of the step's timing; a
/// start-of-turn AP for one of its conscious models, a re-roll for the model that just tested.
/// A leader ability card is never played: it is a standing rule (`leader_rule`).
fn card_options(state: &GameState, out: &mut Vec<Action>) {
    let d = state.dynamic();
    let Some(Step::ChooseCard { side, timing, test }) = d.steps.last() else { return };
    let Some(cards) = state.static_data().cards.get(*side as usize) else { return };
    for (i, card) in cards.iter().enumerate() {
        if card.timing != Some(*timing) || d.cards_used[*side as usize] & (1 << i) != 0 {
            continue;
        }
        match test {
            Some((model, ..)) => out.push(Action::PlayCard { card: i as u8, target: *model }),
            None => {
                for (m, model) in d.models.iter().enumerate() {
                    if model.side == *side && model.is_conscious() {
                        out.push(Action::PlayCard { card: i as u8, target: m as ModelId });
                    }
                }
            }
        }
    }
}

/// Dismounting moves of a cavalry model (p.58): standing moves at −2/−2, the rider separating
/// at the start or at the end of the path (the separation points offered, docs/rulings.md).
fn dismounts(state: &GameState, m: ModelId, ends: &EndCells, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let occ = MoverOccupancy { state, mover: m };
    let (spec, _) = super::declare::dismount_spec(state, m);
    movement::reachable(state.board(), &occ, &spec, |r| {
        let stays = r.cell == model.cell && r.cost == 0;
        if move_may_end(state, &occ, ends, m, r.cell, stays) {
            if !stays {
                out.push(Action::Dismount { dest: r.cell, at_end: false });
            }
            out.push(Action::Dismount { dest: r.cell, at_end: true });
        }
    });
}

/// Remounting moves of a dismounted rider (p.60): a standing move at −1/−1 ending in base
/// contact with its conscious mount.
fn remounts(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let Some(mount) = model.partner else { return };
    let mm = state.models()[mount as usize];
    if !mm.is_conscious() || state.profile(m).model_type == crate::profile::ModelType::Beast {
        return;
    }
    let occ = MoverOccupancy { state, mover: m };
    let (spec, _) = super::declare::speed_penalty_spec(state, m, 1);
    let board = state.board();
    movement::reachable(board, &occ, &spec, |r| {
        let stays = r.cell == model.cell && r.cost == 0;
        let z = board.cell(r.cell).height;
        let touches_mount = super::sight::cells_touch(state, r.cell, z, mm.cell, mm.z);
        if touches_mount && (stays || !occ.occupied(r.cell)) {
            out.push(Action::Remount { dest: r.cell });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawls_merge_into_moves_by_destination_then_stance() {
        let walk = |dest| Action::Move { dest, prone: false };
        let crawl = |dest| Action::Move { dest, prone: true };
        let mut out = vec![Action::EndActivation, walk(2), walk(5), walk(9)];
        merge_moves(&mut out, 1, &[crawl(1), crawl(5), crawl(7), crawl(12)]);
        assert_eq!(
            out,
            [Action::EndActivation, crawl(1), walk(2), walk(5), crawl(5), crawl(7), walk(9), crawl(12)]
        );
        let mut only_crawls = vec![];
        merge_moves(&mut only_crawls, 0, &[crawl(3), crawl(4)]);
        assert_eq!(only_crawls, [crawl(3), crawl(4)]);
    }
}
