//! Early stopping of a match of two bots (`--sprt`): the generalized sequential probability
//! ratio test on the pentanomial model of game pairs, the test fishtest and fastchess run.
//!
//! Games come in pairs with the same seed and the sides swapped, and a pair is scored by the
//! candidate's points in it: 0, ½, 1, 1½ or 2. Hypothesis H0 says the candidate is `elo0`
//! stronger than the baseline, H1 that it is `elo1` stronger (logistic Elo). The
//! log-likelihood ratio of H1 over H0 uses, for each hypothesis, the distribution of pair
//! scores that is most likely given the pairs seen among those whose mean is that
//! hypothesis's expected score (the maximum-likelihood estimate under the constraint, as in
//! Michel Van den Bergh's derivation that fishtest implements). The test accepts H1 once the
//! ratio reaches `ln((1 - beta) / alpha)` and H0 once it falls to `ln(beta / (1 - alpha))`.
//!
//! Pairs count in order: the ratio is that of pairs 0 to k, all finished, so how fast games
//! end (with several at once) never decides which results are counted. Pure: no I/O.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::text::plural;
use arena_games::engine::GameResult;

/// The test's settings, and which bot is tested against the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The bot whose strength is tested (the gauntlet's, or the first one).
    pub candidate: String,
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

// Every figure is finite, checked when parsed: equality is reflexive.
impl Eq for Sprt {}

/// `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`: the figures, without the candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtBounds {
    /// See [`Sprt::elo0`].
    pub elo0: f64,
    /// See [`Sprt::elo1`].
    pub elo1: f64,
    /// See [`Sprt::alpha`].
    pub alpha: f64,
    /// See [`Sprt::beta`].
    pub beta: f64,
}

impl FromStr for SprtBounds {
    type Err = String;

    /// `elo0=E0,elo1=E1[,alpha=A][,beta=B]`; alpha and beta are 0.05 unless given.
    fn from_str(text: &str) -> Result<SprtBounds, String> {
        let mut figures = BTreeMap::new();
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("expected KEY=VALUE, not `{}`", part.escape_debug()))?;
            let key = key.trim();
            if !["elo0", "elo1", "alpha", "beta"].contains(&key) {
                return Err(format!(
                    "unknown key `{}` (expected elo0, elo1, alpha, beta)",
                    key.escape_debug()
                ));
            }
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|value: &f64| value.is_finite())
                .ok_or_else(|| format!("{key} must be a number, not `{}`", value.escape_debug()))?;
            if figures.insert(key, value).is_some() {
                return Err(format!("{key} is given twice"));
            }
        }
        let (Some(&elo0), Some(&elo1)) = (figures.get("elo0"), figures.get("elo1")) else {
            return Err("elo0 and elo1 are needed, e.g. elo0=0,elo1=10".into());
        };
        let alpha = figures.get("alpha").copied().unwrap_or(0.05);
        let beta = figures.get("beta").copied().unwrap_or(0.05);
        if elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        if [elo0, elo1].iter().any(|elo| elo.abs() >= 1000.0) {
            return Err("elo0 and elo1 must lie within ±1000".into());
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(format!(
                "alpha and beta must be above 0 with a sum below 1 (got {alpha} and {beta})"
            ));
        }
        Ok(SprtBounds {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for SprtBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Sprt {
    /// The test of `candidate` with `bounds`.
    pub fn new(candidate: String, bounds: SprtBounds) -> Sprt {
        Sprt {
            candidate,
            elo0: bounds.elo0,
            elo1: bounds.elo1,
            alpha: bounds.alpha,
            beta: bounds.beta,
        }
    }

    /// The log-likelihood ratios at which H0 and H1 are accepted.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bounds = SprtBounds {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
        };
        write!(f, "{} tested with {bounds}", self.candidate)
    }
}

/// Pairs by the candidate's score in them: 0, ½, 1, 1½, 2 points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The log-likelihood ratio of H1 (`elo1`) over H0 (`elo0`) for these pairs; 0 before
    /// the first pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        // A pair score never seen yet counts as a thousandth of a pair, as fishtest does: with
        // a count of 0, a hypothesis whose mean lies at the edge of the scores seen (H0 at 0
        // Elo when every pair so far was even or better) would be impossible, and the ratio
        // infinite after a few pairs.
        let counts = self.0.map(|count| (count as f64).max(1e-3));
        let pairs: f64 = counts.iter().sum();
        // Pair scores as a share of the pair's two points, and how often each was seen.
        let seen: Vec<(f64, f64)> = counts
            .iter()
            .enumerate()
            .map(|(i, &count)| (i as f64 / 4.0, count / pairs))
            .collect();
        let log_likelihood = |elo: f64| {
            let score = expected_score(elo);
            let lambda = constrained_multiplier(&seen, score);
            seen.iter()
                .map(|&(x, p)| p * (1.0 + lambda * (x - score)).ln())
                .sum::<f64>()
        };
        // Each hypothesis's best distribution is p_i / (1 + λ(x_i - s)); the ratio of
        // likelihoods is then a sum of the logarithms of the denominators.
        pairs * (log_likelihood(elo0) - log_likelihood(elo1))
    }
}

