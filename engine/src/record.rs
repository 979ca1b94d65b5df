//! Saving whole states and recording games.
//!
//! A [`SavedGame`] is self-contained: it carries the board text, the profiles in play and the
//! rule variant beside the dynamic state, so that it loads without the configs it came from.
//! A [`GameRecord`] is the initial state plus every action taken (decisions and chance
//! outcomes); [`GameRecord::replay`] re-simulates it and checks the final state hash.

use crate::board::Board;
use crate::profile::Profile;
use crate::rules::RuleVariant;
use crate::state::{Action, DynState, GameState, StaticData};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// Version of the save and record formats.
pub const FORMAT_VERSION: u32 = 1;

/// A whole game state, serialisable to JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Format version, [`FORMAT_VERSION`].
    pub format: u32,
    /// Board name.
    pub board_name: String,
    /// Board in the text format of `configs/boards/`.
    pub board: String,
    /// Profiles in play, indexed by the models' `profile` field.
    pub profiles: Vec<Profile>,
    /// Rule variant.
    pub variant: RuleVariant,
    /// Number of turns.
    pub max_turns: u8,
    /// Number of sides.
    pub sides: u8,
    /// Each side's cards.
    #[serde(default)]
    pub cards: Vec<Vec<crate::cards::Card>>,
    /// The scenario.
    #[serde(default)]
    pub scenario: crate::scenario::Scenario,
    /// The AI side, in a game with AI dinosaurs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uc: Option<SavedUc>,
    /// The dynamic state.
    pub state: DynState,
}

/// What a saved game keeps of its AI side: the UC files themselves, so that it restores
/// without them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedUc {
    /// The UC data files.
    pub sources: crate::uc::UcSources,
    /// The spawn table's id.
    pub spawn_table: String,
    /// The AI models placed before deployment.
    pub dinos: u8,
    /// Ambush markers placed before deployment.
    #[serde(default)]
    pub ambush: u8,
    /// A solo game (side A's crew alone against the AI side).
    #[serde(default)]
    pub solo: bool,
}

/// Why a saved game or record could not be used.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Reading or writing the file failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The JSON is malformed or has the wrong shape.
    #[error("{file}: {source}")]
    Json {
        /// The file.
        file: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// The contents are inconsistent (unknown format, bad board, bad indices).
    #[error("{file}: {reason}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// An action of the record is illegal where it was applied.
    #[error("action #{index} ({action}) is illegal: {node}")]
    Illegal {
        /// Position in the record.
        index: usize,
        /// The action.
        action: Action,
        /// The node it was applied at.
        node: String,
    },
}

impl SavedGame {
    /// Capture a state.
    pub fn capture(state: &GameState) -> SavedGame {
        let stat = state.static_data();
        SavedGame {
            format: FORMAT_VERSION,
            board_name: stat.board.name().to_string(),
            board: stat.board.to_text(),
            profiles: stat.profiles.iter().map(|p| (**p).clone()).collect(),
            variant: stat.variant,
            max_turns: stat.max_turns,
            sides: stat.sides,
            cards: stat.cards.iter().map(|side| side.iter().map(|c| (**c).clone()).collect()).collect(),
            scenario: stat.scenario,
            uc: stat.uc.as_ref().map(|uc| SavedUc {
                sources: uc.data.sources.clone(),
                spawn_table: uc.data.spawn_tables[uc.spawn_table as usize].id.clone(),
                dinos: uc.dinos,
                ambush: uc.ambush,
                solo: uc.solo,
            }),
            state: state.dynamic().clone(),
        }
    }

