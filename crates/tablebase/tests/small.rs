//! Small databases built from scratch and checked, entry by entry,
//! against plain exhaustive search by the rules' own `Game`.

use std::path::PathBuf;

use mancala_rules::{GameId, Options, Position, Rules};
use mancala_tablebase::{Reference, Tablebase, search_at_least, search_margin};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tablebase-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds `rules` up to `seeds`, then checks every exact entry of every
/// layer against search (each position its own fresh game), the full
/// search and the search of the value's two bounds; returns the entries
/// checked by the full search and those resting on the convention.
fn check_all(name: &str, rules: Rules, seeds: u32, node_limit: u64) -> (u64, u64) {
    let dir = fresh_dir(name);
    let tb = Tablebase::build(&dir, rules, seeds, 2, &mut |_| {}).unwrap();
    let (mut checked, mut convention, mut bounded) = (0, 0, 0);
    for k in 0..=seeds {
        for index in 0..tb.layer_len(k) {
            let Some(pos) = tb.position_at(k, index) else {
                continue;
            };
            let entry = tb.entry(&pos).unwrap();
            if !entry.is_exact() {
                convention += 1;
                continue;
            }
            let value = entry.value().unwrap();
            let at_least = search_at_least(&pos, value, node_limit);
            let above = search_at_least(&pos, value + 1, node_limit);
            assert!(
                at_least != Some(false) && above != Some(true),
                "{name} {k}/{index}: {value}, at least it {at_least:?}, above {above:?}: {:?}",
                pos.to_setup()
            );
            if (at_least, above) == (Some(true), Some(false)) {
                bounded += 1;
            }
            let searched = search_margin(&pos, node_limit);
            if let Some(searched) = searched {
                assert_eq!(
                    entry.value(),
                    Some(searched),
                    "{name} {k}/{index}: {:?}",
                    pos.to_setup()
                );
                checked += 1;
            }
        }
    }
    // Proving the value's two bounds stops early: it finishes wherever
    // the full search does, and more often.
    assert!(
        bounded >= checked,
        "{name}: {bounded} bounded, {checked} searched"
    );
    // Opened again from disk, the same entries.
    let reopened = Tablebase::open(&dir, rules).unwrap();
    assert_eq!(reopened.max_seeds(), seeds);
    (checked, convention)
}

#[test]
fn kalah_up_to_five_seeds_matches_search() {
    let (checked, convention) = check_all("kalah", Rules::standard(GameId::Kalah), 5, u64::MAX);
    assert_eq!(convention, 0, "Kalah has no cycles");
    assert!(checked > 6_000, "{checked}");
}

#[test]
fn small_kalah_matches_search() {
    let rules = Rules::new(GameId::Kalah, Options::new().with_holes(3).with_seeds(2)).unwrap();
    let (checked, convention) = check_all("kalah-3", rules, 8, u64::MAX);
    assert_eq!(convention, 0);
    assert!(checked > 1_000, "{checked}");
}

/// The games whose layers may cycle, where plain search (which follows
/// every line to the rules' repetition) is exponential: the exact entries
/// search can finish within a small budget, at up to 3 seeds.
#[test]
fn cycling_games_match_search_where_exact() {
    for game in [
        GameId::Oware,
        GameId::Olowuka,
        GameId::OlindaKeliya,
        GameId::Pallankuzhi,
        GameId::RioKadalis,
    ] {
        let (checked, _) = check_all(game.as_str(), Rules::standard(game), 3, 300);
        assert!(checked > 100, "{game}: {checked} checked");
    }
}

