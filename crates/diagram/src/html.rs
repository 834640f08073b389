//! One game as a self-contained HTML page (`mancala-render --format html`):
//! the board drawn once as inline SVG by [`super::svg`], every step of the
//! game (the start, each ply's laps, each ply, each round's refilled board,
//! and each ply of its variations) as data, a move list numbered as the
//! record is, an evaluation graph, and a small script that shows the step
//! asked for. Nothing is loaded from anywhere: the page opens from disk.
//!
//! A [`Page`] is written as the game is walked, a step and a move at a
//! time: it holds the page so far and the steps' data, both part of what
//! it writes, and nothing per step besides (issue 29: a page's time and
//! memory grow with its size alone).

use std::fmt::Write;

use serde::Serialize;

use super::frames::Frame;
use super::svg::{MAX_DOTS, View, dots_svg, escape, write_live_board};
use mancala_rules::escape_controls;

const SCRIPT: &str = include_str!("viewer.js");
const STYLE: &str = include_str!("viewer.css");

/// What the page says about the game besides its steps.
#[derive(Clone, Debug, Default)]
pub struct GameFacts {
    /// Where the game comes from: `games.mgn: game 3`.
    pub source: String,
    /// Tag lines to show under the title, each of labelled values:
    /// `[("South", "Ann"), ("North", "Ben")]`, `[("Date", "2024.05.01")]`.
    pub tags: Vec<Vec<(&'static str, String)>>,
    /// The ply the page opens at (0: the start).
    pub start_ply: usize,
}

/// Where a step stands in the game.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepAt<'a> {
    /// Its ply through the game (0: the start).
    pub ply: usize,
    /// A lap's step: its lap, of `laps`; `None` for a ply-level step (the
    /// arrow keys left and right stop there).
    pub lap: Option<u64>,
    pub laps: u64,
    /// The line it belongs to: 0 the main line, else what
    /// [`Page::line`] gave.
    pub line: usize,
    /// The record's comments shown under the board with it.
    pub notes: &'a [String],
}

/// What a move list's note is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A comment of the record, shown in braces.
    Comment,
    /// What a ply ended (a round, the game) or its evaluation.
    End,
}

/// One step as the script reads it. The fields the script carries over
/// from the step before when they are left out (`title`, `stores`,
/// `players`, `legend`) are written only when they change.
#[derive(Serialize)]
struct Step<'a> {
    ply: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    lap: Option<u64>,
    #[serde(skip_serializing_if = "is_zero")]
    laps: u64,
    #[serde(skip_serializing_if = "is_zero_usize")]
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    heading: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    /// Each hole's count (South's from `A`, then North's from `a`), `null`
    /// for a closed hole.
    counts: Vec<Option<u8>>,
    /// Each hole's mark, one character a hole: `^`, `*`, `x` or a blank.
    #[serde(skip_serializing_if = "Option::is_none")]
    marks: Option<String>,
    /// The laps of a ply that ended in a hole, by the hole's index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ends: Vec<(usize, &'a str)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stores: Option<[u8; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<[(&'a str, &'static str); 2]>,
    #[serde(skip_serializing_if = "str::is_empty")]
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    legend: Option<&'a str>,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

