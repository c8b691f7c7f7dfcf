//! Temporal.Now (proposal-temporal §2): the current time, from the VM's logical clock.
//! https://tc39.es/proposal-temporal/#sec-temporal-now-object
//!
//! The clock is the one `Date.now()` reads (DESIGN §6): epoch milliseconds, made
//! nanoseconds by multiplying by 10⁶, so `Date.now() ≤ Temporal.Now.instant()` holds and a
//! replay sees the same instants. The system time zone is the VM's configured zone
//! (`VmOptions::time_zone`, "UTC" by default); the host's `TZ` is never read.

use temporal_rs::{Instant, TimeZone, ZonedDateTime};

use super::fields::to_time_zone;
use super::OrThrow;
use crate::builtins::date::current_time;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.Now.timeZoneId", 0, time_zone_id),
    native!("Temporal.Now.instant", 0, instant),
    native!("Temporal.Now.plainDateTimeISO", 0, plain_date_time_iso),
    native!("Temporal.Now.zonedDateTimeISO", 0, zoned_date_time_iso),
    native!("Temporal.Now.plainDateISO", 0, plain_date_iso),
    native!("Temporal.Now.plainTimeISO", 0, plain_time_iso),
];

/// ### SystemUTCEpochNanoseconds ( ): the logical clock in nanoseconds.
fn system_instant(vm: &mut Vm) -> JsResult<Instant> {
    let ms = current_time(vm);
    Instant::try_new(ms as i128 * 1_000_000).or_throw(vm)
}

/// ### SystemTimeZoneIdentifier ( ): the VM's configured zone.
fn system_time_zone(vm: &mut Vm) -> JsResult<TimeZone> {
    let id = vm.options.time_zone.clone();
    TimeZone::try_from_identifier_str(&id).or_throw(vm)
}

/// ### SystemDateTime ( temporalTimeZoneLike ): now, in the given zone or the system's.
fn system_zoned(vm: &mut Vm, tz_like: Value) -> JsResult<ZonedDateTime> {
    let tz = if tz_like.is_undefined() { system_time_zone(vm)? } else { to_time_zone(vm, tz_like)? };
    let now = system_instant(vm)?;
    ZonedDateTime::try_new_iso_from_instant(now, tz).or_throw(vm)
}

/// ### 2.2.1 Temporal.Now.timeZoneId ( )
fn time_zone_id(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let tz = system_time_zone(vm)?;
    let id = tz.identifier().or_throw(vm)?;
    Ok(vm.str(&id))
}

/// ### 2.2.2 Temporal.Now.instant ( )
fn instant(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let i = system_instant(vm)?;
    Ok(super::instant::make(vm, &i))
}

/// ### 2.2.3 Temporal.Now.plainDateTimeISO ( [ temporalTimeZoneLike ] )
fn plain_date_time_iso(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let z = system_zoned(vm, arg(args, 0))?;
    Ok(super::plain_date_time::make(vm, &z.to_plain_date_time()))
}

/// ### 2.2.4 Temporal.Now.zonedDateTimeISO ( [ temporalTimeZoneLike ] )
fn zoned_date_time_iso(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let z = system_zoned(vm, arg(args, 0))?;
    super::zoned_date_time::make(vm, &z)
}

/// ### 2.2.5 Temporal.Now.plainDateISO ( [ temporalTimeZoneLike ] )
fn plain_date_iso(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let z = system_zoned(vm, arg(args, 0))?;
    Ok(super::plain_date::make(vm, &z.to_plain_date()))
}

/// ### 2.2.6 Temporal.Now.plainTimeISO ( [ temporalTimeZoneLike ] )
fn plain_time_iso(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let z = system_zoned(vm, arg(args, 0))?;
    Ok(super::plain_time::make(vm, &z.to_plain_time()))
}
