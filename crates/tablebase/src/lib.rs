//! Endgame databases: the exact value of every position with at most N
//! seeds on the board, built by retrograde analysis layer by layer (seeds
//! only ever leave the board), stored one file a layer, and probed.
//!
//! A value is the margin, for the side to move, of the seeds still to be
//! won from the position on: what it will add to its store (and sweep
//! from its row at the end) minus what the opponent will, under best play
//! by both. In a match of rounds (Pallankuzhi, Rio Kadalis) the play ends
//! with the round. spec/tablebase.md says what a value means for each game.
//!
//! A position's value assumes the game meets it afresh (at its start, or
//! right after a capture). A game in progress is probed with
//! [`Tablebase::probe_game`], [`Tablebase::probe_move`] and
//! [`Tablebase::best_move`], which answer only where the game's own
//! repetition history cannot change the value.
//!
//! ```no_run
//! use mancala_rules::{Game, GameId, Position, Rules};
//! use mancala_tablebase::Tablebase;
//!
//! let rules = Rules::standard(GameId::Kalah);
//! let dir = Tablebase::default_dir().unwrap();
//! let tb = Tablebase::build(&dir, rules, 8, 2, &mut |_| {}).unwrap();
//! let _margin: Option<i32> = tb.probe(&Position::new(rules));
//! let (game, _) = Game::new(Position::new(rules)).unwrap();
//! if let Some(best) = tb.best_move(&game) {
//!     assert_eq!(tb.probe_move(&game, best.mv), Some(best.value));
//! }
//! ```

mod file;
mod layout;
mod probe;
mod reference;
mod retro;
mod search;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mancala_rules::{Position, Rules, Side};

pub use layout::MAX_TABLE_SEEDS;
pub use probe::{ProvedMove, exact_values_hold};
pub use reference::Reference;
pub use retro::LayerStats;
pub use search::{search_at_least, search_game, search_margin};

use layout::Layout;

/// How often a build reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// One position's entry: its value and whether the value is exact under
/// the rules or rests on the convention for unending play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry(u8);

impl Entry {
    /// No value: a move's legality could not be decided within the lap
    /// budget, here or in a position the value depends on.
    pub const UNKNOWN: Entry = Entry(255);
    /// Codes `0..=126` are exact values `-63..=63`; codes `128..=254` the
    /// same values by the convention.
    const BIAS: i32 = 63;

    pub(crate) fn exact(value: i32) -> Entry {
        debug_assert!(value.abs() <= Entry::BIAS);
        Entry((value + Entry::BIAS) as u8)
    }

    pub(crate) fn by_convention(value: i32) -> Entry {
        debug_assert!(value.abs() <= Entry::BIAS);
        Entry((value + Entry::BIAS) as u8 | 128)
    }

    pub(crate) const fn from_code(code: u8) -> Entry {
        Entry(code)
    }

    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// The same kind of entry with another value.
    pub(crate) fn with_value(self, value: i32) -> Entry {
        if self.is_exact() {
            Entry::exact(value)
        } else {
            Entry::by_convention(value)
        }
    }

    /// The margin for the side to move; `None` for [`Entry::UNKNOWN`].
    #[must_use]
    pub fn value(self) -> Option<i32> {
        (self != Entry::UNKNOWN).then(|| i32::from(self.0 & 127) - Entry::BIAS)
    }

    /// Whether the value holds under the rules whatever an unending play
    /// would be worth: both sides can force it in finitely many moves
    /// without any position of the layer recurring.
    #[must_use]
    pub fn is_exact(self) -> bool {
        self.0 < 128
    }
}

/// Why a database cannot be opened or built.
#[derive(Debug)]
pub enum TablebaseError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    Corrupt {
        path: PathBuf,
        problem: Corruption,
    },
    /// More seeds on the board than a database can hold.
    TooManySeeds {
        seeds: u32,
        max: u32,
    },
    /// No layer file at all for these rules under the directory.
    Missing {
        path: PathBuf,
    },
}

