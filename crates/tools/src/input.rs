//! Reading the games of several inputs in turn: files by name, the record
//! files under a directory, `-` (or no argument) for stdin; each input in
//! MGN or in the JSON record form, told apart by its first bytes.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use mancala_check::{Build, Checked, Ply};
use mancala_notation::{Form, GameText, JsonReader, Reader};

/// The extensions of the files a directory argument reads: MGN, and the
/// JSON record form (one record per line, or a stream of values).
pub const RECORD_EXTENSIONS: [&str; 3] = ["mgn", "json", "jsonl"];

/// One input as named on the command line (or found under a directory
/// named there): a path, which need not be UTF-8, or `-` for stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputName {
    path: PathBuf,
    /// How diagnostics name it: lossy UTF-8, control characters escaped.
    shown: String,
    /// How data (a JSON field) names it: lossy UTF-8, as given, for the
    /// format to escape as it must.
    name: String,
    /// A directory that could not be listed: why, for [`InputName::open`].
    unlisted: Option<(io::ErrorKind, String)>,
}

impl InputName {
    #[must_use]
    pub fn new(path: PathBuf) -> InputName {
        let name = if path.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            path.to_string_lossy().into_owned()
        };
        InputName {
            path,
            shown: crate::diagnostic::escape_controls(&name),
            name,
            unlisted: None,
        }
    }

    #[must_use]
    pub fn is_stdin(&self) -> bool {
        self.path.as_os_str() == "-"
    }

    /// How diagnostics name it: a control character in the name is
    /// shown escaped, never sent to the terminal.
    #[must_use]
    pub fn display(&self) -> &str {
        &self.shown
    }

    /// How data names it (the `file` of a JSON line): the name as given,
    /// control characters and all, which JSON escapes its own way.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Reading it never waits for a producer: a regular file, stdin
    /// redirected from one, or an input that cannot be opened (a pipe, a
    /// terminal or a FIFO may wait for ever).
    fn never_waits(&self) -> bool {
        if self.unlisted.is_some() {
            return true;
        }
        if self.is_stdin() {
            return stdin_is_a_file();
        }
        // One that cannot be read fails at once.
        !fs::metadata(&self.path).is_ok_and(|m| !m.is_file())
    }

    pub fn open(&self) -> io::Result<Box<dyn BufRead + Send>> {
        if let Some((kind, message)) = &self.unlisted {
            return Err(io::Error::new(*kind, message.clone()));
        }
        if self.is_stdin() {
            return Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())));
        }
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(&self.path)?,
        )))
    }
}

#[cfg(unix)]
fn stdin_is_a_file() -> bool {
    use std::os::fd::AsFd;
    io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .and_then(|fd| File::from(fd).metadata())
        .is_ok_and(|m| m.is_file())
}

#[cfg(not(unix))]
fn stdin_is_a_file() -> bool {
    false
}

/// The inputs of a command line: none means stdin; a directory means the
/// record files under it ([`RECORD_EXTENSIONS`]), recursively, in path
/// order as ripgrep sorts them (by name at each level), hidden files and
/// directories (`.name`) and links skipped, as ripgrep skips them. Only
/// regular files are read from a walk: a FIFO, socket or device named like
/// a record is skipped with a note on stderr (a FIFO could wait for ever,
/// a device never end). What the command line names itself is read
/// whatever it is: a FIFO, `-`, a link. `notes`: whether to write the
/// notes (not under `--quiet`).
#[must_use]
pub fn inputs(files: &[PathBuf], notes: bool) -> Vec<InputName> {
    if files.is_empty() {
        return vec![InputName::new(PathBuf::from("-"))];
    }
    let mut names = Vec::new();
    for file in files {
        if file.as_os_str() != "-" && file.is_dir() {
            walk(file, &mut names, notes);
        } else {
            names.push(InputName::new(file.clone()));
        }
    }
    names
}

