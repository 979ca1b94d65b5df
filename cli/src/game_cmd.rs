//! `tde demo`, `tde replay`, `tde legal` and `tde fuzz`: playing, re-simulating, inspecting
//! and stress-testing games.

use agents::{play, split_agent_list};
use clap::Args;
use engine::fuzz::{FuzzReport, FuzzSettings};
use engine::record::{format_hash, GameRecord, SavedGame};
use engine::render::{describe_action, render, render_map, render_roster};
use engine::scenario::Scenario;
use engine::setup::{load_setup, new_game, GameConfig, DEFAULT_BOARD};
use engine::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::fmt::Write;
use std::io::Write as _;
use std::path::PathBuf;
use training::play::make_agent;

/// What every game is set up with, shared by the commands that build games from the configs
/// (`tde demo`, `tde play`, `tde watch`, `tde arena`...).
#[derive(Args, Clone, Debug)]
pub struct SetupOptions {
    /// Board name in configs/boards/ or a path to a .board file.
    #[arg(long, default_value = DEFAULT_BOARD)]
    pub board: String,
    /// Two crews, side A then side B: names in configs/crews/ or paths (`tde arena` takes pools
    /// too: see its help).
    #[arg(long, value_delimiter = ',', default_value = "artifacters_100,the_firm_100")]
    pub crews: Vec<String>,
    /// Rule variant in configs/rules/ (standard or narrative).
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// AI-controlled dinosaurs (the Ulaya Chronicles card AI, configs/uc/) the players place
    /// before deployment.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=engine::setup::MAX_DINOS as i64))]
    pub dinos: u8,
    /// Ambush markers (configs/uc/spawn.toml) the players place after the dinosaurs.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=engine::uc::MAX_MARKERS as i64))]
    pub ambush: u8,
}

impl Default for SetupOptions {
    /// The options as given when none is typed (clap's defaults, read from the arguments'
    /// definitions so that the two never differ).
    fn default() -> Self {
        use clap::{Args, FromArgMatches};
        let command = SetupOptions::augment_args(clap::Command::new("defaults"));
        SetupOptions::from_arg_matches(&command.get_matches_from(["defaults"])).expect("the defaults parse")
    }
}

/// Options shared by commands that build one game from the configs: its set-up, scenario and
/// whether it is solo.
#[derive(Args, Clone, Debug)]
pub struct GameOptions {
    /// Board, crews, rules, dinosaurs and ambush markers.
    #[command(flatten)]
    pub setup: SetupOptions,
    /// Scenario: a name from `tde scenarios`, 1-5, `random` (a D5 from the seed) or
    /// `skirmish` (no scenario).
    #[arg(long, default_value = "random")]
    pub scenario: String,
    /// Solo: side A's crew (the first of `--crews`) faces the dinosaurs alone, with no second
    /// crew or player; needs `--dinos`.
    #[arg(long)]
    pub solo: bool,
}

impl GameOptions {
    /// The game to build; `seed` rolls the D5 of `--scenario random`.
    pub fn config(&self, seed: u64) -> Result<GameConfig, String> {
        let setup = &self.setup;
        let [a, b] = match (self.solo, setup.crews.as_slice()) {
            (true, [a]) => [a.clone(), a.clone()],
            _ => two("--crews", &setup.crews)?,
        };
        if self.solo && setup.dinos == 0 {
            return Err("--solo needs AI dinosaurs to face: add --dinos N (1 or more)".into());
        }
        Ok(GameConfig {
            board: setup.board.clone(),
            crews: [a, b],
            rules: setup.rules.clone(),
            scenario: pick_scenario(&self.scenario, seed)?,
            dinos: setup.dinos,
            ambush: setup.ambush,
            solo: self.solo,
            ..GameConfig::default()
        })
    }
}

/// A scenario by name, or `random`: the D5 table (p.76) rolled with `seed`.
pub fn pick_scenario(name: &str, seed: u64) -> Result<Scenario, String> {
    if name.eq_ignore_ascii_case("random") {
        let roll = ChaCha8Rng::seed_from_u64(seed ^ 0x5ce7_a210).gen_range(1..=5);
        return Ok(Scenario::from_d5(roll));
    }
    Scenario::parse(name).map_err(|e| format!("--scenario: {e}"))
}

