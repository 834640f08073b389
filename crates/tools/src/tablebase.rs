//! `mancala-tablebase`: builds endgame databases (`build`) and checks them
//! against plain search (`check`); the databases themselves are
//! `mancala_tablebase`'s (spec/tablebase.md).

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};
use mancala_rules::{Dir, Position, Rules, Setup, Side};
use mancala_tablebase::{BuildEvent, BuildStage, Tablebase, search_at_least};

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

Exit status: 0 built, or every sample agreed; 1 a sample disagreed with
search; 2 usage or I/O error, or a damaged database.";

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
    /// Check random entries of a built database against plain search by
    /// the rules (each position a fresh game: the mover forces the
    /// entry's value and no more), and each entry against the same
    /// position with the sides swapped. Writes one line: samples, agreed,
    /// disagreed, exact entries search could not prove within
    /// --node-limit, entries resting on the convention (not searched),
    /// entries with no value.
    Check {
        #[command(flatten)]
        game: TabledGameFlags,
        #[command(flatten)]
        lap_budget: LapBudgetFlag,
        /// Random entries to check, drawn uniformly from all layers.
        #[arg(long, default_value_t = 100_000)]
        samples: u64,
        /// The random generator's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Moves each of an entry's two searches (at least its value, not
        /// more) may play before it gives up.
        #[arg(long, default_value_t = 2_000_000)]
        node_limit: u64,
        /// Draw entries only from the layers of at most this many seeds on
        /// the board (search from a cycling position grows fast with them).
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

/// What `check` made of one sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Search found the entry's value.
    Agreed,
    /// Search found another value, the sides swapped give another entry,
    /// or the database does not hold a position of its own index.
    Disagreed,
    /// Search gave up at the node limit.
    Unfinished,
    /// The value rests on the convention for unending play: not searched.
    Convention,
    /// No value (or an index the rules refuse as a set-up).
    Unknown,
}

/// The verdicts of a run, counted.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    agreed: u64,
    disagreed: u64,
    unfinished: u64,
    convention: u64,
    unknown: u64,
}

impl Tally {
    fn count(&mut self, verdict: Verdict) {
        *match verdict {
            Verdict::Agreed => &mut self.agreed,
            Verdict::Disagreed => &mut self.disagreed,
            Verdict::Unfinished => &mut self.unfinished,
            Verdict::Convention => &mut self.convention,
            Verdict::Unknown => &mut self.unknown,
        } += 1;
    }

    fn plus(self, other: Tally) -> Tally {
        Tally {
            agreed: self.agreed + other.agreed,
            disagreed: self.disagreed + other.disagreed,
            unfinished: self.unfinished + other.unfinished,
            convention: self.convention + other.convention,
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

/// The layers samples are drawn from, uniformly over their entries.
struct Layers<'a> {
    tb: &'a Tablebase,
    sizes: Vec<u64>,
    total: u64,
}

impl Layers<'_> {
    /// The layers of `tb` up to `max_seeds` seeds on the board.
    fn of(tb: &Tablebase, max_seeds: Option<u32>) -> Layers<'_> {
        let top = max_seeds.map_or(tb.max_seeds(), |m| m.min(tb.max_seeds()));
        let sizes: Vec<u64> = (0..=top).map(|k| tb.layer_len(k)).collect();
        let total = sizes.iter().sum();
        Layers { tb, sizes, total }
    }

    /// A random entry: its layer and index in the layer.
    fn pick(&self, rng: &mut fastrand::Rng) -> (u32, u64) {
        let mut at = rng.u64(0..self.total);
        let mut k = 0;
        while at >= self.sizes[k] {
            at -= self.sizes[k];
            k += 1;
        }
        (k as u32, at)
    }

    /// Checks entry `index` of layer `k`: against the same position with
    /// the sides swapped, then (an exact value) against search.
    fn check(&self, k: u32, index: u64, node_limit: u64) -> Verdict {
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
        let Some(value) = entry.value() else {
            return Verdict::Unknown;
        };
        if !entry.is_exact() {
            return Verdict::Convention;
        }
        // Proved by search when the mover forces `value` and no more.
        match search_at_least(&pos, value, node_limit) {
            Some(false) => return disagree(&format!("database {value}, search below it")),
            None => return Verdict::Unfinished,
            Some(true) => {}
        }
        match search_at_least(&pos, value + 1, node_limit) {
            Some(true) => disagree(&format!("database {value}, search above it")),
            None => Verdict::Unfinished,
            Some(false) => Verdict::Agreed,
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
    let sum = check_samples(&layers, draw, threads.max(1) as u64)?;
    let mut out = output::stdout();
    writeln!(
        out,
        "samples={} agreed={} disagreed={} unfinished={} convention={} unknown={} seconds={:.3}",
        draw.samples,
        sum.agreed,
        sum.disagreed,
        sum.unfinished,
        sum.convention,
        sum.unknown,
        start.elapsed().as_secs_f64()
    )?;
    out.flush()?;
    Ok(if sum.disagreed == 0 {
        EXIT_OK
    } else {
        output::EXIT_INVALID
    })
}

/// Checks `draw.samples` random entries of `layers`, shared out among
/// `threads` threads, each with its own generator.
fn check_samples(layers: &Layers, draw: Draw, threads: u64) -> io::Result<Tally> {
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
        for t in 0..threads {
            let share = draw.samples / threads + u64::from(t < draw.samples % threads);
            let worker = std::thread::Builder::new().stack_size(SEARCH_STACK);
            workers.push(worker.spawn_scoped(scope, move || {
                let mut rng =
                    fastrand::Rng::with_seed(draw.seed.wrapping_mul(1000).wrapping_add(t));
                let mut tally = Tally::default();
                for _ in 0..share {
                    let (k, index) = layers.pick(&mut rng);
                    tally.count(layers.check(k, index, draw.node_limit));
                }
                tally
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
