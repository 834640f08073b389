//! Splitting a stream into games, one game in memory at a time.

use std::io::{self, BufRead};
use std::ops::Range;

use crate::error::{ParseError, TextError};
use crate::parse::parse_game;
use crate::record::ParsedGame;

/// Games longer than this are reported as errors instead of being held in
/// memory (natural games are a few kilobytes).
pub const DEFAULT_MAX_GAME_BYTES: usize = 4 << 20;

/// At most this much is reserved for a game before its bytes arrive.
const RESERVE_CAP: usize = 64 << 10;

/// The text of one game as cut from a stream, with where it stands there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// The bytes kept (at most the reader's limit).
    pub bytes: Vec<u8>,
    /// The stream's line number of the first line (from 1).
    pub first_line: u64,
    /// The stream's byte offset of the first byte.
    pub offset: u64,
    /// The game's whole length in bytes, kept or not.
    pub len: u64,
}

impl GameText {
    /// One game's whole text, as if it were a stream of its own (from line
    /// 1): text given otherwise than through a [`Reader`].
    #[must_use]
    pub fn whole(text: &str) -> GameText {
        GameText {
            bytes: text.as_bytes().to_vec(),
            first_line: 1,
            offset: 0,
            len: text.len() as u64,
        }
    }

    /// Whether the game was longer than the limit, so only its start was kept.
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        self.len > self.bytes.len() as u64
    }

    /// The text, or an error at the first byte that is not UTF-8.
    pub fn text(&self) -> Result<&str, ParseError> {
        std::str::from_utf8(&self.bytes).map_err(|e| {
            let at = e.valid_up_to();
            ParseError::new(at..at + e.error_len().unwrap_or(1), TextError::InvalidUtf8)
        })
    }

    /// Parses the game.
    pub fn parse(&self) -> Result<ParsedGame, ParseError> {
        parse_game(self.source()?)
    }

    /// The text to read, or an error for a game too long to have been kept
    /// whole or one that is not UTF-8.
    pub fn source(&self) -> Result<&str, ParseError> {
        if self.is_truncated() {
            return Err(ParseError::new(
                0..0,
                TextError::TooLong {
                    len: self.len,
                    limit: self.bytes.len(),
                },
            ));
        }
        self.text()
    }

    /// Line (from the stream's 1) and column (in characters, from 1) of a
    /// byte of this game.
    #[must_use]
    pub fn line_col(&self, byte: usize) -> (u64, u64) {
        self.locator().line_col(byte)
    }

    /// Finds the lines and columns of many bytes in the text's order (a
    /// game's problems) in one pass over the text.
    #[must_use]
    pub fn locator(&self) -> Locator<'_> {
        Locator {
            bytes: &self.bytes,
            first_line: self.first_line,
            at: 0,
            lines: 0,
            line_start: 0,
            column: 0,
        }
    }
}

/// Lines and columns of a game's bytes, each found from the last one asked
/// for: the problems of a game come in the order of its text, so reporting
/// them all costs time linear in its length, where counting from the start
/// for each would cost its length times their number. A byte before the
/// last one asked for is counted from the start again.
#[derive(Debug, Clone)]
pub struct Locator<'a> {
    bytes: &'a [u8],
    first_line: u64,
    /// The last byte asked for, and what is known of it: line breaks
    /// before it, where its line starts, characters from there to it.
    at: usize,
    lines: u64,
    line_start: usize,
    column: u64,
}

impl<'a> Locator<'a> {
    /// Line (from the stream's 1) and column (in characters, from 1) of
    /// `byte` (the end of the text at most).
    pub fn line_col(&mut self, byte: usize) -> (u64, u64) {
        let byte = byte.min(self.bytes.len());
        if byte < self.at {
            *self = Locator {
                at: 0,
                lines: 0,
                line_start: 0,
                column: 0,
                ..*self
            };
        }
        let skipped = &self.bytes[self.at..byte];
        match memchr::memrchr(b'\n', skipped) {
            Some(last) => {
                self.lines += memchr::memchr_iter(b'\n', skipped).count() as u64;
                self.line_start = self.at + last + 1;
                self.column = characters(&self.bytes[self.line_start..byte]);
            }
            None => self.column += characters(skipped),
        }
        self.at = byte;
        (self.first_line + self.lines, self.column + 1)
    }

    /// The game's text.
    #[must_use]
    pub fn text(&self) -> &'a [u8] {
        self.bytes
    }

    /// Where the line of the last byte asked for starts.
    #[must_use]
    pub fn line_start(&self) -> usize {
        self.line_start
    }
}

