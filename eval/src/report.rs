//! The arena's results as text: a Markdown report (`report.md`) and a short summary for the
//! terminal.

use crate::results::{LineupRow, Results};
use std::fmt::Write;

/// Most rows of one lineup key (boards, crew pairs) the terminal summary shows.
pub(crate) const SUMMARY_LINEUP_ROWS: usize = 12;

/// `x` as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An interval of proportions as percentages.
fn pct_ci(ci: [f64; 2]) -> String {
    format!("{:.1}–{:.1}%", 100.0 * ci[0], 100.0 * ci[1])
}

/// A move-time quantile in milliseconds to three significant figures (one read from a bucket
/// is no finer), or — when no game kept its move times.
fn quantile(ms: Option<f64>) -> String {
    ms.map_or("—".to_string(), three_figures)
}

/// `ms` to three significant figures.
fn three_figures(ms: f64) -> String {
    let decimals = if ms >= 100.0 {
        0
    } else if ms >= 10.0 {
        1
    } else if ms >= 1.0 {
        2
    } else {
        3
    };
    format!("{ms:.decimals$}")
}

/// The games' further figures (e.g. models lost to AI dinosaurs), a mean per game for each
/// agent; nothing when the games have none.
fn figures_table(out: &mut String, r: &Results) {
    let names: std::collections::BTreeSet<&str> =
        r.agents.iter().flat_map(|a| a.figures.keys().map(String::as_str)).collect();
    if names.is_empty() {
        return;
    }
    out.push_str("\n## Figures per game\n\nMeans per game from each agent's side.\n\n| agent |");
    for name in &names {
        let _ = write!(out, " {name} |");
    }
    out.push_str("\n| --- |");
    out.push_str(&" ---: |".repeat(names.len()));
    out.push('\n');
    for a in &r.agents {
        let _ = write!(out, "| `{}` |", a.agent);
        for name in &names {
            match a.figures.get(*name) {
                Some(v) => {
                    let _ = write!(out, " {v:.2} |");
                }
                None => out.push_str(" – |"),
            }
        }
        out.push('\n');
    }
}

/// The games by drawn board and crew pair: for each, the games, the first side's score and
/// each agent's; nothing when the games draw nothing.
fn lineup_tables(out: &mut String, r: &Results) {
    if r.lineups.is_empty() {
        return;
    }
    out.push_str(
        "\n## Lineups\n\nEach game's board and crews drawn from the pools, the same for both games \
         of a round (sides swapped). The first side's score, whoever played it: with crews `X vs Y`, \
         X's score against Y. Agents' scores over their games with the value; – for none.\n",
    );
    for rows in r.lineups.chunk_by(|x, y| x.key == y.key) {
        let _ = write!(out, "\n| {} | games | first side score | 95% CI | mean length |", rows[0].key);
        for a in &r.settings.agents {
            let _ = write!(out, " `{a}` |");
        }
        out.push_str("\n| --- | ---: | ---: | --- | ---: |");
        out.push_str(&" ---: |".repeat(r.settings.agents.len()));
        out.push('\n');
        for row in rows {
            let _ = write!(
                out,
                "| {} | {} | {} | {} | {:.1} |",
                row.value,
                row.games,
                pct(row.first_side_score),
                pct_ci(row.first_side_ci95),
                row.mean_length
            );
            for a in &r.settings.agents {
                let _ = write!(out, " {} |", agent_score(row, a));
            }
            out.push('\n');
        }
    }
}

/// `agent`'s score over its games in a lineup row as a percentage; – when it played none.
fn agent_score(row: &LineupRow, agent: &str) -> String {
    row.scores.iter().find(|s| s.agent == agent).map_or("–".to_string(), |s| pct(s.score))
}

