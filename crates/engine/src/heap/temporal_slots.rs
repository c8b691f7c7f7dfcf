//! The internal slots of Temporal objects as plain data (`Class::Temporal`).
//!
//! An image holds these records, never a `temporal_rs` value: epoch nanoseconds as `i128`,
//! ISO fields as small integers, the calendar as its identifier (`"iso8601"`, `"gregory"`…)
//! and the time zone as its identifier (`"Europe/Paris"`) or offset (`"+05:30"`). Temporal's
//! builtins (`builtins/temporal/slots.rs`) convert between these records and `temporal_rs`
//! values, so a provider index or a cache never reaches the heap.

use serde::{Deserialize, Serialize};

/// An ISO 8601 calendar date.
#[derive(Clone, Copy, Serialize, Deserialize, Debug, PartialEq, Eq)]
pub struct IsoDate {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

/// A wall-clock time.
#[derive(Clone, Copy, Serialize, Deserialize, Debug, PartialEq, Eq)]
pub struct IsoTime {
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub millisecond: u16,
    pub microsecond: u16,
    pub nanosecond: u16,
}

/// A duration's ten fields (signed; all of one sign, as `temporal_rs` validated them).
#[derive(Clone, Copy, Serialize, Deserialize, Debug, PartialEq, Eq)]
pub struct DurationFields {
    pub years: i64,
    pub months: i64,
    pub weeks: i64,
    pub days: i64,
    pub hours: i64,
    pub minutes: i64,
    pub seconds: i64,
    pub milliseconds: i64,
    pub microseconds: i128,
    pub nanoseconds: i128,
}

/// The slots of one Temporal object.
#[derive(Clone, Serialize, Deserialize, Debug, PartialEq)]
pub enum TemporalSlots {
    Instant { epoch_ns: i128 },
    ZonedDateTime { epoch_ns: i128, time_zone: String, calendar: String },
    PlainDate { date: IsoDate, calendar: String },
    PlainTime { time: IsoTime },
    PlainDateTime { date: IsoDate, time: IsoTime, calendar: String },
    PlainYearMonth { date: IsoDate, calendar: String },
    PlainMonthDay { date: IsoDate, calendar: String },
    Duration { fields: DurationFields },
}
