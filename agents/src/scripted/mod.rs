//! A hand-written TDE player (agent spec `scripted`): fast rules of thumb on top of the
//! engine's exact odds, playing every scenario's objectives.
//!
//! At each decision it scores every legal action and takes the best one (ties broken by its
//! seeded generator), so it always plays a legal action. Scores are in victory-point-like
//! units: putting down a 20-point enemy is worth about 1, a scenario's victory point about 1.
//! The rules, node by node:
//!
//! **Set-up** ([`setup`]): player A where that picks the deployment edge (Grudge Match,
//! Couriers) or the markers and diagonal first (Scavenger Hunt), else player B (first
//! activation); edges and corners with the most open ground and cover; the grudge of its best
//! attacker against the enemy character easiest to take out (scouts, which infiltrate
//! forward, and the leader preferred); the fastest, toughest non-leader character as courier;
//! even deployment groups; an Attack and Defend objective deep in its band; Scavenger Hunt
//! markers near the corners it will pick; models placed toward their first goal, on cover,
//! out of enemy sight and spread out; a dropped enemy carrier's marker placed near its own
//! models.
//!
//! **Goals** ([`plan`]): objective tasks (an objective not controlled in Attack and Defend, a
//! dropped prize in Couriers, a marker worth looking at in Scavenger Hunt, the central
//! treasure from two turns before the end of Assassinate) go to the nearest free model by
//! walking distance ([`fields`]); a prize carrier heads for the enemy edge where enemies are
//! fewest and leaves by it; on the last Couriers turn characters near the enemy edge leave
//! too; a Scavenger Hunt carrier and an Assassinate leader keep safe; everyone else hunts
//! the enemy worth the most for its distance (the enemy leader, the grudge target, carriers,
//! enemies near the own prize carrier), shooters stopping at three quarters of their pass
//! range; in a skirmish it advances more patiently.
//!
//! **Activation**: the model with the best attack from where it stands, then objective
//! tasks, then models in danger; a leader able to give orders goes before the prize carrier
//! it sees, which waits for its AP. Pass tokens are not used.
//!
//! **Actions** ([`act`]): shots, charges, close combat and templates by expected value (exact
//! level and wound odds, the target's worth, down targets taken out by any hit, opposition
//! by a dodge or by shooting or fighting back with its own risk); Interact for objectives,
//! First Aid and Repair; leaving the table with a prize (or a character on the last turn);
//! moves by progress toward the goal plus cover, minus the expected harm enemies can do there
//! (sight, range, charge reach), plus the best attack from there when AP remain, allowing
//! for climbs and leaps that fall short ([`paths`]). Ending the activation keeps AP for
//! reactions while enemies are still to activate, so the last AP is not spent walking into
//! the open for little. A prize carrier never charges, shoots or reacts: its AP are for
//! running, and it dodges out of combat.
//!
//! **Sequences** ([`respond`]): reactions when their expected harm (opposed when the mover
//! attacks the reactor) plus the harm they prevent beats the AP's value, which is small once
//! the reactor has activated; dodges only against real danger; nested shots worth more than
//! the AP would buy after the move; firefights when the shot back or dodge gains more than
//! the AP; command orders moving AP to the model with the best use for them (a prize carrier
//! first) from models that have activated; AP cards on the same (or anyway before the game
//! ends); re-rolls of failed attacks that matter, of dodges against danger, of failed heals
//! and of a carrier's failed move; cavalry damage on the part most likely to go down; an
//! enemy's fall from its highest point; resting back rather than falling; dodge moves to
//! safety.
//!
//! Hidden information is never read: the scenario state comes from [`GameState::masked`]
//! (see [`view`]). Moves are pre-scored cheaply and only the best few get the sight-based
//! estimates, so a decision takes about a tenth of a millisecond on average.

pub(crate) mod act;
pub(crate) mod estimate;
pub(crate) mod fields;
mod goal;
pub(crate) mod paths;
mod places;
mod plan;
mod plans;
pub(crate) mod respond;
mod setup;
pub mod terms;
pub(crate) mod view;
mod worth;

use crate::Agent;
use engine::state::{Player, Step};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use terms::TermWeights;

/// The scripted player.
pub struct ScriptedAgent {
    rng: ChaCha8Rng,
    buf: Vec<Action>,
    scores: Vec<f64>,
    fields: fields::Fields,
}

