//! Matches of rounds (Pallankuzhi, Rio Kadalis): refilling, closed holes
//! that reopen, the alternating starter, the end of a match, single-round,
//! and the set-up rules for closed holes.

use crate::common;

use mancala_rules::{
    EndReason, Game, GameId, Opt, Options, Position, Rules, Setup, SetupProblem, Side, Status,
};

use common::{board_text, setup_from};

fn rules(game: GameId, options: Options) -> Rules {
    Rules::new(game, options).unwrap()
}

fn setup(text: &str, stores: [u32; 2], to_move: Side, round: u32) -> Setup {
    Setup {
        round,
        ..setup_from(text, stores, to_move)
    }
}

/// Starts a game at `setup`; the round may end at once.
fn start(rules: Rules, setup: &Setup) -> (Game, mancala_rules::PlayReport) {
    Game::new(Position::from_setup(rules, setup).unwrap()).unwrap()
}

/// Plays random legal moves until the round `round` is over (or the match).
fn finish_round(game: &mut Game, round: u32, rng: &mut fastrand::Rng) {
    while game.outcome().is_none() && game.position().round() == round {
        let legal = game.position().legal_moves().unwrap();
        let mv = legal.get(rng.usize(..legal.len())).unwrap();
        game.play(mv).unwrap();
    }
}

#[test]
fn pallankuzhi_refills_from_the_left_with_six_and_closes_the_rest() {
    let r = rules(GameId::Pallankuzhi, Options::new());
    // South (to move) has no seeds: round 1 ends before any move.
    let (game, report) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G0 | a3 b0 c0 d0 e0 f1 g0",
            [40, 40],
            Side::South,
            1,
        ),
    );
    assert_eq!(report.round_ends.len(), 1);
    let end = report.round_ends[0];
    assert_eq!((end.round, end.reason), (1, EndReason::NoMoves));
    // North takes the 4 seeds of its row.
    assert_eq!(end.holdings, [40, 44]);
    assert_eq!(end.winner, Some(Side::North));
    let pos = game.position();
    assert_eq!(pos.round(), 2);
    // South: 40 = 6 × 6 + 4, G closed; North: 44 = 7 × 6 + 2.
    assert_eq!(
        board_text(pos),
        "A6 B6 C6 D6 E6 F6 G- | a6 b6 c6 d6 e6 f6 g6"
    );
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [4, 2]);
    // The starter alternates even though round 1 had no move.
    assert_eq!(pos.to_move(), Side::North);
    assert_eq!(pos.round_starter(), Side::North);
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn pallankuzhi_refills_with_the_chosen_seed_count() {
    for (seeds, expected, surplus) in [
        (4, "A4 B4 C4 D4 E4 F4 G- | a4 b4 c4 d4 e4 f4 g4", [2, 2]),
        (5, "A5 B5 C5 D5 E- F- G- | a5 b5 c5 d5 e5 f5 g5", [1, 14]),
    ] {
        let r = rules(GameId::Pallankuzhi, Options::new().with_seeds(seeds));
        let total = r.total_seeds();
        // After the sweep South holds 26 (seeds=4: six holes, 2 over) or 21
        // (seeds=5: four holes, 1 over); North holds the rest.
        let south = if seeds == 4 { 26 } else { 21 };
        let (game, _) = start(
            r,
            &setup(
                "A0 B0 C0 D0 E0 F0 G0 | a1 b0 c0 d0 e0 f0 g0",
                [south, total - south - 1],
                Side::South,
                1,
            ),
        );
        let pos = game.position();
        assert_eq!(board_text(pos), expected, "seeds={seeds}");
        assert_eq!(
            [pos.store(Side::South), pos.store(Side::North)],
            surplus,
            "seeds={seeds}"
        );
    }
}

#[test]
fn rio_kadalis_refills_from_the_right_with_four_and_keeps_the_surplus_aside() {
    let r = rules(GameId::RioKadalis, Options::new());
    let (game, report) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 | a2 b0 c3 d0 e0 f0",
            [17, 26],
            Side::South,
            1,
        ),
    );
    // Holdings: winnings and surplus (one counter) plus the row's stones.
    assert_eq!(report.round_ends[0].holdings, [17, 31]);
    let pos = game.position();
    // South: 17 = 4 × 4 + 1, filled F, E, D, C; A and B closed.
    assert_eq!(board_text(pos), "A- B- C4 D4 E4 F4 | a4 b4 c4 d4 e4 f4");
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [1, 7]);
    assert_eq!(pos.to_move(), Side::North);
}

