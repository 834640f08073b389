//! `mancala-filter`: selects records from a collection by game, options,
//! tags, length and the positions they pass through, drops duplicate
//! games, and writes the records it keeps exactly as they were read.
//! Records are checked as `mancala-validate` checks them (`mancala_check`):
//! an invalid one is reported the same way and never selected.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};

use clap::Parser;
use mancala_check::{self as check, Ply};
use mancala_notation::{
    Form, GameResult, ParseError, ParseResultError, ParsedGame, format_setup, parse_setup,
};
use mancala_prose::plural;
use mancala_rules::{EndReason, Options, Position, Rules, Setup, Side};

use crate::diagnostic;
use crate::flags::{
    ColorFlag, GameFilterFlags, LapBudgetFlag, MaxErrorsFlag, QuietFlag, RecordFilesFlag,
};
use crate::input::{self, InputName, SourcedGame};
use crate::output::{self, EXIT_OK};

const EXAMPLES: &str = "\
Examples:
  mancala-filter --game pallankuzhi games.mgn       the Pallankuzhi games
  mancala-filter --player Nimali --result south games.mgn
  mancala-filter --south alphabeta --termination twenty-five games.mgn
  mancala-filter --min-plies 40 --max-plies 80 records/
  mancala-filter --dedupe a.mgn b.mgn              each game once
  mancala-filter --game olowuka --position 'N 6,6,2,7,1,6/1,6,6,6,0,1 0-0' games.mgn
  mancala-filter --event Colombo games.jsonl       JSON records in, the same JSON out

Matching:
  Flags of different names must all match; the values of one flag given
  several times are alternatives (any may match). --south, --north,
  --player (either side) and --event match when the tag contains the text,
  ignoring case. --game, -o, --result and --termination match exactly:
  each -o word must be among the record's options as its Options tag
  writes them; --result is south, north or draw (the winner by the
  replayed game), unfinished (*), or a score as the Result tag writes it
  (30-18); --termination is how the replayed game ended. --position is a
  set-up as the SetUp tag writes it, matched against the start and the
  position after every ply of the main line: the holes, stores and side
  to move, and dir=, round= and starter= when the text gives them (a
  set-up names no game: Olowuka and Rio Kadalis start alike).
  --dedupe keeps the first of the selected games that play the same moves
  from the same start under the same game and options.

Exit status: 0 every game valid, 1 some game invalid (reported, not
selected), 2 usage or I/O error.";

/// Select records from a collection: by game, options, players, event,
/// result, end, length and position; duplicates removed on request;
/// records written as they were read.
#[derive(Debug, Parser)]
#[command(
    name = "mancala-filter",
    version,
    after_help = EXAMPLES,
)]
pub struct Args {
    #[command(flatten)]
    pub input: RecordFilesFlag,
    #[command(flatten)]
    pub game: GameFilterFlags,
    /// Only games whose South tag contains TEXT, ignoring case.
    #[arg(long, value_name = "TEXT")]
    pub south: Vec<String>,
    /// Only games whose North tag contains TEXT, ignoring case.
    #[arg(long, value_name = "TEXT")]
    pub north: Vec<String>,
    /// Only games whose South or North tag contains TEXT, ignoring case.
    #[arg(long, value_name = "TEXT")]
    pub player: Vec<String>,
    /// Only games whose Event tag contains TEXT, ignoring case.
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Only games with this result: south, north, draw, unfinished (or
    /// `*`), or a score as the Result tag writes it (`30-18`).
    #[arg(long, value_name = "RESULT", value_parser = parse_result)]
    pub result: Vec<ResultWanted>,
    /// Only games that ended this way, as the replayed game ended.
    #[arg(long, value_name = "REASON", value_parser = end_reasons())]
    pub termination: Vec<EndReason>,
    /// Only games of at least N plies (main line, every round).
    #[arg(long, value_name = "N")]
    pub min_plies: Option<usize>,
    /// Only games of at most N plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// Only games that pass through this position: a set-up as the SetUp
    /// tag writes it, e.g. `N 6,6,2,7,1,6/1,6,6,6,0,1 0-0`.
    #[arg(long, value_name = "SETUP", value_parser = parse_position)]
    pub position: Vec<PositionWanted>,
    /// Write each game once: a game that plays the same moves as an earlier
    /// selected one, from the same start under the same game and options,
    /// is dropped (and counted as a duplicate).
    #[arg(long)]
    pub dedupe: bool,
    #[command(flatten)]
    pub quiet: QuietFlag,
    #[command(flatten)]
    pub color: ColorFlag,
    #[command(flatten)]
    pub lap_budget: LapBudgetFlag,
    #[command(flatten)]
    pub max_errors: MaxErrorsFlag,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

/// What `--result` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultWanted {
    /// The game was won by this side (`None`: drawn).
    Winner(Option<Side>),
    Unfinished,
    /// This exact score.
    Score(GameResult),
}

/// A `--result` that is no result a filter asks for: the notation's word on
/// it as a score.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParseResultWantedError(ParseResultError);

impl std::fmt::Display for ParseResultWantedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; or south, north, draw, unfinished", self.0)
    }
}

