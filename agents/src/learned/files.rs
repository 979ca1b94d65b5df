//! Reading and writing the learned player's small JSON files (generations, leaf values).

use std::path::Path;

/// A file's text; an error names the file.
pub(super) fn read_file(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Write `text` to `path` atomically (a temporary file renamed over it); an existing file is
/// replaced only when `overwrite` is set.
pub(super) fn write_file(path: &Path, text: &str, overwrite: bool) -> Result<(), String> {
    let file = path.display().to_string();
    if path.exists() && !overwrite {
        return Err(format!("{file}: already exists (not overwritten)"));
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{file}: {e}"))
}