/// The characters of UTF-8 text: its bytes that are not continuation bytes
/// (the text before an error's byte is valid UTF-8).
fn characters(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

/// What kind of line the reader's line buffer holds. Its kept bytes stay
/// in [`Reader::line`], reused from line to line.
#[derive(Debug)]
struct Line {
    /// The line's whole length, kept or not.
    len: u64,
    /// Its first non-blank character is `[`.
    is_tag: bool,
    /// It is a `[Game …]` tag line.
    is_game_tag: bool,
    is_blank: bool,
    /// A line that is not a tag line holds something outside comments.
    has_content: bool,
}

/// Classifies a line from its bytes, given whole or in pieces.
struct LineScan {
    line: Line,
    /// The line's first bytes from its first non-blank one, up to
    /// `GAME_TAG`'s length.
    lead: [u8; GAME_TAG.len()],
    lead_len: usize,
}

const GAME_TAG: &[u8; 6] = b"[Game ";

impl LineScan {
    fn new() -> LineScan {
        LineScan {
            line: Line {
                len: 0,
                is_tag: false,
                is_game_tag: false,
                is_blank: true,
                has_content: false,
            },
            lead: [0; GAME_TAG.len()],
            lead_len: 0,
        }
    }

    /// The line's next bytes. Outside tag lines, comments are followed
    /// across lines through `in_comment`.
    #[inline(always)]
    fn feed(&mut self, chunk: &[u8], in_comment: &mut bool) {
        let line = &mut self.line;
        let mut rest = chunk;
        if line.is_blank {
            rest = rest.trim_ascii_start();
            if let Some(&first) = rest.first() {
                line.is_blank = false;
                line.is_tag = first == b'[';
            }
        }
        if !line.is_blank && self.lead_len < GAME_TAG.len() {
            let take = rest.len().min(GAME_TAG.len() - self.lead_len);
            if let (0, Some(lead)) = (self.lead_len, rest.first_chunk()) {
                // The usual case, a whole lead at once: a copy of fixed size.
                self.lead = *lead;
            } else {
                self.lead[self.lead_len..self.lead_len + take].copy_from_slice(&rest[..take]);
            }
            self.lead_len += take;
        }
        if !line.is_blank && !line.is_tag {
            scan_movetext(rest, in_comment, &mut line.has_content);
        }
        line.len += chunk.len() as u64;
    }

    /// The line, or `None` when it had no bytes (the end of the stream).
    fn finish(mut self) -> Option<Line> {
        // Whole arrays compare without a call to `memcmp`.
        self.line.is_game_tag = self.lead_len == GAME_TAG.len() && self.lead == *GAME_TAG;
        (self.line.len > 0).then_some(self.line)
    }
}

/// What the lines of a game so far say about where it ends.
#[derive(Debug, Default, Clone, Copy)]
struct GameCut {
    in_movetext: bool,
    has_game_tag: bool,
    /// Whether anything but blank lines and remarks has come yet.
    content: bool,
}

impl GameCut {
    /// Whether `line` opens the next game; otherwise notes it as part of
    /// `game`, which starts afresh at its first real content (the stream
    /// stands `at` that line).
    fn ends_game(
        &mut self,
        line: &Line,
        comment_open: bool,
        game: &mut GameText,
        at: &StreamAt,
    ) -> bool {
        // A second `[Game` line starts a game even when the first game has
        // no movetext (its missing result is its own error).
        if line.is_tag && (self.in_movetext || (line.is_game_tag && self.has_game_tag)) {
            return true;
        }
        self.has_game_tag |= line.is_game_tag;
        if !line.is_blank && !line.is_tag {
            self.in_movetext = true;
        }
        if (line.is_tag || line.has_content) && !self.content {
            self.content = true;
            // Blank lines and complete remarks before a game belong to no
            // game: they neither start it nor count against its size limit.
            if !comment_open {
                game.bytes.clear();
                game.first_line = at.next_line;
                game.offset = at.offset;
                game.len = 0;
            }
        }
        false
    }
}

/// Cuts a byte stream into games. A game starts at a line whose first
/// non-blank character is `[` once the previous game has any movetext; runs
/// of blank lines and comments alone are not games. Lines are read with a
/// bounded buffer, so memory stays bounded whatever the input.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    max_game_bytes: usize,
    at: StreamAt,
    pending: Option<Line>,
    /// The line that opens the next game is the next one in the input's
    /// buffer, unread (its first non-blank byte is `[`).
    opening_unread: bool,
    done: bool,
    /// Inside a `{…}` comment that runs on over lines of the current game.
    in_comment: bool,
    /// The start of a byte-order mark that was not one, read again first.
    given_back: Vec<u8>,
    /// The last line read (the pending one, between games).
    line: Vec<u8>,
    /// The last game's length: room to reserve for the next, up to a cap.
    last_game_len: usize,
    /// The input may wait for its producer ([`Reader::waiting_input`]): a
    /// game complete at its result is handed out when nothing more is at
    /// hand, not when the next game begins.
    may_wait: bool,
    /// Every byte the input has given so far has been taken: the next read
    /// may wait for the producer.
    drained: bool,
    /// How far the current game's text is known to end at its result.
    ending: ResultScan,
}

