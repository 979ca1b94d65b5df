//! One game on the digital table: its states from the start, who sits at each side (a person
//! or an agent), the dice, the game record kept on disk, and the log in words.
//!
//! The table is the only place that changes a game. A person's action is accepted only as an
//! index into the current legal actions, at the state version it was offered at, and only
//! when it is that person's decision; anything else is rejected with the game unchanged.

use super::words::{decision_line, roll_line, seat_words, side_effects, why_scored};
use crate::game_cmd::{consequences, end_reason};
use agents::Agent;
use engine::record::{format_hash, GameRecord};
use engine::render::describe_action;
use engine::state::Side;
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use training::play::make_agent;

/// What the table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A person plays one side against an agent.
    Play,
    /// Two agents play; the page asks for each next step.
    Watch,
    /// A recorded game, stepped forward and back.
    View,
}

/// Who decides for a side.
pub enum Seat {
    /// The person at the page.
    Human,
    /// An agent, with the spec it was built from.
    Bot {
        /// The agent; `None` while it thinks outside the table (see [`Table::start_bot_turn`]).
        agent: Option<Box<dyn Agent<GameState>>>,
        /// Its spec (`greedy`, `mcts:iters=200`, ...).
        spec: String,
    },
    /// Nobody: the actions come from a record; who played the side, as far as the record's
    /// description says.
    Record(String),
}

impl Seat {
    /// A short label for the page.
    pub fn label(&self) -> String {
        match self {
            Seat::Human => "you".to_string(),
            Seat::Bot { spec, .. } => spec.clone(),
            Seat::Record(who) => who.clone(),
        }
    }
}

/// What the log entry is about, so that the page can style it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogKind {
    /// A die roll and its result.
    Roll,
    /// A side's decision.
    Decision,
    /// A consequence: a model goes down, VP are scored.
    Event,
    /// A new turn, or the end of the game.
    Turn,
}

/// One line of the game log.
#[derive(Clone, Debug)]
pub struct LogEntry {
    /// Number of actions taken before this entry's action (its state version).
    pub at: usize,
    /// Its kind.
    pub kind: LogKind,
    /// The side that decided, for decisions.
    pub side: Option<Side>,
    /// The text as an all-seeing spectator reads it.
    pub text: String,
    /// A side that may not learn what happened (a secret grudge, a hidden marker number), and
    /// the text it reads instead.
    pub secret: Option<(Side, String)>,
}

impl LogEntry {
    /// The text `observer` may read (`None`: a spectator who sees everything).
    pub fn text_for(&self, observer: Option<Side>) -> &str {
        match (&self.secret, observer) {
            (Some((side, redacted)), Some(o)) if *side == o => redacted,
            _ => &self.text,
        }
    }
}

/// Why a person's action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The action was offered at another state version (a stale page or a replayed request).
    Stale {
        /// The version the request named.
        offered: usize,
        /// The current version.
        current: usize,
    },
    /// It is not the person's decision now.
    NotYourTurn(String),
    /// The bot is thinking about its decision (named); the person's click came too early.
    BotThinking(String),
    /// The index is not one of the current legal actions.
    NoSuchAction {
        /// The index sent.
        index: usize,
        /// Number of legal actions.
        count: usize,
    },
    /// This table takes no actions from the page (watching or viewing).
    WrongMode(Mode),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Stale { offered, current } => write!(
                f,
                "field `version`: the action was offered at version {offered} but the game is at \
                 version {current}; reload the state and choose again"
            ),
            Refusal::NotYourTurn(node) => write!(f, "it is not your decision now ({node})"),
            Refusal::BotThinking(on) => write!(
                f,
                "the bot is still thinking ({on}); nothing was taken: choose again once it has moved"
            ),
            Refusal::NoSuchAction { index, count } => write!(
                f,
                "field `index`: {index} is not a legal action here (there are {count}, numbered from 0)"
            ),
            Refusal::WrongMode(mode) => write!(f, "this table is in {mode:?} mode and takes no actions"),
        }
    }
}

/// A game on the table.
pub struct Table {
    /// What the table is for.
    pub mode: Mode,
    /// The two seats, side A then side B.
    pub seats: [Seat; 2],
    /// `states[k]` is the state after `k` actions.
    states: Vec<GameState>,
    /// The record of the game so far.
    pub record: GameRecord,
    /// The log, in order.
    pub log: Vec<LogEntry>,
    /// Seed of the dice.
    seed: u64,
    /// Where the record is written after every step, if anywhere.
    pub record_path: Option<PathBuf>,
    /// What the bot is thinking about while it does (its agent out of its seat).
    pub thinking: Option<Thinking>,
}

