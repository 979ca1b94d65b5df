//! What an arena produced: one [`GameResult`] per game, and the tables [`summarize`] draws
//! from them (the content of `results.json`).
//!
//! Everything in [`Results`] but [`Results::timing`] depends only on the arena's settings, so
//! the same seed gives the same tables; the timings are wall-clock measurements.

use crate::matchmaker::Lineup;
use crate::move_times::MoveTimes;
use crate::ratings::{bradley_terry, PairResult, PRIOR_DRAWS};
use crate::settings::{round_robin, ArenaSettings};
use crate::win_draw_loss::{mean, wilson, Wdl, Z95};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One finished game, as stored in `games.jsonl`. Agent `a` is the one listed first in
/// `--agents` of the pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The first agent of the pair.
    pub a: String,
    /// The second agent of the pair.
    pub b: String,
    /// The scenario.
    pub scenario: String,
    /// Index of the game within its pair and scenario (0-based).
    pub index: u32,
    /// Whether `a` played the first side (player 0).
    pub a_first: bool,
    /// `a`'s score: 1 win, ½ draw, 0 loss.
    pub score_a: f64,
    /// `a`'s margin at the end (victory points ahead; negative when behind).
    pub margin_a: f64,
    /// Game length in decisions.
    pub length: u32,
    /// Decisions taken by `a` and by `b`.
    pub moves: [u32; 2],
    /// Seconds `a` and `b` spent choosing their actions.
    pub think_s: [f64; 2],
    /// How long each of `a`'s and `b`'s decisions took, as histograms (for the median and
    /// 95th-percentile move time); absent in games recorded before they were kept.
    #[serde(default, skip_serializing_if = "no_move_times")]
    pub move_times: [MoveTimes; 2],
    /// The game's further figures by name, `a`'s value then `b`'s (see
    /// [`crate::MatchMaker::figures`]); absent in games that have none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, [f64; 2]>,
    /// What the game was drawn to be played with (its board and crews, see
    /// [`crate::lineup`]); absent when every game of the arena has the same.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub lineup: Lineup,
}

impl GameResult {
    /// Whether the fields are possible: a score of 0, ½ or 1 agreeing with the margin's sign,
    /// finite margins and times, moves that fit in the game's length.
    pub fn check(&self) -> Result<(), String> {
        if ![0.0, 0.5, 1.0].contains(&self.score_a) {
            return Err(format!("score {} is not 0, 0.5 or 1", self.score_a));
        }
        if !self.margin_a.is_finite() {
            return Err(format!("margin {} is not a number", self.margin_a));
        }
        let by_margin = if self.margin_a > 0.0 {
            1.0
        } else if self.margin_a < 0.0 {
            0.0
        } else {
            0.5
        };
        if by_margin != self.score_a {
            return Err(format!("score {} disagrees with margin {}", self.score_a, self.margin_a));
        }
        if self.think_s.iter().any(|t| !t.is_finite() || *t < 0.0) {
            return Err(format!("thinking times {:?} are not times", self.think_s));
        }
        for times in &self.move_times {
            times.check()?;
        }
        if let Some((name, v)) = self.figures.iter().find(|(_, v)| v.iter().any(|x| !x.is_finite())) {
            return Err(format!("figure `{name}` {v:?} is not a pair of numbers"));
        }
        if self.moves[0] as u64 + self.moves[1] as u64 > self.length as u64 {
            return Err(format!("{:?} moves do not fit in a game of {} decisions", self.moves, self.length));
        }
        Ok(())
    }
}

/// Whether neither side's move times were kept (games from before they were).
fn no_move_times(times: &[MoveTimes; 2]) -> bool {
    times.iter().all(MoveTimes::is_empty)
}

/// A fitted rating, by agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    /// The agent.
    pub agent: String,
    /// Bradley–Terry rating on the Elo-like scale, mean 0 (see [`crate::ratings`]).
    pub rating: f64,
    /// Its 95% confidence interval.
    pub ci95: [f64; 2],
}

