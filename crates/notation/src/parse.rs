//! The nom parser. nom stays inside this module: the public API speaks in
//! [`Record`], [`ParsedGame`], [`Visitor`] and [`ParseError`] only.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::{ControlFlow, Range};

use mancala_prose::closest;
use mancala_rules::{Dir, EndReason, GameId, Hole, Move, Options, Setup, Side};
use nom::bytes::complete::take_while1;
use nom::combinator::verify;
use nom::{IResult, Parser};

use crate::annotation::Nag;
use crate::error::{
    MovetextError, Number, ParseError, ParseErrorKind, SetUpError, TagError, TagLineError,
};
use crate::record::{
    GameResult, Item, ParsedGame, Record, Spans, StandardTags, Tag, first_special_in_tag_value,
    is_name_byte,
};
use crate::visitor::{Skip, TagValue, Visitor};

type PResult<'a, T> = IResult<&'a str, T>;

/// Where a line of a comment's text (after its first) begins with `[`
/// after blanks. A reader takes such a line for the next game's tags; one
/// after a lone CR escapes the reader, but printing writes it after an LF.
/// Linear: the blanks after a break are skipped once, where a search
/// from every break would cross the same run of line breaks again and
/// again.
pub(crate) fn tag_line_in_comment(text: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = memchr::memchr2(b'\n', b'\r', &text[from..]) {
        let line = &text[from + at + 1..];
        let blanks = line.len() - line.trim_ascii_start().len();
        let next = from + at + 1 + blanks;
        if text.get(next) == Some(&b'[') {
            return Some(next);
        }
        // The run of blanks (and the breaks in it) leads here for every
        // break inside it: the next break to try comes after it.
        from = next;
    }
    None
}

/// `text` after its leading spaces and tabs.
fn skip_blanks(text: &str) -> &str {
    let blanks = text
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    &text[blanks..]
}

/// A tag name, borrowed when it is one every record has or may have.
fn known_name(name: &str) -> Cow<'static, str> {
    Record::TYPED_TAGS
        .into_iter()
        .chain(StandardTags::NAMES)
        .find(|known| *known == name)
        .map_or_else(|| Cow::Owned(name.to_owned()), Cow::Borrowed)
}

/// A tag line: name, unescaped value, the line's span and the value's.
/// The value is borrowed from the text, or, when it had escapes, from the
/// caller's buffer (so that no line leaves a `Cow` to drop).
type TagLine<'a, 'v> = (&'a str, &'v str, Range<usize>, Range<usize>);

/// Reads the text of one game (as split by [`crate::Reader`]) into
/// `visitor`, checking all of its syntax: `Continue` when the text is a
/// well-formed game and the visitor saw all of it, `Break` when the visitor
/// stopped the reading, an error at the first syntax error in the text.
pub fn visit_game<V: Visitor>(text: &str, visitor: &mut V) -> Result<ControlFlow<()>, ParseError> {
    GameParser {
        full: text,
        rest: text,
    }
    .game(visitor)
}

/// Parses the text of one game (as split by [`crate::Reader`]).
pub fn parse_game(text: &str) -> Result<ParsedGame, ParseError> {
    let mut builder = RecordBuilder::new(text);
    // The builder reads to the end: it never stops the reading.
    let _ = visit_game(text, &mut builder)?;
    Ok(builder.finish())
}

/// The visitor [`parse_game`] reads with: a record and its spans. Other
/// visitors may feed one too, to build the record as they go.
#[derive(Debug)]
pub struct RecordBuilder {
    text_len: usize,
    /// Its game is a stand-in until the `Game` tag (which a well-formed
    /// text has) is read.
    record: Record,
    spans: Spans,
    /// The variations open, outermost first.
    open: Vec<BuiltVariation>,
}

/// A variation being built: its items so far, where its `(` stands, and
/// (when it is nested in another) its place in [`Spans::inner`].
#[derive(Debug)]
struct BuiltVariation {
    items: Vec<Item>,
    start: usize,
    inner_at: Option<usize>,
}

impl RecordBuilder {
    /// A builder for a game read from `text`.
    #[must_use]
    pub fn new(text: &str) -> RecordBuilder {
        RecordBuilder {
            text_len: text.len(),
            record: Record::new(GameId::Olowuka),
            spans: Spans::default(),
            open: Vec::new(),
        }
    }

    /// The record, once [`visit_game`] has read the whole text into the
    /// builder (returned `Continue`).
    #[must_use]
    pub fn finish(self) -> ParsedGame {
        ParsedGame {
            record: self.record,
            spans: self.spans,
        }
    }
}

impl Visitor for RecordBuilder {
    fn tag(
        &mut self,
        tag: TagValue<'_>,
        line: Range<usize>,
        value: Range<usize>,
    ) -> ControlFlow<()> {
        let record = &mut self.record;
        let name = match tag {
            TagValue::Game(game) => {
                record.game = game;
                Cow::Borrowed("Game")
            }
            TagValue::Options(options) => {
                record.options = options;
                self.spans.options = Some(value);
                Cow::Borrowed("Options")
            }
            TagValue::SetUp(setup) => {
                record.setup = Some(setup);
                self.spans.setup = Some(value);
                Cow::Borrowed("SetUp")
            }
            // Only checked against the movetext's result.
            TagValue::Result(_) => Cow::Borrowed("Result"),
            TagValue::Termination(reason) => {
                record.termination = Some(reason);
                Cow::Borrowed("Termination")
            }
            TagValue::Text { name, value } => {
                match record.tags.get_mut(name) {
                    Some(slot) => *slot = Some(value.into_owned()),
                    None => record.extra.push(Tag {
                        name: name.to_owned(),
                        value: value.into_owned(),
                    }),
                }
                known_name(name)
            }
        };
        if self.spans.tags.is_empty() {
            // A game has a handful.
            self.spans.tags.reserve(12);
        }
        self.spans.tags.push((name, line));
        ControlFlow::Continue(())
    }

    fn movetext(&mut self, header: Range<usize>) -> ControlFlow<()> {
        // About one item per four bytes of movetext; capped, since a huge
        // game of comments would reserve for nothing.
        let estimate = ((self.text_len - header.end) / 4).min(4096);
        self.record.items.reserve(estimate);
        self.spans.items.reserve(estimate);
        self.spans.header = header;
        ControlFlow::Continue(())
    }

