//! The `uc-cards` agent (the UC card AI playing a crew): legal to the end in every scenario
//! on both sides, reproducible from its seed, its boxes' target symbols (shoot, break line of
//! sight, cover), its activation order, its deck files' errors and its parameters.

use agents::{make_agent, play};
use engine::scenario::Scenario;
use engine::setup::{new_game, parse_setup, GameConfig};
use engine::state::{Player, Step};
use engine::{Action, GameState};
use std::path::PathBuf;

/// Crew pairs the games cycle through: starters, 150-point crews, specialists and cavalry.
const CREWS: [(&str, &str); 4] = [
    ("artifacters_100", "the_firm_100"),
    ("bondsmen_100", "militia_100"),
    ("artifacters_150_raptor_riders", "militia_150_levy"),
    ("militia_sappers_100", "the_firm_100_melee"),
];

fn game(scenario: Scenario, crews: (&str, &str)) -> GameState {
    let config = GameConfig { scenario, crews: [crews.0.into(), crews.1.into()], ..Default::default() };
    new_game(&config).unwrap()
}

/// Play `specs[0]` (side 0) against `specs[1]` (side 1) to the end; `play` panics on an
/// illegal action. Returns the final state and every action taken.
fn play_out(state: GameState, specs: [&str; 2], seed: u64) -> (GameState, Vec<Action>) {
    let mut agents =
        vec![make_agent(specs[0], seed * 2 + 1).unwrap(), make_agent(specs[1], seed * 2 + 2).unwrap()];
    let mut actions = Vec::new();
    let end = play(state, &mut agents, seed, None, |_, a| actions.push(a)).state;
    (end, actions)
}

#[test]
fn plays_legal_actions_to_the_end_in_every_scenario_on_both_sides() {
    for scenario in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL) {
        for (i, &crews) in CREWS.iter().enumerate() {
            let seed = 10 + i as u64;
            let other = if i < 2 { "random" } else { "scripted" };
            for specs in [["uc-cards", other], [other, "uc-cards"]] {
                let (end, _) = play_out(game(scenario, crews), specs, seed);
                assert!(end.is_terminal(), "{} {specs:?}", scenario.name());
            }
        }
        let (mirror, _) = play_out(game(scenario, CREWS[1]), ["uc-cards", "uc-cards"], 3);
        assert!(mirror.is_terminal(), "{}", scenario.name());
    }
}

#[test]
fn plays_legal_actions_to_the_end_with_ai_dinosaurs() {
    for (i, scenario) in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).enumerate() {
        let config = GameConfig {
            scenario,
            crews: [CREWS[i % 4].0.into(), CREWS[i % 4].1.into()],
            dinos: 3,
            ..Default::default()
        };
        for specs in [["uc-cards", "scripted"], ["random", "uc-cards"]] {
            let (end, _) = play_out(new_game(&config).unwrap(), specs, 40 + i as u64);
            assert!(end.is_terminal(), "{} {specs:?}", scenario.name());
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for scenario in [Scenario::Skirmish, Scenario::Couriers] {
        let (a, moves_a) = play_out(game(scenario, CREWS[0]), ["uc-cards", "random"], 5);
        let (b, moves_b) = play_out(game(scenario, CREWS[0]), ["uc-cards", "random"], 5);
        assert_eq!(moves_a, moves_b);
        assert_eq!(a.state_hash(), b.state_hash());
    }
    // Another agent seed draws other cards: the games part.
    let state = game(Scenario::Skirmish, CREWS[0]);
    let mut x = vec![make_agent("uc-cards", 1).unwrap(), make_agent("uc-cards", 2).unwrap()];
    let mut y = vec![make_agent("uc-cards", 3).unwrap(), make_agent("uc-cards", 4).unwrap()];
    let a = play(state.clone(), &mut x, 9, None, |_, _| {}).state;
    let b = play(state, &mut y, 9, None, |_, _| {}).state;
    assert_ne!(a.state_hash(), b.state_hash());
}

/// A temporary file that is removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("tde-uc-cards-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        std::fs::remove_file(&self.0).ok();
    }
}

