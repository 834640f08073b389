//! Game-level rules: threefold repetition, the order of end checks after a
//! move, Olowuka's feeding rule and Olinda Keliya's directions.

use crate::common;

use mancala_rules::{
    Dir, EndReason, Event, Game, GameId, Hole, Move, Opt, Options, PlayErrorKind, Played, Position,
    Rules, Side, Status, Trace,
};

use common::{board_text, endless_cases, setup_from};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn rules(game: GameId, options: Options) -> Rules {
    Rules::new(game, options).unwrap()
}

fn position(rules: Rules, text: &str, stores: [u32; 2], to_move: Side) -> Position {
    Position::from_setup(rules, &setup_from(text, stores, to_move)).unwrap()
}

fn olinda_with_dir(options: Options, text: &str, dir: Option<Dir>) -> Position {
    let r = rules(GameId::OlindaKeliya, options);
    let mut s = setup_from(text, [30, 25], Side::South);
    s.south_dir = dir;
    Position::from_setup(r, &s).unwrap()
}

fn finite(played: Played) -> Position {
    match played {
        Played::Finite { position, .. } => position,
        other => panic!("expected a finite move, got {other:?}"),
    }
}

// --- repetition --------------------------------------------------------------

/// One seed shuttles between South's G and North's a: South sows CCW
/// (G -> a), North CW (a -> G); neither lap captures.
const SHUTTLE: &str = "A0 B0 C0 D0 E0 F0 G1 | a0 b0 c0 d0 e0 f0 g0";

#[test]
fn the_third_occurrence_ends_the_game_and_the_start_counts_as_the_first() {
    let pos = olinda_with_dir(Options::new(), SHUTTLE, Some(Dir::Ccw));
    let (mut game, _) = Game::new(pos).unwrap();
    // Positions: P0 (start), P1, P0, P1, P0 — the third P0 ends the game.
    for (ply, m) in ["G", "a", "G"].into_iter().enumerate() {
        let report = game.play(mv(m)).unwrap();
        assert!(report.outcome.is_none(), "ended at ply {}", ply + 1);
    }
    let report = game.play(mv("a")).unwrap();
    let outcome = report.outcome.expect("third occurrence of the start");
    assert_eq!(outcome.reason, EndReason::Repetition);
    // South takes the seed in its row.
    assert_eq!(outcome.score, [31, 25]);
    assert_eq!(outcome.winner, Some(Side::South));
    assert!(game.play(mv("G")).is_err());
}

#[test]
fn without_the_repetition_rule_the_shuttle_goes_on() {
    let pos = olinda_with_dir(
        Options::new().with(Opt::NoRepetitionRule),
        SHUTTLE,
        Some(Dir::Ccw),
    );
    let (mut game, _) = Game::new(pos).unwrap();
    for ply in 0..1000 {
        game.play(mv(if ply % 2 == 0 { "G" } else { "a" })).unwrap();
    }
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn the_olinda_direction_is_not_part_of_the_repetition_key() {
    // The start has no direction yet; after G:ccw the same board recurs with
    // the directions chosen, and still counts as the same position.
    let pos = olinda_with_dir(Options::new(), SHUTTLE, None);
    let (mut game, _) = Game::new(pos).unwrap();
    for m in ["G:ccw", "a", "G"] {
        assert!(game.play(mv(m)).unwrap().outcome.is_none());
    }
    let outcome = game.play(mv("a")).unwrap().outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::Repetition);
}

#[test]
fn the_repetition_key_is_board_closed_holes_and_side_to_move() {
    let r = Rules::standard(GameId::Pallankuzhi);
    let text = "A6 B0 C0 D0 E0 F0 G0 | a6 b0 c0 d0 e0 f0 g0";
    let base = position(r, text, [36, 36], Side::South);
    // Stores do not count.
    let other_stores = position(r, text, [30, 42], Side::South);
    assert_eq!(base.repetition_key(), other_stores.repetition_key());
    // The side to move does.
    let north = position(r, text, [36, 36], Side::North);
    assert_ne!(base.repetition_key(), north.repetition_key());
    // A closed hole differs from an open empty one.
    let closed = Position::from_setup(
        r,
        &mancala_rules::Setup {
            round: 2,
            ..setup_from(
                "A6 B0 C0 D0 E0 F0 G- | a6 b0 c0 d0 e0 f0 g0",
                [36, 36],
                Side::South,
            )
        },
    )
    .unwrap();
    assert_ne!(base.repetition_key(), closed.repetition_key());
    // The round does not.
    let round_2 = Position::from_setup(
        r,
        &mancala_rules::Setup {
            round: 2,
            ..setup_from(text, [36, 36], Side::South)
        },
    )
    .unwrap();
    assert_eq!(base.repetition_key(), round_2.repetition_key());
}

