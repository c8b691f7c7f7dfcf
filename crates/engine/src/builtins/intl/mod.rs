//! ECMA-402, the ECMAScript Internationalization API: https://tc39.es/ecma402/
//!
//! Locale data is ICU4X's compiled CLDR data, linked into the binary: no data file is read at
//! run time, and the results depend only on the pinned ICU4X version ([`ICU4X_VERSION`],
//! part of the engine version an image names, so an image is refused by an engine with
//! other data).
//!
//! - **Slots are plain data.** An Intl object is `Class::Intl(IntlSlots)` ([`slots`]): its
//!   resolved locale and options. ICU4X formatters are built from them per operation over
//!   the static data, so an image holds no ICU4X state and a restored object behaves as
//!   before in any process.
//! - **The default locale** is the run's ([`crate::vm::VmOptions::locale`], `en-US` unless
//!   configured); the host's `LANG`/`LC_*` are never read.
//!
//! Layout: one file per constructor; [`options`] holds the option-reading abstract
//! operations (GetOption, GetNumberOption…), [`locales`] locale lists and negotiation
//! (CanonicalizeLocaleList, ResolveLocale, SupportedLocales), [`number_options`] the digit
//! options NumberFormat and PluralRules share.

pub(crate) mod case_mapping;
mod collator;
mod date_time_format;
mod date_time_pattern;
mod date_time_temporal;
mod display_names;
mod duration_format;
mod list_format;
mod locale;
mod locale_info;
mod locale_zones;
mod locales;
mod number_data;
mod number_format;
mod number_options;
mod number_partition;
mod options;
mod plural_rules;
mod relative_time_format;
mod segmenter;
mod supported_values;
mod zone_name;

pub(crate) use collator::locale_compare;
pub(crate) use collator::NATIVES as COLLATOR_NATIVES;
pub(crate) use date_time_format::NATIVES as DATE_TIME_FORMAT_NATIVES;
pub(crate) use date_time_format::{date_to_locale_string, Which as DateTimeWhich};
pub(crate) use date_time_temporal::temporal_to_locale_string;
pub(crate) use display_names::NATIVES as DISPLAY_NAMES_NATIVES;
pub(crate) use duration_format::duration_to_locale_string;
pub(crate) use duration_format::NATIVES as DURATION_FORMAT_NATIVES;
pub(crate) use list_format::NATIVES as LIST_FORMAT_NATIVES;
pub(crate) use locale::NATIVES as LOCALE_NATIVES;
pub(crate) use number_format::to_locale_string as number_to_locale_string;
pub(crate) use number_format::NATIVES as NUMBER_FORMAT_NATIVES;
pub(crate) use number_partition::{to_intl_mathematical_value, MathValue};
pub(crate) use plural_rules::NATIVES as PLURAL_RULES_NATIVES;
pub(crate) use relative_time_format::NATIVES as RELATIVE_TIME_FORMAT_NATIVES;
pub(crate) use segmenter::NATIVES as SEGMENTER_NATIVES;
pub(crate) use zone_name::date_zone_long_name;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::map::define_to_string_tag;
use crate::builtins::{arg, install, make_native, NativeDef, NativeId};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::operators::ordinary_has_instance;
use crate::runtime::property::{create_data_property_or_throw, define_property_or_throw, get, PropertyDescriptor};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

use crate::heap::intl_slots::IntlSlots;

/// The ICU4X version (and with it the CLDR data) Intl objects were resolved with; part of
/// the engine version an image names.
pub const ICU4X_VERSION: &str = "2.4.0";

/// Whether `tag` is a locale a run can be configured with (`VmOptions::locale`): a
/// structurally valid language tag without extensions whose language CLDR knows.
pub fn is_locale(tag: &str) -> bool {
    locales::canonicalize_tag(tag).is_some_and(|t| locales::is_available(&t))
}

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.getCanonicalLocales", 1, get_canonical_locales),
    native!("Intl.supportedValuesOf", 1, supported_values::supported_values_of),
];

