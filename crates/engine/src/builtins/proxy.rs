//! Proxy objects: the exotic internal methods (ECMA-262 §10.5) and the `Proxy` constructor
//! (§28.2): https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots
//!
//! `runtime::property` and `runtime::call` dispatch every internal method of an object whose
//! class is [`Class::Proxy`] to the function of the same name here. A revoked proxy has no
//! target and no handler; every operation on it throws a TypeError.
//!
//! Native stack: a missing trap forwards to the target; when the target is itself a proxy the
//! forwarding loops here instead of recursing, so a chain of a million trap-less proxies costs
//! no native stack. What still nests (a trap's invariant checks on a proxy target, a proxy on
//! the prototype chain of a proxy's ordinary target) is bounded by [`MAX_PROXY_DEPTH`]: past
//! it the operation throws a RangeError instead of overflowing the native stack.
//!
//! Rooting: these functions run JS (traps, getters) while holding target, handler, trap and
//! trap results in Rust locals, so each one pushes what it holds on `vm.roots` and releases
//! it on return ([`scoped`]); the collector may run inside any trap.

use std::cell::Cell;

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use crate::atoms::{atom, Atom, PropertyKey};
use crate::builtins::{arg, install, make_internal, make_native, NativeDef, NativeId};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, Object, ProxyData};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{self as calls, is_callable, is_constructor};
use crate::runtime::convert::{key_to_display, key_to_value, to_boolean};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::operators::same_value_heap;
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] =
    &[native!("Proxy", 2, constructor), native!("Proxy.revocable", 2, revocable), native!("%Proxy.revoke", 0, revoke)];

/// Create `Proxy` (a constructor with no `prototype` property, §28.2.2) and make it global.
pub(crate) fn init(vm: &mut Vm) {
    let id = NativeId::by_name("Proxy").unwrap_or(NativeId(0));
    let ctor = make_native(vm, "Proxy", id, 2, true, Vec::new());
    install(vm, ctor, "Proxy", NATIVES);
    vm.realm.proxy_constructor = ctor;
    let key = PropertyKey::Atom(vm.heap.atoms.intern_str("Proxy"));
    let global = vm.global;
    vm.define_builtin(global, key, Value::object(ctor), PropFlags::HIDDEN);
}

/// How deeply proxy internal methods may nest on the native stack before a RangeError.
///
/// Measured in the dev profile, one level costs about 320–400 bytes of native stack (the proxy
/// method's frame plus the `runtime::property` frame that dispatches to it), so at the limit
/// proxy nesting alone takes about 1.2 MiB, inside the std default 2 MiB thread stack. V8 on
/// its ~1 MiB stack stops near 3,300 levels of the same nesting.
pub const MAX_PROXY_DEPTH: u32 = 3_000;

thread_local! {
    /// Proxy internal methods currently active on this thread's native stack. It measures
    /// the native stack (which is per thread), not VM state: it is zero at every safe point,
    /// so it never belongs in an image.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// One level of proxy nesting, released on drop (also when a throw unwinds through it).
struct DepthGuard;

impl DepthGuard {
    fn enter(vm: &mut Vm) -> JsResult<DepthGuard> {
        let depth = DEPTH.with(Cell::get);
        if depth >= MAX_PROXY_DEPTH {
            return Err(vm.range_error("Maximum call stack size exceeded"));
        }
        DEPTH.with(|d| d.set(depth + 1));
        Ok(DepthGuard)
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// The thirteen traps: the handler property each one reads, which is also the operation name
/// in V8's "Cannot perform '…' on a proxy that has been revoked".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Trap {
    GetPrototypeOf,
    SetPrototypeOf,
    IsExtensible,
    PreventExtensions,
    GetOwnPropertyDescriptor,
    DefineProperty,
    Has,
    Get,
    Set,
    DeleteProperty,
    OwnKeys,
    Apply,
    Construct,
}

impl Trap {
    fn atom(self) -> Atom {
        match self {
            Trap::GetPrototypeOf => atom::getPrototypeOf,
            Trap::SetPrototypeOf => atom::setPrototypeOf,
            Trap::IsExtensible => atom::isExtensible,
            Trap::PreventExtensions => atom::preventExtensions,
            Trap::GetOwnPropertyDescriptor => atom::getOwnPropertyDescriptor,
            Trap::DefineProperty => atom::defineProperty,
            Trap::Has => atom::has,
            Trap::Get => atom::get,
            Trap::Set => atom::set,
            Trap::DeleteProperty => atom::deleteProperty,
            Trap::OwnKeys => atom::ownKeys,
            Trap::Apply => atom::apply,
            Trap::Construct => atom::construct,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Trap::GetPrototypeOf => "getPrototypeOf",
            Trap::SetPrototypeOf => "setPrototypeOf",
            Trap::IsExtensible => "isExtensible",
            Trap::PreventExtensions => "preventExtensions",
            Trap::GetOwnPropertyDescriptor => "getOwnPropertyDescriptor",
            Trap::DefineProperty => "defineProperty",
            Trap::Has => "has",
            Trap::Get => "get",
            Trap::Set => "set",
            Trap::DeleteProperty => "deleteProperty",
            Trap::OwnKeys => "ownKeys",
            Trap::Apply => "apply",
            Trap::Construct => "construct",
        }
    }
}

// ---- the Proxy constructor (§28.2)

/// ### 28.2.1.1 Proxy ( target, handler )
/// https://tc39.es/ecma262/#sec-proxy-target-handler
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if vm.native_new_target().is_undefined() {
        return Err(vm.type_error("Constructor Proxy requires 'new'"));
    }
    // 2. Return ? ProxyCreate(target, handler).
    proxy_create(vm, arg(args, 0), arg(args, 1)).map(Value::object)
}

/// ### 28.2.2.1 Proxy.revocable ( target, handler )
/// https://tc39.es/ecma262/#sec-proxy.revocable
fn revocable(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let proxy be ? ProxyCreate(target, handler).
    let proxy = Value::object(proxy_create(vm, arg(args, 0), arg(args, 1))?);
    // 2-4. Let revoker be CreateBuiltinFunction(revokerClosure, 0, "", « [[RevocableProxy]] »),
    //      with [[RevocableProxy]] set to proxy (its one capture).
    let revoker = Value::object(make_internal(vm, "%Proxy.revoke", 0, vec![proxy]));
    // 5. Let result be OrdinaryObjectCreate(%Object.prototype%).
    let result = vm.new_object();
    let Some(result_obj) = result.as_object() else { return Ok(result) };
    // 6. Perform ! CreateDataPropertyOrThrow(result, "proxy", proxy).
    let proxy_key = vm.key("proxy");
    vm.define_builtin(result_obj, proxy_key, proxy, PropFlags::DEFAULT);
    // 7. Perform ! CreateDataPropertyOrThrow(result, "revoke", revoker).
    let revoke_key = vm.key("revoke");
    vm.define_builtin(result_obj, revoke_key, revoker, PropFlags::DEFAULT);
    // 8. Return result.
    Ok(result)
}

/// The revoker closure of §28.2.2.1 step 2: revoke the captured proxy once.
fn revoke(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // a. Let F be the active function object.
    let Some(f) = vm.native_ctx.callee else { return Ok(Value::UNDEFINED) };
    // b. Let p be F.[[RevocableProxy]].
    // c. If p is null, return undefined.
    // d. Set F.[[RevocableProxy]] to null.
    let p = match &mut vm.heap.obj_mut(f).class {
        Class::Native(n) => match n.captures.first_mut() {
            Some(slot) if slot.is_object() => std::mem::replace(slot, Value::NULL),
            _ => return Ok(Value::UNDEFINED),
        },
        _ => return Ok(Value::UNDEFINED),
    };
    // e. Assert: p is a Proxy exotic object.
    // f. Set p.[[ProxyTarget]] to null.
    // g. Set p.[[ProxyHandler]] to null.
    if let Some(p) = p.as_object() {
        if let Class::Proxy(data) = &mut vm.heap.obj_mut(p).class {
            data.target = None;
            data.handler = None;
        }
    }
    // h. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 10.5.14 ProxyCreate ( target, handler )
/// https://tc39.es/ecma262/#sec-proxycreate
pub fn proxy_create(vm: &mut Vm, target: Value, handler: Value) -> JsResult<ObjectId> {
    // 1. If target is not an Object, throw a TypeError exception.
    // 2. If handler is not an Object, throw a TypeError exception.
    let (Some(t), Some(h)) = (target.as_object(), handler.as_object()) else {
        return Err(vm.type_error("Cannot create proxy with a non-object as target or handler"));
    };
    // 3-5. Let P be MakeBasicObject(« [[ProxyHandler]], [[ProxyTarget]] »), with [[Call]] when
    //      target is callable and [[Construct]] when target is a constructor.
    // 6-7. Set P.[[ProxyTarget]] to target and P.[[ProxyHandler]] to handler.
    let data = ProxyData {
        target: Some(t),
        handler: Some(h),
        callable: is_callable(vm, target),
        constructor: is_constructor(vm, target),
    };
    // 8. Return P.
    Ok(vm.heap.alloc_object(Object::new(None, Class::Proxy(Box::new(data)))))
}

// ---- the internal methods (§10.5.1–§10.5.13), in spec order

/// ### 10.5.1 [[GetPrototypeOf]] ( )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-getprototypeof
pub fn get_prototype_of(vm: &mut Vm, o: ObjectId) -> JsResult<Option<ObjectId>> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "getPrototypeOf").
        let (target, handler, trap) = match resolve(vm, o, Trap::GetPrototypeOf)? {
            // 6. If trap is undefined, return ? target.[[GetPrototypeOf]]().
            Resolved::Forward(target) => return property::get_prototype_of(vm, target),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let handlerProto be ? Call(trap, handler, « target »).
        let handler_proto = call_trap(vm, trap, handler, &[Value::object(target)])?;
        // 8. If handlerProto is not an Object and handlerProto is not null, throw a TypeError exception.
        let handler_proto = match handler_proto.kind() {
            Kind::Object(p) => Some(p),
            Kind::Null => None,
            _ => return Err(violation(vm, Violation::GetPrototypeOfInvalid, None)),
        };
        // 9. Let extensibleTarget be ? IsExtensible(target).
        // 10. If extensibleTarget is true, return handlerProto.
        if property::is_extensible(vm, target)? {
            return Ok(handler_proto);
        }
        // 11. Let targetProto be ? target.[[GetPrototypeOf]]().
        let target_proto = property::get_prototype_of(vm, target)?;
        // 12. If SameValue(handlerProto, targetProto) is false, throw a TypeError exception.
        if handler_proto != target_proto {
            return Err(violation(vm, Violation::GetPrototypeOfNonExtensible, None));
        }
        // 13. Return handlerProto.
        Ok(handler_proto)
    })
}

