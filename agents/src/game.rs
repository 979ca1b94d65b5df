//! The small game interface the agents, the training loop and the arena depend on, in the
//! spirit of OpenSpiel: decision, chance and terminal nodes, legal actions, apply, chance
//! outcomes with exact probabilities, returns, observation, information state and
//! determinization. The TDE engine implements it ([`crate::drowned_earth`]); any other game can, and the
//! test suite proves it with a tiny one.

use std::fmt::Debug;
use std::hash::Hash;

/// Who acts at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player `p` (0-based) must choose one of the legal actions.
    Player(usize),
    /// A die roll: pick an outcome of [`Game::chance_outcomes`].
    Chance,
    /// The game is over; [`Game::returns`] is final.
    Terminal,
}

/// A game as the agents see it.
pub trait Game: Clone + Send + Sync + 'static {
    /// An action at a decision node, or an outcome at a chance node.
    type Action: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static;

    /// Number of players.
    fn num_players(&self) -> usize;

    /// Who acts now.
    fn turn(&self) -> Turn;

    /// The legal actions at a decision node (or the outcomes at a chance node), into `out`
    /// (cleared first); empty when terminal.
    fn legal_actions_into(&self, out: &mut Vec<Self::Action>);

    /// Apply an action; an illegal one is refused with a reason and changes nothing.
    fn apply(&mut self, action: Self::Action) -> Result<(), String>;

    /// Apply an action taken from this state's legal actions (or chance outcomes) just now,
    /// where a game may skip checking it again (search and rollouts); panics on an illegal
    /// one where the game checks.
    fn apply_legal(&mut self, action: Self::Action) {
        if let Err(e) = self.apply(action) {
            panic!("apply_legal: an illegal action: {e}");
        }
    }

    /// The outcomes of a chance node with their probabilities (summing to 1).
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)>;

    /// Each player's return, final once terminal, in `[-return_bound(), return_bound()]`.
    fn returns(&self) -> Vec<f64>;

    /// The largest absolute return the game gives (1 by default). Search divides returns and
    /// evaluations by it, so games scored in points need not rescale themselves; a return
    /// beyond it is clamped.
    fn return_bound(&self) -> f64 {
        1.0
    }

    /// Whether `player` learns which action (or chance outcome) is taken at this node. A
    /// secret choice or a private draw is not visible to the others: search leads every
    /// outcome it cannot see to the same node, so it never plans on what it cannot know.
    /// Perfect-information games keep the default, `true`.
    fn is_visible(&self, player: usize) -> bool {
        let _ = player;
        true
    }

    /// What `player` sees now, in words (for logs and debugging).
    fn observation(&self, player: usize) -> String;

    /// A key equal for all states of one game (one set-up: board, sides, scenario) that
    /// `player` cannot tell apart; keys of different set-ups are not comparable.
    fn information_state_key(&self, player: usize) -> u64;

    /// A full state drawn from `player`'s information state: what `player` cannot see is
    /// sampled consistently with what it has seen. Search plans on these, never on the truth.
    fn determinize(&self, player: usize, rng: &mut dyn rand::RngCore) -> Self;

    /// The legal actions as a new vector.
    fn legal_actions(&self) -> Vec<Self::Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }

    /// Pick a chance outcome with `rng`, weighted by its probability.
    fn sample_chance(&self, rng: &mut dyn rand::RngCore) -> Option<Self::Action> {
        use rand::Rng;
        let outcomes = self.chance_outcomes();
        let mut x: f64 = rng.gen();
        for &(a, p) in &outcomes {
            if x < p {
                return Some(a);
            }
            x -= p;
        }
        outcomes.last().map(|&(a, _)| a)
    }
}

/// How a game's players take their turns (OpenSpiel's `GameType::Dynamics`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dynamics {
    /// One player acts at a time; a secret choice is a hidden move made in turn.
    Sequential,
    /// Players choose at once (none of the games here: simultaneous choices are hidden moves
    /// made in turn, see [`Game::is_visible`]).
    Simultaneous,
}

/// Whether a game has chance nodes (OpenSpiel's `GameType::ChanceMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceMode {
    /// No chance nodes.
    Deterministic,
    /// Chance nodes with their outcomes and exact probabilities ([`Game::chance_outcomes`]).
    ExplicitStochastic,
}

/// What the players see (OpenSpiel's `GameType::Information`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Information {
    /// Every player sees every action and outcome.
    Perfect,
    /// Some action or outcome is hidden from a player ([`Game::is_visible`] is `false` there).
    Imperfect,
}

/// How the returns relate (OpenSpiel's `GameType::Utility`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utility {
    /// The returns of every finished game sum to 0.
    ZeroSum,
    /// The returns of every finished game sum to the same constant.
    ConstantSum,
    /// Anything else.
    GeneralSum,
}

/// What kind of game it is, in the spirit of OpenSpiel's `GameType`: what the framework may
/// assume of it (search plans only on what a player sees where the information is imperfect;
/// a deterministic game needs no dice). The conformance test checks the claims against play
/// ([`crate::conformance::check_game_type`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The name the command line takes, e.g. `encounter`.
    pub short_name: &'static str,
    /// The name for people, e.g. `The Drowned Earth`.
    pub long_name: &'static str,
    /// The number of players (every game here has a fixed number).
    pub players: usize,
    /// Turn-taking.
    pub dynamics: Dynamics,
    /// Chance nodes or none.
    pub chance: ChanceMode,
    /// Perfect or imperfect information.
    pub information: Information,
    /// How the returns relate.
    pub utility: Utility,
    /// Whether returns come only at the end (every game here: OpenSpiel's `kTerminal`).
    pub terminal_rewards_only: bool,
    /// Where its rules come from (a rulebook, a seed text, or the code).
    pub rules: &'static str,
}
