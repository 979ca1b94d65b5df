//! The bot's levels (`tde play --level`): each a named agent spec, from a one-ply player to
//! the strongest agent at about half a second a move. Their strength against each other is
//! measured with `tde arena` and shown in the README.

use std::path::{Path, PathBuf};

/// How strong the bot is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// `greedy`: the best action one ply ahead, no look further.
    Easy,
    /// `scripted`: the hand-written player.
    Normal,
    /// The strongest agent's search with a fifth of its time: a tenth of a second a move.
    Hard,
    /// The strongest agent (the main line's: rollout search whose root candidates the fast
    /// network's policy chooses, `mcts-fast-root`), half a second a move.
    Strongest,
}

/// The network the strongest level reads, relative to the repository: the main line's newest
/// promoted generation of the fast network.
pub const STRONGEST_NET: &str = fastnet::NEWEST_GENERATION;

impl Level {
    /// The level's name as `--level` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Strongest => "strongest",
        }
    }

    /// The level that plays `spec`, if one does (for the page's words: "the bot (strongest)").
    pub fn of_spec(spec: &str) -> Option<Level> {
        use clap::ValueEnum;
        Level::value_variants().iter().copied().find(|l| l.spec().is_ok_and(|s| s == spec))
    }

    /// The agent spec the level plays, its network found by [`network_path`].
    pub fn spec(self) -> Result<String, String> {
        Ok(match self {
            Level::Easy => "greedy".to_string(),
            Level::Normal => "scripted".to_string(),
            Level::Hard => strongest(100)?,
            Level::Strongest => strongest(500)?,
        })
    }
}

/// The strongest agent's spec at `ms` milliseconds a move.
fn strongest(ms: u32) -> Result<String, String> {
    let net = network_path(Path::new(STRONGEST_NET)).ok_or_else(|| {
        format!(
            "--level hard and strongest: the network {STRONGEST_NET} is neither under the working folder \
             nor in the repository this binary was built from; run tde play from the repository, or \
             choose --level normal"
        )
    })?;
    Ok(format!("mcts-fast-root:ms={ms},rollout=scripted,width=4,net={}", net.display()))
}

/// `relative` under the working folder when it is there, else under the repository this
/// binary was built from (so `tde play` finds the shipped network from any folder).
fn network_path(relative: &Path) -> Option<PathBuf> {
    if relative.exists() {
        return Some(relative.to_path_buf());
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative);
    built.exists().then_some(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_names_an_agent_that_can_be_built() {
        for level in [Level::Easy, Level::Normal, Level::Hard, Level::Strongest] {
            let spec = level.spec().unwrap();
            training::play::make_agent(&spec, 1).unwrap_or_else(|e| panic!("{}: {spec}: {e}", level.name()));
        }
        assert!(
            Level::Strongest.spec().unwrap().contains("net="),
            "the strongest level searches with the network"
        );
    }
}