/// The bot at work on a decision, for the page.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// The bot's side.
    pub side: Side,
    /// The decision, in words ("side B: choose the action of Nix").
    pub on: String,
    /// When it began.
    pub since: std::time::Instant,
}

/// A bot's decision taken out of the table so that it can be thought about without holding the
/// table: the agent, the state it decides at, and that state's version. Given back with
/// [`Table::finish_bot_turn`].
pub struct BotTurn {
    agent: Box<dyn Agent<GameState>>,
    state: GameState,
    side: Side,
    version: usize,
}

impl BotTurn {
    /// The agent's choice (this is the slow part).
    pub fn think(&mut self) -> Action {
        self.agent.select_action(&self.state)
    }
}

impl Table {
    /// A table where `seats` play `initial` with dice from `seed`; the agents move until a
    /// person must decide or the game ends. The record (described by `description`, or by
    /// the mode, seed and seats) is written to `record_path`, which must not exist: a file
    /// there is never overwritten.
    pub fn new(
        mode: Mode,
        initial: GameState,
        seats: [Seat; 2],
        seed: u64,
        record_path: Option<PathBuf>,
        description: Option<String>,
    ) -> Result<Table, String> {
        if let Some(path) = record_path.as_ref().filter(|p| p.exists()) {
            return Err(format!(
                "--record {}: the file exists and is left as it is; name another",
                path.display()
            ));
        }
        let description = description.unwrap_or_else(|| {
            format!("{:?} seed {seed}: {} vs {}", mode, seats[0].label(), seats[1].label())
        });
        let record = GameRecord::new(&initial, description);
        let mut table = Table {
            mode,
            seats,
            states: vec![initial],
            record,
            log: Vec::new(),
            seed,
            record_path,
            thinking: None,
        };
        if mode == Mode::Play {
            table.run_agents()?;
        }
        table.save()?;
        Ok(table)
    }

    /// A saved game of `tde play` (`record`, read from `path`) resumed with `seats` and its
    /// `seed`: every action is replayed and checked, the log rebuilt, and the agents move on
    /// if it is theirs to act. The record goes on being written to `path`.
    pub fn resume(record: GameRecord, path: PathBuf, seats: [Seat; 2], seed: u64) -> Result<Table, String> {
        let file = path.display().to_string();
        let mut table = Table::replayed(record, &file, Mode::Play, seats, seed)?;
        table.record_path = Some(path);
        table.run_agents()?;
        table.save()?;
        Ok(table)
    }

    /// The seat for an agent spec, its seed derived from the table's seed and the side.
    pub fn bot(spec: &str, seed: u64, side: Side) -> Result<Seat, String> {
        let agent = make_agent(spec, seed.wrapping_mul(2).wrapping_add(side as u64))?;
        Ok(Seat::Bot { agent: Some(agent), spec: spec.to_string() })
    }

    /// A table stepping through `record` (read from `file`): every action is replayed and
    /// checked, and the log is rebuilt.
    pub fn from_record(record: GameRecord, file: &str) -> Result<Table, String> {
        let [a, b] = recorded_players(&record.description);
        Table::replayed(record, file, Mode::View, [Seat::Record(a), Seat::Record(b)], 0)
    }

    /// `record` replayed action by action (each checked), with its log, at a table in `mode`.
    fn replayed(
        record: GameRecord,
        file: &str,
        mode: Mode,
        seats: [Seat; 2],
        seed: u64,
    ) -> Result<Table, String> {
        let initial = record.initial.restore(file).map_err(|e| e.to_string())?;
        let mut table = Table {
            mode,
            seats,
            states: vec![initial],
            record: GameRecord { actions: Vec::new(), ..record.clone() },
            log: Vec::new(),
            seed,
            record_path: None,
            thinking: None,
        };
        for (index, &action) in record.actions.iter().enumerate() {
            table
                .apply(action)
                .map_err(|e| format!("{file}: action #{index} ({action}) cannot be replayed: {e}"))?;
        }
        let hash = format_hash(table.current().state_hash());
        if hash != record.final_hash {
            return Err(format!(
                "{file}: the replayed final hash {hash} differs from the recorded {}",
                record.final_hash
            ));
        }
        Ok(table)
    }

    /// The current state.
    pub fn current(&self) -> &GameState {
        self.states.last().expect("a table always has its initial state")
    }

    /// The state after `at` actions (clamped to the current one).
    pub fn state_at(&self, at: usize) -> &GameState {
        &self.states[at.min(self.states.len() - 1)]
    }

