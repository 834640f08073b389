//! One board as an SVG picture, for print (`mancala-render --format svg`)
//! and for the HTML viewer, which updates the same drawing step by step.
//!
//! The picture reads like the text diagram: North on top with its holes
//! labelled from its own left (`a` above South's last hole), stores at the
//! ends where the game's counter is on the board (North's left, South's
//! right), a player line on each side with the counter, the direction and
//! who is to move. Each hole shows its count as a number and its seeds as
//! dots (up to [`MAX_DOTS`]); the marks of the text diagrams follow the
//! count (`^` lifted, `*` last seed, `x` captured) and the pit's outline
//! says the same in colour and in line style (dashed, thick, crossed out),
//! so the picture stays readable in greyscale. Closed holes are hatched
//! and hold no number. A lap's picture draws the lap's path as an arrow
//! from the hole lifted to the hole of its last seed; a ply's picture of a
//! move of several laps numbers the holes where its laps ended.
//!
//! A 7-hole board with stores is 396 units wide; the file says 80 mm, so a
//! unit prints as 0.2 mm and counts as 2.6 mm high text. Coordinates are
//! rounded to a tenth: the same frame always gives the same bytes.

use std::fmt::{self, Write};

use mancala_rules::{Event, Hole, Side, is_unsafe_control};

use super::draw::{Board, Mark, player_facts, side_name, title_text, turn_word, wrap};
use super::frames::{Frame, FrameKind};

/// Seeds drawn as dots in a hole at most; a hole with more shows its count
/// alone.
pub const MAX_DOTS: u8 = 12;

/// A ply's picture numbers the holes where its laps ended for moves of 2 to
/// this many laps (more would bury the board in numbers).
pub const MAX_LAP_ENDS: usize = 9;

/// The width the picture asks to be printed at.
const PRINT_WIDTH_MM: f64 = 80.0;

// Geometry in user units.
const MARGIN: f64 = 12.0;
/// Inside the board's outline, before the first cell.
const PAD: f64 = 6.0;
const CELL: f64 = 40.0;
const PIT: f64 = 15.0;
const STORE_WIDTH: f64 = 36.0;
const STORE_GAP: f64 = 4.0;
const DOT: f64 = 2.0;
/// Baselines and edges of the board part (players, labels, board), from
/// its top.
const NORTH_PLAYER: f64 = 12.0;
const NORTH_LABELS: f64 = 28.0;
const BOARD_TOP: f64 = 34.0;
const NORTH_COUNTS: f64 = 48.0;
const NORTH_PITS: f64 = 69.0;
/// Between the rows' pits runs the channel where a lap's arrow goes.
const SOUTH_PITS: f64 = 119.0;
const SOUTH_COUNTS: f64 = 148.0;
const BOARD_BOTTOM: f64 = 154.0;
const SOUTH_LABELS: f64 = 168.0;
const SOUTH_PLAYER: f64 = 185.0;
const BOARD_PART_HEIGHT: f64 = 192.0;
const TITLE_LINE: f64 = 18.0;
const HEADING_LINE: f64 = 14.0;
/// Heading text is 11 units; a character is taken as this wide on average
/// when wrapping (DejaVu Sans, the widest of the fonts asked for, averages
/// 5 on headings).
const HEADING_CHAR: f64 = 5.6;
/// The same for the legend's 10-unit text.
const LEGEND_CHAR: f64 = 5.1;
const LEGEND_LINE: f64 = 13.0;

