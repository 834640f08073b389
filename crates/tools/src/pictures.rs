//! Where `mancala-render --format svg|html` puts its documents: numbered
//! files under `--output-dir`, or stdout when there is exactly one.
//!
//! Files are named by the game's place in the whole stream of inputs
//! (every game read counts, drawn or not) and, for SVG, the diagram's
//! place among that game's: `game-003-02.svg` is the second diagram of the
//! third game, `game-003.html` its page. Each path written is listed on
//! stdout, one per line. Without `--output-dir` a single document goes to
//! stdout; a run that would write several writes none and says why
//! (several SVG documents in one stream would not be one valid file).
//!
//! A file is never written through a symbolic link, nor an existing one
//! replaced without `--force`: the directory's document names are all
//! checked before the run's first document is written (each game's again
//! before its own), and a refusal ends the run. Each
//! document is written to a new temporary file beside its name and renamed
//! into place, so that a failed write (a full disk) leaves neither a
//! partial document nor the temporary file.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mancala_notation::Record;

use mancala_diagram::{Frame, GameFacts, write_svg};

/// `--format` of `mancala-render`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiagramFormat {
    /// Diagrams in text, 80 columns.
    #[default]
    Text,
    /// The frames as data, one game per line (NDJSON).
    Json,
    /// One SVG picture per diagram.
    Svg,
    /// One self-contained HTML page per game, to step through it.
    Html,
}

/// Collects the documents of a run.
#[derive(Debug)]
pub struct Pictures {
    dir: Option<PathBuf>,
    /// `--force`: an existing regular file of a document's name is replaced.
    force: bool,
    /// Without a directory: the first document, held until the run ends.
    held: Option<String>,
    documents: usize,
    /// Whether the directory's document names were all checked, once,
    /// before the run's first document.
    scanned: bool,
}

impl Pictures {
    #[must_use]
    pub fn new(dir: Option<&Path>, force: bool) -> Pictures {
        Pictures {
            dir: dir.map(Path::to_path_buf),
            force,
            held: None,
            documents: 0,
            scanned: false,
        }
    }

    /// One SVG per frame of game `game` (its place in the stream).
    pub fn svg(&mut self, out: &mut impl Write, game: usize, frames: &[Frame]) -> io::Result<()> {
        let names: Vec<String> = (1..=frames.len())
            .map(|k| format!("game-{game:03}-{k:02}.svg"))
            .collect();
        self.check(&names)?;
        for (name, frame) in names.iter().zip(frames) {
            let mut text = String::new();
            let _ = write_svg(&mut text, frame);
            self.put(out, name, text)?;
        }
        Ok(())
    }

    /// The page of game `game` (its place in the stream).
    pub fn html(&mut self, out: &mut impl Write, game: usize, page: String) -> io::Result<()> {
        let name = format!("game-{game:03}.html");
        self.check(std::slice::from_ref(&name))?;
        self.put(out, &name, page)
    }

    /// Refuses, before any of them is written, names under the directory
    /// that are links (dangling or not) or, without `--force`, anything
    /// that exists (`--force` too refuses what is not a regular file).
    ///
    /// The first call checks, besides `names`, every entry of the directory
    /// named like a document (`game-NNN.html`, `game-NNN-KK.svg`): games are
    /// drawn as they are read, so a later game's name is not known yet, and
    /// a refusal must come before the run's first write, not after the
    /// documents of the games before it.
    fn check(&mut self, names: &[String]) -> io::Result<()> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let mut found = Vec::new();
        if !self.scanned {
            self.scanned = true;
            if let Ok(entries) = fs::read_dir(dir) {
                for entry in entries.flatten() {
                    let name = entry.file_name();
                    if name.to_str().is_some_and(is_document_name) {
                        found.push(name.to_string_lossy().into_owned());
                    }
                }
                found.sort();
            }
        }
        for name in names.iter().chain(&found) {
            let path = dir.join(name);
            let Ok(found) = fs::symlink_metadata(&path) else {
                continue;
            };
            let kind = found.file_type();
            let why = if kind.is_symlink() {
                "is a symbolic link, never written through; nothing written to it"
            } else if !kind.is_file() {
                "exists and is not a regular file; not replaced"
            } else if !self.force {
                "exists; not replaced (--force replaces it)"
            } else {
                continue;
            };
            return Err(refused(&path, why));
        }
        Ok(())
    }

    fn put(&mut self, out: &mut impl Write, name: &str, text: String) -> io::Result<()> {
        self.documents += 1;
        match &self.dir {
            Some(dir) => {
                fs::create_dir_all(dir).map_err(|e| in_dir(dir, e))?;
                let path = dir.join(name);
                write_new(dir, &path, name, text.as_bytes(), self.force).map_err(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        e
                    } else {
                        io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
                    }
                })?;
                writeln!(out, "{}", path.display())
            }
            None => {
                if self.documents == 1 {
                    self.held = Some(text);
                } else {
                    self.held = None;
                }
                Ok(())
            }
        }
    }

    /// Writes the one document held for stdout; `Err` when there were
    /// several.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<Result<(), TooManyDocuments>> {
        if self.dir.is_some() || self.documents == 0 {
            return Ok(Ok(()));
        }
        match self.held.take() {
            Some(text) if self.documents == 1 => out.write_all(text.as_bytes()).map(Ok),
            _ => Ok(Err(TooManyDocuments {
                documents: self.documents,
            })),
        }
    }
}

