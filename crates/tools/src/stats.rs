//! The statistics of an engine match (`mancala-play --pairs`): the score,
//! the Elo difference with its 95% interval, and the sequential probability
//! ratio test (SPRT) that tells when a match has said enough.
//!
//! The formulas are the ones engine testers use (cutechess-cli, fastchess,
//! fishtest), written out here and in spec/cli.md:
//!
//! - The score `s` is the mean result of the first engine, a win 1, a draw
//!   ½, a loss 0. The logistic Elo difference is `E(s) = -400 log10(1/s -
//!   1)` (the inverse of the expected score `L(E) = 1 / (1 + 10^(-E/400))`).
//! - Its 95% interval is `E(s ± 1.959964 σ)`, with `σ² = var / n` the
//!   variance of the mean: over the `n` games with the trinomial variance
//!   `var = Σ pᵢ (xᵢ - s)²` of the results (xᵢ 1, ½, 0 with frequencies
//!   pᵢ), or over the `n` game pairs with the pentanomial variance of the
//!   pair scores (xᵢ 0, ¼, ½, ¾, 1: a pair's points over 2), which the
//!   colours reversed within a pair make smaller.
//! - The SPRT of `H0: E = elo0` against `H1: E = elo1` is the generalized
//!   SPRT (GSPRT) over the pentanomial counts of pairs, as fishtest's
//!   `LLRcalc.py` computes it for the logistic Elo (Michel Van den Bergh,
//!   "Generalized SPRT"): with `s0 = L(elo0)`, `s1 = L(elo1)` and `p̂` the
//!   observed frequencies of the five pair scores over `n` pairs, `LLR = n
//!   Σ p̂ᵢ ln(p1ᵢ / p0ᵢ)`, where `pⱼ` is the most likely distribution of
//!   pair scores whose mean is `sⱼ` ([`multiplier`]). Near the truth this
//!   is the familiar `n (s1 - s0) (2s - s0 - s1) / (2 var)`; unlike that
//!   normal approximation it stays finite when every pair went alike. It
//!   stops when `LLR` reaches `ln((1 - β) / α)` (H1 accepted) or falls to
//!   `ln(β / (1 - α))` (H0 accepted). As fishtest does, a count of zero is
//!   taken as 0.001.

use std::fmt;

/// The 97.5% quantile of the standard normal: a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a mean score `s` (0 < s < 1): `-400
/// log10(1/s - 1)`; ±infinity at 1 and 0.
#[must_use]
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The mean and variance of results `values` seen `counts` times (counts
/// may be fractional: the LLR's regularized ones).
fn mean_variance(values: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// An Elo difference and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean score the estimate is of.
    pub score: f64,
    pub elo: f64,
    /// The interval's ends, `E(s - 1.96σ)` and `E(s + 1.96σ)`; `None`
    /// when the results so far do not vary (one kind of result only: every
    /// pair in one bin, a score of 0 or 1), since σ is then 0 and the
    /// interval would shrink to a point however few the results.
    pub interval: Option<(f64, f64)>,
}

impl Estimate {
    /// From a mean score, the variance of one observation, and their count.
    fn new(score: f64, var: f64, n: f64) -> Estimate {
        let margin = Z95 * (var / n).sqrt();
        let interval = (var > 0.0).then(|| {
            // A score cannot leave [0, 1]: an end beyond is infinite.
            (
                elo((score - margin).max(0.0)),
                elo((score + margin).min(1.0)),
            )
        });
        Estimate {
            score,
            elo: elo(score),
            interval,
        }
    }
}

/// Wins, draws and losses of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The opponent's view.
    #[must_use]
    pub const fn mirrored(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The Elo difference and interval with the trinomial variance; `None`
    /// before any game.
    #[must_use]
    pub fn estimate(&self) -> Option<Estimate> {
        let counts = [self.wins, self.draws, self.losses].map(|c| c as f64);
        let (n, score, var) = mean_variance(&[1.0, 0.5, 0.0], &counts)?;
        Some(Estimate::new(score, var, n))
    }
}

/// The pairs of a match counted by the first engine's points in them:
/// `[LL, LD, DD or WL, WD, WW]`, 0 to 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// A pair's score over 2, by its count's index.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Counts a pair in which the first engine made `half_points` halves
    /// of a point (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The Elo difference and interval with the pentanomial variance; `None`
    /// before any pair.
    #[must_use]
    pub fn estimate(&self) -> Option<Estimate> {
        let (n, score, var) = mean_variance(&PAIR_SCORES, &self.0.map(|c| c as f64))?;
        Some(Estimate::new(score, var, n))
    }
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The lower bound was crossed: H0 (`elo0`) accepted.
    H0,
    /// The upper bound was crossed: H1 (`elo1`) accepted.
    H1,
    /// Neither: play on.
    Continue,
}

