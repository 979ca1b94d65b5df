//! The games policy iteration learns from: each a pure function of its seed, so that a label
//! names only its game's seed and decision and its features rebuild by replaying the game.
//!
//! Game `g` is played in scenario `g mod 5` (the rulebook's five in turn) on a board and crews
//! drawn from every board and crew of the configs folder ([`eval::lineup::Lineups`]). The
//! learning generation plays side `g mod 2`; its opponent is itself in most games, the
//! scripted player or an older generation in the rest, so that labels come from the positions
//! its own play reaches and from others too.

use agents::learned::Generation;
use agents::{Agent, LearnedAgent, ScriptedAgent};
use engine::scenario::Scenario;
use engine::state::Player;
use engine::{Action, GameState};
use eval::lineup::{Lineups, Pool};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Who the learning generation plays in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Itself.
    SelfPlay,
    /// The scripted player.
    Scripted,
    /// Older generation `i` (index into [`Games::older`]).
    Older(usize),
}

/// Everything that decides the learning games.
pub struct Games {
    /// The generation that learns.
    pub incumbent: Arc<Generation>,
    /// Earlier generations it sometimes meets.
    pub older: Vec<Arc<Generation>>,
    /// Share of games against the scripted player (the rest, less `older_share`, self-play).
    pub scripted_share: f64,
    /// Share of games against an older generation (when there is one).
    pub older_share: f64,
    lineups: Lineups,
}

impl Games {
    /// Learning games for `incumbent`, boards and crews drawn from every one in the configs.
    pub fn new(incumbent: Arc<Generation>, older: Vec<Arc<Generation>>) -> Result<Games, String> {
        let all = vec!["all".to_string()];
        let lineups = Lineups::new(Default::default(), Pool::Drawn(all.clone()), Pool::Drawn(all))?;
        Ok(Games { incumbent, older, scripted_share: 0.15, older_share: 0.1, lineups })
    }

    /// Game `g`'s initial state.
    pub fn start(&self, g: u64) -> Result<GameState, String> {
        let scenario = Scenario::ALL[(g % Scenario::ALL.len() as u64) as usize];
        Ok(self.lineups.game(scenario, mix(g ^ 0x1ea5))?.0)
    }

    /// Game `g`'s opponent of the learning generation.
    pub fn opponent(&self, g: u64) -> Opponent {
        let u: f64 = ChaCha8Rng::seed_from_u64(mix(g ^ 0x0bb0)).gen();
        if u < self.scripted_share {
            Opponent::Scripted
        } else if u < self.scripted_share + self.older_share && !self.older.is_empty() {
            Opponent::Older((mix(g) % self.older.len() as u64) as usize)
        } else {
            Opponent::SelfPlay
        }
    }

    /// The side the learning generation plays in game `g` (both in self-play).
    pub fn learner_side(g: u64) -> u8 {
        (g % 2) as u8
    }

    /// Game `g`'s two players, side A first.
    pub fn players(&self, g: u64) -> Vec<Box<dyn Agent<GameState>>> {
        let seed = mix(g ^ 0x5eed);
        let learner = Box::new(LearnedAgent::new(self.incumbent.clone(), 0.0, "incumbent", seed));
        let other: Box<dyn Agent<GameState>> = match self.opponent(g) {
            Opponent::SelfPlay => {
                Box::new(LearnedAgent::new(self.incumbent.clone(), 0.0, "incumbent", seed ^ 1))
            }
            Opponent::Scripted => Box::new(ScriptedAgent::new(seed ^ 1)),
            Opponent::Older(i) => Box::new(LearnedAgent::new(self.older[i].clone(), 0.0, "older", seed ^ 1)),
        };
        if Games::learner_side(g) == 0 {
            vec![learner, other]
        } else {
            vec![other, learner]
        }
    }

    /// Whether decisions of `side` in game `g` are the learning generation's.
    pub fn learns(&self, g: u64, side: u8) -> bool {
        self.opponent(g) == Opponent::SelfPlay || side == Games::learner_side(g)
    }

    /// Play game `g` to the end, calling `visit(state, ply)` before each decision of a side
    /// (`ply` counts them from 0); `visit` returns false to stop the game there.
    pub fn play(&self, g: u64, mut visit: impl FnMut(&GameState, u32) -> bool) -> Result<GameState, String> {
        let mut state = self.start(g)?;
        let mut players = self.players(g);
        let mut dice = ChaCha8Rng::seed_from_u64(mix(g ^ 0xd1ce));
        let mut ply = 0;
        loop {
            let action: Action = match state.current_player() {
                _ if state.is_terminal() => return Ok(state),
                Player::Chance => {
                    agents::Game::sample_chance(&state, &mut dice).ok_or("a chance node without outcomes")?
                }
                Player::Side(s) => {
                    if !visit(&state, ply) {
                        return Ok(state);
                    }
                    ply += 1;
                    players[s as usize].select_action(&state)
                }
                Player::Terminal => return Ok(state),
            };
            state.apply_action(action).map_err(|e| format!("game {g}: {e}"))?;
        }
    }
}

/// A 64-bit mix (splitmix64's finaliser): seeds for independent streams.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
