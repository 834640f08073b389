//! Random rules, set-ups and move sequences (the rules cases of the stable
//! harness, `tests/fuzz.rs`, included below), driven by the input's bytes:
//! positions conserve seeds, the legal moves are the moves `Game::play`
//! accepts, and the record of the game validates.

#![no_main]

#[allow(dead_code)]
#[path = "../../../tests/fuzz.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut seed = [0u8; 8];
    for (i, b) in data.iter().enumerate() {
        seed[i % 8] ^= b.rotate_left(i as u32 / 8);
    }
    let mut rng = fastrand::Rng::with_seed(u64::from_le_bytes(seed));
    if let Err(fail) = harness::check_rules(&mut rng)
        && harness::known(&fail).is_none()
    {
        panic!("{}: {}", fail.key, fail.detail);
    }
});
