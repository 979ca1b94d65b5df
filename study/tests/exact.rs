//! The exact table of a reaction-timing study against `tde analyze` and the rulebook.

use engine::setup::{load_setup, parse_setup};
use engine::Action;
use std::path::Path;
use study::{exact_table, situation_from_text, StudyError};

fn setup() -> engine::GameState {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/setups/reaction_timing.toml");
    load_setup(&path).expect("the shipped setup loads")
}

#[test]
fn offered_points_have_the_values_analyze_gives() {
    let state = setup();
    let (side, options) = engine::analysis::analyze(&state).unwrap();
    let table = exact_table(&state, 0.5).unwrap();
    assert_eq!(table.side, side);
    let offered: Vec<_> = table.rows.iter().filter(|r| r.offered).collect();
    let reactions: Vec<_> = options.iter().filter(|o| matches!(o.action, Action::React { .. })).collect();
    assert_eq!(offered.len(), reactions.len(), "every offered point is one analyze option");
    for o in reactions {
        let row = offered.iter().find(|r| r.action == o.action).expect("analyze's option is in the table");
        assert_eq!(&row.exact, o, "{:?}", o.action);
    }
    let hold = options.iter().find(|o| o.action == Action::EndReactions).unwrap();
    assert_eq!(&table.hold, hold);
}

#[test]
fn every_point_of_the_path_is_studied_and_equivalent_points_agree() {
    let state = setup();
    let table = exact_table(&state, 0.5).unwrap();
    assert!(
        table.rows.len() > table.rows.iter().filter(|r| r.offered).count(),
        "thinned points are shown too"
    );
    for r in table.rows.iter().filter(|r| !r.offered) {
        let k = r.same_as.expect("a thinned point names its offered point");
        let twin = table
            .rows
            .iter()
            .find(|o| o.offered && o.point == k && o.reactor == r.reactor && o.kind == r.kind)
            .expect("the offered point is in the table");
        assert!(twin.point < r.point);
        // Points of one class have the same odds over the sequence (docs/rulings.md).
        let (a, b) = (&twin.exact, &r.exact);
        assert!((a.p_active_hit - b.p_active_hit).abs() < 1e-12, "{:?} vs {:?}", twin.action, r.action);
        assert!((a.expected_wounds_dealt - b.expected_wounds_dealt).abs() < 1e-12);
        assert!((a.expected_ap_spent - b.expected_ap_spent).abs() < 1e-12);
        // And the same once the mover answers (ruling 147): nothing that follows differs.
        assert!((twin.net_ap(0.5) - r.net_ap(0.5)).abs() < 1e-12, "{:?} vs {:?}", twin.action, r.action);
        assert_eq!(twin.answer.as_ref().map(|a| a.action), r.answer.as_ref().map(|a| a.action));
    }
    // The table covers each reactor and kind at every point where it sees the mover.
    assert_eq!(table.path.len(), 7, "Kaneda's path from (1,3) to (7,3): the start and six cells");
}

#[test]
fn a_setup_without_a_declared_action_is_refused() {
    let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let text = "board = \"sunken_plaza\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"kaneda\"\nat = [1, 3]\n\n[[model]]\nside = 1\nprofile = \"nix\"\nat = [5, 5]\n";
    let state = parse_setup(text, "no_declared.toml", &configs).unwrap();
    let err = exact_table(&state, 0.5).unwrap_err();
    assert!(matches!(err, StudyError::NoDeclaredAction(_)));
    let err = situation_from_text(text, "no_declared.toml", &configs).unwrap_err();
    assert!(matches!(err, StudyError::NoDeclaredAction(_)));
    assert!(err.to_string().contains("[declared]"), "{err}");
}

#[test]
fn a_setup_where_nobody_can_react_is_refused() {
    let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    // Nix has no AP left: nobody can react to Kaneda's move.
    let text = "board = \"sunken_plaza\"\nactive = 0\nactivating = 0\n\n[[model]]\nside = 0\nprofile = \"kaneda\"\nat = [1, 3]\n\n[[model]]\nside = 1\nprofile = \"nix\"\nat = [5, 5]\nap = 0\n\n[declared]\naction = \"move\"\nto = [7, 3]\n";
    let err = situation_from_text(text, "no_reactor.toml", &configs).unwrap_err();
    assert!(matches!(err, StudyError::NoReactor(_)), "{err}");
    assert!(err.to_string().contains("no model can react"), "{err}");
}
