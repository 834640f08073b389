//! The JSON record form (`spec/json.md`) as input: telling it from MGN by
//! a stream's first bytes, cutting a stream of JSON values into one text
//! per record, and reading a record's JSON text into a [`Visitor`] as
//! [`crate::visit_game`] reads MGN, with byte spans into the JSON text, so
//! that the check and the diagnostics treat both forms alike.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, BufRead};
use std::ops::{ControlFlow, Range};

use mancala_rules::{EndReason, GameId, Move, Options, Setup};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::annotation::Nag;
use crate::error::{
    ExtraTagRefusal, JsonError, JsonValue, MovetextError, ParseError, ParseErrorKind,
};
use crate::parse::{MAX_VARIATION_DEPTH, tag_line_in_comment, visit_game};
use crate::reader::{DEFAULT_MAX_GAME_BYTES, GameText};
use crate::record::{GameResult, Item, Record, StandardTags, is_tag_name};
use crate::visitor::{Skip, TagValue, Visitor};

/// The two forms a record stream may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The notation's text (`spec/notation.md`).
    Mgn,
    /// JSON records (`spec/json.md`), one value after another.
    Json,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Form {
    /// The form of a stream that begins with `start`: JSON when its first
    /// non-blank character is `{` and a quoted key and `:` follow (or `}`),
    /// so that an MGN file opening with a `{…}` remark stays MGN. `None`
    /// when `start` is too short to tell and more may come (`at_end` is
    /// false); at the end, what cannot be told is MGN.
    #[must_use]
    pub fn detect(start: &[u8], at_end: bool) -> Option<Form> {
        let more = || if at_end { Some(Form::Mgn) } else { None };
        let text = match start.strip_prefix(BOM) {
            Some(rest) => rest,
            None if start.len() < BOM.len() && BOM.starts_with(start) && !start.is_empty() => {
                return more();
            }
            None => start,
        };
        let skip = |at: usize| {
            at + text[at..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count()
        };
        let at = skip(0);
        match text.get(at) {
            None => return more(),
            Some(b'{') => {}
            Some(_) => return Some(Form::Mgn),
        }
        let at = skip(at + 1);
        match text.get(at) {
            None => return more(),
            Some(b'}') => return Some(Form::Json),
            Some(b'"') => {}
            Some(_) => return Some(Form::Mgn),
        }
        let mut i = at + 1;
        loop {
            match text.get(i) {
                None => return more(),
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(b'\n') => return Some(Form::Mgn),
                Some(_) => i += 1,
            }
        }
        match text.get(skip(i + 1)) {
            None => more(),
            Some(b':') => Some(Form::Json),
            Some(_) => Some(Form::Mgn),
        }
    }

    /// Reads one game's text in this form into `visitor`, as
    /// [`visit_game`] does for MGN ([`visit_json_game`] for JSON).
    pub fn visit<V: Visitor>(
        self,
        text: &str,
        visitor: &mut V,
    ) -> Result<ControlFlow<()>, ParseError> {
        match self {
            Form::Mgn => visit_game(text, visitor),
            Form::Json => visit_json_game(text, visitor),
        }
    }
}

/// Cuts a stream of JSON values into one [`GameText`] per value: NDJSON as
/// the tools write it, or values over several lines as `jq` prints them.
/// A value ends where its braces close; one that never closes ends before
/// the next line that starts with `{` in its first column (where `jq` and
/// the tools start a record), so that a broken record does not swallow
/// the next. Anything else at the top level runs to the end of its line.
/// Memory stays bounded: at most the limit is kept of a value.
#[derive(Debug)]
pub struct JsonReader<R> {
    inner: R,
    max_value_bytes: usize,
    /// The line and byte offset of the next byte.
    line: u64,
    offset: u64,
    /// The next byte is the first of its line.
    line_start: bool,
    started: bool,
    done: bool,
}

impl<R: BufRead> JsonReader<R> {
    pub fn new(inner: R) -> JsonReader<R> {
        JsonReader::with_limit(inner, DEFAULT_MAX_GAME_BYTES)
    }

    /// A reader that keeps at most `max_value_bytes` of any value.
    pub fn with_limit(inner: R, max_value_bytes: usize) -> JsonReader<R> {
        JsonReader {
            inner,
            max_value_bytes,
            line: 1,
            offset: 0,
            line_start: true,
            started: false,
            done: false,
        }
    }

    fn next_value(&mut self) -> io::Result<Option<GameText>> {
        if !self.started {
            self.started = true;
            // A byte-order mark is not text (it comes whole in the first
            // read of any real input).
            let bom = loop {
                match self.inner.fill_buf() {
                    Ok(buf) => break buf.starts_with(BOM),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            if bom {
                self.inner.consume(BOM.len());
                self.offset = BOM.len() as u64;
            }
        }
        let mut value: Option<GameText> = None;
        let (mut depth, mut in_string, mut escaped, mut scalar) = (0usize, false, false, false);
        loop {
            let limit = self.max_value_bytes;
            let (mut line, mut offset, mut line_start) = (self.line, self.offset, self.line_start);
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(value);
            }
            let mut used = 0;
            let mut complete = false;
            for &b in buf {
                match &mut value {
                    None if b.is_ascii_whitespace() => {}
                    None => {
                        value = Some(GameText {
                            bytes: Vec::new(),
                            first_line: line,
                            offset,
                            len: 0,
                        });
                        scalar = !matches!(b, b'{' | b'[');
                    }
                    Some(_) if line_start && b == b'{' && depth > 0 => {
                        // An unclosed value, and a record starts here.
                        complete = true;
                        break;
                    }
                    Some(_) => {}
                }
                used += 1;
                offset += 1;
                line_start = b == b'\n';
                if b == b'\n' {
                    line += 1;
                }
                let Some(text) = &mut value else { continue };
                if text.bytes.len() < limit {
                    text.bytes.push(b);
                }
                text.len += 1;
                if in_string {
                    match b {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        // No string spans lines: it is broken; the parse says so.
                        b'"' | b'\n' => in_string = false,
                        _ => {}
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if (scalar && b == b'\n') || (!scalar && depth == 0) {
                    complete = true;
                    break;
                }
            }
            self.inner.consume(used);
            (self.line, self.offset, self.line_start) = (line, offset, line_start);
            if complete {
                if let Some(text) = &mut value {
                    // A value on a line of its own ends with its line break.
                    while text.bytes.last().is_some_and(u8::is_ascii_whitespace) {
                        text.bytes.pop();
                        text.len -= 1;
                    }
                }
                return Ok(value);
            }
        }
    }
}

impl<R: BufRead> Iterator for JsonReader<R> {
    type Item = io::Result<GameText>;

    fn next(&mut self) -> Option<io::Result<GameText>> {
        if self.done {
            return None;
        }
        let next = self.next_value().transpose();
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}

/// A record's keys as they stand in its text, each read and checked in
/// turn (unknown keys are skipped).
#[derive(Deserialize)]
struct RawRecord<'a> {
    #[serde(borrow, default)]
    game: Option<&'a RawValue>,
    #[serde(borrow, default)]
    options: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tags: Option<&'a RawValue>,
    #[serde(borrow, default)]
    extra: Option<&'a RawValue>,
    #[serde(borrow, default)]
    setup: Option<&'a RawValue>,
    /// Each item where it stands: one pass reads the record and finds them.
    #[serde(borrow, default)]
    items: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    termination: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawTags<'a> {
    #[serde(borrow, default)]
    event: Option<&'a RawValue>,
    #[serde(borrow, default)]
    site: Option<&'a RawValue>,
    #[serde(borrow, default)]
    date: Option<&'a RawValue>,
    #[serde(borrow, default)]
    round: Option<&'a RawValue>,
    #[serde(borrow, default)]
    south: Option<&'a RawValue>,
    #[serde(borrow, default)]
    north: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawTag<'a> {
    name: String,
    #[serde(borrow)]
    value: &'a RawValue,
}

#[derive(Deserialize)]
struct RawItem<'a> {
    /// Borrowed: a move's text is read without a copy.
    #[serde(rename = "move", borrow, default)]
    mv: Option<Cow<'a, str>>,
    #[serde(default)]
    captured: Option<u32>,
    #[serde(default)]
    round: Option<u32>,
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    nag: Option<Nag>,
    #[serde(borrow, default)]
    variation: Option<Vec<&'a RawValue>>,
}

/// One element of `items`, as read: an item of the record, or a NAG or a
/// variation, which the visitor gets through their own methods.
enum JsonItem<'a> {
    Item(Item),
    Nag(Nag),
    Variation(Vec<&'a RawValue>),
}

/// Reads one JSON record's text (as cut by [`JsonReader`]) into `visitor`
/// in the order MGN would give it: `Game`, `Options`, the standard tags in
/// their order, the other tags, `SetUp`, `Termination`, then the items and
/// the result. Spans point into the JSON text (a tag's line and value are
/// both its value's). Everything MGN could not say is refused as a syntax
/// error, so that a record read from JSON always prints as MGN that reads
/// back: tag values with line breaks, bad or repeated tag names, a `}` in
/// a comment, a comment line that starts with `[`, a round marker below 2.
pub fn visit_json_game<V: Visitor>(
    text: &str,
    visitor: &mut V,
) -> Result<ControlFlow<()>, ParseError> {
    let json = Json { text };
    let first = text.len() - text.trim_start().len();
    if !text[first..].starts_with('{') {
        return Err(json.error(first..first + 1, JsonError::NotAnObject));
    }
    let raw: RawRecord<'_> =
        serde_json::from_str(text).map_err(|e| json.serde_error(e, 0, None, JsonValue::Record))?;
    let whole = first..first + 1;
    let Some(game_raw) = raw.game else {
        return Err(json.error(whole, JsonError::NoGame));
    };
    let Some(result_raw) = raw.result else {
        return Err(json.error(whole, JsonError::NoResult));
    };
    let game: GameId = json.field(game_raw, || JsonValue::Key("game"))?;
    if json
        .tags(&raw, game, json.span(game_raw), visitor)?
        .is_break()
    {
        return Ok(ControlFlow::Break(()));
    }
    let result: GameResult = json.field(result_raw, || JsonValue::Key("result"))?;
    let items = raw.items.unwrap_or_default();
    let header_end = items.first().map_or(0, |item| json.span(item).start);
    if visitor.movetext(0..header_end).is_break() {
        return Ok(ControlFlow::Break(()));
    }
    if json.line(&items, visitor, 0, false)?.is_break() {
        return Ok(ControlFlow::Break(()));
    }
    visitor.result(result, json.span(result_raw));
    Ok(ControlFlow::Continue(()))
}

/// Why the name of a tag of `"extra"` is refused, if it is; `seen`: the
/// names before it.
fn extra_tag_refusal(name: &str, seen: &mut HashSet<String>) -> Option<ExtraTagRefusal> {
    if !is_tag_name(name) {
        Some(ExtraTagRefusal::NotAName)
    } else if Record::TYPED_TAGS.contains(&name) || StandardTags::NAMES.contains(&name) {
        Some(ExtraTagRefusal::HasOwnKey)
    } else if let Some(read) = Record::read_tag_in_other_case(name) {
        // MGN refuses it as a misspelling, so the record written
        // for it would not read back.
        Some(ExtraTagRefusal::OtherCase {
            meant: read,
            own_key: Record::TYPED_TAGS.contains(&read),
        })
    } else if !seen.insert(name.to_owned()) {
        Some(ExtraTagRefusal::Twice)
    } else {
        None
    }
}

/// A record's JSON text, for spans and errors.
struct Json<'t> {
    text: &'t str,
}

impl Json<'_> {
    /// The record's tags, in the order MGN would give them: `game` (whose
    /// value stands at `game_span`), `Options`, the standard tags, the
    /// other tags, `SetUp`, `Termination`.
    fn tags<V: Visitor>(
        &self,
        raw: &RawRecord<'_>,
        game: GameId,
        game_span: Range<usize>,
        visitor: &mut V,
    ) -> Result<ControlFlow<()>, ParseError> {
        macro_rules! tag {
            ($value:expr, $span:expr) => {
                let span = $span;
                if visitor.tag($value, span.clone(), span).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            };
        }
        tag!(TagValue::Game(game), game_span);
        if let Some(raw) = raw.options {
            let options: Options = self.field(raw, || JsonValue::Key("options"))?;
            tag!(TagValue::Options(options), self.inside(raw));
        }
        if let Some(tags) = raw.tags {
            let tags: RawTags<'_> = self.field(tags, || JsonValue::Key("tags"))?;
            let values = [
                tags.event, tags.site, tags.date, tags.round, tags.south, tags.north,
            ];
            for (name, raw) in StandardTags::NAMES.into_iter().zip(values) {
                let Some(raw) = raw else { continue };
                let value = self.tag_value(raw, name)?;
                tag!(
                    TagValue::Text {
                        name,
                        value: value.into()
                    },
                    self.inside(raw)
                );
            }
        }
        if let Some(extra) = raw.extra {
            let entries: Vec<&RawValue> = self.field(extra, || JsonValue::Key("extra"))?;
            let mut seen = HashSet::new();
            for entry in entries {
                let tag: RawTag<'_> = self.field(entry, || JsonValue::ExtraTag)?;
                let name = tag.name.as_str();
                let refused = extra_tag_refusal(name, &mut seen);
                if let Some(why) = refused {
                    return Err(self.error(
                        self.span(entry),
                        JsonError::ExtraTagName {
                            name: name.to_owned(),
                            why,
                        },
                    ));
                }
                let value = self.tag_value(tag.value, name)?;
                tag!(
                    TagValue::Text {
                        name,
                        value: value.into()
                    },
                    self.inside(tag.value)
                );
            }
        }
        if let Some(raw) = raw.setup {
            let setup: Setup = self.field(raw, || JsonValue::Key("setup"))?;
            tag!(TagValue::SetUp(setup), self.span(raw));
        }
        if let Some(raw) = raw.termination {
            let reason: EndReason = self.field(raw, || JsonValue::Key("termination"))?;
            tag!(TagValue::Termination(reason), self.span(raw));
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Where a value borrowed from the text stands in it.
    fn span(&self, raw: &RawValue) -> Range<usize> {
        let start = (raw.get().as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        start..start + raw.get().len()
    }

    /// A string value's span inside its quotes (the whole value otherwise).
    fn inside(&self, raw: &RawValue) -> Range<usize> {
        let span = self.span(raw);
        if raw.get().starts_with('"') && span.len() >= 2 {
            span.start + 1..span.end - 1
        } else {
            span
        }
    }

    fn error(&self, span: Range<usize>, kind: impl Into<ParseErrorKind>) -> ParseError {
        let start = floor_char_boundary(self.text, span.start);
        let end = ceil_char_boundary(self.text, span.end.max(start));
        ParseError::new(start..end, kind)
    }

    /// Reads one value of the record, `what` naming it in the error (made
    /// only for an error: a tag's name is copied into it).
    fn field<'de, T: Deserialize<'de>>(
        &self,
        raw: &'de RawValue,
        what: impl FnOnce() -> JsonValue,
    ) -> Result<T, ParseError> {
        let span = self.span(raw);
        serde_json::from_str(raw.get())
            .map_err(|e| self.serde_error(e, span.start, Some(span.clone()), what()))
    }

    /// A tag's value: a string on one line.
    fn tag_value(&self, raw: &RawValue, name: &str) -> Result<String, ParseError> {
        let value: String = self.field(raw, || JsonValue::Tag(name.to_owned()))?;
        if value.contains(['\n', '\r']) {
            return Err(self.error(
                self.inside(raw),
                JsonError::TagSpansLines {
                    name: name.to_owned(),
                },
            ));
        }
        Ok(value)
    }

    /// The items of a line (`items`, or a variation's at `depth`) handed
    /// to `visitor` (none when `hidden`: it passed over a variation around
    /// them), with MGN's rules of where NAGs and variations stand (after a
    /// move of their line, with only NAGs, comments and variations
    /// between), that a variation holds a move, and how deep they nest.
    fn line<V: Visitor>(
        &self,
        items: &[&RawValue],
        visitor: &mut V,
        depth: usize,
        hidden: bool,
    ) -> Result<ControlFlow<(), bool>, ParseError> {
        let mut after_move = false;
        let mut has_move = false;
        for raw in items {
            let span = self.span(raw);
            let flow = match self.item(raw)? {
                JsonItem::Item(item) => {
                    match item {
                        Item::Move { .. } => (after_move, has_move) = (true, true),
                        Item::Round { .. } => after_move = false,
                        _ => {}
                    }
                    if hidden {
                        continue;
                    }
                    visitor.item(item, span)
                }
                JsonItem::Nag(nag) => {
                    if !after_move {
                        return Err(self.error(span, MovetextError::NagNotAfterMove));
                    }
                    if hidden {
                        continue;
                    }
                    visitor.nag(nag, span)
                }
                JsonItem::Variation(inner) => {
                    if !after_move {
                        return Err(self.error(span, MovetextError::VariationNotAfterMove));
                    }
                    if depth == MAX_VARIATION_DEPTH {
                        return Err(self.error(span, MovetextError::NestedTooDeep));
                    }
                    let open = span.start..span.start + 1;
                    let close = span.end.saturating_sub(1)..span.end;
                    let skip = hidden
                        || match visitor.begin_variation(open) {
                            ControlFlow::Break(()) => return Ok(ControlFlow::Break(())),
                            ControlFlow::Continue(Skip(skip)) => skip,
                        };
                    let ControlFlow::Continue(holds_a_move) =
                        self.line(&inner, visitor, depth + 1, skip)?
                    else {
                        return Ok(ControlFlow::Break(()));
                    };
                    // Checked after its items, whose errors come first in
                    // the text.
                    if !holds_a_move {
                        return Err(self.error(span, MovetextError::EmptyVariation));
                    }
                    if skip {
                        continue;
                    }
                    visitor.end_variation(close)
                }
            };
            if flow.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(has_move))
    }

    /// One element of `items`.
    fn item<'r>(&self, raw: &'r RawValue) -> Result<JsonItem<'r>, ParseError> {
        let span = self.span(raw);
        let item: RawItem<'r> = self.field(raw, || JsonValue::Item)?;
        if let Some(mv) = item.mv {
            let mv: Move = mv
                .parse()
                .map_err(|e| self.error(span.clone(), JsonError::Move(e)))?;
            return Ok(JsonItem::Item(Item::Move {
                mv,
                captured: item.captured,
            }));
        }
        if let Some(round) = item.round {
            if round < 2 {
                return Err(self.error(span, JsonError::RoundBelowTwo));
            }
            return Ok(JsonItem::Item(Item::Round { round }));
        }
        if let Some(comment) = item.comment {
            // As MGN reads a comment's line breaks.
            let comment = comment.replace("\r\n", "\n").replace('\r', "\n");
            if comment.contains('}') {
                return Err(self.error(span, JsonError::CommentWithBrace));
            }
            if tag_line_in_comment(comment.as_bytes()).is_some() {
                return Err(self.error(span, JsonError::TagLineInComment));
            }
            return Ok(JsonItem::Item(Item::Comment { comment }));
        }
        if let Some(nag) = item.nag {
            return Ok(JsonItem::Nag(nag));
        }
        if let Some(variation) = item.variation {
            return Ok(JsonItem::Variation(variation));
        }
        Err(self.error(span, JsonError::UnknownItem))
    }

    /// serde_json's error in the value at `base` of the text, located in
    /// the text: where the JSON breaks, or for a value of the wrong kind
    /// (`value`, when given) the whole value.
    fn serde_error(
        &self,
        e: serde_json::Error,
        base: usize,
        value: Option<Range<usize>>,
        what: JsonValue,
    ) -> ParseError {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full);
        let at = if e.line() == 0 {
            base
        } else {
            let value = &self.text[base..];
            let mut line_start = 0;
            for _ in 1..e.line() {
                match value[line_start..].find('\n') {
                    Some(i) => line_start += i + 1,
                    None => break,
                }
            }
            // Columns count bytes from 1, at the byte the error is found.
            (base + line_start + e.column().saturating_sub(1)).min(self.text.len())
        };
        let span = match value {
            Some(value) if e.is_data() => value,
            _ if e.is_eof() => {
                let end = self.text.trim_end().len().saturating_sub(1);
                end..end + 1
            }
            _ => at..at + 1,
        };
        self.error(
            span,
            JsonError::Value {
                value: what,
                message: message.to_owned(),
            },
        )
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// A record read from its JSON text, with spans into it.
pub fn parse_json_game(text: &str) -> Result<crate::ParsedGame, ParseError> {
    let mut builder = crate::RecordBuilder::new(text);
    let _ = visit_json_game(text, &mut builder)?;
    Ok(builder.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of a JSON stream, as cut.
    fn values(text: &str) -> Vec<GameText> {
        JsonReader::new(text.as_bytes())
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn detects_json_by_an_object_with_a_key() {
        let cases: [(&[u8], Option<Form>); 11] = [
            (b"{\"game\":\"olowuka\"}", Some(Form::Json)),
            (b"\n  {\n  \"game\": 1", Some(Form::Json)),
            (b"\xEF\xBB\xBF{}", Some(Form::Json)),
            (b"[Game \"olowuka\"]", Some(Form::Mgn)),
            (b"{a remark}\n[Game \"olowuka\"]", Some(Form::Mgn)),
            (b"{\"quoted\" remark}", Some(Form::Mgn)),
            (b"{\"ga", None),
            (b"   ", None),
            (b"\xEF\xBB", None),
            (b"", None),
            (b"{\"key\\\"", None),
        ];
        for (start, form) in cases {
            assert_eq!(Form::detect(start, false), form, "{start:?}");
        }
        assert_eq!(Form::detect(b"{\"ga", true), Some(Form::Mgn));
        assert_eq!(Form::detect(b"", true), Some(Form::Mgn));
    }

    #[test]
    fn cuts_ndjson_and_pretty_values_with_their_lines() {
        let text =
            "{\"a\":1}\n{\"b\":\"}{\"} {\"c\":[1,\n2]}\n\n{\n  \"d\": {\n    \"e\": 1\n  }\n}\n";
        let got: Vec<(String, u64, u64)> = values(text)
            .into_iter()
            .map(|v| (String::from_utf8(v.bytes).unwrap(), v.first_line, v.offset))
            .collect();
        assert_eq!(
            got,
            [
                ("{\"a\":1}".to_owned(), 1, 0),
                ("{\"b\":\"}{\"}".to_owned(), 2, 8),
                ("{\"c\":[1,\n2]}".to_owned(), 2, 19),
                ("{\n  \"d\": {\n    \"e\": 1\n  }\n}".to_owned(), 5, 33),
            ]
        );
    }

    #[test]
    fn an_unclosed_value_ends_before_the_next_record() {
        let text = "{\"game\":\"olowuka\",\"items\":[\n{\"game\":\"olowuka\",\"result\":\"*\"}\nnot json\n";
        let got: Vec<String> = values(text)
            .into_iter()
            .map(|v| String::from_utf8(v.bytes).unwrap())
            .collect();
        assert_eq!(
            got,
            [
                "{\"game\":\"olowuka\",\"items\":[",
                "{\"game\":\"olowuka\",\"result\":\"*\"}",
                "not json"
            ]
        );
    }

    #[test]
    fn a_long_value_is_cut_at_the_limit() {
        let text = format!("{{\"comment\":\"{}\"}}\n{{}}", "x".repeat(100));
        let got: Vec<GameText> = JsonReader::with_limit(text.as_bytes(), 10)
            .map(Result::unwrap)
            .collect();
        assert_eq!(got.len(), 2);
        assert!(got[0].is_truncated());
        assert_eq!(got[0].bytes.len(), 10);
        assert_eq!(got[1].bytes, b"{}");
    }

    #[test]
    fn reads_a_record_with_spans_into_its_text() {
        let text = r#"{"game":"olinda-keliya","options":"seeds=5","tags":{"south":"Adé"},"extra":[{"name":"Seed","value":"3"}],"items":[{"move":"E:ccw","captured":6},{"comment":"a\r\nb"},{"move":"c"}],"result":"*","verdict":true}"#;
        let parsed = parse_json_game(text).unwrap();
        let record = &parsed.record;
        assert_eq!(record.game, GameId::OlindaKeliya);
        assert_eq!(record.tags.south.as_deref(), Some("Adé"));
        assert_eq!(record.tag("Seed"), Some("3"));
        assert_eq!(record.items.len(), 3);
        assert_eq!(
            record.items[1],
            Item::Comment {
                comment: "a\nb".into()
            }
        );
        assert_eq!(&text[parsed.spans.items[2].clone()], r#"{"move":"c"}"#);
        assert_eq!(&text[parsed.spans.result.clone()], r#""*""#);
        assert_eq!(&text[parsed.spans.options.clone().unwrap()], "seeds=5");
    }

    #[test]
    fn errors_point_into_the_json_text() {
        let cases = [
            (
                r#"{"game":"olowuka","result":"*""#,
                "invalid JSON record: EOF",
                "\"",
            ),
            (
                r#"{"game":"olowuka" "result":"*"}"#,
                "invalid JSON record: expected",
                "\"",
            ),
            (
                r#"{"game":"chess","result":"*"}"#,
                "\"game\": unknown variant",
                "\"",
            ),
            (r#"{"result":"*"}"#, "no \"game\"", "{"),
            (r#"{"game":"olowuka"}"#, "no \"result\"", "{"),
            (
                r#"{"game":"olowuka","items":[{"move":"Z9"}],"result":"*"}"#,
                "an item:",
                "{",
            ),
            (
                r#"{"game":"olowuka","items":[{"round":1}],"result":"*"}"#,
                "round markers start",
                "{",
            ),
            (
                r#"{"game":"olowuka","items":[{"comment":"a}"}],"result":"*"}"#,
                "cannot hold `}`",
                "{",
            ),
            (
                r#"{"game":"olowuka","tags":{"event":"a\nb"},"result":"*"}"#,
                "spans lines",
                "a",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"Event","value":"x"}],"result":"*"}"#,
                "has a key of its own",
                "{",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"Setup","value":"x"}],"result":"*"}"#,
                "`Setup` is `SetUp` in other case",
                "{",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"game","value":"x"}],"result":"*"}"#,
                "`game` is `Game` in other case",
                "{",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"RESULT","value":"x"}],"result":"*"}"#,
                "`RESULT` is `Result` in other case",
                "{",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"Lapbudget","value":"5"}],"result":"*"}"#,
                "`Lapbudget` is `LapBudget` in other case (tag names are case-sensitive; `LapBudget` is an extra tag the tools read)",
                "{",
            ),
            (
                r#"{"game":"olowuka","extra":[{"name":"A","value":"x"},{"name":"A","value":"y"}],"result":"*"}"#,
                "given twice",
                "{",
            ),
            (r#"["game"]"#, "is an object", "["),
            (
                r#"{"game":"olowuka","result":"*"} x"#,
                "trailing characters",
                "x",
            ),
        ];
        for (text, message, at) in cases {
            let e = parse_json_game(text).unwrap_err();
            assert!(e.to_string().contains(message), "{text}: {e}");
            assert!(
                text[e.span.clone()].starts_with(at),
                "{text}: {:?} at {:?}",
                e.to_string(),
                &text[e.span.clone()]
            );
        }
    }
}
