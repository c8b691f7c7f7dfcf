//! Intl.DateTimeFormat (ECMA-402 §11) and Date's locale methods (§21.4.4.38-40):
//! https://tc39.es/ecma402/#datetimeformat-objects
//!
//! The constructor resolves every option into plain slots ([`DateTimeFormatSlots`]); each
//! format call builds its ICU4X formatter from them ([`super::date_time_pattern`]). The
//! default time zone is the run's ([`crate::vm::VmOptions::time_zone`]); zone offsets come
//! from temporal_rs's compiled data, never the OS.

use super::date_time_pattern::{
    calendar_supported, default_calendar, format_parts, format_range_parts, local_of, locale_hour_cycle, DatePart,
    FormatError, Local,
};
use super::date_time_temporal::{check_same_type, handle_temporal, to_date_time_formattable, Formattable};
use super::locales::is_type_sequence;
use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of, KeyData};
use super::number_data;
use super::options::{coerce_options_to_object, get_boolean_option, get_number_option, get_raw, get_string_option};
use super::{chain_legacy, create, unwrap_legacy, ResultObject};
use crate::builtins::date::time_clip;
use crate::builtins::{arg, make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{DateTimeComponents, DateTimeFormatSlots, IntlSlots, StyleFields};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_rust_string;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.DateTimeFormat", 0, constructor),
    native!("Intl.DateTimeFormat.supportedLocalesOf", 1, supported_locales),
    native!("get Intl.DateTimeFormat.prototype.format", 0, format_getter),
    native!("Intl.DateTimeFormat.prototype.formatToParts", 1, format_to_parts),
    native!("Intl.DateTimeFormat.prototype.formatRange", 2, format_range),
    native!("Intl.DateTimeFormat.prototype.formatRangeToParts", 2, format_range_to_parts),
    native!("Intl.DateTimeFormat.prototype.resolvedOptions", 0, resolved_options),
    native!("%Intl.DateTimeFormat.format", 1, bound_format),
];

/// The relevant extension keys of Intl.DateTimeFormat: « "ca", "hc", "nu" ».
const KEYS: [KeyData; 3] = [
    KeyData { key: "ca", default: |locale| Some(default_calendar(locale)), supports: |_, ca| calendar_supported(ca) },
    KeyData { key: "hc", default: |_| None, supports: |_, hc| matches!(hc, "h11" | "h12" | "h23" | "h24") },
    KeyData {
        key: "nu",
        default: |locale| Some(number_data::default_numbering_system(locale)),
        supports: |_, nu| nu != "native" && nu != "traditio" && nu != "finance" && number_data::has_digits(nu),
    },
];

/// Which components a caller requires and which it defaults (CreateDateTimeFormat's
/// `required` and `defaults`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    Date,
    Time,
    Any,
    All,
}

/// The values of each component option (ECMA-402 Table 16), in table order.
const WEEKDAY: &[&str] = &["narrow", "short", "long"];
const NUMERIC: &[&str] = &["2-digit", "numeric"];
const MONTH: &[&str] = &["2-digit", "numeric", "narrow", "short", "long"];
const ZONE_NAME: &[&str] = &["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"];
const STYLES: &[&str] = &["full", "long", "medium", "short"];

/// ### 11.1.1 Intl.DateTimeFormat ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, let newTarget be the active function object.
    let original_new_target = vm.native_new_target();
    let mut new_target = original_new_target;
    if new_target.is_undefined() {
        new_target = vm.native_ctx.callee.map_or(Value::UNDEFINED, Value::object);
    }
    // 2. Let dateTimeFormat be ? CreateDateTimeFormat(newTarget, locales, options, any, date).
    let default = vm.realm.intl_date_time_format_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let slots = create_date_time_format(vm, arg(args, 0), arg(args, 1), Which::Any, Which::Date)?;
    let dtf = create(vm, proto, IntlSlots::DateTimeFormat(slots));
    // 3. The normative optional constructor mode: return ? ChainDateTimeFormat(dtf, NewTarget, this).
    let ctor = vm.realm.intl_date_time_format_constructor;
    chain_legacy(vm, ctor, original_new_target, dtf, this)
}