/// Rio Kadalis with one open hole a side: F and f pass one stone back and
/// forth (each falls into an empty hole). The round's starting position
/// counts as its first occurrence, the round ends by repetition, and the
/// match goes on with a refill.
///
/// That counting restarts every round cannot be seen in a test: a refilled
/// round has at least n + 1 open holes of full seed counts, so no position
/// of an earlier round (whose closed holes must match too) recurs in a later
/// one in any game we could construct. The random matches of
/// `differential.rs` compare `Game` with a reference that restarts the
/// count explicitly.
#[test]
fn repetition_ends_a_round_and_the_match_goes_on() {
    let r = Rules::standard(GameId::RioKadalis);
    let mut s = setup_from(
        "A- B- C- D- E- F1 | a- b- c- d- e- f0",
        [23, 24],
        Side::South,
    );
    s.round = 2;
    let (mut game, _) = Game::new(Position::from_setup(r, &s).unwrap()).unwrap();
    for m in ["F", "f", "F"] {
        assert!(game.play(mv(m)).unwrap().round_ends.is_empty());
    }
    let report = game.play(mv("f")).unwrap();
    assert_eq!(report.round_ends.len(), 1);
    let end = report.round_ends[0];
    assert_eq!((end.round, end.reason), (2, EndReason::Repetition));
    assert_eq!(end.holdings, [24, 24]);
    assert_eq!(end.winner, None);
    assert!(report.outcome.is_none());
    let pos = *game.position();
    assert_eq!(pos.round(), 3);
    assert_eq!(board_text(&pos), "A4 B4 C4 D4 E4 F4 | a4 b4 c4 d4 e4 f4");
    assert_eq!(pos.to_move(), Side::North);
    // Round 3 is played on.
    let legal = pos.legal_moves().unwrap();
    assert!(
        game.play(legal.get(0).unwrap())
            .unwrap()
            .round_ends
            .is_empty()
    );
}

// --- order of end checks -----------------------------------------------------

/// Olowuka, South already holding 25 captured (a set-up). A round's start
/// only checks "cannot move"; after South's move both 25 and "North cannot
/// move" hold, and 25 is checked first.
#[test]
fn twenty_five_is_checked_before_cannot_move_and_not_at_the_start() {
    let text = "A1 B0 C0 D0 E0 F0 | a0 b0 c0 d0 e0 f0";
    for (options, reason) in [
        (Options::new(), EndReason::TwentyFive),
        (Options::new().with(Opt::PlayToEnd), EndReason::NoMoves),
    ] {
        let pos = position(rules(GameId::Olowuka, options), text, [25, 22], Side::South);
        let (mut game, report) = Game::new(pos).unwrap();
        assert!(report.outcome.is_none());
        // A1 sows into B: the only move, and it starves North, which is
        // legal because no move feeds.
        let outcome = game.play(mv("A")).unwrap().outcome.unwrap();
        assert_eq!(outcome.reason, reason);
        assert_eq!(outcome.score, [26, 22]);
    }
}

/// rules.md: "an Olowuka game stopped at 25 can end 30–18" — the rows'
/// seeds are added whatever ended the game.
#[test]
fn twenty_five_ends_the_game_and_the_rows_still_count() {
    let text = "A5 B0 C0 D0 E0 F1 | a2 b8 c0 d0 e0 f0";
    let pos = position(
        Rules::standard(GameId::Olowuka),
        text,
        [22, 10],
        Side::South,
    );
    let (mut game, _) = Game::new(pos).unwrap();
    // F1 falls into a (now 3): captured; the hole before a is South's F.
    let report = game.play(mv("F")).unwrap();
    assert_eq!(report.gained, [3, 0]);
    let outcome = report.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::TwentyFive);
    assert_eq!(outcome.score, [30, 18]);

    // With play-to-end the game goes on past 25.
    let pos = position(
        rules(GameId::Olowuka, Options::new().with(Opt::PlayToEnd)),
        text,
        [22, 10],
        Side::South,
    );
    let (mut game, _) = Game::new(pos).unwrap();
    assert!(game.play(mv("F")).unwrap().outcome.is_none());
    assert_eq!(game.position().store(Side::South), 25);
}

