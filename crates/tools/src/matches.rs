//! `mancala-play --pairs N`: an engine match as engine authors run one
//! (cutechess-cli's and fastchess's way). The two engines (`--south` names
//! the first, `--north` the second) play game pairs from the same opening
//! with colours reversed: in a pair's first game the first engine is
//! South, in its second North. Openings come from records or set-ups
//! (`--openings FILE`, cycled) or are generated (`--opening-plies N` random
//! plies, seeded; with `--balanced M` only those that a shallow analysis
//! rates within M seeds are kept). Pairs are played on `--jobs` threads and
//! their records written in pair order, so a seeded match prints the same
//! records whatever the threads (time limits aside). The summary is per
//! engine, with the Elo difference, the pentanomial counts of pairs and an
//! SPRT that stops the match once a bound is crossed (see
//! [`crate::stats`]).

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_check::{self as check, Build};
use mancala_engine::analysis::{Analyser, Limit};
use mancala_engine::{Player, PlayerSpec, RandomPlayer};
use mancala_notation::Record;
use mancala_rules::{DEFAULT_LAP_BUDGET, Game, PlayError, PlayErrorKind, Position, Rules, Side};
use mancala_tablebase::TablebaseDir;

use crate::input::{self, InputName};
use crate::output::{self, EXIT_FAILURE, EXIT_INVALID, EXIT_OK, Format};
use crate::play::{
    Args, Continuable, MAX_PLY_BYTES, MAX_RECORD_BYTES, Session, continuable, mix, noun,
    undecided_note,
};
use crate::progress::Progress;
use crate::stats::{Estimate, Pentanomial, Sprt, Verdict, Wdl};
use mancala_parallel::{self as parallel, Delivery, Reading};

/// A time control: a fixed time per move, or a clock with an increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `st=T`: every move may take T seconds.
    PerMove(Duration),
    /// `B+I`: B seconds for the game, I more after each move.
    Clock { base: Duration, increment: Duration },
}

/// A time control's times are below this many seconds (some 31 years).
const MAX_SECONDS: f64 = 1e9;

/// Text that is no [`TimeControl`]; `text` is the number at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTimeControlError {
    /// Seconds past [`MAX_SECONDS`].
    TooLarge { text: String },
    /// Not a number of seconds.
    NotSeconds { text: String },
    /// `st=0`.
    NoTimePerMove,
    /// A clock of no time.
    NoClock,
}

impl std::fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseTimeControlError::TooLarge { text } => write!(
                f,
                "`{text}` seconds is too large (a time control is below {MAX_SECONDS} seconds)"
            ),
            ParseTimeControlError::NotSeconds { text } => {
                write!(f, "`{text}` is not a number of seconds")
            }
            ParseTimeControlError::NoTimePerMove => {
                f.write_str("a move needs some time: st= above 0")
            }
            ParseTimeControlError::NoClock => f.write_str("a clock needs some time: 10+0.1, say"),
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

impl std::str::FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// `10+0.1` (a clock of 10 s, 0.1 s added a move), `60` (no increment)
    /// or `st=0.1` (0.1 s a move).
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let seconds = |t: &str| -> Result<Duration, ParseTimeControlError> {
            match t.trim().parse::<f64>() {
                Ok(v) if (0.0..MAX_SECONDS).contains(&v) => Ok(Duration::from_secs_f64(v)),
                Ok(v) if v >= MAX_SECONDS => {
                    Err(ParseTimeControlError::TooLarge { text: t.to_owned() })
                }
                _ => Err(ParseTimeControlError::NotSeconds { text: t.to_owned() }),
            }
        };
        if let Some(per_move) = s.strip_prefix("st=") {
            let time = seconds(per_move)?;
            if time.is_zero() {
                return Err(ParseTimeControlError::NoTimePerMove);
            }
            return Ok(TimeControl::PerMove(time));
        }
        let (base, increment) = match s.split_once('+') {
            Some((base, inc)) => (seconds(base)?, seconds(inc)?),
            None => (seconds(s)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(ParseTimeControlError::NoClock);
        }
        Ok(TimeControl::Clock { base, increment })
    }
}

