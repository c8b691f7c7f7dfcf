//! What each heap entity holds: the one definition of its outgoing handles. The collector
//! marks through it (`gc.rs`) and the image verifier checks every handle it yields
//! (`verify.rs`), so the two cannot drift apart (they once did: the verifier did not see an
//! object's symbol-keyed properties). A new field holding a handle is added here, and only
//! here; heap/README.md has the checklist for a new kind.
//!
//! Values may be any [`Value`]: a sink that only wants handles filters (the collector's
//! work list keeps those not yet marked).

use crate::atoms::PropertyKey;
use crate::bytecode::CodeBlock;
use crate::heap::object::{class_children, Env, Object, Props};
use crate::heap::shape::Shapes;
use crate::heap::{CodeId, EnvId};
use crate::value::Value;

/// An object's prototype, property values, symbol property keys, elements, and whatever
/// its class holds. Its shape must exist (`Shapes::get`; the verifier checks it first).
pub fn object_children(
    obj: &Object,
    shapes: &Shapes,
    values: &mut impl Extend<Value>,
    envs: &mut Vec<EnvId>,
    codes: &mut Vec<CodeId>,
) {
    values.extend(obj.proto.map(Value::object));
    let symbol = |key: &PropertyKey| match key {
        PropertyKey::Symbol(s) => Some(Value::symbol(*s)),
        PropertyKey::Atom(_) | PropertyKey::Index(_) => None,
    };
    match &obj.props {
        Props::Shaped { shape, slots } => {
            values.extend(slots.iter().copied());
            values.extend(shapes.get(*shape).keys().iter().filter_map(|(k, _)| symbol(k)));
        }
        Props::Dict(map) => {
            values.extend(map.values().map(|&(v, _)| v));
            values.extend(map.keys().filter_map(symbol));
        }
    }
    values.extend(obj.elements.iter().copied());
    class_children(&obj.class, values, envs, codes);
}

/// An environment's parent, its bindings and its binding object.
pub fn env_children(env: &Env, values: &mut impl Extend<Value>, envs: &mut Vec<EnvId>) {
    envs.extend(env.parent);
    values.extend(env.slots.iter().copied());
    values.extend(env.object.map(Value::object));
}

/// A code block's constants, its template objects and its nested functions' code.
pub fn code_children(code: &CodeBlock, values: &mut impl Extend<Value>, codes: &mut Vec<CodeId>) {
    values.extend(code.constants.iter().copied());
    values.extend(code.template_cache.iter().copied());
    codes.extend_from_slice(&code.functions);
}
