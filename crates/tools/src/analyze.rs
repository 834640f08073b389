//! `mancala-analyze`: writes the engine's analysis into recorded games, an
//! evaluation and the best move for every ply, mistakes marked, and a
//! summary of each game on stderr. The analysis itself is
//! `mancala_engine::analysis`'s; records are checked as `mancala-validate`
//! checks them, and invalid ones are reported, not analysed.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use mancala_engine::analysis::{Analyser, Limit, Review, Value};
use mancala_notation::{Eval, Item, Nag, Record};
use mancala_prose::plural;
use mancala_rules::{Game, Rules, Side};
use mancala_tablebase::{Tablebase, TablebaseDir};
use serde::Serialize;

use crate::diagnostic;
use crate::driver::{self, Driver, Tally, Writer};
use crate::flags::{
    ColorFlag, JobsFlag, LapBudgetFlag, MaxErrorsFlag, QuietFlag, RecordFilesFlag, TablebaseFlag,
};
use crate::input::{self, InputName, SourcedGame};
use crate::output::{self, EXIT_FAILURE, EXIT_OK, Format};
use mancala_check as check;
use mancala_parallel as parallel;

const EXAMPLES: &str = "\
Examples:
  mancala-analyze games.mgn                  annotate at depth 9, canonical MGN out
  mancala-validate games.mgn | mancala-analyze | mancala-render
  mancala-analyze --depth 12 --blunder 4 games.mgn
  mancala-analyze --ms 500 games.mgn         half a second per position
  mancala-analyze --solve --nodes 5000000 endgame.mgn
  mancala-analyze --tablebase ~/.local/share/mancala/tablebases endgame.mgn
  mancala-analyze --format json games.mgn    JSON records out, JSON summaries on stderr
  mancala-analyze --max-errors 1 games.mgn   stop at the first invalid game
  mancala-analyze --summary players games.mgn   each player's loss and mistakes

Annotations:
  After every move: its NAG when it lost seeds against the best move (?!
  from --inaccuracy seeds, ? from --mistake, ?? from --blunder), then
  {[%eval V,D]}, V the value of the move for its mover in whole seeds at
  the end of the game with best play as far as a search of D plies saw
  ({[%eval =V]}: exact, every line searched reached the end, or the
  endgame databases of --tablebase DIR prove it), then, when
  the search preferred another move, the best line as a variation. The
  tool's evaluations, the variations that hold one and the marks ?!, ?, ??
  on the main line are replaced when a record is analysed again; a move
  marked loses its other marks (!, !!, !?) too; all else is kept.

Exit status: 0 every game analysed, 1 some game invalid (reported, not
analysed) or a record over the 4 MiB the tools read (not written), 2 usage
or I/O error.";

/// Analyse recorded mancala games: evaluations, best moves and mistakes
/// written into the records.
#[derive(Debug, Parser)]
#[command(
    name = "mancala-analyze",
    version,
    after_help = EXAMPLES,
)]
pub struct Args {
    #[command(flatten)]
    pub input: RecordFilesFlag,
    /// `text`: annotated records in canonical notation and a summary line
    /// per game on stderr; `json`: annotated records as NDJSON and each
    /// summary as a JSON object on stderr.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Search every position this many plies deep (1 to 64; default 9).
    /// The same command gives the same bytes.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=64),
          conflicts_with_all = ["ms", "solve"])]
    pub depth: Option<u32>,
    /// Search every position for this many milliseconds instead, deepening
    /// as far as the time allows (results then vary from run to run).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "solve")]
    pub ms: Option<u64>,
    /// Solve every position: deepen until the value is exact or --nodes
    /// positions were searched; the summary says where it ran out.
    #[arg(long)]
    pub solve: bool,
    /// With --solve: positions a solve may search (past its first
    /// iteration) before it gives up on that position.
    #[arg(long, requires = "solve", default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    #[command(flatten)]
    pub tablebase: TablebaseFlag,
    /// Seeds lost against the best move from which a move is an
    /// inaccuracy (said in its comment).
    #[arg(long, value_name = "SEEDS", default_value = "1", value_parser = parse_seeds)]
    pub inaccuracy: i32,
    /// Seeds lost from which a move is a mistake.
    #[arg(long, value_name = "SEEDS", default_value = "3", value_parser = parse_seeds)]
    pub mistake: i32,
    /// Seeds lost from which a move is a blunder.
    #[arg(long, value_name = "SEEDS", default_value = "6", value_parser = parse_seeds)]
    pub blunder: i32,
    /// What the summary on stderr sums up: each game (a line after its
    /// record), or each player across everything read (by the South and
    /// North tags, at the end of the run).
    #[arg(
        long,
        value_enum,
        value_name = "OF",
        default_value_t,
        conflicts_with = "quiet"
    )]
    pub summary: SummaryOf,
    #[command(flatten)]
    pub max_errors: MaxErrorsFlag,
    #[command(flatten)]
    pub quiet: QuietFlag,
    #[command(flatten)]
    pub color: ColorFlag,
    #[command(flatten)]
    pub jobs: JobsFlag,
    #[command(flatten)]
    pub lap_budget: LapBudgetFlag,
    #[command(flatten)]
    pub meta: crate::meta::MetaArgs,
}

