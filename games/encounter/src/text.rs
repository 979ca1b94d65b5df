//! The Encounter in words: actions described for logs, the board drawn as text, and each
//! side's observation (the other side's declarations masked until revealed).

use crate::board::{Cell, Terrain, HEIGHT, WIDTH};
use crate::state::{Action, Encounter, Pending, Phase, DM_SIDE};
use std::fmt::Write;

impl Encounter {
    /// An action in words (a chance outcome as it reads at the node where it stands: an Injury
    /// draw names its card).
    pub fn describe(&self, action: Action) -> String {
        let name = |m: u8| self.models.get(m as usize).map_or("?", |x| x.profile.name);
        let paid = |b: bool, what: &str| if b { format!(" ({what})") } else { String::new() };
        match action {
            Action::Face(f) => match (self.pending.last(), crate::data::INJURY_DECK.get(f as usize)) {
                (Some(crate::state::Pending::Injury { .. }), Some(card)) => {
                    format!("Injury card {} (Severity {})", card.name, card.severity)
                }
                (Some(crate::state::Pending::CastOnes(_)), _) => format!("{f} die(s) of the Magic Pool show a 1"),
                (Some(crate::state::Pending::CastMarks(..)), _) => format!("the other dice score {f} Mark(s)"),
                _ => format!("die {f}"),
            },
            Action::Roll(o) => format!("{o:?}"),
            Action::BuyPool(k) => format!("spend {k} Threat on the Adversary Pool (and end the set-up spending)"),
            Action::BuyTalent => format!(
                "spend 1 Threat on the Menacing Talent (a Company model starting its activation in the Champion's Danger Zone is Demoralized {})",
                crate::data::MENACE
            ),
            Action::BuyEffect => format!(
                "spend 1 Threat on the Gloom Effect (ranged attacks +{} difficulty for {} rounds)",
                crate::data::GLOOM_STEPS,
                crate::data::GLOOM_DURATION
            ),
            Action::Declare(i) => format!("declare {i:?}"),
            Action::Advance(c) => format!("advance to {}", at(c)),
            Action::Disengage { to, momentum } => {
                format!("disengage to {}{}", at(to), paid(momentum, "2 Momentum"))
            }
            Action::ChangePlace { ally, momentum } => {
                format!("change place with {}{}", name(ally), paid(momentum, "1 Momentum"))
            }
            Action::Reposition(c) => format!("reposition to {}", at(c)),
            Action::Drag { body, to } => format!("drag {} along, to {}", name(body), at(to)),
            Action::OpenDoor(c) => format!("open the door at {}", at(c)),
            Action::ForceDoor(c) => format!("force the stuck door at {}", at(c)),
            Action::Prepare => "prepare".to_string(),
            Action::Ease => "ease the next check by 2 steps (1 Momentum)".to_string(),
            Action::Empower => "activate the weapon's Critical Hit quality on the next hit (2 Momentum)".to_string(),
            Action::BreakFree => "try to break free".to_string(),
            Action::ClearSight => "clear its sight".to_string(),
            Action::Hide => "hide".to_string(),
            Action::Soak => "soak the wound with armour".to_string(),
            Action::StandUp => "stand up".to_string(),
            Action::Strike { target, boost, extra } => {
                format!("strike {}{}{}", name(target), paid(boost, "difficulty −2"), paid(extra, "+1 attack"))
            }
            Action::Shoot { target, boost } => {
                format!("shoot {}{}", name(target), paid(boost, "difficulty −2"))
            }
            Action::Interrupt => match self.pending.last() {
                Some(&Pending::Interrupt { by }) if self.interrupt_costs_momentum(by) => {
                    "interrupt (gain a Reaction for 2 Momentum)".to_string()
                }
                _ => "interrupt".to_string(),
            },
            Action::Pass => "pass".to_string(),
            Action::Reroll => "re-roll with Luck".to_string(),
            Action::Push { stress: true } => "push: re-roll for 1 Stress".to_string(),
            Action::Push { stress: false } => "push: re-roll for 1 Fatigue".to_string(),
            Action::DarkDeal => "make a Dark Deal: re-roll for 1 Corruption".to_string(),
            Action::Recuperate { stress: true } => "recuperate: a Challenging Cool check to recover 1 Stress".to_string(),
            Action::Recuperate { stress: false } => {
                "recuperate: a Challenging Endurance check to recover 1 Fatigue".to_string()
            }
            Action::Accept if matches!(self.pending.last(), Some(crate::state::Pending::Soak { .. })) => {
                "take the wound(s)".to_string()
            }
            Action::Accept if matches!(self.pending.last(), Some(crate::state::Pending::Fate { .. })) => {
                "meet death (keep the Fate Point)".to_string()
            }
            Action::Accept if matches!(self.pending.last(), Some(crate::state::Pending::Channel(_))) => {
                "let the spell go (it fails)".to_string()
            }
            Action::SpendFate => "spend a Fate Point to escape certain death".to_string(),
            Action::Accept => "accept the roll".to_string(),
            Action::EndActivation => "end activation".to_string(),
            Action::Cast { spell, at: target } => {
                let sp = &crate::data::SPELLS[(spell as usize).min(crate::data::SPELLS.len() - 1)];
                let on = self.model_at(target).map_or("?", name);
                let how = match sp.effect {
                    crate::data::SpellEffect::Bolt(d) => format!("a hit of {d} damage dice"),
                    crate::data::SpellEffect::Blast(d) => {
                        let all: Vec<&str> = self.spell_victims(spell, target).into_iter().map(name).collect();
                        format!("{d} damage dice on every model around it: {}", all.join(", "))
                    }
                };
                format!("cast {} at {on} {} (Casting Number {}; {how})", sp.name, at(target), sp.casting_number)
            }
            Action::Channel => "roll the Magic Pool again".to_string(),
            Action::Extinguish => "beat out the flames (ends Ablaze)".to_string(),
            Action::DrinkDraught => format!(
                "drink a healing draught (Manage Equipment: +{} Wound)",
                crate::data::DRAUGHT_WOUNDS
            ),
            Action::BuyNemesis => format!(
                "spend 1 Threat to field the Champion as a Nemesis ({} Wounds, a Luck and a Fate Point; +{} Momentum to the party when defeated)",
                crate::data::NEMESIS.wounds,
                crate::data::NEMESIS_MOMENTUM
            ),
            Action::Assist { ally } => format!("assist {} (Favour on its next check)", name(ally)),
            Action::Pray => {
                let prayer = self.act.and_then(|a| self.models[a.model as usize].profile.prayer);
                prayer.map_or("pray".to_string(), |p| {
                    format!(
                        "pray for {} (a Routine Cool check: Inspired {} within {} squares)",
                        p.name, p.inspired, p.radius
                    )
                })
            }
        }
    }

