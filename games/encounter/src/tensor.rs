//! The Encounter as tensors for learned agents ([`TensorGame`]): planes over the 10×8 board
//! section as the observer sees it, global features, and a fixed policy index for every
//! action (board-square actions on policy planes, the rest as global logits).

use crate::board::{Cell, Terrain, HEIGHT, WIDTH};
use crate::checks::Outcome;
use crate::state::{Action, Encounter, Intent, Phase};
use agents::{Recipe, TensorGame, TensorShape};

const CELLS: usize = WIDTH * HEIGHT;
/// Observation planes: walls and obstacles, closed doors, own models, enemy models, wounds
/// left (share of the profile's), Prone, the active model, enemy Danger Zones, Hidden,
/// hindered (Stunned, Staggered, Bleeding, Ablaze, Entangled, Blinded, Drained, Weakened,
/// Demoralized, Cowed, Distressed, Strained, Broken, Deafened or exhausted by Fatigue), Soak
/// left (share of the profile's).
const PLANES: usize = 11;
/// Models in the illustrative data.
const MODELS: usize = 9;
/// Intents a model may declare (Move, Fight, Shoot, Cast).
const INTENTS: usize = 4;
/// Phases of the round.
const PHASES: usize = 8;
/// Globals: round, Momentum, Pool, Threat, the observer's side, eight phases, per model
/// four visible-intent flags, the Gloom's Duration left, the Menacing Talent and the Winds of
/// Magic.
const GLOBALS: usize = 5 + PHASES + INTENTS * MODELS + 3;
/// Policy planes: Advance, Disengage, Disengage with Momentum, Reposition, Open Door, Force
/// Door, Drag of each of the two Characters (models 0 and 1), Cast of each of the two spells
/// (at the square).
const POLICY_PLANES: usize = 10;
/// Die faces (and Marks of a roll to force a door, offset by its dice) 0–15.
const FACES: usize = 16;
/// Global logits: die faces 0–15, five outcomes, BuyPool 0–3, four intents, Change Place
/// (ally × paid), Prepare, Stand Up, Strike (target × boost × extra), Shoot (target × boost),
/// Interrupt, Pass, Reroll, Accept, End, Soak, Break Free, Clear Sight, Hide, Spend Fate,
/// Buy Talent, Buy Effect, Ease, Empower, Push (Fatigue, Stress), Dark Deal, Recuperate
/// (Fatigue, Stress), Channel, Pray, Assist (ally), Extinguish, Buy Nemesis, Drink Draught.
const POLICY_GLOBALS: usize =
    FACES + 5 + 4 + INTENTS + 2 * MODELS + 2 + 4 * MODELS + 2 * MODELS + 24 + MODELS;

fn cell_index(c: Cell) -> u32 {
    c.y as u32 * WIDTH as u32 + c.x as u32
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::BuyPool => 0,
        Phase::Surprise => 1,
        Phase::DeclareOrder => 2,
        Phase::Declare => 3,
        Phase::Initiative => 4,
        Phase::Activation => 5,
        Phase::Over => 6,
        Phase::Winds => 7,
    }
}

fn global(i: usize) -> (usize, Recipe) {
    (POLICY_PLANES * CELLS + i, Recipe { spatial: [None, None], global: [Some(i as u16), None] })
}

impl TensorGame for Encounter {
    fn tensor_shape(&self) -> TensorShape {
        TensorShape {
            planes: PLANES,
            depth: HEIGHT,
            width: WIDTH,
            globals: GLOBALS,
            policy_planes: POLICY_PLANES,
            policy_globals: POLICY_GLOBALS,
            policy_size: POLICY_PLANES * CELLS + POLICY_GLOBALS,
        }
    }

