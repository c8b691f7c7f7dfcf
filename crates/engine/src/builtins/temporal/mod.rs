//! Temporal (TC39 proposal-temporal, stage 3): https://tc39.es/proposal-temporal/
//!
//! The date and time arithmetic is the `temporal_rs` crate's, over its compiled, static
//! time-zone data: the engine reads no OS clock, OS time zone or zoneinfo folder. This
//! module is the JS surface: argument conversion, property bags, option reading in the
//! order the proposal observes, and the objects themselves.
//!
//! - **Slots are plain data.** A Temporal object is `Class::Temporal(TemporalSlots)`
//!   ([`slots`]): epoch nanoseconds, ISO fields, calendar and time-zone identifiers. Every
//!   operation rebuilds the `temporal_rs` value and stores its result as a new record, so
//!   images never hold a provider handle.
//! - **The clock** is the VM's logical clock, the one `Date.now()` reads ([`now`]); the
//!   time zone of `Temporal.Now` is the VM's configured zone (`Vm::time_zone`, "UTC" unless
//!   the embedder set one).
//! - **Locale methods**: `toLocaleString` formats through Intl.DateTimeFormat
//!   ([`crate::builtins::intl`]'s `date_time_temporal`).
//!
//! Layout: one file per type; [`options`] reads option bags, [`fields`] property bags
//! (PrepareCalendarFields) and the shared ToTemporal… conversions of calendars and zones.

pub mod slots;

mod duration;
mod fields;
mod instant;
mod now;
mod options;
mod plain_date;
mod plain_date_time;
mod plain_month_day;
mod plain_time;
mod plain_year_month;
mod zoned_date_time;

pub(crate) use duration::NATIVES as DURATION_NATIVES;
pub(crate) use instant::NATIVES as INSTANT_NATIVES;
pub(crate) use now::NATIVES as NOW_NATIVES;
pub(crate) use plain_date::NATIVES as PLAIN_DATE_NATIVES;
pub(crate) use plain_date_time::NATIVES as PLAIN_DATE_TIME_NATIVES;
pub(crate) use plain_month_day::NATIVES as PLAIN_MONTH_DAY_NATIVES;
pub(crate) use plain_time::NATIVES as PLAIN_TIME_NATIVES;
pub(crate) use plain_year_month::NATIVES as PLAIN_YEAR_MONTH_NATIVES;
// GetOptionsObject, which the Intl constructors that take it (ListFormat…) share.
pub(crate) use options::get_options_object;
pub(crate) use zoned_date_time::NATIVES as ZONED_DATE_TIME_NATIVES;

pub(crate) use instant::to_temporal_instant_from_epoch_ms;

use temporal_rs::{MonthCode, TemporalError, TinyAsciiStr};

use crate::atoms::{atom, PropertyKey};
use crate::builtins::map::define_to_string_tag;
use crate::builtins::{install, make_native, NativeDef, NativeId};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

use slots::TemporalSlots;

/// Whether `zone` names a time zone a run can be configured with (`VmOptions::time_zone`):
/// an IANA identifier of the compiled data or a UTC offset.
pub fn is_time_zone(zone: &str) -> bool {
    temporal_rs::TimeZone::try_from_identifier_str(zone).is_ok()
}

/// The `temporal_rs` version whose semantics (and time-zone data) images were made with;
/// part of the engine version an image names, so an image is refused by another one.
pub const TEMPORAL_RS_VERSION: &str = "0.2.6";