/// `--summary`: what the summaries on stderr are of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryOf {
    /// A summary of each game, after its record.
    #[default]
    Games,
    /// A summary of each player across every game read, at the end.
    Players,
}

/// Text that is no number of seeds for [`parse_seeds`] (the text).
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParseSeedsError {
    text: String,
}

impl std::fmt::Display for ParseSeedsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a number of seeds such as 3 or 2.5",
            self.text
        )
    }
}

impl std::error::Error for ParseSeedsError {}

/// A number of seeds with at most two decimals (`1`, `2.5`), in hundredths.
fn parse_seeds(text: &str) -> Result<i32, ParseSeedsError> {
    let bad = || ParseSeedsError {
        text: text.to_owned(),
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 2 || whole.len() > 6 {
        return Err(bad());
    }
    let whole: i32 = whole.parse().map_err(|_| bad())?;
    let frac: i32 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
    Ok(whole * 100 + frac)
}

/// The default depth, as the alpha-beta player's.
pub const DEFAULT_DEPTH: u32 = mancala_engine::AlphaBeta::DEFAULT_DEPTH;

/// How a move is judged, from the seeds it lost against the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Verdict {
    /// The NAG that marks the verdict: `?!`, `?`, `??`.
    fn nag(self) -> Option<Nag> {
        match self {
            Verdict::Good => None,
            Verdict::Inaccuracy => Some(Nag::DUBIOUS),
            Verdict::Mistake => Some(Nag::MISTAKE),
            Verdict::Blunder => Some(Nag::BLUNDER),
        }
    }
}

/// The NAGs a verdict writes: analysing again drops them from every
/// main-line move, since a record does not say who wrote them.
const VERDICT_NAGS: [Nag; 3] = [Nag::DUBIOUS, Nag::MISTAKE, Nag::BLUNDER];

/// Whether `nag` judges the move's quality (`$1` … `$6`: `!`, `?`, `!!`,
/// `??`, `!?`, `?!`): a verdict replaces every one of them on its move, so
/// a move is never marked both `!!` and `??`.
fn judges_quality(nag: Nag) -> bool {
    nag.suffix().is_some()
}

/// The thresholds, in hundredths of a seed.
#[derive(Clone, Copy, Debug)]
struct Thresholds {
    inaccuracy: i32,
    mistake: i32,
    blunder: i32,
}

impl Thresholds {
    fn verdict(self, loss: i32) -> Verdict {
        if loss >= self.blunder {
            Verdict::Blunder
        } else if loss >= self.mistake {
            Verdict::Mistake
        } else if loss >= self.inaccuracy && loss > 0 {
            Verdict::Inaccuracy
        } else {
            Verdict::Good
        }
    }
}

/// How the tool's comments begin (an `[%eval …]` command): analysing
/// again replaces them, and the variations that hold one.
const OWN_COMMENT: &str = "[%eval ";

/// Whether `item` is what an analysis wrote: its evaluation comment, or a
/// variation holding one.
fn is_own(item: &Item) -> bool {
    let own_comment =
        |item: &Item| matches!(item, Item::Comment { comment } if comment.starts_with(OWN_COMMENT));
    match item {
        Item::Variation { variation } => variation.iter().any(own_comment),
        item => own_comment(item),
    }
}

/// The evaluation comment of `value`, searched `depth` plies deep
/// (spec/notation.md §6.7: whole seeds; an exact value has no depth).
fn eval_comment(value: Value, depth: u32) -> Item {
    let eval = if value.exact {
        Eval::Exact {
            seeds: value.seeds(),
        }
    } else {
        Eval::Estimate {
            seeds: value.seeds(),
            depth: Some(depth),
        }
    };
    Item::Comment {
        comment: eval.to_string(),
    }
}

