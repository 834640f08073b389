//! Every engine plays legal moves, the same seed gives the same game, and the
//! searching players see obvious captures.

use std::time::Duration;

use fastrand::Rng;
use mancala_engine::play_out as random_game_to_end;
use mancala_engine::{
    AlphaBeta, Budget, Greedy, Mcts, Player, PlayerSpec, RandomPlayer, children, play_random,
    playable_moves,
};
use mancala_rules::{Game, GameId, Move, Options, Position, Rules, Setup, Side};

/// The standard rules of every game, and a spread of variant options.
fn all_rules() -> Vec<Rules> {
    let mut out: Vec<Rules> = GameId::ALL.into_iter().map(Rules::standard).collect();
    for (id, opts) in [
        (GameId::OlindaKeliya, "seeds=5 series-capture"),
        (GameId::OlindaKeliya, "same-direction skip-origin"),
        (GameId::Olowuka, "play-to-end endless-ends-game"),
        (
            GameId::Pallankuzhi,
            "capture-opposite pasu-to-owner seeds=4",
        ),
        (GameId::Pallankuzhi, "single-round no-pasu-on-last-seed"),
        (GameId::RioKadalis, "clockwise five-holes"),
        (GameId::RioKadalis, "no-repetition-rule endless-ends-game"),
        (GameId::Pallankuzhi, "rounds=2"),
        (GameId::RioKadalis, "rounds=1 five-holes"),
    ] {
        let options: Options = opts.parse().unwrap();
        out.push(Rules::new(id, options).unwrap());
    }
    out
}

fn start(rules: Rules) -> Game {
    Game::new(Position::new(rules)).unwrap().0
}

/// Games reached by random play from the start, none of them over.
fn random_games(rules: Rules, seed: u64, count: usize) -> Vec<Game> {
    let mut rng = Rng::with_seed(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = start(rules);
        for _ in 0..rng.usize(0..120) {
            if play_random(&mut game, &mut rng).is_none() {
                break;
            }
        }
        if game.outcome().is_none() {
            out.push(game);
        }
    }
    out
}

fn small_engines(seed: u64) -> Vec<Box<dyn Player>> {
    vec![
        Box::new(RandomPlayer::new(seed)),
        Box::new(Greedy::new(seed)),
        Box::new(AlphaBeta::new(Budget::limit(3), seed)),
        Box::new(Mcts::new(Budget::limit(40), seed)),
    ]
}

#[test]
fn every_engine_plays_legal_moves_in_random_positions() {
    for (r, rules) in all_rules().into_iter().enumerate() {
        for (g, game) in random_games(rules, r as u64, 6).into_iter().enumerate() {
            let legal = game.position().legal_moves().unwrap();
            for mut engine in small_engines(g as u64) {
                let mv = engine.choose(&game).unwrap_or_else(|| {
                    panic!("{} found no move in {:?}", engine.name(), game.position())
                });
                assert!(
                    legal.contains(mv),
                    "{} chose illegal {mv} in {:?}",
                    engine.name(),
                    game.position()
                );
                game.clone().play(mv).unwrap();
            }
        }
    }
}

/// `play_out` plays the moves `play_random` plays, a call a ply, with the
/// same generator: the same plies, the same end, the generator left in the
/// same state; a few games in a row on one generator, in every rule set.
#[test]
fn a_playout_is_play_random_again_and_again() {
    for (r, rules) in all_rules().into_iter().enumerate() {
        let mut a = Rng::with_seed(r as u64);
        let mut b = Rng::with_seed(r as u64);
        for _ in 0..8 {
            let mut by_ply = start(rules);
            let mut plies = 0;
            while plies < 3000 && play_random(&mut by_ply, &mut a).is_some() {
                plies += 1;
            }
            let mut played_out = start(rules);
            let n = random_game_to_end(&mut played_out, &mut b, 3000).unwrap();
            let what = format!("{} [{}]", rules.game(), rules.options());
            assert_eq!(n, plies, "{what}");
            assert_eq!(played_out.outcome(), by_ply.outcome(), "{what}");
            assert_eq!(played_out.position(), by_ply.position(), "{what}");
            assert_eq!(a.u64(..), b.u64(..), "{what}");
        }
    }
}

/// Under a lap budget small enough to leave moves undecided, `play_out`
/// either plays `play_random`'s game or stops with the budget's error
/// (where `play_random` would refuse a move for what follows it).
#[test]
fn a_playout_under_a_tiny_lap_budget_is_play_random_or_undecided() {
    let mut agreed = 0;
    for id in GameId::ALL {
        for budget in [2, 4, 8, 16] {
            let rules = Rules::standard(id).with_lap_budget(budget).unwrap();
            let Ok((start, _)) = Game::new(Position::new(rules)) else {
                continue;
            };
            for seed in 0..20 {
                let mut a = Rng::with_seed(seed);
                let mut b = Rng::with_seed(seed);
                let mut by_ply = start.clone();
                let mut plies = 0;
                while plies < 3000 && play_random(&mut by_ply, &mut a).is_some() {
                    plies += 1;
                }
                let mut played_out = start.clone();
                match random_game_to_end(&mut played_out, &mut b, 3000) {
                    Ok(n) => {
                        assert_eq!(n, plies);
                        assert_eq!(played_out.outcome(), by_ply.outcome());
                        assert_eq!(played_out.position(), by_ply.position());
                        agreed += 1;
                    }
                    Err(e) => assert!(
                        matches!(e.kind, mancala_rules::PlayErrorKind::Undecided { .. }),
                        "{e}"
                    ),
                }
            }
        }
    }
    assert!(agreed > 0);
}

