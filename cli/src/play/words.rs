//! The log in players' words: every test with its attribute (profile value, modifiers, the
//! value tested), the result it needs, the dice faces and the result level; armour rolls with
//! damage against toughness and the dice; what a roll did (a weapon jammed, where a move
//! stopped, why VP were scored); and the sides named "you" and "the bot".
//!
//! The engine rolls a test as one chance outcome per result level; the faces shown are drawn
//! (from the table's seed) among the faces that give that very result, each as likely as the
//! dice make it, so they read as the roll itself.

use engine::dice::{evaluate, TestLevel, TestRoll, FEAT_SYMBOL};
use engine::render::model_name;
use engine::state::{CombatKind, CombatRoll, Health, Purpose, Side, Step};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The attribute a combat roll tests: its name, its profile value, whether only a Nailed It
/// succeeds, and why.
pub(crate) fn attribute_of(
    state: &GameState,
    roll: &CombatRoll,
) -> (&'static str, u8, bool, Option<&'static str>) {
    let p = state.profile(roll.model);
    let (name, base) = match roll.kind {
        CombatKind::Shoot { .. } | CombatKind::Template { .. } => ("Marksmanship", p.marksmanship),
        CombatKind::CloseCombat { .. } => ("Close Combat", p.cc),
        CombatKind::Dodge => ("Agility", p.agility),
        CombatKind::Reveal => ("Intelligence", p.intelligence),
    };
    let long = !roll.pass_range && matches!(roll.kind, CombatKind::Shoot { .. } | CombatKind::Reveal);
    let why = long.then_some(if roll.kind == CombatKind::Reveal {
        "beyond 8\", a Pass reveals nothing"
    } else {
        "beyond the weapon's short range a Pass misses"
    });
    (name, base, long, why)
}

/// A modifier's amount with its sign: "+1", "−2".
fn signed(d: i32) -> String {
    if d < 0 {
        format!("−{}", -d)
    } else {
        format!("+{d}")
    }
}

