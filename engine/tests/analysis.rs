//! `analysis::analyze` against values computed by hand from the dice odds.

mod common;

use common::Position;

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

/// Kaneda armed with one weapon (and fists), on `board`, facing Hosk.
fn armed_kaneda(weapon: engine::profile::Weapon) -> std::sync::Arc<engine::profile::Profile> {
    common::custom("kaneda", |p| {
        p.weapons = vec![
            weapon,
            engine::profile::Weapon { name: "Fists".into(), range: None, damage: (1, 1), properties: vec![] },
        ];
    })
}

/// A template shot is a Shoot Action (p.51), so a Feat gives its AP back (p.30): the analysis
/// of the shot counts that AP exactly.
#[test]
fn a_template_shot_is_valued_with_its_feat_ap() {
    use engine::profile::{TemplateKind, Weapon, WeaponProperty};
    let bomb = Weapon {
        name: "Test Bomb".into(),
        range: Some((8, 14)),
        damage: (2, 3),
        properties: vec![WeaponProperty::Template(TemplateKind::Small)],
    };
    let state = Position::on(common::flat(12, 16))
        .with(0, armed_kaneda(bomb), (5, 1))
        .model(1, "hosk", (5, 8))
        .active(0);
    let (side, options) = analyze(&state).unwrap();
    assert_eq!(side, 0);
    let fire =
        options.iter().find(|o| matches!(o.action, Action::Template { .. })).expect("the template shot");
    let [_, _, pass, nailed, feat] = level_distribution(state.profile(0).marksmanship as i32, false);
    assert!((fire.expected_ap_spent - (1.0 - feat)).abs() < 1e-12, "{}", fire.expected_ap_spent);
    // Hosk (5 wounds) is under it on a hit at pass range: 2 damage on a Pass, 3 from Nailed It.
    let h = state.profile(1);
    let wound = (10 - engine::odds::armour_target(h.toughness, h.total_armour(), 0, 0, false)) as f64 / 10.0;
    let expected = pass * 2.0 * wound + (nailed + feat) * 3.0 * wound;
    assert!(
        (fire.expected_wounds_dealt - expected).abs() < 1e-9,
        "{} vs {expected}",
        fire.expected_wounds_dealt
    );
}

/// Reach (p.53): the target may fight back "but [...] will be unable to cause Damage unless they
/// too have Reach". Fighting back harmlessly can only hurt the attacker through its own
/// Blunder (1 damage to itself, p.32).
#[test]
fn a_harmless_fight_back_against_a_reach_blow_is_valued_exactly() {
    use engine::profile::{Weapon, WeaponProperty};
    let pike = Weapon {
        name: "Pike".into(),
        range: None,
        damage: (2, 3),
        properties: vec![WeaponProperty::Reach(2)],
    };
    let mut state = Position::on(common::flat(8, 12))
        .with(0, armed_kaneda(pike), (3, 1))
        .model(1, "hosk", (3, 4))
        .active(0);
    state.apply_action(Action::CloseCombat { weapon: 0, target: 1 }).unwrap();
    while state.node() == Some(&engine::state::Step::ChooseCommand) {
        state.apply_action(Action::NoCommand).unwrap();
    }
    let (side, options) = analyze(&state).unwrap();
    assert_eq!(side, 1);
    let fight = options
        .iter()
        .find(|o| matches!(o.action, Action::React { kind: CombatKind::CloseCombat { .. }, .. }))
        .expect("Hosk may fight back");
    let blunder = level_distribution(state.profile(0).cc as i32, false)[0];
    let k = state.profile(0);
    let wound = (10 - engine::odds::armour_target(k.toughness, k.total_armour(), 0, 0, false)) as f64 / 10.0;
    assert!((fight.p_active_hit - blunder).abs() < 1e-12, "{} vs {blunder}", fight.p_active_hit);
    assert!((fight.expected_wounds_dealt - blunder * wound).abs() < 1e-12);
    let none = options.iter().find(|o| o.action == Action::EndReactions).unwrap();
    assert!(fight.expected_wounds_taken < none.expected_wounds_taken, "fighting back can stop the blow");
}
