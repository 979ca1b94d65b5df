//! Where a `tde play` game is kept, and whether starting `tde play` begins a new game or
//! resumes a saved one: no game is ever lost. An existing record is resumed (when it is an
//! unfinished `tde play` game) or left alone (a clear refusal, or a new name when the name was
//! the default); nothing is written before the server's port is bound (see `mod.rs`).
//!
//! A record remembers who sits where in its description: `tde play {"human":"A",...}`, JSON
//! after a fixed prefix, so that a resumed game has the same bot, side and seed.

use engine::record::{format_hash, GameRecord};
use engine::state::Side;
use engine::GameState;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The folder records go to when `--record` names none (ignored by git).
pub const DEFAULT_FOLDER: &str = "saved-games";

/// The description prefix of records written by `tde play`.
const PREFIX: &str = "tde play ";

/// Who sits where in a `tde play` game, and its seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaySettings {
    /// The person's side, "A" or "B".
    pub human: String,
    /// The bot's agent spec.
    pub bot: String,
    /// The seed of the dice and the bot.
    pub seed: u64,
}

impl PlaySettings {
    /// The person's side as a number (0 for A).
    pub fn human_side(&self) -> Side {
        u8::from(self.human == "B")
    }

    /// The record description that stores these settings.
    pub fn description(&self) -> String {
        format!("{PREFIX}{}", serde_json::to_string(self).expect("settings serialise"))
    }

    /// The settings stored in a record's description: this format, or the older
    /// `Play seed N: you vs SPEC` (`SPEC vs you` when the person played side B).
    pub fn from_description(text: &str) -> Option<PlaySettings> {
        if let Some(json) = text.strip_prefix(PREFIX) {
            let s: PlaySettings = serde_json::from_str(json).ok()?;
            return (s.human == "A" || s.human == "B").then_some(s);
        }
        let rest = text.strip_prefix("Play seed ")?;
        let (seed, seats) = rest.split_once(": ")?;
        let seed = seed.parse().ok()?;
        let (a, b) = seats.split_once(" vs ")?;
        match (a, b) {
            ("you", bot) if bot != "you" => Some(PlaySettings { human: "A".into(), bot: bot.into(), seed }),
            (bot, "you") if bot != "you" => Some(PlaySettings { human: "B".into(), bot: bot.into(), seed }),
            _ => None,
        }
    }
}

/// What `tde play` asked for; `None` where the person left the choice to the defaults.
#[derive(Clone, Debug, Default)]
pub struct Wanted {
    /// `--side`.
    pub human: Option<String>,
    /// `--bot` or the spec of `--level`.
    pub bot: Option<String>,
    /// `--seed`.
    pub seed: Option<u64>,
}

/// How the game starts.
pub enum Opening {
    /// A new game, to be written at `path` (where no file is).
    New {
        /// Where the record goes.
        path: PathBuf,
        /// Why this name, when it is not the one asked for (the default name was taken).
        note: Option<String>,
    },
    /// A saved, unfinished game, to go on from where it stopped.
    Resume {
        /// Its file.
        path: PathBuf,
        /// The record read from it.
        record: Box<GameRecord>,
        /// Who sits where.
        settings: PlaySettings,
    },
}

impl Opening {
    /// The record's file.
    pub fn path(&self) -> &Path {
        match self {
            Opening::New { path, .. } | Opening::Resume { path, .. } => path,
        }
    }
}

/// An unfinished `tde play` game found in the saved games' folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unfinished {
    /// Its record.
    pub path: String,
    /// The command that goes on with it.
    pub command: String,
    /// What it is, in words: "Couriers, turn 3 of 6, you play side A against greedy (412 steps)".
    pub about: String,
}

/// The unfinished `tde play` games in `folder`, the most recently played first (at most
/// `most`), leaving out `except`. Files that are not `tde play` records are passed over.
pub fn unfinished(folder: &Path, except: &Path, most: usize) -> Vec<Unfinished> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut found: Vec<(std::time::SystemTime, Unfinished)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p != except)
        .filter_map(|path| {
            let (record, settings) = read_play_record(&path).ok()?;
            let file = path.display().to_string();
            let end = record.replay(&file).ok()?;
            if end.is_terminal() || format_hash(end.state_hash()) != record.final_hash {
                return None;
            }
            let when = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
            let about = format!(
                "{}, turn {} of {}, you play side {} against {} ({} steps)",
                end.static_data().scenario.title(),
                end.turn(),
                end.static_data().max_turns,
                settings.human,
                settings.bot,
                record.actions.len()
            );
            let command = format!("tde play --record {file}");
            Some((when, Unfinished { path: file, command, about }))
        })
        .collect();
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found.into_iter().take(most).map(|(_, u)| u).collect()
}

/// The default record of a game with `seed`: `saved-games/tde_play_SEED.json`, or with
/// `-2`, `-3`... when `n` is 2, 3...
pub fn default_path(folder: &Path, seed: u64, n: u32) -> PathBuf {
    match n {
        0 | 1 => folder.join(format!("tde_play_{seed}.json")),
        n => folder.join(format!("tde_play_{seed}-{n}.json")),
    }
}