/// Games in progress, their histories grown by random moves from
/// positions of a small database: wherever [`Tablebase::probe_game`] or
/// [`Tablebase::probe_move`] answers, plain search under the game's own
/// history agrees, and [`Tablebase::best_move`]'s move is worth the
/// position's value. Where the history has repeated positions an exact
/// entry can be wrong for the game: some such are found and refused.
#[test]
fn probing_a_game_honours_its_repetition_history() {
    use mancala_rules::Game;
    use mancala_tablebase::search_game;
    const SEEDS: u32 = 3;
    const NODES: u64 = 1_000;
    let mut wrong_if_taken = 0;
    for id in [
        GameId::Oware,
        GameId::Olowuka,
        GameId::OlindaKeliya,
        GameId::Pallankuzhi,
        GameId::RioKadalis,
        GameId::Kalah,
    ] {
        let rules = Rules::standard(id);
        let dir = fresh_dir(&format!("probe-{id}"));
        let tb = Tablebase::build(&dir, rules, SEEDS, 2, &mut |_| {}).unwrap();
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut probed, mut moves, mut differs) = (0, 0, 0);
        for _ in 0..40 {
            let index = rng.u64(0..tb.layer_len(SEEDS));
            let Some(pos) = tb.position_at(SEEDS, index) else {
                continue;
            };
            let Ok((mut game, _)) = Game::new(pos) else {
                continue;
            };
            for _ in 0..10 {
                if game.outcome().is_some() {
                    break;
                }
                let searched = search_game(&game, NODES);
                match tb.probe_game(&game) {
                    Some(v) => {
                        if let Some(s) = searched {
                            assert_eq!(v, s, "{id}: {:?}", game.position().to_setup());
                            probed += 1;
                        }
                    }
                    None => {
                        let entry = tb.entry(game.position());
                        if let (Some(e), Some(s)) = (entry.filter(|e| e.is_exact()), searched) {
                            differs += u32::from(e.value() != Some(s));
                        }
                    }
                }
                if let (Some(best), Some(s)) = (tb.best_move(&game), searched) {
                    assert_eq!(
                        best.value,
                        s,
                        "{id}: best of {:?}",
                        game.position().to_setup()
                    );
                }
                let candidates: Vec<_> = game.position().candidates().iter().collect();
                for &mv in &candidates {
                    let Some(v) = tb.probe_move(&game, mv) else {
                        continue;
                    };
                    let mut after = game.clone();
                    let report = after.play(mv).unwrap();
                    let mover = game.position().to_move();
                    let gained = report.gained[mover.index()] as i32
                        - report.gained[mover.opposite().index()] as i32;
                    let rest = if after.outcome().is_some() || !report.round_ends.is_empty() {
                        None
                    } else {
                        search_game(&after, NODES)
                    };
                    if let Some(rest) = rest {
                        let s = if after.position().to_move() == mover {
                            gained + rest
                        } else {
                            gained - rest
                        };
                        assert_eq!(v, s, "{id}: {mv} in {:?}", game.position().to_setup());
                        moves += 1;
                    }
                }
                let mv = candidates[rng.usize(0..candidates.len())];
                let _ = game.play(mv);
            }
        }
        assert!(
            probed > 10 && (moves > 10 || id == GameId::Oware),
            "{id}: {probed} {moves}"
        );
        wrong_if_taken += differs;
    }
    assert!(
        wrong_if_taken > 0,
        "no history found where an entry is wrong"
    );
}