/// A crew deck file whose four decks hold the one card of `boxes` (move, target, act).
fn one_card_decks(name: &str, boxes: &[(u8, &str, &str)]) -> TempFile {
    let mut text = String::from("illustrative = true\n");
    for id in ["shooter", "brawler", "leader", "beast"] {
        text.push_str(&format!("[[deck]]\nid = \"{id}\"\n[[deck.card]]\nname = \"Only\"\n"));
        for (inches, target, act) in boxes {
            text.push_str(&format!(
                "[[deck.card.box]]\nmove = {inches}\ntarget = \"{target}\"\nact = \"{act}\"\n"
            ));
        }
    }
    TempFile::new(name, &text)
}

/// A board from a character map: `.` open ground, `#` a 10" block, `h` a crate (hard cover).
fn board_file(name: &str, rows: &[&str]) -> TempFile {
    let cells: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    '#' => "a.",
                    'h' => "0h",
                    _ => "0.",
                })
                .collect()
        })
        .collect();
    let text = format!("name: {name}\nsize: {}x{}\n{}\n", rows[0].len(), rows.len(), cells.join("\n"));
    TempFile::new(&format!("{name}.board"), &text)
}

/// Nix (side 0, 2 AP, Recurve 12/18, speed 4/6) activating at `nix`, a Delver (side 1, no
/// AP, so no reactions) at `delver`, on `board`.
fn duel(board: &TempFile, nix: [u8; 2], delver: [u8; 2]) -> GameState {
    let text = format!(
        "board = \"{}\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"nix\"\nat = {nix:?}\nap = 2\nstealth = false\n\n[[model]]\nside = 1\nprofile = \"artifacter_delver\"\nat = {delver:?}\nap = 0\nstealth = false\n",
        board.path()
    );
    parse_setup(&text, "duel.toml", &engine::data::configs_dir()).unwrap()
}

/// Apply `action`, then play on (chance nodes by their first outcome, other decisions by
/// `agent`) until the active model's next action or the end of its activation.
fn step(state: &mut GameState, agent: &mut dyn agents::Agent<GameState>, action: Action) {
    state.apply_action(action).unwrap();
    loop {
        match (state.current_player(), state.node()) {
            (Player::Chance, _) => state.apply_action(Action::Chance(0)).unwrap(),
            (Player::Side(_), Some(Step::ChooseAction(_) | Step::ChooseActivation))
            | (Player::Terminal, _) => return,
            (Player::Side(_), _) => {
                let a = agent.select_action(state);
                state.apply_action(a).unwrap();
            }
        }
    }
}

#[test]
fn a_move_then_shoot_card_moves_to_a_firing_position_and_shoots() {
    // A 10" wall between Nix and the Delver; gaps above and below it.
    let mut rows = vec!["........................"; 10];
    for row in rows.iter_mut().take(8).skip(3) {
        *row = "........#...............";
    }
    let board = board_file("wall", &rows);
    let mut state = duel(&board, [2, 5], [14, 5]);
    assert!(state.model_sight(0, 1).is_none(), "the wall hides the Delver at first");
    assert!(!state.legal_actions().iter().any(|a| matches!(a, Action::Shoot { .. })));
    let decks = one_card_decks("shoot.toml", &[(6, "shoot", "shoot")]);
    for seed in 0..3 {
        let mut agent = make_agent(&format!("uc-cards:decks={}", decks.path()), seed).unwrap();
        let mut s = state.clone();
        let first = agent.select_action(&s);
        assert!(matches!(first, Action::Move { .. }), "moves first, got {first}");
        step(&mut s, agent.as_mut(), first);
        assert!(s.model_sight(0, 1).is_some(), "the move ends in sight of the Delver");
        assert_eq!(agent.select_action(&s), Action::Shoot { weapon: 0, target: 1 });
    }
    // Already in a firing position, the box shoots without moving.
    state = duel(&board, [2, 1], [14, 1]);
    let mut agent = make_agent(&format!("uc-cards:decks={}", decks.path()), 0).unwrap();
    assert_eq!(agent.select_action(&state), Action::Shoot { weapon: 0, target: 1 });
}

