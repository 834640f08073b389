//! Small databases built from scratch and checked, entry by entry,
//! against plain exhaustive search by the rules' own `Game`.

use std::path::PathBuf;

use mancala_rules::{GameId, Options, Position, Rules};
use mancala_tablebase::{Tablebase, search_margin};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tablebase-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds `rules` up to `seeds`, then checks every exact entry of every
/// layer against search (each position its own fresh game); returns the
/// entries checked and those resting on the convention.
fn check_all(name: &str, rules: Rules, seeds: u32, node_limit: u64) -> (u64, u64) {
    let dir = fresh_dir(name);
    let tb = Tablebase::build(&dir, rules, seeds, 2, &mut |_| {}).unwrap();
    let (mut checked, mut convention) = (0, 0);
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