/// ### UnwrapDateTimeFormat ( dtf ), steps 1-2: the DateTimeFormat a legacy-constructed
/// object holds under %Intl%.[[FallbackSymbol]], or `this` itself.
fn unwrap_date_time_format(vm: &mut Vm, this: Value) -> JsResult<Value> {
    let ctor = vm.realm.intl_date_time_format_constructor;
    unwrap_legacy(vm, ctor, this, |s| matches!(s, IntlSlots::DateTimeFormat(_)))
}

/// `hc` removed from a resolved locale's `-u-` keywords (hour12 overrides it: opt.[[hc]] is
/// null).
fn without_hc(locale: &str) -> String {
    let Ok(mut l) = icu_locale_core::Locale::try_from_str(locale) else { return locale.to_string() };
    if let Ok(key) = icu_locale_core::extensions::unicode::Key::try_from_str("hc") {
        l.extensions.unicode.keywords.remove(key);
    }
    l.to_string()
}

/// An offset time zone ("+05", "+0530", "-05:30") as FormatOffsetTimeZoneIdentifier's
/// "+hh:mm"; Some(None) for a sub-minute offset (a RangeError), None when not an offset.
fn offset_zone(s: &str) -> Option<Option<String>> {
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'+') => (1, &s[1..]),
        Some(b'-') => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) || !rest.is_ascii() {
        return None;
    }
    let colon_ok = match rest.len() {
        2 | 4 => !rest.contains(':'),
        5 => rest.as_bytes()[2] == b':',
        _ => false,
    };
    if !colon_ok {
        // Seconds or fractions: a syntactically longer offset (sub-minute precision).
        return if digits.len() > 4 { Some(None) } else { None };
    }
    let hours: i32 = digits[..2].parse().ok()?;
    let minutes: i32 = if digits.len() >= 4 { digits[2..4].parse().ok()? } else { 0 };
    if hours > 23 || minutes > 59 {
        return None;
    }
    let total = sign * (hours * 60 + minutes);
    let (sign, abs) = if total < 0 { ('-', -total) } else { ('+', total) };
    Some(Some(format!("{sign}{:02}:{:02}", abs / 60, abs % 60)))
}

/// The time zone option resolved (steps 25-35 of CreateDateTimeFormat).
fn resolve_time_zone(vm: &mut Vm, value: Value) -> JsResult<String> {
    // 26. If timeZone is undefined, set timeZone to SystemTimeZoneIdentifier().
    let tz = if value.is_undefined() { vm.options.time_zone.clone() } else { to_rust_string(vm, value)? };
    // 29. If IsTimeZoneOffsetString(timeZone) is true, then parse it.
    match offset_zone(&tz) {
        Some(Some(id)) => return Ok(id),
        Some(None) => return Err(vm.range_error(format!("Invalid time zone specified: {tz}"))),
        None => {}
    }
    // 30. Else, let timeZoneIdentifierRecord be GetAvailableNamedTimeZoneIdentifier(timeZone).
    if tz.is_empty() || !tz.bytes().all(|b| b.is_ascii_alphanumeric() || b"/_-+".contains(&b)) {
        return Err(vm.range_error(format!("Invalid time zone specified: {tz}")));
    }
    match temporal_rs::TimeZone::try_from_identifier_str(&tz).and_then(|z| z.identifier()) {
        Ok(id) if id.eq_ignore_ascii_case(&tz) => Ok(id),
        Ok(id) if id == "UTC" && tz.eq_ignore_ascii_case("utc") => Ok(id),
        Ok(id) => Ok(case_normalized(&tz, &id)),
        Err(_) => Err(vm.range_error(format!("Invalid time zone specified: {tz}"))),
    }
}

/// The IANA spelling of `given` when temporal_rs resolved it to another (primary) name:
/// each part capitalized as IANA writes names (`asia/calcutta` → `Asia/Calcutta`).
fn case_normalized(given: &str, _primary: &str) -> String {
    if given.eq_ignore_ascii_case("utc") || given.eq_ignore_ascii_case("gmt") {
        return given.to_ascii_uppercase();
    }
    let mut out = String::with_capacity(given.len());
    let mut upper = true;
    for c in given.chars() {
        if upper {
            out.extend(c.to_uppercase());
        } else {
            out.extend(c.to_lowercase());
        }
        upper = matches!(c, '/' | '_' | '-');
    }
    out
}

