//! Annotated records end to end. Every valid validation fixture, annotated
//! by program with NAGs, evaluations and legal variations (nested ones, and
//! ones that cross into a new round), is still valid with the same verdict,
//! and its canonical print reads back; a variation's illegal move is an
//! error with its line and column; play continues the main line.

use crate::common;

use common::{fixtures, run};
use mancala_check::{Build, Ply, check_text, rounds_begun};
use mancala_notation::{Eval, GameText, Item, Nag, Reader, Record, parse_game};
use mancala_rules::{Game, Move, Position};

/// The games of a file, as the tools read them.
fn games(path: &str) -> Vec<GameText> {
    let file = std::fs::File::open(common::root().join(path)).unwrap();
    Reader::new(std::io::BufReader::new(file))
        .map(Result::unwrap)
        .collect()
}

/// A line of up to `len` plies from `before`, opening with `first`: each
/// later ply the first legal move, every move with its `+N`, round markers
/// where rounds begin; with `nest`, its second move gets a variation of
/// its own.
fn line_from(before: Position, first: Move, len: usize, nest: bool) -> Vec<Item> {
    let mut game = Game::start(before);
    let mut items = Vec::new();
    let mut mv = first;
    for ply in 0..len {
        let position = *game.position();
        let Ok(report) = game.play(mv) else {
            break;
        };
        items.push(Item::Move {
            mv: position.canonical_move(mv),
            captured: Some(report.gained[position.to_move().index()]),
        });
        if nest && ply == 1 {
            let other = alternative(&position, mv);
            items.push(Item::Nag { nag: Nag::DUBIOUS });
            items.push(Item::Variation {
                variation: line_from(position, other, 1, false),
            });
        }
        items.extend(rounds_begun(&report).map(|round| Item::Round { round }));
        if game.outcome().is_some() {
            break;
        }
        match game
            .position()
            .legal_moves()
            .ok()
            .and_then(|moves| moves.get(0))
        {
            Some(next) => mv = next,
            None => break,
        }
    }
    items
}

/// A legal move other than `played` where there is one.
fn alternative(before: &Position, played: Move) -> Move {
    let moves = before.legal_moves().unwrap();
    moves
        .iter()
        .find(|m| m.hole != played.hole)
        .unwrap_or(played)
}

/// `record` annotated: after every third move of the main line (the 2nd,
/// 5th, …) a NAG, an evaluation and a variation of three plies from the
/// position before that move. `befores` are the positions before each
/// ply.
fn annotate(record: &Record, befores: &[Position]) -> Record {
    let mut annotated = record.clone();
    annotated.items.clear();
    let mut ply = 0;
    for item in &record.items {
        annotated.items.push(item.clone());
        let Item::Move { mv, .. } = item else {
            continue;
        };
        ply += 1;
        if ply % 3 != 2 {
            continue;
        }
        let before = befores[ply - 1];
        annotated.items.push(Item::Nag {
            nag: Nag((ply % 7) as u8 + 1),
        });
        let eval = Eval::Estimate {
            seeds: ply as i32 - 10,
            depth: Some(9),
        };
        annotated.items.push(Item::Comment {
            comment: format!("{eval} played"),
        });
        annotated.items.push(Item::Variation {
            variation: line_from(before, alternative(&before, *mv), 3, true),
        });
    }
    annotated
}

/// The record, its plies' positions and its verdict (plies, outcome).
fn replay(text: &GameText) -> (Record, Vec<Position>, String) {
    let mut befores = Vec::new();
    let mut on_ply = |ply: &Ply<'_>| befores.push(*ply.before);
    let checked = check_text(text, None, Build::Record, Some(&mut on_ply));
    assert!(checked.is_valid(), "{:?}", checked.problems);
    let replay = checked.replay.unwrap();
    let verdict = format!("{} plies, {:?}", replay.plies, replay.outcome());
    (checked.parsed.unwrap().record, befores, verdict)
}

