//! The page of one valid game for `mancala-render --format html`: the
//! record walked once ([`walk_line`], which replays variations as the
//! check does), each step handed to the [`Page`] as it is made: the start,
//! each ply's laps and the ply, each round's refilled board, and each ply
//! of each variation; the move list numbered as the record (`3... b+12?`),
//! with marks, evaluations, comments and variations; the evaluation graph's
//! points. Nothing is kept per ply but what the page itself writes.

use mancala_check::Ply;
use mancala_diagram::{
    FrameKind, GameFacts, NoteKind, Page, StepAt, lap_frames, ply_frame, position_frame,
};
use mancala_notation::{Eval, Item, Nag, Numbering, ParsedGame};
use mancala_rules::{Game, Position, Side};

use crate::render::{ended_by, insert_marks};
use crate::variation::{
    StuckMove, Walked, eval_comments, eval_line, eval_value, marks, variation_heading, walk_line,
};

/// What a record says after one move: its marks, the evaluation shown in
/// its heading, its comments as the page shows them, its variations.
struct After<'a> {
    marks: String,
    eval: Option<Eval>,
    comments: Vec<String>,
    variations: Vec<&'a [Item]>,
}

/// A comment as the page shows it: without the `[%eval …]` at `at` that a
/// heading shows already (`None` when nothing else is in it).
fn shown_comment(comment: &str, at: Option<&std::ops::Range<usize>>) -> Option<String> {
    let text = match at {
        Some(at) => format!("{}{}", &comment[..at.start], &comment[at.end..]),
        None => comment.to_owned(),
    };
    let text = text.trim();
    (!text.is_empty() || at.is_none()).then(|| text.to_owned())
}

/// What follows a move, `then` (the items up to its line's next move).
fn after_move(then: &[Item]) -> After<'_> {
    // The evaluation a heading shows is the last one after the move; the
    // comment it comes from keeps its other words.
    let shown = eval_comments(then).into_iter().next().flatten();
    let mut after = After {
        marks: marks(then),
        eval: shown.as_ref().map(|(eval, ..)| *eval),
        comments: Vec::new(),
        variations: Vec::new(),
    };
    for (index, item) in then.iter().enumerate() {
        match item {
            Item::Comment { comment } => {
                let at = shown
                    .as_ref()
                    .filter(|(_, from, _)| *from == index)
                    .map(|(_, _, at)| at);
                after.comments.extend(shown_comment(comment, at));
            }
            Item::Variation { variation } => after.variations.push(variation),
            Item::Move { .. } | Item::Round { .. } | Item::Nag { .. } => {}
        }
    }
    after
}

/// Whether marks open with a mistake's NAG (`?!`, `?`, `??`): an
/// analysis's first variation after such a move is its best line.
fn is_mistake(marks: &str) -> bool {
    [Nag::DUBIOUS, Nag::MISTAKE, Nag::BLUNDER]
        .iter()
        .any(|nag| marks.split(' ').next() == Some(&nag.to_string()))
}

/// A line being walked.
struct Line {
    id: usize,
    /// `2.1`, `2.1/3.2`; empty for the main line.
    name: String,
    numbering: Numbering,
    /// The step of the line's last move, and the step of the position it
    /// was played in (where its variations branch).
    last_step: usize,
    before_last: usize,
    /// The step of the position the next move is played in: the last
    /// move's, or the refilled board of a round it began.
    position_step: usize,
    /// The last move's marks.
    last_marks: String,
    /// The main line's entry in the move list is open, and the entries of
    /// the rounds its move began follow once its variations are written.
    open: bool,
    rounds: Vec<(usize, String)>,
}

impl Line {
    fn close(&mut self, page: &mut Page) {
        if std::mem::take(&mut self.open) {
            page.end_entry();
        }
        for (step, label) in self.rounds.drain(..) {
            page.entry(step, &label, "", None);
            page.end_entry();
        }
    }
}

