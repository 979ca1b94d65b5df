//! `analysis::analyze` against values computed by hand from the dice odds.

use engine::analysis::analyze;
use engine::odds::level_distribution;
use engine::setup::parse_setup;
use engine::state::CombatKind;
use engine::Action;

/// Kaneda (T4, 4 wounds) runs along an open strip; Nix (M7, Recurve 12/18 3/4) may shoot him.
const SETUP: &str = r#"
board = "BOARD"
active = 0
activating = 0

[[model]]
side = 0
profile = "kaneda"
at = [1, 3]

[[model]]
side = 1
profile = "nix"
at = [4, 0]

[declared]
action = "move"
to = [7, 3]
"#;

#[test]
fn a_reaction_shot_is_valued_exactly() {
    // An open 12" x 12" table.
    let board = std::env::temp_dir().join(format!("tde-analysis-{}.board", std::process::id()));
    let rows = vec!["0.".repeat(12); 12].join("\n");
    std::fs::write(&board, format!("name: open\nsize: 12x12\n{rows}\n")).unwrap();
    let setup = SETUP.replace("BOARD", board.to_str().unwrap());
    let state = parse_setup(&setup, "setup.toml", &engine::data::configs_dir()).unwrap();
    let (side, options) = analyze(&state).unwrap();
    assert_eq!(side, 1);
    let none = options.iter().find(|o| o.action == Action::EndReactions).unwrap();
    assert_eq!((none.p_active_hit, none.expected_wounds_dealt, none.expected_ap_spent), (0.0, 0.0, 0.0));
    // An unopposed shot at pass range with no cover: Nix needs M 7.
    let shot = options
        .iter()
        .find(|o| {
            let Action::React { kind: CombatKind::Shoot { .. }, point, .. } = o.action else { return false };
            let mut t = state.clone();
            t.apply_action(o.action).unwrap();
            let roll = t
                .dynamic()
                .sequence
                .as_ref()
                .unwrap()
                .rolls
                .iter()
                .find(|r| r.point == point)
                .copied()
                .unwrap();
            roll.attr == 7 && roll.pass_range
        })
        .expect("a clear shot at pass range");
    let [_, _, pass, nailed, feat] = level_distribution(7, false);
    assert!((shot.p_active_hit - (pass + nailed + feat)).abs() < 1e-12);
    // Each damage die wounds Kaneda when it rolls over his armour target. A Pass deals the
    // Recurve's 3, Nailed It and Feat its superior 4 (never enough to take him out).
    let k = state.profile(0);
    let target = engine::odds::armour_target(k.toughness, k.total_armour(), 0, 0, false);
    let wound = (10 - target) as f64 / 10.0;
    let expected = pass * 3.0 * wound + (nailed + feat) * 4.0 * wound;
    assert!(
        (shot.expected_wounds_dealt - expected).abs() < 1e-9,
        "{} vs {expected}",
        shot.expected_wounds_dealt
    );
    // One AP for the reaction, one back on a Feat.
    assert!((shot.expected_ap_spent - (1.0 - feat)).abs() < 1e-12);
}