/// The fonts asked for, in order: common sans-serif faces with digits of
/// one width.
const FONTS: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// The style sheet of every picture: the classes carry the meaning, so the
/// HTML viewer changes a hole by changing its classes. Colours as the text
/// diagrams' (cyan lifted, green last seed, red captured), dark enough to
/// print, each with its own line style for greyscale.
pub(super) const STYLE: &str = "\
.title{font-size:13px;font-weight:bold}\
.heading{font-size:11px}\
.player{font-size:11px}\
.player.mover{font-weight:bold}\
.turn{fill:#1b4f8a}\
.board{fill:#efe6d2;stroke:#5a4a32;stroke-width:1.5}\
.store rect{fill:#fffaf0;stroke:#5a4a32;stroke-width:1.2}\
.store text{font-size:15px;font-weight:bold;text-anchor:middle}\
.pit{fill:#fffaf0;stroke:#5a4a32;stroke-width:1.2}\
.dots{fill:#3b2f20}\
.count{font-size:13px;font-weight:bold;text-anchor:middle}\
.label{font-size:11px;text-anchor:middle;fill:#444}\
.lap-ends{font-size:8px;font-weight:bold;fill:#1a7f37;paint-order:stroke;stroke:#fff;stroke-width:2.5px}\
.cross{display:none;stroke:#c62828;stroke-width:2}\
.lifted .pit{stroke:#0b7a99;stroke-width:2.5;stroke-dasharray:4 2.5}\
.last .pit{stroke:#1a7f37;stroke-width:3.2}\
.captured .pit{stroke:#c62828;stroke-width:3.2}\
.captured .cross{display:inline}\
.closed .pit{fill:url(#hatch)}\
.lifted .mark{fill:#0b7a99}\
.last .mark{fill:#1a7f37}\
.captured .mark{fill:#c62828}\
.lap-path{fill:none;stroke:#1b4f8a;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}\
.legend{font-size:10px}";

/// One frame as a picture shows it: every text and every hole's state.
/// The SVG writer draws it; the HTML viewer carries one per step.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// `Olinda Keliya seeds=5  round 2`.
    pub title: String,
    pub headings: Vec<String>,
    /// South's and North's player lines.
    pub players: [PlayerView; 2],
    /// South's and North's store (or captured seeds, or winnings).
    pub stores: [u8; 2],
    /// Whether the stores are cells of the board.
    pub stores_on_board: bool,
    /// South's holes from `A`, then North's from `a`.
    pub holes: Vec<HoleView>,
    /// A lap's picture: the path data of its arrow; empty otherwise.
    pub path: String,
    /// The legend: what the marks on this board mean.
    pub legend: String,
}

/// A player's line: `South · store 0 (right) · sows ccw`, and `to move` or
/// `sowing` on the side whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    pub text: String,
    pub turn: Option<&'static str>,
}

/// One hole as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoleView {
    pub hole: Hole,
    /// `None`: closed.
    pub seeds: Option<u8>,
    pub mark: Option<Mark>,
    /// The laps of a ply that ended here, `1 3`; empty for none.
    pub lap_ends: String,
}

impl HoleView {
    /// The classes of the hole's group: `hole`, then `closed` or its mark.
    #[must_use]
    pub fn classes(&self) -> String {
        match (self.seeds, self.mark) {
            (None, _) => "hole closed".to_owned(),
            (Some(_), Some(mark)) => format!("hole {}", mark_class(mark)),
            (Some(_), None) => "hole".to_owned(),
        }
    }

    /// The count as written: empty for a closed hole.
    #[must_use]
    pub fn count(&self) -> String {
        self.seeds.map(|n| n.to_string()).unwrap_or_default()
    }

    /// The mark after the count: `^`, `*`, `x` or nothing.
    #[must_use]
    pub fn mark_symbol(&self) -> String {
        match (self.seeds, self.mark) {
            (Some(_), Some(mark)) => mark.symbol().to_string(),
            _ => String::new(),
        }
    }
}

const fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Lifted => "lifted",
        Mark::Last => "last",
        Mark::Captured => "captured",
    }
}

