//! The round robin: every pair of agents meets on every scenario, `games` times, half with
//! each agent on the first side, in parallel, with resumable output.
//!
//! - **Games.** For each pair `(a, b)` (`a` listed first), each scenario and each index
//!   `0..games`, one game. Games `2r` and `2r + 1` share their seeds and swap the sides: in the
//!   even one `a` plays the first side. An odd `games` is rounded up to even.
//! - **Seeds.** Each round `r`'s seeds are hashed from (`seed`, `a`, `b`, scenario, `r`): the
//!   dice, one seed per agent, and the draw of the game's [`crate::Lineup`] when the maker draws
//!   boards or crews per game, so both games of a round share their lineup. A game's result
//!   therefore depends on the settings alone, not on which thread plays it or when, nor on
//!   the other pairs and scenarios.
//! - **Output folder** (optional): `arena.json` (the settings), `games.jsonl` (one line per
//!   finished game, flushed as soon as it ends), `results.json` and `report.md` (written
//!   atomically at the end), and with `records` one game record per game under `records/`.
//! - **Resume.** Started again on the same folder with the same settings, the arena reads
//!   `games.jsonl` (dropping a truncated last line) and plays only the games not there; with
//!   a larger `games` and nothing else changed it plays the added indices (the run grows);
//!   with other settings it refuses and names the first option that differs. Records are
//!   written only for the games a run plays.
//! - **Time per move** is the wall time of each `select_action`, summed per agent.

use crate::matchmaker::{MatchMaker, RecordAbout};
use crate::move_times::MoveTimes;
use crate::results::{summarize, GameResult, Results, RunInfo};
use crate::run_folder::{self, io_error, write_atomic, GamesLog};
use crate::settings::{agent_spec, round_robin, ArenaSettings};
use agents::{Game, Turn};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to run an arena (none of this changes its results).
#[derive(Clone, Debug)]
pub struct ArenaOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Output folder; nothing is written without one.
    pub out: Option<PathBuf>,
    /// Write each game's record under `out/records/`.
    pub records: bool,
    /// Show a progress bar with an ETA on standard error.
    pub progress: bool,
}

/// One game to play: a pair, a scenario and an index, as indices into the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Job {
    a: usize,
    b: usize,
    scenario: usize,
    index: u32,
}

