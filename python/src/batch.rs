//! Many games of one set-up stepped together, for vectorised environments: one call applies
//! an action in each game, rolls the dice and lets the built-in opponent play up to the
//! learner's next decision, restarts the games that ended, and writes every game's
//! observation and legal actions into flat buffers (no Python loop over the games).

use crate::core::{TdeAgent, TdeState};
use engine::encoding::Recipe;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Who plays against the learner in each game.
pub enum Opponents {
    /// A built-in agent per game, from this spec; the learner plays side `learner`.
    Agent {
        /// The agent spec (`random`, `scripted`, `mcts:iters=50`, ...).
        spec: String,
        /// The learner's side: 0 (A) or 1 (B).
        learner: u8,
    },
    /// Nobody: the learner decides for whichever side is to act (self-play).
    SelfPlay,
}

/// The legal actions of every game after a step: game `i`'s are
/// `indices[offsets[i]..offsets[i + 1]]`, ascending, with their recipes alongside.
#[derive(Clone, Debug, Default)]
pub struct LegalActions {
    /// Where each game's actions start in `indices` (one more entry than games).
    pub offsets: Vec<usize>,
    /// Policy indices, game after game.
    pub indices: Vec<usize>,
    /// Each action's recipe, aligned with `indices`.
    pub recipes: Vec<Recipe>,
}

/// One game of a batch with its own dice and opponent.
struct Slot {
    game: TdeState,
    rng: ChaCha8Rng,
    opponent: Option<TdeAgent>,
}

impl Slot {
    /// The player whose observation the game gives and who decides next: the learner's side
    /// (`learner`), or in self-play (`None`) the side to decide.
    fn observer(&self, learner: Option<u8>) -> i64 {
        match learner {
            Some(side) => side as i64,
            None => self.game.current_player().max(0) as i64,
        }
    }

    /// Roll the dice and let the opponent play until the learner decides or the game ends.
    fn advance(&mut self, learner: Option<u8>) -> Result<(), String> {
        loop {
            let player = self.game.current_player();
            let learner_decides = player >= 0 && learner.is_none_or(|side| player == side as i32);
            if self.game.is_terminal() || learner_decides {
                return Ok(());
            }
            let index = if self.game.is_chance_node() {
                let u: f64 = self.rng.gen();
                self.game.chance_outcome_for(u)?.ok_or("a chance node without outcomes")?
            } else {
                self.opponent.as_mut().ok_or("no opponent to play")?.step(&self.game)?
            };
            self.game.apply(index)?;
        }
    }

    /// Apply the learner's legal `action`, play on, and restart from `start` if the game
    /// ended; the return of the side that moved when it did.
    fn step(&mut self, action: usize, learner: Option<u8>, start: &TdeState) -> Result<Option<f32>, String> {
        let mover = self.observer(learner) as usize;
        self.game.apply(action)?;
        self.advance(learner)?;
        if !self.game.is_terminal() {
            return Ok(None);
        }
        let reward = self.game.returns().get(mover).copied().unwrap_or(0.0) as f32;
        self.game = start.clone();
        self.advance(learner)?;
        Ok(Some(reward))
    }
}

/// N games of one set-up, each with its own seeded dice (and opponent), stepped in parallel
/// (rayon; each game draws only from its own generators, so the results do not depend on the
/// threads).
pub struct Batch {
    start: TdeState,
    /// The opponents' spec (`None` in self-play).
    spec: Option<String>,
    /// The learner's side against an opponent; `None` in self-play.
    learner: Option<u8>,
    slots: Vec<Slot>,
    /// Games finished since the batch was built.
    pub episodes: u64,
    /// Decisions applied since the batch was built (the learner's only).
    pub steps: u64,
}

/// Game `i`'s opponent for a batch seeded with `seed`.
fn opponent(spec: &Option<String>, i: usize, seed: u64) -> Result<Option<TdeAgent>, String> {
    spec.as_deref().map(|spec| TdeAgent::new(spec, seed.wrapping_add(i as u64))).transpose()
}