/// The items the analysis writes after a move played in `before`: the
/// verdict's NAG, the evaluation, and when the search preferred another
/// move, the best line as a variation (its first move with its own
/// evaluation, and the round markers the line crosses).
fn annotations(before: &Game, review: &Review, verdict: Verdict) -> Vec<Item> {
    let analysis = &review.analysis;
    let mut items = Vec::with_capacity(3);
    items.extend(verdict.nag().map(|nag| Item::Nag { nag }));
    items.push(eval_comment(review.value, analysis.depth));
    if review.played != analysis.best {
        let mut game = before.clone();
        let mut line = Vec::with_capacity(analysis.line.len() * 2);
        for (i, mv) in analysis.line.iter().enumerate() {
            // The line was played from this position: it plays again.
            let Ok(report) = game.play(*mv) else { break };
            line.push(Item::Move {
                mv: *mv,
                captured: None,
            });
            if i == 0 {
                line.push(eval_comment(analysis.value, analysis.depth));
            }
            line.extend(check::rounds_begun(&report).map(|round| Item::Round { round }));
        }
        items.push(Item::Variation { variation: line });
    }
    items
}

/// One side's moves, as the summary counts them.
#[derive(Debug, Default, Clone, Copy, Serialize)]
struct SideSummary {
    moves: u32,
    /// Hundredths of a seed lost in all.
    #[serde(skip)]
    lost: i64,
    /// Seeds lost per move against the best, on average.
    average_loss: f64,
    inaccuracies: u32,
    mistakes: u32,
    blunders: u32,
}

impl SideSummary {
    fn add(&mut self, loss: i32, verdict: Verdict) {
        self.moves += 1;
        self.lost += i64::from(loss);
        self.average();
        match verdict {
            Verdict::Good => {}
            Verdict::Inaccuracy => self.inaccuracies += 1,
            Verdict::Mistake => self.mistakes += 1,
            Verdict::Blunder => self.blunders += 1,
        }
    }

    /// The average loss, in seeds with two decimals, of the moves counted.
    fn average(&mut self) {
        if self.moves > 0 {
            self.average_loss = (self.lost as f64 / f64::from(self.moves)).round() / 100.0;
        }
    }

    /// Counts `other`'s moves too (another game of the same player).
    fn merge(&mut self, other: &SideSummary) {
        self.moves += other.moves;
        self.lost += other.lost;
        self.inaccuracies += other.inaccuracies;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.average();
    }

    /// `average loss 0.25 over 12 moves, 1 inaccuracy, 0 mistakes, 0
    /// blunders`: the words every text summary uses.
    fn text(&self) -> String {
        format!(
            "average loss {:.2} over {}, {}, {}, {}",
            self.average_loss,
            plural(u64::from(self.moves), "move"),
            plural(u64::from(self.inaccuracies), "inaccuracy"),
            plural(u64::from(self.mistakes), "mistake"),
            plural(u64::from(self.blunders), "blunder")
        )
    }
}

/// A player's summary across every game read (`--summary players`).
#[derive(Debug, Serialize)]
struct PlayerSummary {
    /// The name in the South or North tag (`?` where a record has none).
    player: String,
    games: u32,
    #[serde(flatten)]
    moves: SideSummary,
}

/// The players' summaries, in the order each player first appears.
#[derive(Debug, Default)]
struct Players {
    players: Vec<PlayerSummary>,
    index: std::collections::HashMap<String, usize>,
}

impl Players {
    /// Counts the moves of `name` in one game, which `side` sums up, and
    /// the game itself when it is `new` to the player (a player in both
    /// seats plays one game, not two).
    fn add(&mut self, name: &str, side: &SideSummary, new: bool) {
        let at = *self.index.entry(name.to_owned()).or_insert_with(|| {
            self.players.push(PlayerSummary {
                player: name.to_owned(),
                games: 0,
                moves: SideSummary::default(),
            });
            self.players.len() - 1
        });
        let player = &mut self.players[at];
        player.games += u32::from(new);
        player.moves.merge(side);
    }