#[test]
fn rio_kadalis_five_holes_refills_five_holes() {
    let r = rules(GameId::RioKadalis, Options::new().with(Opt::FiveHoles));
    assert_eq!(r.total_seeds(), 40);
    let (game, _) = start(
        r,
        &setup("A0 B0 C0 D0 E0 | a0 b1 c0 d0 e0", [9, 30], Side::South, 1),
    );
    let pos = game.position();
    assert_eq!(board_text(pos), "A- B- C- D4 E4 | a4 b4 c4 d4 e4");
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [1, 11]);
}

#[test]
fn closed_holes_reopen_in_a_later_round() {
    let r = rules(GameId::Pallankuzhi, Options::new());
    // Round 2: South plays on A and B only, both empty now; North holds 3.
    let s = setup(
        "A0 B0 C- D- E- F- G- | a3 b0 c0 d0 e0 f0 g0",
        [50, 31],
        Side::South,
        2,
    );
    let (game, report) = start(r, &s);
    assert_eq!(report.round_ends[0].round, 2);
    let pos = game.position();
    assert_eq!(pos.round(), 3);
    // South's 50 fill all seven holes again; North's 34 only five.
    assert_eq!(
        board_text(pos),
        "A6 B6 C6 D6 E6 F6 G6 | a6 b6 c6 d6 e6 f- g-"
    );
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [8, 4]);
    assert!(!pos.is_closed(mancala_rules::Hole::new(Side::South, 6)));
    assert!(pos.is_closed(mancala_rules::Hole::new(Side::North, 5)));

    // Rio Kadalis: closed holes on the left reopen the same way.
    let r = rules(GameId::RioKadalis, Options::new());
    let s = setup(
        "A- B- C- D- E0 F0 | a1 b0 c0 d0 e0 f0",
        [30, 17],
        Side::South,
        4,
    );
    let (game, _) = start(r, &s);
    let pos = game.position();
    assert_eq!(pos.round(), 5);
    assert_eq!(board_text(pos), "A4 B4 C4 D4 E4 F4 | a- b- c4 d4 e4 f4");
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [6, 2]);
}

#[test]
fn the_starter_alternates_from_the_round_starter_of_the_set_up() {
    let r = rules(GameId::Pallankuzhi, Options::new());
    // Round 3, North to move but South started the round.
    let mut s = setup(
        "A0 B0 C0 D0 E0 F0 G0 | a0 b0 c0 d0 e0 f0 g0",
        [40, 44],
        Side::North,
        3,
    );
    s.round_starter = Some(Side::South);
    let (game, report) = start(r, &s);
    assert_eq!(report.round_ends[0].reason, EndReason::NoMoves);
    // Round 4 is started by the player who did not start round 3.
    assert_eq!(game.position().round(), 4);
    assert_eq!(game.position().to_move(), Side::North);
}

/// In random matches the starter of round k is the starter of the first
/// round if k - first is even, the other player otherwise, and the round
/// starts with the starter to move.
#[test]
fn the_starter_alternates_in_random_matches() {
    let mut rng = fastrand::Rng::with_seed(42);
    let mut rounds_seen = 0;
    for game_id in [GameId::Pallankuzhi, GameId::RioKadalis] {
        for _ in 0..20 {
            let (mut game, _) = Game::new(Position::new(Rules::standard(game_id))).unwrap();
            let first = game.position().round_starter();
            let mut round = 1;
            while game.outcome().is_none() {
                let pos = *game.position();
                if pos.round() != round {
                    round = pos.round();
                    rounds_seen += 1;
                    assert_eq!(pos.to_move(), pos.round_starter());
                }
                let expected = if (round - 1) % 2 == 0 {
                    first
                } else {
                    first.opposite()
                };
                assert_eq!(pos.round_starter(), expected);
                finish_round(&mut game, round, &mut rng);
            }
        }
    }
    assert!(rounds_seen > 40, "only {rounds_seen} later rounds");
}

