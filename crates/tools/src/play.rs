//! `mancala-play`: engines, self-play, continuing records, and a human at
//! the terminal. Writes complete records to stdout.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use clap::Parser;
use mancala_engine::{ParseSpecError, Played, Player, PlayerKind, PlayerSpec, Tablebased};
use mancala_notation::{GameResult, Item, Record};
use mancala_prose::plural;
use mancala_rules::{
    DEFAULT_LAP_BUDGET, Game, Move, NoTrace, Observer, PlayError, PlayErrorKind, PlayReport,
    Position, Rules, Side,
};

use crate::diagnostic::{self, escape_controls};
use crate::driver::{Driver, Step, Verdict, Writer};
use crate::flags::{
    HUMAN, LapBudgetFlag, MatchJobsFlag, NewGameFlags, PlayColorFlag, PlayerFlags, QuietFlag,
    TablebaseFlag,
};
use crate::input::{self, InputName};
use crate::moves_arg;
use crate::output::{self, EXIT_FAILURE, EXIT_INVALID, EXIT_OK, Format};
use crate::progress::Progress;
use crate::seat::{self, SeatInput, Typed};
use mancala_check::{self as check, Build};
use mancala_diagram::{Board, Highlights, Style, draw_board, draw_position};
use mancala_tablebase::TablebaseDir;

const EXAMPLES: &str = "\
Players: random, greedy, alphabeta[:depth=N,ms=T] (depth at most 64; past 14 with no ms=
or --tc it warns that a move may take hours), mcts[:playouts=N,ms=T], human. Every engine also
takes seed=S, its own seed instead of one drawn from --seed; the record's South and North
tags write every setting.

At the human seat, type the hole to sow from (A or a: either case is your own hole);
Olinda Keliya's first move adds its direction (E:ccw or E:cw, also E ccw or E:CCW;
after a hole alone the seat asks for it). As in a record, a move number (1. A, 1... a)
may come before the move and +N after it (checked: a wrong count is not played).
help, hint, undo and quit are understood; arrow keys are ignored. After each move the
seat tells its laps, every gain and round end, and at the end who won.

Examples:
  mancala-play                                   one random Olowuka game
  mancala-play --list games                      the games, their boards and options
  mancala-play --list players                    the engines and their settings
  mancala-play --game pallankuzhi --south alphabeta --north mcts --seed 7
  mancala-play --game rio-kadalis -o rounds=5 --games 20   matches of five rounds
  mancala-play --games 1000 --south alphabeta:depth=4 --north greedy > games.mgn
  mancala-play --south alphabeta:depth=4 --north greedy --first-game 517   game 517 of those alone
  mancala-play --game olinda-keliya --moves 'E:ccw a G' --plies 0
  mancala-validate game.mgn | mancala-play - --plies 10     continue a record
  mancala-play --game rio-kadalis --south human              play at the terminal
  mancala-play --game kalah --south alphabeta --tablebase tb/   perfect play in tb/'s endgames
  mancala-play --pairs 10 --south alphabeta:depth=3 --north greedy --opening-plies 4   a match
  mancala-play --pairs 10 --south alphabeta:depth=3 --north greedy --sprt elo0=0,elo1=100
  mancala-play --pairs 4 --south alphabeta:depth=4 --north mcts:playouts=200 --tc 5+0.05 -j 2

Exit status: 0 ok, 1 an input record or a --moves move is invalid (or a record would pass
the 4 MiB the tools read, and was not written), 2 usage or I/O error.";

