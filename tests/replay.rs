//! The check's one replay and its two lanes: with plies observed (as
//! `mancala-render` observes them) every move is played by the full rules
//! and settled at once; without, the rules' fast lane takes the common
//! moves and leaves "cannot move" open until it matters. Both must give the
//! same problems, plies, final position, end, round ends, owed markers and
//! record, on every fixture (under the default and a tiny lap budget) and on
//! generated games of every game, matches of rounds included; generated
//! games must all be valid. A record read from its JSON form must give
//! the same check as its MGN.

use crate::common;

use mancala_check::{self as check, Build, Checked, Ply};
use mancala_notation::{Form, GameText, Reader};
use mancala_rules::DEFAULT_LAP_BUDGET;

/// The games of `bytes`, as the tools cut them.
fn games(bytes: &[u8]) -> Vec<GameText> {
    Reader::new(bytes).map(Result::unwrap).collect()
}

/// What the replay reached.
fn replayed(checked: &Checked) -> impl PartialEq + std::fmt::Debug + use<> {
    checked.replay.as_ref().map(|r| {
        (
            r.game_id,
            r.options,
            r.plies,
            r.round_ends.clone(),
            r.markers_due.clone(),
            r.game.as_ref().map(|g| (*g.position(), g.status())),
        )
    })
}

/// What the two lanes must agree on.
fn verdict(checked: &Checked) -> impl PartialEq + std::fmt::Debug {
    (
        checked.problems.clone(),
        replayed(checked),
        checked.parsed.clone(),
    )
}

/// What a record's two forms, MGN and JSON, must agree on: all but where
/// the problems stand (in texts of their own).
fn form_verdict(checked: &Checked) -> impl PartialEq + std::fmt::Debug {
    let problems: Vec<_> = checked
        .problems
        .iter()
        .map(|p| (p.kind, p.message.clone()))
        .collect();
    let record = checked.parsed.as_ref().map(|p| p.record.clone());
    (problems, replayed(checked), record)
}

/// A record's text in the JSON record form, as `--format json` writes it.
fn as_json(record: &mancala_notation::Record) -> GameText {
    let bytes = serde_json::to_string(record).unwrap().into_bytes();
    GameText {
        len: bytes.len() as u64,
        bytes,
        first_line: 1,
        offset: 0,
    }
}

/// Checks every game of `bytes` in both lanes and compares them; returns
/// how many games were valid, and how many there were.
fn compare(what: &str, bytes: &[u8], lap_budget: u32) -> (usize, usize) {
    let games = games(bytes);
    let mut valid = 0;
    for (i, text) in games.iter().enumerate() {
        let fast = check::check_text(text, Some(lap_budget), Build::Record, None);
        let mut plies = 0;
        let mut observe = |ply: &Ply<'_>| {
            plies += 1;
            assert_eq!(ply.number, plies);
        };
        let full = check::check_text(text, Some(lap_budget), Build::Record, Some(&mut observe));
        let at = format!("{what}, game {}", i + 1);
        assert_eq!(verdict(&fast), verdict(&full), "{at}");
        // The same record read from its JSON form: the same check.
        if let Ok(parsed) = text.parse() {
            let json = as_json(&parsed.record);
            let from_json =
                check::check_text_as(Form::Json, &json, Some(lap_budget), Build::Record, None);
            assert_eq!(form_verdict(&from_json), form_verdict(&fast), "{at}: JSON");
        }
        // Plies observed before a syntax error further on count for
        // nothing.
        if let Some(replay) = &full.replay {
            assert_eq!(plies, replay.plies, "{at}");
        }
        valid += usize::from(fast.is_valid());
    }
    (valid, games.len())
}

#[test]
fn every_fixture_agrees() {
    let mut valid = 0;
    for dir in [
        "fixtures/validate",
        "fixtures/notation/valid",
        "fixtures/notation/invalid",
        "fixtures/adversarial",
    ] {
        for file in common::fixtures(dir) {
            let bytes = std::fs::read(common::root().join(&file)).unwrap();
            valid += compare(&file, &bytes, DEFAULT_LAP_BUDGET).0;
            // A tiny lap budget makes long moves undecided, and with them
            // what follows a move ("cannot move").
            compare(&file, &bytes, 2);
        }
    }
    assert!(valid > 10, "{valid} valid fixture games");
}