/// The modifiers that take `base` to `attr`, each with its reason; what they leave unexplained
/// is named "other modifiers", and a sum beyond the dice's range is said to be kept within it.
pub(crate) fn itemised(base: u8, attr: u8, mods: &[(&'static str, i32)]) -> Vec<(&'static str, i32)> {
    let mut out = mods.to_vec();
    let sum = base as i32 + mods.iter().map(|m| m.1).sum::<i32>();
    if engine::dice::clamp_attribute(sum) != attr {
        out.push(("other modifiers", attr as i32 - sum));
    }
    out
}

/// "Marksmanship 7, soft cover −1, shooting while swimming or climbing −1 = 5", or "Agility 5"
/// when nothing modifies it; a sum beyond the dice's range says so.
pub(crate) fn attribute_words(name: &str, base: u8, attr: u8, mods: &[(&'static str, i32)]) -> String {
    let items = itemised(base, attr, mods);
    if items.is_empty() {
        return format!("{name} {attr}");
    }
    let list: Vec<String> = items.iter().map(|(why, d)| format!("{why} {}", signed(*d))).collect();
    let sum = base as i32 + items.iter().map(|m| m.1).sum::<i32>();
    let kept = if sum != attr as i32 { format!(" (kept within 1 to 9 from {sum})") } else { String::new() };
    format!("{name} {base}, {} = {attr}{kept}", list.join(", "))
}

/// The level (and high die) an outcome's words name: "Nailed It (high die 3)".
fn parse_level(outcome: &str) -> Option<(TestLevel, u8)> {
    let level = TestLevel::ALL.into_iter().rev().find(|l| outcome.starts_with(l.words()))?;
    let high = outcome
        .split("high die ")
        .nth(1)
        .and_then(|rest| rest.trim_end_matches(')').parse().ok())
        .unwrap_or(0);
    Some((level, high))
}

/// Faces of a roll against `attr` giving `level` (and `high` when not 0), drawn from `seed`.
fn faces(attr: u8, level: TestLevel, high: u8, narrative: bool, seed: u64) -> Option<TestRoll> {
    let fits: Vec<TestRoll> = engine::odds::all_rolls()
        .filter(|r| {
            let o = evaluate(attr as i32, *r, narrative);
            o.level == level && (high == 0 || o.high_die == high)
        })
        .collect();
    (!fits.is_empty()).then(|| fits[ChaCha8Rng::seed_from_u64(seed).gen_range(0..fits.len())])
}

/// "4 and Q": the attribute die, then the feat die (its 1 is the feat symbol Q).
fn faces_words(roll: TestRoll) -> String {
    let feat = if roll.feat_die == FEAT_SYMBOL { "Q".to_string() } else { roll.feat_die.to_string() };
    format!("{} and {feat}", roll.attribute_die)
}

/// The modifiers of a movement test: only blindness changes Agility there (Blind, p.53).
pub(crate) fn movement_modifiers(state: &GameState, m: u8) -> Vec<(&'static str, i32)> {
    if state.models()[m as usize].tokens.blind {
        vec![("blinded", -2)]
    } else {
        Vec::new()
    }
}

/// The log line of chance outcome `action` at `before`, in full: `text` is the engine's
/// one-line description, `seed` draws the faces shown, and `declared(r)` is the state at which
/// combat roll `r` was declared (where the models stood then: the mover has moved, or stood up,
/// by the time it rolls), for its modifiers.
pub fn roll_line<'a>(
    before: &'a GameState,
    action: Action,
    text: String,
    seed: u64,
    declared: impl Fn(usize) -> Option<&'a GameState>,
) -> String {
    let Action::Chance(i) = action else { return text };
    let narrative = before.static_data().variant.narrative_feats;
    match before.node() {
        Some(Step::Test { model, attr, purpose, .. })
            if before.chance_kind() == Some(engine::state::ChanceKind::AttributeTest) =>
        {
            let outcome = before.described_chance_outcomes().into_iter().find(|o| o.action == action);
            let Some((level, high)) = outcome.as_ref().and_then(|o| parse_level(&o.outcome)) else {
                return text;
            };
            let (what, needs_nailed, why) = match purpose {
                Purpose::Combat(r) => {
                    match before.dynamic().sequence.as_ref().and_then(|s| s.rolls.get(*r as usize)) {
                        Some(roll) => {
                            let (name, base, nailed, why) = attribute_of(before, roll);
                            // The active model's own roll is declared where it rolls (a charge
                            // strikes once it has moved); the others before the move.
                            let at = match roll.role {
                                engine::state::RollRole::Main => before,
                                _ => declared(*r as usize).unwrap_or(before),
                            };
                            let mods = at.roll_modifiers(roll);
                            (attribute_words(name, base, *attr, &mods), nailed, why)
                        }
                        None => (format!("against {attr}"), false, None),
                    }
                }
                Purpose::Movement => {
                    let mods = movement_modifiers(before, *model);
                    (attribute_words("Agility", before.profile(*model).agility, *attr, &mods), false, None)
                }
                Purpose::Interact | Purpose::Command | Purpose::Infiltrate => {
                    let base = before.profile(*model).intelligence;
                    (attribute_words("Intelligence", base, *attr, &[]), false, None)
                }
            };
            let needed = if needs_nailed { "Nailed It" } else { "Pass" };
            let why = why.map(|w| format!(" ({w})")).unwrap_or_default();
            let dice = faces(*attr, level, high, narrative, seed ^ u64::from(i))
                .map(|r| format!("rolled {}: ", faces_words(r)))
                .unwrap_or_default();
            let success = if needs_nailed { level >= TestLevel::NailedIt } else { level >= TestLevel::Pass };
            let verdict = if success { "success" } else { "no success" };
            let head = text.split(": ").next().unwrap_or(&text).to_string();
            format!("{head}: {what}, needs {needed}{why}; {dice}{} — {verdict}", level.words())
        }
        Some(Step::Armour { model, damage, target, .. }) => {
            let p = before.profile(*model);
            let wounds = i.min(*damage);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xa7);
            let mut dice: Vec<u8> = (0..*damage)
                .map(|k| if k < wounds { rng.gen_range(target + 1..=10) } else { rng.gen_range(1..=*target) })
                .collect();
            dice.sort_unstable();
            let dice: Vec<String> = dice.iter().map(u8::to_string).collect();
            format!(
                "{text} — damage {damage} against Toughness {} and Armour {}: rolled {}",
                p.toughness,
                p.total_armour(),
                dice.join(", ")
            )
        }
        // Both sides roll a D10; the lowest roll chooses to take or give the Initiative (p.21).
        Some(Step::RollOff) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0ff);
            let low = rng.gen_range(1..=9u8);
            let high = rng.gen_range(low + 1..=10);
            let (a, b) = if i == 0 { (low, high) } else { (high, low) };
            let lowest = if i == 0 { "side A" } else { "side B" };
            format!(
                "Initiative roll-off: side A rolls {a}, side B rolls {b} on a D10; {lowest} rolls \
                 lowest and chooses to take or give the Initiative"
            )
        }
        _ => text,
    }
}