    /// Number of actions taken: the state version.
    pub fn version(&self) -> usize {
        self.states.len() - 1
    }

    /// The action taken at version `at`, if any.
    pub fn action_at(&self, at: usize) -> Option<Action> {
        self.record.actions.get(at).copied()
    }

    /// The spec of the agent the person plays against, if one sits at the table.
    pub fn bot_spec(&self) -> Option<&str> {
        self.seats.iter().find_map(|s| match s {
            Seat::Bot { spec, .. } => Some(spec.as_str()),
            _ => None,
        })
    }

    /// The side the person plays, if any.
    pub fn human(&self) -> Option<Side> {
        self.seats.iter().position(|s| matches!(s, Seat::Human)).map(|s| s as Side)
    }

    /// Apply the person's choice: legal action `index` as offered at `version`, and write the
    /// record. The dice and the bot go on from there ([`Table::run_agents`], or
    /// [`Table::start_bot_turn`] to think without holding the table).
    pub fn human_action(&mut self, version: usize, index: usize) -> Result<Result<(), Refusal>, String> {
        if self.mode != Mode::Play {
            return Ok(Err(Refusal::WrongMode(self.mode)));
        }
        if let Some(thinking) = &self.thinking {
            return Ok(Err(Refusal::BotThinking(thinking.on.clone())));
        }
        if version != self.version() {
            return Ok(Err(Refusal::Stale { offered: version, current: self.version() }));
        }
        let state = self.current();
        let human = self.human();
        match state.current_player() {
            Player::Side(s) if Some(s) == human => {}
            _ => return Ok(Err(Refusal::NotYourTurn(state.describe_node()))),
        }
        let legal = state.legal_actions();
        let Some(&action) = legal.get(index) else {
            return Ok(Err(Refusal::NoSuchAction { index, count: legal.len() }));
        };
        self.apply(action)?;
        Ok(Ok(()))
    }

    /// Play the dice and the questions with one answer until a bot must think: its decision is
    /// returned with its agent taken out of its seat (the table says it is thinking, and takes
    /// no action meanwhile) to be given back with [`Table::finish_bot_turn`]. `None` when a
    /// person must decide, the game is over, or the bot is already thinking elsewhere.
    pub fn start_bot_turn(&mut self) -> Result<Option<BotTurn>, String> {
        loop {
            if self.thinking.is_some() {
                return Ok(None);
            }
            let human = self.human();
            let state = self.states.last().expect("a table always has its initial state");
            if let Player::Side(s) = state.current_player() {
                let many = state.legal_actions().len() > 1;
                if let (Seat::Bot { agent, .. }, true) = (&mut self.seats[s as usize], many) {
                    let Some(agent) = agent.take() else { return Ok(None) };
                    let on = bot_work(&seat_words(&state.describe_node(), human));
                    let (state, version) = (state.clone(), self.states.len() - 1);
                    self.thinking = Some(Thinking { side: s, on, since: std::time::Instant::now() });
                    return Ok(Some(BotTurn { agent, state, side: s, version }));
                }
            }
            if !self.step_agents()? {
                return Ok(None);
            }
        }
    }

    /// The bot's choice `action` for `turn`: its agent back in its seat and the action taken
    /// (the record written).
    pub fn finish_bot_turn(&mut self, turn: BotTurn, action: Action) -> Result<(), String> {
        if let Seat::Bot { agent, .. } = &mut self.seats[turn.side as usize] {
            *agent = Some(turn.agent);
        }
        self.thinking = None;
        if turn.version != self.version() {
            return Err(format!(
                "the bot chose at step {} but the game is at step {}: its choice is not taken",
                turn.version,
                self.version()
            ));
        }
        self.apply(action)
    }

    /// One step by the dice or an agent (watch mode); `false` when the game is over or a person
    /// must decide.
    pub fn advance(&mut self) -> Result<bool, String> {
        self.step_agents()
    }

    /// Let the dice and the agents act until a person must decide or the game ends.
    pub fn run_agents(&mut self) -> Result<(), String> {
        while self.step_agents()? {}
        Ok(())
    }

