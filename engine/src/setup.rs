//! Building games: the built-in default game, and hand-written setup files (TOML) that pose a
//! tactical situation — board, rule variant, models with position, stance, AP, wounds and
//! tokens, and whose activation it is.
//!
//! ```toml
//! board = "sunken_plaza"   # a board in configs/boards/, or a path to a .board file
//! rules = "standard"       # a variant in configs/rules/ (optional)
//! max_turns = 6            # optional
//! turn = 2                 # optional, default 1
//! active = 0               # side whose activation it is
//! activating = 0           # optional: index of the model already activated (mid-activation)
//! pass_tokens = [0, 1]     # optional
//!
//! [[model]]
//! side = 0
//! profile = "nix"
//! at = [10, 4]             # column, row
//! stance = "standing"      # standing | prone | swimming | climbing (optional)
//! z = 3                    # base height in inches (optional; default the cell surface)
//! ap = 2                   # optional, default the profile's AP gain
//! wounds = 3               # optional, default full
//! health = "conscious"     # conscious | down (optional)
//! activated = false        # optional
//! jammed = [0]             # jammed weapon indices (optional)
//! stealth = true           # tokens (optional): stealth (default: the Stealth skill), fire
//! fire = 1                 # tokens, blinded
//! blind = false
//!
//! [declared]               # optional: the activating model has declared this action, so
//! action = "move"          # the reacting side is choosing reactions (move | shoot | charge |
//! to = [10, 9]             # close_combat | dodge); `to` for move and charge, `target` (a
//! target = 1               # model index) and `weapon` for shoot, charge and close combat,
//! weapon = 0               # `prone` for a crawl. A move declines its nested action.
//! ```

use crate::board::{Board, CellIdx, Terrain};
use crate::crew::{load_crew, CrewList};
use crate::data::{configs_dir, DataError};
use crate::profile::{load_catalog, Catalog, Profile};
use crate::rules::{self, RuleVariant};
use crate::scenario::Scenario;
use crate::state::{Action, DynState, GameState, Health, ModelState, Stance, StaticData, Step, MAX_SIDES};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The board used when none is named.
pub const DEFAULT_BOARD: &str = "sunken_plaza";
/// The crews used when none are named.
pub const DEFAULT_CREWS: [&str; 2] = ["artifacters_100", "the_firm_100"];
/// Turns in a game when nothing else decides (scenarios end between turns 4 and 6).
pub const DEFAULT_MAX_TURNS: u8 = 6;
pub use crate::limits::{DEPLOYMENT_DEPTH, MAX_DINOS, MAX_GAME_MODELS};

/// What to build a game from; every field has a built-in default.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The configs folder.
    pub configs: PathBuf,
    /// Board name (in `configs/boards/`) or path.
    pub board: String,
    /// Crew names (in `configs/crews/`) or paths, side A then side B.
    pub crews: [String; 2],
    /// Rule variant name (in `configs/rules/`).
    pub rules: String,
    /// Number of turns.
    pub max_turns: u8,
    /// The scenario (the default skirmish deploys automatically).
    pub scenario: Scenario,
    /// AI-controlled dinosaurs the players place before deployment (Ulaya Chronicles card AI,
    /// seed 003 "The Drowned Earth Conversion"); 0 for none. Their data is `configs/uc/`.
    pub dinos: u8,
    /// Ambush markers (seed 003, "Ambush markers") the players place after the dinosaurs and
    /// before deployment; 0 for none. Their kinds are in `configs/uc/spawn.toml`.
    pub ambush: u8,
    /// The spawn table (in `configs/uc/spawn.toml`) the dinosaurs are rolled on.
    pub spawn_table: String,
    /// Solo: side A's crew (`crews[0]`) faces the AI dinosaurs alone; `crews[1]` is not
    /// loaded. Needs `dinos` ≥ 1.
    pub solo: bool,
}

/// The spawn table games use unless told otherwise.
pub const DEFAULT_SPAWN_TABLE: &str = "jungle";

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            configs: configs_dir(),
            board: DEFAULT_BOARD.to_string(),
            crews: DEFAULT_CREWS.map(String::from),
            rules: "standard".to_string(),
            max_turns: DEFAULT_MAX_TURNS,
            scenario: Scenario::Skirmish,
            dinos: 0,
            ambush: 0,
            spawn_table: DEFAULT_SPAWN_TABLE.to_string(),
            solo: false,
        }
    }
}

