//! What a live `amber.step` may change that its replay must reproduce.
//!
//! A step is memoized: a replay returns its recorded result without calling its function.
//! Effects a replay could not reproduce are refused inside a live step (VFS writes, timers,
//! host operations, loading a module: `Vm::refuse_in_pure_step` and the bridge). What a step
//! may do and a replay must still reach is recorded instead:
//! - Randomness, because libraries draw it freely: `Math.random()` advances the seeded
//!   xorshift generator, and seeded crypto randomness (`--policy crypto=seeded`) advances the
//!   ChaCha20 position. (Captured randomness inside a step is fresh host entropy that is not
//!   journaled: the step's result is what replay sees.)
//! - Reads of the overlay's lower layer: the first lookups of host-folder files and listings
//!   change what the VFS knows (`Vfs::log_lookups`); the capture records they made are in the
//!   journal before the step's record, and repeating the lookups is answered from them.
//! - The node layer's capability flags a read or hash touched first inside the step, and the
//!   builtin modules (`node:crypto`, …) whose bodies the step evaluated first.
//!
//! A step that left any of these behind is followed by a `Random` record with function
//! [`STEP_STATE`] (the name predates the other fields: journals written before keep
//! replaying), parent the step's seq, and the state as its result; replay applies it.

use amber_durable::journal::{CallRecord, CallResult, RecordDraft, RecordKind};
use amber_engine::builtins::math::{random_state, set_random_state};
use amber_engine::vfs::LowerLookup;
use amber_engine::Vm;
use serde_json::{json, Value};

use crate::entropy::{from_hex, SEED_KEY};

/// `function` of the record carrying what a step left behind.
pub(crate) const STEP_STATE: &str = "amber.step.generators";

/// The generators' state at one moment.
#[derive(Clone, PartialEq, Eq)]
struct Generators {
    math_random: Option<(u64, u64)>,
    crypto_seeded: Option<Vec<u8>>,
}

impl Generators {
    /// The state now.
    fn of(vm: &Vm) -> Generators {
        let crypto_seeded = vm.host_state.get(SEED_KEY).map(<[u8]>::to_vec);
        Generators { math_random: random_state(vm), crypto_seeded }
    }
}

/// What a live step started from: taken before its function runs (and the VFS's lookup log
/// started), finished after it.
pub(crate) struct Watch {
    generators: Generators,
    capabilities: Vec<String>,
    builtins: Vec<String>,
}

impl Watch {
    /// Starts watching a live step.
    pub(crate) fn start(vm: &mut Vm) -> Watch {
        vm.vfs.log_lookups();
        Watch {
            generators: Generators::of(vm),
            capabilities: amber_node::capabilities::touched(vm),
            builtins: amber_node::modules::loaded_builtins(vm),
        }
    }

    /// The record to journal after the step whose record is at `step_seq`, if the step left
    /// anything behind (module docs). Ends the VFS's lookup log.
    pub(crate) fn finish(self, vm: &mut Vm, step_seq: u64, timestamp: u64) -> Option<RecordDraft> {
        let lookups = vm.vfs.take_lookups();
        let after = Generators::of(vm);
        let capabilities: Vec<String> =
            amber_node::capabilities::touched(vm).into_iter().filter(|c| !self.capabilities.contains(c)).collect();
        let builtins: Vec<String> =
            amber_node::modules::loaded_builtins(vm).into_iter().filter(|b| !self.builtins.contains(b)).collect();
        if after == self.generators && lookups.is_empty() && capabilities.is_empty() && builtins.is_empty() {
            return None;
        }
        let mut state = json!({
            "math_random": after.math_random.map(|(s0, s1)| format!("{s0:016x}{s1:016x}")),
            "crypto_seeded": after.crypto_seeded.as_deref().map(amber_durable::digest::to_hex),
        });
        if !lookups.is_empty() {
            let lookups: Vec<Value> = lookups
                .iter()
                .map(|l| match l {
                    LowerLookup::Child { dir, name } => json!(["child", dir, name]),
                    LowerLookup::Listing { dir } => json!(["list", dir]),
                })
                .collect();
            state["lookups"] = Value::Array(lookups);
        }
        if !capabilities.is_empty() {
            state["capabilities"] = json!(capabilities);
        }
        if !builtins.is_empty() {
            state["builtins"] = json!(builtins);
        }
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

/// Puts the run in the state a step-state record describes (module docs): the generators,
/// then the builtins, capability flags and lower-layer lookups the step left behind, in the
/// order they were made. A field that is absent or malformed (a forged journal) is passed
/// over, and a lookup or builtin that fails is too: the run may then differ from the live one,
/// which the replay's state check reports, but nothing here can fail.
pub(crate) fn apply(vm: &mut Vm, record: &CallRecord) {
    let Some(CallResult::Ok(state)) = &record.result else { return };
    if let Some(hex) = state["math_random"].as_str().filter(|h| h.len() == 32 && h.is_ascii()) {
        if let (Ok(s0), Ok(s1)) = (u64::from_str_radix(&hex[..16], 16), u64::from_str_radix(&hex[16..], 16)) {
            set_random_state(vm, (s0, s1));
        }
    }
    if let Some(bytes) = state["crypto_seeded"].as_str().and_then(from_hex) {
        if let Some(entry) = vm.host_state.get_mut(SEED_KEY) {
            if bytes.len() == entry.len() {
                *entry = bytes;
            }
        }
    }
    for name in state["builtins"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let _ = amber_node::modules::ensure_builtin_loaded(vm, name);
    }
    for name in state["capabilities"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        amber_node::capabilities::touch(vm, name);
    }
    for lookup in state["lookups"].as_array().into_iter().flatten() {
        let lookup = match (lookup[0].as_str(), lookup[1].as_u64(), lookup[2].as_str()) {
            (Some("child"), Some(dir), Some(name)) => LowerLookup::Child { dir, name: name.to_string() },
            (Some("list"), Some(dir), _) => LowerLookup::Listing { dir },
            _ => continue,
        };
        let _ = vm.vfs.repeat_lookup(&lookup);
    }
}