/// ### 11.1.2 CreateDateTimeFormat ( newTarget, locales, options, required, defaults ),
/// after the object is made: the resolved slots.
pub(crate) fn create_date_time_format(
    vm: &mut Vm,
    locales: Value,
    options: Value,
    required: Which,
    defaults: Which,
) -> JsResult<DateTimeFormatSlots> {
    create_date_time_format_in(vm, locales, options, required, defaults, None)
}

/// CreateDateTimeFormat with its `toLocaleStringTimeZone` argument (a ZonedDateTime's
/// toLocaleString formats in the object's own zone).
pub(crate) fn create_date_time_format_in(
    vm: &mut Vm,
    locales: Value,
    options: Value,
    required: Which,
    defaults: Which,
    to_locale_string_time_zone: Option<&str>,
) -> JsResult<DateTimeFormatSlots> {
    // 2. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, locales)?;
    // 3. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, options)?;
    // 5. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 7. Let calendar be ? GetOption(options, "calendar", string, empty, undefined).
    let calendar = get_string_option(vm, options, "calendar", &[], None)?;
    // 8. If calendar is not undefined and does not match the `type` production, throw a RangeError.
    if let Some(ca) = &calendar {
        if !is_type_sequence(ca) {
            return Err(vm.range_error(format!("Invalid calendar : {ca}")));
        }
    }
    // 10. Let numberingSystem be ? GetOption(options, "numberingSystem", string, empty, undefined).
    let numbering_system = get_string_option(vm, options, "numberingSystem", &[], None)?;
    // 11. If numberingSystem is not undefined and does not match the `type` production, throw a RangeError.
    if let Some(nu) = &numbering_system {
        if !is_type_sequence(nu) {
            return Err(vm.range_error(format!("Invalid numberingSystem : {nu}")));
        }
    }
    // 12. Let hour12 be ? GetOption(options, "hour12", boolean, empty, undefined).
    let hour12 = get_boolean_option(vm, options, "hour12")?;
    // 13. Let hourCycle be ? GetOption(options, "hourCycle", string, « "h11", "h12", "h23", "h24" », undefined).
    let mut hour_cycle = get_string_option(vm, options, "hourCycle", &["h11", "h12", "h23", "h24"], None)?;
    // 14. If hour12 is not undefined, set hourCycle to null.
    if hour12.is_some() {
        hour_cycle = None;
    }
    // 16. Let r be ResolveLocale(…, « "ca", "hc", "nu" », …).
    let calendar = calendar.map(|c| canonical_calendar(&c));
    let r = resolve_locale(
        vm,
        &requested,
        &matcher,
        &KEYS,
        &[("ca", calendar), ("hc", hour_cycle), ("nu", numbering_system)],
    );
    // 17. Set dateTimeFormat.[[Locale]] to r.[[Locale]] (without `hc` when hour12 overrides it).
    let locale = if hour12.is_some() { without_hc(&r.locale) } else { r.locale.clone() };
    // 18-20. [[Calendar]], [[NumberingSystem]].
    let calendar = r.values.get("ca").cloned().flatten().unwrap_or_else(|| default_calendar(&r.data_locale));
    let numbering_system =
        r.values.get("nu").cloned().flatten().unwrap_or_else(|| number_data::default_numbering_system(&r.data_locale));
    // 21-24. The hour cycle: hour12 picks the locale's 12- or 24-hour cycle; else r.[[hc]]
    //        or the locale's own.
    let locale_hc = locale_hour_cycle(&r.data_locale);
    let hc = match hour12 {
        Some(true) => {
            if locale_hc == "h11" || r.data_locale == "ja" || r.data_locale.starts_with("ja-") {
                "h11".to_string()
            } else {
                "h12".to_string()
            }
        }
        Some(false) => {
            if locale_hc == "h24" {
                "h24".to_string()
            } else {
                "h23".to_string()
            }
        }
        None => r.values.get("hc").cloned().flatten().unwrap_or(locale_hc),
    };
    // 25-35. The time zone.
    let tz_value = get_raw(vm, options, "timeZone")?;
    let time_zone = match to_locale_string_time_zone {
        // 27. If toLocaleStringTimeZone is present: a timeZone option is a TypeError, else
        //     the format is in that zone.
        Some(zone) if tz_value.is_undefined() => {
            let zone = vm.str(zone);
            resolve_time_zone(vm, zone)?
        }
        Some(_) => return Err(vm.type_error("toLocaleString of a ZonedDateTime takes no timeZone option")),
        None => resolve_time_zone(vm, tz_value)?,
    };

    // 36. For each row of Table 16, except the header row, in table order, do
    let mut c = DateTimeComponents {
        weekday: get_string_option(vm, options, "weekday", WEEKDAY, None)?,
        era: get_string_option(vm, options, "era", WEEKDAY, None)?,
        year: get_string_option(vm, options, "year", NUMERIC, None)?,
        month: get_string_option(vm, options, "month", MONTH, None)?,
        day: get_string_option(vm, options, "day", NUMERIC, None)?,
        day_period: get_string_option(vm, options, "dayPeriod", WEEKDAY, None)?,
        hour: get_string_option(vm, options, "hour", NUMERIC, None)?,
        minute: get_string_option(vm, options, "minute", NUMERIC, None)?,
        second: get_string_option(vm, options, "second", NUMERIC, None)?,
        // If prop is "fractionalSecondDigits", let value be ? GetNumberOption(options, prop, 1, 3, undefined).
        fractional_second_digits: get_number_option(vm, options, "fractionalSecondDigits", 1.0, 3.0, None)?
            .map(|d| d as u8),
        time_zone_name: get_string_option(vm, options, "timeZoneName", ZONE_NAME, None)?,
    };
    let has_explicit = c.weekday.is_some()
        || c.era.is_some()
        || c.year.is_some()
        || c.month.is_some()
        || c.day.is_some()
        || c.day_period.is_some()
        || c.hour.is_some()
        || c.minute.is_some()
        || c.second.is_some()
        || c.fractional_second_digits.is_some()
        || c.time_zone_name.is_some();
    let requested_components = c.clone();
    // 37. Let formatMatcher be ? GetOption(options, "formatMatcher", string, « "basic", "best fit" », "best fit").
    get_string_option(vm, options, "formatMatcher", &["basic", "best fit"], Some("best fit"))?;
    // 38. Let dateStyle be ? GetOption(options, "dateStyle", string, « "full", "long", "medium", "short" », undefined).
    let date_style = get_string_option(vm, options, "dateStyle", STYLES, None)?;
    // 40. Let timeStyle be ? GetOption(options, "timeStyle", …, undefined).
    let time_style = get_string_option(vm, options, "timeStyle", STYLES, None)?;
    // 42. If dateStyle is not undefined or timeStyle is not undefined, then
    if date_style.is_some() || time_style.is_some() {
        // a. If hasExplicitFormatComponents is true, throw a TypeError exception.
        if has_explicit {
            return Err(vm.type_error("Can't set option with dateStyle or timeStyle"));
        }
        // b. If required is date and timeStyle is not undefined, throw a TypeError exception.
        if required == Which::Date && time_style.is_some() {
            return Err(vm.type_error("Invalid option : timeStyle"));
        }
        // c. If required is time and dateStyle is not undefined, throw a TypeError exception.
        if required == Which::Time && date_style.is_some() {
            return Err(vm.type_error("Invalid option : dateStyle"));
        }
    } else {
        // 43. Else, b. Let needDefaults be true.
        let mut need_defaults = true;
        // c. If required is date or any, and any date field is present, needDefaults is false.
        if matches!(required, Which::Date | Which::Any)
            && (c.weekday.is_some() || c.year.is_some() || c.month.is_some() || c.day.is_some())
        {
            need_defaults = false;
        }
        // d. If required is time or any, and any time field is present, needDefaults is false.
        if matches!(required, Which::Time | Which::Any)
            && (c.day_period.is_some()
                || c.hour.is_some()
                || c.minute.is_some()
                || c.second.is_some()
                || c.fractional_second_digits.is_some())
        {
            need_defaults = false;
        }
        // e. If needDefaults is true and defaults is either date or all, year, month, day are "numeric".
        if need_defaults && matches!(defaults, Which::Date | Which::All) {
            c.year = Some("numeric".into());
            c.month = Some("numeric".into());
            c.day = Some("numeric".into());
        }
        // f. If needDefaults is true and defaults is either time or all, hour, minute, second are "numeric".
        if need_defaults && matches!(defaults, Which::Time | Which::All) {
            c.hour = Some("numeric".into());
            c.minute = Some("numeric".into());
            c.second = Some("numeric".into());
        }
    }
    // 44-46. The best format's fields.
    best_format_widths(&mut c);
    // 47. If dateTimeFormat.[[Hour]] is undefined, set [[HourCycle]] to undefined.
    let shows_hour = c.hour.is_some() || time_style.is_some();
    Ok(DateTimeFormatSlots {
        locale,
        data_locale: r.data_locale,
        calendar,
        numbering_system,
        time_zone,
        hour_cycle: shows_hour.then(|| hc.clone()),
        components: c,
        date_style,
        time_style,
        bound_format: None,
        requested: Box::new(requested_components),
        resolved_hour_cycle: hc,
        style_fields: StyleFields::All,
    })
}

