//! Array.prototype.sort's machinery, shared by `sort` and `toSorted` (builtins/array.rs):
//! SortCompare, V8's short-array TimSort run (so inconsistent or side-effecting comparators
//! see the calls and give the order they do in Node), a merge sort for longer arrays, and
//! SortIndexedProperties.

use crate::builtins::array::key_for;
use crate::error::JsResult;
use crate::runtime::call::call;
use crate::runtime::convert::{to_number, to_string};
use crate::runtime::property::{get, has_property};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// SortCompare (§23.1.3.30.2) with an optional comparator.
fn sort_compare(vm: &mut Vm, cmp: Value, x: Value, y: Value) -> JsResult<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (x.is_undefined(), y.is_undefined()) {
        (true, true) => return Ok(Ordering::Equal),
        (true, false) => return Ok(Ordering::Greater),
        (false, true) => return Ok(Ordering::Less),
        _ => {}
    }
    if !cmp.is_undefined() {
        let r = call(vm, cmp, Value::UNDEFINED, &[x, y])?;
        let n = to_number(vm, r)?;
        return Ok(if n < 0.0 {
            Ordering::Less
        } else if n > 0.0 {
            Ordering::Greater
        } else {
            Ordering::Equal
        });
    }
    if let (Some(a), Some(b)) = (x.as_int(), y.as_int()) {
        if (a >= 0) == (b >= 0) && a.abs() < 10 && b.abs() < 10 {
            return Ok(a.cmp(&b));
        }
    }
    let xs = to_string(vm, x)?;
    let ys = to_string(vm, y)?;
    let xs = vm.heap.flat(xs).clone();
    let ys = vm.heap.flat(ys);
    Ok(xs.iter().cmp(ys.iter()))
}

/// A stable sort that tolerates inconsistent comparators and propagates errors. Below 64
/// elements it is V8's (TimSort's first run: the leading ascending or strictly descending run,
/// then binary insertion), so a comparator that is inconsistent (returns NaN, ignores its
/// arguments) or has side effects sees the same calls and gives the same order as in Node;
/// npm packages' tests depend on both. Longer arrays use a bottom-up merge sort.
pub(super) fn sort_values(vm: &mut Vm, values: &mut Vec<Value>, cmp: Value) -> JsResult<()> {
    let n = values.len();
    vm.charge((n as u64) * (64 - (n as u64).leading_zeros() as u64 + 1))?;
    let root = vm.roots.len();
    vm.roots.extend_from_slice(values);
    if n < 64 {
        let r = short_sort(vm, values, cmp);
        vm.roots.truncate(root);
        return r;
    }
    let mut buf = values.clone();
    let mut width = 1;
    while width < n {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let mut i = 0;
        while i < n {
            // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
            vm.charge(1)?;
            let mid = (i + width).min(n);
            let hi = (i + 2 * width).min(n);
            let (mut l, mut r, mut k) = (i, mid, i);
            while l < mid && r < hi {
                // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
                vm.charge(1)?;
                if sort_compare(vm, cmp, values[r], values[l])? == std::cmp::Ordering::Less {
                    buf[k] = values[r];
                    r += 1;
                } else {
                    buf[k] = values[l];
                    l += 1;
                }
                k += 1;
            }
            buf[k..k + mid - l].copy_from_slice(&values[l..mid]);
            k += mid - l;
            buf[k..k + hi - r].copy_from_slice(&values[r..hi]);
            i += 2 * width;
        }
        std::mem::swap(values, &mut buf);
        width *= 2;
    }
    vm.roots.truncate(root);
    Ok(())
}

/// V8's TimSort for an array shorter than its minimum run (64): CountAndMakeRun, then
/// BinaryInsertionSort of the rest into that run (v8/third_party/v8/builtins/array-sort.tq).
fn short_sort(vm: &mut Vm, values: &mut [Value], cmp: Value) -> JsResult<()> {
    use std::cmp::Ordering::Less;
    let n = values.len();
    if n < 2 {
        return Ok(());
    }
    // CountAndMakeRun(0, n): the leading run, reversed if strictly descending.
    let descending = sort_compare(vm, cmp, values[1], values[0])? == Less;
    let mut run = 2;
    while run < n {
        vm.charge(1)?;
        let order = sort_compare(vm, cmp, values[run], values[run - 1])?;
        if (order == Less) != descending {
            break;
        }
        run += 1;
    }
    if descending {
        values[..run].reverse();
    }
    // BinaryInsertionSort(0, run, n).
    for start in run..n {
        let pivot = values[start];
        let (mut left, mut right) = (0, start);
        while left < right {
            vm.charge(1)?;
            let mid = left + ((right - left) >> 1);
            if sort_compare(vm, cmp, pivot, values[mid])? == Less {
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        values.copy_within(left..start, left + 1);
        values[left] = pivot;
    }
    Ok(())
}

/// SortIndexedProperties (§23.1.3.30.1) with holes skipped (true) or read (false).
pub(super) fn collect_for_sort(vm: &mut Vm, o: ObjectId, len: u64, skip_holes: bool) -> JsResult<Vec<Value>> {
    let mut items = Vec::new();
    for k in 0..len {
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if skip_holes && !has_property(vm, o, pk)? {
            continue;
        }
        let v = get(vm, o, pk, Value::object(o))?;
        vm.roots.push(v);
        items.push(v);
    }
    Ok(items)
}