/// The full Markdown report: settings, ratings, pairs, scenarios, time per move and how the
/// statistics were computed.
pub fn markdown(r: &Results) -> String {
    let s = &r.settings;
    let mut out = String::from("# Arena report\n\n");
    let options: Vec<String> = s.options.iter().map(|(k, v)| format!("{k} `{v}`")).collect();
    let _ = writeln!(
        out,
        "{} agents, {} scenarios ({}), {} games per pair and scenario with sides swapped, seed {}; {}. \
         {} games in all.\n",
        s.agents.len(),
        s.scenarios.len(),
        s.scenarios.join(", "),
        s.games,
        s.seed,
        options.join(", "),
        r.games
    );

    out.push_str(
        "## Ratings\n\n| rank | agent | rating | 95% CI | score | W–D–L | mean margin | mean length |\n",
    );
    out.push_str("| ---: | --- | ---: | --- | ---: | --- | ---: | ---: |\n");
    for (rank, rating) in r.ratings.iter().enumerate() {
        let a = r.agents.iter().find(|a| a.agent == rating.agent).expect("every rated agent has totals");
        let _ = writeln!(
            out,
            "| {} | `{}` | {:.0} | {:.0} to {:.0} | {} ({}) | {}–{}–{} | {:+.2} | {:.1} |",
            rank + 1,
            rating.agent,
            rating.rating,
            rating.ci95[0],
            rating.ci95[1],
            pct(a.score),
            pct_ci(a.score_ci95),
            a.wins,
            a.draws,
            a.losses,
            a.mean_margin,
            a.mean_length
        );
    }

    figures_table(&mut out, r);
    lineup_tables(&mut out, r);

    out.push_str("\n## Pairs\n\nWins, draws and losses from the first agent's side; the score counts a draw as half a win.\n\n");
    out.push_str("| a | b | games | W–D–L (a) | score a | 95% CI | win a 95% CI | draw 95% CI | win b 95% CI | mean margin a | mean length |\n");
    out.push_str("| --- | --- | ---: | --- | ---: | --- | --- | --- | --- | ---: | ---: |\n");
    for p in &r.pairs {
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | {}–{}–{} | {} | {} | {} | {} | {} | {:+.2} | {:.1} |",
            p.a,
            p.b,
            p.games,
            p.wins_a,
            p.draws,
            p.wins_b,
            pct(p.score_a),
            pct_ci(p.score_a_ci95),
            pct_ci(p.win_a_ci95),
            pct_ci(p.draw_ci95),
            pct_ci(p.win_b_ci95),
            p.mean_margin_a,
            p.mean_length
        );
    }

    out.push_str(
        "\n## Scenarios\n\nThe first side's score, whoever played it, shows a first-player edge.\n\n",
    );
    let _ = write!(
        out,
        "| scenario | games | first side score | 95% CI | draws | mean length | mean abs margin |"
    );
    for a in &s.agents {
        let _ = write!(out, " `{a}` |");
    }
    out.push_str("\n| --- | ---: | ---: | --- | ---: | ---: | ---: |");
    out.push_str(&" ---: |".repeat(s.agents.len()));
    out.push('\n');
    for sc in &r.scenarios {
        let _ = write!(
            out,
            "| {} | {} | {} | {} | {} | {:.1} | {:.2} |",
            sc.scenario,
            sc.games,
            pct(sc.first_side_score),
            pct_ci(sc.first_side_ci95),
            sc.draws,
            sc.mean_length,
            sc.mean_abs_margin
        );
        for a in &sc.scores {
            let _ = write!(out, " {} |", pct(a.score));
        }
        out.push('\n');
    }

    out.push_str("\n### Pairs by scenario (W–D–L from the first agent's side, mean margin)\n\n| a | b |");
    for sc in &s.scenarios {
        let _ = write!(out, " {sc} |");
    }
    out.push_str("\n| --- | --- |");
    out.push_str(&" --- |".repeat(s.scenarios.len()));
    out.push('\n');
    for p in &r.pairs {
        let _ = write!(out, "| `{}` | `{}` |", p.a, p.b);
        for x in &p.by_scenario {
            let _ = write!(out, " {}–{}–{} ({:+.1}) |", x.wins_a, x.draws, x.wins_b, x.mean_margin_a);
        }
        out.push('\n');
    }

    out.push_str(
        "\n## Time per move\n\nWall time of each decision, over every game; it varies from run to run. The median and \
         95th percentile are read from log-scale buckets, within about 9% (three figures shown).\n\n",
    );
    out.push_str("| agent | moves | ms per move | median ms | 95th percentile ms |\n| --- | ---: | ---: | ---: | ---: |\n");
    for t in &r.timing.agents {
        let _ = writeln!(
            out,
            "| `{}` | {} | {:.3} | {} | {} |",
            t.agent,
            t.moves,
            t.ms_per_move,
            quantile(t.median_ms),
            quantile(t.p95_ms)
        );
    }
    let run = &r.timing.run;
    let _ = writeln!(
        out,
        "\nThis run played {} games ({} resumed from an earlier run) on {} threads in {:.1} s.",
        run.played, run.resumed, run.threads, run.wall_s
    );

    out.push_str(
        "\n## Method\n\n\
         - Score intervals are 95% Wilson score intervals, counting a draw as half a win.\n\
         - Ratings are Bradley–Terry strengths fitted by maximum likelihood (MM algorithm) with \
         draws as half wins and one virtual draw added to every pair, on an Elo-like scale \
         (400·log10 of the strength; 400 points mean 10:1 odds) anchored at mean 0. Their 95% \
         intervals are ±1.96 standard errors from the Fisher information at the fit.\n\
         - Games 2r and 2r+1 of a pair and scenario share their seeds (and their drawn board and \
         crews) with the sides swapped.\n",
    );
    out
}