/// The widths of the best format's fields: a minute or second shown after an hour or
/// minute is two digits, as every CLDR pattern writes it.
pub(crate) fn best_format_widths(c: &mut DateTimeComponents) {
    if c.hour.is_some() && c.minute.is_some() {
        c.minute = Some("2-digit".into());
    }
    if (c.minute.is_some() || c.hour.is_some()) && c.second.is_some() {
        c.second = Some("2-digit".into());
    }
}

/// A calendar option as CLDR's canonical value ("islamicc" → "islamic-civil",
/// "ethiopic-amete-alem" → "ethioaa"), lower case.
fn canonical_calendar(ca: &str) -> String {
    let ca = ca.to_ascii_lowercase();
    match ca.as_str() {
        "islamicc" => "islamic-civil".to_string(),
        "ethiopic-amete-alem" => "ethioaa".to_string(),
        _ => ca,
    }
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

/// ### UnwrapDateTimeFormat ( dtf ), step 3: the slots of a DateTimeFormat.
fn this_date_time_format(vm: &mut Vm, this: Value, method: &str) -> JsResult<DateTimeFormatSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::DateTimeFormat(d) = &**s {
                return Ok(d.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.DateTimeFormat.prototype.{method} called on incompatible receiver")))
}

/// The local date-time of a time value, or a RangeError when it is not a valid time
/// (TimeClip gives NaN).
fn local(vm: &mut Vm, slots: &DateTimeFormatSlots, x: f64) -> JsResult<Local> {
    // FormatDateTimePattern 1. Let x be TimeClip(x). 2. If x is NaN, throw a RangeError exception.
    let x = time_clip(x);
    if x.is_nan() {
        return Err(vm.range_error("Invalid time value"));
    }
    local_of(slots, x as i64).map_err(|FormatError(m)| vm.range_error(m))
}

/// ### HandleDateTimeValue ( dateTimeFormat, x ): the format `x` is shown with (the
/// format's own for a time value, its type's for a Temporal object) and its local date-time.
fn handle_date_time_value(
    vm: &mut Vm,
    slots: &DateTimeFormatSlots,
    x: &Formattable,
) -> JsResult<(DateTimeFormatSlots, Local)> {
    match x {
        Formattable::Time(t) => Ok((slots.clone(), local(vm, slots, *t)?)),
        Formattable::Temporal(t) => handle_temporal(vm, slots, t),
    }
}

fn parts_of(vm: &mut Vm, slots: &DateTimeFormatSlots, x: &Formattable) -> JsResult<Vec<DatePart>> {
    let (format, l) = handle_date_time_value(vm, slots, x)?;
    vm.charge(64)?;
    format_parts(&format, &l).map_err(|FormatError(m)| vm.range_error(m))
}

fn join(parts: &[DatePart]) -> String {
    parts.iter().map(|p| p.value.as_str()).collect()
}

/// ### FormatDateTime ( dateTimeFormat, x ) for any formattable value.
pub(crate) fn format_date_time_value(vm: &mut Vm, slots: &DateTimeFormatSlots, x: &Formattable) -> JsResult<String> {
    Ok(join(&parts_of(vm, slots, x)?))
}

/// ### FormatDateTime ( dateTimeFormat, x )
pub(crate) fn format_date_time(vm: &mut Vm, slots: &DateTimeFormatSlots, x: f64) -> JsResult<String> {
    format_date_time_value(vm, slots, &Formattable::Time(x))
}

/// The array of `{ type, value [, source] }` objects the ToParts methods return.
fn parts_array(vm: &mut Vm, parts: &[DatePart], with_source: bool) -> Value {
    let mut values = Vec::with_capacity(parts.len());
    for p in parts {
        let mut o = ResultObject::new(vm);
        o.string(vm, "type", p.kind);
        o.string(vm, "value", &p.value);
        if with_source {
            o.string(vm, "source", p.source);
        }
        values.push(o.finish());
    }
    vm.new_array(values)
}

/// ### 11.3.3 get Intl.DateTimeFormat.prototype.format
fn format_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Let dtf be ? UnwrapDateTimeFormat(this value).
    let this = unwrap_date_time_format(vm, this)?;
    let slots = this_date_time_format(vm, this, "format")?;
    // 4. If dtf.[[BoundFormat]] is undefined, make it (a 1-argument anonymous function).
    if let Some(f) = slots.bound_format {
        return Ok(Value::object(f));
    }
    let f: ObjectId = make_internal(vm, "%Intl.DateTimeFormat.format", 1, vec![this]);
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &mut vm.heap.obj_mut(o).class {
            if let IntlSlots::DateTimeFormat(d) = &mut **s {
                d.bound_format = Some(f);
            }
        }
    }
    // 5. Return dtf.[[BoundFormat]].
    Ok(Value::object(f))
}

