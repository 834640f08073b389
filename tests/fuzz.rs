//! A fuzz harness for the notation and the rules that runs on stable Rust as
//! an ordinary test, with no extra tools (see `spec/fuzzing.md`).
//!
//! Inputs come from a seeded `fastrand` generator:
//!
//! - **bytes**: the fixture files mutated (bit flips, byte changes, deletions,
//!   truncations, splices of two files, duplicated ranges, swapped lines,
//!   dictionary tokens such as tag lines, huge numbers, `{`, CR, a BOM or
//!   bytes that are not UTF-8), cut into games by [`Reader`], parsed, printed
//!   and checked by `mancala_check::check_text` as the tools do;
//! - **rules**: random rules and options, random set-ups (plausible ones
//!   that conserve seeds, and garbage: rows of thousands of holes, counts up
//!   to `u32::MAX`, rounds past `u16::MAX`) through `Position::from_setup`,
//!   then random move sequences through `Game::play`; the game is written as
//!   a record, which the validator must accept, then mutated as a record
//!   (moves dropped or swapped, wrong annotations and results, NAGs and
//!   variations added) and checked again as bytes.
//!
//! Checked: nothing panics; every case ends (a watchdog reports a case that
//! runs too long); the reader cuts the input into games that cover it, the
//! same way whatever the buffer size and with a small game limit; error spans
//! lie in their game and render; whatever parses prints canonically and
//! re-parses to the same record (and the same JSON); the check's fast lane
//! and the full rules agree on every game; a valid game's canonical
//! print is valid too; positions conserve seeds; the rules' legal moves are
//! exactly the moves `Game::play` accepts; records written from random games
//! validate.
//!
//! Environment:
//!
//! | variable | meaning |
//! |---|---|
//! | `MANCALA_FUZZ_SECONDS` | time budget (default 3) |
//! | `MANCALA_FUZZ_SEED` | seed of the run: a number, or `random` for one from the clock (default: [`DEFAULT_SEED`]; printed) |
//! | `MANCALA_FUZZ_CASE` | run only the case with this case seed (printed with findings) |
//! | `MANCALA_FUZZ_FILE` | run the byte checks on this file only |
//! | `MANCALA_FUZZ_OUT` | where findings are written (default `target/tmp/fuzz-findings`) |
//! | `MANCALA_FUZZ_SLOW` | seconds after which a case counts as hanging (default 30) |

#![allow(clippy::print_stderr)]

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::BufReader;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use fastrand::Rng;
use mancala_check::{self as check, Build};
use mancala_diagram::{
    Charset, FramesJson, Style, draw_frames, lap_frames, ply_frame, position_frame,
};
use mancala_notation::{
    GameResult, GameText, Item, Nag, ParsedGame, Reader, Record, format_setup, parse_game,
    parse_setup,
};
use mancala_rules::{
    DEFAULT_LAP_BUDGET, Dir, EndReason, Game, GameId, Hole, Move, Opt, Options, PlayErrorKind,
    Position, Rules, Setup, Side, Status,
};
use mancala_tools::diagnostic;

// ---------------------------------------------------------------------------
// Findings

/// What a check found wrong: a short key that groups findings of one kind
/// (a panic's location, or the name of a broken invariant) and details.
#[derive(Debug)]
pub struct Fail {
    pub key: String,
    pub detail: String,
}

type Check = Result<(), Fail>;

fn fail(key: &str, detail: impl Into<String>) -> Check {
    Err(Fail {
        key: key.to_owned(),
        detail: detail.into(),
    })
}

thread_local! {
    /// Set while a case runs under [`guarded`]: its panics are recorded,
    /// not printed.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let location = info.location().map_or_else(
                    || "unknown".to_owned(),
                    |l| format!("{}:{}", l.file(), l.line()),
                );
                let message = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some((location, message)));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs a check, turning a panic into a finding keyed by its location.
fn guarded(f: impl FnOnce() -> Check) -> Check {
    CATCHING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(false));
    match result {
        Ok(check) => check,
        Err(_) => {
            let (location, message) = LAST_PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_default();
            fail(&format!("panic at {location}"), message)
        }
    }
}

/// Bugs already reported, each as `("the ignored test that asserts the
/// correct behaviour", a matcher of its findings)`: they are counted and
/// listed but do not fail the run. Remove an entry when its bug is fixed.
/// (The bugs the first hour of fuzzing found are fixed, and their tests in
/// `tests/adversarial.rs` run.)
/// Whether a finding is a given known bug.
type Matches = fn(&Fail) -> bool;

const KNOWN: &[(&str, Matches)] = &[];

pub fn known(fail: &Fail) -> Option<&'static str> {
    KNOWN.iter().find(|(_, is)| is(fail)).map(|(test, _)| *test)
}

/// Findings of the run, one entry per key.
struct Findings {
    out: PathBuf,
    seen: BTreeMap<String, Seen>,
}

struct Seen {
    /// The ignored test of a known bug.
    known: Option<&'static str>,
    count: usize,
    case: u64,
    detail: String,
    file: Option<PathBuf>,
}

impl Findings {
    fn new(out: PathBuf) -> Findings {
        Findings {
            out,
            seen: BTreeMap::new(),
        }
    }

    /// Records a finding; the first input of each key is minimized (when it
    /// is bytes) and written to the output folder.
    fn add(&mut self, fail: Fail, case: u64, input: Option<&[u8]>, rng_seed: u64) {
        if let Some(seen) = self.seen.get_mut(&fail.key) {
            seen.count += 1;
            return;
        }
        let known = known(&fail);
        let file = input.map(|bytes| {
            let small = minimize(bytes, &fail.key, rng_seed);
            let _ = std::fs::create_dir_all(&self.out);
            // The name holds the seed of the checks' own choices (buffer
            // size, game limit), which MANCALA_FUZZ_FILE replays first.
            let name = format!("{case:016x}-{rng_seed:016x}.mgn");
            let path = self.out.join(name);
            let _ = std::fs::write(&path, &small);
            path
        });
        eprintln!(
            "fuzz: {} {}\n  case {case} (MANCALA_FUZZ_CASE={case}){}\n  {}",
            known.map_or("FINDING".to_owned(), |t| format!("known bug ({t})")),
            fail.key,
            file.as_ref()
                .map(|p| format!("\n  input: {} (MANCALA_FUZZ_FILE)", p.display()))
                .unwrap_or_default(),
            fail.detail.replace('\n', "\n  ")
        );
        self.seen.insert(
            fail.key,
            Seen {
                known,
                count: 1,
                case,
                detail: fail.detail,
                file,
            },
        );
    }

    fn report(&self) -> String {
        let mut out = String::new();
        for (key, seen) in &self.seen {
            out.push_str(&format!(
                "- {}{key} ({} time{}; case {}{}):\n    {}\n",
                seen.known
                    .map_or(String::new(), |t| format!("known, see {t}: ")),
                seen.count,
                if seen.count == 1 { "" } else { "s" },
                seen.case,
                seen.file
                    .as_ref()
                    .map(|p| format!(", input {}", p.display()))
                    .unwrap_or_default(),
                seen.detail.lines().next().unwrap_or("")
            ));
        }
        out
    }
}

