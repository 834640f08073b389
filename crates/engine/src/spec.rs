//! Player specifications as the command line writes them
//! (`alphabeta:depth=8`) and as records tag them (`alphabeta depth=8`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::alphabeta::{self, AlphaBeta};
use crate::mcts::{self, Mcts};
use crate::simple::{Greedy, RandomPlayer};
use crate::{Budget, Player};
use mancala_prose::{did_you_mean, shorten};

/// An engine the command line can name, with its settings: the one table
/// that parsing, its error messages and the tools' help and listings read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// The name a spec starts with, e.g. `alphabeta`.
    pub name: &'static str,
    /// What the engine does, in a line.
    pub about: &'static str,
    /// The `key=value` settings it takes, in the order a record tag writes
    /// them.
    pub settings: &'static [Setting],
}

/// One `key=value` setting of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    pub key: &'static str,
    /// What it sets, in a line.
    pub meaning: &'static str,
    /// The value used when the spec gives none (`None`: see `meaning`).
    pub default: Option<u64>,
    /// The least value accepted.
    pub min: u64,
    /// A larger value counts as this one (`None`: no ceiling below
    /// `u64::MAX`).
    pub max: Option<u64>,
}

/// `seed=S`, which every engine takes.
const SEED: Setting = Setting {
    key: "seed",
    meaning: "its own random seed, instead of the one the caller gives",
    default: None,
    min: 0,
    max: None,
};

/// `ms=T`, the searches' time budget.
const MS: Setting = Setting {
    key: "ms",
    meaning: "time budget per move in milliseconds (results then vary from run to run)",
    default: None,
    min: 1,
    max: None,
};

/// Every engine, in the order help and listings give them.
pub const ENGINES: [Engine; 4] = [
    Engine {
        name: "random",
        about: "plays a legal move at random",
        settings: &[SEED],
    },
    Engine {
        name: "greedy",
        about: "plays the move that gains most (ties broken at random)",
        settings: &[SEED],
    },
    Engine {
        name: "alphabeta",
        about: "alpha-beta search with iterative deepening",
        settings: &[
            Setting {
                key: "depth",
                meaning: "plies to search (the default applies when ms= is not given)",
                default: Some(AlphaBeta::DEFAULT_DEPTH as u64),
                min: 1,
                max: Some(AlphaBeta::MAX_DEPTH as u64),
            },
            MS,
            SEED,
        ],
    },
    Engine {
        name: "mcts",
        about: "Monte Carlo tree search",
        settings: &[
            Setting {
                key: "playouts",
                meaning: "playouts per move (the default applies when ms= is not given)",
                default: Some(Mcts::DEFAULT_PLAYOUTS as u64),
                min: 1,
                max: Some(u32::MAX as u64),
            },
            MS,
            SEED,
        ],
    },
];

impl Engine {
    /// The engine named `name`.
    #[must_use]
    pub fn named(name: &str) -> Option<&'static Engine> {
        ENGINES.iter().find(|e| e.name == name)
    }

    /// Its setting `key`.
    #[must_use]
    pub fn setting(&self, key: &str) -> Option<&'static Setting> {
        self.settings.iter().find(|s| s.key == key)
    }
}