impl View {
    #[must_use]
    pub fn of(frame: &Frame) -> View {
        let board = &frame.board;
        let descriptor = board.rules.game().descriptor();
        let lap_ends = lap_ends(frame);
        let holes: Vec<HoleView> = Side::BOTH
            .into_iter()
            .flat_map(|side| (0..board.rules.holes() as u8).map(move |i| Hole::new(side, i)))
            .map(|hole| HoleView {
                hole,
                seeds: board.seeds(hole),
                mark: frame.highlights.mark(hole),
                lap_ends: lap_ends
                    .iter()
                    .filter(|(h, _)| *h == hole)
                    .map(|(_, lap)| lap.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect();
        let path = match frame.kind {
            FrameKind::Lap { .. } => lap_path(board, &frame.events),
            _ => String::new(),
        };
        let legend = legend(&holes, !path.is_empty(), !lap_ends.is_empty());
        View {
            title: title_text(descriptor.name, board),
            headings: frame.heading.clone(),
            players: Side::BOTH.map(|side| PlayerView {
                text: format!(
                    "{} · {}",
                    side_name(side),
                    player_facts(board, side).join(" · ")
                ),
                turn: turn_word(board, side),
            }),
            stores: board.stores,
            stores_on_board: descriptor.counter.on_board(),
            holes,
            path,
            legend,
        }
    }

    /// What a screen reader says: the rows, the counters and the turn.
    #[must_use]
    pub fn description(&self) -> String {
        let mut text = String::new();
        for side in [Side::North, Side::South] {
            let row: Vec<String> = self
                .holes
                .iter()
                .filter(|h| h.hole.side == side)
                .map(|h| match h.seeds {
                    Some(n) => format!("{} {n}{}", h.hole, h.mark_symbol()),
                    None => format!("{} closed", h.hole),
                })
                .collect();
            let _ = write!(text, "{}'s row: {}. ", side_name(side), row.join(", "));
        }
        for side in [Side::North, Side::South] {
            let player = &self.players[side.index()];
            let _ = write!(text, "{}", player.text);
            if let Some(turn) = player.turn {
                let _ = write!(text, ", {turn}");
            }
            text.push_str(". ");
        }
        text.push_str(&self.legend);
        text.trim_end().to_owned()
    }
}

/// Where each lap of a ply ended, when there are 2 to [`MAX_LAP_ENDS`].
fn lap_ends(frame: &Frame) -> Vec<(Hole, usize)> {
    if !matches!(frame.kind, FrameKind::Ply { .. }) {
        return Vec::new();
    }
    let ends: Vec<(Hole, usize)> = frame
        .events
        .iter()
        .filter_map(|e| match e {
            Event::LapEnd { last, .. } => Some(*last),
            _ => None,
        })
        .zip(1..)
        .collect();
    if (2..=MAX_LAP_ENDS).contains(&ends.len()) {
        ends
    } else {
        Vec::new()
    }
}

/// `^ lifted · * last seed · x captured · hatched: closed · arrow: the
/// lap's path · small numbers: where laps ended`, for what this board
/// shows.
fn legend(holes: &[HoleView], path: bool, lap_ends: bool) -> String {
    let mut parts: Vec<String> = Mark::ALL
        .into_iter()
        .filter(|m| {
            holes
                .iter()
                .any(|h| h.seeds.is_some() && h.mark == Some(*m))
        })
        .map(|m| format!("{} {}", m.symbol(), m.meaning()))
        .collect();
    if holes.iter().any(|h| h.seeds.is_none()) {
        parts.push("hatched: closed".to_owned());
    }
    if path {
        parts.push("arrow: the lap's path".to_owned());
    }
    if lap_ends {
        parts.push("small numbers: where laps ended".to_owned());
    }
    parts.join(" · ")
}

/// Screen positions.
struct Layout {
    holes: usize,
    stores: bool,
}

impl Layout {
    fn of(board: &Board) -> Layout {
        Layout {
            holes: board.rules.holes(),
            stores: board.rules.game().descriptor().counter.on_board(),
        }
    }

    fn store_space(&self) -> f64 {
        if self.stores {
            STORE_WIDTH + STORE_GAP
        } else {
            0.0
        }
    }

    fn board_width(&self) -> f64 {
        2.0 * PAD + self.holes as f64 * CELL + 2.0 * self.store_space()
    }

    fn width(&self) -> f64 {
        self.board_width() + 2.0 * MARGIN
    }

    /// South's holes run left to right from `A`; North's right to left
    /// from `a`.
    fn x(&self, hole: Hole) -> f64 {
        let index = usize::from(hole.index);
        let column = match hole.side {
            Side::South => index,
            Side::North => self.holes - 1 - index,
        };
        MARGIN + PAD + self.store_space() + CELL * column as f64 + CELL / 2.0
    }

    fn y(side: Side) -> f64 {
        match side {
            Side::North => NORTH_PITS,
            Side::South => SOUTH_PITS,
        }
    }

    /// The edge of a pit facing the channel.
    fn inner_edge(side: Side) -> f64 {
        match side {
            Side::North => NORTH_PITS + PIT + 1.5,
            Side::South => SOUTH_PITS - PIT - 1.5,
        }
    }

    /// The line along a row in the channel, moved inwards for each time
    /// the lap has already gone round the board.
    fn track(side: Side, round: usize) -> f64 {
        let offset = 4.5 + 3.0 * round.min(2) as f64;
        match side {
            Side::North => NORTH_PITS + PIT + offset,
            Side::South => SOUTH_PITS - PIT - offset,
        }
    }
}

/// The arrow of a lap: from the lifted hole along the channel past every
/// hole sown, into the hole of the last seed.
fn lap_path(board: &Board, events: &[Event]) -> String {
    let layout = Layout::of(board);
    let mut start = None;
    let mut sown = Vec::new();
    for event in events {
        match event {
            Event::LapStart { hole, .. } => start = Some(*hole),
            Event::Sow { hole } => sown.push(*hole),
            _ => {}
        }
    }
    let (Some(start), Some(last)) = (start, sown.last().copied()) else {
        return String::new();
    };
    let open = (board.south.iter().chain(&board.north))
        .filter(|h| h.is_some())
        .count()
        .max(1);
    let mut d = format!(
        "M{} {}L{} {}",
        num(layout.x(start)),
        num(Layout::inner_edge(start.side)),
        num(layout.x(start)),
        num(Layout::track(start.side, 0))
    );
    let mut previous = start;
    for (k, hole) in sown.iter().enumerate() {
        let round = k / open;
        if hole.side != previous.side {
            // Round the end of the board: along the old row to the new
            // hole's column, then across the channel.
            let _ = write!(
                d,
                "L{} {}",
                num(layout.x(*hole)),
                num(Layout::track(previous.side, round))
            );
        }
        let _ = write!(
            d,
            "L{} {}",
            num(layout.x(*hole)),
            num(Layout::track(hole.side, round))
        );
        previous = *hole;
    }
    let _ = write!(
        d,
        "L{} {}",
        num(layout.x(last)),
        num(Layout::inner_edge(last.side))
    );
    d
}

/// Where the dots of `seeds` seeds sit, around the pit's centre: one in
/// the middle, up to six on a ring, more on two rings.
#[must_use]
pub fn dot_offsets(seeds: u8) -> Vec<(f64, f64)> {
    let ring = |count: u8, radius: f64, turn: f64| -> Vec<(f64, f64)> {
        (0..count)
            .map(|i| {
                let angle = std::f64::consts::TAU * (f64::from(i) / f64::from(count) + turn)
                    - std::f64::consts::FRAC_PI_2;
                (radius * angle.cos(), radius * angle.sin())
            })
            .collect()
    };
    match seeds {
        0 => Vec::new(),
        1 => vec![(0.0, 0.0)],
        2..=6 => ring(seeds, 6.0, 0.0),
        n if n <= MAX_DOTS => {
            let inner = n / 3;
            let outer = n - inner;
            let mut dots = ring(inner, 4.0, 0.25);
            dots.extend(ring(outer, 10.0, 0.5 / f64::from(outer)));
            dots
        }
        _ => Vec::new(),
    }
}

/// The dots of `seeds` seeds as SVG circles around (0, 0).
#[must_use]
pub fn dots_svg(seeds: u8) -> String {
    let mut out = String::new();
    for (x, y) in dot_offsets(seeds) {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}"/>"#,
            num(x),
            num(y),
            num(DOT)
        );
    }
    out
}

/// A coordinate rounded to a tenth, without a trailing `.0`.
fn num(value: f64) -> String {
    let tenths = (value * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!(
            "{}{}.{}",
            if tenths < 0 { "-" } else { "" },
            (tenths / 10).abs(),
            (tenths % 10).abs()
        )
    }
}

/// Text with `&`, `<`, `>` and `"` escaped, for XML text and attributes,
/// and the control and bidi characters of input (tags, comments) written
/// as their escapes as the text diagrams write them
/// ([`mancala_rules::is_unsafe_control`]): a page or a picture carries no
/// raw NUL or ESC, and no override turns its text around.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if is_unsafe_control(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// Draws `frame` as a standalone SVG document: title, heading lines, the
/// board with its players, and a legend.
pub fn write_svg(out: &mut impl Write, frame: &Frame) -> fmt::Result {
    let view = View::of(frame);
    let layout = Layout::of(&frame.board);
    let width = layout.width();
    let chars = ((width - 2.0 * MARGIN) / HEADING_CHAR) as usize;
    let headings: Vec<(String, bool)> = view
        .headings
        .iter()
        .flat_map(|line| {
            wrap(line, chars, "")
                .into_iter()
                .enumerate()
                .map(|(i, l)| (l, i > 0))
        })
        .collect();
    let top = TITLE_LINE + 6.0 + HEADING_LINE * headings.len() as f64;
    let legend = if view.legend.is_empty() {
        Vec::new()
    } else {
        wrap(
            &view.legend,
            ((width - 2.0 * MARGIN) / LEGEND_CHAR) as usize,
            "",
        )
    };
    let height = top + BOARD_PART_HEIGHT + LEGEND_LINE * legend.len() as f64 + 4.0;
    let label = match view.headings.first() {
        Some(first) => format!("{}: {first}", view.title),
        None => view.title.clone(),
    };
    write_open(out, width, height, true, &label, &view.description())?;
    writeln!(
        out,
        r##"<rect class="background" width="{}" height="{}" fill="#fff"/>"##,
        num(width),
        num(height)
    )?;
    writeln!(
        out,
        r#"<text class="title" x="{}" y="{}">{}</text>"#,
        num(MARGIN),
        num(TITLE_LINE),
        escape(&view.title)
    )?;
    for (i, (line, continued)) in headings.iter().enumerate() {
        let indent = if *continued { 12.0 } else { 0.0 };
        writeln!(
            out,
            r#"<text class="heading" x="{}" y="{}">{}</text>"#,
            num(MARGIN + indent),
            num(TITLE_LINE + 4.0 + HEADING_LINE * (i + 1) as f64),
            escape(line)
        )?;
    }
    writeln!(out, r#"<g transform="translate(0 {})">"#, num(top))?;
    write_board_part(out, &view, &layout)?;
    out.write_str("</g>\n")?;
    for (i, line) in legend.iter().enumerate() {
        writeln!(
            out,
            r#"<text class="legend" x="{}" y="{}">{}</text>"#,
            num(MARGIN),
            num(top + BOARD_PART_HEIGHT + 8.0 + LEGEND_LINE * i as f64),
            escape(line)
        )?;
    }
    out.write_str("</svg>\n")
}

/// The board part alone, as the HTML viewer embeds it (no XML
/// declaration, sized by the page): players, labels, board, stores, holes.
pub(super) fn write_live_board(out: &mut impl Write, frame: &Frame) -> fmt::Result {
    let view = View::of(frame);
    let layout = Layout::of(&frame.board);
    write_open(
        out,
        layout.width(),
        BOARD_PART_HEIGHT,
        false,
        &view.title,
        &view.description(),
    )?;
    write_board_part(out, &view, &layout)?;
    out.write_str("</svg>\n")
}

/// `<svg …>` with its title, description, style and definitions.
fn write_open(
    out: &mut impl Write,
    width: f64,
    height: f64,
    standalone: bool,
    title: &str,
    description: &str,
) -> fmt::Result {
    if standalone {
        out.write_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {w} {h}" width="{pw}mm" height="{ph}mm" role="img" aria-labelledby="svg-title svg-desc" font-family="{FONTS}">"#,
            w = num(width),
            h = num(height),
            pw = num(PRINT_WIDTH_MM),
            ph = num(height * PRINT_WIDTH_MM / width),
        )?;
    } else {
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="board" viewBox="0 0 {} {}" role="img" aria-labelledby="svg-title svg-desc" font-family="{FONTS}">"#,
            num(width),
            num(height),
        )?;
    }
    writeln!(out, r#"<title id="svg-title">{}</title>"#, escape(title))?;
    writeln!(out, r#"<desc id="svg-desc">{}</desc>"#, escape(description))?;
    writeln!(out, "<style>{STYLE}</style>")?;
    out.write_str(concat!(
        "<defs>",
        r##"<pattern id="hatch" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">"##,
        r##"<rect width="5" height="5" fill="#9a9a9a"/><line x1="0" y1="0" x2="0" y2="5" stroke="#3a3a3a" stroke-width="2.2"/></pattern>"##,
        r##"<marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto">"##,
        r##"<path d="M0 0L10 5L0 10z" fill="#1b4f8a"/></marker>"##,
        r##"<marker id="origin" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3">"##,
        r##"<circle cx="5" cy="5" r="5" fill="#1b4f8a"/></marker>"##,
        "</defs>\n"
    ))
}

/// Players, labels, the board with its stores and holes, and the lap's
/// arrow, with ids the HTML viewer finds them by (`hole-A`, `store-south`,
/// `player-north`, `lap-path`).
fn write_board_part(out: &mut impl Write, view: &View, layout: &Layout) -> fmt::Result {
    write_player(out, view, Side::North, NORTH_PLAYER)?;
    writeln!(
        out,
        r#"<rect class="board" x="{}" y="{}" width="{}" height="{}" rx="18"/>"#,
        num(MARGIN),
        num(BOARD_TOP),
        num(layout.board_width()),
        num(BOARD_BOTTOM - BOARD_TOP)
    )?;
    if view.stores_on_board {
        // North's store at the left, South's at the right: each at its
        // owner's right hand.
        let left = MARGIN + PAD;
        let right = MARGIN + layout.board_width() - PAD - STORE_WIDTH;
        for (side, x) in [(Side::North, left), (Side::South, right)] {
            writeln!(
                out,
                r#"<g id="store-{}" class="store"><rect x="{}" y="{}" width="{}" height="{}" rx="14"/><text x="{}" y="{}">{}</text></g>"#,
                side.name(),
                num(x),
                num(NORTH_PITS - PIT),
                num(STORE_WIDTH),
                num(SOUTH_PITS - NORTH_PITS + 2.0 * PIT),
                num(x + STORE_WIDTH / 2.0),
                num((NORTH_PITS + SOUTH_PITS) / 2.0 + 5.0),
                view.stores[side.index()]
            )?;
        }
    }
    for hole in &view.holes {
        write_hole(out, hole, layout)?;
    }
    writeln!(
        out,
        r#"<path id="lap-path" class="lap-path" marker-start="url(#origin)" marker-end="url(#arrowhead)" d="{}"/>"#,
        view.path
    )?;
    write_player(out, view, Side::South, SOUTH_PLAYER)
}

fn write_player(out: &mut impl Write, view: &View, side: Side, y: f64) -> fmt::Result {
    let player = &view.players[side.index()];
    let class = if player.turn.is_some() {
        "player mover"
    } else {
        "player"
    };
    let turn = player.turn.map(|t| format!("◀ {t}")).unwrap_or_default();
    writeln!(
        out,
        r#"<text id="player-{}" class="{class}" x="{}" y="{}"><tspan class="facts">{}</tspan><tspan class="turn" dx="8">{}</tspan></text>"#,
        side.name(),
        num(MARGIN),
        num(y),
        escape(&player.text),
        escape(&turn)
    )
}

fn write_hole(out: &mut impl Write, view: &HoleView, layout: &Layout) -> fmt::Result {
    let hole = view.hole;
    let (x, y) = (layout.x(hole), Layout::y(hole.side));
    let (count_y, label_y) = match hole.side {
        Side::North => (NORTH_COUNTS, NORTH_LABELS),
        Side::South => (SOUTH_COUNTS, SOUTH_LABELS),
    };
    let arm = PIT * 0.62;
    // Lap ends sit on the pit's upper right rim, clear of its neighbours'.
    let (ends_x, ends_y) = (x + PIT * 0.6, y - PIT * 0.55);
    writeln!(
        out,
        concat!(
            r#"<g id="hole-{label}" class="{classes}">"#,
            r#"<circle class="pit" cx="{x}" cy="{y}" r="{r}"/>"#,
            r#"<g class="dots" transform="translate({x} {y})">{dots}</g>"#,
            r#"<path class="cross" d="M{x0} {y0}L{x1} {y1}M{x0} {y1}L{x1} {y0}"/>"#,
            r#"<text class="count" x="{x}" y="{cy}"><tspan class="n">{count}</tspan><tspan class="mark">{mark}</tspan></text>"#,
            r#"<text class="lap-ends" x="{ex}" y="{ey}">{ends}</text>"#,
            r#"<text class="label" x="{x}" y="{ly}">{label}</text>"#,
            "</g>"
        ),
        label = hole.label(),
        classes = view.classes(),
        x = num(x),
        y = num(y),
        r = num(PIT),
        dots = view.seeds.map(dots_svg).unwrap_or_default(),
        x0 = num(x - arm),
        y0 = num(y - arm),
        x1 = num(x + arm),
        y1 = num(y + arm),
        cy = num(count_y),
        count = view.count(),
        mark = view.mark_symbol(),
        ex = num(ends_x),
        ey = num(ends_y),
        ends = view.lap_ends,
        ly = num(label_y),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_to_a_tenth() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.04), "12");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-3.5), "-3.5");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-0.4), "-0.4");
    }

    #[test]
    fn dots_fit_in_their_pit_and_never_overlap() {
        for seeds in 0..=MAX_DOTS + 1 {
            let dots = dot_offsets(seeds);
            let expected = if seeds <= MAX_DOTS { seeds } else { 0 };
            assert_eq!(dots.len(), usize::from(expected));
            for (i, (x, y)) in dots.iter().enumerate() {
                assert!(
                    x.hypot(*y) + DOT <= PIT - 1.0,
                    "{seeds}: dot {i} sticks out"
                );
                for (x2, y2) in &dots[..i] {
                    assert!(
                        (x - x2).hypot(y - y2) >= 2.0 * DOT + 1.0,
                        "{seeds}: dots touch"
                    );
                }
            }
        }
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(
            escape("\u{0}\u{1b}[2J\u{202e}x\u{2069}"),
            "\\u{0}\\u{1b}[2J\\u{202e}x\\u{2069}"
        );
    }
}
