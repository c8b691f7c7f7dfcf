//! The capability ledger: which surfaces a run touched, and the journal seq of first touch.
//!
//! Order is deterministic: the ledger is a `BTreeMap` keyed by [`Capability`], whose order is
//! its declaration order, so two runs that touch the same surfaces encode identically.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A surface a program can touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Capability {
    /// Reading the file system.
    FsRead,
    /// Writing the file system.
    FsWrite,
    /// Deleting from the file system.
    FsDelete,
    /// Hashing (`node:crypto` createHash / subtle.digest).
    CryptoHash,
    /// Cryptographic randomness.
    CryptoRandom,
    /// Key generation.
    CryptoKeygen,
    /// Timers.
    Timer,
    /// `queueMicrotask` and promise jobs scheduled by the program.
    Microtask,
    /// Loading a module.
    ModuleLoad,
    /// `amber.call`.
    HostCall,
    /// `amber.input`.
    Input,
    /// `amber.sleep`.
    Sleep,
    /// Reading the clock.
    Clock,
    /// `Math.random`.
    Random,
    /// The network (`fetch`, the `node:http`/`https` clients).
    Net,
}

impl Capability {
    /// Every capability, in ledger order.
    pub const ALL: [Capability; 15] = [
        Capability::FsRead,
        Capability::FsWrite,
        Capability::FsDelete,
        Capability::CryptoHash,
        Capability::CryptoRandom,
        Capability::CryptoKeygen,
        Capability::Timer,
        Capability::Microtask,
        Capability::ModuleLoad,
        Capability::HostCall,
        Capability::Input,
        Capability::Sleep,
        Capability::Clock,
        Capability::Random,
        Capability::Net,
    ];

    /// The stable name (as in JSON and `amber inspect`).
    pub fn name(self) -> &'static str {
        match self {
            Capability::FsRead => "FsRead",
            Capability::FsWrite => "FsWrite",
            Capability::FsDelete => "FsDelete",
            Capability::CryptoHash => "CryptoHash",
            Capability::CryptoRandom => "CryptoRandom",
            Capability::CryptoKeygen => "CryptoKeygen",
            Capability::Timer => "Timer",
            Capability::Microtask => "Microtask",
            Capability::ModuleLoad => "ModuleLoad",
            Capability::HostCall => "HostCall",
            Capability::Input => "Input",
            Capability::Sleep => "Sleep",
            Capability::Clock => "Clock",
            Capability::Random => "Random",
            Capability::Net => "Net",
        }
    }

    /// The capability with this stable name.
    pub fn from_name(name: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|cap| cap.name() == name)
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Surfaces touched by a run, each with the journal seq current at its first touch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CapabilityLedger {
    first_touch: BTreeMap<Capability, u64>,
}

impl CapabilityLedger {
    /// An empty ledger.
    pub fn new() -> Self {
        CapabilityLedger::default()
    }

    /// Records a touch of `capability` at `seq`; returns true if this is its first touch.
    /// A second touch keeps the smaller seq, so the ledger does not depend on report order.
    pub fn touch(&mut self, capability: Capability, seq: u64) -> bool {
        match self.first_touch.get_mut(&capability) {
            Some(first) => {
                *first = (*first).min(seq);
                false
            }
            None => {
                self.first_touch.insert(capability, seq);
                true
            }
        }
    }

    /// The seq of the first touch of `capability`, if it was touched.
    pub fn first_touch(&self, capability: Capability) -> Option<u64> {
        self.first_touch.get(&capability).copied()
    }

    /// True if `capability` was touched.
    pub fn contains(&self, capability: Capability) -> bool {
        self.first_touch.contains_key(&capability)
    }

    /// Touched capabilities with their first-touch seq, in ledger order.
    pub fn iter(&self) -> impl Iterator<Item = (Capability, u64)> + '_ {
        self.first_touch.iter().map(|(cap, seq)| (*cap, *seq))
    }

    /// Number of touched capabilities.
    pub fn len(&self) -> usize {
        self.first_touch.len()
    }

    /// True if nothing was touched.
    pub fn is_empty(&self) -> bool {
        self.first_touch.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_touch_wins_and_order_is_stable() {
        let mut ledger = CapabilityLedger::new();
        assert!(ledger.touch(Capability::Random, 9));
        assert!(ledger.touch(Capability::FsRead, 3));
        assert!(!ledger.touch(Capability::Random, 12));
        assert_eq!(ledger.first_touch(Capability::Random), Some(9));
        assert!(!ledger.contains(Capability::Sleep));
        let order: Vec<_> = ledger.iter().collect();
        assert_eq!(order, vec![(Capability::FsRead, 3), (Capability::Random, 9)]);
        assert_eq!(ledger.len(), 2);
    }

    #[test]
    fn names_round_trip_and_json_uses_names() {
        for cap in Capability::ALL {
            assert_eq!(Capability::from_name(cap.name()), Some(cap));
        }
        let mut ledger = CapabilityLedger::new();
        ledger.touch(Capability::HostCall, 1);
        let json = serde_json::to_string(&ledger).unwrap();
        assert_eq!(json, r#"{"HostCall":1}"#);
        let back: CapabilityLedger = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ledger);
    }
}
