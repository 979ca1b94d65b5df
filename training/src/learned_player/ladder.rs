//! The ladder (`tde ladder`): every committed generation of the learned player, the scripted
//! player and any other agents named, rated against each other by Bradley–Terry over an arena
//! with boards and crews drawn per game and sides swapped on each draw.
//!
//! The arena runs in a folder of its own (`--run`), named after its agents, so a ladder
//! stopped part-way resumes, and a ladder with a new generation starts a new arena. The
//! written ladder — `README.md` (the table), `ladder.json` and `ratings.png` (rating by
//! generation with 95% intervals) — is replaced, each file atomically, only once the arena is
//! complete, so a stopped run leaves the last complete ladder as it was.

use super::games::mix;
use agents::learned::generation::newest_in;
use eval::games::drowned_earth::TdeMatch;
use eval::lineup::Pool;
use eval::plot;
use eval::results::Results;
use eval::{arena, ArenaOptions, ArenaSettings};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What a ladder plays.
#[derive(Clone, Debug)]
pub struct LadderSettings {
    /// The folder of committed generations.
    pub ladder: PathBuf,
    /// The folder of the fast network's committed generations (`gen-NNN.fnet`), rated too.
    pub fast: Option<PathBuf>,
    /// Agents rated beside the generations and `scripted` (specs).
    pub extra: Vec<String>,
    /// Games per pair.
    pub games: u32,
    /// The arena's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Where the arenas run.
    pub run: PathBuf,
    /// Where the ladder is written.
    pub out: PathBuf,
    /// Show a progress bar.
    pub progress: bool,
}

/// One rated agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The agent's spec.
    pub agent: String,
    /// Its generation, for a learned one.
    pub generation: Option<u32>,
    /// Its generation, for the fast network.
    #[serde(default)]
    pub fast_generation: Option<u32>,
    /// Bradley–Terry rating (Elo-like scale, mean 0).
    pub rating: f64,
    /// 95% interval of the rating.
    pub ci95: [f64; 2],
    /// Its score against `scripted` (none for `scripted` itself).
    pub vs_scripted: Option<f64>,
    /// 95% interval of that score.
    pub vs_scripted_ci95: Option<[f64; 2]>,
}

/// The ladder as written to `ladder.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    /// Games per pair.
    pub games_per_pair: u32,
    /// Games in all.
    pub games: usize,
    /// The arena's seed.
    pub seed: u64,
    /// Every agent, best first.
    pub rungs: Vec<Rung>,
}

/// The committed generations' files in `dir`, oldest first.
pub fn generations(dir: &Path) -> Result<Vec<(u32, PathBuf)>, String> {
    if newest_in(dir)?.is_none() {
        return Err(format!("{}: holds no gen-NNN.json", dir.display()));
    }
    numbered_files(dir, ".json")
}