/// ### 10.5.2 [[SetPrototypeOf]] ( V )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-setprototypeof-v
pub fn set_prototype_of(vm: &mut Vm, o: ObjectId, proto: Option<ObjectId>) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        let v = proto.map_or(Value::NULL, Value::object);
        vm.roots.push(v);
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "setPrototypeOf").
        let (target, handler, trap) = match resolve(vm, o, Trap::SetPrototypeOf)? {
            // 6. If trap is undefined, return ? target.[[SetPrototypeOf]](V).
            Resolved::Forward(target) => return property::set_prototype_of(vm, target, proto),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target, V »)).
        let r = call_trap(vm, trap, handler, &[Value::object(target), v])?;
        // 8. If booleanTrapResult is false, return false.
        if !to_boolean(vm, r) {
            return Ok(false);
        }
        // 9. Let extensibleTarget be ? IsExtensible(target).
        // 10. If extensibleTarget is true, return true.
        if property::is_extensible(vm, target)? {
            return Ok(true);
        }
        // 11. Let targetProto be ? target.[[GetPrototypeOf]]().
        let target_proto = property::get_prototype_of(vm, target)?;
        // 12. If SameValue(V, targetProto) is false, throw a TypeError exception.
        if proto != target_proto {
            return Err(violation(vm, Violation::SetPrototypeOfNonExtensible, None));
        }
        // 13. Return true.
        Ok(true)
    })
}

/// ### 10.5.3 [[IsExtensible]] ( )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-isextensible
pub fn is_extensible(vm: &mut Vm, o: ObjectId) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "isExtensible").
        let (target, handler, trap) = match resolve(vm, o, Trap::IsExtensible)? {
            // 6. If trap is undefined, return ? IsExtensible(target).
            Resolved::Forward(target) => return property::is_extensible(vm, target),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target »)).
        let r = call_trap(vm, trap, handler, &[Value::object(target)])?;
        let boolean_trap_result = to_boolean(vm, r);
        // 8. Let targetResult be ? IsExtensible(target).
        let target_result = property::is_extensible(vm, target)?;
        // 9. If booleanTrapResult is not targetResult, throw a TypeError exception.
        if boolean_trap_result != target_result {
            return Err(violation(vm, Violation::IsExtensibleInconsistent(target_result), None));
        }
        // 10. Return booleanTrapResult.
        Ok(boolean_trap_result)
    })
}

/// ### 10.5.4 [[PreventExtensions]] ( )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-preventextensions
pub fn prevent_extensions(vm: &mut Vm, o: ObjectId) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "preventExtensions").
        let (target, handler, trap) = match resolve(vm, o, Trap::PreventExtensions)? {
            // 6. If trap is undefined, return ? target.[[PreventExtensions]]().
            Resolved::Forward(target) => return property::prevent_extensions(vm, target),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target »)).
        let r = call_trap(vm, trap, handler, &[Value::object(target)])?;
        let boolean_trap_result = to_boolean(vm, r);
        // 8. If booleanTrapResult is true, then
        //    a. Let extensibleTarget be ? IsExtensible(target).
        //    b. If extensibleTarget is true, throw a TypeError exception.
        if boolean_trap_result && property::is_extensible(vm, target)? {
            return Err(violation(vm, Violation::PreventExtensionsExtensible, None));
        }
        // 9. Return booleanTrapResult.
        Ok(boolean_trap_result)
    })
}

