//! `console.table(tabularData[, properties])` as Node 20 prints it (lib/internal/console/
//! constructor.js and lib/internal/cli_table.js): a box-drawn table of left-aligned cells,
//! a row per own enumerable key of the data (`(index)`), a column per key of the rows (or per
//! `properties`), primitive rows under `Values`; a Map's rows as `(iteration index)`, `Key`,
//! `Values`, a Set's (and a collection iterator's remaining entries) as `(iteration index)`,
//! `Values`. Data that is not an object is logged as `console.log` would.
//!
//! Each cell is `util.inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity })`, the
//! depth being -1 (the value's tag alone, `[Object]`) for an object, not an array, with more
//! than two own enumerable keys, else 0.

use amber_engine::atoms::PropertyKey;
use amber_engine::error::JsResult;
use amber_engine::heap::object::{Class, IteratorState};
use amber_engine::runtime::convert::{key_to_display, to_property_key};
use amber_engine::runtime::property::{get, get_v, has_own_property};
use amber_engine::{Kind, ObjectId, Throw, Value, Vm};

use crate::inspect::{inspect_below_depth, inspect_with, InspectOptions};

const INDEX_KEY: &str = "(index)";
const ITER_KEY: &str = "(iteration index)";
const KEY_KEY: &str = "Key";
const VALUES_KEY: &str = "Values";

/// A column: its cells by row, `None` where the row has none (shown empty).
type Column = Vec<Option<String>>;

/// `console.table`: the table's text, or None when the data is to be logged instead.
pub(super) fn render(vm: &mut Vm, data: Value, properties: Value) -> JsResult<Option<String>> {
    let root = vm.roots.len();
    let r = render_rooted(vm, data, properties);
    vm.roots.truncate(root);
    r
}

fn render_rooted(vm: &mut Vm, data: Value, properties: Value) -> JsResult<Option<String>> {
    // `validateArray(properties, 'properties')`.
    let properties = if properties.is_undefined() {
        None
    } else {
        let Some(p) = properties.as_object().filter(|&p| matches!(vm.heap.obj(p).class, Class::Array(_))) else {
            return Err(invalid_properties(vm, properties));
        };
        Some(array_elements(vm, p)?)
    };
    let Some(o) = data.as_object().filter(|&o| !vm.heap.obj(o).is_callable()) else { return Ok(None) };
    vm.roots.push(data);
    if let Some((entries, is_map)) = collection_entries(vm, o) {
        vm.roots.extend(entries.iter().flat_map(|&(k, v)| [k, v]));
        let index: Column = (0..entries.len()).map(|i| Some(i.to_string())).collect();
        if is_map {
            let keys = entries.iter().map(|&(k, _)| Some(cell(vm, k))).collect();
            let values = entries.iter().map(|&(_, v)| Some(cell(vm, v))).collect();
            return Ok(Some(table(&[ITER_KEY, KEY_KEY, VALUES_KEY], &[index, keys, values])));
        }
        let values = entries.iter().map(|&(v, _)| Some(cell(vm, v))).collect();
        return Ok(Some(table(&[ITER_KEY, VALUES_KEY], &[index, values])));
    }
    let index_keys = object_keys(vm, o)?;
    // The columns in `Object.keys` order of the object Node collects them in: array
    // indices ascending, then the other names as first seen.
    let mut columns: Vec<(String, Column)> = Vec::new();
    let mut values: Column = Vec::new();
    let mut has_primitives = false;
    for (i, &key) in index_keys.iter().enumerate() {
        let item = get(vm, o, key, data)?;
        vm.roots.push(item);
        let primitive = item.as_object().is_none();
        if properties.is_none() && primitive {
            has_primitives = true;
            set(&mut values, i, cell(vm, item));
            continue;
        }
        let keys: Vec<PropertyKey> = match (&properties, item.as_object()) {
            (Some(p), _) => {
                let mut keys = Vec::new();
                for &k in p {
                    keys.push(to_property_key(vm, k)?);
                }
                keys
            }
            (None, Some(item_o)) => object_keys(vm, item_o)?,
            (None, None) => Vec::new(),
        };
        for k in keys {
            if matches!(k, PropertyKey::Symbol(_)) {
                continue;
            }
            let name = key_to_display(vm, k);
            let shown = match item.as_object() {
                Some(item_o) if !primitive && has_own_property(vm, item_o, k)? => {
                    let v = get_v(vm, item, k)?;
                    Some(cell(vm, v))
                }
                _ => None,
            };
            let at = match columns.iter().position(|(n, _)| *n == name) {
                Some(at) => at,
                None => {
                    columns.push((name, Vec::new()));
                    columns.len() - 1
                }
            };
            let column = &mut columns[at].1;
            set(column, i, shown.unwrap_or_default());
        }
    }
    sort_like_object_keys(&mut columns);
    let mut head: Vec<&str> = vec![INDEX_KEY];
    let mut cols: Vec<Column> = vec![index_keys.iter().map(|&k| Some(key_to_display(vm, k))).collect()];
    for (name, column) in &columns {
        head.push(name);
        cols.push(column.clone());
    }
    if has_primitives {
        head.push(VALUES_KEY);
        cols.push(values);
    }
    Ok(Some(table(&head, &cols)))
}