/// A decision in the rulebook's words where the engine's one-line description is terse.
pub fn decision_line(before: &GameState, action: Action, text: String) -> String {
    match action {
        Action::CommandAp(n) => {
            let leader = match before.node() {
                Some(Step::ChooseCommandAp { .. }) => {
                    text.split(" has the order").next().unwrap_or("the leader")
                }
                _ => "the leader",
            };
            format!("{leader}'s command order moves {n} AP (a Nailed It lets it move 1 or 2, p.46)")
        }
        // "chooses the edge along row 0": the edge as the board is drawn.
        Action::Zone(z) => {
            let board = before.board();
            let (who, _) = text.split_once(" chooses ").unwrap_or(("", ""));
            let who = if who.is_empty() { String::new() } else { format!("{who} ") };
            if text.contains("the edge along") {
                let edge = ["top", "bottom", "left", "right"][z as usize % 4];
                format!("{who}chooses the {edge} edge of the table as its deployment edge")
            } else {
                let (xe, ye) = engine::scenario::zones::corner_edges(z);
                let (x, y) = (
                    if xe == 2 { 0 } else { board.width() - 1 },
                    if ye == 0 { 0 } else { board.depth() - 1 },
                );
                let corner = format!(
                    "{}-{}",
                    if ye == 0 { "top" } else { "bottom" },
                    if xe == 2 { "left" } else { "right" }
                );
                format!("{who}chooses the {corner} corner of the table, at ({x},{y})")
            }
        }
        _ => text,
    }
}

/// What an action did that the engine's consequences leave out: weapons jammed or broken, a
/// move that stopped short of where it was going.
pub fn side_effects(before: &GameState, after: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    for (m, (a, b)) in before.models().iter().zip(after.models()).enumerate() {
        let p = before.profile(m as u8);
        for (w, weapon) in p.weapons.iter().enumerate() {
            let bit = 1u8 << w;
            if b.jammed & bit != 0 && a.jammed & bit == 0 {
                out.push(format!(
                    "{}'s {} jams (it must be cleared before it fires again)",
                    model_name(after, m as u8),
                    weapon.name
                ));
            }
            if b.broken & bit != 0 && a.broken & bit == 0 {
                out.push(format!("{}'s {} breaks", model_name(after, m as u8), weapon.name));
            }
        }
    }
    if let (Some(seq), None) = (before.dynamic().sequence.as_ref(), after.dynamic().sequence.as_ref()) {
        let mover = &after.models()[seq.actor as usize];
        if let Some(dest) = seq.path.points.last() {
            if mover.is_on_table() && mover.cell != dest.cell && mover.health != Health::TakenOut {
                let board = after.board();
                let (x, y) = board.xy(mover.cell);
                let (dx, dy) = board.xy(dest.cell);
                out.push(format!(
                    "{} stopped at ({x},{y}), short of ({dx},{dy}) where it was going",
                    model_name(after, seq.actor)
                ));
            }
        }
    }
    out
}

