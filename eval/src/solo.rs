//! Solo runs (`tde arena --solo`): each agent plays side A's crew alone against the Ulaya
//! Chronicles card AI's dinosaurs, with no second crew, and is judged by its [`SoloScore`]:
//! the scenario's victory points, the dinosaurs it took out and the models it lost.
//!
//! Every agent plays the same games: game `i` of a scenario has its dice, agent seeds and
//! lineup (board and crew, when drawn per game: see [`crate::lineup`]) hashed from (`seed`,
//! scenario, `i`) alone, so the agents meet the same boards, crews and rolls where their
//! choices allow. Games run in parallel; the results depend on the settings only.

use crate::lineup::{pool_or, Lineups, Pool};
use crate::matchmaker::Lineup;
use crate::run_folder::{self, write_atomic, GamesLog, RunSettings};
use crate::win_draw_loss::{mean, Z95};
use agents::Agent;
use engine::scenario::Scenario;
use engine::setup::GameConfig;
use engine::state::SoloScore;
use engine::GameState;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

/// Builds a TDE agent from its spec and a seed.
pub type AgentFactory = crate::games::drowned_earth::AgentFactory;

/// What a solo run plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SoloSettings {
    /// Agent specs (each plays every game).
    pub agents: Vec<String>,
    /// Scenarios played, each `games` times per agent.
    pub scenarios: Vec<Scenario>,
    /// Games per agent and scenario.
    pub games: u32,
    /// The run's seed.
    pub seed: u64,
    /// The game: board, side A's crew, rules, dinosaurs and ambush markers (`solo` set).
    pub board: String,
    /// Side A's crew.
    pub crew: String,
    /// Boards each game draws from instead of `board` (`all` expanded once the run starts);
    /// empty when every game is on `board`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<String>,
    /// Crews each game draws from instead of `crew`, as `boards`; empty for `crew`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crew_pool: Vec<String>,
    /// Rule variant.
    pub rules: String,
    /// AI dinosaurs placed before deployment (at least 1).
    pub dinos: u8,
    /// Ambush markers placed after them.
    pub ambush: u8,
}

impl RunSettings for SoloSettings {
    fn difference(&self, other: &SoloSettings) -> Option<(String, String, String)> {
        let fields = |s: &SoloSettings| {
            let scenarios: Vec<&str> = s.scenarios.iter().map(|sc| sc.name()).collect();
            [
                ("agents", s.agents.join(",")),
                ("scenarios", scenarios.join(",")),
                ("games", s.games.to_string()),
                ("seed", s.seed.to_string()),
                ("board", s.board.clone()),
                ("boards", if s.boards.is_empty() { "(none)".to_string() } else { s.boards.join(",") }),
                ("crews", pool_or(&s.crew_pool, &s.crew)),
                ("rules", s.rules.clone()),
                ("dinos", s.dinos.to_string()),
                ("ambush", s.ambush.to_string()),
            ]
        };
        fields(self)
            .into_iter()
            .zip(fields(other))
            .find(|(mine, theirs)| mine.1 != theirs.1)
            .map(|((field, mine), (_, theirs))| (field.to_string(), mine, theirs))
    }
}

/// One solo game's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SoloGame {
    /// The agent's spec.
    pub agent: String,
    /// The scenario's machine name.
    pub scenario: String,
    /// Index of the game within its agent and scenario.
    pub index: u32,
    /// The final score.
    pub score: SoloScore,
    /// Decisions the agent took.
    pub decisions: u32,
    /// The board and crew drawn for the game; absent when every game has the same.
    #[serde(default, skip_serializing_if = "Lineup::is_empty")]
    pub lineup: Lineup,
}

/// Mean figures of one agent (or one agent on one scenario).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SoloFigures {
    /// Games played.
    pub games: usize,
    /// Mean [`SoloScore::total`].
    pub score: f64,
    /// 95% confidence interval of the mean score (normal approximation).
    pub score_ci95: [f64; 2],
    /// Mean victory points.
    pub vp: f64,
    /// Mean dinosaurs taken out.
    pub dinosaurs_taken_out: f64,
    /// Mean models lost.
    pub models_lost: f64,
}

