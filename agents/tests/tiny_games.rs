//! Two tiny games implement the same [`Game`] trait as TDE, proving the agents depend on the
//! interface only: MCTS solves a subtraction game with a chance node, and never reads a
//! hidden coin it is not allowed to see.

use agents::az::{search, AzConfig, NetOutput, PolicyValue};
use agents::{play_game, Agent, Game, MctsAgent, MctsConfig, NeutralEvaluator, RandomAgent, Turn};
use rand::{Rng, RngCore};
use std::sync::Arc;

/// Nim with one pile whose size is rolled first (5 to 8, uniformly); players alternately take
/// 1, 2 or 3; whoever takes the last counter wins. The player to move wins exactly when the
/// pile is not a multiple of 4, by leaving a multiple of 4.
#[derive(Clone, Debug, PartialEq)]
struct ChancyNim {
    pile: Option<u8>,
    to_move: usize,
    winner: Option<usize>,
}

impl ChancyNim {
    fn new() -> ChancyNim {
        ChancyNim { pile: None, to_move: 0, winner: None }
    }

    fn at(pile: u8, to_move: usize) -> ChancyNim {
        ChancyNim { pile: Some(pile), to_move, winner: None }
    }
}

impl Game for ChancyNim {
    type Action = u8;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.pile, self.winner) {
            (_, Some(_)) => Turn::Terminal,
            (None, _) => Turn::Chance,
            (Some(_), None) => Turn::Player(self.to_move),
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.turn() {
            Turn::Chance => out.extend(5..=8),
            Turn::Player(_) => out.extend(1..=3.min(self.pile.unwrap())),
            Turn::Terminal => {}
        }
    }

    fn apply(&mut self, a: u8) -> Result<(), String> {
        if !self.legal_actions().contains(&a) {
            return Err(format!("illegal {a}"));
        }
        match self.pile {
            None => self.pile = Some(a),
            Some(p) => {
                self.pile = Some(p - a);
                if p == a {
                    self.winner = Some(self.to_move);
                }
                self.to_move = 1 - self.to_move;
            }
        }
        Ok(())
    }

    fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        if self.turn() == Turn::Chance {
            (5..=8).map(|n| (n, 0.25)).collect()
        } else {
            Vec::new()
        }
    }

    fn returns(&self) -> Vec<f64> {
        match self.winner {
            Some(w) => (0..2).map(|p| if p == w { 1.0 } else { -1.0 }).collect(),
            None => vec![0.0, 0.0],
        }
    }

    fn observation(&self, _player: usize) -> String {
        format!("{self:?}")
    }

    fn information_state_key(&self, _player: usize) -> u64 {
        self.pile.map_or(99, u64::from) * 2 + self.to_move as u64
    }

    fn determinize(&self, _player: usize, _rng: &mut dyn RngCore) -> ChancyNim {
        self.clone()
    }
}

fn mcts<G: Game>(iters: u32, seed: u64) -> MctsAgent<G> {
    let config = MctsConfig { iterations: iters, ..MctsConfig::default() };
    MctsAgent::new(config, Arc::new(NeutralEvaluator), seed)
}

#[test]
fn mcts_finds_the_winning_move_in_every_winning_nim_position() {
    for pile in 1..=8u8 {
        if pile % 4 == 0 {
            continue;
        }
        for to_move in 0..2 {
            let state = ChancyNim::at(pile, to_move);
            let mut agent = mcts(3000, pile as u64);
            assert_eq!(agent.select_action(&state), pile % 4, "pile {pile}: leave a multiple of 4");
        }
    }
}

#[test]
fn mcts_wins_every_winnable_nim_game_against_random_play() {
    // After the roll (5, 6, 7: a win for the first player; 8: a loss against perfect play),
    // MCTS as the first player must win whenever the pile is not a multiple of 4.
    let mut won = 0;
    let mut winnable = 0;
    for seed in 0..40 {
        let mut agents: Vec<Box<dyn Agent<ChancyNim>>> =
            vec![Box::new(mcts(800, seed)), Box::new(RandomAgent::<u8>::new(seed))];
        let mut first_pile = None;
        let end = play_game(ChancyNim::new(), &mut agents, seed, |s, _| {
            first_pile.get_or_insert(s.pile.unwrap());
        });
        if first_pile.unwrap() % 4 != 0 {
            winnable += 1;
            won += usize::from(end.winner == Some(0));
        }
    }
    assert!(winnable > 20);
    assert_eq!(won, winnable, "MCTS lost a won game");
}

