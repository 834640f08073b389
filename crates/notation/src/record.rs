//! A game record as values (tags, movetext items, result) and the byte
//! spans of its parts in the text it was parsed from.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use crate::annotation::Nag;
use crate::parse::byte_set;
use mancala_rules::{EndReason, GameId, Move, Options, Setup};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One game record. Parsing fills it from a game's text; `Display` prints the
/// canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The `Game` tag (required).
    pub game: GameId,
    /// The `Options` tag; empty means the standard rules.
    #[serde(default, skip_serializing_if = "no_options")]
    pub options: Options,
    /// Event, Site, Date, Round, South and North.
    #[serde(default)]
    pub tags: StandardTags,
    /// Every other tag, in the order given. Names are unique and none is a
    /// standard tag name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Tag>,
    /// The `SetUp` tag: the game starts from this position instead of the
    /// standard start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// Moves, round markers and comments in order.
    #[serde(default)]
    pub items: Vec<Item>,
    /// The result that closes the movetext (and the `Result` tag).
    pub result: GameResult,
    /// The `Termination` tag: why the game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<EndReason>,
}

impl Record {
    /// An empty record of `game`, unfinished.
    #[must_use]
    pub fn new(game: GameId) -> Record {
        Record {
            game,
            options: Options::new(),
            tags: StandardTags::default(),
            extra: Vec::new(),
            setup: None,
            items: Vec::new(),
            result: GameResult::Unfinished,
            termination: None,
        }
    }

    /// The moves of the main line, without markers, comments, NAGs and
    /// variations.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.items.iter().filter_map(|item| match item {
            Item::Move { mv, .. } => Some(*mv),
            _ => None,
        })
    }

    /// Every item, those inside variations too, in the order of the text,
    /// with how deep in variations each stands (0: the main line). A
    /// variation comes before its items. Spans line up: the items at
    /// depth 0 with [`Spans::items`], the others with [`Spans::inner`].
    pub fn walk(&self) -> impl Iterator<Item = (usize, &Item)> + '_ {
        let mut stack = vec![self.items.iter()];
        std::iter::from_fn(move || {
            loop {
                let depth = stack.len().checked_sub(1)?;
                match stack.last_mut()?.next() {
                    Some(item) => {
                        if let Item::Variation { variation } = item {
                            stack.push(variation.iter());
                        }
                        return Some((depth, item));
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        })
    }

    /// The value of a tag by name, standard or extra.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        if let Some(slot) = self.tags.get(name) {
            return slot.as_deref();
        }
        self.extra
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Tags with a typed field of their own: [`Record::set_tag`] refuses them.
    pub const TYPED_TAGS: [&'static str; 5] = ["Game", "Options", "SetUp", "Result", "Termination"];

    /// The plain tag the tools read back (spec/notation.md §3.3): the lap
    /// budget a game was played under.
    pub const LAP_BUDGET_TAG: &'static str = "LapBudget";

    /// The tags the tools read: the typed ones and [`Record::LAP_BUDGET_TAG`].
    pub const READ_TAGS: [&'static str; 6] = [
        "Game",
        "Options",
        "SetUp",
        "Result",
        "Termination",
        Record::LAP_BUDGET_TAG,
    ];

    /// The tag the tools read ([`Record::READ_TAGS`]) that `name` spells
    /// in other case (`Setup`, `game`, `lapbudget`): the reader refuses
    /// such a name, which would leave the record read without the tag
    /// that was meant.
    #[must_use]
    pub fn read_tag_in_other_case(name: &str) -> Option<&'static str> {
        // Lengths first: every tag the reader does not know asks, and
        // hardly any has a read tag's length and letters.
        Record::READ_TAGS.into_iter().find(|read| {
            read.len() == name.len() && *read != name && read.eq_ignore_ascii_case(name)
        })
    }

    /// Sets a tag by name: a standard one in its slot, any other in `extra`
    /// (replacing a tag of the same name). Tags with a typed field
    /// ([`Record::TYPED_TAGS`]), names that are not tag names (letters,
    /// digits and `_`, starting with a letter) and values with line breaks
    /// are refused, so that the record always prints and parses back.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) -> Result<(), SetTagError> {
        let value = value.into();
        let refused = |reason| {
            Err(SetTagError {
                name: name.to_owned(),
                reason,
            })
        };
        if !is_tag_name(name) || Record::TYPED_TAGS.contains(&name) {
            return refused(SetTagRefusal::NotPlain);
        }
        if value.contains(['\n', '\r']) {
            return refused(SetTagRefusal::SpansLines);
        }
        // It would not parse back: the reader refuses it as a misspelling.
        if let Some(read) = Record::read_tag_in_other_case(name) {
            return refused(SetTagRefusal::OtherCaseOf(read));
        }
        if let Some(slot) = self.tags.get_mut(name) {
            *slot = Some(value);
        } else if let Some(tag) = self.extra.iter_mut().find(|t| t.name == name) {
            tag.value = value;
        } else {
            self.extra.push(Tag {
                name: name.to_owned(),
                value,
            });
        }
        Ok(())
    }
}

