//! Temporal objects' slots (`heap/temporal_slots.rs`, plain data) to and from `temporal_rs`
//! values: each operation rebuilds the `temporal_rs` value from the record
//! ([`TemporalSlots`]'s `to_*` methods) and stores its result back as a record, so a provider
//! index or a cache never reaches the heap.

use std::str::FromStr;

use temporal_rs::options::Overflow;
use temporal_rs::{
    Calendar, Duration, Instant, PlainDate, PlainDateTime, PlainMonthDay, PlainTime, PlainYearMonth, TemporalError,
    TemporalResult, TimeZone, ZonedDateTime,
};

pub use crate::heap::temporal_slots::{DurationFields, IsoDate, IsoTime, TemporalSlots};

/// The calendar named by a stored identifier.
pub fn calendar_of(id: &str) -> TemporalResult<Calendar> {
    Calendar::from_str(id)
}

/// The time zone named by a stored identifier or offset.
pub fn time_zone_of(id: &str) -> TemporalResult<TimeZone> {
    TimeZone::try_from_identifier_str(id)
}

/// The stored form of a time zone.
pub fn time_zone_id(tz: &TimeZone) -> TemporalResult<String> {
    tz.identifier()
}

/// The ISO date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> IsoDate {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    IsoDate { year: year as i32, month, day }
}

/// The ISO date whose UTC midnight is `epoch_ns`.
fn iso_date_at(epoch_ns: i128) -> IsoDate {
    let days = epoch_ns.div_euclid(86_400_000_000_000) as i64;
    civil_from_days(days)
}

impl IsoDate {
    fn of_date(d: &PlainDate) -> IsoDate {
        iso_date_at(d.epoch_ns_for_utc().as_i128())
    }
}

impl IsoTime {
    fn of(t: &PlainTime) -> IsoTime {
        IsoTime {
            hour: t.hour(),
            minute: t.minute(),
            second: t.second(),
            millisecond: t.millisecond(),
            microsecond: t.microsecond(),
            nanosecond: t.nanosecond(),
        }
    }
    fn to_time(self) -> TemporalResult<PlainTime> {
        PlainTime::try_new(self.hour, self.minute, self.second, self.millisecond, self.microsecond, self.nanosecond)
    }
}

fn wrong_kind() -> TemporalError {
    TemporalError::r#type().with_message("invariant: Temporal slots of another kind")
}

impl TemporalSlots {
    pub fn of_instant(i: &Instant) -> Self {
        TemporalSlots::Instant { epoch_ns: i.epoch_nanoseconds().as_i128() }
    }
    pub fn of_zoned(z: &ZonedDateTime) -> TemporalResult<Self> {
        Ok(TemporalSlots::ZonedDateTime {
            epoch_ns: z.epoch_nanoseconds().as_i128(),
            time_zone: time_zone_id(z.time_zone())?,
            calendar: z.calendar().identifier().to_string(),
        })
    }
    pub fn of_date(d: &PlainDate) -> Self {
        TemporalSlots::PlainDate { date: IsoDate::of_date(d), calendar: d.calendar().identifier().to_string() }
    }
    pub fn of_time(t: &PlainTime) -> Self {
        TemporalSlots::PlainTime { time: IsoTime::of(t) }
    }
    pub fn of_date_time(dt: &PlainDateTime) -> Self {
        TemporalSlots::PlainDateTime {
            date: IsoDate::of_date(&dt.to_plain_date()),
            time: IsoTime::of(&dt.to_plain_time()),
            calendar: dt.calendar().identifier().to_string(),
        }
    }
    pub fn of_year_month(ym: &PlainYearMonth) -> Self {
        TemporalSlots::PlainYearMonth {
            date: iso_date_at(ym.epoch_ns_for_utc().as_i128()),
            calendar: ym.calendar().identifier().to_string(),
        }
    }
    pub fn of_month_day(md: &PlainMonthDay) -> Self {
        TemporalSlots::PlainMonthDay {
            date: IsoDate { year: md.iso.year, month: md.iso.month, day: md.iso.day },
            calendar: md.calendar().identifier().to_string(),
        }
    }
    pub fn of_duration(d: &Duration) -> Self {
        TemporalSlots::Duration {
            fields: DurationFields {
                years: d.years(),
                months: d.months(),
                weeks: d.weeks(),
                days: d.days(),
                hours: d.hours(),
                minutes: d.minutes(),
                seconds: d.seconds(),
                milliseconds: d.milliseconds(),
                microseconds: d.microseconds(),
                nanoseconds: d.nanoseconds(),
            },
        }
    }

