//! The canonical printer: `Display` for [`Record`].

use std::fmt::{self, Write as _};

use mancala_rules::{Setup, Side};

use crate::record::{Item, Record, StandardTags};

/// Movetext lines are wrapped to at most this many columns (a longer single
/// token, such as a long comment, stands on its own line).
pub const MAX_LINE: usize = 80;

/// A `SetUp` value in canonical form: `S 4,4,x/4,4,4 0-0`, then `dir=`,
/// `round=` (when not 1) and `starter=` when given.
#[must_use]
pub fn format_setup(setup: &Setup) -> String {
    let row = |holes: &[Option<u32>]| {
        holes
            .iter()
            .map(|h| h.map_or_else(|| "x".to_owned(), |s| s.to_string()))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = format!(
        "{} {}/{} {}-{}",
        setup.to_move.letter(),
        row(&setup.south),
        row(&setup.north),
        setup.stores[0],
        setup.stores[1]
    );
    if let Some(dir) = setup.south_dir {
        let _ = write!(out, " dir={dir}");
    }
    if setup.round != 1 {
        let _ = write!(out, " round={}", setup.round);
    }
    if let Some(starter) = setup.round_starter {
        let _ = write!(out, " starter={}", starter.letter());
    }
    out
}

fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for c in value.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            // A value cannot span lines; parsing never produces one.
            '\n' | '\r' => f.write_char(' ')?,
            c => f.write_char(c)?,
        }
    }
    f.write_str("\"]\n")
}

impl fmt::Display for Record {
    /// The canonical form: tags one per line in canonical order, a blank
    /// line, the movetext wrapped at [`MAX_LINE`] columns ending with the
    /// result, and a final newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tag(f, "Game", self.game.as_str())?;
        if !self.options.is_empty() {
            write_tag(f, "Options", &self.options.to_string())?;
        }
        for name in StandardTags::NAMES {
            if let Some(Some(value)) = self.tags.get(name) {
                write_tag(f, name, value)?;
            }
        }
        if let Some(setup) = &self.setup {
            write_tag(f, "SetUp", &format_setup(setup))?;
        }
        write_tag(f, "Result", &self.result.to_string())?;
        if let Some(reason) = self.termination {
            write_tag(f, "Termination", reason.as_str())?;
        }
        for tag in &self.extra {
            write_tag(f, &tag.name, &tag.value)?;
        }
        f.write_str("\n")?;
        let mut line = LineWriter { f, column: 0 };
        for token in movetext_tokens(&self.items) {
            line.token(&token)?;
        }
        line.token(&self.result.to_string())?;
        f.write_str("\n")
    }
}

/// The movetext as tokens, with move numbers: `N.` before each South move,
/// `N...` before a North move that opens a round or follows a comment; the
/// number grows after each North move and restarts at 1 in every round.
fn movetext_tokens(items: &[Item]) -> Vec<String> {
    let mut tokens = Vec::with_capacity(items.len() * 2);
    let mut number = 1u32;
    let mut fresh = true;
    for item in items {
        match item {
            Item::Move { mv, captured } => {
                // A move number stays on the line of its move.
                let mut token = match mv.hole.side {
                    Side::South => format!("{number}. "),
                    Side::North if fresh => format!("{number}... "),
                    Side::North => String::new(),
                };
                let _ = write!(token, "{mv}");
                if let Some(n) = captured {
                    let _ = write!(token, "+{n}");
                }
                tokens.push(token);
                if mv.hole.side == Side::North {
                    number += 1;
                }
                fresh = false;
            }
            Item::Round { round } => {
                tokens.push(format!("R{round}"));
                number = 1;
                fresh = true;
            }
            Item::Comment { comment } => {
                tokens.push(format!("{{{comment}}}"));
                fresh = true;
            }
        }
    }
    tokens
}

struct LineWriter<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    column: usize,
}

impl LineWriter<'_, '_> {
    fn token(&mut self, token: &str) -> fmt::Result {
        let width = token.chars().count();
        if self.column > 0 {
            if self.column + 1 + width > MAX_LINE {
                self.f.write_str("\n")?;
                self.column = 0;
            } else {
                self.f.write_str(" ")?;
                self.column += 1;
            }
        }
        self.f.write_str(token)?;
        self.column = match token.rfind('\n') {
            Some(i) => token[i + 1..].chars().count(),
            None => self.column + width,
        };
        Ok(())
    }
}