/// What the step before showed of what steps carry over.
#[derive(Debug, Default)]
struct Carried {
    title: String,
    stores: [u8; 2],
    players: [(String, &'static str); 2],
    legend: String,
}

/// A line of the page: 0 the main line, then each variation as the walk
/// meets it.
#[derive(Serialize)]
struct LineData<'a> {
    /// `2.1`, `2.1/3.2`, as `--variation` names it.
    name: &'a str,
    parent: usize,
    /// The parent's step of the move the line replaces (where leaving
    /// the line returns).
    from: usize,
    /// The parent's step of the position the line branches from.
    back: usize,
    /// Whether it is the best line of an analysis beside a mistake.
    best: bool,
}

/// A page being written: the board and the steps' data first (the move
/// list is held aside, the page's smaller part, and follows them).
#[derive(Debug)]
pub struct Page {
    /// The page so far: its head, the board, and the steps' data as they
    /// come (most of a page's bytes).
    page: String,
    /// The move list so far, which follows the data.
    list: String,
    lines: String,
    evals: String,
    count: usize,
    line_count: usize,
    carried: Option<Carried>,
    holes: Vec<String>,
    plies: usize,
    start: usize,
    /// Open variation blocks in the move list.
    open: usize,
}

/// Appends `value` as JSON where `<` never occurs outside a string, and
/// in one as `\u003c`: no text can close the script element early.
fn push_json(out: &mut String, value: &impl Serialize) {
    if let Ok(json) = serde_json::to_string(value) {
        if json.contains('<') {
            out.push_str(&json.replace('<', "\\u003c"));
        } else {
            out.push_str(&json);
        }
    }
}

impl Page {
    /// Begins the page of a game whose first step is `first` (the start):
    /// the head, the title, the board as `first` shows it, the controls,
    /// the graph's place, and the move list's start.
    #[must_use]
    pub fn new(first: &Frame, facts: &GameFacts) -> Page {
        let mut out = String::new();
        let rules = first.board.rules;
        let mut name = rules.game().descriptor().name.to_owned();
        if !rules.options().is_empty() {
            name = format!("{name} {}", rules.options());
        }
        let title = format!("{name}: {}", facts.source);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        let _ = writeln!(out, "<title>{}</title>", escape(&title));
        let _ = writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>");
        let _ = writeln!(out, "<header>\n<h1>{}</h1>", escape(&name));
        let _ = writeln!(out, "<p>{}</p>", escape(&facts.source));
        for line in &facts.tags {
            // Each value isolated: a name in a right-to-left script must
            // not carry the labels and the values after it along.
            let values: Vec<String> = line
                .iter()
                .map(|(label, value)| format!("{label}: <bdi>{}</bdi>", escape(value)))
                .collect();
            let _ = writeln!(out, "<p class=\"tags\">{}</p>", values.join(" · "));
        }
        out.push_str("</header>\n<main>\n<section id=\"stage\">\n");
        let _ = write_live_board(&mut out, first);
        out.push_str(concat!(
            "<nav id=\"controls\" aria-label=\"steps\">",
            "<button type=\"button\" data-go=\"start\" title=\"Home\">start</button>",
            "<button type=\"button\" data-go=\"previous-ply\" title=\"\u{2190}\">\u{ab} ply</button>",
            "<button type=\"button\" data-go=\"previous-lap\" title=\"\u{2191}\">\u{2039} lap</button>",
            "<button type=\"button\" data-go=\"next-lap\" title=\"\u{2193}\">lap \u{203a}</button>",
            "<button type=\"button\" data-go=\"next-ply\" title=\"\u{2192}\">ply \u{bb}</button>",
            "<button type=\"button\" data-go=\"end\" title=\"End\">end</button>",
            "<button type=\"button\" data-go=\"enter\" title=\"v\">variation \u{21b3}</button>",
            "<button type=\"button\" data-go=\"leave\" title=\"Escape\">\u{21b0} back</button>",
            "<span id=\"where\" aria-live=\"polite\"></span></nav>\n",
            "<div id=\"heading\" aria-live=\"polite\"><p id=\"board-title\"></p><div id=\"lines\"></div></div>\n",
            "<p id=\"legend\"></p>\n",
            "<figure id=\"graph-box\" hidden><svg id=\"graph\" viewBox=\"0 0 600 120\" role=\"img\" aria-label=\"evaluation graph: click a point to see its ply\" tabindex=\"0\"></svg>",
            "<figcaption>Evaluation after each ply, in seeds South ends ahead (above the line) or behind: click to see that ply.</figcaption></figure>\n",
            "<p class=\"keys\">Keys: \u{2190} \u{2192} a ply back or on, \u{2191} \u{2193} a lap back or on, Home and End the start and the end of the line; ",
            "v steps into a variation of the ply shown (again: the next one), Escape back to the line it branches from. ",
            "Tab reaches every button; Enter or Space presses it.</p>\n",
            "</section>\n",
            "<script type=\"application/json\" id=\"mancala-data\">{\"steps\":[\n",
        ));
        let view = View::of(first);
        Page {
            page: out,
            list: "<aside id=\"moves\">\n<h2>Moves</h2>\n<ol>\n".to_owned(),
            // The main line: its own parent.
            lines: "{\"name\":\"\",\"parent\":0,\"from\":0,\"back\":0,\"best\":false},\n"
                .to_owned(),
            evals: String::new(),
            count: 0,
            line_count: 1,
            carried: None,
            holes: view.holes.iter().map(|h| h.hole.to_string()).collect(),
            plies: 0,
            start: 0,
            open: 0,
        }
    }

