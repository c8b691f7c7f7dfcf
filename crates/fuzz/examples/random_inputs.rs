//! Without libFuzzer, on stable: throw random inputs at one target (no coverage guidance; a
//! quick smoke run), run one input, or print the program a structured input describes.
//!
//! ```text
//! cargo run -p amber-fuzz --example random_inputs -- TARGET SECONDS [LEN]   # failing inputs go to fuzz/artifacts/<target>/random-<n>
//! cargo run -p amber-fuzz --example random_inputs -- one TARGET FILE
//! cargo run -p amber-fuzz --example random_inputs -- render FILE [durable]
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("vm_structured", String::as_str);
    if name == "one" {
        // one TARGET FILE: run one input, panicking as the target does.
        let data = std::fs::read(&args[3]).unwrap();
        amber_fuzz::target(&args[2]).expect("known target")(&data);
        return;
    }
    if name == "render" {
        // render FILE [durable]: print the program a structured input describes.
        let data = std::fs::read(&args[2]).unwrap();
        let mode = if args.len() > 3 { amber_fuzz::gen::Mode::Durable } else { amber_fuzz::gen::Mode::Plain };
        print!("{}", amber_fuzz::gen::generate(&data, mode).unwrap_or_default());
        return;
    }
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let len: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let target = amber_fuzz::target(name).expect("known target");
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ u64::from(std::process::id());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut runs = 0u64;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/artifacts").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    while Instant::now() < deadline {
        let n = (next(&mut state) as usize) % len + 1;
        let data: Vec<u8> = (0..n).map(|_| next(&mut state) as u8).collect();
        runs += 1;
        if std::panic::catch_unwind(|| target(&data)).is_err() {
            let path = dir.join(format!("random-{runs}"));
            std::fs::write(&path, &data).unwrap();
            eprintln!("FAILED: {}", path.display());
        }
    }
    eprintln!("{name}: {runs} runs in {seconds}s");
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}