pub(crate) fn init(vm: &mut Vm) {
    // The Temporal object is an ordinary object whose [[Prototype]] is %Object.prototype%.
    let op = vm.realm.object_prototype;
    let temporal = vm.heap.new_plain(Some(op));
    define_to_string_tag(vm, temporal, "Temporal");
    let global = vm.global;
    let key = vm.key("Temporal");
    vm.define_builtin(global, key, Value::object(temporal), PropFlags::HIDDEN);

    let types: [(&str, ObjectId, &'static [NativeDef]); 8] = [
        ("Instant", vm.realm.temporal_instant_prototype, INSTANT_NATIVES),
        ("ZonedDateTime", vm.realm.temporal_zoned_date_time_prototype, ZONED_DATE_TIME_NATIVES),
        ("PlainDate", vm.realm.temporal_plain_date_prototype, PLAIN_DATE_NATIVES),
        ("PlainTime", vm.realm.temporal_plain_time_prototype, PLAIN_TIME_NATIVES),
        ("PlainDateTime", vm.realm.temporal_plain_date_time_prototype, PLAIN_DATE_TIME_NATIVES),
        ("PlainYearMonth", vm.realm.temporal_plain_year_month_prototype, PLAIN_YEAR_MONTH_NATIVES),
        ("PlainMonthDay", vm.realm.temporal_plain_month_day_prototype, PLAIN_MONTH_DAY_NATIVES),
        ("Duration", vm.realm.temporal_duration_prototype, DURATION_NATIVES),
    ];
    for (name, proto, natives) in types {
        let stable = format!("Temporal.{name}");
        let id = NativeId::builtin(&stable);
        let length = id.def().map_or(0, |d| d.length);
        let ctor = make_native(vm, name, id, length, true, Vec::new());
        vm.define_builtin(ctor, PropertyKey::Atom(atom::prototype), Value::object(proto), PropFlags::NONE);
        vm.define_builtin(proto, PropertyKey::Atom(atom::constructor), Value::object(ctor), PropFlags::HIDDEN);
        let key = vm.key(name);
        vm.define_builtin(temporal, key, Value::object(ctor), PropFlags::HIDDEN);
        install(vm, proto, &format!("{stable}.prototype"), natives);
        install(vm, ctor, &stable, natives);
        define_to_string_tag(vm, proto, &stable);
    }

    // Temporal.Now is an ordinary object.
    let now = vm.heap.new_plain(Some(op));
    install(vm, now, "Temporal.Now", NOW_NATIVES);
    define_to_string_tag(vm, now, "Temporal.Now");
    let key = vm.key("Now");
    vm.define_builtin(temporal, key, Value::object(now), PropFlags::HIDDEN);
}

// ---- Errors

/// `temporal_rs` errors as JS exceptions: its TypeErrors as TypeError, everything else
/// (range, syntax, and internal assertions) as RangeError.
pub(crate) trait OrThrow<T> {
    fn or_throw(self, vm: &mut Vm) -> JsResult<T>;
}

impl<T> OrThrow<T> for Result<T, TemporalError> {
    fn or_throw(self, vm: &mut Vm) -> JsResult<T> {
        self.map_err(|e| {
            let message = e.to_string();
            match e.kind() {
                temporal_rs::error::ErrorKind::Type => vm.type_error(message),
                _ => vm.range_error(message),
            }
        })
    }
}

// ---- Objects

/// The Temporal slots of `v`, if it is a Temporal object.
pub(crate) fn slots_of(vm: &Vm, v: Value) -> Option<&TemporalSlots> {
    let o = v.as_object()?;
    match &vm.heap.obj(o).class {
        Class::Temporal(s) => Some(s),
        _ => None,
    }
}

/// A new Temporal object with prototype `proto`.
pub(crate) fn create(vm: &mut Vm, proto: ObjectId, slots: TemporalSlots) -> Value {
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Temporal(Box::new(slots)))))
}

/// The receiver's slots, or a TypeError naming the method's type.
macro_rules! this_slots {
    ($vm:expr, $this:expr, $variant:ident, $to:ident, $what:literal) => {{
        let r = match $crate::builtins::temporal::slots_of($vm, $this) {
            Some(s @ $crate::builtins::temporal::slots::TemporalSlots::$variant { .. }) => Some(s.$to()),
            _ => None,
        };
        match r {
            Some(r) => $crate::builtins::temporal::OrThrow::or_throw(r, $vm),
            None => Err($vm.type_error(concat!("receiver is not a Temporal.", $what))),
        }
    }};
}
pub(crate) use this_slots;

// ---- Getter values

/// A getter's Rust result as a JS value.
pub(crate) trait ToJs {
    fn to_js(self, vm: &mut Vm) -> Value;
}

impl ToJs for u8 {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::int(i32::from(self))
    }
}
impl ToJs for u16 {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::int(i32::from(self))
    }
}
impl ToJs for i32 {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::int(self)
    }
}
impl ToJs for i64 {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::number(self as f64)
    }
}
impl ToJs for f64 {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::number(self)
    }
}
impl ToJs for bool {
    fn to_js(self, _: &mut Vm) -> Value {
        Value::bool(self)
    }
}
impl ToJs for MonthCode {
    fn to_js(self, vm: &mut Vm) -> Value {
        vm.str(self.as_str())
    }
}
impl ToJs for String {
    fn to_js(self, vm: &mut Vm) -> Value {
        vm.str(&self)
    }
}
impl<const N: usize> ToJs for TinyAsciiStr<N> {
    fn to_js(self, vm: &mut Vm) -> Value {
        vm.str(self.as_str())
    }
}
impl<T: ToJs> ToJs for Option<T> {
    fn to_js(self, vm: &mut Vm) -> Value {
        match self {
            Some(v) => v.to_js(vm),
            None => Value::UNDEFINED,
        }
    }
}

/// Accessor natives that read one field of the receiver's `temporal_rs` value:
/// `getters!(this_fn => year, month, …)` defines `fn year(vm, this, args)` and so on.
macro_rules! getters {
    ($this:ident => $($name:ident),* $(,)?) => {
        $( $crate::builtins::temporal::getters!(@one $this $name); )*
    };
    (@one $this:ident calendar_id) => {
        fn calendar_id(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
            let x = $this(vm, this)?;
            Ok(vm.str(x.calendar().identifier()))
        }
    };
    (@one $this:ident $name:ident) => {
        fn $name(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
            let x = $this(vm, this)?;
            Ok($crate::builtins::temporal::ToJs::to_js(x.$name(), vm))
        }
    };
}
pub(crate) use getters;

/// `valueOf` of every Temporal type throws.
pub(crate) fn value_of(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(vm.type_error("Temporal objects cannot be converted to primitives; use compare() or equals()"))
}
