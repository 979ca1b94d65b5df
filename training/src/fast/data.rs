//! `tde fast data`: labelled positions from the teachers' games, written in shards of a fixed
//! number of games (`shard-NNNN.fdata`). Shard `k` holds games `k·shard_games ..` of the seed,
//! so a run killed half-way resumes by writing only the shards still missing, and its data
//! is the same as an unbroken run's.

use agents::learned::Generation;
use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::data::{generate, DataPlan, Dataset, Teacher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What to generate.
#[derive(Clone, Debug)]
pub struct DataRun {
    /// The folder the shards go to.
    pub out: PathBuf,
    /// Games in all.
    pub games: u64,
    /// Games per shard.
    pub shard_games: u64,
    /// Seed of game 0.
    pub seed: u64,
    /// The teachers (each game draws one per side): generation files of the learned player,
    /// or `scripted`.
    pub teachers: Vec<PathBuf>,
    /// The prior's generation file.
    pub prior: PathBuf,
    /// The temperature the teachers play and teach at.
    pub temperature: f64,
    /// Share of other nodes kept for value only.
    pub other_nodes: f64,
    /// Share of decisions with a choice kept.
    pub decisions: f64,
    /// Boards to draw from (`all`: every shipped board).
    pub boards: Vec<String>,
    /// Crews to draw from (`all`: every shipped crew).
    pub crews: Vec<String>,
    /// Show a progress bar.
    pub progress: bool,
}

/// The teacher a `--teachers` entry names: `scripted`, or a learned player's generation file.
fn teacher(entry: &Path) -> Result<Teacher, String> {
    if entry == Path::new("scripted") {
        return Ok(Teacher::Scripted);
    }
    generation(entry, "--teachers (a learned generation file or `scripted`)").map(Teacher::Learned)
}

/// Load a generation file for `what`.
fn generation(path: &Path, what: &str) -> Result<Arc<Generation>, String> {
    Generation::load(path).map(Arc::new).map_err(|e| format!("{what}: {e}"))
}

/// Generate the missing shards of `run`; a summary with positions per hour.
pub fn make_data(run: &DataRun) -> Result<String, String> {
    if run.games == 0 || run.shard_games == 0 {
        return Err("--games and --shard-games must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&run.other_nodes) {
        return Err(format!("--other-nodes {} is not a share between 0 and 1", run.other_nodes));
    }
    if !(run.decisions > 0.0 && run.decisions <= 1.0) {
        return Err(format!("--decisions {} is not a share above 0 and at most 1", run.decisions));
    }
    let teachers = run.teachers.iter().map(|t| teacher(t)).collect::<Result<Vec<_>, String>>()?;
    if teachers.is_empty() {
        return Err("--teachers: give at least one generation file or `scripted`".into());
    }
    let plan_base = DataPlan {
        games: 0,
        seed: 0,
        teachers,
        temperature: run.temperature,
        prior: generation(&run.prior, "--prior")?,
        other_nodes: run.other_nodes,
        decisions: run.decisions,
    };
    let lineups = drawn_lineups(&run.boards, &run.crews)?;
    let made = write_missing_shards(
        &run.out,
        run.games,
        run.shard_games,
        run.seed,
        run.progress,
        &|first, games, tick| generate(&DataPlan { games, seed: first, ..plan_base.clone() }, &lineups, tick),
    )?;
    Ok(format!(
        "{}: {} shards of {} games; this run played {} games, {} positions ({} with a policy target) in {:.0} s: {:.2} million positions/hour on {} threads",
        run.out.display(),
        run.games.div_ceil(run.shard_games),
        run.shard_games,
        made.games,
        made.positions,
        made.policy,
        made.seconds,
        made.positions as f64 / made.seconds.max(1e-9) * 3600.0 / 1e6,
        rayon::current_num_threads()
    ))
}

/// How [`write_missing_shards`] makes a shard: from its first game's seed, its number of games
/// and a tick to call after each game.
pub(crate) type MakeShard<'a> = dyn Fn(u64, u64, &(dyn Fn() + Sync)) -> Result<Dataset, String> + 'a;

/// What [`write_missing_shards`] made.
pub(crate) struct ShardsMade {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: usize,
    /// Of them, positions with a policy target.
    pub policy: usize,
    /// Seconds taken.
    pub seconds: f64,
}

/// The lineups `--boards` and `--crews` draw from (`all`: every shipped one; no crews: the
/// default crews).
pub(crate) fn drawn_lineups(boards: &[String], crews: &[String]) -> Result<Lineups, String> {
    Lineups::new(
        GameConfig::default(),
        Pool::drawn_or(boards, GameConfig::default().board),
        if crews.is_empty() { Pool::Fixed(GameConfig::default().crews) } else { Pool::crews(crews)? },
    )
}

/// Write the shards `out/shard-NNNN.fdata` of `games` games still missing: shard `k` holds the
/// games seeded from `seed + k·shard_games` on, made by `make(first seed, games, tick)`, which
/// calls `tick` after each game (a progress bar when `progress`). A shard that loads is kept.
pub(crate) fn write_missing_shards(
    out: &Path,
    games: u64,
    shard_games: u64,
    seed: u64,
    progress: bool,
    make: &MakeShard,
) -> Result<ShardsMade, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bar = crate::progress_bar(progress, games, "games");
    let mut made = ShardsMade { games: 0, positions: 0, policy: 0, seconds: 0.0 };
    let start = Instant::now();
    for k in 0..games.div_ceil(shard_games) {
        let path = out.join(format!("shard-{k:04}.fdata"));
        let count = shard_games.min(games - k * shard_games);
        if path.exists() && Dataset::load(&path).is_ok() {
            bar.inc(count);
            continue;
        }
        let data = make(seed.wrapping_add(k * shard_games), count, &|| bar.inc(1))?;
        data.save(&path)?;
        made.games += count;
        made.positions += data.positions.len();
        made.policy += data.policy_positions();
    }
    bar.finish_and_clear();
    made.seconds = start.elapsed().as_secs_f64();
    Ok(made)
}