/// The standard descriptive tags, printed in this order after `Game` and
/// `Options`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandardTags {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The round of the event (not a round of a match: those are `R2`
    /// markers in the movetext).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub north: Option<String>,
}

impl StandardTags {
    /// Tag names in canonical order.
    pub const NAMES: [&'static str; 6] = ["Event", "Site", "Date", "Round", "South", "North"];

    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Option<String>> {
        Some(match name {
            "Event" => &self.event,
            "Site" => &self.site,
            "Date" => &self.date,
            "Round" => &self.round,
            "South" => &self.south,
            "North" => &self.north,
            _ => return None,
        })
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Option<String>> {
        Some(match name {
            "Event" => &mut self.event,
            "Site" => &mut self.site,
            "Date" => &mut self.date,
            "Round" => &mut self.round,
            "South" => &mut self.south,
            "North" => &mut self.north,
            _ => return None,
        })
    }
}

/// Whether `name` is a tag name: letters, digits and `_`, starting with a
/// letter.
pub(crate) fn is_tag_name(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) && name.bytes().all(is_name_byte)
}

/// Whether `b` may stand in a tag name: a letter, digit or `_`.
#[inline(always)]
pub(crate) fn is_name_byte(b: u8) -> bool {
    NAME_BYTES[usize::from(b)]
}

/// [`is_name_byte`] as a table: every byte of every tag line asks.
const NAME_BYTES: [bool; 256] =
    byte_set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

/// Bytes a tag value cannot hold as they are: the quote and backslash are
/// escaped, and a line break cannot stand inside a tag line. Values without
/// them are read and written as they stand.
#[inline(always)]
pub(crate) fn special_in_tag_value(b: u8) -> bool {
    TAG_VALUE_SPECIALS[usize::from(b)]
}

/// [`special_in_tag_value`] as a table: every byte of every tag value asks.
const TAG_VALUE_SPECIALS: [bool; 256] = byte_set(b"\"\\\n\r");

/// Where the first byte of `bytes` that [`special_in_tag_value`] stands,
/// if any. Eight bytes at a time: every tag value is scanned, and a byte
/// at a time costs twice as much. A byte equal to `c` leaves a zero byte
/// in the word xor'ed with `c` in every byte, and the lowest byte that
/// `zeros` flags is the first zero (a borrow only runs upwards from one).
#[inline(always)]
pub(crate) fn first_special_in_tag_value(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let zeros = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut at = 0;
    while let Some(word) = bytes[at..].first_chunk::<8>() {
        let x = u64::from_le_bytes(*word);
        let found = zeros(x ^ (ONES * u64::from(b'"')))
            | zeros(x ^ (ONES * u64::from(b'\\')))
            | zeros(x ^ (ONES * u64::from(b'\n')))
            | zeros(x ^ (ONES * u64::from(b'\r')));
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let rest = bytes[at..].iter().position(|&b| special_in_tag_value(b))?;
    Some(at + rest)
}

/// A tag the notation does not interpret; kept as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tag {
    pub name: String,
    pub value: String,
}

/// One element of the movetext.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Item {
    /// A move, with the seeds it captured when the record states it (`F+11`).
    Move {
        #[serde(rename = "move")]
        mv: Move,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        captured: Option<u32>,
    },
    /// The start of a round of a match (`R2`).
    Round { round: u32 },
    /// `{…}`: text kept as written, without the braces.
    Comment { comment: String },
    /// A NAG (`!`, `?`, `$14`): an annotation of the move before it.
    Nag { nag: Nag },
    /// `( … )`: another line, branching from the position before the move
    /// it follows (the last move before it in the same line). Its items
    /// are those of a movetext: moves with their NAGs and comments, round
    /// markers, variations of its own.
    Variation { variation: Vec<Item> },
}

/// How the record says the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// South's and North's final seeds: `30-18`.
    Score(u32, u32),
    /// `*`: the game is not finished.
    Unfinished,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Score(s, n) => write!(f, "{s}-{n}"),
            GameResult::Unfinished => f.write_str("*"),
        }
    }
}

/// Text that is not a [`GameResult`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseResultError {
    /// Neither `*` nor two numbers joined by `-` (the text, to be quoted).
    Invalid(String),
    /// A score (these digits) over `u32::MAX`.
    TooLarge(String),
}

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseResultError::Invalid(s) => write!(
                f,
                "invalid result `{}` (expected `*` or a score such as `30-18`)",
                mancala_prose::shorten(s)
            ),
            ParseResultError::TooLarge(digits) => write!(f, "score `{digits}` is too large"),
        }
    }
}

impl std::error::Error for ParseResultError {}

/// Why [`Record::set_tag`] refused a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetTagError {
    /// The tag's name, as given.
    pub name: String,
    pub reason: SetTagRefusal,
}

