//! The run's time zone for Date's local time (ECMA-262 §21.4.1.20–21.4.1.26): LocalTime,
//! UTC and the zone's name in `toString`.
//!
//! The zone is the one configured for the run ([`crate::vm::VmOptions::time_zone`], "UTC"
//! unless the embedder or `amber run --tz` set another), never the host's `TZ`. Offsets come
//! from temporal_rs's compiled time-zone data, the same tables Temporal and
//! Intl.DateTimeFormat read, so the three agree and a run gives the same answers on every
//! machine. UTC, the default, is answered without consulting any table.

use crate::builtins::intl::date_zone_long_name;
use crate::vm::Vm;
use temporal_rs::{TimeZone, ZonedDateTime};

use super::{MAX_TIME, MS_PER_DAY};

/// The run's time zone as Date uses it.
pub(crate) enum SystemZone {
    /// "UTC" (and its aliases): offset 0 everywhere.
    Utc,
    /// A fixed offset in milliseconds ("+05:30").
    Fixed(f64),
    /// An IANA zone, with its identifier as configured.
    Named(TimeZone, String),
}

impl SystemZone {
    /// The run's zone. A zone temporal_rs cannot read (the embedder validates `--tz`, so only
    /// a crafted image gets here) is UTC.
    pub(crate) fn of(vm: &Vm) -> SystemZone {
        let id = vm.options.time_zone.as_str();
        if matches!(id, "UTC" | "Etc/UTC" | "Etc/GMT" | "GMT" | "") {
            return SystemZone::Utc;
        }
        match TimeZone::try_from_identifier_str(id) {
            Ok(TimeZone::UtcOffset(offset)) => {
                let ms = (offset.nanoseconds() / 1_000_000) as f64;
                if ms == 0.0 {
                    SystemZone::Utc
                } else {
                    SystemZone::Fixed(ms)
                }
            }
            Ok(tz) => SystemZone::Named(tz, id.to_string()),
            Err(_) => SystemZone::Utc,
        }
    }

    /// The zone's offset from UTC at the time value `t` (finite), in milliseconds
    /// (GetNamedTimeZoneOffsetNanoseconds / 10⁶, truncated).
    pub(crate) fn offset_at(&self, t: f64) -> f64 {
        match self {
            SystemZone::Utc => 0.0,
            SystemZone::Fixed(ms) => *ms,
            SystemZone::Named(tz, _) => {
                // Within the time value range (LocalTime and UTC ask a day beyond it).
                let ns = i128::from(t.clamp(-MAX_TIME, MAX_TIME) as i64) * 1_000_000;
                ZonedDateTime::try_new_iso(ns, *tz).map(|z| (z.offset_nanoseconds() / 1_000_000) as f64).unwrap_or(0.0)
            }
        }
    }

    /// LocalTime ( t ) (§21.4.1.25): t + the zone's offset at t.
    pub(crate) fn local_time(&self, t: f64) -> f64 {
        if !t.is_finite() {
            return t;
        }
        t + self.offset_at(t)
    }

    /// UTC ( t ) (§21.4.1.26): the time value whose local time is `t`. A local time that
    /// occurs twice (the clocks went back) is the earlier instant; one that is skipped (the
    /// clocks went forward) is read with the offset before the transition.
    pub(crate) fn utc(&self, t: f64) -> f64 {
        if !t.is_finite() {
            return f64::NAN;
        }
        match self {
            SystemZone::Utc => t,
            SystemZone::Fixed(ms) => t - ms,
            SystemZone::Named(..) => {
                // The instants whose local time is t are t - o for the offsets o in effect
                // around t (zones change offset at most once in a day, so the offsets a day
                // either side and at t itself are all there can be) such that the offset at
                // t - o is o. (temporal_rs's own local-to-instant answers are off by an hour
                // around some transitions that are not on the hour — Pacific/Chatham's
                // 03:45 — so only its instant-to-offset answers are used.)
                let before = self.offset_at(t - MS_PER_DAY);
                let earliest = [before, self.offset_at(t), self.offset_at(t + MS_PER_DAY)]
                    .into_iter()
                    .filter(|&o| self.offset_at(t - o) == o)
                    .map(|o| t - o)
                    .fold(f64::INFINITY, f64::min);
                if earliest.is_finite() {
                    earliest
                } else {
                    // In a gap: the offset before the transition.
                    t - before
                }
            }
        }
    }

    /// TimeZoneString ( tv ) (§21.4.4.41.3): "+hhmm (Name)" — the offset at `tv`, and the
    /// zone's long specific name in the run's locale as V8 prints it ("Eastern Daylight
    /// Time"), or "GMT+hh:mm" where the data has no name.
    pub(crate) fn time_zone_string(&self, vm: &Vm, tv: f64) -> String {
        let offset = self.offset_at(tv);
        let minutes = (offset.abs() / 60_000.0).floor() as i64;
        let sign = if offset < 0.0 { '-' } else { '+' };
        let (hh, mm) = (minutes / 60, minutes % 60);
        let name = match self {
            SystemZone::Utc => Some("Coordinated Universal Time".to_string()),
            SystemZone::Fixed(_) => None,
            SystemZone::Named(_, id) => date_zone_long_name(vm, id, tv as i64)
                // Before a zone kept standard time (local mean time, "GMT-04:56:02") CLDR has
                // no name; V8 prints the zone's name anyway, so take the one of 1970.
                .filter(|name| !name.starts_with("GMT"))
                .or_else(|| date_zone_long_name(vm, id, tv.max(0.0) as i64)),
        };
        let name = name.unwrap_or_else(|| format!("GMT{sign}{hh:02}:{mm:02}"));
        format!("{sign}{hh:02}{mm:02} ({name})")
    }
}
