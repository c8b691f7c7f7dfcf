//! Forged images, systematically: one bit of the seed image's heap payload flipped, the image
//! re-sealed (anyone can recompute a sha256 seal), then restored and run — for every bit of
//! every `AMBER_SWEEP_STRIDE`-th byte (default 53, about 1,100 images; 1 sweeps all ~59,000). Restore must refuse or
//! run within limits; a panic anywhere is a failure (issue 15: 5 panics in 8,046 such images
//! before the verifier checked suspended frames and stack depths).

#[test]
fn every_single_bit_flip_of_a_resealed_payload_is_refused_or_runs() {
    let stride: usize = std::env::var("AMBER_SWEEP_STRIDE").ok().and_then(|s| s.parse().ok()).unwrap_or(53).max(1);
    let target = amber_fuzz::target("snapshot_decode").expect("the target exists");
    let len = amber_fuzz::decode::seed_payload_len();
    assert!(len > 1000, "the seed image has a payload ({len} bytes)");
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut panics = Vec::new();
    let mut runs = 0;
    for at in (0..len).step_by(stride) {
        for bit in 0..8u8 {
            // Mode 0 (payload, re-sealed); one mutation: kind 1 (xor a bit), 3-byte position, bit.
            let input = [0, 1, at as u8, (at >> 8) as u8, (at >> 16) as u8, bit];
            runs += 1;
            if std::panic::catch_unwind(|| target(&input)).is_err() {
                panics.push((at, bit));
            }
        }
    }
    std::panic::set_hook(previous);
    assert!(panics.is_empty(), "{} of {runs} forged images panicked (byte, bit): {panics:?}", panics.len());
    eprintln!("{runs} forged images, none panicked");
}
