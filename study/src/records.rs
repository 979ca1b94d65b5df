//! What agents actually do: arena game records replayed, and at every reaction choice and
//! every firefight choice the agent's pick compared with the best option by the exact values
//! `tde analyze` gives (expected wounds dealt minus taken over the rest of the sequence; on
//! equal values holding the AP, then the earlier point, is preferred). Per agent: how often it
//! reacts, where relative to the best point, and what its choices cost in expected wounds.

use engine::analysis::{analyze, OptionValue};
use engine::record::GameRecord;
use engine::state::{Player, Step};
use engine::{Action, GameState};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Record files: the files given, and the `.json` files of the folders given, in name order,
/// at most `max`.
pub fn record_files(paths: &[PathBuf], max: usize) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            out.extend(files);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    if out.is_empty() {
        return Err("no record files (.json) found".into());
    }
    out.truncate(max);
    Ok(out)
}

/// One agent's tallies.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AgentTally {
    /// Reaction choices met.
    pub reaction_choices: u32,
    /// Choices where it reacted.
    pub reacted: u32,
    /// Choices where reacting was best.
    pub react_was_best: u32,
    /// Choices with the best value (within 1e-9).
    pub best_chosen: u32,
    /// It held when reacting was better.
    pub held_when_react_better: u32,
    /// It reacted when holding was better.
    pub reacted_when_hold_better: u32,
    /// It reacted at an earlier point than the best reaction's.
    pub earlier_than_best: u32,
    /// At the best reaction's point (or an equal one).
    pub same_point_as_best: u32,
    /// At a later point.
    pub later_than_best: u32,
    /// Total cost in expected wounds (best minus chosen net).
    pub reaction_cost: f64,
    /// Firefight choices met.
    pub firefight_choices: u32,
    /// Choices where it answered.
    pub answered: u32,
    /// Choices where answering was best.
    pub answer_was_best: u32,
    /// Firefight choices with the best value.
    pub firefight_best_chosen: u32,
    /// Total firefight cost in expected wounds.
    pub firefight_cost: f64,
}

/// The survey of a set of records.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Survey {
    /// Records read.
    pub records: u32,
    /// Choices skipped because their exact analysis was too large.
    pub skipped: u32,
    /// Per agent name.
    pub agents: BTreeMap<String, AgentTally>,
}

/// The agent names of a record's two sides, from its description
/// ("...: X (side A) vs Y (side B)"), or "side A" and "side B".
pub fn agent_names(description: &str) -> [String; 2] {
    let tail = description.rsplit_once(": ").map_or(description, |(_, t)| t);
    match tail.split_once(" (side A) vs ") {
        Some((a, b)) => [a.to_string(), b.trim_end_matches(" (side B)").to_string()],
        None => ["side A".to_string(), "side B".to_string()],
    }
}

fn net(v: &OptionValue) -> f64 {
    v.expected_wounds_dealt - v.expected_wounds_taken
}

/// The best option: the highest net, on ties the non-action (hold, no firefight), then the
/// earlier point.
fn best(options: &[OptionValue]) -> Option<&OptionValue> {
    let key = |o: &OptionValue| match o.action {
        Action::React { point, .. } => (1u8, point),
        _ => (0, 0),
    };
    options.iter().fold(None, |b: Option<&OptionValue>, o| match b {
        Some(b) if net(b) > net(o) + 1e-9 => Some(b),
        Some(b) if net(o) > net(b) + 1e-9 => Some(o),
        Some(b) if key(o) < key(b) => Some(o),
        Some(b) => Some(b),
        None => Some(o),
    })
}

/// Replay every record and tally the agents' reaction and firefight choices.
pub fn survey(files: &[PathBuf]) -> Result<Survey, String> {
    use rayon::prelude::*;
    let parts: Vec<Survey> = files.par_iter().map(|f| survey_one(f)).collect::<Result<_, _>>()?;
    let mut out = Survey::default();
    for p in parts {
        out.records += p.records;
        out.skipped += p.skipped;
        for (name, t) in p.agents {
            let a = out.agents.entry(name).or_default();
            a.reaction_choices += t.reaction_choices;
            a.reacted += t.reacted;
            a.react_was_best += t.react_was_best;
            a.best_chosen += t.best_chosen;
            a.held_when_react_better += t.held_when_react_better;
            a.reacted_when_hold_better += t.reacted_when_hold_better;
            a.earlier_than_best += t.earlier_than_best;
            a.same_point_as_best += t.same_point_as_best;
            a.later_than_best += t.later_than_best;
            a.reaction_cost += t.reaction_cost;
            a.firefight_choices += t.firefight_choices;
            a.answered += t.answered;
            a.answer_was_best += t.answer_was_best;
            a.firefight_best_chosen += t.firefight_best_chosen;
            a.firefight_cost += t.firefight_cost;
        }
    }
    Ok(out)
}

