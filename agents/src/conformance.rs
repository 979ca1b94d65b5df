//! One conformance test for every game behind [`Game`], in the spirit of OpenSpiel's
//! `tests/basic_tests.h` and pgx's `api_test.py`: seeded random play through whole games,
//! checking at every node what the trait promises.
//!
//! At every node of every game it checks that
//! - a terminal node has no legal actions and a non-terminal one has some;
//! - the legal actions are distinct (and sorted, where [`Options::sorted`] says the game
//!   promises it: the trait itself does not);
//! - a chance node's outcomes are distinct, positive, sum to 1 and are its legal actions;
//! - a decision node names a player below [`Game::num_players`];
//! - applying a legal action never errors, twice from clones gives equal states, and
//!   [`Game::apply_legal`] gives the state [`Game::apply`] gives;
//! - an action legal elsewhere but not here is refused and leaves the state unchanged;
//! - every determinization for the player to move keeps that player's information state,
//!   observation, turn and legal actions (so observations agree across determinizations);
//! - the returns have one entry per player, finite and within [`Game::return_bound`].
//!
//! "Equal states" means an equal [`fingerprint`]: the turn, legal actions, chance odds,
//! returns, and every player's observation and information-state key, so a game need not
//! implement `PartialEq`.

use crate::game::{ChanceMode, Game, GameType, Information, Turn, Utility};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How much to check.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Random games played, with seeds `0..games`.
    pub games: u64,
    /// Steps per game before the check gives up on reaching the end (an error: the game must
    /// end within it).
    pub max_steps: usize,
    /// Legal actions tried from clones at each node (all of them when there are fewer).
    pub actions_per_node: usize,
    /// Determinizations drawn at each decision node.
    pub determinizations: usize,
    /// Whether the game promises its legal actions in ascending order.
    pub sorted: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { games: 20, max_steps: 10_000, actions_per_node: 4, determinizations: 2, sorted: false }
    }
}

/// What a passed check saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played to the end.
    pub games: u64,
    /// Nodes checked (decision, chance and terminal).
    pub nodes: u64,
    /// Chance nodes among them.
    pub chance_nodes: u64,
    /// Refusals of illegal actions checked.
    pub illegal_checked: u64,
    /// Nodes whose action or outcome some player does not see ([`Game::is_visible`]).
    pub hidden_nodes: u64,
    /// Finished games whose returns do not sum to 0.
    pub nonzero_sums: u64,
    /// Finished games whose returns sum to another total than the first game's.
    pub other_sums: u64,
}

/// Everything observable of a state, for comparing states of a game without `PartialEq`.
pub fn fingerprint<G: Game>(state: &G) -> String {
    let mut out = format!("{:?}|{:?}|", state.turn(), state.legal_actions());
    for (a, p) in state.chance_outcomes() {
        out.push_str(&format!("{a:?}:{:x},", p.to_bits()));
    }
    for r in state.returns() {
        out.push_str(&format!("|{:x}", r.to_bits()));
    }
    for p in 0..state.num_players() {
        out.push_str(&format!("|{}#{}", state.observation(p), state.information_state_key(p)));
    }
    out
}

/// Play `options.games` seeded random games of `name` from `new_game(seed)` and check every
/// node; the first violation is an error naming the game, seed, step and check.
pub fn check<G: Game>(name: &str, new_game: impl Fn(u64) -> G, options: &Options) -> Result<Report, String> {
    let mut report = Report::default();
    // Actions seen anywhere, to offer where they are not legal.
    let mut seen: Vec<G::Action> = Vec::new();
    let mut first_sum: Option<f64> = None;
    for seed in 0..options.games {
        let mut state = new_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_c0de);
        let mut step = 0;
        loop {
            let at = step;
            let fail = move |check: &str, detail: String| {
                format!("{name}: seed {seed}, step {at}: {check}: {detail}")
            };
            check_node(&state, &mut rng, options, &mut seen, &mut report).map_err(|(c, d)| fail(c, d))?;
            report.nodes += 1;
            if state.turn() != Turn::Terminal && (0..state.num_players()).any(|p| !state.is_visible(p)) {
                report.hidden_nodes += 1;
            }
            let action = match state.turn() {
                Turn::Terminal => {
                    let sum: f64 = state.returns().iter().sum();
                    report.nonzero_sums += u64::from(sum.abs() > 1e-9);
                    report.other_sums += u64::from((sum - *first_sum.get_or_insert(sum)).abs() > 1e-9);
                    break;
                }
                Turn::Chance => {
                    report.chance_nodes += 1;
                    state
                        .sample_chance(&mut rng)
                        .ok_or_else(|| fail("chance", "no outcome to sample".into()))?
                }
                Turn::Player(_) => {
                    let legal = state.legal_actions();
                    legal[rng.gen_range(0..legal.len())]
                }
            };
            state
                .apply(action)
                .map_err(|e| fail("apply", format!("legal action {action:?} refused: {e}")))?;
            step += 1;
            if step > options.max_steps {
                return Err(fail("termination", format!("no end within {} steps", options.max_steps)));
            }
        }
        report.games += 1;
    }
    Ok(report)
}

