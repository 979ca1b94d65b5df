//! Rule variants: the optional and house rules a game is played with, loaded from TOML files
//! in `configs/rules/` (e.g. `standard.toml` for the 2022 English book, `narrative.toml` for
//! the Narrative Feats optional rule that the French v1.4 book makes standard).
//!
//! A file lists only the switches it changes: a missing field keeps its standard-rules
//! default, and an unknown field is an error (so a typo cannot silently change the rules).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The switches that select a variant of the rules. `Default` is the standard 2022 English
/// rulebook with no optional rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct RuleVariant {
    /// "Optional: Narrative Feats" (p.14): a double at or under the (modified) attribute is a
    /// Feat, as well as the feat symbol. Off in the English book and in tournaments; on by
    /// default in the French v1.4 book.
    pub narrative_feats: bool,
}

impl RuleVariant {
    /// The standard 2022 English rules, no optional rules (`configs/rules/standard.toml`).
    pub const STANDARD: RuleVariant = RuleVariant { narrative_feats: false };

    /// Standard rules plus Narrative Feats (`configs/rules/narrative.toml`).
    pub const NARRATIVE: RuleVariant = RuleVariant { narrative_feats: true };
}

/// Why a rule variant could not be loaded. Every message names the file concerned.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The file could not be read (missing, unreadable, not UTF-8).
    #[error("cannot read rules file `{}`: {source}", .path.display())]
    Io {
        /// The file that was being read.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML, or a field is unknown or has the wrong type.
    #[error(
        "rules file `{}`{}: {reason}",
        .path.display(),
        describe_location(.line, .field)
    )]
    Invalid {
        /// The file that was being parsed.
        path: PathBuf,
        /// 1-based line of the problem, when known.
        line: Option<usize>,
        /// The field (TOML key) at fault, when known.
        field: Option<String>,
        /// What is wrong, e.g. "unknown field `x`, expected `narrative_feats`".
        reason: String,
    },
    /// `load_named` found no file for the requested variant name.
    #[error(
        "unknown rule variant `{name}`: no file `{}` (available: {})",
        .path.display(),
        if .available.is_empty() { "none".to_string() } else { .available.join(", ") }
    )]
    UnknownVariant {
        /// The requested name.
        name: String,
        /// The file that was looked for.
        path: PathBuf,
        /// Variant names that do exist in the same directory, sorted.
        available: Vec<String>,
    },
    /// The variant name is not a plain file stem (e.g. contains a path separator).
    #[error("invalid rule variant name `{name}`: use only letters, digits, `-` and `_`")]
    BadName {
        /// The rejected name.
        name: String,
    },
}

impl RulesError {
    /// The field (TOML key) at fault, when the error concerns one.
    pub fn field(&self) -> Option<&str> {
        match self {
            RulesError::Invalid { field, .. } => field.as_deref(),
            _ => None,
        }
    }
}

/// ", line N, field `f`" for an error message, leaving out what is unknown.
fn describe_location(line: &Option<usize>, field: &Option<String>) -> String {
    let mut s = String::new();
    if let Some(line) = line {
        s.push_str(&format!(", line {line}"));
    }
    if let Some(field) = field {
        s.push_str(&format!(", field `{field}`"));
    }
    s
}

/// Parse the text of a rule variant file; `path` is only used in error messages.
pub fn parse(text: &str, path: &Path) -> Result<RuleVariant, RulesError> {
    toml::from_str::<RuleVariant>(text).map_err(|e| {
        let span_start = e.span().map(|s| s.start);
        let line = span_start.map(|start| line_of(text, start));
        let field =
            field_from_message(e.message()).or_else(|| span_start.and_then(|start| key_on_line(text, start)));
        RulesError::Invalid { path: path.to_path_buf(), line, field, reason: e.message().trim().to_string() }
    })
}

/// Read and parse a rule variant file.
pub fn load(path: &Path) -> Result<RuleVariant, RulesError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| RulesError::Io { path: path.to_path_buf(), source })?;
    parse(&text, path)
}

