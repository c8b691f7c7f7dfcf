//! `util.inspect` and `util.format`, following Node's algorithm (lib/internal/util/inspect.js):
//! depth 2, breakLength 80, compact 3, array grouping for more than 6 items, circular
//! markers, class-name prefixes. Getters are shown as `[Getter]`, never invoked.

use amber_engine::atoms::{atom, PropertyKey};
use amber_engine::error::JsResult;
use amber_engine::heap::object::{Class, IteratorState, PromiseState};
use amber_engine::runtime::convert::{key_to_display, number_to_string, to_rust_string};
use amber_engine::runtime::property;
use amber_engine::value::{Kind, ObjectId};
use amber_engine::{Value, Vm};

const BREAK_LENGTH: usize = 80;
const COMPACT: usize = 3;
const MAX_ARRAY_LENGTH: usize = 100;
const DEFAULT_DEPTH: usize = 2;

/// `util.inspect` options the formatter supports (see [`inspect_with`]).
#[derive(Clone, Copy, Debug)]
pub struct InspectOptions {
    /// Levels of nesting shown; `usize::MAX` for `Infinity`/`null`.
    pub depth: usize,
    /// `breakLength`; `usize::MAX` for `Infinity`.
    pub break_length: usize,
    /// `compact`: `Some(n)` for a number, `None` for `false` (one entry per line).
    pub compact: Option<usize>,
    /// `sorted: true`: object keys in sort order.
    pub sorted: bool,
    /// `customInspect`: honour `[Symbol.for('nodejs.util.inspect.custom')]`.
    pub custom_inspect: bool,
    /// `maxArrayLength`: elements (and Map/Set/typed array entries) shown before `... n more`.
    pub max_array_length: usize,
}

impl Default for InspectOptions {
    fn default() -> Self {
        InspectOptions {
            depth: DEFAULT_DEPTH,
            break_length: BREAK_LENGTH,
            compact: Some(COMPACT),
            sorted: false,
            custom_inspect: true,
            max_array_length: MAX_ARRAY_LENGTH,
        }
    }
}

/// [`Vm::host_values`] entry: `util.inspect`, passed to custom inspect functions.
pub const INSPECT_FN: &str = "node.util.inspect";

/// Formatting state for one inspect call.
struct Ctx {
    seen: Vec<ObjectId>,
    circular: Vec<ObjectId>,
    indentation: usize,
    current_depth: usize,
    depth: usize,
    opts: InspectOptions,
}

/// `util.format(...args)`: `%s %d %i %f %j %o %O %c %%` substitutions, then the rest
/// inspected (strings raw).
pub fn format_args(vm: &mut Vm, args: &[Value]) -> JsResult<String> {
    let mut out = String::new();
    let mut rest = 0;
    if let Some(first) = args.first().and_then(|v| v.as_string()) {
        let f = vm.heap.flat(first).to_rust_string();
        if f.contains('%') && args.len() > 1 {
            let mut i = 1;
            let mut chars = f.chars().peekable();
            while let Some(c) = chars.next() {
                if c != '%' {
                    out.push(c);
                    continue;
                }
                let Some(&n) = chars.peek() else {
                    out.push('%');
                    break;
                };
                if n == '%' {
                    chars.next();
                    out.push('%');
                    continue;
                }
                if i >= args.len() || !"sdifjoOc".contains(n) {
                    out.push('%');
                    continue;
                }
                chars.next();
                let a = args[i];
                i += 1;
                match n {
                    's' => match a.kind() {
                        Kind::String(s) => out.push_str(&vm.heap.flat(s).to_rust_string()),
                        Kind::BigInt(_) => out.push_str(&format!("{}n", to_rust_string(vm, a)?)),
                        Kind::Symbol(_) | Kind::Object(_) => out.push_str(&inspect_depth(vm, a, 1)),
                        _ => out.push_str(&primitive(vm, a, false)),
                    },
                    'd' | 'i' => {
                        let conv = n;
                        let n = match a.kind() {
                            Kind::Object(_) | Kind::Symbol(_) => f64::NAN,
                            Kind::BigInt(_) => {
                                out.push_str(&format!("{}n", to_rust_string(vm, a)?));
                                continue;
                            }
                            _ => amber_engine::runtime::convert::to_number(vm, a)?,
                        };
                        let n = if conv == 'i' { n.trunc() } else { n };
                        out.push_str(&num(n));
                    }
                    'f' => {
                        let n = match a.kind() {
                            Kind::Symbol(_) => f64::NAN,
                            _ => amber_engine::runtime::convert::to_number(vm, a)?,
                        };
                        out.push_str(&num(n));
                    }
                    'j' => out.push_str(&json_for_format(vm, a)),
                    'o' | 'O' => out.push_str(&inspect(vm, a)),
                    _ => {}
                }
            }
            rest = i;
        } else {
            out.push_str(&f);
            rest = 1;
        }
    }
    for (k, &a) in args.iter().enumerate().skip(rest) {
        if k > 0 {
            out.push(' ');
        }
        match a.kind() {
            Kind::String(s) => out.push_str(&vm.heap.flat(s).to_rust_string()),
            _ => out.push_str(&inspect(vm, a)),
        }
    }
    Ok(out)
}