#[test]
fn generated_games_are_valid_in_both_lanes() {
    let corpora: [&[&str]; 13] = [
        &["--game", "olowuka"],
        &["--game", "olowuka", "--option", "play-to-end"],
        &["--game", "olowuka", "--option", "no-repetition-rule"],
        &["--game", "olinda-keliya"],
        &["--game", "olinda-keliya", "--option", "series-capture"],
        &["--game", "rio-kadalis"],
        &["--game", "rio-kadalis", "--option", "five-holes"],
        &["--game", "pallankuzhi"],
        &["--game", "pallankuzhi", "--option", "single-round"],
        &[
            "--game",
            "pallankuzhi",
            "--option",
            "pasu-to-owner capture-opposite",
        ],
        // Matches that rounds=N ends, by its limit or by a failed refill
        // first.
        &["--game", "pallankuzhi", "--option", "rounds=3"],
        &["--game", "rio-kadalis", "--option", "rounds=2"],
        &["--game", "rio-kadalis", "--option", "rounds=1 five-holes"],
    ];
    for (seed, args) in corpora.into_iter().enumerate() {
        let seed = (seed + 1).to_string();
        let mut full_args = args.to_vec();
        full_args.extend(["--games", "150", "--seed", &seed, "--quiet"]);
        let out = common::run("mancala-play", &full_args, b"");
        assert_eq!(out.code, 0, "{}", out.stderr);
        let what = args.join(" ");
        let (valid, games) = compare(&what, out.stdout.as_bytes(), DEFAULT_LAP_BUDGET);
        assert_eq!(games, 150, "{what}");
        assert_eq!(valid, games, "{what}: valid games");
    }
}

/// A direction written where the move has none to choose, rightly named,
/// is dropped from the record by both lanes (found by the fuzz harness: the
/// fast lane kept it once).
#[test]
fn a_needless_direction_is_respelled_by_both_lanes() {
    // A round with a closed hole: the fast lane checks each move in full.
    let text = "[Game \"pallankuzhi\"]\n[SetUp \"S 6,6,6,6,6,6,x/6,6,6,6,6,6,6 6-0 round=2\"]\n\n1. A:ccw b:ccw *\n";
    assert_eq!(compare("needless direction", text.as_bytes(), 1000), (1, 1));
    let game = &games(text.as_bytes())[0];
    let checked = check::check_text(game, Some(DEFAULT_LAP_BUDGET), Build::Record, None);
    assert_eq!(
        checked.parsed.unwrap().record.to_string().lines().last(),
        Some("1. A b *")
    );
}

/// A move that the fast lane plays but whose aftermath cannot be decided
/// within the lap budget (no reply playable, some undecided) is refused
/// whole, as the full rules refuse it: the error names that move, its ply
/// and its mover, the game stands before it, and its (wrong) annotation is
/// not judged.
#[test]
fn a_move_whose_aftermath_is_undecided_is_refused_whole() {
    let text = "[Game \"pallankuzhi\"]\n[Options \"single-round\"]\n\n1. B+7 a+5 2. G+6 a+11 *\n";
    assert_eq!(compare("undecided aftermath", text.as_bytes(), 3), (0, 1));
    let checked = check::check_text(&games(text.as_bytes())[0], Some(3), Build::Nothing, None);
    let messages: Vec<_> = checked.problems.iter().map(|p| &p.message).collect();
    assert_eq!(
        messages,
        [
            "illegal move a (ply 2, north to move): move A is undecided: it neither ends nor repeats within the lap budget of 3 laps"
        ]
    );
    assert_eq!(&text[checked.problems[0].span.clone()], "a+5");
    let replay = checked.replay.unwrap();
    assert_eq!(replay.plies, 1);
    let game = replay.game.unwrap();
    assert_eq!(
        mancala_notation::format_setup(&game.position().to_setup()),
        "N 7,0,0,7,7,7,7/7,0,7,7,7,7,7 7-0 starter=S"
    );
}

/// A record that goes on after the round rounds=N ends the match with, or
/// without, the next round's marker: the check stops at the first thing
/// after the end, in both lanes.
#[test]
fn records_past_the_last_round_stop_at_the_end_of_the_match() {
    let out = common::run(
        "mancala-play",
        &[
            "--game",
            "pallankuzhi",
            "--games",
            "30",
            "--seed",
            "5",
            "--quiet",
        ],
        b"",
    );
    let mut cut = 0;
    for text in games(out.stdout.as_bytes()) {
        let text = text.text().unwrap();
        // The record of a match of three rounds or more, said to end
        // after round 2.
        if !text.contains(" R3 ") {
            continue;
        }
        cut += 1;
        let limited = text.replace(
            "[Game \"pallankuzhi\"]",
            "[Game \"pallankuzhi\"]\n[Options \"rounds=2\"]",
        );
        for text in [limited.clone(), limited.replacen(" R3 ", " ", 1)] {
            assert_eq!(
                compare("past round 2", text.as_bytes(), DEFAULT_LAP_BUDGET),
                (0, 1)
            );
            let game = &games(text.as_bytes())[0];
            let checked = check::check_text(game, Some(DEFAULT_LAP_BUDGET), Build::Nothing, None);
            let problem = &checked.problems[0];
            assert!(
                problem
                    .message
                    .contains("after the end of the match: rounds=2 ends it after round 2"),
                "{problem:?}"
            );
            let at = &text[problem.span.clone()];
            if text == limited {
                assert_eq!(at, "R3");
            } else {
                assert!(
                    at.chars().next().unwrap().is_ascii_alphabetic() && at != "R3",
                    "{at}"
                );
            }
        }
    }
    assert!(cut > 5, "only {cut} matches of three rounds or more");
}
