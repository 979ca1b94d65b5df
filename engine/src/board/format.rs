//! The plain-text board format (described for people in `configs/boards/README.md`).
//!
//! ```text
//! ; comment lines start with a semicolon; blank lines are ignored
//! name: Sunken Plaza
//! size: 36x36
//! 0.0.0~0~6.6.6.3s ...   <- row y = 0: `width` cells of two characters each
//! ...                    <- `depth` rows in all, y = depth - 1 last
//! ```
//!
//! Each cell is a height character (`0`-`9`, then `a` = 10 ... `z` = 35 inches) followed by
//! a kind character: `.` open, `~` water, `,` rough, `X` impassable, `s` open ground with
//! soft scatter cover, `h` open ground with hard scatter cover.

use super::{Board, Cell, Cover, Terrain};
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

/// The tallest height the format can write (`z`).
const MAX_HEIGHT: u8 = 35;

fn height_of(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

fn height_char(h: u8) -> char {
    let h = h.min(MAX_HEIGHT);
    if h < 10 {
        (b'0' + h) as char
    } else {
        (b'a' + h - 10) as char
    }
}

fn kind_of(c: char) -> Option<(Terrain, Cover)> {
    Some(match c {
        '.' => (Terrain::Open, Cover::None),
        '~' => (Terrain::Water, Cover::None),
        ',' => (Terrain::Rough, Cover::None),
        'X' => (Terrain::Impassable, Cover::None),
        's' => (Terrain::Open, Cover::Soft),
        'h' => (Terrain::Open, Cover::Hard),
        _ => return None,
    })
}

fn kind_char(cell: &Cell) -> char {
    match (cell.terrain, cell.cover) {
        (Terrain::Open, Cover::Soft) => 's',
        (Terrain::Open, Cover::Hard) => 'h',
        (Terrain::Open, Cover::None) => '.',
        (Terrain::Water, _) => '~',
        (Terrain::Rough, _) => ',',
        (Terrain::Impassable, _) => 'X',
    }
}

/// Parse `WxD` with both in 1..=255.
fn parse_size(value: &str) -> Result<(u8, u8), String> {
    let bad = || format!("bad size `{value}`: expected <width>x<depth> in inches, e.g. 36x36");
    let (w, d) = value.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let d: u32 = d.trim().parse().map_err(|_| bad())?;
    if !(1..=255).contains(&w) || !(1..=255).contains(&d) {
        return Err(format!("bad size `{value}`: width and depth must each be 1 to 255 inches"));
    }
    Ok((w as u8, d as u8))
}

pub(super) fn parse(text: &str, source: &str) -> Result<Board, BoardError> {
    let err = |line: usize, reason: String| BoardError { file: source.to_string(), line, reason };
    let mut name: Option<String> = None;
    let mut size: Option<(u8, u8)> = None;
    let mut cells: Vec<Cell> = Vec::new();
    let mut rows = 0usize;
    let mut last_line = 0usize;

    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        last_line = line_no;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        let header = trimmed.split_once(':').filter(|(key, _)| {
            let key = key.trim();
            !key.is_empty() && key.chars().all(|c| c.is_ascii_alphabetic())
        });
        if let Some((key, value)) = header {
            let value = value.trim();
            match key.trim() {
                "name" => {
                    if name.is_some() {
                        return Err(err(line_no, "duplicate `name:` header".into()));
                    }
                    if value.is_empty() {
                        return Err(err(line_no, "empty board name".into()));
                    }
                    name = Some(value.to_string());
                }
                "size" => {
                    if size.is_some() {
                        return Err(err(line_no, "duplicate `size:` header".into()));
                    }
                    let (w, d) = parse_size(value).map_err(|r| err(line_no, r))?;
                    cells.reserve(w as usize * d as usize);
                    size = Some((w, d));
                }
                other => {
                    return Err(err(
                        line_no,
                        format!("unknown header `{other}:` (expected `name:` or `size:`)"),
                    ))
                }
            }
            continue;
        }

        // A board row.
        let Some((width, depth)) = size else {
            return Err(err(line_no, "board row before the `size:` header".into()));
        };
        if name.is_none() {
            return Err(err(line_no, "board row before the `name:` header".into()));
        }
        if rows == depth as usize {
            return Err(err(line_no, format!("too many rows: expected {depth}, this is row {}", rows + 1)));
        }
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != 2 * width as usize {
            let cells_found = chars.len() / 2;
            let odd = if chars.len() % 2 == 1 { " and a half" } else { "" };
            return Err(err(
                line_no,
                format!(
                    "row {} has {cells_found}{odd} cells ({} characters), expected {width} cells \
                     ({} characters, two per cell)",
                    rows + 1,
                    chars.len(),
                    2 * width as usize
                ),
            ));
        }
        for (c, pair) in chars.chunks(2).enumerate() {
            let col = 2 * c + 1;
            let height = height_of(pair[0]).ok_or_else(|| {
                err(
                    line_no,
                    format!(
                        "unknown height character `{}` at column {col} (cell x={c}): \
                         expected 0-9 or a-z",
                        pair[0]
                    ),
                )
            })?;
            let (terrain, cover) = kind_of(pair[1]).ok_or_else(|| {
                err(
                    line_no,
                    format!(
                        "unknown kind character `{}` at column {} (cell x={c}): \
                         expected one of . ~ , X s h",
                        pair[1],
                        col + 1
                    ),
                )
            })?;
            cells.push(Cell { height, terrain, cover });
        }
        rows += 1;
    }

    let Some(name) = name else {
        return Err(err(0, "missing `name:` header".into()));
    };
    let Some((width, depth)) = size else {
        return Err(err(0, "missing `size:` header".into()));
    };
    if rows < depth as usize {
        return Err(err(
            last_line.max(1),
            format!("too few rows: expected {depth}, the file ends after {rows}"),
        ));
    }
    Ok(Board::from_cells(name, width, depth, cells))
}

