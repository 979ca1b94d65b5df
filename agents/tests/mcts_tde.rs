//! MCTS on constructed TDE situations: it finds the move that wins the game.

use agents::drowned_earth::MaterialEvaluator;
use agents::{make_agent, Agent, Game, MctsAgent, MctsConfig, Turn};
use engine::board::{Board, CellIdx, Terrain};
use engine::profile::Role;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::{DynState, Health, ModelId, Stance, Step};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// An Assassinate game on the default board and crews after a random set-up.
fn assassinate_after_setup(seed: u64) -> GameState {
    let config = GameConfig { scenario: Scenario::Assassinate, ..GameConfig::default() };
    let mut s = new_game(&config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !matches!(s.node(), Some(Step::ChooseActivation | Step::ChooseAction(_))) {
        let a = match Game::turn(&s) {
            Turn::Chance => GameState::sample_chance(&s, &mut rng).unwrap(),
            _ => {
                let legal = s.legal_actions();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        s.apply_action(a).unwrap();
    }
    s
}

/// A cell starting a free strip of open ground, 6" long and 3" wide, all at one height.
fn open_spot(board: &Board, taken: &[CellIdx]) -> CellIdx {
    (0..board.len() as CellIdx)
        .find(|&c| {
            let (x, y) = board.xy(c);
            let h = board.cell(c).height;
            (-1..=4).all(|dx: i32| {
                (-1..=1).all(|dy: i32| {
                    board.checked_idx(x as i32 + dx, y as i32 + dy).is_some_and(|n| {
                        let cell = board.cell(n);
                        cell.terrain == Terrain::Open && cell.height == h && !taken.contains(&n)
                    })
                })
            })
        })
        .expect("an open strip")
}

/// The last activation of turn 6: side 0's leader has 1 AP three inches from side 1's leader,
/// who is down. Side 1 leads 4–0, so only taking its leader out (6 VP, against 3 for leaving
/// it down) wins the game; every other model has activated and holds no AP.
fn last_chance(seed: u64) -> (GameState, ModelId) {
    let s = assassinate_after_setup(seed);
    let leader = |side: u8| {
        (0..s.models().len() as ModelId)
            .find(|&m| s.models()[m as usize].side == side && s.profile(m).role == Role::Leader)
            .unwrap()
    };
    let (attacker, victim) = (leader(0), leader(1));
    let board = s.board();
    let occupied: Vec<CellIdx> = s.models().iter().map(|m| m.cell).collect();
    let spot = open_spot(board, &occupied);
    let (x, y) = board.xy(spot);
    let victim_cell = board.idx(x + 3, y);
    let height = board.cell(spot).height;
    let mut d: DynState = s.dynamic().clone();
    for (i, m) in d.models.iter_mut().enumerate() {
        m.activated = true;
        m.ap = 0;
        // Everyone else stays out of the way, far from the two leaders.
        if i as ModelId != attacker
            && i as ModelId != victim
            && board.centre_distance(m.cell, 0, spot, 0) < 8.0
        {
            m.health = Health::TakenOut;
        }
    }
    d.models[attacker as usize].cell = spot;
    d.models[attacker as usize].z = height;
    d.models[attacker as usize].ap = 1;
    d.models[attacker as usize].activated = false;
    let v = &mut d.models[victim as usize];
    v.cell = victim_cell;
    v.z = height;
    v.health = Health::Down;
    v.wounds = 0;
    v.stance = Stance::Prone;
    d.turn = 6;
    d.scenario.vp = [0, 4, 0];
    d.active = 0;
    d.activating = Some(attacker);
    d.sequence = None;
    d.steps = vec![Step::ChooseActivation, Step::ChooseAction(attacker)].into();
    (GameState::from_parts(s.static_data().clone(), d), victim)
}

fn strikes(a: Action, victim: ModelId) -> bool {
    matches!(
        a,
        Action::Charge { target, .. } | Action::CloseCombat { target, .. } | Action::Shoot { target, .. }
            if target == victim
    )
}

#[test]
fn plain_mcts_attacks_the_downed_enemy_leader_when_that_alone_wins() {
    for seed in 0..3 {
        let (state, victim) = last_chance(seed);
        assert!(state.legal_actions().iter().any(|&a| strikes(a, victim)), "the leader is in reach");
        // Generic search: random rollouts, no ranker, no TDE knowledge but the evaluator.
        let config = MctsConfig { iterations: 1500, rollout_depth: Some(200), ..MctsConfig::default() };
        let mut agent = MctsAgent::new(config, Arc::new(MaterialEvaluator), seed);
        let choice = agent.select_action(&state);
        assert!(strikes(choice, victim), "seed {seed}: chose {choice}");
    }
}

#[test]
fn the_arena_mcts_takes_the_winning_attack_too() {
    let (state, victim) = last_chance(4);
    let mut agent = make_agent("mcts:iters=200,depth=30,rollout=scripted,width=4", 9).unwrap();
    let choice = agent.select_action(&state);
    assert!(strikes(choice, victim), "chose {choice}");
}

#[test]
fn mcts_plays_whole_scenario_games_with_legal_actions_only() {
    // `play` panics on an illegal action; small budgets keep this quick.
    for (i, scenario) in [Scenario::Couriers, Scenario::ScavengerHunt].into_iter().enumerate() {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let mut players = vec![
            make_agent("mcts:iters=8,depth=4,rollout=scripted,threads=2", i as u64).unwrap(),
            make_agent("mcts:iters=8,depth=4", 10 + i as u64).unwrap(),
        ];
        let end = agents::play(new_game(&config).unwrap(), &mut players, i as u64, None, |_, _| {}).state;
        assert!(end.is_terminal());
    }
}