#[test]
fn a_break_los_box_ends_out_of_the_nearest_enemys_sight() {
    let mut rows = vec!["........................"; 10];
    for row in rows.iter_mut().take(7) {
        *row = "..........#.............";
    }
    let board = board_file("breaklos", &rows);
    let state = duel(&board, [8, 8], [16, 8]);
    assert!(state.model_sight(1, 0).is_some(), "the Delver sees Nix at first");
    let decks = one_card_decks("breaklos.toml", &[(6, "break_los", "nothing")]);
    for seed in 0..3 {
        let mut agent = make_agent(&format!("uc-cards:decks={}", decks.path()), seed).unwrap();
        let mut s = state.clone();
        let first = agent.select_action(&s);
        assert!(matches!(first, Action::Move { .. }), "moves, got {first}");
        step(&mut s, agent.as_mut(), first);
        assert!(s.model_sight(1, 0).is_none(), "the Delver no longer sees Nix");
        // The card is done: the activation ends with AP left.
        assert_eq!(agent.select_action(&s), Action::EndActivation);
    }
}

#[test]
fn a_cover_box_ends_in_cover_from_the_nearest_enemy() {
    let mut rows = vec!["........................"; 10];
    for row in rows.iter_mut().take(4).skip(1) {
        *row = ".......h................";
    }
    let board = board_file("crates", &rows);
    let state = duel(&board, [4, 5], [16, 5]);
    let open = state.model_sight(1, 0).expect("the Delver sees Nix at first");
    assert!(!open.sight.hard_cover && !open.sight.soft_cover, "Nix starts in the open");
    let decks = one_card_decks("cover.toml", &[(6, "cover", "nothing")]);
    let mut agent = make_agent(&format!("uc-cards:decks={}", decks.path()), 0).unwrap();
    let mut s = state.clone();
    let first = agent.select_action(&s);
    assert!(matches!(first, Action::Move { .. }), "moves, got {first}");
    step(&mut s, agent.as_mut(), first);
    let covered = s.model_sight(1, 0).is_none_or(|x| x.sight.hard_cover || x.sight.soft_cover);
    assert!(covered, "Nix ends in cover from the Delver");
}

#[test]
fn activates_models_left_to_right() {
    let rows = vec!["........................"; 10];
    let board = board_file("open", &rows);
    let text = format!(
        "board = \"{}\"\nactive = 0\n\n[[model]]\nside = 0\nprofile = \"nix\"\nat = [9, 2]\nap = 2\n\n[[model]]\nside = 0\nprofile = \"artifacter_delver\"\nat = [3, 7]\nap = 2\n\n[[model]]\nside = 0\nprofile = \"artifacter_delver\"\nat = [3, 4]\nap = 2\n\n[[model]]\nside = 1\nprofile = \"artifacter_delver\"\nat = [20, 5]\nap = 2\n",
        board.path()
    );
    let state = parse_setup(&text, "order.toml", &engine::data::configs_dir()).unwrap();
    assert_eq!(state.node(), Some(&Step::ChooseActivation));
    let mut agent = make_agent("uc-cards", 0).unwrap();
    // Column 3 comes first, and row 4 before row 7 in it.
    assert_eq!(agent.select_action(&state), Action::Activate(2));
}

#[test]
fn bad_deck_files_are_refused_with_the_file_and_field() {
    let bad_target = one_card_decks("bad_target.toml", &[(6, "sideways", "shoot")]);
    let err = make_agent(&format!("uc-cards:decks={}", bad_target.path()), 0).err().expect("refused");
    assert!(
        err.contains(bad_target.path()) && err.contains("box[0].target") && err.contains("sideways"),
        "{err}"
    );

    let text = std::fs::read_to_string(&bad_target.0).unwrap().replace("sideways", "shoot");
    let missing = TempFile::new("missing.toml", &text.replace("id = \"beast\"", "id = \"lurker\""));
    let err = make_agent(&format!("uc-cards:decks={}", missing.path()), 0).err().expect("refused");
    assert!(err.contains(missing.path()) && err.contains("lurker"), "{err}");

    let err = make_agent("uc-cards:decks=/nonexistent/crew_decks.toml", 0).err().expect("refused");
    assert!(err.contains("/nonexistent/crew_decks.toml") && err.contains("(file)"), "{err}");
}