/// Why `side` scored between `before` and `after`, as far as the table can tell.
pub fn why_scored(before: &GameState, after: &GameState, side: Side) -> String {
    let (b, a) = (&before.dynamic().scenario, &after.dynamic().scenario);
    if let (Some(g0), Some(g1)) = (b.grudges[side as usize], a.grudges[side as usize]) {
        if g1.complete && !g0.complete {
            return format!("for its grudge against {}", model_name(after, g1.target));
        }
    }
    let hit: Vec<String> = before
        .models()
        .iter()
        .zip(after.models())
        .enumerate()
        .filter(|(_, (x, y))| {
            x.side != side && x.side < 2 && x.health != y.health && y.health != Health::Conscious
        })
        .map(|(m, _)| model_name(after, m as u8))
        .collect();
    if !hit.is_empty() {
        return format!("for putting {} out of the fight", hit.join(" and "));
    }
    for (k, (x, y)) in b.markers.iter().zip(&a.markers).enumerate() {
        if (y.controller == Some(side) && x.controller != Some(side)) || (y.off_table && !x.off_table) {
            return format!("for marker {}", k + 1);
        }
    }
    if after.turn() != before.turn() || after.is_terminal() {
        return format!("at the end of turn {}, for what it holds", before.turn());
    }
    "by the scenario's scoring".to_string()
}

/// `text` with "side A" and "side B" named from the person's seat: "your side (A)", "the
/// bot's side (B)".
pub fn seat_words(text: &str, human: Option<Side>) -> String {
    let Some(human) = human else { return text.to_string() };
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = rest.find("side ") {
        let (head, tail) = rest.split_at(at);
        out.push_str(head);
        let letter = tail[5..].chars().next();
        let boundary = tail[5..].chars().nth(1).is_none_or(|c| !c.is_alphanumeric());
        match letter {
            Some(l @ ('A' | 'B')) if boundary => {
                let s = u8::from(l == 'B');
                out.push_str(&if s == human {
                    format!("your side ({l})")
                } else {
                    format!("the bot's side ({l})")
                });
                rest = &tail[6..];
            }
            _ => {
                out.push_str("side ");
                rest = &tail[5..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_named_from_the_seat() {
        assert_eq!(
            seat_words("side A scores 1 VP; side B's grudge", Some(0)),
            "your side (A) scores 1 VP; the bot's side (B)'s grudge"
        );
        assert_eq!(seat_words("side B wins", Some(0)), "the bot's side (B) wins");
        assert_eq!(seat_words("the side AI moves, side C", Some(1)), "the side AI moves, side C");
        assert_eq!(seat_words("side A", None), "side A");
    }

    #[test]
    fn modifiers_are_itemised_with_their_reasons() {
        assert_eq!(attribute_words("Agility", 5, 5, &[]), "Agility 5");
        assert_eq!(
            attribute_words(
                "Marksmanship",
                7,
                5,
                &[("soft cover", -1), ("smoke in the way", -2), ("Spray within short range", 1)]
            ),
            "Marksmanship 7, soft cover −1, smoke in the way −2, Spray within short range +1 = 5"
        );
        assert_eq!(attribute_words("Close Combat", 6, 4, &[]), "Close Combat 6, other modifiers −2 = 4");
        assert_eq!(
            attribute_words("Marksmanship", 2, 1, &[("hard cover", -1), ("blinded", -2)]),
            "Marksmanship 2, hard cover −1, blinded −2 = 1 (kept within 1 to 9 from -1)"
        );
    }

    #[test]
    fn faces_give_the_level_they_are_shown_with() {
        for attr in 1..=9u8 {
            for level in TestLevel::ALL {
                if let Some(r) = faces(attr, level, 0, false, 3) {
                    assert_eq!(evaluate(attr as i32, r, false).level, level);
                }
            }
        }
        assert_eq!(parse_level("Nailed It (high die 3)"), Some((TestLevel::NailedIt, 3)));
        assert_eq!(parse_level("Fail"), Some((TestLevel::Fail, 0)));
        assert_eq!(parse_level("no wound"), None);
    }
}
