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

/// Buffered, locked stdout.
#[must_use]
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
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
