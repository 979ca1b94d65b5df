//! `tde encounter demo|arena`: the dungeon Encounter of seed 004 (crate `encounter`), played
//! by the framework's agents: `scripted` (the AI Dungeon Master, or the scripted party),
//! `random` and `mcts:...` on either side.

use agents::play_game;
use clap::{Args, Subcommand};
use encounter::{make_agent, Encounter, DM_SIDE, PARTY_SIDE};
use std::fmt::Write;
use std::time::Instant;

/// `tde encounter ...`.
#[derive(Subcommand, Debug)]
pub enum EncounterCommand {
    /// Play one Encounter and print it as it goes: set-up, declarations once revealed,
    /// initiative, every action and roll, and the board each round.
    Demo(DemoArgs),
    /// Party agents against DM agents: wins, draws and the DM's win rate with a 95% interval.
    Arena(ArenaArgs),
}

/// `tde encounter demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Seed of the dice (agents get seeds derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The party's agent: scripted, random or mcts[:k=v,...].
    #[arg(long, default_value = "scripted")]
    pub party: String,
    /// The Dungeon Master's agent: scripted, random or mcts[:k=v,...].
    #[arg(long, default_value = "scripted")]
    pub dm: String,
}

/// `tde encounter arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// Party agents, comma-separated.
    #[arg(long, default_value = "random,scripted")]
    pub party: String,
    /// DM agents, comma-separated.
    #[arg(long, default_value = "random,scripted")]
    pub dm: String,
    /// Games per pairing.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// First seed; game `i` uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Run an encounter subcommand and return its text.
pub fn run(cmd: &EncounterCommand) -> Result<String, String> {
    match cmd {
        EncounterCommand::Demo(args) => demo(args),
        EncounterCommand::Arena(args) => arena(args),
    }
}

fn demo(args: &DemoArgs) -> Result<String, String> {
    let mut agents = vec![make_agent(&args.party, args.seed * 2)?, make_agent(&args.dm, args.seed * 2 + 1)?];
    let mut out =
        format!("Encounter (seed 004), seed {}: party {} against DM {}\n", args.seed, args.party, args.dm);
    let start = Encounter::start_with_log();
    out.push_str(&start.render());
    let mut shown = start.log().len();
    let mut round = start.round();
    let end = play_game(start, &mut agents, args.seed, |s, _| {
        for line in &s.log()[shown..] {
            let _ = writeln!(out, "{line}");
        }
        shown = s.log().len();
        if s.round() != round {
            round = s.round();
            out.push_str(&s.render());
        }
    });
    out.push_str(&end.render());
    let result = match end.winner() {
        Some(PARTY_SIDE) => "the party wins",
        Some(_) => "the Dungeon Master wins",
        None => "a draw",
    };
    let _ = write!(out, "Result: {result} after {} round(s)", end.round());
    Ok(out)
}

fn arena(args: &ArenaArgs) -> Result<String, String> {
    let parties = agents::split_agent_list(&args.party);
    let dms = agents::split_agent_list(&args.dm);
    if parties.is_empty() || dms.is_empty() || args.games == 0 {
        return Err("name at least one party agent, one DM agent and one game".into());
    }
    let mut out = format!(
        "{:<24} {:<24} {:>6} {:>6} {:>6}  DM win rate [95% interval]\n",
        "party", "DM", "party", "DM", "draws"
    );
    for party in &parties {
        for dm in &dms {
            let mut wins = [0u64; 3];
            let started = Instant::now();
            for i in 0..args.games {
                let seed = args.seed + i;
                let mut agents = vec![make_agent(party, seed * 2)?, make_agent(dm, seed * 2 + 1)?];
                let end = play_game(Encounter::start(), &mut agents, seed, |_, _| {});
                wins[end.winner().unwrap_or(2)] += 1;
            }
            let secs = started.elapsed().as_secs_f64();
            let n = args.games as f64;
            let [lo, hi] = eval::stats::wilson(wins[DM_SIDE] as f64, n, 1.96);
            let _ = writeln!(
                out,
                "{party:<24} {dm:<24} {:>6} {:>6} {:>6}  {:.3} [{lo:.3}, {hi:.3}]  ({:.0} games/s)",
                wins[PARTY_SIDE],
                wins[DM_SIDE],
                wins[2],
                wins[DM_SIDE] as f64 / n,
                n / secs.max(1e-9)
            );
        }
    }
    Ok(out.trim_end().to_string())
}
