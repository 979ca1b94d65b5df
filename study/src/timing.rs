//! A whole reaction-timing study of one situation: the exact table, the values beyond the
//! sequence of every reaction and of holding the AP (sampled until the verdict is settled when
//! asked), the best option by one labelled measure, paired intervals against holding the AP and
//! against the other timing of the same reaction, and the verdict in words.

use crate::aprate::{ap_rate_from_rollouts, ApRate};
use crate::beyond::{sample_range, z_for, AgentFactory, Estimate, Horizon, Paired, Sampling};
use crate::exact::{exact_table, firefight_node, net_ap, ExactTable, ReactionRow, StudyError};
use crate::sequential::Plan;
use engine::{Action, GameState};
use serde::Serialize;
use std::fmt::Write;

/// The AP exchange rate used when none is given: half a wound per AP (see
/// docs/studies/reaction-timing.md, "AP counted").
pub const DEFAULT_AP_VALUE: f64 = 0.5;

/// Where the AP exchange rate of the exact measure comes from: a stated number of wounds per
/// AP, or rollouts of the situation by the judge ([`crate::aprate`]). Written `0.5` or
/// `rollouts` (on the command line, in sweep configs and in exports).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ApValue {
    /// A stated rate, in wounds per AP.
    Stated(f64),
    /// Derived from rollouts by the judge (needs samples).
    Rollouts,
}

impl std::str::FromStr for ApValue {
    type Err = String;
    fn from_str(s: &str) -> Result<ApValue, String> {
        if s == "rollouts" {
            return Ok(ApValue::Rollouts);
        }
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(ApValue::Stated(v)),
            _ => Err(format!("`{s}` is not a number of at least 0 (wounds per AP) or `rollouts`")),
        }
    }
}

impl std::fmt::Display for ApValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApValue::Stated(v) => write!(f, "{v} wounds per AP, stated"),
            ApValue::Rollouts => write!(f, "wounds per AP derived from rollouts by the judge"),
        }
    }
}

impl Serialize for ApValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ApValue::Stated(v) => s.serialize_f64(*v),
            ApValue::Rollouts => s.serialize_str("rollouts"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for ApValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ApValue, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Word(String),
        }
        let text = match Raw::deserialize(d)? {
            Raw::Number(v) => v.to_string(),
            Raw::Word(w) => w,
        };
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The measure a verdict decides by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The return beyond the sequence when continuations are sampled, else the AP-counted net.
    #[default]
    Return,
    /// The AP-counted net (exact), whatever is sampled.
    Exact,
}

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> Result<Measure, String> {
        match s {
            "return" => Ok(Measure::Return),
            "exact" => Ok(Measure::Exact),
            other => Err(format!("`{other}` is not return or exact")),
        }
    }
}

/// How a study decides and how sure it must be.
#[derive(Clone, Debug, Serialize)]
pub struct StudyOptions {
    /// Wounds per AP in the AP-counted net (the exact measure) when stated; the fallback name
    /// of the rate when [`ap_from_rollouts`](Self::ap_from_rollouts) derives it.
    pub ap_value: f64,
    /// Derive the rate from rollouts by the judge instead (needs sampling).
    pub ap_from_rollouts: bool,
    /// Decide by the AP-counted net even when continuations are sampled (they then value the
    /// options beyond the sequence, and the AP rate, without deciding).
    pub exact_verdict: bool,
    /// Overall confidence of a sampled verdict (e.g. 0.95): its error `1 − confidence` is
    /// split over the planned looks and the pairs of options ([`crate::sequential`]).
    pub confidence: f64,
    /// Sample until every comparison of the verdict is settled, up to this many samples per
    /// option (planned looks doubling from `Sampling::samples`); `None`: sample
    /// `Sampling::samples` once.
    pub until_settled: Option<u32>,
}

impl Default for StudyOptions {
    fn default() -> StudyOptions {
        StudyOptions {
            ap_value: DEFAULT_AP_VALUE,
            ap_from_rollouts: false,
            exact_verdict: false,
            confidence: 0.95,
            until_settled: None,
        }
    }
}

/// One option the verdict compares the best one with, and the paired difference (best minus
/// it) on the verdict's measure.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The other option: a row of `exact.rows`, or `None` for holding the AP.
    pub row: Option<usize>,
    /// What it is in words ("holding the AP", "reacting at once (point 0)", ...).
    pub label: String,
    /// Best minus it, with its interval (no interval on the exact measure).
    pub diff: Paired,
}