/// The expected score of a bot `elo` stronger than its opponent (logistic Elo).
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The λ with `Σ p (x - s) / (1 + λ (x - s)) = 0` that keeps every `1 + λ (x - s)` positive:
/// the Lagrange multiplier of the most likely distribution with mean `score`. The sum falls
/// as λ grows, so bisection finds it.
fn constrained_multiplier(seen: &[(f64, f64)], score: f64) -> f64 {
    let (lowest, highest) = (seen[0].0, seen[seen.len() - 1].0);
    // 1 + λ(x - s) > 0 for every x seen: λ between -1/(highest - s) and 1/(s - lowest).
    let (mut low, mut high) = (-1.0 / (highest - score), 1.0 / (score - lowest));
    let slope = |lambda: f64| {
        seen.iter()
            .map(|&(x, p)| p * (x - score) / (1.0 + lambda * (x - score)))
            .sum::<f64>()
    };
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// Which hypothesis the test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The candidate is not `elo1` stronger: it is about `elo0` stronger, or weaker.
    H0,
    /// The candidate is about `elo1` stronger, or more.
    H1,
}

/// Where a test stands: its pairs, its ratio and bounds, and its verdict once reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The test.
    #[serde(flatten)]
    pub sprt: Sprt,
    /// The pairs counted (pairs 0 to k, all finished), by the candidate's score.
    pub pentanomial: Pentanomial,
    /// The log-likelihood ratio of H1 over H0.
    pub llr: f64,
    /// The ratio that accepts H0.
    pub lower_bound: f64,
    /// The ratio that accepts H1.
    pub upper_bound: f64,
    /// The hypothesis accepted, if a bound was reached.
    pub verdict: Option<Verdict>,
}

impl SprtStatus {
    /// One line for progress and logs: `LLR 1.23 (-2.94, 2.94), 40 pairs`, and the verdict.
    pub fn line(&self) -> String {
        let verdict = match self.verdict {
            Some(Verdict::H0) => ": H0 accepted",
            Some(Verdict::H1) => ": H1 accepted",
            None => "",
        };
        format!(
            "LLR {:.2} ({:.2}, {:.2}), {}{verdict}",
            self.llr,
            self.lower_bound,
            self.upper_bound,
            plural(self.pentanomial.pairs(), "pair", "pairs")
        )
    }
}

impl fmt::Display for SprtStatus {
    /// `hunter tested with elo0=0,elo1=10,alpha=0.05,beta=0.05: LLR 3.05 (-2.94, 2.94), 9
    /// pairs by score 0, ½, 1, 1½, 2: 0 0 1 3 5: H1 accepted` (or `no verdict`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [zero, half, one, one_half, two] = self.pentanomial.0;
        let verdict = match self.verdict {
            Some(Verdict::H0) => "H0 accepted",
            Some(Verdict::H1) => "H1 accepted",
            None => "no verdict",
        };
        write!(
            f,
            "{}: LLR {:.2} ({:.2}, {:.2}), {} by score 0, ½, 1, 1½, 2: {zero} {half} \
             {one} {one_half} {two}: {verdict}",
            self.sprt,
            self.llr,
            self.lower_bound,
            self.upper_bound,
            plural(self.pentanomial.pairs(), "pair", "pairs")
        )
    }
}

/// Follows a test game by game, in any order, counting pairs in order and stopping at the
/// first bound reached.
#[derive(Debug, Clone)]
pub struct SprtTracker {
    status: SprtStatus,
    /// The candidate's points in the games of pairs not yet counted, by pair.
    waiting: BTreeMap<u64, [Option<u8>; 2]>,
    /// The next pair to count.
    next: u64,
}

impl SprtTracker {
    /// A test with no pairs yet.
    pub fn new(sprt: Sprt) -> SprtTracker {
        let (lower_bound, upper_bound) = sprt.bounds();
        SprtTracker {
            status: SprtStatus {
                sprt,
                pentanomial: Pentanomial::default(),
                llr: 0.0,
                lower_bound,
                upper_bound,
                verdict: None,
            },
            waiting: BTreeMap::new(),
            next: 0,
        }
    }

    /// The bot under test, whose results [`SprtTracker::record`] takes.
    pub fn candidate(&self) -> &str {
        &self.status.sprt.candidate
    }