impl std::error::Error for ParseResultWantedError {}

fn parse_result(text: &str) -> Result<ResultWanted, ParseResultWantedError> {
    match text {
        "south" => Ok(ResultWanted::Winner(Some(Side::South))),
        "north" => Ok(ResultWanted::Winner(Some(Side::North))),
        "draw" => Ok(ResultWanted::Winner(None)),
        "unfinished" | "*" => Ok(ResultWanted::Unfinished),
        score => score
            .parse()
            .map(ResultWanted::Score)
            .map_err(ParseResultWantedError),
    }
}

/// The end reasons as clap's possible values, so that help, man pages and
/// completions list them.
fn end_reasons() -> impl clap::builder::TypedValueParser<Value = EndReason> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(EndReason::ALL.map(EndReason::as_str)).map(|word| {
        word.parse::<EndReason>()
            .unwrap_or_else(|_| unreachable!("a possible value is an end reason"))
    })
}

/// A position `--position` asks for: its set-up, and which of the set-up's
/// optional fields the text gave (those it left out match any value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionWanted {
    setup: Setup,
    dir: bool,
    round: bool,
    starter: bool,
}

/// A `--position` that is no set-up: the notation's error.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParsePositionError(ParseError);

impl std::fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid set-up: {}", self.0)
    }
}

impl std::error::Error for ParsePositionError {}

fn parse_position(text: &str) -> Result<PositionWanted, ParsePositionError> {
    let setup = parse_setup(text).map_err(ParsePositionError)?;
    let given = |key: &str| text.split_whitespace().any(|word| word.starts_with(key));
    Ok(PositionWanted {
        setup,
        dir: given("dir="),
        round: given("round="),
        starter: given("starter="),
    })
}

impl PositionWanted {
    fn matches(&self, position: &Position) -> bool {
        let seen = position.to_setup();
        let wanted = &self.setup;
        // A set-up writes the starter only when it is not the side to
        // move: one written as the side to move is the same position.
        let starter = |s: &Setup| s.round_starter.unwrap_or(s.to_move);
        seen.south == wanted.south
            && seen.north == wanted.north
            && seen.stores == wanted.stores
            && seen.to_move == wanted.to_move
            && (!self.dir || seen.south_dir == wanted.south_dir)
            && (!self.round || seen.round == wanted.round)
            && (!self.starter || starter(&seen) == starter(wanted))
    }
}

/// The selection the flags make, checked against each valid game.
struct Selection {
    options: Vec<String>,
    /// Lower-cased, as the tags they are compared with.
    south: Vec<String>,
    north: Vec<String>,
    player: Vec<String>,
    event: Vec<String>,
}

/// Whether `tag` contains one of `wanted` (lower-cased), ignoring case; no
/// wanted text is no condition.
fn contains_any(tag: Option<&str>, wanted: &[String]) -> bool {
    if wanted.is_empty() {
        return true;
    }
    let Some(tag) = tag else { return false };
    let tag = tag.to_lowercase();
    wanted.iter().any(|w| tag.contains(w.as_str()))
}

fn lower(texts: &[String]) -> Vec<String> {
    texts.iter().map(|t| t.to_lowercase()).collect()
}