#[test]
fn the_match_ends_when_a_player_cannot_fill_one_hole() {
    let r = rules(GameId::Pallankuzhi, Options::new());
    // After the sweep South holds 5 < 6.
    let (game, report) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G0 | a4 b0 c6 d0 e0 f0 g0",
            [5, 69],
            Side::South,
            1,
        ),
    );
    assert_eq!(report.round_ends.len(), 1);
    assert_eq!(report.round_ends[0].holdings, [5, 79]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::CannotRefill);
    assert_eq!(outcome.score, [5, 79]);
    assert_eq!(outcome.winner, Some(Side::North));
    assert!(game.clone().play("a".parse().unwrap()).is_err());

    // Exactly one hole's worth is enough: the match goes on with one hole.
    let (game, _) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G0 | a4 b0 c6 d0 e0 f0 g0",
            [6, 68],
            Side::South,
            1,
        ),
    );
    assert_eq!(game.status(), Status::Ongoing);
    let pos = game.position();
    assert_eq!(
        board_text(pos),
        "A6 B- C- D- E- F- G- | a6 b6 c6 d6 e6 f6 g6"
    );
    assert_eq!([pos.store(Side::South), pos.store(Side::North)], [0, 36]);

    // Rio Kadalis: fewer than 4 ends the match; North is short here.
    let r = rules(GameId::RioKadalis, Options::new());
    let (game, _) = start(
        r,
        &setup(
            "A1 B0 C0 D0 E0 F0 | a0 b0 c0 d0 e0 f0",
            [44, 3],
            Side::North,
            1,
        ),
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::CannotRefill);
    assert_eq!(outcome.score, [45, 3]);
    assert_eq!(outcome.winner, Some(Side::South));
}

#[test]
fn single_round_ends_the_game_with_the_round() {
    for game_id in [GameId::Pallankuzhi, GameId::RioKadalis] {
        let r = rules(game_id, Options::new().with(Opt::SingleRound));
        let n = r.holes();
        let mut s = Setup::start(r);
        s.south = vec![Some(0); n];
        s.north = vec![Some(0); n];
        s.north[0] = Some(2);
        s.stores = [r.total_seeds() / 2, r.total_seeds() / 2 - 2];
        let (game, report) = start(r, &s);
        assert_eq!(report.round_ends.len(), 1, "{game_id}");
        let outcome = game.outcome().unwrap();
        // The round's own reason, not a refill.
        assert_eq!(outcome.reason, EndReason::NoMoves);
        assert_eq!(outcome.score, [r.total_seeds() / 2, r.total_seeds() / 2]);
        assert_eq!(outcome.winner, None);
        assert_eq!(report.round_ends[0].winner, None);
        // A single-round game has no round 2.
        let mut later = Setup::start(r);
        later.round = 2;
        let problems = later.problems(r);
        assert!(
            problems
                .iter()
                .any(|p| matches!(p, SetupProblem::RoundWithoutRounds { round: 2, .. })),
            "{problems:?}"
        );
    }
}

/// A whole random match under single-round stops after round 1; without it
/// matches go on over several rounds and end by a failed refill.
#[test]
fn random_matches_end_by_refill_or_after_one_round() {
    let mut rng = fastrand::Rng::with_seed(7);
    for game_id in [GameId::Pallankuzhi, GameId::RioKadalis] {
        let mut refill_ends = 0;
        for single in [false, true] {
            let options = if single {
                Options::new().with(Opt::SingleRound)
            } else {
                Options::new()
            };
            for _ in 0..15 {
                let (mut game, _) = Game::new(Position::new(rules(game_id, options))).unwrap();
                let mut ends = 0;
                while game.outcome().is_none() {
                    let legal = game.position().legal_moves().unwrap();
                    let mv = legal.get(rng.usize(..legal.len())).unwrap();
                    ends += game.play(mv).unwrap().round_ends.len();
                }
                let outcome = game.outcome().unwrap();
                if single {
                    assert_eq!(ends, 1);
                    assert_ne!(outcome.reason, EndReason::CannotRefill);
                } else if outcome.reason == EndReason::CannotRefill {
                    refill_ends += 1;
                    let per = Rules::standard(game_id).seeds_per_hole();
                    assert!(outcome.score.iter().any(|&s| s < u32::from(per)));
                }
            }
        }
        assert!(
            refill_ends > 0,
            "{game_id}: no match ended by a failed refill"
        );
    }
}

