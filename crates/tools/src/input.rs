//! Reading the games of several inputs in turn: files by name, `-` (or no
//! argument) for stdin.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use mancala_notation::{GameText, Reader};

/// One input as named on the command line: a path, which need not be
/// UTF-8, or `-` for stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputName {
    path: PathBuf,
    /// How diagnostics name it: lossy UTF-8, control characters escaped.
    shown: String,
}

impl InputName {
    #[must_use]
    pub fn new(path: PathBuf) -> InputName {
        let shown = if path.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            crate::diagnostic::escape_controls(&path.to_string_lossy())
        };
        InputName { path, shown }
    }

    #[must_use]
    pub fn is_stdin(&self) -> bool {
        self.path.as_os_str() == "-"
    }

    /// How diagnostics name it.
    #[must_use]
    pub fn display(&self) -> &str {
        &self.shown
    }

    pub fn open(&self) -> io::Result<Box<dyn BufRead + Send>> {
        if self.is_stdin() {
            return Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())));
        }
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(&self.path)?,
        )))
    }
}

/// The inputs of a command line: none means stdin.
#[must_use]
pub fn inputs(files: &[PathBuf]) -> Vec<InputName> {
    if files.is_empty() {
        vec![InputName::new(PathBuf::from("-"))]
    } else {
        files.iter().cloned().map(InputName::new).collect()
    }
}

/// A game's text with the input it came from and its place there.
#[derive(Clone, Debug)]
pub struct SourcedGame {
    /// Index of the input in the command line's list.
    pub input: usize,
    /// The game's number in the whole stream, from 1.
    pub number: usize,
    pub text: GameText,
}

/// An input that could not be opened or read.
#[derive(Debug)]
pub struct InputError {
    pub input: usize,
    pub error: io::Error,
}

impl InputError {
    /// The diagnostic line for this error, `names` being the tool's inputs.
    #[must_use]
    pub fn report(&self, names: &[InputName]) -> String {
        format!(
            "{}: error: cannot read: {}",
            names[self.input].display(),
            self.error
        )
    }
}

/// Every game of every input, in order, one in memory at a time. An input
/// that fails is reported as an item and the next input is read. The
/// iterator owns what it reads, so that a thread of its own may read it.
pub fn games(
    names: &[InputName],
) -> impl Iterator<Item = Result<SourcedGame, InputError>> + Send + 'static {
    let mut number = 0;
    // Owned, so that the iterator borrows nothing.
    let names: Vec<InputName> = names.to_vec();
    names
        .into_iter()
        .enumerate()
        .flat_map(move |(input, name)| {
            let reader = name.open().map(Reader::new);
            let (ok, err) = match reader {
                Ok(reader) => (Some(reader), None),
                Err(error) => (None, Some(InputError { input, error })),
            };
            let mut failed = false;
            let games = ok.into_iter().flatten().map_while(move |game| {
                if failed {
                    return None;
                }
                Some(match game {
                    Ok(text) => Ok((input, text)),
                    Err(error) => {
                        failed = true;
                        Err(InputError { input, error })
                    }
                })
            });
            err.map(Err).into_iter().chain(games)
        })
        .map(move |item| {
            item.map(|(input, text)| {
                number += 1;
                SourcedGame {
                    input,
                    number,
                    text,
                }
            })
        })
}
