//! `tde arena`: a round robin between agents on the scenarios, with ratings and a report
//! (see the `eval` crate).

use crate::game_cmd::SetupOptions;
use agents::split_agent_list;
use clap::Args;
use eval::lineup::Pool;
use eval::TdeMatch;
use eval::{ArenaOptions, ArenaSettings};
use std::io::IsTerminal;
use std::path::PathBuf;

/// What `--crews` means to the arena, which draws crews from pools.
const ARENA_CREWS_HELP: &str = "Two crews, side A then side B: names in configs/crews/ or paths. Or `all` (every crew \
    in configs/crews/), or three or more, to draw side A's and side B's crews per game as `--boards` draws boards; a \
    lineup that cannot play (a crew too large for a board's deployment strip, no character for Couriers...) is \
    redrawn. With --solo: the crew that plays, or a pool to draw it from";

/// `tde arena`.
#[derive(Args, Debug)]
#[command(mut_arg("crews", |crews| crews.help(ARENA_CREWS_HELP)))]
pub struct ArenaArgs {
    /// The game: `tde` (the default) or another of `tde games` (`encounter`, `tictactoe`),
    /// which takes none of the TDE options (board, crews, rules, dinosaurs, solo).
    #[arg(long, default_value = "tde")]
    pub game: String,
    /// The agents, comma-separated specs as `tde demo --agents` takes them (`random`,
    /// `greedy`, `mcts:iters=400,c=1.4`: an mcts spec keeps its `key=value` parameters). Enter
    /// a spec twice with a `#tag` suffix: `random,random#2`.
    #[arg(long, required = true)]
    pub agents: Vec<String>,
    /// Scenarios: `all` (the five) or a comma-separated list of names or numbers 1-5
    /// (`skirmish` too).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub scenarios: Vec<String>,
    /// Games per pair and scenario, half with each agent on side A (rounded up to even;
    /// 1 to 100000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Seed of the whole arena: the same seed and agent specs give the same results (each game's
    /// seeds are hashed from the specs as written, so one agent spelt two ways plays other games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Output folder: arena.json (solo.json with --solo), games.jsonl, results.json and
    /// report.md. Run again with the same folder and settings to resume an interrupted run.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write every game's record (replayable by `tde replay`) under OUT/records/.
    #[arg(long)]
    pub records: bool,
    /// Print the results as JSON (the content of results.json) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Board, crews (or pools of them), rules, dinosaurs and ambush markers of every game.
    #[command(flatten)]
    pub setup: SetupOptions,
    /// Draw each game's board instead of `--board`: `all` (every board in configs/boards/) or a
    /// comma-separated list of names or paths. Both games of a round (the sides swapped) share
    /// the draw, a function of the seed, the pair, the scenario and the round.
    #[arg(long, value_delimiter = ',', num_args = 1.., conflicts_with = "board")]
    pub boards: Option<Vec<String>>,
    /// Solo runs instead of a round robin: each agent plays the first crew of `--crews` (or
    /// one drawn per game, the same for every agent, with `--crews all` and `--boards`) alone
    /// against the dinosaurs (`--dinos` 1 or more), `--games` games per scenario, and is rated
    /// by its score (VP + dinosaurs taken out − models lost).
    #[arg(long)]
    pub solo: bool,
}

/// Run the arena (or the solo runs) and format its results.
pub fn arena(args: &ArenaArgs) -> Result<String, String> {
    if !args.game.eq_ignore_ascii_case("tde") {
        return other_game(args);
    }
    if args.solo {
        return solo(args);
    }
    let boards = args.boards.clone().unwrap_or_default();
    let maker = TdeMatch::with_pools(
        Pool::drawn_or(&boards, args.setup.board.clone()),
        Pool::crews(&args.setup.crews)?,
        &args.setup.rules,
        args.setup.dinos,
        args.setup.ambush,
    )?
    .with_factory(training::play::make_agent);
    let agents: Vec<String> = args.agents.iter().flat_map(|list| split_agent_list(list)).collect();
    let settings = ArenaSettings::new(&maker, &agents, &args.scenarios, args.games, args.seed)?;
    let results = eval::run(&maker, &settings, &run_options(args))?;
    Ok(print(args, &results))
}