fn json_for_format(vm: &mut Vm, v: Value) -> String {
    let global = vm.global_object();
    let json_key = vm_key(vm, "JSON");
    let json = property::get_v(vm, global, json_key).unwrap_or_default();
    let stringify = vm_key(vm, "stringify");
    let r = amber_engine::runtime::call::invoke(vm, json, stringify, &[v]);
    match r {
        Ok(s) if s.is_string() => to_rust_string(vm, s).unwrap_or_default(),
        Ok(_) => "undefined".into(),
        Err(_) => "[Circular]".into(),
    }
}

fn vm_key(vm: &mut Vm, s: &str) -> PropertyKey {
    vm.key(s)
}

/// `util.inspect(value)` with default options.
pub fn inspect(vm: &mut Vm, v: Value) -> String {
    inspect_depth(vm, v, DEFAULT_DEPTH)
}

pub fn inspect_depth(vm: &mut Vm, v: Value, depth: usize) -> String {
    inspect_with(vm, v, InspectOptions { depth, ..InspectOptions::default() })
}

/// `util.inspect(value, options)`.
pub fn inspect_with(vm: &mut Vm, v: Value, opts: InspectOptions) -> String {
    inspect_from(vm, v, opts, 0)
}

/// `util.inspect(value, { ...options, depth: -1 })`: an object is shown by its tag alone
/// (`[Object]`, `[Array]`), as `console.table` shows a cell with more than two keys.
pub fn inspect_below_depth(vm: &mut Vm, v: Value, opts: InspectOptions) -> String {
    inspect_from(vm, v, InspectOptions { depth: 0, ..opts }, 1)
}

fn inspect_from(vm: &mut Vm, v: Value, opts: InspectOptions, recurse: usize) -> String {
    let mut ctx =
        Ctx { seen: Vec::new(), circular: Vec::new(), indentation: 0, current_depth: 0, depth: opts.depth, opts };
    let s = format_value(vm, &mut ctx, v, recurse, true);
    // Circular references found: prefix the top-level object with <ref *1>.
    if let (Some(o), false) = (v.as_object(), ctx.circular.is_empty()) {
        if ctx.circular.first() == Some(&o) {
            return format!("<ref *1> {s}");
        }
    }
    s
}

fn num(n: f64) -> String {
    if n == 0.0 && n.is_sign_negative() {
        "-0".into()
    } else {
        number_to_string(n)
    }
}

