//! `mancala-tablebase`: builds endgame databases (`build`) and checks them
//! against plain search (`check`); the databases themselves are
//! `mancala_tablebase`'s (spec/tablebase.md).

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Parser, Subcommand};
use mancala_rules::{Dir, Position, Rules, Setup, Side};
use mancala_tablebase::{BuildEvent, BuildStage, Entry, Reference, Tablebase, search_at_least};

use crate::flags::{JobsFlag, LapBudgetFlag, QuietFlag, TablebaseFlag, TabledGameFlags};
use crate::output::{self, EXIT_FAILURE, EXIT_OK};
use crate::progress::Progress;

const EXAMPLES: &str = "\
Examples:
  mancala-tablebase build --game kalah --seeds 16
  mancala-tablebase build --game oware --seeds 12 --tablebase tb/
  mancala-tablebase check --game kalah --samples 100000

Location: --tablebase DIR, else $XDG_DATA_HOME/mancala/tablebases, else
~/.local/share/mancala/tablebases; one directory per game and options,
one file per number of seeds on the board (spec/tablebase.md).

Exit status: 0 built, or every entry checked agreed; 1 an entry disagreed
with the reference solver or search; 2 usage or I/O error, or a damaged
database.";

/// Build endgame databases (every position with at most N seeds on the
/// board, solved by retrograde analysis) and check them against search.
#[derive(Debug, Parser)]
#[command(name = "mancala-tablebase", version, after_help = EXAMPLES)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the layers 0..=N of a game's database (layers already built
    /// are read and kept: a build stopped part way goes on). Writes one
    /// line per layer to stdout: seeds, positions, moves, positions whose
    /// value rests on the convention for unending play, positions with no
    /// value (undecided within the lap budget), seconds.
    Build {
        #[command(flatten)]
        game: TabledGameFlags,
        #[command(flatten)]
        lap_budget: LapBudgetFlag,
        /// The most seeds on the board.
        #[arg(long, short = 'n', value_parser = clap::value_parser!(u32).range(0..=63))]
        seeds: u32,
        #[command(flatten)]
        dir: TablebaseFlag,
        #[command(flatten)]
        jobs: JobsFlag,
        #[command(flatten)]
        quiet: QuietFlag,
    },
    /// Check different random entries of a built database, exact and by
    /// the convention: each against the same position with the sides
    /// swapped, against a reference solver that shares only the rules
    /// with the build (value and flag), and each exact one against plain
    /// search by the rules (a fresh game: the mover forces the value and
    /// no more). Writes one line: entries checked and in the layers drawn
    /// from, agreed (exact, by the convention), disagreed, with no value,
    /// and of the exact ones agreed, those search proved and those it
    /// could not within --node-limit.
    Check {
        #[command(flatten)]
        game: TabledGameFlags,
        #[command(flatten)]
        lap_budget: LapBudgetFlag,
        /// Entries to check, all different, drawn uniformly from the
        /// layers (every entry when they hold no more).
        #[arg(long, default_value_t = 100_000)]
        samples: u64,
        /// The random generator's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Moves each of an exact entry's two searches (at least its
        /// value, not more) may play before it gives up (0: no search; the
        /// reference solver checks every entry anyway).
        #[arg(long, default_value_t = 20_000)]
        node_limit: u64,
        /// Draw entries only from the layers of at most this many seeds on
        /// the board (the reference solver's memory and search's proofs
        /// grow fast with them).
        #[arg(long)]
        max_seeds: Option<u32>,
        #[command(flatten)]
        dir: TablebaseFlag,
        #[command(flatten)]
        jobs: JobsFlag,
        #[command(flatten)]
        quiet: QuietFlag,
    },
}

/// The databases' directory: `--tablebase DIR`, else the default
/// location.
fn database_dir(flag: &TablebaseFlag) -> Option<PathBuf> {
    flag.tablebase.clone().or_else(Tablebase::default_dir)
}

fn rules_of(game: &TabledGameFlags, budget: &LapBudgetFlag) -> Result<Rules, u8> {
    crate::flags::rules_of(game.game, &game.options, budget.lap_budget).map_err(|e| {
        output::error_line(&format!("error: {e}"));
        EXIT_FAILURE
    })
}

pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    let Some(command) = &args.command else {
        output::error_line("error: a command is needed: build or check (see --help)");
        return Ok(EXIT_FAILURE);
    };
    let status = match command {
        Command::Build {
            game,
            lap_budget,
            seeds,
            dir,
            jobs,
            quiet,
        } => match rules_of(game, lap_budget) {
            Ok(rules) => build(rules, *seeds, dir, jobs.threads(), !quiet.quiet)?,
            Err(status) => status,
        },
        Command::Check {
            game,
            lap_budget,
            samples,
            seed,
            node_limit,
            max_seeds,
            dir,
            jobs,
            quiet: _,
        } => match rules_of(game, lap_budget) {
            Ok(rules) => {
                let draw = Draw {
                    samples: *samples,
                    seed: *seed,
                    node_limit: *node_limit,
                    max_seeds: *max_seeds,
                };
                check(rules, draw, dir, jobs.threads())?
            }
            Err(status) => status,
        },
    };
    Ok(status)
}

fn no_dir() -> u8 {
    output::error_line("error: no --tablebase DIR, and neither XDG_DATA_HOME nor HOME is set");
    EXIT_FAILURE
}

fn build(
    rules: Rules,
    seeds: u32,
    dir: &TablebaseFlag,
    threads: usize,
    progress: bool,
) -> io::Result<u8> {
    let Some(dir) = database_dir(dir) else {
        return Ok(no_dir());
    };
    let mut out = output::stdout();
    writeln!(out, "# seeds positions moves convention unknown seconds")?;
    out.flush()?;
    let mut failed = None;
    let mut bar = StageBar::new(progress);
    let mut on_event = |event: BuildEvent| {
        let written = match event {
            BuildEvent::Loaded { seeds, positions } => {
                if progress {
                    output::error_line(&format!("layer {seeds}: {positions} positions, read"));
                }
                Ok(())
            }
            BuildEvent::Progress {
                seeds,
                stage,
                done,
                total,
            } => {
                bar.show(seeds, stage, done, total);
                Ok(())
            }
            BuildEvent::Built { seeds, stats } => {
                bar.clear();
                writeln!(
                    out,
                    "{seeds} {} {} {} {} {:.3}",
                    stats.positions,
                    stats.moves,
                    stats.by_convention,
                    stats.unknown,
                    stats.elapsed.as_secs_f64()
                )
                .and_then(|()| out.flush())
            }
        };
        if let Err(e) = written {
            failed.get_or_insert(e);
        }
    };
    let built = Tablebase::build(&dir, rules, seeds, threads, &mut on_event);
    bar.clear();
    if let Some(e) = failed {
        return Err(e);
    }
    match built {
        Ok(_) => Ok(EXIT_OK),
        Err(e) => {
            output::error_line(&format!("error: {e}"));
            Ok(EXIT_FAILURE)
        }
    }
}

/// The bar of a build's current layer and stage, on a terminal.
struct StageBar {
    wanted: bool,
    current: Option<(u32, BuildStage, Progress)>,
}

impl StageBar {
    fn new(wanted: bool) -> StageBar {
        StageBar {
            wanted,
            current: None,
        }
    }

    /// Shows `done` of `total` of layer `seeds`'s `stage`, on a new bar
    /// when the stage is new.
    fn show(&mut self, seeds: u32, stage: BuildStage, done: u64, total: u64) {
        if !matches!(&self.current, Some((k, s, _)) if (*k, *s) == (seeds, stage)) {
            self.clear();
            let what = match stage {
                BuildStage::Moves => "moves",
                BuildStage::Values => "values",
                BuildStage::Convention => "convention",
            };
            let noun = format!("layer {seeds} {what}");
            let bar = Progress::new(Some(total), &noun, self.wanted);
            self.current = Some((seeds, stage, bar));
        }
        if let Some((_, _, bar)) = &self.current {
            bar.set(done);
        }
    }

    /// Takes the bar off the screen.
    fn clear(&mut self) {
        if let Some((_, _, bar)) = self.current.take() {
            bar.finish(false);
        }
    }
}

/// `pos` with the sides swapped: the same position to its mover.
fn swapped(pos: &Position) -> Option<Position> {
    let setup = pos.to_setup();
    let swapped = Setup {
        south: setup.north.clone(),
        north: setup.south.clone(),
        stores: [setup.stores[1], setup.stores[0]],
        to_move: setup.to_move.opposite(),
        south_dir: setup.south_dir.map(Dir::reverse),
        round: setup.round,
        round_starter: setup.round_starter.map(Side::opposite),
    };
    Position::from_setup(pos.rules(), &swapped).ok()
}

