//! Any bytes as a stream of records: the reader, the parser, the canonical
//! printer and the validator, with every check of the stable harness
//! (`tests/fuzz.rs`, included below). A check that fails panics, so that
//! libFuzzer keeps the input; bugs already reported (`KNOWN` there) do not.

#![no_main]

#[allow(dead_code)]
#[path = "../../../tests/fuzz.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A short input may stand for a large one (see `expand_bulk`).
    let expanded = harness::expand_bulk(data);
    let data = expanded.as_deref().unwrap_or(data);
    // The checks draw a few choices (buffer sizes, a game limit) from a
    // generator seeded by the input, so that a crash replays exactly.
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    });
    if let Err(fail) = harness::check_bytes(data, &mut fastrand::Rng::with_seed(seed))
        && harness::known(&fail).is_none()
    {
        panic!("{}: {}", fail.key, fail.detail);
    }
});