    /// One line a player: text, or a JSON object.
    fn lines(&self, format: Format) -> Vec<String> {
        self.players
            .iter()
            .map(|p| match format {
                // Serializing plain data to a String cannot fail.
                Format::Json => serde_json::to_string(p).unwrap_or_default(),
                Format::Text => format!(
                    "{}: {}, {}",
                    p.player,
                    plural(u64::from(p.games), "game"),
                    p.moves.text()
                ),
            })
            .collect()
    }
}

/// The name a record gives a seat, for the players' summaries.
const UNNAMED: &str = "?";

/// A position a solve gave up on.
#[derive(Debug, Clone, Copy, Serialize)]
struct RanOut {
    /// The ply about to be played there, from 1.
    ply: usize,
    /// The deepest iteration completed.
    depth: u32,
    nodes: u64,
}

/// A game's summary (on stderr; as JSON with `--format json`).
#[derive(Debug, Serialize)]
struct Summary<'a> {
    file: &'a str,
    index: usize,
    game: &'a str,
    plies: usize,
    south: SideSummary,
    north: SideSummary,
    /// The ply after which the eventual winner (by the result, or by the
    /// last evaluation when the game is unfinished) stayed ahead for good,
    /// when the lead changed hands.
    decisive_ply: Option<usize>,
    /// With `--solve`: the positions not solved within the node budget.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unsolved: Vec<RanOut>,
}

impl Summary<'_> {
    fn text(&self) -> String {
        let side = |name: &str, s: &SideSummary| format!("{name} {}", s.text());
        let mut text = format!(
            "{} game {} ({}): {}; {}; decisive ply {}",
            self.file,
            self.index,
            self.game,
            side("south", &self.south),
            side("north", &self.north),
            self.decisive_ply
                .map_or_else(|| "none".to_owned(), |p| p.to_string())
        );
        if let Some(first) = self.unsolved.first() {
            let _ = write!(
                text,
                "; {} not solved, the first at ply {} (depth {}, {} nodes)",
                plural(self.unsolved.len() as u64, "position"),
                first.ply,
                first.depth,
                first.nodes
            );
        }
        text
    }
}

/// What analysing one game produced, ready to write.
#[derive(Debug, Default)]
struct Analysed {
    valid: bool,
    stdout: String,
    stderr: String,
    /// South's and North's names and moves, for the players' summaries.
    seats: Option<[(String, SideSummary); 2]>,
    /// Its record would not read back (over the record limit): not written.
    refused: bool,
}

struct Settings<'a> {
    names: &'a [InputName],
    format: Format,
    color: bool,
    lap_budget: Option<u32>,
    limit: Limit,
    thresholds: Thresholds,
    /// Whether each game's summary is written after it.
    game_summaries: bool,
    /// `--tablebase`'s databases.
    tablebases: Option<TablebaseDir>,
    /// Whether notes go to stderr.
    notes: bool,
}

impl Settings<'_> {
    /// The databases of `rules` under `--tablebase`, if any; a note the
    /// first time they cannot be opened.
    fn tablebase(&self, rules: Rules) -> Option<Arc<Tablebase>> {
        crate::flags::open_tablebase(self.tablebases.as_ref()?, rules, self.notes)
    }
}

/// Analyses `record` (valid, starting from `start`): its items with the
/// tool's comments in place of any it had, and the summary's counts.
fn annotate(
    record: &Record,
    start: Game,
    limit: Limit,
    thresholds: Thresholds,
    tablebase: Option<Arc<Tablebase>>,
) -> (Vec<Item>, [SideSummary; 2], Option<usize>, Vec<RanOut>) {
    let mut analyser = Analyser::new(limit).with_tablebase(tablebase);
    let mut game = start;
    let mut items = Vec::with_capacity(record.items.len() * 2);
    let mut sides = [SideSummary::default(); 2];
    let mut unsolved = Vec::new();
    // Evaluations from South's side: before the first ply, then after each.
    let mut evals: Vec<i32> = Vec::new();
    let mut ply = 0;
    // Whether the last move got a verdict: its recorder's quality NAGs go.
    let mut judged = false;
    for item in &record.items {
        match item {
            item if is_own(item) => {}
            Item::Nag { nag } if VERDICT_NAGS.contains(nag) => {}
            Item::Nag { nag } if judged && judges_quality(*nag) => {}
            Item::Move { mv, .. } => {
                ply += 1;
                judged = false;
                items.push(item.clone());
                if let Some(review) = analyser.review(&game, *mv) {
                    let mover = game.position().to_move();
                    let south = |v: i32| if mover == Side::South { v } else { -v };
                    if evals.is_empty() {
                        evals.push(south(review.analysis.value.centiseeds));
                    }
                    evals.push(south(review.value.centiseeds));
                    let loss = review.loss();
                    let verdict = thresholds.verdict(loss);
                    judged = verdict != Verdict::Good;
                    sides[mover.index()].add(loss, verdict);
                    if matches!(limit, Limit::Nodes(_)) && !review.analysis.value.exact {
                        unsolved.push(RanOut {
                            ply,
                            depth: review.analysis.depth,
                            nodes: review.analysis.nodes,
                        });
                    }
                    items.extend(annotations(&game, &review, verdict));
                }
                // The record is valid: its moves play.
                let _ = game.play(*mv);
            }
            other => items.push(other.clone()),
        }
    }
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner,
        None => match evals.last().map(|e| e.signum()) {
            Some(1) => Some(Side::South),
            Some(-1) => Some(Side::North),
            _ => None,
        },
    };
    let decisive = winner.and_then(|w| decisive_ply(&evals, w));
    (items, sides, decisive, unsolved)
}