/// Every position a refill can make (any number of holes per side) gives
/// the starter a finite move, whoever starts and under every sowing option:
/// so a match can never run through rounds without a move for ever (a
/// round with no move can only come from a set-up).
#[test]
fn every_refilled_position_has_a_finite_move() {
    for r in common::sowing_configs() {
        // Refills happen only in matches that go on past round 1.
        if !r.plays_rounds() {
            continue;
        }
        let n = r.holes();
        let per = u32::from(r.seeds_per_hole());
        let row = |open: usize| -> Vec<Option<u32>> {
            (0..n)
                .map(|i| {
                    let is_open = if r.game() == GameId::Pallankuzhi {
                        i < open
                    } else {
                        i >= n - open
                    };
                    is_open.then_some(per)
                })
                .collect()
        };
        for south in 1..=n {
            for north in 1..=n {
                let on_board = (south + north) as u32 * per;
                if on_board > r.total_seeds() {
                    continue;
                }
                for to_move in Side::BOTH {
                    let s = Setup {
                        south: row(south),
                        north: row(north),
                        stores: [r.total_seeds() - on_board, 0],
                        to_move,
                        south_dir: None,
                        // Holes are closed only from round 2 on.
                        round: if south < n || north < n { 2 } else { 1 },
                        round_starter: None,
                    };
                    let pos = Position::from_setup(r, &s).unwrap();
                    let finite = pos.candidates().iter().any(|mv| {
                        matches!(pos.verdict(mv), Ok(mancala_rules::Verdict::Finite { .. }))
                    });
                    assert!(finite, "{} [{}]: {s:?}", r.game(), r.options());
                }
            }
        }
    }
}

#[test]
fn set_ups_put_closed_holes_where_refilling_leaves_them() {
    let pall = Rules::standard(GameId::Pallankuzhi);
    let rio = Rules::standard(GameId::RioKadalis);
    let problems = |r: Rules, text: &str, stores: [u32; 2]| {
        Position::from_setup(r, &setup(text, stores, Side::South, 2))
            .err()
            .map(|e| e.problems)
            .unwrap_or_default()
    };
    // Pallankuzhi: the rightmost holes are the closed ones.
    assert!(problems(pall, "A6 B6 C- D- E- F- G- | a6 b6 c6 d6 e6 f6 g6", [0, 30]).is_empty());
    assert!(matches!(
        problems(pall, "A- B6 C6 D- E- F- G- | a6 b6 c6 d6 e6 f6 g6", [0, 30])[..],
        [SetupProblem::ClosedHolesOrder {
            side: Side::South,
            game: GameId::Pallankuzhi
        }]
    ));
    // Rio Kadalis: the leftmost.
    assert!(problems(rio, "A- B- C4 D4 E4 F4 | a4 b4 c4 d4 e4 f4", [0, 8]).is_empty());
    assert!(matches!(
        problems(rio, "A4 B4 C4 D4 E- F- | a4 b4 c4 d4 e4 f4", [0, 8])[..],
        [SetupProblem::ClosedHolesOrder {
            side: Side::South,
            game: GameId::RioKadalis
        }]
    ));
    // A row needs an open hole; games without rounds have no closed holes.
    assert!(matches!(
        problems(rio, "A- B- C- D- E- F- | a4 b4 c4 d4 e4 f4", [24, 0])[..],
        [SetupProblem::NoOpenHole { side: Side::South }]
    ));
    let olowuka = Rules::standard(GameId::Olowuka);
    let p = Position::from_setup(
        olowuka,
        &Setup {
            round: 1,
            ..setup_from("A- B4 C4 D4 E4 F4 | a4 b4 c4 d4 e4 f4", [4, 0], Side::South)
        },
    )
    .unwrap_err();
    assert!(matches!(
        p.problems[..],
        [SetupProblem::ClosedHoleInGame {
            side: Side::South,
            ..
        }]
    ));
    // Every hole is filled when a match starts: closed holes need round 2+.
    let p = Position::from_setup(
        pall,
        &setup(
            "A6 B6 C- D- E- F- G- | a6 b6 c6 d6 e6 f6 g6",
            [0, 30],
            Side::South,
            1,
        ),
    )
    .unwrap_err();
    assert!(matches!(
        p.problems[..],
        [SetupProblem::ClosedHoleInRoundOne { side: Side::South }]
    ));
    // Only matches have a round starter.
    let mut s = Setup::start(olowuka);
    s.round_starter = Some(Side::North);
    assert!(matches!(
        s.problems(olowuka)[..],
        [SetupProblem::StarterWithoutRounds {
            game: GameId::Olowuka
        }]
    ));
}