/// What is wrong with a layer file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    NotATablebase,
    Checksum,
    /// Its header names other rules, or another layer.
    OtherRules,
    Length,
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TablebaseError::Corrupt { path, problem } => {
                let what = match problem {
                    Corruption::NotATablebase => "not a tablebase layer",
                    Corruption::Checksum => "checksum mismatch (damaged file)",
                    Corruption::OtherRules => "header is for other rules or another layer",
                    Corruption::Length => "wrong number of entries",
                };
                write!(f, "{}: {what}", path.display())
            }
            TablebaseError::TooManySeeds { seeds, max } => {
                write!(f, "{seeds} seeds on the board: at most {max} can be tabled")
            }
            TablebaseError::Missing { path } => {
                write!(f, "{}: no tablebase layers", path.display())
            }
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// What a build reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum BuildEvent {
    /// Layer `seeds` was found on disk, finished, and read.
    Loaded { seeds: u32, positions: u64 },
    /// Layer `seeds` is being built: of its stage's work, `done` of
    /// `total` units are done (see [`BuildStage`]). Sent when the stage
    /// starts, then every fifth of a second or so, and once more when the
    /// layer is solved.
    Progress {
        seeds: u32,
        stage: BuildStage,
        done: u64,
        total: u64,
    },
    /// Layer `seeds` was built and written.
    Built { seeds: u32, stats: LayerStats },
}

/// The stages of a layer's build, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildStage {
    /// Every position's moves played; the unit is a position.
    Moves,
    /// The values both sides can force, threshold by threshold; the unit
    /// is a threshold (`2k` of them in layer `k`).
    Values,
    /// The convention's values of the positions left (none in a layer
    /// without cycles), threshold by threshold (`k` of them).
    Convention,
}

/// The layers `0..=max_seeds()` of one game's database, in memory.
#[derive(Debug)]
pub struct Tablebase {
    layout: Layout,
    layers: Vec<Vec<u8>>,
}

impl Tablebase {
    /// Where databases live unless told: `$XDG_DATA_HOME/mancala/tablebases`,
    /// else `~/.local/share/mancala/tablebases`.
    #[must_use]
    pub fn default_dir() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_DATA_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|h| !h.is_empty())
                    .map(|h| PathBuf::from(h).join(".local/share"))
            })?;
        Some(base.join("mancala").join("tablebases"))
    }

    /// The directory under `dir` that holds the layers of `rules`.
    #[must_use]
    pub fn game_dir(dir: &Path, rules: Rules) -> PathBuf {
        file::game_dir(dir, &Layout::new(rules))
    }

    /// Opens the layers of `rules` under `dir`: every layer from 0 up to
    /// the first one missing, each checked against its checksum.
    pub fn open(dir: &Path, rules: Rules) -> Result<Tablebase, TablebaseError> {
        let layout = Layout::new(rules);
        let mut layers = Vec::new();
        let mut k = 0;
        while layout.check_seeds(k).is_ok() {
            match file::read_layer(dir, &layout, k)? {
                Some(layer) => layers.push(layer),
                None => break,
            }
            k += 1;
        }
        if layers.is_empty() {
            return Err(TablebaseError::Missing {
                path: file::game_dir(dir, &layout),
            });
        }
        Ok(Tablebase { layout, layers })
    }

    /// Builds (or finishes building) the layers `0..=max_seeds` of `rules`
    /// under `dir`, with `threads` threads playing the moves. Layers
    /// already on disk are read, not built again: a build stopped part way
    /// goes on from its last finished layer.
    pub fn build(
        dir: &Path,
        rules: Rules,
        max_seeds: u32,
        threads: usize,
        on_event: &mut dyn FnMut(BuildEvent),
    ) -> Result<Tablebase, TablebaseError> {
        let layout = Layout::new(rules);
        layout.check_seeds(max_seeds)?;
        let mut layers: Vec<Vec<u8>> = Vec::new();
        for k in 0..=max_seeds {
            let positions = layout.layer_len(k);
            if let Some(layer) = file::read_layer(dir, &layout, k)? {
                on_event(BuildEvent::Loaded {
                    seeds: k,
                    positions,
                });
                layers.push(layer);
                continue;
            }
            let start = Instant::now();
            let (codes, mut stats) = solve_reporting(&layout, &layers, k, threads, on_event);
            stats.elapsed = start.elapsed();
            file::write_layer(dir, &layout, k, &codes)?;
            on_event(BuildEvent::Built { seeds: k, stats });
            layers.push(codes);
        }
        Ok(Tablebase { layout, layers })
    }

    #[must_use]
    pub fn rules(&self) -> Rules {
        self.layout.rules()
    }

    /// The most seeds on the board a position probed can have.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// Positions held in layer `seeds` (0 past [`Tablebase::max_seeds`]).
    #[must_use]
    pub fn layer_len(&self, seeds: u32) -> u64 {
        self.layers
            .get(seeds as usize)
            .map_or(0, |l| l.len() as u64)
    }

    /// The position of index `index` in layer `seeds` (South to move: a
    /// layer holds positions as their mover sees them), `None` for an
    /// index the rules refuse as a set-up.
    #[must_use]
    pub fn position_at(&self, seeds: u32, index: u64) -> Option<Position> {
        (index < self.layer_len(seeds))
            .then(|| self.layout.position(seeds, index))
            .flatten()
    }

    /// The entry of `pos`, `None` when the database does not hold it:
    /// other rules (but for Kalah's `seeds=N`), more seeds on the board
    /// than it has, a hole closed (a later round of a match), or a
    /// direction still to be chosen. A game already over by a goal (25)
    /// has its rows' margin, exact.
    #[must_use]
    pub fn entry(&self, pos: &Position) -> Option<Entry> {
        if !self.layout.holds(pos.rules()) {
            return None;
        }
        if pos.reaches_twenty_five() {
            let mover = pos.to_move();
            let rows = pos.row_seeds(mover) as i32 - pos.row_seeds(mover.opposite()) as i32;
            return Some(Entry::exact(rows));
        }
        let (k, index) = self.layout.key(pos)?;
        let layer = self.layers.get(k as usize)?;
        Some(Entry::from_code(layer[index as usize]))
    }

    /// The exact margin for the side to move of the rest of the game (of
    /// the round, in a match) under best play, where the database holds
    /// one: `None` also for a value that rests on the convention for
    /// unending play (see [`Entry::is_exact`]).
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        self.entry(pos).filter(|e| e.is_exact())?.value()
    }

    /// [`Tablebase::probe`] as South's margin rather than the mover's.
    #[must_use]
    pub fn probe_south(&self, pos: &Position) -> Option<i32> {
        let v = self.probe(pos)?;
        Some(if pos.to_move() == Side::South { v } else { -v })
    }
}