/// What is wrong with a tag [`Record::set_tag`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetTagRefusal {
    /// Not a tag name, or one with a typed field ([`Record::TYPED_TAGS`]).
    NotPlain,
    /// The value holds a line break.
    SpansLines,
    /// The name is this tag the reader reads, in other case.
    OtherCaseOf(&'static str),
}

impl fmt::Display for SetTagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match self.reason {
            SetTagRefusal::NotPlain => write!(f, "`{name}` cannot be set as a plain tag"),
            SetTagRefusal::SpansLines => write!(f, "the value of tag `{name}` spans lines"),
            SetTagRefusal::OtherCaseOf(read) => write!(f, "`{name}` is `{read}` in other case"),
        }
    }
}

impl std::error::Error for SetTagError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        if s == "*" {
            return Ok(GameResult::Unfinished);
        }
        let bad = || ParseResultError::Invalid(s.to_owned());
        // Every record's Result tag is read here: the dash found as a
        // byte, not by a pattern search, and the digits' value straight.
        let dash = s.bytes().position(|b| b == b'-').ok_or_else(bad)?;
        let (south, north) = (&s[..dash], &s[dash + 1..]);
        let num = |t: &str| {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            crate::parse::digits_value(t.as_bytes())
                .ok_or_else(|| ParseResultError::TooLarge(t.to_owned()))
        };
        Ok(GameResult::Score(num(south)?, num(north)?))
    }
}

impl Serialize for GameResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        from_str(d)
    }
}

fn from_str<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: fmt::Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// Where the parts of a record stand in its text, as byte ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// The whole tag section (empty at 0 when there are no tags).
    pub header: Range<usize>,
    /// Each tag line, by name (the usual names borrowed, not allocated).
    pub tags: Vec<(Cow<'static, str>, Range<usize>)>,
    /// The value of the `Options` tag (inside the quotes).
    pub options: Option<Range<usize>>,
    /// The value of the `SetUp` tag (inside the quotes).
    pub setup: Option<Range<usize>>,
    /// One span per item of [`Record::items`] (a variation's from its `(`
    /// to its `)`).
    pub items: Vec<Range<usize>>,
    /// One span per item inside variations, in the order of the text: a
    /// variation's items follow its own span (nested variations included),
    /// as [`Record::walk`] visits them.
    pub inner: Vec<Range<usize>>,
    /// The result token closing the movetext.
    pub result: Range<usize>,
}

impl Spans {
    /// The span of a tag line.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<Range<usize>> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.clone())
    }
}

/// A record with the spans of its parts in the text it was parsed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGame {
    pub record: Record,
    pub spans: Spans,
}

fn no_options(options: &Options) -> bool {
    options.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores of short and long numbers, up to `u32::MAX`, and every
    /// error.
    #[test]
    fn results_are_read_with_their_errors() {
        let bad = |s: &str| Err(ParseResultError::Invalid(s.to_owned()));
        for (text, read) in [
            ("*", Ok(GameResult::Unfinished)),
            ("20-28", Ok(GameResult::Score(20, 28))),
            ("0-0", Ok(GameResult::Score(0, 0))),
            ("999999999-1", Ok(GameResult::Score(999_999_999, 1))),
            ("4294967295-01", Ok(GameResult::Score(u32::MAX, 1))),
            (
                "4294967296-1",
                Err(ParseResultError::TooLarge("4294967296".to_owned())),
            ),
            (
                "1-4294967296",
                Err(ParseResultError::TooLarge("4294967296".to_owned())),
            ),
            ("1-", bad("1-")),
            ("-1", bad("-1")),
            ("1-2-3", bad("1-2-3")),
            ("+1-2", bad("+1-2")),
            ("1_2", bad("1_2")),
            ("", bad("")),
        ] {
            assert_eq!(text.parse::<GameResult>(), read, "{text}");
        }
        assert_eq!(
            "1_2".parse::<GameResult>().unwrap_err().to_string(),
            "invalid result `1_2` (expected `*` or a score such as `30-18`)"
        );
        assert_eq!(
            ParseResultError::TooLarge("4294967296".to_owned()).to_string(),
            "score `4294967296` is too large"
        );
    }

    /// The word-at-a-time scan finds what a byte-at-a-time one finds,
    /// wherever the byte stands in a word and whatever follows it.
    #[test]
    fn the_first_special_byte_is_found_in_any_place() {
        for len in 0..20 {
            for at in 0..=len {
                for special in [b'"', b'\\', b'\n', b'\r', b'x'] {
                    let mut bytes = vec![b'a'; len];
                    // Bytes next to the specials, and high ones.
                    for (i, b) in bytes.iter_mut().enumerate() {
                        *b = [b'a', b'#', b'[', 0xC3, b'!', b'\x0B'][i % 6];
                    }
                    if at < len {
                        bytes[at] = special;
                        // A later special never wins over the first.
                        bytes.extend_from_slice(b"\"\\\n\r");
                    }
                    let slow = bytes.iter().position(|&b| special_in_tag_value(b));
                    assert_eq!(first_special_in_tag_value(&bytes), slow, "{bytes:?}");
                }
            }
        }
    }
}
