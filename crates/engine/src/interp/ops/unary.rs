//! Unary operators that may call into JS (`-`, `~`, `++`/`--`).

use crate::error::JsResult;
use crate::value::Value;
use crate::vm::Vm;

pub fn negate(vm: &mut Vm, v: Value) -> JsResult<Value> {
    if let Some(i) = v.as_int() {
        if i != 0 && i != i32::MIN {
            return Ok(Value::int(-i));
        }
    }
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = -vm.heap.bigint(b).clone();
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::number(-n.as_number().unwrap_or(f64::NAN)))
}

pub fn bit_not(vm: &mut Vm, v: Value) -> JsResult<Value> {
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = !vm.heap.bigint(b).clone();
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::int(!crate::runtime::convert::f64_to_int32(n.as_number().unwrap_or(0.0))))
}

pub fn increment(vm: &mut Vm, v: Value, delta: i32) -> JsResult<Value> {
    if let Some(i) = v.as_int() {
        if let Some(r) = i.checked_add(delta) {
            return Ok(Value::int(r));
        }
    }
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = vm.heap.bigint(b).clone() + delta;
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::number(n.as_number().unwrap_or(f64::NAN) + delta as f64))
}
