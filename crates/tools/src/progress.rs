//! A long run's progress on stderr: a bar with the games done, elapsed
//! time, rate and time left (or, for a stream of unknown length, the count
//! and rate), redrawn at most ten times a second, and a spinner that turns
//! while a game is worked on (a long first game shows the run is alive).
//! Drawn only at a terminal that can move the cursor; elsewhere nothing is
//! written.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Redraws a second at most, whatever the rate of games.
const REDRAWS_PER_SECOND: u8 = 10;
/// How often the spinner turns while a game is played.
const SPIN: Duration = Duration::from_millis(120);

/// The bar of a run of `total` items, or nothing.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Whether stdout shares the terminal: the bar then steps aside while
    /// a record is written.
    stdout_terminal: bool,
}

impl Progress {
    /// A bar for `total` items named `noun` (`games`; with no total, a
    /// count), when `wanted` and stderr is a terminal that is not
    /// `TERM=dumb`.
    #[must_use]
    pub fn new(total: Option<u64>, noun: &str, wanted: bool) -> Progress {
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let shown = wanted && !dumb && io::stderr().is_terminal();
        let bar = shown.then(|| {
            // Rate and time left once an item is done (before that they
            // would say 0/s and 0s).
            let template = match total {
                Some(_) => format!(
                    "{{spinner}} {{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {noun}{{pace}}"
                ),
                None => format!("{{spinner}} {{elapsed_precise}} {{pos}} {noun}{{pace}}"),
            };
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|e| unreachable!("the template is valid: {e}"))
                .progress_chars("#>-")
                .with_key(
                    "pace",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        if state.pos() > 0 {
                            let _ = write!(w, ", {:.1}/s", state.per_sec());
                            if state.len().is_some() {
                                let _ = write!(w, ", {} left", HumanDuration(state.eta()));
                            }
                        }
                    },
                );
            let bar = ProgressBar::with_draw_target(
                total,
                ProgressDrawTarget::stderr_with_hz(REDRAWS_PER_SECOND),
            )
            .with_style(style);
            bar.enable_steady_tick(SPIN);
            bar
        });
        Progress {
            bar,
            stdout_terminal: io::stdout().is_terminal(),
        }
    }

    /// One more item done.
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// `done` items done in all.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Runs `write`, a write to stderr, with the bar off the screen.
    pub fn aside<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Runs `write`, a write to stdout, with the bar off the screen when
    /// stdout is the terminal too (a pipe needs no redraw).
    pub fn aside_of_stdout<R>(&self, write: impl FnOnce() -> R) -> R {
        if self.stdout_terminal {
            self.aside(write)
        } else {
            write()
        }
    }

    /// Ends the bar: left on the screen with its final counts, or cleared
    /// when `keep` is false.
    pub fn finish(&self, keep: bool) {
        match &self.bar {
            Some(bar) if keep => bar.finish(),
            Some(bar) => bar.finish_and_clear(),
            None => {}
        }
    }
}
