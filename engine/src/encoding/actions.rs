//! The policy space: every legal action at a decision gets a distinct index of a fixed space
//! (for a board [`Geometry`]), and a [`Recipe`] that says how a network scores it.
//!
//! Indices are laid out in blocks, by what an action names: single-cell actions are positional
//! channels × cells (move to, deploy at, shoot at, template at, ...); a charge is (destination
//! cell, target model, weapon); a reaction (reactor, combat kind, path point); a nested action
//! (combat kind, target, path point); a firefight (combat kind, reactor); command orders, cards,
//! interactions and grudges their models and kinds; the rest are single indices; Recognise (an
//! ambush marker) comes last, in its own block. Each field
//! has its own slot, so two legal actions never share an index.
//!
//! A network does not need one output per index: it produces [`POLICY_PLANES`] planes over the
//! cells and [`POLICY_GLOBALS`] global logits, and an action's logit is the sum of the (plane,
//! cell) and global terms of its recipe — a reaction scores its reactor's cell and the point of
//! the path it fires at, a charge its destination and its target — so only the legal actions'
//! logits are ever computed (as botbowl does).

use super::{Geometry, MODEL_SLOTS, POINT_SLOTS};
use crate::state::model::MAX_WEAPONS;
use crate::state::{Action, CombatKind, GameState, InteractKind, MAX_SIDES};

/// Number of policy planes a network outputs over the cells.
pub const POLICY_PLANES: usize = 133;
/// Number of global (non-positional) policy logits a network outputs.
pub const POLICY_GLOBALS: usize = 380;

/// Cards a crew may hold, as far as the encoding goes.
const CARD_SLOTS: usize = 16;
/// Scenario markers, as far as the encoding goes.
const MARKER_SLOTS: usize = 16;
/// Board edges and corners a zone choice may name.
const ZONE_SLOTS: usize = 16;
/// Combat kinds: dodge, reveal, then shoot, close combat and template per weapon.
const KINDS: usize = 2 + 3 * MAX_WEAPONS;
/// Interactions: first aid, repair per weapon, then marker, give and take per marker.
const INTERACTS: usize = 1 + MAX_WEAPONS + 3 * MARKER_SLOTS;
/// Actions with nothing to choose between but themselves.
const SINGLETONS: usize = 16;

// Single-cell channels (also the first policy planes).
const S_ACTIVATE: usize = 0;
const S_MOVE: usize = 1;
const S_CRAWL: usize = 2;
const S_DISMOUNT_END: usize = 3;
const S_DISMOUNT_START: usize = 4;
const S_REMOUNT: usize = 5;
const S_DODGE_MOVE: usize = 6;
const S_DEPLOY: usize = 7;
const S_REVEAL: usize = 8;
const S_SHOOT: usize = 9;
const S_TEMPLATE: usize = S_SHOOT + MAX_WEAPONS;
const S_CC: usize = S_TEMPLATE + MAX_WEAPONS;
const SPATIAL: usize = S_CC + MAX_WEAPONS;

// Further policy planes, for actions that name more than one thing.
const P_CHARGE_DEST: usize = SPATIAL;
const P_CHARGE_TARGET: usize = P_CHARGE_DEST + 1;
const P_REACT_BY: usize = P_CHARGE_TARGET + MAX_WEAPONS;
const P_REACT_AT: usize = P_REACT_BY + KINDS;
const P_NESTED: usize = P_REACT_AT + 1;
const P_NESTED_AT: usize = P_NESTED + KINDS;
const P_FIREFIGHT: usize = P_NESTED_AT + 1;
const P_DONOR: usize = P_FIREFIGHT + KINDS;
const P_RECIPIENT: usize = P_DONOR + 1;
const P_CARD_TARGET: usize = P_RECIPIENT + 1;
const P_INTERACT: usize = P_CARD_TARGET + 1;
const P_FALL_AT: usize = P_INTERACT + 5;
const P_GRUDGE_HOLDER: usize = P_FALL_AT + 1;
const P_GRUDGE_TARGET: usize = P_GRUDGE_HOLDER + 1;
const _: () = assert!(P_GRUDGE_TARGET + 1 == POLICY_PLANES);