/// Resolve a name to a file: an existing path is used as is, otherwise
/// `configs/<folder>/<name>.<ext>`.
fn resolve(configs: &Path, folder: &str, name: &str, ext: &str) -> PathBuf {
    let p = PathBuf::from(name);
    if p.is_file() {
        p
    } else {
        configs.join(folder).join(format!("{name}.{ext}"))
    }
}

/// Load a board by name or path (shared with earlier games on the same file, see
/// [`Board::load_shared`]), turning its errors into a [`DataError`].
pub fn load_board(configs: &Path, name: &str) -> Result<Arc<Board>, DataError> {
    let path = resolve(configs, "boards", name, "board");
    Board::load_shared(&path).map_err(|e| DataError::new(e.file, format!("line {}", e.line), e.reason))
}

fn load_rules(configs: &Path, name: &str) -> Result<RuleVariant, DataError> {
    rules::load_named(configs, name).map_err(|e| {
        let file = configs.join("rules").join(format!("{name}.toml")).display().to_string();
        DataError::new(file, e.field().unwrap_or("(file)"), e.to_string())
    })
}

/// Build a game. A skirmish has both crews deployed along the long edges: side A within
/// [`DEPLOYMENT_DEPTH`]" of row 0, side B of the last row, spread evenly at ground level. In a
/// scenario every model starts off the table and the game opens with the scenario's set-up
/// and deployment decisions.
pub fn new_game(config: &GameConfig) -> Result<GameState, DataError> {
    let catalog = load_catalog(&config.configs.join("factions"))?;
    let board = load_board(&config.configs, &config.board)?;
    let variant = load_rules(&config.configs, &config.rules)?;
    if config.solo && config.dinos == 0 {
        return Err(DataError::new(
            "game settings",
            "solo",
            "a solo game needs AI dinosaurs to face (dinos 1 or more)".to_string(),
        ));
    }
    // A solo game has side A's crew only.
    let playing = if config.solo { &config.crews[..1] } else { &config.crews[..] };
    let crews: Vec<CrewList> = playing
        .iter()
        .map(|c| load_crew(&resolve(&config.configs, "crews", c, "toml"), &catalog))
        .collect::<Result<_, _>>()?;
    let card_dir = config.configs.join("cards");
    let card_catalog =
        if card_dir.is_dir() { crate::cards::load_cards(&card_dir)? } else { Default::default() };
    let mut cards: Vec<Vec<Arc<crate::cards::Card>>> = crews
        .iter()
        .zip(&config.crews)
        .map(|(crew, name)| {
            let file = resolve(&config.configs, "crews", name, "toml").display().to_string();
            crate::crew::check_crew_cards(&file, crew, &card_catalog)
        })
        .collect::<Result<_, _>>()?;
    cards.resize_with(2, Vec::new);
    let largest = crews.iter().map(|c| c.models.len()).max().unwrap_or(0);
    crate::scenario::board_fits(&board, config.scenario, largest)
        .map_err(|reason| DataError::new(board.name(), "size", reason))?;
    let mut profiles: Vec<Arc<Profile>> = Vec::new();
    let mut models = Vec::new();
    // Models with special deployment rules such as Infiltrate are set aside and deployed after
    // the others (p.20, step 5); the scenarios give them their own zones.
    for infiltrators in [false, true] {
        for (side, crew) in crews.iter().enumerate() {
            let n = crew.models.len();
            for (i, id) in crew.models.iter().enumerate() {
                let profile = catalog.get(id).expect("crew ids checked by load_crew").clone();
                if profile.infiltrates() != infiltrators {
                    continue;
                }
                let pidx = profile_index(&mut profiles, profile.clone());
                add_cavalry_parts(&mut profiles, &profile, &catalog);
                if config.scenario != Scenario::Skirmish {
                    let mut m = ModelState::fresh(&profiles[pidx], pidx as u8, side as u8, 0, &board);
                    m.health = Health::Reserve;
                    m.mount_wounds = mount_wounds(&profiles[pidx], &catalog);
                    models.push(m);
                    continue;
                }
                let cell = deployment_cell(&board, side as u8, i, n, &models).ok_or_else(|| {
                    DataError::new(
                        board.name(),
                        "deployment",
                        format!("no free ground cell to deploy {id} for side {side}"),
                    )
                })?;
                let mut m = ModelState::fresh(&profiles[pidx], pidx as u8, side as u8, cell, &board);
                m.mount_wounds = mount_wounds(&profiles[pidx], &catalog);
                models.push(m);
            }
        }
    }
    let uc = ai_side(config, &mut profiles, models.len())?;
    let stat = StaticData {
        board,
        profiles,
        variant,
        max_turns: config.max_turns,
        sides: 2,
        cards,
        scenario: config.scenario,
        uc,
    };
    let crew_files =
        config.crews.clone().map(|c| resolve(&config.configs, "crews", &c, "toml").display().to_string());
    check_scenario_crews(&stat, &models, &crew_files)?;
    Ok(GameState::new(stat, models))
}