    /// Adds a step showing `frame`; its index.
    pub fn step(&mut self, frame: &Frame, at: StepAt<'_>) -> usize {
        let view = View::of(frame);
        let players = view.players.clone().map(|p| (p.text, p.turn.unwrap_or("")));
        let carried = self.carried.take();
        let changed = |same: bool| !same;
        let title_changed = changed(carried.as_ref().is_some_and(|c| c.title == view.title));
        let stores_changed = changed(carried.as_ref().is_some_and(|c| c.stores == view.stores));
        let players_changed = changed(carried.as_ref().is_some_and(|c| c.players == players));
        let legend_changed = changed(carried.as_ref().is_some_and(|c| c.legend == view.legend));
        let marks: String = view
            .holes
            .iter()
            .map(|h| h.mark_symbol().chars().next().unwrap_or(' '))
            .collect();
        let step = Step {
            ply: at.ply,
            lap: at.lap,
            laps: if at.lap.is_some() { at.laps } else { 0 },
            line: at.line,
            title: title_changed.then_some(view.title.as_str()),
            heading: frame.heading.iter().map(|h| escape_controls(h)).collect(),
            notes: at.notes.iter().map(|n| escape_controls(n)).collect(),
            counts: view.holes.iter().map(|h| h.seeds).collect(),
            marks: (!marks.trim().is_empty()).then_some(marks),
            ends: view
                .holes
                .iter()
                .enumerate()
                .filter(|(_, h)| !h.lap_ends.is_empty())
                .map(|(k, h)| (k, h.lap_ends.as_str()))
                .collect(),
            stores: stores_changed.then_some(view.stores),
            players: players_changed.then(|| [0, 1].map(|k| (players[k].0.as_str(), players[k].1))),
            path: &view.path,
            legend: legend_changed.then_some(view.legend.as_str()),
        };
        if self.count > 0 {
            self.page.push_str(",\n");
        }
        push_json(&mut self.page, &step);
        self.carried = Some(Carried {
            title: view.title.clone(),
            stores: view.stores,
            legend: view.legend.clone(),
            players,
        });
        if at.line == 0 {
            self.plies = self.plies.max(at.ply);
        }
        self.count += 1;
        self.count - 1
    }

    /// The page opens at this step (by default the start).
    pub fn open_at(&mut self, step: usize) {
        self.start = step;
    }

    /// Begins a variation line named `name` (`2.1`), inside line `parent`:
    /// `from` is the parent's step of the move it replaces, `back` the
    /// parent's step it branches from; `best` when it is an analysis's
    /// best line beside a mistake. Its id, for its steps' [`StepAt::line`].
    pub fn line(
        &mut self,
        name: &str,
        parent: usize,
        from: usize,
        back: usize,
        best: bool,
    ) -> usize {
        push_json(
            &mut self.lines,
            &LineData {
                name: &escape_controls(name),
                parent,
                from,
                back,
                best,
            },
        );
        self.lines.push_str(",\n");
        self.line_count += 1;
        self.line_count - 1
    }

    /// A point of the evaluation graph: after the main line's step `step`
    /// (its ply `ply`), South ends `south` seeds ahead (behind when
    /// negative), as `text` (`+3,9`) says from the mover's side.
    pub fn eval_point(&mut self, step: usize, ply: usize, south: i32, text: &str) {
        push_json(&mut self.evals, &(step, ply, south, escape_controls(text)));
        self.evals.push_str(",\n");
    }