/// The record files under `dir`, depth first in name order; a directory
/// that cannot be listed is an input that fails to open.
fn walk(dir: &Path, names: &mut Vec<InputName>, notes: bool) {
    let listed = fs::read_dir(dir).and_then(|entries| entries.collect::<io::Result<Vec<_>>>());
    let mut entries = match listed {
        Ok(entries) => entries,
        Err(e) => {
            let mut name = InputName::new(dir.to_path_buf());
            name.unlisted = Some((e.kind(), format!("cannot list the directory: {e}")));
            names.push(name);
            return;
        }
    };
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        if entry.file_name().as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let path = entry.path();
        // The entry's own type: a link is not followed.
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => walk(&path, names, notes),
            _ if !is_record_file(&path) => {}
            Ok(kind) if kind.is_file() => names.push(InputName::new(path)),
            Ok(_) if !notes => {}
            Ok(kind) => skipped(&path, &not_regular(kind)),
            // Vanished since the listing, or unreadable: reading it says why.
            Err(_) => names.push(InputName::new(path)),
        }
    }
}

/// What a directory entry that is not a regular file is, for its note.
fn not_regular(kind: fs::FileType) -> String {
    if kind.is_symlink() {
        "a symbolic link (links are not followed; name it to read it)".to_owned()
    } else {
        format!("not a regular file ({})", special_kind(kind))
    }
}

#[cfg(unix)]
fn special_kind(kind: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else {
        "of another kind"
    }
}

#[cfg(not(unix))]
fn special_kind(_: fs::FileType) -> &'static str {
    "of another kind"
}

/// The note for a file a walk leaves unread.
fn skipped(path: &Path, why: &str) {
    crate::output::error_line(&format!(
        "note: skipping {}: {why}",
        crate::diagnostic::escape_controls(&path.to_string_lossy())
    ));
}

/// Whether a walk reads `path`: its extension is a record file's, in any
/// case (`GAME.MGN`, as a FAT volume or another system may name it).
fn is_record_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|r| e.eq_ignore_ascii_case(r)))
}

/// How far into an input its form is looked for: a JSON record's first key
/// comes long before this.
const FORM_PEEK: usize = 64 << 10;

/// The form of an input, from its first bytes, and the input whole again.
fn with_form(mut input: Box<dyn BufRead + Send>) -> io::Result<(Form, Box<dyn BufRead + Send>)> {
    // Nearly always the first read tells, and nothing need be given back.
    let first = loop {
        match input.fill_buf() {
            Ok(buf) => break Form::detect(buf, buf.is_empty() || buf.len() >= FORM_PEEK),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    };
    if let Some(form) = first {
        return Ok((form, input));
    }
    let mut start = Vec::new();
    let form = loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let take = buf.len().min(FORM_PEEK - start.len());
        start.extend_from_slice(&buf[..take]);
        input.consume(take);
        if let Some(form) = Form::detect(&start, take == 0 || start.len() >= FORM_PEEK) {
            break form;
        }
    };
    Ok((form, Box::new(io::Cursor::new(start).chain(input))))
}

/// The game texts of an opened input, in its form.
enum Texts {
    Mgn(Reader<Box<dyn BufRead + Send>>),
    Json(JsonReader<Box<dyn BufRead + Send>>),
}

impl Texts {
    /// The input opened, with its form. One that may wait for its producer
    /// hands out an MGN game as soon as its result is read and nothing more
    /// is at hand (`Reader::waiting_input`).
    fn open(name: &InputName) -> io::Result<(Form, Texts)> {
        let may_wait = !name.never_waits();
        let (form, input) = with_form(name.open()?)?;
        let texts = match form {
            Form::Mgn if may_wait => Texts::Mgn(Reader::new(input).waiting_input()),
            Form::Mgn => Texts::Mgn(Reader::new(input)),
            Form::Json => Texts::Json(JsonReader::new(input)),
        };
        Ok((form, texts))
    }

