//! `tde encounter play --web`: the Encounter on a local web page, served by the web server
//! machinery `tde play` uses ([`crate::web_server`]: the same token and host checks, body limit
//! and binding; one writer per record through the same record lock).
//!
//! [`table`] holds the game and takes the person's choices, [`view`] builds what the page
//! shows from the engine's own words and odds, and [`server`] serves the page
//! (`cli/web/encounter.*`, built into the binary) and its JSON API.

mod server;
mod table;
mod view;

use crate::encounter::PlayArgs;
use crate::play::lock::RecordLock;
use crate::web_server::ServerState;
use agents::Game;
use encounter::GameRecord;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use table::{EncounterTable, Opening};

/// Where games are kept when `--record` names no file.
const DEFAULT_FOLDER: &str = "saved-games";

/// The command that resumes the game kept in `record`.
fn resume_command(record: &Path) -> String {
    format!("tde encounter play --web --resume {}", record.display())
}

/// The first free `saved-games/encounter_SEED[_N].json`.
fn default_record(seed: u64) -> PathBuf {
    let folder = Path::new(DEFAULT_FOLDER);
    (1..)
        .map(|n| match n {
            1 => folder.join(format!("encounter_{seed}.json")),
            n => folder.join(format!("encounter_{seed}_{n}.json")),
        })
        .find(|p| !p.exists() && !crate::play::lock::lock_path(p).exists())
        .unwrap_or_else(|| folder.join(format!("encounter_{seed}.json")))
}

/// Play the party on a local web page against the DM of `--dm`/`--level`: a new game kept in
/// `--record` (default: the first free `saved-games/encounter_SEED.json`), or the game saved
/// in `--resume` played on (kept in the same file unless `--record` names a new one; its seed
/// and DM from the record, unless `--level` names another DM). The record is written after
/// every step; the page's Quit writes it and stops the server.
pub fn play(args: &PlayArgs) -> Result<String, String> {
    let level_dm = args.level.as_deref().map(encounter::level_spec).transpose()?.map(str::to_string);
    let record_path = match (&args.record, &args.resume) {
        (Some(record), Some(resume)) if record == resume => resume.clone(),
        (Some(record), _) if record.exists() => {
            return Err(format!(
                "--record {}: the file exists and is left as it is; name another",
                record.display()
            ))
        }
        (Some(record), _) => record.clone(),
        (None, Some(resume)) => resume.clone(),
        (None, None) => default_record(args.seed),
    };
    if let Some(folder) = record_path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("{}: cannot create it: {e}", folder.display()))?;
    }
    // One writer per record: a second server on this game stops here, before it reads or
    // writes anything more.
    let mut lock = RecordLock::take(&record_path)?;
    // The saved game is read under the lock: a server that stopped a moment ago may have
    // written more.
    let resumed = args.resume.as_deref().map(GameRecord::load).transpose()?;
    let (seed, dm) = match &resumed {
        Some(record) => (record.setup.seed, level_dm.unwrap_or_else(|| record.setup.dm.clone())),
        None => (args.seed, level_dm.unwrap_or_else(|| args.dm.clone())),
    };
    // The port next: a busy port stops here, before any record is written.
    let listener = crate::web_server::bind(&args.host, args.port)?;
    let intro = match (&resumed, &args.resume) {
        (Some(record), Some(from)) => format!(
            "Resuming {} after {} actions: you play the party against DM {dm} (seed {seed}); the game is kept in {}",
            from.display(),
            record.actions.len(),
            record_path.display()
        ),
        _ => format!(
            "Encounter (seed 004), seed {seed}: you play the party against DM {dm}; the game is kept in {}",
            record_path.display()
        ),
    };
    let table = EncounterTable::open(Opening { seed, dm, resumed, record_path: record_path.clone() })?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let shutdown = async move {
        while !stopped.load(Ordering::SeqCst) {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    let mut kept = None;
    crate::web_server::serve_with(
        listener,
        &args.host,
        |url| {
            let holder = format!("the tde process {} serving it at {url}", std::process::id());
            if let Err(e) = lock.describe_holder(&holder) {
                eprintln!("{e}");
            }
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "{intro}\nOpen {url} in a browser (Quit on the page saves the game and stops the server; so does Ctrl-C, as every step is saved)."
            );
            let _ = out.flush();
        },
        shutdown,
        |session| {
            let shared = Arc::new(server::Shared { table: Mutex::new(table), session, stop });
            kept = Some(shared.clone());
            server::router(shared)
        },
    )?;
    let Some(shared) = kept else { return Ok(String::new()) };
    let table = shared.lock_table();
    let state = table.state();
    Ok(if state.is_terminal() {
        format!(
            "{}\nThe game is over; its record is {}",
            crate::encounter::result_line(state),
            record_path.display()
        )
    } else {
        format!(
            "You quit: the game stops unfinished in round {}; resume it with {}",
            state.round(),
            resume_command(&record_path)
        )
    })
}
