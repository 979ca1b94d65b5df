//! `tde fast loop`: expert iteration on the fast network, generation after generation.
//!
//! Each round has three steps, each resumable from the run folder after a kill:
//! 1. **play**: the best network so far plays expert-iteration games
//!    ([`fastnet::expert`]: its own search on a share of its decisions, some games against
//!    `scripted` and older generations), written in shards `round-RRR/data/shard-KKKK.fdata`;
//! 2. **learn**: a candidate trained from the best network on a window of the newest rounds'
//!    positions (and any base data) with [`crate::fast::trainer`], in `round-RRR/train/`;
//! 3. **gate**: Wald's sequential test of the candidate, alone, against the best, alone
//!    ([`crate::gate::arena::run_sequential`], the gate every pipeline uses), in
//!    `round-RRR/gate/` with its games; its outcome in `round-RRR/gate.json`.
//!
//! Extra actor processes ([`run_actor`], `tde fast loop --run DIR --actor ID`), on this
//! machine or on others sharing the folder, split each round's shards with the loop: a shard
//! is claimed by a `.claim` file created exclusively, and the loop waits for the shards others
//! hold before it learns (one whose claim is over an hour old is played again).
//!
//! With the game's result as the expert (`--search pg`, [`ExpertSearch::PolicyGradient`]) the
//! line of learning goes on whatever the gate says: each round's games are played by the
//! newest candidate (the learner, `state.json`'s `learner`), which is trained on by the next
//! round from where it stopped (its last step, not its lowest validation loss: a
//! policy-gradient step has no target to validate against), while the gate still decides
//! which candidates become generations — as KataGo's training goes on while its gating picks
//! the networks that play. Older generations, the best included, are the opponents.
//! A race's sibling rollouts as the expert (`--search race:...`, [`ExpertSearch::Race`]) give
//! advantages too, and its line goes on from its newest candidate in the same way.
//!
//! A promoted candidate becomes the next generation: `generations/gen-NNN.fnet` in the run,
//! copied with its gate record (`gen-NNN.gate.json`) into the `--promote-to` folder (the
//! repository's `checkpoints/fast/`). `state.json` holds the best network and every round's
//! record, so a run resumes at its newest generation, here or on another machine.

use crate::fast::trainer::{train, TrainRun};
use crate::gate::arena::{run_sequential, SequentialGate, SequentialResult};
use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::agent::FastNet;
use fastnet::data::Dataset;
use fastnet::expert::{expert_games, ExpertPlan, ExpertSearch, ExpertStats, Opponent};
use fastnet::train::TrainConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A loop's settings (kept in `state.json`; a resumed run must give the same ones, except
/// the number of rounds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopSettings {
    /// The first best network.
    pub start: PathBuf,
    /// The generation number of `start` (0: the main line's first network; a line continued
    /// from a committed `gen-NNN.fnet` numbers its promotions on from NNN, so that they never
    /// take an existing generation's name).
    #[serde(default)]
    pub first_generation: u32,
    /// Rounds in all (a resumed run goes on to this count).
    pub rounds: u32,
    /// Expert games per round.
    pub games: u64,
    /// Games per shard.
    pub shard_games: u64,
    /// The full search: `az` parameters (Gumbel noise on for exploration), or `mcts:...` (MCTS on the network; see [`ExpertSearch`]).
    pub search: String,
    /// Share of the learner's decisions searched in full.
    pub full_share: f64,
    /// Temperature of the moves played from the policy alone.
    pub temperature: f64,
    /// Weight of the search's value in a searched position's value target.
    pub value_mix: f64,
    /// Share of games against `scripted` or an older generation.
    pub opponent_share: f64,
    /// Share of other nodes kept as value-only positions.
    pub other_nodes: f64,
    /// Rounds of positions a candidate trains on (the newest).
    pub window: u32,
    /// Other data (`.fdata` shards or folders of them) in every window, e.g. a share of the
    /// teachers' games.
    pub base_data: Vec<PathBuf>,
    /// Training steps per candidate.
    pub steps: u64,
    /// Batch size, learning rate and loss weights.
    pub train: TrainConfig,
    /// The gate.
    pub gate: SequentialGate,
    /// Gate every this many rounds (and the last); the rounds between train on without a gate.
    /// Only a line that goes on from its newest candidate (policy gradient) may skip gates.
    #[serde(default = "every_round")]
    pub gate_every: u32,
    /// Each round's training goes on with the optimiser's state of the round before (Adam's
    /// moments and step), as one long run, rather than a fresh Adam whose first steps move
    /// every row it touches by about the learning rate. Only for a line that goes on from its
    /// newest candidate (policy gradient).
    #[serde(default)]
    pub carry_optimiser: bool,
    /// Seed of everything.
    pub seed: u64,
    /// Boards and crews drawn from (`all`: every shipped one).
    pub boards: Vec<String>,
    /// See `boards`.
    pub crews: Vec<String>,
}