    /// An option at a decision as a player reads it: the action in words, what a manoeuvre
    /// is for where its name does not say, and its odds from the engine's own checks
    /// ([`Encounter::option_odds`]).
    pub fn describe_option(&self, action: Action) -> String {
        let what = match action {
            Action::Prepare => "prepare (your next check this activation is one step easier)".to_string(),
            Action::Reposition(_) => {
                format!(
                    "{} (one step, staying in the enemy's Danger Zone: no Interrupt)",
                    self.describe(action)
                )
            }
            _ => self.describe(action),
        };
        match self.option_odds(action) {
            Some(odds) => format!("{what} [{odds}]"),
            None => what,
        }
    }

    /// The question at the current decision in words: who decides (the player's own model),
    /// and what is at stake.
    pub fn decision_prompt(&self) -> String {
        let name = |m: u8| self.name(m);
        match self.pending.last() {
            Some(&Pending::Interrupt { by }) => {
                let (mover, what) = match self.deferred {
                    Some((mover, a)) => (name(mover), self.describe(a)),
                    None => ("?", String::new()),
                };
                let cost = match self.models[by as usize].reactions {
                    0 => format!("for 2 Momentum, a Reaction gained (Momentum to spend {})", self.momentum_left()),
                    r => format!("for a Reaction ({r} left)"),
                };
                format!("{} may Interrupt {mover} ({what}): one melee attack before it moves, {cost}", name(by))
            }
            Some(&Pending::Soak { target, wounds }) => {
                let t = &self.models[target as usize];
                format!(
                    "{} is about to take {wounds} wound(s) (Wounds left {}): {}'s armour (armour {}, Soak {} left) may soak one; soaking costs 1 armour and 1 Soak, a wound taken draws an Injury card",
                    name(target),
                    t.wounds,
                    name(target),
                    t.armour,
                    t.soak
                )
            }
            Some(&Pending::Fate { model, slayer }) => {
                let cause = match slayer {
                    Some(by) => format!("{} is about to slay it where it lies abandoned", name(by)),
                    None => "its wounds take it below 0 Wounds".to_string(),
                };
                format!(
                    "{} faces certain death ({cause}): spend a Fate Point ({} left) to escape it, lying out of play?",
                    name(model),
                    self.models[model as usize].fate
                )
            }
            Some(Pending::Channel(c)) => {
                let sp = &crate::data::SPELLS[c.spell as usize];
                let mag = self.models[c.caster as usize].profile.magic;
                format!(
                    "{}'s {}: {} of {} Marks after {} of {} roll(s), {} one(s) so far (Mag {mag}: a Minor Miscast at {mag} ones, Major above, Catastrophic at {}): roll the {} dice again?",
                    name(c.caster),
                    sp.name,
                    c.marks,
                    sp.casting_number,
                    c.rolls,
                    crate::data::CAST_ROLLS,
                    c.ones,
                    2 * mag,
                    c.dice
                )
            }
            Some(Pending::Reroll(check, outcome)) => {
                let who = check.luck.map_or("?", name);
                let x = check.luck.map(|m| &self.models[m as usize]);
                let track = |f: fn(&crate::state::Model) -> u8| x.map_or(0, f);
                format!(
                    "{who}'s check came out {outcome:?}: re-roll it? (Luck {} left; Fatigue {}/{}, Stress {}/{}, Corruption {}/{})",
                    track(|m| m.luck),
                    track(|m| m.fatigue),
                    crate::data::FATIGUE_LIMIT,
                    track(|m| m.stress),
                    crate::data::STRESS_LIMIT,
                    track(|m| m.corruption),
                    crate::data::CORRUPTION_THRESHOLD
                )
            }
            _ => match (self.phase, self.act) {
                (_, Some(a)) => {
                    let m = &self.models[a.model as usize];
                    let major = if a.major { "Major action spent" } else { "Major action free" };
                    let momentum = if m.side() == DM_SIDE {
                        format!("Adversary Pool {}, Threat {}", self.pool, self.threat)
                    } else {
                        format!("Momentum to spend {}", self.momentum_left())
                    };
                    let extra = if self.extra_minor(a.model) {
                        format!(" (another costs 1 Fatigue: {}/{})", m.fatigue, crate::data::FATIGUE_LIMIT)
                    } else {
                        String::new()
                    };
                    format!(
                        "{} to act (at {}, Wounds {}): {major}, {} Minor action(s) used{extra}; {momentum}",
                        m.profile.name,
                        at(m.cell),
                        m.wounds,
                        a.minors
                    )
                }
                (Phase::Declare, None) => {
                    let side = match self.node() {
                        crate::flow::Node::Decision(p) => p,
                        _ => 0,
                    };
                    let names: Vec<&str> = self.next_declarer(side).iter().map(|&m| name(m)).collect();
                    format!(
                        "{} to declare, hidden from the other side until all have declared: Fight may Strike, Shoot may Shoot, Cast may cast a spell (Winds of Magic {:+}), Move takes Minor actions only (the lower the modifier, the earlier it acts)",
                        names.join(", "),
                        self.winds
                    )
                }
                (Phase::BuyPool, None) => format!(
                    "The DM may spend Threat ({} left, {} more at set-up) on additional Adversary Pool, a Talent or an Effect",
                    self.threat,
                    self.setup_threat_left()
                ),
                _ => format!("{:?}", self.phase),
            },
        }
    }

