//! Writing to stdout and stderr the way every tool must: locked, buffered,
//! a broken pipe a quiet success, and the exit codes 0 / 1 / 2.

use std::ffi::OsString;
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::process::ExitCode;

/// Every input was valid (or the job succeeded).
pub const EXIT_OK: u8 = 0;
/// Some input was invalid.
pub const EXIT_INVALID: u8 = 1;
/// The tool itself failed: bad usage, unreadable file, write error.
pub const EXIT_FAILURE: u8 = 2;

/// The most bytes a record a tool writes may take, its line break and the
/// blank line before the next record included: what the readers keep of
/// one game (`mancala_notation::DEFAULT_MAX_GAME_BYTES`, MGN or JSON). A
/// longer record would be skipped when read back, so no tool writes one.
pub const MAX_RECORD_BYTES: usize = mancala_notation::DEFAULT_MAX_GAME_BYTES;

/// The diagnostic for a record of `len` bytes as written (its final line
/// break included) that the readers would not read back whole, or `None`
/// when it fits. `game` names the game it comes from (`file:line:1`, or
/// `game N` for a game played from the start), asked only for the message.
#[must_use]
pub fn record_over_limit(len: usize, game: impl FnOnce() -> String) -> Option<String> {
    // A reader counts the blank line that parts a record from the next
    // as the record's own: a record of exactly the limit reads back only
    // as the last of its stream, and a writer does not know that it is.
    let read_back = len + 1;
    (read_back > MAX_RECORD_BYTES).then(|| {
        format!(
            "{}: error: its record would take {read_back} bytes with the blank line after it, over the {MAX_RECORD_BYTES} bytes the tools read of one game; not written",
            game()
        )
    })
}

/// The end of a summary line for `refused` records not written for their
/// size: empty when there were none.
#[must_use]
pub fn not_written(refused: usize) -> String {
    match refused {
        0 => String::new(),
        1 => ", 1 record not written (over the record limit)".to_owned(),
        n => format!(", {n} records not written (over the record limit)"),
    }
}

/// The exit status of a run over records: an input that could not be read
/// outweighs an invalid record, which outweighs success.
#[must_use]
pub const fn exit_status(unreadable_input: bool, invalid_record: bool) -> u8 {
    if unreadable_input {
        EXIT_FAILURE
    } else if invalid_record {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

/// Buffered, locked stdout, whose errors say they are stdout's.
#[must_use]
pub fn stdout() -> Stdout {
    Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock()))
}

/// See [`stdout`].
#[derive(Debug)]
pub struct Stdout(BufWriter<StdoutLock<'static>>);

/// A failed write to stdout, said so (of the same kind: a broken pipe
/// stays one).
fn writing_stdout(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot write to stdout: {e}"))
}

impl Write for Stdout {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(writing_stdout)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(writing_stdout)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(writing_stdout)
    }
}

/// Writes a diagnostic to stderr. A failing stderr cannot be reported
/// anywhere, so it is ignored.
pub fn error_line(message: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{message}");
}

