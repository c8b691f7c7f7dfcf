//! Determinism policy: where each nondeterministic surface gets its values (DESIGN §7).
//!
//! | mode | value comes from | journaled | rides the image |
//! |---|---|---|---|
//! | Disabled | — (use throws) | — | — |
//! | Seeded | a seed captured at run start (ChaCha) | the seed only | generator state |
//! | Captured | the host, live | every value | — |
//! | Host | the host, live | no | — (rejected for durable runs) |
//!
//! Per surface, "Seeded" means: `random` — Math.random from a ChaCha stream seeded by the
//! run-start record; `timers` — virtual timers on the logical clock (DESIGN §6), the timer
//! queue rides the image; `fs` — the in-memory VFS, seeded at start (its hash is on the
//! manifest) and riding the image. "Captured" on `clock` is the logical clock of §6: the
//! start time and every host-operation duration are journaled.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{DurableError, Result};

/// Where a surface's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Using the surface throws.
    Disabled,
    /// Derived deterministically from state captured at run start; the state rides the image.
    Seeded,
    /// Taken live from the host, every value journaled.
    Captured,
    /// Taken live from the host, not journaled: not durable.
    Host,
}

impl Mode {
    /// Lower-case name, as in policy JSON.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Disabled => "disabled",
            Mode::Seeded => "seeded",
            Mode::Captured => "captured",
            Mode::Host => "host",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A nondeterministic surface the policy governs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicySurface {
    /// `Math.random`.
    Random,
    /// Cryptographic randomness (`crypto.getRandomValues`, `randomUUID`, key generation).
    Crypto,
    /// `Date.now`, `new Date()`, `performance.now`.
    Clock,
    /// `setTimeout`, `setInterval`.
    Timers,
    /// `node:fs`.
    Fs,
}

impl PolicySurface {
    /// Every surface, in policy order.
    pub const ALL: [PolicySurface; 5] =
        [PolicySurface::Random, PolicySurface::Crypto, PolicySurface::Clock, PolicySurface::Timers, PolicySurface::Fs];

    /// Lower-case name, as in policy JSON.
    pub fn name(self) -> &'static str {
        match self {
            PolicySurface::Random => "random",
            PolicySurface::Crypto => "crypto",
            PolicySurface::Clock => "clock",
            PolicySurface::Timers => "timers",
            PolicySurface::Fs => "fs",
        }
    }
}

impl fmt::Display for PolicySurface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The mode of every surface; recorded on the session and on each image's manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Policy {
    /// `Math.random`.
    pub random: Mode,
    /// Cryptographic randomness.
    pub crypto: Mode,
    /// The clock.
    pub clock: Mode,
    /// Timers.
    pub timers: Mode,
    /// The file system.
    pub fs: Mode,
}

impl Policy {
    /// The durable defaults: random Seeded, crypto Captured, clock Captured, timers virtual
    /// (Seeded), fs the VFS (Seeded).
    pub const fn durable() -> Self {
        Policy {
            random: Mode::Seeded,
            crypto: Mode::Captured,
            clock: Mode::Captured,
            timers: Mode::Seeded,
            fs: Mode::Seeded,
        }
    }

    /// The mode of `surface`.
    pub fn mode(&self, surface: PolicySurface) -> Mode {
        match surface {
            PolicySurface::Random => self.random,
            PolicySurface::Crypto => self.crypto,
            PolicySurface::Clock => self.clock,
            PolicySurface::Timers => self.timers,
            PolicySurface::Fs => self.fs,
        }
    }

    /// This policy with `surface` set to `mode`.
    pub fn with(mut self, surface: PolicySurface, mode: Mode) -> Self {
        let slot = match surface {
            PolicySurface::Random => &mut self.random,
            PolicySurface::Crypto => &mut self.crypto,
            PolicySurface::Clock => &mut self.clock,
            PolicySurface::Timers => &mut self.timers,
            PolicySurface::Fs => &mut self.fs,
        };
        *slot = mode;
        self
    }

    /// The policy with `surface` set to `mode`, both by name (`random`, `captured`), as
    /// `amber run --policy` and a server session's `policy` give them.
    pub fn with_named(self, surface: &str, mode: &str) -> std::result::Result<Self, String> {
        let surface = PolicySurface::ALL
            .into_iter()
            .find(|s| s.name() == surface)
            .ok_or_else(|| format!("unknown surface {surface:?} (random, crypto, clock, timers, fs)"))?;
        let mode = [Mode::Seeded, Mode::Captured, Mode::Disabled, Mode::Host]
            .into_iter()
            .find(|m| m.name() == mode)
            .ok_or_else(|| format!("unknown mode {mode:?} (seeded, captured, disabled)"))?;
        Ok(self.with(surface, mode))
    }

    /// Fails on the first surface in Host mode: its values would not be journaled.
    pub fn ensure_durable_safe(&self) -> Result<()> {
        for surface in PolicySurface::ALL {
            let mode = self.mode(surface);
            if mode == Mode::Host {
                return Err(DurableError::PolicyRejected { surface, mode });
            }
        }
        Ok(())
    }

    /// True if an image made under `self` may be restored under `requested`: every surface
    /// keeps its mode, or is tightened to Disabled (further use throws).
    pub fn is_compatible_with(&self, requested: &Policy) -> bool {
        self.check_compatible(requested).is_ok()
    }

    /// Like [`Policy::is_compatible_with`], naming the first surface that differs.
    pub fn check_compatible(&self, requested: &Policy) -> Result<()> {
        for surface in PolicySurface::ALL {
            let image = self.mode(surface);
            let wanted = requested.mode(surface);
            if image != wanted && wanted != Mode::Disabled {
                return Err(DurableError::PolicyMismatch { surface, image, requested: wanted });
            }
        }
        Ok(())
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy::durable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durable_defaults_are_safe() {
        let policy = Policy::default();
        assert_eq!(policy.random, Mode::Seeded);
        assert_eq!(policy.crypto, Mode::Captured);
        assert_eq!(policy.clock, Mode::Captured);
        policy.ensure_durable_safe().unwrap();
    }

    #[test]
    fn host_mode_is_rejected_naming_the_surface() {
        let policy = Policy::durable().with(PolicySurface::Clock, Mode::Host);
        let err = policy.ensure_durable_safe().unwrap_err();
        assert!(matches!(err, DurableError::PolicyRejected { surface: PolicySurface::Clock, mode: Mode::Host }));
        assert!(err.to_string().contains("clock"));
    }

    #[test]
    fn compatibility_allows_only_same_or_disabled() {
        let image = Policy::durable();
        assert!(image.is_compatible_with(&image));
        assert!(image.is_compatible_with(&image.with(PolicySurface::Fs, Mode::Disabled)));
        let changed = image.with(PolicySurface::Random, Mode::Captured);
        assert!(!image.is_compatible_with(&changed));
        assert!(matches!(
            image.check_compatible(&changed),
            Err(DurableError::PolicyMismatch { surface: PolicySurface::Random, .. })
        ));
    }

    #[test]
    fn json_form_is_lowercase() {
        let json = serde_json::to_string(&Policy::durable()).unwrap();
        assert_eq!(
            json,
            r#"{"random":"seeded","crypto":"captured","clock":"captured","timers":"seeded","fs":"seeded"}"#
        );
        let back: Policy = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Policy::durable());
    }
}
