//! The validator's fast path (`check::quick_check`) against the full check
//! (`check::check_text`): whatever the fast path settles, the full check
//! finds valid, with the same plies, game, options, final position, end and
//! round ends, and the same record when it builds one.
//! It runs on every fixture and on generated games of every game, matches
//! of rounds included, and it must settle every generated game (none has a
//! comment or an endless move), so that it is not vacuous.

mod common;

use mancala_check::{self as check, ReplayOptions};
use mancala_notation::{GameText, Reader};

/// The games of `bytes`, as the tools cut them.
fn games(bytes: &[u8]) -> Vec<GameText> {
    Reader::new(bytes).map(Result::unwrap).collect()
}

/// Compares both paths on every game of `bytes`; returns how many games
/// the fast path settled, and how many there were.
fn compare(what: &str, bytes: &[u8], lap_budget: u32) -> (usize, usize) {
    let options = ReplayOptions {
        lap_budget,
        trace: false,
    };
    let games = games(bytes);
    let mut settled = 0;
    for (i, text) in games.iter().enumerate() {
        let Some(quick) = check::quick_check(text, options, true) else {
            continue;
        };
        settled += 1;
        let full = check::check_text(text, options, |_| {});
        let at = format!("{what}, game {}", i + 1);
        assert!(
            full.is_valid(),
            "{at}: fast path settled an invalid game: {:?}",
            full.problems
        );
        let (parsed, replay) = (full.parsed.unwrap(), full.replay.unwrap());
        let game = replay.game.as_ref().unwrap();
        assert_eq!(quick.plies, replay.plies, "{at}: plies");
        assert_eq!(quick.game, parsed.record.game, "{at}: game");
        assert_eq!(quick.options, parsed.record.options, "{at}: options");
        assert_eq!(quick.replayed.position(), game.position(), "{at}: position");
        assert_eq!(quick.replayed.status(), game.status(), "{at}: status");
        assert_eq!(quick.round_ends, replay.round_ends, "{at}: round ends");
        assert_eq!(quick.parsed.as_ref(), Some(&parsed), "{at}: record");
    }
    (settled, games.len())
}

#[test]
fn every_fixture_agrees() {
    let mut settled = 0;
    for dir in [
        "fixtures/validate",
        "fixtures/notation/valid",
        "fixtures/notation/invalid",
        "fixtures/adversarial",
    ] {
        for file in common::fixtures(dir) {
            let bytes = std::fs::read(common::root().join(&file)).unwrap();
            settled += compare(&file, &bytes, mancala_rules::DEFAULT_LAP_BUDGET).0;
            // A tiny lap budget makes long moves undecided: never settled.
            compare(&file, &bytes, 2);
        }
    }
    assert!(settled > 10, "{settled} fixture games settled");
}

#[test]
fn generated_games_agree() {
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
        let (settled, games) = compare(
            &what,
            out.stdout.as_bytes(),
            mancala_rules::DEFAULT_LAP_BUDGET,
        );
        assert_eq!(games, 150, "{what}");
        assert_eq!(settled, games, "{what}: games settled");
    }
}

/// A direction written where the move has none to choose, rightly named,
/// is dropped from the record by both paths (found by the fuzz harness: the
/// fast path kept it).
#[test]
fn a_needless_direction_is_respelled_by_both_paths() {
    // A round with a closed hole: the replayer sows each move in full.
    let text = "[Game \"pallankuzhi\"]\n[SetUp \"S 6,6,6,6,6,6,x/6,6,6,6,6,6,6 6-0 round=2\"]\n\n1. A:ccw b:ccw *\n";
    let (settled, count) = compare("needless direction", text.as_bytes(), 1000);
    assert_eq!((settled, count), (1, 1));
    let game = &games(text.as_bytes())[0];
    let quick = check::quick_check(game, ReplayOptions::default(), true).unwrap();
    assert_eq!(
        quick.parsed.unwrap().record.to_string().lines().last(),
        Some("1. A b *")
    );
}

/// A record that goes on after the round rounds=N ends the match with, or
/// without, the next round's marker: the fast path never settles it, and
/// the full check stops at the first thing after the end.
#[test]
fn records_past_the_last_round_are_left_to_the_full_check() {
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
            let (settled, _) = compare(
                "past round 2",
                text.as_bytes(),
                mancala_rules::DEFAULT_LAP_BUDGET,
            );
            assert_eq!(settled, 0);
            let game = &games(text.as_bytes())[0];
            let full = check::check_text(game, ReplayOptions::default(), |_| {});
            let problem = &full.problems[0];
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
