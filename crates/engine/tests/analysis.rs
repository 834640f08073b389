//! Analysis is consistent with itself and with the game: the best move is
//! worth at least any other at the same depth, an exact value is the margin
//! the game ends with when both sides follow the best moves, and the same
//! depth gives the same analysis.

use fastrand::Rng;
use mancala_engine::analysis::{Analyser, Limit, Value};
use mancala_engine::{play_random, playable_moves};
use mancala_rules::{Game, GameId, Options, Position, Rules};

/// Every game's standard rules and a spread of options, matches of rounds
/// included.
fn all_rules() -> Vec<Rules> {
    let mut out: Vec<Rules> = GameId::ALL.into_iter().map(Rules::standard).collect();
    for (id, opts) in [
        (GameId::OlindaKeliya, "seeds=5 series-capture"),
        (GameId::Olowuka, "play-to-end endless-ends-game"),
        (
            GameId::Pallankuzhi,
            "capture-opposite pasu-to-owner seeds=4",
        ),
        (GameId::Pallankuzhi, "rounds=2"),
        (GameId::RioKadalis, "no-repetition-rule endless-ends-game"),
    ] {
        let options: Options = opts.parse().unwrap();
        out.push(Rules::new(id, options).unwrap());
    }
    out
}

fn start(rules: Rules) -> Game {
    Game::new(Position::new(rules)).unwrap().0
}

/// A game played at random for `plies` plies (or until it ends).
fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Rng::with_seed(seed);
    let mut game = start(rules);
    for _ in 0..plies {
        let before = game.clone();
        if play_random(&mut game, &mut rng).is_none() || game.outcome().is_some() {
            return before;
        }
    }
    game
}

/// A game played at random until at most `seeds` seeds are left on the
/// board in a single-round game (or a round that ends the match), still
/// going on.
fn endgame(rules: Rules, seed: u64, seeds: u32) -> Option<Game> {
    let mut rng = Rng::with_seed(seed);
    let mut game = start(rules);
    while game.position().board_seeds() > seeds {
        play_random(&mut game, &mut rng)?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}

#[test]
fn the_best_move_is_worth_at_least_every_other_at_the_same_depth() {
    for rules in all_rules() {
        for seed in 0..3 {
            let game = random_game(rules, seed, 10 + 15 * seed as usize);
            let mut analyser = Analyser::new(Limit::Depth(5));
            let best = analyser.analyse(&game).unwrap();
            for mv in playable_moves(&game) {
                let review = analyser.review(&game, mv).unwrap();
                assert_eq!(review.analysis.depth, best.depth);
                assert!(
                    review.analysis.value >= review.value,
                    "{rules:?} seed {seed}: best {} ({}) < played {mv} ({})",
                    review.analysis.best,
                    review.analysis.value,
                    review.value
                );
            }
        }
    }
}

#[test]
fn an_exact_value_is_the_margin_the_game_ends_with_under_best_play() {
    let mut solved = 0;
    for rules in all_rules() {
        for seed in 0..6 {
            let Some(mut game) = endgame(rules, seed, 8) else {
                continue;
            };
            let mut analyser = Analyser::new(Limit::Nodes(100_000));
            let Some(Ok(root)) = analyser.solve(&game) else {
                continue;
            };
            solved += 1;
            let mover = game.position().to_move();
            // Both sides play the best move of a fresh solve, to the end
            // of the game, or of the round in a match (a value is exact to
            // the end of the round: the holdings it ends with).
            let mut score = None;
            while score.is_none() {
                let Some(Ok(here)) = analyser.solve(&game) else {
                    panic!("{rules:?} seed {seed}: a position on the best line is not solved");
                };
                let report = game.play(here.best).unwrap();
                score = match (report.round_ends.first(), game.outcome()) {
                    (Some(end), _) => Some(end.holdings),
                    (None, outcome) => outcome.map(|o| o.score),
                };
            }
            let score = score.unwrap();
            let margin = score[mover.index()] as i32 - score[mover.opposite().index()] as i32;
            assert_eq!(
                root.value,
                Value::exact(margin),
                "{rules:?} seed {seed}: line {:?}",
                root.line
            );
        }
    }
    // Solves within the budget are few (see STRENGTH.md), but some.
    assert!(solved >= 3, "only {solved} endgames solved");
}

#[test]
fn an_exact_line_played_out_ends_with_its_value() {
    for rules in all_rules() {
        for seed in 0..6 {
            let Some(game) = endgame(rules, seed, 8) else {
                continue;
            };
            let mut analyser = Analyser::new(Limit::Nodes(100_000));
            let Some(Ok(root)) = analyser.solve(&game) else {
                continue;
            };
            let mover = game.position().to_move();
            let mut end = game.clone();
            for mv in &root.line {
                end.play(*mv).unwrap();
            }
            // The table may not hold the whole line; where it does, the
            // line ends the game with the value.
            if let Some(outcome) = end.outcome() {
                let s = outcome.score;
                let margin = s[mover.index()] as i32 - s[mover.opposite().index()] as i32;
                assert_eq!(root.value, Value::exact(margin), "{rules:?} seed {seed}");
            }
        }
    }
}

#[test]
fn the_same_depth_gives_the_same_analysis() {
    for rules in all_rules() {
        let game = random_game(rules, 7, 20);
        let moves: Vec<_> = playable_moves(&game);
        let run = || {
            let mut analyser = Analyser::new(Limit::Depth(6));
            moves
                .iter()
                .map(|mv| analyser.review(&game, *mv).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run(), "{rules:?}");
    }
}

#[test]
fn values_print_in_whole_seeds() {
    let v = |centiseeds, exact| Value { centiseeds, exact }.to_string();
    assert_eq!(v(300, true), "=+3");
    assert_eq!(v(0, true), "=0");
    assert_eq!(v(-200, true), "=-2");
    assert_eq!(v(225, false), "+2");
    assert_eq!(v(250, false), "+3");
    assert_eq!(v(-50, false), "-1");
    assert_eq!(v(-49, false), "0");
    assert_eq!(v(0, false), "0");
}
