//! Players for the TDE engine. Every agent picks one of the legal actions at a decision node;
//! chance nodes are resolved by the game driver ([`play`]) with its own seeded dice, so that a
//! game is reproducible from its seeds.

mod greedy;
mod random;

pub use greedy::GreedyAgent;
pub use random::RandomAgent;

use engine::record::GameRecord;
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A player: chooses an action for the side to move.
pub trait Agent: Send {
    /// Short name with parameters, e.g. `random`.
    fn name(&self) -> String;
    /// Choose one of `state.legal_actions()`; called only at decision nodes.
    fn select_action(&mut self, state: &GameState) -> Action;
}

/// Build an agent from its name, seeded.
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    match spec {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "greedy" => Ok(Box::new(GreedyAgent::new(seed))),
        other => Err(format!("unknown agent `{other}` (available: random, greedy)")),
    }
}

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The final state.
    pub state: GameState,
    /// Number of decisions taken.
    pub decisions: u32,
    /// Number of chance events resolved.
    pub chance_events: u32,
}

/// Play `state` to the end. `agents[s]` plays side `s`; dice come from `dice_seed`. Each
/// applied action is appended to `record` when given, and `observe` sees every state after
/// each step.
pub fn play(
    mut state: GameState,
    agents: &mut [Box<dyn Agent>],
    dice_seed: u64,
    mut record: Option<&mut GameRecord>,
    mut observe: impl FnMut(&GameState, Action),
) -> GameSummary {
    let mut dice = ChaCha8Rng::seed_from_u64(dice_seed);
    loop {
        let action = match state.current_player() {
            Player::Terminal => break,
            Player::Chance => state.sample_chance(&mut dice).expect("chance node has outcomes"),
            Player::Side(s) => agents[s as usize].select_action(&state),
        };
        state.apply_action(action).unwrap_or_else(|e| panic!("agent chose an illegal action: {e}"));
        if let Some(r) = record.as_deref_mut() {
            r.actions.push(action);
        }
        observe(&state, action);
    }
    if let Some(r) = record {
        r.final_hash = engine::record::format_hash(state.state_hash());
    }
    let d = state.dynamic();
    GameSummary { decisions: d.decisions, chance_events: d.chance_events, state }
}
