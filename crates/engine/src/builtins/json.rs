//! The JSON object (ECMA-262 §25.5): https://tc39.es/ecma262/#sec-json-object
//!
//! Parsing, the reviver walk and serialization are all iterative (explicit stacks, never
//! native recursion), so nesting depth is bounded by `VmOptions::max_stack_depth` with a
//! RangeError, not by the Rust stack. Work is charged as fuel in proportion to input and
//! output size. Error messages follow V8's (Node 20) wording.

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, NativeDef};
use crate::error::{JsResult, Throw};
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{
    is_array, key_to_value, number_to_string, to_integer_or_infinity, to_js_str, to_number, to_string,
};
use crate::runtime::property::{
    create_data_property, create_data_property_or_throw, delete, get, get_own_property, get_v, length_of_array_like,
    own_property_keys,
};
use crate::string::JsStr;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("JSON.parse", 2, parse),
    native!("JSON.stringify", 3, stringify),
    native!("JSON.rawJSON", 1, raw_json),
    native!("JSON.isRawJSON", 1, is_raw_json),
];

pub(crate) fn init(vm: &mut Vm) {
    // §25.5: the JSON object is an ordinary object whose [[Prototype]] is %Object.prototype%.
    let proto = vm.realm.object_prototype;
    let json = vm.heap.new_plain(Some(proto));
    install(vm, json, "JSON", NATIVES);
    // 25.5.3 JSON [ %Symbol.toStringTag% ]: "JSON", configurable only.
    let tag = vm.str("JSON");
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(json, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));
    let global = vm.global;
    let key = vm.key("JSON");
    vm.define_builtin(global, key, Value::object(json), PropFlags::HIDDEN);
}

/// The RangeError for nesting deeper than the VM's stack-depth limit.
fn too_deep(vm: &mut Vm) -> Throw {
    vm.range_error("Maximum call stack size exceeded")
}

/// The property key of an integer index (array index or its canonical string).
fn index_key(vm: &mut Vm, i: u64) -> PropertyKey {
    match u32::try_from(i) {
        Ok(i) if i < u32::MAX => PropertyKey::Index(i),
        _ => vm.key(&i.to_string()),
    }
}

/// EnumerableOwnProperties(O, key) (§7.3.23): own enumerable string keys, in order.
fn enumerable_own_keys(vm: &mut Vm, o: ObjectId) -> JsResult<Vec<PropertyKey>> {
    // 1. Let ownKeys be ? O.[[OwnPropertyKeys]]().
    let own_keys = own_property_keys(vm, o)?;
    // 2. Let results be a new empty List.
    let mut results = Vec::with_capacity(own_keys.len());
    vm.charge(own_keys.len() as u64 / 4)?;
    // 3. For each element key of ownKeys, do
    for key in own_keys {
        // a. If key is a String, then
        if let PropertyKey::Symbol(_) = key {
            continue;
        }
        // i. Let desc be ? O.[[GetOwnProperty]](key).
        // ii. If desc is not undefined and desc.[[Enumerable]] is true, then
        //     1. If kind is key, append key to results.
        if let Some(desc) = get_own_property(vm, o, key)? {
            if desc.enumerable == Some(true) {
                results.push(key);
            }
        }
    }
    // 4. Return results.
    Ok(results)
}

// ---- JSON.parse

/// ### 25.5.1 JSON.parse ( text [ , reviver ] )
/// https://tc39.es/ecma262/#sec-json.parse
fn parse(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let reviver = arg(args, 1);
    // 1. Let jsonString be ? ToString(text).
    let json_string = to_js_str(vm, arg(args, 0))?;
    vm.charge(json_string.len() as u64 / 8)?;
    // 2. Parse StringToCodePoints(jsonString) as a JSON text as specified in ECMA-404. Throw a
    //    SyntaxError exception if it is not a valid JSON text as defined in that specification.
    // 3. Let scriptString be the string-concatenation of "(", jsonString, and ");".
    // 4. Let script be ParseText(scriptString, Script).
    // 5. NOTE: The early error rules defined in 13.2.5.1 have special handling for the above
    //    invocation of ParseText.
    // 6. Assert: script is a Parse Node.
    // 7. Let completion be Completion(Evaluation of script).
    // 8. NOTE: The PropertyDefinitionEvaluation semantics defined in 13.2.5.5 have special
    //    handling for the above evaluation.
    // 9. Let unfiltered be completion.[[Value]].
    // 10. Assert: unfiltered is either a String, a Number, a Boolean, an Object that is defined
    //     by either an ArrayLiteral or an ObjectLiteral, or null.
    // 11. If IsCallable(reviver) is true, then
    if is_callable(vm, reviver) {
        // (json-parse-with-source: the text's JSON Parse Record gives the reviver each
        // unmodified primitive's source.)
        let (unfiltered, record) = JsonParser::new(&json_string).parse_with_record(vm)?;
        let mut held = Vec::new();
        record.values(&mut held);
        vm.roots.extend(held);
        // a. Let root be OrdinaryObjectCreate(%Object.prototype%).
        let root = vm.new_object();
        vm.roots.push(root);
        let Some(root_id) = root.as_object() else { return Ok(unfiltered) };
        // b. Let rootName be the empty String.
        let root_name = PropertyKey::Atom(atom::empty);
        // c. Perform ! CreateDataPropertyOrThrow(root, rootName, unfiltered).
        create_data_property_or_throw(vm, root_id, root_name, unfiltered)?;
        // d. Return ? InternalizeJSONProperty(root, rootName, reviver, snapshot).
        return internalize_json_property(vm, root_id, root_name, reviver, record, &json_string);
    }
    // 12. Else, a. Return unfiltered.
    JsonParser::new(&json_string).parse(vm)
}

