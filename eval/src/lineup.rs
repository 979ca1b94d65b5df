//! Each game's lineup: the board and the crews a TDE game is played with, either the same for
//! every game or drawn per game from pools (`tde arena --boards all --crews all`).
//!
//! - **Pools.** Boards are named in `configs/boards/` (or are paths to `.board` files), crews
//!   in `configs/crews/` (or paths); `all` stands for every file there. Every board must load
//!   and every crew must build a skirmish against itself on one of the boards, or the pool is
//!   refused, naming the option and the value.
//! - **The draw** is a pure function of a seed that the caller hashes from the arena's seed,
//!   the pair, the scenario and the round, so games `2r` and `2r + 1` (the sides swapped) share
//!   their lineup, and a run is reproducible on any number of threads. Side A's and side B's
//!   crews are drawn independently from the same pool (a crew may meet itself).
//! - **Unplayable lineups are redrawn.** [`engine::setup::new_game`] refuses some lineups: a
//!   board whose deployment strips do not hold a crew in a scenario, a crew without a
//!   character in Grudge Match or Couriers, a mounted leader in Assassinate, more than 32
//!   models with the AI dinosaurs. Rather than fail the arena or bend the crews, the draw
//!   walks a seeded random order of every (board, side A crew, side B crew) combination,
//!   without repeats, and takes the first that builds: a uniform draw among the playable
//!   lineups, fixed by the seed, that fails only when none of them can play the scenario.
//! - **Cache.** Each lineup's initial game is built once (games of a scenario start from the
//!   same state: their randomness comes from chance nodes) and cloned for every game.

use crate::arena::mix;
use crate::matchmaker::Lineup;
use engine::data::file_names;
use engine::scenario::Scenario;
use engine::setup::{load_board, new_game, GameConfig};
use engine::GameState;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

/// Boards or crews: the same for every game, or a pool each game draws from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pool<T> {
    /// The same for every game.
    Fixed(T),
    /// Names or paths each game draws from; `all` stands for every file in the configs folder.
    Drawn(Vec<String>),
}

impl<T> Pool<T> {
    /// A pool of `names` to draw from, or `fixed` when there are none.
    pub fn drawn_or(names: &[String], fixed: T) -> Pool<T> {
        if names.is_empty() {
            Pool::Fixed(fixed)
        } else {
            Pool::Drawn(names.to_vec())
        }
    }
}

impl Pool<[String; 2]> {
    /// `--crews` as typed: two crews are side A's and side B's in every game; `all`, or three
    /// or more crews, a pool to draw both sides from.
    pub fn crews(values: &[String]) -> Result<Pool<[String; 2]>, String> {
        match values {
            _ if values.len() > 2 || values.iter().any(|v| v.eq_ignore_ascii_case("all")) => {
                Ok(Pool::Drawn(values.to_vec()))
            }
            [a, b] => Ok(Pool::Fixed([a.clone(), b.clone()])),
            _ => Err(format!(
                "--crews takes two crews (side A, side B), or `all` or three or more to draw from, got {}",
                values.len()
            )),
        }
    }
}

/// The key of a built game: board, side A's crew and side B's crew (indices into the pools),
/// and the scenario.
type Key = (usize, usize, usize, Scenario);

/// A lineup's initial state, or why it cannot play, once built.
type Built = Arc<OnceLock<Result<GameState, String>>>;

/// Builds each game's initial state from its lineup, fixed or drawn (see the module's doc).
pub struct Lineups {
    /// Rules, AI side, configs folder; its board and crews are replaced per lineup.
    config: GameConfig,
    /// The boards to draw from (one when fixed).
    boards: Vec<String>,
    /// Side A's and side B's crews to draw from (one each when fixed).
    crews: [Vec<String>; 2],
    /// Whether the boards are drawn (and so named in each game's lineup).
    drawn_boards: bool,
    /// Whether the crews are drawn.
    drawn_crews: bool,
    /// The lineups built so far: their initial state, or why they cannot play.
    built: Mutex<HashMap<Key, Built>>,
}

