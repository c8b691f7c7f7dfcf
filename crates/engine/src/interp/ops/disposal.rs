//! Explicit resource management (`using`, `await using`).

use crate::error::JsResult;
use crate::value::Value;
use crate::vm::Vm;

pub fn add_disposable(vm: &mut Vm, stack: Value, v: Value, hint: u8) -> JsResult<()> {
    crate::builtins::disposable::add_resource(vm, stack, v, hint)
}

pub fn dispose_resources(vm: &mut Vm, stack: Value) -> JsResult<()> {
    crate::builtins::disposable::dispose_all(vm, stack)
}
