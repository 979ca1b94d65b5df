//! `tde`: command-line front end of The Drowned Earth AI framework. Each subcommand lives in
//! its own module, returns the text to print, and `main` only parses, dispatches and prints.

mod agents_cmd;
mod arena_cmd;
mod bench_cmd;
mod crew_cmd;
mod encounter;
mod encounter_train;
mod encounter_web;
mod fast_cmd;
mod game_cmd;
mod games_cmd;
mod learn_cmd;
mod play;
mod probe_cmd;
mod rules_cmd;
mod scenarios_cmd;
mod show_cmd;
mod study_cmd;
mod train_cmd;
mod web_server;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// The Drowned Earth: rules engine, AI opponents and tools.
#[derive(Parser)]
#[command(name = "tde", version, about)]
struct Cli {
    /// Where networks compute: `cpu` (the default); `vulkan` / `vulkan:N` (a GPU through Vulkan)
    /// in a build with the `vulkan` feature (`cargo build --release --features vulkan`);
    /// `cuda` / `cuda:N` in a build with the `cuda` feature; `onnx` / `onnx:THREADS` (the networks
    /// that play run in ONNX Runtime on the CPU, 2-3x faster than burn; training stays on burn) in
    /// a build with the `onnx` feature, with ORT_DYLIB_PATH naming the library the `onnxruntime`
    /// Python wheel ships.
    #[arg(long, global = true, default_value = "cpu", value_name = "DEVICE")]
    device: training::network::compute::DeviceChoice,
    #[command(subcommand)]
    command: Command,
}