fn survey_one(path: &Path) -> Result<Survey, String> {
    let file = path.display().to_string();
    let record = GameRecord::load(path).map_err(|e| e.to_string())?;
    let names = agent_names(&record.description);
    let mut state: GameState = record.initial.restore(&file).map_err(|e| e.to_string())?;
    let mut out = Survey { records: 1, ..Survey::default() };
    for (index, &action) in record.actions.iter().enumerate() {
        if let Player::Side(side) = state.current_player() {
            let step = state.node().cloned();
            if matches!(step, Some(Step::ChooseReaction | Step::ChooseFirefight)) {
                match analyze(&state) {
                    Ok((_, options)) => {
                        let tally = out.agents.entry(names[side.min(1) as usize].clone()).or_default();
                        tally_choice(tally, step == Some(Step::ChooseReaction), &options, action);
                    }
                    Err(_) => out.skipped += 1,
                }
            }
        }
        state
            .apply_action(action)
            .map_err(|e| format!("{file}: action #{index} ({action}) is illegal: {}", e.node))?;
    }
    Ok(out)
}

fn tally_choice(t: &mut AgentTally, reaction: bool, options: &[OptionValue], chosen: Action) {
    let (Some(best), Some(pick)) = (best(options), options.iter().find(|o| o.action == chosen)) else {
        return;
    };
    let cost = (net(best) - net(pick)).max(0.0);
    let agrees = cost < 1e-9;
    if !reaction {
        t.firefight_choices += 1;
        t.answered += u32::from(chosen != Action::NoFirefight);
        t.answer_was_best += u32::from(best.action != Action::NoFirefight);
        t.firefight_best_chosen += u32::from(agrees);
        t.firefight_cost += cost;
        return;
    }
    t.reaction_choices += 1;
    t.best_chosen += u32::from(agrees);
    t.reaction_cost += cost;
    let point = |a: Action| match a {
        Action::React { point, .. } => Some(point),
        _ => None,
    };
    match (point(chosen), point(best.action)) {
        (None, Some(_)) => {
            t.react_was_best += 1;
            t.held_when_react_better += 1;
        }
        (Some(_), None) => {
            t.reacted += 1;
            t.reacted_when_hold_better += u32::from(!agrees);
        }
        (Some(c), Some(b)) => {
            t.reacted += 1;
            t.react_was_best += 1;
            if agrees || c == b {
                t.same_point_as_best += 1;
            } else if c < b {
                t.earlier_than_best += 1;
            } else {
                t.later_than_best += 1;
            }
        }
        (None, None) => {}
    }
}

/// The survey as a table.
pub fn render(s: &Survey) -> String {
    let mut out = format!(
        "{} records; {} choices skipped (exact analysis too large)\n\nreaction choices (exact values over the sequence, expected wounds dealt minus taken):\n",
        s.records, s.skipped
    );
    let pct = |a: u32, b: u32| {
        if b == 0 {
            "-".to_string()
        } else {
            format!("{:.0}%", 100.0 * a as f64 / b as f64)
        }
    };
    let _ = writeln!(
        out,
        "| agent | choices | reacts | react best | best chosen | held, react better | reacted, hold better | earlier | same | later | mean cost |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, t) in &s.agents {
        let n = t.reaction_choices;
        let _ = writeln!(
            out,
            "| {name} | {n} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} |",
            pct(t.reacted, n),
            pct(t.react_was_best, n),
            pct(t.best_chosen, n),
            t.held_when_react_better,
            t.reacted_when_hold_better,
            t.earlier_than_best,
            t.same_point_as_best,
            t.later_than_best,
            t.reaction_cost / n.max(1) as f64
        );
    }
    let _ = writeln!(out, "\nfirefight choices (the mover answering a reaction):");
    let _ = writeln!(out, "| agent | choices | answers | answer best | best chosen | mean cost |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
    for (name, t) in &s.agents {
        let n = t.firefight_choices;
        let _ = writeln!(
            out,
            "| {name} | {n} | {} | {} | {} | {:.3} |",
            pct(t.answered, n),
            pct(t.answer_was_best, n),
            pct(t.firefight_best_chosen, n),
            t.firefight_cost / n.max(1) as f64
        );
    }
    out
}