/// ### JSON.rawJSON ( text )
/// https://tc39.es/proposal-json-parse-with-source/#sec-json.rawjson
fn raw_json(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let jsonString be ? ToString(text).
    let json_string = to_js_str(vm, arg(args, 0))?;
    vm.charge(json_string.len() as u64 / 8)?;
    // 2. Throw a SyntaxError exception if jsonString is the empty String, or if either the
    //    first or last code unit of jsonString is any of 0x0009, 0x000A, 0x000D, or 0x0020.
    let blank = |u: u16| matches!(u, 0x9 | 0xA | 0xD | 0x20);
    let len = json_string.len();
    if len == 0 || blank(json_string.unit(0)) || blank(json_string.unit(len - 1)) {
        return Err(vm.throw(
            crate::error::ErrorKind::SyntaxError,
            "JSON.rawJSON: the text is empty or starts or ends with whitespace",
        ));
    }
    // 3. Parse StringToCodePoints(jsonString) as a JSON text. Throw a SyntaxError exception if
    //    it is not a valid JSON text, or if its outermost value is an object or array.
    let value = JsonParser::new(&json_string).parse(vm)?;
    if value.is_object() {
        return Err(vm.throw(crate::error::ErrorKind::SyntaxError, "JSON.rawJSON: the text must be a primitive value"));
    }
    // 4-5. Let obj be OrdinaryObjectCreate(null, « [[IsRawJSON]] »).
    let obj = vm.heap.alloc_object(crate::heap::object::Object::new(None, Class::RawJson));
    // 6. Perform ! CreateDataPropertyOrThrow(obj, "rawJSON", jsonString).
    let key = vm.key("rawJSON");
    let text = vm.js_str(json_string);
    create_data_property_or_throw(vm, obj, key, text)?;
    // 7. Perform ! SetIntegrityLevel(obj, frozen).
    crate::builtins::object::set_integrity_level(vm, obj, true)?;
    // 8. Return obj.
    Ok(Value::object(obj))
}

/// ### JSON.isRawJSON ( O )
fn is_raw_json(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If O is an Object and O has an [[IsRawJSON]] internal slot, return true.
    let raw = arg(args, 0).as_object().is_some_and(|o| matches!(vm.heap.obj(o).class, Class::RawJson));
    Ok(Value::bool(raw))
}

/// The children still to visit of a value being internalized.
enum ReviveKeys {
    /// An array: indices `next..len`.
    Indices { len: u64, next: u64 },
    /// An ordinary object: its enumerable own keys from `next`.
    Keys { keys: Vec<PropertyKey>, next: usize },
}

/// One pending InternalizeJSONProperty(holder, name) call whose value is an object.
struct ReviveFrame {
    holder: ObjectId,
    name: PropertyKey,
    val: ObjectId,
    keys: ReviveKeys,
    /// The child key whose result is awaited.
    current: Option<PropertyKey>,
    /// The parse records of the value's children, while the value is the one parsed.
    children: Vec<(PropertyKey, ParseRecord)>,
    /// The reviver's third argument.
    context: Value,
    roots: usize,
}

/// InternalizeJSONProperty (§25.5.1.1), walked with an explicit stack: every JS call (the
/// reviver, getters, proxy traps) is a leaf, so nesting never recurses on the native stack.
fn internalize_json_property(
    vm: &mut Vm,
    holder: ObjectId,
    name: PropertyKey,
    reviver: Value,
    record: ParseRecord,
    source: &JsStr,
) -> JsResult<Value> {
    let mut frames: Vec<ReviveFrame> = Vec::new();
    // The completed result of the innermost call, to hand to its parent frame.
    let mut result = revive_enter(vm, holder, name, reviver, Some(record), source, &mut frames)?;
    loop {
        let Some(top) = frames.last_mut() else { return Ok(result.unwrap_or_default()) };
        // The parent's steps for the child that just completed:
        // 2.b.iii.2 / 2.c.ii.2: If newElement is undefined, then
        //    a. Perform ? val.[[Delete]](prop).
        // 2.b.iii.3 / 2.c.ii.3: Else,
        //    a. Perform ? CreateDataProperty(val, prop, newElement).
        if let (Some(new_element), Some(prop)) = (result.take(), top.current.take()) {
            let val = top.val;
            if new_element.is_undefined() {
                delete(vm, val, prop)?;
            } else {
                create_data_property(vm, val, prop, new_element)?;
            }
        }
        result = match next_revive_key(vm, &mut frames)? {
            // Let newElement be ? InternalizeJSONProperty(val, prop, reviver, record).
            Some((val, prop, record)) => revive_enter(vm, val, prop, reviver, record, source, &mut frames)?,
            None => Some(revive_leave(vm, reviver, &mut frames)?),
        };
    }
}

/// The next child of the top frame (with its parse record, if any), marking it as awaited.
type NextChild = Option<(ObjectId, PropertyKey, Option<ParseRecord>)>;
fn next_revive_key(vm: &mut Vm, frames: &mut [ReviveFrame]) -> JsResult<NextChild> {
    let Some(top) = frames.last_mut() else { return Ok(None) };
    let val = top.val;
    let key = match &mut top.keys {
        ReviveKeys::Indices { len, next } => {
            if *next >= *len {
                return Ok(None);
            }
            *next += 1;
            let i = *next - 1;
            index_key(vm, i)
        }
        ReviveKeys::Keys { keys, next } => match keys.get(*next) {
            Some(&k) => {
                *next += 1;
                k
            }
            None => return Ok(None),
        },
    };
    vm.charge(1)?;
    let mut record = None;
    if let Some(top) = frames.last_mut() {
        top.current = Some(key);
        // The last entry of the name (duplicate names: the last one's value is the one kept).
        if let Some(i) = top.children.iter().rposition(|(k, _)| *k == key) {
            record = Some(std::mem::take(&mut top.children[i].1));
        }
    }
    Ok(Some((val, key, record)))
}