/// One agent's totals over all its games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRow {
    /// The agent.
    pub agent: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Mean score (draws count ½).
    pub score: f64,
    /// 95% Wilson interval of the score.
    pub score_ci95: [f64; 2],
    /// Mean margin from this agent's side.
    pub mean_margin: f64,
    /// Mean game length in decisions.
    pub mean_length: f64,
    /// Mean per game of each of the games' further figures, by name (e.g. models lost to AI
    /// dinosaurs); empty when the games have none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, f64>,
}

/// The games of one pair on one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairScenarioRow {
    /// The scenario.
    pub scenario: String,
    /// Games won by `a`.
    pub wins_a: u32,
    /// Games won by `b`.
    pub wins_b: u32,
    /// Games drawn.
    pub draws: u32,
    /// Mean margin from `a`'s side.
    pub mean_margin_a: f64,
}

/// All the games of one pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairRow {
    /// The first agent.
    pub a: String,
    /// The second agent.
    pub b: String,
    /// Games played.
    pub games: u32,
    /// Games won by `a`.
    pub wins_a: u32,
    /// Games won by `b`.
    pub wins_b: u32,
    /// Games drawn.
    pub draws: u32,
    /// `a`'s mean score (draws count ½).
    pub score_a: f64,
    /// 95% Wilson interval of `a`'s score.
    pub score_a_ci95: [f64; 2],
    /// 95% Wilson interval of `a`'s win rate.
    pub win_a_ci95: [f64; 2],
    /// 95% Wilson interval of the draw rate.
    pub draw_ci95: [f64; 2],
    /// 95% Wilson interval of `b`'s win rate.
    pub win_b_ci95: [f64; 2],
    /// Mean margin from `a`'s side.
    pub mean_margin_a: f64,
    /// Mean game length in decisions.
    pub mean_length: f64,
    /// The same by scenario, in the arena's scenario order.
    pub by_scenario: Vec<PairScenarioRow>,
}

/// An agent's score on one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentScore {
    /// The agent.
    pub agent: String,
    /// Mean score over its games on the scenario.
    pub score: f64,
}

/// All the games of one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioRow {
    /// The scenario.
    pub scenario: String,
    /// Games played.
    pub games: u32,
    /// Mean score of the first side (player 0), whoever played it: the first-player edge.
    pub first_side_score: f64,
    /// 95% Wilson interval of the first side's score.
    pub first_side_ci95: [f64; 2],
    /// Games drawn.
    pub draws: u32,
    /// Mean game length in decisions.
    pub mean_length: f64,
    /// Mean absolute margin.
    pub mean_abs_margin: f64,
    /// Each agent's mean score on the scenario, in `--agents` order.
    pub scores: Vec<AgentScore>,
}

/// The games drawn with one value of their lineup, e.g. board `lagoon_docks` or crews
/// `militia_100 vs the_firm_150`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineupRow {
    /// What was drawn: `board` or `crews`.
    pub key: String,
    /// The value drawn.
    pub value: String,
    /// Games played with it.
    pub games: u32,
    /// Mean score of the first side (player 0), whoever played it: with crews `X vs Y`, the
    /// score of crew X against crew Y.
    pub first_side_score: f64,
    /// 95% Wilson interval of the first side's score.
    pub first_side_ci95: [f64; 2],
    /// Mean game length in decisions.
    pub mean_length: f64,
    /// Each agent's mean score over its games with it, in `--agents` order; agents that
    /// played none are left out.
    pub scores: Vec<AgentScore>,
}

/// One agent's thinking time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentTiming {
    /// The agent.
    pub agent: String,
    /// Decisions taken.
    pub moves: u64,
    /// Mean wall time of a decision, in milliseconds.
    pub ms_per_move: f64,
    /// Median wall time of a decision, in milliseconds (within 9%, see
    /// [`crate::move_times`]); `None` when no game kept its move times.
    pub median_ms: Option<f64>,
    /// 95th-percentile wall time of a decision, in milliseconds, as the median.
    pub p95_ms: Option<f64>,
}

/// How the last run went (not part of the reproducible results).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// Games played by this run.
    pub played: usize,
    /// Games read back from an earlier, interrupted run.
    pub resumed: usize,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of this run in seconds.
    pub wall_s: f64,
}

/// Wall-clock figures: they differ from run to run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// Time per move by agent, over every game (resumed ones included).
    pub agents: Vec<AgentTiming>,
    /// This run.
    pub run: RunInfo,
}

