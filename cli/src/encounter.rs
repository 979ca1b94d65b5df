//! `tde encounter demo|arena|play|replay|train`: the dungeon Encounter of seed 004 (crate
//! `encounter`), played by the framework's agents: `scripted` (the AI Dungeon Master, or the
//! scripted party), `random`, `mcts:...` and the network agents (`policy:checkpoint=PATH`,
//! `az:net=PATH`, trained by `train`, see [`crate::encounter_train`]) on either side, or by a
//! human at the party's side against a DM agent (in the terminal, or with `play --web` on a
//! web page, served by the `encounter_web` module); `--record FILE` writes the game's record
//! (never over an existing file), and `replay FILE` plays a record back to its final state.

use crate::encounter_train::{encounter_agent, train_cmd, TrainArgs};
use agents::{play_game, Game, Turn};
use clap::{Args, Subcommand};
use encounter::{Encounter, GameRecord, Setup, DM_SIDE, PARTY_SIDE};
use rand::SeedableRng;
use std::fmt::Write;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `tde encounter ...`.
#[derive(Subcommand, Debug)]
pub enum EncounterCommand {
    /// Play one Encounter and print it as it goes: set-up, declarations once revealed,
    /// initiative, every action and roll, and the board each round.
    Demo(DemoArgs),
    /// Party agents against DM agents: wins, draws and the DM's win rate with a 95% interval.
    Arena(ArenaArgs),
    /// Play the party yourself against a DM agent: pick each action by its number.
    Play(PlayArgs),
    /// Replay a game record (from `demo --record` or `play --record`): every action checked
    /// legal, the game's log and board printed, and the final state checked against the
    /// record's hash.
    Replay(ReplayArgs),
    /// Teach a policy/value network the Encounter from its scripted players' games (either
    /// side), to play as `policy:checkpoint=RUN` or `az:net=RUN`.
    Train(TrainArgs),
}

/// `tde encounter demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Seed of the dice (agents get seeds derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The party's agent: scripted, random, mcts[:k=v,...], policy:checkpoint=PATH or az:net=PATH.
    #[arg(long, default_value = "scripted")]
    pub party: String,
    /// The Dungeon Master's agent: scripted, random, mcts[:k=v,...], policy:checkpoint=PATH or az:net=PATH.
    #[arg(long, default_value = "scripted")]
    pub dm: String,
    /// Write the game's record (JSON) to this file; an existing file is never overwritten.
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// `tde encounter play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Seed of the dice (the DM agent gets a seed derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Dungeon Master's agent: scripted, search[:k=v,...], random, mcts[:k=v,...],
    /// policy:checkpoint=PATH or az:net=PATH.
    #[arg(long, default_value = "scripted")]
    pub dm: String,
    /// The Dungeon Master's level instead of `--dm`: easy (the scripted DM), normal (a light
    /// search) or hard (the searching DM at full strength).
    #[arg(long, conflicts_with = "dm")]
    pub level: Option<String>,
    /// Write the game's record (JSON) to this file; an existing file is never overwritten.
    /// Quitting (`q` at a prompt) saves the game so far: resume it with `--resume`.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Resume the game saved in this record (from `--record`, after quitting): its actions
    /// are replayed, then play goes on (the dice and the DM continue from the seed, not from
    /// where the saved game's were). Give `--record` a new file to save the whole game again.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Play on a local web page instead of the terminal (see `docs/play.md`): the board drawn
    /// as a grid, every option a button with its odds, the log; the game is kept in
    /// `--record` (default: the first free `saved-games/encounter_SEED.json`) after every
    /// step, and `--resume` plays on in the same file.
    #[arg(long)]
    pub web: bool,
    /// With `--web`: the address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1", requires = "web")]
    pub host: String,
    /// With `--web`: the port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8015, requires = "web")]
    pub port: u16,
}

/// `tde encounter replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file (JSON).
    pub file: PathBuf,
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

