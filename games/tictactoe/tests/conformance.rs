//! Tic-tac-toe passes the conformance test every game passes (issue 41, item 5).

use agents::conformance::{check, Options};
use tictactoe::TicTacToe;

#[test]
fn tictactoe_passes_the_conformance_test() {
    let options = Options { games: 200, sorted: true, ..Options::default() };
    let report = check("tictactoe", |_| TicTacToe::new(), &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, 200);
    assert!(report.illegal_checked > 0, "{report:?}");
}