/// ### 11.5.5 DateTime Format Functions
fn bound_format(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let dtf be F.[[DateTimeFormat]].
    let dtf = vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED);
    let slots = this_date_time_format(vm, dtf, "format")?;
    // 3-4. If date is undefined, let x be Call(%Date.now%); else let x be ? ToDateTimeFormattable(date).
    let x = to_date_time_formattable(vm, arg(args, 0), true)?;
    // 5. Return ? FormatDateTime(dtf, x).
    let s = format_date_time_value(vm, &slots, &x)?;
    Ok(vm.str(&s))
}

/// ### 11.3.4 Intl.DateTimeFormat.prototype.formatToParts ( date )
fn format_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let dtf be the this value; RequireInternalSlot(dtf, [[InitializedDateTimeFormat]]).
    let slots = this_date_time_format(vm, this, "formatToParts")?;
    // 3-4. The time value of date.
    let x = to_date_time_formattable(vm, arg(args, 0), true)?;
    // 5. Return ? FormatDateTimeToParts(dtf, x).
    let parts = parts_of(vm, &slots, &x)?;
    Ok(parts_array(vm, &parts, false))
}

/// The two ends of `formatRange` / `formatRangeToParts` in their format (steps 3-5 and
/// PartitionDateTimeRangePattern's type checks and TimeClip).
fn range_values(
    vm: &mut Vm,
    slots: &DateTimeFormatSlots,
    args: &[Value],
) -> JsResult<(DateTimeFormatSlots, Local, Local)> {
    let (start, end) = (arg(args, 0), arg(args, 1));
    // 3. If startDate is undefined or endDate is undefined, throw a TypeError exception.
    if start.is_undefined() || end.is_undefined() {
        return Err(vm.type_error("startDate and endDate are required"));
    }
    // 4-5. Let x be ? ToDateTimeFormattable(startDate); let y be ? ToDateTimeFormattable(endDate).
    let x = to_date_time_formattable(vm, start, false)?;
    let y = to_date_time_formattable(vm, end, false)?;
    // PartitionDateTimeRangePattern: if SameTemporalType(x, y) is false, throw a TypeError.
    check_same_type(vm, &x, &y)?;
    let (format, a) = handle_date_time_value(vm, slots, &x)?;
    let (_, b) = handle_date_time_value(vm, slots, &y)?;
    Ok((format, a, b))
}