/// Top-level subcommands.
#[derive(Subcommand)]
enum Command {
    /// Play a scenario against an agent on a local web page.
    Play(play::PlayArgs),
    /// Watch two agents play on a local web page, at the speed you choose.
    Watch(play::WatchArgs),
    /// Step forward and back through a game record on a local web page.
    View(play::ViewArgs),
    /// Play a complete game between two built-in agents on the default board and crews.
    Demo(game_cmd::DemoArgs),
    /// Re-simulate a game record and print its final state hash.
    Replay(game_cmd::ReplayArgs),
    /// List the legal actions in a situation posed by a setup file.
    Legal(game_cmd::LegalArgs),
    /// The whole state a player may see in a saved game or setup file (`--side a|b` masks what
    /// that side may not know).
    Show(show_cmd::ShowArgs),
    /// Exact expected outcome of every option at a set-up decision, over the rest of the sequence.
    Analyze(game_cmd::AnalyzeArgs),
    /// Play random games checking the engine's invariants after every step.
    Fuzz(game_cmd::FuzzArgs),
    /// Measure clone, legal-action and random-game speed per scenario (medians, one thread).
    Bench(bench_cmd::BenchArgs),
    /// Round robin between agents on every scenario with sides swapped: ratings and a report
    /// (`--game encounter|tictactoe` for another game of `tde games`).
    Arena(arena_cmd::ArenaArgs),
    /// List every agent a spec may name, with its parameters.
    Agents,
    /// The fact sheet of every game the framework plays (players, chance, hidden information,
    /// tensor shapes, scenarios, agents).
    Games,
    /// List the five scenarios, one line each.
    Scenarios(scenarios_cmd::ScenariosArgs),
    /// Policy iteration of the learned player: propose (rollout labels or self-play games), gate; resumable.
    Learn(learn_cmd::LearnArgs),
    /// Rate every committed generation of the learned player, `scripted` and others (Bradley–Terry).
    Ladder(learn_cmd::LadderArgs),
    /// Fit the learned leaf value MCTS cuts its rollouts off with (`mcts:...,leaf=PATH`) to
    /// rollouts from positions of a generation's own games.
    LeafValue(learn_cmd::LeafValueArgs),
    /// Train a policy/value network from expert play or by self-play; resumable from its run folder.
    Train(train_cmd::TrainArgs),
    /// One self-play actor: plays games with a run's latest network into its shards.
    Selfplay(train_cmd::SelfPlayArgs),
    /// Learning curves of a training run (losses, evaluation scores with intervals) as a PNG.
    Curves(train_cmd::CurvesArgs),
    /// The fast network (the main line): `tde fast data` (labelled positions from the
    /// teachers' games) and `tde fast train` (train it; resumable).
    Fast {
        #[command(subcommand)]
        cmd: fast_cmd::FastCommand,
    },
    /// Yardsticks of a network: `tde probe value|policy|sibling`.
    Probe {
        #[command(subcommand)]
        cmd: probe_cmd::ProbeCommand,
    },
    /// The old name of `tde probe value`.
    #[command(hide = true)]
    ValueCheck(probe_cmd::ValueArgs),
    /// The old name of `tde probe sibling`.
    #[command(hide = true)]
    SiblingCheck(probe_cmd::SiblingArgs),
    /// The old name of `tde probe policy`.
    #[command(hide = true)]
    PolicyCheck(probe_cmd::PolicyArgs),
    /// Write a network of either architecture as an ONNX model (for ONNX Runtime, Python or
    /// Netron).
    ExportOnnx(train_cmd::ExportOnnxArgs),
    /// Crew lists: `tde crew check FILE` gives the points and every rule a crew breaks.
    Crew {
        #[command(subcommand)]
        cmd: crew_cmd::CrewCommand,
    },
    /// Studies of decisions: `tde study reaction-timing SETUP` (or `--sweep CONFIG`) and
    /// `tde study agent-reactions RECORDS...`.
    Study {
        #[command(subcommand)]
        cmd: study_cmd::StudyCommand,
    },
    /// The dungeon Encounter of seed 004 with an AI Dungeon Master: `demo`, `arena`, `play` (you play the party).
    Encounter {
        #[command(subcommand)]
        cmd: encounter::EncounterCommand,
    },
    /// Exact odds of attribute tests, opposed tests and armour rolls.
    Rules {
        #[command(subcommand)]
        cmd: rules_cmd::RulesCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(message) = training::network::compute::select(cli.device) {
        eprintln!("tde: error: --device: {message}");
        return ExitCode::from(1);
    }
    // Say which game data is used unless it is the built-in data, and refuse a folder that
    // lacks it (the exact-odds commands need none).
    if !matches!(cli.command, Command::Rules { .. } | Command::Scenarios(_) | Command::Agents) {
        let (dir, why) = engine::data::configs_choice();
        let same = |a: &std::path::Path, b: &std::path::Path| a.canonicalize().ok() == b.canonicalize().ok();
        if !same(&dir, &engine::data::builtin_configs_dir()) || why.contains("ignored") {
            eprintln!("tde: game data: {why}");
        }
        let missing = engine::data::missing_data(&dir);
        if !missing.is_empty() {
            eprintln!("tde: error: game data folder {} lacks {}", dir.display(), missing.join(", "));
            return ExitCode::from(1);
        }
    }
    // Each command gives its text and whether it succeeded (a check that found problems
    // prints its report and exits with 1), or an error.
    let passed = |r: Result<String, String>| r.map(|text| (text, true));
    let result = match &cli.command {
        Command::Rules { cmd } => passed(rules_cmd::run(cmd)),
        Command::Play(args) => passed(play::play(args)),
        Command::Watch(args) => passed(play::watch(args)),
        Command::View(args) => passed(play::view(args)),
        Command::Demo(args) => passed(game_cmd::demo(args)),
        Command::Replay(args) => game_cmd::replay(args),
        Command::Legal(args) => passed(game_cmd::legal(args)),
        Command::Show(args) => passed(show_cmd::show(args)),
        Command::Analyze(args) => passed(game_cmd::analyze(args)),
        Command::Bench(args) => passed(bench_cmd::bench(args)),
        Command::Scenarios(args) => Ok((scenarios_cmd::scenarios(args), true)),
        Command::Agents => Ok((agents_cmd::agents(), true)),
        Command::Games => passed(games_cmd::games()),
        Command::Arena(args) => passed(arena_cmd::arena(args)),
        Command::Learn(args) => passed(learn_cmd::learn_cmd(args)),
        Command::Ladder(args) => passed(learn_cmd::ladder_cmd(args)),
        Command::LeafValue(args) => passed(learn_cmd::leaf_value_cmd(args)),
        Command::Train(args) => passed(train_cmd::train(args)),
        Command::Selfplay(args) => passed(train_cmd::selfplay(args)),
        Command::Curves(args) => passed(train_cmd::curves(args)),
        Command::Fast { cmd } => passed(fast_cmd::run(cmd)),
        Command::Probe { cmd } => passed(probe_cmd::run(cmd)),
        Command::ValueCheck(args) => passed(probe_cmd::value(args)),
        Command::SiblingCheck(args) => passed(probe_cmd::sibling(args)),
        Command::PolicyCheck(args) => passed(probe_cmd::policy(args)),
        Command::ExportOnnx(args) => passed(train_cmd::export_onnx(args)),
        Command::Crew { cmd } => crew_cmd::run(cmd),
        Command::Study { cmd } => passed(study_cmd::run(cmd)),
        Command::Fuzz(args) => game_cmd::fuzz(args),
        // The web page serves the Encounter on the `tde play` server (`encounter_web`).
        Command::Encounter { cmd: encounter::EncounterCommand::Play(args) } if args.web => {
            passed(encounter_web::play(args))
        }
        Command::Encounter { cmd } => passed(encounter::run(cmd)),
    };
    match result {
        Ok((text, ok)) => {
            // A closed pipe (e.g. `tde demo | head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{text}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("tde: error: {message}");
            ExitCode::from(1)
        }
    }
}
