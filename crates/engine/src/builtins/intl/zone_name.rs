//! The name of a time zone as `Date.prototype.toString` prints it after the offset: the
//! zone's long specific name ("Eastern Daylight Time") in the run's default locale, as V8
//! writes it from ICU — here from the CLDR data Intl.DateTimeFormat formats with.

use super::date_time_pattern::{format_parts, local_of};
use super::locales::default_locale;
use crate::heap::intl_slots::{DateTimeComponents, DateTimeFormatSlots, StyleFields};
use crate::vm::Vm;

/// The long specific name of the IANA zone `zone` at `epoch_ms`; None when the zone or the
/// data has none (the caller writes the offset instead).
pub(crate) fn date_zone_long_name(vm: &Vm, zone: &str, epoch_ms: i64) -> Option<String> {
    let locale = default_locale(vm);
    let numeric = || Some("numeric".to_string());
    let components = DateTimeComponents {
        year: numeric(),
        month: numeric(),
        day: numeric(),
        time_zone_name: Some("long".into()),
        ..DateTimeComponents::default()
    };
    let slots = DateTimeFormatSlots {
        locale: locale.clone(),
        data_locale: locale,
        calendar: "gregory".into(),
        numbering_system: "latn".into(),
        time_zone: zone.into(),
        hour_cycle: None,
        requested: Box::new(components.clone()),
        components,
        date_style: None,
        time_style: None,
        bound_format: None,
        resolved_hour_cycle: "h12".into(),
        style_fields: StyleFields::All,
    };
    let local = local_of(&slots, epoch_ms).ok()?;
    let parts = format_parts(&slots, &local).ok()?;
    parts.into_iter().find(|p| p.kind == "timeZoneName").map(|p| p.value)
}