/// `Player::play` makes `choose`'s move, as `Game::play` plays it (the
/// random and greedy players play it as they choose it, not sown again):
/// the same moves, reports and games, ply after ply from one seed, in every
/// rule set and under lap budgets small enough to leave moves undecided
/// (where the move chosen may be refused for what follows it).
#[test]
fn playing_a_choice_is_choosing_then_playing_it() {
    let mut rule_sets = all_rules();
    for id in GameId::ALL {
        for budget in [2, 4, 8] {
            rule_sets.push(Rules::standard(id).with_lap_budget(budget).unwrap());
        }
    }
    for (r, rules) in rule_sets.into_iter().enumerate() {
        let Ok((first, _)) = Game::new(Position::new(rules)) else {
            continue;
        };
        let pairs = small_engines(r as u64)
            .into_iter()
            .zip(small_engines(r as u64));
        for (mut choosing, mut playing) in pairs {
            let what = format!("{} [{}] {}", rules.game(), rules.options(), choosing.name());
            let (mut a, mut b) = (first.clone(), first.clone());
            for _ in 0..40 {
                let chosen = choosing.choose(&a);
                let played = playing.play(&mut b);
                assert_eq!(chosen, played.as_ref().map(|p| p.mv), "{what}");
                let (Some(mv), Some(played)) = (chosen, played) else {
                    break;
                };
                let report = a.play(mv);
                assert_eq!(report, played.report, "{what}");
                assert_eq!(a.position(), b.position(), "{what}");
                assert_eq!(a.status(), b.status(), "{what}");
                if report.is_err() || a.outcome().is_some() {
                    break;
                }
            }
        }
    }
}

#[test]
fn no_engine_moves_in_a_finished_game() {
    let rules = Rules::standard(GameId::Olowuka);
    let mut rng = Rng::with_seed(5);
    let mut game = start(rules);
    while play_random(&mut game, &mut rng).is_some() {}
    assert!(game.outcome().is_some());
    assert!(playable_moves(&game).is_empty());
    for mut engine in small_engines(1) {
        assert_eq!(engine.choose(&game), None, "{}", engine.name());
    }
}

/// Plays a whole game (capped) and returns the moves.
fn play_out(rules: Rules, south: &mut dyn Player, north: &mut dyn Player) -> Vec<Move> {
    let mut game = start(rules);
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < 150 {
        let mv = match game.position().to_move() {
            Side::South => south.choose(&game),
            Side::North => north.choose(&game),
        }
        .unwrap();
        game.play(mv).unwrap();
        moves.push(mv);
    }
    moves
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let specs = [
        ("random", "greedy"),
        ("alphabeta:depth=3", "mcts:playouts=30"),
        ("mcts:playouts=30", "random"),
    ];
    for id in GameId::ALL {
        let rules = Rules::standard(id);
        for (a, b) in specs {
            let game = |seed: u64| {
                let mut south = a.parse::<PlayerSpec>().unwrap().build(seed);
                let mut north = b.parse::<PlayerSpec>().unwrap().build(seed + 1);
                play_out(rules, south.as_mut(), north.as_mut())
            };
            assert_eq!(game(11), game(11), "{id}: {a} vs {b}");
        }
        // And the seed matters.
        let game = |seed: u64| {
            play_out(
                rules,
                &mut RandomPlayer::new(seed),
                &mut RandomPlayer::new(seed + 1),
            )
        };
        assert_ne!(game(1), game(3), "{id}");
    }
}

/// rules.md's worked example 3 with stores that make South's D reach 25:
/// D captures 11 and ends the game, F captures 10 and does not; nothing
/// else captures.
fn olowuka_example() -> Game {
    let rules = Rules::standard(GameId::Olowuka);
    let row = |v: [u32; 6]| v.map(Some).to_vec();
    let setup = Setup {
        south: row([3, 0, 1, 2, 0, 5]),
        north: row([1, 1, 1, 1, 1, 2]),
        stores: [14, 16],
        to_move: Side::South,
        south_dir: None,
        round: 1,
        round_starter: None,
    };
    Game::new(Position::from_setup(rules, &setup).unwrap())
        .unwrap()
        .0
}

#[test]
fn greedy_takes_the_largest_immediate_gain() {
    let game = olowuka_example();
    let gains: Vec<(String, i32)> = children(&game)
        .iter()
        .map(|c| (c.mv.to_string(), c.gain))
        .collect();
    assert_eq!(
        gains,
        [("A", 0), ("C", 0), ("D", 11), ("F", 10)].map(|(m, g)| (m.to_owned(), g))
    );
    for seed in 0..20 {
        assert_eq!(
            Greedy::new(seed).choose(&game).map(|m| m.to_string()),
            Some("D".to_owned())
        );
    }
}

