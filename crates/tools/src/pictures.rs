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
    /// Without a directory: the first document, held until the run ends.
    held: Option<String>,
    documents: usize,
}

impl Pictures {
    #[must_use]
    pub fn new(dir: Option<&Path>) -> Pictures {
        Pictures {
            dir: dir.map(Path::to_path_buf),
            held: None,
            documents: 0,
        }
    }

    /// One SVG per frame of game `game` (its place in the stream).
    pub fn svg(&mut self, out: &mut impl Write, game: usize, frames: &[Frame]) -> io::Result<()> {
        for (k, frame) in (1..).zip(frames) {
            let mut text = String::new();
            let _ = write_svg(&mut text, frame);
            self.put(out, &format!("game-{game:03}-{k:02}.svg"), text)?;
        }
        Ok(())
    }

    /// The page of game `game` (its place in the stream).
    pub fn html(&mut self, out: &mut impl Write, game: usize, page: String) -> io::Result<()> {
        self.put(out, &format!("game-{game:03}.html"), page)
    }

    fn put(&mut self, out: &mut impl Write, name: &str, text: String) -> io::Result<()> {
        self.documents += 1;
        match &self.dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| in_dir(dir, e))?;
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
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

    /// Writes the one document held for stdout; `Err` with a message when
    /// there were several.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<Result<(), String>> {
        if self.dir.is_some() || self.documents == 0 {
            return Ok(Ok(()));
        }
        match self.held.take() {
            Some(text) if self.documents == 1 => out.write_all(text.as_bytes()).map(Ok),
            _ => Ok(Err(format!(
                "error: {} documents to write and stdout takes one: give --output-dir DIR to write them as numbered files",
                self.documents
            ))),
        }
    }
}

fn in_dir(dir: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
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
        facts.tags.push(format!("South: {south} · North: {north}"));
    }
    let event: Vec<String> = [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some(format!("{name}: {}", value.as_deref()?)))
    .collect();
    if !event.is_empty() {
        facts.tags.push(event.join(" · "));
    }
    facts
}