impl std::fmt::Display for TimeControl {
    /// As the record's `TimeControl` tag writes it (PGN's `B+I`, seconds;
    /// `st=T` for a fixed time per move).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::PerMove(t) => write!(f, "st={}", t.as_secs_f64()),
            TimeControl::Clock { base, increment } if increment.is_zero() => {
                write!(f, "{}", base.as_secs_f64())
            }
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// Under a clock, a move is given this share of the time left (plus the
/// increment): enough for the rest of a long game.
const MOVES_TO_GO: u32 = 20;

/// A side's time while a game is played.
struct Clock {
    control: Option<TimeControl>,
    left: Duration,
    /// How far past its time a move may go before it loses (the engines
    /// look at the time now and then, not at every node).
    margin: Duration,
}

impl Clock {
    fn new(control: Option<TimeControl>, margin: Duration) -> Clock {
        let left = match control {
            Some(TimeControl::Clock { base, .. }) => base,
            _ => Duration::ZERO,
        };
        Clock {
            control,
            left,
            margin,
        }
    }

    /// The time the next move may take, as the engine is told it.
    fn allotted(&self) -> Option<Duration> {
        match self.control? {
            TimeControl::PerMove(t) => Some(t),
            TimeControl::Clock { increment, .. } => {
                Some((self.left / MOVES_TO_GO + increment).min(self.left))
            }
        }
    }

    /// Charges a move that took `spent`: false when it lost on time.
    fn charge(&mut self, spent: Duration) -> bool {
        match self.control {
            None => true,
            Some(TimeControl::PerMove(t)) => spent <= t + self.margin,
            Some(TimeControl::Clock { increment, .. }) => {
                if spent > self.left + self.margin {
                    return false;
                }
                self.left = self.left.saturating_sub(spent) + increment;
                true
            }
        }
    }
}

/// Where a pair starts: a game with the record of how it got there.
#[derive(Clone, Debug)]
struct Opening {
    game: Game,
    /// Game, options, set-up and the opening's moves and markers; no
    /// other tag.
    record: Record,
    plies: usize,
}

/// Why a pair of the match has no opening to start from.
#[derive(Clone, Debug, PartialEq)]
enum OpeningError {
    /// No game to play (no rules, no openings read).
    NoGame,
    /// Whether `side` can move at ply 1 is undecided within the lap
    /// budget.
    Undecided { side: Side, error: PlayError },
    /// No random opening of `plies` plies (rated within `balanced` seeds)
    /// came in [`BALANCED_TRIES`] draws.
    NotFound { plies: usize, balanced: Option<f64> },
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningError::NoGame => f.write_str("no game to play"),
            OpeningError::Undecided { side, error } => write!(
                f,
                "cannot start: whether {side} can move at ply 1 is undecided: {error} (--lap-budget)"
            ),
            OpeningError::NotFound { plies, balanced } => {
                write!(f, "no opening of {plies} random plies")?;
                if let Some(margin) = balanced {
                    write!(f, " rated within {margin} seeds")?;
                }
                write!(f, " found in {BALANCED_TRIES} draws")
            }
        }
    }
}

impl Opening {
    fn start(rules: Rules) -> Result<Opening, OpeningError> {
        let (game, _) =
            Game::new(Position::new(rules)).map_err(|error| OpeningError::Undecided {
                side: Position::new(rules).to_move(),
                error,
            })?;
        let mut record = Record::new(rules.game());
        record.options = rules.options();
        Ok(Opening {
            game,
            record,
            plies: 0,
        })
    }
}

/// Salt of the generated openings' seeds, apart from the games' (which
/// salt with the game number).
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

/// How many draws a balanced opening may take before the match gives up.
const BALANCED_TRIES: u64 = 1000;

/// The depth of the analysis that rates a generated opening.
const BALANCE_DEPTH: u32 = 6;

