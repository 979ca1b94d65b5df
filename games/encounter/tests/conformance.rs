//! The Encounter passes the conformance test every game passes (issue 41, item 5): chance
//! odds, sorted distinct legal actions, apply = apply_legal, clone-then-apply, refusal of
//! illegal actions, returns within the bound, and honest determinization of the hidden
//! declarations.

use agents::conformance::{check, Options};
use encounter::Encounter;

#[test]
fn the_encounter_passes_the_conformance_test() {
    let options = Options { games: 20, sorted: true, ..Options::default() };
    let report = check("encounter", |_| Encounter::start(), &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 20);
    assert!(report.chance_nodes > 500 && report.illegal_checked > 500, "{report:?}");
}
