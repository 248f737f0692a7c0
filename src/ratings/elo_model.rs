//! What the exact Elo fit ([`super::elo`]) and the large-field one ([`super::elo_sparse`])
//! share: the scale, the prior, and the shapes of their input and output.

/// Virtual draws added between every pair of bots before fitting (beyond
/// [`super::elo::EXACT_LIMIT`] bots, between every pair that met).
pub(super) const PRIOR_DRAWS: f64 = 1.0;

/// Elo points per natural-log unit of playing strength: 400 / ln 10.
pub(super) const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The normal quantile of a two-sided 95% interval.
pub(super) const Z95: f64 = 1.959_963_984_540_054;

/// The games between two bots and the points the lower-numbered of them won.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Meeting {
    pub(super) games: f64,
    pub(super) points: f64,
}

/// Fitted ratings, by bot index.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fit {
    /// Elo ratings, mean 0.
    pub(crate) elo: Vec<f64>,
    /// Half-widths of the 95% intervals, in Elo.
    pub(crate) margin: Vec<f64>,
    /// `superiority[a][b]`: the likelihood that `a` is stronger than `b` (0.5 on the
    /// diagonal); empty beyond [`super::elo::EXACT_LIMIT`] bots.
    pub(crate) superiority: Vec<Vec<f64>>,
}