/// The opening of pair `pair` (from 1): `plies` random plies from the start,
/// drawn from the match seed; with `balanced`, drawn again until a depth-6
/// analysis rates the position within that many seeds.
fn generated_opening(
    rules: Rules,
    seed: u64,
    pair: u64,
    plies: usize,
    balanced: Option<f64>,
) -> Result<Opening, OpeningError> {
    let start = Opening::start(rules)?;
    for attempt in 0..BALANCED_TRIES {
        let mut random = RandomPlayer::new(mix(mix(seed, OPENING_SALT ^ pair), attempt));
        let mut session = Session::new(0, start.game.clone(), start.record.clone(), 0, false);
        while session.plies_total < plies && session.game.outcome().is_none() {
            match session.play_engine(&mut random) {
                Some(played) if played.report.is_ok() => {}
                _ => break,
            }
        }
        if session.plies_total < plies || session.game.outcome().is_some() {
            continue;
        }
        if let Some(margin) = balanced {
            let mut analyser = Analyser::new(Limit::Depth(BALANCE_DEPTH));
            let Some(analysis) = analyser.analyse(&session.game) else {
                continue;
            };
            if f64::from(analysis.value.centiseeds.unsigned_abs()) > margin * 100.0 {
                continue;
            }
        }
        return Ok(Opening {
            game: session.game,
            record: session.record,
            plies: session.plies_total,
        });
    }
    Err(OpeningError::NotFound { plies, balanced })
}

/// The openings of `--openings`: every valid, unfinished record (or
/// set-up) of the files, in order, and how many were invalid (each
/// reported). `Err` when the files cannot be read or hold no opening.
fn read_openings(args: &Args, color: bool) -> Result<(Vec<Opening>, usize), (String, u8)> {
    let Some(path) = &args.openings else {
        return Ok((Vec::new(), 0));
    };
    let names: Vec<InputName> = input::inputs(std::slice::from_ref(path), !args.quiet.quiet);
    let mut openings = Vec::new();
    let mut bad = 0;
    for item in input::games(&names) {
        let game = match item {
            Ok(game) => game,
            Err(e) => return Err((e.report(&names), EXIT_FAILURE)),
        };
        let file = names[game.input].display();
        let checked = game.check(args.lap_budget.lap_budget, Build::Record, None);
        let Continuable {
            record: source,
            game: state,
            plies,
        } = match continuable(checked, file, &game.text, color) {
            Ok(valid) => valid,
            Err(diagnostics) => {
                output::error_line(diagnostics.trim_end());
                bad += 1;
                continue;
            }
        };
        if state.outcome().is_some() {
            if args.quiet.quiet {
                continue;
            }
            output::error_line(&format!(
                "{file}: note: opening {} is a finished game, and is left out",
                game.number
            ));
            continue;
        }
        let mut record = Record::new(source.game);
        record.options = source.options;
        record.setup = source.setup;
        record.items = source.items;
        openings.push(Opening {
            game: state,
            record,
            plies,
        });
    }
    if openings.is_empty() {
        let why = if bad > 0 {
            "no valid, unfinished"
        } else {
            "no unfinished"
        };
        return Err((
            format!("error: {}: {why} game to open with", path.display()),
            EXIT_INVALID,
        ));
    }
    Ok((openings, bad))
}

/// How a game of the match ended, for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
    /// Left unfinished (`--max-plies`, the lap budget, the record's size):
    /// not scored, and its pair not counted.
    Unscored,
}

/// One game played: its record and what it counts.
struct Played {
    record: Record,
    score: Score,
    plies: usize,
    /// The side that lost on time.
    time_loss: Option<Side>,
    capped: bool,
    notes: Vec<String>,
}

/// A pair played: its two games, the first engine South in the first.
struct PairPlayed {
    /// The games, or why the pair (its number) has none.
    games: Result<[Played; 2], (u64, OpeningError)>,
}

/// What every game of the match shares.
struct Match<'a> {
    args: &'a Args,
    specs: [PlayerSpec; 2],
    names: [String; 2],
    /// `--tablebase`'s databases, which both engines play from.
    tablebases: Option<Arc<TablebaseDir>>,
    rules: Option<Rules>,
    openings: Vec<Opening>,
    time: Option<TimeControl>,
    margin: Duration,
}

