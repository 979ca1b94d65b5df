//! The AI Dungeon Master and a scripted party: one rule-based player that reads the node and
//! plays whichever side is to move. As the DM it spends Threat at set-up on a Nemesis and the
//! Adversary Pool (keeping the rest for its champion), plays minions with basic actions only (their
//! legal actions are nothing else), elites situationally (the Pool to ease an attack on a
//! hurt target) and its champion with Threat (an extra attack on a target it can finish: no more Wounds left
//! than its attacks with the extra one).
//! The party side strikes or shoots the most hurt adversary, closes in otherwise, and spends
//! Momentum and Luck where they count, drinks a healing draught at its last Wound, and first drags a knocked-out comrade out of an
//! Adversary's Danger Zone (where it would be slain). Both sides always soak a wound while their armour can,
//! clear a Blinded model's sight first and try to break free of Entangled before moving; a
//! shooter held in melee gets out (Disengage, or an Advance out of every Danger Zone) to
//! shoot. Any other agent of the framework (`random`, `mcts`) comes from
//! [`crate::make_agent`].

use crate::board::{Cell, Terrain, HEIGHT, WIDTH};
use crate::data::Kind;
use crate::flow::Node;
use crate::state::{Action, Encounter, Intent, Pending, Phase, DM_SIDE};
use agents::Agent;

/// The scripted player of either side.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScriptedAgent;

impl Agent<Encounter> for ScriptedAgent {
    fn name(&self) -> String {
        "scripted".to_string()
    }

    fn select_action(&mut self, s: &Encounter) -> Action {
        let mut legal = Vec::new();
        s.legal_into(&mut legal);
        let has = |a: Action| legal.binary_search(&a).is_ok();
        match s.pending().last() {
            // Luck when it has it; it neither pushes nor deals with the dark.
            Some(Pending::Reroll(..)) => {
                return if has(Action::Reroll) { Action::Reroll } else { Action::Accept }
            }
            // The scripted party keeps its Momentum for its own attacks: it does not buy a
            // Reaction.
            Some(&Pending::Interrupt { by }) if s.interrupt_costs_momentum(by) => return Action::Pass,
            Some(Pending::Interrupt { .. }) => return Action::Interrupt,
            // A wound now (and its Injury) costs more than a point of armour later.
            Some(Pending::Soak { .. }) => return Action::Soak,
            // Death is worse than a Fate Point spent.
            Some(Pending::Fate { .. }) => return Action::SpendFate,
            // Roll the Magic Pool again while the next roll cannot bring a Catastrophic
            // Miscast.
            Some(Pending::Channel(c)) => {
                let mag = s.models()[c.caster as usize].profile.magic;
                return if c.ones + c.dice < 2 * mag { Action::Channel } else { Action::Accept };
            }
            _ => {}
        }
        let choice = match (s.phase(), s.node()) {
            // Its Champion as a Nemesis (a Wound more, Luck and Fate), then 1 Pool.
            (Phase::BuyPool, _) => [Action::BuyNemesis, Action::BuyPool(1)].into_iter().find(|&a| has(a)),
            (Phase::Declare, Node::Decision(side)) => {
                Some(Action::Declare(declare(s, side))).filter(|&a| has(a))
            }
            (Phase::Activation, _) => activate(s, &legal),
            _ => None,
        };
        choice.unwrap_or(legal[0])
    }
}

/// Cast when a caster of the declarer has a Fireball that would catch two enemies and no
/// friend now; else Shoot when a model of the declarer has a ranged weapon and a target to
/// shoot now; else Fight.
fn declare(s: &Encounter, side: usize) -> Intent {
    let members = s.next_declarer(side);
    if members.iter().any(|&m| best_blast(s, m).is_some_and(|(enemies, _)| enemies >= 2)) {
        return Intent::Cast;
    }
    let shooter = members.iter().any(|&m| {
        s.models()[m as usize].profile.ranged_weapon.is_some()
            && (0..s.models().len() as u8)
                .any(|t| s.models()[t as usize].side() != side && s.shot_possible(m, t))
    });
    if shooter {
        Intent::Shoot
    } else {
        Intent::Fight
    }
}

