//! The resumable output folder of an arena or a solo run: a settings file written when the
//! run starts, and a games log (`games.jsonl`) that gets one line per finished game, flushed
//! as soon as the game ends. Started again on the same folder, a run checks that its
//! settings match the file's (naming the first that differs), reads the log back (cutting off
//! a line the last run was writing when it stopped) and plays only the games not in it.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Name of the games log in a run folder.
pub(crate) const GAMES_LOG: &str = "games.jsonl";

/// Settings that decide a run's games, stored in its folder.
pub(crate) trait RunSettings: Serialize + DeserializeOwned {
    /// The first setting in which `self` differs from `other`: its option name (as the
    /// command line spells it, without `--`), its value here and there.
    fn difference(&self, other: &Self) -> Option<(String, String, String)>;

    /// Whether `self` only adds games to the run `old` describes (the games `old` played are
    /// among them, unchanged), so a folder holding `old` can go on as `self`.
    fn extends(&self, _old: &Self) -> bool {
        false
    }
}

/// Turn an I/O error on `path` into a message naming it.
pub(crate) fn io_error(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// Write `bytes` to `path` through a temporary file and a rename, so that readers never see
/// a half-written file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_error(path))
}

/// Prepare the folder `dir` for a run with `settings`: check them against `settings_file`
/// there (or write it), and read back the games an earlier run logged, each passed to
/// `accept`, which says why a game does not belong to this run.
pub(crate) fn open<S: RunSettings, R: DeserializeOwned>(
    dir: &Path,
    settings_file: &str,
    settings: &S,
    mut accept: impl FnMut(&R) -> Result<(), String>,
) -> Result<Vec<R>, String> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let settings_path = dir.join(settings_file);
    let log_path = dir.join(GAMES_LOG);
    if settings_path.exists() {
        let text = std::fs::read_to_string(&settings_path).map_err(io_error(&settings_path))?;
        let old: S = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", settings_path.display()))?;
        if settings.extends(&old) {
            let json = serde_json::to_string_pretty(settings).expect("settings serialise");
            write_atomic(&settings_path, json.as_bytes())?;
        } else if let Some((field, was, now)) = old.difference(settings) {
            return Err(format!(
                "{} holds a run with --{field} {was}, but this one has --{field} {now}: resume it with \
                 the same settings or choose another --out",
                settings_path.display()
            ));
        }
    } else {
        if log_path.exists() {
            return Err(format!(
                "{} exists without {}: choose another --out",
                log_path.display(),
                settings_path.display()
            ));
        }
        let json = serde_json::to_string_pretty(settings).expect("settings serialise");
        write_atomic(&settings_path, json.as_bytes())?;
    }
    if !log_path.exists() {
        return Ok(Vec::new());
    }
    let bytes = std::fs::read(&log_path).map_err(io_error(&log_path))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if complete < bytes.len() {
        // The last game was being written when the run stopped: play it again.
        let file = OpenOptions::new().write(true).open(&log_path).map_err(io_error(&log_path))?;
        file.set_len(complete as u64).map_err(io_error(&log_path))?;
    }
    let text = std::str::from_utf8(&bytes[..complete]).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = || format!("{} line {}", log_path.display(), n + 1);
        let game: R = serde_json::from_str(line).map_err(|e| format!("{}: {e}", at()))?;
        accept(&game).map_err(|reason| format!("{}: {reason}", at()))?;
        games.push(game);
    }
    Ok(games)
}

/// The games log of a run folder, open for appending from several threads.
pub(crate) struct GamesLog {
    file: Mutex<File>,
    path: PathBuf,
}

impl GamesLog {
    /// Open (or create) the log in `dir` for appending.
    pub(crate) fn open(dir: &Path) -> Result<GamesLog, String> {
        let path = dir.join(GAMES_LOG);
        let file = OpenOptions::new().append(true).create(true).open(&path).map_err(io_error(&path))?;
        Ok(GamesLog { file: Mutex::new(file), path })
    }

    /// Append one game as a line and flush it.
    pub(crate) fn append(&self, game: &impl Serialize) -> Result<(), String> {
        let mut line = serde_json::to_string(game).expect("game results serialise");
        line.push('\n');
        let mut file = self.file.lock().expect("no thread panicked while writing");
        file.write_all(line.as_bytes()).and_then(|_| file.flush()).map_err(io_error(&self.path))
    }
}
