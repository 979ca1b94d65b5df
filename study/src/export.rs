//! The long-format export of a study or a sweep: one row per situation and option (every
//! reaction at every point, offered or not, and holding the AP) with its exact values, its
//! sampled value and interval, its paired difference from the verdict's best option, and the
//! run's metadata (seed, judge, git commit) on every row; CSV and JSON.

use crate::beyond::Paired;
use crate::exact::net_ap;
use crate::timing::Study;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What produced an export.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta {
    /// The judge (agent spec of the continuations), or "exact" when nothing was sampled.
    pub judge: String,
    /// Seed of the continuations.
    pub seed: u64,
    /// The git commit of the workspace (with "-dirty" when it had uncommitted changes), or
    /// "unknown" outside a git checkout.
    pub commit: String,
    /// The command line that produced it.
    pub command: String,
}

/// The workspace's git commit: `git rev-parse HEAD`, with "-dirty" when `git status` shows
/// changes; "unknown" when git cannot tell.
pub fn git_commit() -> String {
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "HEAD"]) {
        Some(head) if !head.is_empty() => {
            let dirty =
                run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}-dirty")
            } else {
                head
            }
        }
        _ => "unknown".to_string(),
    }
}

/// One option of one situation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OptionRecord {
    /// "react" or "hold".
    pub option: String,
    /// The reactor's name (empty for holding).
    pub reactor: String,
    /// The reaction kind ("shoot Recurve", "dodge"; "hold the AP").
    pub kind: String,
    /// The point of the mover's action (absent for holding).
    pub point: Option<u8>,
    /// Whether `tde legal` offers it (holding always is).
    pub offered: bool,
    /// The offered point it is equivalent to, when it is not offered.
    pub same_as: Option<u8>,
    /// Whether it is the verdict's best option.
    pub best: bool,
    /// Exact: probability the mover is hit.
    pub p_hit: f64,
    /// Exact: expected wounds dealt (no answer by the mover).
    pub dealt: f64,
    /// Exact: expected wounds taken (no answer by the mover).
    pub taken: f64,
    /// Exact: expected AP spent by the reacting side.
    pub ap_spent: f64,
    /// Exact: dealt minus taken once the mover answers at best.
    pub net_answered: f64,
    /// Exact: the AP-counted net once the mover answers at best.
    pub net_ap: f64,
    /// The AP exchange rate `net_ap` counts, in wounds per AP.
    pub ap_value: f64,
    /// Where the rate comes from: "stated" or "rollouts" (derived by the judge).
    pub ap_source: String,
    /// The mover's best answer in words.
    pub answer: Option<String>,
    /// Sampled: mean return beyond the sequence (offered options only).
    pub beyond_mean: Option<f64>,
    /// Sampled: lower end of its interval.
    pub beyond_low: Option<f64>,
    /// Sampled: upper end of its interval.
    pub beyond_high: Option<f64>,
    /// Sampled: samples behind it.
    pub samples: u32,
    /// The verdict's best option minus this one on the verdict's measure (paired when
    /// sampled); absent for the best itself and for options not offered when sampled.
    pub best_minus_this: Option<Paired>,
}

