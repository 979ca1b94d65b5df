//! `tde`: command-line front end of The Drowned Earth AI framework. Each subcommand lives in
//! its own module, returns the text to print, and `main` only parses, dispatches and prints.

mod rules_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The Drowned Earth: rules engine, AI opponents and tools.
#[derive(Parser)]
#[command(name = "tde", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Top-level subcommands.
#[derive(Subcommand)]
enum Command {
    /// Exact odds of attribute tests, opposed tests and armour rolls.
    Rules {
        #[command(subcommand)]
        cmd: rules_cmd::RulesCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Rules { cmd } => rules_cmd::run(cmd),
    };
    match result {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("tde: error: {message}");
            ExitCode::from(1)
        }
    }
}