pub(crate) fn init(vm: &mut Vm) {
    // The Intl object is an ordinary object whose [[Prototype]] is %Object.prototype%.
    let op = vm.realm.object_prototype;
    let intl = vm.heap.new_plain(Some(op));
    define_to_string_tag(vm, intl, "Intl");
    let global = vm.global;
    let key = vm.key("Intl");
    vm.define_builtin(global, key, Value::object(intl), PropFlags::HIDDEN);
    install(vm, intl, "Intl", NATIVES);
    // %Intl%.[[FallbackSymbol]]: a new symbol per realm, described as V8 describes it.
    vm.realm.intl_fallback_symbol = vm.heap.alloc_symbol(Some(JsStr::from_str("IntlLegacyConstructedSymbol")));

    let constructors: [(&str, ObjectId, &'static [NativeDef]); 10] = [
        ("Collator", vm.realm.intl_collator_prototype, COLLATOR_NATIVES),
        ("DateTimeFormat", vm.realm.intl_date_time_format_prototype, DATE_TIME_FORMAT_NATIVES),
        ("DisplayNames", vm.realm.intl_display_names_prototype, DISPLAY_NAMES_NATIVES),
        ("DurationFormat", vm.realm.intl_duration_format_prototype, DURATION_FORMAT_NATIVES),
        ("ListFormat", vm.realm.intl_list_format_prototype, LIST_FORMAT_NATIVES),
        ("Locale", vm.realm.intl_locale_prototype, LOCALE_NATIVES),
        ("NumberFormat", vm.realm.intl_number_format_prototype, NUMBER_FORMAT_NATIVES),
        ("PluralRules", vm.realm.intl_plural_rules_prototype, PLURAL_RULES_NATIVES),
        ("RelativeTimeFormat", vm.realm.intl_relative_time_format_prototype, RELATIVE_TIME_FORMAT_NATIVES),
        ("Segmenter", vm.realm.intl_segmenter_prototype, SEGMENTER_NATIVES),
    ];
    for (name, proto, natives) in constructors {
        let stable = format!("Intl.{name}");
        let id = NativeId::builtin(&stable);
        let length = id.def().map_or(0, |d| d.length);
        let ctor = make_native(vm, name, id, length, true, Vec::new());
        vm.define_builtin(ctor, PropertyKey::Atom(atom::prototype), Value::object(proto), PropFlags::NONE);
        vm.define_builtin(proto, PropertyKey::Atom(atom::constructor), Value::object(ctor), PropFlags::HIDDEN);
        let key = vm.key(name);
        vm.define_builtin(intl, key, Value::object(ctor), PropFlags::HIDDEN);
        install(vm, proto, &format!("{stable}.prototype"), natives);
        install(vm, ctor, &stable, natives);
        define_to_string_tag(vm, proto, &stable);
        match name {
            "Collator" => vm.realm.intl_collator_constructor = ctor,
            "DateTimeFormat" => vm.realm.intl_date_time_format_constructor = ctor,
            "NumberFormat" => vm.realm.intl_number_format_constructor = ctor,
            _ => {}
        }
    }
    // 19.5.2 The %IntlSegmentsPrototype% Object and 19.6.2 %IntlSegmentIteratorPrototype%.
    let segments = vm.realm.intl_segments_prototype;
    install(vm, segments, "%IntlSegmentsPrototype%", SEGMENTER_NATIVES);
    let iterator = vm.realm.intl_segment_iterator_prototype;
    let iterator_prototype = vm.realm.iterator_prototype;
    vm.heap.obj_mut(iterator).proto = Some(iterator_prototype);
    install(vm, iterator, "%IntlSegmentIteratorPrototype%", SEGMENTER_NATIVES);
    define_to_string_tag(vm, iterator, "Segmenter String Iterator");
}

/// ### 8.3.1 Intl.getCanonicalLocales ( locales )
fn get_canonical_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let ll be ? CanonicalizeLocaleList(locales).
    let list = locales::canonicalize_locale_list(vm, arg(args, 0))?;
    // 2. Return CreateArrayFromList(ll).
    let values: Vec<Value> = list.iter().map(|s| vm.str(s)).collect();
    Ok(vm.new_array(values))
}

