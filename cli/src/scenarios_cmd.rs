//! `tde scenarios`: the five competitive scenarios, one line each.

use clap::Args;
use engine::scenario::Scenario;
use serde_json::json;
use std::fmt::Write;

/// `tde scenarios`.
#[derive(Args, Debug)]
pub struct ScenariosArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// List the scenarios with their D5 number, name, page and how each is won.
pub fn scenarios(args: &ScenariosArgs) -> String {
    if args.json {
        let list: Vec<_> = Scenario::ALL
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({"d5": i + 1, "name": s.name(), "title": s.title(), "page": s.page(), "summary": s.summary()})
            })
            .collect();
        return json!({ "scenarios": list }).to_string();
    }
    let mut out = String::from(
        "The five competitive scenarios (rulebook chapter 6; `--scenario NAME`, 1-5 or random):\n",
    );
    for (i, s) in Scenario::ALL.iter().enumerate() {
        let _ = writeln!(out, "  {} {:<18} p.{}  {}", i + 1, s.name(), s.page(), s.summary());
    }
    let _ = write!(out, "  - {:<18} p.20  {}", Scenario::Skirmish.name(), Scenario::Skirmish.summary());
    out
}
