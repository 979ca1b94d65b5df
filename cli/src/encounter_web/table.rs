//! One Encounter on the web page: the game, the person's party against a DM agent, the dice,
//! and its record kept on disk after every step.
//!
//! The table is the only place that changes the game. A person's choice is accepted only as
//! an index into the current legal actions, at the state version (actions taken so far) it
//! was offered at; anything else is refused with the game unchanged. After it, the dice and
//! the DM play on until the party decides again or the game ends, and the record is written
//! (a temporary file beside it, synced, then renamed over it), so no move is ever lost.

use agents::{Agent, Game, Turn};
use encounter::{Action, Encounter, GameRecord, Setup, DM_SIDE};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// Why a choice was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The choice was offered at another version (a stale page or a replayed request).
    Stale {
        /// The version the request named.
        offered: usize,
        /// The current version.
        current: usize,
    },
    /// The index is not one of the current options.
    NoSuchOption {
        /// The index sent.
        index: usize,
        /// Number of options.
        count: usize,
    },
    /// The game is over.
    Over,
    /// The person quit this game; the server is stopping.
    Quit,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Stale { offered, current } => write!(
                f,
                "field `version`: the choice was offered at version {offered} but the game is at \
                 version {current}; nothing was taken: reload the state and choose again"
            ),
            Refusal::NoSuchOption { index, count } => {
                write!(f, "field `index`: {index} is not an option here (there are {count}, numbered from 0)")
            }
            Refusal::Over => write!(f, "the game is over: there is nothing to choose"),
            Refusal::Quit => write!(f, "you quit this game: resume it with `--resume` to play on"),
        }
    }
}

/// How a table is opened: a new game or a saved one resumed.
pub struct Opening {
    /// The seed of the dice and the DM.
    pub seed: u64,
    /// The DM's agent spec.
    pub dm: String,
    /// The saved game to resume, if any.
    pub resumed: Option<GameRecord>,
    /// Where the record is written after every step.
    pub record_path: PathBuf,
}

/// The Encounter being played on the page.
pub struct EncounterTable {
    state: Encounter,
    actions: Vec<Action>,
    setup: Setup,
    dm: Box<dyn Agent<Encounter>>,
    dice: ChaCha8Rng,
    record_path: PathBuf,
    quit: bool,
}

impl EncounterTable {
    /// Open the table: a fresh Encounter, or the saved one replayed (every action checked,
    /// and the final hash); the dice and the DM play on to the party's first decision, and the
    /// record is written. The dice and the DM of a resumed game are seeded from the seed and
    /// the number of actions already taken (the same resumed game plays the same way again).
    pub fn open(opening: Opening) -> Result<EncounterTable, String> {
        let (state, actions) = match &opening.resumed {
            Some(record) => {
                let state = encounter::replay_with_log(record)
                    .map_err(|e| format!("{}: {e}", opening.record_path.display()))?;
                (state, record.actions.clone())
            }
            None => (Encounter::start_with_log(), Vec::new()),
        };
        let seed = opening.seed;
        let stream = match actions.len() {
            0 => seed,
            n => seed ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        };
        let dm =
            crate::encounter_train::encounter_agent(&opening.dm, stream.wrapping_mul(2).wrapping_add(1))?;
        let mut table = EncounterTable {
            state,
            actions,
            setup: Setup { seed, party: "human".into(), dm: opening.dm },
            dm,
            dice: ChaCha8Rng::seed_from_u64(stream),
            record_path: opening.record_path,
            quit: false,
        };
        table.play_on()?;
        table.save()?;
        Ok(table)
    }

    /// The state version: the number of actions taken.
    pub fn version(&self) -> usize {
        self.actions.len()
    }

    /// The game as it stands.
    pub fn state(&self) -> &Encounter {
        &self.state
    }

    /// How the game was set up (the seed and the DM).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Where the record is kept.
    pub fn record_path(&self) -> &Path {
        &self.record_path
    }

    /// Whether the person quit.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The party's options now (empty when it is not the party's decision).
    pub fn options(&self) -> Vec<Action> {
        match self.state.turn() {
            Turn::Player(p) if p != DM_SIDE && !self.quit => self.state.legal_actions(),
            _ => Vec::new(),
        }
    }

    /// Take option `index` of the decision offered at `version`; then the dice and the DM play
    /// on, and the record is written. `Ok(Err(_))`: refused, nothing changed; `Err(_)`: the
    /// game or its file failed (the choice stands, and is written at the next save).
    pub fn choose(&mut self, version: usize, index: usize) -> Result<Result<(), Refusal>, String> {
        if self.quit {
            return Ok(Err(Refusal::Quit));
        }
        if self.state.is_terminal() {
            return Ok(Err(Refusal::Over));
        }
        if version != self.version() {
            return Ok(Err(Refusal::Stale { offered: version, current: self.version() }));
        }
        let options = self.options();
        let Some(&action) = options.get(index) else {
            return Ok(Err(Refusal::NoSuchOption { index, count: options.len() }));
        };
        self.take(action)?;
        self.play_on()?;
        self.save()?;
        Ok(Ok(()))
    }

    /// Quit: the record is written once more and no choice is taken from now on.
    pub fn quit(&mut self) -> Result<(), String> {
        self.quit = true;
        self.save()
    }

    /// Apply one action and keep it for the record.
    fn take(&mut self, action: Action) -> Result<(), String> {
        self.state.apply(action)?;
        self.actions.push(action);
        Ok(())
    }

    /// The dice and the DM act until the party decides or the game ends.
    fn play_on(&mut self) -> Result<(), String> {
        loop {
            let action = match self.state.turn() {
                Turn::Terminal => return Ok(()),
                Turn::Chance => {
                    self.state.sample_chance(&mut self.dice).ok_or("a chance node without outcomes")?
                }
                Turn::Player(p) if p == DM_SIDE => self.dm.select_action(&self.state),
                Turn::Player(_) => return Ok(()),
            };
            self.take(action)?;
        }
    }

    /// Write the record over its file atomically ([`GameRecord::replace`]).
    fn save(&self) -> Result<(), String> {
        GameRecord::new(self.setup.clone(), self.actions.clone(), &self.state).replace(&self.record_path)
    }
}
