//! Small databases built from scratch and checked, entry by entry,
//! against plain exhaustive search by the rules' own `Game`.

use std::path::PathBuf;

use mancala_rules::{GameId, Options, Rules};
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
