//! Human-readable times for terminal output, and the wall clock the store's cutoffs use.

/// Wall-clock ms since the Unix epoch (0 if the clock is before 1970): `amber gc`'s cutoff.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `2024-05-01T12:00:00.000Z` for ms since the Unix epoch.
pub fn iso(ms: u64) -> String {
    let secs = ms / 1000;
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days as i64);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z", rem / 3600, rem % 3600 / 60, rem % 60, ms % 1000)
}

/// "in 4.2s", "in 3h 5m", "now" for a due time relative to `now`.
pub fn due_in(due: u64, now: u64) -> String {
    if due <= now {
        return "due now".into();
    }
    let ms = due - now;
    if ms < 60_000 {
        return format!("due in {:.1}s", ms as f64 / 1000.0);
    }
    let minutes = ms / 60_000;
    if minutes < 60 {
        return format!("due in {minutes}m {}s", ms / 1000 % 60);
    }
    let hours = minutes / 60;
    if hours < 48 {
        return format!("due in {hours}h {}m", minutes % 60);
    }
    format!("due in {}d {}h", hours / 24, hours % 24)
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(due_in(5, 10), "due now");
        assert_eq!(due_in(4_200, 0), "due in 4.2s");
        assert_eq!(due_in(3 * 3_600_000 + 5 * 60_000, 0), "due in 3h 5m");
    }
}