/// The last ply after which `winner` went from level or behind to ahead,
/// by `evals` (from South's side: before the first ply, then after each).
fn decisive_ply(evals: &[i32], winner: Side) -> Option<usize> {
    let ahead = |e: i32| if winner == Side::South { e > 0 } else { e < 0 };
    (1..evals.len())
        .rev()
        .find(|&k| ahead(evals[k]) && !ahead(evals[k - 1]))
}

fn analyse_game(game: &SourcedGame, settings: &Settings<'_>) -> Analysed {
    let file = settings.names[game.input].display();
    let checked = game.check(settings.lap_budget, check::Build::Record, None);
    let mut out = Analysed {
        valid: checked.is_valid(),
        ..Analysed::default()
    };
    if !out.valid {
        diagnostic::render_problems(
            &mut out.stderr,
            file,
            &game.text,
            &checked.problems,
            settings.color,
        );
        return out;
    }
    let (Some(parsed), Some(rules)) = (
        checked.parsed.as_ref(),
        checked.replay.as_ref().and_then(|r| r.rules),
    ) else {
        return out;
    };
    // A valid record's start is decided (the check replayed from it).
    let Some(start) = check::start_position(parsed, rules)
        .ok()
        .and_then(|p| Game::new(p).ok())
    else {
        return out;
    };
    let record = &parsed.record;
    let tablebase = settings.tablebase(rules);
    let (items, sides, decisive_ply, unsolved) = annotate(
        record,
        start.0,
        settings.limit,
        settings.thresholds,
        tablebase,
    );
    let annotated = Record {
        items,
        ..record.clone()
    };
    let summary = Summary {
        // JSON escapes a control character its own way; text shows it
        // escaped.
        file: match settings.format {
            Format::Json => settings.names[game.input].name(),
            Format::Text => file,
        },
        index: game.number,
        game: record.game.as_str(),
        plies: record.moves().count(),
        south: sides[0],
        north: sides[1],
        decisive_ply,
        unsolved,
    };
    match settings.format {
        Format::Text => {
            let _ = write!(out.stdout, "{annotated}");
            out.stderr = summary.text();
        }
        Format::Json => {
            // Serializing plain data to a String cannot fail.
            out.stdout = serde_json::to_string(&annotated).unwrap_or_default();
            out.stdout.push('\n');
            out.stderr = serde_json::to_string(&summary).unwrap_or_default();
        }
    }
    out.stderr.push('\n');
    if !settings.game_summaries {
        out.stderr.clear();
    }
    let name = |tag: &Option<String>| tag.as_deref().unwrap_or(UNNAMED).to_owned();
    out.seats = Some([
        (name(&record.tags.south), sides[0]),
        (name(&record.tags.north), sides[1]),
    ]);
    // Comments, evaluations and variations make a record longer: one near
    // the limit may pass it.
    let at = || format!("{file}:{}:1", game.text.first_line);
    if let Some(error) = output::record_over_limit(out.stdout.len(), at) {
        out.stdout.clear();
        out.stderr = error + "\n";
        out.refused = true;
    }
    out
}