fn range_parts(vm: &mut Vm, slots: &DateTimeFormatSlots, args: &[Value]) -> JsResult<Vec<DatePart>> {
    let (format, a, b) = range_values(vm, slots, args)?;
    vm.charge(128)?;
    // PartitionDateTimeRangePattern: equal formatted ends are one date, all "shared".
    let single_a = format_parts(&format, &a).map_err(|FormatError(m)| vm.range_error(m))?;
    let single_b = format_parts(&format, &b).map_err(|FormatError(m)| vm.range_error(m))?;
    if single_a == single_b {
        return Ok(single_a);
    }
    format_range_parts(&format, &a, &b).map_err(|FormatError(m)| vm.range_error(m))
}

/// ### 11.3.5 Intl.DateTimeFormat.prototype.formatRange ( startDate, endDate )
fn format_range(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let dtf be the this value; RequireInternalSlot(dtf, [[InitializedDateTimeFormat]]).
    let slots = this_date_time_format(vm, this, "formatRange")?;
    // 6. Return ? FormatDateTimeRange(dtf, x, y).
    let parts = range_parts(vm, &slots, args)?;
    Ok(vm.str(&join(&parts)))
}

/// ### 11.3.6 Intl.DateTimeFormat.prototype.formatRangeToParts ( startDate, endDate )
fn format_range_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let slots = this_date_time_format(vm, this, "formatRangeToParts")?;
    // 6. Return ? FormatDateTimeRangeToParts(dtf, x, y).
    let parts = range_parts(vm, &slots, args)?;
    Ok(parts_array(vm, &parts, true))
}