/// ### 10.5.5 [[GetOwnProperty]] ( P )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-getownproperty-p
pub fn get_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<Option<PropertyDescriptor>> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "getOwnPropertyDescriptor").
        let (target, handler, trap) = match resolve(vm, o, Trap::GetOwnPropertyDescriptor)? {
            // 6. If trap is undefined, return ? target.[[GetOwnProperty]](P).
            Resolved::Forward(target) => return property::get_own_property(vm, target, key),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let trapResultObj be ? Call(trap, handler, « target, P »).
        let p = key_to_value(vm, key);
        let trap_result_obj = call_trap(vm, trap, handler, &[Value::object(target), p])?;
        vm.roots.push(trap_result_obj);
        // 8. If trapResultObj is not an Object and trapResultObj is not undefined, throw a TypeError exception.
        if !trap_result_obj.is_object() && !trap_result_obj.is_undefined() {
            return Err(violation(vm, Violation::GopdInvalid, Some(key)));
        }
        // 9. Let targetDesc be ? target.[[GetOwnProperty]](P).
        let target_desc = property::get_own_property(vm, target, key)?;
        root_descriptor(vm, target_desc);
        // 10. If trapResultObj is undefined, then
        if trap_result_obj.is_undefined() {
            // a. If targetDesc is undefined, return undefined.
            let Some(target_desc) = target_desc else { return Ok(None) };
            // b. If targetDesc.[[Configurable]] is false, throw a TypeError exception.
            if target_desc.configurable == Some(false) {
                return Err(violation(vm, Violation::GopdUndefinedNonConfigurable, Some(key)));
            }
            // c. Let extensibleTarget be ? IsExtensible(target).
            // d. If extensibleTarget is false, throw a TypeError exception.
            if !property::is_extensible(vm, target)? {
                return Err(violation(vm, Violation::GopdUndefinedNonExtensible, Some(key)));
            }
            // e. Return undefined.
            return Ok(None);
        }
        // 11. Let extensibleTarget be ? IsExtensible(target).
        let extensible_target = property::is_extensible(vm, target)?;
        // 12. Let resultDesc be ? ToPropertyDescriptor(trapResultObj).
        let mut result_desc = to_property_descriptor(vm, trap_result_obj)?;
        // 13. Perform CompletePropertyDescriptor(resultDesc).
        complete_property_descriptor(&mut result_desc);
        // 14. Let valid be IsCompatiblePropertyDescriptor(extensibleTarget, resultDesc, targetDesc).
        // 15. If valid is false, throw a TypeError exception.
        if !is_compatible_property_descriptor(vm, extensible_target, result_desc, target_desc) {
            return Err(violation(vm, Violation::GopdIncompatible, Some(key)));
        }
        // 16. If resultDesc.[[Configurable]] is false, then
        if result_desc.configurable == Some(false) {
            // a. If targetDesc is undefined or targetDesc.[[Configurable]] is true, throw a TypeError exception.
            let Some(target_desc) = target_desc.filter(|d| d.configurable == Some(false)) else {
                return Err(violation(vm, Violation::GopdNonConfigurable, Some(key)));
            };
            // b. If resultDesc has a [[Writable]] field and resultDesc.[[Writable]] is false, then
            //    i. Assert: targetDesc has a [[Writable]] field.
            //    ii. If targetDesc.[[Writable]] is true, throw a TypeError exception.
            if result_desc.writable == Some(false) && target_desc.writable == Some(true) {
                return Err(violation(vm, Violation::GopdNonConfigurableWritable, Some(key)));
            }
        }
        // 17. Return resultDesc.
        Ok(Some(result_desc))
    })
}

/// ### 10.5.6 [[DefineOwnProperty]] ( P, Desc )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-defineownproperty-p-desc
pub fn define_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey, desc: PropertyDescriptor) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        root_descriptor(vm, Some(desc));
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "defineProperty").
        let (target, handler, trap) = match resolve(vm, o, Trap::DefineProperty)? {
            // 6. If trap is undefined, return ? target.[[DefineOwnProperty]](P, Desc).
            Resolved::Forward(target) => return property::define_own_property(vm, target, key, desc),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let descObj be FromPropertyDescriptor(Desc).
        let desc_obj = from_property_descriptor(vm, Some(desc))?;
        // 8. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target, P, descObj »)).
        let p = key_to_value(vm, key);
        let r = call_trap(vm, trap, handler, &[Value::object(target), p, desc_obj])?;
        // 9. If booleanTrapResult is false, return false.
        if !to_boolean(vm, r) {
            return Ok(false);
        }
        // 10. Let targetDesc be ? target.[[GetOwnProperty]](P).
        let target_desc = property::get_own_property(vm, target, key)?;
        root_descriptor(vm, target_desc);
        // 11. Let extensibleTarget be ? IsExtensible(target).
        let extensible_target = property::is_extensible(vm, target)?;
        // 12-13. Let settingConfigFalse be true if Desc has a [[Configurable]] field whose value
        //        is false, and false otherwise.
        let setting_config_false = desc.configurable == Some(false);
        match target_desc {
            // 14. If targetDesc is undefined, then
            None => {
                // a. If extensibleTarget is false, throw a TypeError exception.
                if !extensible_target {
                    return Err(violation(vm, Violation::DefineNonExtensible, Some(key)));
                }
                // b. If settingConfigFalse is true, throw a TypeError exception.
                if setting_config_false {
                    return Err(violation(vm, Violation::DefineNonConfigurable, Some(key)));
                }
            }
            // 15. Else,
            Some(target_desc) => {
                // a. If IsCompatiblePropertyDescriptor(extensibleTarget, Desc, targetDesc) is false, throw a TypeError exception.
                if !is_compatible_property_descriptor(vm, extensible_target, desc, Some(target_desc)) {
                    return Err(violation(vm, Violation::DefineIncompatible, Some(key)));
                }
                // b. If settingConfigFalse is true and targetDesc.[[Configurable]] is true, throw a TypeError exception.
                if setting_config_false && target_desc.configurable == Some(true) {
                    return Err(violation(vm, Violation::DefineNonConfigurable, Some(key)));
                }
                // c. If IsDataDescriptor(targetDesc) is true, targetDesc.[[Configurable]] is false, and
                //    targetDesc.[[Writable]] is true, then
                //    i. If Desc has a [[Writable]] field and Desc.[[Writable]] is false, throw a TypeError exception.
                if target_desc.is_data()
                    && target_desc.configurable == Some(false)
                    && target_desc.writable == Some(true)
                    && desc.writable == Some(false)
                {
                    return Err(violation(vm, Violation::DefineNonConfigurableWritable, Some(key)));
                }
            }
        }
        // 16. Return true.
        Ok(true)
    })
}

/// ### 10.5.7 [[HasProperty]] ( P )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-hasproperty-p
pub fn has(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "has").
        let (target, handler, trap) = match resolve(vm, o, Trap::Has)? {
            // 6. If trap is undefined, return ? target.[[HasProperty]](P).
            Resolved::Forward(target) => return property::has_property(vm, target, key),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target, P »)).
        let p = key_to_value(vm, key);
        let r = call_trap(vm, trap, handler, &[Value::object(target), p])?;
        let boolean_trap_result = to_boolean(vm, r);
        // 8. If booleanTrapResult is false, then
        if !boolean_trap_result {
            // a. Let targetDesc be ? target.[[GetOwnProperty]](P).
            // b. If targetDesc is not undefined, then
            if let Some(target_desc) = property::get_own_property(vm, target, key)? {
                // i. If targetDesc.[[Configurable]] is false, throw a TypeError exception.
                if target_desc.configurable == Some(false) {
                    return Err(violation(vm, Violation::HasNonConfigurable, Some(key)));
                }
                // ii. Let extensibleTarget be ? IsExtensible(target).
                // iii. If extensibleTarget is false, throw a TypeError exception.
                if !property::is_extensible(vm, target)? {
                    return Err(violation(vm, Violation::HasNonExtensible, Some(key)));
                }
            }
        }
        // 9. Return booleanTrapResult.
        Ok(boolean_trap_result)
    })
}

