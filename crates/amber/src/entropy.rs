//! Crypto randomness per the run's policy (DESIGN §7): the engine's entropy hook
//! ([`Vm::entropy_hook`]) that `crypto.randomBytes`, `randomUUID`, `getRandomValues`, key
//! generation and the rest draw from.
//!
//! - **Captured** (durable default): bytes come from the OS, live, and each draw is journaled
//!   as a `Random` record (`function` "crypto", `args` `{"length": n}`, `result` the bytes as
//!   lower-case hex). Replaying, the draw is served from the next record instead; a record
//!   of another kind or length is a divergence. Inside a live `amber.step` nothing is
//!   journaled: the step's memoized result already covers what it drew.
//! - **Seeded**: ChaCha20 keyed by a seed derived from the run-start seed; the key and word
//!   position ride the image (host state [`SEED_KEY`]).
//! - **Disabled**: every draw throws (and `node:crypto` refuses to load).
//! - **Host**: OS bytes, unjournaled (refused for durable runs by the policy check).

use amber_durable::capability::Capability;
use amber_durable::digest::{sha256, to_hex};
use amber_durable::journal::{CallResult, RecordDraft};
use amber_durable::policy::Mode;
use amber_engine::vm::EntropyHook;
use amber_engine::{Value, Vm};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::json;

use crate::bridge::current_location;
use crate::recorder::with_active;

/// `vm.host_state` entry of the Seeded generator: 32-byte key ‖ 16-byte word position (LE).
pub(crate) const SEED_KEY: &str = "crypto.chacha";
/// `function` of the journal records.
const SOURCE: &str = "crypto";

/// The hook for `mode`.
pub(crate) fn hook_for(mode: Mode) -> EntropyHook {
    match mode {
        Mode::Disabled => disabled,
        Mode::Seeded => seeded,
        Mode::Captured => captured,
        Mode::Host => host,
    }
}

/// The Seeded generator's initial state for a run whose run-start seed is `run_seed`.
pub(crate) fn initial_seeded_state(run_seed: &[u8; 32]) -> Vec<u8> {
    let mut input = b"amber crypto seed\0".to_vec();
    input.extend_from_slice(run_seed);
    let mut state = sha256(&input).to_vec();
    state.extend_from_slice(&0u128.to_le_bytes());
    state
}

fn disabled(_vm: &mut Vm, _buf: &mut [u8]) -> Result<(), String> {
    Err("crypto randomness is disabled by the run's policy (crypto: disabled)".into())
}

fn host(_vm: &mut Vm, buf: &mut [u8]) -> Result<(), String> {
    getrandom::getrandom(buf).map_err(|e| format!("the host has no entropy: {e}"))
}

fn seeded(vm: &mut Vm, buf: &mut [u8]) -> Result<(), String> {
    let Some(state) = vm.host_state.get_mut(SEED_KEY) else {
        return Err("crypto randomness is seeded but the run has no seed".into());
    };
    let (Ok(key), Ok(pos)) =
        (<[u8; 32]>::try_from(state.get(..32).unwrap_or(&[])), <[u8; 16]>::try_from(state.get(32..48).unwrap_or(&[])))
    else {
        return Err("crypto randomness: corrupt generator state".into());
    };
    let mut rng = ChaCha20Rng::from_seed(key);
    rng.set_word_pos(u128::from_le_bytes(pos));
    rng.fill_bytes(buf);
    state.truncate(32);
    state.extend_from_slice(&rng.get_word_pos().to_le_bytes());
    Ok(())
}

fn clock_u64(vm: &Vm) -> u64 {
    if vm.clock_ms.is_finite() && vm.clock_ms > 0.0 {
        vm.clock_ms as u64
    } else {
        0
    }
}

/// Bytes from lowercase or uppercase hex (None if malformed).
pub(crate) fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

fn captured(vm: &mut Vm, buf: &mut [u8]) -> Result<(), String> {
    captured_draw(vm, buf, SOURCE, Capability::CryptoRandom)
}

/// `Math.random` under `random: captured` (DESIGN §7): 53 bits of OS entropy per call, each
/// draw journaled as a `Random` record with `function` "Math.random" (8 bytes, hex) and served
/// from the journal on replay.
pub(crate) fn captured_math_random(vm: &mut Vm, _this: Value, _args: &[Value]) -> amber_engine::JsResult<Value> {
    let mut bytes = [0u8; 8];
    if let Err(message) = captured_draw(vm, &mut bytes, "Math.random", Capability::Random) {
        return Err(vm.type_error(message));
    }
    let bits = u64::from_le_bytes(bytes) >> 11;
    Ok(Value::number(bits as f64 / (1u64 << 53) as f64))
}

/// One draw of `buf.len()` bytes under the Captured mode, journaled under `source`.
fn captured_draw(vm: &mut Vm, buf: &mut [u8], source: &str, capability: Capability) -> Result<(), String> {
    let location = current_location(vm);
    let timestamp = clock_u64(vm);
    let len = buf.len();
    let draft = |value: serde_json::Value| RecordDraft {
        args: json!({ "length": len }),
        ..RecordDraft::random(source, value, timestamp)
    };
    let outcome = with_active(|r| -> Result<(), String> {
        if r.fatal.is_some() {
            return Err("the run is stopping".into());
        }
        if r.step_depth > 0 {
            // Inside a live step: the memoized step result is what replay sees.
            return getrandom::getrandom(buf).map_err(|e| format!("the host has no entropy: {e}"));
        }
        if r.peek().is_some() || r.strict {
            // Replaying: the journal answers (matching checks kind, name and length).
            let served = match r.record(draft(serde_json::Value::Null), Some(&location)) {
                Ok((_, Some(record))) => record,
                Ok((_, None)) => return Err("internal error: no random record served".into()),
                Err(e) => {
                    let message = e.to_string();
                    r.fatal = Some(e);
                    return Err(message);
                }
            };
            let bytes = match &served.result {
                Some(CallResult::Ok(serde_json::Value::String(hex))) => from_hex(hex),
                _ => None,
            };
            match bytes {
                Some(bytes) if bytes.len() == len => {
                    buf.copy_from_slice(&bytes);
                    Ok(())
                }
                _ => {
                    let e = crate::error::Error::Divergence {
                        seq: served.seq,
                        expected: format!("{len} random bytes"),
                        actual: "a random record whose bytes do not match its length".into(),
                        location: Some(location.clone()),
                    };
                    let message = e.to_string();
                    r.fatal = Some(e);
                    Err(message)
                }
            }
        } else {
            getrandom::getrandom(buf).map_err(|e| format!("the host has no entropy: {e}"))?;
            match r.record(draft(json!(to_hex(buf))), Some(&location)) {
                Ok((seq, _)) => {
                    r.ledger.touch(capability, seq);
                    Ok(())
                }
                Err(e) => {
                    let message = e.to_string();
                    r.fatal = Some(e);
                    Err(message)
                }
            }
        }
    });
    outcome.unwrap_or_else(|| Err("crypto randomness needs a running amber Runtime".into()))
}
