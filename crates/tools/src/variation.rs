//! The lines of an annotated record for `mancala-render`: `--variation`
//! paths to the line inside a record's variations, the positions along a
//! line, and the `[%eval …]` of its plies (spec/notation.md §6.7, §6.8).

use std::fmt;
use std::ops::Range;

use mancala_notation::{Eval, Item, Record};
use mancala_rules::{Game, Move, PlayError, PlayReport, Position, Side};

/// `--variation P.V[/P.V…]`: the V-th variation (from 1) after ply P of the
/// line before it, first of the main line. Plies count through the whole
/// game, as the main line's do: a variation after ply 12 holds plies 12,
/// 13, … of its own line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariationPath(pub Vec<(usize, usize)>);

/// A step of a `--variation` path that is not `P.V` (the step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariationPathError {
    pub step: String,
}

impl fmt::Display for ParseVariationPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a variation: expected P.V, the V-th variation after ply P (both from 1), e.g. 12.1 or 12.1/14.2",
            self.step
        )
    }
}

impl std::error::Error for ParseVariationPathError {}

impl std::str::FromStr for VariationPath {
    type Err = ParseVariationPathError;

    fn from_str(text: &str) -> Result<VariationPath, ParseVariationPathError> {
        let step = |step: &str| -> Option<(usize, usize)> {
            let (ply, variation) = step.split_once('.')?;
            let number = |t: &str| t.parse::<usize>().ok().filter(|n| *n >= 1);
            Some((number(ply)?, number(variation)?))
        };
        text.split('/')
            .map(|s| step(s).ok_or_else(|| ParseVariationPathError { step: s.to_owned() }))
            .collect::<Result<Vec<_>, _>>()
            .map(VariationPath)
    }
}

impl std::fmt::Display for VariationPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (ply, variation)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{ply}.{variation}")?;
        }
        Ok(())
    }
}

/// A line of a record replayed: its first ply's number, the game before
/// each of its moves and after the last, its moves, and the evaluation
/// after each ply (by ply number less the first's plus one; 0: before any).
#[derive(Debug)]
pub struct Line {
    pub first_ply: usize,
    pub games: Vec<Game>,
    pub moves: Vec<Move>,
    pub evals: Vec<Option<Eval>>,
}

impl Line {
    /// The line's plies run from `first_ply` to this one.
    #[must_use]
    pub fn last_ply(&self) -> usize {
        self.first_ply + self.moves.len() - 1
    }

    /// The index in `games` of the position after ply `ply` (ply
    /// `first_ply - 1`: the position the line starts from).
    fn index_after(&self, ply: usize) -> Option<usize> {
        let index = (ply + 1).checked_sub(self.first_ply)?;
        (index < self.games.len()).then_some(index)
    }

    /// The position after ply `ply` of the line, the move that made it
    /// (none for the position it starts from) and the evaluation given
    /// after that move.
    #[must_use]
    pub fn after(&self, ply: usize) -> Option<(&Position, Option<Move>, Option<Eval>)> {
        let index = self.index_after(ply)?;
        let mv = index.checked_sub(1).map(|i| self.moves[i]);
        let eval = self.evals.get(index).copied().flatten();
        Some((self.games[index].position(), mv, eval))
    }
}

/// The evaluations of a line's plies: element `i` is the `[%eval …]` of a
/// comment after its `i`-th move (0: before any move), the last one there
/// when there are several comments; malformed ones (which the check
/// reports) are passed over.
#[must_use]
pub fn line_evals(items: &[Item]) -> Vec<Option<Eval>> {
    eval_comments(items)
        .into_iter()
        .map(|shown| shown.map(|(eval, ..)| eval))
        .collect()
}

/// [`line_evals`] with where each evaluation comes from: the index in
/// `items` of its comment, and where the command stands in that comment.
#[must_use]
pub fn eval_comments(items: &[Item]) -> Vec<Option<(Eval, usize, Range<usize>)>> {
    let mut evals = vec![None];
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Move { .. } => evals.push(None),
            Item::Comment { comment } => {
                if let Some(Ok((eval, at))) = Eval::find(comment)
                    && let Some(last) = evals.last_mut()
                {
                    *last = Some((eval, index, at));
                }
            }
            Item::Round { .. } | Item::Nag { .. } | Item::Variation { .. } => {}
        }
    }
    evals
}