/// Decide how the game starts. `explicit` is `--record`; `settings` what this start would
/// play (`wanted` says which of them the person named); `initial` the new game's first state.
///
/// - `--record FILE` where FILE exists: resumed if it is an unfinished `tde play` game whose
///   settings do not contradict what was named; otherwise a refusal that leaves it untouched.
/// - no `--record`: `saved-games/tde_play_SEED.json`, resumed when it holds this very game
///   (same first state and seats) unfinished, else the first free `-N` name.
pub fn open(
    explicit: Option<&Path>,
    folder: &Path,
    settings: &PlaySettings,
    wanted: &Wanted,
    initial: &GameState,
) -> Result<Opening, String> {
    if let Some(path) = explicit {
        if !path.exists() {
            return Ok(Opening::New { path: path.to_path_buf(), note: None });
        }
        let (record, saved) = read_play_record(path)?;
        let file = path.display();
        if let Some((flag, field)) = contradiction(&saved, wanted) {
            return Err(format!(
                "--record {file}: that game was played with {field}; it is left as it is: leave out \
                 {flag} to resume it, or pass another --record for a new game"
            ));
        }
        if finished(&record, &file.to_string())? {
            return Err(format!(
                "--record {file}: that game is over and is left as it is; see it with `tde view {file}`, \
                 or pass another --record for a new game"
            ));
        }
        return Ok(Opening::Resume { path: path.to_path_buf(), record: Box::new(record), settings: saved });
    }
    let mut skipped = Vec::new();
    for n in 1..10_000 {
        let path = default_path(folder, settings.seed, n);
        if !path.exists() {
            let note = (!skipped.is_empty()).then(|| {
                format!(
                    "{} holds another game, left as it is; this one is kept in {}",
                    skipped.join(", "),
                    path.display()
                )
            });
            return Ok(Opening::New { path, note });
        }
        // This very game, unfinished: go on with it.
        if let Ok((record, saved)) = read_play_record(&path) {
            let same_start = record.initial.restore(&path.display().to_string()).ok().map(|s| s.state_hash())
                == Some(initial.state_hash());
            if same_start
                && saved == *settings
                && !finished(&record, &path.display().to_string()).unwrap_or(true)
            {
                return Ok(Opening::Resume { path, record: Box::new(record), settings: saved });
            }
        }
        skipped.push(path.display().to_string());
    }
    Err(format!("{}: no free record name for seed {}; pass --record FILE", folder.display(), settings.seed))
}

/// A `tde play` record and its settings, or why the file is not one.
fn read_play_record(path: &Path) -> Result<(GameRecord, PlaySettings), String> {
    let file = path.display();
    let record = GameRecord::load(path).map_err(|e| {
        format!("--record {file}: cannot read it as a game record ({e}); it is left as it is")
    })?;
    let settings = PlaySettings::from_description(&record.description).ok_or_else(|| {
        format!(
            "--record {file}: not a tde play game (its description is `{}`); it is left as it is: \
             see it with `tde view {file}`, or pass another --record",
            record.description
        )
    })?;
    Ok((record, settings))
}

/// The first setting named at the command line that the saved game contradicts: its option
/// and the saved value, in words.
fn contradiction(saved: &PlaySettings, wanted: &Wanted) -> Option<(&'static str, String)> {
    if let Some(h) = &wanted.human {
        if !h.eq_ignore_ascii_case(&saved.human) {
            return Some(("--side", format!("side {} (you asked for side {h})", saved.human)));
        }
    }
    if let Some(b) = &wanted.bot {
        if *b != saved.bot {
            return Some(("--bot and --level", format!("the bot {} (you asked for {b})", saved.bot)));
        }
    }
    if let Some(s) = wanted.seed {
        if s != saved.seed {
            return Some(("--seed", format!("seed {} (you asked for seed {s})", saved.seed)));
        }
    }
    None
}

/// Whether the recorded game is over (replaying it, which also checks it).
fn finished(record: &GameRecord, file: &str) -> Result<bool, String> {
    let end = record.replay(file).map_err(|e| format!("--record {file}: {e}; it is left as it is"))?;
    let hash = format_hash(end.state_hash());
    if hash != record.final_hash {
        return Err(format!(
            "--record {file}: its actions lead to hash {hash}, not the recorded {}; it is left as it is",
            record.final_hash
        ));
    }
    Ok(end.is_terminal())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_the_description() {
        let s = PlaySettings { human: "B".into(), bot: "mcts:ms=500,net=x".into(), seed: 7 };
        assert_eq!(PlaySettings::from_description(&s.description()), Some(s));
        let old = PlaySettings::from_description("Play seed 12: you vs mcts:iters=200").unwrap();
        assert_eq!((old.human.as_str(), old.bot.as_str(), old.seed), ("A", "mcts:iters=200", 12));
        let old = PlaySettings::from_description("Play seed 3: greedy vs you").unwrap();
        assert_eq!(old.human_side(), 1);
        for other in ["Watch seed 1: a vs b", "demo", "tde play {\"human\":\"C\",\"bot\":\"x\",\"seed\":1}"] {
            assert_eq!(PlaySettings::from_description(other), None, "{other}");
        }
    }

    #[test]
    fn default_names_count_up() {
        let folder = Path::new("saved-games");
        assert_eq!(default_path(folder, 5, 1), folder.join("tde_play_5.json"));
        assert_eq!(default_path(folder, 5, 3), folder.join("tde_play_5-3.json"));
    }
}
