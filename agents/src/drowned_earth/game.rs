//! The TDE engine behind the [`Game`] interface.

use crate::game::{Game, Turn};

/// Rollout length (decisions) of TDE searches unless a spec says otherwise: about a turn of
/// play, after which the material evaluator judges the position.
pub const ROLLOUT_DEPTH: u32 = 20;
use engine::{Action, GameState, Player};

impl Game for GameState {
    type Action = Action;

    fn num_players(&self) -> usize {
        // A solo game has one player: side A's crew against the AI side.
        self.playing_sides().len()
    }

    fn turn(&self) -> Turn {
        match self.current_player() {
            Player::Side(s) => Turn::Player(s as usize),
            Player::Chance => Turn::Chance,
            Player::Terminal => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        GameState::legal_actions_into(self, out);
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.apply_action(action).map_err(|e| e.to_string())
    }

    fn apply_legal(&mut self, action: Action) {
        self.apply_legal_action(action);
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        GameState::chance_outcomes(self)
    }

    fn returns(&self) -> Vec<f64> {
        GameState::returns(self)[..self.num_players()].to_vec()
    }

    fn observation(&self, player: usize) -> String {
        serde_json::to_string(&GameState::observation(self, player as u8)).expect("observations serialise")
    }

    fn information_state_key(&self, player: usize) -> u64 {
        GameState::information_state_key(self, player as u8)
    }

    fn is_visible(&self, player: usize) -> bool {
        self.node_visible_to(player as u8)
    }

    fn determinize(&self, player: usize, rng: &mut dyn rand::RngCore) -> GameState {
        GameState::determinize(self, player as u8, rng)
    }
}

/// A quick estimate of a TDE position for search leaves: the victory-point margin so far and
/// the share of each crew's points still conscious, squashed into (-1, 1). In a skirmish the
/// margin already counts casualties, so material is weighed less there. A solo game is judged
/// by its score so far.
pub struct MaterialEvaluator;

impl crate::mcts::Evaluator<GameState> for MaterialEvaluator {
    fn evaluate(&self, state: &GameState) -> Vec<f64> {
        // A solo game: its score so far (the models lost already count).
        if let Some(solo) = state.solo_score() {
            return vec![solo.to_return()];
        }
        let mut standing = [0.0f64; 2];
        let mut total = [0.0f64; 2];
        for (i, m) in state.models().iter().enumerate() {
            if m.side > 1 || m.health == engine::state::Health::Remounted {
                continue;
            }
            let points = state.profile(i as u8).points as f64;
            total[m.side as usize] += points;
            if m.is_conscious() || m.health == engine::state::Health::Reserve {
                standing[m.side as usize] += points;
            }
        }
        let share = |s: usize| if total[s] > 0.0 { standing[s] / total[s] } else { 0.0 };
        let skirmish = state.static_data().scenario == engine::scenario::Scenario::Skirmish;
        let vp_scale = if skirmish { 40.0 } else { 4.0 };
        let x = state.outcome().margin(0) as f64 / vp_scale + 2.0 * (share(0) - share(1));
        let v = x.tanh();
        vec![v, -v]
    }
}