/// Run an encounter subcommand and return its text (`play --web` is served by the
/// `encounter_web` module, which `main` calls instead).
pub fn run(cmd: &EncounterCommand) -> Result<String, String> {
    match cmd {
        EncounterCommand::Demo(args) => demo(args),
        EncounterCommand::Arena(args) => arena(args),
        EncounterCommand::Play(args) => play(args, &mut std::io::stdin().lock(), &mut std::io::stdout()),
        EncounterCommand::Train(args) => train_cmd(args),
        EncounterCommand::Replay(args) => replay(args),
    }
}

/// Refuse a record file that exists before the game starts (saving refuses it again).
fn check_record_path(path: Option<&Path>) -> Result<(), String> {
    match path {
        Some(p) if p.exists() => Err(format!("{} exists; a record never overwrites a file", p.display())),
        _ => Ok(()),
    }
}

/// Save the record of a game, if asked, and say where.
fn save_record(
    path: Option<&Path>,
    setup: Setup,
    actions: Vec<encounter::Action>,
    end: &Encounter,
) -> Result<String, String> {
    match path {
        Some(p) => {
            GameRecord::new(setup, actions, end).save(p)?;
            Ok(format!("\nRecord written to {}", p.display()))
        }
        None => Ok(String::new()),
    }
}

/// The result of a finished game in words.
pub(crate) fn result_line(end: &Encounter) -> String {
    let result = match end.winner() {
        Some(PARTY_SIDE) => "the party wins",
        Some(_) => "the Dungeon Master wins",
        None => "a draw",
    };
    format!("Result: {result} after {} round(s)", end.round())
}

