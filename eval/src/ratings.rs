//! Bradley–Terry ratings on an Elo-like scale, with 95% confidence intervals.
//!
//! - **Model.** Agent `i` has a strength `βᵢ`; it scores against `j` with probability
//!   `pᵢⱼ = 1 / (1 + e^(βⱼ − βᵢ))`. A draw counts as half a win for each side.
//! - **Prior.** Every pair gets `prior_draws` virtual draws ([`PRIOR_DRAWS`] in the arena).
//!   Without them an agent that wins (or loses) every game has an infinite rating; with them
//!   every rating is finite and pulled slightly towards the others.
//! - **Fit.** Maximum likelihood by Hunter's MM algorithm (2004): `γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)`
//!   with `γ = e^β`, `Wᵢ` the points of `i` and `nᵢⱼ` the games between `i` and `j` (virtual
//!   draws included), until the strengths stop moving.
//! - **Scale and anchor.** `rating = 400 · log10 γ`, so that 400 points mean 10:1 odds as in
//!   Elo, and the ratings have mean 0.
//! - **Intervals.** From the Fisher information at the fit: `Iᵢᵢ = Σⱼ nᵢⱼ pᵢⱼ pⱼᵢ`,
//!   `Iᵢⱼ = −nᵢⱼ pᵢⱼ pⱼᵢ`. It is singular along the common shift of all strengths, which the
//!   mean-0 anchor removes: the covariance of the anchored strengths is its Moore–Penrose
//!   inverse `(I + J/k)⁻¹ − J/k` (`J` all ones, `k` agents), and each interval is the rating
//!   ± 1.96 standard errors. It measures an agent's rating relative to the field's mean.

use crate::win_draw_loss::{Wdl, Z95};
use serde::Serialize;

/// Virtual draws added to every pair before fitting (see the module notes).
pub const PRIOR_DRAWS: f64 = 1.0;

/// Rating points per unit of strength `β`: `400 / ln 10`.
pub const ELO_PER_STRENGTH: f64 = 400.0 / std::f64::consts::LN_10;

/// The games between two agents, as indices into the agent list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResult {
    /// The first agent.
    pub a: usize,
    /// The second agent.
    pub b: usize,
    /// The results from `a`'s side.
    pub record: Wdl,
}

/// One agent's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Rating on the Elo-like scale, mean 0 over the agents.
    pub rating: f64,
    /// 95% confidence interval `[lo, hi]`.
    pub ci95: [f64; 2],
}