/// Load the variant called `name` from `configs_dir/rules/<name>.toml`.
pub fn load_named(configs_dir: &Path, name: &str) -> Result<RuleVariant, RulesError> {
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err(RulesError::BadName { name: name.to_string() });
    }
    let path = configs_dir.join("rules").join(format!("{name}.toml"));
    if !path.is_file() {
        return Err(RulesError::UnknownVariant {
            name: name.to_string(),
            path,
            available: available(configs_dir),
        });
    }
    load(&path)
}

/// Names of the rule variants in `configs_dir/rules/` (the `*.toml` file stems), sorted; empty
/// when the directory cannot be read.
pub fn available(configs_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(configs_dir.join("rules")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "toml"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    names.sort();
    names
}

/// 1-based line number of byte offset `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The field named by a serde message such as "unknown field `x`, expected ...".
fn field_from_message(message: &str) -> Option<String> {
    let rest = message.split_once("field `")?.1;
    let (field, _) = rest.split_once('`')?;
    Some(field.to_string())
}

/// The key defined on the line holding byte `offset` (`key = value` or `[table]`).
fn key_on_line(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let start = text.as_bytes()[..offset].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = text.get(start..)?.lines().next()?.trim();
    let key = if let Some(table) = line.strip_prefix('[') {
        table.trim_start_matches('[').split(']').next()?
    } else {
        line.split_once('=')?.0
    };
    let key = key.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configs_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
    }

    #[test]
    fn shipped_variants_load() {
        let dir = configs_dir();
        assert_eq!(load_named(&dir, "standard").unwrap(), RuleVariant::STANDARD);
        assert_eq!(load_named(&dir, "narrative").unwrap(), RuleVariant::NARRATIVE);
        let names = available(&dir);
        assert!(names.contains(&"standard".to_string()));
        assert!(names.contains(&"narrative".to_string()));
    }

    #[test]
    fn default_is_standard_and_empty_file_is_default() {
        assert_eq!(RuleVariant::default(), RuleVariant::STANDARD);
        assert_eq!(parse("# nothing\n", Path::new("x.toml")).unwrap(), RuleVariant::STANDARD);
    }

    #[test]
    fn unknown_field_names_file_and_field() {
        let err = parse("# comment\nnarrative_feet = true\n", Path::new("rules/typo.toml")).unwrap_err();
        assert_eq!(err.field(), Some("narrative_feet"));
        let msg = err.to_string();
        assert!(msg.contains("rules/typo.toml"), "{msg}");
        assert!(msg.contains("narrative_feet"), "{msg}");
        assert!(msg.contains("line 2"), "{msg}");
        assert!(msg.contains("unknown field"), "{msg}");
    }

    #[test]
    fn wrong_type_names_file_and_field() {
        let err = parse("narrative_feats = \"yes\"\n", Path::new("bad.toml")).unwrap_err();
        assert_eq!(err.field(), Some("narrative_feats"));
        let msg = err.to_string();
        assert!(msg.contains("bad.toml"), "{msg}");
        assert!(msg.contains("invalid type"), "{msg}");
    }

    #[test]
    fn unknown_table_names_field() {
        let err = parse("[weather]\nrain = true\n", Path::new("t.toml")).unwrap_err();
        assert_eq!(err.field(), Some("weather"));
    }

    #[test]
    fn syntax_error_does_not_panic() {
        for text in ["narrative_feats = ", "[", "= true", "narrative_feats = tru\n", "\u{feff}x"] {
            let err = parse(text, Path::new("s.toml")).unwrap_err();
            assert!(err.to_string().contains("s.toml"));
        }
    }

    #[test]
    fn missing_and_bad_names() {
        let dir = configs_dir();
        let err = load_named(&dir, "no_such_variant").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("no_such_variant.toml"), "{msg}");
        assert!(msg.contains("standard"), "{msg}");
        assert!(matches!(load_named(&dir, "../rules/standard"), Err(RulesError::BadName { .. })));
        assert!(matches!(load_named(&dir, ""), Err(RulesError::BadName { .. })));
        let err = load(Path::new("/nonexistent/x.toml")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.toml"));
    }
}
