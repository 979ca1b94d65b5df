//! The Encounter in words: actions described for logs, the board drawn as text, and each
//! side's observation (the other side's declarations masked until revealed).

use crate::board::{Cell, Terrain, HEIGHT, WIDTH};
use crate::state::{Action, Encounter, DM_SIDE};
use std::fmt::Write;

impl Encounter {
    /// An action in words (a chance outcome as it reads at the node where it stands: an Injury
    /// draw names its card).
    pub fn describe(&self, action: Action) -> String {
        let name = |m: u8| self.models.get(m as usize).map_or("?", |x| x.profile.name);
        let at = |c: Cell| format!("({},{})", c.x, c.y);
        let paid = |b: bool, what: &str| if b { format!(" ({what})") } else { String::new() };
        match action {
            Action::Face(f) => match (self.pending.last(), crate::data::INJURY_DECK.get(f as usize)) {
                (Some(crate::state::Pending::Injury { .. }), Some(card)) => {
                    format!("Injury card {} (Severity {})", card.name, card.severity)
                }
                _ => format!("die {f}"),
            },
            Action::Roll(o) => format!("{o:?}"),
            Action::BuyPool(k) => format!("spend {k} Threat on the Adversary Pool"),
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
            Action::Interrupt => "interrupt".to_string(),
            Action::Pass => "pass".to_string(),
            Action::Reroll => "re-roll with Luck".to_string(),
            Action::Accept if matches!(self.pending.last(), Some(crate::state::Pending::Soak { .. })) => {
                "take the wound(s)".to_string()
            }
            Action::Accept => "accept the roll".to_string(),
            Action::EndActivation => "end activation".to_string(),
        }
    }

    /// The board as text: `#` wall, `+`/`/` closed/open door, `=` closed stuck door, `o` obstacle, party models
    /// `0`–`3`, adversaries `a`–`e`; then the models with their state.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for y in 0..HEIGHT as u8 {
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
            let _ = writeln!(out, "  {i} {:16} {:?} {state}", m.profile.name, m.profile.kind);
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
