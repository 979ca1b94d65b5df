//! The order of play ("Turn Sequence"): set-up (Threat, surprise, Momentum, the Adversary
//! Pool), the rounds (declarations, initiative, activations, bookkeeping), the stack of
//! pending resolutions, and the end. Every other rule module is called from here; none calls
//! back.

use crate::activation::price;
use crate::checks::Outcome;
use crate::data::{Kind, FORTUNE, GLOOM_DURATION, MAX_ROUNDS};
use crate::state::{Action, Encounter, Pending, Phase, Surprise, DM_SIDE, PARTY_SIDE};

/// Who acts at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A side decides.
    Decision(usize),
    /// Dice.
    Chance,
    /// Over.
    Terminal,
}

/// Most Momentum the party may hold (ruling).
pub const MAX_MOMENTUM: u8 = 12;

impl Encounter {
    /// A new Encounter at its first decision: the DM's set-up spending.
    pub fn start() -> Encounter {
        let mut s = Encounter::new();
        s.settle();
        s
    }

    /// The same with a text log.
    pub fn start_with_log() -> Encounter {
        let mut s = Encounter::with_log();
        s.settle();
        s
    }

    /// Who acts now.
    pub fn node(&self) -> Node {
        match self.pending.last() {
            Some(
                Pending::Check(_)
                | Pending::Stray { .. }
                | Pending::Force { .. }
                | Pending::Injury { .. }
                | Pending::CastOnes(_)
                | Pending::CastMarks(..),
            ) => return Node::Chance,
            Some(Pending::Channel(c)) => return Node::Decision(self.models[c.caster as usize].side()),
            Some(Pending::Soak { target, .. }) => {
                return Node::Decision(self.models[*target as usize].side())
            }
            Some(Pending::Reroll(check, _)) => {
                let side = check.luck.map_or(PARTY_SIDE, |m| self.models[m as usize].side());
                return Node::Decision(side);
            }
            Some(Pending::Fate { model, .. }) => return Node::Decision(self.models[*model as usize].side()),
            Some(Pending::Interrupt { by }) => return Node::Decision(self.models[*by as usize].side()),
            Some(Pending::Attacks { .. } | Pending::OffHand { .. }) | None => {}
        }
        match self.phase {
            Phase::BuyPool => Node::Decision(DM_SIDE),
            Phase::Surprise | Phase::DeclareOrder | Phase::Initiative | Phase::Winds => Node::Chance,
            Phase::Declare => Node::Decision(self.declare_turn),
            Phase::Activation => match self.act {
                Some(a) => Node::Decision(self.models[a.model as usize].side()),
                None => Node::Terminal,
            },
            Phase::Over => Node::Terminal,
        }
    }