/// A selected game's fingerprint for `--dedupe`: 128 bits of two
/// domain-separated SipHash runs over its game, options, start position
/// and moves as the canonical notation writes them. Two different games
/// share one with odds of about n² / 2¹²⁹ among n games.
fn fingerprint(parsed: &ParsedGame, start: &Position) -> u128 {
    let half = |domain: u8| {
        let mut hasher = DefaultHasher::new();
        domain.hash(&mut hasher);
        let record = &parsed.record;
        record.game.as_str().hash(&mut hasher);
        record.options.to_string().hash(&mut hasher);
        format_setup(&start.to_setup()).hash(&mut hasher);
        for mv in record.moves() {
            mv.to_string().hash(&mut hasher);
        }
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// What reading one game came to.
enum Verdict {
    Invalid(String),
    /// Valid but not asked for.
    Left,
    /// Valid and asked for, with its fingerprint when `--dedupe` wants it.
    Selected(Option<u128>),
}

struct Settings<'a> {
    names: &'a [InputName],
    color: bool,
    lap_budget: Option<u32>,
    args: &'a Args,
    selection: Selection,
}

fn judge(game: &SourcedGame, settings: &Settings<'_>) -> Verdict {
    let args = settings.args;
    // Positions are looked at only when asked for: the check's fast lane
    // goes without them.
    let mut passes = false;
    let mut watch = |ply: &Ply<'_>| {
        if !passes {
            let at = |p: &Position| args.position.iter().any(|w| w.matches(p));
            passes = (ply.number == 1 && at(ply.before)) || at(ply.after);
        }
    };
    let on_ply: Option<&mut dyn FnMut(&Ply<'_>)> = if args.position.is_empty() {
        None
    } else {
        Some(&mut watch)
    };
    let checked = game.check(settings.lap_budget, check::Build::Record, on_ply);
    if !checked.is_valid() {
        let mut report = String::new();
        let file = settings.names[game.input].display();
        diagnostic::render_problems(
            &mut report,
            file,
            &game.text,
            &checked.problems,
            settings.color,
        );
        return Verdict::Invalid(report);
    }
    let (Some(parsed), Some(replay)) = (checked.parsed.as_ref(), checked.replay.as_ref()) else {
        return Verdict::Left;
    };
    // A valid record's start is decided (the check replayed from it).
    let Some(start) = replay
        .rules
        .and_then(|rules: Rules| check::start_position(parsed, rules).ok())
    else {
        return Verdict::Left;
    };
    let record = &parsed.record;
    let selection = &settings.selection;
    let options: Vec<String> = record
        .options
        .to_string()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let outcome = replay.outcome();
    let tags = &record.tags;
    let selected = args.game.game.is_none_or(|g| g == record.game)
        && selection.options.iter().all(|o| options.contains(o))
        && contains_any(tags.south.as_deref(), &selection.south)
        && contains_any(tags.north.as_deref(), &selection.north)
        && (selection.player.is_empty()
            || contains_any(tags.south.as_deref(), &selection.player)
            || contains_any(tags.north.as_deref(), &selection.player))
        && contains_any(tags.event.as_deref(), &selection.event)
        && (args.result.is_empty()
            || args.result.iter().any(|wanted| match wanted {
                ResultWanted::Winner(side) => outcome.is_some_and(|o| o.winner == *side),
                ResultWanted::Unfinished => outcome.is_none(),
                ResultWanted::Score(score) => record.result == *score,
            }))
        && (args.termination.is_empty()
            || outcome.is_some_and(|o| args.termination.contains(&o.reason)))
        && args.min_plies.is_none_or(|n| replay.plies >= n)
        && args.max_plies.is_none_or(|n| replay.plies <= n)
        && (args.position.is_empty() || passes || args.position.iter().any(|w| w.matches(&start)));
    if !selected {
        return Verdict::Left;
    }
    Verdict::Selected(args.dedupe.then(|| fingerprint(parsed, &start)))
}