/// The results as JSON or as the summary with the report's path.
fn print(args: &ArenaArgs, results: &eval::Results) -> String {
    if args.json {
        return serde_json::to_string_pretty(results).expect("results serialise");
    }
    let mut text = eval::report::summary(results);
    if let Some(dir) = &args.out {
        text.push_str(&format!("\n\nreport: {}", dir.join("report.md").display()));
    }
    text
}

/// `tde arena --game NAME`: the framework's arena on another game of the registry, which
/// takes none of TDE's options.
fn other_game(args: &ArenaArgs) -> Result<String, String> {
    let game = eval::games::find(&training::games::agent_sources(), &args.game)
        .map_err(|e| format!("--game: {e}"))?;
    let defaults = SetupOptions::default();
    let s = &args.setup;
    let tde_only = [
        ("--solo", args.solo),
        ("--boards", args.boards.is_some()),
        ("--board", s.board != defaults.board),
        ("--crews", s.crews != defaults.crews),
        ("--rules", s.rules != defaults.rules),
        ("--dinos", s.dinos != defaults.dinos),
        ("--ambush", s.ambush != defaults.ambush),
    ];
    if let Some((option, _)) = tde_only.iter().find(|(_, given)| *given) {
        return Err(format!("{option} is an option of TDE games; --game {} takes none", args.game));
    }
    let agents: Vec<String> = args.agents.iter().flat_map(|list| split_agent_list(list)).collect();
    let results = game.arena(&agents, &args.scenarios, args.games, args.seed, &run_options(args))?;
    Ok(print(args, &results))
}

/// How to run an arena, from the command line.
fn run_options(args: &ArenaArgs) -> ArenaOptions {
    ArenaOptions {
        threads: threads(args),
        out: args.out.clone(),
        records: args.records,
        progress: std::io::stderr().is_terminal() && std::env::var_os("CI").is_none(),
    }
}

/// `--threads`, or every core.
fn threads(args: &ArenaArgs) -> usize {
    match args.threads {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// `tde arena --solo`: every agent alone against the dinosaurs.
fn solo(args: &ArenaArgs) -> Result<String, String> {
    let Some(crew) = args.setup.crews.first() else {
        return Err("--crews: name the crew that plays solo".into());
    };
    let scenarios = scenario_list(&args.scenarios)?;
    let crew_pool = match Pool::crews(&args.setup.crews) {
        Ok(Pool::Drawn(pool)) => pool,
        _ => Vec::new(),
    };
    let settings = eval::solo::SoloSettings {
        agents: args.agents.iter().flat_map(|list| split_agent_list(list)).collect(),
        scenarios,
        games: args.games,
        seed: args.seed,
        board: args.setup.board.clone(),
        crew: crew.clone(),
        boards: args.boards.clone().unwrap_or_default(),
        crew_pool,
        rules: args.setup.rules.clone(),
        dinos: args.setup.dinos,
        ambush: args.setup.ambush,
    };
    let options = run_options(args);
    let results = eval::solo::run_solo(
        &settings,
        training::play::make_agent,
        options.threads,
        options.progress,
        args.out.as_deref(),
    )?;
    if args.json {
        return Ok(serde_json::to_string_pretty(&results).expect("results serialise"));
    }
    let mut text = eval::solo::solo_summary(&results);
    if let Some(dir) = &args.out {
        text.push_str(&format!("\n\nreport: {}", dir.join("report.md").display()));
    }
    Ok(text)
}

/// `--scenarios`: `all` (the five) or names and numbers 1-5 (`skirmish` too).
fn scenario_list(names: &[String]) -> Result<Vec<engine::scenario::Scenario>, String> {
    if names.iter().any(|n| n.eq_ignore_ascii_case("all")) {
        return Ok(engine::scenario::Scenario::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| engine::scenario::Scenario::parse(n).map_err(|e| format!("--scenarios: {e}")))
        .collect()
}
