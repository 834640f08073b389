//! Properties of whole random games, for every game and any random set of
//! its options: seeds are conserved by every move, every listed legal move
//! plays through `Game::play`, no listed move is endless (unless
//! `endless-ends-game`), unlisted candidates are refused, and games end.

use mancala_rules::{Drawn, Game, GameId, Opt, Played, Position, Rules, Side, Status, Verdict};
use proptest::prelude::*;

use mancala_testkit::{random_rules, random_rules_of, random_start};

/// Generous: natural games end within a few hundred plies, matches of
/// rounds within a few thousand.
const MAX_PLIES: usize = 20_000;

fn total(pos: &Position) -> u32 {
    pos.board_seeds()
        + Side::BOTH
            .iter()
            .map(|s| u32::from(pos.store(*s)))
            .sum::<u32>()
}

/// Checks the position and every candidate move; returns the legal moves.
fn check_position(pos: &Position) -> Result<Vec<mancala_rules::Move>, String> {
    let rules = pos.rules();
    if total(pos) != rules.total_seeds() {
        return Err(format!(
            "{} seeds, expected {}",
            total(pos),
            rules.total_seeds()
        ));
    }
    if Position::from_setup(rules, &pos.to_setup()).as_ref() != Ok(pos) {
        return Err("to_setup / from_setup does not round-trip".to_owned());
    }
    let legal = pos.legal_moves().map_err(|e| e.to_string())?;
    let endless_legal = rules.has(Opt::EndlessEndsGame);
    for mv in pos.candidates().iter() {
        let listed = legal.contains(mv);
        match (pos.verdict(mv).map_err(|e| e.to_string())?, listed) {
            (Verdict::Endless { .. }, true) if !endless_legal => {
                return Err(format!("endless move {mv} listed as legal"));
            }
            (Verdict::Undecided { .. }, _) => {
                return Err(format!("move {mv} undecided in a natural game"));
            }
            _ => {}
        }
        match (pos.play(mv), listed) {
            (Ok(Played::Finite { position, .. }), true) => {
                if total(&position) != rules.total_seeds() {
                    return Err(format!("move {mv} does not conserve seeds"));
                }
            }
            (Ok(Played::Endless { .. }), true) => {}
            (Ok(_), false) => return Err(format!("unlisted move {mv} plays")),
            (Err(e), true) => return Err(format!("listed move {mv} fails: {e}")),
            (Err(_), false) => {}
        }
    }
    if pos.has_legal_move().map_err(|e| e.to_string())? == legal.is_empty() {
        return Err("has_legal_move disagrees with legal_moves".to_owned());
    }
    Ok(legal.iter().collect())
}

/// Plays a random game; every listed move is tried on a copy of the game.
fn random_game(seed: u64, try_every_move: bool) -> Result<(Rules, usize, Status), String> {
    random_game_of(seed, try_every_move, random_rules)
}