/// Under endless-ends-game an endless move is legal and ends the game (in
/// round play the round) at once, with the board as it was before it and
/// the other player to move.
#[test]
fn endless_ends_game_ends_with_the_board_as_before() {
    let mut games_checked = [0; 3];
    for case in endless_cases() {
        let base = case.pos.rules();
        let r = Rules::new(base.game(), base.options().with(Opt::EndlessEndsGame)).unwrap();
        let pos = Position::from_setup(r, &case.pos.to_setup()).unwrap();
        assert!(
            pos.legal_moves().unwrap().contains(case.mv),
            "{}",
            case.line
        );
        // The board stays as it was; the turn passes as after any move.
        let Played::Endless { position, .. } = pos.play(case.mv).unwrap() else {
            panic!("{}: not endless", case.line);
        };
        assert_eq!(position.to_setup().south, pos.to_setup().south);
        assert_eq!(position.to_setup().north, pos.to_setup().north);
        assert_eq!(position.stores(), pos.stores());
        assert_eq!(
            position.to_move(),
            pos.to_move().opposite(),
            "{}",
            case.line
        );
        let (mut game, start) = Game::new(pos).unwrap();
        if start.outcome.is_some() || !start.round_ends.is_empty() {
            continue;
        }
        let holdings = Side::BOTH.map(|s| u32::from(pos.store(s)) + pos.row_seeds(s));
        let report = game.play(case.mv).unwrap();
        assert!(report.endless, "{}", case.line);
        assert_eq!(report.gained, [0, 0]);
        if r.game().has_rounds() {
            let end = report.round_ends[0];
            assert_eq!(end.reason, EndReason::EndlessMove, "{}", case.line);
            assert_eq!(end.holdings, holdings, "{}", case.line);
            assert_eq!(end.round, pos.round());
            match report.outcome {
                // The match can only end by a failed refill here.
                Some(outcome) => assert_eq!(outcome.reason, EndReason::CannotRefill),
                None => assert_eq!(game.position().round(), pos.round() + 1),
            }
            games_checked[if r.game() == GameId::Pallankuzhi {
                1
            } else {
                2
            }] += 1;
        } else {
            let outcome = report.outcome.unwrap();
            assert_eq!(outcome.reason, EndReason::EndlessMove, "{}", case.line);
            assert_eq!(game.position().to_move(), pos.to_move().opposite());
            assert_eq!(outcome.score, holdings, "{}", case.line);
            games_checked[0] += 1;
        }
    }
    assert!(games_checked.iter().all(|&n| n > 0), "{games_checked:?}");
}

#[test]
fn without_the_option_an_endless_move_is_refused_and_changes_nothing() {
    let mut checked = 0;
    for case in endless_cases() {
        let (mut game, _) = Game::new(case.pos).unwrap();
        // Where the endless move is the only candidate, the game or round
        // is over before it starts.
        if *game.position() != case.pos || game.outcome().is_some() {
            continue;
        }
        checked += 1;
        let err = game.play(case.mv).unwrap_err();
        assert!(
            matches!(err.kind, PlayErrorKind::Endless { first_repeat, cycle, .. }
                if (first_repeat, cycle) == (case.first_repeat, case.cycle)),
            "{}: {err}",
            case.line
        );
        assert_eq!(*game.position(), case.pos);
        assert_eq!(game.status(), Status::Ongoing);
    }
    assert!(checked >= 30, "{checked}");
}

/// A position whose only candidates are endless has no legal move: the game
/// (or round) ends at once when it starts there.
#[test]
fn only_endless_moves_means_cannot_move() {
    // Rio Kadalis, skip-origin, round 2 (holes are closed only by refills):
    // North's f2 with South's F empty is endless (F2 f0 and F0 f2 alternate)
    // and is North's only move.
    let r = rules(GameId::RioKadalis, Options::new().with(Opt::SkipOrigin));
    let pos = position(
        r,
        "A- B- C- D- E- F0 | a- b- c- d- e- f2",
        [31, 15],
        Side::North,
    );
    assert!(pos.candidates().len() == 1);
    assert!(pos.legal_moves().unwrap().is_empty());
    assert!(!pos.has_legal_move().unwrap());
    let (game, report) = Game::new(pos).unwrap();
    let end = report.round_ends[0];
    assert_eq!(
        (end.round, end.reason, end.holdings),
        (2, EndReason::NoMoves, [31, 17])
    );
    // Both can refill, so round 3 begins with South (North started round 2).
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position().round(), 3);
    assert_eq!(game.position().to_move(), Side::South);
}

// --- Olowuka's feeding rule --------------------------------------------------