/// ### 10.5.8 [[Get]] ( P, Receiver )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-get-p-receiver
pub fn get(vm: &mut Vm, o: ObjectId, key: PropertyKey, receiver: Value) -> JsResult<Value> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        vm.roots.push(receiver);
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "get").
        let (target, handler, trap) = match resolve(vm, o, Trap::Get)? {
            // 6. If trap is undefined, return ? target.[[Get]](P, Receiver).
            Resolved::Forward(target) => return property::get(vm, target, key, receiver),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let trapResult be ? Call(trap, handler, « target, P, Receiver »).
        let p = key_to_value(vm, key);
        let trap_result = call_trap(vm, trap, handler, &[Value::object(target), p, receiver])?;
        vm.roots.push(trap_result);
        // 8. Let targetDesc be ? target.[[GetOwnProperty]](P).
        // 9. If targetDesc is not undefined and targetDesc.[[Configurable]] is false, then
        if let Some(target_desc) =
            property::get_own_property(vm, target, key)?.filter(|d| d.configurable == Some(false))
        {
            // a. If IsDataDescriptor(targetDesc) is true and targetDesc.[[Writable]] is false, then
            //    i. If SameValue(trapResult, targetDesc.[[Value]]) is false, throw a TypeError exception.
            if target_desc.is_data() && target_desc.writable == Some(false) {
                let expected = target_desc.value.unwrap_or_default();
                if !same_value_heap(vm, trap_result, expected) {
                    let v = Violation::GetNonConfigurableData { expected, got: trap_result };
                    return Err(violation(vm, v, Some(key)));
                }
            }
            // b. If IsAccessorDescriptor(targetDesc) is true and targetDesc.[[Get]] is undefined, then
            //    i. If trapResult is not undefined, throw a TypeError exception.
            if target_desc.is_accessor()
                && target_desc.get.unwrap_or_default().is_undefined()
                && !trap_result.is_undefined()
            {
                return Err(violation(vm, Violation::GetNonConfigurableAccessor { got: trap_result }, Some(key)));
            }
        }
        // 10. Return trapResult.
        Ok(trap_result)
    })
}

/// ### 10.5.9 [[Set]] ( P, V, Receiver )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-set-p-v-receiver
pub fn set(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value, receiver: Value) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        vm.roots.push(value);
        vm.roots.push(receiver);
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "set").
        let (target, handler, trap) = match resolve(vm, o, Trap::Set)? {
            // 6. If trap is undefined, return ? target.[[Set]](P, V, Receiver).
            Resolved::Forward(target) => return property::set(vm, target, key, value, receiver),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target, P, V, Receiver »)).
        let p = key_to_value(vm, key);
        let r = call_trap(vm, trap, handler, &[Value::object(target), p, value, receiver])?;
        // 8. If booleanTrapResult is false, return false.
        if !to_boolean(vm, r) {
            return Ok(false);
        }
        // 9. Let targetDesc be ? target.[[GetOwnProperty]](P).
        // 10. If targetDesc is not undefined and targetDesc.[[Configurable]] is false, then
        if let Some(target_desc) =
            property::get_own_property(vm, target, key)?.filter(|d| d.configurable == Some(false))
        {
            // a. If IsDataDescriptor(targetDesc) is true and targetDesc.[[Writable]] is false, then
            //    i. If SameValue(V, targetDesc.[[Value]]) is false, throw a TypeError exception.
            if target_desc.is_data()
                && target_desc.writable == Some(false)
                && !same_value_heap(vm, value, target_desc.value.unwrap_or_default())
            {
                return Err(violation(vm, Violation::SetNonConfigurableData, Some(key)));
            }
            // b. If IsAccessorDescriptor(targetDesc) is true, then
            //    i. If targetDesc.[[Set]] is undefined, throw a TypeError exception.
            if target_desc.is_accessor() && target_desc.set.unwrap_or_default().is_undefined() {
                return Err(violation(vm, Violation::SetNonConfigurableAccessor, Some(key)));
            }
        }
        // 11. Return true.
        Ok(true)
    })
}

/// ### 10.5.10 [[Delete]] ( P )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-delete-p
pub fn delete(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "deleteProperty").
        let (target, handler, trap) = match resolve(vm, o, Trap::DeleteProperty)? {
            // 6. If trap is undefined, return ? target.[[Delete]](P).
            Resolved::Forward(target) => return property::delete(vm, target, key),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let booleanTrapResult be ToBoolean(? Call(trap, handler, « target, P »)).
        let p = key_to_value(vm, key);
        let r = call_trap(vm, trap, handler, &[Value::object(target), p])?;
        // 8. If booleanTrapResult is false, return false.
        if !to_boolean(vm, r) {
            return Ok(false);
        }
        // 9. Let targetDesc be ? target.[[GetOwnProperty]](P).
        // 10. If targetDesc is undefined, return true.
        let Some(target_desc) = property::get_own_property(vm, target, key)? else { return Ok(true) };
        // 11. If targetDesc.[[Configurable]] is false, throw a TypeError exception.
        if target_desc.configurable == Some(false) {
            return Err(violation(vm, Violation::DeleteNonConfigurable, Some(key)));
        }
        // 12. Let extensibleTarget be ? IsExtensible(target).
        // 13. If extensibleTarget is false, throw a TypeError exception.
        if !property::is_extensible(vm, target)? {
            return Err(violation(vm, Violation::DeleteNonExtensible, Some(key)));
        }
        // 14. Return true.
        Ok(true)
    })
}