/// Steps 1–2 of InternalizeJSONProperty: a primitive completes at once (step 3, returned);
/// an object pushes a frame (None).
fn revive_enter(
    vm: &mut Vm,
    holder: ObjectId,
    name: PropertyKey,
    reviver: Value,
    record: Option<ParseRecord>,
    source: &JsStr,
    frames: &mut Vec<ReviveFrame>,
) -> JsResult<Option<Value>> {
    // 1. Let val be ? Get(holder, name).
    let val = get(vm, holder, name, Value::object(holder))?;
    // 2. Let context be OrdinaryObjectCreate(%Object.prototype%).
    let context = vm.new_object();
    // 3. If parseRecord is a JSON Parse Record and SameValue(parseRecord.[[Value]], val) is
    //    true, then: a primitive's source goes in context; the children's records are used.
    let mut children = Vec::new();
    if let Some(record) = record.filter(|r| crate::runtime::operators::same_value(r.value, val)) {
        if let (false, Some((start, end)), Some(c)) = (val.is_object(), record.source, context.as_object()) {
            let text = vm.js_str(source.slice(start, end));
            let key = vm.key("source");
            create_data_property_or_throw(vm, c, key, text)?;
        }
        children = record.children;
    }
    // 4. If val is an Object, then
    let Some(val_obj) = val.as_object() else {
        // 5. Return ? Call(reviver, holder, « name, val, context »).
        let name_value = key_to_value(vm, name);
        return call(vm, reviver, Value::object(holder), &[name_value, val, context]).map(Some);
    };
    if frames.len() >= vm.options.max_stack_depth {
        return Err(too_deep(vm));
    }
    let roots = vm.roots.len();
    vm.roots.push(val);
    vm.roots.push(context);
    // a. Let isArray be ? IsArray(val).
    let keys = if is_array(vm, val)? {
        // b. If isArray is true, then
        //    i. Let len be ? LengthOfArrayLike(val).
        //    ii. Let I be 0.
        //    iii. Repeat, while I < len, … (visited one key at a time).
        ReviveKeys::Indices { len: length_of_array_like(vm, val_obj)?, next: 0 }
    } else {
        // c. Else,
        //    i. Let keys be ? EnumerableOwnProperties(val, key).
        //    ii. For each String P of keys, do … (visited one key at a time).
        ReviveKeys::Keys { keys: enumerable_own_keys(vm, val_obj)?, next: 0 }
    };
    frames.push(ReviveFrame { holder, name, val: val_obj, keys, current: None, children, context, roots });
    Ok(None)
}

/// Step 3 for a finished object frame: pop it and call the reviver.
fn revive_leave(vm: &mut Vm, reviver: Value, frames: &mut Vec<ReviveFrame>) -> JsResult<Value> {
    let Some(frame) = frames.pop() else { return Ok(Value::UNDEFINED) };
    // 3. Return ? Call(reviver, holder, « name, val »).
    let name_value = key_to_value(vm, frame.name);
    let r = call(vm, reviver, Value::object(frame.holder), &[name_value, Value::object(frame.val), frame.context]);
    vm.roots.truncate(frame.roots);
    r
}

/// A container being filled by the parser.
enum Open {
    Array(Vec<Value>),
    /// An object and the key of the member whose value is being parsed.
    Object(ObjectId, PropertyKey),
}

/// The V8-compatible JSON parser over UTF-16 code units.
struct JsonParser<'a> {
    src: &'a JsStr,
    pos: usize,
    /// JSON Parse Records (json-parse-with-source) of the open containers' finished children,
    /// when a reviver will want them: one list per entry of the parser's container stack.
    records: Option<Vec<Vec<(PropertyKey, ParseRecord)>>>,
}

/// A JSON Parse Record: a parsed value, the source text of a primitive, and the records of
/// an array's elements or an object's entries (the last of duplicate names counts).
#[derive(Default)]
struct ParseRecord {
    value: Value,
    source: Option<(usize, usize)>,
    children: Vec<(PropertyKey, ParseRecord)>,
}

impl ParseRecord {
    /// Every value the record holds, to keep alive while the reviver runs (a value it
    /// deletes must not be collected and its handle reused by one the record would then
    /// wrongly match).
    fn values(&self, out: &mut Vec<Value>) {
        let mut todo = vec![self];
        while let Some(r) = todo.pop() {
            out.push(r.value);
            todo.extend(r.children.iter().map(|(_, c)| c));
        }
    }
}

impl<'a> JsonParser<'a> {
    fn new(src: &'a JsStr) -> Self {
        JsonParser { src, pos: 0, records: None }
    }

    /// Parse a whole JSON text, with its JSON Parse Record.
    fn parse_with_record(&mut self, vm: &mut Vm) -> JsResult<(Value, ParseRecord)> {
        self.records = Some(vec![Vec::new()]);
        let value = self.parse(vm)?;
        let record = self.records.take().and_then(|mut r| r.pop()).and_then(|mut top| top.pop()).map(|(_, r)| r);
        Ok((value, record.unwrap_or_default()))
    }

    /// Record a finished value (its source started at `start`) as the next child of the
    /// innermost open container, or as the whole text's.
    fn record(&mut self, key: PropertyKey, value: Value, start: Option<usize>) {
        let end = self.pos;
        if let Some(records) = &mut self.records {
            let children = match start {
                Some(_) => Vec::new(),
                None => records.pop().unwrap_or_default(),
            };
            let record = ParseRecord { value, source: start.map(|s| (s, end)), children };
            if let Some(top) = records.last_mut() {
                top.push((key, record));
            }
        }
    }

    /// A container opened: its children's records start.
    fn open_record(&mut self) {
        if let Some(records) = &mut self.records {
            records.push(Vec::new());
        }
    }

    fn peek(&self) -> Option<u16> {
        (self.pos < self.src.len()).then(|| self.src.unit(self.pos))
    }