/// The active model's action.
fn activate(s: &Encounter, legal: &[Action]) -> Option<Action> {
    let act = s.activation()?;
    let m = act.model;
    // No additional Minor action for Fatigue: with its free Minors used, only its Major or
    // the end remain.
    let majors: Vec<Action>;
    let legal = if s.extra_minor(m) {
        majors = legal
            .iter()
            .copied()
            .filter(|a| {
                matches!(
                    a,
                    Action::StandUp
                        | Action::Strike { .. }
                        | Action::Shoot { .. }
                        | Action::Cast { .. }
                        | Action::EndActivation
                )
            })
            .collect();
        &majors[..]
    } else {
        legal
    };
    let me = &s.models()[m as usize];
    // Broken ("Move away from enemies"): it flees towards its side's edge of the board.
    if me.conditions.broken {
        return Some(flee(s, m, legal));
    }
    if legal.contains(&Action::StandUp) {
        return Some(Action::StandUp);
    }
    // Blinded: clear its sight first (a Minor; the Major is still to come).
    if legal.contains(&Action::ClearSight) {
        return Some(Action::ClearSight);
    }
    // Ablaze: beat out the flames before they burn again.
    if legal.contains(&Action::Extinguish) {
        return Some(Action::Extinguish);
    }
    // At its last Wound, a healing draught first (Manage Equipment, a Minor).
    if legal.contains(&Action::DrinkDraught) && me.wounds == 1 {
        return Some(Action::DrinkDraught);
    }
    // A knocked-out comrade lying in an Adversary's Danger Zone is slain there at that
    // Adversary's End Phase ("must be dragged or abandoned"): drag it out first.
    if let Some(d) = rescue(s, legal) {
        return Some(d);
    }
    let wounds = |t: u8| s.models()[t as usize].wounds;
    // The enemies that still fight come first: a Broken one cannot strike back.
    let broken = |t: u8| s.models()[t as usize].conditions.broken;
    let kind = me.profile.kind;
    // A prayer with the free Minor before a Strike, unless already Inspired.
    if legal.contains(&Action::Pray)
        && me.conditions.inspired == 0
        && legal.iter().any(|a| matches!(a, Action::Strike { .. }))
    {
        return Some(Action::Pray);
    }
    // A caster casts the Fireball where it catches the most enemies (two or more) and no
    // friend, else the Dart of Light at the most hurt enemy it can see.
    let casts = legal.iter().any(|a| matches!(a, Action::Cast { .. }));
    if let Some((_, at)) = best_blast(s, m).filter(|&(n, _)| casts && n >= 2) {
        let blast = Action::Cast { spell: 1, at };
        if legal.contains(&blast) {
            return Some(blast);
        }
    }
    let dart = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Cast { spell: 0, at } => s.model_at(at).map(|t| ((broken(t), wounds(t)), t, a)),
            _ => None,
        })
        .min_by_key(|&(w, t, _)| (w, t));
    if let Some((.., a)) = dart {
        return Some(a);
    }
    // Attacks: the most hurt target first; spend by tier (the party what it holds, never on
    // credit), falling back to a plain attack where the spending is not allowed (a surprised
    // elite or champion uses Basic actions only).
    let pool = s.pool() > 0 && matches!(kind, Kind::Elite | Kind::Champion);
    let party = me.side() != DM_SIDE;
    let target = |shoot: bool| {
        legal
            .iter()
            .filter_map(|&a| match a {
                Action::Strike { target, .. } if !shoot => Some(target),
                Action::Shoot { target, .. } if shoot => Some(target),
                _ => None,
            })
            .min_by_key(|&t| (broken(t), wounds(t), t))
    };
    if let Some(t) = target(false) {
        // A target it can finish with the extra attack: no more Wounds left than its
        // attacks with the extra one, at one wound a hit.
        let finishable = wounds(t) <= me.profile.attacks + 1;
        let (boost, extra) = match kind {
            Kind::Minion => (false, false),
            Kind::Elite => (pool, false),
            Kind::Champion => (pool, finishable && s.threat() > 0),
            _ => (held(s) >= 1, held(s) >= 5),
        };
        let wished = Action::Strike { target: t, boost, extra };
        return Some(if legal.contains(&wished) {
            wished
        } else {
            Action::Strike { target: t, boost: false, extra: false }
        });
    }
    if let Some(t) = target(true) {
        let boost = kind != Kind::Minion && if party { held(s) >= 2 } else { pool };
        let wished = Action::Shoot { target: t, boost };
        return Some(if legal.contains(&wished) {
            wished
        } else {
            Action::Shoot { target: t, boost: false }
        });
    }
    if act.major {
        return Some(Action::EndActivation);
    }
    // Entangled with nothing to strike or shoot: try to break free before moving.
    if legal.contains(&Action::BreakFree) {
        return Some(Action::BreakFree);
    }
    // A shooter in melee gets out (with Momentum when it has it) to shoot.
    if me.intent == Some(Intent::Shoot) && s.engaged(m) {
        if let Some(&d) =
            legal.iter().find(|a| matches!(a, Action::Disengage { momentum: true, .. }) && held(s) >= 2)
        {
            return Some(d);
        }
        if let Some(&d) = legal.iter().find(|a| matches!(a, Action::Disengage { .. })) {
            return Some(d);
        }
    }
    // Close in on the enemies that still fight (on the Broken when none does).
    let in_play = |e: &&crate::state::Model| e.in_play() && e.side() != me.side();
    let fighting = s.models().iter().filter(in_play).any(|e| !e.conditions.broken);
    let enemies: Vec<Cell> = s
        .models()
        .iter()
        .filter(in_play)
        .filter(|e| !(fighting && e.conditions.broken))
        .map(|e| e.cell)
        .collect();
    let field = walking_distance(s, &enemies);
    let dist = |c: Cell| field[c.y as usize * WIDTH + c.x as usize];
    let here = dist(me.cell);
    // A shooter held in melee that cannot Disengage (a Minion) steps out of every Danger
    // Zone by an Advance, taking the Interrupts, as far from the enemies as it can, to shoot
    // with its Major.
    if me.intent == Some(Intent::Shoot) && s.engaged(m) && !act.major {
        let out = legal
            .iter()
            .filter_map(|&a| match a {
                Action::Advance(c) if !s.in_enemy_zone(m, c) => Some((dist(c), c, a)),
                _ => None,
            })
            .max_by_key(|&(d, c, _)| (d, std::cmp::Reverse(c)));
        if let Some((.., a)) = out {
            return Some(a);
        }
    }
    // Close in on the nearest enemy by walking distance, doors counted open (a shooter only
    // while it has nothing to shoot); open a door that lies on the way.
    let door = legal.iter().find(|a| matches!(a, Action::OpenDoor(c) if dist(*c) < here)).copied();
    if door.is_some() {
        return door;
    }
    let best = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Advance(c) => Some((dist(c), c, a)),
            _ => None,
        })
        .min_by_key(|&(d, c, _)| (d, c));
    match best {
        Some((d, _, a)) if d < here => Some(a),
        _ => Some(Action::EndActivation),
    }
}

