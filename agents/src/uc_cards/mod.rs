//! The Ulaya Chronicles action-card AI playing a TDE crew (agent spec `uc-cards`, seed 003
//! "Enemy phase", "Movement (enemy)", "Reactions vs enemy movement" and "The Drowned Earth
//! Conversion"), so that the arena can rate the card AI against the other agents.
//!
//! - **Activation order**: UC resolves enemies left to right, top to bottom breaking ties:
//!   among the models it may activate, the one standing in the leftmost column (lowest x),
//!   then the topmost row (lowest y, as `tde` draws the board). It never discards a pass
//!   token while a model can activate.
//! - **Activation**: the model draws a card from its role's deck ([`deck`]: one draw pile per
//!   side and role, reshuffled at each new turn, drawn with the agent's seeded generator)
//!   and resolves its boxes in order as TDE actions ([`boxes`]): each box's move (towards
//!   the position its target symbol names, [`targets`]) and then its act, one AP each (a
//!   charge does both for one), skipping a part that cannot be done; the activation ends
//!   when the card is done, or earlier when the AP run out. An elite model (the leader) also
//!   resolves the card's elite effect: `move +N` lengthens each box's move by N", `damage
//!   +N` gives up to N more attacks after the boxes (close combat first, else a shot) with
//!   AP left, `heal N` a First Aid on the most wounded friend in reach with AP left. Before
//!   its boxes the model takes a scenario interaction worth it by the scripted player's
//!   values (controlling an objective, picking up a prize or an unknown marker, leaving the
//!   table with a prize): UC players interact with objects in contact, and the cards know no
//!   objectives.
//! - **Reactions and firefights**: by the UC reaction rules ([`reactions`]), to the other
//!   crew's actions and to AI dinosaurs' alike (AI models are enemies of both crews).
//! - **Everything else** (deployment and scenario set-up, initiative, command orders, cards,
//!   re-rolls, damage allocation, falls, dodge moves): the scripted player's choice.
//!
//! The agent is deterministic for a seed. Its only state is the draw piles and the card in
//! hand; asked to play a position it did not play into (search, determinization), it draws
//! a fresh card for the active model and goes on from there, and every action it returns is
//! one of the legal actions.

mod boxes;
pub mod deck;
mod reactions;
mod targets;

use crate::scripted::fields::Fields;
use crate::scripted::view::View;
use crate::spec::{Args, Param};
use crate::{Agent, ScriptedAgent};
use deck::{is_elite, CrewDecks, CrewRole, Piles};
use engine::state::{InteractKind, ModelId, Player, Side, Step};
use engine::uc::data::EliteEffect;
use engine::{Action, GameState};
use std::sync::Arc;

/// The card drawn for the active model and how far it is resolved.
#[derive(Clone, Copy, Debug)]
struct Hand {
    side: Side,
    model: ModelId,
    turn: u8,
    role: CrewRole,
    /// Index of the card in the role's deck.
    card: usize,
    /// The next box to resolve.
    next: usize,
    /// The next box's move is done: its act is next.
    moved: bool,
    /// Elite extras taken.
    extras: u8,
}

/// The UC card AI as a crew player.
pub struct UcCardsAgent {
    decks: Arc<CrewDecks>,
    piles: Piles,
    hand: Option<Hand>,
    scripted: ScriptedAgent,
    fields: Fields,
    buf: Vec<Action>,
    name: String,
}

impl UcCardsAgent {
    /// A card AI drawing from `decks`, seeded; `name` is its spec.
    pub fn new(decks: Arc<CrewDecks>, seed: u64, name: String) -> UcCardsAgent {
        UcCardsAgent {
            decks,
            piles: Piles::new(seed),
            hand: None,
            scripted: ScriptedAgent::new(seed ^ 0x5c1f_7ed0),
            fields: Fields::default(),
            buf: Vec::new(),
            name,
        }
    }

    /// The parameters a `uc-cards` spec takes.
    pub const PARAMS: [Param; 1] =
        [Param::path("decks", "another crew deck file (default: the shipped one)")];

    /// Build from a `uc-cards` spec's checked parameters (see [`UcCardsAgent::PARAMS`]).
    pub fn from_args(args: &Args, seed: u64) -> Result<UcCardsAgent, String> {
        let decks = match args.text("decks") {
            Some(p) => CrewDecks::load(std::path::Path::new(p)),
            None => CrewDecks::shipped(),
        }
        .map_err(|e| e.to_string())?;
        Ok(UcCardsAgent::new(Arc::new(decks), seed, args.source().to_string()))
    }

    /// The model to activate: leftmost, then topmost.
    fn activation(&self, state: &GameState) -> Option<Action> {
        let board = state.board();
        self.buf
            .iter()
            .filter_map(|&a| match a {
                Action::Activate(m) => {
                    let (x, y) = board.xy(state.models()[m as usize].cell);
                    Some(((x, y, m), a))
                }
                _ => None,
            })
            .min_by_key(|&(k, _)| k)
            .map(|(_, a)| a)
    }