/// Runs the tool; returns the exit code.
pub fn run(args: &Args) -> io::Result<u8> {
    if crate::meta::handle::<Args>(&args.meta)? {
        return Ok(EXIT_OK);
    }
    // Equal thresholds would leave a verdict that no loss can reach.
    if !(args.inaccuracy < args.mistake && args.mistake < args.blunder) {
        let seeds = |hundredths: i32| f64::from(hundredths) / 100.0;
        output::error_line(&format!(
            "error: the thresholds must grow: --inaccuracy < --mistake < --blunder, not {} {} {}",
            seeds(args.inaccuracy),
            seeds(args.mistake),
            seeds(args.blunder)
        ));
        return Ok(EXIT_FAILURE);
    }
    let limit = if args.solve {
        Limit::Nodes(args.nodes)
    } else if let Some(ms) = args.ms {
        Limit::Time(Duration::from_millis(ms))
    } else {
        Limit::Depth(args.depth.unwrap_or(DEFAULT_DEPTH))
    };
    let names = input::inputs(&args.input.files, !args.quiet.quiet);
    let settings = Settings {
        names: &names,
        format: args.format,
        color: args.color.color.for_stderr(),
        lap_budget: args.lap_budget.lap_budget,
        limit,
        thresholds: Thresholds {
            inaccuracy: args.inaccuracy,
            mistake: args.mistake,
            blunder: args.blunder,
        },
        game_summaries: args.summary == SummaryOf::Games && !args.quiet.quiet,
        tablebases: args.tablebase.tablebase.clone().map(TablebaseDir::new),
        notes: !args.quiet.quiet,
    };
    let mut players = Players::default();
    let mut tool = Tool(output::stdout());
    let mut driver = Driver::new(&names, Some(args.max_errors));
    driver.map(
        &mut tool,
        args.jobs.threads(),
        // Analysing a game takes far longer than reading it: one game a
        // batch, so that every worker has one.
        |_| parallel::HEAVY,
        |game| analyse_game(game, &settings),
        |run, Tool(out), analysed| {
            if let Some([(south, s), (north, n)]) = &analysed.seats {
                players.add(south, s, true);
                players.add(north, n, north != south);
            }
            run.write_record(out, &analysed.stdout, args.format == Format::Text)?;
            // The summary follows its game: what is written so far goes
            // first.
            out.flush()?;
            crate::output::diagnostics(&analysed.stderr);
            Ok(driver::Verdict::of(analysed.valid, analysed.refused))
        },
    )?;
    let Tally {
        games,
        valid,
        refused,
        ..
    } = driver.tally;
    if args.summary == SummaryOf::Players && !args.quiet.quiet {
        for line in players.lines(args.format) {
            output::error_line(&line);
        }
    }
    if args.format == Format::Text && !args.quiet.quiet {
        output::error_line(&format!(
            "analysed {}, {} invalid{}",
            plural(valid as u64, "game"),
            games - valid,
            output::not_written(refused)
        ));
    }
    Ok(driver.tally.exit_status())
}

/// Analyze's stdout, for the driver.
struct Tool(output::Stdout);

impl Writer for Tool {
    fn stdout(&mut self) -> &mut output::Stdout {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_with_two_decimals_at_most() {
        assert_eq!(parse_seeds("3"), Ok(300));
        assert_eq!(parse_seeds("2.5"), Ok(250));
        assert_eq!(parse_seeds("0.25"), Ok(25));
        assert_eq!(parse_seeds("0"), Ok(0));
        for bad in ["", "-1", "1.234", ".5", "x", "1e3", "9999999"] {
            assert!(parse_seeds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn thresholds_judge_the_loss() {
        let t = Thresholds {
            inaccuracy: 100,
            mistake: 300,
            blunder: 600,
        };
        assert_eq!(t.verdict(0), Verdict::Good);
        assert_eq!(t.verdict(99), Verdict::Good);
        assert_eq!(t.verdict(100), Verdict::Inaccuracy);
        assert_eq!(t.verdict(300), Verdict::Mistake);
        assert_eq!(t.verdict(6000), Verdict::Blunder);
        let zero = Thresholds { inaccuracy: 0, ..t };
        assert_eq!(zero.verdict(0), Verdict::Good);
    }

    #[test]
    fn the_decisive_ply_is_where_the_winner_took_the_lead_for_good() {
        // South: level, behind, ahead, behind, ahead, ahead.
        let evals = [0, -100, 200, -50, 300, 400];
        assert_eq!(decisive_ply(&evals, Side::South), Some(4));
        assert_eq!(decisive_ply(&evals, Side::North), Some(3));
        assert_eq!(decisive_ply(&[100, 200], Side::South), None);
    }
}