    #[inline]
    fn item(&mut self, item: Item, span: Range<usize>) -> ControlFlow<()> {
        match self.open.last_mut() {
            None => {
                self.record.items.push(item);
                self.spans.items.push(span);
            }
            Some(variation) => {
                variation.items.push(item);
                self.spans.inner.push(span);
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: Nag, span: Range<usize>) -> ControlFlow<()> {
        self.item(Item::Nag { nag }, span)
    }

    fn begin_variation(&mut self, span: Range<usize>) -> ControlFlow<(), Skip> {
        // A nested variation's span goes before its items: its place is
        // kept, and filled when it closes.
        let inner_at = (!self.open.is_empty()).then(|| {
            self.spans.inner.push(span.clone());
            self.spans.inner.len() - 1
        });
        self.open.push(BuiltVariation {
            items: Vec::new(),
            start: span.start,
            inner_at,
        });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, span: Range<usize>) -> ControlFlow<()> {
        let Some(done) = self.open.pop() else {
            return ControlFlow::Continue(());
        };
        let whole = done.start..span.end;
        let item = Item::Variation {
            variation: done.items,
        };
        match (self.open.last_mut(), done.inner_at) {
            (Some(outer), Some(at)) => {
                outer.items.push(item);
                self.spans.inner[at] = whole;
            }
            _ => {
                self.record.items.push(item);
                self.spans.items.push(whole);
            }
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, result: GameResult, span: Range<usize>) {
        self.record.result = result;
        self.spans.result = span;
    }
}

/// What a tag's name is to the reader: one of the names it knows (the
/// typed tags and the standard ones, each with its bit in [`SeenTags`]), or
/// another. Told once per tag line, for the duplicate check and for how the
/// value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagName {
    Game,
    Options,
    SetUp,
    Result,
    Termination,
    /// `Event`, `Site`, `Date`, `Round`, `South` or `North` (bits 5 to 10).
    Standard(u16),
    Other,
}

impl TagName {
    const EVENT: TagName = TagName::Standard(1 << 5);
    const SITE: TagName = TagName::Standard(1 << 6);
    const DATE: TagName = TagName::Standard(1 << 7);
    const ROUND: TagName = TagName::Standard(1 << 8);
    const SOUTH: TagName = TagName::Standard(1 << 9);
    const NORTH: TagName = TagName::Standard(1 << 10);

    /// Inlined into the tag loop, as [`GameParser::tag_line`] is: every
    /// tag line asks.
    #[inline(always)]
    fn of(name: &str) -> TagName {
        // As byte arrays: compared in a word or two, with no call to `bcmp`.
        match *name.as_bytes() {
            [b'G', b'a', b'm', b'e'] => TagName::Game,
            [b'O', b'p', b't', b'i', b'o', b'n', b's'] => TagName::Options,
            [b'S', b'e', b't', b'U', b'p'] => TagName::SetUp,
            [b'R', b'e', b's', b'u', b'l', b't'] => TagName::Result,
            [
                b'T',
                b'e',
                b'r',
                b'm',
                b'i',
                b'n',
                b'a',
                b't',
                b'i',
                b'o',
                b'n',
            ] => TagName::Termination,
            [b'E', b'v', b'e', b'n', b't'] => TagName::EVENT,
            [b'S', b'i', b't', b'e'] => TagName::SITE,
            [b'D', b'a', b't', b'e'] => TagName::DATE,
            [b'R', b'o', b'u', b'n', b'd'] => TagName::ROUND,
            [b'S', b'o', b'u', b't', b'h'] => TagName::SOUTH,
            [b'N', b'o', b'r', b't', b'h'] => TagName::NORTH,
            _ => TagName::Other,
        }
    }

    /// The known name that a plain tag line's first eight bytes after its
    /// `[` start with, followed by a space: its length and what it is.
    /// `None` for any other name, and for `Termination` (too long for the
    /// word): [`TagName::of`] tells those. One compare a tag line against
    /// the name's bytes as a word, where a scan of the name and a match on
    /// it cost some 45 instructions: every record has some eight tag lines.
    #[inline(always)]
    fn known_in(word: [u8; 8]) -> Option<(usize, TagName)> {
        const ONES: u64 = u64::from_le_bytes([1; 8]);
        /// The name and its space as the word's low bytes (a name of at
        /// most seven bytes).
        const fn key(name: &[u8]) -> u64 {
            let mut word = [0; 8];
            let mut i = 0;
            while i < name.len() {
                word[i] = name[i];
                i += 1;
            }
            word[name.len()] = b' ';
            u64::from_le_bytes(word)
        }
        const GAME: u64 = key(b"Game");
        const OPTIONS: u64 = key(b"Options");
        const SETUP: u64 = key(b"SetUp");
        const RESULT: u64 = key(b"Result");
        const EVENT: u64 = key(b"Event");
        const SITE: u64 = key(b"Site");
        const DATE: u64 = key(b"Date");
        const ROUND: u64 = key(b"Round");
        const SOUTH: u64 = key(b"South");
        const NORTH: u64 = key(b"North");
        let x = u64::from_le_bytes(word);
        // The first space (see `first_special_in_tag_value`).
        let y = x ^ (ONES * u64::from(b' '));
        let spaces = y.wrapping_sub(ONES) & !y & (ONES << 7);
        if spaces == 0 {
            return None;
        }
        let len = spaces.trailing_zeros() as usize / 8;
        // The name and its space: the bytes after them are the value's.
        let key = x & (u64::MAX >> (56 - 8 * len));
        let kind = match key {
            GAME => TagName::Game,
            OPTIONS => TagName::Options,
            SETUP => TagName::SetUp,
            RESULT => TagName::Result,
            EVENT => TagName::EVENT,
            SITE => TagName::SITE,
            DATE => TagName::DATE,
            ROUND => TagName::ROUND,
            SOUTH => TagName::SOUTH,
            NORTH => TagName::NORTH,
            _ => return None,
        };
        Some((len, kind))
    }

    /// Its bit among the known names, `None` for another name.
    fn bit(self) -> Option<u16> {
        Some(match self {
            TagName::Game => 1,
            TagName::Options => 1 << 1,
            TagName::SetUp => 1 << 2,
            TagName::Result => 1 << 3,
            TagName::Termination => 1 << 4,
            TagName::Standard(bit) => bit,
            TagName::Other => return None,
        })
    }
}

/// Tag names seen so far in a game, for the duplicate check: the known
/// names as bits, the others in a list (the first few kept inline) and
/// past those in a set, made only then: a game of many tags costs linear
/// time, not quadratic, and one of a few pays for no set.
struct SeenTags<'a> {
    standard: u16,
    few: [&'a str; 8],
    len: usize,
    more: Option<HashSet<&'a str>>,
}

impl<'a> SeenTags<'a> {
    fn new() -> SeenTags<'a> {
        SeenTags {
            standard: 0,
            few: [""; 8],
            len: 0,
            more: None,
        }
    }

    /// Adds `name`; `false` when it was there already.
    #[cfg(test)]
    fn insert(&mut self, name: &'a str) -> bool {
        self.insert_as(name, TagName::of(name))
    }

    /// Adds `name`, which is `kind`; `false` when it was there already.
    #[inline]
    fn insert_as(&mut self, name: &'a str, kind: TagName) -> bool {
        if let Some(bit) = kind.bit() {
            let new = self.standard & bit == 0;
            self.standard |= bit;
            return new;
        }
        if self.few[..self.len].contains(&name) {
            return false;
        }
        if self.len < self.few.len() {
            self.few[self.len] = name;
            self.len += 1;
            return true;
        }
        self.more.get_or_insert_with(HashSet::new).insert(name)
    }

    /// An unknown tag seen whose name is [`closest`] to `standard`, case
    /// aside (names are case-sensitive, and `game` is not `Game`).
    fn near(&self, standard: &str) -> Option<&'a str> {
        let target = standard.to_ascii_lowercase();
        self.few[..self.len]
            .iter()
            .chain(self.more.iter().flatten())
            .copied()
            .find(|name| closest(&name.to_ascii_lowercase(), [target.as_str()]).is_some())
    }

    /// Whether the `Game` tag has come (its bit is the first).
    fn saw_game(&self) -> bool {
        self.standard & 1 != 0
    }
}

