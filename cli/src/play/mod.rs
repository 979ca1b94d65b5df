//! `tde play`, `tde watch` and `tde view`: the game on a local web page.
//!
//! [`table`] holds the game and takes the person's actions, [`view`] builds what one seat may
//! see, [`advice`] asks the opponent agent about the person's decision, and [`server`] serves
//! the page (`cli/web/`, built into the binary) and the JSON API.

mod advice;
mod server;
mod table;
pub(crate) mod view;

use crate::game_cmd::GameOptions;
use clap::Args;
use engine::record::GameRecord;
use engine::setup::new_game;
use std::io::Write;
use std::path::PathBuf;
use table::{Mode, Seat, Table};

/// Where and how to serve the page.
#[derive(Args, Clone, Debug)]
pub struct ServeOptions {
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8014)]
    pub port: u16,
}

/// `tde play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The agent you play against (see `tde arena` for the specs).
    #[arg(long, default_value = "mcts:iters=200")]
    pub bot: String,
    /// Your side: A or B.
    #[arg(long, default_value = "A")]
    pub side: String,
    /// Seed for the dice and the bot (default: from the clock, printed so the game can be
    /// played again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the game record here after every step (default: tde_play_SEED.json); `tde replay`
    /// and `tde view` read it.
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub serve: ServeOptions,
}

/// `tde watch`.
#[derive(Args, Debug)]
pub struct WatchArgs {
    /// The two agents, side A then side B.
    #[arg(long, value_delimiter = ',', default_value = "scripted,greedy")]
    pub agents: Vec<String>,
    /// Seed for the dice and the agents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the game record here as it is played.
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub serve: ServeOptions,
}

/// `tde view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// A game record (`tde demo --record`, `tde play`, `tde arena --records`).
    pub record: PathBuf,
    #[command(flatten)]
    pub serve: ServeOptions,
}

/// Play a game against an agent on a local web page.
pub fn play(args: &PlayArgs) -> Result<String, String> {
    let human = match args.side.to_ascii_uppercase().as_str() {
        "A" => 0,
        "B" => 1,
        other => return Err(format!("--side: `{other}` is not A or B")),
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = args.game.config(seed)?;
    let state = new_game(&config).map_err(|e| e.to_string())?;
    let bot = Table::bot(&args.bot, seed, 1 - human)?;
    let mut seats = [Seat::Human, bot];
    if human == 1 {
        seats.swap(0, 1);
    }
    let record = args.record.clone().unwrap_or_else(|| PathBuf::from(format!("tde_play_{seed}.json")));
    let intro = format!(
        "{} on {}, you play side {} against {} (seed {seed}); the record is kept in {}",
        config.scenario.title(),
        state.board().name(),
        if human == 0 { 'A' } else { 'B' },
        args.bot,
        record.display()
    );
    let table = Table::new(Mode::Play, state, seats, seed, Some(record))?;
    run(table, &args.serve, &intro)
}

/// Watch two agents play on a local web page.
pub fn watch(args: &WatchArgs) -> Result<String, String> {
    let specs = agents::split_agent_list(&args.agents.join(","));
    let [a, b] = <[String; 2]>::try_from(specs)
        .map_err(|s| format!("--agents takes exactly two agents separated by a comma, got {}", s.len()))?;
    let config = args.game.config(args.seed)?;
    let state = new_game(&config).map_err(|e| e.to_string())?;
    let seats = [Table::bot(&a, args.seed, 0)?, Table::bot(&b, args.seed, 1)?];
    let intro = format!(
        "{} on {}: {a} (A) against {b} (B), seed {}",
        config.scenario.title(),
        state.board().name(),
        args.seed
    );
    let table = Table::new(Mode::Watch, state, seats, args.seed, args.record.clone())?;
    run(table, &args.serve, &intro)
}

/// Step through a recorded game on a local web page.
pub fn view(args: &ViewArgs) -> Result<String, String> {
    let file = args.record.display().to_string();
    let record = GameRecord::load(&args.record).map_err(|e| e.to_string())?;
    let table = Table::from_record(record, &file)?;
    let intro = format!("{file}: {} actions", table.version());
    run(table, &args.serve, &intro)
}

/// Serve the table, saying where.
fn run(table: Table, serve: &ServeOptions, intro: &str) -> Result<String, String> {
    server::serve(table, &serve.host, serve.port, |url| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{intro}\nOpen {url} in a browser (Ctrl-C stops the server).");
        let _ = out.flush();
    })?;
    Ok(String::new())
}

/// A seed from the clock, for a game nobody asked to repeat.
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs() % 1_000_000)
}
