//! Game records of the Encounter: the set-up (the seed and the agents that played, for the
//! reader), every action in order, chance outcomes included, and the final state's hash, as
//! versioned JSON written atomically. [`replay`] re-applies every action from a fresh
//! Encounter, validating each, and checks the hash; a malformed or hostile file is refused
//! with a message, never a panic.

use crate::state::{Action, Encounter};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

/// The record format's name, in every record's `format` field.
pub const FORMAT: &str = "encounter-record";

/// The record format's version, in every record's `version` field.
pub const FORMAT_VERSION: u32 = 8;

/// The largest record file [`GameRecord::load`] reads (a game is a few thousand actions).
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// How a recorded game was set up. The Encounter itself has no options (the data are built
/// in); the seed and the agents say how the actions came about, and the actions alone,
/// chance outcomes included, replay the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The seed of the dice and the agents.
    pub seed: u64,
    /// The party's agent (e.g. `scripted`, `random`, `human`).
    pub party: String,
    /// The Dungeon Master's agent.
    pub dm: String,
}

/// One recorded Encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// How the game was set up.
    pub setup: Setup,
    /// Every action in order, decisions and chance outcomes alike.
    pub actions: Vec<Action>,
    /// The final state's [`state_hash`], as 16 lower-case hex digits.
    pub final_hash: String,
}

/// A hash of the whole state (every model, resource, phase and pending resolution; not the
/// text log), FNV-1a over its canonical text. Stable for a given build of this crate.
pub fn state_hash(state: &Encounter) -> u64 {
    let mut bare = state.clone();
    bare.log = None;
    format!("{bare:?}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// A state hash as 16 lower-case hex digits.
pub fn format_hash(hash: u64) -> String {
    format!("{hash:016x}")
}

impl GameRecord {
    /// The record of a game set up as `setup` that took `actions` from a fresh Encounter to
    /// `final_state`.
    pub fn new(setup: Setup, actions: Vec<Action>, final_state: &Encounter) -> GameRecord {
        GameRecord {
            format: FORMAT.to_string(),
            version: FORMAT_VERSION,
            setup,
            actions,
            final_hash: format_hash(state_hash(final_state)),
        }
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| unreachable!("a record always serialises: {e}"))
    }

    /// Parse a record, refusing malformed JSON, unknown fields and another format or version.
    pub fn from_json(text: &str) -> Result<GameRecord, String> {
        let record: GameRecord =
            serde_json::from_str(text).map_err(|e| format!("not an Encounter record: {e}"))?;
        if record.format != FORMAT {
            return Err(format!("format {:?} is not {FORMAT:?}", record.format));
        }
        if record.version != FORMAT_VERSION {
            return Err(format!(
                "record version {} is not supported (this build reads version {FORMAT_VERSION})",
                record.version
            ));
        }
        Ok(record)
    }

    /// Read and parse a record file (at most [`MAX_RECORD_BYTES`]).
    pub fn load(path: &Path) -> Result<GameRecord, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut text = String::new();
        file.take(MAX_RECORD_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if text.len() as u64 > MAX_RECORD_BYTES {
            return Err(format!("{}: larger than {MAX_RECORD_BYTES} bytes", path.display()));
        }
        GameRecord::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Write the record to `path` atomically: to a temporary file beside it, synced, then
    /// linked into place, which fails rather than overwrite an existing file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let shown = path.display();
        if path.exists() {
            return Err(format!("{shown} exists; a record never overwrites a file"));
        }
        self.write_beside(path, |tmp| std::fs::hard_link(tmp, path)).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!("{shown} exists; a record never overwrites a file"),
            _ => format!("{shown}: {e}"),
        })
    }

    /// Write the record over the game's own record at `path` atomically: to a temporary file
    /// beside it, synced, then renamed over it (the one writer of a game in play keeps its
    /// record current this way).
    pub fn replace(&self, path: &Path) -> Result<(), String> {
        self.write_beside(path, |tmp| std::fs::rename(tmp, path))
            .map_err(|e| format!("{}: cannot write the record: {e}", path.display()))
    }

    /// Write the record to a temporary file beside `path`, synced, and hand it to `place`;
    /// the temporary file is gone afterwards.
    fn write_beside(
        &self,
        path: &Path,
        place: impl FnOnce(&Path) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let name = path
            .file_name()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let written = (|| {
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(self.to_json().as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            place(&tmp)
        })();
        let _ = std::fs::remove_file(&tmp);
        written
    }
}

/// Replay a record from a fresh Encounter: every action must be legal where it stands (the
/// error names the step and the action otherwise), and the final state's hash must match.
pub fn replay(record: &GameRecord) -> Result<Encounter, String> {
    replay_from(record, Encounter::new())
}

/// As [`replay`], keeping the text log of the game ([`Encounter::log`]), for a reader.
pub fn replay_with_log(record: &GameRecord) -> Result<Encounter, String> {
    replay_from(record, Encounter::with_log())
}

/// Replay `record` from `fresh`, a new Encounter with or without a log.
fn replay_from(record: &GameRecord, fresh: Encounter) -> Result<Encounter, String> {
    if record.format != FORMAT || record.version != FORMAT_VERSION {
        return Err(format!(
            "record {:?} version {} is not {FORMAT:?} version {FORMAT_VERSION}",
            record.format, record.version
        ));
    }
    let mut state = fresh;
    for (step, &action) in record.actions.iter().enumerate() {
        if let Err(e) = state.act(action) {
            return Err(format!("step {step}: {action:?} ({}) is illegal here: {e}", state.describe(action)));
        }
    }
    let hash = format_hash(state_hash(&state));
    if hash != record.final_hash {
        return Err(format!(
            "the replayed final state hashes to {hash}, the record says {} (after {} actions)",
            record.final_hash,
            record.actions.len()
        ));
    }
    Ok(state)
}
