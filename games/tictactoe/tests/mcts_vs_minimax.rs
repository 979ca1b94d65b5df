//! The generic agents play tic-tac-toe without the TDE engine: MCTS built from a spec string
//! never loses to a perfect player.

use agents::{make_generic_agent, play_game, Agent, Game};
use tictactoe::{Minimax, MinimaxAgent, TicTacToe};

#[test]
fn the_rules_and_the_minimax_values_are_right() {
    let mut m = Minimax::default();
    assert_eq!(m.value(&TicTacToe::new()), 0, "perfect play draws");
    let mut s = TicTacToe::new();
    for a in [0, 3, 1, 4] {
        s.apply(a).unwrap();
    }
    assert_eq!(m.best_moves(&s), vec![2], "X completes the top row");
    assert!(s.apply(3).is_err(), "a taken cell is refused");
    s.apply(2).unwrap();
    assert_eq!(s.winner(), Some(0));
    assert_eq!(s.returns(), vec![1.0, -1.0]);
}

#[test]
fn mcts_at_5000_iterations_never_loses_to_minimax_from_either_side() {
    let (mut draws, mut wins) = (0, 0);
    for game in 0..200u64 {
        let mcts = make_generic_agent::<TicTacToe>("mcts:iters=5000,c=1.4", game).unwrap();
        let perfect: Box<dyn Agent<TicTacToe>> = Box::new(MinimaxAgent::default());
        let mcts_side = (game % 2) as usize;
        let mut players = if mcts_side == 0 { vec![mcts, perfect] } else { vec![perfect, mcts] };
        let end = play_game(TicTacToe::new(), &mut players, game, |_, _| {});
        let r = end.returns()[mcts_side];
        assert!(r >= 0.0, "game {game}: MCTS as player {mcts_side} lost: {}", end.observation(0));
        draws += (r == 0.0) as u32;
        wins += (r > 0.0) as u32;
    }
    assert_eq!(draws + wins, 200);
}