/// Writes diagnostics already formatted (their line breaks included) to
/// stderr. A failing stderr (a closed pipe, a full disk) is ignored like
/// [`error_line`]'s: the diagnostics are lost, but the run goes on and its
/// exit status still says what the input was.
pub fn diagnostics(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// Turns a tool's result into its exit code: a broken pipe (the reader of
/// stdout went away, as with `| head`) ends quietly and successfully. Only
/// stdout's writes reach here: stderr's errors are ignored where they
/// happen ([`error_line`], [`diagnostics`]).
#[must_use]
pub fn finish(result: io::Result<u8>) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            error_line(&format!("error: {e}"));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// A tool's `main`: reads the command line into `T` and runs `run` with
/// it. `--help` and `--version` go through [`stdout`] like any other
/// output (a failed write is exit 2, a closed pipe a quiet success); a
/// usage error is clap's message on stderr and exit 2.
pub fn main<T: clap::Parser>(run: fn(&T) -> io::Result<u8>) -> ExitCode {
    catch_file_size_limit();
    match T::try_parse() {
        Ok(args) => finish(run(&args)),
        Err(e) if e.use_stderr() => e.exit(),
        Err(e) => {
            let text = e.render();
            let mut out = stdout();
            let written = if ColorChoice::Auto.for_stdout() {
                write!(out, "{}", text.ansi())
            } else {
                write!(out, "{text}")
            };
            finish(written.and_then(|()| out.flush()).map(|()| EXIT_OK))
        }
    }
}

/// Catches SIGXFSZ, which a write past the file size limit (`ulimit -f`)
/// raises and which by default kills the tool mid-write (exit 153, partial
/// output, temporary files left). Caught, the write fails with `EFBIG`
/// instead and goes the way of any write error: `cannot write`, exit 2,
/// temporary files removed. If the handler cannot be installed the default
/// stays; nothing else is lost.
fn catch_file_size_limit() {
    #[cfg(unix)]
    {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let _ = signal_hook::flag::register(
            signal_hook::consts::SIGXFSZ,
            Arc::new(AtomicBool::new(false)),
        );
    }
}

/// `--color auto|always|never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, unless `NO_COLOR` is set, `CLICOLOR=0` or
    /// `TERM=dumb`; `CLICOLOR_FORCE` (not `0`) colours even a pipe.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour stdout.
    #[must_use]
    pub fn for_stdout(self) -> bool {
        self.resolve(io::stdout().is_terminal(), |name| std::env::var_os(name))
    }

    /// Whether to colour stderr.
    #[must_use]
    pub fn for_stderr(self) -> bool {
        self.resolve(io::stderr().is_terminal(), |name| std::env::var_os(name))
    }

    /// The decision, from whether the stream is a terminal and the
    /// environment `var` reads. The flag beats the environment; under
    /// `auto` the variables rank as the conventions (and clap's own error
    /// messages, through anstream) have them: `NO_COLOR` above
    /// `CLICOLOR_FORCE`, which overrides the terminal test, `CLICOLOR=0`
    /// and `TERM=dumb`. Empty values count as unset.
    fn resolve(self, terminal: bool, var: impl Fn(&str) -> Option<OsString>) -> bool {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if set("NO_COLOR").is_some() {
                    false
                } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                    true
                } else {
                    terminal
                        && set("CLICOLOR").is_none_or(|v| v != "0")
                        && set("TERM").is_none_or(|v| v != "dumb")
                }
            }
        }
    }
}

/// `--format text|json`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    /// One JSON object per line (NDJSON).
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `auto`'s decision for a terminal or not, under these variables.
    fn auto(terminal: bool, env: &[(&str, &str)]) -> bool {
        ColorChoice::Auto.resolve(terminal, |name| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn auto_colours_a_terminal_unless_the_environment_says_no() {
        assert!(auto(true, &[]));
        assert!(auto(true, &[("TERM", "xterm-256color"), ("CLICOLOR", "1")]));
        assert!(!auto(false, &[]));
        assert!(!auto(true, &[("NO_COLOR", "1")]));
        assert!(auto(true, &[("NO_COLOR", "")]), "empty counts as unset");
        assert!(!auto(true, &[("CLICOLOR", "0")]));
        assert!(!auto(true, &[("TERM", "dumb")]));
        assert!(!auto(true, &[("TERM", "dumb"), ("CLICOLOR", "1")]));
        assert!(!auto(false, &[("CLICOLOR", "1")]), "CLICOLOR is no force");
    }

    #[test]
    fn clicolor_force_colours_anything_but_loses_to_no_color() {
        for env in [
            &[("CLICOLOR_FORCE", "1")][..],
            &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")],
            &[("CLICOLOR_FORCE", "yes"), ("CLICOLOR", "0")],
        ] {
            assert!(auto(false, env), "{env:?}");
        }
        assert!(!auto(false, &[("CLICOLOR_FORCE", "0")]));
        assert!(!auto(false, &[("CLICOLOR_FORCE", "")]));
        assert!(!auto(true, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    }

    #[test]
    fn the_flag_beats_the_environment() {
        let env = |name: &str| match name {
            "NO_COLOR" | "CLICOLOR_FORCE" => Some(OsString::from("1")),
            "TERM" => Some(OsString::from("dumb")),
            _ => None,
        };
        assert!(ColorChoice::Always.resolve(false, env));
        assert!(!ColorChoice::Never.resolve(true, |_| Some(OsString::from("1"))));
    }
}