/// Exactly two comma-separated values of option `name`.
fn two(name: &str, values: &[String]) -> Result<[String; 2], String> {
    match values {
        [a, b] => Ok([a.clone(), b.clone()]),
        _ => Err(format!(
            "{name} takes exactly two values separated by a comma (side A, side B), got {}",
            values.len()
        )),
    }
}

/// `tde demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Seed for the agents and the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of the game.
    #[arg(long)]
    pub json: bool,
    /// Write the game record (JSON) to this file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// The two agents, side A then side B (one in a solo game).
    #[arg(long, value_delimiter = ',', default_value = "greedy,greedy")]
    pub agents: Vec<String>,
    #[command(flatten)]
    pub game: GameOptions,
}

/// Play one game between two built-in agents and show it.
pub fn demo(args: &DemoArgs) -> Result<String, String> {
    let config = args.game.config(args.seed)?;
    let state = new_game(&config).map_err(|e| e.to_string())?;
    let specs = split_agent_list(&args.agents.join(","));
    let [agent_a, agent_b] = match (config.solo, specs.as_slice()) {
        (true, [a]) => [a.clone(), a.clone()],
        _ => two("--agents", &specs)?,
    };
    let mut agents = vec![
        make_agent(&agent_a, args.seed.wrapping_mul(2))?,
        make_agent(&agent_b, args.seed.wrapping_mul(2) + 1)?,
    ];
    let description = format!("demo seed {} agents {} vs {}", args.seed, agents[0].name(), agents[1].name());
    let mut record = GameRecord::new(&state, description);
    // The log is printed as the game goes, so slow agents show their moves one by one.
    let mut out = std::io::stdout().lock();
    let mut say = |text: &str| {
        if !args.json {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    };
    say(&demo_header(&state, &config, [&agent_a, &agent_b]));
    let mut deployed = false;
    let mut before = state.clone();
    let summary = play(state, &mut agents, args.seed, Some(&mut record), |after, action| {
        if !deployed && matches!(action, engine::Action::Activate(_)) {
            deployed = true;
            let map = (render_map(&before), render_roster(&before));
            say(&format!("\n== Turn 1: the crews are deployed ==\n{}\n{}", map.0, map.1));
        }
        say(&format!("  {}", describe_action(&before, action)));
        for line in consequences(&before, after) {
            say(&format!("  {line}"));
        }
        if after.turn() != before.turn() && !after.is_terminal() {
            say(&format!("\n== Turn {} ==\n{}\n{}", after.turn(), render_map(after), render_roster(after)));
        }
        before = after.clone();
    });
    let end = &summary.state;
    let outcome = end.outcome();
    if let Some(path) = &args.record {
        record.save(path).map_err(|e| e.to_string())?;
    }
    let winner = outcome.winner.map_or("draw".to_string(), |w| if w == 0 { "A".into() } else { "B".into() });
    let solo = end.solo_score();
    if args.json {
        let mut obj = json!({
            "winner": winner,
            "turns": end.turn(),
            "decisions": summary.decisions,
            "chance_events": summary.chance_events,
            "final_hash": format_hash(end.state_hash()),
            "vp": [outcome.vp[0], outcome.vp[1]],
            "board": end.board().name(),
            "scenario": config.scenario.name(),
            "agents": [agent_a, agent_b],
            "seed": args.seed,
        });
        if let Some(s) = solo {
            obj["solo"] = json!({
                "score": s.total(),
                "vp": s.vp,
                "dinosaurs_taken_out": s.dinosaurs_taken_out,
                "models_lost": s.models_lost,
            });
        }
        return Ok(obj.to_string());
    }
    let result = match solo {
        Some(s) => format!(
            "solo score {} (VP {}, dinosaurs taken out {}, models lost {})",
            s.total(),
            s.vp,
            s.dinosaurs_taken_out,
            s.models_lost
        ),
        None => format!(
            "Result: {} · VP A {} B {}",
            if winner == "draw" { "draw".to_string() } else { format!("side {winner} wins") },
            outcome.vp[0],
            outcome.vp[1]
        ),
    };
    Ok(format!(
        "\n== Game over: {} ==\n{}\n{}\n{} · {result} · {} turns · {} decisions · {} chance events · final hash {}",
        end_reason(end),
        render_map(end),
        render_roster(end),
        config.scenario.title(),
        end.turn(),
        summary.decisions,
        summary.chance_events,
        format_hash(end.state_hash())
    ))
}

/// The demo's opening: scenario, board, crews with their agents, and the map's legend.
fn demo_header(state: &GameState, config: &GameConfig, agents: [&str; 2]) -> String {
    let board = state.board();
    let mut text =
        format!("{} on {} ({}x{})\n", config.scenario.title(), board.name(), board.width(), board.depth());
    for (side, crew) in config.crews.iter().enumerate().take(state.playing_sides().len()) {
        let models: Vec<u8> = (0..state.models().len() as u8)
            .filter(|&m| state.models()[m as usize].side == side as u8)
            .collect();
        let points: u32 = models.iter().map(|&m| state.profile(m).points as u32).sum();
        let _ = writeln!(
            text,
            "side {}: crew {crew} ({} models, {points} points), played by {}",
            (b'A' + side as u8) as char,
            models.len(),
            agents[side]
        );
    }
    if state.is_solo() {
        text.push_str("solo: side A alone against the AI dinosaurs (side B has no crew)\n");
    }
    text.push_str(MAP_LEGEND);
    text
}

/// What the map's characters mean.
const MAP_LEGEND: &str =
    "Map legend: letters are models (side A upper case, side B lower case, see the roster); \
    . open ground, 1-9 raised ground of that height in inches (+ above 9), ~ water, , rough ground, \
    # impassable, \" soft cover, % hard cover. Row 0 is the top line; positions are (column,row).";

/// Models that went down or out, and victory points scored, between two states.
pub(crate) fn consequences(before: &GameState, after: &GameState) -> Vec<String> {
    use engine::render::model_name;
    use engine::state::Health;
    let mut out = Vec::new();
    for (i, (a, b)) in before.models().iter().zip(after.models()).enumerate() {
        let name = || model_name(after, i as u8);
        match (a.health, b.health) {
            (Health::Conscious, Health::Down) => out.push(format!("{} goes down", name())),
            (x, Health::TakenOut) if x != Health::TakenOut => out.push(format!("{} is taken out", name())),
            (Health::Down, Health::Conscious) => out.push(format!("{} is back on its feet", name())),
            _ => {}
        }
    }
    let (va, vb) = (before.outcome().vp, after.outcome().vp);
    for side in 0..2 {
        if vb[side] != va[side] {
            let why = if after.static_data().scenario == Scenario::Skirmish {
                "for enemy models down or taken out"
            } else {
                "by the scenario's scoring"
            };
            out.push(format!(
                "side {} scores {} VP {why} (now {})",
                (b'A' + side as u8) as char,
                vb[side] - va[side],
                vb[side]
            ));
        }
    }
    out
}

/// Why a finished game ended, in words.
pub(crate) fn end_reason(end: &GameState) -> String {
    let stat = end.static_data();
    if stat.scenario == Scenario::Skirmish {
        if let Some(side) = (0..2u8).find(|&s| end.conscious_count(s) == 0) {
            return format!("side {} has no conscious model left", (b'A' + side) as char);
        }
    }
    if end.turn() >= stat.max_turns {
        format!("the last turn, turn {}, is over", end.turn())
    } else {
        format!("the {} end condition was met after turn {}", stat.scenario.title(), end.turn())
    }
}

/// `tde replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A game record written by `tde demo --record`.
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Re-simulate a record and print its final hash; the flag is false (exit code 1) when it
/// differs from the recorded one — with `--json` the object says so (`matches: false`, both
/// hashes).
pub fn replay(args: &ReplayArgs) -> Result<(String, bool), String> {
    let file = args.file.display().to_string();
    let record = GameRecord::load(&args.file).map_err(|e| e.to_string())?;
    let state = record.replay(&file).map_err(|e| e.to_string())?;
    let hash = format_hash(state.state_hash());
    let matches = hash == record.final_hash;
    if args.json {
        let object = json!({
            "final_hash": hash,
            "recorded_hash": record.final_hash,
            "actions": record.actions.len(),
            "matches": matches,
            "terminal": state.is_terminal(),
        });
        return Ok((object.to_string(), matches));
    }
    if !matches {
        let text =
            format!("{file}: replayed final hash {hash} differs from the recorded {}", record.final_hash);
        return Ok((text, false));
    }
    Ok((format!("final hash {hash} ({} actions, matches the record)", record.actions.len()), true))
}

/// `tde legal`.
#[derive(Args, Debug)]
pub struct LegalArgs {
    /// A setup file (TOML) posing a situation (format in engine/src/setup.rs), or a saved
    /// state (JSON).
    pub setup: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// List the legal actions in a set-up situation; at a chance node, every outcome with its
/// exact probability and what kind of roll or draw it is.
pub fn legal(args: &LegalArgs) -> Result<String, String> {
    let state = load_state(&args.setup)?;
    let actions = state.legal_actions();
    let chance = state.described_chance_outcomes();
    let player = match state.current_player() {
        Player::Side(s) => json!(s),
        Player::Chance => json!("chance"),
        Player::Terminal => json!("terminal"),
    };
    if args.json {
        let list: Vec<_> = if chance.is_empty() {
            actions.iter().map(|&a| json!({"action": a, "text": describe_action(&state, a)})).collect()
        } else {
            chance
                .iter()
                .map(|o| {
                    json!({
                        "action": o.action, "text": o.text(), "probability": o.probability,
                        "fraction": fraction(o.probability),
                        "kind": o.kind, "label": o.kind.label(), "roll": o.roll, "outcome": o.outcome,
                    })
                })
                .collect()
        };
        let mut object = json!({"player": player, "node": state.describe_node(), "actions": list});
        if let Some(kind) = state.chance_kind() {
            object["chance"] = json!({"kind": kind, "label": kind.label(), "outcomes": chance.len()});
        }
        return Ok(object.to_string());
    }
    let mut out = render(&state);
    match state.chance_kind() {
        Some(kind) => {
            let _ =
                writeln!(out, "\n{} outcomes of this {} (probability, outcome):", chance.len(), kind.label());
            for o in &chance {
                let _ = writeln!(out, "  {:.6}  {}", o.probability, o.text());
            }
        }
        None => {
            let _ = writeln!(out, "\n{} legal actions:", actions.len());
            for a in actions {
                let _ = writeln!(out, "  {}", describe_action(&state, a));
            }
        }
    }
    Ok(out)
}

/// A probability as the fraction it is, "3/10", when one with a denominator up to a million
/// is within 1e-13 of it (every die roll's odds are: tenths, hundredths, a deck's or a
/// table's share), else `None`. The engine's probabilities are sums of such fractions, so
/// their last binary digits may be off (0.30000000000000004).
fn fraction(p: f64) -> Option<String> {
    const MAX_DENOMINATOR: i64 = 1_000_000;
    // Continued-fraction convergents h/k of p, until one is close enough.
    let (mut h, mut h_prev, mut k, mut k_prev) = (1i64, 0i64, 0i64, 1i64);
    let mut x = p;
    for _ in 0..64 {
        let a = x.floor();
        if !(0.0..=MAX_DENOMINATOR as f64).contains(&a) {
            return None;
        }
        let a = a as i64;
        (h, h_prev) = (a * h + h_prev, h);
        (k, k_prev) = (a * k + k_prev, k);
        if k > MAX_DENOMINATOR {
            return None;
        }
        if (h as f64 / k as f64 - p).abs() < 1e-13 {
            return Some(format!("{h}/{k}"));
        }
        x = 1.0 / (x - a as f64);
    }
    None
}

/// `tde analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// A setup file (TOML) whose pending decision is a reaction choice (see `[declared]` in
    /// engine/src/setup.rs) or an active-model choice, or a saved state (JSON).
    pub setup: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Every legal option at the pending decision with its exact expected outcome over the rest
/// of the current action sequence.
pub fn analyze(args: &AnalyzeArgs) -> Result<String, String> {
    let state = load_state(&args.setup)?;
    let (side, options) = engine::analysis::analyze(&state).map_err(|e| e.to_string())?;
    if args.json {
        let list: Vec<_> = options
            .iter()
            .map(|o| {
                let mut v = serde_json::to_value(o).expect("serialisable");
                v["text"] = json!(describe_action(&state, o.action));
                v
            })
            .collect();
        return Ok(json!({"side": side, "node": state.describe_node(), "options": list}).to_string());
    }
    let mut out = format!(
        "{}
side {} chooses; expected over the rest of the sequence:
",
        render(&state),
        side
    );
    let _ =
        writeln!(out, "{:>7} {:>7} {:>7} {:>7} {:>6}  option", "P(hit)", "P(down)", "dealt", "taken", "AP");
    for o in &options {
        let _ = writeln!(
            out,
            "{:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>6.2}  {}",
            o.p_active_hit,
            o.p_active_down,
            o.expected_wounds_dealt,
            o.expected_wounds_taken,
            o.expected_ap_spent,
            describe_action(&state, o.action)
        );
    }
    Ok(out)
}

/// Load a setup file (TOML) or a saved state (JSON).
pub(crate) fn load_state(path: &std::path::Path) -> Result<GameState, String> {
    if path.extension().is_some_and(|e| e == "json") {
        SavedGame::load(path).map_err(|e| e.to_string())
    } else {
        load_setup(path).map_err(|e| e.to_string())
    }
}

/// `tde fuzz`.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Number of games (1 to 10000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub games: u32,
    /// Seed of the first game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Scenario of every game (see `tde scenarios`); by default each game draws one of the
    /// five scenarios or the skirmish.
    #[arg(long)]
    pub scenario: Option<String>,
    /// AI dinosaurs in every game; with the flag alone, 1 to 4 drawn per game.
    #[arg(long, num_args = 0..=1, default_missing_value = "0", value_parser = clap::value_parser!(u8).range(0..=engine::setup::MAX_DINOS as i64))]
    pub dinos: Option<u8>,
    /// Ambush markers in every game; with the flag alone, 1 to 3 drawn per game.
    #[arg(long, num_args = 0..=1, default_missing_value = "0", value_parser = clap::value_parser!(u8).range(0..=engine::uc::MAX_MARKERS as i64))]
    pub ambush: Option<u8>,
    /// Solo games: one crew against the dinosaurs (1 to 4 per game unless `--dinos N`).
    #[arg(long)]
    pub solo: bool,
}

/// Play random games on every board with every crew pairing, checking the invariants (and
/// that a clone applying the same action stays equal) after every step ([`engine::fuzz`]).
pub fn fuzz(args: &FuzzArgs) -> Result<(String, bool), String> {
    let pick = |seed: u64| pick_scenario(args.scenario.as_deref().unwrap_or_default(), seed);
    let settings = FuzzSettings {
        games: args.games,
        seed: args.seed,
        scenario: args.scenario.is_some().then_some(&pick as &dyn Fn(u64) -> Result<Scenario, String>),
        dinos: args.dinos,
        ambush: args.ambush,
        solo: args.solo,
    };
    let bar = training::progress_bar(!args.json, args.games as u64, "fuzz games");
    let report = engine::fuzz::fuzz(&settings, || bar.inc(1))?;
    bar.finish_and_clear();
    let FuzzReport { games, steps, violations: failed, failures, counts } = report;
    let text = if args.json {
        json!({
            "games": games,
            "steps": steps,
            "violations": failed,
            "first": failures.first(),
            "counts": counts,
        })
        .to_string()
    } else {
        let mut s = format!("{games} games, {steps} steps, {failed} violations\nevents seen in those games:");
        let counted = serde_json::to_value(&counts).expect("counts serialise");
        for (name, n) in counted.as_object().into_iter().flatten() {
            let _ = write!(s, "\n  {:<16} {n}", name.replace('_', " "));
        }
        for f in &failures {
            let _ = write!(s, "\n  {f}");
        }
        s
    };
    Ok((text, failed == 0))
}