impl<R: BufRead> Reader<R> {
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_limit(inner, DEFAULT_MAX_GAME_BYTES)
    }

    /// A reader that keeps at most `max_game_bytes` of any game.
    pub fn with_limit(inner: R, max_game_bytes: usize) -> Reader<R> {
        Reader {
            inner,
            max_game_bytes,
            at: StreamAt {
                next_line: 1,
                offset: 0,
            },
            pending: None,
            opening_unread: false,
            done: false,
            in_comment: false,
            given_back: Vec::new(),
            line: Vec::new(),
            last_game_len: 0,
            may_wait: false,
            drained: false,
            ending: ResultScan::default(),
        }
    }

    /// For an input that may wait for its producer (a pipe, a terminal): a
    /// game is handed out as soon as its text ends with its result token
    /// (then only whitespace and complete `{…}` remarks, §7.5) and the
    /// input has nothing more at hand, instead of when the next game's
    /// first line comes. A file never waits, so its games are cut where the
    /// next begins, wherever reads happen to split it.
    #[must_use]
    pub fn waiting_input(mut self) -> Reader<R> {
        self.may_wait = true;
        self
    }

    /// A UTF-8 byte-order mark at the start of the stream is not text.
    /// Its bytes may come in separate reads, so they are taken one at a
    /// time; bytes that turn out not to be a mark are given back.
    fn skip_byte_order_mark(&mut self) -> io::Result<()> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        let mut seen = Vec::new();
        while seen.len() < BOM.len() {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            match buf.first() {
                Some(&b) if b == BOM[seen.len()] => {
                    seen.push(b);
                    self.inner.consume(1);
                }
                _ => break,
            }
        }
        if seen.len() == BOM.len() {
            self.at.offset = BOM.len() as u64;
        } else {
            self.given_back = seen;
        }
        Ok(())
    }

    /// Reads one line, keeping at most `room` bytes of it in
    /// [`Reader::line`], however the input's reads split it.
    fn read_line(&mut self, room: usize) -> io::Result<Option<Line>> {
        self.line.clear();
        let mut scan = LineScan::new();
        loop {
            let from_given_back = !self.given_back.is_empty();
            let available = if from_given_back {
                &self.given_back[..]
            } else {
                match self.inner.fill_buf() {
                    Ok(buf) => buf,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if available.is_empty() {
                break;
            }
            let (chunk, ends_line) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..=i], true),
                None => (available, false),
            };
            scan.feed(chunk, &mut self.in_comment);
            let keep = chunk.len().min(room.saturating_sub(self.line.len()));
            self.line.extend_from_slice(&chunk[..keep]);
            let used = chunk.len();
            self.drained = !from_given_back && used == available.len();
            if from_given_back {
                self.given_back.drain(..used);
            } else {
                self.inner.consume(used);
            }
            if ends_line {
                break;
            }
        }
        Ok(scan.finish())
    }

    /// Where the next lines go: into `game`, or, for a line that opens the
    /// next game, into [`Reader::pending`] (or, left in the input's buffer,
    /// [`Reader::opening_unread`]). The lines that sit whole in the input's
    /// buffer (nearly all) are taken together and their bytes copied once;
    /// a line split across reads is read piece by piece with
    /// [`Reader::read_line`]. Returns `false` at the end of the game.
    fn next_line_of(&mut self, game: &mut GameText, cut: &mut GameCut) -> io::Result<bool> {
        // Nothing more at hand, and the next read may wait for ever: a game
        // complete at its result goes now.
        if self.may_wait && self.drained && cut.in_movetext && self.ending.complete(game) {
            return Ok(false);
        }
        if self.given_back.is_empty() {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(true),
                Err(e) => return Err(e),
            };
            let (taken, opening) = if cut.content {
                // Once the game has begun, a line only says whether it opens
                // the next game, and comments no longer matter (they decide
                // only where a game begins, and the next one starts afresh).
                let (taken, opens) = whole_lines_of_begun_game(buf, cut);
                let lines = line_breaks(&buf[..taken]);
                self.at.count_lines(game, lines, taken as u64);
                // The line that opens the next game stays in the input's
                // buffer, for the next game to read.
                self.opening_unread = opens;
                (0..taken, opens.then_some(0))
            } else {
                let (kept, opening) =
                    lines_before_the_game(buf, game, cut, &mut self.in_comment, &mut self.at);
                let opening = opening.map(|(line, chunk)| {
                    self.line.clear();
                    self.line
                        .extend_from_slice(&chunk[..chunk.len().min(self.max_game_bytes)]);
                    self.pending = Some(line);
                    chunk.len()
                });
                (kept, opening)
            };
            if !taken.is_empty() || opening.is_some() {
                let room = self.max_game_bytes.saturating_sub(game.bytes.len());
                let kept = &buf[taken.clone()];
                game.bytes.extend_from_slice(&kept[..kept.len().min(room)]);
                let used = taken.end + opening.unwrap_or(0);
                self.drained = used == buf.len();
                self.inner.consume(used);
                return Ok(opening.is_none());
            }
        }
        self.next_line_alone(game, cut)
    }

    /// [`Reader::next_line_of`] for a line split across reads: read piece
    /// by piece with [`Reader::read_line`].
    fn next_line_alone(&mut self, game: &mut GameText, cut: &mut GameCut) -> io::Result<bool> {
        let comment_open = self.in_comment;
        // A line may open the next game, so it gets a whole game's room.
        let Some(line) = self.read_line(self.max_game_bytes)? else {
            self.done = true;
            return Ok(false);
        };
        if cut.ends_game(&line, comment_open, game, &self.at) {
            self.pending = Some(line);
            return Ok(false);
        }
        self.push(game, line);
        Ok(true)
    }

    fn next_game(&mut self) -> io::Result<Option<GameText>> {
        if self.at.offset == 0 {
            self.skip_byte_order_mark()?;
        }
        loop {
            if self.done {
                return Ok(None);
            }
            // Games in one stream are much alike: reserving twice the last
            // one's length saves growing the buffer line by line, and
            // nearly always at all (a game as long as the last one plus
            // a little would be copied once more).
            let mut game = GameText {
                bytes: Vec::with_capacity((2 * self.last_game_len).min(RESERVE_CAP)),
                first_line: self.at.next_line,
                offset: self.at.offset,
                len: 0,
            };
            let mut cut = GameCut::default();
            self.in_comment = false;
            self.ending = ResultScan::default();
            if let Some(line) = self.pending.take() {
                cut.has_game_tag = line.is_game_tag;
                cut.content = true;
                self.push(&mut game, line);
            } else if self.opening_unread {
                // Its first line, still in the input's buffer, is read as
                // the game's.
                self.opening_unread = false;
                cut.content = true;
            }
            while self.next_line_of(&mut game, &mut cut)? {}
            // An unclosed `{` is kept as a game, so that it is reported.
            if cut.content || self.in_comment {
                self.last_game_len = game.bytes.len();
                return Ok(Some(game));
            }
        }
    }

    /// Appends the line in [`Reader::line`] (just read, or the pending
    /// one) to `game`.
    fn push(&mut self, game: &mut GameText, line: Line) {
        let room = self.max_game_bytes.saturating_sub(game.bytes.len());
        let keep = self.line.len().min(room);
        game.bytes.extend_from_slice(&self.line[..keep]);
        self.at.count(game, &line);
    }
}