/// Which engine to build, with its settings.
///
/// Syntax: a name, optionally followed by `:` and comma-separated
/// `key=value` settings. The record-tag form, with the settings separated
/// by spaces instead (`alphabeta depth=8 ms=200`), parses too, so that a
/// spec's [`Display`](fmt::Display) reads back.
///
/// [`ENGINES`] lists the names and each one's settings: `random` and
/// `greedy` take `seed`; `alphabeta` `depth` (plies), `ms` (time budget per
/// move) and `seed`; `mcts` `playouts` (per move), `ms` and `seed`.
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
    /// A value that is not a whole number of at least `min`.
    BadValue {
        key: String,
        value: String,
        min: u64,
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
                "unknown player `{}`{}",
                shorten(name),
                did_you_mean(name, ENGINES.map(|e| e.name))
            ),
            ParseSpecError::UnknownSetting { player, key } => {
                let keys = Engine::named(player).map_or(&[][..], |e| e.settings);
                write!(
                    f,
                    "{player} has no setting `{}`{}",
                    shorten(key),
                    did_you_mean(key, keys.iter().map(|s| s.key))
                )
            }
            ParseSpecError::MissingValue(word) => {
                write!(f, "setting `{word}` needs a value, as in `{word}=8`")
            }
            ParseSpecError::BadValue { key, value, min } => write!(
                f,
                "bad value `{}` for `{key}` (expected a whole number of at least {min})",
                shorten(value)
            ),
            ParseSpecError::Repeated(key) => write!(f, "setting `{key}` given twice"),
        }
    }
}

impl std::error::Error for ParseSpecError {}

impl FromStr for PlayerSpec {
    type Err = ParseSpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, ParseSpecError> {
        let s = s.trim();
        let (name, rest) = match s.find([':', ' ', '\t']) {
            Some(i) => (&s[..i], &s[i + 1..]),
            None => (s, ""),
        };
        let (mut depth, mut ms, mut playouts, mut seed) = (None, None, None, None);
        let engine =
            Engine::named(name).ok_or_else(|| ParseSpecError::UnknownPlayer(name.to_owned()))?;
        let player = engine.name;
        for word in rest
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            let Some((key, value)) = word.split_once('=') else {
                return Err(ParseSpecError::MissingValue(word.to_owned()));
            };
            let setting = engine
                .setting(key)
                .ok_or_else(|| ParseSpecError::UnknownSetting {
                    player,
                    key: key.to_owned(),
                })?;
            let n = match value.parse::<u64>() {
                Ok(n) if n >= setting.min => n.min(setting.max.unwrap_or(u64::MAX)),
                _ => {
                    return Err(ParseSpecError::BadValue {
                        key: key.to_owned(),
                        value: value.to_owned(),
                        min: setting.min,
                    });
                }
            };
            let slot = match key {
                "seed" => &mut seed,
                "depth" => &mut depth,
                "ms" => &mut ms,
                _ => &mut playouts,
            };
            if slot.replace(n).is_some() {
                return Err(ParseSpecError::Repeated(key.to_owned()));
            }
        }
        // The table's ceilings keep depth and playouts within u32.
        let narrow = |n: Option<u64>| n.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        let (depth, playouts) = (narrow(depth), narrow(playouts));
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
            (
                "alphabta",
                "unknown player `alphabta` (did you mean `alphabeta`?)",
            ),
            (
                "greddy:seed=3",
                "unknown player `greddy` (did you mean `greedy`?)",
            ),
            (
                "alphabeta:dept=3",
                "alphabeta has no setting `dept` (did you mean `depth`?)",
            ),
            (
                "mcts:playout=50",
                "mcts has no setting `playout` (did you mean `playouts`?)",
            ),
            (
                "random:seed=-1",
                "bad value `-1` for `seed` (expected a whole number of at least 0)",
            ),
        ] {
            let err = input.parse::<PlayerSpec>().unwrap_err();
            assert_eq!(err.to_string(), message, "{input}");
        }
    }

    /// The table is what parsing reads: every engine and every setting it
    /// lists parses, each value at its least and past its ceiling.
    #[test]
    fn every_engine_and_setting_of_the_table_parses() {
        for engine in ENGINES {
            assert_eq!(spec(engine.name).name(), engine.name);
            for setting in engine.settings {
                let least = format!("{}:{}={}", engine.name, setting.key, setting.min);
                spec(&least);
                if let Some(max) = setting.max {
                    let past = format!("{}:{}={}", engine.name, setting.key, max + 1);
                    let capped = format!("{}={max}", setting.key);
                    assert!(spec(&past).to_string().contains(&capped), "{past}");
                }
            }
        }
    }
}