impl Match<'_> {
    fn opening(&self, pair: u64) -> Result<Opening, OpeningError> {
        if self.openings.is_empty() {
            let rules = self.rules.ok_or(OpeningError::NoGame)?;
            let plies = self.args.opening_plies;
            if plies == 0 {
                return Opening::start(rules);
            }
            generated_opening(rules, self.args.seed, pair, plies, self.args.balanced)
        } else {
            let i = (pair - 1) % self.openings.len() as u64;
            Ok(self.openings[i as usize].clone())
        }
    }

    fn play_pair(&self, pair: u64) -> PairPlayed {
        let opening = match self.opening(pair) {
            Ok(opening) => opening,
            Err(e) => {
                return PairPlayed {
                    games: Err((pair, e)),
                };
            }
        };
        let first = self.play_game(&opening, pair * 2 - 1, 0);
        let second = self.play_game(&opening, pair * 2, 1);
        PairPlayed {
            games: Ok([first, second]),
        }
    }

    /// Game `number` of the match from `opening`, the first engine sitting
    /// South when `swap` is 0, North when 1.
    /// The record game `number` starts from: the opening's, with the
    /// match's tags and the engines of each side (`engine_of`); a tag
    /// that cannot be set is an error in `notes`.
    fn game_record(
        &self,
        opening: &Opening,
        number: u64,
        engine_of: [usize; 2],
        notes: &mut Vec<String>,
    ) -> Record {
        let mut record = opening.record.clone();
        record.tags.event = Some("mancala-play match".to_owned());
        record.tags.round = Some(number.to_string());
        record.tags.south = Some(self.names[engine_of[0]].clone());
        record.tags.north = Some(self.names[engine_of[1]].clone());
        let mut set = |record: &mut Record, name: &str, value: String| {
            if let Err(e) = record.set_tag(name, value) {
                notes.push(format!("error: game {number}: {e}"));
            }
        };
        set(&mut record, "Seed", self.args.seed.to_string());
        if let Some(time) = self.time {
            set(&mut record, "TimeControl", time.to_string());
        }
        let budget = opening.game.position().rules().lap_budget();
        if budget != DEFAULT_LAP_BUDGET {
            set(&mut record, check::LAP_BUDGET_TAG, budget.to_string());
        }
        record
    }

    fn play_game(&self, opening: &Opening, number: u64, swap: usize) -> Played {
        let args = self.args;
        // The engine of each side: the first engine's index is `swap`.
        let engine_of = [swap, 1 - swap];
        let mut players: Vec<Box<dyn Player>> = engine_of
            .iter()
            .enumerate()
            .map(|(side, &engine)| {
                let player = self.specs[engine].build(mix(args.seed, number * 2 + side as u64));
                crate::play::with_tablebases(player, self.tablebases.as_ref())
            })
            .collect();
        let mut notes = Vec::new();
        let record = self.game_record(opening, number, engine_of, &mut notes);
        let mut session = Session::new(
            usize::try_from(number).unwrap_or(usize::MAX),
            opening.game.clone(),
            record,
            opening.plies,
            args.format == Format::Json,
        );
        let mut clocks = [
            Clock::new(self.time, self.margin),
            Clock::new(self.time, self.margin),
        ];
        let mut time_loss = None;
        let mut capped = false;
        while session.game.outcome().is_none() {
            if session.text_bytes + MAX_PLY_BYTES > MAX_RECORD_BYTES {
                notes.push(format!(
                    "note: game {number} stopped: its record would pass the {MAX_RECORD_BYTES} bytes the tools read"
                ));
                break;
            }
            if session.plies_total >= args.max_plies {
                capped = true;
                break;
            }
            let side = session.game.position().to_move();
            let player = players[side.index()].as_mut();
            player.limit_time(clocks[side.index()].allotted());
            let started = Instant::now();
            let Some(played) = session.play_engine(player) else {
                if let Some((mv, e)) = crate::play::why_no_move(&session.game) {
                    notes.push(undecided_note(&session, mv, &e).trim_end().to_owned());
                }
                break;
            };
            if let Err(e) = &played.report {
                if matches!(e.kind, PlayErrorKind::Undecided { .. }) {
                    notes.push(
                        undecided_note(&session, Some(played.mv), e)
                            .trim_end()
                            .to_owned(),
                    );
                } else {
                    notes.push(format!(
                        "error: game {number}: the {side} player chose an illegal move {}: {e}",
                        played.mv
                    ));
                }
                break;
            }
            if !clocks[side.index()].charge(started.elapsed()) {
                time_loss = Some(side);
                break;
            }
        }
        session.close();
        if let Some(side) = time_loss {
            // The rules did not end the game: the record stays unfinished
            // (`*`), and the tag says who lost and why.
            if let Err(e) = session.record.set_tag(TIME_FORFEIT_TAG, side.to_string()) {
                notes.push(format!("error: game {number}: {e}"));
            }
        }
        // The first engine's side.
        let first = if swap == 0 { Side::South } else { Side::North };
        let score = score_of_game(first, time_loss, session.game.outcome());
        Played {
            plies: session.plies_total,
            record: session.record,
            score,
            time_loss,
            capped,
            notes,
        }
    }
}

