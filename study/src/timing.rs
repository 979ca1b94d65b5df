//! A whole reaction-timing study of one situation: the exact table, the values beyond the
//! sequence of every reaction and of holding the AP, and the best timing named in words.

use crate::beyond::{estimate, AgentFactory, Estimate, Sampling};
use crate::exact::{exact_table, firefight_node, ExactTable, ReactionRow, StudyError};
use engine::{Action, GameState};
use serde::Serialize;
use std::fmt::Write;

/// A study of the reaction choice pending in a situation.
#[derive(Clone, Debug, Serialize)]
pub struct Study {
    /// Where the situation came from (a setup file).
    pub situation: String,
    /// The exact table.
    pub exact: ExactTable,
    /// How the values beyond the sequence were sampled (absent when they were not).
    pub sampling: Option<Sampling>,
    /// Value beyond the sequence of each row of `exact.rows`, in order.
    pub beyond: Vec<Estimate>,
    /// Value beyond the sequence of holding the AP.
    pub hold_beyond: Option<Estimate>,
    /// The best timing in words.
    pub verdict: String,
}

/// Study the reaction choice pending in `state`; with `sampling`, also estimate every option's
/// value beyond the sequence with the agent `factory` builds.
pub fn study(
    state: &GameState,
    situation: &str,
    sampling: Option<(&Sampling, &AgentFactory)>,
) -> Result<Study, StudyError> {
    let exact = exact_table(state)?;
    let (beyond, hold_beyond) = match sampling {
        Some((sampling, factory)) if sampling.samples > 0 => {
            let mut decided: Vec<GameState> =
                exact.rows.iter().map(|r| decided_state(state, r, exact.side)).collect();
            let mut held = state.clone();
            held.apply_action(Action::EndReactions).expect("ending reactions is always legal");
            decided.push(held);
            let mut values = estimate(&decided, exact.side, sampling, factory)?;
            let hold = values.pop();
            (values, hold)
        }
        _ => (Vec::new(), None),
    };
    let mut s = Study {
        situation: situation.to_string(),
        exact,
        sampling: sampling.filter(|(s, _)| s.samples > 0).map(|(s, _)| s.clone()),
        beyond,
        hold_beyond,
        verdict: String::new(),
    };
    s.verdict = verdict(&s);
    Ok(s)
}

/// The state after a row's reaction and the mover's best answer to it.
fn decided_state(state: &GameState, row: &ReactionRow, side: engine::state::Side) -> GameState {
    let mut after = state.clone();
    after.apply_reaction_anywhere(row.action).expect("a listed reaction applies");
    match (&row.answer, firefight_node(&after, side)) {
        (Some(answer), Some(mut node)) => {
            node.apply_action(answer.action).expect("the answer is legal");
            node
        }
        _ => after,
    }
}

impl Study {
    /// Index of the best row: the highest value beyond the sequence when sampled, else the
    /// highest expected wounds dealt minus taken with the mover's best answer; ties go to the
    /// earlier point.
    pub fn best_row(&self) -> Option<usize> {
        let key = |i: usize| match self.beyond.get(i) {
            Some(e) => e.mean,
            None => self.exact.rows[i].net(),
        };
        (0..self.exact.rows.len()).fold(None, |best: Option<usize>, i| match best {
            Some(b) if key(b) >= key(i) - 1e-12 => Some(b),
            _ => Some(i),
        })
    }

    /// Index of the row "reacting at once" with the same reactor and kind as row `i`: its
    /// earliest point.
    pub fn at_once(&self, i: usize) -> usize {
        let r = &self.exact.rows[i];
        (0..self.exact.rows.len())
            .filter(|&j| self.exact.rows[j].reactor == r.reactor && self.exact.rows[j].kind == r.kind)
            .min_by_key(|&j| self.exact.rows[j].point)
            .unwrap_or(i)
    }
}

/// What changes for the reactor between two rows of one reaction, in words.
fn why(from: &ReactionRow, to: &ReactionRow, path: &[crate::exact::PathPoint]) -> String {
    let (a, b) = (&from.sighting, &to.sighting);
    let mut reasons = Vec::new();
    if a.hard_cover && !b.hard_cover {
        reasons.push("out of hard cover".to_string());
    }
    if !a.hard_cover && b.hard_cover {
        reasons.push("in hard cover".to_string());
    }
    if a.soft_cover != b.soft_cover {
        reasons.push(if b.soft_cover { "in soft cover" } else { "out of soft cover" }.to_string());
    }
    if !a.pass_range && b.pass_range {
        reasons.push("within pass range".to_string());
    }
    if a.pass_range && !b.pass_range {
        reasons.push("beyond pass range".to_string());
    }
    let (sa, sb) = (&path[from.point as usize].stance, &path[to.point as usize].stance);
    if sa != sb {
        reasons.push(format!("{sb} rather than {sa}"));
    }
    if a.reach != b.reach {
        reasons.push(
            match b.reach % 3 {
                0 => "where it always gets",
                1 => "where it gets only on a Pass of its movement test",
                _ => "where it gets only on Nailed It",
            }
            .to_string(),
        );
    }
    if reasons.is_empty() && b.attr != a.attr {
        reasons.push(format!("at {} instead of {} to hit", b.attr, a.attr));
    }
    reasons.join(", ")
}

