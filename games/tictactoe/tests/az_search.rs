//! The AlphaZero-style search (Gumbel root with sequential halving, and PUCT) on tic-tac-toe:
//! with exact values it plays perfectly, with no knowledge at all it still finds wins and
//! blocks through the terminal states it reaches, it is reproducible from its seed, and the
//! state machine gives the same answer however its requests are answered.

use agents::az::{search, AzConfig, AzSearch, NetOutput, PolicyValue, RootRule};
use agents::{play_game, Agent, AzAgent, Game, RandomAgent};
use std::sync::{Arc, Mutex};
use tictactoe::{Minimax, TicTacToe};

/// Uniform priors and the exact game value: a perfect network.
struct Perfect(Mutex<Minimax>);

impl PolicyValue<TicTacToe> for Perfect {
    fn evaluate(&self, states: &[(&TicTacToe, usize)]) -> Result<Vec<NetOutput>, String> {
        let mut m = self.0.lock().unwrap();
        Ok(states
            .iter()
            .map(|(s, _)| {
                let n = s.legal_actions().len();
                NetOutput { priors: vec![1.0 / n as f32; n], value: m.value(s) as f32 }
            })
            .collect())
    }
}

/// Uniform priors and a value of 0 everywhere: a network that knows nothing.
struct Ignorant;

impl PolicyValue<TicTacToe> for Ignorant {
    fn evaluate(&self, states: &[(&TicTacToe, usize)]) -> Result<Vec<NetOutput>, String> {
        Ok(states
            .iter()
            .map(|(s, _)| {
                let n = s.legal_actions().len();
                NetOutput { priors: vec![1.0 / n as f32; n], value: 0.0 }
            })
            .collect())
    }
}

fn gumbel(sims: u32, noise: bool) -> AzConfig {
    AzConfig { simulations: sims, root: RootRule::Gumbel { considered: 16, noise }, ..AzConfig::default() }
}

#[test]
fn with_exact_values_the_search_plays_a_best_move_almost_everywhere() {
    let net = Perfect(Mutex::default());
    let mut minimax = Minimax::default();
    let positions = TicTacToe::reachable_decisions();
    assert!(positions.len() > 4000, "{} positions", positions.len());
    let puct = AzConfig {
        simulations: 64,
        root: RootRule::Puct { alpha: 0.3, fraction: 0.0 },
        ..AzConfig::default()
    };
    let (mut good_gumbel, mut good_puct, mut few, mut mass) = (0, 0, 0, 0.0);
    for (i, s) in positions.iter().enumerate() {
        let best = minimax.best_moves(s);
        // Without noise the choice is the improved policy's best action.
        good_gumbel += best.contains(&search(s, gumbel(64, false), &net, i as u64).unwrap().action) as usize;
        good_puct += best.contains(&search(s, puct.clone(), &net, i as u64).unwrap().action) as usize;
        few += best.contains(&search(s, gumbel(8, false), &net, i as u64).unwrap().action) as usize;
        // With noise (self-play) the choice is a draw, but the target favours the best moves.
        let r = search(s, gumbel(64, true), &net, i as u64).unwrap();
        let total: f32 = r.policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4, "the policy target sums to {total}");
        let on_best: f32 = r.policy.iter().filter(|p| best.contains(&p.0)).map(|p| p.1).sum();
        mass += on_best as f64;
    }
    let mass = mass / positions.len() as f64;
    assert!(mass > 0.9, "the noisy targets put {mass:.3} on best moves on average");
    let n = positions.len() as f64;
    assert!(good_gumbel as f64 >= 0.995 * n, "Gumbel, 64 simulations: {good_gumbel} of {n}");
    assert!(good_puct as f64 >= 0.995 * n, "PUCT, 64 simulations: {good_puct} of {n}");
    // Averaging deeper visits blurs exact values a little when simulations are very few.
    assert!(few as f64 >= 0.98 * positions.len() as f64, "8 simulations: {few} of {}", positions.len());
}

/// A confident policy (0.9 on the corner, cell 0) and values that differ by a hair: the
/// player who holds the centre is 0.01 better off. A noisy value head looks like this.
struct Hair;

impl PolicyValue<TicTacToe> for Hair {
    fn evaluate(&self, states: &[(&TicTacToe, usize)]) -> Result<Vec<NetOutput>, String> {
        Ok(states
            .iter()
            .map(|&(s, mover)| {
                let legal = s.legal_actions();
                let rest = 0.1 / (legal.len() - 1).max(1) as f32;
                let priors = legal.iter().map(|&a| if a == 0 { 0.9 } else { rest }).collect();
                let value = match s.cell(4) {
                    Some(owner) if owner as usize == mover => 0.01,
                    Some(_) => -0.01,
                    None => 0.0,
                };
                NetOutput { priors, value }
            })
            .collect())
    }
}

#[test]
fn min_max_rescaling_lets_a_hair_of_value_overrule_the_policy_and_fixed_bounds_do_not() {
    let empty = TicTacToe::new();
    let min_max = gumbel(32, false);
    let fixed = AzConfig { rescale_q: false, ..gumbel(32, false) };
    for seed in 0..5 {
        assert_eq!(search(&empty, min_max.clone(), &Hair, seed).unwrap().action, 4, "min-max: the centre");
        assert_eq!(
            search(&empty, fixed.clone(), &Hair, seed).unwrap().action,
            0,
            "fixed: the policy's corner"
        );
    }
    // With exact values, differences are large and fixed bounds still find the best moves.
    let net = Perfect(Mutex::default());
    let mut minimax = Minimax::default();
    let positions = TicTacToe::reachable_decisions();
    let good = positions
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            let config = AzConfig { rescale_q: false, ..gumbel(64, false) };
            minimax.best_moves(s).contains(&search(*s, config, &net, *i as u64).unwrap().action)
        })
        .count();
    assert!(good as f64 >= 0.995 * positions.len() as f64, "fixed bounds: {good} of {}", positions.len());
}