/// The tag of a game lost on time: the side that lost. Such a game is
/// unfinished by the rules (`*`, no `Termination`).
pub const TIME_FORFEIT_TAG: &str = "TimeForfeit";

/// The counts of the match so far.
#[derive(Debug, Default)]
struct Tally {
    /// The first engine's results.
    wdl: Wdl,
    pentanomial: Pentanomial,
    pairs: u64,
    games: u64,
    unscored: u64,
    capped: u64,
    /// Games each engine (first, second) lost on time.
    time_losses: [u64; 2],
    plies: u64,
}

impl Tally {
    fn add(&mut self, games: &[Played; 2]) {
        self.pairs += 1;
        let mut half_points = 0;
        let mut scored = true;
        for (swap, game) in games.iter().enumerate() {
            self.games += 1;
            self.plies += game.plies as u64;
            self.capped += u64::from(game.capped);
            if let Some(loser) = game.time_loss {
                let first = if swap == 0 { Side::South } else { Side::North };
                self.time_losses[usize::from(loser != first)] += 1;
            }
            match game.score {
                Score::Win => {
                    self.wdl.wins += 1;
                    half_points += 2;
                }
                Score::Draw => {
                    self.wdl.draws += 1;
                    half_points += 1;
                }
                Score::Loss => self.wdl.losses += 1,
                Score::Unscored => {
                    self.unscored += 1;
                    scored = false;
                }
            }
        }
        if scored {
            self.pentanomial.add(half_points);
        }
    }
}

/// Formats an Elo value with its sign (`+12.3`, `-4.0`, `+inf`).
fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        return if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        };
    }
    if elo.is_nan() {
        return "nan".into();
    }
    // An even score gives -0.0 as often as 0.0: both are written +0.0.
    format!("{:+.1}", elo + 0.0)
}

/// A JSON number, or `null` where it is not finite (-0.0 is written 0.0).
fn json_number(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x + 0.0).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// An estimate's interval as text: `+1.0, +9.0` joined by `sep`, or `n/a`.
fn interval_text(e: &Estimate, sep: &str) -> String {
    match e.interval {
        Some((low, high)) => format!("{}{sep}{}", signed(low), signed(high)),
        None => "n/a".to_owned(),
    }
}

/// The engines' names as the summaries show them: the same spec on both
/// sides (`random` against `random`) is told apart as `random (1)` and
/// `random (2)`, the first engine being South in the first game.
fn labels(names: &[String; 2]) -> [String; 2] {
    if names[0] == names[1] {
        [format!("{} (1)", names[0]), format!("{} (2)", names[1])]
    } else {
        names.clone()
    }
}

/// A share of the points, or `None` before any game is scored.
fn score_of(wdl: &Wdl) -> Option<f64> {
    (wdl.games() > 0).then(|| wdl.points() / wdl.games() as f64)
}

fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::H0 => "H0",
        Verdict::H1 => "H1",
        Verdict::Continue => "continue",
    }
}

/// The line shown after each pair: the score, Elo so far, and the LLR.
fn progress_line(m: &Match<'_>, tally: &Tally, total: u64) -> String {
    let wdl = tally.wdl;
    let labels = labels(&m.names);
    let mut line = format!(
        "pair {}/{total}: {} {}-{} {} (W{} D{} L{}), pairs {:?}",
        tally.pairs,
        labels[0],
        wdl.points(),
        wdl.mirrored().points(),
        labels[1],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        tally.pentanomial.0,
    );
    if let Some(e) = tally.pentanomial.estimate() {
        line.push_str(&format!(
            ", Elo {} [{}]",
            signed(e.elo),
            interval_text(&e, ", ")
        ));
    }
    if let Some(sprt) = m.args.sprt {
        let (lower, upper) = sprt.bounds();
        line.push_str(&format!(
            ", LLR {:.2} [{lower:.2}, {upper:.2}]",
            sprt.llr(&tally.pentanomial)
        ));
    }
    line
}