    pub fn to_instant(&self) -> TemporalResult<Instant> {
        match self {
            TemporalSlots::Instant { epoch_ns } => Instant::try_new(*epoch_ns),
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_zoned(&self) -> TemporalResult<ZonedDateTime> {
        match self {
            TemporalSlots::ZonedDateTime { epoch_ns, time_zone, calendar } => {
                ZonedDateTime::try_new(*epoch_ns, time_zone_of(time_zone)?, calendar_of(calendar)?)
            }
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_date(&self) -> TemporalResult<PlainDate> {
        match self {
            TemporalSlots::PlainDate { date, calendar } => {
                PlainDate::try_new(date.year, date.month, date.day, calendar_of(calendar)?)
            }
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_time(&self) -> TemporalResult<PlainTime> {
        match self {
            TemporalSlots::PlainTime { time } => time.to_time(),
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_date_time(&self) -> TemporalResult<PlainDateTime> {
        match self {
            TemporalSlots::PlainDateTime { date, time, calendar } => PlainDateTime::try_new(
                date.year,
                date.month,
                date.day,
                time.hour,
                time.minute,
                time.second,
                time.millisecond,
                time.microsecond,
                time.nanosecond,
                calendar_of(calendar)?,
            ),
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_year_month(&self) -> TemporalResult<PlainYearMonth> {
        match self {
            TemporalSlots::PlainYearMonth { date, calendar } => PlainYearMonth::new_with_overflow(
                date.year,
                date.month,
                Some(date.day),
                calendar_of(calendar)?,
                Overflow::Reject,
            ),
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_month_day(&self) -> TemporalResult<PlainMonthDay> {
        match self {
            TemporalSlots::PlainMonthDay { date, calendar } => PlainMonthDay::new_with_overflow(
                date.month,
                date.day,
                calendar_of(calendar)?,
                Overflow::Reject,
                Some(date.year),
            ),
            _ => Err(wrong_kind()),
        }
    }
    pub fn to_duration(&self) -> TemporalResult<Duration> {
        match self {
            TemporalSlots::Duration { fields: f } => Duration::new(
                f.years,
                f.months,
                f.weeks,
                f.days,
                f.hours,
                f.minutes,
                f.seconds,
                f.milliseconds,
                f.microseconds,
                f.nanoseconds,
            ),
            _ => Err(wrong_kind()),
        }
    }

    /// The calendar identifier of a calendar-carrying kind.
    pub fn calendar_id(&self) -> Option<&str> {
        match self {
            TemporalSlots::ZonedDateTime { calendar, .. }
            | TemporalSlots::PlainDate { calendar, .. }
            | TemporalSlots::PlainDateTime { calendar, .. }
            | TemporalSlots::PlainYearMonth { calendar, .. }
            | TemporalSlots::PlainMonthDay { calendar, .. } => Some(calendar),
            TemporalSlots::Instant { .. } | TemporalSlots::PlainTime { .. } | TemporalSlots::Duration { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_from_days_matches_known_dates() {
        assert_eq!(civil_from_days(0), IsoDate { year: 1970, month: 1, day: 1 });
        assert_eq!(civil_from_days(-1), IsoDate { year: 1969, month: 12, day: 31 });
        assert_eq!(civil_from_days(19_782), IsoDate { year: 2024, month: 2, day: 29 });
        assert_eq!(civil_from_days(-100_000_000), IsoDate { year: -271_821, month: 4, day: 20 });
    }

    #[test]
    fn slots_round_trip_through_temporal_rs() -> TemporalResult<()> {
        let d = PlainDate::try_new(2024, 2, 29, Calendar::from_str("hebrew")?)?;
        let s = TemporalSlots::of_date(&d);
        assert_eq!(TemporalSlots::of_date(&s.to_date()?), s);
        let ym = PlainYearMonth::try_new(-271_821, 4, Some(19), Calendar::ISO)?;
        let s = TemporalSlots::of_year_month(&ym);
        assert_eq!(TemporalSlots::of_year_month(&s.to_year_month()?), s);
        let z = ZonedDateTime::try_new(1_700_000_000_123_456_789, time_zone_of("Europe/Paris")?, Calendar::ISO)?;
        let s = TemporalSlots::of_zoned(&z)?;
        assert_eq!(TemporalSlots::of_zoned(&s.to_zoned()?)?, s);
        Ok(())
    }
}