impl Comparison {
    /// The comparison in words: the difference and interval, or "no clear difference".
    pub fn describe(&self) -> String {
        let d = &self.diff;
        let value = if d.samples == 0 {
            format!("{:+.3}", d.mean)
        } else {
            format!("{:+.3} [{:+.3}, {:+.3}]", d.mean, d.low, d.high)
        };
        if self.diff.settled() {
            format!("{value} over {}", self.label)
        } else {
            format!("no clear difference from {} ({value})", self.label)
        }
    }
}

/// A study of the reaction choice pending in a situation.
#[derive(Clone, Debug, Serialize)]
pub struct Study {
    /// Where the situation came from (a setup file).
    pub situation: String,
    /// The exact table.
    pub exact: ExactTable,
    /// How the values beyond the sequence were sampled (absent when they were not).
    pub sampling: Option<Sampling>,
    /// How the study decides.
    pub options: StudyOptions,
    /// The AP exchange rate derived from rollouts, when asked (`exact.ap_value` is its value).
    pub ap_rate: Option<ApRate>,
    /// The sequential rule of a sampled study: its planned looks and the level of each
    /// interval (absent when nothing is sampled).
    pub plan: Option<Plan>,
    /// Value beyond the sequence of each row of `exact.rows`, in order (offered rows only are
    /// sampled; the others are empty estimates).
    pub beyond: Vec<Estimate>,
    /// Value beyond the sequence of holding the AP.
    pub hold_beyond: Option<Estimate>,
    /// The measure the verdict picks and compares by, in words.
    pub measure: String,
    /// The best option: a row of `exact.rows` (always one `tde legal` offers), or `None` for
    /// holding the AP; absent when no reaction is possible.
    pub best: Option<Option<usize>>,
    /// The best option against holding the AP (or the best reaction when holding is best) and
    /// against the other timing of the same reaction.
    pub comparisons: Vec<Comparison>,
    /// Whether every comparison's interval excludes 0.
    pub settled: bool,
    /// The best timing in words.
    pub verdict: String,
}

/// Study the reaction choice pending in `state`; with `sampling`, also estimate every offered
/// option's value beyond the sequence with the judge `factory` builds (until settled, when
/// `options` asks).
pub fn study(
    state: &GameState,
    situation: &str,
    sampling: Option<(&Sampling, &AgentFactory)>,
    options: &StudyOptions,
) -> Result<Study, StudyError> {
    if let Some((sm, factory)) = sampling {
        factory(&sm.agent, sm.seed).map_err(|e| StudyError::Agent(format!("`{}`: {e}", sm.agent)))?;
    }
    let mut exact = exact_table(state, options.ap_value)?;
    let sampling = sampling.filter(|(s, _)| s.samples > 0);
    let mut ap_rate = None;
    if options.ap_from_rollouts {
        let Some((sm, factory)) = sampling else {
            return Err(StudyError::Agent(
                "an AP rate from rollouts needs continuations: give --samples above 0".into(),
            ));
        };
        let reactor = exact.rows.first().map(|r| r.reactor).expect("a pending reaction has rows");
        let mut rate = ap_rate_from_rollouts(state, exact.side, reactor, sm, factory)?;
        rate.reactor = engine::render::model_name(state, reactor);
        exact = exact_table(state, rate.wounds_per_ap)?;
        ap_rate = Some(rate);
    }
    let mut s = Study {
        situation: situation.to_string(),
        exact,
        sampling: sampling.map(|(s, _)| s.clone()),
        options: options.clone(),
        ap_rate,
        plan: None,
        beyond: Vec::new(),
        hold_beyond: None,
        measure: String::new(),
        best: None,
        comparisons: Vec::new(),
        settled: true,
        verdict: String::new(),
    };
    if let Some((sampling, factory)) = sampling {
        // The offered rows and holding, sampled in batches until the verdict settles.
        let offered: Vec<usize> = (0..s.exact.rows.len()).filter(|&i| s.exact.rows[i].offered).collect();
        let mut decided: Vec<GameState> =
            offered.iter().map(|&i| decided_state(state, &s.exact.rows[i], s.exact.side)).collect();
        let mut held = state.clone();
        held.apply_action(Action::EndReactions).expect("ending reactions is always legal");
        decided.push(held);
        let plan = Plan::new(sampling.samples, options.until_settled, options.confidence, decided.len());
        let z = plan.z;
        s.plan = Some(plan.clone());
        let mut raw: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); decided.len()];
        plan.run(|from, to| {
            for (all, new) in
                raw.iter_mut().zip(sample_range(&decided, s.exact.side, sampling, factory, from, to)?)
            {
                all.0.extend(new.0);
                all.1.extend(new.1);
            }
            let empty = Estimate::with_z(&[], &[], z);
            s.beyond = vec![empty; s.exact.rows.len()];
            for (k, &i) in offered.iter().enumerate() {
                s.beyond[i] = Estimate::with_z(&raw[k].0, &raw[k].1, z);
            }
            let (r, m) = raw.last().expect("holding is sampled");
            s.hold_beyond = Some(Estimate::with_z(r, m, z));
            decide(&mut s);
            Ok::<bool, StudyError>(s.settled)
        })?;
    } else {
        decide(&mut s);
    }
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