/// The summary that ends the match, in `format`.
fn summary(m: &Match<'_>, tally: &Tally, stopped: Option<Verdict>, format: Format) -> String {
    let facts = Facts {
        wdl: [tally.wdl, tally.wdl.mirrored()],
        average: tally.plies as f64 / tally.games.max(1) as f64,
        estimate: tally.pentanomial.estimate(),
        sprt: m.args.sprt.map(|sprt| {
            let llr = sprt.llr(&tally.pentanomial);
            (sprt, llr, sprt.verdict(llr))
        }),
        noun: m.rules.map_or("games", noun),
    };
    match format {
        Format::Json => summary_json(m, tally, stopped, &facts),
        Format::Text => summary_text(m, tally, &facts),
    }
}

/// A game's score for the first engine, playing `first`: lost on time
/// (`time_loss`), or as the game's `outcome` says, or unscored.
fn score_of_game(
    first: Side,
    time_loss: Option<Side>,
    outcome: Option<mancala_rules::Outcome>,
) -> Score {
    match (time_loss, outcome) {
        (Some(loser), _) if loser == first => Score::Loss,
        (Some(_), _) => Score::Win,
        (None, Some(outcome)) => match outcome.winner {
            Some(winner) if winner == first => Score::Win,
            Some(_) => Score::Loss,
            None => Score::Draw,
        },
        (None, None) => Score::Unscored,
    }
}

/// What a match's summary says, worked out from its tally.
struct Facts {
    /// Each engine's wins, draws and losses.
    wdl: [Wdl; 2],
    /// Plies a game.
    average: f64,
    estimate: Option<Estimate>,
    /// The SPRT, its log-likelihood ratio and its verdict.
    sprt: Option<(Sprt, f64, Verdict)>,
    noun: &'static str,
}

/// [`summary`] as one JSON object.
fn summary_json(m: &Match<'_>, tally: &Tally, stopped: Option<Verdict>, facts: &Facts) -> String {
    let Facts {
        wdl,
        average,
        estimate,
        sprt,
        ..
    } = *facts;
    let engines: Vec<serde_json::Value> = (0..2)
        .map(|i| {
            serde_json::json!({
                "engine": m.names[i],
                "wins": wdl[i].wins,
                "draws": wdl[i].draws,
                "losses": wdl[i].losses,
                "score": score_of(&wdl[i]).map_or(serde_json::Value::Null, json_number),
                "time_losses": tally.time_losses[i],
            })
        })
        .collect();
    let mut json = serde_json::json!({
        "pairs": tally.pairs,
        "games": tally.games,
        "engines": engines,
        "pentanomial": tally.pentanomial.0,
        "unscored": tally.unscored,
        "max_plies_reached": tally.capped,
        "average_plies": json_number((average * 10.0).round() / 10.0),
    });
    if let Some(e) = estimate {
        json["elo"] = serde_json::json!({
            "difference": json_number(e.elo),
            "low": e.interval.map_or(serde_json::Value::Null, |(low, _)| json_number(low)),
            "high": e.interval.map_or(serde_json::Value::Null, |(_, high)| json_number(high)),
        });
    }
    if let Some((sprt, llr, verdict)) = sprt {
        let (lower, upper) = sprt.bounds();
        json["sprt"] = serde_json::json!({
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": json_number(llr),
            "lower": lower,
            "upper": upper,
            "verdict": verdict_word(verdict),
            "stopped": stopped.is_some(),
        });
    }
    format!("{json}\n")
}

/// [`summary`] in words, a line a fact.
fn summary_text(m: &Match<'_>, tally: &Tally, facts: &Facts) -> String {
    let Facts {
        wdl,
        average,
        estimate,
        sprt,
        noun,
    } = *facts;
    let mut text = format!(
        "match: {} {noun} in {} pairs, colours reversed in each pair\n",
        tally.games, tally.pairs
    );
    let labels = labels(&m.names);
    for (i, wdl) in wdl.iter().enumerate() {
        let games = wdl.games();
        text.push_str(&format!(
            "  {}: won {}, drawn {}, lost {}: {} of {games} ({}){}\n",
            labels[i],
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.points(),
            score_of(wdl).map_or("n/a".to_owned(), |s| format!("{:.1}%", 100.0 * s)),
            match tally.time_losses[i] {
                0 => String::new(),
                n => format!(", {n} lost on time"),
            }
        ));
    }
    let p = tally.pentanomial.0;
    text.push_str(&format!(
        "  pairs (LL LD DD/WL WD WW): {} {} {} {} {}\n",
        p[0], p[1], p[2], p[3], p[4]
    ));
    if let Some(e) = estimate {
        text.push_str(&format!(
            "  Elo difference: {} (95% interval {}, pentanomial)\n",
            signed(e.elo),
            interval_text(&e, " to ")
        ));
    }
    if let Some((sprt, llr, verdict)) = sprt {
        let (lower, upper) = sprt.bounds();
        let said = match verdict {
            Verdict::H0 => format!("H0 accepted (elo0 = {})", sprt.elo0),
            Verdict::H1 => format!("H1 accepted (elo1 = {})", sprt.elo1),
            Verdict::Continue => "no bound crossed".to_owned(),
        };
        text.push_str(&format!(
            "  SPRT {sprt}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {said}\n"
        ));
    }
    if tally.unscored > 0 {
        text.push_str(&format!(
            "  {} {noun} unfinished, not scored (their pairs not counted){}\n",
            tally.unscored,
            if tally.capped > 0 {
                format!(
                    "; {} stopped at --max-plies ({})",
                    tally.capped, m.args.max_plies
                )
            } else {
                String::new()
            }
        ));
    }
    text.push_str(&format!("  {average:.1} plies on average\n"));
    text
}