#[test]
fn the_shipped_decks_load_and_parameters_are_checked() {
    let decks = agents::uc_cards::deck::CrewDecks::shipped().unwrap();
    for role in agents::uc_cards::deck::CrewRole::ALL {
        let n = decks.deck(role).cards.len();
        assert!((6..=10).contains(&n), "{}: {n} cards", role.id());
    }
    assert_eq!(make_agent("uc-cards", 1).unwrap().name(), "uc-cards");
    let err = make_agent("uc-cards:speed=3", 1).err().expect("refused");
    assert!(err.contains("speed"), "{err}");
    assert!(make_agent("uc-cards:decks=", 1).is_err());
}

#[test]
fn roles_come_from_the_profiles() {
    use agents::uc_cards::deck::{is_elite, CrewRole};
    let board = board_file("roles", &["........................"; 10]);
    let mut text = format!("board = \"{}\"\nactive = 0\n", board.path());
    let profiles = ["artifacter_captain", "nix", "slethssk", "artifacter_medic", "yuttaraptor"];
    for (i, p) in profiles.iter().enumerate() {
        text.push_str(&format!("\n[[model]]\nside = 0\nprofile = \"{p}\"\nat = [{}, 2]\n", 2 + 3 * i));
    }
    text.push_str("\n[[model]]\nside = 1\nprofile = \"artifacter_delver\"\nat = [20, 8]\n");
    let state = parse_setup(&text, "roles.toml", &engine::data::configs_dir()).unwrap();
    let roles: Vec<CrewRole> = (0..5).map(|m| CrewRole::of(&state, m)).collect();
    // The leader; a bow at M7 over CC6; a scattergun at M5 under CC7; a pistol at M5 over
    // CC4; a beast.
    assert_eq!(
        roles,
        [CrewRole::Leader, CrewRole::Shooter, CrewRole::Brawler, CrewRole::Shooter, CrewRole::Beast]
    );
    assert!(is_elite(&state, 0) && !(1..5).any(|m| is_elite(&state, m)));
}

