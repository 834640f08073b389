//! Writing to stdout and stderr the way every tool must: locked, buffered,
//! a broken pipe a quiet success, and the exit codes 0 / 1 / 2.

use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::process::ExitCode;

/// Every input was valid (or the job succeeded).
pub const EXIT_OK: u8 = 0;
/// Some input was invalid.
pub const EXIT_INVALID: u8 = 1;
/// The tool itself failed: bad usage, unreadable file, write error.
pub const EXIT_FAILURE: u8 = 2;

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

/// Turns a tool's result into its exit code: a broken pipe (the reader went
/// away, as with `| head`) ends quietly and successfully.
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

/// `--color auto|always|never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when the stream is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour stdout.
    #[must_use]
    pub fn for_stdout(self) -> bool {
        self.resolve(io::stdout().is_terminal())
    }

    /// Whether to colour stderr.
    #[must_use]
    pub fn for_stderr(self) -> bool {
        self.resolve(io::stderr().is_terminal())
    }

    fn resolve(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
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