/// What stops a match early, as the sink's error: the SPRT's verdict, or a
/// pair that could not be played (its error already reported).
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the match stopped")
    }
}

impl std::error::Error for Stopped {}

/// Runs a match; returns the exit code.
pub fn run(args: &Args, pairs: u64) -> io::Result<u8> {
    let (m, invalid_openings) = match match_of(args) {
        Ok(set) => set,
        Err(code) => return Ok(code),
    };
    let mut writing = Writing {
        progress: Progress::new(Some(pairs), "pairs", !args.quiet.quiet),
        out: output::stdout(),
        first_record: true,
        tally: Tally::default(),
        failed: false,
        refused: 0,
        stopped: None,
    };
    let ran = parallel::map_ordered(
        1..=pairs,
        Reading::InTurns,
        args.jobs.threads(),
        |_| parallel::HEAVY,
        |&pair| m.play_pair(pair),
        |delivery| match delivery {
            Delivery::Idle => {
                let Writing { progress, out, .. } = &mut writing;
                progress.aside_of_stdout(|| out.flush())
            }
            Delivery::Result(played) => writing.pair(&m, played, pairs),
        },
    );
    match ran {
        Ok(()) => {}
        Err(e) if e.get_ref().is_some_and(|inner| inner.is::<Stopped>()) => {}
        Err(e) => return Err(e),
    }
    let Writing {
        mut out,
        progress,
        tally,
        failed,
        refused,
        stopped,
        ..
    } = writing;
    out.flush()?;
    progress.finish(true);
    if failed {
        return Ok(EXIT_FAILURE);
    }
    // An invalid opening was reported and left out (the match was played
    // without it), or a record was not written for its size: the exit
    // status says so.
    let code = if invalid_openings > 0 || refused > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    };
    if !args.quiet.quiet {
        if let Some(verdict) = stopped
            && args.format == Format::Text
        {
            output::error_line(&format!(
                "SPRT: {} accepted after {} pairs: the match stops",
                verdict_word(verdict),
                tally.pairs
            ));
        }
        let text = summary(&m, &tally, stopped, args.format);
        output::error_line(text.trim_end());
    }
    Ok(code)
}