    /// The board as text with its axes labelled (x across the top, y down the left, as the
    /// squares are named `(x,y)`): `#` wall, `+`/`/` closed/open door, `=` closed stuck door,
    /// `o` obstacle, party models `0`–`3`, adversaries `a`–`e`; then the models with their
    /// state.
    pub fn render(&self) -> String {
        let mut out = String::from("  x");
        for x in 0..WIDTH {
            let _ = write!(out, "{}", x % 10);
        }
        out.push_str("\ny\n");
        for y in 0..HEIGHT as u8 {
            let _ = write!(out, "{:>2} ", y);
            for x in 0..WIDTH as u8 {
                let c = Cell::new(x, y);
                let ch = match self.model_at(c).or(self.body_at(c)) {
                    Some(m) if (m as usize) < crate::data::PARTY.len() => (b'0' + m) as char,
                    Some(m) => (b'a' + m - crate::data::PARTY.len() as u8) as char,
                    None => match self.board.at(c) {
                        Terrain::Wall => '#',
                        Terrain::Door { open: false } if self.stuck.iter().any(|d| d.cell == c) => '=',
                        Terrain::Door { open: false } => '+',
                        Terrain::Door { open: true } => '/',
                        Terrain::Obstacle => 'o',
                        Terrain::Floor => '.',
                    },
                };
                out.push(ch);
            }
            out.push('\n');
        }
        for (i, m) in self.models.iter().enumerate() {
            let state = if m.dead {
                "slain".to_string()
            } else if m.body() {
                "out of play, lying on the board (drag or abandon)".to_string()
            } else if m.routed {
                "Broken, routed off the board".to_string()
            } else if m.out {
                "out of play".to_string()
            } else if m.profile.soak > 0 {
                format!("W{} A{} Soak{} {:?}", m.wounds, m.armour, m.soak, m.conditions.names())
            } else {
                format!("W{} {:?}", m.wounds, m.conditions.names())
            };
            let place = if m.in_play() || m.body() { format!(" at {}", at(m.cell)) } else { String::new() };
            let _ = writeln!(out, "  {i} {:16}{place} {:?} {state}", m.profile.name, m.profile.kind);
        }
        out
    }

    /// What `player` sees: everything but the other side's unrevealed declarations.
    pub fn observation_text(&self, player: usize) -> String {
        let mut masked = self.clone();
        masked.log = None;
        let other = 1 - player.min(DM_SIDE);
        if !self.intents_visible(player, other) {
            for m in masked.models.iter_mut().filter(|m| m.side() == other) {
                m.intent = None;
            }
        }
        format!("{masked:?}")
    }
}

/// A square as the board's axes name it: `(x,y)`.
fn at(c: Cell) -> String {
    format!("({},{})", c.x, c.y)
}
