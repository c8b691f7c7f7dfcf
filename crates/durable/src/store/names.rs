//! Session names: validation, and generated `adjective-noun-NNNN` names.
//!
//! A generated name is a pure function of a per-store counter (kept in the `meta` table and
//! bumped inside the creating transaction) and the Unix time in seconds: the counter picks
//! the number (`counter mod 10000`) and, mixed with the time, the adjective and noun. The
//! store retries with the next counter value while the name is taken, so names are unique
//! within a store; they read like `quiet-otter-0042`.

use crate::error::{DurableError, Result};

/// Longest accepted session name.
pub const MAX_NAME_LEN: usize = 64;

const ADJECTIVES: [&str; 32] = [
    "amber", "brave", "calm", "clever", "crisp", "daring", "eager", "fair", "gentle", "glad", "golden", "humble",
    "jolly", "keen", "kind", "lively", "lucky", "mellow", "merry", "nimble", "patient", "proud", "quick", "quiet",
    "rapid", "silent", "steady", "swift", "tidy", "vivid", "warm", "wise",
];

const NOUNS: [&str; 32] = [
    "badger", "beacon", "brook", "cedar", "comet", "crane", "delta", "ember", "falcon", "fern", "harbor", "heron",
    "island", "lantern", "maple", "meadow", "otter", "owl", "pebble", "pine", "raven", "reef", "river", "robin",
    "sparrow", "spruce", "summit", "thistle", "tide", "willow", "wren", "zephyr",
];

/// The generated name for `counter` at `unix_secs` (see the module doc).
pub fn generate_name(counter: u64, unix_secs: u64) -> String {
    let mixed = splitmix64(counter ^ unix_secs.rotate_left(32));
    let adjective = ADJECTIVES[(mixed % 32) as usize];
    let noun = NOUNS[((mixed >> 16) % 32) as usize];
    format!("{adjective}-{noun}-{:04}", counter % 10_000)
}

/// SplitMix64 finalizer: spreads the counter's bits over the word.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Accepts 1–64 ASCII letters, digits, `-`, `_`, `.`, starting with a letter or digit.
pub fn validate_name(name: &str) -> Result<()> {
    let invalid = |reason| Err(DurableError::InvalidName { name: name.to_string(), reason });
    if name.is_empty() {
        return invalid("it is empty");
    }
    if name.len() > MAX_NAME_LEN {
        return invalid("it is longer than 64 characters");
    }
    if !name.as_bytes()[0].is_ascii_alphanumeric() {
        return invalid("it must start with a letter or digit");
    }
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) {
        return invalid("only letters, digits, '-', '_' and '.' are allowed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_are_valid_and_stable() {
        let name = generate_name(42, 1_700_000_000);
        assert_eq!(name, generate_name(42, 1_700_000_000));
        assert!(name.ends_with("-0042"), "{name}");
        validate_name(&name).unwrap();
        assert_ne!(generate_name(43, 1_700_000_000), name);
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "-x", "a b", "a/b", "é", &"x".repeat(65)] {
            assert!(validate_name(bad).is_err(), "{bad:?}");
        }
        for good in ["a", "run-1", "x.y_z", &"x".repeat(64)] {
            validate_name(good).unwrap();
        }
    }
}