/// Writes a selected game's text as it was read: an MGN game with the
/// blank lines after it, a JSON record as its value and a line break. A
/// text that does not end a line gets a line break, so that the next
/// record starts a line of its own.
fn write_record(out: &mut impl Write, game: &SourcedGame) -> io::Result<()> {
    let bytes = &game.text.bytes;
    out.write_all(bytes)?;
    if game.form == Form::Json || !bytes.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Runs the tool; returns the exit code.
pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    // Checked once, with the rules' own messages (a misspelt word is
    // offered the word meant), and compared as the Options tag writes them.
    let options: Options = match args.game.options.join(" ").parse() {
        Ok(options) => options,
        Err(e) => {
            output::error_line(&format!("error: {e}"));
            return Ok(output::EXIT_FAILURE);
        }
    };
    let names = input::inputs(&args.input.files, !args.quiet.quiet);
    let settings = Settings {
        names: &names,
        color: args.color.color.for_stderr(),
        lap_budget: args.lap_budget.lap_budget,
        args,
        selection: Selection {
            options: options
                .to_string()
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
            south: lower(&args.south),
            north: lower(&args.north),
            player: lower(&args.player),
            event: lower(&args.event),
        },
    };
    let mut stdout = output::stdout();
    let (mut games, mut selected, mut duplicates, mut invalid, mut io_errors) = (0, 0, 0, 0, 0);
    // One fingerprint per distinct game selected: 16 bytes and the set's
    // own overhead each, whatever the games' length.
    let mut seen: HashSet<u128> = HashSet::new();
    let mut stopped = false;
    for item in input::games(&names) {
        let game = match item {
            Ok(game) => game,
            Err(e) => {
                io_errors += 1;
                stdout.flush()?;
                output::error_line(&e.report(&names));
                continue;
            }
        };
        games += 1;
        match judge(&game, &settings) {
            Verdict::Invalid(report) => {
                invalid += 1;
                // The records before it go first, in input order.
                stdout.flush()?;
                crate::output::diagnostics(&report);
                if args.max_errors.reached(invalid) {
                    stopped = true;
                    break;
                }
            }
            Verdict::Left => {}
            Verdict::Selected(print) => {
                if print.is_some_and(|print| !seen.insert(print)) {
                    duplicates += 1;
                } else {
                    selected += 1;
                    write_record(&mut stdout, &game)?;
                }
            }
        }
    }
    stdout.flush()?;
    if stopped {
        output::error_line(&args.max_errors.note(games));
    }
    if !args.quiet.quiet {
        output::error_line(&format!(
            "read {}: {selected} selected, {duplicates} duplicates, {invalid} invalid",
            plural(games as u64, "game"),
        ));
    }
    Ok(output::exit_status(io_errors > 0, invalid > 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::GameId;

    #[test]
    fn results_read_as_winners_or_scores() {
        assert_eq!(
            parse_result("south"),
            Ok(ResultWanted::Winner(Some(Side::South)))
        );
        assert_eq!(parse_result("draw"), Ok(ResultWanted::Winner(None)));
        assert_eq!(parse_result("*"), Ok(ResultWanted::Unfinished));
        assert_eq!(
            parse_result("30-18"),
            Ok(ResultWanted::Score(GameResult::Score(30, 18)))
        );
        assert!(parse_result("white").is_err());
    }

    #[test]
    fn a_position_matches_on_what_its_text_gives() {
        let start = Position::new(Rules::new(GameId::Olowuka, Options::new()).unwrap());
        let text = format_setup(&start.to_setup());
        assert!(parse_position(&text).unwrap().matches(&start));
        // The side to move is part of the position.
        let other = text.replacen('S', "N", 1);
        assert!(!parse_position(&other).unwrap().matches(&start));
        // A round given must be the position's; left out, any round.
        assert!(
            !parse_position(&format!("{text} round=2"))
                .unwrap()
                .matches(&start)
        );
        assert!(
            parse_position(&format!("{text} starter=S"))
                .unwrap()
                .matches(&start)
        );
        assert!(parse_position("not a set-up").is_err());
    }

    #[test]
    fn tags_match_by_contained_text_ignoring_case() {
        let wanted = lower(&["nimali".to_owned()]);
        assert!(contains_any(Some("Nimali Perera"), &wanted));
        assert!(!contains_any(Some("Kumari"), &wanted));
        assert!(!contains_any(None, &wanted));
        assert!(contains_any(None, &[]));
    }
}