#[test]
fn without_knowledge_the_search_finds_the_win_and_the_block() {
    // X: 0 1 _ / O: 3 4 _: X to move wins at 2.
    let mut s = TicTacToe::new();
    for a in [0, 3, 1, 4] {
        s.apply(a).unwrap();
    }
    for seed in 0..20 {
        assert_eq!(search(&s, gumbel(32, false), &Ignorant, seed).unwrap().action, 2);
        let noisy = search(&s, gumbel(32, true), &Ignorant, seed).unwrap();
        assert!(noisy.policy.iter().find(|p| p.0 == 2).unwrap().1 > 0.5, "{noisy:?}");
        let puct = AzConfig {
            simulations: 64,
            root: RootRule::Puct { alpha: 0.3, fraction: 0.25 },
            ..AzConfig::default()
        };
        assert_eq!(search(&s, puct, &Ignorant, seed).unwrap().action, 2);
    }
    // O to move facing X's threat on the top row.
    let mut s = TicTacToe::new();
    for a in [0, 4, 1] {
        s.apply(a).unwrap();
    }
    for seed in 0..20 {
        assert_eq!(search(&s, gumbel(64, false), &Ignorant, seed).unwrap().action, 2, "seed {seed}");
        let r = search(&s, gumbel(64, true), &Ignorant, seed).unwrap();
        let target = r.policy.iter().find(|p| p.0 == 2).unwrap().1;
        assert!(target > 0.5, "the improved policy puts {target} on the block");
    }
}

#[test]
fn the_same_seed_gives_the_same_search_and_answers_may_come_late() {
    let mut s = TicTacToe::new();
    s.apply(4).unwrap();
    let a = search(&s, gumbel(24, true), &Ignorant, 9).unwrap();
    let b = search(&s, gumbel(24, true), &Ignorant, 9).unwrap();
    assert_eq!(a, b);
    // Repeating a request before answering it hands out the same leaf again.
    let mut machine = AzSearch::new(&s, gumbel(24, true), 9).unwrap();
    while let Some((leaf, mover)) = machine.request() {
        assert_eq!(machine.request(), Some((leaf, mover)));
        machine.supply(Ignorant.evaluate(&[(&leaf, mover)]).unwrap().remove(0)).unwrap();
    }
    assert_eq!(machine.result(), a);
    assert!(
        machine.supply(NetOutput { priors: vec![], value: 0.0 }).is_err(),
        "an unrequested answer is refused"
    );
}

#[test]
fn search_with_an_ignorant_network_beats_the_network_alone() {
    // The network alone plays its uniform prior, i.e. at random; search lifts the same
    // network's play through the terminal states it reaches.
    let net: Arc<dyn PolicyValue<TicTacToe>> = Arc::new(Ignorant);
    let (mut score, games) = (0.0, 100);
    for game in 0..games {
        let az: Box<dyn Agent<TicTacToe>> =
            Box::new(AzAgent::new(gumbel(32, false), net.clone(), "ignorant", game));
        let alone: Box<dyn Agent<TicTacToe>> = Box::new(RandomAgent::<u8>::new(game));
        let side = (game % 2) as usize;
        let mut players = if side == 0 { vec![az, alone] } else { vec![alone, az] };
        let end = play_game(TicTacToe::new(), &mut players, game, |_, _| {});
        score += (end.returns()[side] + 1.0) / 2.0;
    }
    assert!(score / games as f64 > 0.8, "search scored {:.2}", score / games as f64);
}

#[test]
fn bad_parameters_are_refused_by_name() {
    assert_eq!(AzConfig::parse("").unwrap(), AzConfig::default());
    let c = AzConfig::parse("sims=8,root=puct,alpha=0.5,fraction=0.25").unwrap();
    assert_eq!(c.root, RootRule::Puct { alpha: 0.5, fraction: 0.25 });
    assert_eq!(AzConfig::parse(&c.spec()).unwrap(), c);
    let g = AzConfig::parse("sims=8,considered=4,scale=0.02,visit=10,rescale=0").unwrap();
    assert_eq!((g.c_scale, g.c_visit, g.rescale_q), (0.02, 10.0, false));
    assert_eq!(AzConfig::parse(&g.spec()).unwrap(), g);
    for bad in [
        "root=puct,scale=0.1",
        "scale=-1",
        "sims=0",
        "sims=8,sims=9",
        "root=mcts",
        "alpha=0.3",
        "root=puct,noise=1",
        "width=3",
        "sims=8,ms=10",
        "c=-1",
        "rescale=2",
        "root=puct,rescale=0",
    ] {
        let e = AzConfig::parse(bad).unwrap_err();
        assert!(e.contains("az"), "{bad}: {e}");
    }
}

#[test]
fn with_fewer_simulations_than_considered_actions_the_search_plays_an_action_it_simulated() {
    // As in mctx: three simulations consider three actions, and the one played was simulated.
    let net = Perfect(Mutex::default());
    for (i, s) in
        TicTacToe::reachable_decisions().iter().enumerate().filter(|(_, s)| s.legal_actions().len() > 3)
    {
        let result = search(s, gumbel(3, true), &net, i as u64).unwrap();
        let visited: Vec<_> = result.visits.iter().filter(|(_, n)| *n > 0).map(|(a, _)| *a).collect();
        assert!(visited.len() <= 3, "{s:?}: {visited:?}");
        assert!(visited.contains(&result.action), "{s:?}: plays {:?}, visited {visited:?}", result.action);
    }
}
