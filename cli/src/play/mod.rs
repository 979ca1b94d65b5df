//! `tde play`, `tde watch` and `tde view`: the game on a local web page.
//!
//! [`table`] holds the game and takes the person's actions, [`view`] builds what one seat may
//! see, [`advice`] asks the opponent agent about the person's decision, [`level`] names the
//! bot's levels, [`risk`] works out what an option risks once the enemy answers, [`sight`] what the enemy sees of a cell and could do there, [`saved`] decides whether a start resumes a saved game, [`words`]
//! puts the log in players' words, and [`server`] serves
//! the page (`cli/web/`, built into the binary) and the JSON API.

mod advice;
pub mod level;
pub(crate) mod lock;
mod odds;
mod risk;
mod saved;
mod server;
mod sight;
mod table;
pub(crate) mod view;
mod words;

use crate::game_cmd::GameOptions;
use clap::Args;
use engine::record::GameRecord;
use engine::setup::new_game;
use level::Level;
use lock::RecordLock;
use saved::{Opening, PlaySettings, Wanted, DEFAULT_FOLDER};
use std::io::Write;
use std::path::{Path, PathBuf};
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
    /// How strong the bot is: easy (greedy), normal (scripted), hard (search led by the
    /// network, 0.1 s a move) or strongest (the same, 0.5 s a move; the default).
    #[arg(long, value_enum, conflicts_with = "bot")]
    pub level: Option<Level>,
    /// The agent you play against instead of a level: any spec `tde arena` takes.
    #[arg(long)]
    pub bot: Option<String>,
    /// Your side: A or B (default A).
    #[arg(long)]
    pub side: Option<String>,
    /// Seed for the dice and the bot (default: from the clock, printed so the game can be
    /// played again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The game record, written after every step; `tde replay` and `tde view` read it. An
    /// unfinished `tde play` game there is resumed with its own settings; any other file there
    /// is left as it is. Default: saved-games/tde_play_SEED.json (that game resumed when it is
    /// this game, unfinished; else the next free name).
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

/// Play a game against an agent on a local web page: a new game, or the saved one resumed.
pub fn play(args: &PlayArgs) -> Result<String, String> {
    let human = match args.side.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None | Some("A") => "A",
        Some("B") => "B",
        Some(other) => return Err(format!("--side: `{other}` is not A or B")),
    };
    let named_bot = match (&args.bot, args.level) {
        (Some(spec), _) => Some(spec.clone()),
        (None, Some(level)) => Some(level.spec()?),
        (None, None) => None,
    };
    let bot = match &named_bot {
        Some(spec) => spec.clone(),
        None => Level::Strongest.spec()?,
    };
    let level = match (&args.bot, args.level) {
        (Some(_), _) => String::new(),
        (None, level) => format!("level {}: ", level.unwrap_or(Level::Strongest).name()),
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = args.game.config(seed)?;
    let initial = new_game(&config).map_err(|e| e.to_string())?;
    let settings = PlaySettings { human: human.to_string(), bot, seed };
    let wanted = Wanted { human: args.side.clone(), bot: named_bot, seed: args.seed };
    let folder = Path::new(DEFAULT_FOLDER);
    let first = saved::open(args.record.as_deref(), folder, &settings, &wanted, &initial)?;
    // One writer per record: a second server on this game stops here, before it reads or
    // writes anything more.
    let lock = RecordLock::take(first.path())?;
    // Read again under the lock: a server that stopped a moment ago may have written more.
    let opening = saved::open(args.record.as_deref(), folder, &settings, &wanted, &initial)?;
    if opening.path() != first.path() {
        return Err(format!(
            "{}: the saved game changed while starting; start again",
            first.path().display()
        ));
    }
    // The port next: a busy port stops here, before any record is written.
    let listener = crate::web_server::bind(&args.serve.host, args.serve.port)?;
    // Other games left unfinished, offered when the person named no game.
    let others = match &args.record {
        None => saved::unfinished(folder, opening.path(), 5),
        Some(_) => Vec::new(),
    };
    let (table, intro) = match opening {
        Opening::New { path, note } => {
            if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder)
                    .map_err(|e| format!("{}: cannot create it: {e}", folder.display()))?;
            }
            let intro = format!(
                "{}{} on {}, you play side {human} against the bot ({level}{}), seed {seed}; the game is kept in {}",
                note.map(|n| format!("{n}\n")).unwrap_or_default(),
                config.scenario.title(),
                initial.board().name(),
                settings.bot,
                path.display()
            );
            let seats = seats(&settings)?;
            let table =
                Table::new(Mode::Play, initial, seats, seed, Some(path), Some(settings.description()))?;
            (table, intro)
        }
        Opening::Resume { path, record, settings } => {
            let seats = seats(&settings)?;
            let table = Table::resume(*record, path.clone(), seats, settings.seed)?;
            let intro = format!(
                "Resuming {} at step {}: {} on {}, you play side {} against {} (seed {})",
                path.display(),
                table.version(),
                table.current().static_data().scenario.title(),
                table.current().board().name(),
                settings.human,
                settings.bot,
                settings.seed
            );
            (table, intro)
        }
    };
    let intro = match others.as_slice() {
        [] => intro,
        list => format!(
            "{intro}\nUnfinished games (to go on with one, stop this server with Ctrl-C and run its command):\n{}",
            list.iter().map(|u| format!("  {}   ({})", u.command, u.about)).collect::<Vec<_>>().join("\n")
        ),
    };
    run(listener, table, &args.serve, &intro, Some(lock), &others)
}

