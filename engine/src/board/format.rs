//! The plain-text board format. HELPER TO IMPLEMENT.

use super::Board;
use std::path::Path;

/// A board file that could not be read or parsed: names the file, the line and the reason.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {reason}")]
pub struct BoardError {
    /// File (or source name) of the board.
    pub file: String,
    /// 1-based line number; 0 when the error is about the whole file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

pub(super) fn parse(_text: &str, _source: &str) -> Result<Board, BoardError> {
    todo!("helper")
}

pub(super) fn load(_path: &Path) -> Result<Board, BoardError> {
    todo!("helper")
}

pub(super) fn render(_board: &Board) -> String {
    todo!("helper")
}