    /// One chance outcome or agent decision; `false` when there is none to take.
    fn step_agents(&mut self) -> Result<bool, String> {
        // Borrow the states alone, so that an agent's seat can be borrowed mutably beside it.
        let state = self.states.last().expect("a table always has its initial state");
        let action = match state.current_player() {
            Player::Terminal => return Ok(false),
            Player::Chance => {
                // Each chance node rolls with its own generator, so a game resumes identically.
                let node_seed = self.seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(self.version() as u64 + 1);
                let mut dice = ChaCha8Rng::seed_from_u64(node_seed);
                state.sample_chance(&mut dice).ok_or("a chance node without outcomes")?
            }
            Player::Side(s) => match (&mut self.seats[s as usize], state.legal_actions().as_slice()) {
                // A question with one answer is not put to anyone ("nests no action" when
                // nothing can be nested, "gives no command order"): the table takes it, and
                // the log says so.
                (Seat::Bot { .. }, [only]) => *only,
                (Seat::Human, [only]) if self.mode == Mode::Play => *only,
                (Seat::Bot { agent: Some(agent), .. }, _) => agent.select_action(state),
                // Thinking outside the table, a person to decide, or a record's seat.
                (Seat::Bot { agent: None, .. } | Seat::Human | Seat::Record(_), _) => return Ok(false),
            },
        };
        self.apply(action)?;
        Ok(true)
    }