/// Whether a game's text so far ends with its result token, followed only
/// by whitespace and complete `{…}` remarks (§7.5): read from the start of
/// its movetext, and on from where it was last asked, so that asking at
/// every pause of the input costs a pass over the text in all. Tag lines
/// before the movetext are passed over. A `*` or `digits-digits` token
/// outside comments and variations is the result (§5's reading order);
/// anything else after it (a token, a parenthesis, an open comment) makes
/// the text not complete. A text this scan does not see as complete is
/// simply cut as any other, when the next game begins.
#[derive(Debug, Default, Clone, Copy)]
struct ResultScan {
    /// Bytes of the game's text read so far.
    read: usize,
    /// A movetext line has been seen (tag lines before it are passed over).
    in_movetext: bool,
    /// The current tag line is passed over.
    in_tag_line: bool,
    in_comment: bool,
    /// Open variations.
    depth: u32,
    /// The token being read.
    token: Token,
    /// The last token ended was the result, outside variations.
    after_result: bool,
}

/// What the token being read may still be.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Token {
    #[default]
    None,
    Star,
    Digits,
    Dash,
    Score,
    Other,
}

impl ResultScan {
    /// Whether `game` (whole lines, kept whole) is complete at its result.
    fn complete(&mut self, game: &GameText) -> bool {
        // A game over the limit is not kept whole: it is cut as usual.
        if game.is_truncated() {
            return false;
        }
        let start = self.read.min(game.bytes.len());
        for &b in &game.bytes[start..] {
            self.feed(b);
        }
        self.read = game.bytes.len();
        self.in_movetext && !self.in_comment && self.token == Token::None && self.after_result
    }

    fn feed(&mut self, b: u8) {
        if !self.in_movetext {
            // Tag lines, and blank lines among them, until a movetext line.
            if self.in_tag_line {
                self.in_tag_line = b != b'\n';
                return;
            }
            if b == b'\n' || is_blank(b) {
                return;
            }
            if b == b'[' {
                self.in_tag_line = true;
                return;
            }
            self.in_movetext = true;
        }
        if self.in_comment {
            self.in_comment = b != b'}';
            return;
        }
        match b {
            b'{' | b'(' | b')' => {
                self.end_token();
                match b {
                    b'{' => self.in_comment = true,
                    b'(' => {
                        self.depth += 1;
                        self.after_result = false;
                    }
                    _ => {
                        self.depth = self.depth.saturating_sub(1);
                        self.after_result = false;
                    }
                }
            }
            _ if b.is_ascii_whitespace() => self.end_token(),
            _ => {
                self.token = match (self.token, b) {
                    (Token::None, b'*') => Token::Star,
                    (Token::None | Token::Digits, b'0'..=b'9') => Token::Digits,
                    (Token::Digits, b'-') => Token::Dash,
                    (Token::Dash | Token::Score, b'0'..=b'9') => Token::Score,
                    _ => Token::Other,
                };
            }
        }
    }

    fn end_token(&mut self) {
        if self.token != Token::None {
            self.after_result = self.depth == 0 && matches!(self.token, Token::Star | Token::Score);
            self.token = Token::None;
        }
    }
}

