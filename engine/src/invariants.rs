//! Invariants that must hold after every step of every game; the random-play tests and
//! `tde fuzz` check them.

use crate::board::Terrain;
use crate::state::{GameState, Health, Player, RollRole, Stance, Step};

/// Every invariant the state breaks, in words; empty when all hold.
pub fn violations(state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    let board = state.board();
    let models = state.models();
    for (i, m) in models.iter().enumerate() {
        let p = state.profile(i as u8);
        if m.ap > p.ap_max {
            out.push(format!("m{i} holds {} AP, above its maximum {}", m.ap, p.ap_max));
        }
        if !m.is_conscious() && m.ap != 0 {
            out.push(format!("unconscious m{i} holds {} AP", m.ap));
        }
        if m.wounds > p.wounds {
            out.push(format!("m{i} has {} wounds, above its starting {}", m.wounds, p.wounds));
        }
        let cavalry = p.model_type == crate::profile::ModelType::Cavalry;
        if !cavalry && m.mount_wounds != 0 {
            out.push(format!("m{i} is not cavalry but has {} mount wounds", m.mount_wounds));
        }
        if cavalry && m.is_on_table() && (m.mount_wounds == 0 || m.wounds == 0 || !m.is_conscious()) {
            out.push(format!(
                "cavalry m{i} should have separated (rider {}, mount {})",
                m.wounds, m.mount_wounds
            ));
        }
        if cavalry && m.stance == Stance::Prone {
            out.push(format!("cavalry m{i} is prone"));
        }
        let off_table = matches!(m.health, Health::Remounted | Health::Reserve | Health::LeftTable);
        if !off_table && m.is_conscious() != (m.wounds > 0) {
            out.push(format!("m{i} is {:?} with {} wounds", m.health, m.wounds));
        }
        let accumulating = m.pending.wounds != 0 || m.pending.feat_ap != 0 || m.pending.take_out;
        if accumulating && state.dynamic().sequence.is_none() {
            out.push(format!("m{i} has sequence accumulators outside a sequence"));
        }
        if !m.is_on_table() {
            continue;
        }
        if m.cell as usize >= board.len() {
            out.push(format!("m{i} is off the board at cell {}", m.cell));
            continue;
        }
        let cell = board.cell(m.cell);
        if cell.terrain == Terrain::Impassable {
            out.push(format!("m{i} stands on impassable terrain"));
        }
        if m.z < cell.height {
            out.push(format!("m{i} is below the surface ({} < {})", m.z, cell.height));
        }
        if (m.stance == Stance::Climbing) != (m.z > cell.height) {
            out.push(format!("m{i} is {:?} at height {} over a {}\" surface", m.stance, m.z, cell.height));
        }
        if m.stance == Stance::Swimming && m.tokens.fire > 0 {
            out.push(format!("swimming m{i} is on fire"));
        }
        let in_water = cell.terrain == Terrain::Water && m.z == cell.height;
        if (m.stance == Stance::Swimming) != in_water {
            out.push(format!("m{i} is {:?} but in_water={in_water}", m.stance));
        }
        for (j, o) in models.iter().enumerate().skip(i + 1) {
            if o.is_on_table() && o.cell == m.cell {
                out.push(format!("m{i} and m{j} share cell {}", m.cell));
            }
        }
    }
    // A charge's blow is declared with the charge (p.33, p.39; ruling 149): one main roll.
    if let Some(seq) = state.dynamic().sequence.as_ref() {
        let mains = seq.rolls.iter().filter(|r| r.role == RollRole::Main).count();
        if matches!(seq.declared, crate::Action::Charge { .. }) && mains != 1 {
            out.push(format!("a charge under way holds {mains} main rolls"));
        }
    }
    match state.current_player() {
        Player::Chance => {
            let outcomes = state.chance_outcomes();
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            if outcomes.is_empty() || (total - 1.0).abs() > 1e-9 {
                out.push(format!("chance probabilities sum to {total} over {} outcomes", outcomes.len()));
            }
            if outcomes.iter().any(|&(_, p)| !(p > 0.0 && p <= 1.0)) {
                out.push("a chance outcome has a probability outside (0, 1]".to_string());
            }
        }
        Player::Side(_) => {
            let legal = state.legal_actions();
            if legal.is_empty() {
                out.push(format!("decision node without legal actions: {}", state.describe_node()));
            }
            if !crate::state::strictly_ascending(&legal) {
                out.push(format!("legal actions not sorted and distinct: {}", state.describe_node()));
            }
            // A leader ability card is a standing rule, never played (p.74, ruling 148).
            for a in &legal {
                if let (crate::Action::PlayCard { card, .. }, Some(Step::ChooseCard { side, .. })) =
                    (a, state.node())
                {
                    let kind = state.static_data().cards[*side as usize][*card as usize].kind;
                    if kind != crate::cards::CardKind::Effect {
                        out.push(format!("a leader ability card is offered as a play: {a}"));
                    }
                }
            }
        }
        Player::Terminal => {}
    }
    out
}