    fn encode_observation(&self, player: usize, planes: &mut [f32], globals: &mut [f32]) {
        planes.iter_mut().for_each(|x| *x = 0.0);
        globals.iter_mut().for_each(|x| *x = 0.0);
        for y in 0..HEIGHT as u8 {
            for x in 0..WIDTH as u8 {
                let c = Cell::new(x, y);
                let i = cell_index(c) as usize;
                match self.board.at(c) {
                    Terrain::Wall | Terrain::Obstacle => planes[i] = 1.0,
                    Terrain::Door { open: false } => planes[CELLS + i] = 1.0,
                    _ => {}
                }
            }
        }
        let active = self.act.map(|a| a.model);
        for (m, model) in self.models.iter().enumerate().filter(|(_, m)| m.in_play()) {
            let i = cell_index(model.cell) as usize;
            let own = model.side() == player;
            planes[if own { 2 } else { 3 } * CELLS + i] = 1.0;
            planes[4 * CELLS + i] = model.wounds as f32 / model.profile.wounds.max(1) as f32;
            let c = model.conditions;
            planes[5 * CELLS + i] = c.prone as u8 as f32;
            planes[8 * CELLS + i] = c.hidden as u8 as f32;
            let hindered = c.stunned
                || c.staggered > 0
                || c.blinded
                || c.drained
                || c.distressed
                || c.strained
                || c.broken
                || c.deafened
                || c.bleeding + c.entangled + c.weakened + c.demoralized + c.ablaze + c.cowed > 0
                || model.fatigue >= crate::data::FATIGUE_LIMIT;
            planes[9 * CELLS + i] = hindered as u8 as f32;
            planes[10 * CELLS + i] = model.soak as f32 / model.profile.soak.max(1) as f32;
            if active == Some(m as u8) {
                planes[6 * CELLS + i] = 1.0;
            }
            if !own {
                for y in 0..HEIGHT as u8 {
                    for x in 0..WIDTH as u8 {
                        if self.threatens(m as u8, Cell::new(x, y)) {
                            planes[7 * CELLS + cell_index(Cell::new(x, y)) as usize] = 1.0;
                        }
                    }
                }
            }
        }
        globals[0] = self.round as f32 / crate::data::MAX_ROUNDS as f32;
        globals[1] = self.momentum_left() as f32 / crate::flow::MAX_MOMENTUM as f32;
        globals[2] = self.pool as f32 / 12.0;
        globals[3] = self.threat as f32 / crate::data::THREAT.max(1) as f32;
        globals[4] = player as f32;
        globals[5 + phase_index(self.phase)] = 1.0;
        for (m, model) in self.models.iter().enumerate().take(MODELS) {
            if !self.intents_visible(player, model.side()) {
                continue;
            }
            if let Some(intent) = model.intent {
                let k = match intent {
                    Intent::Move => 0,
                    Intent::Fight => 1,
                    Intent::Shoot => 2,
                    Intent::Cast => 3,
                };
                globals[5 + PHASES + INTENTS * m + k] = 1.0;
            }
        }
        let rest = 5 + PHASES + INTENTS * MODELS;
        globals[rest] = self.gloom as f32 / crate::data::GLOOM_DURATION as f32;
        globals[rest + 1] = self.menacing as u8 as f32;
        globals[rest + 2] = self.winds as f32;
    }