impl Sprt {
    /// The bounds `(ln(β / (1 - α)), ln((1 - β) / α))`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs so far (0 before any): the
    /// generalized (maximum-likelihood) one over the pentanomial counts.
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let (l0, l1) = (multiplier(&freq, s0), multiplier(&freq, s1));
        n * PAIR_SCORES
            .iter()
            .zip(freq)
            .map(|(x, p)| p * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln()))
            .sum::<f64>()
    }

    /// What the LLR says.
    #[must_use]
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The Lagrange multiplier `λ` of the most likely distribution of pair
/// scores with mean `s`, given the observed frequencies `freq`: that
/// distribution is `pᵢ = freqᵢ / (1 + λ (xᵢ - s))`, where `λ` solves `Σ
/// freqᵢ (xᵢ - s) / (1 + λ (xᵢ - s)) = 0`. The sum falls as `λ` grows, so
/// bisection between the poles finds it.
fn multiplier(freq: &[f64; 5], s: f64) -> f64 {
    let d = PAIR_SCORES.map(|x| x - s);
    // Every 1 + λ dᵢ stays positive: λ in (-1 / max d, -1 / min d).
    let (low, high) = (-1.0 / d[4], -1.0 / d[0]);
    let sum = |l: f64| -> f64 { freq.iter().zip(d).map(|(p, d)| p * d / (1.0 + l * d)).sum() };
    let (mut low, mut high) = (low + (high - low) * 1e-12, high - (high - low) * 1e-12);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if sum(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// Text that is no [`Sprt`]: the word, value or key at fault.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseSprtError {
    /// A word with no `=`.
    NoValue { word: String },
    /// A value that is no finite number.
    NotANumber { value: String },
    /// A key other than elo0, elo1, alpha and beta.
    UnknownKey { key: String },
    /// A key given twice.
    Twice { key: String },
    /// elo0 or elo1 not given.
    MissingElo,
    /// elo0 not below elo1.
    EloOrder { elo0: f64, elo1: f64 },
    /// alpha or beta (`key`) not in (0, 0.5).
    Probability { key: &'static str, value: f64 },
}

impl fmt::Display for ParseSprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSprtError::NoValue { word } => {
                write!(f, "`{word}` needs a value, as in `elo1=5`")
            }
            ParseSprtError::NotANumber { value } => write!(f, "`{value}` is not a number"),
            ParseSprtError::UnknownKey { key } => write!(
                f,
                "unknown key `{key}` (expected elo0, elo1, alpha or beta)"
            ),
            ParseSprtError::Twice { key } => write!(f, "`{key}` given twice"),
            ParseSprtError::MissingElo => {
                f.write_str("both elo0 and elo1 are needed, as in `elo0=0,elo1=5`")
            }
            ParseSprtError::EloOrder { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be below elo1 ({elo1})")
            }
            ParseSprtError::Probability { key, value } => {
                write!(f, "{key} must be above 0 and below 0.5, not {value}")
            }
        }
    }
}

impl std::error::Error for ParseSprtError {}

impl std::str::FromStr for Sprt {
    type Err = ParseSprtError;

    /// `elo0=0,elo1=5[,alpha=0.05,beta=0.05]` (spaces may separate them).
    fn from_str(s: &str) -> Result<Sprt, ParseSprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for word in s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| ParseSprtError::NoValue {
                    word: word.to_owned(),
                })?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| ParseSprtError::NotANumber {
                    value: value.to_owned(),
                })?;
            let slot = match key {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                _ => {
                    return Err(ParseSprtError::UnknownKey {
                        key: key.to_owned(),
                    });
                }
            };
            if slot.replace(number).is_some() {
                return Err(ParseSprtError::Twice {
                    key: key.to_owned(),
                });
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(ParseSprtError::MissingElo);
        };
        if elo0 >= elo1 {
            return Err(ParseSprtError::EloOrder { elo0, elo1 });
        }
        let (alpha, beta) = (alpha.unwrap_or(0.05), beta.unwrap_or(0.05));
        for (key, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(ParseSprtError::Probability { key, value: p });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}
