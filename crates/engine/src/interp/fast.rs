//! The fast tier of the dispatch loop.
//!
//! Most executed instructions are small: register moves, int32 and double arithmetic,
//! compares, jumps, global reads, and property or element accesses that hit an inline
//! cache, a dense array or a TypedArray's buffer; and calls and returns between plain JS
//! functions. [`run`] executes a straight run of those with the top frame's code, pc and
//! register base held in locals (a call or return it makes writes the pc back and takes
//! up the new top frame), and returns at the first instruction it does not handle (a
//! native call, an allocation, an IC miss, a value that needs conversion…), leaving that
//! instruction at the frame's pc for [`super::step`], the general path, which handles every
//! instruction. So each arm here is an exact shortcut of the same arm in `step`: same
//! result, same frames, same fuel (one unit per instruction). Nothing here allocates a heap
//! cell, calls into Rust that may run JS, or throws, so the collector (which runs only at
//! instruction boundaries in `step`) and stack traces (which read the frames' pcs) never
//! see the locals.

use super::ops;
use crate::atoms::PropertyKey;
use crate::builtins::typed_array;
use crate::bytecode::{CodeBlock, FunctionKind};
use crate::bytecode::{Op, IC_OWN};
use crate::heap::frame::{Frame, FrameKind};
use crate::heap::object::{Class, Object, Props};
use crate::heap::{Arena, Heap, RealmId};
use crate::runtime::convert::f64_to_int32;
use crate::runtime::operators::{self, Arith};
use crate::value::ObjectId;
use crate::value::Value;
use crate::vm::Vm;

/// The numeric result of a binary operator on two numbers, int32 first.
#[inline(always)]
fn arith(op: Arith, a: Value, b: Value) -> Option<Value> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        let r = match op {
            Arith::Add => x.checked_add(y).map(Value::int),
            Arith::Sub => x.checked_sub(y).map(Value::int),
            Arith::Mul => x.checked_mul(y).filter(|&r| r != 0 || (x >= 0 && y >= 0)).map(Value::int),
            Arith::BitAnd => Some(Value::int(x & y)),
            Arith::BitOr => Some(Value::int(x | y)),
            Arith::BitXor => Some(Value::int(x ^ y)),
            Arith::Shl => Some(Value::int(x.wrapping_shl(y as u32 & 31))),
            Arith::Sar => Some(Value::int(x >> (y as u32 & 31))),
            Arith::Shr => {
                let r = (x as u32) >> (y as u32 & 31);
                Some(if r <= i32::MAX as u32 { Value::int(r as i32) } else { Value::float(r as f64) })
            }
            Arith::Div | Arith::Mod | Arith::Exp => None,
        };
        if r.is_some() {
            return r;
        }
    }
    let (x, y) = (a.as_number()?, b.as_number()?);
    Some(operators::number_arith(op, x, y))
}

/// `v + delta` for `++`/`--` on a number, int32 while it fits (None: not a number, or an
/// int32 overflow, left to step).
#[inline(always)]
fn plus(v: Value, delta: i32) -> Option<Value> {
    match v.as_int() {
        Some(i) => i.checked_add(delta).map(Value::int),
        None => v.as_number().map(|x| Value::number(x + delta as f64)),
    }
}

/// `a < b` (and friends) on two numbers; `swap` compares b < a, `negate` flips for `>=`/`<=`.
#[inline(always)]
fn compare(a: Value, b: Value, swap: bool, negate: bool) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        let r = match (swap, negate) {
            (false, false) => x < y,
            (true, false) => x > y,
            (true, true) => x <= y,
            (false, true) => x >= y,
        };
        return Some(r);
    }
    let (x, y) = (a.as_number()?, b.as_number()?);
    let r = match (swap, negate) {
        (false, false) => x < y,
        (true, false) => x > y,
        (true, true) => x <= y,
        (false, true) => x >= y,
    };
    Some(r)
}

/// IsStrictlyEqual when no heap access is needed (None for two strings or two bigints).
#[inline(always)]
fn strict_equals(a: Value, b: Value) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Some(x == y);
    }
    if a == b {
        return Some(true);
    }
    if (a.is_string() && b.is_string()) || (a.is_bigint() && b.is_bigint()) {
        return None;
    }
    Some(false)
}

