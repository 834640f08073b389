//! Player specifications as the command line writes them
//! (`alphabeta:depth=8`) and as records tag them (`alphabeta depth=8`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::alphabeta::{self, AlphaBeta};
use crate::mcts::{self, Mcts};
use crate::simple::{Greedy, RandomPlayer};
use crate::{Budget, Player};

/// Which engine to build, with its settings.
///
/// Syntax: a name, optionally followed by `:` and comma-separated
/// `key=value` settings. The record-tag form, with the settings separated
/// by spaces instead (`alphabeta depth=8 ms=200`), parses too, so that a
/// spec's [`Display`](fmt::Display) reads back.
///
/// | spec | settings |
/// |---|---|
/// | `random` | `seed` |
/// | `greedy` | `seed` (ties between equal gains are broken at random) |
/// | `alphabeta` | `depth` (plies), `ms` (time budget per move), `seed` |
/// | `mcts` | `playouts` (per move), `ms` (time budget per move), `seed` |
///
/// `alphabeta` with neither `depth` nor `ms` searches to
/// [`AlphaBeta::DEFAULT_DEPTH`]; with only `ms` it deepens until the
/// time is up. `mcts` with neither uses [`Mcts::DEFAULT_PLAYOUTS`].
/// With both, whichever budget runs out first stops the search. `seed`
/// overrides the seed passed to [`PlayerSpec::build`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// A seed fixed by the spec itself, overriding the one given to `build`.
    pub seed: Option<u64>,
}

/// The engines and their settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Random,
    Greedy,
    /// Alpha-beta; the budget's work limit is the depth in plies.
    AlphaBeta(Budget),
    /// Monte Carlo tree search; the budget's work limit counts playouts.
    Mcts(Budget),
}

impl PlayerSpec {
    /// The engine this spec describes, its randomness seeded with `seed`
    /// (unless the spec names its own).
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        let seed = self.seed.unwrap_or(seed);
        match self.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
            PlayerKind::Greedy => Box::new(Greedy::new(seed)),
            PlayerKind::AlphaBeta(budget) => Box::new(AlphaBeta::new(budget, seed)),
            PlayerKind::Mcts(budget) => Box::new(Mcts::new(budget, seed)),
        }
    }

    /// The engine's name: `random`, `greedy`, `alphabeta` or `mcts`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self.kind {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::AlphaBeta(_) => "alphabeta",
            PlayerKind::Mcts(_) => "mcts",
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The record-tag form: name and effective settings separated by spaces,
    /// e.g. `alphabeta depth=9`, `mcts playouts=1000`, `random`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PlayerKind::Random | PlayerKind::Greedy => f.write_str(self.name())?,
            PlayerKind::AlphaBeta(budget) => alphabeta::write_tag(&budget, f)?,
            PlayerKind::Mcts(budget) => mcts::write_tag(&budget, f)?,
        }
        if let Some(seed) = self.seed {
            write!(f, " seed={seed}")?;
        }
        Ok(())
    }
}

/// Why a player spec does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSpecError {
    /// Not one of the engine names.
    UnknownPlayer(String),
    /// A setting this engine does not have.
    UnknownSetting {
        player: &'static str,
        key: String,
    },
    /// A setting without `=value`.
    MissingValue(String),
    /// A value that is not a positive whole number.
    BadValue {
        key: String,
        value: String,
    },
    Repeated(String),
}

impl fmt::Display for ParseSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSpecError::UnknownPlayer(name) if name == "human" => f.write_str(
                "`human` is not an engine (the command-line tool handles human players)",
            ),
            ParseSpecError::UnknownPlayer(name) => write!(
                f,
                "unknown player `{name}` (expected random, greedy, alphabeta or mcts)"
            ),
            ParseSpecError::UnknownSetting { player, key } => {
                let keys = match *player {
                    "alphabeta" => "depth, ms or seed",
                    "mcts" => "playouts, ms or seed",
                    _ => "seed",
                };
                write!(f, "{player} has no setting `{key}` (expected {keys})")
            }
            ParseSpecError::MissingValue(word) => {
                write!(f, "setting `{word}` needs a value, as in `{word}=8`")
            }
            ParseSpecError::BadValue { key, value } => write!(
                f,
                "bad value `{value}` for `{key}` (expected a whole number of at least 1)"
            ),
            ParseSpecError::Repeated(key) => write!(f, "setting `{key}` given twice"),
        }
    }
}

impl std::error::Error for ParseSpecError {}

fn positive(key: &str, value: &str) -> Result<u64, ParseSpecError> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ParseSpecError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
        }),
    }
}

fn set<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), ParseSpecError> {
    if slot.is_some() {
        return Err(ParseSpecError::Repeated(key.to_owned()));
    }
    *slot = Some(value);
    Ok(())
}

