//! Where game data lives on disk, and the one error type for bad game data.
//!
//! Game data (profile cards, crews, boards, rule variants) is read from TOML files under a
//! `configs/` folder; see `configs/README.md` for the layout. Every loader reports bad data
//! as a [`DataError`] naming the file, the field path inside it and the reason, and never
//! panics on bad input.

use crate::profile::{load_catalog, Catalog};
use std::path::{Path, PathBuf};

/// Environment variable that overrides where the `configs/` folder is.
pub const CONFIGS_ENV: &str = "TDE_CONFIGS";

/// The `configs/` folder: `$TDE_CONFIGS` if set and non-empty; else `./configs` if that folder
/// holds game data (a `factions/` folder); else the workspace's own `configs/` folder (found
/// from this crate's manifest directory at build time). See [`configs_choice`] for why.
pub fn configs_dir() -> PathBuf {
    configs_choice().0
}

/// The workspace's own `configs/` folder, the built-in game data.
pub fn builtin_configs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("configs")
}

/// The `configs/` folder and, in words, why it was chosen (for tools to say which data they
/// use): the environment variable, the working directory's folder, or the built-in data
/// (noting a `./configs` folder passed over because it holds no game data).
pub fn configs_choice() -> (PathBuf, String) {
    if let Some(dir) = std::env::var_os(CONFIGS_ENV) {
        if !dir.is_empty() {
            let dir = PathBuf::from(dir);
            let why = format!("{CONFIGS_ENV}={}", dir.display());
            return (dir, why);
        }
    }
    let local = PathBuf::from("configs");
    if local.join("factions").is_dir() {
        return (local, "./configs in the working directory".into());
    }
    let builtin = builtin_configs_dir();
    let why = if local.is_dir() {
        format!("built-in data ({}); ./configs has no factions/ folder and is ignored", builtin.display())
    } else {
        format!("built-in data ({})", builtin.display())
    };
    (builtin, why)
}

/// What a game-data folder lacks: each of `factions/`, `crews/`, `boards/` and `rules/` must
/// hold at least one file of its kind.
pub fn missing_data(dir: &Path) -> Vec<String> {
    [("factions", "toml"), ("crews", "toml"), ("boards", "board"), ("rules", "toml")]
        .iter()
        .filter(|(folder, ext)| file_names(&dir.join(folder), ext).map_or(true, |n| n.is_empty()))
        .map(|(folder, ext)| format!("{folder}/*.{ext}"))
        .collect()
}

/// The profile-card folder, `configs_dir()/factions`.
pub fn factions_dir() -> PathBuf {
    configs_dir().join("factions")
}

/// The crew-list folder, `configs_dir()/crews`.
pub fn crews_dir() -> PathBuf {
    configs_dir().join("crews")
}

/// The names (file stems) of the files in `dir` ending in `.ext`, sorted: the boards, crews or
/// rule variants a user can name.
pub fn file_names(dir: &Path, ext: &str) -> Result<Vec<String>, DataError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| DataError::new(dir.display().to_string(), "(folder)", e.to_string()))?
        .filter_map(|e| {
            let p = e.ok()?.path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == ext).then_some(stem)
        })
        .collect();
    names.sort();
    Ok(names)
}

/// Loads every profile file in [`factions_dir`] into a catalog.
pub fn default_catalog() -> Result<Catalog, DataError> {
    load_catalog(&factions_dir())
}

/// Bad game data: which file, which field inside it, and why.
///
/// Displayed as `file: field: reason`, e.g.
/// `configs/factions/artifacters.toml: profile "nix".speed: pass speed 7 is above "Nailed It" speed 6`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {field}: {reason}")]
pub struct DataError {
    /// The file (as given to the loader), e.g. `configs/factions/artifacters.toml`.
    pub file: String,
    /// Path of the offending field inside the file, e.g. `profile[3].weapon[0].properties[1]`
    /// or `profile "nix".speed`; `(file)` for I/O problems, `(toml)` for syntax errors.
    pub field: String,
    /// What is wrong, in words.
    pub reason: String,
}

impl DataError {
    /// Builds an error from its three parts.
    pub fn new(file: impl Into<String>, field: impl Into<String>, reason: impl Into<String>) -> DataError {
        DataError { file: file.into(), field: field.into(), reason: reason.into() }
    }
}

