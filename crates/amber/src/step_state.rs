//! What a live `amber.step` may change that its replay must reproduce: the generators.
//!
//! A step is memoized: a replay returns its recorded result without calling its function.
//! Effects a replay could not reproduce are refused inside a live step (VFS writes, timers,
//! host operations: `Vm::refuse_in_pure_step` and the bridge). Randomness is allowed, because
//! libraries draw it freely: `Math.random()` advances the seeded xorshift generator, and
//! seeded crypto randomness (`--policy crypto=seeded`) advances the ChaCha20 position. So that
//! a replay that skips the step continues both sequences where the live run left them, a step
//! that moved either is followed by a `Random` record with function [`STEP_STATE`], parent the
//! step's seq, and result the generators' state after the step; replay applies it. (Captured
//! randomness inside a step is fresh host entropy that is not journaled: the step's result is
//! what replay sees.)

use amber_durable::journal::{CallRecord, CallResult, RecordDraft, RecordKind};
use amber_engine::builtins::math::{random_state, set_random_state};
use amber_engine::Vm;
use serde_json::{json, Value};

use crate::entropy::{from_hex, SEED_KEY};

/// `function` of the record carrying the generator state after a step.
pub(crate) const STEP_STATE: &str = "amber.step.generators";

/// The generators' state at one moment.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Generators {
    math_random: Option<(u64, u64)>,
    crypto_seeded: Option<Vec<u8>>,
}

impl Generators {
    /// The state now.
    pub(crate) fn of(vm: &Vm) -> Generators {
        let crypto_seeded = vm.host_state.iter().find(|(k, _)| k == SEED_KEY).map(|(_, bytes)| bytes.clone());
        Generators { math_random: random_state(vm), crypto_seeded }
    }

    /// The record to journal after the step whose record is at `step_seq`, if the step moved
    /// a generator (`self` is the state after it, `before` the state before).
    pub(crate) fn record_after(&self, before: &Generators, step_seq: u64, timestamp: u64) -> Option<RecordDraft> {
        if self == before {
            return None;
        }
        let state = json!({
            "math_random": self.math_random.map(|(s0, s1)| format!("{s0:016x}{s1:016x}")),
            "crypto_seeded": self.crypto_seeded.as_deref().map(amber_durable::digest::to_hex),
        });
        Some(RecordDraft::random(STEP_STATE, state, timestamp).with_parent(step_seq))
    }
}

/// The draft replay matches a step-state record against (matching ignores results).
pub(crate) fn replay_draft(step_seq: u64, timestamp: u64) -> RecordDraft {
    RecordDraft::random(STEP_STATE, Value::Null, timestamp).with_parent(step_seq)
}

/// True if `record` carries the generator state after the step at `step_seq`.
pub(crate) fn is_state_of(record: &CallRecord, step_seq: u64) -> bool {
    record.kind == RecordKind::Random && record.function == STEP_STATE && record.parent_seq == Some(step_seq)
}

/// Puts the generators in the state a step-state record carries. A field that is absent or
/// malformed (a forged journal) leaves that generator as it is: the run may then differ from
/// the live one, which the replay's state check reports, but nothing here can fail.
pub(crate) fn apply(vm: &mut Vm, record: &CallRecord) {
    let Some(CallResult::Ok(state)) = &record.result else { return };
    if let Some(hex) = state["math_random"].as_str().filter(|h| h.len() == 32 && h.is_ascii()) {
        if let (Ok(s0), Ok(s1)) = (u64::from_str_radix(&hex[..16], 16), u64::from_str_radix(&hex[16..], 16)) {
            set_random_state(vm, (s0, s1));
        }
    }
    if let Some(bytes) = state["crypto_seeded"].as_str().and_then(from_hex) {
        if let Some(entry) = vm.host_state.iter_mut().find(|(k, _)| k == SEED_KEY) {
            if bytes.len() == entry.1.len() {
                entry.1 = bytes;
            }
        }
    }
}