/// ### 11.3.7 Intl.DateTimeFormat.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Let dtf be ? UnwrapDateTimeFormat(this value).
    let this = unwrap_date_time_format(vm, this)?;
    let s = this_date_time_format(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    // 5. The properties in Table 17's order, each when present.
    out.string(vm, "locale", &s.locale);
    out.string(vm, "calendar", &s.calendar);
    out.string(vm, "numberingSystem", &s.numbering_system);
    out.string(vm, "timeZone", &s.time_zone);
    if let Some(hc) = &s.hour_cycle {
        out.string(vm, "hourCycle", hc);
        out.boolean(vm, "hour12", hc == "h11" || hc == "h12");
    }
    if s.date_style.is_none() && s.time_style.is_none() {
        let c = &s.components;
        let fields: [(&str, &Option<String>); 9] = [
            ("weekday", &c.weekday),
            ("era", &c.era),
            ("year", &c.year),
            ("month", &c.month),
            ("day", &c.day),
            ("dayPeriod", &c.day_period),
            ("hour", &c.hour),
            ("minute", &c.minute),
            ("second", &c.second),
        ];
        for (name, value) in fields {
            if let Some(v) = value {
                out.string(vm, name, v);
            }
        }
        if let Some(d) = c.fractional_second_digits {
            out.number(vm, "fractionalSecondDigits", f64::from(d));
        }
        if let Some(z) = &c.time_zone_name {
            out.string(vm, "timeZoneName", z);
        }
    }
    if let Some(d) = &s.date_style {
        out.string(vm, "dateStyle", d);
    }
    if let Some(t) = &s.time_style {
        out.string(vm, "timeStyle", t);
    }
    Ok(out.finish())
}

/// ### 21.4.4.38-40 Date.prototype.toLocaleDateString / toLocaleString /
/// toLocaleTimeString ( [ locales [ , options ] ] ), from step 3: `x` (a time value, not
/// NaN) formatted by a new DateTimeFormat with the method's required and default fields.
pub(crate) fn date_to_locale_string(
    vm: &mut Vm,
    x: f64,
    locales: Value,
    options: Value,
    which: Which,
) -> JsResult<Value> {
    // 4. Let dateFormat be ? CreateDateTimeFormat(%Intl.DateTimeFormat%, locales, options, which, which).
    let required = if which == Which::All { Which::Any } else { which };
    let slots = create_date_time_format(vm, locales, options, required, which)?;
    // 5. Return ! FormatDateTime(dateFormat, x).
    let s = format_date_time(vm, &slots, x)?;
    Ok(vm.str(&s))
}