/// The lines of `buf` until the game begins, when blank lines and remarks
/// are skipped and comments followed (through `in_comment`): the whole
/// lines, one by one up to the game's first line, or to the line that opens
/// the next game. Returns the bytes of `buf` that go into `game`, and the
/// opening line with its bytes, if one came.
fn lines_before_the_game<'b>(
    buf: &'b [u8],
    game: &mut GameText,
    cut: &mut GameCut,
    in_comment: &mut bool,
    at: &mut StreamAt,
) -> (Range<usize>, Option<(Line, &'b [u8])>) {
    // `buf[kept_from..taken]`: whole lines of this game not copied yet.
    let (mut taken, mut kept_from) = (0, 0);
    while !cut.content
        && let Some(end) = memchr::memchr(b'\n', &buf[taken..])
    {
        let chunk = &buf[taken..=taken + end];
        let comment_open = *in_comment;
        let mut scan = LineScan::new();
        scan.feed(chunk, in_comment);
        let Some(line) = scan.finish() else {
            unreachable!("a line with its line break is not empty")
        };
        if cut.ends_game(&line, comment_open, game, at) {
            return (kept_from..taken, Some((line, chunk)));
        }
        // The game starts here (its first line, or afresh after blank lines
        // and remarks, its bytes cleared): its length is 0 only then.
        if game.len == 0 {
            kept_from = taken;
        }
        at.count(game, &line);
        taken += chunk.len();
    }
    (kept_from..taken, None)
}

/// Where the reader stands in the stream.
#[derive(Debug)]
struct StreamAt {
    /// The number of the next line, from 1.
    next_line: u64,
    /// The offset of the next byte.
    offset: u64,
}

impl StreamAt {
    /// Counts a line appended to `game`.
    #[inline]
    fn count(&mut self, game: &mut GameText, line: &Line) {
        self.count_len(game, line.len);
    }

    /// Counts a line of `len` bytes appended to `game`.
    #[inline]
    fn count_len(&mut self, game: &mut GameText, len: u64) {
        self.count_lines(game, 1, len);
    }

    /// Counts `lines` lines of `len` bytes in all appended to `game`.
    #[inline]
    fn count_lines(&mut self, game: &mut GameText, lines: u64, len: u64) {
        game.len += len;
        self.offset += len;
        // Every line but possibly the stream's last ends with '\n'.
        self.next_line += lines;
    }
}

/// The ASCII whitespace that is not a line break: what a blank line holds,
/// and what may stand before a line's first character.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0c')
}

/// What the first bytes of a line of a begun game say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineStart {
    /// A blank line of `len` bytes.
    Blank { len: usize },
    /// Its first non-blank byte is `[`; the tag may be `[Game`.
    Tag { is_game_tag: bool },
    /// Movetext, or anything else that is not a tag line.
    Other,
    /// The bytes at hand end before they tell.
    Unknown,
}

impl LineStart {
    /// Reads the line at the start of `text` (which may hold more lines,
    /// or end within this one).
    fn of(text: &[u8]) -> LineStart {
        let Some(first) = text.iter().position(|&b| !is_blank(b)) else {
            return LineStart::Unknown;
        };
        let lead = &text[first..];
        match lead[0] {
            b'\n' => LineStart::Blank { len: first + 1 },
            // "[Game " holds no line break, so comparing it with the bytes
            // past the line's end is as good as with the line alone.
            b'[' if lead.len() >= GAME_TAG.len() || lead.contains(&b'\n') => LineStart::Tag {
                is_game_tag: lead.starts_with(GAME_TAG),
            },
            b'[' => LineStart::Unknown,
            _ => LineStart::Other,
        }
    }
}

/// The whole lines of a begun game at the start of `buf`: their length,
/// and whether the line after them opens the next game (it need not be
/// whole). `cut` is brought up to date with the lines taken. Lines are
/// looked at only where they may change the cut: in the tag section, lines
/// that do not start with `[`, or with `[G`; in the movetext, lines with a
/// `[` (which movetext holds only in comments).
fn whole_lines_of_begun_game(buf: &[u8], cut: &mut GameCut) -> (usize, bool) {
    // The start of a line not taken yet.
    let mut at = 0;
    loop {
        let mut after = *cut;
        match LineStart::of(&buf[at..]) {
            LineStart::Unknown => return (at, false),
            LineStart::Blank { len } => {
                at += len;
                continue;
            }
            LineStart::Tag { is_game_tag } => {
                // A second `[Game` line starts a game even when the first
                // game has no movetext (its missing result is its own
                // error).
                if cut.in_movetext || (is_game_tag && cut.has_game_tag) {
                    return (at, true);
                }
                after.has_game_tag |= is_game_tag;
            }
            LineStart::Other => after.in_movetext = true,
        }
        let next = if after.in_movetext {
            // In the movetext every tag line opens the next game.
            if let Some(next) = next_tag_line(buf, at) {
                return (next, true);
            }
            None
        } else {
            next_line_out_of_tags(buf, at)
        };
        let Some(next) = next else {
            let end = memchr::memrchr(b'\n', &buf[at..]).map_or(at, |end| at + end + 1);
            // The line at `at` is taken only if it is whole.
            if end > at {
                *cut = after;
            }
            return (end, false);
        };
        // The line at `at` ended before `next`: it is taken.
        *cut = after;
        at = next;
    }
}

/// The start of the first line after the one at `from` whose first
/// non-blank byte is `[`. A search for `[` finds it in a call or two where
/// a search for each line's end took a call a line. A `[` with no line
/// break since the last one found (or since `from`) is on a line already
/// known not to be a tag line, so each byte is searched back once at most.
fn next_tag_line(text: &[u8], from: usize) -> Option<usize> {
    let mut search = from;
    loop {
        let at = search + memchr::memchr(b'[', &text[search..])?;
        if let Some(end) = memchr::memrchr(b'\n', &text[search..at]) {
            let line = search + end + 1;
            if text[line..at].iter().all(|&b| is_blank(b)) {
                return Some(line);
            }
        }
        search = at + 1;
    }
}

/// Bytes looked at together by [`next_line_out_of_tags`].
const BLOCK: usize = 32;

