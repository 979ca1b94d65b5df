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
    let lineups = Lineups::new(
        GameConfig::default(),
        Pool::drawn_or(&run.boards, GameConfig::default().board),
        if run.crews.is_empty() {
            Pool::Fixed(GameConfig::default().crews)
        } else {
            Pool::crews(&run.crews)?
        },
    )?;
    std::fs::create_dir_all(&run.out).map_err(|e| format!("{}: {e}", run.out.display()))?;
    let shards = run.games.div_ceil(run.shard_games);
    let bar = crate::progress_bar(run.progress, run.games, "games");
    let (mut made, mut positions, mut policy) = (0u64, 0usize, 0usize);
    let start = Instant::now();
    for k in 0..shards {
        let path = run.out.join(format!("shard-{k:04}.fdata"));
        let games = run.shard_games.min(run.games - k * run.shard_games);
        if path.exists() && Dataset::load(&path).is_ok() {
            bar.inc(games);
            continue;
        }
        let plan = DataPlan { games, seed: run.seed.wrapping_add(k * run.shard_games), ..plan_base.clone() };
        let data = generate(&plan, &lineups, &|| bar.inc(1))?;
        data.save(&path)?;
        made += games;
        positions += data.positions.len();
        policy += data.policy_positions();
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    Ok(format!(
        "{}: {shards} shards of {} games; this run played {made} games, {positions} positions ({policy} with a policy target) in {seconds:.0} s: {:.2} million positions/hour on {} threads",
        run.out.display(),
        run.shard_games,
        positions as f64 / seconds.max(1e-9) * 3600.0 / 1e6,
        rayon::current_num_threads()
    ))
}