#[test]
fn a_move_that_starves_the_opponent_is_refused_when_a_feeding_move_exists() {
    let r = Rules::standard(GameId::Olowuka);
    // North's row is empty. A1 ends in B; F1 reaches a and feeds North.
    let pos = position(
        r,
        "A1 B0 C0 D0 E0 F1 | a0 b0 c0 d0 e0 f0",
        [23, 23],
        Side::South,
    );
    let err = pos.play(mv("A")).unwrap_err();
    assert_eq!(
        err.kind,
        PlayErrorKind::StarvesOpponent {
            hole: Hole::new(Side::South, 0),
            feeding: mv("F"),
        }
    );
    let legal: Vec<Move> = pos.legal_moves().unwrap().iter().collect();
    assert_eq!(legal, vec![mv("F")]);
    let after = finite(pos.play(mv("F")).unwrap());
    assert_eq!(board_text(&after), "A1 B0 C0 D0 E0 F0 | a1 b0 c0 d0 e0 f0");
}

#[test]
fn every_finite_move_is_legal_when_none_feeds() {
    let r = Rules::standard(GameId::Olowuka);
    // A1 ends in B, C1 in D: neither reaches North's empty row.
    let pos = position(
        r,
        "A1 B0 C1 D0 E0 F0 | a0 b0 c0 d0 e0 f0",
        [23, 23],
        Side::South,
    );
    let legal: Vec<Move> = pos.legal_moves().unwrap().iter().collect();
    assert_eq!(legal, vec![mv("A"), mv("C")]);
    let (mut game, _) = Game::new(pos).unwrap();
    // North then cannot move: the game ends, South keeps its row.
    let outcome = game.play(mv("C")).unwrap().outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::NoMoves);
    assert_eq!(outcome.score, [25, 23]);
}

#[test]
fn the_feeding_rule_is_olowukas_only() {
    // The same shape in Rio Kadalis: the starving move is legal.
    let r = Rules::standard(GameId::RioKadalis);
    let pos = position(
        r,
        "A1 B0 C0 D0 E0 F1 | a0 b0 c0 d0 e0 f0",
        [23, 23],
        Side::South,
    );
    assert_eq!(pos.legal_moves().unwrap().len(), 2);
    assert!(pos.play(mv("A")).is_ok());
}

/// A capture that would empty the row keeps the chain's furthest hole, so
/// a capture never starves the opponent — even a one-hole chain into a row
/// that held nothing else captures nothing.
#[test]
fn a_capture_never_starves_the_opponent() {
    let r = Rules::standard(GameId::Olowuka);
    // F1 falls into a (1 -> 2), North's only non-empty hole: capturing it
    // would empty the row, so the one-hole chain captures nothing.
    let pos = position(
        r,
        "A0 B0 C0 D0 E0 F1 | a1 b0 c0 d0 e0 f0",
        [23, 23],
        Side::South,
    );
    let mut trace = Trace::default();
    let after = finite(pos.play_traced(mv("F"), &mut trace).unwrap());
    assert_eq!(trace.captures().count(), 0);
    assert!(trace.events.contains(&Event::GrandSlamLeft {
        hole: Hole::new(Side::North, 0),
        seeds: 2
    }));
    assert_eq!(board_text(&after), "A0 B0 C0 D0 E0 F0 | a2 b0 c0 d0 e0 f0");
    assert_eq!(after.store(Side::South), 23);
}

// --- Olinda Keliya's directions ---------------------------------------------

#[test]
fn the_first_move_must_name_a_direction_and_later_moves_must_not() {
    let start = Position::new(Rules::standard(GameId::OlindaKeliya));
    assert_eq!(start.candidates().len(), 14);
    assert!(start.direction_due());
    let err = start.play(mv("E")).unwrap_err();
    assert_eq!(
        err.kind,
        PlayErrorKind::DirectionRequired {
            hole: Hole::new(Side::South, 4)
        }
    );
    let after = finite(start.play(mv("E:ccw")).unwrap());
    assert!(!after.direction_due());
    assert_eq!(after.candidates().len(), 4);
    // North sows the other way (cw): naming that is accepted, and the
    // canonical notation leaves it out; naming ccw is an error that says
    // which way the move sows.
    let err = after.play(mv("a:ccw")).unwrap_err();
    assert_eq!(
        err.kind,
        PlayErrorKind::DirectionNotAllowed {
            hole: Hole::new(Side::North, 0),
            given: Dir::Ccw,
            sows: Dir::Cw,
            game: GameId::OlindaKeliya,
            chosen_already: true,
        }
    );
    assert_eq!(
        err.to_string(),
        "a sows cw, not ccw (only the first move of olinda-keliya chooses a direction)"
    );
    assert_eq!(
        after.play(mv("a:cw")).unwrap(),
        after.play(mv("a")).unwrap()
    );
    assert_eq!(after.canonical_move(mv("a:cw")), mv("a"));
    assert_eq!(start.canonical_move(mv("E:ccw")), mv("E:ccw"));
}