/// More documents than stdout takes, with no folder to write them to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyDocuments {
    pub documents: usize,
}

impl fmt::Display for TooManyDocuments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} documents to write and stdout takes one: give --output-dir DIR to write them as numbered files",
            self.documents
        )
    }
}

impl std::error::Error for TooManyDocuments {}

fn in_dir(dir: &Path, e: io::Error) -> io::Error {
    // A file or a link to nothing in the folder's place: creating it fails
    // with "File exists", which says the opposite of what is wrong.
    if fs::symlink_metadata(dir).is_ok() && !dir.is_dir() {
        return io::Error::new(e.kind(), format!("{} is not a directory", dir.display()));
    }
    io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
}

/// Whether `name` is one a run may give a document: `game-NNN.html` or
/// `game-NNN-KK.svg` (three or more digits, then two or more).
fn is_document_name(name: &str) -> bool {
    let digits = |s: &str, least: usize| s.len() >= least && s.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = name.strip_prefix("game-") else {
        return false;
    };
    if let Some(game) = rest.strip_suffix(".html") {
        return digits(game, 3);
    }
    rest.strip_suffix(".svg")
        .and_then(|stem| stem.split_once('-'))
        .is_some_and(|(game, frame)| digits(game, 3) && digits(frame, 2))
}

/// A document refused at `path`, and why.
fn refused(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{} {why}", path.display()),
    )
}

/// Writes `bytes` as `path` (named `name` in `dir`): into a temporary file
/// created there (`create_new`, so never through a link nor over another
/// file), then renamed into place. Without `force` the document takes the
/// name by a hard link, which fails rather than replace what appeared
/// there since [`Pictures::check`]. With `force` the rename replaces a
/// regular file, or a link put there since: the link itself, never what
/// it points to. On any failure the temporary file is removed.
fn write_new(dir: &Path, path: &Path, name: &str, bytes: &[u8], force: bool) -> io::Result<()> {
    let (temp, file) = temp_file(dir, name)?;
    let written = write_and_close(file, bytes).and_then(|()| {
        if force {
            return fs::rename(&temp, path);
        }
        match fs::hard_link(&temp, path) {
            Ok(()) => fs::remove_file(&temp),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(refused(
                path,
                "appeared while the run wrote it; not replaced (--force replaces it)",
            )),
            // A file system without hard links: the name was free when
            // checked.
            Err(_) => match fs::symlink_metadata(path) {
                Ok(_) => Err(refused(path, "exists; not replaced (--force replaces it)")),
                Err(_) => fs::rename(&temp, path),
            },
        }
    });
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

fn write_and_close(mut file: fs::File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.flush()
}

/// A new file beside the document: hidden (directory walks skip it), named
/// by the process and a counter, created only if nothing has that name.
fn temp_file(dir: &Path, name: &str) -> io::Result<(PathBuf, fs::File)> {
    let mut attempt = 0u32;
    loop {
        let temp = dir.join(format!(".{name}.{}-{attempt}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// What a game's page says besides its steps: where it comes from and
/// its tags.
#[must_use]
pub fn game_facts(source: String, record: Option<&Record>, start_ply: usize) -> GameFacts {
    let mut facts = GameFacts {
        source,
        start_ply,
        ..GameFacts::default()
    };
    let Some(record) = record else {
        return facts;
    };
    let tags = &record.tags;
    if let (Some(south), Some(north)) = (&tags.south, &tags.north) {
        facts
            .tags
            .push(vec![("South", south.clone()), ("North", north.clone())]);
    }
    let event: Vec<(&str, String)> = [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some((name, value.clone()?)))
    .collect();
    if !event.is_empty() {
        facts.tags.push(event);
    }
    facts
}