/// The content of `results.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    /// The arena's settings.
    pub settings: ArenaSettings,
    /// Games played in all.
    pub games: usize,
    /// Ratings, best first.
    pub ratings: Vec<RatingRow>,
    /// Totals by agent, in `--agents` order.
    pub agents: Vec<AgentRow>,
    /// Each pair in round-robin order (`a` listed before `b` in `--agents`).
    pub pairs: Vec<PairRow>,
    /// Each scenario in the arena's order.
    pub scenarios: Vec<ScenarioRow>,
    /// Each drawn board and crew pair, by key and value (none when the games draw nothing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lineups: Vec<LineupRow>,
    /// Time per move and run figures (vary between runs).
    pub timing: Timing,
}

/// The first side's (player 0's) score in a game, whoever played it.
fn first_side_score(game: &GameResult) -> f64 {
    if game.a_first {
        game.score_a
    } else {
        1.0 - game.score_a
    }
}

/// A game seen from one agent's side: (agent index, score, margin, length).
fn sides(game: &GameResult, a: usize, b: usize) -> [(usize, f64, f64, u32); 2] {
    [(a, game.score_a, game.margin_a, game.length), (b, 1.0 - game.score_a, -game.margin_a, game.length)]
}

/// A game's place in the arena: its pair's agents, its scenario (indices) and its index.
type Key = (usize, usize, usize, u32);

