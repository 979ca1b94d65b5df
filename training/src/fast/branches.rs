//! `tde fast branches`: value targets for sibling positions, from rollouts.
//!
//! A value head trained on game results sees one label per game, and only the positions its
//! players chose: it learns which games are won, not which of a decision's actions leaves the
//! better position, and that order among siblings is what a search asks of it. Here games are
//! played by an agent on both sides; at a share of the decisions with a choice, a few of the
//! mover's actions (the scripted player's first choices and some drawn at random, so that
//! poor moves are seen too) are each played, dice drawn, to the next decision, and each such
//! child is labelled, for both sides' views, by the mean return and margin of `rollouts` games
//! played on from it by the rollout agent: a label per position, with most of the dice's noise
//! averaged out. The children of one decision share their dice and rollout seeds (common
//! random numbers), so that their labels differ by their positions more than by luck, and each
//! side's view of them is one sibling group of the dataset (for `tde fast train
//! --sibling-weight`). The positions are value-only (no policy target); train them beside
//! teacher data that carries the policy. Shards are written as by `tde fast data` (resumable, the
//! same data whatever the number of threads).

use crate::fast::data::{drawn_lineups, write_missing_shards};
use crate::play::rollout::players;
use agents::{Game, Ranker, ScriptedAgent, Turn};
use engine::scenario::types::Scenario;
use engine::GameState;
use eval::lineup::Lineups;
use fastnet::data::{margin_target, Dataset};
use fastnet::features::position_features;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::PathBuf;

/// What to generate.
#[derive(Clone, Debug)]
pub struct BranchRun {
    /// The folder the shards go to.
    pub out: PathBuf,
    /// Games in all.
    pub games: u64,
    /// Games per shard.
    pub shard_games: u64,
    /// Seed of game 0.
    pub seed: u64,
    /// The agent playing both sides of the games (a spec `make_agent` takes).
    pub agent: String,
    /// The agent playing both sides of the rollouts.
    pub rollout_agent: String,
    /// Rollouts from each child.
    pub rollouts: u32,
    /// Share of the decisions with a choice whose children are labelled.
    pub share: f64,
    /// Children of the scripted player's first choices per labelled decision.
    pub ranked_children: usize,
    /// Further children drawn at random from the other legal actions.
    pub random_children: usize,
    /// Boards to draw from (`all`: every shipped board).
    pub boards: Vec<String>,
    /// Crews to draw from (`all`: every shipped crew).
    pub crews: Vec<String>,
    /// Show a progress bar.
    pub progress: bool,
}

impl BranchRun {
    /// The settings' errors, named by their flags.
    fn check(&self) -> Result<(), String> {
        if self.games == 0 || self.shard_games == 0 {
            return Err("--games and --shard-games must be at least 1".into());
        }
        if !(self.share > 0.0 && self.share <= 1.0) {
            return Err(format!("--share {} is not a share above 0 and at most 1", self.share));
        }
        if self.rollouts == 0 {
            return Err("--rollouts must be at least 1".into());
        }
        if self.ranked_children + self.random_children < 2 {
            return Err("--ranked-children plus --random-children must be at least 2 (siblings)".into());
        }
        Ok(())
    }
}

/// The value and margin targets of `rollouts` games played on from `state` by `agent`, for
/// each side: the mean return and the mean margin target.
fn rollout_targets(
    state: &GameState,
    scenario: Scenario,
    agent: &str,
    rollouts: u32,
    seed: u64,
) -> Result<[(f32, f32); 2], String> {
    let mut sums = [(0.0f64, 0.0f64); 2];
    for r in 0..rollouts as u64 {
        let seed = seed.wrapping_mul(0x9e37_79b9).wrapping_add(r);
        let end = agents::play_game(state.clone(), &mut players(agent, seed)?, seed, |_, _| {});
        let (returns, outcome) = (Game::returns(&end), end.outcome());
        for (side, sum) in sums.iter_mut().enumerate() {
            sum.0 += returns[side];
            sum.1 += margin_target(outcome.margin(side as engine::state::Side), scenario) as f64;
        }
    }
    let n = rollouts as f64;
    Ok(sums.map(|(v, m)| ((v / n) as f32, (m / n) as f32)))
}