/// Whether what `game_type` claims agrees with what a passed [`check`] saw: chance nodes met
/// only in a stochastic game, hidden moves only with imperfect information, returns summing
/// to 0 in a zero-sum game (to one total in a constant-sum one), and `players` players at
/// `first`, the state the games started from. Random play can miss a rare chance node or
/// hidden move, so a game that claims them must show them within the games checked.
pub fn check_game_type<G: Game>(game_type: &GameType, first: &G, report: &Report) -> Result<(), String> {
    let name = game_type.short_name;
    let claim = |what: &str, detail: String| Err(format!("{name}: its fact sheet says {what}, but {detail}"));
    if first.num_players() != game_type.players {
        return claim(&format!("{} players", game_type.players), format!("it has {}", first.num_players()));
    }
    let stochastic = game_type.chance == ChanceMode::ExplicitStochastic;
    if stochastic != (report.chance_nodes > 0) {
        return claim(
            &format!("{:?}", game_type.chance),
            format!("{} chance nodes met", report.chance_nodes),
        );
    }
    let imperfect = game_type.information == Information::Imperfect;
    if imperfect != (report.hidden_nodes > 0) {
        return claim(
            &format!("{:?} information", game_type.information),
            format!("{} hidden moves met", report.hidden_nodes),
        );
    }
    match game_type.utility {
        Utility::ZeroSum if report.nonzero_sums > 0 => {
            claim("zero-sum", format!("{} games' returns do not sum to 0", report.nonzero_sums))
        }
        Utility::ConstantSum if report.other_sums > 0 => {
            claim("constant-sum", format!("{} games' returns sum to another total", report.other_sums))
        }
        _ => Ok(()),
    }
}

/// The checks of one node; an error is (check, detail).
fn check_node<G: Game>(
    state: &G,
    rng: &mut ChaCha8Rng,
    options: &Options,
    seen: &mut Vec<G::Action>,
    report: &mut Report,
) -> Result<(), (&'static str, String)> {
    let legal = state.legal_actions();
    let turn = state.turn();
    let mut sorted = legal.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != legal.len() {
        return Err(("distinct legal actions", format!("{legal:?}")));
    }
    if options.sorted && sorted != legal {
        return Err(("sorted legal actions", format!("{legal:?}")));
    }
    match turn {
        Turn::Terminal => {
            if !legal.is_empty() {
                return Err(("terminal", format!("legal actions at a terminal node: {legal:?}")));
            }
            let returns = state.returns();
            if returns.len() != state.num_players() {
                return Err((
                    "returns",
                    format!("{} returns for {} players", returns.len(), state.num_players()),
                ));
            }
            let bound = state.return_bound();
            if let Some(r) = returns.iter().find(|r| !r.is_finite() || r.abs() > bound + 1e-9) {
                return Err(("return bound", format!("return {r} outside ±{bound}")));
            }
        }
        Turn::Chance => {
            let outcomes = state.chance_outcomes();
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            if (total - 1.0).abs() > 1e-9 {
                return Err(("chance odds", format!("probabilities sum to {total}: {outcomes:?}")));
            }
            if let Some(o) = outcomes.iter().find(|&&(_, p)| p <= 0.0 || !p.is_finite()) {
                return Err(("chance odds", format!("outcome {o:?} without a positive probability")));
            }
            let mut actions: Vec<G::Action> = outcomes.iter().map(|&(a, _)| a).collect();
            actions.sort();
            actions.dedup();
            if actions.len() != outcomes.len() || actions != sorted {
                return Err((
                    "chance outcomes",
                    format!("outcomes {outcomes:?} are not the legal actions {legal:?}"),
                ));
            }
        }
        Turn::Player(p) => {
            if legal.is_empty() {
                return Err(("legal actions", "a decision node without legal actions".into()));
            }
            if p >= state.num_players() {
                return Err(("player", format!("player {p} of {}", state.num_players())));
            }
            let key = state.information_state_key(p);
            let observation = state.observation(p);
            for _ in 0..options.determinizations {
                let d = state.determinize(p, rng);
                if d.information_state_key(p) != key {
                    return Err(("determinization", format!("player {p}'s information state changed")));
                }
                if d.observation(p) != observation {
                    return Err(("determinization", format!("player {p}'s observation changed")));
                }
                if d.turn() != turn || d.legal_actions() != legal {
                    return Err((
                        "determinization",
                        format!("the turn or player {p}'s legal actions changed"),
                    ));
                }
            }
        }
    }
    // Legal actions from clones: never refused, reproducible, apply_legal equal to apply.
    let mut tried: Vec<G::Action> = legal.clone();
    while tried.len() > options.actions_per_node {
        tried.swap_remove(rng.gen_range(0..tried.len()));
    }
    for &a in &tried {
        let mut one = state.clone();
        let mut two = state.clone();
        let mut three = state.clone();
        one.apply(a).map_err(|e| ("apply", format!("legal action {a:?} refused: {e}")))?;
        two.apply(a).map_err(|e| ("apply", format!("legal action {a:?} refused: {e}")))?;
        three.apply_legal(a);
        let f = fingerprint(&one);
        if fingerprint(&two) != f {
            return Err(("clone then apply", format!("{a:?} from two clones gave different states")));
        }
        if fingerprint(&three) != f {
            return Err(("apply_legal", format!("{a:?}: apply_legal and apply differ")));
        }
        if !seen.contains(&a) && seen.len() < 4096 {
            seen.push(a);
        }
    }
    // An action legal elsewhere but not here is refused, and changes nothing.
    let candidates: Vec<G::Action> =
        seen.iter().copied().filter(|a| sorted.binary_search(a).is_err()).collect();
    if !candidates.is_empty() {
        let bad = candidates[rng.gen_range(0..candidates.len())];
        let before = fingerprint(state);
        let mut copy = state.clone();
        if copy.apply(bad).is_ok() {
            return Err(("illegal action", format!("{bad:?} accepted though not legal")));
        }
        if fingerprint(&copy) != before {
            return Err(("illegal action", format!("refusing {bad:?} changed the state")));
        }
        report.illegal_checked += 1;
    }
    Ok(())
}