/// Whether the byte at `window[k]` is the line break before a line out of
/// the tags: one that does not start with `[` (a blank line, movetext, an
/// indented line) or starts with `[G` (it may be a second `[Game` tag).
/// Other lines are tag lines that leave the cut as it is.
#[inline(always)]
fn out_of_tags(window: &[u8], k: usize) -> bool {
    (window[k] == b'\n') & ((window[k + 1] != b'[') | (window[k + 2] == b'G'))
}

/// Whether any of the first `N` bytes of `window` (which holds two more)
/// is [`out_of_tags`]: a loop that the compiler turns into a few vector
/// instructions.
#[inline(always)]
fn any_out_of_tags<const N: usize>(window: &[u8]) -> bool {
    let window = &window[..N + 2];
    (0..N).fold(false, |any, k| any | out_of_tags(window, k))
}

/// The start of the first line after the one at `from` that is out of the
/// tags ([`out_of_tags`]). Tag lines are short, so the lines are looked at
/// [`BLOCK`] bytes at a time, and the one found by halving the block,
/// instead of by a search for each line's end.
fn next_line_out_of_tags(text: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(window) = text.get(at..at + BLOCK + 2) {
        if any_out_of_tags::<BLOCK>(window) {
            // Halved twice, then byte by byte: a search byte by byte
            // through the block would cost as much as the blocks before.
            let half = usize::from(!any_out_of_tags::<{ BLOCK / 2 }>(window)) * BLOCK / 2;
            let window = &window[half..];
            let quarter = usize::from(!any_out_of_tags::<{ BLOCK / 4 }>(window)) * BLOCK / 4;
            let window = &window[quarter..];
            let k = (0..BLOCK / 4).position(|k| out_of_tags(window, k))?;
            return Some(at + half + quarter + k + 1);
        }
        at += BLOCK;
    }
    // The last bytes, where a line's second byte may not have come yet.
    (at..text.len()).find_map(|end| {
        let first = *text.get(end + 1)?;
        let second = text.get(end + 2).copied();
        (text[end] == b'\n' && (first != b'[' || second.is_none_or(|b| b == b'G')))
            .then_some(end + 1)
    })
}

/// Bytes counted together by [`line_breaks`].
const LANES: usize = 32;

/// `FROM_LANE[r..][..LANES]` has a 1 in the last `r` lanes, a 0 in the others.
static FROM_LANE: [u8; 2 * LANES] = {
    let mut keep = [0; 2 * LANES];
    let mut lane = LANES;
    while lane < 2 * LANES {
        keep[lane] = 1;
        lane += 1;
    }
    keep
};

/// The line breaks in `text`, counted in byte-wide lanes, [`LANES`] bytes
/// at a time and 7 blocks to a count (so that a byte holds it), by loops
/// that the compiler turns into vector instructions: under half the
/// instructions a byte of `memchr`'s count on a game's few hundred bytes.
/// The bytes after the last whole block are counted in the text's last
/// block, the lanes counted already masked out.
fn line_breaks(text: &[u8]) -> u64 {
    let count = |bytes: &[u8]| bytes.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
    // Groups of a fixed length are counted without a test for their end.
    let (groups, rest) = text.as_chunks::<{ 7 * LANES }>();
    let groups: u64 = groups.iter().map(|group| u64::from(count(group))).sum();
    let (blocks, rest) = rest.as_chunks::<LANES>();
    let blocks = count(blocks.as_flattened());
    let rest = match (
        text.last_chunk::<LANES>(),
        FROM_LANE[rest.len()..].first_chunk::<LANES>(),
    ) {
        (Some(last), Some(keep)) => last
            .iter()
            .zip(keep)
            .fold(0u8, |n, (&b, &keep)| n + (u8::from(b == b'\n') & keep)),
        _ => count(rest),
    };
    groups + u64::from(blocks) + u64::from(rest)
}