#[test]
fn closed_holes_are_skipped_by_sowing_and_never_played() {
    let r = Rules::standard(GameId::Pallankuzhi);
    // South: A, B open; North: a..e open. South's C..G and North's f, g closed.
    let pos = Position::from_setup(
        r,
        &setup(
            "A0 B3 C- D- E- F- G- | a1 b1 c1 d1 e0 f- g-",
            [40, 37],
            Side::South,
            2,
        ),
    )
    .unwrap();
    assert_eq!(pos.candidates().len(), 1);
    let err = pos.play("C".parse().unwrap()).unwrap_err();
    assert!(matches!(
        err.kind,
        mancala_rules::PlayErrorKind::ClosedHole { .. }
    ));
    // B3 sows a, b, c (C..G closed); the hole after c is d (1): relay d1
    // into e; after e comes A (f, g closed), empty: sowing stops, and the
    // pussa takes the hole after A, which is B (emptied): nothing.
    let next = match pos.play("B".parse().unwrap()).unwrap() {
        mancala_rules::Played::Finite { position, .. } => position,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        board_text(&next),
        "A0 B0 C- D- E- F- G- | a2 b2 c2 d0 e1 f- g-"
    );
    assert_eq!(next.store(Side::South), 40);
}

// --- rounds=N ---------------------------------------------------------------

#[test]
fn rounds_option_parses_prints_in_canonical_order_and_refuses_bad_counts() {
    let options: Options = "capture-opposite rounds=05 seeds=5".parse().unwrap();
    assert_eq!(options.rounds(), Some(5));
    assert_eq!(options.to_string(), "seeds=5 rounds=5 capture-opposite");
    assert_eq!(
        "rounds=3".parse::<Options>().unwrap().to_string(),
        "rounds=3"
    );
    assert!(!Options::new().with_rounds(1).is_empty());
    for bad in [
        "rounds=0",
        "rounds=",
        "rounds=-1",
        "rounds=+3",
        "rounds=three",
        "rounds=4294967296",
    ] {
        let e = bad.parse::<Options>().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "bad round count in `{bad}` (expected rounds=N with N from 1 to 4294967295: the match ends after round N)"
            )
        );
    }
    assert_eq!(
        "rounds=3 rounds=4"
            .parse::<Options>()
            .unwrap_err()
            .to_string(),
        "option `rounds` given twice"
    );
    // The unknown-option message lists it.
    let e = "sow-backwards".parse::<Options>().unwrap_err().to_string();
    assert!(
        e.contains("seeds=N, holes=M, rounds=N, same-direction"),
        "{e}"
    );
}

#[test]
fn rounds_option_applies_to_matches_only() {
    for game in [GameId::Olowuka, GameId::OlindaKeliya] {
        let e = Rules::new(game, Options::new().with_rounds(3)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("option `rounds=3` does not apply to {game}")
        );
    }
    for game in [GameId::Pallankuzhi, GameId::RioKadalis] {
        let e = Rules::new(game, Options::new().with_rounds(3).with(Opt::SingleRound)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "options `rounds=3` and `single-round` cannot go together: single-round plays one round and no match, rounds=3 a match of at most 3 rounds"
        );
        let e = Rules::new(game, Options::new().with_rounds(0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option `rounds=0`: a match has at least one round (rounds=N, N >= 1)"
        );
        let r = rules(game, Options::new().with_rounds(1));
        assert_eq!(r.last_round(), Some(1));
        assert!(r.plays_rounds());
        assert_eq!(Rules::standard(game).last_round(), None);
    }
}

#[test]
fn rounds_option_ends_the_match_after_round_n_on_holdings() {
    // Pallankuzhi, rounds=2, round 2, South to move with no seeds: the round
    // ends at once; both could refill, but round 2 was the last. North
    // holds its stores plus its row.
    let r = rules(GameId::Pallankuzhi, Options::new().with_rounds(2));
    let (game, report) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G- | a3 b0 c0 d0 e0 f1 g0",
            [40, 40],
            Side::South,
            2,
        ),
    );
    assert_eq!(report.round_ends.len(), 1);
    assert_eq!(report.round_ends[0].round, 2);
    assert_eq!(report.round_ends[0].reason, EndReason::NoMoves);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::RoundsPlayed);
    assert_eq!(outcome.score, [40, 44]);
    assert_eq!(outcome.winner, Some(Side::North));
    // The board is swept, nothing refilled, the round number unchanged.
    assert_eq!(game.position().round(), 2);
    assert_eq!(game.position().board_seeds(), 0);

    // The same position in round 1 goes on to round 2.
    let (game, report) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G0 | a3 b0 c0 d0 e0 f1 g0",
            [40, 40],
            Side::South,
            1,
        ),
    );
    assert_eq!(report.round_ends.len(), 1);
    assert_eq!(game.status(), Status::Ongoing);
    assert_eq!(game.position().round(), 2);

    // Equal holdings draw the match (Rio Kadalis, rounds=1).
    let r = rules(GameId::RioKadalis, Options::new().with_rounds(1));
    let (game, _) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 | a2 b0 c0 d0 e0 f0",
            [24, 22],
            Side::South,
            1,
        ),
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::RoundsPlayed);
    assert_eq!(outcome.score, [24, 24]);
    assert_eq!(outcome.winner, None);
}

