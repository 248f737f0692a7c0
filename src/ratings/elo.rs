//! Elo ratings of a head-to-head game by maximum likelihood, with 95% intervals and, for
//! fields of up to [`EXACT_LIMIT`] bots, the likelihood of superiority of every bot over
//! every other.
//!
//! The model is Bradley-Terry on the Elo scale: a bot rated `d` points above its opponent
//! scores `1 / (1 + 10^(-d/400))` per game on average, a draw counting half a win. The
//! ratings are the ones that make every game's result most likely (found by Hunter's
//! minorization-maximization iteration), fixed so that their mean is 0. As in BayesElo, one
//! virtual draw between every pair of bots is added first: it keeps a bot that won or lost
//! everything at a finite rating. The intervals come from the curvature of the
//! log-likelihood at its maximum (the inverse Fisher information, a pseudo-inverse because
//! only differences are determined): rating ± 1.96 standard errors. The likelihood of
//! superiority of A over B is `Φ((r_A - r_B) / se(r_A - r_B))`, the probability that A is
//! really the stronger given the results, from the same covariance.
//!
//! All of that costs `k²` memory and `k³` time for `k` bots, so it is kept for fields of up
//! to [`EXACT_LIMIT`] bots; larger fields are rated from the pairs that met alone, with
//! estimated intervals and no superiority ([`super::elo_sparse`]).

use std::collections::BTreeMap;

use super::elo_model::{ELO_PER_NAT, Fit, Meeting, PRIOR_DRAWS, Z95};
use super::{elo_sparse, normal};

/// The largest field rated exactly (dense covariance, superiority of every pair). Fitting
/// and inverting cost about 0.1 s at this size and grow with its cube; beyond it the
/// intervals are estimated (see `src/ratings/elo_sparse.rs`).
pub const EXACT_LIMIT: usize = 200;

/// The fitting stops when no strength changes by more than this (in natural-log units).
const TOLERANCE: f64 = 1e-12;

/// A bound on the fitting iterations; the prior makes convergence quick in practice.
const MAX_ITERATIONS: usize = 100_000;

/// Head-to-head results between `k` bots, by index: games played and points won (a win 1,
/// a draw ½) for each pair that met, so that memory grows with the games, not with `k²`.
#[derive(Debug, Clone)]
pub(crate) struct Results {
    pub(super) bots: usize,
    /// By `(a, b)` with `a < b`: games played and the points `a` won.
    pub(super) pairs: BTreeMap<(usize, usize), Meeting>,
}

impl Results {
    /// No games yet between `k` bots.
    pub(crate) fn new(k: usize) -> Results {
        Results {
            bots: k,
            pairs: BTreeMap::new(),
        }
    }

    /// One game between `a` and `b` in which `a` scored `points` (1, ½ or 0). A game of a
    /// bot against itself says nothing about its strength and is left out.
    pub(crate) fn add(&mut self, a: usize, b: usize, points: f64) {
        let (key, points) = match a.cmp(&b) {
            std::cmp::Ordering::Less => ((a, b), points),
            std::cmp::Ordering::Greater => ((b, a), 1.0 - points),
            std::cmp::Ordering::Equal => return,
        };
        let meeting = self.pairs.entry(key).or_default();
        meeting.games += 1.0;
        meeting.points += points;
    }

    /// The maximum-likelihood ratings with their intervals, and the superiority matrix up to
    /// [`EXACT_LIMIT`] bots.
    pub(crate) fn fit(&self) -> Fit {
        if self.bots <= EXACT_LIMIT {
            let (games, points) = self.dense();
            dense_fit(&games, &points)
        } else {
            elo_sparse::fit(self.bots, &self.pairs)
        }
    }

    /// Games played and points won for every ordered pair, as `k × k` matrices. The
    /// counts are whole and half numbers, so these sums are exact whatever their order.
    fn dense(&self) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let k = self.bots;
        let mut games = vec![vec![0.0; k]; k];
        let mut points = vec![vec![0.0; k]; k];
        for (&(a, b), meeting) in &self.pairs {
            games[a][b] = meeting.games;
            games[b][a] = meeting.games;
            points[a][b] = meeting.points;
            points[b][a] = meeting.games - meeting.points;
        }
        (games, points)
    }
}