/// The best timing named in words: the best reaction with what changes at its point and its
/// gain over reacting at once, and what holding the AP is worth next to it (beyond the sequence
/// when sampled, else in expected wounds over the sequence).
fn verdict(s: &Study) -> String {
    let Some(b) = s.best_row() else { return "no reaction is possible".to_string() };
    let rows = &s.exact.rows;
    let best = &rows[b];
    let first = &rows[s.at_once(b)];
    let p = &s.exact.path[best.point as usize];
    let mut out = format!(
        "{} should {} at point {} ({},{})",
        best.reactor_name, best.kind, best.point, p.cell[0], p.cell[1]
    );
    let reasons = why(first, best, &s.exact.path);
    if !reasons.is_empty() {
        let _ = write!(out, ", where {} is {reasons}", s.exact.mover_name);
    }
    if best.point != first.point {
        let gain = best.net() - first.net();
        let _ = write!(out, ": {gain:+.2} expected wounds over reacting at once (point {})", first.point);
    } else {
        let _ = write!(out, " (at once): {:+.2} expected wounds dealt minus taken", best.net());
    }
    if let Some(a) = &best.answer {
        let _ = write!(out, ", counting the mover's best answer ({})", a.text);
    }
    let hold_better = match (s.beyond.get(b), s.hold_beyond) {
        (Some(e), Some(h)) => {
            let _ = write!(
                out,
                "; beyond the sequence it is worth {:+.2} [{:+.2}, {:+.2}], holding the AP {:+.2} ({:+.2} relative)",
                e.mean,
                e.low,
                e.high,
                h.mean,
                h.mean - e.mean
            );
            h.mean > e.mean
        }
        _ => {
            let h = &s.exact.hold;
            let hold = h.expected_wounds_dealt - h.expected_wounds_taken;
            let _ = write!(
                out,
                "; holding the AP is worth {:+.2} expected wounds relative (and keeps it; no continuations sampled)",
                hold - best.net()
            );
            hold > best.net() + 1e-12
        }
    };
    if hold_better {
        out = format!("hold the AP: it is worth more than the best reaction. Best reaction: {out}");
    }
    out
}

/// The study as a table, one line per reaction at a point, with the equivalent points marked.
pub fn render_table(s: &Study) -> String {
    let e = &s.exact;
    let mut out = format!("{}: side {} reacts to {}\n", s.situation, e.side, e.declared);
    let _ = writeln!(out, "path of {}:", e.mover_name);
    for p in &e.path {
        let _ = writeln!(out, "  point {:>2}  ({},{}) h{} {}", p.point, p.cell[0], p.cell[1], p.z, p.stance);
    }
    let beyond = !s.beyond.is_empty();
    let _ = write!(
        out,
        "\n{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5} {:>7} {:>7} {:>6} {:>6} {:>6} {:>5}",
        "reactor / reaction",
        "pt",
        "reach",
        "attr",
        "band",
        "cover",
        "dist",
        "P(hit)",
        "P(down)",
        "dealt",
        "taken",
        "net*",
        "AP"
    );
    if beyond {
        let _ = write!(out, " {:>21}", "beyond [95%]");
    }
    let _ = writeln!(out, "  same as");
    for (i, r) in s.exact.rows.iter().enumerate() {
        let v = &r.exact;
        let cover = match (r.sighting.hard_cover, r.sighting.soft_cover) {
            (true, true) => "h+s",
            (true, false) => "hard",
            (false, true) => "soft",
            _ => "-",
        };
        let name = format!("{} {}", r.reactor_name, r.kind);
        let _ = write!(
            out,
            "{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5.1} {:>7.3} {:>7.3} {:>6.3} {:>6.3} {:>6.3} {:>5.2}",
            truncate(&name, 24),
            r.point,
            r.sighting.reach,
            r.sighting.attr,
            if r.sighting.pass_range { "pass" } else { "long" },
            cover,
            r.sighting.distance,
            v.p_active_hit,
            v.p_active_down,
            v.expected_wounds_dealt,
            v.expected_wounds_taken,
            r.net(),
            v.expected_ap_spent
        );
        if let Some(b) = s.beyond.get(i) {
            let _ = write!(out, " {:>+6.2} [{:+.2},{:+.2}]", b.mean, b.low, b.high);
        }
        let _ =
            writeln!(out, "  {}", r.same_as.map_or_else(|| "offered".to_string(), |k| format!("point {k}")));
    }
    let h = &e.hold;
    let _ = write!(
        out,
        "{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5} {:>7.3} {:>7.3} {:>6.3} {:>6.3} {:>6.3} {:>5.2}",
        "hold the AP",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        h.p_active_hit,
        h.p_active_down,
        h.expected_wounds_dealt,
        h.expected_wounds_taken,
        h.expected_wounds_dealt - h.expected_wounds_taken,
        h.expected_ap_spent
    );
    if let Some(b) = s.hold_beyond {
        let _ = write!(out, " {:>+6.2} [{:+.2},{:+.2}]", b.mean, b.low, b.high);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "\nnet* = expected wounds dealt minus taken once the mover answers with its best firefight."
    );
    let answers: Vec<String> = s
        .exact
        .rows
        .iter()
        .filter_map(|r| {
            r.answer
                .as_ref()
                .map(|a| format!("  point {} {} {}: {}", r.point, r.reactor_name, r.kind, a.text))
        })
        .collect();
    if !answers.is_empty() {
        let _ = writeln!(out, "the mover's best answers:\n{}", answers.join("\n"));
    }
    if let Some(sm) = &s.sampling {
        let _ = writeln!(
            out,
            "beyond = mean return for side {} playing the rest of the {} with {} ({} samples, seed {}).",
            e.side,
            match sm.horizon {
                crate::beyond::Horizon::Game => "game",
                crate::beyond::Horizon::Turn => "turn",
            },
            sm.agent,
            sm.samples,
            sm.seed
        );
    }
    let _ = writeln!(out, "\nbest timing: {}", s.verdict);
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