/// One round's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The round (from 1).
    pub round: u32,
    /// The best network it started from.
    pub best: String,
    /// Games played, positions kept (and with a policy target), searches and their
    /// simulations, moves played fast; the learner's score against its opponents.
    pub games: u64,
    /// See `games`.
    pub positions: usize,
    /// See `games`.
    pub policy_positions: usize,
    /// See `games`.
    pub searches: u64,
    /// See `games`.
    pub simulations: u64,
    /// See `games`.
    pub fast_moves: u64,
    /// See `games`.
    pub score_vs_opponents: Option<f64>,
    /// Self-play throughput of this run's play step (positions and games an hour; none when
    /// every shard was already there).
    pub positions_per_hour: Option<f64>,
    /// See `positions_per_hour`.
    pub games_per_hour: Option<f64>,
    /// The training run's summary.
    pub training: String,
    /// The gate's outcome (none: a round between gates, see [`LoopSettings::gate_every`]).
    pub gate: Option<SequentialResult>,
    /// The generation it promoted, if it did.
    pub promoted: Option<u32>,
}

/// What `state.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoopState {
    /// The settings.
    pub settings: LoopSettings,
    /// The best network (a file in the run's `generations/`, or `start`).
    pub best: PathBuf,
    /// Its generation (`first_generation`: `start`).
    pub generation: u32,
    /// Every finished round.
    pub rounds: Vec<RoundRecord>,
    /// The network the next round plays and trains on from, when the line goes on from the
    /// newest candidate rather than the best (policy gradient); none: the best.
    #[serde(default)]
    pub learner: Option<PathBuf>,
}

impl LoopState {
    /// The network the next round's games are played by and its candidate is trained from.
    pub fn learner(&self) -> &Path {
        self.learner.as_deref().unwrap_or(&self.best)
    }
}

/// Whether a loop's line goes on from its newest candidate (a policy-gradient step on
/// advantages: the game's result, or a race's sibling rollouts), not its best.
fn continues_learner(s: &LoopSettings) -> bool {
    matches!(ExpertSearch::parse(&s.search), Ok(ExpertSearch::PolicyGradient { .. } | ExpertSearch::Race(_)))
}

/// Where a loop runs and what it shows.
#[derive(Clone, Debug)]
pub struct LoopRun {
    /// The run folder.
    pub run: PathBuf,
    /// Settings (ignored, but for `rounds`, when the run exists: its own are used).
    pub settings: LoopSettings,
    /// The folder promoted generations are copied to, with their gate records.
    pub promote_to: Option<PathBuf>,
    /// Threads of the gate's arena.
    pub threads: usize,
    /// Delete the shards of the rounds that have left the training window (and their claims)
    /// once a round is done: a line of many rounds otherwise fills the disk (a round of
    /// 6,000 games keeps about 600 MB). Their gates, training runs and records stay.
    pub prune_data: bool,
    /// Show progress bars.
    pub progress: bool,
}

/// The default of [`LoopSettings::gate_every`].
fn every_round() -> u32 {
    1
}

fn state_path(run: &Path) -> PathBuf {
    run.join("state.json")
}

/// Read a loop's state, if it has one.
pub fn read_state(run: &Path) -> Result<Option<LoopState>, String> {
    let path = state_path(run);
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    fastnet::write_atomically(path, text.as_bytes())
}

