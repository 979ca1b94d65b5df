//! The sight, cover and threat overlay of one cell: which enemy models would see a model of
//! the person's standing there, whether from cover, and which could shoot it (with the test
//! they would make) or charge it, from where they stand now. Worked out by the engine
//! ([`GameState::threat_to`]) with the rules of pp.30, 33 and 64.

use super::words::itemised;
use engine::render::model_name;
use engine::state::{Health, Side};
use engine::GameState;
use serde_json::{json, Value};

/// Why an overlay could not be worked out (the request named something that is not there).
pub type SightError = String;

/// Cover words for a sight: "hard cover", "soft cover", "hard and soft cover" or "no cover".
fn cover_words(sight: engine::board::Sight) -> &'static str {
    match (sight.hard_cover, sight.soft_cover) {
        (true, true) => "hard and soft cover",
        (true, false) => "hard cover",
        (false, true) => "soft cover",
        (false, false) => "no cover",
    }
}

/// The model the overlay imagines at the cell: `asked` when given, else the model acting or
/// moving now, else the first model of `side` on the table and able to act.
fn figure(state: &GameState, asked: Option<u32>, side: Side) -> Result<u8, SightError> {
    let count = state.models().len();
    if let Some(m) = asked {
        return if (m as usize) < count {
            Ok(m as u8)
        } else {
            Err(format!("field `model`: {m} is not a model (there are {count}, numbered from 0)"))
        };
    }
    let d = state.dynamic();
    let acting = d.sequence.as_ref().map(|s| s.actor).or(d.activating);
    if let Some(m) = acting.filter(|&m| state.models()[m as usize].side == side) {
        return Ok(m);
    }
    (0..count as u8)
        .find(|&m| {
            let ms = &state.models()[m as usize];
            ms.side == side && ms.is_on_table() && ms.health == Health::Conscious
        })
        .or_else(|| (0..count as u8).find(|&m| state.models()[m as usize].side == side))
        .ok_or_else(|| "this side has no model to imagine there".to_string())
}

/// The overlay of cell (`x`, `y`) in `state` for a model of `side` (the one `model` names,
/// or [`figure`]'s choice): every conscious enemy model on the table with what it sees of
/// the cell and what it could do there.
pub fn sight(state: &GameState, side: Side, x: u32, y: u32, model: Option<u32>) -> Result<Value, SightError> {
    let board = state.board();
    if x >= board.width() as u32 {
        return Err(format!("field `x`: {x} is off the board (columns 0 to {})", board.width() - 1));
    }
    if y >= board.depth() as u32 {
        return Err(format!("field `y`: {y} is off the board (rows 0 to {})", board.depth() - 1));
    }
    let cell = board.idx(x as u8, y as u8);
    let m = figure(state, model, side)?;
    let own = state.models()[m as usize].side;
    let narrative = state.static_data().variant.narrative_feats;
    let mut enemies = Vec::new();
    let (mut seen, mut covered, mut shooters, mut chargers) = (0, 0, 0, 0);
    for (e, em) in state.models().iter().enumerate() {
        let e = e as u8;
        if em.side == own || !em.is_on_table() || em.health != Health::Conscious {
            continue;
        }
        let threat = state.threat_to(e, m, cell);
        let shots: Vec<Value> = threat
            .shots
            .iter()
            .map(|(w, roll, mods)| {
                let p = state.profile(e);
                let levels = engine::odds::level_distribution(roll.attr as i32, narrative);
                let from = if roll.pass_range { 2 } else { 3 };
                let modifiers: Vec<Value> = itemised(p.marksmanship, roll.attr, mods)
                    .iter()
                    .map(|(why, by)| json!({"why": why, "by": by}))
                    .collect();
                json!({
                    "weapon": p.weapons[*w as usize].name,
                    "band": if roll.pass_range { "short" } else { "long" },
                    "base": p.marksmanship,
                    "attr": roll.attr,
                    "modifiers": modifiers,
                    "needed": if roll.pass_range { "Pass" } else { "Nailed It" },
                    "success": levels[from..].iter().sum::<f64>(),
                })
            })
            .collect();
        let Some(sight) = threat.sight else {
            if threat.charge {
                chargers += 1;
                enemies.push(json!({
                    "id": e, "name": model_name(state, e), "ap": em.ap, "sees": false,
                    "cover": Value::Null, "shots": shots, "charge": true,
                    "distance": board.edge_distance(em.cell, em.z, cell, board.cell(cell).height),
                }));
            }
            continue;
        };
        seen += 1;
        covered += usize::from(sight.hard_cover || sight.soft_cover);
        shooters += usize::from(!shots.is_empty());
        chargers += usize::from(threat.charge);
        enemies.push(json!({
            "id": e, "name": model_name(state, e), "ap": em.ap, "sees": true,
            "cover": cover_words(sight), "shots": shots, "charge": threat.charge,
            "distance": board.edge_distance(em.cell, em.z, cell, board.cell(cell).height),
        }));
    }
    let plural =
        |n: usize, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
    let summary = format!(
        "{} it{}; {} could shoot it, {} could charge it",
        plural(seen, "enemy model sees", "enemy models see"),
        if covered > 0 { format!(" ({covered} of them only past cover)") } else { String::new() },
        shooters,
        chargers
    );
    let c = board.cell(cell);
    Ok(json!({
        "cell": [x, y],
        "height": c.height,
        "figure": {"id": m, "name": model_name(state, m)},
        "enemies": enemies,
        "summary": summary,
        "how": "from where each enemy model stands now, as if the figure stood on this cell: sight and cover by the rules of line of sight (p.64), shots the rules allow (p.30), and charges a full standing move would make",
    }))
}