/// A hidden coin (heads with probability 0.7) that player 1 sees and player 0 does not;
/// player 0 then calls it and wins on a correct call.
#[derive(Clone, Debug, PartialEq)]
struct HiddenCoin {
    coin: Option<bool>,
    call: Option<bool>,
}

impl Game for HiddenCoin {
    type Action = bool;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.coin, self.call) {
            (None, _) => Turn::Chance,
            (Some(_), None) => Turn::Player(0),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<bool>) {
        out.clear();
        if self.turn() != Turn::Terminal {
            out.extend([false, true]);
        }
    }

    fn apply(&mut self, a: bool) -> Result<(), String> {
        match self.turn() {
            Turn::Chance => self.coin = Some(a),
            Turn::Player(_) => self.call = Some(a),
            Turn::Terminal => return Err("over".into()),
        }
        Ok(())
    }

    fn chance_outcomes(&self) -> Vec<(bool, f64)> {
        vec![(false, 0.3), (true, 0.7)]
    }

    fn returns(&self) -> Vec<f64> {
        match (self.coin, self.call) {
            (Some(c), Some(g)) if c == g => vec![1.0, -1.0],
            (Some(_), Some(_)) => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn observation(&self, player: usize) -> String {
        if player == 1 {
            format!("{self:?}")
        } else {
            format!("call {:?}", self.call)
        }
    }

    fn information_state_key(&self, player: usize) -> u64 {
        let coin = if player == 1 { self.coin.map_or(2, u64::from) } else { 3 };
        coin * 3 + self.call.map_or(2, u64::from)
    }

    fn determinize(&self, player: usize, rng: &mut dyn RngCore) -> HiddenCoin {
        if player == 1 || self.coin.is_none() {
            return self.clone();
        }
        HiddenCoin { coin: Some(rng.gen_bool(0.7)), call: self.call }
    }
}

#[test]
fn mcts_never_reads_the_hidden_coin() {
    // Whatever the coin really is, an honest search calls the likelier side, heads; a search
    // that peeked would call tails whenever the coin is tails.
    for seed in 0..10 {
        for coin in [false, true] {
            let state = HiddenCoin { coin: Some(coin), call: None };
            assert!(mcts::<HiddenCoin>(400, seed).select_action(&state), "seed {seed}, coin {coin}");
        }
    }
}

#[test]
fn root_parallel_search_sums_the_trees_and_stays_reproducible() {
    let state = ChancyNim::at(7, 0);
    let config = MctsConfig { iterations: 2000, threads: 2, ..MctsConfig::default() };
    let mut a = MctsAgent::new(config.clone(), Arc::new(NeutralEvaluator), 5);
    let mut b = MctsAgent::new(config, Arc::new(NeutralEvaluator), 5);
    let va = a.search(&state);
    assert_eq!(va, b.search(&state), "same seed, same counts");
    assert_eq!(va.values().sum::<u32>(), 2000);
    assert_eq!(va.iter().max_by_key(|(_, &n)| n).map(|(&m, _)| m), Some(3));
}

#[test]
fn tree_footprint_counts_every_node_and_children_map() {
    // Three iterations from a pile of 3 add the root's three children (each tried once before
    // any is tried again): four nodes, and one children map, a B-tree leaf of 11 (edge, child)
    // entries after its parent pointer, index and length.
    let footprint = mcts::<ChancyNim>(3, 1).tree_footprint(&ChancyNim::at(3, 0));
    assert_eq!(footprint.nodes, 4);
    let map = footprint.bytes - 4 * footprint.node_size;
    let entries = 11 * (std::mem::size_of::<(u8, u8)>() + std::mem::size_of::<u32>());
    assert!((entries..=entries + 16).contains(&map), "{footprint:?}");
}

#[test]
fn mcts_parameters_are_parsed_and_bad_ones_named() {
    let c = MctsConfig::parse("iters=800,c=1.2,depth=5,threads=2").unwrap();
    assert_eq!((c.iterations, c.c, c.rollout_depth, c.threads), (800, 1.2, Some(5), 2));
    assert_eq!(MctsConfig::parse("ms=50").unwrap().millis, Some(50));
    assert!(MctsConfig::parse("iters=0").unwrap_err().contains("iters"));
    assert!(MctsConfig::parse("speed=3").unwrap_err().contains("speed"));
    assert!(MctsConfig::parse("c").unwrap_err().contains("key=value"));
    assert_eq!(MctsConfig::parse(&c.spec()["mcts:".len()..]).unwrap(), c);
}

#[test]
fn duplicated_conflicting_and_meaningless_mcts_parameters_are_refused() {
    assert!(MctsConfig::parse("iters=10,iters=20").unwrap_err().contains("twice"));
    assert!(MctsConfig::parse("iters=5,ms=5").unwrap_err().contains("not both"));
    assert!(MctsConfig::parse("depth=0").unwrap_err().contains("depth"));
    assert!(MctsConfig::parse("threads=100000").unwrap_err().contains("threads"));
    assert!(MctsConfig::parse("c=nan").unwrap_err().contains("`c`"));
    assert_eq!(MctsConfig::default().rollout_depth, None, "rollouts play to the end unless told");
}

/// Player 0 may take +0.2 at once, or play on: a coin is then tossed that player 0 never
/// sees, and player 0 calls it (+1 right, −1 wrong). Played honestly, playing on is worth 0.
#[derive(Clone, Debug, PartialEq)]
struct TakeOrGuess {
    took: Option<bool>,
    coin: Option<bool>,
    call: Option<bool>,
}

impl Game for TakeOrGuess {
    type Action = bool;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.took, self.coin, self.call) {
            (None, ..) => Turn::Player(0),
            (Some(true), ..) => Turn::Terminal,
            (Some(false), None, _) => Turn::Chance,
            (Some(false), Some(_), None) => Turn::Player(0),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<bool>) {
        out.clear();
        if self.turn() != Turn::Terminal {
            out.extend([false, true]);
        }
    }

    fn apply(&mut self, a: bool) -> Result<(), String> {
        match (self.turn(), self.took) {
            (Turn::Player(_), None) => self.took = Some(a),
            (Turn::Chance, _) => self.coin = Some(a),
            (Turn::Player(_), Some(_)) => self.call = Some(a),
            (Turn::Terminal, _) => return Err("over".into()),
        }
        Ok(())
    }

    fn chance_outcomes(&self) -> Vec<(bool, f64)> {
        vec![(false, 0.5), (true, 0.5)]
    }

    fn returns(&self) -> Vec<f64> {
        match (self.took, self.coin, self.call) {
            (Some(true), ..) => vec![0.2, -0.2],
            (_, Some(c), Some(g)) if c == g => vec![1.0, -1.0],
            (_, Some(_), Some(_)) => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn is_visible(&self, player: usize) -> bool {
        // Player 0 never sees the toss.
        !(self.turn() == Turn::Chance && player == 0)
    }

    fn observation(&self, player: usize) -> String {
        if player == 0 {
            format!("took {:?} call {:?}", self.took, self.call)
        } else {
            format!("{self:?}")
        }
    }

    fn information_state_key(&self, player: usize) -> u64 {
        let coin = if player == 0 { 3 } else { self.coin.map_or(2, u64::from) };
        (self.took.map_or(2, u64::from) * 4 + coin) * 3 + self.call.map_or(2, u64::from)
    }

    fn determinize(&self, player: usize, rng: &mut dyn RngCore) -> TakeOrGuess {
        match (player, self.coin) {
            (0, Some(_)) => TakeOrGuess { coin: Some(rng.gen_bool(0.5)), ..self.clone() },
            _ => self.clone(),
        }
    }
}

#[test]
fn mcts_takes_the_sure_gain_instead_of_guessing_a_coin_it_never_sees() {
    let start = TakeOrGuess { took: None, coin: None, call: None };
    for seed in 0..10 {
        assert!(mcts::<TakeOrGuess>(3000, seed).select_action(&start), "seed {seed}: it played on");
    }
}

/// Player 0 takes a sure +0.2, or gambles: a die then wins (+1) with odds 0.3 and loses (−1)
/// with 0.7, worth −0.4, after which player 1 has one move to make (a leaf a network judges).
#[derive(Clone, Debug, PartialEq)]
struct SafeOrGamble {
    gamble: Option<bool>,
    won: Option<bool>,
    done: bool,
}

impl Game for SafeOrGamble {
    type Action = bool;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.gamble, self.won, self.done) {
            (None, ..) => Turn::Player(0),
            (Some(false), ..) | (_, _, true) => Turn::Terminal,
            (Some(true), None, _) => Turn::Chance,
            (Some(true), Some(_), false) => Turn::Player(1),
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<bool>) {
        out.clear();
        match self.turn() {
            Turn::Player(0) | Turn::Chance => out.extend([false, true]),
            Turn::Player(_) => out.push(true),
            Turn::Terminal => {}
        }
    }

    fn apply(&mut self, a: bool) -> Result<(), String> {
        match self.turn() {
            Turn::Player(0) => self.gamble = Some(a),
            Turn::Chance => self.won = Some(a),
            // Player 1 may only end the game (the conformance test caught this accepting `false`).
            Turn::Player(_) if a => self.done = true,
            Turn::Player(_) => return Err("player 1 may only end the game (true)".into()),
            Turn::Terminal => return Err("over".into()),
        }
        Ok(())
    }

    fn chance_outcomes(&self) -> Vec<(bool, f64)> {
        vec![(true, 0.3), (false, 0.7)]
    }

    fn returns(&self) -> Vec<f64> {
        let v = match (self.gamble, self.won) {
            (Some(false), _) => 0.2,
            (Some(true), Some(true)) => 1.0,
            (Some(true), Some(false)) => -1.0,
            _ => 0.0,
        };
        vec![v, -v]
    }

    fn observation(&self, _player: usize) -> String {
        format!("{self:?}")
    }

    fn information_state_key(&self, _player: usize) -> u64 {
        (self.gamble.map_or(2, u64::from) * 3 + self.won.map_or(2, u64::from)) * 2 + self.done as u64
    }

    fn determinize(&self, _player: usize, _rng: &mut dyn RngCore) -> SafeOrGamble {
        self.clone()
    }
}

/// Uniform priors and the exact value of the game for the mover once the die is cast.
struct Exact;

impl PolicyValue<SafeOrGamble> for Exact {
    fn evaluate(&self, states: &[(&SafeOrGamble, usize)]) -> Result<Vec<NetOutput>, String> {
        Ok(states
            .iter()
            .map(|&(s, mover)| {
                let n = s.legal_actions().len();
                let value = match s.won {
                    Some(true) => 1.0,
                    Some(false) => -1.0,
                    None => 0.0,
                } * if mover == 0 { 1.0 } else { -1.0 };
                NetOutput { priors: vec![1.0 / n as f32; n], value }
            })
            .collect())
    }
}

#[test]
fn averaging_the_chance_node_below_a_root_action_values_the_gamble_at_its_odds() {
    let start = SafeOrGamble { gamble: None, won: None, done: false };
    let sampled = AzConfig { simulations: 2, rescale_q: false, ..AzConfig::default() };
    let averaged = AzConfig { chance_fanout: 2, simulations: 3, ..sampled.clone() };
    let gambles = |config: &AzConfig| {
        (0..200).filter(|&seed| search(&start, config.clone(), &Exact, seed).unwrap().action).count()
    };
    // One sampled roll makes the gamble look like a sure win 30% of the time.
    let lucky = gambles(&sampled);
    assert!((30..=100).contains(&lucky), "sampling one roll gambles in {lucky} of 200 searches");
    // Both outcomes weighted by their odds: −0.4 against a sure +0.2, every time.
    assert_eq!(gambles(&averaged), 0, "averaged over the roll, the search never gambles");
    let result = search(&start, averaged, &Exact, 7).unwrap();
    let visits: Vec<u32> = result.visits.iter().map(|v| v.1).collect();
    assert_eq!(visits, [1, 1], "the averaged roll is one visit of the gamble");
    assert!((result.policy[1].1 as f64) < 0.5, "the gamble's target share falls: {:?}", result.policy);
    assert_eq!(result.simulations, 3, "two judged outcomes and the sure gain: three simulations");
}

#[test]
fn chance_averaging_is_a_parameter_of_az_with_its_range_checked() {
    assert_eq!(AzConfig::parse("chance=4").unwrap().chance_fanout, 4);
    assert_eq!(AzConfig::default().chance_fanout, 0);
    let err = AzConfig::parse("chance=65").unwrap_err();
    assert!(err.contains("chance"), "{err}");
}

/// Orders Nim's takes largest first and counts how often it is asked.
struct TakeMostFirst(Arc<std::sync::atomic::AtomicUsize>);

impl agents::mcts::Ranker<ChancyNim> for TakeMostFirst {
    fn rank(&mut self, _state: &ChancyNim, legal: &mut Vec<u8>) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        legal.sort_by(|a, b| b.cmp(a));
    }
}

