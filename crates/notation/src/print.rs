//! The canonical printer: `Display` for [`Record`].

use std::fmt::{self, Write as _};

use mancala_rules::{Setup, Side};

use crate::record::{Item, Record, StandardTags, special_in_tag_value};

/// Movetext lines are wrapped to at most this many columns (a longer single
/// token, such as a long comment, stands on its own line).
pub const MAX_LINE: usize = 80;

/// A `SetUp` value in canonical form: `S 4,4,x/4,4,4 0-0`, then `dir=`,
/// `round=` (when not 1) and `starter=` when given.
#[must_use]
pub fn format_setup(setup: &Setup) -> String {
    // Written straight into one string: the validator writes one per game.
    let mut out = String::with_capacity(48);
    out.push(setup.to_move.letter());
    out.push(' ');
    let push_row = |out: &mut String, holes: &[Option<u32>]| {
        for (i, hole) in holes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match hole {
                Some(seeds) => push_number(out, *seeds),
                None => out.push('x'),
            }
        }
    };
    push_row(&mut out, &setup.south);
    out.push('/');
    push_row(&mut out, &setup.north);
    out.push(' ');
    push_number(&mut out, setup.stores[0]);
    out.push('-');
    push_number(&mut out, setup.stores[1]);
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
    if !value.bytes().any(special_in_tag_value) {
        f.write_str(value)?;
        return f.write_str("\"]\n");
    }
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
        let mut line = LineWriter {
            f,
            line: String::with_capacity(2 * MAX_LINE),
            column: 0,
        };
        write_line(&mut line, &self.items, &mut Numbering::new())?;
        line.ascii(|out| {
            let _ = write!(out, "{}", self.result);
        })?;
        line.line.push('\n');
        line.flush()
    }
}

/// Appends the decimal digits of `n` (what `write!` does, without the
/// formatting machinery, once per ply; most numbers here have one or two
/// digits).
fn push_number(out: &mut String, n: u32) {
    let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
    if n < 10 {
        out.push(digit(n));
    } else if n < 100 {
        out.push(digit(n / 10));
        out.push(digit(n));
    } else {
        push_number(out, n / 10);
        out.push(digit(n));
    }
}

/// Move numbers as the canonical form writes them (spec/notation.md §6.3,
/// §6.8), for a reader walking a line item by item: the printer, and the
/// HTML page's move list.
#[derive(Clone, Copy, Debug)]
pub struct Numbering {
    /// The number of the current move (a South move and the North move
    /// after it share one).
    number: u32,
    /// A North move here gets its number (`N...`): at the start of a line
    /// or round, or after a comment or a variation.
    fresh: bool,
    /// The side of the line's last move, since the last round marker.
    last: Option<Side>,
    /// Where the last move of this line was numbered from.
    before_last: u32,
}

impl Default for Numbering {
    fn default() -> Numbering {
        Numbering::new()
    }
}

impl Numbering {
    /// The numbering at the start of a movetext.
    #[must_use]
    pub const fn new() -> Numbering {
        Numbering::starting_at(1)
    }

    const fn starting_at(number: u32) -> Numbering {
        Numbering {
            number,
            fresh: true,
            last: None,
            before_last: number,
        }
    }

    /// Appends the token of `item` with its move number (`3. D+2`,
    /// `3... b`, `R2`, `{…}`, `$14`; nothing for a variation) and moves on
    /// past it.
    pub fn token(&mut self, out: &mut String, item: &Item) {
        match item {
            Item::Move { mv, .. } => self.before_last = self.of(mv.hole.side),
            Item::Variation { .. } => self.fresh = true,
            _ => {}
        }
        write_item(out, item, self);
    }

    /// The numbering inside a variation after the last move: from the
    /// number of the move it replaces.
    #[must_use]
    pub const fn variation(&self) -> Numbering {
        Numbering::starting_at(self.before_last)
    }

    /// The number a move by `side` here is written under: the next one
    /// when South moves after North.
    fn of(&self, side: Side) -> u32 {
        if side == Side::South && self.last == Some(Side::North) {
            self.number + 1
        } else {
            self.number
        }
    }
}