/// A short summary for the terminal: ratings and pairs.
pub fn summary(r: &Results) -> String {
    // Columns as wide as the longest agent name (long MCTS specs included).
    let w = r.ratings.iter().map(|x| x.agent.chars().count()).max().unwrap_or(0).max(5);
    let options: Vec<String> = r.settings.options.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut out = format!(
        "{} games: {} pairs × {} scenarios × {} games\n{}\n\n{:>4}  {:<w$} {:>7}  {:>15}  {:>7}  {:>10}  {:>9}  {:>9}\n",
        r.games,
        r.pairs.len(),
        r.settings.scenarios.len(),
        r.settings.games,
        options.join(", "),
        "rank",
        "agent",
        "rating",
        "95% CI",
        "score",
        "ms/move",
        "median ms",
        "95th % ms"
    );
    for (rank, rating) in r.ratings.iter().enumerate() {
        let score = r.agents.iter().find(|a| a.agent == rating.agent).map_or(0.5, |a| a.score);
        let timing = r.timing.agents.iter().find(|t| t.agent == rating.agent);
        let _ = writeln!(
            out,
            "{:>4}  {:<w$} {:>7.0}  {:>15}  {:>7}  {:>10.3}  {:>9}  {:>9}",
            rank + 1,
            rating.agent,
            rating.rating,
            format!("{:.0} to {:.0}", rating.ci95[0], rating.ci95[1]),
            pct(score),
            timing.map_or(0.0, |t| t.ms_per_move),
            quantile(timing.and_then(|t| t.median_ms)),
            quantile(timing.and_then(|t| t.p95_ms))
        );
    }
    let _ =
        writeln!(out, "\n{:<w$} {:<w$} {:>13}  {:>7}  {:>13}", "a", "b", "W-D-L (a)", "score a", "95% CI");
    for p in &r.pairs {
        let _ = writeln!(
            out,
            "{:<w$} {:<w$} {:>13}  {:>7}  {:>13}",
            p.a,
            p.b,
            format!("{}-{}-{}", p.wins_a, p.draws, p.wins_b),
            pct(p.score_a),
            pct_ci(p.score_a_ci95)
        );
    }
    lineup_summary(&mut out, r, w);
    out.truncate(out.trim_end().len());
    out
}

/// The summary's lineup tables: for each drawn board and crew pair (the first
/// [`SUMMARY_LINEUP_ROWS`] of each key), the games, the first side's score and each agent's.
fn lineup_summary(out: &mut String, r: &Results, w: usize) {
    for rows in r.lineups.chunk_by(|x, y| x.key == y.key) {
        let key = &rows[0].key;
        let v = rows.iter().map(|x| x.value.chars().count()).max().unwrap_or(0).max(key.chars().count());
        let _ = write!(out, "\n{key:<v$} {:>5}  {:>6}", "games", "side A");
        for a in &r.settings.agents {
            let _ = write!(out, "  {a:>w$}");
        }
        out.push('\n');
        for row in rows.iter().take(SUMMARY_LINEUP_ROWS) {
            let _ = write!(out, "{:<v$} {:>5}  {:>6}", row.value, row.games, pct(row.first_side_score));
            for a in &r.settings.agents {
                let _ = write!(out, "  {:>w$}", agent_score(row, a));
            }
            out.push('\n');
        }
        if rows.len() > SUMMARY_LINEUP_ROWS {
            let more = rows.len() - SUMMARY_LINEUP_ROWS;
            let _ = writeln!(out, "… and {more} more {key} values (report.md, results.json)");
        }
    }
}