/// What [`walk_line`] meets along a line, in the record's order.
#[derive(Debug)]
pub enum Walked<'a> {
    /// A move played: its ply number (through the game), the position
    /// before it, the game after it and what the move did, and the items
    /// that follow it in its line up to the next move (its NAGs, comments,
    /// variations and round markers).
    Move {
        ply: usize,
        mv: Move,
        /// The move as the record holds it (with its `+N`).
        item: &'a Item,
        before: &'a Position,
        after: &'a Game,
        report: &'a PlayReport,
        then: &'a [Item],
    },
    /// A variation after ply `ply` begins (the `number`-th after it, from
    /// 1): what follows, up to its [`Walked::Leave`], is its line. `items`
    /// are its items.
    Enter {
        ply: usize,
        number: usize,
        items: &'a [Item],
    },
    Leave,
    /// A move that cannot be played (what the check reports): the rest of
    /// its line is not walked.
    Stuck(StuckMove),
}

/// A move of a line that cannot be played: the move, its ply, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StuckMove {
    pub mv: Move,
    pub ply: usize,
    pub error: PlayError,
}

impl fmt::Display for StuckMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let StuckMove { mv, ply, error } = self;
        write!(f, "move {mv} (ply {ply}) cannot be played: {error}")
    }
}

impl std::error::Error for StuckMove {}

/// Replays the moves of `items` from `start`, the first being ply
/// `first_ply`, handing each to `visit`; with `into_variations`, each
/// variation too, from the game before the move it follows, as the check
/// replays them. One pass: a game is copied only before a move that has
/// variations.
pub fn walk_line(
    start: Game,
    items: &[Item],
    first_ply: usize,
    into_variations: bool,
    visit: &mut dyn FnMut(Walked<'_>),
) {
    let mut game = start;
    let mut ply = first_ply;
    // The game before the last move, when variations follow it.
    let mut before_last: Option<Game> = None;
    let mut variations = 0;
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Move { mv, .. } => {
                let rest = &items[index + 1..];
                let then = &rest[..rest
                    .iter()
                    .position(|i| matches!(i, Item::Move { .. }))
                    .unwrap_or(rest.len())];
                before_last = (into_variations
                    && then.iter().any(|i| matches!(i, Item::Variation { .. })))
                .then(|| game.clone());
                variations = 0;
                let before = *game.position();
                match game.play(*mv) {
                    Ok(report) => visit(Walked::Move {
                        ply,
                        mv: *mv,
                        item,
                        before: &before,
                        after: &game,
                        report: &report,
                        then,
                    }),
                    Err(error) => {
                        visit(Walked::Stuck(StuckMove {
                            mv: *mv,
                            ply,
                            error,
                        }));
                        return;
                    }
                }
                ply += 1;
            }
            Item::Variation { variation } => {
                variations += 1;
                if let Some(before) = &before_last {
                    visit(Walked::Enter {
                        ply: ply - 1,
                        number: variations,
                        items: variation,
                    });
                    walk_line(before.clone(), variation, ply - 1, true, visit);
                    visit(Walked::Leave);
                }
            }
            Item::Round { .. } | Item::Comment { .. } | Item::Nag { .. } => {}
        }
    }
}

/// Replays the moves of `items` from `start`, the first being ply
/// `first_ply`.
fn replay(start: Game, items: &[Item], first_ply: usize) -> Result<Line, StuckMove> {
    let mut games = vec![start.clone()];
    let mut moves = Vec::new();
    let mut stuck = None;
    walk_line(start, items, first_ply, false, &mut |walked| match walked {
        Walked::Move { mv, after, .. } => {
            games.push(after.clone());
            moves.push(mv);
        }
        Walked::Stuck(move_) => stuck = Some(move_),
        Walked::Enter { .. } | Walked::Leave => {}
    });
    if let Some(move_) = stuck {
        return Err(move_);
    }
    Ok(Line {
        first_ply,
        games,
        moves,
        evals: line_evals(items),
    })
}

/// The NAGs after a move as the record writes them: the first glued to
/// the move as its suffix when it is one of `!` … `?!` and comes right
/// after it (`?`, `!! $14`, ` $7`); `then` are the items after the move.
#[must_use]
pub fn marks(then: &[Item]) -> String {
    let mut text = String::new();
    for (k, item) in then.iter().enumerate() {
        match item {
            Item::Nag { nag } if k == 0 && nag.suffix().is_some() => {
                text.push_str(&nag.to_string());
            }
            Item::Nag { nag } => text.push_str(&format!(" {nag}")),
            Item::Move { .. } => break,
            _ => {}
        }
    }
    text
}

/// [`marks`] of each move of a line: element `i` for its `i`-th move (0:
/// none, before any move).
#[must_use]
pub fn line_marks(items: &[Item]) -> Vec<String> {
    let mut all = vec![String::new()];
    for (index, item) in items.iter().enumerate() {
        if let Item::Move { .. } = item {
            all.push(marks(&items[index + 1..]));
        }
    }
    all
}