impl Lineups {
    /// Lineups from `boards` and `crews` under `config` (its rules, AI side and configs
    /// folder; its board and crews are not used). With `config.solo`, only side A's crew is
    /// drawn. Fails, naming `--boards` or `--crews`, when a pool is empty or holds a board
    /// that does not load or a crew that cannot play.
    pub fn new(
        config: GameConfig,
        boards: Pool<String>,
        crews: Pool<[String; 2]>,
    ) -> Result<Lineups, String> {
        let (drawn_boards, drawn_crews) = (matches!(boards, Pool::Drawn(_)), matches!(crews, Pool::Drawn(_)));
        let boards = match boards {
            Pool::Fixed(board) => vec![board],
            Pool::Drawn(names) => {
                let names = expand(&config, "--boards", "boards", "board", &names)?;
                for name in &names {
                    load_board(&config.configs, name).map_err(|e| format!("--boards: `{name}`: {e}"))?;
                }
                names
            }
        };
        let crews = match crews {
            Pool::Fixed([a, b]) => [vec![a], vec![b]],
            Pool::Drawn(names) => {
                let names = expand(&config, "--crews", "crews", "toml", &names)?;
                for name in &names {
                    playable_crew(&config, &boards, name).map_err(|e| format!("--crews: `{name}`: {e}"))?;
                }
                let side_b = if config.solo { names[..1].to_vec() } else { names.clone() };
                [names, side_b]
            }
        };
        Ok(Lineups { config, boards, crews, drawn_boards, drawn_crews, built: Mutex::default() })
    }

    /// The pools drawn from as resolved (`all` expanded): the boards, then (side A's) crews;
    /// each empty when fixed.
    pub fn drawn(&self) -> [Vec<String>; 2] {
        let pool = |drawn: bool, names: &Vec<String>| if drawn { names.clone() } else { Vec::new() };
        [pool(self.drawn_boards, &self.boards), pool(self.drawn_crews, &self.crews[0])]
    }

    /// Whether the boards or the crews are drawn per game.
    fn is_drawn(&self) -> bool {
        self.drawn_boards || self.drawn_crews
    }

    /// The configuration every game shares (its board and crews aside).
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Build the fixed lineup's game of each of `scenarios` now, so that a board and crews
    /// that cannot play one fail before any game does; drawn pools build theirs per game.
    pub fn prepare(&self, scenarios: &[Scenario]) -> Result<(), String> {
        if self.is_drawn() {
            return Ok(());
        }
        scenarios.iter().try_for_each(|&scenario| self.build((0, 0, 0, scenario)).map(drop))
    }

    /// The options that decide the lineups, by command-line name: `board` or `boards`, and
    /// `crews` (the pair, or the pool both sides draw from).
    pub fn options(&self) -> Vec<(String, String)> {
        let board = if self.drawn_boards {
            ("boards".to_string(), self.boards.join(","))
        } else {
            ("board".to_string(), self.boards[0].clone())
        };
        let [_, pool] = self.drawn();
        let pair = format!("{},{}", self.crews[0][0], self.crews[1][0]);
        vec![board, ("crews".to_string(), pool_or(&pool, &pair))]
    }

    /// The game of `scenario` for the draw `seed`, with what was drawn: `board` when the
    /// boards are drawn, `crews` (`A vs B`; `crew` in solo games) when the crews are.
    pub fn game(&self, scenario: Scenario, seed: u64) -> Result<(GameState, Lineup), String> {
        let sizes = [self.boards.len(), self.crews[0].len(), self.crews[1].len()];
        let n = sizes.iter().product::<usize>();
        // A lazy Fisher–Yates shuffle of 0..n: `moved` holds the entries swapped so far.
        let mut moved = HashMap::new();
        let mut last = String::new();
        for k in 0..n {
            let j = k + (mix(seed ^ mix(k as u64)) % (n - k) as u64) as usize;
            let pick = moved.get(&j).copied().unwrap_or(j);
            moved.insert(j, moved.get(&k).copied().unwrap_or(k));
            let key = (pick % sizes[0], pick / sizes[0] % sizes[1], pick / sizes[0] / sizes[1], scenario);
            match self.build(key) {
                Ok(state) => return Ok((state, self.lineup(key))),
                Err(e) => last = e,
            }
        }
        if !self.is_drawn() {
            return Err(last);
        }
        Err(format!(
            "no lineup from --boards and --crews can play {}: all {n} tried; the last: {last}",
            scenario.name()
        ))
    }

    /// What was drawn for `key`, by name.
    fn lineup(&self, (board, a, b, _): Key) -> Lineup {
        let mut lineup = Lineup::new();
        if self.drawn_boards {
            lineup.insert("board".into(), self.boards[board].clone());
        }
        if self.drawn_crews && self.config.solo {
            lineup.insert("crew".into(), self.crews[0][a].clone());
        } else if self.drawn_crews {
            lineup.insert("crews".into(), format!("{} vs {}", self.crews[0][a], self.crews[1][b]));
        }
        lineup
    }

