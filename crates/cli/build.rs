//! Lays out the `amber` binary's code in the order a run touches it.
//!
//! `link-order.txt` (made by `benches/link-order.sh`) lists the functions that starting up and
//! running the benchmark programs execute, most widely used first. Handing it to the linker puts
//! them next to each other, so a run maps a few hundred contiguous pages of code instead of
//! pulling 64 KiB fault-around windows from all over an 11 MB text segment: peak RSS of a small
//! program drops by about 4 MB and start-up is faster. Names missing from the binary (the file
//! went stale, another compiler) are skipped silently; a stale file costs memory, never
//! correctness. Only linkers that take `--symbol-ordering-file` get it: rust-lld, the default
//! for x86_64-unknown-linux-gnu since Rust 1.90 (this workspace needs 1.95). Set
//! `AMBER_LINK_ORDER=0` to link without it (another linker, or to measure the difference).

use std::env;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=link-order.txt");
    println!("cargo:rerun-if-env-changed=AMBER_LINK_ORDER");
    let target = env::var("TARGET").unwrap_or_default();
    let wanted = env::var("AMBER_LINK_ORDER").map_or(true, |v| v != "0");
    let order = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("link-order.txt");
    if wanted && target == "x86_64-unknown-linux-gnu" && order.is_file() {
        println!("cargo:rustc-link-arg-bin=amber=-Wl,--symbol-ordering-file={}", order.display());
        println!("cargo:rustc-link-arg-bin=amber=-Wl,--no-warn-symbol-ordering");
    }
}