/// The AI side of a game with dinosaurs or ambush markers: `configs/uc/` loaded, its profiles
/// added to the game's. None without either.
fn ai_side(
    config: &GameConfig,
    profiles: &mut Vec<Arc<Profile>>,
    crew_models: usize,
) -> Result<Option<Arc<crate::uc::UcGame>>, DataError> {
    if config.dinos == 0 && config.ambush == 0 {
        return Ok(None);
    }
    if config.ambush as usize > crate::uc::MAX_MARKERS {
        return Err(DataError::new(
            "game settings",
            "ambush",
            format!("{} is more than {}", config.ambush, crate::uc::MAX_MARKERS),
        ));
    }
    if config.dinos > MAX_DINOS {
        return Err(DataError::new(
            "game settings",
            "dinos",
            format!("{} is more than {MAX_DINOS}", config.dinos),
        ));
    }
    if crew_models + config.dinos as usize > MAX_GAME_MODELS {
        return Err(DataError::new(
            "game settings",
            "dinos",
            format!("{crew_models} crew models and {} dinosaurs are more than 32 models", config.dinos),
        ));
    }
    let data = crate::uc::load_uc(&config.configs.join("uc"))?;
    let mut game = crate::uc::UcGame::new(data, profiles, &config.spawn_table, config.dinos, config.ambush)?;
    game.solo = config.solo;
    Ok(Some(Arc::new(game)))
}

/// The crews can play the scenario: no mounted leader in Assassinate (p.78); a character to
/// nominate in Grudge Match and Couriers; at most 32 models (the scenario's model masks).
fn check_scenario_crews(
    stat: &StaticData,
    models: &[ModelState],
    files: &[String; 2],
) -> Result<(), DataError> {
    if models.len() > 32 {
        return Err(DataError::new(&files[0], "models", "a game holds at most 32 models".to_string()));
    }
    let sides = if stat.uc.as_ref().is_some_and(|uc| uc.solo) { 1 } else { 2 };
    for (side, file) in files.iter().enumerate().take(sides) {
        let crew: Vec<&Profile> = models
            .iter()
            .filter(|m| m.side == side as u8)
            .map(|m| &*stat.profiles[m.profile as usize])
            .collect();
        stat.scenario.rules().check_crew(&crew).map_err(|why| DataError::new(file, "models", why))?;
    }
    Ok(())
}

/// A cavalry model's rider and mount profiles join the game's profiles, for when they separate.
fn add_cavalry_parts(profiles: &mut Vec<Arc<Profile>>, p: &Profile, catalog: &Catalog) {
    if let Some((rider, mount)) = &p.cavalry {
        for id in [rider, mount] {
            let part = catalog.get(id).expect("the loader checks riders and mounts").clone();
            profile_index(profiles, part);
        }
    }
}

/// A cavalry model's mount's starting wounds (0 for other models).
fn mount_wounds(p: &Profile, catalog: &Catalog) -> u8 {
    p.cavalry.as_ref().and_then(|(_, mount)| catalog.get(mount)).map_or(0, |m| m.wounds)
}