/// SplitMix64's finaliser: a well-mixed 64-bit function of `x`.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed of a round: a hash (FNV-1a, then mixed) of the arena's seed, the two agents'
/// names, the scenario and the round, stable across platforms and versions.
fn round_seed(seed: u64, a: &str, b: &str, scenario: &str, round: u32) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ mix(seed);
    for part in [a.as_bytes(), b"\x00", b.as_bytes(), b"\x00", scenario.as_bytes(), b"\x00"] {
        for &byte in part {
            h = (h ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    mix(h ^ mix(round as u64))
}

/// Play one game of the arena; with `records`, its game record (JSON) comes back too.
fn play<G: Game>(
    maker: &impl MatchMaker<G>,
    settings: &ArenaSettings,
    job: Job,
    records: bool,
) -> Result<(GameResult, Option<String>), String> {
    let (a, b) = (&settings.agents[job.a], &settings.agents[job.b]);
    let scenario = &settings.scenarios[job.scenario];
    let round = job.index / 2;
    let a_first = job.index.is_multiple_of(2);
    let seed = round_seed(settings.seed, a, b, scenario, round);
    let (mut state, lineup) = maker.new_game(scenario, mix(seed ^ 4))?;
    if state.num_players() != 2 {
        return Err(format!("the arena plays two-player games; this one has {}", state.num_players()));
    }
    let initial = records.then(|| state.clone());
    let mut agents =
        [maker.make_agent(agent_spec(a), mix(seed ^ 1))?, maker.make_agent(agent_spec(b), mix(seed ^ 2))?];
    let mut dice = ChaCha8Rng::seed_from_u64(mix(seed ^ 3));
    let mut moves = [0u32; 2];
    let mut think = [Duration::ZERO; 2];
    let mut move_times = [MoveTimes::default(), MoveTimes::default()];
    let mut actions = Vec::new();
    loop {
        let action = match state.turn() {
            Turn::Terminal => break,
            Turn::Chance => state.sample_chance(&mut dice).ok_or("a chance node has no outcome")?,
            Turn::Player(p) => {
                // Agent 0 is `a`, who plays player 0 when `a_first`.
                let who = usize::from((p == 0) != a_first);
                let start = Instant::now();
                let action = agents[who].select_action(&state);
                let took = start.elapsed();
                think[who] += took;
                move_times[who].record(took);
                moves[who] += 1;
                action
            }
        };
        state.apply(action).map_err(|e| format!("{scenario} game {} of {a} vs {b}: {e}", job.index))?;
        if records {
            actions.push(action);
        }
    }
    let player_a = usize::from(!a_first);
    let returns = state.returns();
    let score_a = match returns[player_a].total_cmp(&returns[1 - player_a]) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    };
    let record = initial.map(|initial| {
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let drawn: Vec<String> = lineup.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let description = format!(
            "arena seed {} {scenario} game {}: {first} (side A) vs {second} (side B){}",
            settings.seed,
            job.index,
            if drawn.is_empty() { String::new() } else { format!("; {}", drawn.join(", ")) }
        );
        let players = [agent_spec(first).to_string(), agent_spec(second).to_string()];
        let about = RecordAbout { description, players, seed };
        maker.record(&initial, &actions, &state, &about)
    });
    let result = GameResult {
        a: a.clone(),
        b: b.clone(),
        scenario: scenario.clone(),
        index: job.index,
        a_first,
        score_a,
        margin_a: maker.margin(&state, player_a),
        length: maker.length(&state),
        moves,
        think_s: think.map(|t| t.as_secs_f64()),
        move_times,
        figures: game_figures(maker, &state, player_a),
        lineup,
    };
    Ok((result, record))
}

/// The maker's figures of a finished game, each as (`a`'s value, `b`'s value) by name.
fn game_figures<G: Game>(
    maker: &impl MatchMaker<G>,
    state: &G,
    player_a: usize,
) -> BTreeMap<String, [f64; 2]> {
    let theirs: BTreeMap<String, f64> = maker.figures(state, 1 - player_a).into_iter().collect();
    maker
        .figures(state, player_a)
        .into_iter()
        .map(|(name, a)| {
            let b = theirs.get(&name).copied().unwrap_or(f64::NAN);
            (name, [a, b])
        })
        .collect()
}

/// Run the arena: resume from `options.out` when it holds an earlier run of the same
/// settings, play the missing games in parallel, and write the results there.
pub fn run<G: Game>(
    maker: &impl MatchMaker<G>,
    settings: &ArenaSettings,
    options: &ArenaOptions,
) -> Result<Results, String> {
    let start = Instant::now();
    if options.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    if options.records && options.out.is_none() {
        return Err("--records needs --out".into());
    }
    let mut done = match &options.out {
        Some(dir) => open_folder(dir, settings)?,
        None => Vec::new(),
    };
    let finished: BTreeSet<(&str, &str, &str, u32)> =
        done.iter().map(|g| (g.a.as_str(), g.b.as_str(), g.scenario.as_str(), g.index)).collect();
    let mut jobs = Vec::new();
    for (a, b) in round_robin(settings.agents.len()) {
        for (scenario, name) in settings.scenarios.iter().enumerate() {
            for index in 0..settings.games {
                let key = (settings.agents[a].as_str(), settings.agents[b].as_str(), name.as_str(), index);
                if !finished.contains(&key) {
                    jobs.push(Job { a, b, scenario, index });
                }
            }
        }
    }
    // Interleave pairs and scenarios, so that the ETA soon reflects the whole mix.
    jobs.sort_by_key(|j| (j.index, j.scenario, j.a, j.b));
    let resumed = done.len();

    let log = options.out.as_deref().map(GamesLog::open).transpose()?;
    let records_dir = options.out.as_ref().filter(|_| options.records).map(|d| d.join("records"));
    if let Some(dir) = &records_dir {
        std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    }
    let bar = progress_bar(settings.total_games(), resumed, options.progress);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    let played: Vec<GameResult> = pool.install(|| {
        jobs.par_iter()
            .map(|&job| {
                let (result, record) = play(maker, settings, job, records_dir.is_some())?;
                if let (Some(dir), Some(record)) = (&records_dir, record) {
                    let name = format!(
                        "{}--{}--{}--{:04}.json",
                        file_safe(&result.a),
                        file_safe(&result.b),
                        result.scenario,
                        result.index
                    );
                    write_atomic(&dir.join(name), record.as_bytes())?;
                }
                if let Some(log) = &log {
                    log.append(&result)?;
                }
                bar.inc(1);
                Ok(result)
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    bar.finish_and_clear();

    let played_count = played.len();
    done.extend(played);
    let run = RunInfo {
        played: played_count,
        resumed,
        threads: options.threads,
        wall_s: start.elapsed().as_secs_f64(),
    };
    let results = summarize(settings, &done, run)?;
    if let Some(dir) = &options.out {
        let json = serde_json::to_string_pretty(&results).expect("results serialise");
        write_atomic(&dir.join("results.json"), json.as_bytes())?;
        write_atomic(&dir.join("report.md"), crate::report::markdown(&results).as_bytes())?;
    }
    Ok(results)
}

/// A progress bar over `total` games, `done` of them already played; hidden unless `show`.
pub(crate) fn progress_bar(total: usize, done: usize, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {per_sec}, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_position(done as u64);
    bar.reset_eta();
    bar
}

/// A name usable in a file name: anything but letters, digits, `-` and `_` becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Prepare the output folder: check or write `arena.json`, and read back the games of an
/// earlier run from `games.jsonl`.
fn open_folder(dir: &Path, settings: &ArenaSettings) -> Result<Vec<GameResult>, String> {
    let mut keys = BTreeSet::new();
    run_folder::open(dir, "arena.json", settings, |g: &GameResult| {
        let position = |name: &str| settings.agents.iter().position(|x| x == name);
        let known = matches!((position(&g.a), position(&g.b)), (Some(a), Some(b)) if a < b)
            && settings.scenarios.contains(&g.scenario)
            && g.index < settings.games;
        if !known {
            return Err("the game is not part of this arena".into());
        }
        g.check()?;
        if !keys.insert((g.a.clone(), g.b.clone(), g.scenario.clone(), g.index)) {
            return Err("the game appears twice".into());
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_seeds_depend_on_every_part_and_are_stable() {
        let base = round_seed(1, "random", "greedy", "couriers", 0);
        assert_eq!(base, round_seed(1, "random", "greedy", "couriers", 0));
        for other in [
            round_seed(2, "random", "greedy", "couriers", 0),
            round_seed(1, "greedy", "random", "couriers", 0),
            round_seed(1, "random", "greedy", "assassinate", 0),
            round_seed(1, "random", "greedy", "couriers", 1),
            round_seed(1, "randomg", "reedy", "couriers", 0),
        ] {
            assert_ne!(base, other);
        }
        // FNV-1a and SplitMix64 are fixed functions: this value must never change, or resumed
        // arenas would mix games from two seedings.
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn both_games_of_a_round_share_their_drawn_lineup_with_the_sides_swapped() {
        use crate::lineup::Pool;
        use crate::Lineup;
        let all = vec!["all".to_string()];
        let maker = crate::TdeMatch::with_pools(Pool::Drawn(all.clone()), Pool::Drawn(all), "standard", 0, 0)
            .unwrap();
        let agents = ["random".to_string(), "random#2".to_string()];
        let settings = ArenaSettings::new(&maker, &agents, &["couriers".to_string()], 6, 1).unwrap();
        assert!(settings.options["crews"].starts_with("drawn from "), "{:?}", settings.options);
        let job = |index| Job { a: 0, b: 1, scenario: 0, index };
        let games: Vec<GameResult> =
            (0..6).map(|index| play(&maker, &settings, job(index), false).unwrap().0).collect();
        for round in games.chunks(2) {
            assert_eq!(round[0].lineup, round[1].lineup);
            assert_eq!(round[0].lineup.keys().collect::<Vec<_>>(), ["board", "crews"]);
            assert!(round[0].a_first && !round[1].a_first);
        }
        let lineups: BTreeSet<&Lineup> = games.iter().map(|g| &g.lineup).collect();
        assert_eq!(lineups.len(), 3, "each round draws its own: {lineups:?}");
        // The same game again draws the same lineup, and its record names it.
        let (again, record) = play(&maker, &settings, job(3), true).unwrap();
        assert_eq!(
            again,
            GameResult { think_s: again.think_s, move_times: again.move_times.clone(), ..games[3].clone() }
        );
        assert!(record.unwrap().contains(&format!("board {}", games[3].lineup["board"])));
    }
}
