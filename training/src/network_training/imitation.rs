//! Imitation data for any game: play a game between agents and turn the decisions into
//! training positions, the experts' as policy targets (the action they chose), everyone's as
//! value targets (the game's final return for the player who decided). `tde train` has its
//! own store of TDE's expert games ([`super::expert`]); this is the same idea for a game that
//! only implements [`TensorGame`], such as the dungeon Encounter.

use super::sample::{balance_sides, Sample};
use agents::{Agent, TensorGame, Turn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One game's seats: an agent per player and whether its decisions are imitated.
pub struct Seat<G: TensorGame> {
    /// The agent playing the seat.
    pub agent: Box<dyn Agent<G>>,
    /// Whether its decisions teach the policy (an expert), or only the value (an opponent).
    pub expert: bool,
}

/// Play `start` to the end with `seats` (one per player, in player order), the dice drawn
/// from `dice_seed`, and return every `every`-th decision as a sample: the expert seats'
/// decisions with the chosen action as a one-hot policy target, the others' as value-only
/// samples; each sample's value is the final return of the player who decided (over the
/// game's return bound, so in [-1, 1]), and the two
/// sides weigh the same in the value loss ([`balance_sides`]). Fails on an agent's illegal
/// action or a game that runs past `max_steps`.
pub fn imitation_game<G: TensorGame>(
    start: G,
    seats: &mut [Seat<G>],
    dice_seed: u64,
    every: usize,
    max_steps: usize,
) -> Result<Vec<Sample<G>>, String> {
    if seats.len() != start.num_players() {
        return Err(format!("{} seats for a game of {} players", seats.len(), start.num_players()));
    }
    let every = every.max(1);
    let mut dice = ChaCha8Rng::seed_from_u64(dice_seed);
    let mut state = start;
    let mut kept: Vec<(G, usize, Option<usize>)> = Vec::new();
    let mut decisions = 0usize;
    for _ in 0..max_steps {
        let action = match state.turn() {
            Turn::Terminal => return finish(&state, kept),
            Turn::Chance => state.sample_chance(&mut dice).ok_or("a chance node without outcomes")?,
            Turn::Player(p) => {
                let seat = seats.get_mut(p).ok_or_else(|| format!("no seat for player {p}"))?;
                let action = seat.agent.select_action(&state);
                if decisions.is_multiple_of(every) {
                    let legal = state.legal_actions();
                    let index = legal.iter().position(|&a| a == action).ok_or_else(|| {
                        format!("agent {} chose an action that is not legal", seat.agent.name())
                    })?;
                    kept.push((state.clone(), p, seat.expert.then_some(index)));
                }
                decisions += 1;
                action
            }
        };
        state.apply(action)?;
    }
    Err(format!("the game did not end within {max_steps} steps"))
}

/// The samples of a finished game's kept decisions.
fn finish<G: TensorGame>(end: &G, kept: Vec<(G, usize, Option<usize>)>) -> Result<Vec<Sample<G>>, String> {
    let returns = end.returns();
    let bound = end.return_bound().max(f64::MIN_POSITIVE);
    let mut samples = Vec::with_capacity(kept.len());
    for (state, player, chosen) in kept {
        let value = (returns[player] / bound).clamp(-1.0, 1.0) as f32;
        samples.push(match chosen {
            Some(index) => {
                let mut target = vec![0.0; state.legal_actions().len()];
                target[index] = 1.0;
                Sample::new(state, player, target, value)?
            }
            None => Sample::value_only(state, player, value)?,
        });
    }
    balance_sides(&mut samples);
    Ok(samples)
}
