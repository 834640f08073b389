//! One board, drawn as text.

use std::fmt::{self, Write};

use mancala_rules::{Dir, Hole, Position, Rules, Side};
use serde::Serialize;

/// The characters a diagram is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// Plain ASCII: `+`, `-`, `|`, closed holes filled with `#`.
    #[default]
    Ascii,
    /// Box-drawing characters, closed holes filled with `░`.
    Unicode,
}

/// How to draw: the character set, and whether to colour highlighted holes
/// with ANSI escapes (the caller decides whether the terminal wants colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub charset: Charset,
    pub colour: bool,
}

impl Style {
    pub const ASCII: Style = Style {
        charset: Charset::Ascii,
        colour: false,
    };
    pub const UNICODE: Style = Style {
        charset: Charset::Unicode,
        colour: false,
    };

    #[must_use]
    pub const fn with_colour(mut self, colour: bool) -> Style {
        self.colour = colour;
        self
    }
}

/// Holes to point out on a diagram. Each is marked by a character after its
/// count (so the marks survive printing in black and white) and, in colour,
/// by a colour as well.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Highlights {
    /// The hole emptied to start sowing (the move's hole, or a relay's).
    pub lifted: Option<Hole>,
    /// The hole the last seed fell into.
    pub last: Option<Hole>,
    /// Holes whose seeds left the board.
    pub captured: Vec<Hole>,
}

impl Highlights {
    pub const NONE: Highlights = Highlights {
        lifted: None,
        last: None,
        captured: Vec::new(),
    };

    /// The mark a hole gets. A hole can be several things at once (a lap of
    /// 2n seeds drops its last seed into the hole it lifted; Olowuka captures
    /// the landing hole): the capture matters most, then the last seed.
    pub(super) fn mark(&self, hole: Hole) -> Option<Mark> {
        if self.captured.contains(&hole) {
            Some(Mark::Captured)
        } else if self.last == Some(hole) {
            Some(Mark::Last)
        } else if self.lifted == Some(hole) {
            Some(Mark::Lifted)
        } else {
            None
        }
    }
}

/// What a highlighted hole is, in every format: the same symbol after its
/// count, and the same colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Lifted,
    Last,
    Captured,
}

impl Mark {
    /// Legend order.
    pub const ALL: [Mark; 3] = [Mark::Lifted, Mark::Last, Mark::Captured];

    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Mark::Lifted => '^',
            Mark::Last => '*',
            Mark::Captured => 'x',
        }
    }

    #[must_use]
    pub const fn meaning(self) -> &'static str {
        match self {
            Mark::Lifted => "lifted",
            Mark::Last => "last seed",
            Mark::Captured => "captured",
        }
    }

    /// Bold cyan, bold green, bold red.
    const fn ansi(self) -> &'static str {
        match self {
            Mark::Lifted => "\x1b[1;36m",
            Mark::Last => "\x1b[1;32m",
            Mark::Captured => "\x1b[1;31m",
        }
    }
}

const ANSI_RESET: &str = "\x1b[0m";

/// Box corners and junctions of one horizontal rule: left end, between
/// cells, right end.
type Rule = [char; 3];

/// Everything that differs between the character sets.
struct Glyphs {
    horizontal: char,
    vertical: char,
    top: Rule,
    middle: Rule,
    bottom: Rule,
    closed: char,
    arrow: &'static str,
}

impl Charset {
    const fn glyphs(self) -> Glyphs {
        match self {
            Charset::Ascii => Glyphs {
                horizontal: '-',
                vertical: '|',
                top: ['+', '+', '+'],
                middle: ['+', '+', '+'],
                bottom: ['+', '+', '+'],
                closed: '#',
                arrow: "<-",
            },
            Charset::Unicode => Glyphs {
                horizontal: '─',
                vertical: '│',
                top: ['┌', '┬', '┐'],
                middle: ['├', '┼', '┤'],
                bottom: ['└', '┴', '┘'],
                closed: '░',
                arrow: "←",
            },
        }
    }
}