/// The match `args` ask for, and the number of openings left out as
/// invalid; `Err` holds the exit code of a match that cannot be played
/// (reported).
fn match_of(args: &Args) -> Result<(Match<'_>, usize), u8> {
    let color = args.color.color.for_stderr();
    let mut specs = Vec::new();
    for text in [&args.players.south, &args.players.north] {
        match text.parse::<PlayerSpec>() {
            Ok(spec) => specs.push(spec),
            Err(e) => {
                output::error_line(&format!(
                    "error: a match is between engines: invalid player `{text}`: {e}"
                ));
                return Err(EXIT_FAILURE);
            }
        }
    }
    let specs = [specs[0], specs[1]];
    // A time control bounds every move, however deep the search may go.
    if args.tc.is_none() {
        for text in [&args.players.south, &args.players.north] {
            if let Some(warning) = crate::play::deep_search_warning(text) {
                output::error_line(&warning);
            }
        }
    }
    // The record tags name each engine with its own settings (a clock
    // does not change them: the TimeControl tag says it).
    let names = specs.map(|spec| match spec.seed {
        Some(seed) => format!("{} seed={seed}", spec.build(0).name()),
        None => spec.build(0).name(),
    });
    let (openings, invalid_openings) = match read_openings(args, color) {
        Ok(read) => read,
        Err((message, code)) => {
            output::error_line(&message);
            return Err(code);
        }
    };
    let rules = if openings.is_empty() {
        match crate::flags::rules_of(
            args.game.game,
            &args.game.options,
            args.lap_budget.lap_budget,
        ) {
            Ok(rules) => Some(rules),
            Err(e) => {
                output::error_line(&format!("error: {e}"));
                return Err(EXIT_FAILURE);
            }
        }
    } else {
        Some(openings[0].game.position().rules())
    };
    let tablebases = args
        .tablebase
        .tablebase
        .clone()
        .map(|dir| Arc::new(TablebaseDir::new(dir)));
    if let (Some(dir), Some(rules)) = (&tablebases, rules) {
        // Said once, before the games: the databases cannot be used.
        crate::flags::open_tablebase(dir, rules, !args.quiet.quiet);
    }
    let m = Match {
        args,
        specs,
        names,
        tablebases,
        rules,
        openings,
        time: args.tc,
        margin: Duration::from_millis(args.time_margin),
    };
    Ok((m, invalid_openings))
}

/// The writing of a match's records, pair by pair, and its tally.
struct Writing {
    progress: Progress,
    out: output::Stdout,
    first_record: bool,
    tally: Tally,
    /// A pair could not be played: the match stopped.
    failed: bool,
    /// Records not written for their size.
    refused: usize,
    /// The SPRT's verdict, once it stopped the match.
    stopped: Option<Verdict>,
}

impl Writing {
    /// Writes a pair's records and notes, counts its games and tells the
    /// progress; an error ([`Stopped`]) stops the match when the pair
    /// failed or the SPRT has its verdict.
    fn pair(&mut self, m: &Match<'_>, played: &PairPlayed, pairs: u64) -> io::Result<()> {
        let args = m.args;
        let games = match &played.games {
            Ok(games) => games,
            Err((pair, e)) => {
                self.failed = true;
                self.out.flush()?;
                self.progress
                    .aside(|| output::error_line(&format!("error: pair {pair}: {e}")));
                return Err(io::Error::other(Stopped));
            }
        };
        for game in games {
            let number = game.record.tags.round.as_deref().unwrap_or("?");
            if let Err(error) = write_record(
                &mut self.out,
                &game.record,
                number,
                args.format,
                &mut self.first_record,
            )? {
                self.refused += 1;
                self.out.flush()?;
                self.progress.aside(|| output::error_line(&error));
            }
            for note in &game.notes {
                if !args.quiet.quiet || note.starts_with("error") {
                    self.out.flush()?;
                    self.progress.aside(|| output::error_line(note));
                }
            }
        }
        self.progress.aside_of_stdout(|| self.out.flush())?;
        self.tally.add(games);
        self.progress.inc();
        if !args.quiet.quiet && args.format == Format::Text {
            let line = progress_line(m, &self.tally, pairs);
            self.progress.aside(|| output::error_line(&line));
        }
        if let Some(sprt) = args.sprt {
            let verdict = sprt.verdict(sprt.llr(&self.tally.pentanomial));
            if verdict != Verdict::Continue {
                self.stopped = Some(verdict);
                return Err(io::Error::other(Stopped));
            }
        }
        Ok(())
    }
}

/// Writes a record as `format` asks, records in MGN parted by a blank line;
/// false, the record not written, when the readers would not read it back
/// whole (over the record limit): its error is `Err`'s text.
fn write_record(
    out: &mut output::Stdout,
    record: &Record,
    number: &str,
    format: Format,
    first: &mut bool,
) -> io::Result<Result<(), String>> {
    let text = match format {
        Format::Json => {
            let mut text = serde_json::to_string(record).map_err(io::Error::other)?;
            text.push('\n');
            text
        }
        Format::Text => record.to_string(),
    };
    if let Some(error) = output::record_over_limit(text.len(), || format!("game {number}")) {
        return Ok(Err(error));
    }
    if format == Format::Text && !*first {
        out.write_all(b"\n")?;
    }
    *first = false;
    out.write_all(text.as_bytes())?;
    Ok(Ok(()))
}