/// ### 10.5.11 [[OwnPropertyKeys]] ( )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-ownpropertykeys
pub fn own_keys(vm: &mut Vm, o: ObjectId) -> JsResult<Vec<PropertyKey>> {
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "ownKeys").
        let (target, handler, trap) = match resolve(vm, o, Trap::OwnKeys)? {
            // 6. If trap is undefined, return ? target.[[OwnPropertyKeys]]().
            Resolved::Forward(target) => return property::own_property_keys(vm, target),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let trapResultArray be ? Call(trap, handler, « target »).
        let trap_result_array = call_trap(vm, trap, handler, &[Value::object(target)])?;
        vm.roots.push(trap_result_array);
        // 8. Let trapResult be ? CreateListFromArrayLike(trapResultArray, property-key).
        let list = crate::builtins::reflect::create_list_from_array_like(vm, trap_result_array, true)?;
        // 9. If trapResult contains any duplicate entries, throw a TypeError exception.
        let mut trap_result: Vec<PropertyKey> = Vec::with_capacity(list.len());
        let mut seen: IndexSet<PropertyKey, FxBuildHasher> =
            IndexSet::with_capacity_and_hasher(list.len(), FxBuildHasher);
        for v in list {
            // The list holds only strings and symbols, so ToPropertyKey runs no JS.
            let k = crate::runtime::convert::to_property_key(vm, v)?;
            if !seen.insert(k) {
                return Err(violation(vm, Violation::OwnKeysDuplicate, None));
            }
            trap_result.push(k);
        }
        // 10. Let extensibleTarget be ? IsExtensible(target).
        let extensible_target = property::is_extensible(vm, target)?;
        // 11. Let targetKeys be ? target.[[OwnPropertyKeys]]().
        // 12-13. Assert: targetKeys is a List of property keys with no duplicates.
        let target_keys = property::own_property_keys(vm, target)?;
        root_keys(vm, &target_keys);
        // 14. Let targetConfigurableKeys be a new empty List.
        // 15. Let targetNonconfigurableKeys be a new empty List.
        let mut target_configurable_keys = Vec::new();
        let mut target_nonconfigurable_keys = Vec::new();
        // 16. For each element key of targetKeys, do
        for key in target_keys {
            vm.charge(1)?;
            // a. Let desc be ? target.[[GetOwnProperty]](key).
            let desc = property::get_own_property(vm, target, key)?;
            // b. If desc is not undefined and desc.[[Configurable]] is false, then
            //    i. Append key to targetNonconfigurableKeys.
            // c. Else,
            //    i. Append key to targetConfigurableKeys.
            if desc.is_some_and(|d| d.configurable == Some(false)) {
                target_nonconfigurable_keys.push(key);
            } else {
                target_configurable_keys.push(key);
            }
        }
        // 17. If extensibleTarget is true and targetNonconfigurableKeys is empty, then
        //     a. Return trapResult.
        if extensible_target && target_nonconfigurable_keys.is_empty() {
            return Ok(trap_result);
        }
        // 18. Let uncheckedResultKeys be a List whose elements are the elements of trapResult.
        let mut unchecked_result_keys = seen;
        // 19. For each element key of targetNonconfigurableKeys, do
        //     a. If uncheckedResultKeys does not contain key, throw a TypeError exception.
        //     b. Remove key from uncheckedResultKeys.
        for key in target_nonconfigurable_keys {
            if !unchecked_result_keys.swap_remove(&key) {
                return Err(violation(vm, Violation::OwnKeysMissing, Some(key)));
            }
        }
        // 20. If extensibleTarget is true, return trapResult.
        if extensible_target {
            return Ok(trap_result);
        }
        // 21. For each element key of targetConfigurableKeys, do
        //     a. If uncheckedResultKeys does not contain key, throw a TypeError exception.
        //     b. Remove key from uncheckedResultKeys.
        for key in target_configurable_keys {
            if !unchecked_result_keys.swap_remove(&key) {
                return Err(violation(vm, Violation::OwnKeysMissing, Some(key)));
            }
        }
        // 22. If uncheckedResultKeys is not empty, throw a TypeError exception.
        if !unchecked_result_keys.is_empty() {
            return Err(violation(vm, Violation::OwnKeysExtra, None));
        }
        // 23. Return trapResult.
        Ok(trap_result)
    })
}

/// ### 10.5.12 [[Call]] ( thisArgument, argumentsList )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-call-thisargument-argumentslist
pub fn call(vm: &mut Vm, o: ObjectId, this: Value, args: &[Value]) -> JsResult<Value> {
    // A proxy has [[Call]] only when its target was callable (ProxyCreate step 5).
    if !matches!(&vm.heap.obj(o).class, Class::Proxy(p) if p.callable) {
        return Err(vm.type_error("value is not a function"));
    }
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        vm.roots.push(this);
        vm.roots.extend_from_slice(args);
        // 1-5. Validate, read target and handler, let trap be ? GetMethod(handler, "apply").
        let (target, handler, trap) = match resolve(vm, o, Trap::Apply)? {
            // 6. If trap is undefined, return ? Call(target, thisArgument, argumentsList).
            Resolved::Forward(target) => return calls::call(vm, Value::object(target), this, args),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 7. Let argArray be CreateArrayFromList(argumentsList).
        let arg_array = vm.new_array(args.to_vec());
        // 8. Return ? Call(trap, handler, « target, thisArgument, argArray »).
        call_trap(vm, trap, handler, &[Value::object(target), this, arg_array])
    })
}

/// ### 10.5.13 [[Construct]] ( argumentsList, newTarget )
/// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-construct-argumentslist-newtarget
pub fn construct(vm: &mut Vm, o: ObjectId, args: &[Value], new_target: Value) -> JsResult<Value> {
    // A proxy has [[Construct]] only when its target was a constructor (ProxyCreate step 5).
    if !matches!(&vm.heap.obj(o).class, Class::Proxy(p) if p.constructor) {
        return Err(vm.type_error("value is not a constructor"));
    }
    let _depth = DepthGuard::enter(vm)?;
    scoped(vm, |vm| {
        vm.roots.push(new_target);
        vm.roots.extend_from_slice(args);
        // 1-4. Validate, read target and handler.
        // 5. Assert: IsConstructor(target) is true.
        // 6. Let trap be ? GetMethod(handler, "construct").
        let (target, handler, trap) = match resolve(vm, o, Trap::Construct)? {
            // 7. If trap is undefined, return ? Construct(target, argumentsList, newTarget).
            Resolved::Forward(target) => return calls::construct(vm, Value::object(target), args, Some(new_target)),
            Resolved::Trap { target, handler, trap } => (target, handler, trap),
        };
        // 8. Let argArray be CreateArrayFromList(argumentsList).
        let arg_array = vm.new_array(args.to_vec());
        // 9. Let newObj be ? Call(trap, handler, « target, argArray, newTarget »).
        let new_obj = call_trap(vm, trap, handler, &[Value::object(target), arg_array, new_target])?;
        // 10. If newObj is not an Object, throw a TypeError exception.
        if !new_obj.is_object() {
            return Err(violation(vm, Violation::ConstructNonObject(new_obj), None));
        }
        // 11. Return newObj.
        Ok(new_obj)
    })
}

/// ### 7.3.24 GetFunctionRealm ( obj )
/// https://tc39.es/ecma262/#sec-getfunctionrealm
///
/// Amber has one realm, so the only observable part is the throw for a revoked proxy found
/// by following bound-function and proxy targets. GetPrototypeFromConstructor needs it when
/// `newTarget.prototype` is not an object.
pub fn check_function_realm(vm: &mut Vm, obj: ObjectId) -> JsResult<()> {
    let mut obj = obj;
    loop {
        vm.charge(1)?;
        obj = match &vm.heap.obj(obj).class {
            // 3. If obj is a Bound Function exotic object, then
            //    a. Let boundTargetFunction be obj.[[BoundTargetFunction]].
            //    b. Return ? GetFunctionRealm(boundTargetFunction).
            Class::Bound(b) => b.target,
            // 4. If obj is a Proxy exotic object, then
            //    a. Perform ? ValidateNonRevokedProxy(obj).
            //    b. Let proxyTarget be obj.[[ProxyTarget]].
            //    c. Return ? GetFunctionRealm(proxyTarget).
            Class::Proxy(p) => match p.target {
                Some(t) => t,
                None => return Err(violation(vm, Violation::Revoked(Trap::Construct), None)),
            },
            // 2. If obj has a [[Realm]] internal slot, return obj.[[Realm]].
            // 5. Return the current Realm Record.
            _ => return Ok(()),
        };
    }
}

// ---- errors