/// Pick the best option by the study's measure and compare it with the others that matter.
fn decide(s: &mut Study) {
    s.measure = s.measure_label();
    s.best = s.best_option();
    s.comparisons.clear();
    let Some(best) = s.best else {
        s.settled = true;
        return;
    };
    let mut others: Vec<(Option<usize>, String)> = Vec::new();
    match best {
        Some(b) => {
            others.push((None, "holding the AP".to_string()));
            let rows = &s.exact.rows;
            let first = s.at_once(b);
            if first != b {
                others.push((Some(first), format!("reacting at once (point {})", rows[first].point)));
            } else if let Some(later) = s
                .offered()
                .filter(|&j| j != b && rows[j].reactor == rows[b].reactor && rows[j].kind == rows[b].kind)
                .max_by(|&x, &y| s.value(Some(x)).total_cmp(&s.value(Some(y))).then(y.cmp(&x)))
            {
                others.push((Some(later), format!("waiting for point {}", rows[later].point)));
            }
        }
        None => {
            if let Some(r) =
                s.offered().max_by(|&x, &y| s.value(Some(x)).total_cmp(&s.value(Some(y))).then(y.cmp(&x)))
            {
                let row = &s.exact.rows[r];
                others.push((
                    Some(r),
                    format!("the best reaction ({} {} at point {})", row.reactor_name, row.kind, row.point),
                ));
            }
        }
    }
    let z = s.z();
    for (row, label) in others {
        let diff = match (s.returns(best), s.returns(row)) {
            (Some(a), Some(b)) if s.by_return() => Paired::of(a, b, z),
            _ => match &s.ap_rate {
                // The rate's interval carried through: the net is linear in the rate.
                Some(rate) => {
                    let at = |w: f64| s.exact_value(best, w) - s.exact_value(row, w);
                    let (a, b) = (at(rate.low), at(rate.high));
                    Paired {
                        mean: s.value(best) - s.value(row),
                        low: a.min(b),
                        high: a.max(b),
                        samples: rate.samples,
                    }
                }
                None => Paired::exact(s.value(best) - s.value(row)),
            },
        };
        s.comparisons.push(Comparison { row, label, diff });
    }
    s.settled = s.comparisons.iter().all(|c| c.diff.settled());
}

impl Study {
    /// The normal quantile of the study's paired intervals: the sequential plan's when sampled
    /// (split over its looks and pairs), else the nominal confidence's.
    pub fn z(&self) -> f64 {
        self.plan.as_ref().map_or_else(|| z_for(self.options.confidence), |p| p.z)
    }

    /// The intervals' rule in words: the sequential plan's, or the nominal confidence.
    pub fn interval_label(&self) -> String {
        self.plan.as_ref().map_or_else(|| format!("{:.0}%", 100.0 * self.options.confidence), Plan::describe)
    }

