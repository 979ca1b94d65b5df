//! A searching player (the searching Dungeon Master): at each decision it tries the scripted
//! player's choice and the next best few candidates, plays every candidate out many times
//! with the scripted players on both sides (to the end of the Encounter, scored ±1, or for
//! `rounds` rounds beyond the current one, scored by [`standing`]), and keeps the scripted
//! choice unless another candidate wins clearly more (a rollout policy improvement over the
//! scripted player). The same rollouts serve every candidate (common random numbers: one
//! determinization of what the player cannot see and one dice stream per rollout), so the
//! candidates are compared on the same luck.
//!
//! Fair play: a rollout starts from [`agents::Game::determinize`], so the search never reads
//! the other side's hidden declarations.

use crate::board::{Cell, WIDTH};
use crate::dm::{walking_distance, ScriptedAgent};
use crate::state::{Action, Encounter};
use agents::spec::{Args, Param};
use agents::{Agent, Game, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The settings of a [`SearchAgent`], parsed from `search:rollouts=N,width=W,rounds=R,depart=D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Rollouts per candidate at a decision.
    pub rollouts: u32,
    /// Candidates tried at a decision: the scripted choice and the next best by
    /// [`rank_candidates`].
    pub width: usize,
    /// Rounds a rollout plays beyond the current one before [`standing`] scores it (the
    /// end of the Encounter scores ±1).
    pub rounds: u8,
    /// How many tenths of a standard error a candidate's mean gain over the scripted choice
    /// must reach for search to depart from it (default [`DEPART_Z`], 15).
    pub depart_tenths: u8,
}

impl SearchConfig {
    /// The parameters a `search` spec takes.
    pub const PARAMS: [Param; 4] = [
        Param::int("rollouts", 2, 10_000, "rollouts per candidate at a decision (default 16)"),
        Param::int("width", 1, 64, "candidates tried: the scripted choice and the next best (default 4)"),
        Param::int(
            "rounds",
            0,
            8,
            "rounds a rollout plays beyond the current one before it is scored (default 1)",
        ),
        Param::int(
            "depart",
            0,
            50,
            "tenths of a standard error a candidate's gain must reach to replace the scripted choice (default 15)",
        ),
    ];

    /// The settings of checked parameters.
    pub fn from_args(args: &Args) -> SearchConfig {
        let d = SearchConfig::default();
        SearchConfig {
            rollouts: args.int("rollouts").map_or(d.rollouts, |n| n as u32),
            width: args.int("width").map_or(d.width, |n| n as usize),
            rounds: args.int("rounds").map_or(d.rounds, |n| n as u8),
            depart_tenths: args.int("depart").map_or(d.depart_tenths, |n| n as u8),
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig { rollouts: 16, width: 4, rounds: 1, depart_tenths: (DEPART_Z * 10.0) as u8 }
    }
}

/// The searching player of either side (see the module's doc).
#[derive(Clone, Debug)]
pub struct SearchAgent {
    config: SearchConfig,
    rng: ChaCha8Rng,
}

/// How many standard errors a candidate's mean gain over the scripted choice must reach for
/// search to depart from the scripted choice (a noisy estimate keeps the scripted choice) by
/// default ([`SearchConfig::depart_tenths`] sets it).
pub const DEPART_Z: f64 = 1.5;

/// Rollouts played for every candidate still in the race before the race is looked at again.
pub const BATCH: u32 = 4;

/// The race drops a candidate unless its mean gain over the scripted choice plus this many
/// standard errors is above zero (so a candidate that has gained nothing in any rollout on
/// the same luck is dropped at once).
pub const DROP_Z: f64 = 1.0;

impl SearchAgent {
    /// A searching player with its settings, seeded.
    pub fn new(config: SearchConfig, seed: u64) -> SearchAgent {
        SearchAgent { config, rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// Race the `candidates` (the scripted choice first) for the player to act in `s`: each
    /// round of the race plays [`BATCH`] more rollouts of every candidate still in it, on the
    /// same luck, and drops a candidate whose mean gain over the scripted choice plus [`DROP_Z`]
    /// standard errors is not above zero (one that has gained nothing in any rollout too), until
    /// only the scripted choice is left or every candidate has `rollouts` rollouts. The
    /// candidate with the best mean gain of more than `depart_tenths` / 10 standard errors
    /// (and above zero) wins; else the scripted choice.
    pub fn race(&mut self, s: &Encounter, candidates: &[Action]) -> Action {
        let Turn::Player(me) = s.turn() else { return candidates[0] };
        let mut values: Vec<Vec<f64>> =
            candidates.iter().map(|_| Vec::with_capacity(self.config.rollouts as usize)).collect();
        let mut running: Vec<usize> = (0..candidates.len()).collect();
        let mut players = [ScriptedAgent, ScriptedAgent];
        let last_round = s.round().saturating_add(self.config.rounds);
        let mut played = 0;
        while played < self.config.rollouts && running.len() > 1 {
            for _ in 0..BATCH.min(self.config.rollouts - played) {
                let seed: u64 = self.rng.gen();
                let world = s.determinize(me, &mut ChaCha8Rng::seed_from_u64(seed));
                for &c in &running {
                    let mut state = world.clone();
                    state.apply_legal(candidates[c]);
                    let mut dice = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
                    values[c].push(play_out(state, &mut players, &mut dice, last_round, me));
                }
                played += 1;
            }
            running.retain(|&c| {
                let (mean, se) = gain(&values[c], &values[0]);
                c == 0 || mean + DROP_Z * se > 0.0
            });
        }
        let mut best = (0, 0.0);
        let depart = f64::from(self.config.depart_tenths) / 10.0;
        for &c in running.iter().skip(1) {
            let (mean, se) = gain(&values[c], &values[0]);
            if mean > depart * se && mean > best.1 {
                best = (c, mean);
            }
        }
        candidates[best.0]
    }
}

/// The mean and its standard error of the gains `a − b`, rollout by rollout (`b` may hold
/// more rollouts than `a`: the first `a.len()` are paired).
fn gain(a: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a.len() as f64;
    if n < 2.0 {
        return (0.0, 0.0);
    }
    let mean = a.iter().zip(b).map(|(x, y)| x - y).sum::<f64>() / n;
    let var = a.iter().zip(b).map(|(x, y)| (x - y - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Play `state` with `players` (the dice from `dice`) to its end, scored ±1 (0 for a draw),
/// or until round `last_round` is over, scored by [`standing`]; the value to `me`.
fn play_out(
    mut state: Encounter,
    players: &mut [ScriptedAgent; 2],
    dice: &mut ChaCha8Rng,
    last_round: u8,
    me: usize,
) -> f64 {
    loop {
        if state.round() > last_round {
            return standing(&state, me);
        }
        let a = match state.turn() {
            Turn::Terminal => return state.returns()[me],
            Turn::Chance => match state.sample_chance(dice) {
                Some(a) => a,
                None => return standing(&state, me),
            },
            Turn::Player(p) => players[p].select_action(&state),
        };
        state.apply_legal(a);
    }
}

/// How well `side` stands, in [−1, 1]: the share of its models' Wounds still in play less
/// the other side's (a model out of play counts none), each side's share over its starting
/// Wounds.
pub fn standing(s: &Encounter, side: usize) -> f64 {
    let mut left = [0.0f64; 2];
    let mut total = [0.0f64; 2];
    for m in s.models() {
        let full = m.profile.wounds.max(1) as f64;
        total[m.side()] += full;
        if m.in_play() {
            left[m.side()] += (m.wounds as f64).min(full);
        }
    }
    let share = |x: usize| if total[x] > 0.0 { left[x] / total[x] } else { 0.0 };
    share(side) - share(1 - side)
}

impl Agent<Encounter> for SearchAgent {
    fn name(&self) -> String {
        format!("search:rollouts={},width={}", self.config.rollouts, self.config.width)
    }

    fn select_action(&mut self, s: &Encounter) -> Action {
        let mut legal = s.legal_actions();
        if legal.len() == 1 {
            return legal[0];
        }
        rank_candidates(s, &mut legal);
        legal.truncate(self.config.width);
        if legal.len() == 1 {
            return legal[0];
        }
        self.race(s, &legal)
    }
}

/// Order the legal actions `legal` of `s` best first for search: the scripted player's
/// choice, then attacks (on the most hurt target first), the other actions that are not
/// moves, ending the activation, and last the moves, nearest the enemy first.
pub fn rank_candidates(s: &Encounter, legal: &mut [Action]) {
    let scripted = ScriptedAgent.select_action(s);
    let side = match s.turn() {
        Turn::Player(p) => p,
        _ => return,
    };
    let enemies: Vec<Cell> =
        s.models().iter().filter(|e| e.in_play() && e.side() != side).map(|e| e.cell).collect();
    let field = walking_distance(s, &enemies);
    let dist = |c: Cell| field[c.y as usize * WIDTH + c.x as usize];
    let wounds = |t: u8| s.models()[t as usize].wounds;
    legal.sort_by_key(|&a| {
        let key: (u8, u16) = match a {
            _ if a == scripted => (0, 0),
            Action::Strike { target, .. } | Action::Shoot { target, .. } => (1, wounds(target) as u16),
            Action::Advance(c) | Action::Drag { to: c, .. } => (4, dist(c)),
            Action::EndActivation => (3, 0),
            _ => (2, 0),
        };
        (key, a)
    });
}

/// The Dungeon Master's levels for players (`tde encounter play --level`), easiest first:
/// each level's name, its agent spec and what it is.
pub const LEVELS: [(&str, &str, &str); 3] = [
    ("easy", "scripted", "the scripted Dungeon Master"),
    ("normal", "search:rollouts=16,width=4,rounds=1", "a search over the scripted choice and the next three"),
    ("hard", "search:rollouts=16,width=6,rounds=1", "the searching Dungeon Master at full strength"),
];

/// The agent spec of a Dungeon Master level ([`LEVELS`]); an unknown level is refused with
/// the levels there are.
pub fn level_spec(level: &str) -> Result<&'static str, String> {
    LEVELS.iter().find(|l| l.0 == level).map(|l| l.1).ok_or_else(|| {
        let names: Vec<&str> = LEVELS.iter().map(|l| l.0).collect();
        format!("--level {level:?}: no such level (levels: {})", names.join(", "))
    })
}