#[test]
fn other_games_and_same_direction_take_no_direction() {
    for (game, options) in [
        (
            GameId::OlindaKeliya,
            Options::new().with(Opt::SameDirection),
        ),
        (GameId::Olowuka, Options::new()),
        (GameId::Pallankuzhi, Options::new()),
        (GameId::RioKadalis, Options::new().with(Opt::Clockwise)),
    ] {
        let start = Position::new(rules(game, options));
        assert!(!start.direction_due());
        assert!(start.candidates().iter().all(|m| m.dir.is_none()));
        // The direction the game sows in may be named; the other may not.
        let (right, wrong) = match start.dir_of(Side::South) {
            Some(Dir::Cw) => ("A:cw", "A:ccw"),
            _ => ("A:ccw", "A:cw"),
        };
        assert_eq!(
            start.play(mv(right)).unwrap(),
            start.play(mv("A")).unwrap(),
            "{game}"
        );
        assert_eq!(start.canonical_move(mv(right)), mv("A"));
        let err = start.play(mv(wrong)).unwrap_err();
        assert!(
            matches!(err.kind, PlayErrorKind::DirectionNotAllowed { .. }),
            "{game}: {err}"
        );
    }
}

/// The hole that receives the first seed of `m`.
fn first_sown(pos: &Position, m: Move) -> Hole {
    let mut trace = Trace::default();
    pos.play_traced(m, &mut trace).unwrap();
    trace
        .events
        .iter()
        .find_map(|e| match e {
            Event::Sow { hole } => Some(*hole),
            _ => None,
        })
        .unwrap()
}

/// The hole after `hole` on the track, in direction `dir`.
fn neighbour(rules: Rules, hole: Hole, dir: Dir) -> Hole {
    let len = 2 * rules.holes();
    let i = common::index_of(rules, hole);
    let j = match dir {
        Dir::Ccw => (i + 1) % len,
        Dir::Cw => (i + len - 1) % len,
    };
    common::hole_at(rules, j)
}

#[test]
fn the_second_player_sows_the_other_way_and_both_keep_their_direction() {
    let r = Rules::standard(GameId::OlindaKeliya);
    for first in [Dir::Ccw, Dir::Cw] {
        let mut pos = finite(
            Position::new(r)
                .play(Move::with_dir(Hole::new(Side::South, 4), first))
                .unwrap(),
        );
        assert_eq!(pos.south_dir(), Some(first));
        assert_eq!(pos.dir_of(Side::North), Some(first.reverse()));
        // Ten more plies: every move's first seed goes the mover's way.
        for _ in 0..10 {
            let mover = pos.to_move();
            let dir = if mover == Side::South {
                first
            } else {
                first.reverse()
            };
            let Some(m) = pos.legal_moves().unwrap().get(0) else {
                break;
            };
            assert_eq!(first_sown(&pos, m), neighbour(r, m.hole, dir));
            pos = finite(pos.play(m).unwrap());
        }
    }
}

#[test]
fn same_direction_sows_ccw_for_both() {
    let r = rules(
        GameId::OlindaKeliya,
        Options::new().with(Opt::SameDirection),
    );
    let after = finite(Position::new(r).play(mv("E")).unwrap());
    assert_eq!(after.dir_of(Side::North), Some(Dir::Ccw));
    assert_eq!(first_sown(&after, mv("a")), Hole::from_label('b').unwrap());
}

#[test]
fn north_chooses_when_north_starts() {
    let r = Rules::standard(GameId::OlindaKeliya);
    let mut s = mancala_rules::Setup::start(r);
    s.to_move = Side::North;
    let pos = Position::from_setup(r, &s).unwrap();
    assert!(pos.direction_due());
    let after = finite(pos.play(mv("a:ccw")).unwrap());
    assert_eq!(after.dir_of(Side::North), Some(Dir::Ccw));
    assert_eq!(after.south_dir(), Some(Dir::Cw));
}

/// Each direction of a first move is judged on its own: in this set-up
/// (from fixtures/rules/endless.txt) North's g:ccw is endless, g:cw is not.
#[test]
fn each_first_move_direction_is_judged_on_its_own() {
    let case = endless_cases()
        .into_iter()
        .find(|c| c.mv == mv("g:ccw"))
        .expect("the g:ccw case of the fixture");
    let legal = case.pos.legal_moves().unwrap();
    assert!(!legal.contains(mv("g:ccw")));
    assert!(legal.contains(mv("g:cw")));
    assert!(case.pos.play(mv("g:cw")).is_ok());
}