/// Solves layer `k` of `layout` on `threads` threads, the layers below it
/// done, reporting progress through `on_event` as it goes.
fn solve_reporting(
    layout: &Layout,
    layers: &[Vec<u8>],
    k: u32,
    threads: usize,
    on_event: &mut dyn FnMut(BuildEvent),
) -> (Vec<u8>, retro::LayerStats) {
    let tracker = retro::Tracker::new(layout.layer_len(k));
    let report = |on_event: &mut dyn FnMut(BuildEvent)| {
        let (stage, done, total) = tracker.get();
        on_event(BuildEvent::Progress {
            seeds: k,
            stage,
            done,
            total,
        });
    };
    report(on_event);
    // The worker wakes the reporter when it is done (the flag set
    // first, so the reporter cannot miss it and sleep on).
    let reporter = std::thread::current();
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let solved = retro::solve_layer(layout, layers, k, threads, &tracker);
            finished.store(true, Ordering::Release);
            reporter.unpark();
            solved
        });
        loop {
            // Read before the report, so the last report is of the
            // layer solved.
            let solved = finished.load(Ordering::Acquire) || worker.is_finished();
            report(on_event);
            if solved {
                break;
            }
            std::thread::park_timeout(PROGRESS_EVERY);
        }
        match worker.join() {
            Ok(solved) => solved,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// The databases under a directory, each game's (and options') opened
/// on first use and kept: for tools and players that meet games of
/// several rules. Shared between threads.
#[derive(Debug)]
pub struct TablebaseDir {
    dir: PathBuf,
    opened: Mutex<HashMap<Rules, Option<Arc<Tablebase>>>>,
}

impl TablebaseDir {
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> TablebaseDir {
        TablebaseDir {
            dir: dir.into(),
            opened: Mutex::default(),
        }
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The database of `rules`, opened the first time it is asked for:
    /// the error then, if it cannot be opened, and `Ok(None)` after.
    pub fn open(&self, rules: Rules) -> Result<Option<Arc<Tablebase>>, TablebaseError> {
        let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = opened.get(&rules) {
            return Ok(known.clone());
        }
        let result = Tablebase::open(&self.dir, rules).map(Arc::new);
        opened.insert(rules, result.as_ref().ok().cloned());
        result.map(Some)
    }

    /// [`TablebaseDir::open`], an error taken as no database.
    #[must_use]
    pub fn get(&self, rules: Rules) -> Option<Arc<Tablebase>> {
        self.open(rules).ok().flatten()
    }
}