    /// Opens a move list entry: a button that shows `step`, labelled
    /// `label` (`3... b+12`) with the move's `marks` (`?`, `!! $14`) and
    /// its evaluation.
    pub fn entry(&mut self, step: usize, label: &str, marks: &str, eval: Option<&str>) {
        let _ = write!(self.list, "<li>");
        self.move_button(step, label, marks, eval);
        self.list.push('\n');
    }

    fn move_button(&mut self, step: usize, label: &str, marks: &str, eval: Option<&str>) {
        let _ = write!(
            self.list,
            "<button type=\"button\" data-step=\"{step}\">{}",
            escape(label)
        );
        if !marks.is_empty() {
            let class = match marks.split(' ').next().unwrap_or("") {
                "??" => "blunder",
                "?" => "mistake",
                "?!" => "dubious",
                "!!" | "!" => "good",
                "!?" => "interesting",
                _ => "nag",
            };
            let _ = write!(
                self.list,
                "<span class=\"mark {class}\">{}</span>",
                escape(marks)
            );
        }
        if let Some(eval) = eval {
            let _ = write!(self.list, " <span class=\"eval\">{}</span>", escape(eval));
        }
        self.list.push_str("</button>");
    }

    /// A note under the move list's entry (or in a variation).
    pub fn note(&mut self, kind: NoteKind, text: &str) {
        let tag = if self.open > 0 { "span" } else { "p" };
        let _ = match kind {
            NoteKind::Comment => write!(
                self.list,
                "<{tag} class=\"note comment\">{{{}}}</{tag}>",
                escape(text)
            ),
            NoteKind::End => write!(
                self.list,
                "<{tag} class=\"note end\">{}</{tag}>",
                escape(text)
            ),
        };
        if self.open == 0 {
            self.list.push('\n');
        }
    }

    /// Closes a move list entry.
    pub fn end_entry(&mut self) {
        self.list.push_str("</li>\n");
    }

    /// Opens a variation's block in the move list, in the entry of the
    /// move it replaces (or inside the variation it branches from).
    pub fn open_variation(&mut self, line: usize, name: &str, best: bool) {
        let (class, said) = if best {
            ("variation best", "best line")
        } else {
            ("variation", "variation")
        };
        let _ = write!(
            self.list,
            "<div class=\"{class}\" data-line=\"{line}\"><span class=\"name\">{said} {}:</span> ",
            escape(name)
        );
        self.open += 1;
    }

    /// A move of a variation, as a button that shows its step.
    pub fn variation_move(&mut self, step: usize, label: &str, marks: &str, eval: Option<&str>) {
        self.move_button(step, label, marks, eval);
        self.list.push(' ');
    }

    pub fn close_variation(&mut self) {
        self.list.push_str("</div>");
        self.open = self.open.saturating_sub(1);
        if self.open == 0 {
            self.list.push('\n');
        }
    }

    /// The page, ended: the rest of the data, the move list and the
    /// script.
    #[must_use]
    pub fn finish(mut self) -> String {
        self.page.push_str("\n],\"holes\":");
        push_json(&mut self.page, &self.holes);
        self.page.push_str(",\"dots\":");
        let dots: Vec<String> = (0..=MAX_DOTS).map(dots_svg).collect();
        push_json(&mut self.page, &dots);
        let _ = write!(
            self.page,
            ",\"plies\":{},\"start\":{},\n\"lines\":[",
            self.plies,
            self.start.min(self.count.saturating_sub(1))
        );
        push_list(&mut self.page, &self.lines);
        self.page.push_str("],\n\"evals\":[");
        push_list(&mut self.page, &self.evals);
        self.page.push_str("]}</script>\n");
        self.page.push_str(&self.list);
        drop(self.list);
        self.page.push_str("</ol>\n</aside>\n</main>\n");
        let _ = writeln!(self.page, "<script>\n{SCRIPT}</script>\n</body>\n</html>");
        self.page
    }
}

/// Appends items written each followed by `,\n`, without the last comma.
fn push_list(out: &mut String, items: &str) {
    out.push_str(items.strip_suffix(",\n").unwrap_or(items));
}