/// The normative optional constructor mode of §4.3 Note 1, which Amber implements as V8
/// does: ChainDateTimeFormat and ChainNumberFormat. When the constructor `ctor` was called
/// without `new` (`new_target` undefined) on a `this` that is an instance of it, the new
/// object `made` is stored on `this` under %Intl%.[[FallbackSymbol]] and `this` is returned.
pub(crate) fn chain_legacy(
    vm: &mut Vm,
    ctor: ObjectId,
    new_target: Value,
    made: Value,
    this: Value,
) -> JsResult<Value> {
    // 1. If NewTarget is undefined and ? OrdinaryHasInstance(ctor, this) is true, then
    if new_target.is_undefined() && ordinary_has_instance(vm, Value::object(ctor), this)? {
        let Some(o) = this.as_object() else { return Ok(made) };
        // a. Perform ? DefinePropertyOrThrow(this, %Intl%.[[FallbackSymbol]],
        //    PropertyDescriptor{ [[Value]]: made, [[Writable]]: false, [[Enumerable]]: false,
        //    [[Configurable]]: false }).
        let key = PropertyKey::Symbol(vm.realm.intl_fallback_symbol);
        define_property_or_throw(vm, o, key, PropertyDescriptor::data(made, PropFlags::NONE))?;
        // b. Return this.
        return Ok(this);
    }
    // 2. Return made.
    Ok(made)
}

/// The first steps of UnwrapDateTimeFormat and UnwrapNumberFormat: when
/// `value` is an object without the slots `has_slots` looks for that is an instance of
/// `ctor`, the object stored under %Intl%.[[FallbackSymbol]]; otherwise `value` itself (the
/// caller then requires the slots).
pub(crate) fn unwrap_legacy(
    vm: &mut Vm,
    ctor: ObjectId,
    value: Value,
    has_slots: fn(&IntlSlots) -> bool,
) -> JsResult<Value> {
    let Some(o) = value.as_object() else { return Ok(value) };
    if let Class::Intl(s) = &vm.heap.obj(o).class {
        if has_slots(s) {
            return Ok(value);
        }
    }
    if ordinary_has_instance(vm, Value::object(ctor), value)? {
        let key = PropertyKey::Symbol(vm.realm.intl_fallback_symbol);
        return get(vm, o, key, value);
    }
    Ok(value)
}

/// A new Intl object with prototype `proto`.
pub(crate) fn create(vm: &mut Vm, proto: ObjectId, slots: IntlSlots) -> Value {
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Intl(Box::new(slots)))))
}

/// Missing ICU4X data for a locale the engine resolved: a RangeError (it cannot happen with
/// the compiled data for a resolved locale, but is an error, never a panic).
pub(crate) fn data_error(vm: &mut Vm, e: icu_provider::DataError) -> Throw {
    vm.range_error(format!("locale data unavailable: {e}"))
}

/// The object `resolvedOptions()` returns, built property by property in the spec's order.
pub(crate) struct ResultObject(ObjectId);

impl ResultObject {
    pub(crate) fn new(vm: &mut Vm) -> ResultObject {
        let op = vm.realm.object_prototype;
        ResultObject(vm.heap.new_plain(Some(op)))
    }
    pub(crate) fn value(&mut self, vm: &mut Vm, name: &str, value: Value) {
        let key = vm.key(name);
        // A fresh ordinary object: CreateDataPropertyOrThrow cannot fail.
        let _ = create_data_property_or_throw(vm, self.0, key, value);
    }
    pub(crate) fn string(&mut self, vm: &mut Vm, name: &str, value: &str) {
        let v = vm.str(value);
        self.value(vm, name, v);
    }
    pub(crate) fn number(&mut self, vm: &mut Vm, name: &str, value: f64) {
        self.value(vm, name, Value::number(value));
    }
    pub(crate) fn boolean(&mut self, vm: &mut Vm, name: &str, value: bool) {
        self.value(vm, name, Value::bool(value));
    }
    pub(crate) fn finish(self) -> Value {
        Value::object(self.0)
    }
}