impl ScriptedAgent {
    /// A scripted player whose ties are broken by a generator seeded with `seed`.
    pub fn new(seed: u64) -> ScriptedAgent {
        ScriptedAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buf: Vec::new(),
            scores: Vec::new(),
            fields: fields::Fields::default(),
        }
    }

    /// Fill `self.scores` with a score for each action of `self.buf`, the terms weighted by `w`.
    fn score(&mut self, state: &GameState, side: engine::state::Side, w: TermWeights) {
        let view = view::View::weighted(state, side, w);
        let legal = &self.buf;
        let scores = &mut self.scores;
        let fields = &mut self.fields;
        scores.clear();
        match state.node().cloned() {
            Some(Step::ChooseAction(m)) => {
                let scene = act::Scene::new(&view, fields, m);
                act::score_actions(&scene, legal, scores);
            }
            Some(Step::ChooseActivation) => {
                for &a in legal {
                    scores.push(match a {
                        Action::Activate(m) => act::activation_priority(&view, fields, m),
                        _ => act::NEVER,
                    });
                }
            }
            Some(Step::ChooseReaction | Step::ChooseReactionBy(_)) => {
                respond::score_reactions(&view, legal, scores)
            }
            Some(Step::ChooseNested) => respond::score_nested(&view, fields, legal, scores),
            Some(Step::ChooseFirefight) => respond::score_firefights(&view, fields, legal, scores),
            Some(Step::ChooseCommand) => respond::score_commands(&view, fields, legal, scores),
            Some(Step::ChooseCard { .. }) => respond::score_cards(&view, fields, legal, scores),
            Some(Step::ChooseDodgeMove { model, .. }) => {
                let scene = act::Scene::new(&view, fields, model);
                act::score_dodge_moves(&scene, legal, scores);
            }
            Some(Step::Scenario(s)) => setup::score_scenario(&view, fields, s, legal, scores),
            _ => respond::score_misc(&view, fields, legal, scores),
        }
    }

    /// The scores of `actions` (legal at `state`'s decision, in any number) under the term
    /// weights `w`, in their order; `None` where no side decides. The scores of moves not
    /// among the best few by the cheap estimate are [`act::NEVER`] / 2, as in play.
    pub fn scores_with(&mut self, state: &GameState, actions: &[Action], w: TermWeights) -> Option<&[f64]> {
        let Player::Side(side) = state.current_player() else { return None };
        self.buf.clear();
        self.buf.extend_from_slice(actions);
        self.score(state, side, w);
        self.scores.resize(actions.len(), act::NEVER);
        for s in self.scores.iter_mut() {
            if s.is_nan() {
                *s = act::NEVER;
            }
        }
        Some(&self.scores)
    }

    /// `legal` ordered by the scores under term weights `w`, best first.
    pub fn rank_with(&mut self, state: &GameState, legal: &mut Vec<Action>, w: TermWeights) {
        if legal.len() < 2 {
            return;
        }
        let Some(scores) = self.scores_with(state, legal, w) else { return };
        let mut order: Vec<(f64, Action)> = scores.iter().copied().zip(legal.iter().copied()).collect();
        order.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        legal.clear();
        legal.extend(order.into_iter().map(|(_, a)| a));
    }

    /// The best legal action under term weights `w` (ties broken by the seeded generator),
    /// as [`Agent::select_action`] chooses with the scripted player's own weights.
    pub fn select_with(&mut self, state: &GameState, w: TermWeights) -> Action {
        state.legal_actions_into(&mut self.buf);
        let Player::Side(side) = state.current_player() else { return self.buf[0] };
        if self.buf.len() == 1 {
            return self.buf[0];
        }
        self.score(state, side, w);
        let mut best = f64::NEG_INFINITY;
        let mut choice = self.buf[0];
        for (i, &a) in self.buf.iter().enumerate() {
            let s = self.scores.get(i).copied().filter(|s| !s.is_nan()).unwrap_or(act::NEVER);
            // Jitter far below any real difference breaks ties without a bias.
            let s = s + self.rng.gen::<f64>() * 1e-9;
            if s > best {
                best = s;
                choice = a;
            }
        }
        choice
    }
}

impl crate::mcts::Ranker<GameState> for ScriptedAgent {
    /// The legal actions by the scripted player's scores, best first (search looks at the
    /// best few only).
    fn rank(&mut self, state: &GameState, legal: &mut Vec<Action>) {
        self.rank_with(state, legal, TermWeights::SCRIPTED);
    }
}

impl Agent<GameState> for ScriptedAgent {
    fn name(&self) -> String {
        "scripted".to_string()
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        self.select_with(state, TermWeights::SCRIPTED)
    }
}
