//! Intl.Segmenter (ECMA-402 §19): https://tc39.es/ecma402/#segmenter-objects
//!
//! Grapheme, word and sentence boundaries are UAX #29's with CLDR's tailorings, through
//! ICU4X `icu_segmenter` (its `auto` word segmenter: dictionaries for Chinese and Japanese,
//! LSTM models for Thai, Lao, Khmer and Burmese). A Segments object computes every
//! boundary of its string once and keeps them as plain data (with each word segment's
//! word-likeness), so a Segments object or a suspended Segment Iterator in an image holds
//! positions, never an ICU4X iterator.

use icu_locale_core::{LanguageIdentifier, Locale};
use icu_segmenter::options::{SentenceBreakOptions, WordBreakOptions};
use icu_segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};

use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of};
use super::options::get_string_option;
use super::{create, data_error, ResultObject};
use crate::builtins::temporal::get_options_object;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, SegmentIteratorSlots, SegmenterSlots, SegmentsSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{to_integer_or_infinity, to_js_str, to_string};
use crate::runtime::iterator::create_iter_result_object;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.Segmenter", 0, constructor),
    native!("Intl.Segmenter.supportedLocalesOf", 1, supported_locales),
    native!("Intl.Segmenter.prototype.segment", 1, segment),
    native!("Intl.Segmenter.prototype.resolvedOptions", 0, resolved_options),
    native!("%IntlSegmentsPrototype%.containing", 1, containing),
    native!("%IntlSegmentsPrototype%[Symbol.iterator]", 0, segments_iterator),
    native!("%IntlSegmentIteratorPrototype%.next", 0, iterator_next),
];

/// ### 19.1.1 Intl.Segmenter ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.Segmenter requires 'new'"));
    }
    // 3. Let segmenter be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.Segmenter.prototype%", …).
    let default = vm.realm.intl_segmenter_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 4. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 5. Set options to ? GetOptionsObject(options).
    let options = get_options_object(vm, arg(args, 1))?;
    // 7. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 9. Let r be ResolveLocale(%Intl.Segmenter%.[[AvailableLocales]], requestedLocales, opt, « », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &[], &[]);
    // 11. Let granularity be ? GetOption(options, "granularity", string, « "grapheme", "word", "sentence" », "grapheme").
    let granularity =
        get_string_option(vm, options, "granularity", &["grapheme", "word", "sentence"], Some("grapheme"))?
            .unwrap_or_default();
    Ok(create(vm, proto, IntlSlots::Segmenter(SegmenterSlots { locale: r.locale, granularity })))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_segmenter(vm: &mut Vm, this: Value, method: &str) -> JsResult<SegmenterSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::Segmenter(seg) = &**s {
                return Ok(seg.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.Segmenter.prototype.{method} called on incompatible receiver")))
}

/// The boundaries of `units` (0 and the length included) and, for words, whether the
/// segment ending at each boundary is word-like.
fn boundaries(vm: &mut Vm, slots: &SegmenterSlots, units: &[u16]) -> JsResult<(Vec<u32>, Vec<bool>)> {
    vm.charge(units.len() as u64 / 4 + 1)?;
    let language: Option<LanguageIdentifier> = Locale::try_from_str(&slots.locale).ok().map(|l| l.id);
    let mut breaks = Vec::new();
    let mut word_like = Vec::new();
    match slots.granularity.as_str() {
        "word" => {
            let mut options = WordBreakOptions::default();
            options.content_locale = language.as_ref();
            let segmenter = WordSegmenter::try_new_auto(options).map_err(|e| data_error(vm, e))?;
            for (b, kind) in segmenter.as_borrowed().segment_utf16(units).iter_with_word_type() {
                breaks.push(b as u32);
                word_like.push(kind.is_word_like());
            }
        }
        "sentence" => {
            let mut options = SentenceBreakOptions::default();
            options.content_locale = language.as_ref();
            let segmenter = SentenceSegmenter::try_new(options).map_err(|e| data_error(vm, e))?;
            breaks.extend(segmenter.as_borrowed().segment_utf16(units).map(|b| b as u32));
        }
        _ => breaks.extend(GraphemeClusterSegmenter::new().segment_utf16(units).map(|b| b as u32)),
    }
    if breaks.first() != Some(&0) {
        breaks.insert(0, 0);
        if !word_like.is_empty() {
            word_like.insert(0, false);
        }
    }
    Ok((breaks, word_like))
}

/// ### 19.3.3 Intl.Segmenter.prototype.segment ( string )
fn segment(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let segmenter be the this value; RequireInternalSlot(segmenter, [[InitializedSegmenter]]).
    let slots = this_segmenter(vm, this, "segment")?;
    // 3. Let string be ? ToString(string).
    let string = Value::string(to_string(vm, arg(args, 0))?);
    let text = to_js_str(vm, string)?;
    // 4. Return CreateSegmentsObject(segmenter, string).
    let (breaks, word_like) = boundaries(vm, &slots, &text.units())?;
    let proto = vm.realm.intl_segments_prototype;
    let segments = SegmentsSlots { granularity: slots.granularity, string, breaks, word_like };
    Ok(create(vm, proto, IntlSlots::Segments(segments)))
}

/// ### 19.3.4 Intl.Segmenter.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_segmenter(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "granularity", &slots.granularity);
    Ok(out.finish())
}