    /// The initial state of `key`'s game, built on first use.
    fn build(&self, key: Key) -> Result<GameState, String> {
        let cell = self.built.lock().unwrap_or_else(|p| p.into_inner()).entry(key).or_default().clone();
        let (board, a, b, scenario) = key;
        cell.get_or_init(|| {
            let config = GameConfig {
                board: self.boards[board].clone(),
                crews: [self.crews[0][a].clone(), self.crews[1][b].clone()],
                scenario,
                ..self.config.clone()
            };
            new_game(&config).map_err(|e| e.to_string())
        })
        .clone()
    }
}

/// A pool as a setting's value: `drawn from` its names, or `fixed` when it is empty.
pub(crate) fn pool_or(pool: &[String], fixed: &str) -> String {
    if pool.is_empty() {
        fixed.to_string()
    } else {
        format!("drawn from {}", pool.join(","))
    }
}

/// A pool as typed (`option`), `all` replaced by every `.ext` file of `configs/folder`, in
/// order and without repeats.
fn expand(
    config: &GameConfig,
    option: &str,
    folder: &str,
    ext: &str,
    names: &[String],
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for name in names {
        if name.eq_ignore_ascii_case("all") {
            out.extend(file_names(&config.configs.join(folder), ext).map_err(|e| format!("{option}: {e}"))?);
        } else if name.trim().is_empty() {
            return Err(format!("{option}: an empty name in the list"));
        } else {
            out.push(name.clone());
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|name| seen.insert(name.clone()));
    if out.is_empty() {
        return Err(format!("{option} names nothing to draw from"));
    }
    Ok(out)
}

/// Whether `crew` loads and plays: a skirmish against itself, without the AI side, on one of
/// `boards`; the first board's error when on none.
fn playable_crew(config: &GameConfig, boards: &[String], crew: &str) -> Result<(), String> {
    let mut first = None;
    for board in boards {
        let mirror = GameConfig {
            board: board.clone(),
            crews: [crew.to_string(), crew.to_string()],
            scenario: Scenario::Skirmish,
            dinos: 0,
            ambush: 0,
            solo: false,
            ..config.clone()
        };
        match new_game(&mirror) {
            Ok(_) => return Ok(()),
            Err(e) => {
                first.get_or_insert(e.to_string());
            }
        }
    }
    Err(first.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    fn drawn(boards: &[&str], crews: &[&str]) -> Result<Lineups, String> {
        Lineups::new(GameConfig::default(), Pool::Drawn(strings(boards)), Pool::Drawn(strings(crews)))
    }

    /// A folder of its own for a test's files.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tde-lineup-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn draws_are_deterministic_and_cover_every_board_and_many_crews() {
        let lineups = drawn(&["all"], &["all"]).unwrap();
        let configs = engine::data::configs_dir();
        let [boards, crews] = lineups.drawn();
        assert_eq!(boards, file_names(&configs.join("boards"), "board").unwrap());
        assert_eq!(crews, file_names(&configs.join("crews"), "toml").unwrap());
        assert!(boards.len() > 1 && crews.len() > 1);
        let (mut seen_boards, mut seen_a, mut seen_b, mut pairs) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        for seed in 0..200 {
            let (state, lineup) = lineups.game(Scenario::Couriers, mix(seed)).unwrap();
            assert_eq!(lineups.game(Scenario::Couriers, mix(seed)).unwrap().1, lineup, "seed {seed}");
            let board = &lineup["board"];
            assert_eq!(state.board().name(), load_board(&configs, board).unwrap().name());
            let (a, b) = lineup["crews"].split_once(" vs ").unwrap();
            seen_boards.insert(board.clone());
            seen_a.insert(a.to_string());
            seen_b.insert(b.to_string());
            pairs.insert(lineup["crews"].clone());
        }
        assert_eq!(seen_boards.len(), boards.len(), "{seen_boards:?}");
        assert!(seen_a.len() > crews.len() / 2 && seen_b.len() > crews.len() / 2, "{seen_a:?} {seen_b:?}");
        assert!(pairs.len() > 50, "{} crew pairs", pairs.len());
        // Another instance, with nothing built yet, draws the same.
        let again = drawn(&["all"], &["all"]).unwrap();
        for seed in [0, 7, 99] {
            let first = lineups.game(Scenario::Couriers, mix(seed)).unwrap().1;
            assert_eq!(again.game(Scenario::Couriers, mix(seed)).unwrap().1, first);
        }
    }

    #[test]
    fn unplayable_lineups_are_redrawn_and_a_scenario_none_can_play_fails() {
        // A 12x12 board of open ground holds a skirmish and Couriers, not Attack and Defend
        // (17x17 at least).
        let dir = temp_dir("tiny");
        let tiny = dir.join("tiny.board");
        let rows = vec!["0.".repeat(12); 12].join("\n");
        std::fs::write(&tiny, format!("name: Tiny\nsize: 12x12\n{rows}\n")).unwrap();
        let tiny = tiny.to_str().unwrap();
        let crews = Pool::Fixed(engine::setup::DEFAULT_CREWS.map(String::from));
        let lineups =
            Lineups::new(GameConfig::default(), Pool::Drawn(strings(&[tiny, "sunken_plaza"])), crews.clone())
                .unwrap();
        let boards = |scenario| -> BTreeSet<String> {
            (0..40).map(|seed| lineups.game(scenario, mix(seed)).unwrap().1["board"].clone()).collect()
        };
        assert_eq!(boards(Scenario::Couriers).len(), 2);
        assert_eq!(boards(Scenario::AttackAndDefend), BTreeSet::from(["sunken_plaza".to_string()]));
        let only_tiny = Lineups::new(GameConfig::default(), Pool::Drawn(strings(&[tiny])), crews).unwrap();
        let err = only_tiny.game(Scenario::AttackAndDefend, 1).unwrap_err();
        assert!(err.contains("no lineup") && err.contains("attack_and_defend"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_pools_are_refused_naming_the_option_and_the_value() {
        let err = |boards: &[&str], crews: &[&str]| drawn(boards, crews).err().unwrap_or_default();
        assert!(err(&["nonsense"], &["all"]).starts_with("--boards: `nonsense`"));
        assert!(err(&[""], &["all"]).contains("--boards: an empty name"));
        assert!(err(&["all"], &["the_firm_100", "nobody"]).starts_with("--crews: `nobody`"));
        let dir = temp_dir("crew");
        let broken = dir.join("broken.toml");
        std::fs::write(&broken, "name = \"Broken\"\nmodels = [\"nix\"\n").unwrap();
        let broken = broken.to_str().unwrap();
        let message = err(&["all"], &["the_firm_100", broken]);
        assert!(message.starts_with(&format!("--crews: `{broken}`")), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Pool::crews(&strings(&["the_firm_100"])).unwrap_err().starts_with("--crews"));
        assert!(Pool::crews(&[]).is_err());
        assert_eq!(Pool::crews(&strings(&["a", "b"])), Ok(Pool::Fixed(["a".to_string(), "b".to_string()])));
        assert_eq!(Pool::crews(&strings(&["All"])), Ok(Pool::Drawn(strings(&["All"]))));
        assert_eq!(Pool::crews(&strings(&["a", "b", "c"])), Ok(Pool::Drawn(strings(&["a", "b", "c"]))));
    }

    #[test]
    fn pools_name_their_options_and_only_drawn_parts_are_recorded() {
        let fixed = Lineups::new(
            GameConfig::default(),
            Pool::Fixed("sunken_plaza".into()),
            Pool::Fixed(engine::setup::DEFAULT_CREWS.map(String::from)),
        )
        .unwrap();
        fixed.prepare(&Scenario::ALL).unwrap();
        assert!(fixed.game(Scenario::Couriers, 5).unwrap().1.is_empty());
        assert_eq!(
            fixed.options(),
            [
                ("board".to_string(), "sunken_plaza".to_string()),
                ("crews".to_string(), "artifacters_100,the_firm_100".to_string())
            ]
        );
        let boards = drawn(&["lagoon_docks", "sunken_plaza", "lagoon_docks"], &["all"]).unwrap();
        assert_eq!(boards.drawn()[0], ["lagoon_docks", "sunken_plaza"], "repeats dropped");
        assert_eq!(boards.options()[0], ("boards".to_string(), "lagoon_docks,sunken_plaza".to_string()));
        assert!(boards.options()[1].1.starts_with("drawn from artifacters_100,"));
        // Solo games draw side A's crew only.
        let solo = GameConfig { solo: true, dinos: 1, ..GameConfig::default() };
        let solo =
            Lineups::new(solo, Pool::Fixed("sunken_plaza".into()), Pool::Drawn(strings(&["all"]))).unwrap();
        let lineup = solo.game(Scenario::Couriers, 3).unwrap().1;
        assert_eq!(lineup.keys().collect::<Vec<_>>(), ["crew"]);
    }
}