// Global logits.
const G_SINGLE: usize = 0;
const G_ZONE: usize = G_SINGLE + SINGLETONS;
const G_PLAYER_A: usize = G_ZONE + ZONE_SLOTS;
const G_COMMAND_AP: usize = G_PLAYER_A + MAX_SIDES;
const G_CARD: usize = G_COMMAND_AP + 2;
const G_INTERACT: usize = G_CARD + CARD_SLOTS;
const G_NOMINATE: usize = G_INTERACT + INTERACTS;
const G_GRUDGE_HOLDER: usize = G_NOMINATE + MODEL_SLOTS;
const G_GRUDGE_TARGET: usize = G_GRUDGE_HOLDER + MODEL_SLOTS;
const G_REACT: usize = G_GRUDGE_TARGET + MODEL_SLOTS;
const G_NESTED: usize = G_REACT + KINDS;
const G_FIREFIGHT: usize = G_NESTED + KINDS;
const _: () = assert!(G_FIREFIGHT + KINDS == POLICY_GLOBALS);

/// How a network scores one action: the sum of up to two (policy plane, padded cell) values
/// and up to two global logits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Recipe {
    /// (plane, cell) terms.
    pub spatial: [Option<(u16, u32)>; 2],
    /// Global logit terms.
    pub global: [Option<u16>; 2],
}

impl Recipe {
    fn new(spatial: &[(usize, usize)], global: &[usize]) -> Recipe {
        let mut r = Recipe::default();
        for (slot, &(p, c)) in r.spatial.iter_mut().zip(spatial) {
            *slot = Some((p as u16, c as u32));
        }
        for (slot, &g) in r.global.iter_mut().zip(global) {
            *slot = Some(g as u16);
        }
        r
    }
}

/// An action the encoding cannot place: a field beyond its slots (more models, markers or
/// cards than the encoding supports), or an action that is not a decision.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("action {action} cannot be encoded: {reason}")]
pub struct EncodeError {
    /// The action, in words.
    pub action: String,
    /// Why.
    pub reason: String,
}

/// The policy space of one board size class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicySpace {
    /// The padded board.
    pub geometry: Geometry,
}

/// Block sizes, in layout order.
#[derive(Clone, Copy)]
enum Block {
    Spatial,
    Charge,
    React,
    Nested,
    Firefight,
    Command,
    Card,
    Interact,
    Grudge,
    Nominate,
    FallPoint,
    Zone,
    PlayerA,
    CommandAp,
    Single,
    Recognise,
}

// Recognise comes last so that adding it moved no other action's index.
const BLOCKS: [Block; 16] = [
    Block::Spatial,
    Block::Charge,
    Block::React,
    Block::Nested,
    Block::Firefight,
    Block::Command,
    Block::Card,
    Block::Interact,
    Block::Grudge,
    Block::Nominate,
    Block::FallPoint,
    Block::Zone,
    Block::PlayerA,
    Block::CommandAp,
    Block::Single,
    Block::Recognise,
];

impl PolicySpace {
    /// The policy space of `state`'s board.
    pub fn of(state: &GameState) -> PolicySpace {
        PolicySpace { geometry: Geometry::of(state.board()) }
    }

    fn block_size(&self, b: Block) -> usize {
        let n = self.geometry.cells();
        match b {
            Block::Spatial => SPATIAL * n,
            Block::Charge => n * MODEL_SLOTS * MAX_WEAPONS,
            Block::React => MODEL_SLOTS * KINDS * POINT_SLOTS,
            Block::Nested => KINDS * MODEL_SLOTS * POINT_SLOTS,
            Block::Firefight => KINDS * MODEL_SLOTS,
            Block::Command | Block::Grudge => MODEL_SLOTS * MODEL_SLOTS,
            Block::Card => CARD_SLOTS * MODEL_SLOTS,
            Block::Interact => INTERACTS * MODEL_SLOTS,
            Block::Nominate => MODEL_SLOTS,
            Block::FallPoint => POINT_SLOTS,
            Block::Zone => ZONE_SLOTS,
            Block::PlayerA => MAX_SIDES,
            Block::CommandAp => 2,
            Block::Single => SINGLETONS,
            Block::Recognise => MODEL_SLOTS * crate::uc::MAX_MARKERS,
        }
    }