/// What `check` made of one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// An exact entry the reference solver gives too, value and flag;
    /// `proved` when search also proved it within the node limit (it
    /// refuted none: that would be a disagreement).
    Exact { proved: bool },
    /// An entry by the convention the reference solver gives too.
    Convention,
    /// The reference or search found another value or flag, the sides
    /// swapped give another entry, or the database does not hold a
    /// position of its own index.
    Disagreed,
    /// No value, in the database and the reference alike (or an index the
    /// rules refuse as a set-up).
    Unknown,
}

/// The verdicts of a run, counted.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    exact: u64,
    convention: u64,
    /// Of the exact entries agreed, those search proved and those it gave
    /// up on.
    proved: u64,
    unfinished: u64,
    disagreed: u64,
    unknown: u64,
}

impl Tally {
    fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Exact { proved } => {
                self.exact += 1;
                *if proved {
                    &mut self.proved
                } else {
                    &mut self.unfinished
                } += 1;
            }
            Verdict::Convention => self.convention += 1,
            Verdict::Disagreed => self.disagreed += 1,
            Verdict::Unknown => self.unknown += 1,
        }
    }

    fn plus(self, other: Tally) -> Tally {
        Tally {
            exact: self.exact + other.exact,
            convention: self.convention + other.convention,
            proved: self.proved + other.proved,
            unfinished: self.unfinished + other.unfinished,
            disagreed: self.disagreed + other.disagreed,
            unknown: self.unknown + other.unknown,
        }
    }
}

/// What `check` draws and how hard it searches.
#[derive(Debug, Clone, Copy)]
struct Draw {
    samples: u64,
    seed: u64,
    node_limit: u64,
    max_seeds: Option<u32>,
}

/// The entries `check` takes, as numbers over the layers in order,
/// ascending: every one of the first `n` (held as the count alone, so a
/// whole database of hundreds of millions of entries costs no memory), or
/// those drawn.
enum Picked {
    Every(u64),
    Drawn(Vec<u64>),
}

impl Picked {
    fn len(&self) -> u64 {
        match self {
            Picked::Every(n) => *n,
            Picked::Drawn(chosen) => chosen.len() as u64,
        }
    }

    /// The `i`-th entry taken (`i < len()`).
    fn at(&self, i: u64) -> u64 {
        match self {
            Picked::Every(_) => i,
            Picked::Drawn(chosen) => chosen[i as usize],
        }
    }
}

/// The layers samples are drawn from, uniformly over their entries.
struct Layers<'a> {
    tb: &'a Tablebase,
    sizes: Vec<u64>,
    total: u64,
}

/// An entry for a message: its value and kind.
fn describe(entry: Entry) -> String {
    match entry.value() {
        Some(v) if entry.is_exact() => format!("{v} exact"),
        Some(v) => format!("{v} by the convention"),
        None => "no value".to_owned(),
    }
}

impl Layers<'_> {
    /// The layers of `tb` up to `max_seeds` seeds on the board.
    fn of(tb: &Tablebase, max_seeds: Option<u32>) -> Layers<'_> {
        let top = max_seeds.map_or(tb.max_seeds(), |m| m.min(tb.max_seeds()));
        let sizes: Vec<u64> = (0..=top).map(|k| tb.layer_len(k)).collect();
        let total = sizes.iter().sum();
        Layers { tb, sizes, total }
    }

    /// `samples` different entries drawn uniformly, as numbers over the
    /// layers in order, ascending; every entry when there are no more.
    /// (Floyd's algorithm: each subset of that size equally likely.)
    fn draw(&self, samples: u64, seed: u64) -> Picked {
        if samples >= self.total {
            return Picked::Every(self.total);
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut chosen = HashSet::with_capacity(samples as usize);
        for j in self.total - samples..self.total {
            let t = rng.u64(..=j);
            if !chosen.insert(t) {
                chosen.insert(j);
            }
        }
        let mut chosen: Vec<u64> = chosen.into_iter().collect();
        chosen.sort_unstable();
        Picked::Drawn(chosen)
    }

    /// Entry number `at` over the layers in order: its layer and index in
    /// the layer.
    fn locate(&self, mut at: u64) -> (u32, u64) {
        let mut k = 0;
        while at >= self.sizes[k] {
            at -= self.sizes[k];
            k += 1;
        }
        (k as u32, at)
    }

    /// Checks entry `index` of layer `k`: against the same position with
    /// the sides swapped, against the reference solver (value and flag),
    /// then (an exact value) against search.
    fn check(&self, reference: &mut Reference, k: u32, index: u64, node_limit: u64) -> Verdict {
        let tb = self.tb;
        let Some(pos) = tb.position_at(k, index) else {
            return Verdict::Unknown;
        };
        let disagree = |what: &str| {
            output::error_line(&format!("error: layer {k} index {index}: {what}"));
            Verdict::Disagreed
        };
        let Some(entry) = tb.entry(&pos) else {
            return disagree("no entry");
        };
        if swapped(&pos).and_then(|s| tb.entry(&s)) != Some(entry) {
            return disagree("the sides swapped give another entry");
        }
        let expected = reference.entry(&pos);
        if expected != entry {
            return disagree(&format!(
                "database {}, reference {}",
                describe(entry),
                describe(expected)
            ));
        }
        let Some(value) = entry.value() else {
            return Verdict::Unknown;
        };
        if !entry.is_exact() {
            return Verdict::Convention;
        }
        // Proved by search when the mover forces `value` and no more.
        match search_at_least(&pos, value, node_limit) {
            Some(false) => return disagree(&format!("database {value}, search below it")),
            None => return Verdict::Exact { proved: false },
            Some(true) => {}
        }
        match search_at_least(&pos, value + 1, node_limit) {
            Some(true) => disagree(&format!("database {value}, search above it")),
            None => Verdict::Exact { proved: false },
            Some(false) => Verdict::Exact { proved: true },
        }
    }
}