/// The labelled children of one game played with `seed`.
pub fn game_branches(run: &BranchRun, lineups: &Lineups, seed: u64) -> Result<Dataset, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x3c6e_f372_fe94_f82b);
    let scenario = Scenario::ALL[rng.gen_range(0..Scenario::ALL.len())];
    let (mut state, _) = lineups.game(scenario, rng.gen())?;
    let mut seats = players(&run.agent, seed)?;
    let mut ranker = ScriptedAgent::new(seed ^ 0x0bad_5eed);
    let mut data = Dataset::default();
    let mut feats = Vec::new();
    let mut legal = Vec::new();
    let mut decision = 0u64;
    loop {
        match Game::turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => {
                let outcome = state.sample_chance(&mut rng).ok_or("a chance node without outcomes")?;
                state.apply_legal(outcome);
            }
            Turn::Player(p) => {
                state.legal_actions_into(&mut legal);
                if legal.len() >= 2 && rng.gen_bool(run.share) {
                    decision += 1;
                    let mut ranked = legal.clone();
                    ranker.rank(&state, &mut ranked);
                    let split = run.ranked_children.min(ranked.len());
                    let (first, rest) = ranked.split_at_mut(split);
                    rest.shuffle(&mut rng);
                    let chosen = first.iter().chain(rest.iter().take(run.random_children));
                    // One seed for every child of the decision (its dice and rollouts): common
                    // random numbers, so that the children's labels differ less by luck.
                    let child_seed = seed.wrapping_mul(1_000_003).wrapping_add(decision);
                    let mut children = Vec::new();
                    for &action in chosen {
                        let mut child = state.clone();
                        child.apply_action(action).map_err(|e| e.to_string())?;
                        let mut dice = ChaCha8Rng::seed_from_u64(child_seed);
                        while Game::turn(&child) == Turn::Chance {
                            let outcome =
                                child.sample_chance(&mut dice).ok_or("a chance node without outcomes")?;
                            child.apply_legal(outcome);
                        }
                        if Game::turn(&child) == Turn::Terminal {
                            continue;
                        }
                        let targets =
                            rollout_targets(&child, scenario, &run.rollout_agent, run.rollouts, child_seed)?;
                        children.push((child, targets));
                    }
                    // Each side's view of the children, one sibling group each.
                    for side in 0..2 {
                        if children.is_empty() {
                            break;
                        }
                        let group = data.new_group();
                        for (child, targets) in &children {
                            position_features(child, side as engine::state::Side, &mut feats);
                            let (value, margin) = targets[side];
                            data.push_in_group(&feats, &[], value, margin, group);
                        }
                    }
                }
                let action = seats[p].select_action(&state);
                state.apply_legal(action);
            }
        }
    }
    Ok(data)
}