/// IsLooselyEqual for the cases that need no conversion (numbers, identical non-numbers,
/// nullish against nullish or object).
#[inline(always)]
fn loose_equals(a: Value, b: Value) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Some(x == y);
    }
    if a == b {
        return Some(true);
    }
    if a.is_nullish() && b.is_nullish() {
        return Some(true);
    }
    if (a.is_nullish() && b.is_object()) || (a.is_object() && b.is_nullish()) {
        return Some(false);
    }
    if a.is_object() && b.is_object() {
        return Some(false);
    }
    None
}

/// A call or return the fast tier tries to make itself.
#[derive(Clone, Copy)]
enum Transfer {
    Call(u32),
    Return,
}

/// `Call(argc)` of a plain closure, as step's op_call and `calls::enter_closure` make it:
/// pushes the callee's frame (its caller's pc past the call) and returns true, or returns
/// false having changed nothing, leaving the call to step. Plain means what needs neither
/// a heap cell nor a realm switch nor an error: a non-class, non-generator, non-async
/// function (or arrow or method) of the running realm whose variables all live in registers
/// (no environment to allocate), called with `this` an object or nullish (a sloppy callee
/// sees the global object; a primitive would need a wrapper), below the depth limit.
#[allow(clippy::too_many_arguments)]
fn enter_plain_call(
    frames: &mut Vec<Frame>,
    stack: &mut Vec<Value>,
    objects: &Arena<Object>,
    codes: &Arena<CodeBlock>,
    global: ObjectId,
    realm: RealmId,
    max_depth: usize,
    argc: u32,
) -> bool {
    let args = argc as usize;
    let len = stack.len();
    if len < args + 2 || frames.len() >= max_depth {
        return false;
    }
    let callee = stack[len - args - 2];
    let Some(f) = callee.as_object() else { return false };
    let Some(Class::Function(closure)) = objects.get(f.0).map(|o| &o.class) else { return false };
    let Some(code) = codes.get(closure.code.0) else { return false };
    if code.is_class_constructor
        || code.env_slots > 0
        || code.realm != realm
        || !matches!(code.kind, FunctionKind::Normal | FunctionKind::Arrow | FunctionKind::Method)
    {
        return false;
    }
    let base = len - args;
    // OrdinaryCallBindThis: arrows take theirs from creation, sloppy functions the global
    // object for nullish.
    let (mut this, mut new_target) = (stack[base - 1], Value::UNDEFINED);
    if code.kind.is_arrow() {
        (this, new_target) = (closure.bound_this, closure.bound_new_target);
    } else if !code.strict && !this.is_object() {
        if !this.is_nullish() {
            return false;
        }
        this = Value::object(global);
    }
    let Some(caller) = frames.last_mut() else { return false };
    caller.pc += 1;
    stack[base - 1] = this;
    let (params, registers) = (code.param_count as usize, code.register_count as usize);
    let extra_args = if args > params { stack.split_off(base + params) } else { Vec::new() };
    stack.resize(base + registers, Value::UNDEFINED);
    stack.reserve(code.max_stack as usize);
    frames.push(Frame {
        code: closure.code,
        pc: 0,
        base: base as u32,
        callee,
        this,
        new_target,
        env: closure.env,
        env_depth: 0,
        argc,
        extra_args,
        kind: FrameKind::Normal,
        stop_here: false,
        outer_realm: realm,
    });
    true
}

/// `Return` from a frame that returns into its JS caller in the same realm (do_return's
/// FrameKind::Normal case): pops it and pushes the value for the caller. Returns false
/// having changed nothing otherwise (a constructor, generator or async body, a frame whose
/// Rust caller waits for it), leaving the return to step.
fn leave_plain_frame(frames: &mut Vec<Frame>, stack: &mut Vec<Value>, realm: RealmId) -> bool {
    let Some(f) = frames.last() else { return false };
    if f.stop_here || f.kind != FrameKind::Normal || f.outer_realm != realm || frames.len() < 2 {
        return false;
    }
    let below = (f.base as usize).saturating_sub(2);
    let Some(v) = stack.pop() else { return false };
    frames.pop();
    stack.truncate(below);
    stack.push(v);
    true
}