    /// The offered rows (the points `tde legal` lists), in table order.
    pub fn offered(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.exact.rows.len()).filter(|&i| self.exact.rows[i].offered)
    }

    /// The offered row equivalent to row `i` (itself when offered).
    pub fn twin(&self, i: usize) -> usize {
        let r = &self.exact.rows[i];
        match r.same_as {
            Some(k) => self
                .offered()
                .find(|&j| {
                    let o = &self.exact.rows[j];
                    o.point == k && o.reactor == r.reactor && o.kind == r.kind
                })
                .unwrap_or(i),
            None => i,
        }
    }

    /// Whether the values are sampled beyond the sequence.
    pub fn sampled(&self) -> bool {
        self.hold_beyond.is_some()
    }

    /// Whether the verdict decides by the return beyond the sequence (sampled, and not asked
    /// to decide by the AP-counted net).
    pub fn by_return(&self) -> bool {
        self.sampled() && !self.options.exact_verdict
    }

    /// The verdict's measure in words, naming the judge when sampled.
    pub fn measure_label(&self) -> String {
        match &self.sampling {
            Some(sm) if self.by_return() => format!(
                "return beyond the sequence (+1 win, -1 loss; to the end of the {}), judge {}, {} samples per option, seed {}, paired intervals {}",
                match sm.horizon {
                    Horizon::Game => "game",
                    Horizon::Turn => "turn",
                },
                sm.agent,
                self.hold_beyond.as_ref().map_or(0, |h| h.samples),
                sm.seed,
                self.interval_label()
            ),
            _ => format!(
                "AP-counted net (exact expected wounds dealt minus taken over the sequence, the mover answering at best, AP at {})",
                self.ap_rate_label()
            ),
        }
    }

    /// The AP exchange rate of the exact measure and where it comes from, in words.
    pub fn ap_rate_label(&self) -> String {
        match &self.ap_rate {
            Some(r) => format!("{} for {}", r.describe(), r.reactor),
            None => format!("{} wounds per AP (stated)", self.exact.ap_value),
        }
    }

    /// The value of an option (`None`: holding the AP) on the verdict's measure.
    pub fn value(&self, option: Option<usize>) -> f64 {
        match (option, self.by_return()) {
            (Some(i), true) => self.beyond[i].mean,
            (None, true) => self.hold_beyond.as_ref().map_or(0.0, |h| h.mean),
            (Some(i), false) => self.exact.rows[i].net_ap(self.exact.ap_value),
            (None, false) => net_ap(&self.exact.hold, self.exact.ap_value),
        }
    }

    /// The AP-counted net of an option (`None`: holding the AP) at `rate` wounds per AP (the
    /// mover's answers as chosen at the table's rate).
    pub fn exact_value(&self, option: Option<usize>, rate: f64) -> f64 {
        match option {
            Some(i) => self.exact.rows[i].net_ap(rate),
            None => net_ap(&self.exact.hold, rate),
        }
    }

    /// The sampled returns of an option, when sampled.
    fn returns(&self, option: Option<usize>) -> Option<&[f64]> {
        match option {
            Some(i) => self.beyond.get(i).map(|e| e.returns.as_slice()),
            None => self.hold_beyond.as_ref().map(|h| h.returns.as_slice()),
        }
    }

    /// The best option on the verdict's measure among the offered reactions and holding the AP:
    /// `Some(Some(row))`, `Some(None)` for holding; ties go to holding, then the earlier point.
    pub fn best_option(&self) -> Option<Option<usize>> {
        if self.exact.rows.is_empty() {
            return None;
        }
        let mut best: Option<usize> = None;
        for i in self.offered() {
            if self.value(Some(i)) > self.value(best) + 1e-12 {
                best = Some(i);
            }
        }
        Some(best)
    }

    /// Index of the best reaction row on the verdict's measure, holding aside (ties go to the
    /// earlier point); only rows `tde legal` offers.
    pub fn best_row(&self) -> Option<usize> {
        self.offered().fold(None, |best: Option<usize>, i| match best {
            Some(b) if self.value(Some(b)) >= self.value(Some(i)) - 1e-12 => Some(b),
            _ => Some(i),
        })
    }

    /// Index of the row "reacting at once" with the same reactor and kind as row `i`: its
    /// earliest offered point.
    pub fn at_once(&self, i: usize) -> usize {
        let r = &self.exact.rows[i];
        self.offered()
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

/// The best timing named in words: the best option with what changes at its point, each
/// comparison (with "no clear difference" where its interval spans 0), and the measure.
fn verdict(s: &Study) -> String {
    let Some(best) = s.best else { return "no reaction is possible".to_string() };
    let mut out = match best {
        None => "hold the AP".to_string(),
        Some(b) => {
            let rows = &s.exact.rows;
            let row = &rows[b];
            let first = &rows[s.at_once(b)];
            let p = &s.exact.path[row.point as usize];
            let mut out = format!(
                "{} should {} at point {} ({},{})",
                row.reactor_name, row.kind, row.point, p.cell[0], p.cell[1]
            );
            let reasons = why(first, row, &s.exact.path);
            if !reasons.is_empty() {
                let _ = write!(out, ", where {} is {reasons}", s.exact.mover_name);
            }
            if let Some(a) = &row.answer {
                let _ = write!(out, " (the mover's best answer: {})", a.text);
            }
            out
        }
    };
    if !s.settled {
        out = format!("not settled: {out}");
    }
    let parts: Vec<String> = s.comparisons.iter().map(Comparison::describe).collect();
    if !parts.is_empty() {
        let _ = write!(out, ": {}", parts.join("; "));
    }
    let _ = write!(out, " [measure: {}]", s.measure);
    out
}

/// The study as a table, one line per reaction at a point, with the equivalent points marked;
/// the judge and the measure are named under it.
pub fn render_table(s: &Study) -> String {
    let e = &s.exact;
    let mut out = format!("{}: side {} reacts to {}\n", s.situation, e.side, e.declared);
    let _ = writeln!(out, "path of {}:", e.mover_name);
    for p in &e.path {
        let _ = writeln!(out, "  point {:>2}  ({},{}) h{} {}", p.point, p.cell[0], p.cell[1], p.z, p.stance);
    }
    let beyond = s.sampled();
    let _ = write!(
        out,
        "\n{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5} {:>7} {:>7} {:>6} {:>6} {:>6} {:>5} {:>6}",
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
        "AP",
        "netAP*"
    );
    if beyond {
        let _ = write!(out, " {:>23}", "beyond [interval]");
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
            "{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5.1} {:>7.3} {:>7.3} {:>6.3} {:>6.3} {:>6.3} {:>5.2} {:>6.3}",
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
            v.expected_ap_spent,
            r.net_ap(e.ap_value)
        );
        if let Some(b) = s.beyond.get(i).filter(|b| b.samples > 0) {
            let _ = write!(out, " {:>+6.3} [{:+.3},{:+.3}]", b.mean, b.low, b.high);
        } else if beyond {
            let _ = write!(out, " {:>23}", "-");
        }
        let _ =
            writeln!(out, "  {}", r.same_as.map_or_else(|| "offered".to_string(), |k| format!("point {k}")));
    }
    let h = &e.hold;
    let _ = write!(
        out,
        "{:<24} {:>3} {:>5} {:>4} {:>4} {:>5} {:>5} {:>7.3} {:>7.3} {:>6.3} {:>6.3} {:>6.3} {:>5.2} {:>6.3}",
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
        h.expected_ap_spent,
        net_ap(h, e.ap_value)
    );
    if let Some(b) = &s.hold_beyond {
        let _ = write!(out, " {:>+6.3} [{:+.3},{:+.3}]", b.mean, b.low, b.high);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "\nnet* = expected wounds dealt minus taken once the mover answers with its best firefight;\n\
         netAP* = net* less {ap} wounds per AP the reactor spends, plus {ap} per AP the mover spends \
         (the exchange rate; the mover's answer is the one that minimises it);\n\
         AP exchange rate: {rate}{used}.",
        ap = format!("{:.3}", e.ap_value),
        rate = s.ap_rate_label(),
        used = if s.by_return() {
            "; the verdict's measure is the return beyond the sequence, which counts AP by playing on"
        } else {
            "; used in the verdict"
        }
    );
    let answers: Vec<String> = s
        .exact
        .rows
        .iter()
        .filter(|r| r.offered)
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
            "beyond = mean return for side {} playing the rest of the {} with judge {} ({} samples per offered option, seed {}; intervals {}; points not offered are not sampled).",
            e.side,
            match sm.horizon {
                Horizon::Game => "game",
                Horizon::Turn => "turn",
            },
            sm.agent,
            s.hold_beyond.as_ref().map_or(0, |h| h.samples),
            sm.seed,
            s.interval_label()
        );
    }
    let _ = writeln!(out, "\nbest timing: {}", s.verdict);
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