pub(super) fn load(path: &Path) -> Result<Board, BoardError> {
    let (text, source) = read(path)?;
    parse(&text, &source)
}

/// A board file's text and its name for errors.
pub(super) fn read(path: &Path) -> Result<(String, String), BoardError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| BoardError {
        file: source.clone(),
        line: 0,
        reason: format!("cannot read: {e}"),
    })?;
    Ok((text, source))
}

/// Writes the format back. Exact for every board `parse` can produce; a board built by hand
/// with cover on a non-open cell loses that cover, and heights above 35" are written as 35".
pub(super) fn render(board: &Board) -> String {
    let w = board.width() as usize;
    let mut out = String::with_capacity(64 + board.len() * 2 + board.depth() as usize);
    out.push_str("; The Drowned Earth board: see configs/boards/README.md. Row y = 0 first.\n");
    out.push_str(&format!("name: {}\n", board.name()));
    out.push_str(&format!("size: {}x{}\n", board.width(), board.depth()));
    for row in board.cells().chunks(w) {
        for cell in row {
            out.push(height_char(cell.height));
            out.push(kind_char(cell));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_chars_round_trip() {
        for h in 0..=MAX_HEIGHT {
            assert_eq!(height_of(height_char(h)), Some(h));
        }
        assert_eq!(height_of('A'), None);
        assert_eq!(height_char(200), 'z');
    }

    #[test]
    fn kind_chars_round_trip() {
        for c in ['.', '~', ',', 'X', 's', 'h'] {
            let (terrain, cover) = kind_of(c).unwrap();
            assert_eq!(kind_char(&Cell { height: 0, terrain, cover }), c);
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("36x48"), Ok((36, 48)));
        assert_eq!(parse_size(" 3 X 4 "), Ok((3, 4)));
        assert!(parse_size("0x4").is_err());
        assert!(parse_size("300x4").is_err());
        assert!(parse_size("36").is_err());
        assert!(parse_size("ax4").is_err());
    }
}