/// Check the settings, by field.
fn check(s: &LoopSettings) -> Result<(), String> {
    if s.games == 0 || s.shard_games == 0 || s.steps == 0 || s.window == 0 || s.train.batch == 0 {
        return Err("--games, --shard-games, --steps, --window and --batch must be at least 1".into());
    }
    if s.gate_every == 0 {
        return Err("--gate-every must be at least 1".into());
    }
    if s.gate_every > 1 && !continues_learner(s) {
        return Err(
            "--gate-every: only a policy-gradient line (--search pg or race:...) may skip gates; a search expert's line goes on from the gate's winner"
                .into(),
        );
    }
    if s.carry_optimiser && !continues_learner(s) {
        return Err(
            "--carry-optimiser: only a policy-gradient line (--search pg or race:...) goes on from its last candidate's training"
                .into(),
        );
    }
    ExpertSearch::parse(&s.search).map_err(|e| format!("--search: {e}"))?;
    plan(s, Arc::new(FastNet::load(&s.start)?), vec![Opponent::Scripted], 0)
        .check()
        .map_err(|(field, why)| format!("--{}: {why}", field.replace('_', "-")))
}

/// The expert plan of a round.
fn plan(s: &LoopSettings, net: Arc<FastNet>, opponents: Vec<Opponent>, seed: u64) -> ExpertPlan {
    ExpertPlan {
        games: 0,
        seed,
        net,
        search: ExpertSearch::parse(&s.search).unwrap_or(ExpertSearch::Az(agents::AzConfig::default())),
        full_share: s.full_share,
        temperature: s.temperature,
        value_mix: s.value_mix,
        opponent_share: s.opponent_share,
        opponents,
        other_nodes: s.other_nodes,
    }
}

/// Run (or resume) the loop to `settings.rounds` rounds; a summary.
pub fn run_loop(run: &LoopRun) -> Result<String, String> {
    let mut state = match read_state(&run.run)? {
        Some(mut saved) => {
            let mut mine = run.settings.clone();
            mine.rounds = saved.settings.rounds;
            if mine != saved.settings {
                return Err(format!(
                    "{}: this run was started with other settings; resume it with the same ones or use a new --run folder",
                    state_path(&run.run).display()
                ));
            }
            saved.settings.rounds = run.settings.rounds;
            saved
        }
        None => {
            check(&run.settings)?;
            std::fs::create_dir_all(&run.run).map_err(|e| format!("{}: {e}", run.run.display()))?;
            let state = LoopState {
                settings: run.settings.clone(),
                best: run.settings.start.clone(),
                generation: run.settings.first_generation,
                rounds: Vec::new(),
                learner: None,
            };
            write_json(&state_path(&run.run), &state)?;
            state
        }
    };
    let s = state.settings.clone();
    let mut lines = Vec::new();
    while (state.rounds.len() as u32) < s.rounds {
        let record = round(run, &state)?;
        lines.push(format!(
            "round {}: {} games, {} positions ({} with a policy target){}; gate: {}",
            record.round,
            record.games,
            record.positions,
            record.policy_positions,
            record
                .positions_per_hour
                .map_or(String::new(), |p| format!(", {:.2} million positions/hour", p / 1e6)),
            record.gate.as_ref().map_or("none this round", |g| g.gate.reason.as_str())
        ));
        if let Some(generation) = record.promoted {
            state.generation = generation;
            state.best = generations_dir(&run.run).join(generation_name(generation));
        }
        if continues_learner(&s) {
            state.learner = Some(candidate_path(&run.run, record.round, &s));
        }
        state.rounds.push(record);
        write_json(&state_path(&run.run), &state)?;
        if run.prune_data {
            prune_data(&run.run, state.rounds.len() as u32, s.window)?;
        }
    }
    lines.push(format!("best: generation {} ({})", state.generation, state.best.display()));
    Ok(lines.join("\n"))
}

/// Delete the play shards of every round before the window that ends at round `newest`.
fn prune_data(run: &Path, newest: u32, window: u32) -> Result<(), String> {
    for old in 1..=newest.saturating_sub(window) {
        let data = round_dir(run, old).join("data");
        if data.exists() {
            std::fs::remove_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
        }
    }
    Ok(())
}

fn generations_dir(run: &Path) -> PathBuf {
    run.join("generations")
}

fn generation_name(generation: u32) -> String {
    format!("gen-{generation:03}.fnet")
}

fn round_dir(run: &Path, round: u32) -> PathBuf {
    run.join(format!("round-{round:03}"))
}