/// The exact fit of a field from its dense `played` and `points` matrices (see
/// [`Results::dense`]): ratings, intervals from the pseudo-inverse of the Fisher
/// information, and the superiority matrix.
fn dense_fit(played: &[Vec<f64>], points: &[Vec<f64>]) -> Fit {
    let k = played.len();
    let prior = |a: usize, b: usize| if a == b { 0.0 } else { PRIOR_DRAWS };
    let games: Vec<Vec<f64>> = (0..k)
        .map(|a| (0..k).map(|b| played[a][b] + prior(a, b)).collect())
        .collect();
    let won: Vec<f64> = (0..k)
        .map(|a| (0..k).map(|b| points[a][b] + prior(a, b) / 2.0).sum())
        .collect();
    let theta = maximize(&games, &won);
    let covariance = laplacian_pseudo_inverse(information(&games, &theta));
    let margin = (0..k)
        .map(|a| Z95 * covariance[a][a].max(0.0).sqrt() * ELO_PER_NAT)
        .collect();
    Fit {
        elo: theta.iter().map(|t| t * ELO_PER_NAT).collect(),
        margin,
        superiority: superiority(&theta, &covariance),
    }
}

/// The maximum-likelihood strengths θ (natural-log units, mean 0) of bots that played
/// `games[a][b]` games (virtual draws included) and won `won[a]` points in all: Hunter's
/// minorization-maximization on γ = e^θ, renormalized to a geometric mean of 1 after every
/// sweep.
fn maximize(games: &[Vec<f64>], won: &[f64]) -> Vec<f64> {
    let k = games.len();
    let mut theta = vec![0.0_f64; k];
    for _ in 0..MAX_ITERATIONS {
        let gamma: Vec<f64> = theta.iter().map(|t| t.exp()).collect();
        let mut next: Vec<f64> = (0..k)
            .map(|a| {
                let denominator: f64 = (0..k)
                    .filter(|&b| b != a)
                    .map(|b| games[a][b] / (gamma[a] + gamma[b]))
                    .sum();
                if denominator > 0.0 {
                    (won[a] / denominator).ln()
                } else {
                    0.0
                }
            })
            .collect();
        let mean = next.iter().sum::<f64>() / k as f64;
        next.iter_mut().for_each(|t| *t -= mean);
        let change = next
            .iter()
            .zip(&theta)
            .map(|(n, t)| (n - t).abs())
            .fold(0.0, f64::max);
        theta = next;
        if change < TOLERANCE {
            break;
        }
    }
    theta
}

/// The Fisher information at strengths `theta`: a weighted graph Laplacian, singular along
/// "all ratings shift together"; its pseudo-inverse is the covariance of ratings whose mean
/// is fixed.
fn information(games: &[Vec<f64>], theta: &[f64]) -> Vec<Vec<f64>> {
    let k = games.len();
    let mut information = vec![vec![0.0; k]; k];
    for a in 0..k {
        for b in (0..k).filter(|&b| b != a) {
            let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
            let weight = games[a][b] * p * (1.0 - p);
            information[a][b] -= weight;
            information[a][a] += weight;
        }
    }
    information
}

/// `superiority[a][b]`, the likelihood that `a` is stronger than `b`, from the strengths
/// and their covariance.
fn superiority(theta: &[f64], covariance: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = theta.len();
    (0..k)
        .map(|a| {
            (0..k)
                .map(|b| {
                    let variance = covariance[a][a] + covariance[b][b] - 2.0 * covariance[a][b];
                    if a == b || variance <= 0.0 {
                        0.5
                    } else {
                        normal::cdf((theta[a] - theta[b]) / variance.sqrt())
                    }
                })
                .collect()
        })
        .collect()
}

/// The Moore-Penrose pseudo-inverse of a connected graph's Laplacian `l` (symmetric, rows
/// summing to 0, null space the constant vector): `(L + J/k)⁻¹ - J/k`, `J` all ones.
fn laplacian_pseudo_inverse(mut l: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let k = l.len();
    let share = 1.0 / k as f64;
    l.iter_mut().flatten().for_each(|x| *x += share);
    let mut inverse = invert(l);
    inverse.iter_mut().flatten().for_each(|x| *x -= share);
    inverse
}