/// The TypeErrors of §10.5, each with V8's message.
#[derive(Clone, Copy)]
enum Violation {
    Revoked(Trap),
    TrapNotCallable { trap: Trap, found: Value, handler: ObjectId },
    GetPrototypeOfInvalid,
    GetPrototypeOfNonExtensible,
    SetPrototypeOfNonExtensible,
    IsExtensibleInconsistent(bool),
    PreventExtensionsExtensible,
    GopdInvalid,
    GopdUndefinedNonConfigurable,
    GopdUndefinedNonExtensible,
    GopdIncompatible,
    GopdNonConfigurable,
    GopdNonConfigurableWritable,
    DefineNonExtensible,
    DefineNonConfigurable,
    DefineIncompatible,
    DefineNonConfigurableWritable,
    HasNonConfigurable,
    HasNonExtensible,
    GetNonConfigurableData { expected: Value, got: Value },
    GetNonConfigurableAccessor { got: Value },
    SetNonConfigurableData,
    SetNonConfigurableAccessor,
    DeleteNonConfigurable,
    DeleteNonExtensible,
    OwnKeysDuplicate,
    OwnKeysMissing,
    OwnKeysExtra,
    ConstructNonObject(Value),
}

/// Build the TypeError for `v` about property `key`. Kept out of line (and cold) so the
/// internal methods, which nest once per proxy level, keep small native stack frames.
#[cold]
#[inline(never)]
fn violation(vm: &mut Vm, v: Violation, key: Option<PropertyKey>) -> Throw {
    let p = key.map(|k| key_to_display(vm, k)).unwrap_or_default();
    let msg = match v {
        Violation::Revoked(trap) => format!("Cannot perform '{}' on a proxy that has been revoked", trap.name()),
        Violation::TrapNotCallable { trap, found, handler } => {
            let (found, owner) = (describe(vm, found, Shown::Brief), describe(vm, Value::object(handler), Shown::Brief));
            format!("'{found}' returned for property '{}' of object '{owner}' is not a function", trap.name())
        }
        Violation::GetPrototypeOfInvalid => "'getPrototypeOf' on proxy: trap returned neither object nor null".into(),
        Violation::GetPrototypeOfNonExtensible => {
            "'getPrototypeOf' on proxy: proxy target is non-extensible but the trap did not return its actual prototype".into()
        }
        Violation::SetPrototypeOfNonExtensible => "'setPrototypeOf' on proxy: trap returned truish for setting a new prototype on the non-extensible proxy target".into(),
        Violation::IsExtensibleInconsistent(target_result) => format!(
            "'isExtensible' on proxy: trap result does not reflect extensibility of proxy target (which is '{target_result}')"
        ),
        Violation::PreventExtensionsExtensible => {
            "'preventExtensions' on proxy: trap returned truish but the proxy target is extensible".into()
        }
        Violation::GopdInvalid => {
            format!("'getOwnPropertyDescriptor' on proxy: trap returned neither object nor undefined for property '{p}'")
        }
        Violation::GopdUndefinedNonConfigurable => format!(
            "'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '{p}' which is non-configurable in the proxy target"
        ),
        Violation::GopdUndefinedNonExtensible => format!(
            "'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '{p}' which exists in the non-extensible proxy target"
        ),
        Violation::GopdIncompatible => format!(
            "'getOwnPropertyDescriptor' on proxy: trap returned descriptor for property '{p}' that is incompatible with the existing property in the proxy target"
        ),
        Violation::GopdNonConfigurable => format!(
            "'getOwnPropertyDescriptor' on proxy: trap reported non-configurability for property '{p}' which is either non-existent or configurable in the proxy target"
        ),
        Violation::GopdNonConfigurableWritable => format!(
            "'getOwnPropertyDescriptor' on proxy: trap reported non-configurable and writable for property '{p}' which is non-configurable, non-writable in the proxy target"
        ),
        Violation::DefineNonExtensible => format!(
            "'defineProperty' on proxy: trap returned truish for adding property '{p}'  to the non-extensible proxy target"
        ),
        Violation::DefineNonConfigurable => format!(
            "'defineProperty' on proxy: trap returned truish for defining non-configurable property '{p}' which is either non-existent or configurable in the proxy target"
        ),
        Violation::DefineIncompatible => format!(
            "'defineProperty' on proxy: trap returned truish for adding property '{p}'  that is incompatible with the existing property in the proxy target"
        ),
        Violation::DefineNonConfigurableWritable => format!(
            "'defineProperty' on proxy: trap returned truish for defining non-configurable property '{p}' which cannot be non-writable, unless there exists a corresponding non-configurable, non-writable own property of the target object."
        ),
        Violation::HasNonConfigurable => format!(
            "'has' on proxy: trap returned falsish for property '{p}' which exists in the proxy target as non-configurable"
        ),
        Violation::HasNonExtensible => {
            format!("'has' on proxy: trap returned falsish for property '{p}' but the proxy target is not extensible")
        }
        Violation::GetNonConfigurableData { expected, got } => {
            let (expected, got) = (describe(vm, expected, Shown::Brief), describe(vm, got, Shown::Brief));
            format!(
                "'get' on proxy: property '{p}' is a read-only and non-configurable data property on the proxy target but the proxy did not return its actual value (expected '{expected}' but got '{got}')"
            )
        }
        Violation::GetNonConfigurableAccessor { got } => {
            let got = describe(vm, got, Shown::Brief);
            format!(
                "'get' on proxy: property '{p}' is a non-configurable accessor property on the proxy target and does not have a getter function, but the trap did not return 'undefined' (got '{got}')"
            )
        }
        Violation::SetNonConfigurableData => format!(
            "'set' on proxy: trap returned truish for property '{p}' which exists in the proxy target as a non-configurable and non-writable data property with a different value"
        ),
        Violation::SetNonConfigurableAccessor => format!(
            "'set' on proxy: trap returned truish for property '{p}' which exists in the proxy target as a non-configurable and non-writable accessor property without a setter"
        ),
        Violation::DeleteNonConfigurable => format!(
            "'deleteProperty' on proxy: trap returned truish for property '{p}' which is non-configurable in the proxy target"
        ),
        Violation::DeleteNonExtensible => format!(
            "'deleteProperty' on proxy: trap returned truish for property '{p}' but the proxy target is non-extensible"
        ),
        Violation::OwnKeysDuplicate => "'ownKeys' on proxy: trap returned duplicate entries".into(),
        Violation::OwnKeysMissing => format!("'ownKeys' on proxy: trap result did not include '{p}'"),
        Violation::OwnKeysExtra => "'ownKeys' on proxy: trap returned extra keys but proxy target is non-extensible".into(),
        Violation::ConstructNonObject(got) => {
            let got = describe(vm, got, Shown::Brief);
            format!("'construct' on proxy: trap returned non-object ('{got}')")
        }
    };
    vm.type_error(msg)
}

// ---- property descriptors (§6.2.6)