    fn next(&mut self) -> Option<io::Result<GameText>> {
        match self {
            Texts::Mgn(reader) => reader.next(),
            Texts::Json(reader) => reader.next(),
        }
    }
}

/// A game's text with the input it came from and its place there.
#[derive(Clone, Debug)]
pub struct SourcedGame {
    /// Index of the input in the command line's list.
    pub input: usize,
    /// The game's number in the whole stream, from 1.
    pub number: usize,
    /// MGN, or a JSON record.
    pub form: Form,
    pub text: GameText,
}

impl SourcedGame {
    /// Checks the game in its form (`mancala_check::check_text_as`): every
    /// tool's check of what it reads.
    #[must_use]
    pub fn check(
        &self,
        lap_budget: Option<u32>,
        build: Build,
        on_ply: Option<&mut dyn FnMut(&Ply<'_>)>,
    ) -> Checked {
        mancala_check::check_text_as(self.form, &self.text, lap_budget, build, on_ply)
    }
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
pub fn games(names: &[InputName]) -> Games {
    Games {
        // Owned, so that the iterator borrows nothing.
        names: names.to_vec(),
        never_waits: names.iter().all(InputName::never_waits),
        next_input: 0,
        reading: None,
        number: 0,
    }
}

/// The games of [`games`], and whether reading them can wait on a producer.
pub struct Games {
    names: Vec<InputName>,
    never_waits: bool,
    /// The index of the next input to open.
    next_input: usize,
    /// The input being read: its index, form and game texts.
    reading: Option<(usize, Form, Texts)>,
    /// Games read so far.
    number: usize,
}

impl Games {
    /// How [`mancala_parallel::map_ordered`] reads these games: in turn when
    /// every input is a regular file (or cannot be opened), since reading
    /// then never waits for a producer; else on a reader thread that may
    /// wait for ever.
    #[must_use]
    pub fn reading(&self) -> mancala_parallel::Reading {
        if self.never_waits {
            mancala_parallel::Reading::InTurns
        } else {
            mancala_parallel::Reading::OwnThread
        }
    }
}

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Games")
            .field("never_waits", &self.never_waits)
            .finish_non_exhaustive()
    }
}

impl Iterator for Games {
    type Item = Result<SourcedGame, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((input, form, texts)) = &mut self.reading {
                let input = *input;
                match texts.next() {
                    Some(Ok(text)) => {
                        self.number += 1;
                        return Some(Ok(SourcedGame {
                            input,
                            number: self.number,
                            form: *form,
                            text,
                        }));
                    }
                    // An input that fails is read no further.
                    Some(Err(error)) => {
                        self.reading = None;
                        return Some(Err(InputError { input, error }));
                    }
                    None => self.reading = None,
                }
            }
            let input = self.next_input;
            let name = self.names.get(input)?;
            self.next_input += 1;
            match Texts::open(name) {
                Ok((form, texts)) => self.reading = Some((input, form, texts)),
                Err(error) => return Some(Err(InputError { input, error })),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A regular file never waits for a producer, nor does an input that
    /// cannot be opened; a FIFO may.
    #[test]
    fn files_never_wait_and_fifos_may() {
        let dir = std::env::temp_dir().join(format!("mancala-input-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.mgn");
        fs::write(&file, "[Game \"olowuka\"]\n\nC *\n").unwrap();
        let missing = dir.join("missing.mgn");
        let names = |paths: &[&Path]| -> Vec<InputName> {
            paths
                .iter()
                .map(|p| InputName::new(p.to_path_buf()))
                .collect()
        };
        assert_eq!(
            games(&names(&[&file, &missing])).reading(),
            mancala_parallel::Reading::InTurns
        );
        assert_eq!(games(&names(&[&file])).count(), 1);
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo.mgn");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                assert!(!InputName::new(fifo).never_waits());
            }
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