/// A search thread's stack: a line of play may run long before it repeats
/// a position three times, and search recurses along it.
const SEARCH_STACK: usize = 512 << 20;

fn check(rules: Rules, draw: Draw, dir: &TablebaseFlag, threads: usize) -> io::Result<u8> {
    let Some(dir) = database_dir(dir) else {
        return Ok(no_dir());
    };
    let tb = match Tablebase::open(&dir, rules) {
        Ok(tb) => tb,
        Err(e) => {
            output::error_line(&format!("error: {e}"));
            return Ok(EXIT_FAILURE);
        }
    };
    let layers = Layers::of(&tb, draw.max_seeds);
    let start = Instant::now();
    let picked = layers.draw(draw.samples, draw.seed);
    let sum = check_samples(&layers, &picked, draw.node_limit, threads.max(1))?;
    let mut out = output::stdout();
    writeln!(
        out,
        "samples={} entries={} agreed={} exact={} convention={} disagreed={} unknown={} \
         proved={} unfinished={} seconds={:.3}",
        picked.len(),
        layers.total,
        sum.exact + sum.convention,
        sum.exact,
        sum.convention,
        sum.disagreed,
        sum.unknown,
        sum.proved,
        sum.unfinished,
        start.elapsed().as_secs_f64()
    )?;
    out.flush()?;
    Ok(if sum.disagreed == 0 {
        EXIT_OK
    } else {
        output::EXIT_INVALID
    })
}

/// Entries a thread takes at a time: runs of consecutive ones, so that a
/// thread's reference solver meets the same components again and keeps
/// them, and short enough that the threads end together.
const BATCH: u64 = 1024;

/// Checks the entries `picked` (numbers over `layers`, ascending), shared
/// out among `threads` threads a batch at a time, each thread with its
/// own reference solver.
fn check_samples(
    layers: &Layers,
    picked: &Picked,
    node_limit: u64,
    threads: usize,
) -> io::Result<Tally> {
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
        let batches = usize::try_from(picked.len().div_ceil(BATCH)).unwrap_or(usize::MAX);
        for _ in 0..threads.min(batches).max(1) {
            let worker = std::thread::Builder::new().stack_size(SEARCH_STACK);
            let next = &next;
            workers.push(worker.spawn_scoped(scope, move || {
                let mut reference = Reference::new();
                let mut tally = Tally::default();
                loop {
                    let from = next.fetch_add(BATCH, Ordering::Relaxed);
                    if from >= picked.len() {
                        break tally;
                    }
                    for i in from..(from + BATCH).min(picked.len()) {
                        let (k, index) = layers.locate(picked.at(i));
                        tally.count(layers.check(&mut reference, k, index, node_limit));
                    }
                }
            })?);
        }
        let mut sum = Tally::default();
        for worker in workers {
            match worker.join() {
                Ok(tally) => sum = sum.plus(tally),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        Ok(sum)
    })
}