/// Reads a whole file, mapping I/O errors to a [`DataError`] on field `(file)`.
pub(crate) fn read_file(path: &Path) -> Result<String, DataError> {
    std::fs::read_to_string(path)
        .map_err(|e| DataError::new(path.display().to_string(), "(file)", format!("cannot read: {e}")))
}

/// Parses TOML text into a table; syntax errors become a [`DataError`] on field `(toml)` with
/// the line and column.
pub(crate) fn parse_toml_table(text: &str, file: &str) -> Result<toml::Table, DataError> {
    text.parse::<toml::Table>().map_err(|e| toml_error(text, file, &e))
}

/// A TOML syntax or shape error as a [`DataError`] on field `(toml)`, with the line and
/// column where it is.
pub(crate) fn toml_error(text: &str, file: &str, e: &toml::de::Error) -> DataError {
    let at = e
        .span()
        .map(|s| line_col(text, s.start))
        .map(|(l, c)| format!("line {l}, column {c}: "))
        .unwrap_or_default();
    DataError::new(file, "(toml)", format!("{at}{}", e.message().trim()))
}

/// 1-based line and column of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

/// Turns a serde error from deserializing one table (whose path is `prefix`) into a
/// [`DataError`], moving the offending key into the field path where serde names it.
pub(crate) fn serde_error(file: &str, prefix: &str, e: &toml::de::Error) -> DataError {
    let message = e.message().trim().replace("expected i64", "expected a whole number");
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    };
    for lead in ["unknown field `", "missing field `", "duplicate field `"] {
        if let Some(rest) = message.strip_prefix(lead) {
            if let Some(end) = rest.find('`') {
                return DataError::new(file, join(&rest[..end]), message.clone());
            }
        }
    }
    // Deserializing from a value, toml appends "in `key`" to the display form.
    let shown = e.to_string();
    if let Some(key) =
        shown.lines().rev().find_map(|l| l.trim().strip_prefix("in `").and_then(|k| k.strip_suffix('`')))
    {
        return DataError::new(file, join(key), message);
    }
    DataError::new(
        file,
        if prefix.is_empty() { "(top level)".to_string() } else { prefix.to_string() },
        message,
    )
}

/// Parses `"X/Y"` (two whole numbers 0..=255, spaces allowed) as used for speeds, ranges and
/// damage. The error is a human-readable reason.
pub(crate) fn parse_pair(s: &str, example: &str) -> Result<(u8, u8), String> {
    let bad = || format!("expected \"X/Y\" with whole numbers, e.g. \"{example}\"; got \"{s}\"");
    let (a, b) = s.split_once('/').ok_or_else(bad)?;
    let a = a.trim().parse::<u8>().map_err(|_| bad())?;
    let b = b.trim().parse::<u8>().map_err(|_| bad())?;
    Ok((a, b))
}

/// Parses `"N(M)"` (AP gained each turn, maximum held), spaces allowed.
pub(crate) fn parse_ap(s: &str) -> Result<(u8, u8), String> {
    let bad = || format!("expected \"N(M)\" (AP gained each turn, maximum held), e.g. \"2(3)\"; got \"{s}\"");
    let t = s.trim();
    let (a, rest) = t.split_once('(').ok_or_else(bad)?;
    let b = rest.strip_suffix(')').ok_or_else(bad)?;
    let a = a.trim().parse::<u8>().map_err(|_| bad())?;
    let b = b.trim().parse::<u8>().map_err(|_| bad())?;
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_ap() {
        assert_eq!(parse_pair("12/18", "4/6"), Ok((12, 18)));
        assert_eq!(parse_pair(" 4 / 7 ", "4/6"), Ok((4, 7)));
        assert!(parse_pair("4-6", "4/6").is_err());
        assert!(parse_pair("4/x", "4/6").is_err());
        assert!(parse_pair("-1/6", "4/6").is_err());
        assert_eq!(parse_ap("2(3)"), Ok((2, 3)));
        assert_eq!(parse_ap("3 (4)"), Ok((3, 4)));
        assert!(parse_ap("2/3").is_err());
        assert!(parse_ap("2(3").is_err());
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }

    #[test]
    fn display_format() {
        let e = DataError::new("f.toml", "profile \"nix\".speed", "bad");
        assert_eq!(e.to_string(), "f.toml: profile \"nix\".speed: bad");
    }
}