/// `column[i] = text` in a sparse column.
fn set(column: &mut Column, i: usize, text: String) {
    if column.len() <= i {
        column.resize(i + 1, None);
    }
    column[i] = Some(text);
}

/// Array indices first in ascending order, then the other names in insertion order (the
/// order `Object.keys` gives the `Object.create(null)` Node gathers the columns in).
fn sort_like_object_keys(columns: &mut [(String, Column)]) {
    let index = |n: &str| n.parse::<u32>().ok().filter(|&i| i != u32::MAX && i.to_string() == n);
    columns.sort_by_key(|(n, _)| match index(n) {
        Some(i) => (0, i),
        None => (1, 0),
    });
}

/// A Map or Set, or a Map or Set iterator's remaining entries (read without advancing it):
/// the entries, and whether they are key-value pairs (a Map, a Map's `entries()`).
fn collection_entries(vm: &Vm, o: ObjectId) -> Option<(Vec<(Value, Value)>, bool)> {
    let live = |vm: &Vm, target: ObjectId, skip: usize| -> Vec<(Value, Value)> {
        match &vm.heap.obj(target).class {
            Class::Map(m) | Class::Set(m) => m.entries.iter().skip(skip).flatten().copied().collect(),
            _ => Vec::new(),
        }
    };
    match &vm.heap.obj(o).class {
        Class::Map(_) => Some((live(vm, o, 0), true)),
        Class::Set(_) => Some((live(vm, o, 0), false)),
        Class::Iterator(it) => match **it {
            IteratorState::MapIter { target, index, kind, done } => {
                let entries = if done { Vec::new() } else { live(vm, target, index as usize) };
                Some(match kind {
                    // keys(), values(): a list of the one part.
                    0 => (entries, false),
                    1 => (entries.into_iter().map(|(_, v)| (v, v)).collect(), false),
                    _ => (entries, true),
                })
            }
            IteratorState::SetIter { target, index, kind, done } => {
                let entries = if done { Vec::new() } else { live(vm, target, index as usize) };
                // entries(): V8's preview lists each value twice, and Node shows the list.
                let entries = if kind == 2 { entries.into_iter().flat_map(|e| [e, e]).collect() } else { entries };
                Some((entries, false))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `Object.keys(o)`: own enumerable string keys.
fn object_keys(vm: &mut Vm, o: ObjectId) -> JsResult<Vec<PropertyKey>> {
    let names = amber_engine::builtins::object::enumerable_own_properties(vm, o, 0)?;
    let mut keys = Vec::with_capacity(names.len());
    for n in names {
        keys.push(to_property_key(vm, n)?);
    }
    Ok(keys)
}

fn array_elements(vm: &mut Vm, a: ObjectId) -> JsResult<Vec<Value>> {
    let len = amber_engine::runtime::property::length_of_array_like(vm, a)?;
    let mut out = Vec::new();
    for i in 0..len {
        let v = get(vm, a, PropertyKey::Index(i as u32), Value::object(a))?;
        vm.roots.push(v);
        out.push(v);
    }
    Ok(out)
}

/// One cell: Node's `_inspect`.
fn cell(vm: &mut Vm, v: Value) -> String {
    // `inspect` quotes a string that is not the top-level value's; here each cell is.
    if let Kind::String(s) = v.kind() {
        return crate::inspect::quote(&vm.heap.flat(s).to_rust_string());
    }
    let opts = InspectOptions { depth: 0, break_length: usize::MAX, max_array_length: 3, ..InspectOptions::default() };
    let many_keys = match v.as_object() {
        Some(o) if !matches!(vm.heap.obj(o).class, Class::Array(_)) && !vm.heap.obj(o).is_callable() => {
            object_keys(vm, o).map(|k| k.len() > 2).unwrap_or(false)
        }
        _ => false,
    };
    if many_keys {
        inspect_below_depth(vm, v, opts)
    } else {
        inspect_with(vm, v, opts)
    }
}

/// Node's `ERR_INVALID_ARG_TYPE` for a `properties` that is not an array.
fn invalid_properties(vm: &mut Vm, v: Value) -> Throw {
    let received = match v.kind() {
        Kind::Undefined | Kind::Null => format!("Received {}", crate::inspect::inspect(vm, v)),
        Kind::Object(o) if vm.heap.obj(o).is_callable() => {
            let name = amber_engine::builtins::function::function_name(vm, o);
            format!("Received function {name}")
        }
        Kind::Object(o) => {
            let ctor = crate::inspect::constructor_name(vm, o).unwrap_or_else(|| "Object".into());
            format!("Received an instance of {ctor}")
        }
        _ => {
            let shown = cell(vm, v);
            let shown = if shown.chars().count() > 28 {
                format!("{}...", shown.chars().take(25).collect::<String>())
            } else {
                shown
            };
            let ty = amber_engine::runtime::operators::type_of(vm, v);
            format!("Received type {ty} ({shown})")
        }
    };
    let message = format!("The \"properties\" argument must be an instance of Array. {received}");
    let t = vm.type_error(&message);
    if let Throw::Value(e) = &t {
        let code = vm.str("ERR_INVALID_ARG_TYPE");
        vm.set_property(*e, "code", code);
    }
    t
}

/// `cli_table`'s `table(head, columns)`: every cell left-aligned in its column, widths by
/// characters.
fn table(head: &[&str], columns: &[Column]) -> String {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths: Vec<usize> = head.iter().map(|h| width(h)).collect();
    let mut grid: Vec<Vec<&str>> = vec![Vec::with_capacity(head.len()); rows];
    for (i, column) in columns.iter().enumerate() {
        for (j, row) in grid.iter_mut().enumerate() {
            let value = column.get(j).and_then(|c| c.as_deref()).unwrap_or("");
            row.push(value);
            widths[i] = widths[i].max(width(value));
        }
    }
    let divider: Vec<String> = widths.iter().map(|&w| "─".repeat(w + 2)).collect();
    let mut out = format!("┌{}┐\n", divider.join("┬"));
    out.push_str(&render_row(head, &widths));
    out.push_str(&format!("\n├{}┤\n", divider.join("┼")));
    for row in &grid {
        out.push_str(&render_row(row, &widths));
        out.push('\n');
    }
    out.push_str(&format!("└{}┘", divider.join("┴")));
    out
}

fn render_row(row: &[&str], widths: &[usize]) -> String {
    let cells: Vec<String> =
        row.iter().zip(widths).map(|(cell, &w)| format!("{cell}{}", " ".repeat(w - width(cell)))).collect();
    format!("│ {} │", cells.join(" │ "))
}

fn width(s: &str) -> usize {
    s.chars().count()
}