/// What the tags must say once the movetext's `result` is read: a `Game`
/// tag was among them (`seen`; the header starts at `header_start`), and
/// the `Result` tag, if any (with its value's span), agrees.
fn tags_agree(
    seen: &SeenTags<'_>,
    header_start: usize,
    result_tag: Option<(GameResult, Range<usize>)>,
    result: GameResult,
) -> Result<(), ParseError> {
    if !seen.saw_game() {
        return Err(ParseError::new(
            header_start..header_start,
            TagError::MissingGame {
                near: seen.near("Game").map(str::to_owned),
            },
        ));
    }
    if let Some((tagged, span)) = result_tag
        && tagged != result
    {
        return Err(ParseError::new(
            span,
            TagError::ResultMismatch {
                tagged,
                ended: result,
            },
        ));
    }
    Ok(())
}

/// Parses a `SetUp` tag value, e.g. `S 4,4,4,4,4,4/4,4,4,4,4,4 0-0`.
/// Errors carry spans within `text`.
pub fn parse_setup(text: &str) -> Result<Setup, ParseError> {
    setup_value(text, 0)
}

struct GameParser<'a> {
    full: &'a str,
    rest: &'a str,
}

/// Bytes that end a token: whitespace, a comment's brace or a variation's
/// parenthesis; and a move also at `!` and `?`, where its NAG's suffix
/// form may follow it. Tables: every move asks.
const TOKEN_ENDS: [bool; 256] = byte_table(b"{()");
const MOVE_ENDS: [bool; 256] = byte_table(b"{()!?");

/// A table of the bytes that are ASCII whitespace or in `also`.
const fn byte_table(also: &[u8]) -> [bool; 256] {
    let mut table = byte_set(also);
    let mut b = 0;
    while b < 256 {
        table[b] |= (b as u8).is_ascii_whitespace();
        b += 1;
    }
    table
}

/// A table of the bytes in `bytes`.
pub(crate) const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// ASCII whitespace, as a table: the movetext loop skips it before
/// every token.
const BLANKS: [bool; 256] = byte_table(b"");

/// A byte that ends a token: whitespace, a comment's brace or a
/// variation's parenthesis.
#[inline(always)]
fn ends_token(b: u8) -> bool {
    TOKEN_ENDS[usize::from(b)]
}

/// A byte that ends a move: one that ends a token, or a NAG's suffix.
#[inline(always)]
fn ends_move(b: u8) -> bool {
    MOVE_ENDS[usize::from(b)]
}

/// How deep variations may nest: deep enough for any analysis, shallow
/// enough that every consumer of a record (printing, JSON, dropping it)
/// may walk it by recursion, and that its JSON form reads back (serde_json
/// refuses objects nested over 128 deep; a variation takes two).
pub const MAX_VARIATION_DEPTH: usize = 50;

/// A variation whose `)` has not come yet: where its `(` stands.
struct OpenVariation {
    at: usize,
}

impl OpenVariation {
    /// The error of a variation that the result, or the end, leaves open.
    fn unterminated(&self) -> ParseError {
        ParseError::new(self.at..self.at + 1, MovetextError::UnterminatedVariation)
    }
}

/// The line of the movetext being read: the variations open around it,
/// and what it has read so far.
#[derive(Default)]
struct Line {
    /// The variations open around the current line, outermost first.
    open: Vec<OpenVariation>,
    /// Where the visitor stopped following: from that variation on (an
    /// index in `open`), nothing is handed over.
    skipped_from: Option<usize>,
    /// Whether a NAG or a variation may come: a move stands before, with
    /// only NAGs, comments and variations since.
    after_move: bool,
    /// Whether the line has a move at all.
    has_move: bool,
}

impl Line {
    /// Hands `call` over to the visitor unless it passed over the
    /// variation being read: `true` when the visitor stops the reading.
    #[inline(always)]
    fn hand_over(&self, call: impl FnOnce() -> ControlFlow<()>) -> bool {
        self.skipped_from.is_none() && call().is_break()
    }

    /// The result, or the end, comes: no variation may be open.
    fn closed(&self) -> Result<(), ParseError> {
        match self.open.last() {
            Some(variation) => Err(variation.unterminated()),
            None => Ok(()),
        }
    }
}

/// Whether a token may end where `rest` starts: at a byte that ends
/// tokens, or at the end.
fn at_boundary(rest: &[u8]) -> bool {
    rest.first().is_none_or(|&b| ends_token(b))
}

/// How many ASCII digits `bytes` starts with.
#[inline(always)]
fn digit_run(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// The value of `digits`, at most nine ASCII digits: nine cannot pass
/// `u32::MAX`, so no check is needed (scores, capture counts and round
/// numbers are nearly all this short).
#[inline(always)]
pub(crate) fn short_digits_value(digits: &[u8]) -> u32 {
    debug_assert!(digits.len() <= 9 && digits.iter().all(u8::is_ascii_digit));
    digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'))
}

/// The value of `digits` (ASCII digits only), `None` past `u32::MAX`.
pub(crate) fn digits_value(digits: &[u8]) -> Option<u32> {
    debug_assert!(digits.iter().all(u8::is_ascii_digit));
    if digits.len() <= 9 {
        return Some(short_digits_value(digits));
    }
    digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

/// The value of `text`, ASCII digits only.
fn digits_u32(text: &str, what: Number, at: Range<usize>) -> Result<u32, ParseError> {
    match digits_value(text.as_bytes()) {
        Some(value) => Ok(value),
        None => Err(too_large(text, what, at)),
    }
}

/// The error of [`digits_u32`]'s digits past `u32::MAX`.
#[cold]
#[inline(never)]
fn too_large(text: &str, what: Number, at: Range<usize>) -> ParseError {
    ParseError::new(
        at,
        ParseErrorKind::TooLarge {
            number: what,
            digits: text.to_owned(),
        },
    )
}

/// A letter, then letters, digits and underscores. nom reads the bytes:
/// its `char` combinators decode UTF-8 first, which a name never needs.
fn tag_name(i: &str) -> PResult<'_, &str> {
    let name: IResult<&[u8], &[u8]> = verify(take_while1(is_name_byte), |name: &[u8]| {
        name[0].is_ascii_alphabetic()
    })
    .parse(i.as_bytes());
    match name {
        // ASCII only: the cut falls between characters.
        Ok((_, name)) => Ok((&i[name.len()..], &i[..name.len()])),
        Err(_) => Err(no_match(i)),
    }
}

// The movetext's rarer tokens are nom parsers written by hand over bytes
// (nom's generic `char` combinators cost several times more); moves and
// move numbers are read straight from the bytes (`lex_move`). The caller
// turns a failed match into a located message.

fn no_match(i: &str) -> nom::Err<nom::error::Error<&str>> {
    nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify))
}

/// One or more ASCII digits.
fn digits(i: &str) -> PResult<'_, &str> {
    let n = digit_run(i.as_bytes());
    if n == 0 {
        return Err(no_match(i));
    }
    Ok((&i[n..], &i[..n]))
}

/// The capture count of a move token: its value, or where its digits stand
/// when they pass `u32` (for the error message).
type Count = Option<Result<u32, Range<usize>>>;