#[test]
fn rarely_loses_to_random_play() {
    let (mut won, mut lost) = (0, 0);
    for g in 0..40u64 {
        let scenario = Scenario::ALL[g as usize % Scenario::ALL.len()];
        let me = (g / 5 % 2) as usize;
        let mut specs = ["random"; 2];
        specs[me] = "uc-cards";
        let (end, _) = play_out(game(scenario, CREWS[g as usize / 10]), specs, 500 + g);
        match end.outcome().winner {
            Some(w) if w as usize == me => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    assert!(won >= 5 && lost * 3 <= won, "won {won}, lost {lost} of 40 against random");
}

/// Play side 0's decisions with NoNested / NoFirefight (or its first legal action) until
/// side 1 must choose a reaction.
fn to_reaction(state: &mut GameState) {
    loop {
        match (state.current_player(), state.node()) {
            (Player::Chance, _) => state.apply_action(Action::Chance(0)).unwrap(),
            (Player::Side(1), Some(Step::ChooseReaction)) => return,
            (Player::Side(_), _) => {
                let legal = state.legal_actions();
                let a = [Action::NoNested, Action::NoFirefight]
                    .into_iter()
                    .find(|a| legal.contains(a))
                    .unwrap_or(legal[0]);
                state.apply_action(a).unwrap();
            }
            (Player::Terminal, _) => panic!("the game ended before a reaction"),
        }
    }
}

#[test]
fn reacts_to_movement_by_role() {
    // Kaneda walks into the open past Nix (a shooter, Recurve 12/18) and Slethssk (a brawler
    // with a Scattergun): only Nix shoots, at a point within her pass range.
    let configs = engine::data::configs_dir();
    let text = std::fs::read_to_string(configs.join("setups/reaction_timing_cover.toml")).unwrap();
    let board = configs.join("studies/reaction_lanes.board");
    let text = text.replace("configs/studies/reaction_lanes.board", board.to_str().unwrap());
    let mut state = parse_setup(&text, "reaction_timing_cover.toml", &configs).unwrap();
    to_reaction(&mut state);
    let legal = state.legal_actions();
    let shoots = |m: u8| {
        legal.iter().any(|a| matches!(a, Action::React { model, kind: engine::state::CombatKind::Shoot { .. }, .. } if *model == m))
    };
    assert!(shoots(3) && shoots(4), "both could shoot");
    let mut agent = make_agent("uc-cards", 0).unwrap();
    let first = agent.select_action(&state);
    let Action::React { model: 3, kind: engine::state::CombatKind::Shoot { .. }, point } = first else {
        panic!("Nix shoots first, got {first}")
    };
    let seq = state.dynamic().sequence.clone().unwrap();
    let at = seq.path.points[point as usize - 1];
    let nix = state.models()[3];
    assert!(state.board().edge_distance(nix.cell, nix.z, at.cell, at.z) <= 12.0);
    state.apply_action(first).unwrap();
    to_reaction_or_not(&mut state);
    assert_eq!(state.node(), Some(&Step::ChooseReaction));
    assert!(state.legal_actions().iter().any(|a| matches!(a, Action::React { model: 4, .. })));
    assert_eq!(agent.select_action(&state), Action::EndReactions, "Slethssk does not shoot");
}

/// Resolve chance nodes only.
fn to_reaction_or_not(state: &mut GameState) {
    while state.current_player() == Player::Chance {
        state.apply_action(Action::Chance(0)).unwrap();
    }
}

#[test]
fn shoots_back_when_shot_at() {
    // Nix (side 0) shoots the Firm Lookout (Long Rifle) in the open: it shoots back.
    let board = board_file("range", &["........................"; 10]);
    let text = format!(
        "board = \"{}\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"nix\"\nat = [2, 5]\nap = 2\nstealth = false\n\n[[model]]\nside = 1\nprofile = \"firm_lookout\"\nat = [12, 5]\nap = 2\nstealth = false\n\n[declared]\naction = \"shoot\"\ntarget = 1\nweapon = 0\n",
        board.path()
    );
    let mut state = parse_setup(&text, "shot_at.toml", &engine::data::configs_dir()).unwrap();
    to_reaction(&mut state);
    let legal = state.legal_actions();
    assert!(legal
        .iter()
        .any(|a| matches!(a, Action::React { model: 1, kind: engine::state::CombatKind::Dodge, .. })));
    let mut agent = make_agent("uc-cards", 0).unwrap();
    let a = agent.select_action(&state);
    assert!(
        matches!(a, Action::React { model: 1, kind: engine::state::CombatKind::Shoot { .. }, .. }),
        "shoots back, got {a}"
    );
}

#[test]
fn recognises_active_ambush_markers_when_a_box_has_nothing_to_act_on() {
    let mut recognised = 0;
    for seed in 0..8u64 {
        let config = GameConfig {
            scenario: Scenario::Skirmish,
            crews: [CREWS[0].0.into(), CREWS[0].1.into()],
            ambush: 6,
            ..Default::default()
        };
        let (end, actions) = play_out(new_game(&config).unwrap(), ["uc-cards", "uc-cards"], 60 + seed);
        assert!(end.is_terminal());
        recognised += actions
            .iter()
            .filter(|a| {
                matches!(a, Action::Interact { kind: engine::state::InteractKind::Recognise { .. }, .. })
            })
            .count();
    }
    assert!(recognised > 0, "no uc-cards model recognised an active marker in 8 games");
}