impl SoloFigures {
    fn of<'a>(games: impl Iterator<Item = &'a SoloGame> + Clone) -> SoloFigures {
        let totals: Vec<f64> = games.clone().map(|g| g.score.total() as f64).collect();
        let n = totals.len();
        let m = mean(totals.iter().copied());
        let var =
            if n > 1 { totals.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
        let half = Z95 * (var / n.max(1) as f64).sqrt();
        SoloFigures {
            games: n,
            score: m,
            score_ci95: [m - half, m + half],
            vp: mean(games.clone().map(|g| g.score.vp as f64)),
            dinosaurs_taken_out: mean(games.clone().map(|g| g.score.dinosaurs_taken_out as f64)),
            models_lost: mean(games.map(|g| g.score.models_lost as f64)),
        }
    }
}

/// One agent's row of the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SoloRow {
    /// The agent's spec.
    pub agent: String,
    /// Over every game.
    pub all: SoloFigures,
    /// Per scenario, in the settings' order.
    pub per_scenario: Vec<(String, SoloFigures)>,
    /// Per drawn board and crew: the key (`board`, `crew`), the value and the figures of the
    /// games with it; none when nothing is drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_lineup: Vec<(String, String, SoloFigures)>,
}

/// A finished solo run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SoloResults {
    /// What was played.
    pub settings: SoloSettings,
    /// One row per agent, best mean score first.
    pub rows: Vec<SoloRow>,
    /// Every game.
    pub games: Vec<SoloGame>,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
}