/// A move at `at`: `E`, `e`, `E:ccw` or `E:cw`, each optionally followed by
/// `+N`, then a token boundary or a NAG's suffix form (`!`, `?!`, …; read
/// after it as a NAG). Returns where the move ends, where the reading goes
/// on (past the blank after the commonest move, which the caller would
/// skip next), the move and `N`. Moves are most of any movetext, so this
/// one reads bytes with no `&str` in between.
#[inline(always)]
fn lex_move(bytes: &[u8], at: usize) -> Option<(usize, usize, Move, Count)> {
    let hole = Hole::from_label(char::from(*bytes.get(at)?))?;
    let mut end = at + 1;
    let mut dir = None;
    match bytes.get(end) {
        // The commonest move: a label alone, then a blank.
        Some(&b) if BLANKS[usize::from(b)] => {
            return Some((end, end + 1, Move { hole, dir }, None));
        }
        Some(b':') => match bytes.get(end + 1..end + 4) {
            Some(b"ccw") => (dir, end) = (Some(Dir::Ccw), at + 5),
            Some([b'c', b'w', _]) => (dir, end) = (Some(Dir::Cw), at + 4),
            // `E:cw` at the very end of the text.
            _ if bytes.get(end + 1..) == Some(b"cw") => (dir, end) = (Some(Dir::Cw), at + 4),
            _ => {}
        },
        _ => {}
    }
    let mut count = None;
    if bytes.get(end) == Some(&b'+') {
        let from = end + 1;
        let mut to = from;
        while bytes.get(to).is_some_and(u8::is_ascii_digit) {
            to += 1;
        }
        if to > from {
            count = Some(match to - from {
                // Nine digits cannot pass `u32::MAX`: no check needed.
                ..=9 => Ok(short_digits_value(&bytes[from..to])),
                _ => digits_value(&bytes[from..to]).ok_or(from..to),
            });
            end = to;
        }
    }
    // A NAG's suffix form may follow, glued: it is read as a NAG of its own.
    match bytes.get(end) {
        Some(&b) if !ends_move(b) => None,
        _ => Some((end, end, Move { hole, dir }, count)),
    }
}

/// A move number at `at` (`12.` or `12...`), whose first digit the caller
/// has seen there: where it ends, or past the blank after it (which the
/// caller would skip next: a number leaves no item).
#[inline(always)]
fn lex_move_number(bytes: &[u8], at: usize) -> Option<usize> {
    debug_assert!(bytes[at].is_ascii_digit());
    // Most are `1. ` to `99. `: read at once, with the blank after them.
    match bytes.get(at + 1..at + 4) {
        Some(&[b'.', b, _]) if BLANKS[usize::from(b)] => return Some(at + 3),
        Some(&[b'0'..=b'9', b'.', b]) if BLANKS[usize::from(b)] => return Some(at + 4),
        _ => {}
    }
    let mut end = at + 1;
    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    if bytes.get(end) != Some(&b'.') {
        return None;
    }
    match bytes.get(end + 1) {
        Some(&b) if BLANKS[usize::from(b)] => Some(end + 2),
        Some(b'.') if bytes.get(end + 2) == Some(&b'.') => Some(end + 3),
        _ => Some(end + 1),
    }
}

/// `30-18`: South's and North's digits.
fn score(i: &str) -> PResult<'_, (&str, &str)> {
    let (rest, south) = digits(i)?;
    let Some(rest) = rest.strip_prefix('-') else {
        return Err(no_match(rest));
    };
    let (rest, north) = digits(rest)?;
    Ok((rest, (south, north)))
}

/// `R2`: the digits.
fn round_marker(i: &str) -> PResult<'_, &str> {
    match i.strip_prefix('R') {
        Some(rest) => digits(rest),
        None => Err(no_match(i)),
    }
}

impl<'a> GameParser<'a> {
    fn pos(&self) -> usize {
        self.full.len() - self.rest.len()
    }

    fn pos_of(&self, rest: &str) -> usize {
        self.full.len() - rest.len()
    }

    /// Skips ASCII whitespace: after a tag line, whose line break it took,
    /// mostly none (inlined: a call costs more than the skipping).
    #[inline(always)]
    fn skip_ws(&mut self) {
        self.rest = self.rest.trim_ascii_start();
    }

    /// The span of the token starting here (up to the next boundary).
    fn token_span(&self) -> Range<usize> {
        let start = self.pos();
        let len = self
            .rest
            .bytes()
            .position(ends_token)
            .unwrap_or(self.rest.len());
        start..start + len.max(self.rest.chars().next().map_or(0, char::len_utf8))
    }

    fn game<V: Visitor>(mut self, visitor: &mut V) -> Result<ControlFlow<()>, ParseError> {
        let mut result_tag = None;
        let mut seen = SeenTags::new();
        // Tags are read and taken in one pass.
        self.skip_ws();
        let header_start = self.pos();
        let mut header_end = header_start;
        let mut unescaped = String::new();
        while self.rest.starts_with('[') {
            let ((name, value, line, value_span), kind) = self.tag_line(&mut unescaped)?;
            if !seen.insert_as(name, kind) {
                return Err(ParseError::new(
                    line,
                    TagError::Twice {
                        name: name.to_owned(),
                    },
                ));
            }
            let err = |e: TagError| ParseError::new(value_span.clone(), e);
            let tag = match kind {
                TagName::Game => TagValue::Game(
                    value
                        .parse::<GameId>()
                        .map_err(|e| err(TagError::Game(e)))?,
                ),
                TagName::Options => TagValue::Options(
                    value
                        .parse::<Options>()
                        .map_err(|e| err(TagError::Options(e)))?,
                ),
                TagName::SetUp => TagValue::SetUp(setup_value(value, value_span.start)?),
                TagName::Result => {
                    let result = value
                        .parse::<GameResult>()
                        .map_err(|e| err(TagError::Result(e)))?;
                    result_tag = Some((result, value_span.clone()));
                    TagValue::Result(result)
                }
                TagName::Termination => TagValue::Termination(
                    value
                        .parse::<EndReason>()
                        .map_err(|e| err(TagError::Termination(e)))?,
                ),
                // No standard name is a typed one in other case.
                TagName::Standard(_) => TagValue::Text {
                    name,
                    value: Cow::Borrowed(value),
                },
                TagName::Other => {
                    // A tag the notation reads, in other case, would be kept
                    // as text and the record read without it.
                    if let Some(read) = Record::read_tag_in_other_case(name) {
                        let at = line.start + 1;
                        return Err(ParseError::new(
                            at..at + name.len(),
                            TagError::OtherCase {
                                name: name.to_owned(),
                                meant: read,
                            },
                        ));
                    }
                    TagValue::Text {
                        name,
                        value: Cow::Borrowed(value),
                    }
                }
            };
            header_end = line.end;
            if visitor.tag(tag, line, value_span).is_break() {
                return Ok(ControlFlow::Break(()));
            }
            self.skip_ws();
        }
        if visitor.movetext(header_start..header_end).is_break() {
            return Ok(ControlFlow::Break(()));
        }
        let ControlFlow::Continue((result, result_span)) = self.movetext(visitor)? else {
            return Ok(ControlFlow::Break(()));
        };
        tags_agree(&seen, header_start, result_tag, result)?;
        visitor.result(result, result_span);
        Ok(ControlFlow::Continue(()))
    }