    /// Apply `action` to the current state, recording it and logging it in words.
    fn apply(&mut self, action: Action) -> Result<(), String> {
        let before = self.current().clone();
        let mut after = before.clone();
        after.apply_action(action).map_err(|e| e.to_string())?;
        let at = self.version();
        let (kind, side) = match before.current_player() {
            Player::Side(s) => (LogKind::Decision, Some(s)),
            _ => (LogKind::Roll, None),
        };
        let human = self.human();
        let plain = decision_line(&before, action, describe_action(&before, action));
        let dice_seed = self.seed ^ 0xd1ce ^ (at as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let text = seat_words(&roll_line(&before, action, plain, dice_seed, |r| self.declared_at(r)), human);
        let secret = (0..2)
            .find(|&s| !before.node_visible_to(s))
            .map(|s| (s, format!("{} — kept secret from you", seat_words(&before.describe_node(), human))));
        self.log.push(LogEntry { at, kind, side, text, secret });
        let mut lines = side_effects(&before, &after);
        for line in consequences(&before, &after) {
            // "side A scores 1 VP by the scenario's scoring": say why, where the table can tell.
            let line = match (line.strip_prefix("side "), line.contains("by the scenario's scoring")) {
                (Some(rest), true) => {
                    let s = u8::from(rest.starts_with('B'));
                    line.replace("by the scenario's scoring", &why_scored(&before, &after, s))
                }
                _ => line,
            };
            lines.push(line);
        }
        for line in lines {
            let text = seat_words(&line, human);
            self.log.push(LogEntry { at, kind: LogKind::Event, side: None, text, secret: None });
        }
        if after.is_terminal() {
            let o = after.outcome();
            let result = match (o.winner, human) {
                (Some(w), Some(h)) if w == h => "You win".to_string(),
                (Some(_), Some(_)) => "The bot wins".to_string(),
                (Some(w), None) => format!("Side {} wins", (b'A' + w) as char),
                (None, _) => "A draw".to_string(),
            };
            let text = format!("Game over: {}. {result}, VP A {} B {}", end_reason(&after), o.vp[0], o.vp[1]);
            self.log.push(LogEntry { at, kind: LogKind::Turn, side: None, text, secret: None });
        } else if after.turn() != before.turn() {
            let text = format!("Turn {} begins", after.turn());
            self.log.push(LogEntry { at, kind: LogKind::Turn, side: None, text, secret: None });
        }
        self.record.actions.push(action);
        self.record.final_hash = format_hash(after.state_hash());
        self.states.push(after);
        // Every step is on disk before the next is taken: no step is ever lost.
        self.save()
    }

    /// The state at which roll `r` of the sequence under way was declared: the last one before
    /// it was added to the sequence, or the sequence's first state when it began with it.
    fn declared_at(&self, r: usize) -> Option<&GameState> {
        let mut first = None;
        for s in self.states.iter().rev() {
            match s.dynamic().sequence.as_ref() {
                Some(seq) if seq.rolls.len() > r => first = Some(s),
                Some(_) => return Some(s),
                None => return first,
            }
        }
        first
    }

    /// Write the record, if the table keeps one, atomically.
    fn save(&self) -> Result<(), String> {
        match &self.record_path {
            Some(path) => self.record.save(path).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

/// A bot's decision as its own work, for "The bot is thinking about …": "the bot's side (B):
/// choose the action of Nix" is "choosing the action of Nix", "the bot's side (B) may play a
/// card" is "whether to play a card".
fn bot_work(node: &str) -> String {
    let sides = ["the bot's side (A)", "the bot's side (B)", "side A", "side B"];
    let mut rest = node;
    // "side B: side B may play a card" names the side twice.
    while let Some(r) = sides.iter().find_map(|p| rest.strip_prefix(p)) {
        rest = r.trim_start_matches(':').trim_start();
    }
    if let Some(r) = rest.strip_prefix("chooses ").or(rest.strip_prefix("choose ")) {
        format!("choosing {r}")
    } else if let Some(r) = rest.strip_prefix("may ") {
        format!("whether to {r}")
    } else if let Some((who, what)) = rest.split_once(" may ") {
        format!("whether {who} will {what}")
    } else {
        rest.to_string()
    }
}

/// Who played sides A and B, from a record's description: `tde play`'s settings ("the person"
/// and the bot's spec), or "X vs Y" at its end (`tde demo`, `tde watch`); "recorded" when it
/// does not say.
fn recorded_players(description: &str) -> [String; 2] {
    if let Some(s) = super::saved::PlaySettings::from_description(description) {
        let mut seats = ["the person".to_string(), s.bot.clone()];
        if s.human_side() == 1 {
            seats.swap(0, 1);
        }
        return seats;
    }
    let tail = description.rsplit(": ").next().unwrap_or(description);
    let tail = tail.rsplit(" agents ").next().unwrap_or(tail);
    match tail.split_once(" vs ") {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => [a.to_string(), b.to_string()],
        _ => ["recorded".to_string(), "recorded".to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::{recorded_players, Mode, Seat, Table};
    use agents::Agent;
    use engine::{Action, GameState, Player};
    use rand::{Rng, SeedableRng};

    /// A bot that chooses at random and fails the test when asked a question with one answer.
    struct NeverAskedTheObvious(rand_chacha::ChaCha8Rng);

    impl Agent<GameState> for NeverAskedTheObvious {
        fn name(&self) -> String {
            "never-asked-the-obvious".into()
        }
        fn select_action(&mut self, state: &GameState) -> Action {
            let legal = state.legal_actions();
            assert!(
                legal.len() > 1,
                "the bot was asked a question with one answer: {}",
                state.describe_node()
            );
            legal[self.0.gen_range(0..legal.len())]
        }
    }

    #[test]
    fn the_bot_thinks_outside_the_table_and_is_never_asked_a_question_with_one_answer() {
        let config = engine::setup::GameConfig::default();
        let initial = engine::setup::new_game(&config).unwrap();
        let bot = Seat::Bot {
            agent: Some(Box::new(NeverAskedTheObvious(rand_chacha::ChaCha8Rng::seed_from_u64(1)))),
            spec: "test".into(),
        };
        let mut table = Table::new(Mode::Play, initial, [Seat::Human, bot], 5, None, None).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        for _ in 0..3000 {
            if table.current().is_terminal() {
                return;
            }
            // The person's turn: a random choice, then the bot's turns thought about outside.
            assert!(matches!(table.current().current_player(), Player::Side(0)));
            let n = table.current().legal_actions().len();
            table.human_action(table.version(), rng.gen_range(0..n)).unwrap().unwrap();
            while let Some(mut turn) = table.start_bot_turn().unwrap() {
                assert!(table.thinking.is_some(), "the table says the bot is thinking");
                let refused = table.human_action(table.version(), 0).unwrap();
                assert!(matches!(refused, Err(super::Refusal::BotThinking(_))), "no action while it thinks");
                let action = turn.think();
                table.finish_bot_turn(turn, action).unwrap();
                assert!(table.thinking.is_none());
            }
        }
        panic!("the game did not end");
    }

    #[test]
    fn recorded_players_are_named_from_the_description() {
        assert_eq!(recorded_players("demo seed 4 agents greedy vs scripted"), ["greedy", "scripted"]);
        assert_eq!(recorded_players("Watch seed 1: scripted vs greedy"), ["scripted", "greedy"]);
        let play = r#"tde play {"human":"B","bot":"greedy","seed":3}"#;
        assert_eq!(recorded_players(play), ["greedy", "the person"]);
        assert_eq!(recorded_players("something else"), ["recorded", "recorded"]);
    }

    #[test]
    fn the_bots_work_is_said_as_its_own() {
        assert_eq!(
            super::bot_work("the bot's side (B): choose the action of Nix"),
            "choosing the action of Nix"
        );
        assert_eq!(super::bot_work("the bot's side (B) may play a card"), "whether to play a card");
        let twice = "the bot's side (B): the bot's side (B) may play a card";
        assert_eq!(super::bot_work(twice), "whether to play a card");
        let leader = "the bot's side (B): the leader may give a command order";
        assert_eq!(super::bot_work(leader), "whether the leader will give a command order");
        assert_eq!(super::bot_work("dice"), "dice");
    }
}