/// Mix `parts` into one seed (SplitMix64 steps), so that each game's seeds depend on the
/// settings and the game alone.
fn mix(parts: &[u64]) -> u64 {
    parts.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, &p| {
        let mut z = h ^ p.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

/// Play the run on `threads` threads (a progress bar when `progress`), building agents with
/// `factory`; with `out`, write `results.json` and `report.md` there.
pub fn run_solo(
    settings: &SoloSettings,
    factory: AgentFactory,
    threads: usize,
    progress: bool,
    out: Option<&Path>,
) -> Result<SoloResults, String> {
    let start = std::time::Instant::now();
    if settings.dinos == 0 {
        return Err("--solo needs AI dinosaurs to face: --dinos 1 or more".into());
    }
    if settings.agents.is_empty() || settings.scenarios.is_empty() {
        return Err("a solo run needs at least one agent and one scenario".into());
    }
    let config = GameConfig {
        rules: settings.rules.clone(),
        dinos: settings.dinos,
        ambush: settings.ambush,
        solo: true,
        ..GameConfig::default()
    };
    let lineups = Lineups::new(
        config,
        Pool::drawn_or(&settings.boards, settings.board.clone()),
        Pool::drawn_or(&settings.crew_pool, [settings.crew.clone(), settings.crew.clone()]),
    )?;
    lineups.prepare(&settings.scenarios)?;
    let [boards, crew_pool] = lineups.drawn();
    let settings = &SoloSettings { boards, crew_pool, ..settings.clone() };
    // Every spec must build before any game is played.
    for spec in &settings.agents {
        factory(spec, 0)?;
    }
    let mut done = match out {
        Some(dir) => open_folder(dir, settings)?,
        None => Vec::new(),
    };
    let finished: BTreeSet<(&str, &str, u32)> =
        done.iter().map(|g| (g.agent.as_str(), g.scenario.as_str(), g.index)).collect();
    let mut jobs = Vec::new();
    for index in 0..settings.games {
        for (scenario, sc) in settings.scenarios.iter().enumerate() {
            for (agent, spec) in settings.agents.iter().enumerate() {
                if !finished.contains(&(spec.as_str(), sc.name(), index)) {
                    jobs.push((agent, scenario, index));
                }
            }
        }
    }
    let log = out.map(GamesLog::open).transpose()?;
    let total = settings.agents.len() * settings.scenarios.len() * settings.games as usize;
    let bar = crate::arena::progress_bar(total, total - jobs.len(), progress);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    let played: Vec<SoloGame> = pool.install(|| {
        jobs.par_iter()
            .map(|&(agent, scenario, index)| {
                let name = settings.scenarios[scenario].name();
                let seeds = mix(&[settings.seed, scenario as u64, index as u64]);
                let spec = &settings.agents[agent];
                let mut agents: Vec<Box<dyn Agent<GameState>>> = vec![factory(spec, mix(&[seeds, 1]))?];
                let (initial, lineup) = lineups.game(settings.scenarios[scenario], mix(&[seeds, 4]))?;
                let end = agents::play_game(initial, &mut agents, seeds, |_, _| {});
                let score = end.solo_score().ok_or("a solo game ended without a solo score")?;
                let game = SoloGame {
                    agent: spec.clone(),
                    scenario: name.to_string(),
                    index,
                    score,
                    decisions: end.dynamic().decisions,
                    lineup,
                };
                if let Some(log) = &log {
                    log.append(&game)?;
                }
                bar.inc(1);
                Ok(game)
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    bar.finish_and_clear();
    done.extend(played);
    // The same order whether or not the run was resumed.
    done.sort_by(|a, b| (&a.agent, &a.scenario, a.index).cmp(&(&b.agent, &b.scenario, b.index)));
    let games = done;
    let mut rows: Vec<SoloRow> = settings
        .agents
        .iter()
        .map(|agent| {
            let mine = games.iter().filter(|g| &g.agent == agent);
            SoloRow {
                agent: agent.clone(),
                all: SoloFigures::of(mine.clone()),
                per_scenario: settings
                    .scenarios
                    .iter()
                    .map(|s| {
                        (
                            s.name().to_string(),
                            SoloFigures::of(mine.clone().filter(|g| g.scenario == s.name())),
                        )
                    })
                    .collect(),
                per_lineup: mine
                    .clone()
                    .flat_map(|g| &g.lineup)
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .map(|(k, v)| {
                        let here = mine.clone().filter(|g| g.lineup.get(k) == Some(v));
                        (k.clone(), v.clone(), SoloFigures::of(here))
                    })
                    .collect(),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.all.score.total_cmp(&a.all.score));
    let results =
        SoloResults { settings: settings.clone(), rows, games, wall_s: start.elapsed().as_secs_f64() };
    if let Some(dir) = out {
        let json = serde_json::to_string_pretty(&results).expect("results serialise");
        write_atomic(&dir.join("results.json"), json.as_bytes())?;
        write_atomic(&dir.join("report.md"), solo_markdown(&results).as_bytes())?;
    }
    Ok(results)
}

/// Prepare the output folder: check or write `solo.json`, and read back the games of an
/// earlier run from `games.jsonl`.
fn open_folder(dir: &Path, settings: &SoloSettings) -> Result<Vec<SoloGame>, String> {
    let mut keys = BTreeSet::new();
    run_folder::open(dir, "solo.json", settings, |g: &SoloGame| {
        let known = settings.agents.contains(&g.agent)
            && settings.scenarios.iter().any(|s| s.name() == g.scenario)
            && g.index < settings.games;
        if !known {
            return Err("the game is not part of this solo run".into());
        }
        if !keys.insert((g.agent.clone(), g.scenario.clone(), g.index)) {
            return Err("the game appears twice".into());
        }
        Ok(())
    })
}

/// The report: the settings, a table of every agent's means with the score's 95% interval,
/// and the mean score per scenario.
pub fn solo_markdown(r: &SoloResults) -> String {
    let s = &r.settings;
    let mut t = String::new();
    let _ = writeln!(t, "# Solo runs against the card AI\n");
    let _ = writeln!(
        t,
        "Crew `{}` alone (no second crew) against {} AI dinosaurs{} on board `{}`, rules `{}`; \
         {} games per agent and scenario ({} per agent), seed {}, {:.0} s.\n",
        pool_or(&s.crew_pool, &s.crew),
        s.dinos,
        if s.ambush > 0 { format!(" and {} ambush markers", s.ambush) } else { String::new() },
        pool_or(&s.boards, &s.board),
        s.rules,
        s.games,
        s.games as usize * s.scenarios.len(),
        s.seed,
        r.wall_s
    );
    let _ = writeln!(
        t,
        "Score = VP + dinosaurs taken out − models lost (docs/rulings.md); means per game, the \
         score with its 95% confidence interval.\n"
    );
    let _ = writeln!(t, "| agent | games | score | 95% CI | VP | dinosaurs taken out | models lost |");
    let _ = writeln!(t, "| --- | ---: | ---: | --- | ---: | ---: | ---: |");
    for row in &r.rows {
        let f = &row.all;
        let _ = writeln!(
            t,
            "| `{}` | {} | {:.2} | {:.2} – {:.2} | {:.2} | {:.2} | {:.2} |",
            row.agent,
            f.games,
            f.score,
            f.score_ci95[0],
            f.score_ci95[1],
            f.vp,
            f.dinosaurs_taken_out,
            f.models_lost
        );
    }
    let _ = writeln!(t, "\n## Mean score per scenario\n");
    let _ = write!(t, "| agent |");
    for sc in &s.scenarios {
        let _ = write!(t, " {} |", sc.title());
    }
    let _ = write!(t, "\n| --- |");
    for _ in &s.scenarios {
        let _ = write!(t, " ---: |");
    }
    t.push('\n');
    for row in &r.rows {
        let _ = write!(t, "| `{}` |", row.agent);
        for (_, f) in &row.per_scenario {
            let _ = write!(t, " {:.2} |", f.score);
        }
        t.push('\n');
    }
    lineup_table(&mut t, r, true);
    t
}

/// The mean score of every agent by drawn board and crew, one table per key (a line of the
/// key, the value, then each agent's mean score and games): in Markdown, or as text showing
/// the first [`crate::report::SUMMARY_LINEUP_ROWS`] values of each key.
fn lineup_table(t: &mut String, r: &SoloResults, markdown: bool) {
    let values: BTreeSet<(&str, &str)> = r
        .rows
        .iter()
        .flat_map(|row| row.per_lineup.iter().map(|(k, v, _)| (k.as_str(), v.as_str())))
        .collect();
    let values: Vec<(&str, &str)> = values.into_iter().collect();
    let cell = |row: &SoloRow, key: &str, value: &str| {
        let f = row.per_lineup.iter().find(|(k, v, _)| k == key && v == value);
        f.map_or("–".to_string(), |(_, _, f)| format!("{:.2} ({})", f.score, f.games))
    };
    for keyed in values.chunk_by(|x, y| x.0 == y.0) {
        let key = keyed[0].0;
        if markdown {
            let _ = write!(t, "\n## Mean score (games) by {key}\n\n| {key} |");
            for row in &r.rows {
                let _ = write!(t, " `{}` |", row.agent);
            }
            let _ = writeln!(t, "\n| --- |{}", " ---: |".repeat(r.rows.len()));
            for &(_, value) in keyed {
                let cells: Vec<String> = r.rows.iter().map(|row| cell(row, key, value)).collect();
                let _ = writeln!(t, "| {value} | {} |", cells.join(" | "));
            }
        } else {
            let _ = writeln!(t, "\nmean score (games) by {key}");
            for &(_, value) in keyed.iter().take(crate::report::SUMMARY_LINEUP_ROWS) {
                let cells: Vec<String> =
                    r.rows.iter().map(|row| format!("{}: {}", row.agent, cell(row, key, value))).collect();
                let _ = writeln!(t, "  {value}: {}", cells.join(", "));
            }
            if keyed.len() > crate::report::SUMMARY_LINEUP_ROWS {
                let more = keyed.len() - crate::report::SUMMARY_LINEUP_ROWS;
                let _ = writeln!(t, "  … and {more} more (report.md, results.json)");
            }
        }
    }
}

/// A short text summary for the terminal.
pub fn solo_summary(r: &SoloResults) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<40} {:>6} {:>7} {:>17} {:>6} {:>7} {:>6}",
        "agent", "games", "score", "95% CI", "VP", "dinos", "lost"
    );
    for row in &r.rows {
        let f = &row.all;
        let _ = writeln!(
            t,
            "{:<40} {:>6} {:>7.2} {:>8.2}–{:<8.2} {:>6.2} {:>7.2} {:>6.2}",
            row.agent,
            f.games,
            f.score,
            f.score_ci95[0],
            f.score_ci95[1],
            f.vp,
            f.dinosaurs_taken_out,
            f.models_lost
        );
    }
    lineup_table(&mut t, r, false);
    t.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(agent: &str, scenario: &str, vp: i32, out: i32, lost: i32) -> SoloGame {
        SoloGame {
            agent: agent.into(),
            scenario: scenario.into(),
            index: 0,
            score: SoloScore { vp, dinosaurs_taken_out: out, models_lost: lost },
            decisions: 1,
            lineup: Lineup::new(),
        }
    }

    #[test]
    fn figures_are_means_with_a_normal_interval() {
        let games = [game("a", "x", 2, 1, 0), game("a", "x", 0, 0, 3), game("a", "x", 4, 2, 0)];
        // Totals 3, -3 and 6: mean 2, sample variance ((1 + 25 + 16) / 2) = 21.
        let f = SoloFigures::of(games.iter());
        assert_eq!(f.games, 3);
        assert!((f.score - 2.0).abs() < 1e-12);
        let half = Z95 * (21.0f64 / 3.0).sqrt();
        assert!(
            (f.score_ci95[0] - (2.0 - half)).abs() < 1e-9 && (f.score_ci95[1] - (2.0 + half)).abs() < 1e-9
        );
        assert!((f.vp - 2.0).abs() < 1e-12 && (f.dinosaurs_taken_out - 1.0).abs() < 1e-12);
        assert!((f.models_lost - 1.0).abs() < 1e-12);
    }
}