impl FromStr for PlayerSpec {
    type Err = ParseSpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, ParseSpecError> {
        let s = s.trim();
        let (name, rest) = match s.find([':', ' ', '\t']) {
            Some(i) => (&s[..i], &s[i + 1..]),
            None => (s, ""),
        };
        let (mut depth, mut ms, mut playouts, mut seed) = (None, None, None, None);
        let player: &'static str = match name {
            "random" => "random",
            "greedy" => "greedy",
            "alphabeta" => "alphabeta",
            "mcts" => "mcts",
            _ => return Err(ParseSpecError::UnknownPlayer(name.to_owned())),
        };
        for word in rest
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            let Some((key, value)) = word.split_once('=') else {
                return Err(ParseSpecError::MissingValue(word.to_owned()));
            };
            match (player, key) {
                (_, "seed") => {
                    // Zero is a fine seed.
                    let n = value.parse::<u64>().map_err(|_| ParseSpecError::BadValue {
                        key: key.to_owned(),
                        value: value.to_owned(),
                    })?;
                    set(&mut seed, key, n)?;
                }
                ("alphabeta", "depth") => {
                    let n = positive(key, value)?.min(u64::from(AlphaBeta::MAX_DEPTH));
                    set(&mut depth, key, n as u32)?;
                }
                ("alphabeta" | "mcts", "ms") => set(&mut ms, key, positive(key, value)?)?,
                ("mcts", "playouts") => {
                    let n = positive(key, value)?.min(u64::from(u32::MAX));
                    set(&mut playouts, key, n as u32)?;
                }
                _ => {
                    return Err(ParseSpecError::UnknownSetting {
                        player,
                        key: key.to_owned(),
                    });
                }
            }
        }
        let time = ms.map(Duration::from_millis);
        let kind = match player {
            "random" => PlayerKind::Random,
            "greedy" => PlayerKind::Greedy,
            "alphabeta" => {
                PlayerKind::AlphaBeta(Budget::new(depth, time, AlphaBeta::DEFAULT_DEPTH))
            }
            _ => PlayerKind::Mcts(Budget::new(playouts, time, Mcts::DEFAULT_PLAYOUTS)),
        };
        Ok(PlayerSpec { kind, seed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> PlayerSpec {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn specs_print_as_record_tags_and_read_back() {
        for (input, tag) in [
            ("random", "random"),
            ("greedy", "greedy"),
            ("alphabeta", "alphabeta depth=9"),
            ("alphabeta:depth=8", "alphabeta depth=8"),
            ("alphabeta:ms=200", "alphabeta ms=200"),
            ("alphabeta:depth=8,ms=200", "alphabeta depth=8 ms=200"),
            ("alphabeta:ms=200,depth=8", "alphabeta depth=8 ms=200"),
            ("mcts", "mcts playouts=1000"),
            ("mcts:playouts=5000", "mcts playouts=5000"),
            ("mcts:ms=50", "mcts ms=50"),
            ("random:seed=0", "random seed=0"),
            ("mcts:seed=9,playouts=10", "mcts playouts=10 seed=9"),
        ] {
            let parsed = spec(input);
            assert_eq!(parsed.to_string(), tag, "{input}");
            assert_eq!(spec(tag), parsed, "{tag}");
            assert_eq!(parsed.build(1).name(), tag.split(" seed=").next().unwrap());
        }
        assert_eq!(
            spec("alphabeta").kind,
            PlayerKind::AlphaBeta(Budget::limit(AlphaBeta::DEFAULT_DEPTH))
        );
        assert_eq!(
            spec("mcts").kind,
            PlayerKind::Mcts(Budget::limit(Mcts::DEFAULT_PLAYOUTS))
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (input, message) in [
            (
                "minimax",
                "unknown player `minimax` (expected random, greedy, alphabeta or mcts)",
            ),
            (
                "human",
                "`human` is not an engine (the command-line tool handles human players)",
            ),
            (
                "alphabeta:playouts=5",
                "alphabeta has no setting `playouts` (expected depth, ms or seed)",
            ),
            (
                "random:depth=2",
                "random has no setting `depth` (expected seed)",
            ),
            (
                "mcts:playouts",
                "setting `playouts` needs a value, as in `playouts=8`",
            ),
            (
                "alphabeta:depth=0",
                "bad value `0` for `depth` (expected a whole number of at least 1)",
            ),
            (
                "mcts:ms=-3",
                "bad value `-3` for `ms` (expected a whole number of at least 1)",
            ),
            ("alphabeta:depth=3,depth=4", "setting `depth` given twice"),
        ] {
            let err = input.parse::<PlayerSpec>().unwrap_err();
            assert_eq!(err.to_string(), message, "{input}");
        }
    }
}