#[test]
fn annotated_fixtures_keep_their_verdicts() {
    let mut variations = 0;
    for path in fixtures("fixtures/validate") {
        if !common::stem(&path).starts_with("valid-") {
            continue;
        }
        for text in games(&path) {
            let (record, befores, verdict) = replay(&text);
            let annotated = annotate(&record, &befores);
            variations += annotated
                .walk()
                .filter(|(_, item)| matches!(item, Item::Variation { .. }))
                .count();
            let printed = annotated.to_string();
            let parsed = parse_game(&printed).unwrap_or_else(|e| panic!("{path}: {e}\n{printed}"));
            assert_eq!(parsed.record, annotated, "{path}: parse(print(r)) != r");
            let checked = check_text(&GameText::whole(&printed), None, Build::Record, None);
            assert!(
                checked.is_valid(),
                "{path}: {:?}\n{printed}",
                checked.problems
            );
            assert_eq!(
                checked.parsed.unwrap().record,
                annotated,
                "{path}: the check builds the record read"
            );
            let (_, _, again) = replay(&GameText::whole(&printed));
            assert_eq!(again, verdict, "{path}: the main line's verdict");
        }
    }
    assert!(variations > 100, "only {variations} variations");
}

#[test]
fn a_variations_illegal_move_is_reported_where_it_stands() {
    let text = "[Game \"olowuka\"]\n\n1. F e (1... d 2. E (2. G) b+3 {[%eval big]})\n2. E+5 c (2... a) 3. D+8 f 4. E+14 46-2\n";
    let out = run("mancala-validate", &["-"], text.as_bytes());
    assert_eq!(out.code, 1, "{}", out.snapshot());
    insta::assert_snapshot!(out.snapshot());
}

#[test]
fn play_continues_the_main_line() {
    let text = "[Game \"olowuka\"]\n\n1. F e?? (1... d! 2. E) 2. E+5 (2. A $14) *\n";
    let dir = common::scratch("annotated-play");
    let file = dir.join("game.mgn");
    std::fs::write(&file, text).unwrap();
    let out = run(
        "mancala-play",
        &[
            file.to_str().unwrap(),
            "--south",
            "greedy",
            "--north",
            "greedy",
            "--plies",
            "2",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.snapshot());
    insta::assert_snapshot!(out.snapshot());
}

/// The annotated fixture game of Olowuka (the second of the file).
const OLOWUKA: &str = "fixtures/validate/valid-annotated.mgn";

#[test]
fn render_draws_inside_variations_and_shows_evaluations() {
    let mut shots = String::new();
    for args in [
        // A main-line ply with its evaluation, and the final position.
        &["--ply", "2", OLOWUKA][..],
        // The first variation after ply 2, at its end, where it branches,
        // and inside the variation nested in it.
        &["--variation", "2.1", OLOWUKA],
        &["--variation", "2.1", "--ply", "1", OLOWUKA],
        &["--variation", "2.1/3.1", OLOWUKA],
        // Selections that do not exist.
        &["--variation", "2.2", OLOWUKA],
        &["--variation", "3.1", OLOWUKA],
        &["--variation", "2.1", "--ply", "9", OLOWUKA],
    ] {
        let out = run("mancala-render", args, b"");
        // Only the Olowuka game is shown: the others are alike.
        let stdout: String = out
            .stdout
            .split("=== ")
            .filter(|game| game.contains(": game 2,"))
            .collect();
        let stderr: String = out
            .stderr
            .lines()
            .filter(|line| line.contains("game 2:"))
            .map(|line| format!("{line}\n"))
            .collect();
        shots.push_str(&format!(
            "$ mancala-render {}\nexit: {}\n{stdout}{stderr}\n",
            args.join(" "),
            out.code
        ));
    }
    insta::assert_snapshot!(shots);
}

#[test]
fn render_variation_is_no_page_option() {
    let out = run(
        "mancala-render",
        &["--format", "html", "--variation", "2.1", OLOWUKA],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.snapshot());
    assert!(out.stderr.contains("--variation"), "{}", out.stderr);
    let out = run("mancala-render", &["--variation", "2", OLOWUKA], b"");
    assert_eq!(out.code, 2, "{}", out.snapshot());
    assert!(out.stderr.contains("expected P.V"), "{}", out.stderr);
}
