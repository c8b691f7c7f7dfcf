//! Intl.ListFormat (ECMA-402 §13): https://tc39.es/ecma402/#listformat-objects
//!
//! CLDR's list patterns through ICU4X `icu_list` (which also picks the contextual forms,
//! Spanish "y" → "e" before an /i/ sound). ICU4X formats Rust strings; the elements of the
//! result are the caller's JS strings themselves (lone surrogates kept), only the literals
//! between them come from ICU4X.

use icu_list::options::{ListFormatterOptions, ListLength};
use icu_list::ListFormatter;
use icu_locale_core::Locale;
use writeable::{Part as WPart, PartsWrite, Writeable};

use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of};
use super::options::get_string_option;
use super::{create, data_error, ResultObject};
use crate::builtins::temporal::get_options_object;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, ListFormatSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_js_str;
use crate::runtime::iterator::{get_iterator_rooted, iterator_close, iterator_step_value};
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.ListFormat", 0, constructor),
    native!("Intl.ListFormat.supportedLocalesOf", 1, supported_locales),
    native!("Intl.ListFormat.prototype.format", 1, format),
    native!("Intl.ListFormat.prototype.formatToParts", 1, format_to_parts),
    native!("Intl.ListFormat.prototype.resolvedOptions", 0, resolved_options),
];

/// ### 13.1.1 Intl.ListFormat ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.ListFormat requires 'new'"));
    }
    // 2. Let listFormat be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.ListFormat.prototype%", …).
    let default = vm.realm.intl_list_format_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 4. Set options to ? GetOptionsObject(options).
    let options = get_options_object(vm, arg(args, 1))?;
    // 6. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 8. Let r be ResolveLocale(%Intl.ListFormat%.[[AvailableLocales]], requestedLocales, opt, « », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &[], &[]);
    // 11. Let type be ? GetOption(options, "type", string, « "conjunction", "disjunction", "unit" », "conjunction").
    let kind = get_string_option(vm, options, "type", &["conjunction", "disjunction", "unit"], Some("conjunction"))?
        .unwrap_or_default();
    // 13. Let style be ? GetOption(options, "style", string, « "long", "short", "narrow" », "long").
    let style =
        get_string_option(vm, options, "style", &["long", "short", "narrow"], Some("long"))?.unwrap_or_default();
    let slots = ListFormatSlots { locale: r.locale, kind, style };
    Ok(create(vm, proto, IntlSlots::ListFormat(slots)))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_list_format(vm: &mut Vm, this: Value, method: &str) -> JsResult<ListFormatSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::ListFormat(l) = &**s {
                return Ok(l.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.ListFormat.prototype.{method} called on incompatible receiver")))
}

/// ### 13.5.5 StringListFromIterable ( iterable )
fn string_list_from_iterable(vm: &mut Vm, iterable: Value) -> JsResult<Vec<JsStr>> {
    // 1. If iterable is undefined, return a new empty List.
    if iterable.is_undefined() {
        return Ok(Vec::new());
    }
    // 2. Let iteratorRecord be ? GetIterator(iterable, sync).
    let mut record = get_iterator_rooted(vm, iterable)?;
    // 3. Let list be a new empty List.
    let mut list = Vec::new();
    // 4. Repeat,
    loop {
        vm.charge(1)?;
        // a. Let next be ? IteratorStepValue(iteratorRecord).
        // b. If next is done, return list.
        let Some(next) = iterator_step_value(vm, &mut record)? else {
            return Ok(list);
        };
        // c. If next is not a String, then
        if !next.is_string() {
            // i. Let error be ThrowCompletion(a newly created TypeError object).
            let error = vm.type_error("Iterable yielded a value that is not a string");
            // ii. Return ? IteratorClose(iteratorRecord, error).
            iterator_close(vm, &record, Err(error))?;
            return Ok(list);
        }
        // d. Append next to list.
        list.push(to_js_str(vm, next)?);
    }
}

/// The pieces of a formatted list: each element (by index) or a literal.
enum Piece {
    Element(usize),
    Literal(String),
}

/// A [`PartsWrite`] sink that records the literal text between ICU4X's element parts.
struct Collector {
    pieces: Vec<Piece>,
    /// Text written outside any part, or inside a literal part.
    literal: String,
    elements: usize,
    in_element: bool,
}

impl std::fmt::Write for Collector {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if !self.in_element {
            self.literal.push_str(s);
        }
        Ok(())
    }
}