/// Every option of a study as export records.
pub fn option_records(s: &Study) -> Vec<OptionRecord> {
    let best = s.best.flatten();
    let z = s.z();
    let best_returns = match best {
        _ if !s.by_return() => None,
        Some(b) => s.beyond.get(b).map(|e| e.returns.clone()),
        None => s.hold_beyond.as_ref().map(|h| h.returns.clone()),
    };
    let minus = |option: Option<usize>, returns: Option<&[f64]>| -> Option<Paired> {
        if s.best.is_none() || s.best == Some(option) {
            return None;
        }
        match (&best_returns, returns) {
            (Some(a), Some(b)) if !b.is_empty() => Some(Paired::of(a, b, z)),
            (Some(_), _) => None,
            (None, _) => Some(Paired::exact(s.value(best) - s.value(option))),
        }
    };
    let mut out: Vec<OptionRecord> = s
        .exact
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let e = s.beyond.get(i).filter(|e| e.samples > 0);
            OptionRecord {
                option: "react".into(),
                reactor: r.reactor_name.clone(),
                kind: r.kind.clone(),
                point: Some(r.point),
                offered: r.offered,
                same_as: r.same_as,
                best: s.best == Some(Some(i)),
                p_hit: r.exact.p_active_hit,
                dealt: r.exact.expected_wounds_dealt,
                taken: r.exact.expected_wounds_taken,
                ap_spent: r.exact.expected_ap_spent,
                net_answered: r.net(),
                net_ap: r.net_ap(s.exact.ap_value),
                ap_value: s.exact.ap_value,
                ap_source: ap_source(s),
                answer: r.answer.as_ref().map(|a| a.text.clone()),
                beyond_mean: e.map(|e| e.mean),
                beyond_low: e.map(|e| e.low),
                beyond_high: e.map(|e| e.high),
                samples: e.map_or(0, |e| e.samples),
                best_minus_this: if r.offered || !s.by_return() {
                    minus(Some(i), e.map(|e| e.returns.as_slice()))
                } else {
                    None
                },
            }
        })
        .collect();
    let h = &s.exact.hold;
    let hb = s.hold_beyond.as_ref();
    out.push(OptionRecord {
        option: "hold".into(),
        reactor: String::new(),
        kind: "hold the AP".into(),
        point: None,
        offered: true,
        same_as: None,
        best: s.best == Some(None),
        p_hit: h.p_active_hit,
        dealt: h.expected_wounds_dealt,
        taken: h.expected_wounds_taken,
        ap_spent: h.expected_ap_spent,
        net_answered: h.expected_wounds_dealt - h.expected_wounds_taken,
        net_ap: net_ap(h, s.exact.ap_value),
        ap_value: s.exact.ap_value,
        ap_source: ap_source(s),
        answer: None,
        beyond_mean: hb.map(|e| e.mean),
        beyond_low: hb.map(|e| e.low),
        beyond_high: hb.map(|e| e.high),
        samples: hb.map_or(0, |e| e.samples),
        best_minus_this: minus(None, hb.map(|e| e.returns.as_slice())),
    });
    out
}

/// Where a study's AP exchange rate comes from.
fn ap_source(s: &Study) -> String {
    if s.ap_rate.is_some() { "rollouts" } else { "stated" }.to_string()
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
pub(crate) fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

const OPTION_HEADER: &str = "option,reactor,kind,point,offered,same_as,best,p_hit,dealt,taken,ap_spent,net_answered,net_ap,ap_value,ap_source,answer,beyond_mean,beyond_low,beyond_high,samples,best_minus_this,best_minus_this_low,best_minus_this_high";

fn option_fields(o: &OptionRecord) -> String {
    let d = o.best_minus_this;
    [
        field(&o.option),
        field(&o.reactor),
        field(&o.kind),
        opt(o.point),
        o.offered.to_string(),
        opt(o.same_as),
        o.best.to_string(),
        format!("{:.6}", o.p_hit),
        format!("{:.6}", o.dealt),
        format!("{:.6}", o.taken),
        format!("{:.6}", o.ap_spent),
        format!("{:.6}", o.net_answered),
        format!("{:.6}", o.net_ap),
        format!("{:.6}", o.ap_value),
        field(&o.ap_source),
        field(o.answer.as_deref().unwrap_or("")),
        opt(o.beyond_mean.map(|v| format!("{v:.6}"))),
        opt(o.beyond_low.map(|v| format!("{v:.6}"))),
        opt(o.beyond_high.map(|v| format!("{v:.6}"))),
        o.samples.to_string(),
        opt(d.map(|d| format!("{:.6}", d.mean))),
        opt(d.filter(|d| d.samples > 0).map(|d| format!("{:.6}", d.low))),
        opt(d.filter(|d| d.samples > 0).map(|d| format!("{:.6}", d.high))),
    ]
    .join(",")
}

fn meta_fields(meta: &Meta) -> String {
    [field(&meta.judge), meta.seed.to_string(), field(&meta.commit)].join(",")
}

/// The long-format CSV of one study: one line per option.
pub fn study_csv(s: &Study, meta: &Meta) -> String {
    let mut out = format!("situation,{OPTION_HEADER},judge,seed,commit\n");
    for o in option_records(s) {
        let _ = writeln!(out, "{},{},{}", field(&s.situation), option_fields(&o), meta_fields(meta));
    }
    out
}

/// The long-format CSV of many situations: one line per situation and option, the situation
/// described by the fields `prefix` names (comma-separated header) and each row's values.
pub fn long_csv(prefix: &str, rows: &[(Vec<String>, &OptionRecord)], meta: &Meta) -> String {
    let mut out = format!("{prefix},{OPTION_HEADER},judge,seed,commit\n");
    for (situation, o) in rows {
        let fields: Vec<String> = situation.iter().map(|f| field(f)).collect();
        let _ = writeln!(out, "{},{},{}", fields.join(","), option_fields(o), meta_fields(meta));
    }
    out
}