    /// `[Name "value"]`, returning the name, the unescaped value, the span of
    /// the whole tag and the span of the value inside the quotes. Inlined
    /// into the tag loop with [`GameParser::plain_tag_line`]: the line's
    /// parts stay in registers instead of going through a returned tuple
    /// (some 70 instructions a tag line).
    /// What its name is comes with it.
    #[inline(always)]
    fn tag_line<'v>(
        &mut self,
        unescaped: &'v mut String,
    ) -> Result<(TagLine<'a, 'v>, TagName), ParseError>
    where
        'a: 'v,
    {
        match self.plain_tag_line() {
            Some(line) => Ok(line),
            None => {
                let line = self.any_tag_line(unescaped)?;
                let kind = TagName::of(line.0);
                Ok((line, kind))
            }
        }
    }

    /// The tag line nearly every record writes (one space after the name,
    /// no escape, nothing after the `]` but the line break), read in one
    /// scan of its bytes; `None` for any other (read by
    /// [`GameParser::any_tag_line`], which reads it alike when it is well
    /// formed, and otherwise says what is wrong). The line break is taken
    /// with the line.
    #[inline(always)]
    fn plain_tag_line(&mut self) -> Option<(TagLine<'a, 'a>, TagName)> {
        let bytes = self.rest.as_bytes();
        let known = match bytes.get(1..9) {
            Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => {
                TagName::known_in([b0, b1, b2, b3, b4, b5, b6, b7])
            }
            _ => None,
        };
        let (name_end, kind) = match known {
            // The name and the space after it are read.
            Some((len, kind)) => (1 + len, Some(kind)),
            None => {
                if !bytes.get(1)?.is_ascii_alphabetic() {
                    return None;
                }
                let mut at = 2;
                while bytes.get(at).is_some_and(|&b| is_name_byte(b)) {
                    at += 1;
                }
                (at, None)
            }
        };
        let mut at = name_end;
        if bytes.get(at..at + 2)? != b" \"" {
            return None;
        }
        at += 2;
        let value_from = at;
        let value_to = value_from + first_special_in_tag_value(&bytes[value_from..])?;
        let end = value_to + 2;
        // The line's break is passed over too: the blanks before the next
        // line need no skipping then.
        let next = match bytes.get(value_to..)? {
            [b'"', b']'] => end,
            [b'"', b']', b'\n', ..] => end + 1,
            [b'"', b']', b'\r', b'\n', ..] => end + 2,
            _ => return None,
        };
        let start = self.pos();
        // The cuts fall at ASCII bytes: between characters.
        let name = &self.rest[1..name_end];
        let line = (
            name,
            &self.rest[value_from..value_to],
            start..start + end,
            start + value_from..start + value_to,
        );
        self.rest = &self.rest[next..];
        Some((line, kind.unwrap_or_else(|| TagName::of(name))))
    }

    /// Any tag line ([`GameParser::tag_line`]); a value with escapes is
    /// unescaped into `unescaped`.
    #[inline(never)]
    fn any_tag_line<'v>(&mut self, unescaped: &'v mut String) -> Result<TagLine<'a, 'v>, ParseError>
    where
        'a: 'v,
    {
        let start = self.pos();
        let after_bracket = &self.rest[1..];
        let (rest, name) = tag_name(after_bracket)
            .map_err(|_| ParseError::new(start..start + 1, TagLineError::MissingName))?;
        let rest = skip_blanks(rest);
        if !rest.starts_with('"') {
            let at = self.pos_of(rest);
            return Err(ParseError::new(
                at..at + 1,
                TagLineError::MissingValue {
                    name: name.to_owned(),
                },
            ));
        }
        let value_start = self.pos_of(rest) + 1;
        let body = &rest[1..];
        // Most values hold no escape: borrowed as they stand.
        let plain =
            first_special_in_tag_value(body.as_bytes()).filter(|&i| body.as_bytes()[i] == b'"');
        let (value, value_end) = match plain {
            Some(i) => (&body[..i], value_start + i),
            None => {
                let (value, end) = self.escaped_value(start, name, body, value_start)?;
                *unescaped = value;
                (unescaped.as_str(), end)
            }
        };
        let rest = skip_blanks(&self.full[value_end + 1..]);
        if !rest.starts_with(']') {
            let at = self.pos_of(rest);
            return Err(ParseError::new(
                start..at,
                TagLineError::NotClosed {
                    name: name.to_owned(),
                },
            ));
        }
        let end = self.pos_of(rest) + 1;
        self.rest = &self.full[end..];
        // Nearly always the line ends right after the `]`.
        if let [] | [b'\n', ..] | [b'\r', b'\n', ..] = self.rest.as_bytes() {
            return Ok((name, value, start..end, value_start..value_end));
        }
        let trailing =
            &self.rest[..memchr::memchr(b'\n', self.rest.as_bytes()).unwrap_or(self.rest.len())];
        let blank = |c: char| c.is_ascii_whitespace();
        if !trailing.as_bytes().trim_ascii().is_empty() {
            let at = end + (trailing.len() - trailing.trim_start_matches(blank).len());
            return Err(ParseError::new(
                at..at + trailing.trim_matches(blank).len(),
                TagLineError::TextAfter,
            ));
        }
        Ok((name, value, start..end, value_start..value_end))
    }

    /// A tag value with escapes (or unterminated), unescaped: the value and
    /// where its closing quote stands.
    fn escaped_value(
        &self,
        start: usize,
        name: &str,
        body: &str,
        value_start: usize,
    ) -> Result<(String, usize), ParseError> {
        let mut value = String::new();
        let mut chars = body.char_indices();
        loop {
            match chars.next() {
                Some((i, '"')) => return Ok((value, value_start + i)),
                Some((i, '\\')) => match chars.next() {
                    Some((_, c @ ('"' | '\\'))) => value.push(c),
                    _ => {
                        let at = value_start + i;
                        return Err(ParseError::new(at..at + 1, TagLineError::InvalidEscape));
                    }
                },
                Some((_, '\n' | '\r')) | None => {
                    let line_end = memchr::memchr(b'\n', &self.full.as_bytes()[start..])
                        .map_or(self.full.len(), |i| start + i);
                    return Err(ParseError::new(
                        start..line_end.max(start + 1),
                        TagLineError::UnterminatedValue {
                            name: name.to_owned(),
                        },
                    ));
                }
                Some((_, c)) => value.push(c),
            }
        }
    }

    /// The movetext, each item handed to `visitor`: the result and its
    /// span, or `Break` when the visitor stopped.
    fn movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<ControlFlow<(), (GameResult, Range<usize>)>, ParseError> {
        let mut line = Line::default();
        loop {
            // Moves and move numbers first, as long as they come.
            if self.moves(visitor, &mut line)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
            let start = self.pos();
            let Some(&first) = self.rest.as_bytes().first() else {
                return Err(self.no_result(&line));
            };
            let read = match first {
                b'{' => self.comment(visitor, &line, start)?,
                b'*' => {
                    line.closed()?;
                    self.rest = &self.rest[1..];
                    return self.finish(GameResult::Unfinished, start..start + 1);
                }
                b'[' => {
                    return Err(ParseError::new(
                        self.token_span(),
                        MovetextError::TagInMovetext,
                    ));
                }
                b'(' => self.open_variation(visitor, &mut line, start)?,
                b')' => self.close_variation(visitor, &mut line, start)?,
                b'$' | b'!' | b'?' => self.nag(visitor, &line)?,
                // Other tokens, each tried only where its first character fits.
                b'0'..=b'9'
                    if let Ok((rest, (south, north))) = score(self.rest)
                        && at_boundary(rest.as_bytes()) =>
                {
                    line.closed()?;
                    return self.score_result(start, south, north, rest);
                }
                b'R' if let Ok((rest, digits)) = round_marker(self.rest)
                    && at_boundary(rest.as_bytes()) =>
                {
                    self.round_marker(visitor, &mut line, start, digits, rest)?
                }
                _ => return Err(self.unexpected_token()),
            };
            if read.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }

    /// Moves and move numbers, as long as they come: the movetext's bulk,
    /// read byte by byte from the current position.
    #[inline(always)]
    fn moves<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<ControlFlow<()>, ParseError> {
        let bytes = self.full.as_bytes();
        let mut at = self.pos();
        loop {
            while bytes.get(at).is_some_and(|&b| BLANKS[usize::from(b)]) {
                at += 1;
            }
            match bytes.get(at) {
                // Numbers are optional and only help the reader: not
                // kept.
                Some(b'0'..=b'9') => match lex_move_number(bytes, at) {
                    Some(end) => at = end,
                    None => break,
                },
                // A round marker (`R2`) is no move either: the label
                // is followed by a digit, which ends no move.
                Some(_) => match lex_move(bytes, at) {
                    Some((end, next, mv, count)) => {
                        let captured = match count {
                            Some(Ok(n)) => Some(n),
                            // Too large: the error says so.
                            Some(Err(digits)) => Some(digits_u32(
                                &self.full[digits.clone()],
                                Number::CaptureCount,
                                digits,
                            )?),
                            None => None,
                        };
                        let span = at..end;
                        at = next;
                        if line.hand_over(|| visitor.mv(mv, captured, span)) {
                            return Ok(ControlFlow::Break(()));
                        }
                        line.after_move = true;
                        line.has_move = true;
                    }
                    None => break,
                },
                None => break,
            }
        }
        self.rest = &self.full[at..];
        Ok(ControlFlow::Continue(()))
    }

    /// A `{comment}` at `start`.
    #[inline(always)]
    fn comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &Line,
        start: usize,
    ) -> Result<ControlFlow<()>, ParseError> {
        let Some(close) = self.rest.find('}') else {
            let line_end = self.rest.find('\n').map_or(self.full.len(), |i| start + i);
            return Err(ParseError::new(
                start..line_end,
                MovetextError::UnterminatedComment,
            ));
        };
        if let Some(at) = tag_line_in_comment(&self.rest.as_bytes()[1..close]) {
            let at = start + 1 + at;
            return Err(ParseError::new(at..at + 1, MovetextError::TagLineInComment));
        }
        let mut read = ControlFlow::Continue(());
        if line.skipped_from.is_none() {
            // Line breaks inside a comment are kept as LF, whatever
            // the file used: printing writes LF only.
            let comment = self.rest[1..close]
                .replace("\r\n", "\n")
                .replace('\r', "\n");
            read = visitor.item(Item::Comment { comment }, start..start + close + 1);
        }
        self.rest = &self.rest[close + 1..];
        Ok(read)
    }

    /// A variation's `(` at `start`.
    fn open_variation<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
        start: usize,
    ) -> Result<ControlFlow<()>, ParseError> {
        if !line.after_move {
            return Err(ParseError::new(
                start..start + 1,
                MovetextError::VariationNotAfterMove,
            ));
        }
        if line.open.len() == MAX_VARIATION_DEPTH {
            return Err(ParseError::new(
                start..start + 1,
                MovetextError::NestedTooDeep,
            ));
        }
        if line.skipped_from.is_none() {
            match visitor.begin_variation(start..start + 1) {
                ControlFlow::Break(()) => return Ok(ControlFlow::Break(())),
                ControlFlow::Continue(Skip(true)) => line.skipped_from = Some(line.open.len()),
                ControlFlow::Continue(Skip(false)) => {}
            }
        }
        line.open.push(OpenVariation { at: start });
        line.after_move = false;
        line.has_move = false;
        self.rest = &self.rest[1..];
        Ok(ControlFlow::Continue(()))
    }

    /// A variation's `)` at `start`.
    fn close_variation<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
        start: usize,
    ) -> Result<ControlFlow<()>, ParseError> {
        let Some(variation) = line.open.pop() else {
            return Err(ParseError::new(
                start..start + 1,
                MovetextError::UnmatchedClose,
            ));
        };
        if !line.has_move {
            return Err(ParseError::new(
                variation.at..start + 1,
                MovetextError::EmptyVariation,
            ));
        }
        let mut read = ControlFlow::Continue(());
        if line.skipped_from == Some(line.open.len()) {
            line.skipped_from = None;
        } else if line.skipped_from.is_none() {
            read = visitor.end_variation(start..start + 1);
        }
        // The line it stands in goes on after the move it follows
        // (which its `(` needed).
        line.after_move = true;
        line.has_move = true;
        self.rest = &self.rest[1..];
        Ok(read)
    }

    /// A NAG (`!`, `$14`) at the current position.
    fn nag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &Line,
    ) -> Result<ControlFlow<()>, ParseError> {
        let span = self.token_span();
        let nag = self.full[span.clone()]
            .parse::<Nag>()
            .map_err(|e| ParseError::new(span.clone(), MovetextError::Nag(e)))?;
        if !line.after_move {
            return Err(ParseError::new(span, MovetextError::NagNotAfterMove));
        }
        let mut read = ControlFlow::Continue(());
        if line.skipped_from.is_none() {
            read = visitor.nag(nag, span.clone());
        }
        self.rest = &self.full[span.end..];
        Ok(read)
    }

    /// A round marker (`R` and its `digits`) at `start`, `rest` after it.
    fn round_marker<V: Visitor>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
        start: usize,
        digits: &str,
        rest: &'a str,
    ) -> Result<ControlFlow<()>, ParseError> {
        let round = digits_u32(digits, Number::Round, start + 1..start + 1 + digits.len())?;
        if round < 2 {
            return Err(ParseError::new(
                start..self.pos_of(rest),
                MovetextError::RoundBelowTwo,
            ));
        }
        let mut read = ControlFlow::Continue(());
        if line.skipped_from.is_none() {
            read = visitor.item(Item::Round { round }, start..self.pos_of(rest));
        }
        line.after_move = false;
        self.rest = rest;
        Ok(read)
    }

    /// The text ended before the result.
    #[cold]
    fn no_result(&self, line: &Line) -> ParseError {
        if let Some(variation) = line.open.last() {
            return variation.unterminated();
        }
        // Point just after the game's last token, not at the next line.
        let end = self
            .full
            .trim_end_matches(|c: char| c.is_ascii_whitespace())
            .len();
        ParseError::new(end..end, MovetextError::NoResult)
    }

    /// A token at the current position that the movetext has no place for.
    #[cold]
    fn unexpected_token(&self) -> ParseError {
        let span = self.token_span();
        let token = &self.full[span.clone()];
        if let Some((label, dir)) = token.split_once(':')
            && label.len() == 1
            && label.chars().all(|c| c.is_ascii_alphabetic())
        {
            let dir = dir.split(['+', '!', '?']).next().unwrap_or("");
            // One ASCII letter, as checked above.
            let label = char::from(label.as_bytes()[0]);
            let kind = if dir.is_empty() {
                MovetextError::MissingDirection { label }
            } else {
                MovetextError::UnknownDirection {
                    label,
                    dir: dir.to_owned(),
                }
            };
            return ParseError::new(span.start + 2..span.start + 2 + dir.len().max(1), kind);
        }
        ParseError::new(
            span,
            MovetextError::UnexpectedToken {
                token: token.to_owned(),
            },
        )
    }

    /// The score closing the movetext (`south` and `north`: its digits;
    /// `rest`: the text after it). Once a game, out of the movetext loop:
    /// its reading is inlined here, where it costs the loop nothing.
    #[inline(never)]
    fn score_result(
        &mut self,
        start: usize,
        south: &str,
        north: &str,
        rest: &'a str,
    ) -> Result<ControlFlow<(), (GameResult, Range<usize>)>, ParseError> {
        let value =
            |digits: &str, at: usize| digits_u32(digits, Number::Score, at..at + digits.len());
        let s = value(south, start)?;
        let n = value(north, self.pos_of(rest) - north.len())?;
        self.rest = rest;
        let end = self.pos();
        self.finish(GameResult::Score(s, n), start..end)
    }

    /// After the result token: only remarks may follow.
    fn finish(
        &mut self,
        result: GameResult,
        span: Range<usize>,
    ) -> Result<ControlFlow<(), (GameResult, Range<usize>)>, ParseError> {
        if !at_boundary(self.rest.as_bytes()) {
            let end = self.token_span().end;
            return Err(ParseError::new(
                span.start..end,
                MovetextError::ResultNotSeparated,
            ));
        }
        // Remarks in braces may stand between games: they belong to neither.
        loop {
            self.skip_ws();
            if !self.rest.starts_with('{') {
                break;
            }
            let Some(close) = self.rest.find('}') else {
                let start = self.pos();
                let line_end = self.rest.find('\n').map_or(self.full.len(), |i| start + i);
                return Err(ParseError::new(
                    start..line_end,
                    MovetextError::UnterminatedComment,
                ));
            };
            self.rest = &self.rest[close + 1..];
        }
        if !self.rest.is_empty() {
            return Err(ParseError::new(
                self.token_span(),
                MovetextError::TextAfterResult,
            ));
        }
        Ok(ControlFlow::Continue((result, span)))
    }
}