/// ### 6.2.6.4 FromPropertyDescriptor ( Desc )
/// https://tc39.es/ecma262/#sec-frompropertydescriptor
pub fn from_property_descriptor(vm: &mut Vm, desc: Option<PropertyDescriptor>) -> JsResult<Value> {
    // 1. If Desc is undefined, return undefined.
    let Some(desc) = desc else { return Ok(Value::UNDEFINED) };
    // 2. Let obj be OrdinaryObjectCreate(%Object.prototype%).
    // 3. Assert: obj is an extensible ordinary object with no own properties.
    let obj = vm.new_object();
    let Some(o) = obj.as_object() else { return Ok(obj) };
    // 4-9. For each field Desc has, in the order value, writable, get, set, enumerable,
    //      configurable: perform ! CreateDataPropertyOrThrow(obj, fieldName, fieldValue).
    let fields = [
        (atom::value, desc.value),
        (atom::writable, desc.writable.map(Value::bool)),
        (atom::get, desc.get),
        (atom::set, desc.set),
        (atom::enumerable, desc.enumerable.map(Value::bool)),
        (atom::configurable, desc.configurable.map(Value::bool)),
    ];
    for (name, field) in fields {
        if let Some(v) = field {
            vm.define_builtin(o, PropertyKey::Atom(name), v, PropFlags::DEFAULT);
        }
    }
    // 10. Return obj.
    Ok(obj)
}

/// ### 6.2.6.5 ToPropertyDescriptor ( Obj )
/// https://tc39.es/ecma262/#sec-topropertydescriptor
pub fn to_property_descriptor(vm: &mut Vm, v: Value) -> JsResult<PropertyDescriptor> {
    // 1. If Obj is not an Object, throw a TypeError exception.
    let Some(obj) = v.as_object() else {
        let shown = describe(vm, v, Shown::Brief);
        return Err(vm.type_error(format!("Property description must be an object: {shown}")));
    };
    scoped(vm, |vm| {
        vm.roots.push(v);
        // 2. Let desc be a new Property Descriptor that initially has no fields.
        let mut desc = PropertyDescriptor::default();
        // 3. Let hasEnumerable be ? HasProperty(Obj, "enumerable").
        // 4. If hasEnumerable is true, set desc.[[Enumerable]] to ToBoolean(? Get(Obj, "enumerable")).
        if let Some(e) = get_field(vm, obj, atom::enumerable)? {
            desc.enumerable = Some(to_boolean(vm, e));
        }
        // 5. Let hasConfigurable be ? HasProperty(Obj, "configurable").
        // 6. If hasConfigurable is true, set desc.[[Configurable]] to ToBoolean(? Get(Obj, "configurable")).
        if let Some(c) = get_field(vm, obj, atom::configurable)? {
            desc.configurable = Some(to_boolean(vm, c));
        }
        // 7. Let hasValue be ? HasProperty(Obj, "value").
        // 8. If hasValue is true, set desc.[[Value]] to ? Get(Obj, "value").
        if let Some(value) = get_field(vm, obj, atom::value)? {
            vm.roots.push(value);
            desc.value = Some(value);
        }
        // 9. Let hasWritable be ? HasProperty(Obj, "writable").
        // 10. If hasWritable is true, set desc.[[Writable]] to ToBoolean(? Get(Obj, "writable")).
        if let Some(w) = get_field(vm, obj, atom::writable)? {
            desc.writable = Some(to_boolean(vm, w));
        }
        // 11. Let hasGet be ? HasProperty(Obj, "get").
        // 12. If hasGet is true, then
        if let Some(getter) = get_field(vm, obj, atom::get)? {
            // a. Let getter be ? Get(Obj, "get").
            // b. If IsCallable(getter) is false and getter is not undefined, throw a TypeError exception.
            if !is_callable(vm, getter) && !getter.is_undefined() {
                let shown = describe(vm, getter, Shown::Brief);
                return Err(vm.type_error(format!("Getter must be a function: {shown}")));
            }
            // c. Set desc.[[Get]] to getter.
            vm.roots.push(getter);
            desc.get = Some(getter);
        }
        // 13. Let hasSet be ? HasProperty(Obj, "set").
        // 14. If hasSet is true, then
        if let Some(setter) = get_field(vm, obj, atom::set)? {
            // a. Let setter be ? Get(Obj, "set").
            // b. If IsCallable(setter) is false and setter is not undefined, throw a TypeError exception.
            if !is_callable(vm, setter) && !setter.is_undefined() {
                let shown = describe(vm, setter, Shown::Brief);
                return Err(vm.type_error(format!("Setter must be a function: {shown}")));
            }
            // c. Set desc.[[Set]] to setter.
            desc.set = Some(setter);
        }
        // 15. If desc has a [[Get]] field or desc has a [[Set]] field, then
        //     a. If desc has a [[Value]] field or desc has a [[Writable]] field, throw a TypeError exception.
        if (desc.get.is_some() || desc.set.is_some()) && (desc.value.is_some() || desc.writable.is_some()) {
            let shown = describe(vm, v, Shown::Brief);
            return Err(vm.type_error(format!(
                "Invalid property descriptor. Cannot both specify accessors and a value or writable attribute, {shown}"
            )));
        }
        // 16. Return desc.
        Ok(desc)
    })
}

/// `HasProperty(Obj, name)` then, when present, `Get(Obj, name)`.
fn get_field(vm: &mut Vm, obj: ObjectId, name: Atom) -> JsResult<Option<Value>> {
    let key = PropertyKey::Atom(name);
    if !property::has_property(vm, obj, key)? {
        return Ok(None);
    }
    property::get(vm, obj, key, Value::object(obj)).map(Some)
}

/// ### 6.2.6.6 CompletePropertyDescriptor ( Desc )
/// https://tc39.es/ecma262/#sec-completepropertydescriptor
pub fn complete_property_descriptor(desc: &mut PropertyDescriptor) {
    // 1. Let like be the Record { [[Value]]: undefined, [[Writable]]: false, [[Get]]: undefined,
    //    [[Set]]: undefined, [[Enumerable]]: false, [[Configurable]]: false }.
    // 2. If IsGenericDescriptor(Desc) is true or IsDataDescriptor(Desc) is true, then
    if !desc.is_accessor() {
        // a. If Desc does not have a [[Value]] field, set Desc.[[Value]] to like.[[Value]].
        desc.value.get_or_insert(Value::UNDEFINED);
        // b. If Desc does not have a [[Writable]] field, set Desc.[[Writable]] to like.[[Writable]].
        desc.writable.get_or_insert(false);
    } else {
        // 3. Else,
        //    a. If Desc does not have a [[Get]] field, set Desc.[[Get]] to like.[[Get]].
        desc.get.get_or_insert(Value::UNDEFINED);
        //    b. If Desc does not have a [[Set]] field, set Desc.[[Set]] to like.[[Set]].
        desc.set.get_or_insert(Value::UNDEFINED);
    }
    // 4. If Desc does not have an [[Enumerable]] field, set Desc.[[Enumerable]] to like.[[Enumerable]].
    desc.enumerable.get_or_insert(false);
    // 5. If Desc does not have a [[Configurable]] field, set Desc.[[Configurable]] to like.[[Configurable]].
    desc.configurable.get_or_insert(false);
}

/// ### 10.1.6.2 IsCompatiblePropertyDescriptor ( Extensible, Desc, Current )
/// https://tc39.es/ecma262/#sec-iscompatiblepropertydescriptor
///
/// `property::is_compatible` compares values without the heap (strings by handle); a string
/// value equal in contents to a frozen property's value is swapped for the stored one first,
/// so SameValue holds as the spec means it.
fn is_compatible_property_descriptor(
    vm: &mut Vm,
    extensible: bool,
    desc: PropertyDescriptor,
    current: Option<PropertyDescriptor>,
) -> bool {
    let mut desc = desc;
    if let (Some(cur), Some(v)) = (current, desc.value) {
        if let Some(cv) = cur.value {
            if v != cv && same_value_heap(vm, v, cv) {
                desc.value = Some(cv);
            }
        }
    }
    // 1. Return ValidateAndApplyPropertyDescriptor(undefined, "", Extensible, Desc, Current).
    property::is_compatible(extensible, desc, current)
}