fn profile_index(profiles: &mut Vec<Arc<Profile>>, p: Arc<Profile>) -> usize {
    match profiles.iter().position(|q| q.id == p.id) {
        Some(i) => i,
        None => {
            profiles.push(p);
            profiles.len() - 1
        }
    }
}

/// The deployment cell of the `i`-th of `n` models of `side`: the free ground-level cell in
/// the deployment zone closest to an even spread along the edge.
fn deployment_cell(board: &Board, side: u8, i: usize, n: usize, placed: &[ModelState]) -> Option<CellIdx> {
    let w = board.width() as i32;
    let d = board.depth() as i32;
    let target_x = ((i as i32 + 1) * w) / (n as i32 + 1);
    let rows: Vec<i32> = if side == 0 {
        (0..DEPLOYMENT_DEPTH as i32).collect()
    } else {
        (0..DEPLOYMENT_DEPTH as i32).map(|r| d - 1 - r).collect()
    };
    let mut best: Option<(i32, CellIdx)> = None;
    for (ri, &y) in rows.iter().enumerate() {
        for x in 0..w {
            let c = board.idx(x as u8, y as u8);
            let cell = board.cell(c);
            let ground = matches!(cell.terrain, Terrain::Open) && cell.height <= 1;
            if !ground || placed.iter().any(|m| m.cell == c) {
                continue;
            }
            let score = (x - target_x).abs() * 4 + ri as i32;
            if best.is_none_or(|(s, _)| score < s) {
                best = Some((score, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    board: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    max_turns: Option<u8>,
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    active: u8,
    #[serde(default)]
    activating: Option<u8>,
    #[serde(default)]
    pass_tokens: Option<Vec<u8>>,
    #[serde(rename = "model")]
    models: Vec<RawModel>,
    #[serde(default)]
    declared: Option<RawDeclared>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeclared {
    action: String,
    #[serde(default)]
    to: Option<[u8; 2]>,
    #[serde(default)]
    target: Option<u8>,
    #[serde(default)]
    weapon: u8,
    #[serde(default)]
    prone: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModel {
    side: u8,
    profile: String,
    at: [u8; 2],
    #[serde(default)]
    z: Option<u8>,
    #[serde(default)]
    stance: Option<Stance>,
    #[serde(default)]
    ap: Option<u8>,
    #[serde(default)]
    wounds: Option<u8>,
    #[serde(default)]
    health: Option<Health>,
    #[serde(default)]
    activated: bool,
    #[serde(default)]
    jammed: Vec<u8>,
    #[serde(default)]
    stealth: Option<bool>,
    #[serde(default)]
    fire: u8,
    #[serde(default)]
    blind: bool,
}

/// Read a setup file (see the module docs) into a game at a decision node.
pub fn load_setup(path: &Path) -> Result<GameState, DataError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| DataError::new(&file, "(file)", e.to_string()))?;
    parse_setup(&text, &file, &configs_dir())
}

/// Parse setup text; `file` names it in errors; names are resolved under `configs`.
pub fn parse_setup(text: &str, file: &str, configs: &Path) -> Result<GameState, DataError> {
    let raw: RawSetup = toml::from_str(text).map_err(|e| crate::data::toml_error(text, file, &e))?;
    let err = |field: String, reason: String| DataError::new(file, field, reason);
    let catalog: Catalog = load_catalog(&configs.join("factions"))?;
    let board = load_board(configs, &raw.board)?;
    let variant = load_rules(configs, raw.rules.as_deref().unwrap_or("standard"))?;
    if raw.active > 1 {
        return Err(err("active".into(), format!("side {} does not exist (0 or 1)", raw.active)));
    }
    if raw.models.is_empty() || raw.models.len() > crate::limits::MAX_MODELS {
        let reason = format!("{} models; a game holds 1 to {}", raw.models.len(), crate::limits::MAX_MODELS);
        return Err(err("model".into(), reason));
    }
    let mut profiles: Vec<Arc<Profile>> = Vec::new();
    let mut models: Vec<ModelState> = Vec::new();
    for (i, rm) in raw.models.iter().enumerate() {
        let f = |name: &str| format!("model[{i}].{name}");
        if rm.side > 1 {
            return Err(err(f("side"), format!("side {} does not exist (0 or 1)", rm.side)));
        }
        let p = catalog
            .get(&rm.profile)
            .ok_or_else(|| err(f("profile"), format!("no profile with id \"{}\"", rm.profile)))?
            .clone();
        let [x, y] = rm.at;
        if x >= board.width() || y >= board.depth() {
            return Err(err(
                f("at"),
                format!("({x}, {y}) is off the {}x{} board", board.width(), board.depth()),
            ));
        }
        let cell = board.idx(x, y);
        if board.cell(cell).terrain == Terrain::Impassable {
            return Err(err(f("at"), format!("({x}, {y}) is impassable terrain")));
        }
        if let Some(j) = models.iter().position(|m| m.cell == cell) {
            return Err(err(f("at"), format!("({x}, {y}) is already taken by model[{j}]")));
        }
        let pidx = profile_index(&mut profiles, p.clone());
        add_cavalry_parts(&mut profiles, &p, &catalog);
        let mut m = ModelState::fresh(&p, pidx as u8, rm.side, cell, &board);
        m.mount_wounds = mount_wounds(&p, &catalog);
        m.ap = rm.ap.unwrap_or(p.ap_gain.min(p.ap_max));
        if m.ap > p.ap_max {
            return Err(err(f("ap"), format!("{} AP is above the maximum of {}", m.ap, p.ap_max)));
        }
        m.wounds = rm.wounds.unwrap_or(p.wounds);
        if m.wounds > p.wounds {
            return Err(err(f("wounds"), format!("{} wounds is above the starting {}", m.wounds, p.wounds)));
        }
        if let Some(z) = rm.z {
            if z < board.cell(cell).height {
                return Err(err(
                    f("z"),
                    format!("height {z} is below the cell surface {}", board.cell(cell).height),
                ));
            }
            m.z = z;
        }
        m.health = rm.health.unwrap_or(Health::Conscious);
        if matches!(m.health, Health::TakenOut | Health::Remounted) {
            return Err(err(f("health"), "taken-out models are not on the table; leave them out".into()));
        }
        if m.health == Health::Down || m.wounds == 0 {
            m.health = Health::Down;
            m.wounds = 0;
            m.ap = 0;
        }
        m.stance = match rm.stance {
            Some(s) => s,
            None if m.health == Health::Down => Stance::Prone,
            None if m.z > board.cell(cell).height => Stance::Climbing,
            None => m.stance,
        };
        if (m.stance == Stance::Climbing) != (m.z > board.cell(cell).height) {
            return Err(err(
                f("stance"),
                "a model is climbing exactly when its base is above the cell surface".into(),
            ));
        }
        if m.stance == Stance::Climbing {
            // A climber clings to a wall: a neighbouring cell at least as high as its base.
            let (x, y) = board.xy(cell);
            let wall = (-1i32..=1).flat_map(|dx| (-1i32..=1).map(move |dy| (dx, dy))).any(|(dx, dy)| {
                board.checked_idx(x as i32 + dx, y as i32 + dy).is_some_and(|c| board.cell(c).height >= m.z)
            });
            if !wall {
                return Err(err(f("z"), format!("height {} is a climb with nothing to climb", m.z)));
            }
        }
        let in_water = board.cell(cell).terrain == Terrain::Water && m.z == board.cell(cell).height;
        if (m.stance == Stance::Swimming) != in_water {
            return Err(err(f("stance"), "a model is swimming exactly when its base is in water".into()));
        }
        m.activated = rm.activated;
        if let Some(stealth) = rm.stealth {
            m.tokens.stealth = stealth;
        }
        if rm.fire > 0 && m.stance == Stance::Swimming {
            return Err(err(f("fire"), "a swimming model cannot be on fire".into()));
        }
        m.tokens.fire = rm.fire;
        m.tokens.blind = rm.blind;
        for &w in &rm.jammed {
            if w as usize >= p.weapons.len() || !p.weapons[w as usize].is_ranged() {
                return Err(err(f("jammed"), format!("{} has no ranged weapon {w}", p.id)));
            }
            m.jammed |= 1 << w;
        }
        models.push(m);
    }
    let mut steps = vec![Step::ChooseActivation];
    if let Some(a) = raw.activating {
        let Some(m) = models.get(a as usize) else {
            return Err(err("activating".into(), format!("there is no model[{a}]")));
        };
        if m.side != raw.active || !m.is_conscious() || m.ap == 0 || m.activated {
            return Err(err(
                "activating".into(),
                format!("model[{a}] must be a conscious, not yet activated model of the active side with AP"),
            ));
        }
        steps.push(Step::ChooseAction(a));
    }
    let stat = StaticData {
        board,
        profiles,
        variant,
        max_turns: raw.max_turns.unwrap_or(DEFAULT_MAX_TURNS),
        sides: 2,
        cards: Vec::new(),
        scenario: Scenario::Skirmish,
        uc: None,
    };
    let turn = raw.turn.unwrap_or(1);
    if !(1..=crate::limits::MAX_TURNS).contains(&stat.max_turns) {
        let reason = format!("{} is not in 1..={}", stat.max_turns, crate::limits::MAX_TURNS);
        return Err(err("max_turns".into(), reason));
    }
    if !(1..=stat.max_turns).contains(&turn) {
        return Err(err("turn".into(), format!("turn {turn} is not in 1..={} (max_turns)", stat.max_turns)));
    }
    let tokens = raw.pass_tokens.clone().unwrap_or(vec![0, 0]);
    if tokens.len() != 2 {
        let reason = format!("{} values; pass tokens are given for the two sides", tokens.len());
        return Err(err("pass_tokens".into(), reason));
    }
    if tokens.iter().any(|&n| n > 20) {
        return Err(err("pass_tokens".into(), "more than 20 pass tokens".into()));
    }
    let mut pass_tokens = [0; MAX_SIDES];
    pass_tokens[..2].copy_from_slice(&tokens);
    let dyn_ = DynState {
        models: models.into(),
        turn,
        initiative: raw.active,
        active: raw.active,
        pass_tokens,
        activating: raw.activating,
        sequence: None,
        steps: steps.into(),
        clouds: Default::default(),
        cards_used: [0; MAX_SIDES],
        scenario: Default::default(),
        decisions: 0,
        chance_events: 0,
        uc: Default::default(),
    };
    let mut state =
        crate::validate::build_checked(stat, dyn_).map_err(|reason| err("(state)".into(), reason))?;
    if let Some(d) = raw.declared {
        let field = |name: &str| format!("declared.{name}");
        if raw.activating.is_none() {
            return Err(err(
                field("action"),
                "a declared action needs `activating` (the model that declared it)".into(),
            ));
        }
        let cell = |to: Option<[u8; 2]>| -> Result<CellIdx, DataError> {
            let [x, y] = to.ok_or_else(|| {
                err(field("to"), format!("`{}` needs a destination `to = [x, y]`", d.action))
            })?;
            if x >= state.board().width() || y >= state.board().depth() {
                return Err(err(field("to"), format!("({x}, {y}) is off the board")));
            }
            Ok(state.board().idx(x, y))
        };
        let target = || {
            d.target
                .ok_or_else(|| err(field("target"), format!("`{}` needs a `target` model index", d.action)))
        };
        let action = match d.action.as_str() {
            "move" => Action::Move { dest: cell(d.to)?, prone: d.prone },
            "shoot" => Action::Shoot { weapon: d.weapon, target: target()? },
            "charge" => Action::Charge { target: target()?, weapon: d.weapon, dest: cell(d.to)? },
            "close_combat" => Action::CloseCombat { weapon: d.weapon, target: target()? },
            "dodge" => Action::Dodge,
            other => {
                return Err(err(
                    field("action"),
                    format!("unknown action `{other}` (move, shoot, charge, close_combat, dodge)"),
                ))
            }
        };
        state.apply_action(action).map_err(|e| err(field("action"), format!("not legal here: {e}")))?;
        if state.node() == Some(&Step::ChooseNested) {
            state.apply_action(Action::NoNested).expect("declining a nested action is always legal");
        }
    }
    Ok(state)
}