/// Parses a `SetUp` value; `base` is the value's offset in the game's text.
fn setup_value(text: &str, base: usize) -> Result<Setup, ParseError> {
    let mut fields = Vec::new();
    let mut at = 0;
    for word in text.split(' ') {
        if !word.is_empty() {
            fields.push((word, base + at..base + at + word.len()));
        }
        at += word.len() + 1;
    }
    let whole = base..base + text.len();
    if fields.len() < 3 {
        return Err(ParseError::new(whole, SetUpError::Incomplete));
    }
    let (side, side_span) = &fields[0];
    let to_move = match *side {
        "S" => Side::South,
        "N" => Side::North,
        _ => {
            return Err(ParseError::new(side_span.clone(), SetUpError::Side));
        }
    };
    let (rows, rows_span) = &fields[1];
    let Some((south_text, north_text)) = rows.split_once('/') else {
        return Err(ParseError::new(rows_span.clone(), SetUpError::NoSlash));
    };
    let south = setup_row(south_text, rows_span.start)?;
    let north = setup_row(north_text, rows_span.start + south_text.len() + 1)?;
    let (stores_text, stores_span) = &fields[2];
    let stores = setup_stores(stores_text, stores_span)?;
    let mut setup = Setup {
        south,
        north,
        stores,
        to_move,
        south_dir: None,
        round: 1,
        round_starter: None,
    };
    let mut seen: Vec<&str> = Vec::new();
    for (field, span) in &fields[3..] {
        setup_field(&mut setup, field, span, &mut seen)?;
    }
    Ok(setup)
}

