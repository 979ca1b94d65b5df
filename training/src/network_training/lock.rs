//! One process at a time on a piece of a run folder: a lock file holding the owner's process
//! ID, taken when a trainer, learner or actor starts and removed when it ends. A lock left by a
//! killed process (its ID no longer running on this machine) is taken over.

use std::path::{Path, PathBuf};

/// A held lock; released when dropped.
#[derive(Debug)]
pub struct ProcessLock(PathBuf);

impl ProcessLock {
    /// Take the lock file `path` for `what` (named in the refusal), refused while another live
    /// process on this machine holds it.
    pub fn take(path: &Path, what: &str) -> Result<ProcessLock, String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        if let Ok(text) = std::fs::read_to_string(path) {
            let pid = text.trim();
            let alive = pid
                .parse::<u32>()
                .is_ok_and(|p| p != std::process::id() && Path::new(&format!("/proc/{p}")).exists());
            if alive {
                return Err(format!("{what} is already running (process {pid}, lock {})", path.display()));
            }
        }
        engine::record::write_atomic(path, std::process::id().to_string().as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(ProcessLock(path.to_path_buf()))
    }
}

impl Drop for ProcessLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