/// Round `round`'s candidate: its training's last step when the line goes on from it, else
/// its lowest validation loss.
fn candidate_path(run: &Path, round: u32, s: &LoopSettings) -> PathBuf {
    let file = if continues_learner(s) { "latest.fnet" } else { "best.fnet" };
    round_dir(run, round).join("train").join(file)
}

/// Play, learn and gate one round.
fn round(run: &LoopRun, state: &LoopState) -> Result<RoundRecord, String> {
    let s = &state.settings;
    let number = state.rounds.len() as u32 + 1;
    let dir = round_dir(&run.run, number);
    let inputs = round_inputs(&run.run, state)?;
    let played = play(run.progress, s, &dir, &inputs, number, LOOP_ACTOR, true)?;
    let (stats, seconds) = (played.stats, played.seconds);
    // Learn: the window's rounds and the base data.
    let mut data: Vec<PathBuf> = (number.saturating_sub(s.window - 1).max(1)..=number)
        .map(|r| round_dir(&run.run, r).join("data"))
        .collect();
    data.extend(s.base_data.iter().cloned());
    let next = state.generation + 1;
    let training = train(&TrainRun {
        run: dir.join("train"),
        data,
        valid: Vec::new(),
        steps: s.steps,
        config: s.train.clone(),
        init: Some(state.learner().to_path_buf()),
        init_adam: match &state.learner {
            Some(learner) if s.carry_optimiser => learner.parent().map(|train| train.join("adam.bin")),
            _ => None,
        },
        prior: PathBuf::from("checkpoints/learned/gen-004.json"),
        seed: s.seed.wrapping_add(number as u64),
        every: (s.steps / 5).max(1),
        generation: next,
        progress: run.progress,
    })?;
    let candidate = candidate_path(&run.run, number, s);
    // Gate (every `gate_every` rounds, and the last).
    let gate = if number.is_multiple_of(s.gate_every) || number == s.rounds {
        Some(gate_round(run, state, &dir, &candidate, number)?)
    } else {
        None
    };
    let promoted = match &gate {
        Some(gate) if gate.gate.promoted => {
            promote(&run.run, run.promote_to.as_deref(), &candidate, next, gate)?;
            Some(next)
        }
        _ => None,
    };
    Ok(RoundRecord {
        round: number,
        best: state.best.display().to_string(),
        games: stats.games,
        positions: played.positions,
        policy_positions: played.policy,
        searches: stats.searches,
        simulations: stats.simulations,
        fast_moves: stats.fast_moves,
        score_vs_opponents: (stats.opponent_games > 0)
            .then(|| stats.opponent_points / stats.opponent_games as f64),
        positions_per_hour: (seconds > 0.0).then(|| played.made as f64 / seconds * 3600.0),
        games_per_hour: (seconds > 0.0).then(|| stats.games as f64 / seconds * 3600.0),
        training,
        gate,
        promoted,
    })
}

/// Gate round `number`'s candidate against the best (resumed from its `gate.json`).
fn gate_round(
    run: &LoopRun,
    state: &LoopState,
    dir: &Path,
    candidate: &Path,
    number: u32,
) -> Result<SequentialResult, String> {
    let s = &state.settings;
    let gate_file = dir.join("gate.json");
    if gate_file.exists() {
        let text =
            std::fs::read_to_string(&gate_file).map_err(|e| format!("{}: {e}", gate_file.display()))?;
        return serde_json::from_str(&text).map_err(|e| format!("{}: {e}", gate_file.display()));
    }
    let result = run_sequential(
        &format!("fast:net={}", candidate.display()),
        &format!("fast:net={}", state.best.display()),
        &s.gate,
        s.seed ^ (0x9a7e_0000 + number as u64),
        run.threads,
        &dir.join("gate"),
        run.progress,
    )?;
    write_json(&gate_file, &result)?;
    Ok(result)
}

/// Make `candidate` generation `next`: in the run's `generations/`, and with its gate record in
/// the `--promote-to` folder, where an existing generation of that name with other contents is
/// never overwritten.
fn promote(
    run: &Path,
    promote_to: Option<&Path>,
    candidate: &Path,
    next: u32,
    gate: &SequentialResult,
) -> Result<(), String> {
    let bytes = std::fs::read(candidate).map_err(|e| format!("{}: {e}", candidate.display()))?;
    let to = generations_dir(run);
    std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
    fastnet::write_atomically(&to.join(generation_name(next)), &bytes)?;
    if let Some(out) = promote_to {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let target = out.join(generation_name(next));
        if target.exists() && std::fs::read(&target).ok().as_deref() != Some(&bytes[..]) {
            return Err(format!(
                "{}: another generation {next} is already there; it is kept (start the line with --start-generation past it)",
                target.display()
            ));
        }
        fastnet::write_atomically(&target, &bytes)?;
        write_json(&out.join(format!("gen-{next:03}.gate.json")), gate)?;
    }
    Ok(())
}