    /// The active model's next action, by its card.
    fn action(&mut self, state: &GameState, side: Side, m: ModelId) -> Action {
        let end = if self.buf.contains(&Action::EndActivation) { Action::EndActivation } else { self.buf[0] };
        let turn = state.turn();
        let mut hand = match self.hand {
            Some(h) if h.side == side && h.model == m && h.turn == turn => h,
            _ => {
                let role = CrewRole::of(state, m);
                let card = self.piles.draw(side, role, turn, self.decks.deck(role).cards.len());
                Hand { side, model: m, turn, role, card, next: 0, moved: false, extras: 0 }
            }
        };
        let view = View::new(state, side);
        let legal = &self.buf;
        let card =
            &self.decks.deck(hand.role).cards[hand.card.min(self.decks.deck(hand.role).cards.len() - 1)];
        let elite = if is_elite(state, m) { card.elite } else { None };
        let chosen = if let Some(a) = scenario_action(&view, m, legal) {
            a
        } else {
            loop {
                let Some(&bx) = card.boxes.get(hand.next) else {
                    break elite_extra(&view, m, elite, &mut hand, legal).unwrap_or(end);
                };
                if hand.moved {
                    hand.next += 1;
                    hand.moved = false;
                    // An act with nothing to act on turns to an active ambush marker in reach.
                    match boxes::act(&view, m, bx.act, legal).or_else(|| recognise(state, legal)) {
                        Some(a) => break a,
                        None => continue,
                    }
                }
                let bonus = match elite {
                    Some(EliteEffect::Move(n)) => n,
                    _ => 0,
                };
                match boxes::plan(&view, &mut self.fields, m, bx, bonus, legal) {
                    boxes::Plan::Whole(a) => {
                        hand.next += 1;
                        break a;
                    }
                    boxes::Plan::Move(a) => {
                        hand.moved = true;
                        break a;
                    }
                    boxes::Plan::Stay => hand.moved = true,
                }
            }
        };
        self.hand = Some(hand);
        chosen
    }
}

/// A scenario interaction worth more than half a victory point, if any.
fn scenario_action(view: &View, m: ModelId, legal: &[Action]) -> Option<Action> {
    use crate::scripted::act::{interact_value, leave_value};
    legal
        .iter()
        .filter_map(|&a| match a {
            Action::LeaveTable => Some((leave_value(view, m), a)),
            Action::Interact { kind: kind @ InteractKind::Marker { .. }, target } => {
                Some((interact_value(view, m, kind, target), a))
            }
            _ => None,
        })
        .filter(|&(v, _)| v > 0.5)
        .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)))
        .map(|(_, a)| a)
}

/// Recognise an active ambush marker (its enemy would spring on the crew; recognised, it
/// comes out confused), the first one legal, if any.
fn recognise(state: &GameState, legal: &[Action]) -> Option<Action> {
    legal.iter().copied().find(|a| match a {
        Action::Interact { kind: InteractKind::Recognise { marker }, .. } => {
            state.dynamic().uc.markers[*marker as usize].active
        }
        _ => false,
    })
}

/// The elite effect's extra action after the boxes, if any.
fn elite_extra(
    view: &View,
    m: ModelId,
    elite: Option<EliteEffect>,
    hand: &mut Hand,
    legal: &[Action],
) -> Option<Action> {
    let a = match elite? {
        EliteEffect::Damage(n) if hand.extras < n => boxes::best_attack(view, m, legal, true, false)
            .or_else(|| boxes::best_attack(view, m, legal, false, true))?,
        EliteEffect::Heal(_) if hand.extras == 0 => {
            let state = view.state;
            let lost = |t: ModelId| {
                let tm = &state.models()[t as usize];
                (!tm.is_conscious(), state.profile(t).wounds.saturating_sub(tm.wounds))
            };
            legal
                .iter()
                .filter_map(|&a| match a {
                    Action::Interact { kind: InteractKind::FirstAid, target }
                        if lost(target) > (false, 0) =>
                    {
                        Some((lost(target), a))
                    }
                    _ => None,
                })
                .max_by_key(|&(l, a)| (l, std::cmp::Reverse(a)))?
                .1
        }
        _ => return None,
    };
    hand.extras += 1;
    Some(a)
}

impl Agent<GameState> for UcCardsAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        state.legal_actions_into(&mut self.buf);
        let Player::Side(side) = state.current_player() else { return self.buf[0] };
        let step = state.node().cloned();
        if self.buf.len() == 1 && !matches!(step, Some(Step::ChooseAction(_))) {
            return self.buf[0];
        }
        let chosen = match step {
            Some(Step::ChooseActivation | Step::ChooseContinuer { .. }) => self.activation(state),
            Some(Step::ChooseAction(m)) => Some(self.action(state, side, m)),
            Some(Step::ChooseReaction | Step::ChooseReactionBy(_)) => {
                Some(reactions::react(state, &View::new(state, side), &self.buf))
            }
            Some(Step::ChooseFirefight) => {
                Some(reactions::firefight(&View::new(state, side), &mut self.fields, &self.buf))
            }
            Some(Step::ChooseNested) if self.buf.contains(&Action::NoNested) => Some(Action::NoNested),
            _ => None,
        };
        match chosen {
            Some(a) if self.buf.contains(&a) => a,
            _ => self.scripted.select_action(state),
        }
    }
}
