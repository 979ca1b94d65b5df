//! Everything that decides an arena's games ([`ArenaSettings`], stored as `arena.json`), checked
//! against a game's [`MatchMaker`], and the pairs of its round robin.

use crate::matchmaker::MatchMaker;
use crate::run_folder::RunSettings;
use agents::Game;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Version of `arena.json` and `games.jsonl`.
pub const FORMAT: u32 = 1;

/// Everything that decides an arena's games (`arena.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaSettings {
    /// Format version, [`FORMAT`].
    pub format: u32,
    /// The agents by name: an agent spec, optionally suffixed `#tag` to enter the same spec
    /// twice (`random#2` plays as `random`).
    pub agents: Vec<String>,
    /// The scenarios, canonical names.
    pub scenarios: Vec<String>,
    /// Games per pair and scenario (even).
    pub games: u32,
    /// The arena's seed.
    pub seed: u64,
    /// The game options of [`MatchMaker::options`].
    pub options: BTreeMap<String, String>,
}

impl ArenaSettings {
    /// Check and normalise the settings: at least two distinct agents whose specs build,
    /// scenarios known to `maker` (`all` for every one), `games` > 0 (rounded up to even).
    pub fn new<G: Game>(
        maker: &impl MatchMaker<G>,
        agents: &[String],
        scenarios: &[String],
        games: u32,
        seed: u64,
    ) -> Result<ArenaSettings, String> {
        if agents.len() < 2 {
            return Err(format!("--agents needs at least two agents, got {}", agents.len()));
        }
        let mut seen = BTreeSet::new();
        for name in agents {
            if !seen.insert(name) {
                return Err(format!(
                    "--agents: `{name}` is listed twice; enter a spec twice with a suffix, e.g. `{name}#2`"
                ));
            }
            maker.make_agent(agent_spec(name), 0).map_err(|e| format!("--agents: {e}"))?;
        }
        let mut names = Vec::new();
        for s in scenarios {
            if s.eq_ignore_ascii_case("all") {
                names.extend(maker.scenarios());
            } else {
                names.push(maker.scenario(s).map_err(|e| format!("--scenarios: {e}"))?);
            }
        }
        let mut seen = BTreeSet::new();
        names.retain(|s| seen.insert(s.clone()));
        if names.is_empty() {
            return Err("--scenarios names no scenario".into());
        }
        if games == 0 {
            return Err("--games must be at least 1".into());
        }
        Ok(ArenaSettings {
            format: FORMAT,
            agents: agents.to_vec(),
            scenarios: names,
            games: games.div_ceil(2) * 2,
            seed,
            options: maker.options(),
        })
    }

    /// Games in the whole round robin.
    pub fn total_games(&self) -> usize {
        round_robin(self.agents.len()).len() * self.scenarios.len() * self.games as usize
    }
}

impl RunSettings for ArenaSettings {
    fn difference(&self, other: &ArenaSettings) -> Option<(String, String, String)> {
        let fields = |s: &ArenaSettings| {
            let mut f = vec![
                ("format".to_string(), s.format.to_string()),
                ("agents".to_string(), s.agents.join(",")),
                ("scenarios".to_string(), s.scenarios.join(",")),
                ("games".to_string(), s.games.to_string()),
                ("seed".to_string(), s.seed.to_string()),
            ];
            f.extend(s.options.iter().map(|(k, v)| (k.clone(), v.clone())));
            f
        };
        let (mine, theirs) = (fields(self), fields(other));
        let value = |list: &[(String, String)], key: &String| {
            list.iter().find(|(k, _)| k == key).map_or("(none)".to_string(), |(_, v)| v.clone())
        };
        mine.iter()
            .chain(&theirs)
            .map(|(k, _)| k)
            .find(|k| value(&mine, k) != value(&theirs, k))
            .map(|k| (k.clone(), value(&mine, k), value(&theirs, k)))
    }

    /// More games per pair and scenario, everything else the same: a game's seed and sides
    /// depend only on its pair, scenario and index, so the games already played are the
    /// first indices of the longer run.
    fn extends(&self, old: &ArenaSettings) -> bool {
        self.games > old.games && ArenaSettings { games: old.games, ..self.clone() }.difference(old).is_none()
    }
}

/// The spec part of an agent name: `random#2` → `random`.
pub fn agent_spec(name: &str) -> &str {
    name.split_once('#').map_or(name, |(spec, _)| spec)
}

/// The pairs of a round robin among `agents` agents, as index pairs `(i, j)` with `i < j`.
pub fn round_robin(agents: usize) -> Vec<(usize, usize)> {
    (0..agents).flat_map(|i| (i + 1..agents).map(move |j| (i, j))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_names_carry_a_spec_and_an_optional_suffix() {
        assert_eq!(agent_spec("random#2"), "random");
        assert_eq!(agent_spec("mcts:iters=4,c=2#fast"), "mcts:iters=4,c=2");
        assert_eq!(agent_spec("greedy"), "greedy");
    }

    #[test]
    fn the_first_differing_setting_is_named() {
        let settings = ArenaSettings {
            format: FORMAT,
            agents: vec!["random".into(), "greedy".into()],
            scenarios: vec!["couriers".into()],
            games: 2,
            seed: 1,
            options: BTreeMap::from([("board".to_string(), "sunken_plaza".to_string())]),
        };
        assert_eq!(settings.difference(&settings), None);
        let mut other = settings.clone();
        other.seed = 2;
        other.options.insert("board".into(), "ruins".into());
        assert_eq!(settings.difference(&other), Some(("seed".into(), "1".into(), "2".into())));
        other.seed = 1;
        assert_eq!(
            settings.difference(&other),
            Some(("board".into(), "sunken_plaza".into(), "ruins".into()))
        );
        other.options.clear();
        other.options.insert("crews".into(), "x,y".into());
        assert_eq!(
            settings.difference(&other),
            Some(("board".into(), "sunken_plaza".into(), "(none)".into()))
        );
        assert_eq!(settings.total_games(), 2);
    }
}