/// Kalah(m, n) for every n shares Kalah(m, 2)'s database: the seeds a
/// house starts with only set the start. Every position of the layers,
/// set up under `seeds=5` (and the default), probes the built database
/// and gets the value search finds there; other options do not.
#[test]
fn kalah_with_other_seeds_a_house_probes_the_same_database() {
    let built = Rules::new(GameId::Kalah, Options::new().with_holes(3).with_seeds(2)).unwrap();
    let dir = fresh_dir("kalah-3-shared");
    let tb = Tablebase::build(&dir, built, 6, 2, &mut |_| {}).unwrap();
    let five = Rules::new(GameId::Kalah, Options::new().with_holes(3).with_seeds(5)).unwrap();
    let standard = Rules::new(GameId::Kalah, Options::new().with_holes(3)).unwrap();
    let other = Rules::new(
        GameId::Kalah,
        "holes=3 seeds=5 empty-capture".parse::<Options>().unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    for k in 0..=6 {
        for index in 0..tb.layer_len(k) {
            let Some(pos) = tb.position_at(k, index) else {
                continue;
            };
            for rules in [five, standard] {
                let moved = set_up_under(rules, &pos);
                let value = tb.probe(&moved);
                assert_eq!(value, tb.probe(&pos), "{k}/{index}");
                assert_eq!(value, search_margin(&moved, u64::MAX), "{k}/{index}");
                checked += 1;
            }
            let other = set_up_under(other, &pos);
            assert_eq!(tb.probe(&other), None, "{k}/{index}");
        }
    }
    assert!(checked > 1_000, "{checked}");
}

/// `pos` set up under `rules`: the same holes, the seeds the rules add to
/// the game in South's store.
fn set_up_under(rules: Rules, pos: &Position) -> Position {
    let mut setup = pos.to_setup();
    setup.stores[0] += rules.total_seeds() - pos.rules().total_seeds();
    Position::from_setup(rules, &setup).unwrap()
}

/// Builds `rules` up to `seeds` and compares every entry, exact and by the
/// convention, with the reference solver's: the same value, the same
/// flag. Returns the entries compared that are exact and by the
/// convention.
fn reference_all(name: &str, rules: Rules, seeds: u32, mut reference: Reference) -> (u64, u64) {
    let dir = fresh_dir(&format!("reference-{name}"));
    let tb = Tablebase::build(&dir, rules, seeds, 2, &mut |_| {}).unwrap();
    let (mut exact, mut convention) = (0, 0);
    for k in 0..=seeds {
        for index in 0..tb.layer_len(k) {
            let Some(pos) = tb.position_at(k, index) else {
                continue;
            };
            let entry = tb.entry(&pos).unwrap();
            assert_eq!(
                reference.entry(&pos),
                entry,
                "{name} {k}/{index}: {:?}",
                pos.to_setup()
            );
            if entry.is_exact() {
                exact += 1;
            } else {
                convention += 1;
            }
        }
    }
    (exact, convention)
}

/// Every entry of small databases of all six games, convention ones
/// too, agrees with the reference solver (which shares only the rules
/// with the build).
#[test]
fn every_entry_matches_the_reference() {
    for (game, seeds) in [
        (GameId::Kalah, 5),
        (GameId::Oware, 5),
        (GameId::Olowuka, 5),
        (GameId::OlindaKeliya, 5),
        (GameId::Pallankuzhi, 5),
        (GameId::RioKadalis, 6),
    ] {
        let (exact, convention) = reference_all(
            game.as_str(),
            Rules::standard(game),
            seeds,
            Reference::new(),
        );
        assert!(exact > 6_000, "{game}: {exact} exact");
        // Kalah has no cycles; Pallankuzhi's none that matter at 5 seeds.
        let cycles = !matches!(game, GameId::Kalah | GameId::Pallankuzhi);
        assert_eq!(
            convention > 4_000,
            cycles,
            "{game}: {convention} by the convention"
        );
    }
}

/// A reference that keeps few positions, and so forgets them all again
/// and again between questions (Oware to 3 seeds: 1,715 entries, some
/// 700 times), still gives every entry.
#[test]
fn a_reference_that_forgets_agrees_too() {
    let rules = Rules::standard(GameId::Oware);
    let (exact, convention) = reference_all("forgetting", rules, 3, Reference::keeping(100));
    assert!(
        exact > 1_000 && convention > 200,
        "{exact} exact, {convention} by the convention"
    );
}

/// The convention matters, and the reference holds to it: among entries
/// by the convention there are positions whose value under the rules'
/// own repetition ending (plain search from a fresh game, the rows swept
/// where a position recurs) differs from the convention's (an unending
/// play scores 0); there the reference still gives the database's value,
/// so a reference that followed the repetition rule instead would fail
/// [`every_entry_matches_the_reference`].
#[test]
fn the_reference_keeps_the_convention_where_repetition_differs() {
    for game in [GameId::Oware, GameId::OlindaKeliya] {
        let rules = Rules::standard(game);
        let dir = fresh_dir(&format!("convention-{game}"));
        let tb = Tablebase::build(&dir, rules, 3, 2, &mut |_| {}).unwrap();
        let mut reference = Reference::new();
        let (mut differs, mut same) = (0, 0);
        for k in 0..=3 {
            for index in 0..tb.layer_len(k) {
                let Some(pos) = tb.position_at(k, index) else {
                    continue;
                };
                let entry = tb.entry(&pos).unwrap();
                if entry.is_exact() {
                    continue;
                }
                assert_eq!(reference.entry(&pos), entry);
                match search_margin(&pos, 2_000) {
                    Some(v) if Some(v) != entry.value() => differs += 1,
                    Some(_) => same += 1,
                    None => {}
                }
            }
        }
        assert!(
            differs > 0 && same > 0,
            "{game}: {differs} differ, {same} agree"
        );
    }
}