#[test]
fn a_root_ranker_is_asked_once_a_search_and_bounds_the_roots_candidates() {
    // Pile 6: taking 2 wins. With one candidate the search can only take the ranker's 3; with
    // all three it still finds the win, and the ranker is asked once per searched move.
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let state = ChancyNim::at(6, 0);
    for (width, expected) in [(1, 3), (3, 2)] {
        let config = MctsConfig { iterations: 2000, width, ..MctsConfig::default() };
        let mut agent = MctsAgent::new(config, Arc::new(NeutralEvaluator), 5)
            .with_root_ranker(Box::new(TakeMostFirst(calls.clone())), "most");
        assert!(agent.name().ends_with(",root=most"), "{}", agent.name());
        assert_eq!(agent.select_action(&state), expected, "width {width}");
        let visits = agent.last_search().unwrap();
        assert_eq!(visits.len(), width, "only the ranked candidates are searched: {visits:?}");
    }
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2);
}

/// Orders Nim's takes largest first and is as sure of its first as it is told.
struct SureOfTheMost(f64);

impl agents::mcts::Ranker<ChancyNim> for SureOfTheMost {
    fn rank(&mut self, _state: &ChancyNim, legal: &mut Vec<u8>) {
        legal.sort_by(|a, b| b.cmp(a));
    }