/// The page of the valid game `parsed`, from its start position `start`;
/// `max_laps` laps drawn at most a move; `over_at_start` is the heading of
/// a game over before its first move (render's final-frame heading), for
/// its only step. `Err` when a move of the main line cannot be played (the
/// check has said so).
pub fn page(
    parsed: &ParsedGame,
    start: Position,
    facts: &GameFacts,
    max_laps: usize,
    over_at_start: Option<String>,
) -> Result<String, StuckMove> {
    let items = &parsed.record.items;
    let lead_len = items
        .iter()
        .position(|i| matches!(i, Item::Move { .. }))
        .unwrap_or(items.len());
    let lead = &items[..lead_len];
    let mut walk = Walk::start(lead, start, facts, max_laps, over_at_start);
    walk_line(
        Game::start(start),
        items,
        1,
        true,
        &mut |walked| match walked {
            Walked::Move {
                ply,
                mv,
                item,
                before,
                after,
                report,
                then,
            } => {
                let ply = Ply {
                    number: ply,
                    mv,
                    before,
                    after: after.position(),
                    report,
                };
                walk.step(&ply, item, then);
            }
            Walked::Enter {
                ply,
                number,
                items: variation,
            } => walk.enter(ply, number, variation),
            Walked::Leave => {
                if walk.lines.len() > 1 {
                    walk.lines.pop();
                }
                walk.page.close_variation();
            }
            Walked::Stuck(stuck) => {
                if walk.lines.len() == 1 {
                    walk.stuck = Some(stuck);
                } else {
                    walk.page.note(NoteKind::End, &stuck.to_string());
                }
            }
        },
    );
    walk.finish()
}

/// The page being written as the game is walked, with the lines (the main
/// line and the variations entered) it is in.
struct Walk<'f> {
    page: Page,
    /// The main line, then each variation entered and not yet left.
    lines: Vec<Line>,
    facts: &'f GameFacts,
    max_laps: usize,
    /// The step the page opens at (`--ply`), once walked.
    opened: Option<usize>,
    last_main: usize,
    /// Why the main line could not be walked to its end.
    stuck: Option<StuckMove>,
}