/// What a round's play step did.
struct Played {
    /// What this run played (nothing when every shard was there).
    stats: ExpertStats,
    /// Its seconds.
    seconds: f64,
    /// The positions it made.
    made: usize,
    /// The round's positions in all, and those with a policy target.
    positions: usize,
    policy: usize,
}

/// The loop's own name among the actors of a round (an actor process takes another).
const LOOP_ACTOR: &str = "loop";

/// A claim older than this is taken for a killed actor's, and its shard played again.
const STALE_CLAIM: Duration = Duration::from_secs(3600);

/// Claim shard `path` for `actor`: true when it is this actor's to play (a new claim, or its
/// own from before a kill), false when another actor holds it.
fn claim(path: &Path, actor: &str) -> Result<bool, String> {
    let claim = path.with_extension("claim");
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&claim) {
        Ok(mut f) => {
            use std::io::Write;
            f.write_all(actor.as_bytes()).map_err(|e| format!("{}: {e}", claim.display()))?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let holder = std::fs::read_to_string(&claim).unwrap_or_default();
            let age =
                std::fs::metadata(&claim).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
            if holder == actor || age.is_some_and(|a| a > STALE_CLAIM) {
                std::fs::write(&claim, actor).map_err(|e| format!("{}: {e}", claim.display()))?;
                return Ok(true);
            }
            Ok(false)
        }
        Err(e) => Err(format!("{}: {e}", claim.display())),
    }
}

/// What a round's play step needs besides the settings.
struct RoundInputs {
    learner: Arc<FastNet>,
    opponents: Vec<Opponent>,
    lineups: Lineups,
}

/// The learner, the opponents (scripted, the start and every promoted generation before the
/// learner: before the best, or up to it when the learner is a newer candidate) and the
/// lineups of the next round of `state`.
fn round_inputs(run: &Path, state: &LoopState) -> Result<RoundInputs, String> {
    let s = &state.settings;
    let mut opponents = vec![Opponent::Scripted];
    let older = state.generation + u32::from(state.learner.is_some());
    if older > s.first_generation {
        opponents.push(Opponent::Network(Arc::new(FastNet::load(&s.start)?)));
    }
    for g in s.first_generation + 1..older {
        opponents.push(Opponent::Network(Arc::new(FastNet::load(
            &generations_dir(run).join(generation_name(g)),
        )?)));
    }
    let lineups = Lineups::new(
        GameConfig::default(),
        Pool::drawn_or(&s.boards, GameConfig::default().board),
        if s.crews.is_empty() { Pool::Fixed(GameConfig::default().crews) } else { Pool::crews(&s.crews)? },
    )?;
    Ok(RoundInputs { learner: Arc::new(FastNet::load(state.learner())?), opponents, lineups })
}