/// Deletes chunks of the input while the same finding reproduces
/// (bounded, so a slow finding does not stall the run).
fn minimize(input: &[u8], key: &str, rng_seed: u64) -> Vec<u8> {
    let reproduces = |bytes: &[u8]| {
        let mut rng = Rng::with_seed(rng_seed);
        matches!(guarded(|| check_bytes(bytes, &mut rng)), Err(f) if f.key == key)
    };
    let mut best = input.to_vec();
    if !reproduces(&best) {
        return best;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut chunk = best.len().div_ceil(2);
    while chunk > 0 && Instant::now() < deadline {
        let mut at = 0;
        while at < best.len() && Instant::now() < deadline {
            let end = (at + chunk).min(best.len());
            let mut candidate = best[..at].to_vec();
            candidate.extend_from_slice(&best[end..]);
            if reproduces(&candidate) {
                best = candidate;
            } else {
                at += chunk;
            }
        }
        chunk /= 2;
    }
    best
}

// ---------------------------------------------------------------------------
// Watchdog: a case that runs too long is a finding (a hang).

struct Current {
    case: u64,
    started: Instant,
    input: Vec<u8>,
    reported: bool,
}

struct Watchdog {
    current: Arc<Mutex<Current>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    fn start(out: PathBuf, slow: Duration) -> Watchdog {
        let current = Arc::new(Mutex::new(Current {
            case: 0,
            started: Instant::now(),
            input: Vec::new(),
            reported: false,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let current = Arc::clone(&current);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    let Ok(mut now) = current.lock() else { return };
                    let elapsed = now.started.elapsed();
                    if elapsed > slow && !now.reported {
                        now.reported = true;
                        let _ = std::fs::create_dir_all(&out);
                        let path = out.join(format!("hang-{:016x}.mgn", now.case));
                        let _ = std::fs::write(&path, &now.input);
                        eprintln!(
                            "fuzz: FINDING case {} has run for {elapsed:?} (MANCALA_FUZZ_CASE={}; input {})",
                            now.case,
                            now.case,
                            path.display()
                        );
                    }
                    if elapsed > slow * 10 {
                        eprintln!("fuzz: case {} hangs; aborting", now.case);
                        std::process::abort();
                    }
                }
            })
        };
        Watchdog {
            current,
            stop,
            thread: Some(thread),
        }
    }

    fn begin(&self, case: u64, input: &[u8]) {
        if let Ok(mut now) = self.current.lock() {
            now.case = case;
            now.started = Instant::now();
            now.input.clear();
            now.input.extend_from_slice(input);
            now.reported = false;
        }
    }

    /// Whether the case that just ended was reported as hanging.
    fn end(&self) -> bool {
        self.current
            .lock()
            .map(|mut now| {
                let hung = now.reported;
                now.started = Instant::now();
                now.reported = true;
                hung
            })
            .unwrap_or(false)
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

// ---------------------------------------------------------------------------
// Byte inputs: the reader, the parser, the printer and the validator.

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Counters for the summary.
#[derive(Debug, Default)]
struct Stats {
    byte_cases: u64,
    bytes: u64,
    games: u64,
    parsed: u64,
    valid: u64,
    /// Games the check found valid with its fast lane.
    valid_fast: u64,
    rules_cases: u64,
    setups: u64,
    setups_accepted: u64,
    plies: u64,
    records_valid: u64,
}

thread_local! {
    static STATS: RefCell<Stats> = RefCell::new(Stats::default());
}

fn stat(f: impl FnOnce(&mut Stats)) {
    STATS.with(|s| f(&mut s.borrow_mut()));
}

fn split(data: &[u8]) -> Vec<GameText> {
    Reader::new(data)
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect()
}

/// Whether text holds anything but ASCII whitespace and complete comments
/// (spec/notation.md §1.1: such text is not a game).
fn has_content(bytes: &[u8]) -> bool {
    let mut in_comment = false;
    for &b in bytes {
        match (in_comment, b) {
            (false, b'{') => in_comment = true,
            (true, b'}') => in_comment = false,
            (false, b) if !b.is_ascii_whitespace() => return true,
            _ => {}
        }
    }
    in_comment
}

/// The reader's games cover the input: each game is the input's bytes at
/// its offset, with the right line number; what lies between games is
/// whitespace and complete comments.
fn check_split(data: &[u8], games: &[GameText]) -> Check {
    let mut at = if data.starts_with(BOM) { BOM.len() } else { 0 };
    for (i, game) in games.iter().enumerate() {
        let offset = game.offset as usize;
        let end = offset + game.len as usize;
        if offset < at || end > data.len() {
            return fail(
                "reader: games overlap or run past the input",
                format!(
                    "game {i} at {offset}..{end}, previous end {at}, input {}",
                    data.len()
                ),
            );
        }
        if has_content(&data[at..offset]) {
            return fail(
                "reader: text between games was dropped",
                format!("{:?}", String::from_utf8_lossy(&data[at..offset])),
            );
        }
        if game.bytes != data[offset..end] {
            return fail(
                "reader: a game's bytes differ from the input",
                format!("game {i}"),
            );
        }
        let line = 1 + data[..offset].iter().filter(|b| **b == b'\n').count() as u64;
        if game.first_line != line {
            return fail(
                "reader: wrong first line",
                format!("game {i}: {} instead of {line}", game.first_line),
            );
        }
        if !has_content(&game.bytes) {
            return fail(
                "reader: a text of only blanks and comments is reported as a game",
                format!("{:?}", String::from_utf8_lossy(&game.bytes)),
            );
        }
        at = end;
    }
    if has_content(&data[at..]) {
        return fail("reader: text after the last game was dropped", "");
    }
    Ok(())
}

/// With a game limit, every game is still found where it was; the ones
/// over the limit are kept cut.
fn check_limited(data: &[u8], games: &[GameText], limit: usize) -> Check {
    let limited: Vec<GameText> = Reader::with_limit(data, limit)
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect();
    let mut expected = games.iter().peekable();
    for got in &limited {
        if expected.peek().is_none_or(|want| got.offset < want.offset) {
            // A chunk of blanks and comments that the unlimited reader
            // dropped, longer than the limit.
            return fail(
                "reader: an over-limit run of remarks between games is reported as a game",
                format!(
                    "limit {limit}: a game at byte {} of {} bytes",
                    got.offset, got.len
                ),
            );
        }
        let want = expected.next().unwrap_or_else(|| unreachable!());
        let keep = (want.len as usize).min(limit);
        let ok = got.offset == want.offset
            && got.len == want.len
            && got.first_line == want.first_line
            && got.bytes == want.bytes[..keep]
            && got.is_truncated() == (want.len as usize > limit);
        if !ok {
            return fail(
                "reader: the game limit changes how games are cut",
                format!(
                    "limit {limit}: game at {}+{} line {} vs {}+{} line {}",
                    got.offset, got.len, got.first_line, want.offset, want.len, want.first_line
                ),
            );
        }
    }
    if let Some(missing) = expected.next() {
        return fail(
            "reader: the game limit loses games",
            format!(
                "limit {limit}: the game at byte {} is missing",
                missing.offset
            ),
        );
    }
    Ok(())
}

/// An error's span starts in its game (at its end at most: a span one past
/// the end, as for `[G` at the end of a text, does no harm), starts on a
/// character, renders, and its message is one short line.
fn check_error(game: &GameText, span: &std::ops::Range<usize>, message: &str) -> Check {
    if span.start > span.end || span.start > game.bytes.len() {
        return fail(
            "error span outside its game",
            format!("{span:?} in {} bytes: {message}", game.bytes.len()),
        );
    }
    if let Ok(text) = game.text()
        && !text.is_char_boundary(span.start)
    {
        return fail(
            "error span starts inside a character",
            format!("{span:?}: {message}"),
        );
    }
    if message.contains('\n') {
        return fail("error message spans lines", message.to_owned());
    }
    // A set-up with every problem at once makes the longest honest message
    // (about 900 characters); longer ones quote the input unshortened.
    if message.chars().count() > 1500 {
        let head: String = message.chars().take(120).collect();
        return fail(
            "error message is not shortened",
            format!("{} characters: {head}…", message.chars().count()),
        );
    }
    let mut out = String::new();
    diagnostic::render(&mut out, "fuzz.mgn", game, span, message, false);
    diagnostic::render(&mut out, "fuzz.mgn", game, span, message, true);
    let (line, _) = game.line_col(span.start);
    if line < game.first_line {
        return fail("error line before its game", format!("{line}"));
    }
    Ok(())
}

/// `parse(print(r)) == r`, printing is stable, the print is one game to
/// the reader, and the JSON form round-trips.
fn check_round_trip(record: &Record) -> Check {
    let printed = record.to_string();
    let again = match parse_game(&printed) {
        Ok(again) => again,
        Err(e) => {
            return fail(
                "canonical print does not parse",
                format!("{e} at {:?}\n{printed}", e.span),
            );
        }
    };
    if again.record != *record {
        return fail(
            "print then parse changes the record",
            format!("{printed}\n{:?}\n{:?}", record, again.record),
        );
    }
    if again.record.to_string() != printed {
        return fail("printing is not stable", printed);
    }
    let games = split(printed.as_bytes());
    if games.len() != 1 || games[0].bytes != printed.as_bytes() {
        return fail(
            "the reader cuts a canonical print into several games",
            format!("{} games\n{printed}", games.len()),
        );
    }
    let json = match serde_json::to_string(record) {
        Ok(json) => json,
        Err(e) => return fail("record does not serialize", e.to_string()),
    };
    match serde_json::from_str::<Record>(&json) {
        Ok(back) if back == *record => Ok(()),
        Ok(_) => fail("JSON round trip changes the record", json),
        Err(e) => fail("record JSON does not deserialize", format!("{e}: {json}")),
    }
}

fn moves_in(record: &Record) -> usize {
    record.moves().count()
}

/// Parses and checks one game as the tools do.
fn check_game(game: &GameText, rng: &mut Rng) -> Check {
    stat(|s| s.games += 1);
    let parsed: Result<ParsedGame, _> = game.parse();
    match &parsed {
        Err(e) => check_error(game, &e.span, &e.to_string())?,
        Ok(p) => {
            stat(|s| s.parsed += 1);
            let len = game.bytes.len();
            let spans = p.spans.items.iter().chain(std::iter::once(&p.spans.result));
            for span in spans.chain(p.spans.tags.iter().map(|(_, s)| s)) {
                if span.start > span.end || span.end > len {
                    return fail("record span outside its game", format!("{span:?} in {len}"));
                }
            }
            if p.spans.items.len() != p.record.items.len()
                || p.spans.inner.len() != p.record.walk().filter(|(depth, _)| *depth > 0).count()
            {
                return fail("one span per item", "");
            }
            if p.spans
                .inner
                .iter()
                .any(|span| span.start > span.end || span.end > len)
            {
                return fail(
                    "record span outside its game",
                    format!("{:?}", p.spans.inner),
                );
            }
            check_round_trip(&p.record)?;
        }
    }
    // Plies observed: every move played by the full rules.
    let mut plies_seen = 0;
    let checked = check::check_text(
        game,
        None,
        Build::Record,
        Some(&mut |ply| {
            plies_seen += 1;
            debug_assert_eq!(ply.number, plies_seen);
        }),
    );
    for p in &checked.problems {
        check_error(game, &p.span, &p.to_string())?;
    }
    if parsed.is_ok() != checked.parsed.is_some() {
        return fail("check_text and parse disagree", "");
    }
    // Plies not observed, the check's fast lane takes the common moves and
    // leaves "cannot move" open until it matters: the same verdict, game
    // and round ends, and the same record when one is built.
    let build = [Build::Nothing, Build::Tags, Build::Record][rng.usize(..3)];
    let record = build == Build::Record;
    let fast = check::check_text(game, None, build, None);
    if fast.is_valid() {
        stat(|s| s.valid_fast += 1);
    }
    let replayed = |c: &check::Checked| {
        c.replay.as_ref().map(|r| {
            (
                r.plies,
                r.round_ends.clone(),
                r.markers_due.clone(),
                r.game.as_ref().map(|g| (*g.position(), g.status())),
            )
        })
    };
    if fast.problems != checked.problems
        || replayed(&fast) != replayed(&checked)
        || (record && fast.parsed != checked.parsed)
    {
        return fail(
            "the fast lane and the full rules disagree",
            format!("{:?} vs {:?}", fast.problems, checked.problems),
        );
    }
    if !checked.is_valid() {
        return Ok(());
    }
    stat(|s| s.valid += 1);
    let (Some(parsed), Some(replay)) = (&checked.parsed, &checked.replay) else {
        return fail("a valid game without a record or replay", "");
    };
    let Some(end) = &replay.game else {
        return fail("a valid game without a final position", "");
    };
    conserved(end.position(), "validated game")?;
    let record = &parsed.record;
    if replay.plies != moves_in(record) || plies_seen != replay.plies {
        return fail(
            "valid game: plies differ from moves",
            format!("{} plies, {} moves", replay.plies, moves_in(record)),
        );
    }
    match (record.result, end.outcome()) {
        (GameResult::Unfinished, None) => {}
        (GameResult::Score(s, n), Some(o)) if o.score == [s, n] => {}
        (result, outcome) => {
            return fail(
                "valid game: result and outcome disagree",
                format!("{result} vs {outcome:?}"),
            );
        }
    }
    // What mancala-validate writes must be valid for mancala-render.
    let printed = record.to_string();
    let again = check::check_text(&GameText::whole(&printed), None, Build::Nothing, None);
    if !again.is_valid() || again.replay.as_ref().map(|r| r.plies) != Some(replay.plies) {
        return fail(
            "the canonical print of a valid game is not valid",
            format!("{:?}\n{printed}", again.problems),
        );
    }
    Ok(())
}

/// Every check on one input's bytes.
pub fn check_bytes(data: &[u8], rng: &mut Rng) -> Check {
    stat(|s| {
        s.byte_cases += 1;
        s.bytes += data.len() as u64;
    });
    let games = split(data);
    check_split(data, &games)?;
    // One byte per read splits every token across reads; small inputs only,
    // for speed.
    let random = 1 + rng.usize(..64);
    let capacities = if data.len() <= 8192 {
        vec![1, random]
    } else {
        vec![random]
    };
    for capacity in capacities {
        let small: Vec<GameText> = Reader::new(BufReader::with_capacity(capacity, data))
            .map(|g| g.expect("reading from memory cannot fail"))
            .collect();
        if small != games {
            return fail(
                if data.starts_with(&BOM[..1]) {
                    "reader: games depend on the read buffer's size (a byte-order mark?)"
                } else {
                    "reader: games depend on the read buffer's size"
                },
                format!(
                    "capacity {capacity}: {} games instead of {}",
                    small.len(),
                    games.len()
                ),
            );
        }
    }
    let limit = match rng.u8(..3) {
        0 => 1 + rng.usize(..64),
        1 => 1 + rng.usize(..1024),
        _ => 1 + rng.usize(..data.len().max(1) * 2),
    };
    check_limited(data, &games, limit)?;
    for game in &games {
        check_game(game, rng)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Mutations of byte inputs.

const TOKENS: &[&str] = &[
    "[Game \"olowuka\"]\n",
    "[Game \"olinda-keliya\"]\n",
    "[Game \"pallankuzhi\"]\n",
    "[Game \"rio-kadalis\"]\n",
    "[Game \"oware\"]\n",
    "[Options \"seeds=5 same-direction\"]\n",
    "[Options \"endless-ends-game\"]\n",
    "[Options \"no-repetition-rule\"]\n",
    "[Options \"single-round five-holes clockwise\"]\n",
    "[Options \"seeds=7 series-capture skip-origin\"]\n",
    "[Options \"play-to-end\"]\n",
    "[Options \"pasu-to-owner no-pasu-on-last-seed capture-opposite\"]\n",
    "[SetUp \"S 4,4,4,4,4,4/4,4,4,4,4,4 0-0\"]\n",
    "[SetUp \"S 3,0,1,2,0,5/1,1,1,1,1,2 16-14\"]\n",
    "[SetUp \"N 6,6,6,x,x,x,x/6,6,6,6,6,6,6 2-4 round=3 starter=S\"]\n",
    "[SetUp \"S 2,3,1,0,0,5,1/4,0,2,1,2,3,0 16-16 dir=ccw\"]\n",
    "[SetUp \"S 0,0,0,0,0,0,0/3,0,0,0,0,1,0 40-40 round=65535\"]\n",
    "[SetUp \"N x,x,4,4,4,4/x,4,4,4,4,4 8-0 round=2\"]\n",
    "[Result \"*\"]\n",
    "[Result \"25-23\"]\n",
    "[Termination \"repetition\"]\n",
    "[Termination \"no-moves\"]\n",
    "[Termination \"endless-move\"]\n",
    "[Termination \"cannot-refill\"]\n",
    "[Event \"x\\\"y\\\\\"]\n",
    "[Foo_1 \"bar\"]\n",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "{a remark}",
    "{\n[Game \"olowuka\"]\n}",
    "*",
    "* ",
    "0-0",
    "24-24",
    "48-0",
    "4294967295",
    "4294967296",
    "99999999999999999999999",
    "R2",
    "R1",
    "R0",
    "R65536",
    "R4294967296",
    "1.",
    "1...",
    "12.",
    "E:ccw",
    "e:cw",
    "E:",
    "E:up",
    "+",
    "+0",
    "+11",
    "+4294967296",
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "\t",
    "\x0c",
    "\u{feff}",
    "é",
    "\u{2028}",
    "\u{a0}",
    "x",
    ",",
    "/",
    " dir=cw",
    " round=0",
    " round=70000",
    " starter=N",
    ",x",
    ",0",
    ",255",
    ",4294967295",
    "(",
    ")",
    " ( ",
    " ) ",
    "( 1... a ) ",
    "!",
    "?",
    "!!",
    "??",
    "!?",
    "?!",
    " $14",
    "$0",
    "$255",
    "$256",
    "{[%eval +3,9]}",
    "{[%eval =-2]}",
    "{[%eval big]}",
    "{[%eval +1",
    "[%eval",
];

fn random_move(rng: &mut Rng) -> String {
    let label = if rng.bool() {
        (b'A' + rng.u8(..26)) as char
    } else {
        (b'a' + rng.u8(..26)) as char
    };
    let mut out = label.to_string();
    match rng.u8(..8) {
        0 => out.push_str(":ccw"),
        1 => out.push_str(":cw"),
        _ => {}
    }
    if rng.u8(..4) == 0 {
        out.push_str(&format!("+{}", rng.u32(..30)));
    }
    out
}

fn line_starts(data: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .filter(|i| *i <= data.len())
        .collect()
}

/// Bulk content a game can hold many of, for [`bulk`]: line breaks (in a
/// comment, if the bytes around make one), comments, round markers,
/// annotated moves, remarks, NAGs, variations and parentheses alone.
const BULK: &[&str] = &[
    "\n",
    "\r",
    "\r\n",
    "{c} ",
    "R2 ",
    "D+1 ",
    "A g ",
    "} {",
    "D! $14 ",
    "A ( A ) ",
    "A ( A ( A ) ) ",
    "(",
    ")",
];

/// Up to `MAX_BULK` bytes of one kind of content, or of distinct tags: the
/// sizes at which more than linear work shows (the other mutations stay
/// under 64 KiB).
fn bulk(rng: &mut Rng) -> Vec<u8> {
    let count = 1 << rng.u32(8..17);
    if rng.u8(..4) == 0 {
        return (0..count)
            .flat_map(|i| format!("[T{i} \"v\"]\n").into_bytes())
            .collect();
    }
    BULK[rng.usize(..BULK.len())].repeat(count).into_bytes()
}

const MAX_BULK: usize = 1 << 20;

/// Bytes that stand for a large input, so that the short inputs of
/// cargo-fuzz (a few kilobytes by default) reach the sizes where more than
/// linear work shows: `\x01`, a count byte `n`, then a prefix, `\x02`, a
/// piece and `\x02` again, then a suffix, stand for the prefix, the piece
/// `2^(n % 21)` times and the suffix (at most 4 MiB). `None` for any other
/// input.
#[must_use]
pub fn expand_bulk(data: &[u8]) -> Option<Vec<u8>> {
    let [1, n, rest @ ..] = data else {
        return None;
    };
    let mut parts = rest.splitn(3, |&b| b == 2);
    let (prefix, piece, suffix) = (parts.next()?, parts.next()?, parts.next()?);
    let times = (1usize << (n % 21)).min((4 << 20) / piece.len().max(1));
    let mut out = prefix.to_vec();
    out.extend(piece.repeat(times));
    out.extend_from_slice(suffix);
    Some(out)
}

fn mutate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    const MAX: usize = 64 << 10;
    let mut data = corpus[rng.usize(..corpus.len())].clone();
    let most = 1 + rng.usize(..8);
    let rounds = 1 + rng.usize(..most);
    let mut max = MAX;
    for _ in 0..rounds {
        let len = data.len();
        let at = rng.usize(..=len);
        match rng.u8(..13) {
            // Rarely (a large case takes a while): bulk content.
            _ if rng.u8(..48) == 0 => {
                let starts = line_starts(&data);
                let at = starts[rng.usize(..starts.len())];
                data.splice(at..at, bulk(rng));
                max = MAX_BULK;
            }
            0 if len > 0 => {
                let i = rng.usize(..len);
                data[i] ^= 1 << rng.u8(..8);
            }
            1 if len > 0 => {
                let i = rng.usize(..len);
                const BYTES: &[u8] = b"\0\x80\xff\xc3\xe2{}[]\"\\\n\r \t*-+:.,/x0123456789RSNaAgG";
                data[i] = BYTES[rng.usize(..BYTES.len())];
            }
            2 => {
                let end = (at + 1 + rng.usize(..16)).min(len);
                data.drain(at..end);
            }
            3 => data.truncate(at),
            4 | 5 => {
                let token = TOKENS[rng.usize(..TOKENS.len())].as_bytes();
                // Tag lines go at line starts.
                let at = if token.starts_with(b"[") && token.ends_with(b"\n") {
                    let starts = line_starts(&data);
                    starts[rng.usize(..starts.len())]
                } else {
                    at
                };
                data.splice(at..at, token.iter().copied());
            }
            6 => {
                let token = random_move(rng);
                let token = if rng.bool() {
                    format!(" {token} ")
                } else {
                    token
                };
                data.splice(at..at, token.bytes());
            }
            7 => {
                let other = &corpus[rng.usize(..corpus.len())];
                let from = rng.usize(..=other.len());
                let to = (from + rng.usize(..=other.len() - from)).min(from + 4096);
                if rng.bool() {
                    data.truncate(at);
                }
                data.splice(at..at, other[from..to].iter().copied());
            }
            8 if len > 0 => {
                let from = rng.usize(..len);
                let to = (from + 1 + rng.usize(..64)).min(len);
                let piece = data[from..to].to_vec();
                for _ in 0..1 + rng.usize(..4) {
                    data.splice(at..at, piece.iter().copied());
                }
            }
            9 => {
                let starts = line_starts(&data);
                if starts.len() > 2 {
                    let a = rng.usize(..starts.len() - 1);
                    let b = rng.usize(..starts.len() - 1);
                    let (a, b) = (a.min(b), a.max(b));
                    if a != b {
                        let line_a = data[starts[a]..starts[a + 1]].to_vec();
                        let line_b = data[starts[b]..starts[b + 1]].to_vec();
                        let mut out = data[..starts[a]].to_vec();
                        out.extend_from_slice(&line_b);
                        out.extend_from_slice(&data[starts[a + 1]..starts[b]]);
                        out.extend_from_slice(&line_a);
                        out.extend_from_slice(&data[starts[b + 1]..]);
                        data = out;
                    }
                }
            }
            10 => {
                // A number replaced by an extreme one.
                if let Some(start) = (at..len).find(|i| data[*i].is_ascii_digit()) {
                    let end = (start..len)
                        .find(|i| !data[*i].is_ascii_digit())
                        .unwrap_or(len);
                    let number = match rng.u8(..6) {
                        0 => "0".to_owned(),
                        1 => "255".to_owned(),
                        2 => "256".to_owned(),
                        3 => u32::MAX.to_string(),
                        4 => (u64::from(u32::MAX) + 1).to_string(),
                        _ => "9".repeat(1 + rng.usize(..200)),
                    };
                    data.splice(start..end, number.bytes());
                }
            }
            11 => {
                // Line ends changed.
                data = if rng.bool() {
                    String::from_utf8_lossy(&data)
                        .replace('\n', "\r\n")
                        .into_bytes()
                } else {
                    data.into_iter().filter(|b| *b != b'\r').collect()
                };
            }
            _ => {
                let n = rng.usize(..32);
                data.splice(at..at, std::iter::repeat_with(|| rng.u8(..)).take(n));
            }
        }
        data.truncate(max);
    }
    data
}

// ---------------------------------------------------------------------------
// The rules: random set-ups and move sequences.

fn conserved(position: &Position, what: &str) -> Check {
    let total = position.board_seeds()
        + Side::BOTH
            .iter()
            .map(|s| u32::from(position.store(*s)))
            .sum::<u32>();
    if total != position.rules().total_seeds() {
        return fail(
            "seeds not conserved",
            format!(
                "{what}: {total} seeds, the game has {}: {}",
                position.rules().total_seeds(),
                format_setup(&position.to_setup())
            ),
        );
    }
    Ok(())
}

/// Rules for a case: usually the shared generator's, one time in twenty
/// options the game may not take (a stray flag, a seed count or round limit
/// out of range), which `Rules::new` must refuse; one time in eight with a
/// small lap budget.
fn random_rules(rng: &mut Rng) -> Result<Rules, ()> {
    let rules = if rng.u8(..20) == 0 {
        stray_rules(rng)?
    } else {
        mancala_testkit::random_rules(rng)
    };
    let budget = if rng.u8(..8) == 0 {
        1 + rng.u32(..3000)
    } else {
        DEFAULT_LAP_BUDGET
    };
    rules.with_lap_budget(budget).map_err(|_| ())
}

/// Any flags, seed count and round limit, whether the game takes them or not.
fn stray_rules(rng: &mut Rng) -> Result<Rules, ()> {
    let game = GameId::ALL[rng.usize(..GameId::ALL.len())];
    let mut options = Options::new();
    for opt in Opt::ALL {
        if rng.u8(..4) == 0 {
            options = options.with(opt);
        }
    }
    if rng.u8(..3) == 0 {
        options = options.with_seeds(1 + rng.u8(..99));
    }
    if rng.u8(..4) == 0 {
        options = options.with_rounds(rng.u32(..6));
    }
    Rules::new(game, options).map_err(|_| ())
}

/// A set-up that is usually a position of `rules`: the shared generator's,
/// now and then moved to a later round (up to the last a set-up may name)
/// or given a round starter.
fn plausible_setup(rng: &mut Rng, rules: Rules) -> Setup {
    let mut setup = mancala_testkit::random_setup(rng, rules);
    if rules.plays_rounds() && rng.bool() {
        setup.round = if rng.u8(..16) == 0 {
            65535 - rng.u32(..3)
        } else {
            setup.round.max(2) + rng.u32(..6)
        };
    }
    if rules.game().has_rounds() && rng.bool() {
        setup.round_starter = Some(if rng.bool() { Side::South } else { Side::North });
    }
    // Now and then one thing wrong.
    match rng.u8(..16) {
        0 => setup.stores[0] += 1,
        1 => setup.south.push(Some(0)),
        2 => setup.round = 0,
        3 => setup.south_dir = Some(Dir::Cw),
        _ => {}
    }
    setup
}

/// A set-up of any shape.
fn garbage_setup(rng: &mut Rng, rules: Rules) -> Setup {
    let n = rules.holes();
    let len = |rng: &mut Rng| match rng.u8(..8) {
        0 => 0,
        1 => 1,
        2 => n - 1,
        3 => n + 1,
        4 => rng.usize(..20),
        5 => 1000 + rng.usize(..5000),
        _ => n,
    };
    let count = |rng: &mut Rng| match rng.u8(..10) {
        0 => None,
        1 => Some(u32::MAX),
        2 => Some(255),
        3 => Some(256),
        4 => Some(rng.u32(..)),
        _ => Some(rng.u32(..10)),
    };
    let row = |rng: &mut Rng| {
        let len = len(rng);
        (0..len).map(|_| count(rng)).collect::<Vec<_>>()
    };
    let south = row(rng);
    let north = row(rng);
    let store = |rng: &mut Rng| match rng.u8(..4) {
        0 => u32::MAX,
        1 => rng.u32(..),
        _ => rng.u32(..100),
    };
    let stores = [store(rng), store(rng)];
    Setup {
        south,
        north,
        stores,
        to_move: if rng.bool() { Side::South } else { Side::North },
        south_dir: match rng.u8(..3) {
            0 => Some(Dir::Ccw),
            1 => Some(Dir::Cw),
            _ => None,
        },
        round: match rng.u8(..8) {
            0 => 0,
            1 => 65535,
            2 => 65536,
            3 => u32::MAX,
            4 => 2 + rng.u32(..10),
            _ => 1,
        },
        round_starter: match rng.u8(..3) {
            0 => Some(Side::South),
            1 => Some(Side::North),
            _ => None,
        },
    }
}

/// What mancala-render draws of a legal move: the ply, the move lap by lap,
/// the position; in 80 columns, as JSON too.
fn check_drawing(rng: &mut Rng, before: &Position, mv: Move) -> Check {
    let mut frames = vec![position_frame(before)];
    match ply_frame(before, mv, 1 + rng.usize(..500)) {
        Ok(frame) => frames.push(frame),
        Err(e) => {
            return fail(
                "render: a legal move has no ply frame",
                format!("{mv}: {e}"),
            );
        }
    }
    match lap_frames(before, mv, 1 + rng.usize(..40)) {
        Ok(laps) => frames.extend(laps),
        Err(e) => {
            return fail(
                "render: a legal move has no lap frames",
                format!("{mv}: {e}"),
            );
        }
    }
    for charset in [Charset::Ascii, Charset::Unicode] {
        let mut text = String::new();
        let style = Style {
            charset,
            colour: false,
        };
        if draw_frames(&mut text, &frames, style).is_err() {
            return fail("render: drawing fails", format!("{mv}"));
        }
        if let Some(line) = text.lines().find(|l| l.chars().count() > 80) {
            let title = line.starts_with(before.rules().game().as_str());
            return fail(
                if title {
                    "render: the title line (game and options) is wider than 80 columns"
                } else {
                    "render: a line wider than 80 columns"
                },
                format!("{mv} in {}:\n{line}", format_setup(&before.to_setup())),
            );
        }
        let mut coloured = String::new();
        let _ = draw_frames(&mut coloured, &frames, style.with_colour(true));
    }
    if let Err(e) = serde_json::to_string(&FramesJson::new(before.rules(), &frames)) {
        return fail("render: frames do not serialize", e.to_string());
    }
    Ok(())
}

/// Errors that stop a game whatever the move: a verdict undecided within
/// the lap budget.
fn cannot_go_on(kind: &PlayErrorKind) -> bool {
    matches!(kind, PlayErrorKind::Undecided { .. })
}

/// Any move label, sometimes with a direction.
fn any_move(rng: &mut Rng) -> Move {
    let hole = Hole::new(
        if rng.bool() { Side::South } else { Side::North },
        rng.u8(..26),
    );
    match rng.u8(..4) {
        0 => Move::with_dir(hole, Dir::Ccw),
        1 => Move::with_dir(hole, Dir::Cw),
        _ => Move::new(hole),
    }
}

/// Plays random moves (mostly legal ones) and checks each against the
/// rules' own account, writing the moves to `record`.
fn play_random(rng: &mut Rng, game: &mut Game, record: &mut Record) -> Check {
    let rules = game.position().rules();
    let max_plies = if rng.u8(..10) == 0 { 3000 } else { 200 };
    for _ in 0..max_plies {
        let before = game.clone();
        if game.outcome().is_some() {
            match game.play(any_move(rng)) {
                Err(e) if e.kind == PlayErrorKind::GameOver => break,
                other => {
                    return Err(Fail {
                        key: "a move after the end is not refused as such".to_owned(),
                        detail: format!("{other:?}"),
                    });
                }
            }
        }
        let legal = match game.position().legal_moves() {
            Ok(legal) => legal,
            Err(e) if cannot_go_on(&e.kind) => break,
            Err(e) => {
                return Err(Fail {
                    key: "legal_moves fails".to_owned(),
                    detail: e.to_string(),
                });
            }
        };
        if legal.is_empty() {
            return Err(Fail {
                key: "an ongoing game without a legal move".to_owned(),
                detail: format_setup(&game.position().to_setup()),
            });
        }
        if game.position().has_legal_move().ok() != Some(true) {
            return Err(Fail {
                key: "has_legal_move disagrees with legal_moves".to_owned(),
                detail: format_setup(&game.position().to_setup()),
            });
        }
        let mv = if rng.u8(..7) == 0 {
            any_move(rng)
        } else {
            legal
                .get(rng.usize(..legal.len()))
                .unwrap_or_else(|| unreachable!())
        };
        let mover = game.position().to_move();
        // A rightly named direction the move does not choose is accepted:
        // the move is the one legal_moves lists without it.
        let listed = game.position().canonical_move(mv);
        match game.play(mv) {
            Ok(report) => {
                if !legal.contains(listed) {
                    return Err(Fail {
                        key: "Game::play accepts a move legal_moves does not list".to_owned(),
                        detail: format!("{mv} in {}", format_setup(&before.position().to_setup())),
                    });
                }
                stat(|s| s.plies += 1);
                conserved(game.position(), "after a move")?;
                if rng.u8(..32) == 0 {
                    check_drawing(rng, before.position(), mv)?;
                }
                let gained = report.gained[mover.index()];
                record.items.push(Item::Move {
                    mv,
                    captured: (gained > 0).then_some(gained),
                });
                record
                    .items
                    .extend(check::rounds_begun(&report).map(|round| Item::Round { round }));
                if let Some(outcome) = report.outcome {
                    if outcome.score[0] + outcome.score[1] != rules.total_seeds() {
                        return Err(Fail {
                            key: "final score does not conserve seeds".to_owned(),
                            detail: format!(
                                "{outcome:?} after {mv} in {}",
                                format_setup(&before.position().to_setup())
                            ),
                        });
                    }
                    if game.status() != Status::Over(outcome) {
                        return Err(Fail {
                            key: "report and status disagree".to_owned(),
                            detail: format!("{outcome:?}"),
                        });
                    }
                }
            }
            Err(e) => {
                let undecided = cannot_go_on(&e.kind);
                if legal.contains(mv) && !undecided {
                    return Err(Fail {
                        key: "Game::play refuses a move legal_moves lists".to_owned(),
                        detail: format!(
                            "{mv} ({e}) in {}",
                            format_setup(&before.position().to_setup())
                        ),
                    });
                }
                if game.position() != before.position() || game.status() != before.status() {
                    return Err(Fail {
                        key: "a refused move changes the game".to_owned(),
                        detail: format!("{mv}: {e}"),
                    });
                }
                if undecided {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// A random game from a random position; the record it makes must validate.
/// Returns the record's text, for the byte corpus.
pub fn check_rules(rng: &mut Rng) -> Result<Option<String>, Fail> {
    stat(|s| s.rules_cases += 1);
    let Ok(rules) = random_rules(rng) else {
        return Ok(None);
    };
    let setup = match rng.u8(..5) {
        0 => None,
        1 => Some(garbage_setup(rng, rules)),
        _ => Some(plausible_setup(rng, rules)),
    };
    let start = match &setup {
        None => Position::new(rules),
        Some(setup) => {
            stat(|s| s.setups += 1);
            if !setup.south.is_empty() && !setup.north.is_empty() {
                let text = format_setup(setup);
                match parse_setup(&text) {
                    Ok(back) if back == *setup => {}
                    other => {
                        return Err(Fail {
                            key: "set-up print/parse round trip".to_owned(),
                            detail: format!("{text}: {other:?}"),
                        });
                    }
                }
            }
            match Position::from_setup(rules, setup) {
                Ok(position) => position,
                Err(e) => {
                    if e.problems.is_empty() {
                        return Err(Fail {
                            key: "set-up refused without a problem".to_owned(),
                            detail: format_setup(setup),
                        });
                    }
                    return Ok(None);
                }
            }
        }
    };
    if setup.is_some() {
        stat(|s| s.setups_accepted += 1);
    }
    conserved(&start, "start")?;
    if Position::from_setup(rules, &start.to_setup()).as_ref() != Ok(&start) {
        return Err(Fail {
            key: "to_setup/from_setup round trip".to_owned(),
            detail: format_setup(&start.to_setup()),
        });
    }
    let (mut game, opening) = match Game::new(start) {
        Ok(started) => started,
        Err(e) if cannot_go_on(&e.kind) => return Ok(None),
        Err(e) => {
            return Err(Fail {
                key: "Game::new fails".to_owned(),
                detail: format!("{e}: {}", format_setup(&start.to_setup())),
            });
        }
    };
    let mut record = Record::new(rules.game());
    record.options = rules.options();
    record.setup = setup.clone();
    record
        .items
        .extend(check::rounds_begun(&opening).map(|round| Item::Round { round }));
    let played = play_random(rng, &mut game, &mut record);
    if let Err(mut f) = played {
        // Everything needed to replay it: the record so far and the budget.
        f.detail.push_str(&format!(
            "\nlap budget {}; the record up to the move:\n{}",
            rules.lap_budget(),
            record
        ));
        return Err(f);
    }
    match game.outcome() {
        Some(outcome) => {
            record.result = GameResult::Score(outcome.score[0], outcome.score[1]);
            if rng.bool() {
                record.termination = Some(outcome.reason);
            }
        }
        None => record.result = GameResult::Unfinished,
    }
    let text = record.to_string();
    let observe = rng.bool();
    let checked = check::check_text(
        &GameText::whole(&text),
        Some(rules.lap_budget()),
        Build::Nothing,
        observe.then_some(&mut |_: &check::Ply<'_>| {}),
    );
    let replayed = checked.replay.as_ref().and_then(|r| r.game.as_ref());
    if !checked.is_valid() || replayed.map(Game::position) != Some(game.position()) {
        return Err(Fail {
            key: "a record of a rules-played game does not validate".to_owned(),
            detail: format!("{:?}\n{text}", checked.problems),
        });
    }
    stat(|s| s.records_valid += 1);
    Ok(Some(text))
}

/// A valid record changed as a record: a move dropped, two swapped, an
/// annotation or the result changed, a marker added, a NAG or a variation
/// added (one that plays the main line's next moves again, so legal, or
/// nested in another).
fn mutate_record(rng: &mut Rng, text: &str) -> Option<String> {
    let mut record = parse_game(text).ok()?.record;
    for _ in 0..1 + rng.usize(..3) {
        match rng.u8(..10) {
            7 if !record.items.is_empty() => {
                let at = rng.usize(..record.items.len());
                if matches!(record.items[at], Item::Move { .. }) {
                    let nag = Nag(if rng.bool() {
                        1 + rng.u8(..6)
                    } else {
                        rng.u8(..)
                    });
                    record.items.insert(at + 1, Item::Nag { nag });
                }
            }
            8 if !record.items.is_empty() => {
                let at = rng.usize(..record.items.len());
                if matches!(record.items[at], Item::Move { .. }) {
                    let len = 1 + rng.usize(..4);
                    let mut line: Vec<Item> = record.items[at..]
                        .iter()
                        .filter(|item| !matches!(item, Item::Variation { .. }))
                        .take(len)
                        .cloned()
                        .collect();
                    if rng.bool() {
                        let inner = vec![line[0].clone()];
                        line.insert(1, Item::Variation { variation: inner });
                    }
                    record
                        .items
                        .insert(at + 1, Item::Variation { variation: line });
                }
            }
            0 if !record.items.is_empty() => {
                let at = rng.usize(..record.items.len());
                record.items.remove(at);
            }
            1 if record.items.len() > 1 => {
                let a = rng.usize(..record.items.len());
                let b = rng.usize(..record.items.len());
                record.items.swap(a, b);
            }
            2 => {
                for item in &mut record.items {
                    if let Item::Move { captured, .. } = item
                        && rng.u8(..8) == 0
                    {
                        *captured = Some(rng.u32(..60));
                    }
                }
            }
            3 => {
                record.result = match rng.u8(..3) {
                    0 => GameResult::Unfinished,
                    1 => GameResult::Score(24, 24),
                    _ => GameResult::Score(rng.u32(..100), rng.u32(..100)),
                }
            }
            4 => record.termination = Some(EndReason::ALL[rng.usize(..EndReason::ALL.len())]),
            5 => {
                let at = rng.usize(..=record.items.len());
                record.items.insert(
                    at,
                    Item::Round {
                        round: 2 + rng.u32(..4),
                    },
                );
            }
            6 => {
                let at = rng.usize(..=record.items.len());
                record.items.insert(
                    at,
                    Item::Move {
                        mv: any_move(rng),
                        captured: None,
                    },
                );
            }
            _ => record.items.truncate(rng.usize(..=record.items.len())),
        }
    }
    Some(record.to_string())
}

// ---------------------------------------------------------------------------
// The run.

fn env_f64(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| parse_u64(&v))
}

/// A number as the environment variables take it: decimal, or hex after `0x`.
fn parse_u64(v: &str) -> Option<u64> {
    let v = v.trim();
    v.strip_prefix("0x")
        .map_or_else(|| v.parse().ok(), |hex| u64::from_str_radix(hex, 16).ok())
}

/// The run's seed when `MANCALA_FUZZ_SEED` does not name one, so that
/// `cargo test` tries the same cases on every run (as many of them as its
/// time budget reaches); CI's seed too.
const DEFAULT_SEED: u64 = 20_261_130;

/// The run's seed from `MANCALA_FUZZ_SEED`'s value: unset or empty, the
/// default; `random`, one from the clock (a long run's choice); else a
/// number. Anything else is an error rather than a silent clock seed.
fn run_seed(value: Option<&str>) -> Result<u64, String> {
    match value.map(str::trim) {
        None | Some("") => Ok(DEFAULT_SEED),
        Some("random") => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)),
        Some(v) => parse_u64(v)
            .ok_or_else(|| format!("MANCALA_FUZZ_SEED={v}: neither a number nor `random`")),
    }
}

#[test]
fn the_fuzz_seed_is_fixed_unless_asked_for_a_random_one() {
    assert_eq!(run_seed(None), Ok(DEFAULT_SEED));
    assert_eq!(run_seed(Some("")), Ok(DEFAULT_SEED));
    assert_eq!(run_seed(Some("42")), Ok(42));
    assert_eq!(run_seed(Some("0x2a")), Ok(42));
    assert!(run_seed(Some("clock")).is_err());
    // Two clock seeds a moment apart differ, and neither is the default.
    let a = run_seed(Some("random")).unwrap();
    std::thread::sleep(Duration::from_millis(2));
    let b = run_seed(Some(" random ")).unwrap();
    assert_ne!(a, b);
    assert_ne!(a, DEFAULT_SEED);
}

/// The workspace root: `crates/tools` (whose test this is) or `crates/fuzz`
/// (whose targets include this file), two folders up.
fn root() -> PathBuf {
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    package.ancestors().nth(2).unwrap_or(package).to_path_buf()
}

fn out_dir() -> PathBuf {
    std::env::var_os("MANCALA_FUZZ_OUT").map_or_else(
        || {
            // Set for integration tests; cargo-fuzz targets that include
            // this file do not write findings here.
            PathBuf::from(option_env!("CARGO_TARGET_TMPDIR").unwrap_or("target/tmp"))
                .join("fuzz-findings")
        },
        PathBuf::from,
    )
}

fn mgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "mgn"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The seed corpus: every record fixture of the repository.
fn corpus_files() -> Vec<PathBuf> {
    [
        "fixtures/notation/valid",
        "fixtures/notation/invalid",
        "fixtures/validate",
        "fixtures/adversarial",
    ]
    .iter()
    .flat_map(|dir| mgn_files(&root().join(dir)))
    .collect()
}

/// SplitMix64, for independent case seeds.
fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Run {
    corpus: Vec<Vec<u8>>,
    /// Records written from rules-played games, fed back as byte inputs.
    generated: Vec<Vec<u8>>,
    findings: Findings,
    watchdog: Watchdog,
}

impl Run {
    fn bytes_case(&mut self, case: u64, data: &[u8]) {
        self.bytes_case_with(case, data, mix(case, 1));
    }

    fn bytes_case_with(&mut self, case: u64, data: &[u8], rng_seed: u64) {
        self.watchdog.begin(case, data);
        let result = guarded(|| check_bytes(data, &mut Rng::with_seed(rng_seed)));
        if self.watchdog.end() {
            self.findings.add(
                Fail {
                    key: "slow case (hang?)".to_owned(),
                    detail: format!("{} bytes", data.len()),
                },
                case,
                None,
                rng_seed,
            );
        }
        if let Err(f) = result {
            self.findings.add(f, case, Some(data), rng_seed);
        }
    }

    fn case(&mut self, case: u64) {
        let mut rng = Rng::with_seed(case);
        if rng.u8(..10) < 6 {
            let data = if !self.generated.is_empty() && rng.u8(..4) == 0 {
                mutate(&mut rng, &self.generated)
            } else {
                mutate(&mut rng, &self.corpus)
            };
            self.bytes_case(case, &data);
            return;
        }
        self.watchdog
            .begin(case, b"(a rules case: run it with MANCALA_FUZZ_CASE)");
        let result = guarded_rules(&mut rng);
        if self.watchdog.end() {
            self.findings.add(
                Fail {
                    key: "slow case (hang?)".to_owned(),
                    detail: "a rules case".to_owned(),
                },
                case,
                None,
                0,
            );
        }
        match result {
            Err(f) => self.findings.add(f, case, None, 0),
            Ok(Some(text)) => {
                if let Some(changed) = mutate_record(&mut rng, &text) {
                    self.bytes_case(mix(case, 2), changed.as_bytes());
                }
                if self.generated.len() < 256 {
                    self.generated.push(text.into_bytes());
                } else {
                    let i = rng.usize(..self.generated.len());
                    self.generated[i] = text.into_bytes();
                }
            }
            Ok(None) => {}
        }
    }
}

/// `check_rules` returns the record text on success; under [`guarded`] only
/// the verdict matters.
fn guarded_rules(rng: &mut Rng) -> Result<Option<String>, Fail> {
    let mut text = None;
    guarded(|| {
        text = check_rules(rng)?;
        Ok(())
    })
    .map(|()| text)
}

#[test]
fn fuzz() {
    install_panic_hook();
    let seconds = env_f64("MANCALA_FUZZ_SECONDS", 3.0);
    let seed = run_seed(std::env::var("MANCALA_FUZZ_SEED").ok().as_deref())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = out_dir();
    let slow = Duration::from_secs_f64(env_f64("MANCALA_FUZZ_SLOW", 30.0));
    let files = corpus_files();
    let corpus: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(corpus.len() > 50, "the fixtures are the seed corpus");
    let mut run = Run {
        corpus,
        generated: Vec::new(),
        findings: Findings::new(out.clone()),
        watchdog: Watchdog::start(out.clone(), slow),
    };
    let started = Instant::now();
    if let Ok(file) = std::env::var("MANCALA_FUZZ_FILE") {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        // A finding's file is named `<case>-<seed of the checks' choices>`.
        let stem = Path::new(&file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        if let Some(seed) = stem
            .as_deref()
            .and_then(|s| s.split_once('-'))
            .and_then(|(_, seed)| u64::from_str_radix(seed, 16).ok())
        {
            run.bytes_case_with(0, &data, seed);
        }
        for i in 0..256 {
            run.bytes_case(i, &data);
        }
    } else if let Some(case) = env_u64("MANCALA_FUZZ_CASE") {
        run.case(case);
    } else {
        eprintln!(
            "fuzz: seed {seed} (MANCALA_FUZZ_SEED), {seconds} s (MANCALA_FUZZ_SECONDS), findings in {}",
            out.display()
        );
        let fixtures = run.corpus.clone();
        for (i, data) in fixtures.iter().enumerate() {
            run.bytes_case(mix(seed, u64::MAX - i as u64), data);
        }
        let budget = Duration::from_secs_f64(seconds);
        let mut i = 0u64;
        let mut next_note = Duration::from_secs(60);
        while started.elapsed() < budget {
            run.case(mix(seed, i));
            i += 1;
            if started.elapsed() > next_note {
                next_note += Duration::from_secs(60);
                STATS.with(|s| {
                    eprintln!(
                        "fuzz: {:?}: {i} cases, {:?}, {} finding kinds",
                        started.elapsed(),
                        s.borrow(),
                        run.findings.seen.len()
                    );
                });
            }
        }
        STATS.with(|s| {
            eprintln!(
                "fuzz: done in {:?}: {i} cases; {:?}",
                started.elapsed(),
                s.borrow()
            );
        });
    }
    let report = run.findings.report();
    if !report.is_empty() {
        eprintln!("fuzz: findings:\n{report}");
    }
    assert!(
        run.findings.seen.values().all(|s| s.known.is_some()),
        "fuzz findings (seed {seed}):\n{report}"
    );
}

/// Inputs kept from fuzzing and the adversarial fixtures pass every check.
#[test]
fn adversarial_fixtures_pass_the_fuzz_checks() {
    install_panic_hook();
    for file in mgn_files(&root().join("fixtures/adversarial")) {
        let data = std::fs::read(&file).unwrap();
        for seed in 0..64 {
            let result = guarded(|| check_bytes(&data, &mut Rng::with_seed(seed)));
            if let Err(f) = result
                && known(&f).is_none()
            {
                panic!("{}: {}: {}", file.display(), f.key, f.detail);
            }
        }
    }
}