    /// Counts game `index` (games `2k` and `2k + 1` are pair `k`), where the candidate had
    /// `result`; a game without the candidate (`None`) or after the verdict changes nothing.
    pub fn record(&mut self, index: u64, result: Option<GameResult>) {
        let Some(half_points) = result.map(|result| match result {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }) else {
            return;
        };
        if self.status.verdict.is_some() || index / 2 < self.next {
            return;
        }
        self.waiting.entry(index / 2).or_default()[(index % 2) as usize] = Some(half_points);
        while let Some([Some(first), Some(second)]) = self.waiting.get(&self.next).copied() {
            self.waiting.remove(&self.next);
            self.next += 1;
            self.status.pentanomial.0[usize::from(first + second)] += 1;
            let sprt = &self.status.sprt;
            self.status.llr = self.status.pentanomial.llr(sprt.elo0, sprt.elo1);
            if self.status.llr >= self.status.upper_bound {
                self.status.verdict = Some(Verdict::H1);
            } else if self.status.llr <= self.status.lower_bound {
                self.status.verdict = Some(Verdict::H0);
            }
            if self.status.verdict.is_some() {
                self.waiting.clear();
                break;
            }
        }
    }

    /// Where the test stands.
    pub fn status(&self) -> &SprtStatus {
        &self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_llr_of_published_counts_is_the_published_one() {
        // A fishtest-style statistics page (montytest, test 69d3c8dc7c5b3724e29d2712): pairs
        // [13, 37, 50, 25, 3], H0 at 0 and H1 at 2.716 logistic Elo (its normalized 4.0);
        // "Logistic (exact)" LLR -0.53772. The 2.716 is rounded to three decimals, so the
        // ratio agrees to about 1e-3.
        let llr = Pentanomial([13, 37, 50, 25, 3]).llr(0.0, 2.716);
        assert!((llr - -0.53772).abs() < 1e-3, "{llr}");
        // Its bounds for alpha = beta = 0.05.
        let sprt = Sprt::new("a".into(), "elo0=0,elo1=2.716".parse().unwrap());
        let (lower, upper) = sprt.bounds();
        assert!((lower - -2.9444).abs() < 1e-4 && (upper - 2.9444).abs() < 1e-4);
    }

    #[test]
    fn the_llr_grows_with_evidence_for_h1_and_falls_with_evidence_for_h0() {
        let strong = Pentanomial([2, 10, 40, 80, 68]);
        let even = Pentanomial([10, 20, 40, 20, 10]);
        assert!(strong.llr(0.0, 10.0) > 2.95, "{}", strong.llr(0.0, 10.0));
        assert!(even.llr(0.0, 10.0) < 0.0, "{}", even.llr(0.0, 10.0));
        assert!(
            Pentanomial([20, 40, 80, 40, 20]).llr(0.0, 10.0) < even.llr(0.0, 10.0),
            "twice the even pairs are more evidence for H0"
        );
        // Even pairs only: evidence for H0, a little.
        let even_only = Pentanomial([0, 0, 7, 0, 0]).llr(0.0, 10.0);
        assert!((-1.0..0.0).contains(&even_only), "{even_only}");
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
        // A strong start is no proof yet: a few winning pairs keep the ratio finite.
        let start = Pentanomial([0, 0, 1, 3, 3]).llr(0.0, 10.0);
        assert!(start.is_finite() && start < 2.95, "{start}");
    }

    #[test]
    fn settings_are_checked() {
        let bounds: SprtBounds = "elo0=0, elo1=10".parse().unwrap();
        assert_eq!((bounds.alpha, bounds.beta), (0.05, 0.05));
        for bad in [
            "elo0=0",
            "elo0=10,elo1=0",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,alpha=0.6,beta=0.5",
            "elo0=0,elo1=5,gamma=1",
            "elo0=0,elo1=nan",
            "elo0=0,elo1=5,elo1=6",
            "elo0",
        ] {
            assert!(bad.parse::<SprtBounds>().is_err(), "{bad}");
        }
    }

    #[test]
    fn pairs_count_in_order_and_the_first_bound_reached_decides() {
        let sprt = Sprt::new("v2".into(), "elo0=0,elo1=50".parse().unwrap());
        let mut tracker = SprtTracker::new(sprt);
        // Pair 1 finishes before pair 0: it waits.
        tracker.record(2, Some(GameResult::Win));
        tracker.record(3, Some(GameResult::Draw));
        assert_eq!(tracker.status().pentanomial.pairs(), 0);
        tracker.record(1, Some(GameResult::Loss));
        tracker.record(0, Some(GameResult::Draw));
        assert_eq!(tracker.status().pentanomial, Pentanomial([0, 1, 0, 1, 0]));
        let mut index = 4;
        while tracker.status().verdict.is_none() {
            tracker.record(index, Some(GameResult::Win));
            index += 1;
            assert!(index < 1000, "a candidate winning every game never passed");
        }
        assert_eq!(tracker.status().verdict, Some(Verdict::H1));
        let decided = tracker.status().clone();
        tracker.record(index, Some(GameResult::Loss));
        tracker.record(index + 1, Some(GameResult::Loss));
        assert_eq!(
            tracker.status(),
            &decided,
            "games after the verdict change nothing"
        );
        assert!(
            decided.line().ends_with(": H1 accepted"),
            "{}",
            decided.line()
        );
    }
}