fn demo(args: &DemoArgs) -> Result<String, String> {
    check_record_path(args.record.as_deref())?;
    let mut agents =
        vec![encounter_agent(&args.party, args.seed * 2)?, encounter_agent(&args.dm, args.seed * 2 + 1)?];
    let mut out =
        format!("Encounter (seed 004), seed {}: party {} against DM {}\n", args.seed, args.party, args.dm);
    let start = Encounter::start_with_log();
    out.push_str(&start.render());
    let mut shown = start.log().len();
    let mut round = start.round();
    let mut actions = Vec::new();
    let end = play_game(start, &mut agents, args.seed, |s, a| {
        actions.push(a);
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
    out.push_str(&result_line(&end));
    let setup = Setup { seed: args.seed, party: args.party.clone(), dm: args.dm.clone() };
    out.push_str(&save_record(args.record.as_deref(), setup, actions, &end)?);
    Ok(out)
}

/// Play the party from `input` against the DM agent, writing the game to `out` as it goes:
/// the board each round, every action and roll, and at each party decision the legal actions
/// numbered. Bad input is refused and asked again; `q` (quit) or the end of the input ends
/// the game unfinished (its record, if asked, holds the actions so far, and `--resume` plays
/// on from it).
fn play(args: &PlayArgs, input: &mut impl BufRead, out: &mut impl std::io::Write) -> Result<String, String> {
    check_record_path(args.record.as_deref())?;
    let dm_spec = match &args.level {
        Some(level) => encounter::level_spec(level)?.to_string(),
        None => args.dm.clone(),
    };
    let mut dm = encounter_agent(&dm_spec, args.seed * 2 + 1)?;
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let io = |e: std::io::Error| format!("writing the game: {e}");
    let (mut state, mut actions) = match &args.resume {
        Some(path) => {
            let record = GameRecord::load(path)?;
            let state =
                encounter::replay_with_log(&record).map_err(|e| format!("{}: {e}", path.display()))?;
            (state, record.actions)
        }
        None => (Encounter::start_with_log(), Vec::new()),
    };
    let level = args.level.as_ref().map(|l| format!(" (level {l})")).unwrap_or_default();
    writeln!(out, "Encounter (seed 004), seed {}: you play the party against DM {dm_spec}{level}", args.seed)
        .map_err(io)?;
    if let Some(path) = &args.resume {
        writeln!(
            out,
            "Resumed from {} after {} actions, round {}",
            path.display(),
            actions.len(),
            state.round()
        )
        .map_err(io)?;
    }
    let mut last_board = state.render();
    write!(out, "{last_board}").map_err(io)?;
    let mut shown = state.log().len();
    let mut line = String::new();
    let mut quit = false;
    let finished = loop {
        let action = match state.turn() {
            Turn::Terminal => break true,
            Turn::Chance => state.sample_chance(&mut dice).ok_or("a chance node without outcomes")?,
            Turn::Player(p) if p == DM_SIDE => dm.select_action(&state),
            Turn::Player(_) => {
                let legal = state.legal_actions();
                // The board at each decision, when it has changed since it was last drawn.
                let board = state.render();
                if board != last_board {
                    write!(out, "{board}").map_err(io)?;
                    last_board = board;
                }
                writeln!(out, "Round {}: {}", state.round(), state.decision_prompt()).map_err(io)?;
                if let Some(why) = state.why_no_shot() {
                    writeln!(out, "  (no Shoot: {why})").map_err(io)?;
                }
                for (i, &a) in legal.iter().enumerate() {
                    writeln!(out, "  {:>3}. {}", i + 1, state.describe_option(a)).map_err(io)?;
                }
                let mut chosen = None;
                while chosen.is_none() {
                    write!(out, "Your choice (1-{}, q to quit): ", legal.len()).map_err(io)?;
                    out.flush().map_err(io)?;
                    line.clear();
                    if input.read_line(&mut line).map_err(|e| format!("reading your choice: {e}"))? == 0 {
                        break;
                    }
                    if matches!(line.trim(), "q" | "quit") {
                        quit = true;
                        break;
                    }
                    match line.trim().parse::<usize>() {
                        Ok(n) if (1..=legal.len()).contains(&n) => chosen = Some(legal[n - 1]),
                        _ => writeln!(
                            out,
                            "{:?} is not a number from 1 to {} (or q to quit)",
                            line.trim(),
                            legal.len()
                        )
                        .map_err(io)?,
                    }
                }
                match chosen {
                    Some(a) => a,
                    None => break false,
                }
            }
        };
        state.apply(action)?;
        actions.push(action);
        for l in &state.log()[shown..] {
            writeln!(out, "{l}").map_err(io)?;
        }
        shown = state.log().len();
    };
    let mut summary = if finished {
        format!("{}{}", state.render(), result_line(&state))
    } else if quit {
        let resume = match &args.record {
            Some(p) => format!("; resume it with --resume {}", p.display()),
            None => " (no --record: nothing saved)".to_string(),
        };
        format!("\nYou quit: the game stops unfinished in round {}{resume}", state.round())
    } else {
        format!("\nThe input ended: the game stops unfinished in round {}", state.round())
    };
    let setup = Setup { seed: args.seed, party: "human".into(), dm: dm_spec };
    summary.push_str(&save_record(args.record.as_deref(), setup, actions, &state)?);
    Ok(summary)
}

/// Replay a record: its set-up, the log of the game, the final board, the result and the hash
/// check; a record that does not replay is refused with the step and the reason.
fn replay(args: &ReplayArgs) -> Result<String, String> {
    let record = GameRecord::load(&args.file)?;
    let end = encounter::replay_with_log(&record).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let s = &record.setup;
    let mut out = format!(
        "Encounter record {}: seed {}, party {} against DM {}, {} actions\n",
        args.file.display(),
        s.seed,
        s.party,
        s.dm,
        record.actions.len()
    );
    for line in end.log() {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&end.render());
    if end.is_terminal() {
        out.push_str(&result_line(&end));
    } else {
        let _ = write!(out, "The record stops unfinished in round {}", end.round());
    }
    let _ = write!(out, "\nReplayed to the recorded final state (hash {})", record.final_hash);
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
                let mut agents = vec![encounter_agent(party, seed * 2)?, encounter_agent(dm, seed * 2 + 1)?];
                let end = play_game(Encounter::start(), &mut agents, seed, |_, _| {});
                wins[end.winner().unwrap_or(2)] += 1;
            }
            let secs = started.elapsed().as_secs_f64();
            let n = args.games as f64;
            let [lo, hi] = eval::win_draw_loss::wilson(wins[DM_SIDE] as f64, n, 1.96);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(record: Option<PathBuf>) -> PlayArgs {
        PlayArgs {
            seed: 3,
            dm: "scripted".into(),
            level: None,
            record,
            resume: None,
            web: false,
            host: "127.0.0.1".into(),
            port: 8015,
        }
    }

    #[test]
    fn a_game_quit_at_a_prompt_is_saved_and_resumed_to_its_end() {
        let dir = std::env::temp_dir().join(format!("tde-encounter-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (saved, whole) = (dir.join("saved.json"), dir.join("whole.json"));
        let _ = std::fs::remove_file(&saved);
        let _ = std::fs::remove_file(&whole);
        let summary = play(&args(Some(saved.clone())), &mut "1\n1\nq\n".as_bytes(), &mut Vec::new()).unwrap();
        assert!(summary.contains("You quit") && summary.contains("--resume"), "{summary}");
        let first = GameRecord::load(&saved).unwrap();
        assert!(!first.actions.is_empty());
        let resumed = PlayArgs { resume: Some(saved.clone()), ..args(Some(whole.clone())) };
        let mut out = Vec::new();
        let summary = play(&resumed, &mut "1\n".repeat(5000).as_bytes(), &mut out).unwrap();
        assert!(summary.contains("Result:"), "{summary}");
        assert!(String::from_utf8(out).unwrap().contains("Resumed from"));
        let all = GameRecord::load(&whole).unwrap();
        assert_eq!(all.actions[..first.actions.len()], first.actions[..], "the saved game goes first");
        assert!(encounter::replay(&all).unwrap().is_terminal());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_level_picks_the_dungeon_master_and_an_unknown_level_is_refused() {
        let hard = PlayArgs { level: Some("hard".into()), ..args(None) };
        let mut out = Vec::new();
        play(&hard, &mut "q\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("against DM search:") && text.contains("(level hard)"), "{text}");
        let bad = PlayArgs { level: Some("nightmare".into()), ..args(None) };
        let err = play(&bad, &mut "q\n".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(err.contains("nightmare") && err.contains("easy, normal, hard"), "{err}");
    }

    #[test]
    fn play_refuses_bad_input_and_stops_cleanly_at_the_end_of_the_input() {
        let mut out = Vec::new();
        let summary = play(&args(None), &mut "x\n0\n999\n1\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\"x\" is not a number from 1 to"), "{text}");
        assert!(text.contains("\"0\" is not a number") && text.contains("\"999\" is not a number"), "{text}");
        assert!(text.contains("  1. "), "{text}");
        assert!(summary.contains("unfinished"), "{summary}");
    }

    #[test]
    fn a_played_game_is_recorded_and_replays_and_a_record_is_never_overwritten() {
        let dir = std::env::temp_dir().join(format!("tde-encounter-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.json");
        let _ = std::fs::remove_file(&path);
        // Always the first action: the game runs to its end.
        let input = "1\n".repeat(5000);
        let summary = play(&args(Some(path.clone())), &mut input.as_bytes(), &mut Vec::new()).unwrap();
        assert!(summary.contains("Result:") && summary.contains("Record written"), "{summary}");
        let record = GameRecord::load(&path).unwrap();
        assert_eq!(record.setup.party, "human");
        assert!(encounter::replay(&record).unwrap().is_terminal());
        let err = play(&args(Some(path.clone())), &mut "1\n".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(err.contains("exists"), "{err}");
        let demo_args =
            DemoArgs { seed: 1, party: "random".into(), dm: "scripted".into(), record: Some(path.clone()) };
        assert!(demo(&demo_args).unwrap_err().contains("exists"));
        assert_eq!(GameRecord::load(&path).unwrap(), record, "the first record is kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