    fn encode_action(&self, action: Action) -> Result<(usize, Recipe), String> {
        let spatial = |plane: usize, c: Cell| {
            let cell = cell_index(c);
            (
                plane * CELLS + cell as usize,
                Recipe { spatial: [Some((plane as u16, cell)), None], global: [None, None] },
            )
        };
        let model = |m: u8| if (m as usize) < MODELS { Ok(m as usize) } else { Err(format!("no model {m}")) };
        let on_board = |c: Cell| {
            if (c.x as usize) < WIDTH && (c.y as usize) < HEIGHT {
                Ok(c)
            } else {
                Err(format!("square {c:?} is off the board"))
            }
        };
        const BASE_FACE: usize = 0;
        const BASE_ROLL: usize = FACES;
        const BASE_BUY: usize = BASE_ROLL + 5;
        const BASE_DECLARE: usize = BASE_BUY + 4;
        const BASE_CHANGE: usize = BASE_DECLARE + INTENTS;
        const BASE_PREPARE: usize = BASE_CHANGE + 2 * MODELS;
        const BASE_STRIKE: usize = BASE_PREPARE + 2;
        const BASE_SHOOT: usize = BASE_STRIKE + 4 * MODELS;
        const BASE_OTHER: usize = BASE_SHOOT + 2 * MODELS;
        Ok(match action {
            Action::Advance(c) => spatial(0, on_board(c)?),
            Action::Disengage { to, momentum } => spatial(1 + momentum as usize, on_board(to)?),
            Action::Reposition(c) => spatial(3, on_board(c)?),
            Action::OpenDoor(c) => spatial(4, on_board(c)?),
            Action::ForceDoor(c) => spatial(5, on_board(c)?),
            Action::Drag { body, to } if body < 2 => spatial(6 + body as usize, on_board(to)?),
            Action::Drag { body, .. } => return Err(format!("model {body} is not a Character")),
            Action::Cast { spell, at } if spell < 2 => spatial(8 + spell as usize, on_board(at)?),
            Action::Cast { spell, .. } => return Err(format!("no spell {spell}")),
            Action::Face(f) if (f as usize) < FACES => global(BASE_FACE + f as usize),
            Action::Face(f) => return Err(format!("no face {f}")),
            Action::Roll(o) => global(BASE_ROLL + Outcome::ALL.iter().position(|&x| x == o).unwrap_or(0)),
            Action::BuyPool(k) if k <= 3 => global(BASE_BUY + k as usize),
            Action::BuyPool(k) => return Err(format!("cannot buy {k}")),
            Action::Declare(i) => global(BASE_DECLARE + i as usize),
            Action::ChangePlace { ally, momentum } => {
                global(BASE_CHANGE + 2 * model(ally)? + momentum as usize)
            }
            Action::Prepare => global(BASE_PREPARE),
            Action::StandUp => global(BASE_PREPARE + 1),
            Action::Strike { target, boost, extra } => {
                global(BASE_STRIKE + 4 * model(target)? + 2 * boost as usize + extra as usize)
            }
            Action::Shoot { target, boost } => global(BASE_SHOOT + 2 * model(target)? + boost as usize),
            Action::Interrupt => global(BASE_OTHER),
            Action::Pass => global(BASE_OTHER + 1),
            Action::Reroll => global(BASE_OTHER + 2),
            Action::Accept => global(BASE_OTHER + 3),
            Action::EndActivation => global(BASE_OTHER + 4),
            Action::Soak => global(BASE_OTHER + 5),
            Action::BreakFree => global(BASE_OTHER + 6),
            Action::ClearSight => global(BASE_OTHER + 7),
            Action::Hide => global(BASE_OTHER + 8),
            Action::SpendFate => global(BASE_OTHER + 9),
            Action::BuyTalent => global(BASE_OTHER + 10),
            Action::BuyEffect => global(BASE_OTHER + 11),
            Action::Ease => global(BASE_OTHER + 12),
            Action::Empower => global(BASE_OTHER + 13),
            Action::Push { stress } => global(BASE_OTHER + 14 + stress as usize),
            Action::DarkDeal => global(BASE_OTHER + 16),
            Action::Recuperate { stress } => global(BASE_OTHER + 17 + stress as usize),
            Action::Channel => global(BASE_OTHER + 19),
            Action::Pray => global(BASE_OTHER + 20),
            Action::Assist { ally } => global(BASE_OTHER + 21 + model(ally)?),
            Action::Extinguish => global(BASE_OTHER + 21 + MODELS),
            Action::BuyNemesis => global(BASE_OTHER + 22 + MODELS),
            Action::DrinkDraught => global(BASE_OTHER + 23 + MODELS),
        })
    }
}
