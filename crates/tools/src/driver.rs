//! The one read → map → write loop of the tools that take records
//! (validate, analyze, render, and play going on from records): reading the
//! inputs (files, directories, `-`), mapping each game (on worker threads in
//! input order, or on this thread), writing through the locked buffered
//! stdout, stopping at `--max-errors`, and tallying what becomes the exit
//! code. A broken pipe is the tool's success: [`crate::output::main`] says
//! so for every tool.

use std::io::{self, Write};

use mancala_parallel::{self as parallel, Delivery};

use crate::flags::MaxErrorsFlag;
use crate::input::{self, InputError, InputName, SourcedGame};
use crate::output::{self, Stdout};
use crate::progress::Progress;

/// A tool's state as the driver sees it: its stdout, and the progress bar
/// its reports go aside of.
pub trait Writer {
    /// Where the data goes.
    fn stdout(&mut self) -> &mut Stdout;
    /// The progress bar on stderr, if the tool shows one.
    fn progress(&self) -> Option<&Progress> {
        None
    }
}

/// What became of one game, for the tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Done and written.
    Valid,
    /// Reported as invalid (or not drawn, or not played on).
    Invalid,
    /// Valid, but its output was over the record limit and not written.
    Refused,
}

impl Verdict {
    /// The verdict on a game checked `valid`, whose output was `refused`
    /// (over the record limit) or written.
    #[must_use]
    pub fn of(valid: bool, refused: bool) -> Verdict {
        match (valid, refused) {
            (false, _) => Verdict::Invalid,
            (true, true) => Verdict::Refused,
            (true, false) => Verdict::Valid,
        }
    }
}

/// Whether the run goes on after a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Next,
    /// Stop reading (play: interrupted at the human seat).
    Stop,
}

/// The games read and what became of them.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Games read (an unreadable input is not one).
    pub games: usize,
    /// Games valid, written or not.
    pub valid: usize,
    /// Valid games whose output was not written.
    pub refused: usize,
    /// Inputs that could not be read, or read to their end.
    pub unreadable: usize,
    /// The run stopped at `--max-errors`.
    pub stopped: bool,
}

impl Tally {
    /// Games reported invalid.
    #[must_use]
    pub fn invalid(&self) -> usize {
        self.games - self.valid
    }

    /// 2 when an input could not be read, else 1 when a game was invalid or
    /// not written, else 0.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        output::exit_status(self.unreadable > 0, self.invalid() > 0 || self.refused > 0)
    }

    fn add(&mut self, verdict: Verdict) {
        self.games += 1;
        match verdict {
            Verdict::Valid => self.valid += 1,
            Verdict::Refused => {
                self.valid += 1;
                self.refused += 1;
            }
            Verdict::Invalid => {}
        }
    }
}

/// A run over the games of `names`.
#[derive(Debug)]
pub struct Driver<'a> {
    names: &'a [InputName],
    max_errors: Option<MaxErrorsFlag>,
    pub tally: Tally,
    /// No record written yet (the next needs no blank line before it).
    first_record: bool,
}

impl<'a> Driver<'a> {
    #[must_use]
    pub fn new(names: &'a [InputName], max_errors: Option<MaxErrorsFlag>) -> Driver<'a> {
        Driver {
            names,
            max_errors,
            tally: Tally::default(),
            first_record: true,
        }
    }

    /// Maps every game on `jobs` worker threads with `work` and hands the
    /// results, in input order, to `write` on this thread. A game weighs
    /// `weight` (for the batches of [`mancala_parallel`]).
    pub fn map<T, S>(
        &mut self,
        tool: &mut S,
        jobs: usize,
        weight: impl Fn(&SourcedGame) -> usize + Send + 'static,
        work: impl Fn(&SourcedGame) -> T + Sync,
        mut write: impl FnMut(&mut Self, &mut S, &T) -> io::Result<Verdict>,
    ) -> io::Result<()>
    where
        T: Send + 'static,
        S: Writer,
    {
        let names = self.names;
        let work = |item: &Result<SourcedGame, InputError>| match item {
            Ok(game) => Ok(work(game)),
            Err(e) => Err(e.report(names)),
        };
        // An unreadable input weighs nothing.
        let weight = move |item: &Result<SourcedGame, InputError>| item.as_ref().map_or(0, &weight);
        let records = input::games(names);
        let reading = records.reading();
        let ran = parallel::map_ordered(records, reading, jobs, weight, work, |delivery| {
            match delivery {
                // Waiting for input: what is written so far goes on now.
                Delivery::Idle => tool.stdout().flush(),
                Delivery::Result(Err(report)) => self.unreadable(tool, report),
                Delivery::Result(Ok(mapped)) => {
                    let verdict = write(self, tool, mapped)?;
                    self.counted(verdict)
                }
            }
        });
        self.end(tool, ran)
    }

    /// Hands every game to `each` on this thread, with its input's name,
    /// in input order.
    pub fn each<S: Writer>(
        &mut self,
        tool: &mut S,
        mut each: impl FnMut(&mut Self, &mut S, &InputName, SourcedGame) -> io::Result<(Verdict, Step)>,
    ) -> io::Result<()> {
        let names = self.names;
        let ran = (|| {
            for item in input::games(names) {
                match item {
                    Err(e) => self.unreadable(tool, &e.report(names))?,
                    Ok(game) => {
                        let (verdict, step) = each(self, tool, &names[game.input], game)?;
                        self.counted(verdict)?;
                        if step == Step::Stop {
                            break;
                        }
                    }
                }
            }
            Ok(())
        })();
        self.end(tool, ran)
    }

    /// Writes one record's text, a blank line before each but the first
    /// when `blank_lines` (MGN records; JSON lines need none).
    pub fn write_record(
        &mut self,
        out: &mut Stdout,
        text: &str,
        blank_lines: bool,
    ) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        if blank_lines && !self.first_record {
            out.write_all(b"\n")?;
        }
        self.first_record = false;
        out.write_all(text.as_bytes())
    }

    /// An input that could not be read: said on stderr, after the data
    /// written so far.
    fn unreadable<S: Writer>(&mut self, tool: &mut S, report: &str) -> io::Result<()> {
        self.tally.unreadable += 1;
        tool.stdout().flush()?;
        aside(tool, || output::error_line(report));
        Ok(())
    }

    /// Counts a game; an error (to stop the run) once `--max-errors`
    /// invalid games are counted.
    fn counted(&mut self, verdict: Verdict) -> io::Result<()> {
        self.tally.add(verdict);
        match self.max_errors {
            Some(flag) => flag.stop_at(self.tally.games - self.tally.valid),
            None => Ok(()),
        }
    }

    /// The end of a run: the data flushed, and the note of a stop at
    /// `--max-errors`.
    fn end<S: Writer>(&mut self, tool: &mut S, ran: io::Result<()>) -> io::Result<()> {
        self.tally.stopped = MaxErrorsFlag::stopped(ran)?;
        tool.stdout().flush()?;
        if let Some(progress) = tool.progress() {
            progress.finish(false);
        }
        if self.tally.stopped
            && let Some(flag) = self.max_errors
        {
            output::error_line(&flag.note(self.tally.games));
        }
        Ok(())
    }
}

/// Runs `write`, a write to stderr, aside of the tool's progress bar.
pub fn aside<S: Writer, R>(tool: &S, write: impl FnOnce() -> R) -> R {
    match tool.progress() {
        Some(progress) => progress.aside(write),
        None => write(),
    }
}