/// The inverse of a positive definite matrix by Gauss-Jordan elimination with partial
/// pivoting.
pub(super) fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let k = a.len();
    let mut inverse: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for column in 0..k {
        let pivot = (column..k)
            .max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))
            .expect("a non-empty range");
        a.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = a[column][column];
        a[column].iter_mut().for_each(|x| *x /= scale);
        inverse[column].iter_mut().for_each(|x| *x /= scale);
        for row in (0..k).filter(|&row| row != column) {
            let factor = a[row][column];
            if factor != 0.0 {
                for j in 0..k {
                    a[row][j] -= factor * a[column][j];
                    inverse[row][j] -= factor * inverse[column][j];
                }
            }
        }
    }
    inverse
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() < tolerance,
            "{actual} is not {expected}"
        );
    }

    /// Two bots: A won 7, drew 1 and lost 2 against B. With the virtual draw A has 8 of 11
    /// points, so by hand: r_A - r_B = 400 log10(8/3) = 170.39 (±85.19 around the mean 0);
    /// the variance of the log-odds is 1/8 + 1/3 = 0.458333, so se(r_A - r_B) =
    /// 173.7178 * 0.677003 = 117.607, each rating's standard error is half that, 58.80,
    /// its 95% margin 1.96 * 58.80 = 115.25, and the superiority Φ(0.980829 / 0.677003) =
    /// Φ(1.448782) = 0.92630.
    #[test]
    fn two_bots_match_the_hand_computed_log_odds() {
        let mut results = Results::new(2);
        for points in [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0] {
            results.add(0, 1, points);
        }
        let fit = results.fit();
        close(fit.elo[0], 85.194, 1e-3);
        close(fit.elo[1], -85.194, 1e-3);
        close(fit.margin[0], 115.25, 1e-2);
        close(fit.margin[1], 115.25, 1e-2);
        close(fit.superiority[0][1], 0.926_30, 1e-5);
        close(fit.superiority[1][0], 1.0 - 0.926_30, 1e-5);
        close(fit.superiority[0][0], 0.5, 1e-12);
    }

    #[test]
    fn the_fit_reproduces_every_bots_points() {
        // At the maximum, each bot's expected points (prior included) equal its actual ones.
        let mut results = Results::new(3);
        let games = [
            (0, 1, 1.0),
            (0, 1, 1.0),
            (0, 1, 0.0),
            (1, 2, 1.0),
            (0, 2, 0.5),
        ];
        for (a, b, points) in games {
            results.add(a, b, points);
        }
        let fit = results.fit();
        let expected =
            |a: usize, b: usize| 1.0 / (1.0 + 10f64.powf((fit.elo[b] - fit.elo[a]) / 400.0));
        let actual = [2.0 + 0.5 + 1.0, 1.0 + 1.0 + 1.0, 0.5 + 1.0];
        for (a, actual) in actual.into_iter().enumerate() {
            let expected: f64 = (0..3)
                .filter(|&b| b != a)
                .map(|b| (results.dense().0[a][b] + PRIOR_DRAWS) * expected(a, b))
                .sum();
            close(expected, actual, 1e-9);
        }
        close(fit.elo.iter().sum(), 0.0, 1e-9);
    }

    #[test]
    fn a_balanced_cycle_rates_everyone_equal() {
        let mut results = Results::new(3);
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            results.add(a, b, 1.0);
        }
        let fit = results.fit();
        for a in 0..3 {
            close(fit.elo[a], 0.0, 1e-9);
            // Φ(0) within the approximation's error.
            close(fit.superiority[a][(a + 1) % 3], 0.5, 1e-7);
        }
    }

    #[test]
    fn a_bot_that_won_everything_has_a_finite_rating() {
        let mut results = Results::new(2);
        for _ in 0..100 {
            results.add(0, 1, 1.0);
        }
        let fit = results.fit();
        // 100.5 of 101 points: 400 log10(201) = 921.3 apart.
        close(fit.elo[0] - fit.elo[1], 400.0 * 201f64.log10(), 1e-6);
        assert!(fit.superiority[0][1] > 0.999, "{:?}", fit.superiority);
    }

    #[test]
    fn the_pseudo_inverse_of_a_path_laplacian_is_known() {
        // The path a - b - c with unit weights: L⁺ = [[5, -1, -4], [-1, 2, -1], [-4, -1, 5]] / 9.
        let l = vec![
            vec![1.0, -1.0, 0.0],
            vec![-1.0, 2.0, -1.0],
            vec![0.0, -1.0, 1.0],
        ];
        let expected = [[5.0, -1.0, -4.0], [-1.0, 2.0, -1.0], [-4.0, -1.0, 5.0]];
        let inverse = laplacian_pseudo_inverse(l);
        for (row, expected) in inverse.iter().zip(expected) {
            for (x, e) in row.iter().zip(expected) {
                close(*x, e / 9.0, 1e-12);
            }
        }
    }
}