    fn offset(&self, b: Block) -> usize {
        BLOCKS.iter().take_while(|x| (**x as usize) != b as usize).map(|&x| self.block_size(x)).sum()
    }

    /// Number of indices of the space.
    pub fn size(&self) -> usize {
        BLOCKS.iter().map(|&b| self.block_size(b)).sum()
    }

    /// The index of a legal `action` at `state`'s decision, and its recipe.
    pub fn encode(&self, state: &GameState, action: Action) -> Result<(usize, Recipe), EncodeError> {
        let fail = |reason: &str| EncodeError { action: action.to_string(), reason: reason.to_string() };
        let n = self.geometry.cells();
        let board = state.board();
        let cell = |c: crate::board::CellIdx| self.geometry.cell(board, c);
        let model = |m: u8| -> Result<usize, EncodeError> {
            let slot = m as usize;
            if slot >= MODEL_SLOTS || slot >= state.models().len() {
                return Err(fail("model beyond the encoded model slots"));
            }
            Ok(slot)
        };
        let model_cell = |m: u8| cell(state.models()[m as usize].cell);
        let weapon = |w: u8| -> Result<usize, EncodeError> {
            (w as usize).lt(&MAX_WEAPONS).then_some(w as usize).ok_or_else(|| fail("weapon beyond the slots"))
        };
        let seq = state.dynamic().sequence.as_ref();
        let point = |k: u8| -> Result<(usize, usize), EncodeError> {
            let seq = seq.ok_or_else(|| fail("no action under way"))?;
            if k as usize >= POINT_SLOTS {
                return Err(fail("path point beyond the slots"));
            }
            let c = if k == 0 { seq.origin } else { seq.path.points[k as usize - 1].cell };
            Ok((k as usize, cell(c)))
        };
        let kind = |k: CombatKind| -> Result<usize, EncodeError> {
            Ok(match k {
                CombatKind::Dodge => 0,
                CombatKind::Reveal => 1,
                CombatKind::Shoot { weapon: w } => 2 + weapon(w)?,
                CombatKind::CloseCombat { weapon: w } => 2 + MAX_WEAPONS + weapon(w)?,
                CombatKind::Template { weapon: w } => 2 + 2 * MAX_WEAPONS + weapon(w)?,
            })
        };
        let spatial =
            |ch: usize, c: usize| (self.offset(Block::Spatial) + ch * n + c, Recipe::new(&[(ch, c)], &[]));
        let single = |i: usize| (self.offset(Block::Single) + i, Recipe::new(&[], &[G_SINGLE + i]));
        Ok(match action {
            Action::Chance(_) => return Err(fail("a chance outcome is not a decision")),
            Action::TakeInitiative => single(0),
            Action::GiveInitiative => single(1),
            Action::PassToken => single(2),
            Action::Dodge => single(3),
            Action::EndActivation => single(4),
            Action::NoNested => single(5),
            Action::EndReactions => single(6),
            Action::NoFirefight => single(7),
            Action::NoCommand => single(8),
            Action::NoCard => single(9),
            Action::AllocateRider => single(10),
            Action::AllocateMount => single(11),
            Action::RestBack => single(12),
            Action::Fall => single(13),
            Action::Reserve => single(14),
            Action::LeaveTable => single(15),
            Action::Activate(m) => spatial(S_ACTIVATE, model_cell(model(m)? as u8)),
            Action::Move { dest, prone } => spatial(if prone { S_CRAWL } else { S_MOVE }, cell(dest)),
            Action::Dismount { dest, at_end } => {
                spatial(if at_end { S_DISMOUNT_END } else { S_DISMOUNT_START }, cell(dest))
            }
            Action::Remount { dest } => spatial(S_REMOUNT, cell(dest)),
            Action::DodgeMove(c) => spatial(S_DODGE_MOVE, cell(c)),
            Action::Deploy(c) => spatial(S_DEPLOY, cell(c)),
            Action::Reveal { target } => spatial(S_REVEAL, model_cell(model(target)? as u8)),
            Action::Shoot { weapon: w, target } => {
                spatial(S_SHOOT + weapon(w)?, model_cell(model(target)? as u8))
            }
            Action::Template { weapon: w, at } => spatial(S_TEMPLATE + weapon(w)?, cell(at)),
            Action::CloseCombat { weapon: w, target } => {
                spatial(S_CC + weapon(w)?, model_cell(model(target)? as u8))
            }
            Action::Charge { target, weapon: w, dest } => {
                let (t, w, d) = (model(target)?, weapon(w)?, cell(dest));
                let index = self.offset(Block::Charge) + (d * MODEL_SLOTS + t) * MAX_WEAPONS + w;
                (index, Recipe::new(&[(P_CHARGE_DEST, d), (P_CHARGE_TARGET + w, model_cell(target))], &[]))
            }
            Action::React { model: r, kind: k, point: p } => {
                let (r, k, (p, at)) = (model(r)?, kind(k)?, point(p)?);
                let index = self.offset(Block::React) + (r * KINDS + k) * POINT_SLOTS + p;
                let by = model_cell(r as u8);
                (index, Recipe::new(&[(P_REACT_BY + k, by), (P_REACT_AT, at)], &[G_REACT + k]))
            }
            Action::Nested { kind: k, target, point: p } => {
                let (k, t, (p, at)) = (kind(k)?, model(target)?, point(p)?);
                let index = self.offset(Block::Nested) + (k * MODEL_SLOTS + t) * POINT_SLOTS + p;
                (
                    index,
                    Recipe::new(&[(P_NESTED + k, model_cell(target)), (P_NESTED_AT, at)], &[G_NESTED + k]),
                )
            }
            Action::Firefight { kind: k, reactor } => {
                let (k, r) = (kind(k)?, model(reactor)?);
                let index = self.offset(Block::Firefight) + k * MODEL_SLOTS + r;
                (index, Recipe::new(&[(P_FIREFIGHT + k, model_cell(reactor))], &[G_FIREFIGHT + k]))
            }
            Action::Command { donor, recipient } => {
                let (d, r) = (model(donor)?, model(recipient)?);
                let index = self.offset(Block::Command) + d * MODEL_SLOTS + r;
                (
                    index,
                    Recipe::new(&[(P_DONOR, model_cell(donor)), (P_RECIPIENT, model_cell(recipient))], &[]),
                )
            }
            Action::CommandAp(k) => {
                if !(1..=2).contains(&k) {
                    return Err(fail("a command order moves 1 or 2 AP"));
                }
                let i = k as usize - 1;
                (self.offset(Block::CommandAp) + i, Recipe::new(&[], &[G_COMMAND_AP + i]))
            }
            Action::PlayCard { card, target } => {
                let (c, t) = (card as usize, model(target)?);
                if c >= CARD_SLOTS {
                    return Err(fail("card beyond the slots"));
                }
                let index = self.offset(Block::Card) + c * MODEL_SLOTS + t;
                (index, Recipe::new(&[(P_CARD_TARGET, model_cell(target))], &[G_CARD + c]))
            }
            Action::Interact { kind: InteractKind::Recognise { marker }, target } => {
                // The interaction plane of scenario markers, at the ambush marker's cell.
                let m = marker as usize;
                if m >= crate::uc::MAX_MARKERS {
                    return Err(fail("ambush marker beyond the slots"));
                }
                let t = model(target)?;
                let at = cell(state.dynamic().uc.markers[m].cell);
                (
                    self.offset(Block::Recognise) + t * crate::uc::MAX_MARKERS + m,
                    Recipe::new(&[(P_INTERACT + 2, at)], &[]),
                )
            }
            Action::Interact { kind: k, target } => {
                let marker = |m: u8| {
                    (m as usize)
                        .lt(&MARKER_SLOTS)
                        .then_some(m as usize)
                        .ok_or_else(|| fail("marker beyond the slots"))
                };
                let (group, slot) = match k {
                    InteractKind::FirstAid => (0, 0),
                    InteractKind::Repair { weapon: w } => (1, 1 + weapon(w)?),
                    InteractKind::Marker { marker: m } => (2, 1 + MAX_WEAPONS + marker(m)?),
                    InteractKind::Give { marker: m } => (3, 1 + MAX_WEAPONS + MARKER_SLOTS + marker(m)?),
                    InteractKind::Take { marker: m } => (4, 1 + MAX_WEAPONS + 2 * MARKER_SLOTS + marker(m)?),
                    InteractKind::Recognise { .. } => unreachable!("matched above"),
                };
                let t = model(target)?;
                let index = self.offset(Block::Interact) + slot * MODEL_SLOTS + t;
                (index, Recipe::new(&[(P_INTERACT + group, model_cell(target))], &[G_INTERACT + slot]))
            }
            Action::Grudge { holder, target } => {
                let (h, t) = (model(holder)?, model(target)?);
                let index = self.offset(Block::Grudge) + h * MODEL_SLOTS + t;
                let on_table = |m: u8| state.models()[m as usize].is_on_table();
                let mut cells = Vec::with_capacity(2);
                if on_table(holder) {
                    cells.push((P_GRUDGE_HOLDER, model_cell(holder)));
                }
                if on_table(target) {
                    cells.push((P_GRUDGE_TARGET, model_cell(target)));
                }
                (index, Recipe::new(&cells, &[G_GRUDGE_HOLDER + h, G_GRUDGE_TARGET + t]))
            }
            Action::Nominate(m) => {
                let m = model(m)?;
                (self.offset(Block::Nominate) + m, Recipe::new(&[], &[G_NOMINATE + m]))
            }
            Action::FallPoint(i) => {
                // Fall points are path indices (0 = the path's first point, which is point 1).
                let (k, at) = point(i.saturating_add(1))?;
                (self.offset(Block::FallPoint) + k, Recipe::new(&[(P_FALL_AT, at)], &[]))
            }
            Action::Zone(z) => {
                let z = z as usize;
                if z >= ZONE_SLOTS {
                    return Err(fail("zone beyond the slots"));
                }
                (self.offset(Block::Zone) + z, Recipe::new(&[], &[G_ZONE + z]))
            }
            Action::PlayerA(s) => {
                let s = s as usize;
                if s >= MAX_SIDES {
                    return Err(fail("no such side"));
                }
                (self.offset(Block::PlayerA) + s, Recipe::new(&[], &[G_PLAYER_A + s]))
            }
        })
    }

    /// The index of a legal action (see [`encode`](Self::encode)).
    pub fn index(&self, state: &GameState, action: Action) -> Result<usize, EncodeError> {
        self.encode(state, action).map(|(i, _)| i)
    }

    /// The legal action at `state`'s decision with index `index`, if any.
    pub fn decode(&self, state: &GameState, index: usize) -> Option<Action> {
        state.legal_actions().into_iter().find(|&a| self.index(state, a) == Ok(index))
    }

    /// The indices and recipes of the legal actions at `state`'s decision, in the order of
    /// `state.legal_actions()`, appended to `out`.
    pub fn encode_legal(
        &self,
        state: &GameState,
        legal: &[Action],
        out: &mut Vec<(usize, Recipe)>,
    ) -> Result<(), EncodeError> {
        for &a in legal {
            out.push(self.encode(state, a)?);
        }
        Ok(())
    }
}