/// Where Broken model `m` flees: the Advance (all lead away from the enemies) nearest its
/// side's edge of the board by walking distance ([`crate::activation::flight_edge`], where it
/// routs), then the farthest from the enemies; the end of its activation when it has none.
fn flee(s: &Encounter, m: u8, legal: &[Action]) -> Action {
    let side = s.models()[m as usize].side();
    let edge: Vec<Cell> = (0..HEIGHT as u8)
        .flat_map(|y| (0..WIDTH as u8).map(move |x| Cell::new(x, y)))
        .filter(|&c| crate::activation::flight_edge(side, c) && s.board().at(c) == Terrain::Floor)
        .collect();
    let field = walking_distance(s, &edge);
    legal
        .iter()
        .filter_map(|&a| match a {
            Action::Advance(c) => {
                let away = s.enemy_distance(m, c).unwrap_or(0);
                Some(((field[c.y as usize * WIDTH + c.x as usize], std::cmp::Reverse(away), c), a))
            }
            _ => None,
        })
        .min_by_key(|&(key, _)| key)
        .map_or(Action::EndActivation, |(_, a)| a)
}

/// Where caster `m` would best cast the Fireball (spell 1) now: the enemy square whose
/// template catches the most enemies and none of `m`'s side, with that count; `None` when no
/// such square is in its reach.
fn best_blast(s: &Encounter, m: u8) -> Option<(usize, Cell)> {
    let side = s.models()[m as usize].side();
    s.spell_targets(m, 1)
        .into_iter()
        .filter_map(|at| {
            let caught = s.spell_victims(1, at);
            let friends = caught.iter().any(|&v| s.models()[v as usize].side() == side);
            (!friends).then_some((caught.len(), at))
        })
        .max_by_key(|&(n, at)| (n, std::cmp::Reverse(at)))
}