/// The play step of round `number`, as `actor`: the missing shards no other actor holds.
/// With `wait`, then wait for the shards other actors hold (playing any whose claim went
/// stale), so that the round's data is whole.
fn play(
    progress: bool,
    s: &LoopSettings,
    dir: &Path,
    inputs: &RoundInputs,
    number: u32,
    actor: &str,
    wait: bool,
) -> Result<Played, String> {
    let data_dir = dir.join("data");
    std::fs::create_dir_all(&data_dir).map_err(|e| format!("{}: {e}", data_dir.display()))?;
    let shards = s.games.div_ceil(s.shard_games);
    let base = plan(s, inputs.learner.clone(), inputs.opponents.clone(), 0);
    let bar = crate::progress_bar(progress, s.games, "games");
    let mut played = Played { stats: ExpertStats::default(), seconds: 0.0, made: 0, positions: 0, policy: 0 };
    let mut held: Vec<u64> = Vec::new();
    let mut first_pass = true;
    while first_pass || (wait && !held.is_empty()) {
        let todo: Vec<u64> = if first_pass { (0..shards).collect() } else { std::mem::take(&mut held) };
        if !first_pass {
            std::thread::sleep(Duration::from_millis(500));
        }
        first_pass = false;
        for k in todo {
            let path = data_dir.join(format!("shard-{k:04}.fdata"));
            let games = s.shard_games.min(s.games - k * s.shard_games);
            if let Ok(d) = Dataset::load(&path) {
                bar.inc(games);
                played.positions += d.positions.len();
                played.policy += d.policy_positions();
                continue;
            }
            if !claim(&path, actor)? {
                held.push(k);
                continue;
            }
            let start = Instant::now();
            let seed = s.seed.wrapping_add((number as u64) << 32).wrapping_add(k * s.shard_games);
            let (d, st) =
                expert_games(&ExpertPlan { games, seed, ..base.clone() }, &inputs.lineups, &|| bar.inc(1))?;
            d.save(&path)?;
            let _ = std::fs::remove_file(path.with_extension("claim"));
            played.seconds += start.elapsed().as_secs_f64();
            played.stats.add(&st);
            played.made += d.positions.len();
            played.positions += d.positions.len();
            played.policy += d.policy_positions();
        }
    }
    bar.finish_and_clear();
    Ok(played)
}

/// An extra actor process over a loop's run folder (`tde fast loop --run DIR --actor ID`): it
/// plays the shards of each round the loop has not played or claimed, with the loop's own
/// settings and best network, then waits for the next round, until the loop's rounds are done.
/// Several actors, on this machine or others sharing the folder, split a round's shards; the
/// data is the same whoever plays a shard (its seed is the round's and the shard's).
pub fn run_actor(run: &Path, id: &str, progress: bool) -> Result<String, String> {
    if id.is_empty()
        || id == LOOP_ACTOR
        || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "--actor `{id}`: use letters, digits, - and _ (and not `{LOOP_ACTOR}`, the loop's own name)"
        ));
    }
    let (mut shards, mut rounds) = (0u64, 0u32);
    loop {
        let Some(state) = read_state(run)? else {
            std::thread::sleep(Duration::from_secs(1));
            continue;
        };
        let done = state.rounds.len();
        if done as u32 >= state.settings.rounds {
            return Ok(format!("actor {id}: played {shards} shards in {rounds} rounds of {}", run.display()));
        }
        let number = done as u32 + 1;
        let inputs = round_inputs(run, &state)?;
        let played = play(progress, &state.settings, &round_dir(run, number), &inputs, number, id, false)?;
        shards += played.stats.games.div_ceil(state.settings.shard_games.max(1));
        rounds += u32::from(played.stats.games > 0);
        while read_state(run)?.is_some_and(|s| s.rounds.len() == done && done < s.settings.rounds as usize) {
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::sprt::Sprt;

    #[test]
    fn a_promotion_never_overwrites_another_generation_of_its_name() {
        let dir = std::env::temp_dir().join(format!("tde-promote-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.join("checkpoints");
        std::fs::create_dir_all(&out).unwrap();
        let candidate = dir.join("latest.fnet");
        std::fs::write(&candidate, b"the candidate").unwrap();
        std::fs::write(out.join("gen-002.fnet"), b"a committed generation").unwrap();
        let small = SequentialGate {
            sprt: Sprt { p0: 0.5, p1: 0.55, alpha: 0.05, beta: 0.05 },
            look_games: 10,
            max_games: 20,
        };
        let gate = run_sequential("scripted", "random", &small, 1, 1, &dir.join("gate"), false).unwrap();
        let err = promote(&dir.join("run"), Some(&out), &candidate, 2, &gate).unwrap_err();
        assert!(err.contains("gen-002.fnet") && err.contains("kept"), "{err}");
        assert_eq!(std::fs::read(out.join("gen-002.fnet")).unwrap(), b"a committed generation");
        assert!(!out.join("gen-002.gate.json").exists());
        promote(&dir.join("run"), Some(&out), &candidate, 3, &gate).unwrap();
        assert_eq!(std::fs::read(out.join("gen-003.fnet")).unwrap(), b"the candidate");
        assert!(out.join("gen-003.gate.json").exists());
        // The same bytes again (a resumed round) are no conflict.
        promote(&dir.join("run"), Some(&out), &candidate, 3, &gate).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