/// A set-up's stores, `S-N` (`span`: where they stand in the game's text).
fn setup_stores(text: &str, span: &Range<usize>) -> Result<[u32; 2], ParseError> {
    match score(text) {
        Ok(("", (s, n))) => Ok([
            digits_u32(s, Number::Store, span.start..span.start + s.len())?,
            digits_u32(n, Number::Store, span.end - n.len()..span.end)?,
        ]),
        _ => Err(ParseError::new(span.clone(), SetUpError::Stores)),
    }
}

/// One of a set-up's optional fields (`dir=`, `round=`, `starter=`) into
/// `setup`; `seen`: the keys given before it.
fn setup_field<'t>(
    setup: &mut Setup,
    field: &'t str,
    span: &Range<usize>,
    seen: &mut Vec<&'t str>,
) -> Result<(), ParseError> {
    let Some((key, value)) = field.split_once('=') else {
        return Err(ParseError::new(
            span.clone(),
            SetUpError::UnexpectedField {
                field: field.to_owned(),
            },
        ));
    };
    if seen.contains(&key) {
        return Err(ParseError::new(
            span.clone(),
            SetUpError::FieldTwice {
                key: key.to_owned(),
            },
        ));
    }
    seen.push(key);
    let value_span = span.start + key.len() + 1..span.end;
    match key {
        "dir" => {
            setup.south_dir = Some(match value {
                "ccw" => Dir::Ccw,
                "cw" => Dir::Cw,
                _ => {
                    return Err(ParseError::new(value_span, SetUpError::Dir));
                }
            });
        }
        "round" => {
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::new(value_span, SetUpError::RoundNotNumber));
            }
            setup.round = digits_u32(value, Number::Round, value_span)?;
        }
        "starter" => {
            setup.round_starter = Some(match value {
                "S" => Side::South,
                "N" => Side::North,
                _ => {
                    return Err(ParseError::new(value_span, SetUpError::Starter));
                }
            });
        }
        _ => {
            return Err(ParseError::new(
                span.clone(),
                SetUpError::UnknownField {
                    key: key.to_owned(),
                },
            ));
        }
    }
    Ok(())
}