/// Draw the tables from every game of an arena. The games may come in any order: they are
/// sorted first, so that the sums (and so the results) do not depend on it.
pub fn summarize(settings: &ArenaSettings, games: &[GameResult], run: RunInfo) -> Result<Results, String> {
    let agent_index = |name: &str| {
        settings.agents.iter().position(|a| a == name).ok_or_else(|| format!("unknown agent `{name}`"))
    };
    let scenario_index = |name: &str| {
        settings.scenarios.iter().position(|s| s == name).ok_or_else(|| format!("unknown scenario `{name}`"))
    };
    let mut keyed = Vec::with_capacity(games.len());
    for g in games {
        let (a, b) = (agent_index(&g.a)?, agent_index(&g.b)?);
        keyed.push(((a, b, scenario_index(&g.scenario)?, g.index), g));
    }
    keyed.sort_by_key(|(key, _)| *key);

    let k = settings.agents.len();
    let pair_list = round_robin(k);
    let mut by_agent: Vec<Vec<(f64, f64, u32)>> = vec![Vec::new(); k];
    let mut by_agent_scenario: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); settings.scenarios.len()]; k];
    let mut think = vec![(0u64, 0.0f64); k];
    let mut move_times = vec![MoveTimes::default(); k];
    let mut figures: Vec<BTreeMap<&str, Vec<f64>>> = vec![BTreeMap::new(); k];
    for &((a, b, s, _), g) in &keyed {
        for (name, values) in &g.figures {
            for (i, agent) in [a, b].into_iter().enumerate() {
                figures[agent].entry(name.as_str()).or_default().push(values[i]);
            }
        }
        for (agent, score, margin, length) in sides(g, a, b) {
            by_agent[agent].push((score, margin, length));
            by_agent_scenario[agent][s].push(score);
        }
        for (i, agent) in [a, b].into_iter().enumerate() {
            think[agent].0 += g.moves[i] as u64;
            think[agent].1 += g.think_s[i];
            move_times[agent].merge(&g.move_times[i]);
        }
    }

    let agents: Vec<AgentRow> = settings
        .agents
        .iter()
        .zip(by_agent.iter().zip(&figures))
        .map(|(name, (list, figures))| {
            let mut wdl = Wdl::default();
            list.iter().for_each(|&(s, _, _)| wdl.add(s));
            AgentRow {
                agent: name.clone(),
                games: wdl.games(),
                wins: wdl.wins,
                draws: wdl.draws,
                losses: wdl.losses,
                score: wdl.score(),
                score_ci95: wdl.score_ci95(),
                mean_margin: mean(list.iter().map(|x| x.1)),
                mean_length: mean(list.iter().map(|x| x.2 as f64)),
                figures: figures
                    .iter()
                    .map(|(name, v)| (name.to_string(), mean(v.iter().copied())))
                    .collect(),
            }
        })
        .collect();

    let mut pairs = Vec::new();
    let mut pair_results = Vec::new();
    for &(a, b) in &pair_list {
        let mine: Vec<&GameResult> =
            keyed.iter().filter(|((ka, kb, _, _), _)| (*ka, *kb) == (a, b)).map(|(_, g)| *g).collect();
        let mut wdl = Wdl::default();
        mine.iter().for_each(|g| wdl.add(g.score_a));
        let by_scenario = settings
            .scenarios
            .iter()
            .map(|s| {
                let here: Vec<&&GameResult> = mine.iter().filter(|g| &g.scenario == s).collect();
                let mut t = Wdl::default();
                here.iter().for_each(|g| t.add(g.score_a));
                PairScenarioRow {
                    scenario: s.clone(),
                    wins_a: t.wins,
                    wins_b: t.losses,
                    draws: t.draws,
                    mean_margin_a: mean(here.iter().map(|g| g.margin_a)),
                }
            })
            .collect();
        let n = wdl.games() as f64;
        pairs.push(PairRow {
            a: settings.agents[a].clone(),
            b: settings.agents[b].clone(),
            games: wdl.games(),
            wins_a: wdl.wins,
            wins_b: wdl.losses,
            draws: wdl.draws,
            score_a: wdl.score(),
            score_a_ci95: wdl.score_ci95(),
            win_a_ci95: wilson(wdl.wins as f64, n, Z95),
            draw_ci95: wilson(wdl.draws as f64, n, Z95),
            win_b_ci95: wilson(wdl.losses as f64, n, Z95),
            mean_margin_a: mean(mine.iter().map(|g| g.margin_a)),
            mean_length: mean(mine.iter().map(|g| g.length as f64)),
            by_scenario,
        });
        pair_results.push(PairResult { a, b, record: wdl });
    }

    let fitted = bradley_terry(k, &pair_results, PRIOR_DRAWS)?;
    let mut ratings: Vec<RatingRow> = settings
        .agents
        .iter()
        .zip(fitted)
        .map(|(agent, r)| RatingRow { agent: agent.clone(), rating: r.rating, ci95: r.ci95 })
        .collect();
    ratings.sort_by(|x, y| y.rating.total_cmp(&x.rating));

    let scenarios = settings
        .scenarios
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let here: Vec<&GameResult> =
                keyed.iter().filter(|((_, _, ks, _), _)| *ks == s).map(|(_, g)| *g).collect();
            let mut first = Wdl::default();
            here.iter().for_each(|g| first.add(first_side_score(g)));
            ScenarioRow {
                scenario: name.clone(),
                games: first.games(),
                first_side_score: first.score(),
                first_side_ci95: first.score_ci95(),
                draws: first.draws,
                mean_length: mean(here.iter().map(|g| g.length as f64)),
                mean_abs_margin: mean(here.iter().map(|g| g.margin_a.abs())),
                scores: settings
                    .agents
                    .iter()
                    .zip(&by_agent_scenario)
                    .map(|(agent, per)| AgentScore {
                        agent: agent.clone(),
                        score: if per[s].is_empty() { 0.5 } else { mean(per[s].iter().copied()) },
                    })
                    .collect(),
            }
        })
        .collect();

    let lineups = lineup_rows(settings, &keyed);

    let timing = Timing {
        agents: settings
            .agents
            .iter()
            .zip(think.iter().zip(&move_times))
            .map(|(agent, (&(moves, secs), times))| AgentTiming {
                agent: agent.clone(),
                moves,
                ms_per_move: if moves == 0 { 0.0 } else { 1000.0 * secs / moves as f64 },
                median_ms: times.quantile_ms(0.5),
                p95_ms: times.quantile_ms(0.95),
            })
            .collect(),
        run,
    };
    Ok(Results {
        settings: settings.clone(),
        games: games.len(),
        ratings,
        agents,
        pairs,
        scenarios,
        lineups,
        timing,
    })
}