/// Game `i`'s generator for a batch seeded with `seed`.
fn game_rng(seed: u64, i: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

impl Batch {
    /// `n` games starting from `start` (a fresh game), against `opponents`, seeded with `seed`
    /// (game `i`'s dice and opponent draw from their own generators).
    pub fn new(start: TdeState, n: usize, opponents: Opponents, seed: u64) -> Result<Batch, String> {
        if n == 0 {
            return Err("games: at least 1".into());
        }
        let (spec, learner) = match opponents {
            Opponents::SelfPlay => (None, None),
            Opponents::Agent { spec, learner } => {
                start.check_player(learner as i64).map_err(|e| format!("side: {e}"))?;
                (Some(spec), Some(learner))
            }
        };
        let mut batch = Batch { start, spec, learner, slots: Vec::with_capacity(n), episodes: 0, steps: 0 };
        for i in 0..n {
            let slot = Slot {
                game: batch.start.clone(),
                rng: game_rng(seed, i),
                opponent: opponent(&batch.spec, i, seed)?,
            };
            batch.slots.push(slot);
        }
        batch.reset(seed)?;
        Ok(batch)
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch has no game (never: a batch has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Game `i` as it stands (at a decision of the learner's).
    pub fn game(&self, i: usize) -> Option<&TdeState> {
        self.slots.get(i).map(|s| &s.game)
    }

    /// Restart every game from the set-up, with generators and opponents seeded anew from
    /// `seed`: a batch reset with a seed plays as one built with it.
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.rng = game_rng(seed, i);
            slot.opponent = opponent(&self.spec, i, seed)?;
            slot.game = self.start.clone();
        }
        let learner = self.learner;
        self.slots.par_iter_mut().try_for_each(|slot| slot.advance(learner))
    }

    /// The player whose observation game `i` gives: the learner's side, or in self-play the
    /// side to decide.
    pub fn observer(&self, i: usize) -> i64 {
        self.slots[i].observer(self.learner)
    }

    /// Apply `actions[i]` in game `i` (each a legal policy index there), then play each game
    /// on to the learner's next decision. A game that ends is restarted at once: its entry in
    /// `rewards` is its return for the side that moved (the learner's side against an
    /// opponent) and in `ended` true. An illegal action is refused, naming the game, before
    /// any game changes.
    pub fn step(&mut self, actions: &[usize], rewards: &mut [f32], ended: &mut [bool]) -> Result<(), String> {
        let n = self.slots.len();
        if actions.len() != n || rewards.len() != n || ended.len() != n {
            return Err(format!("actions: one per game ({n}), got {}", actions.len()));
        }
        for (i, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            slot.game.action_of(action).map_err(|e| format!("actions[{i}]: {e}"))?;
        }
        let (learner, start) = (self.learner, &self.start);
        self.slots
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(rewards.par_iter_mut().zip(ended.par_iter_mut()))
            .try_for_each(|((slot, &action), (reward, end))| {
                let result = slot.step(action, learner, start)?;
                *reward = result.unwrap_or(0.0);
                *end = result.is_some();
                Ok::<(), String>(())
            })?;
        self.steps += n as u64;
        self.episodes += ended.iter().filter(|&&e| e).count() as u64;
        Ok(())
    }

    /// Every game's observation (of [`observer`](Self::observer)), game after game, into
    /// `out` (`len() × observation length` floats). (`&mut`: the games are visited in
    /// parallel, and their opponents may be sent between threads but not shared.)
    pub fn observe_into(&mut self, out: &mut [f32]) -> Result<(), String> {
        let len = self.start.observation_len();
        if out.len() != len * self.slots.len() {
            return Err(format!("observations: a buffer of {} floats for {}", out.len(), len * self.len()));
        }
        let learner = self.learner;
        out.par_chunks_exact_mut(len)
            .zip(self.slots.par_iter_mut())
            .try_for_each(|(chunk, slot)| slot.game.observe_into(slot.observer(learner), chunk))
    }

    /// Every game's legal actions and their recipes, into `out` (its vectors are reused).
    pub fn legal_into(&self, out: &mut LegalActions) -> Result<(), String> {
        out.offsets.clear();
        out.indices.clear();
        out.recipes.clear();
        out.offsets.push(0);
        for slot in &self.slots {
            out.indices.extend_from_slice(slot.game.legal_actions()?);
            out.recipes.extend_from_slice(slot.game.action_recipes()?);
            out.offsets.push(out.indices.len());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{build_game, GameOptions};

    fn start() -> TdeState {
        let options = GameOptions { scenario: "skirmish".into(), ..GameOptions::default() };
        TdeState::new(build_game(&options).unwrap(), "batch test")
    }

    /// Play `steps` steps of uniformly random legal actions; the rewards and ends seen.
    fn run(batch: &mut Batch, steps: usize, seed: u64) -> Vec<(f32, bool)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = batch.len();
        let mut legal = LegalActions::default();
        let (mut rewards, mut ended) = (vec![0.0; n], vec![false; n]);
        let mut seen = Vec::new();
        for _ in 0..steps {
            batch.legal_into(&mut legal).unwrap();
            let actions: Vec<usize> = (0..n)
                .map(|i| {
                    let own = &legal.indices[legal.offsets[i]..legal.offsets[i + 1]];
                    own[rng.gen_range(0..own.len())]
                })
                .collect();
            batch.step(&actions, &mut rewards, &mut ended).unwrap();
            seen.extend(rewards.iter().copied().zip(ended.iter().copied()));
        }
        seen
    }

    #[test]
    fn games_wait_for_the_learner_and_restart_when_they_end() {
        let opponents = Opponents::Agent { spec: "random".into(), learner: 1 };
        let mut batch = Batch::new(start(), 3, opponents, 7).unwrap();
        for i in 0..3 {
            assert_eq!(batch.game(i).unwrap().current_player(), 1, "game {i} waits for side B");
        }
        let seen = run(&mut batch, 400, 1);
        assert!(batch.episodes > 0, "some game ended in 400 steps");
        assert!(seen.iter().all(|&(r, end)| end || r == 0.0), "rewards only at the end");
        assert!(seen.iter().filter(|&&(_, end)| end).all(|&(r, _)| [-1.0, 0.0, 1.0].contains(&r)));
        for i in 0..3 {
            assert_eq!(batch.game(i).unwrap().current_player(), 1, "after restarts too");
        }
    }

    #[test]
    fn equal_seeds_give_equal_batches_and_self_play_decides_for_both_sides() {
        let play = |seed| {
            let mut batch = Batch::new(start(), 2, Opponents::SelfPlay, seed).unwrap();
            let seen = run(&mut batch, 150, 3);
            let hashes: Vec<u64> = (0..2).map(|i| batch.game(i).unwrap().state_hash()).collect();
            (seen, hashes)
        };
        assert_eq!(play(5), play(5));
        let batch = Batch::new(start(), 4, Opponents::SelfPlay, 5).unwrap();
        assert!((0..4).all(|i| batch.game(i).unwrap().current_player() >= 0));
    }

    #[test]
    fn an_illegal_action_names_its_game_and_changes_none() {
        let opponents = Opponents::Agent { spec: "random".into(), learner: 0 };
        let mut batch = Batch::new(start(), 2, opponents, 1).unwrap();
        let mut legal = LegalActions::default();
        batch.legal_into(&mut legal).unwrap();
        let before: Vec<u64> = (0..2).map(|i| batch.game(i).unwrap().state_hash()).collect();
        let good = legal.indices[0];
        let bad = (0..).find(|i| !legal.indices[legal.offsets[1]..].contains(i)).unwrap();
        let err = batch.step(&[good, bad], &mut [0.0; 2], &mut [false; 2]).unwrap_err();
        assert!(err.starts_with("actions[1]: action"), "{err}");
        let after: Vec<u64> = (0..2).map(|i| batch.game(i).unwrap().state_hash()).collect();
        assert_eq!(before, after);
        let mut obs = vec![0.0; 2 * start().observation_len()];
        batch.observe_into(&mut obs).unwrap();
        assert_eq!(&obs[..obs.len() / 2], start_observation(&batch, 0).as_slice());
    }

    fn start_observation(batch: &Batch, i: usize) -> Vec<f32> {
        batch.game(i).unwrap().observation(0).unwrap()
    }
}