/// Quote a string the way Node does: single quotes unless the text contains them.
pub fn quote(s: &str) -> String {
    let q = if !s.contains('\'') {
        '\''
    } else if !s.contains('"') {
        '"'
    } else if !s.contains('`') && !s.contains("${") {
        '`'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

fn primitive(vm: &mut Vm, v: Value, quoted: bool) -> String {
    match v.kind() {
        Kind::Undefined | Kind::Empty => "undefined".into(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => num(f),
        Kind::String(s) => {
            let t = vm.heap.flat(s).to_rust_string();
            if quoted {
                quote(&t)
            } else {
                t
            }
        }
        Kind::BigInt(b) => format!("{}n", vm.heap.bigint(b)),
        Kind::Symbol(s) => {
            let d = vm.heap.symbol(s).and_then(|s| s.description.as_ref()).map(|d| d.to_rust_string());
            match d {
                Some(d) => format!("Symbol({d})"),
                None => "Symbol()".into(),
            }
        }
        Kind::Object(_) => String::new(),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' || c == '$' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn format_key(vm: &Vm, key: PropertyKey) -> String {
    match key {
        PropertyKey::Symbol(_) => format!("[{}]", key_to_display(vm, key)),
        _ => {
            let k = key_to_display(vm, key);
            if k == "__proto__" {
                // Node quotes it so the output does not read as a prototype assignment.
                "['__proto__']".to_string()
            } else if is_identifier(&k) {
                k
            } else {
                quote(&k)
            }
        }
    }
}

/// Read an own or inherited data property without running JS.
fn peek(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<Value> {
    let mut cur = Some(o);
    let mut n = 0;
    while let Some(c) = cur {
        let obj = vm.heap.obj(c);
        if let Some((v, f)) = obj.lookup_named(&vm.heap.shapes, key) {
            return (!f.is_accessor()).then_some(v);
        }
        cur = obj.proto;
        n += 1;
        if n > 1000 {
            return None;
        }
    }
    None
}

/// The constructor name shown before an object (`Foo {}`), from the prototype chain.
pub(crate) fn constructor_name(vm: &mut Vm, o: ObjectId) -> Option<String> {
    let mut cur = vm.heap.obj(o).proto;
    let mut n = 0;
    while let Some(p) = cur {
        if let Some((c, f)) = vm.heap.obj(p).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::constructor)) {
            if !f.is_accessor() {
                if let Some(co) = c.as_object() {
                    let name = amber_engine::builtins::function::function_name(vm, co);
                    if !name.is_empty() {
                        return Some(name);
                    }
                }
            }
        }
        cur = vm.heap.obj(p).proto;
        n += 1;
        if n > 1000 {
            break;
        }
    }
    None
}

fn is_class(vm: &Vm, o: ObjectId) -> bool {
    match &vm.heap.obj(o).class {
        Class::Function(c) => vm.heap.code(c.code).is_class_constructor,
        _ => false,
    }
}

fn format_value(vm: &mut Vm, ctx: &mut Ctx, v: Value, recurse: usize, top: bool) -> String {
    let Some(mut o) = v.as_object() else {
        return primitive(vm, v, !top || !v.is_string());
    };
    // A proxy shows as its target (Node's `showProxy: false`), read without running a trap.
    let mut hops = 0;
    while let Class::Proxy(p) = &vm.heap.obj(o).class {
        match p.target {
            Some(t) if hops < 10_000 => o = t,
            _ => return "<Revoked Proxy>".to_string(),
        }
        hops += 1;
    }
    if ctx.opts.custom_inspect {
        if let Some(shown) = custom_inspect(vm, ctx, o, recurse) {
            return shown;
        }
    }
    if recurse >= MAX_NESTING {
        // Node stops where its stack overflows (about this deep) and says so in place.
        let ctor = constructor_name(vm, o).unwrap_or_else(|| "Object".into());
        return format!("[{ctor}: Inspection interrupted prematurely. Maximum call stack size exceeded.]");
    }
    if recurse % 64 == 63 {
        return amber_engine::runtime::call::with_stack(|| format_value_inner(vm, ctx, o, recurse));
    }
    format_value_inner(vm, ctx, o, recurse)
}

/// How deep `inspect` goes, whatever `depth` says: node's own stack runs out at about 1,000
/// levels of nested objects; each level costs a few KiB of native stack here (grown in
/// segments), and `seen` is searched at each.
const MAX_NESTING: usize = 1000;

fn format_value_inner(vm: &mut Vm, ctx: &mut Ctx, o: ObjectId, recurse: usize) -> String {
    if ctx.seen.contains(&o) {
        if !ctx.circular.contains(&o) {
            ctx.circular.push(o);
        }
        let idx = ctx.circular.iter().position(|&c| c == o).map_or(1, |i| i + 1);
        return format!("[Circular *{idx}]");
    }
    format_object(vm, ctx, o, recurse)
}

/// `value[Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect)`, if the value
/// has such a function (read without running getters). A throw shows as the error.
fn custom_inspect(vm: &mut Vm, ctx: &mut Ctx, o: ObjectId, recurse: usize) -> Option<String> {
    let key = amber_engine::JsStr::from_str("nodejs.util.inspect.custom");
    let symbol = *vm.symbol_registry.get(&key)?;
    let f = peek(vm, o, PropertyKey::Symbol(symbol))?;
    if !amber_engine::runtime::call::is_callable(vm, f) {
        return None;
    }
    let inspect_fn = vm.host_value(INSPECT_FN).unwrap_or_default();
    if f == inspect_fn {
        return None;
    }
    let remaining = if ctx.depth == usize::MAX { f64::INFINITY } else { ctx.depth as f64 - recurse as f64 };
    let options = vm.new_object();
    let mark = vm.roots.len();
    vm.roots.push(options);
    vm.roots.push(f);
    vm.set_property(options, "depth", Value::number(remaining));
    vm.set_property(options, "colors", Value::FALSE);
    vm.set_property(options, "customInspect", Value::TRUE);
    vm.set_property(options, "showHidden", Value::FALSE);
    let compact = ctx.opts.compact.map_or(Value::FALSE, |c| Value::number(c as f64));
    vm.set_property(options, "compact", compact);
    let bl = if ctx.opts.break_length == usize::MAX { f64::INFINITY } else { ctx.opts.break_length as f64 };
    vm.set_property(options, "breakLength", Value::number(bl));
    vm.set_property(options, "sorted", Value::bool(ctx.opts.sorted));
    if let Some(stylize) = vm.host_value("node.util.stylize") {
        vm.set_property(options, "stylize", stylize);
    }
    let r =
        amber_engine::runtime::call::call(vm, f, Value::object(o), &[Value::number(remaining), options, inspect_fn]);
    vm.roots.truncate(mark);
    let shown = match r {
        Ok(v) if v == Value::object(o) => return None,
        Ok(v) => match v.as_string() {
            Some(s) => vm.heap.flat(s).to_rust_string().replace('\n', &format!("\n{}", " ".repeat(ctx.indentation))),
            None => format_value(vm, ctx, v, recurse, false),
        },
        Err(t) => {
            let v = amber_engine::runtime::call::thrown_value(t).unwrap_or_default();
            format_value(vm, ctx, v, recurse, false)
        }
    };
    Some(shown)
}

/// Own enumerable string and symbol keys (plus non-index for arrays).
fn own_enumerable_keys(vm: &mut Vm, o: ObjectId, skip_indices: bool) -> Vec<PropertyKey> {
    let keys = match property::own_property_keys(vm, o) {
        Ok(k) => k,
        Err(_) => return Vec::new(),
    };
    let is_array = matches!(vm.heap.obj(o).class, Class::Array(_));
    let mut out = Vec::new();
    for k in keys {
        if skip_indices && matches!(k, PropertyKey::Index(_)) {
            continue;
        }
        if is_array && k == PropertyKey::Atom(atom::length) {
            continue;
        }
        match property::get_own_property(vm, o, k) {
            Ok(Some(d)) if d.enumerable == Some(true) => out.push(k),
            // A module namespace's export in its TDZ (shown as `<uninitialized>`).
            Err(_) if matches!(vm.heap.obj(o).class, Class::Namespace(_)) => out.push(k),
            _ => {}
        }
    }
    out
}

fn format_property(
    vm: &mut Vm,
    ctx: &mut Ctx,
    o: ObjectId,
    key: PropertyKey,
    recurse: usize,
    array_style: bool,
) -> String {
    let desc = match property::get_own_property(vm, o, key) {
        Ok(d) => d,
        Err(_) if matches!(vm.heap.obj(o).class, Class::Namespace(_)) => {
            let k = format_key(vm, key);
            return if array_style { "<uninitialized>".into() } else { format!("{k}: <uninitialized>") };
        }
        Err(_) => None,
    };
    let value_str = match desc {
        Some(d) if d.is_accessor() => {
            let g = d.get.is_some_and(|g| !g.is_undefined());
            let s = d.set.is_some_and(|s| !s.is_undefined());
            match (g, s) {
                (true, true) => "[Getter/Setter]".to_string(),
                (true, false) => "[Getter]".to_string(),
                (false, true) => "[Setter]".to_string(),
                _ => "undefined".to_string(),
            }
        }
        Some(d) => {
            ctx.indentation += 2;
            let s = format_value(vm, ctx, d.value.unwrap_or_default(), recurse + 1, false);
            ctx.indentation -= 2;
            s
        }
        None => "undefined".to_string(),
    };
    if array_style {
        return value_str;
    }
    format!("{}: {}", format_key(vm, key), value_str)
}

fn format_object(vm: &mut Vm, ctx: &mut Ctx, o: ObjectId, recurse: usize) -> String {
    let class_kind = class_tag(vm, o);
    let ctor = constructor_name(vm, o);
    let null_proto = vm.heap.obj(o).proto.is_none();
    // Functions.
    if vm.heap.obj(o).is_callable() {
        let name = amber_engine::builtins::function::function_name(vm, o);
        let base = if is_class(vm, o) {
            let mut b = if name.is_empty() { "[class (anonymous)".to_string() } else { format!("[class {name}") };
            if let Some(p) = vm.heap.obj(o).proto {
                if p != vm.realm.function_prototype {
                    let pn = amber_engine::builtins::function::function_name(vm, p);
                    if !pn.is_empty() {
                        b.push_str(&format!(" extends {pn}"));
                    }
                }
            }
            b.push(']');
            b
        } else {
            let kind = match &vm.heap.obj(o).class {
                Class::Function(c) => {
                    let k = vm.heap.code(c.code).kind;
                    if k.is_async() && k.is_generator() {
                        "AsyncGeneratorFunction"
                    } else if k.is_generator() {
                        "GeneratorFunction"
                    } else if k.is_async() {
                        "AsyncFunction"
                    } else {
                        "Function"
                    }
                }
                _ => "Function",
            };
            if name.is_empty() {
                format!("[{kind} (anonymous)]")
            } else {
                format!("[{kind}: {name}]")
            }
        };
        let keys: Vec<PropertyKey> = own_enumerable_keys(vm, o, false)
            .into_iter()
            .filter(|k| *k != PropertyKey::Atom(atom::prototype))
            .collect();
        if keys.is_empty() {
            return base;
        }
        if recurse > ctx.depth {
            return base;
        }
        return format_entries(vm, ctx, o, recurse, &keys, base, ("{", "}"), false);
    }
    // Node's formatRaw returns an error without own keys before it checks the depth.
    let bare_error = class_kind == Tag::Error && own_enumerable_keys(vm, o, false).is_empty();
    if recurse > ctx.depth && !bare_error {
        return match class_kind {
            Tag::Array => "[Array]".into(),
            _ => format!("[{}]", ctor.unwrap_or_else(|| "Object".into())),
        };
    }
    ctx.seen.push(o);
    ctx.current_depth = recurse;
    let r = format_object_inner(vm, ctx, o, recurse, class_kind, ctor, null_proto);
    ctx.seen.pop();
    r
}

#[derive(Clone, Copy, PartialEq)]
enum Tag {
    Plain,
    Array,
    TypedArray,
    Error,
    Date,
    RegExp,
    Map,
    Set,
    Promise,
    Boxed,
    ArrayBuffer,
    DataView,
    CollectionIterator,
    Other,
}

fn class_tag(vm: &Vm, o: ObjectId) -> Tag {
    match &vm.heap.obj(o).class {
        Class::Array(_) => Tag::Array,
        Class::TypedArray(_) => Tag::TypedArray,
        Class::Error => Tag::Error,
        Class::Date(_) => Tag::Date,
        Class::RegExp(_) => Tag::RegExp,
        Class::Map(_) => Tag::Map,
        Class::Set(_) => Tag::Set,
        Class::Promise(_) => Tag::Promise,
        Class::ArrayBuffer(_) => Tag::ArrayBuffer,
        Class::DataView(_) => Tag::DataView,
        Class::Iterator(it) if matches!(**it, IteratorState::MapIter { .. } | IteratorState::SetIter { .. }) => {
            Tag::CollectionIterator
        }
        Class::Boolean(_) | Class::Number(_) | Class::String(_) | Class::Symbol(_) | Class::BigInt(_) => Tag::Boxed,
        Class::Ordinary | Class::Arguments(_) => Tag::Plain,
        _ => Tag::Other,
    }
}

fn prefix(ctor: &Option<String>, fallback: &str, null_proto: bool, size: Option<usize>) -> String {
    let size = size.map(|n| format!("({n})")).unwrap_or_default();
    match ctor {
        Some(c) if c == fallback => format!("{c}{size} "),
        Some(c) => format!("{c}{size} "),
        None if null_proto => format!("[{fallback}{size}: null prototype] "),
        None => format!("{fallback}{size} "),
    }
}

fn format_object_inner(
    vm: &mut Vm,
    ctx: &mut Ctx,
    o: ObjectId,
    recurse: usize,
    tag: Tag,
    ctor: Option<String>,
    null_proto: bool,
) -> String {
    match tag {
        // `ArrayBuffer { [Uint8Contents]: <00 01>, byteLength: 2 }` (at most 100 bytes shown;
        // `(detached)` for a detached one), then other own enumerable keys.
        Tag::ArrayBuffer => {
            use amber_engine::builtins::array_buffer;
            let shared = array_buffer::is_shared(vm, o);
            let (contents, len) = match array_buffer::bytes(vm, o) {
                None => ("(detached)".to_string(), 0),
                Some(b) => {
                    let len = b.len();
                    let shown = b.get(0..len.min(ctx.opts.max_array_length)).unwrap_or_default();
                    let hex: Vec<String> = shown.iter().map(|x| format!("{x:02x}")).collect();
                    let mut text = hex.join(" ");
                    if len > ctx.opts.max_array_length {
                        let more = len - ctx.opts.max_array_length;
                        text.push_str(&format!(" ... {more} more byte{}", if more > 1 { "s" } else { "" }));
                    }
                    (format!("[Uint8Contents]: <{text}>"), len)
                }
            };
            let mut out = vec![contents, format!("byteLength: {len}")];
            for k in own_enumerable_keys(vm, o, false) {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let p = prefix(&ctor, if shared { "SharedArrayBuffer" } else { "ArrayBuffer" }, null_proto, None);
            reduce(ctx, out, p.trim_end(), ("{", "}"), false, recurse, 0)
        }
        // `DataView { byteLength: 2, byteOffset: 1, buffer: ArrayBuffer { … } }`.
        Tag::DataView => {
            let (buffer, offset, length) = match &vm.heap.obj(o).class {
                Class::DataView(d) => (d.buffer, d.byte_offset, d.length),
                _ => return String::new(),
            };
            let len = length.unwrap_or_else(|| {
                amber_engine::builtins::array_buffer::bytes(vm, buffer).map_or(0, |b| b.len().saturating_sub(offset))
            });
            let mut out = vec![format!("byteLength: {len}"), format!("byteOffset: {offset}")];
            ctx.indentation += 2;
            let b = format_value(vm, ctx, Value::object(buffer), recurse + 1, false);
            ctx.indentation -= 2;
            out.push(format!("buffer: {b}"));
            for k in own_enumerable_keys(vm, o, false) {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let p = prefix(&ctor, "DataView", null_proto, None);
            reduce(ctx, out, p.trim_end(), ("{", "}"), false, recurse, 0)
        }
        // `[Map Iterator] { 1, 2 }`, `[Map Entries] { [ 1, 'a' ] }`, `[Set Iterator] { 1 }`: the
        // entries the iterator has yet to yield, read without advancing it.
        Tag::CollectionIterator => {
            let (target, index, kind, done, is_map) = match &vm.heap.obj(o).class {
                Class::Iterator(it) => match **it {
                    IteratorState::MapIter { target, index, kind, done } => (target, index, kind, done, true),
                    IteratorState::SetIter { target, index, kind, done } => (target, index, kind, done, false),
                    _ => return String::new(),
                },
                _ => return String::new(),
            };
            let entries: Vec<(Value, Value)> = match (&vm.heap.obj(target).class, done) {
                (Class::Map(m) | Class::Set(m), false) => {
                    m.entries.iter().skip(index as usize).flatten().copied().collect()
                }
                _ => Vec::new(),
            };
            let mut out = Vec::new();
            for &(k, v) in entries.iter().take(ctx.opts.max_array_length) {
                ctx.indentation += 2;
                let shown = match (kind, is_map) {
                    (0, _) | (1, false) => format_value(vm, ctx, k, recurse + 1, false),
                    (1, true) => format_value(vm, ctx, v, recurse + 1, false),
                    _ => {
                        let ks = format_value(vm, ctx, k, recurse + 1, false);
                        let vs = format_value(vm, ctx, if is_map { v } else { k }, recurse + 1, false);
                        reduce(ctx, vec![ks, vs], "", ("[", "]"), true, recurse, 2)
                    }
                };
                ctx.indentation -= 2;
                out.push(shown);
            }
            if entries.len() > ctx.opts.max_array_length {
                let more = entries.len() - ctx.opts.max_array_length;
                out.push(format!("... {more} more item{}", if more > 1 { "s" } else { "" }));
            }
            let name = match (is_map, kind == 2) {
                (true, false) => "[Map Iterator]",
                (true, true) => "[Map Entries]",
                (false, false) => "[Set Iterator]",
                (false, true) => "[Set Entries]",
            };
            if out.is_empty() {
                return format!("{name} {{  }}");
            }
            reduce(ctx, out, name, ("{", "}"), false, recurse, 0)
        }
        // `Uint8Array(3) [ 1, 2, 3 ]`: the elements, then other own enumerable keys.
        Tag::TypedArray => {
            let len = amber_engine::builtins::typed_array::length_of(vm, o);
            let mut out = Vec::new();
            for i in 0..len.min(ctx.opts.max_array_length) {
                out.push(format_property(vm, ctx, o, PropertyKey::Index(i as u32), recurse, true));
            }
            if len > ctx.opts.max_array_length {
                let more = len - ctx.opts.max_array_length;
                out.push(format!("... {more} more item{}", if more > 1 { "s" } else { "" }));
            }
            for k in own_enumerable_keys(vm, o, true) {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let kind = match &vm.heap.obj(o).class {
                Class::TypedArray(t) => amber_engine::builtins::typed_array::element::kind_name(t.kind),
                _ => "TypedArray",
            };
            let mut p = prefix(&ctor, kind, null_proto, Some(len)).trim_end().to_string();
            // A subclass names its builtin kind too: `My(2) [Uint8Array] [ 0, 0 ]`.
            if ctor.as_deref().is_some_and(|c| c != kind) {
                p.push_str(&format!(" [{kind}]"));
            }
            reduce(ctx, out, &p, ("[", "]"), true, recurse, len.min(ctx.opts.max_array_length))
        }
        Tag::Array => {
            let len = match vm.heap.obj(o).class {
                Class::Array(a) => a.length as usize,
                _ => 0,
            };
            let mut out = Vec::new();
            let mut i = 0;
            let mut holes = 0;
            while i < len && out.len() < ctx.opts.max_array_length {
                let has = matches!(property::get_own_property(vm, o, PropertyKey::Index(i as u32)), Ok(Some(_)));
                if !has {
                    holes += 1;
                    i += 1;
                    continue;
                }
                if holes > 0 {
                    out.push(format!("<{holes} empty item{}>", if holes > 1 { "s" } else { "" }));
                    holes = 0;
                }
                out.push(format_property(vm, ctx, o, PropertyKey::Index(i as u32), recurse, true));
                i += 1;
            }
            if holes > 0 {
                out.push(format!("<{holes} empty item{}>", if holes > 1 { "s" } else { "" }));
            }
            if i < len {
                let more = len - i;
                out.push(format!("... {more} more item{}", if more > 1 { "s" } else { "" }));
            }
            let extra_keys = own_enumerable_keys(vm, o, true);
            for k in extra_keys {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let p = match &ctor {
                Some(c) if c == "Array" => String::new(),
                _ => prefix(&ctor, "Array", null_proto, Some(len)),
            };
            reduce(ctx, out, p.trim_end(), ("[", "]"), true, recurse, len.min(ctx.opts.max_array_length))
        }
        Tag::Error => {
            // Node's formatError: the stack if it is a non-empty string, else
            // Error.prototype.toString's text; in brackets when it has no frames; every line
            // indented as deep as the error sits.
            let stack = peek(vm, o, PropertyKey::Atom(atom::stack))
                .and_then(|s| s.as_string())
                .map(|s| vm.heap.flat(s).to_rust_string())
                .filter(|s| !s.is_empty());
            let base = stack.unwrap_or_else(|| {
                let name = peek(vm, o, PropertyKey::Atom(atom::name))
                    .map(|v| primitive(vm, v, false))
                    .unwrap_or_else(|| "Error".into());
                let msg =
                    peek(vm, o, PropertyKey::Atom(atom::message)).map(|v| primitive(vm, v, false)).unwrap_or_default();
                match (name.is_empty(), msg.is_empty()) {
                    (true, _) => msg,
                    (false, true) => name,
                    (false, false) => format!("{name}: {msg}"),
                }
            });
            let base = if base.contains("\n    at") { base } else { format!("[{base}]") };
            let base = if ctx.indentation == 0 {
                base
            } else {
                base.replace('\n', &format!("\n{}", " ".repeat(ctx.indentation)))
            };
            let keys: Vec<PropertyKey> = own_enumerable_keys(vm, o, false);
            if keys.is_empty() {
                return base;
            }
            format_entries(vm, ctx, o, recurse, &keys, base, ("{", "}"), false)
        }
        Tag::Date => {
            let t = match vm.heap.obj(o).class {
                Class::Date(t) => t,
                _ => f64::NAN,
            };
            if t.is_nan() {
                "Invalid Date".into()
            } else {
                let key = vm_key(vm, "toISOString");
                let iso = amber_engine::runtime::call::invoke(vm, Value::object(o), key, &[]);
                match iso {
                    Ok(s) => to_rust_string(vm, s).unwrap_or_default(),
                    Err(_) => "Invalid Date".into(),
                }
            }
        }
        Tag::RegExp => {
            let s = amber_engine::runtime::call::invoke(vm, Value::object(o), PropertyKey::Atom(atom::toString), &[]);
            match s {
                Ok(s) => to_rust_string(vm, s).unwrap_or_default(),
                Err(_) => "/(?:)/".into(),
            }
        }
        Tag::Map | Tag::Set => {
            let entries: Vec<(Value, Value)> = match &vm.heap.obj(o).class {
                Class::Map(m) | Class::Set(m) => m.entries.iter().flatten().copied().collect(),
                _ => Vec::new(),
            };
            let mut out = Vec::new();
            for (k, v) in entries {
                ctx.indentation += 2;
                let ks = format_value(vm, ctx, k, recurse + 1, false);
                if tag == Tag::Map {
                    let vs = format_value(vm, ctx, v, recurse + 1, false);
                    out.push(format!("{ks} => {vs}"));
                } else {
                    out.push(ks);
                }
                ctx.indentation -= 2;
            }
            let size = out.len();
            for k in own_enumerable_keys(vm, o, false) {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let fallback = if tag == Tag::Map { "Map" } else { "Set" };
            let p = prefix(&ctor, fallback, null_proto, Some(size));
            reduce(ctx, out, p.trim_end(), ("{", "}"), tag == Tag::Set, recurse, 0)
        }
        Tag::Promise => {
            let (state, result) = match &vm.heap.obj(o).class {
                Class::Promise(p) => (p.state, p.result),
                _ => (PromiseState::Pending, Value::UNDEFINED),
            };
            let mut out = vec![match state {
                PromiseState::Pending => "<pending>".to_string(),
                PromiseState::Fulfilled => {
                    ctx.indentation += 2;
                    let s = format_value(vm, ctx, result, recurse + 1, false);
                    ctx.indentation -= 2;
                    s
                }
                PromiseState::Rejected => {
                    ctx.indentation += 2;
                    let s = format_value(vm, ctx, result, recurse + 1, false);
                    ctx.indentation -= 2;
                    format!("<rejected> {s}")
                }
            }];
            for k in own_enumerable_keys(vm, o, false) {
                out.push(format_property(vm, ctx, o, k, recurse, false));
            }
            let p = prefix(&ctor, "Promise", null_proto, None);
            reduce(ctx, out, p.trim_end(), ("{", "}"), false, recurse, 0)
        }
        Tag::Boxed => {
            let (kind, inner) = match vm.heap.obj(o).class {
                Class::Boolean(b) => ("Boolean", Value::bool(b)),
                Class::Number(n) => ("Number", Value::number(n)),
                Class::String(s) => ("String", Value::string(s)),
                Class::Symbol(s) => ("Symbol", Value::symbol(s)),
                Class::BigInt(b) => ("BigInt", Value::bigint(b)),
                _ => ("Object", Value::UNDEFINED),
            };
            let base = format!("[{kind}: {}]", primitive(vm, inner, true));
            let keys = own_enumerable_keys(vm, o, kind == "String");
            if keys.is_empty() {
                return base;
            }
            format_entries(vm, ctx, o, recurse, &keys, base, ("{", "}"), false)
        }
        Tag::Plain | Tag::Other => {
            let keys = own_enumerable_keys(vm, o, false);
            let is_args = matches!(vm.heap.obj(o).class, Class::Arguments(_));
            let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
            let to_string_tag =
                peek(vm, o, tag_key).and_then(|t| t.as_string()).map(|s| vm.heap.flat(s).to_rust_string());
            let is_namespace = matches!(vm.heap.obj(o).class, Class::Namespace(_));
            let mut base = if is_args {
                "[Arguments]".to_string()
            } else if is_namespace {
                "[Module: null prototype]".to_string()
            } else {
                match (&ctor, null_proto) {
                    (Some(c), _) if c == "Object" => String::new(),
                    (Some(c), _) => c.clone(),
                    (None, true) => "[Object: null prototype]".into(),
                    (None, false) => String::new(),
                }
            };
            if let Some(t) = to_string_tag.filter(|_| !is_namespace) {
                if !t.is_empty() && Some(&t) != ctor.as_ref() {
                    base = if base.is_empty() { format!("Object [{t}]") } else { format!("{base} [{t}]") };
                }
            }
            if matches!(vm.heap.obj(o).class, Class::WeakMap(_) | Class::WeakSet(_)) {
                return format!("{} {{ <items unknown> }}", base);
            }
            if keys.is_empty() {
                return if base.is_empty() {
                    if is_args {
                        "[Arguments] []".into()
                    } else {
                        "{}".into()
                    }
                } else {
                    format!("{base} {{}}")
                };
            }
            if is_args {
                let out: Vec<String> = keys
                    .iter()
                    .map(|&k| format_property(vm, ctx, o, k, recurse, matches!(k, PropertyKey::Index(_))))
                    .collect();
                return reduce(ctx, out, &base, ("[", "]"), true, recurse, 0);
            }
            format_entries(vm, ctx, o, recurse, &keys, base, ("{", "}"), false)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn format_entries(
    vm: &mut Vm,
    ctx: &mut Ctx,
    o: ObjectId,
    recurse: usize,
    keys: &[PropertyKey],
    base: String,
    braces: (&str, &str),
    array: bool,
) -> String {
    let was_seen = ctx.seen.contains(&o);
    if !was_seen {
        ctx.seen.push(o);
    }
    let out: Vec<String> = keys.iter().map(|&k| format_property(vm, ctx, o, k, recurse, false)).collect();
    if !was_seen {
        ctx.seen.pop();
    }
    reduce(ctx, out, &base, braces, array, recurse, 0)
}

/// Node's reduceToSingleString with array grouping.
fn reduce(
    ctx: &mut Ctx,
    mut output: Vec<String>,
    base: &str,
    braces: (&str, &str),
    is_array: bool,
    recurse: usize,
    value_len: usize,
) -> String {
    if output.is_empty() {
        return if base.is_empty() {
            format!("{}{}", braces.0, braces.1)
        } else {
            format!("{base} {}{}", braces.0, braces.1)
        };
    }
    let entries = output.len();
    if is_array && entries > 6 && ctx.opts.compact.is_some_and(|c| c >= 1) {
        output = group_array_elements(ctx, output, value_len);
    }
    if ctx.opts.sorted && !is_array {
        output.sort();
    }
    let Some(compact) = ctx.opts.compact else {
        let ind = format!("\n{}", " ".repeat(ctx.indentation));
        let b = if base.is_empty() { String::new() } else { format!("{base} ") };
        return format!("{b}{}{ind}  {}{ind}{}", braces.0, output.join(&format!(",{ind}  ")), braces.1);
    };
    if ctx.current_depth.saturating_sub(recurse) < compact && entries == output.len() {
        let start = output.len() + ctx.indentation + braces.0.len() + base.len() + 10;
        if is_below_break_length(&output, start, base, ctx.opts.break_length) {
            let joined = output.join(", ");
            if !joined.contains('\n') {
                let b = if base.is_empty() { String::new() } else { format!("{base} ") };
                return format!("{b}{} {joined} {}", braces.0, braces.1);
            }
        }
    }
    let ind = format!("\n{}", " ".repeat(ctx.indentation));
    let b = if base.is_empty() { String::new() } else { format!("{base} ") };
    format!("{b}{}{ind}  {}{ind}{}", braces.0, output.join(&format!(",{ind}  ")), braces.1)
}

fn is_below_break_length(output: &[String], start: usize, base: &str, break_length: usize) -> bool {
    let mut total = output.len().saturating_add(start);
    if total.saturating_add(output.len()) > break_length {
        return false;
    }
    for o in output {
        total = total.saturating_add(o.chars().count());
        if total > break_length {
            return false;
        }
    }
    base.is_empty() || !base.contains('\n')
}

fn group_array_elements(ctx: &Ctx, output: Vec<String>, value_len: usize) -> Vec<String> {
    let mut total_length = 0;
    let mut max_length = 0;
    let mut output_length = output.len();
    if value_len >= ctx.opts.max_array_length && output_length > value_len {
        output_length -= 1;
    }
    let separator_space = 2;
    let data_len: Vec<usize> = output.iter().take(output_length).map(|s| s.chars().count()).collect();
    for &len in &data_len {
        total_length += len + separator_space;
        max_length = max_length.max(len);
    }
    let actual_max = max_length + separator_space;
    let break_length = ctx.opts.break_length;
    let compact = ctx.opts.compact.unwrap_or(0);
    if actual_max * 3 + ctx.indentation < break_length
        && (total_length as f64 / actual_max as f64 > 5.0 || max_length <= 6)
    {
        let approx_char_heights = 2.5;
        let average_bias = (actual_max as f64 - total_length as f64 / output.len() as f64).sqrt();
        let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
        let columns = ((approx_char_heights * biased_max * output_length as f64).sqrt() / biased_max)
            .round()
            .min((break_length.saturating_sub(ctx.indentation) as f64 / actual_max as f64).floor())
            .min((compact * 4) as f64)
            .min(15.0) as usize;
        if columns <= 1 {
            return output;
        }
        let mut max_line_length = Vec::new();
        for i in 0..columns {
            let mut line_length = 0;
            let mut j = i;
            while j < output_length {
                line_length = line_length.max(data_len[j]);
                j += columns;
            }
            max_line_length.push(line_length + separator_space);
        }
        // Numbers are right-aligned (padStart); anything else left-aligned.
        let numeric = output.iter().take(output_length).all(|s| {
            let t = s.trim_end_matches('n');
            t.parse::<f64>().is_ok() || t == "NaN" || t == "Infinity" || t == "-Infinity"
        });
        let mut tmp = Vec::new();
        let mut i = 0;
        while i < output_length {
            let max = (i + columns).min(output_length);
            let mut line = String::new();
            let mut j = i;
            while j < max - 1 {
                let cell = format!("{}, ", output[j]);
                let width = max_line_length[j - i];
                line.push_str(&pad(&cell, width, numeric));
                j += 1;
            }
            if numeric {
                let width = max_line_length[j - i] - separator_space;
                line.push_str(&pad(&output[j], width, true));
            } else {
                line.push_str(&output[j]);
            }
            tmp.push(line);
            i += columns;
        }
        if output_length < output.len() {
            tmp.push(output[output_length].clone());
        }
        return tmp;
    }
    output
}

fn pad(s: &str, width: usize, start: bool) -> String {
    let n = s.chars().count();
    if n >= width {
        return s.to_string();
    }
    let fill = " ".repeat(width - n);
    if start {
        format!("{fill}{s}")
    } else {
        format!("{s}{fill}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_node() {
        assert_eq!(quote("a"), "'a'");
        assert_eq!(quote("it's"), "\"it's\"");
        assert_eq!(quote("a\nb"), "'a\\nb'");
    }
}