/// Execute fast-tier instructions of the top frame; see the module doc.
pub(super) fn run(vm: &mut Vm) {
    let Vm { heap, stack, frames, fuel, stats, global, global_lexicals, options, current_realm, .. } = vm;
    let Heap { code: codes, objects, envs, shapes, bytes_since_gc, bytes_estimate, .. } = heap;
    let budget = *fuel;
    let mut pc: usize;
    let mut n: u64 = 0;
    let mut ic_hits: u64 = 0;
    // Property slots added through cached transitions (storage growth, Heap::note_growth).
    let mut slot_bytes: u64 = 0;
    macro_rules! pop {
        () => {
            match stack.pop() {
                Some(v) => v,
                None => break,
            }
        };
    }
    macro_rules! binary {
        ($f:expr) => {{
            let len = stack.len();
            if len < 2 {
                break;
            }
            let (a, b) = (stack[len - 2], stack[len - 1]);
            match $f(a, b) {
                Some(r) => {
                    stack.truncate(len - 1);
                    stack[len - 2] = r;
                }
                None => break,
            }
        }};
    }
    // `a → $f(a)` (None: leave it to step).
    macro_rules! unary {
        ($f:expr) => {{
            let Some(top) = stack.last_mut() else { break };
            match $f(*top) {
                Some(r) => *top = r,
                None => break,
            }
        }};
    }
    // `a b →`, jumping to `$t` unless `$f(a, b)` (None: leave it to step).
    macro_rules! jump_unless {
        ($t:expr, $f:expr) => {{
            let len = stack.len();
            if len < 2 {
                break;
            }
            match $f(stack[len - 2], stack[len - 1]) {
                Some(r) => {
                    stack.truncate(len - 2);
                    if !r {
                        pc = $t as usize;
                        n += 1;
                        continue;
                    }
                }
                None => break,
            }
        }};
    }
    // `reg = reg + $delta` on a number, yielding the old value (None: leave it to step).
    macro_rules! update_local {
        ($base:expr, $r:expr, $delta:expr) => {{
            let Some(slot) = stack.get_mut($base + $r as usize) else { break };
            let old = *slot;
            match plus(old, $delta) {
                Some(new) => *slot = new,
                None => break,
            }
            old
        }};
    }
    macro_rules! jump_if {
        ($want:expr, $t:expr) => {{
            let Some(&v) = stack.last() else { break };
            match v.truthy_without_heap() {
                Some(b) => {
                    stack.pop();
                    if b == $want {
                        pc = $t as usize;
                        n += 1;
                        continue;
                    }
                }
                None => break,
            }
        }};
    }
    // One pass per frame: a call or return made here continues in the next top frame.
    'frames: while let Some(frame) = frames.last_mut() {
        let Some(code) = codes.get(frame.code.0) else { break };
        let ops = &code.ops[..];
        let base = frame.base as usize;
        pc = frame.pc as usize;
        // Set by a call or return this tier makes itself; any other exit leaves it None.
        let mut transfer = None;
        while n < budget {
            let Some(&op) = ops.get(pc) else { break };
            match op {
                Op::Undefined => stack.push(Value::UNDEFINED),
                Op::Null => stack.push(Value::NULL),
                Op::True => stack.push(Value::TRUE),
                Op::False => stack.push(Value::FALSE),
                Op::Int(i) => stack.push(Value::int(i)),
                Op::Const(i) => match code.constants.get(i as usize) {
                    Some(&v) => stack.push(v),
                    None => break,
                },
                Op::Pop => {
                    stack.pop();
                }
                Op::Dup => {
                    let Some(&v) = stack.last() else { break };
                    stack.push(v);
                }
                Op::Swap => {
                    let len = stack.len();
                    if len < 2 {
                        break;
                    }
                    stack.swap(len - 1, len - 2);
                }
                Op::GetLocal(r) => {
                    let Some(&v) = stack.get(base + r as usize) else { break };
                    stack.push(v);
                }
                Op::SetLocal(r) => {
                    let v = pop!();
                    match stack.get_mut(base + r as usize) {
                        Some(s) => *s = v,
                        None => {
                            stack.push(v);
                            break;
                        }
                    }
                }
                Op::SetLocalChecked(r) => {
                    // An initialised binding only: the TDZ error is step's.
                    let len = stack.len();
                    let slot = base + r as usize;
                    if len == 0 || slot >= len - 1 || stack[slot].is_empty() {
                        break;
                    }
                    stack[slot] = stack[len - 1];
                    stack.pop();
                }
                Op::GetLocalChecked(r) => match stack.get(base + r as usize) {
                    Some(&v) if !v.is_empty() => stack.push(v),
                    _ => break,
                },
                Op::GetEnv { depth, slot } => {
                    let mut e = frame.env;
                    for _ in 0..depth {
                        e = e.and_then(|id| envs.get(id.0)).and_then(|env| env.parent);
                    }
                    let Some(v) = e.and_then(|id| envs.get(id.0)).and_then(|env| env.slots.get(slot as usize)) else {
                        break;
                    };
                    stack.push(*v);
                }
                Op::GetEnvChecked { depth, slot } => {
                    let mut e = frame.env;
                    for _ in 0..depth {
                        e = e.and_then(|id| envs.get(id.0)).and_then(|env| env.parent);
                    }
                    match e.and_then(|id| envs.get(id.0)).and_then(|env| env.slots.get(slot as usize)) {
                        Some(v) if !v.is_empty() => stack.push(*v),
                        _ => break,
                    }
                }
                Op::SetEnv { depth, slot } => {
                    let mut e = frame.env;
                    for _ in 0..depth {
                        e = e.and_then(|id| envs.get(id.0)).and_then(|env| env.parent);
                    }
                    let Some(&v) = stack.last() else { break };
                    let Some(s) = e.and_then(|id| envs.get_mut(id.0)).and_then(|env| env.slots.get_mut(slot as usize))
                    else {
                        break;
                    };
                    *s = v;
                    stack.pop();
                }
                Op::GetGlobal(name) => {
                    // ops::get_global's fast paths: an initialised global lexical binding, else an
                    // own data property of the global object.
                    let v = match global_lexicals.get(&name) {
                        Some(&(v, _)) if v.is_empty() => break,
                        Some(&(v, _)) => v,
                        None => {
                            match objects.get(global.0).and_then(|g| g.lookup_named(shapes, PropertyKey::Atom(name))) {
                                Some((v, flags)) if !flags.is_accessor() => v,
                                _ => break,
                            }
                        }
                    };
                    stack.push(v);
                }
                Op::GetProp { ic, .. } => {
                    let Some(&obj) = stack.last() else { break };
                    let Some(cache) = code.ics.get(ic as usize) else { break };
                    let Some(v) = ops::ic_probe(objects, cache, obj) else { break };
                    ic_hits += 1;
                    if let Some(top) = stack.last_mut() {
                        *top = v;
                    }
                }
                Op::GetPropCallee { ic, .. } => {
                    let Some(top) = stack.last_mut() else { break };
                    let obj = *top;
                    let Some(cache) = code.ics.get(ic as usize) else { break };
                    let Some(v) = ops::ic_probe(objects, cache, obj) else { break };
                    ic_hits += 1;
                    *top = v;
                    stack.push(obj);
                }
                Op::GetThisProp { ic, .. } => {
                    let Some(cache) = code.ics.get(ic as usize) else { break };
                    let Some(v) = ops::ic_probe(objects, cache, frame.this) else { break };
                    ic_hits += 1;
                    stack.push(v);
                }
                Op::SetProp { ic, .. } | Op::PutProp { ic, .. } => {
                    let len = stack.len();
                    if len < 2 {
                        break;
                    }
                    let (obj, v) = (stack[len - 2], stack[len - 1]);
                    let Some(cache) = code.ics.get(ic as usize) else { break };
                    let Some(o) = obj.as_object() else { break };
                    if cache.state == IC_OWN {
                        let Some(object) = objects.get_mut(o.0) else { break };
                        let Props::Shaped { shape, slots } = &mut object.props else { break };
                        if cache.shape != shape.0 {
                            break;
                        }
                        let Some(s) = slots.get_mut(cache.slot as usize) else { break };
                        *s = v;
                    } else if ops::ic_add_applies(objects, cache, obj) {
                        ops::ic_add(objects, cache, o, v);
                        slot_bytes += objects.get(o.0).map_or(0, Object::named_slot_bytes);
                    } else {
                        break;
                    }
                    ic_hits += 1;
                    if matches!(op, Op::PutProp { .. }) {
                        stack.truncate(len - 2);
                    } else {
                        stack.truncate(len - 1);
                        stack[len - 2] = v;
                    }
                }
                Op::GetElem => {
                    let len = stack.len();
                    if len < 2 {
                        break;
                    }
                    let (obj, key) = (stack[len - 2], stack[len - 1]);
                    let (Some(o), Some(i)) = (obj.as_object(), key.as_int()) else { break };
                    let Some(object) = objects.get(o.0) else { break };
                    if i < 0 {
                        break;
                    }
                    let v = match object.class {
                        Class::Array(_) | Class::Ordinary => match object.elements.get(i as usize) {
                            Some(&v) if !v.is_empty() => v,
                            _ => break,
                        },
                        Class::TypedArray(_) => match typed_array::fast_get_element(objects, o, i as usize) {
                            Some(v) => v,
                            None => break,
                        },
                        _ => break,
                    };
                    stack.truncate(len - 1);
                    stack[len - 2] = v;
                }
                Op::SetElem { .. } | Op::PutElem { .. } => {
                    // Overwrite an existing element of an ordinary object or array (property::set's
                    // own fast path: elements always hold writable data properties).
                    let len = stack.len();
                    if len < 3 {
                        break;
                    }
                    let (obj, key, v) = (stack[len - 3], stack[len - 2], stack[len - 1]);
                    let (Some(o), Some(i)) = (obj.as_object(), key.as_int()) else { break };
                    let Some(object) = objects.get_mut(o.0) else { break };
                    if i < 0 {
                        break;
                    }
                    match object.class {
                        Class::Array(_) | Class::Ordinary | Class::Function(_) => {
                            match object.elements.get_mut(i as usize) {
                                Some(slot) if !slot.is_empty() => *slot = v,
                                _ => break,
                            }
                        }
                        // The receiver is the TypedArray itself, so [[Set]] is TypedArraySetElement.
                        Class::TypedArray(_) => match v.as_number() {
                            Some(n) if typed_array::fast_set_element(objects, o, i as usize, n) => {}
                            _ => break,
                        },
                        _ => break,
                    }
                    if matches!(op, Op::PutElem { .. }) {
                        stack.truncate(len - 3);
                    } else {
                        stack.truncate(len - 2);
                        stack[len - 3] = v;
                    }
                }
                Op::Add => binary!(|a, b| arith(Arith::Add, a, b)),
                Op::Sub => binary!(|a, b| arith(Arith::Sub, a, b)),
                Op::Mul => binary!(|a, b| arith(Arith::Mul, a, b)),
                Op::Div => binary!(|a, b| arith(Arith::Div, a, b)),
                Op::Mod => binary!(|a, b| arith(Arith::Mod, a, b)),
                Op::BitAnd => binary!(|a, b| arith(Arith::BitAnd, a, b)),
                Op::BitOr => binary!(|a, b| arith(Arith::BitOr, a, b)),
                Op::BitXor => binary!(|a, b| arith(Arith::BitXor, a, b)),
                Op::Shl => binary!(|a, b| arith(Arith::Shl, a, b)),
                Op::Sar => binary!(|a, b| arith(Arith::Sar, a, b)),
                Op::Shr => binary!(|a, b| arith(Arith::Shr, a, b)),
                Op::AddInt(k) => unary!(|a| arith(Arith::Add, a, Value::int(k))),
                Op::SubInt(k) => unary!(|a| arith(Arith::Sub, a, Value::int(k))),
                Op::MulInt(k) => unary!(|a| arith(Arith::Mul, a, Value::int(k))),
                Op::BitAndInt(k) => unary!(|a| arith(Arith::BitAnd, a, Value::int(k))),
                Op::BitOrInt(k) => unary!(|a| arith(Arith::BitOr, a, Value::int(k))),
                Op::BitXorInt(k) => unary!(|a| arith(Arith::BitXor, a, Value::int(k))),
                Op::ShlInt(k) => unary!(|a| arith(Arith::Shl, a, Value::int(k))),
                Op::SarInt(k) => unary!(|a| arith(Arith::Sar, a, Value::int(k))),
                Op::ShrInt(k) => unary!(|a| arith(Arith::Shr, a, Value::int(k))),
                Op::Lt => binary!(|a, b| compare(a, b, false, false).map(Value::bool)),
                Op::Gt => binary!(|a, b| compare(a, b, true, false).map(Value::bool)),
                Op::Le => binary!(|a, b| compare(a, b, true, true).map(Value::bool)),
                Op::Ge => binary!(|a, b| compare(a, b, false, true).map(Value::bool)),
                Op::JumpUnlessLt(t) => jump_unless!(t, |a, b| compare(a, b, false, false)),
                Op::JumpUnlessGt(t) => jump_unless!(t, |a, b| compare(a, b, true, false)),
                Op::JumpUnlessLe(t) => jump_unless!(t, |a, b| compare(a, b, true, true)),
                Op::JumpUnlessGe(t) => jump_unless!(t, |a, b| compare(a, b, false, true)),
                Op::JumpUnlessStrictEq(t) => jump_unless!(t, strict_equals),
                Op::JumpUnlessStrictNe(t) => jump_unless!(t, |a, b| strict_equals(a, b).map(|r| !r)),
                Op::JumpUnlessEq(t) => jump_unless!(t, loose_equals),
                Op::JumpUnlessNe(t) => jump_unless!(t, |a, b| loose_equals(a, b).map(|r| !r)),
                Op::StrictEq => binary!(|a, b| strict_equals(a, b).map(Value::bool)),
                Op::StrictNe => binary!(|a, b| strict_equals(a, b).map(|r| Value::bool(!r))),
                Op::Eq => binary!(|a, b| loose_equals(a, b).map(Value::bool)),
                Op::Ne => binary!(|a, b| loose_equals(a, b).map(|r| Value::bool(!r))),
                Op::Inc => unary!(|a| plus(a, 1)),
                Op::Dec => unary!(|a| plus(a, -1)),
                Op::Neg => {
                    let Some(top) = stack.last_mut() else { break };
                    match top.as_int() {
                        Some(i) if i != 0 && i != i32::MIN => *top = Value::int(-i),
                        _ => match top.as_number() {
                            Some(x) => *top = Value::number(-x),
                            None => break,
                        },
                    }
                }
                Op::ToNumeric | Op::ToNumber => {
                    let Some(top) = stack.last() else { break };
                    if !top.is_number() {
                        break;
                    }
                }
                Op::BitNot => {
                    let Some(top) = stack.last_mut() else { break };
                    let r = match top.as_int() {
                        Some(i) => !i,
                        None => match top.as_number() {
                            Some(x) => !f64_to_int32(x),
                            None => break,
                        },
                    };
                    *top = Value::int(r);
                }
                Op::Not => {
                    let Some(top) = stack.last_mut() else { break };
                    match top.truthy_without_heap() {
                        Some(b) => *top = Value::bool(!b),
                        None => break,
                    }
                }
                Op::This => stack.push(frame.this),
                Op::IncLocal(r) => {
                    update_local!(base, r, 1);
                }
                Op::DecLocal(r) => {
                    update_local!(base, r, -1);
                }
                Op::PostIncLocal(r) => {
                    let old = update_local!(base, r, 1);
                    stack.push(old);
                }
                Op::PostDecLocal(r) => {
                    let old = update_local!(base, r, -1);
                    stack.push(old);
                }
                Op::Jump(t) => {
                    pc = t as usize;
                    n += 1;
                    continue;
                }
                Op::JumpIfFalse(t) => jump_if!(false, t),
                Op::JumpIfTrue(t) => jump_if!(true, t),
                Op::JumpIfFalseKeep(t) | Op::JumpIfTrueKeep(t) => {
                    let want = matches!(op, Op::JumpIfTrueKeep(_));
                    let Some(&v) = stack.last() else { break };
                    match v.truthy_without_heap() {
                        Some(b) if b == want => {
                            pc = t as usize;
                            n += 1;
                            continue;
                        }
                        Some(_) => {
                            stack.pop();
                        }
                        None => break,
                    }
                }
                Op::JumpIfNotUndefined(t) => {
                    let v = pop!();
                    if !v.is_undefined() {
                        pc = t as usize;
                        n += 1;
                        continue;
                    }
                }
                Op::Call(argc) => {
                    transfer = Some(Transfer::Call(argc));
                    break;
                }
                Op::Return => {
                    transfer = Some(Transfer::Return);
                    break;
                }
                Op::Nop => {}
                _ => break,
            }
            pc += 1;
            n += 1;
        }
        frame.pc = pc as u32;
        if n >= budget {
            break;
        }
        let done = match transfer {
            None => false,
            Some(Transfer::Call(argc)) => {
                enter_plain_call(frames, stack, objects, codes, *global, *current_realm, options.max_stack_depth, argc)
            }
            Some(Transfer::Return) => leave_plain_frame(frames, stack, *current_realm),
        };
        if !done {
            break 'frames;
        }
        n += 1;
    }
    *fuel -= n;
    stats.instructions += n;
    stats.ic_hits += ic_hits;
    *bytes_since_gc += slot_bytes;
    *bytes_estimate += slot_bytes;
}
