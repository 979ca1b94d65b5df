//! One writer per game record: a `tde play` (or `tde watch --record`) server holds an
//! exclusive lock on `RECORD.lock` beside the record for as long as it runs, so that a second
//! server on the same game is refused before it reads or writes anything, with the address of
//! the one already serving it. The lock is the operating system's (`flock`), released when the
//! process ends however it ends, so a crash never leaves the game locked; the lock file itself
//! stays, empty of meaning once unlocked.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The held lock on one record; released when dropped or when the process ends.
#[derive(Debug)]
pub struct RecordLock {
    file: File,
}

/// The lock file of the record at `record`: `RECORD.lock` in the same folder.
pub fn lock_path(record: &Path) -> PathBuf {
    let mut name = record.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    record.with_file_name(name)
}

impl RecordLock {
    /// Take the lock of the record at `record` (its folder is created if need be), or say who
    /// holds it.
    pub fn take(record: &Path) -> Result<RecordLock, String> {
        let path = lock_path(record);
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("{}: cannot create it: {e}", folder.display()))?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("{}: cannot open the lock file: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(RecordLock { file }),
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let who =
                    if holder.is_empty() { "another tde process".to_string() } else { holder.to_string() };
                Err(format!(
                    "{}: this game is already being played by {who}; one game has one table, so \
                     that its moves are never lost: go on there, or stop that server (Ctrl-C) and \
                     start this one again",
                    record.display()
                ))
            }
            Err(TryLockError::Error(e)) => Err(format!("{}: cannot lock it: {e}", path.display())),
        }
    }

    /// Write who holds the lock (shown to a second server that is refused).
    pub fn describe_holder(&mut self, holder: &str) -> Result<(), String> {
        let write = |file: &mut File| -> std::io::Result<()> {
            file.set_len(0)?;
            file.seek(SeekFrom::Start(0))?;
            file.write_all(holder.as_bytes())?;
            file.flush()
        };
        write(&mut self.file).map_err(|e| format!("cannot write the lock file: {e}"))
    }
}