/// [`random_game`] with rules drawn by `draw`.
fn random_game_of(
    seed: u64,
    try_every_move: bool,
    draw: fn(&mut fastrand::Rng) -> Rules,
) -> Result<(Rules, usize, Status), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let rules = draw(&mut rng);
    let pos = random_start(&mut rng, rules);
    let (mut game, _) = Game::new(pos).map_err(|e| e.to_string())?;
    let ctx = |plies: usize, e: String| {
        format!(
            "{} [{}], seed {seed}, ply {plies}: {e}",
            rules.game(),
            rules.options()
        )
    };
    for plies in 0..MAX_PLIES {
        if game.outcome().is_some() {
            return Ok((rules, plies, game.status()));
        }
        let pos = *game.position();
        let legal = check_position(&pos).map_err(|e| ctx(plies, e))?;
        if legal.is_empty() {
            return Err(ctx(plies, "game not over, but no legal move".to_owned()));
        }
        if try_every_move {
            for &mv in &legal {
                let mut copy = game.clone();
                let report = copy
                    .play(mv)
                    .map_err(|e| ctx(plies, format!("{mv}: {e}")))?;
                let after = copy.position();
                if total(after) != rules.total_seeds() {
                    return Err(ctx(plies, format!("{mv}: seeds not conserved")));
                }
                if let Some(outcome) = report.outcome {
                    let sum: u32 = outcome.score.iter().sum();
                    if sum != rules.total_seeds() || after.board_seeds() != 0 {
                        return Err(ctx(plies, format!("{mv}: score {:?}", outcome.score)));
                    }
                }
            }
        }
        let mv = legal[rng.usize(..legal.len())];
        game.play(mv)
            .map_err(|e| ctx(plies, format!("{mv}: {e}")))?;
    }
    if game.outcome().is_some() || rules.has(Opt::NoRepetitionRule) {
        Ok((rules, MAX_PLIES, game.status()))
    } else {
        Err(ctx(MAX_PLIES, "the game has not ended".to_owned()))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Seeds are conserved, every listed move plays via `Game::play`, no
    /// listed move is endless, unlisted moves fail, and the game ends.
    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>()) {
        let result = random_game(seed, true);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

/// Many cheaper games (one move per ply tried): every game ends within
/// `MAX_PLIES` unless `no-repetition-rule` lets it run for ever.
#[test]
fn random_games_always_end() {
    let mut longest = 0;
    let mut unfinished = 0;
    for seed in 0..300 {
        let (rules, plies, status) = random_game(seed, false).unwrap_or_else(|e| panic!("{e}"));
        match status {
            Status::Over(outcome) => {
                assert_eq!(outcome.score.iter().sum::<u32>(), rules.total_seeds());
                longest = longest.max(plies);
            }
            Status::Ongoing => {
                assert!(rules.has(Opt::NoRepetitionRule));
                unfinished += 1;
            }
        }
    }
    assert!(longest > 0);
    // Without the repetition rule a random game can shuttle for ever; the
    // seeds above give a few such games, and they stay unfinished.
    assert!(unfinished < 300 / 4, "{unfinished} unfinished games");
}

/// A random game's moves, played by `Game::play`.
fn random_moves(rng: &mut fastrand::Rng, start: Position) -> Vec<mancala_rules::Move> {
    let (mut game, _) = Game::new(start).unwrap();
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < 2_000 {
        let legal = game.position().legal_moves().unwrap();
        let mv = legal.get(rng.usize(..legal.len())).unwrap();
        game.play(mv).unwrap();
        moves.push(mv);
    }
    moves
}

/// A random game drawn from `seed`: its rules, its start and its moves,
/// with the generator that drew them, for more draws.
fn random_record(
    seed: u64,
    draw: fn(&mut fastrand::Rng) -> Rules,
) -> (fastrand::Rng, Rules, Position, Vec<mancala_rules::Move>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let rules = draw(&mut rng);
    let start = random_start(&mut rng, rules);
    let moves = random_moves(&mut rng, start);
    (rng, rules, start, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `Game::play` (whose fast lane sows a legal finite move once, its
    /// shape checked in a few steps) gives exactly what the full rules give
    /// (`play_traced` with a trace, which never takes the fast lane):
    /// reports, positions, errors and the end. Now and then a wrong move is
    /// played too, which both must refuse alike.
    #[test]
    fn the_fast_lane_is_the_full_rules(seed in any::<u64>()) {
        the_fast_lane_is_the_full_rules_case(seed, random_rules)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `Game::play_unsettled` (the validator's lean entry) agrees with
    /// `Game::play` on every move it plays: the same gains, position and
    /// end, and the same game once settled at any point. Where `play` ends
    /// a round of a match (as a record's round marker says), settling
    /// reports the same round ends, and the game goes on in the same next
    /// round. A wrong move now and then: whatever it accepts, `play`
    /// accepts alike. It leaves only endless moves to `play` (the random
    /// games have no undecided ones), so where endless moves are illegal it
    /// plays every ply.
    #[test]
    fn unsettled_play_is_play(seed in any::<u64>()) {
        unsettled_play_is_play_case(seed, random_rules)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Along random games: the candidates are every non-empty open hole of
    /// the side to move, in hole order (both directions when one is due);
    /// `has_legal_move` (which only sows) answers as `first_playable`
    /// does, errors alike; `Position::play` (the fast lane first) gives
    /// exactly what the full rules give for every candidate; and drawing
    /// candidates with `swap_remove` yields each once.
    #[test]
    fn move_generation_is_the_full_rules(seed in any::<u64>()) {
        let (mut rng, _, start, moves) = random_record(seed, random_rules);
        let (mut game, _) = Game::new(start).unwrap();
        let mut trace = mancala_rules::Trace::default();
        for mv in moves {
            let pos = *game.position();
            let mut expected = Vec::new();
            for i in 0..pos.rules().holes() as u8 {
                let hole = mancala_rules::Hole::new(pos.to_move(), i);
                if pos.seeds(hole).is_some_and(|s| s > 0) {
                    if pos.direction_due() {
                        expected.push(mancala_rules::Move::with_dir(hole, mancala_rules::Dir::Ccw));
                        expected.push(mancala_rules::Move::with_dir(hole, mancala_rules::Dir::Cw));
                    } else {
                        expected.push(mancala_rules::Move::new(hole));
                    }
                }
            }
            let mut candidates = pos.candidates();
            prop_assert_eq!(candidates.iter().collect::<Vec<_>>(), expected.clone());
            prop_assert_eq!(
                pos.has_legal_move(),
                pos.first_playable(None).map(|found| found.is_some())
            );
            for candidate in candidates.iter() {
                prop_assert_eq!(pos.play(candidate), pos.play_traced(candidate, &mut trace));
            }
            let mut drawn = Vec::new();
            while !candidates.is_empty() {
                drawn.push(candidates.swap_remove(rng.usize(..candidates.len())));
            }
            drawn.sort_by_key(|m| (m.hole.index, m.dir.map(|d| d as u8)));
            prop_assert_eq!(drawn, expected);
            game.play(mv).unwrap();
        }
    }
}

/// The body of `the_fast_lane_is_the_full_rules`, for rules drawn by `draw`.
fn the_fast_lane_is_the_full_rules_case(
    seed: u64,
    draw: fn(&mut fastrand::Rng) -> Rules,
) -> Result<(), TestCaseError> {
    let (mut rng, rules, start, moves) = random_record(seed, draw);
    let (mut full, opening) = Game::new(start).unwrap();
    let (mut fast, fast_opening) = Game::new(start).unwrap();
    prop_assert_eq!(opening, fast_opening);
    let mut trace = mancala_rules::Trace::default();
    for (i, &mv) in moves.iter().enumerate() {
        if rng.u8(..20) == 0 {
            let wrong = moves[rng.usize(..moves.len())];
            let a = full.clone().play_traced(wrong, &mut trace);
            let b = fast.clone().play(wrong);
            prop_assert_eq!(a, b, "wrong move {} at ply {}", wrong, i + 1);
        }
        let a = full.play_traced(mv, &mut trace);
        let b = fast.play(mv);
        prop_assert_eq!(
            &a,
            &b,
            "{} [{}] ply {}: {}",
            rules.game(),
            rules.options(),
            i + 1,
            mv
        );
        prop_assert_eq!(full.position(), fast.position());
        prop_assert_eq!(full.status(), fast.status());
    }
    if let Some(&extra) = moves.first() {
        prop_assert_eq!(full.play_traced(extra, &mut trace), fast.play(extra));
    }
    Ok(())
}

/// The body of `unsettled_play_is_play`, for rules drawn by `draw`.
fn unsettled_play_is_play_case(
    seed: u64,
    draw: fn(&mut fastrand::Rng) -> Rules,
) -> Result<(), TestCaseError> {
    let (mut rng, rules, start, moves) = random_record(seed, draw);
    let (mut game, opening) = Game::new(start).unwrap();
    let mut lean = Game::start(start);
    let settled = lean.settle().unwrap();
    prop_assert_eq!(&settled, &opening);
    prop_assert_eq!(lean.position(), game.position());
    // Random playouts' lane where no position repeats (Kalah; elsewhere
    // it is `play_unsettled`): the same game as `lean`, move by move.
    let mut unrepeated = lean.clone();
    let mut unsettled = 0;
    for (i, &mv) in moves.iter().chain(moves.first()).enumerate() {
        if rng.u8(..10) == 0 {
            let wrong = moves[rng.usize(..moves.len())];
            let mut copy = lean.clone();
            let played = copy.play_unsettled(wrong);
            let mut copy_unrepeated = unrepeated.clone();
            prop_assert_eq!(copy_unrepeated.play_unsettled_unrepeated(wrong), played);
            prop_assert_eq!(copy_unrepeated.position(), copy.position());
            if let Some(gained) = played {
                let report = game.clone().play(wrong);
                prop_assert!(
                    report.is_ok(),
                    "wrong move {} at ply {} accepted",
                    wrong,
                    i + 1
                );
                prop_assert_eq!(report.unwrap().gained, gained);
            }
        }
        // Random playouts' draw (`play_drawn_*`): the move drawn by its
        // index among the candidates, played as `play_unsettled` plays it.
        let candidates = unrepeated.position().candidates();
        let drawn_index = candidates.iter().position(|c| c == mv);
        let (mut drawn, mut drawn_unsettled) = (unrepeated.clone(), lean.clone());
        let played = lean.play_unsettled(mv);
        prop_assert_eq!(unrepeated.play_unsettled_unrepeated(mv), played);
        prop_assert_eq!(unrepeated.position(), lean.position());
        prop_assert_eq!(unrepeated.ended_unsettled(), lean.ended_unsettled());
        if let Some(index) = drawn_index {
            let mut asked = None;
            let result = drawn.play_drawn_unrepeated(|n| {
                asked = Some(n);
                index
            });
            prop_assert_eq!(asked, Some(candidates.len()));
            let unsettled_result = drawn_unsettled.play_drawn_unsettled(|_| index);
            for (game, result, after) in [
                (&drawn, result, &unrepeated),
                (&drawn_unsettled, unsettled_result, &lean),
            ] {
                match result {
                    Drawn::Played => {
                        prop_assert!(played.is_some());
                        prop_assert_eq!(game.position(), after.position());
                        prop_assert_eq!(game.ended_unsettled(), after.ended_unsettled());
                    }
                    Drawn::Refused {
                        candidates: listed,
                        index: at,
                    } => {
                        prop_assert!(played.is_none());
                        prop_assert_eq!((listed.get(at), at), (Some(mv), index));
                    }
                    Drawn::NoCandidate => prop_assert!(false, "a candidate was there to draw"),
                }
            }
        } else if candidates.is_empty() {
            let result = drawn.play_drawn_unrepeated(|_| unreachable!("nothing to draw"));
            prop_assert!(matches!(result, Drawn::NoCandidate));
        }
        let Some(gained) = played else {
            // What it leaves, `play` settles and rules on alike.
            let a = game.play(mv);
            let b = lean.play(mv);
            prop_assert_eq!(&unrepeated.play(mv), &b);
            prop_assert_eq!(
                &a,
                &b,
                "{} [{}] ply {}: {}",
                rules.game(),
                rules.options(),
                i + 1,
                mv
            );
            prop_assert_eq!(lean.position(), game.position());
            prop_assert_eq!(lean.status(), game.status());
            if a.is_err() {
                break;
            }
            continue;
        };
        unsettled += 1;
        let report = game.play(mv);
        prop_assert!(
            report.is_ok(),
            "{} [{}] ply {}: {} accepted",
            rules.game(),
            rules.options(),
            i + 1,
            mv
        );
        let report = report.unwrap();
        prop_assert_eq!(report.gained, gained);
        if !report.round_ends.is_empty() || report.outcome.is_some() || rng.u8(..8) == 0 {
            let ended = lean.settle().unwrap();
            prop_assert_eq!(&unrepeated.settle().unwrap(), &ended);
            prop_assert_eq!(unrepeated.position(), lean.position());
            prop_assert_eq!(&ended.round_ends, &report.round_ends);
            prop_assert_eq!(ended.outcome, report.outcome);
            prop_assert_eq!(lean.position(), game.position());
            prop_assert_eq!(lean.status(), game.status());
            continue;
        }
        // A game that cannot go on is over in `play` at once (rows
        // swept), in the lean replay only once settled.
        if game.status() == Status::Ongoing {
            prop_assert_eq!(lean.position(), game.position());
        }
    }
    if !rules.has(Opt::EndlessEndsGame) {
        prop_assert!(
            unsettled >= moves.len(),
            "{} of {} plies unsettled",
            unsettled,
            moves.len()
        );
    }
    Ok(())
}

/// Kalah and Oware, which the reference model does not play: rules drawn
/// from them alone (`holes=M` and their options included).
fn family_rules(rng: &mut fastrand::Rng) -> Rules {
    random_rules_of(rng, &[GameId::Kalah, GameId::Oware])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The invariants of `random_games_keep_every_invariant`, in Kalah and
    /// Oware: seeds conserved, every listed move plays, the game ends.
    #[test]
    fn kalah_and_oware_keep_every_invariant(seed in any::<u64>()) {
        let result = random_game_of(seed, true, family_rules);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }

    /// The fast lanes are the full rules in Kalah and Oware too.
    #[test]
    fn kalah_and_oware_fast_lanes_are_the_full_rules(seed in any::<u64>()) {
        the_fast_lane_is_the_full_rules_case(seed, family_rules)?;
        unsettled_play_is_play_case(seed, family_rules)?;
    }
}