/// Generate the missing shards of `run`; a summary with positions per hour.
pub fn make_branches(run: &BranchRun) -> Result<String, String> {
    run.check()?;
    players(&run.agent, 0).map_err(|e| format!("--agent: {e}"))?;
    players(&run.rollout_agent, 0).map_err(|e| format!("--rollout-agent: {e}"))?;
    let lineups = drawn_lineups(&run.boards, &run.crews)?;
    let made = write_missing_shards(
        &run.out,
        run.games,
        run.shard_games,
        run.seed,
        run.progress,
        &|first, games, tick| {
            let parts: Vec<Dataset> = (0..games)
                .into_par_iter()
                .map(|g| {
                    let d = game_branches(run, &lineups, first.wrapping_add(g));
                    tick();
                    d
                })
                .collect::<Result<_, String>>()?;
            let mut data = Dataset::default();
            for part in &parts {
                data.append(part);
            }
            Ok(data)
        },
    )?;
    Ok(format!(
        "{}: {} shards of {} games; this run played {} games and labelled {} child positions (both views) in {:.0} s: {:.0} positions/hour on {} threads",
        run.out.display(),
        run.games.div_ceil(run.shard_games),
        run.shard_games,
        made.games,
        made.positions,
        made.seconds,
        made.positions as f64 / made.seconds.max(1e-9) * 3600.0,
        rayon::current_num_threads()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::setup::{new_game, GameConfig};
    use eval::lineup::Pool;

    fn run(out: &str) -> BranchRun {
        BranchRun {
            out: std::env::temp_dir().join(out),
            games: 2,
            shard_games: 1,
            seed: 11,
            agent: "random".into(),
            rollout_agent: "random".into(),
            rollouts: 2,
            share: 0.05,
            ranked_children: 2,
            random_children: 1,
            boards: vec![],
            crews: vec![],
            progress: false,
        }
    }

    fn lineups() -> Lineups {
        let config = GameConfig::default();
        Lineups::new(config.clone(), Pool::Fixed(config.board.clone()), Pool::Fixed(config.crews.clone()))
            .unwrap()
    }

    #[test]
    fn rollout_targets_are_the_mean_return_and_margin_of_the_rollouts_for_each_side() {
        let state = new_game(&GameConfig::default()).unwrap();
        let (rollouts, seed) = (3u32, 5u64);
        let targets = rollout_targets(&state, Scenario::Skirmish, "random", rollouts, seed).unwrap();
        let (mut value, mut margin) = (0.0, 0.0);
        for r in 0..rollouts as u64 {
            let seed = seed.wrapping_mul(0x9e37_79b9).wrapping_add(r);
            let end =
                agents::play_game(state.clone(), &mut players("random", seed).unwrap(), seed, |_, _| {});
            value += Game::returns(&end)[0];
            margin += margin_target(end.outcome().margin(0), Scenario::Skirmish) as f64;
        }
        assert!((targets[0].0 as f64 - value / 3.0).abs() < 1e-6, "{targets:?}");
        assert!((targets[0].1 as f64 - margin / 3.0).abs() < 1e-6, "{targets:?}");
        assert!((targets[0].0 + targets[1].0).abs() < 1e-6 && (targets[0].1 + targets[1].1).abs() < 1e-6);
    }

    #[test]
    fn each_child_is_labelled_for_both_views_and_a_game_gives_the_same_labels_every_time() {
        let plan = run("tde-branches-unit");
        let a = game_branches(&plan, &lineups(), 3).unwrap();
        assert!(
            a.positions.len() >= 4 && a.positions.len().is_multiple_of(2),
            "{} positions",
            a.positions.len()
        );
        // A decision's children make two sibling groups one after the other: the first side's
        // views, then the second side's, child for child.
        let (mut at, mut pairs, mut widest) = (0, 0, 0);
        while at < a.positions.len() {
            let first = a.siblings_of(at);
            let second = a.siblings_of(first.end);
            assert_eq!(first.len(), second.len(), "both views of every child");
            assert_eq!(a.positions[second.start].group, a.positions[first.start].group + 1);
            for (x, y) in first.clone().zip(second.clone()) {
                let (x, y) = (&a.positions[x], &a.positions[y]);
                // Two rollouts of a zero-sum game: each side's mean return is a multiple of 1/2.
                assert!((x.value + y.value).abs() < 1e-6, "{x:?} {y:?}");
                assert!((x.value * 2.0).fract() == 0.0 && x.action_len == 0);
                assert_ne!(a.features_of(x), a.features_of(y), "the two views differ");
            }
            widest = widest.max(first.len());
            pairs += 1;
            at = second.end;
        }
        assert_eq!(a.groups, 2 * pairs, "groups numbered from 1, two a decision");
        assert!(widest >= 2, "some decision has siblings");
        assert_eq!(a, game_branches(&plan, &lineups(), 3).unwrap());
    }

    #[test]
    fn bad_settings_are_refused_by_their_flags() {
        for (change, flag) in [
            (Box::new(|r: &mut BranchRun| r.games = 0) as Box<dyn Fn(&mut BranchRun)>, "--games"),
            (Box::new(|r: &mut BranchRun| r.share = 0.0), "--share"),
            (Box::new(|r: &mut BranchRun| r.share = 1.5), "--share"),
            (Box::new(|r: &mut BranchRun| r.rollouts = 0), "--rollouts"),
            (Box::new(|r: &mut BranchRun| r.random_children = 0), "--ranked-children"),
            (Box::new(|r: &mut BranchRun| r.agent = "no-such-agent".into()), "--agent"),
        ] {
            let mut plan = run("tde-branches-refused");
            plan.ranked_children = 1;
            plan.random_children = 1;
            change(&mut plan);
            let err = make_branches(&plan).unwrap_err();
            assert!(err.contains(flag), "{flag}: {err}");
        }
        assert!(!std::env::temp_dir().join("tde-branches-refused").exists(), "nothing written");
    }
}