// ---- helpers

/// Run `f`, then release every value it pushed on the scoped root stack. Inlined so an
/// internal method and its body share one native stack frame per proxy level.
#[inline(always)]
fn scoped<T>(vm: &mut Vm, f: impl FnOnce(&mut Vm) -> JsResult<T>) -> JsResult<T> {
    let base = vm.roots.len();
    let r = f(vm);
    vm.roots.truncate(base);
    r
}

/// Where steps 1–6 of an internal method lead.
enum Resolved {
    /// A proxy in the chain has the trap: call it with this target and handler.
    Trap { target: ObjectId, handler: ObjectId, trap: Value },
    /// No proxy in the chain has the trap: perform the operation on this non-proxy object.
    Forward(ObjectId),
}

/// Steps 1–6 shared by every internal method: ValidateNonRevokedProxy(O), read
/// [[ProxyTarget]] and [[ProxyHandler]], `trap = ? GetMethod(handler, name)`, and when the trap
/// is undefined forward to the target. Forwarding to a target that is itself a proxy is a
/// tail call in the spec, so it loops here instead of recursing. Target, handler and trap
/// stay rooted for the caller's scope.
fn resolve(vm: &mut Vm, o: ObjectId, trap: Trap) -> JsResult<Resolved> {
    let base = vm.roots.len();
    let mut o = o;
    loop {
        vm.charge(1)?;
        vm.roots.truncate(base);
        // 1. Perform ? ValidateNonRevokedProxy(O).
        // 2. Let target be O.[[ProxyTarget]].
        // 3. Let handler be O.[[ProxyHandler]].
        // 4. Assert: handler is an Object.
        let (target, handler) = match &vm.heap.obj(o).class {
            Class::Proxy(p) => match (p.target, p.handler) {
                (Some(t), Some(h)) => (t, h),
                _ => return Err(violation(vm, Violation::Revoked(trap), None)),
            },
            _ => return Ok(Resolved::Forward(o)),
        };
        vm.roots.push(Value::object(target));
        vm.roots.push(Value::object(handler));
        // 5. Let trap be ? GetMethod(handler, name).
        let name = trap.atom();
        let f = property::get(vm, handler, PropertyKey::Atom(name), Value::object(handler))?;
        if !f.is_nullish() {
            if !is_callable(vm, f) {
                return Err(violation(vm, Violation::TrapNotCallable { trap, found: f, handler }, None));
            }
            vm.roots.push(f);
            return Ok(Resolved::Trap { target, handler, trap: f });
        }
        // 6. If trap is undefined, return ? target.[[Op]](…): loop when target is a proxy.
        if !matches!(vm.heap.obj(target).class, Class::Proxy(_)) {
            return Ok(Resolved::Forward(target));
        }
        o = target;
    }
}

/// Call(trap, handler, args), with the arguments rooted for the rest of the scope.
fn call_trap(vm: &mut Vm, trap: Value, handler: ObjectId, args: &[Value]) -> JsResult<Value> {
    vm.roots.extend_from_slice(args);
    calls::call(vm, trap, Value::object(handler), args)
}

/// Root the values a descriptor holds.
fn root_descriptor(vm: &mut Vm, desc: Option<PropertyDescriptor>) {
    if let Some(d) = desc {
        vm.roots.extend(d.value);
        vm.roots.extend(d.get);
        vm.roots.extend(d.set);
    }
}

/// Root the symbols among `keys` (atoms are never collected).
fn root_keys(vm: &mut Vm, keys: &[PropertyKey]) {
    for k in keys {
        if let PropertyKey::Symbol(s) = k {
            vm.roots.push(Value::symbol(*s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atoms::Atoms;

    const ALL_TRAPS: [Trap; 13] = [
        Trap::GetPrototypeOf,
        Trap::SetPrototypeOf,
        Trap::IsExtensible,
        Trap::PreventExtensions,
        Trap::GetOwnPropertyDescriptor,
        Trap::DefineProperty,
        Trap::Has,
        Trap::Get,
        Trap::Set,
        Trap::DeleteProperty,
        Trap::OwnKeys,
        Trap::Apply,
        Trap::Construct,
    ];

    #[test]
    fn trap_names_match_their_atoms() {
        let atoms = Atoms::new();
        for trap in ALL_TRAPS {
            assert_eq!(atoms.get(trap.atom()).to_rust_string(), trap.name());
        }
    }

    #[test]
    fn complete_property_descriptor_fills_defaults() {
        let mut generic = PropertyDescriptor { enumerable: Some(true), ..Default::default() };
        complete_property_descriptor(&mut generic);
        assert_eq!(generic.value, Some(Value::UNDEFINED));
        assert_eq!(generic.writable, Some(false));
        assert_eq!(generic.enumerable, Some(true));
        assert_eq!(generic.configurable, Some(false));
        assert!(generic.get.is_none() && generic.set.is_none());

        let mut accessor = PropertyDescriptor { get: Some(Value::UNDEFINED), ..Default::default() };
        complete_property_descriptor(&mut accessor);
        assert_eq!(accessor.set, Some(Value::UNDEFINED));
        assert!(accessor.value.is_none() && accessor.writable.is_none());
        assert_eq!(accessor.configurable, Some(false));
    }

    /// Run `src` on a thread with the std default 2 MiB stack; return its completion value.
    fn run_on_small_stack(src: &'static str) -> String {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let mut vm = Vm::new(crate::vm::VmOptions::default());
                let r = match vm.eval_script(src, "deep.js") {
                    Ok(v) => vm.to_display_string(v),
                    Err(e) => e.to_string(),
                };
                (r, DEPTH.with(Cell::get))
            })
            .expect("spawn a test thread")
            .join()
            .map(|(r, depth)| {
                assert_eq!(depth, 0, "every depth guard was released");
                r
            })
            .expect("the script thread does not overflow its stack")
    }

    /// Nesting that the forwarding loop cannot flatten ends in a RangeError well before a
    /// small native stack overflows; trap-less chains of any length just work.
    #[test]
    fn deep_nesting_throws_instead_of_overflowing() {
        let out = run_on_small_stack(
            r#"
            const N = 20000, out = [];
            const attempt = (f) => { try { f(); out.push("ok"); } catch (e) { out.push(e.name); } };
            let plain = { x: 1 };
            for (let i = 0; i < N; i++) plain = new Proxy(plain, {});
            attempt(() => plain.x + ("x" in plain) + Object.keys(plain).length);
            attempt(() => { plain.y = 1; });
            let gopd = { x: 1 };
            for (let i = 0; i < N; i++) gopd = new Proxy(gopd, { getOwnPropertyDescriptor() { return { value: 1, configurable: true }; } });
            attempt(() => Object.getOwnPropertyDescriptor(gopd, "x"));
            let alt = { deep: 1 };
            for (let i = 0; i < N; i++) alt = Object.create(new Proxy(alt, {}));
            attempt(() => alt.deep);
            attempt(() => "deep" in alt);
            attempt(() => { alt.q = 1; });
            out.join()
        "#,
        );
        assert_eq!(out, "ok,ok,RangeError,RangeError,RangeError,RangeError");
    }
}
