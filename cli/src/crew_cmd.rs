//! `tde crew check`: the verdict on a crew file against the Force Organisation rules.

use clap::{Args, Subcommand};
use engine::crew::{board_size, check_crew, parse_crew_unchecked};
use engine::data::configs_dir;
use serde_json::json;
use std::fmt::Write;
use std::path::PathBuf;

/// `tde crew ...`.
#[derive(Subcommand, Debug)]
pub enum CrewCommand {
    /// Check a crew file: its points and every rule it breaks.
    Check(CheckArgs),
}

/// `tde crew check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The crew file (TOML).
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Run a crew command; `Ok((text, legal))`.
pub fn run(cmd: &CrewCommand) -> Result<(String, bool), String> {
    let CrewCommand::Check(args) = cmd;
    let file = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{file}: {e}"))?;
    let crew = parse_crew_unchecked(&text, &file).map_err(|e| e.to_string())?;
    let configs = configs_dir();
    let catalog = engine::profile::load_catalog(&configs.join("factions")).map_err(|e| e.to_string())?;
    let cards = engine::cards::load_cards(&configs.join("cards")).map_err(|e| e.to_string())?;
    let report = check_crew(&crew, &catalog, Some(&cards));
    let legal = report.violations.is_empty();
    let (w, d) = board_size(crew.points);
    let out = if args.json {
        json!({"file": file, "name": crew.name, "legal": legal, "points": report.points, "limit": report.limit,
               "board": format!("{w}x{d}"), "violations": report.violations})
        .to_string()
    } else {
        let mut s = format!(
            "{}: {} — {} of {} points — {} (board {w}x{d})",
            file,
            crew.name,
            report.points,
            report.limit,
            if legal { "legal" } else { "NOT legal" }
        );
        for v in &report.violations {
            let _ = write!(s, "\n  {}: {}", v.field, v.rule);
        }
        s
    };
    Ok((out, legal))
}