/// The board as a diagram shows it: both rows, stores (or captures, or
/// winnings), who is to move (or sowing), directions and round. Built from a
/// [`Position`], or from the middle of a move, where the rules crate's trace
/// gives only the rows and stores.
///
/// JSON: `{"south": [4, 4, null, …], "north": […], "stores": [0, 0],
/// "to_move": "south", "sowing": false, "directions": ["ccw", "cw"],
/// "round": 1}` — rows from each owner's left (`A`/`a` first), `null` for a
/// closed hole; `stores` is South's then North's store, captured seeds
/// (Olowuka) or winnings (Rio Kadalis); `sowing` is true in the middle of a
/// move, when `to_move` is the side sowing; a direction is `null` while
/// Olinda Keliya's first move has still to choose it; `"over": true` is
/// added where the game (or match) ended, and nobody is to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    #[serde(skip)]
    pub rules: Rules,
    /// South's holes from South's left (`A` first); `None` is closed.
    pub south: Vec<Option<u8>>,
    /// North's holes from North's left (`a` first); `None` is closed.
    pub north: Vec<Option<u8>>,
    pub stores: [u8; 2],
    pub to_move: Side,
    /// In the middle of a move: `to_move` is the side sowing.
    pub sowing: bool,
    /// The game, or the match, ended here: `to_move` is only whose turn it
    /// would have been, and no side is marked to move. A position cannot
    /// tell (the end can come from the record's history, as repetition
    /// does), so whoever draws the board from a game sets it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub over: bool,
    /// South's and North's direction; `None` while still to be chosen.
    pub directions: [Option<Dir>; 2],
    pub round: u32,
}

impl Board {
    #[must_use]
    pub fn of(position: &Position) -> Board {
        let rules = position.rules();
        let row = |side| {
            (0..rules.holes() as u8)
                .map(|i| position.seeds(Hole::new(side, i)))
                .collect()
        };
        Board {
            rules,
            south: row(Side::South),
            north: row(Side::North),
            stores: Side::BOTH.map(|s| position.store(s)),
            to_move: position.to_move(),
            sowing: false,
            over: false,
            directions: Side::BOTH.map(|s| position.dir_of(s)),
            round: position.round(),
        }
    }

    /// The side marked to move (or sowing): `to_move`, none once the game
    /// is over.
    #[must_use]
    pub fn turn(&self) -> Option<Side> {
        (!self.over).then_some(self.to_move)
    }

    #[must_use]
    pub fn row(&self, side: Side) -> &[Option<u8>] {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }

    /// Seeds in a hole; `None` when closed or off the board.
    #[must_use]
    pub fn seeds(&self, hole: Hole) -> Option<u8> {
        self.row(hole.side)
            .get(usize::from(hole.index))
            .copied()
            .flatten()
    }

    pub(crate) fn set_seeds(&mut self, hole: Hole, seeds: u8) {
        let row = match hole.side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        };
        if let Some(Some(cell)) = row.get_mut(usize::from(hole.index)) {
            *cell = seeds;
        }
    }
}

/// Inner width of a hole or store cell: three digits and a mark, with a
/// space in front.
const CELL: usize = 5;
const MARGIN: &str = "  ";

/// Draws `position` (see [`draw_board`]).
pub fn draw_position(
    out: &mut impl Write,
    position: &Position,
    highlights: &Highlights,
    style: Style,
) -> fmt::Result {
    draw_board(out, &Board::of(position), highlights, style)
}

/// Draws a board: a title line (game, options, round), each player's line
/// next to their row (name, store or captures or winnings, direction, who is
/// to move), both rows labelled from each owner's view with North on top,
/// stores at the ends where the game has them (North's at the left, South's
/// at the right), and a legend for any highlight. At most 80 columns wide.
pub fn draw_board(
    out: &mut impl Write,
    board: &Board,
    highlights: &Highlights,
    style: Style,
) -> fmt::Result {
    let glyphs = style.charset.glyphs();
    let drawing = Drawing {
        board,
        highlights,
        glyphs: &glyphs,
        colour: style.colour,
    };
    drawing.title(out)?;
    drawing.player_line(out, Side::North)?;
    drawing.labels(out, Side::North)?;
    drawing.rule(out, glyphs.top)?;
    drawing.row(out, Side::North)?;
    drawing.middle(out)?;
    drawing.row(out, Side::South)?;
    drawing.rule(out, glyphs.bottom)?;
    drawing.labels(out, Side::South)?;
    drawing.player_line(out, Side::South)?;
    drawing.legend(out)
}