/// Lays out the items of one line, the main line or a variation, from
/// `numbering`. A NAG from `$1` to `$6` right after a move is written as
/// the move's suffix (`D!`, `e?!`); any other NAG as a token of its own
/// (`$14`). A variation is `(` and `)` around its line, each a token
/// (python-chess writes PGN so): its line starts from the number of the
/// move it replaces, and the move after it gets its number again.
fn write_line(
    line: &mut LineWriter<'_, '_>,
    items: &[Item],
    numbering: &mut Numbering,
) -> fmt::Result {
    let mut token = String::new();
    let mut items = items.iter().peekable();
    while let Some(item) = items.next() {
        match item {
            Item::Comment { .. } => {
                token.clear();
                numbering.token(&mut token, item);
                line.text(&token)?;
            }
            Item::Variation { variation } => {
                line.ascii(|out| out.push('('))?;
                write_line(line, variation, &mut numbering.variation())?;
                line.ascii(|out| out.push(')'))?;
                numbering.token(&mut token, item);
            }
            Item::Move { .. } => {
                let suffix = match items.peek() {
                    Some(Item::Nag { nag }) => nag.suffix(),
                    _ => None,
                };
                line.ascii(|out| {
                    numbering.token(out, item);
                    out.push_str(suffix.unwrap_or(""));
                })?;
                if suffix.is_some() {
                    items.next();
                }
            }
            Item::Round { .. } | Item::Nag { .. } => {
                line.ascii(|out| numbering.token(out, item))?;
            }
        }
    }
    Ok(())
}

/// Appends the token of one movetext item, with its move number: `N.`
/// before a South move that starts South's turn, `N...` before a North
/// move that opens a round or follows a comment; the number grows when
/// South moves after North and restarts at 1 in every round. A move that
/// continues its side's turn (Kalah's move after one that ended in the
/// mover's store) gets no number: the same number goes on. A move number
/// stays on the line of its move, so both make one token.
fn write_item(out: &mut String, item: &Item, numbering: &mut Numbering) {
    match item {
        Item::Move { mv, captured } => {
            let side = mv.hole.side;
            numbering.number = numbering.of(side);
            let continues = numbering.last == Some(side) && !numbering.fresh;
            match side {
                Side::South if !continues => {
                    push_number(out, numbering.number);
                    out.push_str(". ");
                }
                Side::North if numbering.fresh => {
                    push_number(out, numbering.number);
                    out.push_str("... ");
                }
                Side::South | Side::North => {}
            }
            // Writing into a `String` cannot fail.
            let _ = mv.write_to(out);
            if let Some(n) = captured {
                out.push('+');
                push_number(out, *n);
            }
            numbering.last = Some(side);
            numbering.fresh = false;
        }
        Item::Round { round } => {
            out.push('R');
            push_number(out, *round);
            *numbering = Numbering::new();
        }
        Item::Comment { comment } => {
            out.push('{');
            out.push_str(comment);
            out.push('}');
            numbering.fresh = true;
        }
        Item::Nag { nag } => {
            let _ = write!(out, "{nag}");
        }
        // Laid out by `write_line`, around its items.
        Item::Variation { .. } => {}
    }
}

/// Lays tokens out in lines, handing the formatter a whole line at a time.
struct LineWriter<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    /// The line being filled.
    line: String,
    column: usize,
}

impl LineWriter<'_, '_> {
    /// Writes `token` after a space, or on a new line when it would pass
    /// [`MAX_LINE`]; `width` is how many columns it takes.
    fn place(&mut self, token: &str, width: usize) -> fmt::Result {
        if self.column > 0 {
            if self.fits(width) {
                self.line.push(' ');
                self.column += 1;
            } else {
                self.line.push('\n');
                self.flush()?;
                self.column = 0;
            }
        }
        self.line.push_str(token);
        Ok(())
    }

    /// Whether a token `width` columns wide goes on the current line: it
    /// starts the line, or fits after a space within [`MAX_LINE`].
    fn fits(&self, width: usize) -> bool {
        self.column == 0 || self.column + 1 + width <= MAX_LINE
    }

    fn flush(&mut self) -> fmt::Result {
        self.f.write_str(&self.line)?;
        self.line.clear();
        Ok(())
    }

    /// A token of ASCII characters on one line (a move with its number, a
    /// round marker or a result), written by `write` straight into the
    /// line; it moves to a new line when it does not fit.
    fn ascii(&mut self, write: impl FnOnce(&mut String)) -> fmt::Result {
        let separator = self.line.len();
        if self.column > 0 {
            self.line.push(' ');
        }
        let start = self.line.len();
        write(&mut self.line);
        let token = &self.line[start..];
        debug_assert!(token.is_ascii() && !token.contains('\n'));
        let width = token.len();
        if !self.fits(width) {
            // The text before the token makes a whole line.
            self.f.write_str(&self.line[..separator])?;
            self.f.write_str("\n")?;
            self.line.drain(..start);
            self.column = width;
        } else {
            self.column += usize::from(self.column > 0) + width;
        }
        Ok(())
    }

    /// Any token: a comment may hold wide characters and line breaks.
    fn text(&mut self, token: &str) -> fmt::Result {
        let width = token.chars().count();
        self.place(token, width)?;
        self.column = match token.rfind('\n') {
            Some(i) => token[i + 1..].chars().count(),
            None => self.column + width,
        };
        Ok(())
    }
}