/// The two seats of a `tde play` game, side A then side B.
fn seats(settings: &PlaySettings) -> Result<[Seat; 2], String> {
    let human = settings.human_side();
    let bot = Table::bot(&settings.bot, settings.seed, 1 - human)?;
    let mut seats = [Seat::Human, bot];
    if human == 1 {
        seats.swap(0, 1);
    }
    Ok(seats)
}

/// Watch two agents play on a local web page.
pub fn watch(args: &WatchArgs) -> Result<String, String> {
    let specs = agents::split_agent_list(&args.agents.join(","));
    let [a, b] = <[String; 2]>::try_from(specs)
        .map_err(|s| format!("--agents takes exactly two agents separated by a comma, got {}", s.len()))?;
    let config = args.game.config(args.seed)?;
    let state = new_game(&config).map_err(|e| e.to_string())?;
    let lock = args.record.as_deref().map(RecordLock::take).transpose()?;
    let listener = crate::web_server::bind(&args.serve.host, args.serve.port)?;
    let seats = [Table::bot(&a, args.seed, 0)?, Table::bot(&b, args.seed, 1)?];
    let intro = format!(
        "{} on {}: {a} (A) against {b} (B), seed {}",
        config.scenario.title(),
        state.board().name(),
        args.seed
    );
    let table = Table::new(Mode::Watch, state, seats, args.seed, args.record.clone(), None)?;
    run(listener, table, &args.serve, &intro, lock, &[])
}

/// Step through a recorded game on a local web page.
pub fn view(args: &ViewArgs) -> Result<String, String> {
    let file = args.record.display().to_string();
    let listener = crate::web_server::bind(&args.serve.host, args.serve.port)?;
    let record = GameRecord::load(&args.record).map_err(|e| e.to_string())?;
    let table = Table::from_record(record, &file)?;
    let intro = format!("{file}: {} actions", table.version());
    run(listener, table, &args.serve, &intro, None, &[])
}

/// Serve the table, saying where; `lock` (the record's, held until the process ends) is told
/// the address, and `unfinished` lists the other unfinished games for the page.
fn run(
    listener: std::net::TcpListener,
    table: Table,
    serve: &ServeOptions,
    intro: &str,
    mut lock: Option<RecordLock>,
    unfinished: &[saved::Unfinished],
) -> Result<String, String> {
    let unfinished = serde_json::to_value(unfinished).map_err(|e| e.to_string())?;
    server::serve(listener, table, &serve.host, unfinished, |url| {
        if let Some(lock) = lock.as_mut() {
            let holder = format!("the tde process {} serving it at {url}", std::process::id());
            if let Err(e) = lock.describe_holder(&holder) {
                eprintln!("{e}");
            }
        }
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