/// One segment of a Segments object: its string, bounds and (for words) word-likeness.
struct Found {
    string: Value,
    start: u32,
    end: u32,
    word_like: Option<bool>,
}

/// The Segments slots of `o`, borrowed.
fn segments_ref(vm: &Vm, o: Value) -> Option<&SegmentsSlots> {
    match &vm.heap.obj(o.as_object()?).class {
        Class::Intl(s) => match &**s {
            IntlSlots::Segments(seg) => Some(seg),
            _ => None,
        },
        _ => None,
    }
}

/// The string's length and the segment that contains code unit `n` (None past the end),
/// read in place: iterating never copies the boundary list.
fn find_segment(segments: &SegmentsSlots, n: u32) -> (u32, Option<Found>) {
    let len = segments.breaks.last().copied().unwrap_or(0);
    if n >= len {
        return (len, None);
    }
    // The first boundary after n ends the segment; the one before it starts it.
    let k = segments.breaks.partition_point(|&b| b <= n);
    let start = k.checked_sub(1).and_then(|i| segments.breaks.get(i)).copied().unwrap_or(0);
    let end = segments.breaks.get(k).copied().unwrap_or(len);
    let word_like = (segments.granularity == "word").then(|| segments.word_like.get(k).copied().unwrap_or(false));
    (len, Some(Found { string: segments.string, start, end, word_like }))
}

/// ### 19.7.1 CreateSegmentDataObject ( segmenter, string, startIndex, endIndex )
fn segment_data(vm: &mut Vm, found: Found) -> JsResult<Value> {
    let text = to_js_str(vm, found.string)?;
    let mut out = ResultObject::new(vm);
    // 5-6. "segment": the substring of string from startIndex to endIndex.
    let s = vm.js_str(text.slice(found.start as usize, found.end as usize));
    out.value(vm, "segment", s);
    // 7. "index": 𝔽(startIndex).
    out.number(vm, "index", f64::from(found.start));
    // 8. "input": string.
    out.value(vm, "input", found.string);
    // 9-10. "isWordLike" for word granularity.
    if let Some(w) = found.word_like {
        out.boolean(vm, "isWordLike", w);
    }
    Ok(out.finish())
}

fn incompatible(vm: &mut Vm, method: &str) -> crate::error::Throw {
    vm.type_error(format!("Method {method} called on incompatible receiver"))
}

/// ### 19.5.2.1 %IntlSegmentsPrototype%.containing ( index )
fn containing(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let segments be the this value; RequireInternalSlot(segments, [[SegmentsSegmenter]]).
    if segments_ref(vm, this).is_none() {
        return Err(incompatible(vm, "%Segments.prototype%.containing"));
    }
    // 6. Let n be ? ToIntegerOrInfinity(index).
    let n = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5, 7. If n < 0 or n ≥ len (the string's length), return undefined.
    if n < 0.0 || n >= f64::from(u32::MAX) {
        return Ok(Value::UNDEFINED);
    }
    let found = segments_ref(vm, this).and_then(|s| find_segment(s, n as u32).1);
    // 8-10. Return CreateSegmentDataObject(segmenter, string, startIndex, endIndex).
    match found {
        Some(f) => segment_data(vm, f),
        None => Ok(Value::UNDEFINED),
    }
}

/// ### 19.5.2.2 %IntlSegmentsPrototype% [ %Symbol.iterator% ] ( )
fn segments_iterator(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(segments, [[SegmentsSegmenter]]).
    let (Some(segments), true) = (this.as_object(), segments_ref(vm, this).is_some()) else {
        return Err(incompatible(vm, "%Segments.prototype%[Symbol.iterator]"));
    };
    // 5. Return CreateSegmentIterator(segmenter, string).
    let proto = vm.realm.intl_segment_iterator_prototype;
    Ok(create(vm, proto, IntlSlots::SegmentIterator(SegmentIteratorSlots { segments, position: 0 })))
}

/// The iterator slots of `this`, borrowed mutably.
fn iterator_mut(vm: &mut Vm, this: Value) -> Option<&mut SegmentIteratorSlots> {
    match &mut vm.heap.obj_mut(this.as_object()?).class {
        Class::Intl(s) => match &mut **s {
            IntlSlots::SegmentIterator(it) => Some(it),
            _ => None,
        },
        _ => None,
    }
}

/// ### 19.6.2.1 %IntlSegmentIteratorPrototype%.next ( )
fn iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let iterator be the this value; RequireInternalSlot(iterator, [[IteratingSegmenter]]).
    let Some((segments, position)) = iterator_mut(vm, this).map(|it| (it.segments, it.position)) else {
        return Err(incompatible(vm, "%SegmentIterator.prototype%.next"));
    };
    // 3-6. If startIndex ≥ len, return CreateIteratorResultObject(undefined, true).
    let Some(found) = segments_ref(vm, Value::object(segments)).and_then(|s| find_segment(s, position).1) else {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    };
    // 7-8. Let endIndex be FindBoundary(segmenter, string, startIndex, after); set the position.
    if let Some(it) = iterator_mut(vm, this) {
        it.position = found.end;
    }
    // 9-10. Return CreateIteratorResultObject(CreateSegmentDataObject(…), false).
    let data = segment_data(vm, found)?;
    Ok(create_iter_result_object(vm, data, false))
}
