//! Tic-tac-toe for any agent of the `agents` crate, built without the TDE engine: proof that
//! the generic agents (random, MCTS from a spec string) and the tensor encodings serve another
//! game. Includes a perfect minimax player.

use agents::{Agent, AgentKind, Game, Recipe, Registry, TensorGame, TensorShape, Turn};
use std::collections::HashMap;

/// The board: cells 0..9 row-major, each empty or marked by player 0 (X) or 1 (O).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    cells: [Option<u8>; 9],
}

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// Who marked cell `i` (0..9, row-major), if anyone.
    pub fn cell(&self, i: usize) -> Option<u8> {
        self.cells.get(i).copied().flatten()
    }

    /// The player who completed a line, if any.
    pub fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|l| match (self.cells[l[0]], self.cells[l[1]], self.cells[l[2]]) {
            (Some(a), Some(b), Some(c)) if a == b && b == c => Some(a),
            _ => None,
        })
    }

    fn marks(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// Every position reachable from the empty board where someone must move (4,520), each
    /// once, in depth-first order: the whole game for tests that learn or search it.
    pub fn reachable_decisions() -> Vec<TicTacToe> {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![TicTacToe::new()];
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) || s.turn() == Turn::Terminal {
                continue;
            }
            out.push(s);
            for a in s.legal_actions() {
                let mut next = s;
                next.apply(a).expect("a legal move applies");
                stack.push(next);
            }
        }
        out
    }
}

impl Game for TicTacToe {
    type Action = u8;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.marks() == 9 {
            Turn::Terminal
        } else {
            Turn::Player(self.marks() % 2)
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() != Turn::Terminal {
            out.extend((0..9u8).filter(|&i| self.cells[i as usize].is_none()));
        }
    }

    fn apply(&mut self, action: u8) -> Result<(), String> {
        let Turn::Player(p) = self.turn() else { return Err("the game is over".into()) };
        match self.cells.get(action as usize) {
            Some(None) => {
                self.cells[action as usize] = Some(p as u8);
                Ok(())
            }
            Some(Some(_)) => Err(format!("cell {action} is taken")),
            None => Err(format!("no cell {action}")),
        }
    }

    fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        Vec::new()
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner() {
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn observation(&self, _player: usize) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Some(0) => 'X',
                Some(_) => 'O',
                None => '.',
            })
            .collect()
    }

    fn information_state_key(&self, _player: usize) -> u64 {
        self.cells.iter().fold(0, |k, c| k * 3 + c.map_or(0, |p| p as u64 + 1))
    }

    fn determinize(&self, _player: usize, _rng: &mut dyn rand::RngCore) -> TicTacToe {
        *self
    }
}

impl TensorGame for TicTacToe {
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            planes: 3,
            depth: 3,
            width: 3,
            globals: 1,
            policy_planes: 1,
            policy_globals: 1,
            policy_size: 9,
        }
    }

    /// Planes: the observer's marks, the opponent's, the empty cells; global: 1 when the
    /// observer is X.
    fn encode_observation(&self, player: usize, planes: &mut [f32], globals: &mut [f32]) {
        for (i, c) in self.cells.iter().enumerate() {
            planes[i] = (*c == Some(player as u8)) as u8 as f32;
            planes[9 + i] = matches!(c, Some(p) if *p as usize != player) as u8 as f32;
            planes[18 + i] = c.is_none() as u8 as f32;
        }
        globals[0] = (player == 0) as u8 as f32;
    }

    fn encode_action(&self, action: u8) -> Result<(usize, Recipe), String> {
        if action >= 9 {
            return Err(format!("no cell {action}"));
        }
        Ok((action as usize, Recipe { spatial: [Some((0, action as u32)), None], global: [None, None] }))
    }
}

/// Game-theoretic values of positions for the player to move, memoised.
#[derive(Default)]
pub struct Minimax {
    memo: HashMap<TicTacToe, i8>,
}

impl Minimax {
    /// The value of `state` for the player to move: 1 win, 0 draw, −1 loss.
    pub fn value(&mut self, state: &TicTacToe) -> i8 {
        if let Some(&v) = self.memo.get(state) {
            return v;
        }
        let v = match state.turn() {
            Turn::Terminal => match state.winner() {
                // The last mover won: a loss for the player to move.
                Some(_) => -1,
                None => 0,
            },
            _ => state
                .legal_actions()
                .into_iter()
                .map(|a| {
                    let mut next = *state;
                    next.apply(a).expect("legal");
                    -self.value(&next)
                })
                .max()
                .expect("a move"),
        };
        self.memo.insert(*state, v);
        v
    }

    /// The moves that keep the best value for the player to move.
    pub fn best_moves(&mut self, state: &TicTacToe) -> Vec<u8> {
        let best = self.value(state);
        state
            .legal_actions()
            .into_iter()
            .filter(|&a| {
                let mut next = *state;
                next.apply(a).expect("legal");
                -self.value(&next) == best
            })
            .collect()
    }
}

/// A perfect player: always a best move (the first, in cell order).
#[derive(Default)]
pub struct MinimaxAgent {
    minimax: Minimax,
}

impl Agent<TicTacToe> for MinimaxAgent {
    fn name(&self) -> String {
        "minimax".into()
    }

    fn select_action(&mut self, state: &TicTacToe) -> u8 {
        self.minimax.best_moves(state)[0]
    }
}

/// Tic-tac-toe's agents: the generic ones (`random`, `mcts`, see [`agents::generic_registry`])
/// and `minimax`, the perfect player.
pub fn registry() -> Registry<TicTacToe> {
    let mut r = agents::generic_registry::<TicTacToe>();
    r.add(AgentKind {
        name: "minimax",
        about: "a perfect player: the first best move in cell order",
        params: Vec::new(),
        build: |_, _| Ok(Box::new(MinimaxAgent::default())),
    });
    r
}