/// One diagram being drawn.
struct Drawing<'a> {
    board: &'a Board,
    highlights: &'a Highlights,
    glyphs: &'a Glyphs,
    colour: bool,
}

impl Drawing<'_> {
    fn holes(&self) -> usize {
        self.board.rules.holes()
    }

    fn has_stores(&self) -> bool {
        self.board.rules.game().has_stores()
    }

    /// A side's holes in screen order, left to right: South's run A, B, …;
    /// North's, labelled from North's own left, run …, b, a.
    fn screen_order(&self, side: Side) -> impl Iterator<Item = Hole> + use<> {
        let n = self.holes() as u8;
        (0..n).map(move |i| match side {
            Side::South => Hole::new(side, i),
            Side::North => Hole::new(side, n - 1 - i),
        })
    }

    /// `game options  round N` (`round N of M` under `rounds=M`), wrapped
    /// like headings when the options are many.
    fn title(&self, out: &mut impl Write) -> fmt::Result {
        let rules = self.board.rules;
        write_wrapped(out, &title_text(rules.game().as_str(), self.board))
    }

    /// `North  store 0 (left)  sows cw`, `South  captured 16  sows ccw  <- to move`.
    fn player_line(&self, out: &mut impl Write, side: Side) -> fmt::Result {
        out.write_str(side_name(side))?;
        for part in player_facts(self.board, side) {
            write!(out, "  {part}")?;
        }
        if let Some(turn) = turn_word(self.board, side) {
            write!(out, "  {} {turn}", self.glyphs.arrow)?;
        }
        out.write_char('\n')
    }

    /// Hole labels, each under (or over) the units digit of its count.
    fn labels(&self, out: &mut impl Write, side: Side) -> fmt::Result {
        out.write_str(MARGIN)?;
        if self.has_stores() {
            write!(out, " {:CELL$}", "")?;
        }
        let mut line = String::new();
        for hole in self.screen_order(side) {
            write!(line, "    {} ", hole.label())?;
        }
        writeln!(out, "{}", line.trim_end())
    }

    /// A horizontal rule across every cell, stores included.
    fn rule(&self, out: &mut impl Write, [left, between, right]: Rule) -> fmt::Result {
        let cells = self.holes() + if self.has_stores() { 2 } else { 0 };
        out.write_str(MARGIN)?;
        out.write_char(left)?;
        for i in 0..cells {
            if i > 0 {
                out.write_char(between)?;
            }
            self.horizontal(out)?;
        }
        out.write_char(right)?;
        out.write_char('\n')
    }

    fn horizontal(&self, out: &mut impl Write) -> fmt::Result {
        (0..CELL).try_for_each(|_| out.write_char(self.glyphs.horizontal))
    }

    /// The rule between the rows; with stores it runs between them, and the
    /// stores' counts sit at its ends, level with the gap between the rows.
    fn middle(&self, out: &mut impl Write) -> fmt::Result {
        let [left, between, right] = self.glyphs.middle;
        if !self.has_stores() {
            return self.rule(out, self.glyphs.middle);
        }
        let v = self.glyphs.vertical;
        let [south, north] = self.board.stores;
        write!(out, "{MARGIN}{v}{north:>4} {left}")?;
        for i in 0..self.holes() {
            if i > 0 {
                out.write_char(between)?;
            }
            self.horizontal(out)?;
        }
        writeln!(out, "{right}{south:>4} {v}")
    }

    fn row(&self, out: &mut impl Write, side: Side) -> fmt::Result {
        let v = self.glyphs.vertical;
        out.write_str(MARGIN)?;
        out.write_char(v)?;
        if self.has_stores() {
            write!(out, "{:CELL$}{v}", "")?;
        }
        for hole in self.screen_order(side) {
            self.cell(out, hole)?;
            out.write_char(v)?;
        }
        if self.has_stores() {
            write!(out, "{:CELL$}{v}", "")?;
        }
        out.write_char('\n')
    }

    /// A hole's count right-aligned in three digits, then its mark; a closed
    /// hole is filled solid so that it cannot be read as an empty one.
    fn cell(&self, out: &mut impl Write, hole: Hole) -> fmt::Result {
        let Some(seeds) = self.board.seeds(hole) else {
            return (0..CELL).try_for_each(|_| out.write_char(self.glyphs.closed));
        };
        let mark = self.highlights.mark(hole);
        let symbol = mark.map_or(' ', Mark::symbol);
        match mark {
            Some(mark) if self.colour => {
                write!(out, "{}{seeds:>4}{symbol}{ANSI_RESET}", mark.ansi())
            }
            _ => write!(out, "{seeds:>4}{symbol}"),
        }
    }

    /// `  ^ lifted   * last seed   x captured`, for the marks on this board.
    fn legend(&self, out: &mut impl Write) -> fmt::Result {
        let on_board: Vec<Mark> = Side::BOTH
            .into_iter()
            .flat_map(|side| self.screen_order(side))
            .filter(|hole| self.board.seeds(*hole).is_some())
            .filter_map(|hole| self.highlights.mark(hole))
            .collect();
        let mut sep = MARGIN;
        for mark in Mark::ALL.into_iter().filter(|m| on_board.contains(m)) {
            out.write_str(sep)?;
            if self.colour {
                write!(out, "{}{}{ANSI_RESET}", mark.ansi(), mark.symbol())?;
            } else {
                out.write_char(mark.symbol())?;
            }
            write!(out, " {}", mark.meaning())?;
            sep = "   ";
        }
        if sep != MARGIN {
            out.write_char('\n')?;
        }
        Ok(())
    }
}