/// Why [`line_of`] finds no line; `within` is the line a step of the path
/// looked in (the main line when empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// A move of a line on the way cannot be played.
    Stuck(StuckMove),
    /// The line has no ply `ply`: its plies are `first..=last`.
    NoPly {
        within: VariationPath,
        ply: usize,
        first: usize,
        last: usize,
    },
    /// Ply `ply` has `variations` variations, not the `number`-th.
    NoVariation {
        within: VariationPath,
        ply: usize,
        variations: usize,
        number: usize,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = |within: &VariationPath| match within.0.is_empty() {
            true => "the main line".to_owned(),
            false => format!("variation {within}"),
        };
        match self {
            LineError::Stuck(stuck) => stuck.fmt(f),
            LineError::NoPly {
                within,
                ply,
                first,
                last,
            } => write!(
                f,
                "there is no ply {ply} in {}: its plies are {first}..{last}",
                named(within)
            ),
            LineError::NoVariation {
                within,
                ply,
                variations: 0,
                ..
            } => write!(f, "ply {ply} of {} has no variation", named(within)),
            LineError::NoVariation {
                within,
                ply,
                variations,
                number,
            } => write!(
                f,
                "ply {ply} of {} has {} (no variation {number})",
                named(within),
                mancala_prose::plural(*variations as u64, "variation")
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// The line `path` names in `record`, whose main line starts from `start`.
pub fn line_of(record: &Record, start: Position, path: &VariationPath) -> Result<Line, LineError> {
    let mut items: &[Item] = &record.items;
    let mut line = replay(Game::start(start), items, 1).map_err(LineError::Stuck)?;
    for (step, &(ply, number)) in path.0.iter().enumerate() {
        let within = || VariationPath(path.0[..step].to_vec());
        let Some(index) = ply
            .checked_sub(line.first_ply)
            .filter(|i| *i < line.moves.len())
        else {
            return Err(LineError::NoPly {
                within: within(),
                ply,
                first: line.first_ply,
                last: line.first_ply + line.moves.len() - 1,
            });
        };
        let variations = variations_in(&after_moves(items), index);
        let Some(variation) = variations.get(number - 1) else {
            return Err(LineError::NoVariation {
                within: within(),
                ply,
                variations: variations.len(),
                number,
            });
        };
        let start = line.games[index].clone();
        line = replay(start, variation, ply).map_err(LineError::Stuck)?;
        items = variation;
    }
    Ok(line)
}

/// The items after each move of a line (element `i`: after its `i`-th
/// move, from 0), each up to the line's next move or round marker: where
/// that move's variations stand. Made in one pass, so that asking for
/// every ply's variations costs the line's length once, not per ply.
#[must_use]
pub fn after_moves(items: &[Item]) -> Vec<&[Item]> {
    let mut after = Vec::new();
    // The index in `items` where the last move's items begin, while they run.
    let mut open = None;
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Move { .. } | Item::Round { .. } => {
                if let Some(begin) = open.take() {
                    after.push(&items[begin..index]);
                }
                if matches!(item, Item::Move { .. }) {
                    open = Some(index + 1);
                }
            }
            Item::Comment { .. } | Item::Nag { .. } | Item::Variation { .. } => {}
        }
    }
    if let Some(begin) = open {
        after.push(&items[begin..]);
    }
    after
}

/// The variations among the items after a move (an element of
/// [`after_moves`]).
fn variations_in<'a>(after: &[&'a [Item]], index: usize) -> Vec<&'a [Item]> {
    after
        .get(index)
        .map_or(&[][..], |items| items)
        .iter()
        .filter_map(|item| match item {
            Item::Variation { variation } => Some(&variation[..]),
            _ => None,
        })
        .collect()
}

/// Heading lines for the variations after ply `ply` (from 1) of a line
/// whose items [`after_moves`] has split, each named by its `--variation` step and listing its moves:
/// `variation 4.1 (eval +7,4): A e B` — the evaluation is the one given
/// after the variation's first move, as an analysis writes it. Comments,
/// NAGs and variations inside it are left to `--variation` to draw.
#[must_use]
pub fn variation_headings(after: &[&[Item]], ply: usize) -> Vec<String> {
    let Some(index) = ply.checked_sub(1) else {
        return Vec::new();
    };
    variations_in(after, index)
        .into_iter()
        .enumerate()
        .map(|(k, variation)| variation_heading(&format!("{ply}.{}", k + 1), variation))
        .collect()
}