fn setup_row(text: &str, base: usize) -> Result<Vec<Option<u32>>, ParseError> {
    let mut row = Vec::new();
    let mut at = base;
    for cell in text.split(',') {
        let span = at..at + cell.len();
        row.push(match cell {
            "x" => None,
            _ => match take_while1::<_, _, nom::error::Error<&str>>(|c: char| c.is_ascii_digit())(
                cell,
            ) {
                Ok(("", digits)) => Some(digits_u32(digits, Number::SeedCount, span)?),
                _ => {
                    return Err(ParseError::new(
                        span.start..span.end.max(span.start + 1),
                        SetUpError::InvalidHole {
                            cell: cell.to_owned(),
                        },
                    ));
                }
            },
        });
        at += cell.len() + 1;
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::StandardTags;

    /// The one-scan reading of the usual tag line reads what the general
    /// one reads, and leaves every other line to it.
    #[test]
    fn plain_tag_lines_read_as_the_general_reader_reads_them() {
        let lines = [
            "[Game \"olowuka\"]\n",
            "[Event \"\"]\n",
            "[A_1 \"x y\"]\r\n",
            "[Site \"é\"]",
            "[Round \"1\"]  \n",
            "[Date  \"2024\"]\n",
            "[Date\t\"2024\"]\n",
            "[South \"a \\\" b\"]\n",
            "[North \"x\" ]\n",
            "[North \"x\"] y\n",
            "[North \"x\"]\r\r\n",
            "[North \"x\n",
            "[North \"x\"",
            "[1x \"x\"]\n",
            "[x\"x\"]\n",
            "[Termination \"x\"]\n",
            "[Options \"\"]\n",
            "[Seed \"1\"]\n",
            "[Gamex \"1\"]\n",
            "[Game\"x\"]\n",
            "[Game \"x\"]",
            "[Site \"\"]",
            "[Date \"1\"",
            "[North  \"x\"]\n",
            "[Result x\"]\n",
            "[SetUp \"S 1/1 0-0\"]\n",
            "[Event_ \"e\"]\n",
            "[event \"e\"]\n",
            "[E \"e\"]\n",
            // Every known name on a plain line: the word's reading of the
            // name agrees with `TagName::of`.
            "[Site \"s\"]\n",
            "[Date \"d\"]\n",
            "[Round \"2\"]\n",
            "[South \"s\"]\n",
            "[North \"n\"]\n",
            "[Result \"1-0\"]\n",
            "[Termination \"no-moves\"]\n",
        ];
        for line in lines {
            let parser = || GameParser {
                full: line,
                rest: line,
            };
            let (mut plain, mut general) = (parser(), parser());
            let read = plain.plain_tag_line();
            let mut unescaped = String::new();
            let expected = general.any_tag_line(&mut unescaped);
            if let Some((read, kind)) = read {
                assert_eq!(kind, TagName::of(read.0), "{line:?}");
                assert_eq!(Ok(read), expected, "{line:?}");
                // The plain reading takes the line break as well.
                let after_break = (general.rest.strip_prefix('\n'))
                    .or_else(|| general.rest.strip_prefix("\r\n"))
                    .unwrap_or(general.rest);
                assert_eq!(plain.rest, after_break, "{line:?}");
            }
        }
        let plain = |line| {
            GameParser {
                full: line,
                rest: line,
            }
            .plain_tag_line()
            .is_some()
        };
        assert!(plain("[Game \"olowuka\"]\n") && plain("[Site \"é\"]"));
        assert!(!plain("[Round \"1\"]  \n") && !plain("[South \"a \\\" b\"]\n"));
    }

    /// Move numbers, read at once or by the general reading, leave the
    /// moves as they stand without them; one not closed by a dot is no
    /// number.
    #[test]
    fn move_numbers_in_any_spelling_leave_the_moves_alone() {
        let game = |movetext: &str| parse_game(&format!("[Game \"olowuka\"]\n\n{movetext}"));
        let bare = game("E e *\n").unwrap();
        for movetext in [
            "1. E e *\n",
            "1.E e *\n",
            "1. E 1... e *\n",
            "12. E 12... e *\n",
            "12.E\t12...e *\n",
            "123. E 123... e *\n",
            "1.\nE 1.\re *\n",
            "99. E e 100. *\n",
            "1. E e 2.  *",
            "1. E e 2. *",
            "1. E e 2.",
        ] {
            match game(movetext) {
                Ok(parsed) => assert_eq!(parsed.record.items, bare.record.items, "{movetext:?}"),
                Err(e) => assert!(movetext.ends_with('.'), "{movetext:?}: {e:?}"),
            }
        }
        for movetext in ["1 E e *\n", "12 E *\n", "1: E *\n", "1.. E *\n"] {
            assert!(game(movetext).is_err(), "{movetext:?}");
        }
    }

    #[test]
    fn every_standard_tag_has_a_bit_of_its_own() {
        let mut seen = SeenTags::new();
        let names = Record::TYPED_TAGS.iter().chain(&StandardTags::NAMES);
        for name in names.clone() {
            assert!(seen.insert(name), "{name} once");
            assert!(!seen.insert(name), "{name} twice");
        }
        assert_eq!(seen.len, 0, "no standard name went to the list");
        assert_eq!(seen.standard.count_ones() as usize, names.count());
        assert!(seen.saw_game());
    }

    #[test]
    fn setup_round_trip_fields() {
        let s = parse_setup("N 6,6,x/6,x,x 70-2 round=3 starter=S").unwrap();
        assert_eq!(s.south, vec![Some(6), Some(6), None]);
        assert_eq!(s.to_move, Side::North);
        assert_eq!(s.round, 3);
        assert_eq!(s.round_starter, Some(Side::South));
    }

    #[test]
    fn huge_number_is_an_error_with_its_span() {
        let text = format!("S 1{}/4 0-0", "0".repeat(40));
        let err = parse_setup(&text).unwrap_err();
        assert_eq!(err.span, 2..43);
        assert!(err.to_string().contains("too large"), "{err}");
    }

    #[test]
    fn the_first_error_in_the_text_is_the_one_reported() {
        // A bad tag value comes before a bad move: it is reported.
        let err = parse_game("[Game \"olowuka\"]\n[Result \"x\"]\n\n1. % *\n").unwrap_err();
        assert!(err.to_string().contains("result"), "{err}");
        assert_eq!(err.span, 26..27);
        // A tag given twice is found before the movetext is read.
        let err = parse_game("[Game \"olowuka\"]\n[Game \"olowuka\"]\n\n1. % *\n").unwrap_err();
        assert!(err.to_string().contains("given twice"), "{err}");
        // A bad value comes before a later tag's syntax error or repetition.
        for later in ["[Event \"e\"\n", "[Result \"*\"]\n"] {
            let text = format!("[Game \"olowuka\"]\n[Result \"x\"]\n{later}\n*\n");
            let err = parse_game(&text).unwrap_err();
            assert!(err.to_string().contains("invalid result"), "{err}");
        }
    }

    #[test]
    fn standard_tags_keep_their_slots() {
        let tags = StandardTags::default();
        assert!(tags.get("Event").is_some());
        assert!(tags.get("Foo").is_none());
    }

    /// Misspelt ids, end reasons and a misspelt `Game` tag name are
    /// reported with the word they were likely meant to be.
    #[test]
    fn near_misses_get_a_suggestion() {
        for (text, message) in [
            (
                "[game \"olowuka\"]\n\n*\n",
                "unknown tag `game` (did you mean `Game`? tag names are case-sensitive)",
            ),
            (
                "[Game \"olowuka\"]\n[Setup \"S 4,4,4,4,4,4/4,4,4,4,4,4 0-0\"]\n\n*\n",
                "unknown tag `Setup` (did you mean `SetUp`? tag names are case-sensitive)",
            ),
            (
                "[Game \"olowuka\"]\n[lapbudget \"5\"]\n\n*\n",
                "unknown tag `lapbudget` (did you mean `LapBudget`? tag names are case-sensitive)",
            ),
            (
                "[Game \"olowuka\"]\n[LAPBUDGET \"5\"]\n\n*\n",
                "unknown tag `LAPBUDGET` (did you mean `LapBudget`? tag names are case-sensitive)",
            ),
            ("[Game \"olowuka\"]\n[LapBudget \"5\"]\n\n*\n", ""),
            ("[Game \"olowuka\"]\n[event \"kept as text\"]\n\n*\n", ""),
            (
                "[Name \"olowuka\"]\n\n*\n",
                "missing [Game \"…\"] tag (did you mean `Game`, not `Name`?)",
            ),
            (
                "[Event \"e\"]\n[Gmae \"olowuka\"]\n\n*\n",
                "missing [Game \"…\"] tag (did you mean `Game`, not `Gmae`?)",
            ),
            (
                "[Event \"e\"]\n\n*\n",
                "missing [Game \"…\"] tag (e.g. [Game \"olowuka\"])",
            ),
            (
                "[Game \"olowuka\"]\n[Termination \"no-move\"]\n\n*\n",
                "unknown end reason `no-move` (did you mean `no-moves`?)",
            ),
            (
                "[Game \"rio-kadalys\"]\n\n*\n",
                "unknown game id `rio-kadalys` (did you mean `rio-kadalis`?)",
            ),
        ] {
            match parse_game(text) {
                Ok(_) => assert_eq!(message, "", "{text}"),
                Err(err) => assert_eq!(err.to_string(), message, "{text}"),
            }
        }
    }
}