    fn top_probability(&self) -> Option<f64> {
        Some(self.0)
    }
}

#[test]
fn a_move_the_root_ranker_is_sure_of_is_played_without_searching() {
    // Pile 6: taking 2 wins, the ranker prefers 3. At or above `sure` its 3 is played at once
    // (one visit); below it, or without `sure`, the search runs and finds the 2.
    let state = ChancyNim::at(6, 0);
    for (sure, told, expected, visits) in [
        (Some(0.9), 0.95, 3, 1.0),
        (Some(0.9), 0.9, 3, 1.0),
        (Some(0.9), 0.85, 2, 2000.0),
        (None, 0.99, 2, 2000.0),
    ] {
        let config = MctsConfig { iterations: 2000, width: 3, sure, ..MctsConfig::default() };
        let mut agent = MctsAgent::new(config, Arc::new(NeutralEvaluator), 5)
            .with_root_ranker(Box::new(SureOfTheMost(told)), "sure");
        assert_eq!(agent.select_action(&state), expected, "sure {sure:?}, ranker at {told}");
        let searched: f64 = agent.last_search().unwrap().iter().map(|(_, n)| n).sum();
        assert_eq!(searched, visits, "sure {sure:?}, ranker at {told}");
    }
    assert_eq!(MctsConfig::parse("sure=0.97").unwrap().sure, Some(0.97));
    assert!(MctsConfig::parse("sure=0.97").unwrap().spec().ends_with(",sure=0.97"));
    assert!(MctsConfig::parse("sure=0.2").unwrap_err().contains("sure"));
}

#[test]
fn the_tiny_games_pass_the_conformance_test() {
    use agents::conformance::{check, Options};
    let options = Options { games: 50, sorted: true, ..Options::default() };
    let reports = [
        check("chancy nim", |_| ChancyNim::new(), &options),
        check("hidden coin", |_| HiddenCoin { coin: None, call: None }, &options),
        check("take or guess", |_| TakeOrGuess { took: None, coin: None, call: None }, &options),
        check("safe or gamble", |_| SafeOrGamble { gamble: None, won: None, done: false }, &options),
    ];
    for report in reports {
        assert_eq!(report.unwrap_or_else(|e| panic!("{e}")).games, 50);
    }
}