/// The heading line of one variation named `name` (`4.1`), as
/// [`variation_headings`] writes it.
#[must_use]
pub fn variation_heading(name: &str, variation: &[Item]) -> String {
    let mut line = format!("variation {name}");
    if let Some(Some(eval)) = line_evals(variation).get(1) {
        line.push_str(&format!(" (eval {})", eval_value(*eval)));
    }
    line.push(':');
    for item in variation {
        match item {
            Item::Move { mv, captured } => {
                line.push_str(&format!(" {mv}"));
                if let Some(n) = captured {
                    line.push_str(&format!("+{n}"));
                }
            }
            Item::Round { round } => line.push_str(&format!(" R{round}")),
            Item::Comment { .. } | Item::Nag { .. } | Item::Variation { .. } => {}
        }
    }
    line
}

/// An evaluation's value as a heading writes it: `+1,4`, `=+6` (its
/// comment form without `[%eval ` and `]`).
#[must_use]
pub fn eval_value(eval: Eval) -> String {
    let text = eval.to_string();
    text.trim_start_matches("[%eval ")
        .trim_end_matches(']')
        .to_owned()
}

/// A frame's heading line for an evaluation given after `mover`'s move.
#[must_use]
pub fn eval_line(eval: Eval, mover: Side) -> String {
    let seeds = eval.seeds();
    let standing = match seeds {
        0 => "level".to_owned(),
        n if n > 0 => format!(
            "{mover} {} ahead",
            mancala_prose::plural(n.unsigned_abs().into(), "seed")
        ),
        n => format!(
            "{mover} {} behind",
            mancala_prose::plural(n.unsigned_abs().into(), "seed")
        ),
    };
    let value = eval_value(eval);
    match eval {
        Eval::Exact { .. } => format!("eval {value}: {standing} at the end, exact"),
        Eval::Estimate {
            depth: Some(depth), ..
        } => {
            format!("eval {value}: {standing} at the end, searched {depth} plies deep")
        }
        Eval::Estimate { depth: None, .. } => format!("eval {value}: {standing} at the end"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_notation::parse_game;
    use mancala_rules::{GameId, Rules};

    #[test]
    fn paths_read_and_print() {
        let path: VariationPath = "12.1/14.2".parse().unwrap();
        assert_eq!(path.0, [(12, 1), (14, 2)]);
        assert_eq!(path.to_string(), "12.1/14.2");
        for bad in ["", "12", "0.1", "12.0", "12.1/", "a.b"] {
            assert!(bad.parse::<VariationPath>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_moves_items_run_to_the_next_move_or_round_marker() {
        let text = "[Game \"pallankuzhi\"]\n\n1. A (1. B) {c} a (1... b) (1... c) R2 2. G $1 *\n";
        let record = parse_game(text).unwrap().record;
        let after = after_moves(&record.items);
        let variations: Vec<usize> = (0..after.len())
            .map(|i| variations_in(&after, i).len())
            .collect();
        assert_eq!(variations, [1, 2, 0]);
        // The second move's items stop at the round marker; the last
        // move's run to the end.
        assert_eq!(after[1].len(), 2);
        assert_eq!(after[2].len(), 1);
        assert!(variations_in(&after, 3).is_empty());
        assert_eq!(
            variation_headings(&after, 2),
            ["variation 2.1: b", "variation 2.2: c"]
        );
        assert!(variation_headings(&after, 0).is_empty());
    }

    #[test]
    fn a_nested_variation_is_found_and_replayed() {
        let text = "[Game \"olowuka\"]\n\n1. F e (1... d {[%eval =+3]} 2. E (2. A $14 a) c) (1... a) 2. E+5 *\n";
        let record = parse_game(text).unwrap().record;
        let start = Position::new(Rules::new(GameId::Olowuka, Default::default()).unwrap());
        let line = line_of(&record, start, &"2.1/3.1".parse().unwrap()).unwrap();
        assert_eq!((line.first_ply, line.last_ply()), (3, 4));
        let line = line_of(&record, start, &"2.1".parse().unwrap()).unwrap();
        assert_eq!((line.first_ply, line.last_ply()), (2, 4));
        let (_, mv, eval) = line.after(2).unwrap();
        assert_eq!(mv.unwrap().to_string(), "d");
        assert_eq!(eval, Some(Eval::Exact { seeds: 3 }));
        assert!(line.after(0).is_none());
        let err = line_of(&record, start, &"2.3".parse().unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ply 2 of the main line has 2 variations (no variation 3)"
        );
        let err = line_of(&record, start, &"1.1".parse().unwrap()).unwrap_err();
        assert_eq!(err.to_string(), "ply 1 of the main line has no variation");
        let err = line_of(&record, start, &"2.1/9.1".parse().unwrap()).unwrap_err();
        assert_eq!(
            err,
            LineError::NoPly {
                within: VariationPath(vec![(2, 1)]),
                ply: 9,
                first: 2,
                last: 4
            }
        );
        assert_eq!(
            err.to_string(),
            "there is no ply 9 in variation 2.1: its plies are 2..4"
        );
    }
}