    /// Rebuild the state; `file` names the source in errors.
    pub fn restore(&self, file: &str) -> Result<GameState, RecordError> {
        let invalid = |reason: String| RecordError::Invalid { file: file.to_string(), reason };
        if self.format != FORMAT_VERSION {
            return Err(invalid(format!("format {} is not the supported {FORMAT_VERSION}", self.format)));
        }
        let board = Board::parse(&self.board, file).map_err(|e| invalid(e.to_string()))?;
        let mut profiles: Vec<Arc<Profile>> = self.profiles.iter().cloned().map(Arc::new).collect();
        let uc = match &self.uc {
            Some(saved) => {
                let data = crate::uc::parse_uc(saved.sources.clone()).map_err(|e| invalid(e.to_string()))?;
                let known = profiles.len();
                let mut game = crate::uc::UcGame::new(
                    data,
                    &mut profiles,
                    &saved.spawn_table,
                    saved.dinos,
                    saved.ambush,
                )
                .map_err(|e| invalid(e.to_string()))?;
                game.solo = saved.solo;
                if profiles.len() != known {
                    return Err(invalid("uc: an AI model's profile is missing from profiles".into()));
                }
                Some(Arc::new(game))
            }
            None => None,
        };
        let stat = StaticData {
            board: Arc::new(board),
            profiles,
            variant: self.variant,
            max_turns: self.max_turns,
            sides: self.sides,
            cards: self.cards.iter().map(|side| side.iter().cloned().map(Arc::new).collect()).collect(),
            scenario: self.scenario,
            uc,
        };
        crate::validate::build_checked(stat, self.state.clone()).map_err(invalid)
    }

    /// Read a saved game from a JSON file.
    pub fn load(path: &Path) -> Result<GameState, RecordError> {
        let file = path.display().to_string();
        let saved: SavedGame = read_json(path)?;
        saved.restore(&file)
    }
}

/// A complete game: where it started and every action taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Format version, [`FORMAT_VERSION`].
    pub format: u32,
    /// Free-form description of how it was played (agents, seed).
    pub description: String,
    /// The initial state.
    pub initial: SavedGame,
    /// Every action in order, chance outcomes included.
    pub actions: Vec<Action>,
    /// Hash of the final state, as 16 hex digits.
    pub final_hash: String,
}

impl GameRecord {
    /// Start a record at `initial`.
    pub fn new(initial: &GameState, description: impl Into<String>) -> GameRecord {
        GameRecord {
            format: FORMAT_VERSION,
            description: description.into(),
            initial: SavedGame::capture(initial),
            actions: Vec::new(),
            final_hash: format_hash(initial.state_hash()),
        }
    }

    /// Re-simulate the record and return the final state. The caller compares its hash with
    /// [`final_hash`](Self::final_hash).
    pub fn replay(&self, file: &str) -> Result<GameState, RecordError> {
        if self.format != FORMAT_VERSION {
            let reason = format!("record format {} is not the supported {FORMAT_VERSION}", self.format);
            return Err(RecordError::Invalid { file: file.to_string(), reason });
        }
        if self.actions.len() > 10_000_000 {
            let reason = format!("{} actions; a record holds at most 10000000", self.actions.len());
            return Err(RecordError::Invalid { file: file.to_string(), reason });
        }
        let mut state = self.initial.restore(file)?;
        for (index, &action) in self.actions.iter().enumerate() {
            state.apply_action(action).map_err(|e| RecordError::Illegal { index, action, node: e.node })?;
        }
        Ok(state)
    }

    /// Read a record from a JSON file.
    pub fn load(path: &Path) -> Result<GameRecord, RecordError> {
        read_json(path)
    }

    /// Write the record as JSON, atomically (temporary file, then rename).
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        let text = serde_json::to_string(self).expect("records serialise");
        write_atomic(path, text.as_bytes())
    }
}

/// A state hash as 16 lower-case hex digits.
pub fn format_hash(hash: u64) -> String {
    format!("{hash:016x}")
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, RecordError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| RecordError::Io { file: file.clone(), source })?;
    serde_json::from_str(&text).map_err(|source| RecordError::Json { file, source })
}

/// Write `bytes` to `path` through a temporary file in the same folder and a rename, so that
/// readers never see a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    let file = path.display().to_string();
    let io = |source| RecordError::Io { file: file.clone(), source };
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}