/// A board's title: `name options  round N` (`round N of M` under
/// `rounds=M`); `name` is the game's id in text, its name in pictures.
pub(super) fn title_text(name: &str, board: &Board) -> String {
    let rules = board.rules;
    let mut title = name.to_owned();
    if !rules.options().is_empty() {
        title = format!("{title} {}", rules.options());
    }
    if rules.plays_rounds() {
        title = format!("{title}  round {}", board.round);
        if let Some(last) = rules.last_round() {
            title = format!("{title} of {last}");
        }
    }
    title
}

/// What a player's line says after the name: the counter (`store 0
/// (left)`, `captured 16`, `winnings 3`) and the direction (`sows cw`).
pub(super) fn player_facts(board: &Board, side: Side) -> [String; 2] {
    let held = board.stores[side.index()];
    let counter = board.rules.game().descriptor().counter;
    let mut holding = format!("{} {held}", counter.label());
    if counter.on_board() {
        // Stores are drawn at the ends of the board, each at its owner's
        // right.
        holding.push_str(match side {
            Side::North => " (left)",
            Side::South => " (right)",
        });
    }
    let direction = match board.directions[side.index()] {
        Some(dir) => format!("sows {dir}"),
        None if board.turn() == Some(side) => "chooses cw or ccw with this move".to_owned(),
        None => "sows the other way".to_owned(),
    };
    [holding, direction]
}

/// `to move` (or `sowing`, in the middle of a move) for the side whose turn
/// it is; `None` for the other, and for both once the game is over.
pub(super) fn turn_word(board: &Board, side: Side) -> Option<&'static str> {
    (board.turn() == Some(side)).then_some(if board.sowing { "sowing" } else { "to move" })
}

/// `South` / `North`, as diagrams and headings write them.
pub(crate) const fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// Diagrams, titles and headings fit in this many columns.
pub(super) const WIDTH: usize = 80;

/// Writes `line` word-wrapped to [`WIDTH`] columns, continuation lines
/// indented. Only a single word longer than a line can overflow it.
pub(super) fn write_wrapped(out: &mut impl Write, line: &str) -> fmt::Result {
    for wrapped in wrap(line, WIDTH, "    ") {
        writeln!(out, "{wrapped}")?;
    }
    Ok(())
}

/// `line` word-wrapped to `width` characters, continuation lines starting
/// with `indent`. Only a single word longer than a line can overflow it.
pub(super) fn wrap(line: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut used = 0;
    for word in line.split(' ') {
        let word_width = word.chars().count();
        if used > 0 && used + 1 + word_width > width && !current.trim().is_empty() {
            lines.push(current.trim_end().to_owned());
            current = indent.to_owned();
            used = indent.chars().count();
        } else if !current.is_empty() {
            current.push(' ');
            used += 1;
        }
        current.push_str(word);
        used += word_width;
    }
    lines.push(current.trim_end().to_owned());
    lines
}