/// Play mancala games between engines or people, and write the records.
#[derive(Debug, Parser)]
#[command(
    name = "mancala-play",
    version,
    after_help = EXAMPLES,
)]
pub struct Args {
    /// Records to continue (`-` for stdin): each is played on from its last
    /// position. Without records, new games are played.
    pub records: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub game: NewGameFlags,
    #[command(flatten)]
    pub players: PlayerFlags,
    // Every engine seat, in matches too, plays the moves the databases
    // prove best; elsewhere its own.
    #[command(flatten)]
    pub tablebase: TablebaseFlag,
    /// Seed of every random choice: the same command prints the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of new games to play.
    #[arg(long, short = 'n', default_value_t = 1, conflicts_with = "records")]
    pub games: usize,
    /// The number of the first new game. Game N of a run is played the same
    /// in every run with the same seed and flags, so the record's Round and
    /// Seed tags replay it alone: `--seed S --first-game N`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "records")]
    pub first_game: u64,
    /// Plies to add at most (default: play to the end).
    #[arg(long)]
    pub plies: Option<usize>,
    /// Moves to play first, e.g. `E:ccw c A` (move numbers allowed).
    #[arg(long)]
    pub moves: Option<String>,
    /// A game that reaches this many plies is left unfinished (`*`): with
    /// `no-repetition-rule` a game can go on for ever.
    #[arg(long, default_value_t = 10_000)]
    pub max_plies: usize,
    /// `text`: records in notation; `json`: one JSON record per line.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// List the games (board, seeds per hole, variant options) or the
    /// players (engines, their settings and defaults) on stdout and exit;
    /// with --format json, one JSON object a line.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub list: Option<crate::meta::Listing>,
    /// An engine match of N game pairs between --south (the first engine)
    /// and --north: each pair plays one opening twice, colours reversed;
    /// the summary is per engine, with the Elo difference and --sprt.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["records", "games", "first_game", "moves", "plies"], help_heading = "Engine matches")]
    pub pairs: Option<u64>,
    /// Openings of a match: the records or set-ups of FILE (MGN or JSON),
    /// each played on from its end, one a pair, cycled.
    #[arg(long, value_name = "FILE", requires = "pairs", conflicts_with_all = ["game", "options", "opening_plies"], help_heading = "Engine matches")]
    pub openings: Option<std::path::PathBuf>,
    /// Openings of a match: N random plies from the start, drawn from
    /// --seed for each pair (0: every pair from the start).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        requires = "pairs",
        help_heading = "Engine matches"
    )]
    pub opening_plies: usize,
    /// Keep only generated openings that a depth-6 analysis rates within
    /// MARGIN seeds for the side to move (drawn again otherwise).
    #[arg(long, value_name = "MARGIN", requires = "opening_plies", value_parser = non_negative, help_heading = "Engine matches")]
    pub balanced: Option<f64>,
    /// Time control of a match: a clock `BASE+INC` in seconds (`10+0.1`),
    /// or `st=T`, T seconds a move. A move past its time (and
    /// --time-margin) loses the game on time.
    #[arg(
        long,
        value_name = "TC",
        requires = "pairs",
        help_heading = "Engine matches"
    )]
    pub tc: Option<crate::matches::TimeControl>,
    /// Milliseconds a move may overrun its time before it loses.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 50,
        requires = "tc",
        help_heading = "Engine matches"
    )]
    pub time_margin: u64,
    /// Stop a match once a sequential probability ratio test decides:
    /// `elo0=0,elo1=5` (alpha and beta 0.05 unless given:
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.1`).
    #[arg(
        long,
        value_name = "TEST",
        requires = "pairs",
        help_heading = "Engine matches"
    )]
    pub sprt: Option<crate::stats::Sprt>,
    #[command(flatten)]
    pub jobs: MatchJobsFlag,
    #[command(flatten)]
    pub quiet: QuietFlag,
    #[command(flatten)]
    pub color: PlayColorFlag,
    #[command(flatten)]
    pub lap_budget: LapBudgetFlag,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

/// Text that is no margin in seeds (the text).
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParseMarginError {
    text: String,
}

impl fmt::Display for ParseMarginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a number of seeds (0 or more)", self.text)
    }
}

impl std::error::Error for ParseMarginError {}

/// A margin in seeds: a number, at least 0.
fn non_negative(text: &str) -> Result<f64, ParseMarginError> {
    text.parse::<f64>()
        .ok()
        .filter(|m| m.is_finite() && *m >= 0.0)
        .ok_or_else(|| ParseMarginError {
            text: text.to_owned(),
        })
}

/// A player as the command line names it.
enum Seat {
    /// An engine, with the seed its spec fixed (`seed=N`), if any.
    Engine(Box<dyn Player>, Option<u64>),
    Human,
}

/// Alpha-beta deeper than this, with no time limit, may think for minutes
/// or hours a move (each ply deeper costs several times the last): play
/// says so before it starts.
const DEEP_SEARCH: u32 = 14;

/// A player named on the command line that is none: the name, and the
/// engine's word on it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InvalidPlayer {
    text: String,
    error: ParseSpecError,
}

impl fmt::Display for InvalidPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid player `{}`: {}", self.text, self.error)
    }
}

impl std::error::Error for InvalidPlayer {}

impl Seat {
    /// The seat `text` names, an engine seeded `seed` and playing the
    /// moves `tablebases` prove best, if given.
    fn parse(
        text: &str,
        seed: u64,
        tablebases: Option<&Arc<TablebaseDir>>,
    ) -> Result<Seat, InvalidPlayer> {
        if text == HUMAN {
            return Ok(Seat::Human);
        }
        // Clap has checked it (flags::PlayerFlags).
        let spec: PlayerSpec = text.parse().map_err(|error| InvalidPlayer {
            text: text.to_owned(),
            error,
        })?;
        Ok(Seat::Engine(
            with_tablebases(spec.build(seed), tablebases),
            spec.seed,
        ))
    }

    /// The player as its record tag writes it: the engine and every
    /// setting its spec gave, so that the record tells how it was played.
    fn name(&self) -> String {
        match self {
            Seat::Engine(player, None) => player.name(),
            Seat::Engine(player, Some(seed)) => format!("{} seed={seed}", player.name()),
            Seat::Human => HUMAN.to_owned(),
        }
    }

    /// A warning for a search that may run for hours, if `text` asks for one.
    fn deep_search_warning(text: &str) -> Option<String> {
        let spec: PlayerSpec = text.parse().ok()?;
        let PlayerKind::AlphaBeta(budget) = spec.kind else {
            return None;
        };
        let depth = budget.given_limit()?;
        (depth > DEEP_SEARCH && budget.time().is_none()).then(|| {
            format!(
                "warning: `{text}` searches {depth} plies deep with no time limit, which may take hours a move; add a time limit, e.g. alphabeta:depth={depth},ms=1000"
            )
        })
    }
}

/// `player`, playing the moves `tablebases` prove best where given.
pub(crate) fn with_tablebases(
    player: Box<dyn Player>,
    tablebases: Option<&Arc<TablebaseDir>>,
) -> Box<dyn Player> {
    match tablebases {
        Some(dir) => Box::new(Tablebased::new(player, Arc::clone(dir))),
        None => player,
    }
}

/// A warning for a search that may run for hours, if `text` asks for one.
pub(crate) fn deep_search_warning(text: &str) -> Option<String> {
    Seat::deep_search_warning(text)
}

/// SplitMix64: independent seeds for each game and seat from one `--seed`.
pub(crate) fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed
        .wrapping_add(salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A game being played, with the record it is writing.
pub(crate) struct Session {
    /// The game's number in the run, from 1, for messages.
    number: usize,
    pub(crate) game: Game,
    pub(crate) record: Record,
    /// The game, item count and text size the session started from, for
    /// `undo`.
    base: (Game, usize, usize),
    plies_added: usize,
    pub(crate) plies_total: usize,
    /// Stopped unfinished at `--max-plies`.
    capped: bool,
    /// At least the bytes of the record's text (see [`MAX_RECORD_BYTES`]),
    /// in the form it is written in.
    pub(crate) text_bytes: usize,
    /// Written as a JSON record (`--format json`), which takes more bytes
    /// a ply than MGN.
    json: bool,
}

/// A game is stopped before its record passes the size the tools read
/// (their reader's limit), so that what play writes reads back. Counted as
/// it is played, each ply at its longest in the form written (see
/// [`Session::play`]); a ply's items take at most [`MAX_PLY_BYTES`]. A
/// record continued that is over it already is not written
/// ([`output::record_over_limit`]).
pub(crate) const MAX_RECORD_BYTES: usize = output::MAX_RECORD_BYTES;
pub(crate) const MAX_PLY_BYTES: usize = 256;

/// Bytes of the decimal digits of `n`.
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

impl Session {
    pub(crate) fn new(
        number: usize,
        game: Game,
        record: Record,
        plies_total: usize,
        json: bool,
    ) -> Session {
        // The tags still to come (`Continued`, `Result`, `Termination`)
        // take less than a ply's room.
        let written = if json {
            serde_json::to_string(&record).map_or(usize::MAX / 2, |text| text.len())
        } else {
            record.to_string().len()
        };
        let text_bytes = written + MAX_PLY_BYTES;
        let base = (game.clone(), record.items.len(), text_bytes);
        Session {
            number,
            game,
            record,
            base,
            plies_added: 0,
            plies_total,
            capped: false,
            text_bytes,
            json,
        }
    }

    /// Plays `mv`, appending it (with its capture count) and any round
    /// markers to the record.
    fn play(&mut self, mv: Move) -> Result<PlayReport, PlayError> {
        self.play_observed(mv, &mut NoTrace)
    }

    /// [`Session::play`], the move's steps told to `observer`.
    fn play_observed<O: Observer>(
        &mut self,
        mv: Move,
        observer: &mut O,
    ) -> Result<PlayReport, PlayError> {
        let before = *self.game.position();
        let report = self.game.play_traced(mv, observer)?;
        self.record(&before, mv, &report);
        Ok(report)
    }

    /// Lets `player` choose a move and play it on the game (sown once:
    /// see [`Player::play`]), and records it when it stands.
    pub(crate) fn play_engine(&mut self, player: &mut dyn Player) -> Option<Played> {
        let before = *self.game.position();
        let played = player.play(&mut self.game)?;
        if let Ok(report) = &played.report {
            self.record(&before, played.mv, report);
        }
        Some(played)
    }

    /// Appends `mv`, played in `before` (with its capture count), and any
    /// round markers to the record.
    fn record(&mut self, before: &Position, mv: Move, report: &PlayReport) {
        let mover = before.to_move();
        let canonical = before.canonical_move(mv);
        // North's move is numbered after anything but South's move.
        let after_south = matches!(self.record.items.last(), Some(Item::Move { mv, .. }) if mv.hole.side == Side::South);
        let gained = report.gained[mover.index()];
        self.record.items.push(Item::Move {
            mv: canonical,
            captured: (gained > 0).then_some(gained),
        });
        // The move's text (`E:ccw`), counted, not written out.
        let move_bytes = 1 + canonical.dir.map_or(0, |dir| 1 + dir.as_str().len());
        if self.json {
            // `{"move":"E:ccw","captured":45},` and `{"round":2},` for
            // each round begun.
            self.text_bytes += move_bytes + 12;
            if gained > 0 {
                self.text_bytes += 12 + digits(gained as usize);
            }
        } else {
            // `123. E:ccw+45 ` (a move number before South's moves, or
            // `123... ` before any move), and `R2 ` for each round begun.
            self.text_bytes += match mover {
                Side::South => digits(self.plies_total / 2 + 1) + 2,
                Side::North if after_south => 0,
                Side::North => digits(self.plies_total / 2 + 1) + 4,
            };
            self.text_bytes += move_bytes + 1;
            if gained > 0 {
                self.text_bytes += 1 + digits(gained as usize);
            }
        }
        self.record_markers(report);
        self.plies_added += 1;
        self.plies_total += 1;
    }

    /// Appends the round markers of the rounds `report` begins.
    fn record_markers(&mut self, report: &PlayReport) {
        for round in check::rounds_begun(report) {
            self.record.items.push(Item::Round { round });
            self.text_bytes += if self.json { 11 } else { 2 } + digits(round as usize);
        }
    }

    /// Lets `player` play its move unsettled ([`Player::play_unsettled`])
    /// and records it; `None` when the player asks for the game settled
    /// first ([`Session::settle`]). A move that ended the game or round
    /// by itself is settled at once, its markers recorded.
    fn play_unsettled(&mut self, player: &mut dyn Player) -> Option<Result<(), PlayError>> {
        let before = *self.game.position();
        let (mv, gained) = player.play_unsettled(&mut self.game)?;
        let report = PlayReport {
            gained,
            ..PlayReport::default()
        };
        self.record(&before, mv, &report);
        if self.game.ended_unsettled() {
            return Some(self.settle());
        }
        Some(Ok(()))
    }

    /// Settles what a move played unsettled left open (nothing, when the
    /// game is settled), recording the markers of the rounds it begins.
    fn settle(&mut self) -> Result<(), PlayError> {
        let report = self.game.settle()?;
        self.record_markers(&report);
        Ok(())
    }

    /// Sets the result and end reason from the game's state.
    pub(crate) fn close(&mut self) {
        match self.game.outcome() {
            Some(outcome) => {
                self.record.result = GameResult::Score(outcome.score[0], outcome.score[1]);
                self.record.termination = Some(outcome.reason);
            }
            None => {
                self.record.result = GameResult::Unfinished;
                self.record.termination = None;
            }
        }
    }

    /// Takes back moves until `side` is to move again before its last move.
    fn undo(&mut self, side: Side) -> bool {
        let moves: Vec<Move> = self.record.items[self.base.1..]
            .iter()
            .filter_map(|i| match i {
                Item::Move { mv, .. } => Some(*mv),
                _ => None,
            })
            .collect();
        let Some(last) = moves.iter().rposition(|m| m.hole.side == side) else {
            return false;
        };
        let (base_game, base_len, base_bytes) = self.base.clone();
        self.game = base_game;
        self.text_bytes = base_bytes;
        self.record.items.truncate(base_len);
        let replayed = self.plies_added - moves.len();
        self.plies_total -= moves.len();
        self.plies_added = replayed;
        for mv in &moves[..last] {
            if self.play(*mv).is_err() {
                return false;
            }
        }
        true
    }
}

/// Plays `--moves` (checking any `+N` they carry), or says where and why
/// they fail.
fn play_moves_arg(session: &mut Session, moves: &str) -> Result<(), (Range<usize>, String)> {
    let parsed = moves_arg::parse(moves).map_err(|e| (e.span.clone(), e.to_string()))?;
    for arg in parsed {
        let mover = session.game.position().to_move();
        let ply = session.plies_total + 1;
        let report = session.play(arg.mv).map_err(|e| {
            (
                arg.span.clone(),
                check::illegal_move(arg.mv, ply, mover, &e),
            )
        })?;
        let gained = report.gained[mover.index()];
        if let Some(claimed) = arg.captured
            && claimed != gained
        {
            return Err((
                arg.span,
                check::misannotation(arg.mv, claimed, mover, gained),
            ));
        }
    }
    Ok(())
}

struct Tool<'a> {
    args: &'a Args,
    color: bool,
    out: output::Stdout,
    first_record: bool,
    invalid: usize,
    /// Records not written for their size.
    refused: usize,
    /// The human seat's input, when a person plays.
    seat: Option<SeatInput>,
    /// The bar of a run of new games.
    progress: Progress,
    /// `--tablebase`'s databases, which the engines play from.
    tablebases: Option<Arc<TablebaseDir>>,
}

impl Writer for Tool<'_> {
    fn stdout(&mut self) -> &mut output::Stdout {
        &mut self.out
    }
}

impl Tool<'_> {
    /// Whether a signal stopped the run: the game being played ends as
    /// with `quit`, and no other starts.
    fn interrupted(&self) -> bool {
        self.seat.as_ref().is_some_and(SeatInput::stopped)
    }

    /// Writes `record`, unless the readers would not read it back whole
    /// (over the record limit): then `game` names it in the error, the
    /// record is not written and the run's exit status is 1.
    fn write_record(&mut self, record: &Record, game: impl FnOnce() -> String) -> io::Result<()> {
        let text = match self.args.format {
            Format::Json => {
                let mut text = serde_json::to_string(record).map_err(io::Error::other)?;
                text.push('\n');
                text
            }
            Format::Text => record.to_string(),
        };
        if let Some(error) = output::record_over_limit(text.len(), game) {
            self.refused += 1;
            return self.report(&(error + "\n"));
        }
        if self.args.format == Format::Text && !self.first_record {
            self.out.write_all(b"\n")?;
        }
        self.first_record = false;
        self.out.write_all(text.as_bytes())?;
        // Each game reaches stdout when it ends: an interrupted run keeps
        // the games it finished, and `| head` sees them at once.
        let out = &mut self.out;
        self.progress.aside_of_stdout(|| out.flush())
    }

    fn report(&mut self, text: &str) -> io::Result<()> {
        self.out.flush()?;
        self.progress.aside(|| crate::output::diagnostics(text));
        Ok(())
    }

    /// Reports a note on a game, unless `--quiet`.
    fn note(&mut self, text: &str) -> io::Result<()> {
        if self.args.quiet.quiet {
            return Ok(());
        }
        self.report(text)
    }

    /// Plays `--moves`, then lets the seats play on. Returns false when a
    /// `--moves` move was invalid (the game is then not written).
    fn play_session(&mut self, session: &mut Session, seats: &mut [Seat; 2]) -> io::Result<bool> {
        if let Some(moves) = &self.args.moves
            && let Err((span, error)) = play_moves_arg(session, moves)
        {
            let mut report = String::new();
            diagnostic::render(
                &mut report,
                moves_arg::NAME,
                &moves_arg::text(moves),
                &span,
                &error,
                self.color,
            );
            self.report(&report)?;
            return Ok(false);
        }
        let budget = self.args.plies.unwrap_or(usize::MAX);
        let mut added = 0;
        // Engines without a person at the board may play unsettled
        // (the random player sows its move once: see
        // `Player::play_unsettled`), under the default lap budget only,
        // where settling later cannot refuse a move played.
        let human = seats.iter().any(|s| matches!(s, Seat::Human));
        let unsettled =
            !human && session.game.position().rules().lap_budget() == DEFAULT_LAP_BUDGET;
        // Just settled, at the player's asking: it plays settled.
        let mut settled = false;
        let stop = loop {
            if session.game.outcome().is_some() || added >= budget || self.interrupted() {
                break None;
            }
            if let Next::Stop(stop) = self.at_limit(session)? {
                break stop;
            }
            let side = session.game.position().to_move();
            if unsettled
                && !settled
                && let Seat::Engine(player, _) = &mut seats[side.index()]
            {
                match session.play_unsettled(player.as_mut()) {
                    Some(Ok(())) => {
                        added += 1;
                        continue;
                    }
                    Some(Err(e)) => break Some(e),
                    // Settled, the game may be over, or another side
                    // may be to move (a round ended): asked again.
                    None => {
                        if let Err(e) = session.settle() {
                            break Some(e);
                        }
                        settled = true;
                        continue;
                    }
                }
            }
            settled = false;
            match self.play_turn(session, seats, side, human)? {
                Next::Go => {}
                Next::Again => continue,
                Next::Stop(stop) => break stop,
            }
            added += 1;
        };
        // What the last move played unsettled left open is settled (a
        // game stopped early, by --plies, still ends where it ended).
        let stop = stop.or_else(|| session.settle().err());
        if let Some(e) = stop {
            // The lap budget's verdict on what an unsettled move left open.
            self.report(&undecided_note(session, None, &e))?;
        }
        session.close();
        if seats.iter().any(|s| matches!(s, Seat::Human)) {
            self.show_end(session)?;
        }
        Ok(true)
    }

    /// Stops a game whose record is full or that reached `--max-plies`,
    /// with a note; a stop is only a stop in a game that is not over:
    /// settled first, it may be.
    fn at_limit(&mut self, session: &mut Session) -> io::Result<Next> {
        // A stop for size or --max-plies is only a stop in a game
        // that is not over: settled first, it may be.
        let full = session.text_bytes + MAX_PLY_BYTES > MAX_RECORD_BYTES;
        if full || session.plies_total >= self.args.max_plies {
            if let Err(e) = session.settle() {
                return Ok(Next::Stop(Some(e)));
            }
            if session.game.outcome().is_some() {
                return Ok(Next::Stop(None));
            }
        }
        if full {
            self.note(&format!(
                "note: game {} stopped after {}: its record would pass the {MAX_RECORD_BYTES} bytes the tools read\n",
                session.number,
                plural(session.plies_total as u64, "ply")
            ))?;
            return Ok(Next::Stop(None));
        }
        if session.plies_total >= self.args.max_plies {
            session.capped = true;
            let rules = session.game.position().rules();
            self.note(&format!(
                "note: stopped after {} (--max-plies){}\n",
                plural(session.plies_total as u64, "ply"),
                rounds_hint(rules)
            ))?;
            return Ok(Next::Stop(None));
        }
        Ok(Next::Go)
    }

    /// One move of the game by the player of `side`, told in words when a
    /// person is at the board (`human`).
    fn play_turn(
        &mut self,
        session: &mut Session,
        seats: &mut [Seat; 2],
        side: Side,
        human: bool,
    ) -> io::Result<Next> {
        // With a person at the board, each move is told in words: its
        // steps are gathered as it is sown.
        let mut steps = seat::MoveSteps::default();
        let before = *session.game.position();
        let (mv, played) = match &mut seats[side.index()] {
            Seat::Engine(player, _) => match session.play_engine(player.as_mut()) {
                Some(Played { mv, report }) => {
                    if human && report.is_ok() {
                        // The engine played the move untraced; its
                        // steps are traced again for the words alone.
                        let _ = before.play_traced(mv, &mut steps);
                    }
                    (mv, report)
                }
                None => {
                    // An engine finds no move it may play: when that is
                    // the lap budget's doing (no verdict on some move),
                    // say so.
                    if let Some((mv, e)) = why_no_move(&session.game) {
                        self.report(&undecided_note(session, mv, &e))?;
                    }
                    return Ok(Next::Stop(None));
                }
            },
            Seat::Human => match self.ask_human(session, side)? {
                HumanTurn::Move(mv) => (mv, session.play_observed(mv, &mut steps)),
                HumanTurn::Quit => return Ok(Next::Stop(None)),
                HumanTurn::Undone => return Ok(Next::Again),
            },
        };
        let report = match played {
            Ok(report) => report,
            // the lap budget: no verdict either way, so the game
            // stops here, unfinished, and says why.
            Err(
                e @ PlayError {
                    kind: PlayErrorKind::Undecided { .. },
                    ..
                },
            ) => {
                self.report(&undecided_note(session, Some(mv), &e))?;
                return Ok(Next::Stop(None));
            }
            Err(e) => {
                return Err(io::Error::other(format!(
                    "the {side} player chose an illegal move {mv}: {e}"
                )));
            }
        };
        if human {
            let shown = before.canonical_move(mv);
            self.report(&seat::move_note(side, shown, &before, &report, &steps))?;
        }
        Ok(Next::Go)
    }

    fn show_end(&mut self, session: &Session) -> io::Result<()> {
        let mut text = String::new();
        let style = Style::ASCII.with_colour(self.color);
        let board = Board {
            over: session.game.outcome().is_some(),
            ..Board::of(session.game.position())
        };
        let _ = draw_board(&mut text, &board, &Highlights::NONE, style);
        match session.game.outcome() {
            Some(o) => {
                let rounds = session.game.position().rules().plays_rounds();
                let _ = writeln!(text, "{}", seat::outcome_words(&o, rounds));
            }
            None => text.push_str("game left unfinished\n"),
        }
        self.report(&text)
    }

    fn ask_human(&mut self, session: &mut Session, side: Side) -> io::Result<HumanTurn> {
        let style = Style::ASCII.with_colour(self.color);
        let mut board_shown = false;
        // A move typed without the direction that this first move chooses:
        // the next line is asked for it.
        let mut wants_direction: Option<moves_arg::MoveArg> = None;
        loop {
            let position = *session.game.position();
            let mut prompt = String::new();
            // The board once per position; help and errors only re-prompt.
            let first_prompt = !board_shown;
            if first_prompt {
                let _ = draw_position(&mut prompt, &position, &Highlights::NONE, style);
                board_shown = true;
            }
            // Only moves whose outcome the lap budget decides are offered;
            // the others are named, with why.
            let (decided, undecided) = decided_moves(&session.game);
            if first_prompt {
                not_offered(&mut prompt, &undecided);
            }
            if decided.is_empty() {
                self.report(&prompt)?;
                if let Some((mv, e)) = why_no_move(&session.game) {
                    self.report(&undecided_note(session, mv, &e))?;
                }
                return Ok(HumanTurn::Quit);
            }
            ask_for(
                &mut prompt,
                &position,
                side,
                &decided,
                wants_direction.as_ref(),
            );
            self.report(&prompt)?;
            let word = match self.hear()? {
                Heard::Word(word) => word,
                Heard::Nothing => continue,
                Heard::End => return Ok(HumanTurn::Quit),
            };
            let pending = wants_direction.take();
            match word.to_ascii_lowercase().as_str() {
                "quit" | "q" => return Ok(HumanTurn::Quit),
                "help" | "?" => {
                    self.report(&seat::help(&position))?;
                }
                "hint" => {
                    let hint = "alphabeta"
                        .parse::<PlayerSpec>()
                        .map(|s| s.build(self.args.seed));
                    let suggestion = hint.ok().and_then(|mut p| p.choose(&session.game));
                    let text = match suggestion {
                        Some(mv) => format!("hint: {mv}\n"),
                        None => "hint: no move\n".to_owned(),
                    };
                    self.report(&text)?;
                }
                "undo" => {
                    let text = if session.undo(side) {
                        "undone\n"
                    } else {
                        "nothing to undo\n"
                    };
                    self.report(text)?;
                    return Ok(HumanTurn::Undone);
                }
                _ => match self.typed_move(session, side, &word, pending, &decided)? {
                    Answer::Play(mv) => return Ok(HumanTurn::Move(mv)),
                    Answer::WhichWay(arg) => wants_direction = Some(arg),
                    Answer::Again => {}
                },
            }
        }
    }

    /// The next line typed at the human seat, without its control keys;
    /// what is wrong with it said.
    fn hear(&mut self) -> io::Result<Heard> {
        let Some(seat) = &self.seat else {
            return Ok(Heard::End);
        };
        let line = match seat.next() {
            Typed::Line(line) => line,
            Typed::NotText => {
                self.report("that line is not UTF-8 text: type a move, or help\n")?;
                return Ok(Heard::Nothing);
            }
            Typed::TooLong(bytes) => {
                self.report(&format!(
                    "that line is {bytes} bytes long (at most {}): type a move, or help\n",
                    seat::MAX_LINE
                ))?;
                return Ok(Heard::Nothing);
            }
            Typed::End(reason) => {
                if let Some(reason) = reason {
                    self.report(&format!("\nnote: {reason}; the game stops as with quit\n"))?;
                }
                return Ok(Heard::End);
            }
            Typed::Stop(signal) => {
                self.report(&format!(
                    "\nnote: {signal}: the game stops as with quit, and its record is written\n"
                ))?;
                return Ok(Heard::End);
            }
        };
        let (line, dropped) = seat::without_controls(&line);
        let word = line.trim();
        if word.is_empty() {
            if dropped {
                self.report("arrow and other control keys are ignored: type a move, or help\n")?;
            }
            return Ok(Heard::Nothing);
        }
        Ok(Heard::Word(word.to_owned()))
    }

    /// A move typed at the human seat by `side` (`pending`: a first move
    /// typed before, whose direction `word` may give), among the moves
    /// offered, `decided`.
    fn typed_move(
        &mut self,
        session: &Session,
        side: Side,
        word: &str,
        pending: Option<moves_arg::MoveArg>,
        decided: &[Move],
    ) -> io::Result<Answer> {
        let position = session.game.position();
        let typed = match (pending, seat::direction_word(word)) {
            (Some(mut arg), Some(dir)) => {
                arg.mv.dir = Some(dir);
                Ok(arg)
            }
            _ => moves_arg::parse_typed(word),
        };
        let arg = match typed {
            Ok(arg) => arg,
            // The message quotes what was typed (shortened).
            Err(e) => {
                self.report(&format!("{}\n", escape_controls(&e.to_string())))?;
                return Ok(Answer::Again);
            }
        };
        let mv = seat::own_hole(arg.mv, side);
        // Asked only of a hole that can be played: another
        // is refused at once, below.
        if position.direction_due() && mv.dir.is_none() && decided.iter().any(|d| d.hole == mv.hole)
        {
            return Ok(Answer::WhichWay(moves_arg::MoveArg { mv, ..arg }));
        }
        match session.game.clone().play(mv) {
            Err(e) => {
                self.report(&format!("illegal: {}\n", escape_controls(&e.to_string())))?;
            }
            // A `+N` typed is checked as a record's is: a wrong
            // count is not played.
            Ok(report) => match arg.captured {
                Some(claimed) if claimed != report.gained[side.index()] => {
                    let gained = report.gained[side.index()];
                    self.report(&format!(
                        "{}; not played\n",
                        check::misannotation(mv, claimed, side, gained)
                    ))?;
                }
                _ => return Ok(Answer::Play(mv)),
            },
        }
        Ok(Answer::Again)
    }
}

/// The moves the side to move may play whose outcome is decided, and those
/// the lap budget leaves undecided (with why).
fn decided_moves(game: &Game) -> (Vec<Move>, Vec<(Move, PlayError)>) {
    let mut decided = Vec::new();
    let mut undecided = Vec::new();
    for mv in game.position().candidates().iter() {
        match game.clone().play(mv) {
            Ok(_) => decided.push(mv),
            Err(e) if matches!(e.kind, PlayErrorKind::Undecided { .. }) => undecided.push((mv, e)),
            Err(_) => {}
        }
    }
    (decided, undecided)
}

/// Why an engine found no move in an unfinished game: the side to move's
/// legal moves are unknown, or each of them is refused by the game (what
/// follows it is undecided); the move refused comes with its error.
pub(crate) fn why_no_move(game: &Game) -> Option<(Option<Move>, PlayError)> {
    match game.position().legal_moves() {
        Err(e) => Some((None, e)),
        Ok(moves) => moves
            .iter()
            .find_map(|mv| game.clone().play(mv).err().map(|e| (Some(mv), e))),
    }
}

/// Why a game stopped unfinished under the lap budget, naming the game,
/// the ply and the side whose moves could not be decided: the side to move
/// (`mv` is `None`, or the undecided move is its own), or its opponent
/// when `mv` was played but whether the opponent can move then is unknown.
pub(crate) fn undecided_note(session: &Session, mv: Option<Move>, e: &PlayError) -> String {
    let side = session.game.position().to_move();
    let ply = session.plies_total + 1;
    let game = session.number;
    match mv {
        Some(mv) if e.position.to_move() != side => format!(
            "note: game {game} left unfinished at ply {ply}: after {side}'s {mv}, whether {} can move is undecided: {e} (--lap-budget)\n",
            side.opposite()
        ),
        _ => format!(
            "note: game {game} left unfinished at ply {ply}, {side} to move: {e} (--lap-budget)\n"
        ),
    }
}

enum HumanTurn {
    Move(Move),
    Undone,
    Quit,
}

/// What a game does after a step of [`Tool::play_session`].
enum Next {
    /// Goes on.
    Go,
    /// Asks the same side again (a move undone at the human seat).
    Again,
    /// Stops, with what the lap budget left undecided, if that is why.
    Stop(Option<PlayError>),
}

/// A line typed at the human seat.
enum Heard {
    Word(String),
    /// Nothing to act on (an empty line, or one refused): ask again.
    Nothing,
    /// The input ended, or a signal stops the game.
    End,
}

/// What a move typed at the human seat comes to.
enum Answer {
    Play(Move),
    /// A first move typed without its direction: the next line gives it.
    WhichWay(moves_arg::MoveArg),
    /// Refused, and said why: ask again.
    Again,
}

/// The line naming the moves the lap budget leaves undecided, which the
/// human seat does not offer.
fn not_offered(prompt: &mut String, undecided: &[(Move, PlayError)]) {
    if let Some((mv, e)) = undecided.first() {
        let others: Vec<String> = undecided[1..].iter().map(|(m, _)| m.to_string()).collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!(" (so are {})", others.join(" "))
        };
        let _ = writeln!(
            prompt,
            "not offered: {mv} is undecided under the lap budget{also}: {e}"
        );
    }
}

/// The human seat's question: which way `wants_direction`'s move sows, or
/// which of the moves `decided` `side` plays.
fn ask_for(
    prompt: &mut String,
    position: &Position,
    side: Side,
    decided: &[Move],
    wants_direction: Option<&moves_arg::MoveArg>,
) {
    if let Some(arg) = wants_direction {
        let _ = write!(
            prompt,
            "{} sows which way? ccw (counter-clockwise) or cw (clockwise)> ",
            arg.mv
        );
        return;
    }
    // A first move that chooses the direction: each hole once, when it may
    // go either way.
    let mut list: Vec<String> = decided.iter().map(|m| m.to_string()).collect();
    let mut with = "";
    if position.direction_due() {
        let mut holes: Vec<String> = decided.iter().map(|m| m.hole.to_string()).collect();
        holes.dedup();
        if holes.len() * 2 == decided.len() {
            list = holes;
            with = ", each :ccw or :cw";
        }
    }
    let _ = write!(
        prompt,
        "{side} to move [{}{with}] (help, hint, undo, quit)> ",
        list.join(" ")
    );
}

/// What a note on a game stopped at `--max-plies` adds: a match of rounds
/// without `rounds=N` may never end, and the option ends it.
fn rounds_hint(rules: Rules) -> &'static str {
    if rules.plays_rounds() && rules.last_round().is_none() {
        "; `-o rounds=N` ends a match after round N"
    } else {
        ""
    }
}

/// What a run of `rules` plays: `matches` of rounds, or `games`.
pub(crate) fn noun(rules: Rules) -> &'static str {
    if rules.plays_rounds() {
        "matches"
    } else {
        "games"
    }
}

/// Counts for the match summary.
#[derive(Debug, Default)]
struct Summary {
    games: usize,
    wins: [usize; 2],
    draws: usize,
    unfinished: usize,
    /// Of the unfinished: those stopped at `--max-plies`.
    capped: usize,
    plies: usize,
}

impl Summary {
    fn add(&mut self, session: &Session) {
        self.games += 1;
        self.plies += session.plies_total;
        match session.game.outcome() {
            Some(o) => match o.winner {
                Some(side) => self.wins[side.index()] += 1,
                None => self.draws += 1,
            },
            None => {
                self.unfinished += 1;
                self.capped += usize::from(session.capped);
            }
        }
    }

    /// The summary; `rules` and `max_plies` say what the games were and
    /// where they were stopped.
    fn line(&self, seats: &[Seat; 2], rules: Rules, max_plies: usize, format: Format) -> String {
        let average = self.plies as f64 / self.games.max(1) as f64;
        match format {
            Format::Json => format!(
                "{{\"games\":{},\"south\":{:?},\"north\":{:?},\"south_wins\":{},\"north_wins\":{},\"draws\":{},\"unfinished\":{},\"max_plies_reached\":{},\"average_plies\":{:.1}}}\n",
                self.games,
                seats[0].name(),
                seats[1].name(),
                self.wins[0],
                self.wins[1],
                self.draws,
                self.unfinished,
                self.capped,
                average
            ),
            Format::Text => {
                let noun = noun(rules);
                let mut line = format!(
                    "{} {noun}: south ({}) won {}, north ({}) won {}, {} drawn, {} unfinished; {average:.1} plies on average\n",
                    self.games,
                    seats[0].name(),
                    self.wins[0],
                    seats[1].name(),
                    self.wins[1],
                    self.draws,
                    self.unfinished
                );
                if self.capped > 0 {
                    line.push_str(&format!(
                        "note: {} of the {} {noun} stopped unfinished at --max-plies ({max_plies}){}\n",
                        self.capped,
                        self.games,
                        rounds_hint(rules)
                    ));
                }
                line
            }
        }
    }
}

fn new_rules(args: &Args) -> Result<Rules, crate::flags::RulesOfError> {
    crate::flags::rules_of(
        args.game.game,
        &args.game.options,
        args.lap_budget.lap_budget,
    )
}

/// Runs the tool; returns the exit code.
pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    if let Some(listing) = args.list {
        let mut out = output::stdout();
        crate::meta::write_listing(listing, args.format, &mut out)?;
        out.flush()?;
        return Ok(EXIT_OK);
    }
    if let Some(pairs) = args.pairs {
        return crate::matches::run(args, pairs);
    }
    if let Err(e) = seats_for(args, 0, None) {
        output::error_line(&format!("error: {e}"));
        return Ok(EXIT_FAILURE);
    }
    let seats = [&args.players.south, &args.players.north];
    for text in seats {
        if let Some(warning) = Seat::deep_search_warning(text) {
            output::error_line(&warning);
        }
    }
    let humans = seats.iter().any(|s| *s == HUMAN);
    if humans && args.records.iter().any(|r| r.as_os_str() == "-") {
        output::error_line(
            "error: a human player reads moves from stdin, so records cannot come from stdin too",
        );
        return Ok(EXIT_FAILURE);
    }
    let color = args.color.color.for_stderr();
    let mut tool = Tool {
        args,
        color,
        out: output::stdout(),
        first_record: true,
        invalid: 0,
        refused: 0,
        seat: if humans {
            Some(SeatInput::start()?)
        } else {
            None
        },
        progress: Progress::new(None, "games", false),
        tablebases: args
            .tablebase
            .tablebase
            .clone()
            .map(|dir| Arc::new(TablebaseDir::new(dir))),
    };
    let played = if args.records.is_empty() {
        match play_new_games(&mut tool, humans)? {
            Ok(played) => played,
            Err(code) => return Ok(code),
        }
    } else {
        play_on_records(&mut tool)?
    };
    let RunPlayed {
        summary,
        last_seats,
        rules: summary_rules,
        unreadable,
    } = played;
    tool.out.flush()?;
    tool.progress.finish(summary.games > 1);
    if summary.games > 1
        && !args.quiet.quiet
        && let Some(seats) = &last_seats
        && let Some(rules) = summary_rules
    {
        let line = summary.line(seats, rules, args.max_plies, args.format);
        output::error_line(line.trim_end());
    }
    Ok(if unreadable {
        EXIT_FAILURE
    } else if tool.invalid > 0 || tool.refused > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    })
}

/// The seats of game `salt`, each engine seeded from `--seed` and the
/// game.
fn seats_for(
    args: &Args,
    salt: u64,
    tablebases: Option<&Arc<TablebaseDir>>,
) -> Result<[Seat; 2], InvalidPlayer> {
    Ok([
        Seat::parse(&args.players.south, mix(args.seed, salt * 2), tablebases)?,
        Seat::parse(
            &args.players.north,
            mix(args.seed, salt * 2 + 1),
            tablebases,
        )?,
    ])
}

/// What a run played: the summary of its games, and the players and the
/// game the summary names (the last record's).
#[derive(Default)]
struct RunPlayed {
    summary: Summary,
    last_seats: Option<[Seat; 2]>,
    rules: Option<Rules>,
    /// An input could not be read.
    unreadable: bool,
}

/// Plays `--games` new games (at most); `Err` holds the exit code of a
/// run that cannot start.
fn play_new_games(tool: &mut Tool<'_>, humans: bool) -> io::Result<Result<RunPlayed, u8>> {
    let args = tool.args;
    let mut played = RunPlayed::default();
    let rules = match new_rules(args) {
        Ok(rules) => rules,
        Err(e) => {
            output::error_line(&format!("error: {e}"));
            return Ok(Err(EXIT_FAILURE));
        }
    };
    played.rules = Some(rules);
    if let Some(dir) = &tool.tablebases {
        // Said once, before the games: the databases cannot be used.
        crate::flags::open_tablebase(dir, rules, !args.quiet.quiet);
    }
    // A person at the board needs no bar; a single game gets its
    // spinner and elapsed time, cleared when it ends.
    tool.progress = Progress::new(
        Some(args.games as u64),
        noun(rules),
        !args.quiet.quiet && !humans,
    );
    for index in 0..args.games {
        let number = args.first_game.saturating_add(index as u64);
        let mut seats =
            seats_for(args, number, tool.tablebases.as_ref()).map_err(io::Error::other)?;
        let game = match Game::new(Position::new(rules)) {
            Ok((game, _)) => game,
            // Whether the first player can move is undecided under the
            // lap budget: no game can start.
            Err(e) => {
                tool.out.flush()?;
                tool.progress.finish(false);
                let side = Position::new(rules).to_move();
                output::error_line(&format!(
                    "error: game {number}: cannot start: whether {side} can move at ply 1 is undecided: {e} (--lap-budget)"
                ));
                return Ok(Err(EXIT_FAILURE));
            }
        };
        let mut record = Record::new(rules.game());
        record.options = rules.options();
        record.tags.event = Some("mancala-play".to_owned());
        record.tags.south = Some(seats[0].name());
        record.tags.north = Some(seats[1].name());
        if args.games > 1 || args.first_game > 1 {
            record.tags.round = Some(number.to_string());
        }
        record
            .set_tag("Seed", args.seed.to_string())
            .map_err(io::Error::other)?;
        let budget = rules.lap_budget();
        if budget != DEFAULT_LAP_BUDGET {
            record
                .set_tag(check::LAP_BUDGET_TAG, budget.to_string())
                .map_err(io::Error::other)?;
        }
        let mut session = Session::new(
            usize::try_from(number).unwrap_or(usize::MAX),
            game,
            record,
            0,
            args.format == Format::Json,
        );
        if tool.play_session(&mut session, &mut seats)? {
            tool.write_record(&session.record, || format!("game {number}"))?;
            played.summary.add(&session);
        } else {
            tool.invalid += 1;
        }
        tool.progress.inc();
        played.last_seats = Some(seats);
        if tool.interrupted() {
            break;
        }
    }
    Ok(Ok(played))
}

/// Plays on from every record read.
fn play_on_records(tool: &mut Tool<'_>) -> io::Result<RunPlayed> {
    let args = tool.args;
    let color = tool.color;
    let mut played = RunPlayed::default();
    let names: Vec<InputName> = input::inputs(&args.records, !args.quiet.quiet);
    let mut index = 0u64;
    // Like validate and render: an unreadable input is reported, the
    // other inputs are still played on, and the exit code says one
    // failed.
    let mut driver = Driver::new(&names, None);
    driver.each(tool, |_, tool, input, game| {
        let file = input.display();
        index += 1;
        let checked = game.check(args.lap_budget.lap_budget, Build::Record, None);
        let Continuable {
            mut record,
            game: game_state,
            plies,
        } = match continuable(checked, file, &game.text, color) {
            Ok(valid) => valid,
            Err(diagnostics) => {
                tool.report(&diagnostics)?;
                tool.invalid += 1;
                return Ok((Verdict::Invalid, Step::Next));
            }
        };
        let mut seats =
            seats_for(args, index, tool.tablebases.as_ref()).map_err(io::Error::other)?;
        // Continued under another lap budget, the record says so: the
        // other tools read it under that budget.
        if let Some(budget) = args.lap_budget.lap_budget
            && (budget != DEFAULT_LAP_BUDGET || record.tag(check::LAP_BUDGET_TAG).is_some())
        {
            record
                .set_tag(check::LAP_BUDGET_TAG, budget.to_string())
                .map_err(io::Error::other)?;
        }
        let mut session = Session::new(
            index as usize,
            game_state,
            record,
            plies,
            args.format == Format::Json,
        );
        let verdict = if tool.play_session(&mut session, &mut seats)? {
            // The record's players stay; who played on is noted.
            if session.plies_added > 0 {
                let note = format!(
                    "after ply {plies}: south {}, north {}, seed {}",
                    seats[0].name(),
                    seats[1].name(),
                    args.seed
                );
                session
                    .record
                    .set_tag("Continued", note)
                    .map_err(io::Error::other)?;
            }
            let first_line = game.text.first_line;
            tool.write_record(&session.record, || format!("{file}:{first_line}:1"))?;
            played.summary.add(&session);
            // The summary names the players and game of the last
            // record, as a fresh run's does.
            played.rules = Some(session.game.position().rules());
            played.last_seats = Some(seats);
            Verdict::Valid
        } else {
            tool.invalid += 1;
            Verdict::Invalid
        };
        let step = if tool.interrupted() {
            Step::Stop
        } else {
            Step::Next
        };
        Ok((verdict, step))
    })?;
    played.unreadable = driver.tally.unreadable > 0;
    Ok(played)
}

/// A record to go on from: valid, with the game as its moves left it, the
/// plies replayed, and the round markers it owes (a record cut where a
/// round began) already at the end of its items, before any move added.
#[derive(Debug)]
pub(crate) struct Continuable {
    pub record: Record,
    pub game: Game,
    pub plies: usize,
}

/// `checked` (the game `text` of input `file`) as a record to go on from,
/// or its problems drawn as diagnostics. Only a valid record is continued:
/// one whose result or end reason is wrong says something false about the
/// game.
pub(crate) fn continuable(
    checked: check::Checked,
    file: &str,
    text: &mancala_notation::GameText,
    color: bool,
) -> Result<Continuable, String> {
    let (
        Some(parsed),
        Some(check::Replay {
            game: Some(game),
            plies,
            markers_due,
            ..
        }),
        true,
    ) = (checked.parsed, checked.replay, checked.problems.is_empty())
    else {
        let mut diagnostics = String::new();
        diagnostic::render_problems(&mut diagnostics, file, text, &checked.problems, color);
        return Err(diagnostics);
    };
    let mut record = parsed.record;
    record
        .items
        .extend(markers_due.into_iter().map(|round| Item::Round { round }));
    Ok(Continuable {
        record,
        game,
        plies,
    })
}