/// The games by each value of their lineups (`keyed` sorted, keys agent and scenario indices),
/// in the order of the keys and values.
fn lineup_rows(settings: &ArenaSettings, keyed: &[(Key, &GameResult)]) -> Vec<LineupRow> {
    let mut by_value: BTreeMap<(&str, &str), Vec<(Key, &GameResult)>> = BTreeMap::new();
    for &(key, g) in keyed {
        for (k, v) in &g.lineup {
            by_value.entry((k.as_str(), v.as_str())).or_default().push((key, g));
        }
    }
    by_value
        .into_iter()
        .map(|((key, value), games)| {
            let mut first = Wdl::default();
            games.iter().for_each(|(_, g)| first.add(first_side_score(g)));
            let mut per_agent = vec![Vec::new(); settings.agents.len()];
            for &((a, b, _, _), g) in &games {
                for (agent, score, _, _) in sides(g, a, b) {
                    per_agent[agent].push(score);
                }
            }
            LineupRow {
                key: key.to_string(),
                value: value.to_string(),
                games: first.games(),
                first_side_score: first.score(),
                first_side_ci95: first.score_ci95(),
                mean_length: mean(games.iter().map(|(_, g)| g.length as f64)),
                scores: settings
                    .agents
                    .iter()
                    .zip(&per_agent)
                    .filter(|(_, scores)| !scores.is_empty())
                    .map(|(agent, scores)| AgentScore {
                        agent: agent.clone(),
                        score: mean(scores.iter().copied()),
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::PairResult;
    use crate::settings::FORMAT;
    use std::collections::BTreeMap;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// A game of pair `(a, b)`.
    fn game(
        (a, b): (&str, &str),
        scenario: &str,
        index: u32,
        a_first: bool,
        score_a: f64,
        margin_a: f64,
        length: u32,
    ) -> GameResult {
        GameResult {
            a: a.into(),
            b: b.into(),
            scenario: scenario.into(),
            index,
            a_first,
            score_a,
            margin_a,
            length,
            moves: [5, 5],
            think_s: [0.01, 0.02],
            move_times: [0.002, 0.004].map(|each| {
                let mut times = MoveTimes::default();
                (0..5).for_each(|_| times.record(std::time::Duration::from_secs_f64(each)));
                times
            }),
            figures: BTreeMap::new(),
            lineup: Lineup::new(),
        }
    }

    /// Three agents; A–B: a win and a draw, A–C: three wins and a draw, B–C: a win and a draw.
    fn table() -> (ArenaSettings, Vec<GameResult>) {
        let settings = ArenaSettings {
            format: FORMAT,
            agents: vec!["A".into(), "B".into(), "C".into()],
            scenarios: vec!["s1".into(), "s2".into()],
            games: 2,
            seed: 0,
            options: BTreeMap::new(),
        };
        let games = vec![
            game(("A", "B"), "s1", 0, true, 1.0, 3.0, 10),
            game(("A", "B"), "s2", 1, false, 0.5, 0.0, 20),
            game(("A", "C"), "s1", 0, true, 1.0, 2.0, 10),
            game(("A", "C"), "s1", 1, false, 1.0, 4.0, 30),
            game(("A", "C"), "s2", 0, true, 1.0, 1.0, 10),
            game(("A", "C"), "s2", 1, false, 0.5, 0.0, 10),
            game(("B", "C"), "s1", 0, true, 1.0, 5.0, 20),
            game(("B", "C"), "s1", 1, false, 0.5, 0.0, 40),
        ];
        (settings, games)
    }

    #[test]
    fn a_small_table_gives_the_hand_computed_statistics() {
        let (settings, games) = table();
        let r = summarize(&settings, &games, RunInfo::default()).unwrap();
        assert_eq!(r.games, 8);

        let ab = &r.pairs[0];
        assert_eq!(
            (ab.a.as_str(), ab.b.as_str(), ab.games, ab.wins_a, ab.draws, ab.wins_b),
            ("A", "B", 2, 1, 1, 0)
        );
        assert_eq!(ab.score_a, 0.75);
        assert_eq!(ab.score_a_ci95, wilson(1.5, 2.0, Z95));
        assert_eq!(ab.win_a_ci95, wilson(1.0, 2.0, Z95));
        assert_eq!(ab.draw_ci95, wilson(1.0, 2.0, Z95));
        assert_eq!(ab.win_b_ci95, [0.0, wilson(0.0, 2.0, Z95)[1]]);
        assert!(close(ab.mean_margin_a, 1.5) && close(ab.mean_length, 15.0));
        assert_eq!(
            (ab.by_scenario[0].wins_a, ab.by_scenario[0].draws, ab.by_scenario[0].mean_margin_a),
            (1, 0, 3.0)
        );
        assert_eq!(
            (ab.by_scenario[1].wins_a, ab.by_scenario[1].draws, ab.by_scenario[1].mean_margin_a),
            (0, 1, 0.0)
        );
        let ac = &r.pairs[1];
        assert_eq!((ac.wins_a, ac.draws, ac.wins_b, ac.score_a), (3, 1, 0, 0.875));
        assert!(close(ac.mean_margin_a, 1.75) && close(ac.mean_length, 15.0));
        let bc = &r.pairs[2];
        assert_eq!((bc.a.as_str(), bc.wins_a, bc.draws, bc.wins_b), ("B", 1, 1, 0));
        assert!(close(bc.mean_margin_a, 2.5) && close(bc.mean_length, 30.0));

        let totals: Vec<_> = r.agents.iter().map(|a| (a.games, a.wins, a.draws, a.losses)).collect();
        assert_eq!(totals, [(6, 4, 2, 0), (4, 1, 2, 1), (6, 0, 2, 4)]);
        let expect = [(5.0 / 6.0, 10.0 / 6.0, 15.0), (0.5, 0.5, 22.5), (1.0 / 6.0, -2.0, 20.0)];
        for (a, (score, margin, length)) in r.agents.iter().zip(expect) {
            assert!(
                close(a.score, score) && close(a.mean_margin, margin) && close(a.mean_length, length),
                "{a:?}"
            );
        }
        assert_eq!(r.agents[2].score_ci95, wilson(1.0, 6.0, Z95));

        // With the prior's virtual draw the pairs score 2/3, 4/5 and 2/3 over 3, 5 and 3
        // games: strengths 4 : 2 : 1, ratings ±400·log10 2 around B (see `ratings`).
        let step = 400.0 * 2f64.log10();
        let names: Vec<&str> = r.ratings.iter().map(|x| x.agent.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        for (row, want) in r.ratings.iter().zip([step, 0.0, -step]) {
            assert!((row.rating - want).abs() < 1e-6, "{row:?}");
        }
        let direct = bradley_terry(
            3,
            &[
                PairResult { a: 0, b: 1, record: Wdl { wins: 1, draws: 1, losses: 0 } },
                PairResult { a: 0, b: 2, record: Wdl { wins: 3, draws: 1, losses: 0 } },
                PairResult { a: 1, b: 2, record: Wdl { wins: 1, draws: 1, losses: 0 } },
            ],
            PRIOR_DRAWS,
        )
        .unwrap();
        for (row, fit) in r.ratings.iter().zip(&direct) {
            assert_eq!(row.ci95, fit.ci95);
        }

        let s1 = &r.scenarios[0];
        assert_eq!((s1.games, s1.draws), (5, 1));
        assert!(
            close(s1.first_side_score, 0.7) && close(s1.mean_length, 22.0) && close(s1.mean_abs_margin, 2.8)
        );
        let s1_scores: Vec<f64> = s1.scores.iter().map(|a| a.score).collect();
        assert_eq!(s1_scores, [1.0, 0.5, 0.125]);
        let s2 = &r.scenarios[1];
        assert_eq!((s2.games, s2.draws), (3, 2));
        assert!(close(s2.first_side_score, 2.0 / 3.0) && close(s2.mean_abs_margin, 1.0 / 3.0));
        assert!(
            close(s2.scores[0].score, 2.0 / 3.0)
                && close(s2.scores[1].score, 0.5)
                && close(s2.scores[2].score, 0.25)
        );

        // A thinks 10 ms in each of its 6 games of 5 moves; B 20 ms as b and 10 as a; C 20 ms.
        let ms: Vec<(u64, f64)> = r.timing.agents.iter().map(|t| (t.moves, t.ms_per_move)).collect();
        for ((moves, ms), (want_moves, want_ms)) in ms.into_iter().zip([(30, 2.0), (20, 3.0), (30, 4.0)]) {
            assert!(moves == want_moves && close(ms, want_ms), "{moves} {ms}");
        }
        // Each of A's moves took 2 ms, C's 4 ms; B's half 2 ms (as a), half 4 ms (as b).
        let near = |got: Option<f64>, want: f64| got.is_some_and(|g| (g / want - 1.0).abs() < 0.091);
        let t = &r.timing.agents;
        assert!(near(t[0].median_ms, 2.0) && near(t[0].p95_ms, 2.0), "{:?}", t[0]);
        assert!(near(t[1].median_ms, 2.0) && near(t[1].p95_ms, 4.0), "{:?}", t[1]);
        assert!(near(t[2].median_ms, 4.0) && near(t[2].p95_ms, 4.0), "{:?}", t[2]);
    }

    #[test]
    fn figures_are_averaged_per_agent_over_its_games() {
        let (settings, mut games) = table();
        // Only A–B games carry the figure: A lost 1 then 3 models, B 2 then 0.
        games[0].figures.insert("lost".into(), [1.0, 2.0]);
        games[1].figures.insert("lost".into(), [3.0, 0.0]);
        let r = summarize(&settings, &games, RunInfo::default()).unwrap();
        assert_eq!(r.agents[0].figures["lost"], 2.0);
        assert_eq!(r.agents[1].figures["lost"], 1.0);
        assert!(r.agents[2].figures.is_empty());
        games[0].figures.insert("lost".into(), [f64::NAN, 2.0]);
        assert!(games[0].check().unwrap_err().contains("lost"));
    }

    #[test]
    fn games_are_broken_down_by_each_drawn_value() {
        let (settings, mut games) = table();
        let lineup = |board: &str| {
            Lineup::from([
                ("board".to_string(), board.to_string()),
                ("crews".to_string(), "p vs q".to_string()),
            ])
        };
        // A–B on x: A wins on the first side, then draws on the second; A–C on y: A wins.
        games[0].lineup = lineup("x");
        games[1].lineup = lineup("x");
        games[2].lineup = lineup("y");
        let r = summarize(&settings, &games, RunInfo::default()).unwrap();
        let rows: Vec<(&str, &str, u32)> =
            r.lineups.iter().map(|x| (x.key.as_str(), x.value.as_str(), x.games)).collect();
        assert_eq!(rows, [("board", "x", 2), ("board", "y", 1), ("crews", "p vs q", 3)]);
        let scores = |i: usize| -> Vec<(&str, f64)> {
            r.lineups[i].scores.iter().map(|s| (s.agent.as_str(), s.score)).collect()
        };
        assert_eq!(r.lineups[0].first_side_score, 0.75);
        assert_eq!(scores(0), [("A", 0.75), ("B", 0.25)]);
        assert_eq!(scores(1), [("A", 1.0), ("C", 0.0)]);
        assert!(
            close(r.lineups[2].first_side_score, 2.5 / 3.0) && close(r.lineups[2].mean_length, 40.0 / 3.0)
        );
        let report = crate::report::markdown(&r);
        assert!(report.contains("| board | games | first side score |"), "{report}");
        assert!(report.contains("| y | 1 | 100.0% |"), "{report}");
        let summary = crate::report::summary(&r);
        assert!(summary.contains("crews") && summary.contains("p vs q"), "{summary}");
        // Without draws, no table.
        let plain = summarize(&settings, &table().1, RunInfo::default()).unwrap();
        assert!(plain.lineups.is_empty() && !crate::report::markdown(&plain).contains("## Lineups"));
    }

    #[test]
    fn the_order_of_the_games_does_not_matter() {
        let (settings, mut games) = table();
        let forward = summarize(&settings, &games, RunInfo::default()).unwrap();
        games.reverse();
        assert_eq!(summarize(&settings, &games, RunInfo::default()).unwrap(), forward);
        games.push(game(("A", "Z"), "s1", 0, true, 1.0, 0.0, 1));
        assert!(summarize(&settings, &games, RunInfo::default()).unwrap_err().contains("`Z`"));
    }
}