    fn skip_whitespace(&mut self) {
        while let Some(c) = self.peek() {
            if matches!(c, 0x20 | 0x09 | 0x0A | 0x0D) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// Parse a whole JSON text (ECMA-404) into a value.
    fn parse(&mut self, vm: &mut Vm) -> JsResult<Value> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // A value starts here.
            self.skip_whitespace();
            vm.charge(1)?;
            vm.check_heap()?;
            let start = self.pos;
            let mut primitive = true;
            let mut value = match self.peek() {
                Some(0x7B) => {
                    // '{'
                    self.pos += 1;
                    self.skip_whitespace();
                    let obj = vm.new_object();
                    primitive = false;
                    self.open_record();
                    if self.peek() == Some(0x7D) {
                        self.pos += 1;
                        obj
                    } else {
                        let Some(o) = obj.as_object() else { return Ok(Value::UNDEFINED) };
                        if self.peek() != Some(0x22) {
                            return Err(self.error_at(vm, "Expected property name or '}'"));
                        }
                        let key = self.parse_property_key(vm)?;
                        self.skip_whitespace();
                        if self.peek() != Some(0x3A) {
                            return Err(self.error_at(vm, "Expected ':' after property name"));
                        }
                        self.pos += 1;
                        if stack.len() >= vm.options.max_stack_depth {
                            return Err(too_deep(vm));
                        }
                        stack.push(Open::Object(o, key));
                        continue;
                    }
                }
                Some(0x5B) => {
                    // '['
                    self.pos += 1;
                    self.skip_whitespace();
                    primitive = false;
                    self.open_record();
                    if self.peek() == Some(0x5D) {
                        self.pos += 1;
                        vm.new_array(Vec::new())
                    } else {
                        if stack.len() >= vm.options.max_stack_depth {
                            return Err(too_deep(vm));
                        }
                        stack.push(Open::Array(Vec::new()));
                        continue;
                    }
                }
                Some(0x22) => {
                    let s = self.parse_string(vm)?;
                    vm.js_str(s)
                }
                Some(c) if c == u16::from(b'-') || (0x30..=0x39).contains(&c) => Value::number(self.parse_number(vm)?),
                Some(0x74) => self.parse_literal(vm, "true", Value::TRUE)?,
                Some(0x66) => self.parse_literal(vm, "false", Value::FALSE)?,
                Some(0x6E) => self.parse_literal(vm, "null", Value::NULL)?,
                _ => return Err(self.unexpected(vm)),
            };
            // Hand the value to the enclosing containers, closing those that end here.
            let mut start = primitive.then_some(start);
            loop {
                if self.records.is_some() {
                    let key = match stack.last() {
                        Some(Open::Object(_, key)) => *key,
                        Some(Open::Array(items)) => index_key(vm, items.len() as u64),
                        None => PropertyKey::Atom(atom::empty),
                    };
                    self.record(key, value, start.take());
                }
                match stack.last_mut() {
                    None => {
                        self.skip_whitespace();
                        if self.pos < self.src.len() {
                            return Err(vm.syntax_error(format!(
                                "Unexpected non-whitespace character after JSON at position {}",
                                self.pos
                            )));
                        }
                        return Ok(value);
                    }
                    Some(Open::Array(items)) => {
                        items.push(value);
                        self.skip_whitespace();
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                break;
                            }
                            Some(0x5D) => {
                                self.pos += 1;
                                let Some(Open::Array(items)) = stack.pop() else { return Ok(Value::UNDEFINED) };
                                vm.charge(items.len() as u64 / 8)?;
                                value = vm.new_array(items);
                            }
                            _ => return Err(self.error_at(vm, "Expected ',' or ']' after array element")),
                        }
                    }
                    Some(Open::Object(o, key)) => {
                        let (o, key) = (*o, *key);
                        // Duplicate names: the last value wins (CreateDataProperty semantics;
                        // `__proto__` is an ordinary own property here).
                        create_data_property(vm, o, key, value)?;
                        self.skip_whitespace();
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                self.skip_whitespace();
                                if self.peek() != Some(0x22) {
                                    return Err(self.error_at(vm, "Expected double-quoted property name"));
                                }
                                let next_key = self.parse_property_key(vm)?;
                                self.skip_whitespace();
                                if self.peek() != Some(0x3A) {
                                    return Err(self.unexpected(vm));
                                }
                                self.pos += 1;
                                if let Some(Open::Object(_, k)) = stack.last_mut() {
                                    *k = next_key;
                                }
                                break;
                            }
                            Some(0x7D) => {
                                self.pos += 1;
                                stack.pop();
                                value = Value::object(o);
                            }
                            _ => return Err(self.error_at(vm, "Expected ',' or '}' after property value")),
                        }
                    }
                }
            }
        }
    }

    fn parse_property_key(&mut self, vm: &mut Vm) -> JsResult<PropertyKey> {
        let s = self.parse_string(vm)?;
        Ok(vm.heap.atoms.key_for(&s))
    }

    /// A string literal starting at the opening quote.
    fn parse_string(&mut self, vm: &mut Vm) -> JsResult<JsStr> {
        self.pos += 1;
        let mut out: Vec<u16> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at(vm, "Unterminated string"));
            };
            match c {
                0x22 => {
                    self.pos += 1;
                    return Ok(JsStr::from_units(out));
                }
                0x5C => {
                    self.pos += 1;
                    let Some(e) = self.peek() else {
                        return Err(vm.syntax_error("Unexpected end of JSON input"));
                    };
                    let unit = match e {
                        0x22 => 0x22,
                        0x5C => 0x5C,
                        0x2F => 0x2F,
                        0x62 => 0x08,
                        0x66 => 0x0C,
                        0x6E => 0x0A,
                        0x72 => 0x0D,
                        0x74 => 0x09,
                        0x75 => {
                            let mut v: u16 = 0;
                            for _ in 0..4 {
                                self.pos += 1;
                                let d =
                                    self.peek().and_then(|h| char::from_u32(u32::from(h))).and_then(|h| h.to_digit(16));
                                match d {
                                    Some(d) => v = v * 16 + d as u16,
                                    None => return Err(self.error_at(vm, "Bad Unicode escape")),
                                }
                            }
                            v
                        }
                        _ => return Err(self.error_at(vm, "Bad escaped character")),
                    };
                    out.push(unit);
                    self.pos += 1;
                }
                c if c < 0x20 => return Err(self.error_at(vm, "Bad control character in string literal")),
                c => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// A number literal: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    fn parse_number(&mut self, vm: &mut Vm) -> JsResult<f64> {
        let start = self.pos;
        let is_digit = |c: Option<u16>| c.is_some_and(|c| (0x30..=0x39).contains(&c));
        if self.peek() == Some(u16::from(b'-')) {
            self.pos += 1;
            if !is_digit(self.peek()) {
                return Err(self.error_at(vm, "No number after minus sign"));
            }
        }
        if self.peek() == Some(0x30) {
            self.pos += 1;
            if is_digit(self.peek()) {
                return Err(self.error_at(vm, "Unexpected number"));
            }
        } else {
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if self.peek() == Some(u16::from(b'.')) {
            self.pos += 1;
            if !is_digit(self.peek()) {
                return Err(self.error_at(vm, "Unterminated fractional number"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(0x65 | 0x45)) {
            self.pos += 1;
            if matches!(self.peek(), Some(0x2B | 0x2D)) {
                self.pos += 1;
            }
            if !is_digit(self.peek()) {
                return Err(self.error_at(vm, "Exponent part is missing a number"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        let text: String = (start..self.pos).map(|i| char::from(self.src.unit(i) as u8)).collect();
        // Correctly rounded, like every ECMAScript numeric literal; -0 is kept.
        Ok(text.parse::<f64>().unwrap_or(f64::NAN))
    }

    fn parse_literal(&mut self, vm: &mut Vm, word: &str, value: Value) -> JsResult<Value> {
        for b in word.bytes() {
            if self.peek() != Some(u16::from(b)) {
                return Err(self.unexpected(vm));
            }
            self.pos += 1;
        }
        Ok(value)
    }

    /// A SyntaxError "<what> in JSON at position N" at the current position.
    fn error_at(&self, vm: &mut Vm, what: &str) -> Throw {
        vm.syntax_error(format!("{what} in JSON at position {}", self.pos))
    }

    /// The error for an unexpected code unit (or the end) at the current position, worded by
    /// the kind of token it starts, as V8 does.
    fn unexpected(&self, vm: &mut Vm) -> Throw {
        let Some(c) = self.peek() else {
            return vm.syntax_error("Unexpected end of JSON input");
        };
        if c == u16::from(b'-') || (0x30..=0x39).contains(&c) {
            return vm.syntax_error(format!("Unexpected number in JSON at position {}", self.pos));
        }
        if c == 0x22 {
            return vm.syntax_error(format!("Unexpected string in JSON at position {}", self.pos));
        }
        let source = self.src.to_rust_string();
        if matches!(source.as_str(), "[object Object]" | "undefined" | "Infinity" | "NaN") {
            return vm.syntax_error(format!("\"{source}\" is not valid JSON"));
        }
        let token = JsStr::from_units(vec![c]).to_rust_string();
        let message = unexpected_token_message(self.src, self.pos, &token);
        vm.syntax_error(message)
    }
}

/// V8's "Unexpected token" message: the whole source when short, else up to ten code units
/// of context on each side of the position, elided with "...".
fn unexpected_token_message(src: &JsStr, pos: usize, token: &str) -> String {
    const CONTEXT: usize = 10;
    let len = src.len();
    if len <= CONTEXT * 2 + 1 {
        return format!("Unexpected token '{token}', \"{}\" is not valid JSON", src.to_rust_string());
    }
    let (start, end, prefix, suffix) = if pos < CONTEXT {
        (0, pos + CONTEXT, "", "...")
    } else if pos < len - CONTEXT {
        (pos - CONTEXT, pos + CONTEXT, "...", "...")
    } else {
        (pos - CONTEXT, len, "...", "")
    };
    let snippet = src.slice(start, end.min(len)).to_rust_string();
    format!("Unexpected token '{token}', {prefix}\"{snippet}\"{suffix} is not valid JSON")
}

// ---- JSON.stringify

/// The JSON Serialization Record (§25.5.2.1) plus the output buffer.
struct Serializer {
    replacer_function: Option<Value>,
    property_list: Option<Vec<PropertyKey>>,
    gap: Vec<u16>,
    indent: Vec<u16>,
    /// [[Stack]]: the objects being serialized, for cycle detection.
    stack: IndexSet<ObjectId, FxBuildHasher>,
    out: Vec<u16>,
}

/// How SerializeJSONProperty's steps 1–11 ended.
enum Serialized {
    /// Step 12: undefined (nothing written).
    Undefined,
    /// A primitive's text was written to the output.
    Written,
    /// An object to serialize as an array or object (a frame to open).
    Open(ObjectId, bool),
}

/// An array or object whose members are being serialized.
struct SerializeFrame {
    value: ObjectId,
    keys: SerializeKeys,
    had_member: bool,
    roots: usize,
}

enum SerializeKeys {
    Indices { len: u64, next: u64 },
    Keys { keys: Vec<PropertyKey>, next: usize },
}

/// ### 25.5.2 JSON.stringify ( value [ , replacer [ , space ] ] )
/// https://tc39.es/ecma262/#sec-json.stringify
fn stringify(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (value, replacer, space) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 1. Let stack be a new empty List.
    // 2. Let indent be the empty String.
    // 3. Let PropertyList be undefined.
    // 4. Let ReplacerFunction be undefined.
    let mut state = Serializer {
        replacer_function: None,
        property_list: None,
        gap: Vec::new(),
        indent: Vec::new(),
        stack: IndexSet::default(),
        out: Vec::new(),
    };
    // 5. If replacer is an Object, then
    if let Some(r) = replacer.as_object() {
        // a. If IsCallable(replacer) is true, then
        if is_callable(vm, replacer) {
            // i. Set ReplacerFunction to replacer.
            state.replacer_function = Some(replacer);
        } else if is_array(vm, replacer)? {
            // b. Else, i. Let isArray be ? IsArray(replacer). ii. If isArray is true, then
            //    1. Set PropertyList to a new empty List.
            let mut list: IndexSet<PropertyKey, FxBuildHasher> = IndexSet::default();
            //    2. Let len be ? LengthOfArrayLike(replacer).
            let len = length_of_array_like(vm, r)?;
            //    3. Let k be 0.
            //    4. Repeat, while k < len,
            for k in 0..len {
                vm.charge(1)?;
                // a. Let prop be ! ToString(𝔽(k)).
                let prop = index_key(vm, k);
                // b. Let v be ? Get(replacer, prop).
                let v = get(vm, r, prop, replacer)?;
                // c. Let item be undefined.
                // d. If v is a String, then i. Set item to v.
                // e. Else if v is a Number, then i. Set item to ! ToString(v).
                // f. Else if v is an Object, then i. If v has a [[StringData]] or [[NumberData]]
                //    internal slot, set item to ? ToString(v).
                let is_item = match v.kind() {
                    Kind::String(_) | Kind::Int(_) | Kind::Float(_) => true,
                    Kind::Object(o) => matches!(vm.heap.obj(o).class, Class::String(_) | Class::Number(_)),
                    _ => false,
                };
                // g. If item is not undefined and PropertyList does not contain item, then
                //    i. Append item to PropertyList.
                if is_item {
                    let item = to_js_str(vm, v)?;
                    let key = vm.heap.atoms.key_for(&item);
                    list.insert(key);
                }
                // h. Set k to k + 1.
            }
            state.property_list = Some(list.into_iter().collect());
        }
    }
    // 6. If space is an Object, then
    let mut space = space;
    if let Some(s) = space.as_object() {
        match vm.heap.obj(s).class {
            // a. If space has a [[NumberData]] internal slot, then
            //    i. Set space to ? ToNumber(space).
            Class::Number(_) => space = Value::number(to_number(vm, space)?),
            // b. Else if space has a [[StringData]] internal slot, then
            //    i. Set space to ? ToString(space).
            Class::String(_) => space = Value::string(to_string(vm, space)?),
            _ => {}
        }
    }
    // 7. If space is a Number, then
    if space.is_number() {
        // a. Let spaceMV be ! ToIntegerOrInfinity(space).
        // b. Set spaceMV to min(10, spaceMV).
        let space_mv = to_integer_or_infinity(vm, space)?.min(10.0);
        // c. If spaceMV < 1, let gap be the empty String; otherwise let gap be the String
        //    value containing spaceMV occurrences of the code unit 0x0020 (SPACE).
        if space_mv >= 1.0 {
            state.gap = vec![0x20; space_mv as usize];
        }
    } else if let Some(s) = space.as_string() {
        // 8. Else if space is a String, then
        //    a. If the length of space ≤ 10, let gap be space; otherwise let gap be the
        //       substring of space from 0 to 10.
        let units = vm.heap.flat(s).units();
        state.gap = units.into_iter().take(10).collect();
    }
    // 9. Else, a. Let gap be the empty String.
    // 10. Let wrapper be OrdinaryObjectCreate(%Object.prototype%).
    let wrapper = vm.new_object();
    vm.roots.push(wrapper);
    let Some(wrapper_id) = wrapper.as_object() else { return Ok(Value::UNDEFINED) };
    // 11. Perform ! CreateDataPropertyOrThrow(wrapper, the empty String, value).
    create_data_property_or_throw(vm, wrapper_id, PropertyKey::Atom(atom::empty), value)?;
    // 12. Let state be the JSON Serialization Record { [[ReplacerFunction]]: ReplacerFunction,
    //     [[Stack]]: stack, [[Indent]]: indent, [[Gap]]: gap, [[PropertyList]]: PropertyList }.
    // 13. Return ? SerializeJSONProperty(state, the empty String, wrapper).
    match serialize_json(vm, &mut state, wrapper_id)? {
        false => Ok(Value::UNDEFINED),
        true => {
            if state.out.len() as u64 > crate::builtins::string::MAX_STRING_LENGTH {
                return Err(vm.range_error("Invalid string length"));
            }
            Ok(vm.js_str(JsStr::from_units(std::mem::take(&mut state.out))))
        }
    }
}

/// SerializeJSONProperty(state, "", wrapper) with SerializeJSONObject and SerializeJSONArray
/// run on an explicit stack of frames: returns whether anything (not undefined) was written.
fn serialize_json(vm: &mut Vm, state: &mut Serializer, wrapper: ObjectId) -> JsResult<bool> {
    let mut frames: Vec<SerializeFrame> = Vec::new();
    match serialize_json_property(vm, state, PropertyKey::Atom(atom::empty), wrapper)? {
        Serialized::Undefined => return Ok(false),
        Serialized::Written => return Ok(true),
        Serialized::Open(o, is_array) => open_frame(vm, state, &mut frames, o, is_array)?,
    }
    loop {
        let Some(top) = frames.last_mut() else { return Ok(true) };
        let holder = top.value;
        let is_array = matches!(top.keys, SerializeKeys::Indices { .. });
        let next = match &mut top.keys {
            SerializeKeys::Indices { len, next } => (*next < *len).then(|| {
                *next += 1;
                *next - 1
            }),
            SerializeKeys::Keys { keys, next } => keys.get(*next).map(|_| {
                *next += 1;
                (*next - 1) as u64
            }),
        };
        let Some(i) = next else {
            close_frame(vm, state, &mut frames);
            continue;
        };
        let key = match &top.keys {
            SerializeKeys::Keys { keys, .. } => keys.get(i as usize).copied().unwrap_or(PropertyKey::Atom(atom::empty)),
            SerializeKeys::Indices { .. } => index_key(vm, i),
        };
        vm.charge(1)?;
        // The member's separator and (for objects) its name, written speculatively: an
        // object member whose value serializes to undefined is cut off again.
        let mark = state.out.len();
        let had_member = frames.last().is_some_and(|f| f.had_member);
        if had_member {
            state.out.push(u16::from(b','));
        }
        if !state.gap.is_empty() {
            state.out.push(u16::from(b'\n'));
            state.out.extend_from_slice(&state.indent);
        }
        if !is_array {
            // SerializeJSONObject 8.b: member = QuoteJSONString(P) ":" (" " when gap ≠ "").
            let name = key_to_js_str(vm, key);
            quote_json_string(&mut state.out, &name);
            state.out.push(u16::from(b':'));
            if !state.gap.is_empty() {
                state.out.push(0x20);
            }
        }
        let outcome = serialize_json_property(vm, state, key, holder)?;
        let Some(top) = frames.last_mut() else { return Ok(true) };
        match outcome {
            Serialized::Undefined if !is_array => state.out.truncate(mark),
            Serialized::Undefined => {
                // SerializeJSONArray 8.b: if strP is undefined, append "null".
                state.out.extend("null".encode_utf16());
                top.had_member = true;
            }
            Serialized::Written => top.had_member = true,
            Serialized::Open(o, child_is_array) => {
                top.had_member = true;
                open_frame(vm, state, &mut frames, o, child_is_array)?;
            }
        }
        if state.out.len() as u64 > crate::builtins::string::MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
        vm.charge((state.out.len().saturating_sub(mark) / 8) as u64)?;
        crate::builtins::string::check_string_budget(vm, state.out.len())?;
    }
}

/// The contents of a property key as a string.
fn key_to_js_str(vm: &Vm, key: PropertyKey) -> JsStr {
    match key {
        PropertyKey::Index(i) => JsStr::from_str(&i.to_string()),
        PropertyKey::Atom(a) => vm.heap.atoms.get(a).clone(),
        PropertyKey::Symbol(_) => JsStr::empty(),
    }
}

/// SerializeJSONObject / SerializeJSONArray steps 1–6: cycle check, indent, the member list.
fn open_frame(
    vm: &mut Vm,
    state: &mut Serializer,
    frames: &mut Vec<SerializeFrame>,
    value: ObjectId,
    is_array: bool,
) -> JsResult<()> {
    let roots = vm.roots.len();
    vm.roots.push(Value::object(value));
    // 1. If state.[[Stack]] contains value, throw a TypeError exception because the structure
    //    is cyclical.
    if state.stack.contains(&value) {
        return Err(vm.type_error("Converting circular structure to JSON"));
    }
    if frames.len() >= vm.options.max_stack_depth {
        return Err(too_deep(vm));
    }
    // 2. Append value to state.[[Stack]].
    state.stack.insert(value);
    // 3. Let stepback be state.[[Indent]].
    // 4. Set state.[[Indent]] to the string-concatenation of state.[[Indent]] and state.[[Gap]].
    let gap = state.gap.clone();
    state.indent.extend_from_slice(&gap);
    let keys = if is_array {
        // SerializeJSONArray 6. Let len be ? LengthOfArrayLike(value).
        SerializeKeys::Indices { len: length_of_array_like(vm, value)?, next: 0 }
    } else {
        // SerializeJSONObject 5. If state.[[PropertyList]] is not undefined, then
        //    a. Let K be state.[[PropertyList]].
        // 6. Else, a. Let K be ? EnumerableOwnProperties(value, key).
        let keys = match &state.property_list {
            Some(list) => list.clone(),
            None => enumerable_own_keys(vm, value)?,
        };
        SerializeKeys::Keys { keys, next: 0 }
    };
    state.out.push(if is_array { u16::from(b'[') } else { u16::from(b'{') });
    frames.push(SerializeFrame { value, keys, had_member: false, roots });
    Ok(())
}

/// SerializeJSONObject steps 9–13 / SerializeJSONArray steps 9–13: close the brackets,
/// restore the indent and pop the stack.
fn close_frame(vm: &mut Vm, state: &mut Serializer, frames: &mut Vec<SerializeFrame>) {
    let Some(frame) = frames.pop() else { return };
    let is_array = matches!(frame.keys, SerializeKeys::Indices { .. });
    // Set state.[[Indent]] to stepback.
    let new_len = state.indent.len().saturating_sub(state.gap.len());
    state.indent.truncate(new_len);
    // If partial is empty, let final be "{}" ("[]"); else if gap is the empty String, the
    // members joined with ","; else joined with ",\n" + indent, inside "\n" … "\n" + stepback.
    if frame.had_member && !state.gap.is_empty() {
        state.out.push(u16::from(b'\n'));
        state.out.extend_from_slice(&state.indent);
    }
    state.out.push(if is_array { u16::from(b']') } else { u16::from(b'}') });
    // Remove the last element of state.[[Stack]].
    state.stack.pop();
    vm.roots.truncate(frame.roots);
}

/// SerializeJSONProperty (§25.5.2.2) steps 1–11 for one property; primitives are written to
/// the output, objects are returned to be opened as a frame.
fn serialize_json_property(
    vm: &mut Vm,
    state: &mut Serializer,
    key: PropertyKey,
    holder: ObjectId,
) -> JsResult<Serialized> {
    let mark = vm.roots.len();
    let r = serialize_json_property_inner(vm, state, key, holder);
    vm.roots.truncate(mark);
    r
}

fn serialize_json_property_inner(
    vm: &mut Vm,
    state: &mut Serializer,
    key: PropertyKey,
    holder: ObjectId,
) -> JsResult<Serialized> {
    // 1. Let value be ? Get(holder, key).
    let mut value = get(vm, holder, key, Value::object(holder))?;
    vm.roots.push(value);
    // 2. If value is an Object or value is a BigInt, then
    if value.is_object() || value.is_bigint() {
        // a. Let toJSON be ? GetV(value, "toJSON").
        let to_json = get_v(vm, value, PropertyKey::Atom(atom::toJSON))?;
        // b. If IsCallable(toJSON) is true, then
        if is_callable(vm, to_json) {
            // i. Set value to ? Call(toJSON, value, « key »).
            let key_value = key_to_value(vm, key);
            value = call(vm, to_json, value, &[key_value])?;
            vm.roots.push(value);
        }
    }
    // 3. If state.[[ReplacerFunction]] is not undefined, then
    if let Some(replacer) = state.replacer_function {
        // a. Set value to ? Call(state.[[ReplacerFunction]], holder, « key, value »).
        let key_value = key_to_value(vm, key);
        value = call(vm, replacer, Value::object(holder), &[key_value, value])?;
        vm.roots.push(value);
    }
    // 4. If value is an Object, then
    if let Some(o) = value.as_object() {
        match vm.heap.obj(o).class {
            // a. If value has an [[IsRawJSON]] internal slot, return ! Get(value, "rawJSON").
            Class::RawJson => {
                let key = vm.key("rawJSON");
                value = get(vm, o, key, value)?;
                if let Some(text) = value.as_string() {
                    let text = vm.heap.flat(text).clone();
                    state.out.extend(text.units());
                }
                return Ok(Serialized::Written);
            }
            // a. If value has a [[NumberData]] internal slot, then
            //    i. Set value to ? ToNumber(value).
            Class::Number(_) => value = Value::number(to_number(vm, value)?),
            // b. Else if value has a [[StringData]] internal slot, then
            //    i. Set value to ? ToString(value).
            Class::String(_) => value = Value::string(to_string(vm, value)?),
            // c. Else if value has a [[BooleanData]] internal slot, then
            //    i. Set value to value.[[BooleanData]].
            Class::Boolean(b) => value = Value::bool(b),
            // d. Else if value has a [[BigIntData]] internal slot, then
            //    i. Set value to value.[[BigIntData]].
            Class::BigInt(b) => value = Value::bigint(b),
            _ => {}
        }
    }
    let out = &mut state.out;
    match value.kind() {
        // 5. If value is null, return "null".
        Kind::Null => out.extend("null".encode_utf16()),
        // 6. If value is true, return "true".
        // 7. If value is false, return "false".
        Kind::Bool(true) => out.extend("true".encode_utf16()),
        Kind::Bool(false) => out.extend("false".encode_utf16()),
        // 8. If value is a String, return QuoteJSONString(value).
        Kind::String(s) => {
            let s = vm.heap.flat(s);
            quote_json_string(out, s);
            let n = s.len();
            vm.charge(n as u64 / 8)?;
        }
        // 9. If value is a Number, then
        //    a. If value is finite, return ! ToString(value).
        //    b. Return "null".
        Kind::Int(i) => out.extend(i.to_string().encode_utf16()),
        Kind::Float(f) if f.is_finite() => out.extend(number_to_string(f).encode_utf16()),
        Kind::Float(_) => out.extend("null".encode_utf16()),
        // 10. If value is a BigInt, throw a TypeError exception.
        Kind::BigInt(_) => return Err(vm.type_error("Do not know how to serialize a BigInt")),
        // 11. If value is an Object and IsCallable(value) is false, then
        //     a. Let isArray be ? IsArray(value).
        //     b. If isArray is true, return ? SerializeJSONArray(state, value).
        //     c. Return ? SerializeJSONObject(state, value).
        Kind::Object(o) if !is_callable(vm, value) => {
            let array = is_array(vm, value)?;
            return Ok(Serialized::Open(o, array));
        }
        // 12. Return undefined.
        _ => return Ok(Serialized::Undefined),
    }
    Ok(Serialized::Written)
}

/// QuoteJSONString (§25.5.2.3), appended to `out`: well-formed, so unpaired surrogates are
/// escaped as `\uXXXX`.
pub(crate) fn quote_json_string(out: &mut Vec<u16>, value: &JsStr) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    // 1. Let product be the String value consisting solely of the code unit 0x0022
    //    (QUOTATION MARK).
    out.reserve(value.len() + 2);
    out.push(0x22);
    // 2. For each code point C of StringToCodePoints(value), do
    let len = value.len();
    let mut i = 0;
    while i < len {
        let c = value.unit(i);
        // a. If C is listed in the "Code Point" column of Table 81, then
        //    i. Set product to the string-concatenation of product and the escape sequence
        //       for C as specified in the "Escape Sequence" column of the corresponding row.
        let escape = match c {
            0x08 => Some(b'b'),
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            0x22 => Some(b'"'),
            0x5C => Some(b'\\'),
            _ => None,
        };
        if let Some(e) = escape {
            out.extend([0x5C, u16::from(e)]);
            i += 1;
            continue;
        }
        // b. Else if C has a numeric value less than 0x0020 (SPACE) or C has the same numeric
        //    value as a leading surrogate or trailing surrogate, then
        //    i. Let unit be the code unit whose numeric value is the numeric value of C.
        //    ii. Set product to the string-concatenation of product and UnicodeEscape(unit).
        let paired = (0xD800..=0xDBFF).contains(&c) && i + 1 < len && (0xDC00..=0xDFFF).contains(&value.unit(i + 1));
        if c < 0x20 || ((0xD800..=0xDFFF).contains(&c) && !paired) {
            out.extend([0x5C, u16::from(b'u')]);
            for shift in [12, 8, 4, 0] {
                out.push(u16::from(HEX[usize::from((c >> shift) & 0xF)]));
            }
            i += 1;
            continue;
        }
        // c. Else, i. Set product to the string-concatenation of product and
        //    UTF16EncodeCodePoint(C).
        if paired {
            out.extend([c, value.unit(i + 1)]);
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    // 3. Set product to the string-concatenation of product and the code unit 0x0022
    //    (QUOTATION MARK).
    out.push(0x22);
    // 4. Return product.
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(units: Vec<u16>) -> String {
        let mut out = Vec::new();
        quote_json_string(&mut out, &JsStr::from_units(units));
        String::from_utf16_lossy(&out)
    }

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(quoted("a\"b\\c\n".encode_utf16().collect()), r#""a\"b\\c\n""#);
        assert_eq!(quoted(vec![0x07, 0x2028]), "\"\\u0007\u{2028}\"");
        assert_eq!(quoted(vec![0xD800, 0xDC00, 0xD800, 0x78, 0xDC00]), "\"\u{10000}\\ud800x\\udc00\"");
    }

    #[test]
    fn unexpected_token_context() {
        let short = JsStr::from_str("abc");
        assert_eq!(unexpected_token_message(&short, 0, "a"), "Unexpected token 'a', \"abc\" is not valid JSON");
        let long = JsStr::from_str(&"x".repeat(50));
        assert_eq!(
            unexpected_token_message(&long, 0, "x"),
            "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"
        );
        let tail = JsStr::from_str(&format!("[{}x]", "1,".repeat(30)));
        assert_eq!(
            unexpected_token_message(&tail, 61, "x"),
            "Unexpected token 'x', ...\"1,1,1,1,1,x]\" is not valid JSON"
        );
    }
}