impl PartsWrite for Collector {
    type SubPartsWrite = Collector;
    fn with_part(
        &mut self,
        part: WPart,
        mut f: impl FnMut(&mut Self::SubPartsWrite) -> std::fmt::Result,
    ) -> std::fmt::Result {
        if part == icu_list::parts::ELEMENT {
            if !self.literal.is_empty() {
                self.pieces.push(Piece::Literal(std::mem::take(&mut self.literal)));
            }
            self.in_element = true;
            f(self)?;
            self.in_element = false;
            self.pieces.push(Piece::Element(self.elements));
            self.elements += 1;
            Ok(())
        } else {
            f(self)
        }
    }
}

/// ### 13.5.2 CreatePartsFromList ( listFormat, list ): the parts as (is element, text).
pub(crate) fn create_parts_from_list(
    vm: &mut Vm,
    slots: &ListFormatSlots,
    list: &[JsStr],
) -> JsResult<Vec<(bool, JsStr)>> {
    let units: usize = list.iter().map(JsStr::len).sum();
    vm.charge(units as u64 / 16 + list.len() as u64)?;
    let locale = Locale::try_from_str(&slots.locale).unwrap_or(Locale::UNKNOWN);
    let length = match slots.style.as_str() {
        "short" => ListLength::Short,
        "narrow" => ListLength::Narrow,
        _ => ListLength::Wide,
    };
    let options = ListFormatterOptions::default().with_length(length);
    let formatter = match slots.kind.as_str() {
        "disjunction" => ListFormatter::try_new_or((&locale).into(), options),
        "unit" => ListFormatter::try_new_unit((&locale).into(), options),
        _ => ListFormatter::try_new_and((&locale).into(), options),
    }
    .map_err(|e| data_error(vm, e))?;
    // ICU4X sees the elements as Rust strings (a lone surrogate becomes U+FFFD there); the
    // parts take the JS strings themselves.
    let texts: Vec<String> = list.iter().map(JsStr::to_rust_string).collect();
    let mut sink = Collector { pieces: Vec::new(), literal: String::new(), elements: 0, in_element: false };
    // Writing to a Collector cannot fail.
    let _ = formatter.format(texts.iter().map(String::as_str)).write_to_parts(&mut sink);
    if !sink.literal.is_empty() {
        sink.pieces.push(Piece::Literal(std::mem::take(&mut sink.literal)));
    }
    Ok(sink
        .pieces
        .into_iter()
        .map(|p| match p {
            Piece::Element(i) => (true, list.get(i).cloned().unwrap_or_else(JsStr::empty)),
            Piece::Literal(s) => (false, JsStr::from_str(&s)),
        })
        .collect())
}

/// ### 13.3.3 Intl.ListFormat.prototype.format ( list )
fn format(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let lf be the this value; RequireInternalSlot(lf, [[InitializedListFormat]]).
    let slots = this_list_format(vm, this, "format")?;
    // 3. Let stringList be ? StringListFromIterable(list).
    let list = string_list_from_iterable(vm, arg(args, 0))?;
    // 4. Return FormatList(lf, stringList).
    let parts = create_parts_from_list(vm, &slots, &list)?;
    let mut result = JsStr::empty();
    for (_, s) in &parts {
        result = result.concat(s);
    }
    Ok(vm.js_str(result))
}

/// ### 13.3.4 Intl.ListFormat.prototype.formatToParts ( list )
fn format_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let slots = this_list_format(vm, this, "formatToParts")?;
    // 3. Let stringList be ? StringListFromIterable(list).
    let list = string_list_from_iterable(vm, arg(args, 0))?;
    // 4. Return FormatListToParts(lf, stringList).
    let parts = create_parts_from_list(vm, &slots, &list)?;
    let mut values = Vec::with_capacity(parts.len());
    for (element, s) in parts {
        let mut o = ResultObject::new(vm);
        o.string(vm, "type", if element { "element" } else { "literal" });
        let v = vm.js_str(s);
        o.value(vm, "value", v);
        values.push(o.finish());
    }
    Ok(vm.new_array(values))
}

/// ### 13.3.5 Intl.ListFormat.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_list_format(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "type", &slots.kind);
    out.string(vm, "style", &slots.style);
    Ok(out.finish())
}