/// Fit Bradley–Terry ratings for `agents` agents from `pairs`, adding `prior_draws` virtual
/// draws to every pair. Fails when an agent played no game or, without a prior, when some
/// group of agents never dropped a point to the others (their ratings would be infinite).
pub fn bradley_terry(agents: usize, pairs: &[PairResult], prior_draws: f64) -> Result<Vec<Rating>, String> {
    let k = agents;
    if k < 2 {
        return Err(format!("ratings need at least two agents, got {k}"));
    }
    // games[i][j] and points[i][j] (points of i against j).
    let mut games = vec![vec![0.0f64; k]; k];
    let mut points = vec![vec![0.0f64; k]; k];
    for p in pairs {
        if p.a >= k || p.b >= k || p.a == p.b {
            return Err(format!("pair ({}, {}) does not name two of the {k} agents", p.a, p.b));
        }
        let n = p.record.games() as f64;
        games[p.a][p.b] += n;
        games[p.b][p.a] += n;
        points[p.a][p.b] += p.record.points();
        points[p.b][p.a] += p.record.flipped().points();
    }
    for i in 0..k {
        for j in 0..k {
            if i != j {
                games[i][j] += prior_draws;
                points[i][j] += prior_draws / 2.0;
            }
        }
    }
    check_finite(&points)?;
    let wins: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();

    // MM iterations on γ, renormalised to geometric mean 1.
    let mut gamma = vec![1.0f64; k];
    for _ in 0..1_000_000 {
        let mut next: Vec<f64> = (0..k)
            .map(|i| {
                let denom: f64 =
                    (0..k).filter(|&j| j != i).map(|j| games[i][j] / (gamma[i] + gamma[j])).sum();
                wins[i] / denom
            })
            .collect();
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        for g in &mut next {
            *g /= log_mean.exp();
        }
        let change = next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let beta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();

    // Fisher information, then its pseudo-inverse through (I + J/k)⁻¹ − J/k.
    let mut info = vec![vec![1.0 / k as f64; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j {
                let p = 1.0 / (1.0 + (beta[j] - beta[i]).exp());
                let f = games[i][j] * p * (1.0 - p);
                info[i][j] -= f;
                info[i][i] += f;
            }
        }
    }
    let inverse = invert(info).ok_or("the rating information matrix is singular")?;
    Ok((0..k)
        .map(|i| {
            let variance = (inverse[i][i] - 1.0 / k as f64).max(0.0);
            let rating = ELO_PER_STRENGTH * beta[i];
            let half = Z95 * ELO_PER_STRENGTH * variance.sqrt();
            Rating { rating, ci95: [rating - half, rating + half] }
        })
        .collect())
}

/// The maximum-likelihood strengths are finite exactly when every agent can reach every other
/// through a chain of "scored points against" links (the links' graph is strongly connected).
fn check_finite(points: &[Vec<f64>]) -> Result<(), String> {
    let k = points.len();
    let mut reach: Vec<Vec<bool>> =
        (0..k).map(|i| (0..k).map(|j| i == j || points[i][j] > 0.0).collect()).collect();
    for m in 0..k {
        for i in 0..k {
            for j in 0..k {
                reach[i][j] = reach[i][j] || (reach[i][m] && reach[m][j]);
            }
        }
    }
    if reach.iter().all(|row| row.iter().all(|&r| r)) {
        Ok(())
    } else {
        Err("ratings are unbounded: some agents never scored against the others (add a prior)".into())
    }
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting, or
/// `None` when it is singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let mut inv: Vec<Vec<f64>> = (0..k).map(|i| (0..k).map(|j| f64::from(i == j)).collect()).collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..k {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..k {
            if row != col {
                let f = m[row][col];
                for j in 0..k {
                    m[row][j] -= f * m[col][j];
                    inv[row][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> PairResult {
        PairResult { a, b, record: Wdl { wins, draws, losses } }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn two_agents_have_the_closed_form_rating_and_interval() {
        // A scores 7 of 10 (6 wins, 2 draws): βA − βB = ln(0.7 / 0.3), mean 0, so
        // rating A = 200 · log10(7/3) = 73.5954; information 10 · 0.7 · 0.3 = 2.1 per unit of
        // βA − βB, so var βA = 1 / (4 · 2.1) and the half-width is 1.96 · 173.718 · 0.345033 = 117.477.
        let r = bradley_terry(2, &[pair(0, 1, 6, 2, 2)], 0.0).unwrap();
        assert!(close(r[0].rating, 200.0 * (7.0f64 / 3.0).log10()), "{r:?}");
        assert!(close(r[0].rating, 73.595_357), "{r:?}");
        assert!(close(r[1].rating, -r[0].rating));
        let half = Z95 * ELO_PER_STRENGTH / (4.0 * 2.1f64).sqrt();
        assert!(close(half, 117.476_974), "{half}");
        assert!(close(r[0].ci95[0], r[0].rating - half) && close(r[0].ci95[1], r[0].rating + half));
        assert!(close(r[1].ci95[1] - r[1].rating, half));
    }

    /// Effective resistance between two nodes of a triangle with conductances `c_direct` and,
    /// through the third node, `c1` and `c2` in series.
    fn resistance(c_direct: f64, c1: f64, c2: f64) -> f64 {
        1.0 / (c_direct + 1.0 / (1.0 / c1 + 1.0 / c2))
    }

    /// A table fitting strengths γ = (4, 2, 1) exactly, so the ratings are 400·log10 2 apart.
    /// The information matrix is the Laplacian of a triangle with conductances
    /// c = n·p·(1−p): AB 3·(2/3)(1/3) = 2/3, AC 5·(4/5)(1/5) = 4/5, BC 2/3, and the variance of
    /// a mean-anchored strength is L⁺ᵢᵢ = (1/k) Σⱼ Rᵢⱼ − (1/k²) Σ₍ⱼ<ₗ₎ Rⱼₗ with R the effective
    /// resistances between the nodes.
    fn check_three_agent_table(r: &[Rating]) {
        let step = 400.0 * 2f64.log10();
        assert!(close(step, 120.411_998), "{step}");
        assert!(close(r[0].rating, step) && close(r[1].rating, 0.0) && close(r[2].rating, -step), "{r:?}");
        let (ab, ac, bc) = (2.0 / 3.0, 4.0 / 5.0, 2.0 / 3.0);
        let r_ab = resistance(ab, ac, bc);
        let r_ac = resistance(ac, ab, bc);
        let r_bc = resistance(bc, ab, ac);
        let total = r_ab + r_ac + r_bc;
        let var = [
            (r_ab + r_ac) / 3.0 - total / 9.0,
            (r_ab + r_bc) / 3.0 - total / 9.0,
            (r_ac + r_bc) / 3.0 - total / 9.0,
        ];
        for (i, v) in var.iter().enumerate() {
            let half = Z95 * ELO_PER_STRENGTH * v.sqrt();
            assert!(close(r[i].ci95[1] - r[i].rating, half), "agent {i}: {:?} vs ±{half}", r[i]);
            assert!(close(r[i].rating - r[i].ci95[0], half), "agent {i}: {:?} vs ±{half}", r[i]);
        }
        // Worked by hand: R_AB = 1 / (2/3 + 1 / (5/4 + 3/2)) = 33/34, var A ≈ 0.4528.
        assert!(close(r_ab, 33.0 / 34.0));
    }

    #[test]
    fn three_agents_match_the_hand_computed_strengths_and_intervals() {
        // A–B 3 games, A 2 wins; A–C 5 games, A 4 wins; B–C 3 games, B 1 win and 2 draws.
        let table = [pair(0, 1, 2, 0, 1), pair(0, 2, 4, 0, 1), pair(1, 2, 1, 2, 0)];
        check_three_agent_table(&bradley_terry(3, &table, 0.0).unwrap());
    }

    #[test]
    fn the_prior_adds_one_draw_per_pair() {
        // With one virtual draw per pair, A–B 1 win 1 draw, A–C 3 wins 1 draw and B–C 1 win
        // 1 draw give the same scores (2/3, 4/5, 2/3) and games (3, 5, 3) as above.
        let table = [pair(0, 1, 1, 1, 0), pair(0, 2, 3, 1, 0), pair(1, 2, 1, 1, 0)];
        check_three_agent_table(&bradley_terry(3, &table, 1.0).unwrap());
    }

    #[test]
    fn perfect_records_need_the_prior() {
        let table = [pair(0, 1, 4, 0, 0)];
        assert!(bradley_terry(2, &table, 0.0).unwrap_err().contains("unbounded"));
        // With one virtual draw, A scores 4.5 of 5: ratings ±200·log10 9.
        let r = bradley_terry(2, &table, PRIOR_DRAWS).unwrap();
        assert!(close(r[0].rating, 200.0 * 9f64.log10()), "{r:?}");
        // A group that beats everyone else is unbounded too, even if it splits its own games.
        let table = [
            pair(0, 1, 1, 0, 1),
            pair(2, 3, 1, 0, 1),
            pair(0, 2, 2, 0, 0),
            pair(0, 3, 2, 0, 0),
            pair(1, 2, 2, 0, 0),
            pair(1, 3, 2, 0, 0),
        ];
        assert!(bradley_terry(4, &table, 0.0).is_err());
        assert!(bradley_terry(1, &[], 1.0).is_err());
        assert!(bradley_terry(2, &[pair(0, 0, 1, 0, 0)], 1.0).is_err());
    }
}
