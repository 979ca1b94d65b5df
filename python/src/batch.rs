//! Many games of one set-up stepped together, for vectorised environments: one call applies
//! an action in each game, rolls the dice and lets the built-in opponent play up to the
//! learner's next decision, restarts the games that ended, and writes every game's
//! observation and legal actions into flat buffers (no Python loop over the games).

use crate::core::{TdeAgent, TdeState};
use engine::encoding::Recipe;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// N games of one set-up, each with its own seeded dice (and opponent).
pub struct Batch {
    start: TdeState,
    /// The opponents' spec (`None` in self-play).
    spec: Option<String>,
    opponents: Option<Vec<TdeAgent>>,
    learner: u8,
    games: Vec<TdeState>,
    rngs: Vec<ChaCha8Rng>,
    /// Games finished since the batch was built.
    pub episodes: u64,
    /// Decisions applied since the batch was built (the learner's only).
    pub steps: u64,
}

/// The opponents of `n` games, seeded from `seed`.
fn agents(spec: &str, n: usize, seed: u64) -> Result<Vec<TdeAgent>, String> {
    (0..n).map(|i| TdeAgent::new(spec, seed.wrapping_add(i as u64))).collect()
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
        let (spec, opponents, learner) = match opponents {
            Opponents::SelfPlay => (None, None, 0),
            Opponents::Agent { spec, learner } => {
                start.check_player(learner as i64).map_err(|e| format!("side: {e}"))?;
                let opponents = agents(&spec, n, seed)?;
                (Some(spec), Some(opponents), learner)
            }
        };
        let mut batch = Batch {
            spec,
            games: vec![start.clone(); n],
            rngs: (0..n).map(|i| game_rng(seed, i)).collect(),
            start,
            opponents,
            learner,
            episodes: 0,
            steps: 0,
        };
        for i in 0..n {
            batch.advance(i)?;
        }
        Ok(batch)
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game (never: a batch has at least one).
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `i` as it stands (at a decision of the learner's).
    pub fn game(&self, i: usize) -> Option<&TdeState> {
        self.games.get(i)
    }

    /// Restart every game from the set-up, with generators (and opponents) seeded anew from
    /// `seed`: a batch reset with its seed plays as one built with it.
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        if let Some(spec) = &self.spec {
            self.opponents = Some(agents(spec, self.games.len(), seed)?);
        }
        for i in 0..self.games.len() {
            self.rngs[i] = game_rng(seed, i);
            self.games[i] = self.start.clone();
            self.advance(i)?;
        }
        Ok(())
    }

    /// Whether game `i` waits for the learner: a decision, of the learner's side unless in
    /// self-play.
    fn learner_decides(&self, i: usize) -> bool {
        let player = self.games[i].current_player();
        player >= 0 && (self.opponents.is_none() || player == self.learner as i32)
    }

    /// Roll the dice and let the opponent play in game `i` until the learner decides or the
    /// game ends.
    fn advance(&mut self, i: usize) -> Result<(), String> {
        loop {
            let game = &self.games[i];
            if game.is_terminal() || self.learner_decides(i) {
                return Ok(());
            }
            let index = if game.is_chance_node() {
                let u: f64 = self.rngs[i].gen();
                game.chance_outcome_for(u)?.ok_or("a chance node without outcomes")?
            } else {
                let agents = self.opponents.as_mut().ok_or("no opponent to play")?;
                agents[i].step(game)?
            };
            self.games[i].apply(index)?;
        }
    }

    /// The player whose observation game `i` gives: the learner's side, or in self-play the
    /// side to decide.
    pub fn observer(&self, i: usize) -> i64 {
        match self.opponents {
            Some(_) => self.learner as i64,
            None => self.games[i].current_player().max(0) as i64,
        }
    }

    /// Apply `actions[i]` in game `i` (each a legal policy index there), then play each game
    /// on to the learner's next decision. A game that ends is restarted at once: its entry in
    /// `rewards` is its return for the side that moved (the learner's side against an
    /// opponent) and in `ended` true. An illegal action is refused, naming the game, before
    /// any game changes.
    pub fn step(&mut self, actions: &[usize], rewards: &mut [f32], ended: &mut [bool]) -> Result<(), String> {
        let n = self.games.len();
        if actions.len() != n || rewards.len() != n || ended.len() != n {
            return Err(format!("actions: one per game ({n}), got {}", actions.len()));
        }
        for (i, (game, &action)) in self.games.iter().zip(actions).enumerate() {
            game.action_of(action).map_err(|e| format!("actions[{i}]: {e}"))?;
        }
        for i in 0..n {
            let mover = self.observer(i) as usize;
            self.games[i].apply(actions[i])?;
            self.steps += 1;
            self.advance(i)?;
            ended[i] = self.games[i].is_terminal();
            rewards[i] = 0.0;
            if ended[i] {
                rewards[i] = self.games[i].returns().get(mover).copied().unwrap_or(0.0) as f32;
                self.episodes += 1;
                self.games[i] = self.start.clone();
                self.advance(i)?;
            }
        }
        Ok(())
    }

    /// Every game's observation (of [`observer`](Self::observer)), game after game, into
    /// `out` (`len() × observation length` floats).
    pub fn observe_into(&self, out: &mut [f32]) -> Result<(), String> {
        let len = self.start.observation_len();
        if out.len() != len * self.games.len() {
            return Err(format!("observations: a buffer of {} floats for {}", out.len(), len * self.len()));
        }
        for (i, chunk) in out.chunks_exact_mut(len).enumerate() {
            self.games[i].observe_into(self.observer(i), chunk)?;
        }
        Ok(())
    }

    /// Every game's legal actions and their recipes, into `out` (its vectors are reused).
    pub fn legal_into(&self, out: &mut LegalActions) -> Result<(), String> {
        out.offsets.clear();
        out.indices.clear();
        out.recipes.clear();
        out.offsets.push(0);
        for game in &self.games {
            out.indices.extend_from_slice(game.legal_actions()?);
            out.recipes.extend_from_slice(game.action_recipes()?);
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