#[test]
fn alphabeta_finds_the_obvious_capture() {
    let game = olowuka_example();
    for depth in 1..=AlphaBeta::DEFAULT_DEPTH {
        let mut engine = AlphaBeta::new(Budget::limit(depth), depth.into());
        let info = engine.search(&game).unwrap();
        assert_eq!(info.best.to_string(), "D", "depth {depth}");
        // It is a win, and the search knows it.
        assert!(info.score >= mancala_engine::eval::PROVEN, "depth {depth}");
    }
}

#[test]
fn alphabeta_takes_the_big_pile_in_olinda_keliya() {
    // South sows CCW. A's seed falls in B; C is empty and so is D: nothing.
    // F's seed falls in G; a is empty, so South captures b's 20.
    let rules = Rules::standard(GameId::OlindaKeliya);
    let setup = Setup {
        south: [1, 0, 0, 0, 0, 1, 0].map(Some).to_vec(),
        north: [0, 20, 0, 0, 0, 0, 1].map(Some).to_vec(),
        stores: [16, 17],
        to_move: Side::South,
        south_dir: Some(mancala_rules::Dir::Ccw),
        round: 1,
        round_starter: None,
    };
    let game = Game::new(Position::from_setup(rules, &setup).unwrap())
        .unwrap()
        .0;
    let gains: Vec<(String, i32)> = children(&game)
        .iter()
        .map(|c| (c.mv.to_string(), c.gain))
        .collect();
    assert_eq!(gains, [("A".to_owned(), 0), ("F".to_owned(), 20)]);
    for depth in 1..=AlphaBeta::DEFAULT_DEPTH {
        let mut engine = AlphaBeta::new(Budget::limit(depth), 0);
        assert_eq!(
            engine.choose(&game).unwrap().to_string(),
            "F",
            "depth {depth}"
        );
    }
}

/// In the last round of a match under `rounds=N`, the end of the round is
/// the end of the match: the search proves its result below the root,
/// where without the option the holdings are only an estimate (the match
/// goes on).
#[test]
fn alphabeta_knows_the_match_ends_after_the_last_round() {
    // Rio Kadalis: two stones in South's row, none in North's; the round
    // ends within a few plies, and South holds 30 of the 48 whatever
    // happens.
    let setup = Setup {
        south: [0, 0, 0, 0, 1, 1].map(Some).to_vec(),
        north: [0, 0, 0, 0, 0, 0].map(Some).to_vec(),
        stores: [30, 16],
        to_move: Side::South,
        south_dir: None,
        round: 1,
        round_starter: None,
    };
    let score = |options: &str| {
        let rules = Rules::new(GameId::RioKadalis, options.parse().unwrap()).unwrap();
        let game = Game::new(Position::from_setup(rules, &setup).unwrap())
            .unwrap()
            .0;
        let mut engine = AlphaBeta::new(Budget::limit(6), 0);
        engine.search(&game).unwrap().score
    };
    let proven = mancala_engine::eval::PROVEN;
    assert!(score("rounds=1") >= proven, "{}", score("rounds=1"));
    assert!(score("rounds=2").abs() < proven, "{}", score("rounds=2"));
    assert!(score("").abs() < proven, "{}", score(""));
}

#[test]
fn time_budgets_still_give_legal_moves() {
    for id in GameId::ALL {
        let game = start(Rules::standard(id));
        let legal = game.position().legal_moves().unwrap();
        for spec in ["alphabeta:ms=5", "mcts:ms=5", "alphabeta:depth=64,ms=5"] {
            let mut engine = spec.parse::<PlayerSpec>().unwrap().build(3);
            let mv = engine.choose(&game).unwrap();
            assert!(legal.contains(mv), "{spec} in {id}");
            let info = engine.info().unwrap();
            assert!(info.elapsed < Duration::from_secs(2), "{spec}: {info:?}");
        }
    }
}

#[test]
fn searching_players_beat_random_ones() {
    // A smoke test of strength (STRENGTH.md has the real numbers): a few
    // seeded games per game at small budgets, half of them as North.
    for id in GameId::ALL {
        let rules = Rules::standard(id);
        for seed in 0..4u64 {
            for spec in ["alphabeta:depth=3", "mcts:playouts=100"] {
                let mut engine = spec.parse::<PlayerSpec>().unwrap().build(seed);
                let mut random = RandomPlayer::new(seed + 100);
                let engine_side = if seed % 2 == 0 {
                    Side::South
                } else {
                    Side::North
                };
                let mut game = start(rules);
                while game.outcome().is_none() {
                    let mv = if game.position().to_move() == engine_side {
                        engine.choose(&game)
                    } else {
                        random.choose(&game)
                    };
                    game.play(mv.unwrap()).unwrap();
                }
                let outcome = game.outcome().unwrap();
                assert_eq!(outcome.winner, Some(engine_side), "{id} {spec} seed {seed}");
            }
        }
    }
}