/// The Drag that saves a knocked-out comrade lying in an enemy's Danger Zone: the one
/// leaving the body under the fewest enemies' Danger Zones, then the dragger farthest from
/// the enemies; `None` when no comrade lying next to the active model is threatened.
fn rescue(s: &Encounter, legal: &[Action]) -> Option<Action> {
    let m = s.activation()?.model;
    let side = s.models()[m as usize].side();
    let threats = |c: Cell| {
        (0..s.models().len() as u8)
            .filter(|&e| s.models()[e as usize].side() != side && s.threatens(e, c))
            .count()
    };
    let enemies: Vec<Cell> =
        s.models().iter().filter(|e| e.in_play() && e.side() != side).map(|e| e.cell).collect();
    let field = walking_distance(s, &enemies);
    legal
        .iter()
        .filter_map(|&a| match a {
            Action::Drag { body, to } if threats(s.models()[body as usize].cell) > 0 => {
                let lands = s.drag_squares(m, body).into_iter().find(|d| d.0 == to)?.1;
                let away = field[to.y as usize * WIDTH + to.x as usize];
                Some(((threats(lands), std::cmp::Reverse(away), to), a))
            }
            _ => None,
        })
        .min_by_key(|&(key, _)| key)
        .map(|(_, a)| a)
}

/// The Momentum the party holds and has not spent this round: the scripted party never
/// spends on credit (a deficit at Bookkeeping gives every Company model Banes).
fn held(s: &Encounter) -> u8 {
    s.momentum().saturating_sub(s.momentum_spent())
}

/// King-move distance from every square to the nearest of `targets` over floor and doors
/// (open or not, but not a closed stuck door: the script does not force doors), ignoring models; `u16::MAX` where none can be reached.
pub(crate) fn walking_distance(s: &Encounter, targets: &[Cell]) -> Vec<u16> {
    let mut field = vec![u16::MAX; WIDTH * HEIGHT];
    let mut queue: std::collections::VecDeque<Cell> = targets.iter().copied().collect();
    for c in targets {
        field[c.y as usize * WIDTH + c.x as usize] = 0;
    }
    while let Some(c) = queue.pop_front() {
        let d = field[c.y as usize * WIDTH + c.x as usize];
        for y in c.y.saturating_sub(1)..=(c.y + 1).min(HEIGHT as u8 - 1) {
            for x in c.x.saturating_sub(1)..=(c.x + 1).min(WIDTH as u8 - 1) {
                let to = Cell::new(x, y);
                let i = y as usize * WIDTH + x as usize;
                let stuck = s.board().at(to) == (Terrain::Door { open: false })
                    && s.stuck_doors().iter().any(|d| d.cell == to);
                let open = !stuck && matches!(s.board().at(to), Terrain::Floor | Terrain::Door { .. });
                if open && field[i] == u16::MAX {
                    field[i] = d + 1;
                    queue.push_back(to);
                }
            }
        }
    }
    field
}

impl Encounter {
    /// The models of the next declarer of `side` (none when it has declared all).
    pub fn next_declarer(&self, side: usize) -> Vec<u8> {
        self.to_declare[side].first().map_or(Vec::new(), |&d| self.declarer_models(side, d))
    }

    /// Whether `shooter` could shoot `target` from where it stands (range, Line of Sight,
    /// not Engaged unless a Pistol).
    pub fn shot_possible(&self, shooter: u8, target: u8) -> bool {
        self.can_shoot(shooter, target)
    }

    /// Whether model `m` is on the DM's side.
    pub fn is_adversary(&self, m: u8) -> bool {
        self.models.get(m as usize).is_some_and(|x| x.side() == DM_SIDE)
    }
}