impl<'f> Walk<'f> {
    /// The page's first step, `start` (`over_at_start`: the game is over
    /// there), with the comments of `lead`, the items before the first
    /// move.
    fn start(
        lead: &[Item],
        start: Position,
        facts: &'f GameFacts,
        max_laps: usize,
        over_at_start: Option<String>,
    ) -> Walk<'f> {
        // The comments before the first move stay whole: no heading shows
        // the start's evaluation.
        let lead_comments: Vec<String> = lead
            .iter()
            .filter_map(|i| match i {
                Item::Comment { comment } => Some(comment.trim().to_owned()),
                _ => None,
            })
            .collect();
        let mut first = position_frame(&start);
        first.board.over = over_at_start.is_some();
        first
            .heading
            .push(over_at_start.unwrap_or_else(|| "the starting position".to_owned()));
        let mut page = Page::new(&first, facts);
        let start_step = page.step(
            &first,
            StepAt {
                notes: &lead_comments,
                ..StepAt::default()
            },
        );
        page.entry(start_step, "start", "", None);
        for comment in &lead_comments {
            page.note(NoteKind::Comment, comment);
        }
        page.end_entry();
        let mut numbering = Numbering::new();
        for item in lead {
            numbering.token(&mut String::new(), item);
        }
        let main = Line {
            id: 0,
            name: String::new(),
            numbering,
            last_step: start_step,
            before_last: start_step,
            position_step: start_step,
            last_marks: String::new(),
            open: false,
            rounds: Vec::new(),
        };
        Walk {
            page,
            lines: vec![main],
            facts,
            max_laps,
            opened: (facts.start_ply == 0).then_some(start_step),
            last_main: start_step,
            stuck: None,
        }
    }

    /// One move, `item` in the record, followed by `then` (its marks,
    /// comments and variations).
    fn step(&mut self, ply: &Ply<'_>, item: &Item, then: &[Item]) {
        let (number, mv, report) = (ply.number, ply.mv, ply.report);
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        let shown = after_move(then);
        let mut label = String::new();
        line.numbering.token(&mut label, item);
        for item in then {
            if !matches!(item, Item::Nag { .. }) {
                line.numbering.token(&mut String::new(), item);
            }
        }
        let (ends, begun) = ended_by(ply);
        let mut notes = ends.clone();
        if let Some(eval) = shown.eval {
            notes.push(eval_line(eval, mv.hole.side));
        }
        let at = StepAt {
            ply: number,
            line: line.id,
            ..StepAt::default()
        };
        if line.id == 0 {
            line.close(&mut self.page);
            lap_steps(&mut self.page, ply, self.max_laps, at);
        }
        let Ok(mut frame) = ply_frame(ply.before, mv, number) else {
            return;
        };
        frame.board.over = report.outcome.is_some();
        if let Some(first) = frame.heading.first_mut() {
            insert_marks(first, mv, &shown.marks);
        }
        frame.heading.extend(notes.iter().cloned());
        for (k, variation) in shown.variations.iter().enumerate() {
            let name = match line.name.as_str() {
                "" => format!("{number}.{}", k + 1),
                outer => format!("{outer}/{number}.{}", k + 1),
            };
            frame.heading.push(variation_heading(&name, variation));
        }
        let step = self.page.step(
            &frame,
            StepAt {
                notes: &shown.comments,
                ..at
            },
        );
        line.before_last = line.position_step;
        line.last_step = step;
        line.position_step = step;
        line.last_marks.clone_from(&shown.marks);
        let eval_text = shown.eval.map(eval_value);
        if line.id == 0 {
            if let Some(eval) = shown.eval {
                let south = match mv.hole.side {
                    Side::South => eval.seeds(),
                    Side::North => -eval.seeds(),
                };
                self.page
                    .eval_point(step, number, south, eval_text.as_deref().unwrap_or(""));
            }
            self.page
                .entry(step, &label, &shown.marks, eval_text.as_deref());
            line.open = true;
        } else {
            self.page
                .variation_move(step, &label, &shown.marks, eval_text.as_deref());
        }
        for note in &ends {
            self.page.note(NoteKind::End, note);
        }
        for comment in &shown.comments {
            self.page.note(NoteKind::Comment, comment);
        }
        if line.id == 0 {
            if number == self.facts.start_ply {
                self.opened = Some(step);
            }
            self.last_main = step;
            // Each round begun: its refilled board, a step of its own.
            for mut frame in begun {
                let label = frame.heading.first().cloned().unwrap_or_default();
                frame.heading.truncate(1);
                let step = self.page.step(&frame, at);
                line.rounds.push((step, label));
                line.position_step = step;
            }
        }
    }

    /// The `number`-th variation after ply `ply` begins, its items
    /// `variation`.
    fn enter(&mut self, ply: usize, number: usize, variation: &[Item]) {
        let Some(parent) = self.lines.last() else {
            return;
        };
        let name = match parent.name.as_str() {
            "" => format!("{ply}.{number}"),
            outer => format!("{outer}/{ply}.{number}"),
        };
        let best = number == 1 && is_mistake(&parent.last_marks);
        // The variation replaces the parent's last move: it branches
        // from the step before it.
        let id = self
            .page
            .line(&name, parent.id, parent.last_step, parent.before_last, best);
        self.page.open_variation(id, &name, best);
        let mut numbering = parent.numbering.variation();
        for item in variation
            .iter()
            .take_while(|i| !matches!(i, Item::Move { .. }))
        {
            numbering.token(&mut String::new(), item);
        }
        let back = parent.before_last;
        self.lines.push(Line {
            id,
            name,
            numbering,
            last_step: back,
            before_last: back,
            position_step: back,
            last_marks: String::new(),
            open: false,
            rounds: Vec::new(),
        });
    }

    /// The page, or why the main line could not be walked.
    fn finish(mut self) -> Result<String, StuckMove> {
        if let Some(stuck) = self.stuck {
            return Err(stuck);
        }
        if let Some(main) = self.lines.first_mut() {
            main.close(&mut self.page);
        }
        self.page.open_at(self.opened.unwrap_or(self.last_main));
        Ok(self.page.finish())
    }
}

/// A main-line ply's laps, each a step; the last one shows the game over
/// when the move ended it.
fn lap_steps(page: &mut Page, ply: &Ply<'_>, max_laps: usize, at: StepAt<'_>) {
    if let Ok(laps) = lap_frames(ply.before, ply.mv, max_laps) {
        let count = laps.len().saturating_sub(1) as u64;
        for mut frame in laps.into_iter().skip(1) {
            let FrameKind::Lap { lap } = frame.kind else {
                continue;
            };
            frame.board.over |= lap == count && ply.report.outcome.is_some();
            page.step(
                &frame,
                StepAt {
                    lap: Some(lap),
                    laps: count,
                    ..at
                },
            );
        }
    }
}