#[test]
fn a_failed_refill_ends_the_match_before_the_round_limit() {
    // After round 3 of rounds=3 South holds 5 < 6: cannot-refill comes first.
    let r = rules(GameId::Pallankuzhi, Options::new().with_rounds(3));
    let (game, _) = start(
        r,
        &setup(
            "A0 B0 C0 D0 E0 F0 G- | a4 b0 c6 d0 e0 f0 g0",
            [5, 69],
            Side::South,
            3,
        ),
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::CannotRefill);
    assert_eq!(outcome.score, [5, 79]);
    assert_eq!(
        r.match_end(3, [5, 79]),
        Some(EndReason::CannotRefill),
        "the order of rules.md"
    );
    assert_eq!(r.match_end(3, [42, 42]), Some(EndReason::RoundsPlayed));
    assert_eq!(r.match_end(2, [42, 42]), None);
    assert_eq!(r.match_end(2, [6, 78]), None);
}

#[test]
fn a_set_up_past_the_last_round_is_refused() {
    let r = rules(GameId::RioKadalis, Options::new().with_rounds(3));
    let mut later = Setup::start(r);
    later.round = 4;
    let problems = later.problems(r);
    assert_eq!(
        problems,
        vec![SetupProblem::RoundPastLast { round: 4, last: 3 }]
    );
    assert_eq!(
        problems[0].to_string(),
        "round 4 given, but the match ends after round 3 (rounds=3)"
    );
    later.round = 3;
    assert_eq!(later.problems(r), vec![]);
}

/// Random matches under rounds=N end by round N, by rounds-played or by a
/// failed refill, and a round's end after round N's is never reported.
#[test]
fn random_matches_with_a_round_limit_end_within_it() {
    let mut rng = fastrand::Rng::with_seed(21);
    for game_id in [GameId::Pallankuzhi, GameId::RioKadalis] {
        let mut played_out = 0;
        for last in 1..=4 {
            for _ in 0..10 {
                let r = rules(game_id, Options::new().with_rounds(last));
                let (mut game, _) = Game::new(Position::new(r)).unwrap();
                let mut ends = Vec::new();
                while game.outcome().is_none() {
                    let legal = game.position().legal_moves().unwrap();
                    let mv = legal.get(rng.usize(..legal.len())).unwrap();
                    ends.extend(game.play(mv).unwrap().round_ends);
                }
                let outcome = game.outcome().unwrap();
                let final_end = *ends.last().unwrap();
                assert!(final_end.round <= last);
                assert_eq!(outcome.score, final_end.holdings);
                match outcome.reason {
                    EndReason::RoundsPlayed => {
                        played_out += 1;
                        assert_eq!(final_end.round, last);
                        let per = u32::from(r.seeds_per_hole());
                        assert!(outcome.score.iter().all(|&s| s >= per));
                    }
                    EndReason::CannotRefill => {}
                    other => panic!("{game_id} rounds={last}: ended by {other}"),
                }
            }
        }
        assert!(
            played_out > 20,
            "{game_id}: only {played_out} matches played out"
        );
    }
}