/// Follows comments through movetext bytes, noting whether anything
/// stands outside them.
fn scan_movetext(mut rest: &[u8], in_comment: &mut bool, has_content: &mut bool) {
    loop {
        if *in_comment {
            match memchr::memchr(b'}', rest) {
                Some(i) => {
                    *in_comment = false;
                    rest = &rest[i + 1..];
                }
                None => return,
            }
        } else {
            let open = memchr::memchr(b'{', rest);
            let outside = &rest[..open.unwrap_or(rest.len())];
            *has_content = *has_content || !outside.trim_ascii().is_empty();
            match open {
                Some(i) => {
                    *in_comment = true;
                    rest = &rest[i + 1..];
                }
                None => return,
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = io::Result<GameText>;

    fn next(&mut self) -> Option<io::Result<GameText>> {
        self.next_game().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &[u8], limit: usize) -> Vec<GameText> {
        Reader::with_limit(text, limit)
            .map(Result::unwrap)
            .collect()
    }

    /// An input that gives `text` in one read, then notes that it was
    /// asked for more (where a pipe would wait) and ends.
    struct Pausing<'a> {
        text: &'a [u8],
        asked_again: std::rc::Rc<std::cell::Cell<bool>>,
    }

    impl io::Read for Pausing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = io::BufRead::fill_buf(self)?.len().min(buf.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Pausing<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.text.is_empty() {
                self.asked_again.set(true);
            }
            Ok(self.text)
        }

        fn consume(&mut self, n: usize) {
            self.text = &self.text[n..];
        }
    }

    /// Whether a waiting reader hands out the first game of `text` without
    /// asking the input for more.
    fn out_at_the_pause(text: &str) -> bool {
        let asked_again = std::rc::Rc::new(std::cell::Cell::new(false));
        let input = Pausing {
            text: text.as_bytes(),
            asked_again: asked_again.clone(),
        };
        let game = Reader::new(input).waiting_input().next().unwrap().unwrap();
        assert_eq!(game.bytes, text.as_bytes(), "the game is cut where it was");
        !asked_again.get()
    }

    #[test]
    fn a_waiting_input_gives_a_game_out_at_its_result() {
        for complete in [
            "[Game \"olowuka\"]\n\n1. D b *\n",
            "[Game \"olowuka\"]\n[Event \"1-0 *\"]\n\n1. D b 2. C 30-18\n",
            "[Game \"olowuka\"]\n\n1. D b * {done}\n\n{a remark}\n",
            "[Game \"olowuka\"]\n\n1. D (1. C {*} a) b\r\n*\r\n",
            "[Game \"olowuka\"]\n\n{ a remark\n over lines } 1. D *\n",
        ] {
            assert!(out_at_the_pause(complete), "{complete:?}");
        }
        for open in [
            "[Game \"olowuka\"]\n[Event \"*\"]\n",
            "[Game \"olowuka\"]\n\n1. D b {*\n",
            "[Game \"olowuka\"]\n\n1. D (b *\n",
            "[Game \"olowuka\"]\n\n1. D b * 2. C\n",
            "[Game \"olowuka\"]\n\n1. D b *{open\n",
            "[Game \"olowuka\"]\n\n1. D b 1.*\n",
            "[Game \"olowuka\"]\n\n1. D b 30-\n",
            "[Game \"olowuka\"]\n\n1. D b *",
        ] {
            assert!(!out_at_the_pause(open), "{open:?}");
        }
        // A file is cut where the next game begins: it is asked again.
        let asked_again = std::rc::Rc::new(std::cell::Cell::new(false));
        let input = Pausing {
            text: b"[Game \"olowuka\"]\n\n1. D b *\n",
            asked_again: asked_again.clone(),
        };
        assert!(Reader::new(input).next().is_some());
        assert!(asked_again.get());
    }

    #[test]
    fn splits_at_tag_lines_after_movetext() {
        let text = b"[Game \"olowuka\"]\n\nD b *\n[Game \"olowuka\"]\n[Event \"x\"]\nC *\n";
        let games = games(text, 1 << 20);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].first_line, 1);
        assert_eq!(games[1].first_line, 4);
        assert_eq!(games[1].offset, 24);
        assert!(games.iter().all(|g| g.parse().is_ok()));
    }

    /// Once a game has begun, its lines are told by their first
    /// non-blank byte alone: a `[` there after movetext opens the next
    /// game even inside a comment (which the parser then reports as
    /// unterminated), a second `[Game` tag opens one before any movetext,
    /// and blank or comment lines go on with the game.
    #[test]
    fn lines_of_a_begun_game_are_told_by_their_first_byte() {
        let text = b"[Game \"olowuka\"]\n  \t\n[Event \"x\"]\n\nD {a\n [b]\n} b\n{c}\n\
                     \n  [Game \"olowuka\"]\n[Game \"olowuka\"]\n\nD *\n";
        let games = games(text, 1 << 20);
        let starts: Vec<u64> = games.iter().map(|g| g.first_line).collect();
        assert_eq!(starts, [1, 6, 10, 11]);
        assert_eq!(
            games[0].bytes,
            b"[Game \"olowuka\"]\n  \t\n[Event \"x\"]\n\nD {a\n"
        );
        assert_eq!(games[1].bytes, b" [b]\n} b\n{c}\n\n");
        assert_eq!(games[2].bytes, b"  [Game \"olowuka\"]\n");
        assert_eq!(games[3].offset, text.len() as u64 - 22);
        assert!(games[3].parse().is_ok());
    }

    /// Games are cut alike whatever the input's reads: whole in the buffer
    /// (the movetext skipped by a search for `[`) or line by line.
    #[test]
    fn games_are_cut_alike_whatever_the_reads() {
        let text = b"{remark}\n[Game \"olowuka\"]\n[Event \"x\"]\n\n1. E {[%eval 0.3]} e\n\
                     2. D {a\n  b [c]} d *\n \t[Game \"olowuka\"]\r\n\r\nC\r\n{x\n [y]}\n\
                     [Game \"olowuka\"]\n[Game \"olowuka\"]\n\nD e [\n\nf *";
        let whole = games(text, 1 << 20);
        let starts: Vec<u64> = whole.iter().map(|g| g.first_line).collect();
        assert_eq!(starts, [2, 8, 12, 14]);
        for capacity in 1..40 {
            let read: Vec<GameText> =
                Reader::new(std::io::BufReader::with_capacity(capacity, &text[..]))
                    .map(Result::unwrap)
                    .collect();
            assert_eq!(read, whole, "capacity {capacity}");
        }
    }

    /// Texts made of the pieces that decide where games are cut, in any
    /// order: tag lines (`[Game` and others, indented or not), movetext,
    /// comments over lines, blank lines of every kind, stray brackets.
    fn texts_of_pieces() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        const PIECES: &[&[u8]] = &[
            b"[Game \"olowuka\"]\n",
            b"[Game \"olowuka\"]\r\n",
            b"[GameX \"1\"]\n",
            b"[Event \"x\"]\n",
            b"[G",
            b"[Ga",
            b"  [Game \"olowuka\"]\n",
            b"\t[Round \"2\"]\n",
            b"\x0c[Site \"y\"]\n",
            b"\x0b[Site \"y\"]\n",
            b"\n",
            b"\r\n",
            b" \t\n",
            b"1. E e+3 2. C b+2 ",
            b"D b *\n",
            b"20-28\n",
            b"{[%eval 0.3]} ",
            b"{a\n",
            b"} ",
            b"{x}\n",
            b"[",
            b" [b]\n",
            b"\xEF\xBB\xBF",
            b"\xC3\xA9",
        ];
        proptest::collection::vec(0..PIECES.len(), 0..60).prop_map(|picks| {
            picks
                .into_iter()
                .flat_map(|k| PIECES[k].iter().copied())
                .collect()
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The cut of whole lines in the input's buffer (the fast path)
        /// agrees with the cut line by line: games, their bytes (under a
        /// small limit too), lines and offsets, whatever the reads.
        #[test]
        fn games_are_cut_alike_by_whole_lines_and_line_by_line(
            text in texts_of_pieces(),
            capacity in 1usize..48,
            limit in 1usize..64,
        ) {
            for limit in [1 << 20, limit] {
                let whole = games(&text, limit);
                let read: Vec<GameText> = Reader::with_limit(
                    std::io::BufReader::with_capacity(capacity, &text[..]),
                    limit,
                )
                .map(Result::unwrap)
                .collect();
                proptest::prop_assert_eq!(read, whole);
            }
        }
    }

    #[test]
    fn blank_and_comment_only_input_has_no_games() {
        assert!(games(b"", 100).is_empty());
        assert!(games(b"\n\n  \r\n", 100).is_empty());
        assert!(games(b"{just a remark}\n{and another\nover lines}\n", 100).is_empty());
    }

    #[test]
    fn an_unterminated_comment_is_a_game_with_an_error() {
        let games = games(b"{never closed\n", 100);
        assert_eq!(games.len(), 1);
        assert!(games[0].parse().is_err());
    }

    #[test]
    fn oversized_games_are_cut_and_the_next_one_survives() {
        let mut text = b"[Game \"olowuka\"]\n\n".to_vec();
        text.extend(std::iter::repeat_n(b'D', 10_000));
        text.extend(b" *\n[Game \"olowuka\"]\n\nD *\n");
        let games = games(&text, 1000);
        assert_eq!(games.len(), 2);
        assert!(games[0].is_truncated());
        assert_eq!(games[0].bytes.len(), 1000);
        assert!(
            games[0]
                .parse()
                .unwrap_err()
                .to_string()
                .contains("over the limit")
        );
        assert_eq!(games[1].first_line, 4);
        assert!(games[1].parse().is_ok());
    }

    #[test]
    fn line_and_column_count_characters() {
        let game = &games("[Game \"olowuka\"]\n\nDé x *\n".as_bytes(), 100)[0];
        let at = game.bytes.iter().position(|b| *b == b'x').unwrap();
        assert_eq!(game.line_col(at), (3, 4));
    }

    #[test]
    fn a_locator_counts_on_from_the_last_byte_and_back_from_the_start() {
        let game = &games("[Game \"olowuka\"]\n\nDé x\ny z *\n".as_bytes(), 100)[0];
        let at = |c: u8| game.bytes.iter().position(|b| *b == c).unwrap();
        let mut locator = game.locator();
        assert_eq!(locator.line_col(at(b'x')), (3, 4));
        assert_eq!(locator.line_col(at(b'z')), (4, 3));
        assert_eq!(locator.line_start(), at(b'y'));
        assert_eq!(locator.line_col(at(b'x')), (3, 4));
        assert_eq!(locator.line_col(0), (1, 1));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let games = games(b"\xEF\xBB\xBF[Game \"olowuka\"]\n\nD *\n", 100);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].offset, 3);
        assert!(games[0].parse().is_ok());
    }

    #[test]
    fn a_game_without_movetext_does_not_swallow_the_next() {
        let games = games(
            b"[Game \"olowuka\"]\n[Event \"x\"]\n[Game \"olowuka\"]\n\nD *\n",
            1000,
        );
        assert_eq!(games.len(), 2);
        assert!(
            games[0]
                .parse()
                .unwrap_err()
                .to_string()
                .contains("missing result")
        );
        assert!(games[1].parse().is_ok());
    }

    #[test]
    fn the_mark_is_found_whatever_the_reads() {
        let text = b"\xEF\xBB\xBF[Game \"olowuka\"]\n\nD *\n";
        for capacity in 1..5 {
            let games: Vec<GameText> =
                Reader::new(std::io::BufReader::with_capacity(capacity, &text[..]))
                    .map(Result::unwrap)
                    .collect();
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].offset, 3);
            assert!(games[0].parse().is_ok());
        }
        // Two bytes of a mark and then something else are text.
        let games = games(b"\xEF\xBBx\n", 100);
        assert_eq!(games[0].bytes, b"\xEF\xBBx\n");
    }
}