/// The files `gen-NNN{suffix}` in `dir` with their numbers, oldest first.
fn numbered_files(dir: &Path, suffix: &str) -> Result<Vec<(u32, PathBuf)>, String> {
    let mut out: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().to_string();
            let n = name.strip_prefix("gen-")?.strip_suffix(suffix)?.parse::<u32>().ok()?;
            Some((n, p))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The fast network's committed generations in `dir` (`gen-NNN.fnet`), oldest first.
pub fn fast_generations(dir: &Path) -> Result<Vec<(u32, PathBuf)>, String> {
    numbered_files(dir, ".fnet")
}

/// The spec of the fast network's generation file `path` alone.
fn fast_spec(path: &Path) -> String {
    format!("fast:net={}", path.display())
}

/// Run (or resume) the ladder's arena and write the ladder.
pub fn run_ladder(s: &LadderSettings) -> Result<Ladder, String> {
    let gens = generations(&s.ladder)?;
    let fast = match &s.fast {
        Some(dir) => fast_generations(dir)?,
        None => Vec::new(),
    };
    let mut agents: Vec<String> = gens.iter().map(|(_, p)| format!("learned:gen={}", p.display())).collect();
    agents.extend(fast.iter().map(|(_, p)| fast_spec(p)));
    agents.push("scripted".into());
    for e in &s.extra {
        if !agents.contains(e) {
            agents.push(e.clone());
        }
    }
    let all = vec!["all".to_string()];
    let maker = TdeMatch::with_pools(Pool::Drawn(all.clone()), Pool::Drawn(all), "standard", 0, 0)?
        .with_factory(crate::play::make_agent);
    let per_scenario = s.games.div_ceil(engine::scenario::Scenario::ALL.len() as u32);
    let settings = ArenaSettings::new(&maker, &agents, &["all".to_string()], per_scenario, s.seed)?;
    let key = agents.iter().fold(s.seed, |h, a| mix(h ^ a.bytes().fold(0u64, |x, b| mix(x ^ b as u64))));
    let dir = s.run.join(format!("arena-{}-{key:016x}", agents.len()));
    let options = ArenaOptions { threads: s.threads, out: Some(dir), records: false, progress: s.progress };
    let results = arena::run(&maker, &settings, &options)?;
    let ladder = ladder_of(
        &results,
        &gens,
        &fast,
        per_scenario * engine::scenario::Scenario::ALL.len() as u32,
        s.seed,
    );
    std::fs::create_dir_all(&s.out).map_err(|e| format!("{}: {e}", s.out.display()))?;
    write_atomic(
        &s.out.join("ladder.json"),
        &(serde_json::to_string_pretty(&ladder).expect("serialises") + "\n"),
    )?;
    plot(&ladder, &s.out.join("ratings.png"))?;
    write_atomic(&s.out.join("README.md"), &readme(&ladder))?;
    Ok(ladder)
}

/// The ladder of an arena's results.
pub fn ladder_of(
    results: &Results,
    gens: &[(u32, PathBuf)],
    fast: &[(u32, PathBuf)],
    games_per_pair: u32,
    seed: u64,
) -> Ladder {
    let generation_of = |agent: &str| {
        gens.iter().find(|(_, p)| agent == format!("learned:gen={}", p.display())).map(|(n, _)| *n)
    };
    let fast_generation_of = |agent: &str| fast.iter().find(|(_, p)| agent == fast_spec(p)).map(|(n, _)| *n);
    let vs_scripted = |agent: &str| {
        results.pairs.iter().find_map(|p| {
            if p.a == agent && p.b == "scripted" {
                Some((p.score_a, p.score_a_ci95))
            } else if p.b == agent && p.a == "scripted" {
                Some((1.0 - p.score_a, [1.0 - p.score_a_ci95[1], 1.0 - p.score_a_ci95[0]]))
            } else {
                None
            }
        })
    };
    let rungs = results
        .ratings
        .iter()
        .map(|r| {
            let v = vs_scripted(&r.agent);
            Rung {
                agent: r.agent.clone(),
                generation: generation_of(&r.agent),
                fast_generation: fast_generation_of(&r.agent),
                rating: r.rating,
                ci95: r.ci95,
                vs_scripted: v.map(|x| x.0),
                vs_scripted_ci95: v.map(|x| x.1),
            }
        })
        .collect();
    Ladder { games_per_pair, games: results.games, seed, rungs }
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The ladder's table in Markdown.
pub fn readme(ladder: &Ladder) -> String {
    let mut out = String::from("# The ladder of learned generations\n\n");
    let _ = writeln!(
        out,
        "Written by `tde ladder`: every committed generation of the learned player (`checkpoints/learned/`) and of \
         the fast network alone (`checkpoints/fast/`), `scripted` and the other agents \
         named, every pair {} games over the five scenarios, boards and crews drawn per game, sides swapped on each \
         draw, seed {} ({} games in all). Ratings are Bradley–Terry on an Elo-like scale (mean 0) with 95% intervals; \
         `ratings.png` plots them by generation.\n",
        ladder.games_per_pair, ladder.seed, ladder.games
    );
    out.push_str("| agent | generation | rating | 95% interval | score vs scripted |\n| --- | --- | --- | --- | --- |\n");
    for r in &ladder.rungs {
        let vs = match (r.vs_scripted, r.vs_scripted_ci95) {
            (Some(s), Some([lo, hi])) => format!("{:.1}% ({:.1}–{:.1}%)", 100.0 * s, 100.0 * lo, 100.0 * hi),
            _ => "—".into(),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {:.0} | {:.0} to {:.0} | {} |",
            r.agent,
            match (r.generation, r.fast_generation) {
                (Some(g), _) => format!("learned {g}"),
                (None, Some(g)) => format!("fast {g}"),
                _ => "—".into(),
            },
            r.rating,
            r.ci95[0],
            r.ci95[1],
            vs
        );
    }
    out
}

/// Plot each learned player's generations (the term-weight player's and the fast network's)
/// as a line of ratings with their 95% intervals, and the other agents as flat lines.
pub fn plot(ladder: &Ladder, out: &Path) -> Result<(), String> {
    let series = |of: fn(&Rung) -> Option<u32>| {
        let mut g: Vec<(f64, &Rung)> = ladder.rungs.iter().filter_map(|r| Some((of(r)? as f64, r))).collect();
        g.sort_by(|a, b| a.0.total_cmp(&b.0));
        g
    };
    let learned = series(|r| r.generation);
    let fast = series(|r| r.fast_generation);
    let others: Vec<&Rung> =
        ladder.rungs.iter().filter(|r| r.generation.is_none() && r.fast_generation.is_none()).collect();
    let lo = ladder.rungs.iter().map(|r| r.ci95[0]).fold(f64::INFINITY, f64::min) - 20.0;
    let hi = ladder.rungs.iter().map(|r| r.ci95[1]).fold(f64::NEG_INFINITY, f64::max) + 20.0;
    let last = learned.iter().chain(&fast).map(|(g, _)| *g).fold(0.0, f64::max);
    crate::network_training::curves::write_png(out, |tmp| {
        let root = BitMapBackend::new(tmp, (900, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .caption("Learned generations: Bradley–Terry rating with 95% intervals", ("sans-serif", 20))
            .build_cartesian_2d(-0.5..last + 0.5, lo..hi)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc("rating")
            .label_style(("sans-serif", 13))
            .draw()?;
        for (points, name, colour) in [
            (&learned, "the term-weight player's generations", plot::BLUE),
            (&fast, "the fast network's generations (alone)", plot::RED),
        ] {
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|(g, r)| (*g, r.rating)),
                    colour.stroke_width(2),
                ))?
                .label(name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2)));
            chart.draw_series(points.iter().map(|(g, r)| {
                ErrorBar::new_vertical(*g, r.ci95[0], r.rating, r.ci95[1], colour.stroke_width(2), 10)
            }))?;
        }
        let colours = [plot::GREEN, plot::ORANGE, plot::PURPLE];
        for (i, r) in others.iter().enumerate() {
            let c = colours[i % colours.len()];
            chart
                .draw_series(LineSeries::new([(-0.5, r.rating), (last + 0.5, r.rating)], c.stroke_width(1)))?
                .label(r.agent.chars().take(48).collect::<String>())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(1)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 12))
            .draw()?;
        root.present()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rung(agent: &str, generation: Option<u32>, rating: f64) -> Rung {
        Rung {
            agent: agent.into(),
            generation,
            fast_generation: None,
            rating,
            ci95: [rating - 10.0, rating + 10.0],
            vs_scripted: generation.map(|_| 0.52),
            vs_scripted_ci95: generation.map(|_| [0.5, 0.54]),
        }
    }

    #[test]
    fn the_ladder_is_written_as_a_table_and_a_plot() {
        let ladder = Ladder {
            games_per_pair: 100,
            games: 300,
            seed: 1,
            rungs: vec![
                rung("learned:gen=g/gen-001.json", Some(1), 12.0),
                rung("scripted", None, -5.0),
                rung("learned:gen=g/gen-000.json", Some(0), -7.0),
                Rung { fast_generation: Some(2), ..rung("fast:net=f/gen-002.fnet", None, 20.0) },
            ],
        };
        let text = readme(&ladder);
        assert!(text.contains("| `scripted` | — | -5 |"), "{text}");
        assert!(text.contains("| `fast:net=f/gen-002.fnet` | fast 2 | 20 |"), "{text}");
        assert!(
            text.contains("| `learned:gen=g/gen-001.json` | learned 1 | 12 | 2 to 22 | 52.0% (50.0–54.0%) |"),
            "{text}"
        );
        let dir = std::env::temp_dir().join(format!("tde-ladder-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let png = dir.join("ratings.png");
        plot(&ladder, &png).unwrap();
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    }
}