    /// The legal actions (or chance outcomes), sorted and distinct, into `out`.
    pub fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.pending.last() {
            Some(Pending::Check(c)) => out
                .extend(Outcome::ALL.iter().filter(|&&o| c.odds[o as usize] > 0.0).map(|&o| Action::Roll(o))),
            Some(Pending::Stray { candidates, .. }) => {
                out.extend((0..candidates.len() as u8).map(Action::Face))
            }
            Some(Pending::Force { model, .. }) => {
                out.extend(self.force_odds(*model).into_iter().map(|o| o.0))
            }
            Some(Pending::Injury { .. }) => out.extend(self.injury_odds().into_iter().map(|o| o.0)),
            Some(Pending::CastOnes(c)) => out.extend(Encounter::cast_ones_odds(c).into_iter().map(|o| o.0)),
            Some(Pending::CastMarks(c, ones)) => {
                out.extend(Encounter::cast_marks_odds(c, *ones).into_iter().map(|o| o.0))
            }
            Some(Pending::Channel(_)) => out.extend([Action::Channel, Action::Accept]),
            Some(Pending::Soak { .. }) => out.extend([Action::Soak, Action::Accept]),
            Some(Pending::Reroll(check, _)) => {
                out.push(Action::Accept);
                if let Some(m) = check.luck {
                    self.reroll_options(m, check.rerolled, out);
                }
            }
            Some(Pending::Fate { .. }) => out.extend([Action::SpendFate, Action::Accept]),
            Some(Pending::Interrupt { .. }) => out.extend([Action::Interrupt, Action::Pass]),
            Some(Pending::Attacks { .. } | Pending::OffHand { .. }) | None => match self.phase {
                Phase::BuyPool => {
                    let left = self.setup_threat_left();
                    out.extend((0..=left).map(Action::BuyPool));
                    if left > 0 && !self.menacing {
                        out.push(Action::BuyTalent);
                    }
                    if left > 0 && self.gloom == 0 {
                        out.push(Action::BuyEffect);
                    }
                    if left > 0 && self.champion().is_some_and(|c| !self.models[c as usize].profile.nemesis) {
                        out.push(Action::BuyNemesis);
                    }
                }
                Phase::Surprise | Phase::DeclareOrder | Phase::Initiative | Phase::Winds => {
                    out.extend((1..=6).map(Action::Face))
                }
                Phase::Declare => self.declare_actions(out),
                Phase::Activation => self.activation_actions(out),
                Phase::Over => {}
            },
        }
        out.sort();
        out.dedup();
    }

    /// The chance outcomes with their exact probabilities (empty at a decision).
    pub fn chance_odds(&self) -> Vec<(Action, f64)> {
        match self.pending.last() {
            Some(Pending::Check(c)) => Outcome::ALL
                .iter()
                .filter(|&&o| c.odds[o as usize] > 0.0)
                .map(|&o| (Action::Roll(o), c.odds[o as usize]))
                .collect(),
            Some(Pending::Stray { candidates, .. }) => {
                let n = candidates.len();
                (0..n as u8).map(|i| (Action::Face(i), 1.0 / n as f64)).collect()
            }
            Some(Pending::Force { model, .. }) => self.force_odds(*model),
            Some(Pending::Injury { .. }) => self.injury_odds(),
            Some(Pending::CastOnes(c)) => Encounter::cast_ones_odds(c),
            Some(Pending::CastMarks(c, ones)) => Encounter::cast_marks_odds(c, *ones),
            Some(_) => Vec::new(),
            None => match self.phase {
                Phase::Surprise | Phase::DeclareOrder | Phase::Initiative | Phase::Winds => {
                    (1..=6).map(|f| (Action::Face(f), 1.0 / 6.0)).collect()
                }
                _ => Vec::new(),
            },
        }
    }

    /// Apply an action after checking it is legal; an illegal one is refused with the
    /// reason and changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        let mut legal = Vec::new();
        self.legal_into(&mut legal);
        if legal.binary_search(&action).is_err() {
            return Err(format!("{action:?} is not legal now ({:?}); legal: {legal:?}", self.node()));
        }
        self.act_unchecked(action);
        Ok(())
    }

    /// Apply an action known to be legal.
    pub fn act_unchecked(&mut self, action: Action) {
        match (self.pending.pop(), action) {
            (Some(Pending::Check(check)), Action::Roll(outcome)) => {
                let mut ways = Vec::new();
                if let Some(m) = check.luck.filter(|_| !outcome.succeeded()) {
                    self.reroll_options(m, check.rerolled, &mut ways);
                }
                let may_reroll = !ways.is_empty();
                if may_reroll {
                    self.pending.push(Pending::Reroll(check, outcome));
                } else {
                    self.resolve(check, outcome);
                }
            }
            (Some(Pending::Reroll(check, outcome)), Action::Accept) => self.resolve(check, outcome),
            (
                Some(Pending::Reroll(check, _)),
                way @ (Action::Reroll | Action::Push { .. } | Action::DarkDeal),
            ) => {
                if let Some(m) = check.luck {
                    let model = &mut self.models[m as usize];
                    let (track, cost) = match way {
                        Action::Reroll => (&mut model.luck, "spends a Luck Point"),
                        Action::Push { stress: true } => (&mut model.stress, "pushes, suffering 1 Stress,"),
                        Action::Push { stress: false } => {
                            (&mut model.fatigue, "pushes, suffering 1 Fatigue,")
                        }
                        _ => (&mut model.corruption, "makes a Dark Deal, suffering 1 Corruption,"),
                    };
                    *track =
                        if way == Action::Reroll { track.saturating_sub(1) } else { track.saturating_add(1) };
                    model.feel();
                    self.note(|s| format!("  {} {cost} to re-roll", s.name(m)));
                }
                self.pending.push(Pending::Check(crate::state::Check { rerolled: true, ..check }));
            }
            (Some(Pending::Stray { shooter, candidates }), Action::Face(i)) => {
                // "On miss: Randomly determine hit model": the model drawn is hit, the
                // intended target included (ruling).
                let hit = candidates.get(i as usize).copied().unwrap_or(candidates[0]);
                self.note(|s| {
                    let whom = if hit == candidates[0] { "its intended target" } else { "instead" };
                    format!("  the missed shot, drawn at random, hits {} ({whom})", s.name(hit))
                });
                let dice = self.damage_dice(shooter, true);
                self.pending.push(Pending::Check(self.damage_check(hit, dice)));
            }
            (Some(Pending::Interrupt { by }), Action::Interrupt) => {
                if self.models[by as usize].reactions == 0 {
                    // "2pt: Gain 1 additional Reaction until start of next Model's
                    // activation": bought and spent at once (ruling).
                    self.momentum_spent += price::REACTION;
                    self.note(|s| format!("  {} gains a Reaction for 2 Momentum", s.name(by)));
                }
                let model = &mut self.models[by as usize];
                model.reactions = model.reactions.saturating_sub(1);
                if let Some((mover, _)) = self.deferred {
                    self.reveal(by);
                    self.note(|s| format!("  {} interrupts {}", s.name(by), s.name(mover)));
                    self.pending.push(Pending::Check(self.attack_check(by, mover, false, 0)));
                }
            }
            (Some(Pending::Interrupt { .. }), Action::Pass) => {}
            (Some(Pending::Force { model, door }), Action::Face(k)) => self.force_roll(model, door, k),
            (Some(Pending::Injury { target }), Action::Face(k)) => self.draw_injury(target, k),
            (Some(Pending::Soak { target, wounds }), Action::Soak) => self.soak(target, wounds),
            (Some(Pending::Soak { target, wounds }), Action::Accept) => self.deal(target, wounds),
            (Some(Pending::Fate { model, slayer }), Action::SpendFate) => self.escape_death(model, slayer),
            (Some(Pending::Fate { model, slayer }), Action::Accept) => self.meet_death(model, slayer),
            (Some(Pending::CastOnes(c)), Action::Face(k)) => self.pending.push(Pending::CastMarks(c, k)),
            (Some(Pending::CastMarks(c, ones)), Action::Face(rest)) => self.cast_roll(c, ones, rest),
            (Some(Pending::Channel(c)), Action::Channel) => {
                self.note(|s| format!("  {} channels: another roll of the Magic Pool", s.name(c.caster)));
                self.pending.push(Pending::CastOnes(c));
            }
            (Some(Pending::Channel(c)), Action::Accept) => self.finish_cast(c, Outcome::Failure),
            (top, action) => {
                if let Some(p) = top {
                    self.pending.push(p);
                }
                self.apply_phase(action);
            }
        }
        self.settle();
    }

    /// Apply an action of the phase (no resolution pending).
    fn apply_phase(&mut self, action: Action) {
        match (self.phase, action) {
            (Phase::BuyPool, Action::BuyTalent) => {
                self.threat -= 1;
                self.setup_threat += 1;
                self.menacing = true;
                self.note(|_| "The DM spends 1 Threat on the Menacing Talent for its Champion".to_string());
            }
            (Phase::BuyPool, Action::BuyEffect) => {
                self.threat -= 1;
                self.setup_threat += 1;
                self.gloom = GLOOM_DURATION;
                self.note(|_| {
                    format!("The DM spends 1 Threat on the Gloom Effect (Duration {GLOOM_DURATION})")
                });
            }
            (Phase::BuyPool, Action::BuyNemesis) => {
                if let Some(c) = self.champion() {
                    self.threat -= 1;
                    self.setup_threat += 1;
                    let x = &mut self.models[c as usize];
                    let p = &crate::data::NEMESIS;
                    x.profile = p;
                    x.wounds = p.wounds;
                    x.luck = p.luck;
                    x.fate = p.fate;
                    self.note(|_| "The DM spends 1 Threat: its Champion returns as a Nemesis".to_string());
                }
            }
            (Phase::BuyPool, Action::BuyPool(k)) => {
                self.threat -= k.min(self.threat);
                self.setup_threat += k;
                self.bought_pool = k;
                self.note(|_| format!("The DM spends {k} Threat on additional Adversary Pool"));
                self.phase = Phase::Surprise;
            }
            (Phase::Surprise, Action::Face(f)) => {
                // Ruling: 1 the Company is surprised, 6 the Adversaries, else nobody.
                self.surprise = match f {
                    1 => Surprise::Company,
                    6 => Surprise::Adversaries,
                    _ => Surprise::Nobody,
                };
                self.momentum = FORTUNE;
                self.note(|s| {
                    format!("Surprise roll {f}: {:?} surprised; Momentum {}", s.surprise, s.momentum)
                });
                self.begin_round();
            }
            (Phase::DeclareOrder, Action::Face(f)) => {
                self.declare_turn = if f % 2 == 0 { PARTY_SIDE } else { DM_SIDE };
                if self.to_declare[self.declare_turn].is_empty() {
                    self.declare_turn = 1 - self.declare_turn;
                }
                self.note(|s| {
                    format!(
                        "Declaration roll {f}: {} declares first",
                        ["the party", "the DM"][s.declare_turn]
                    )
                });
                self.phase = Phase::Declare;
            }
            (Phase::Declare, Action::Declare(intent)) => self.apply_declare(intent),
            (Phase::Initiative, Action::Face(f)) => self.apply_initiative(f),
            (Phase::Winds, Action::Face(f)) => self.winds_roll(f),
            (Phase::Activation, a) => self.apply_activation(a),
            _ => {}
        }
    }

    /// A new round: refresh the Adversary Pool and declare.
    fn begin_round(&mut self) {
        self.pool =
            if self.round == 1 && self.surprise == Surprise::Adversaries { 0 } else { self.adversary_pool() };
        self.note(|s| {
            format!(
                "Round {}: Momentum {}, Adversary Pool {}, Threat {}",
                s.round, s.momentum, s.pool, s.threat
            )
        });
        self.determine_winds();
    }

    /// The DM's Champion (the model a Nemesis is made of).
    pub(crate) fn champion(&self) -> Option<u8> {
        self.models.iter().position(|m| m.profile.kind == Kind::Champion).map(|i| i as u8)
    }

    /// The Adversary Pool: the A/C/E values of the adversaries in play, plus what Threat
    /// bought at set-up.
    fn adversary_pool(&self) -> u8 {
        self.models.iter().filter(|m| m.in_play() && m.side() == DM_SIDE).map(|m| m.profile.pool).sum::<u8>()
            + self.bought_pool
    }

    /// Bookkeeping at the end of a round: Momentum gains for defeated elites (+1),
    /// champions (+2) and a Nemesis (+5), and for outnumbering the adversaries (+2).
    fn bookkeeping(&mut self) {
        let mut gain = 0u8;
        for &m in &self.defeated {
            let p = self.models[m as usize].profile;
            gain += match p.kind {
                Kind::Elite => 1,
                Kind::Champion if p.nemesis => crate::data::NEMESIS_MOMENTUM,
                Kind::Champion => 2,
                _ => 0,
            };
        }
        if self.in_play(PARTY_SIDE) > self.in_play(DM_SIDE) {
            gain += 2;
        }
        self.defeated.clear();
        // "2. Subtract Action costs from Pool 3. Result is Momentum Pool for next turn 4. If
        // below 0: All Company Models gain Banes equal to deficit; set Pool to 0"
        let spent = self.momentum_spent;
        let net = self.momentum as i16 + gain as i16 - spent as i16;
        self.momentum_spent = 0;
        if net < 0 {
            let deficit = (-net) as u8;
            self.momentum = 0;
            for m in self.models.iter_mut().filter(|m| m.in_play() && m.side() == PARTY_SIDE) {
                m.conditions.banes = m.conditions.banes.max(deficit);
            }
            self.note(|_| {
                format!("Bookkeeping: Momentum +{gain} −{spent} is below 0: every Company model gains {deficit} Bane(s)")
            });
        } else {
            self.momentum = (net as u8).min(MAX_MOMENTUM);
            self.note(|s| format!("Bookkeeping: Momentum +{gain} −{spent} = {}", s.momentum));
        }
        // Deafened lasts until Bookkeeping (ruling).
        for m in &mut self.models {
            m.conditions.deafened = false;
        }
        // "Apply Global Effects: [...] Reduce Duration trackers by 1. Remove effects with
        // Duration 0 after applying."
        if self.gloom > 0 {
            self.gloom -= 1;
            self.note(|s| match s.gloom {
                0 => "The Gloom lifts (Duration 0)".to_string(),
                d => format!("The Gloom lasts (Duration {d})"),
            });
        }
    }

    /// "Check Morale" (the seed: "See Psychology & Leadership rules"; illustrative ruling):
    /// once fewer than half the Adversaries that began the Encounter are in play, or their
    /// Champion is out of play, each Adversary in play takes a Morale check at Bookkeeping, a
    /// Basic Routine Cool check; on a Failure or a Bane it is Broken ("Move away from
    /// enemies. Cannot use Actions."): it checks again at each of its Start Phases (passed, it
    /// is no longer Broken), a Rally of its leader ends it, and it routs when it reaches its
    /// side's edge of the Board Section ([`crate::activation::flight_edge`]).
    ///
    /// The Company (illustrative, "Henchmen: [...] use Morale to track loyalty", "Followers:
    /// [...] use Obedience to track loyalty"): once fewer than half of it is in play or a
    /// Character is out of play, each Henchman in play takes the same Morale check; a
    /// Follower whose Character is out of play takes an Obedience check (a Basic Routine check
    /// of its Obedience). Broken, they flee the same way. Frenzied models are immune ("Immune to
    /// Psychology").
    fn check_morale(&mut self) {
        let mut checks = Vec::new();
        for side in [DM_SIDE, PARTY_SIDE] {
            let members: Vec<u8> =
                (0..self.models.len() as u8).filter(|&m| self.models[m as usize].side() == side).collect();
            let in_play = members.iter().filter(|&&m| self.models[m as usize].in_play()).count();
            let leader = if side == DM_SIDE { Kind::Champion } else { Kind::Character };
            let leader_down = members.iter().any(|&m| {
                let x = &self.models[m as usize];
                x.profile.kind == leader && !x.in_play()
            });
            let shaken = in_play > 0 && (2 * in_play < members.len() || leader_down);
            for &m in &members {
                let x = &self.models[m as usize];
                let checks_now = match x.profile.kind {
                    Kind::Follower => x
                        .profile
                        .follows
                        .and_then(|c| self.named(c))
                        .is_some_and(|c| !self.models[c as usize].in_play()),
                    Kind::Character => false,
                    _ => shaken,
                };
                // A Broken model takes its check again at its own Start Phase.
                if checks_now && x.in_play() && x.conditions.psychology() && !x.conditions.broken {
                    checks.push(m);
                }
            }
        }
        if !checks.is_empty() {
            self.note(|_| "Check Morale".to_string());
        }
        for &m in checks.iter().rev() {
            self.pending.push(Pending::Check(self.morale_check(m)));
        }
    }

    /// The winner if the Encounter is decided: the party when no adversary remains, the DM
    /// when no party model does.
    fn decided(&self) -> Option<Option<usize>> {
        if self.in_play(DM_SIDE) == 0 {
            Some(Some(PARTY_SIDE))
        } else if self.in_play(PARTY_SIDE) == 0 {
            Some(Some(DM_SIDE))
        } else {
            None
        }
    }

    fn finish(&mut self, winner: Option<usize>) {
        self.winner = winner;
        self.phase = Phase::Over;
        self.pending.clear();
        self.deferred = None;
        self.act = None;
        self.note(|s| match s.winner {
            Some(PARTY_SIDE) => "The Encounter ends: no Adversary remains".to_string(),
            Some(_) => "The Encounter ends: the party is out of play".to_string(),
            None => format!("The Encounter ends undecided after {MAX_ROUNDS} rounds"),
        });
    }

    /// Run the automatic steps until a decision, a chance node or the end.
    fn settle(&mut self) {
        let mut buf = Vec::new();
        loop {
            if self.phase == Phase::Over {
                return;
            }
            if self.phase != Phase::BuyPool {
                if let Some(w) = self.decided() {
                    self.finish(w);
                    return;
                }
            }
            match self.pending.last() {
                Some(&Pending::Attacks { attacker, target, left, steps }) => {
                    self.pending.pop();
                    self.next_attack(attacker, target, left, steps);
                    continue;
                }
                Some(&Pending::OffHand { attacker, target, steps }) => {
                    self.pending.pop();
                    if let Some(check) = self.off_hand_check(attacker, target, steps) {
                        self.pending.push(Pending::Check(check));
                    }
                    continue;
                }
                Some(&Pending::Interrupt { by }) => {
                    if self.interrupt_valid(by) {
                        return;
                    }
                    self.pending.pop();
                    continue;
                }
                Some(_) => return,
                None => {}
            }
            if let Some((m, action)) = self.deferred.take() {
                self.perform_deferred(m, action);
                continue;
            }
            match self.phase {
                Phase::BuyPool if self.setup_threat_left() == 0 => self.phase = Phase::Surprise,
                Phase::Declare if self.to_declare.iter().all(Vec::is_empty) => {
                    self.init_queue.clear();
                    self.phase = Phase::Initiative;
                }
                Phase::DeclareOrder if self.to_declare.iter().all(Vec::is_empty) => {
                    self.phase = Phase::Declare
                }
                Phase::Initiative if self.init_queue.is_empty() => self.order_activations(),
                Phase::Activation => match self.act {
                    None if self.cursor >= self.order.len() && !self.books_kept => {
                        self.bookkeeping();
                        self.books_kept = true;
                        self.check_morale();
                    }
                    None if self.cursor >= self.order.len() => {
                        self.books_kept = false;
                        if self.round >= MAX_ROUNDS {
                            self.finish(None);
                            return;
                        }
                        self.round += 1;
                        self.begin_round();
                    }
                    None => {
                        let m = self.order[self.cursor];
                        if self.models[m as usize].in_play() {
                            self.start_activation(m);
                        } else {
                            self.cursor += 1;
                        }
                    }
                    Some(a) => {
                        let over = a.ended || !self.models[a.model as usize].in_play() || {
                            self.activation_actions(&mut buf);
                            buf.len() == 1
                        };
                        buf.clear();
                        if !over {
                            return;
                        }
                        if self.models[a.model as usize].in_play() {
                            self.end_activation(a.model);
                        }
                        self.act = None;
                        self.cursor += 1;
                    }
                },
                _ => return,
            }
        }
    }
}
