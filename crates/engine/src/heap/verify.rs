//! Structural verification of a decoded heap before it runs (the VM's side, its roots and
//! module map, is `verify.rs` at the crate root): every handle names a live entity
//! of the right arena, every shape and atom exists, every bytecode operand is in range for
//! its kind (the opcode table, `bytecode/table.rs`, gives each operand's kind), the operand
//! stack can never underflow or outgrow its code block's declared maximum (the depth before
//! every reachable instruction is computed by abstract interpretation over the table's stack
//! effects and must agree on every path, handler entries included; unwinding sets the stack to
//! the handler's depth), and every suspended generator or async frame holds exactly the
//! registers and operand values its resume point expects. A crafted image fails here with a
//! message instead of panicking later.

use std::collections::BTreeMap;

use crate::bytecode::{CodeBlock, Control, Op, OperandKind, MAX_SLOTS};
use crate::heap::children::{code_children, env_children, object_children};
use crate::heap::frame::{FrameKind, SavedFrame};
use crate::heap::object::{Class, GeneratorState, Props};
use crate::heap::{CodeId, EnvId, Heap};
use crate::value::{Kind, ObjectId, Value};

/// Checks every entity of the heap on its own (shapes, atoms, realm indices below `realms`,
/// code blocks) and adds every handle one holds to `values`, `envs` and `codes`, which
/// [`check_handles`] then checks.
pub fn check_entities(
    heap: &Heap,
    realms: usize,
    values: &mut Vec<Value>,
    envs: &mut Vec<EnvId>,
    codes: &mut Vec<CodeId>,
) -> Result<(), String> {
    for (i, obj) in heap.objects.iter() {
        if let Props::Shaped { shape, slots } = &obj.props {
            if shape.0 as usize >= heap.shapes.len() {
                return Err(format!("object {i}: shape {} out of range", shape.0));
            }
            if heap.shapes.get(*shape).len() != slots.len() {
                return Err(format!("object {i}: slot count does not match its shape"));
            }
        }
        for (k, _) in obj.named_keys(&heap.shapes) {
            if let crate::atoms::PropertyKey::Atom(a) = k {
                if a.0 as usize >= heap.atoms.len() {
                    return Err(format!("object {i}: atom {} out of range", a.0));
                }
            }
        }
        let realm = match &obj.class {
            Class::Native(n) => Some(n.realm),
            Class::ShadowRealm(r) => Some(*r),
            _ => None,
        };
        if let Some(r) = realm.filter(|&r| r as usize >= realms) {
            return Err(format!("object {i}: realm {r} out of range"));
        }
        // The shape exists (checked above): every handle the object holds is checked later.
        object_children(obj, &heap.shapes, values, envs, codes);
    }
    for (_, e) in heap.envs.iter() {
        env_children(e, values, envs);
    }
    for (i, code) in heap.code.iter() {
        code_children(code, values, codes);
        if code.realm as usize >= realms {
            return Err(format!("code {i}: realm {} out of range", code.realm));
        }
        verify_code(i, code, heap.atoms.len())?;
    }
    Ok(())
}

/// Checks that every handle names a live entity of its arena, then every suspended frame
/// against its code (which needs every handle live).
pub fn check_handles(heap: &Heap, values: &[Value], envs: &[EnvId], codes: &[CodeId]) -> Result<(), String> {
    let value_ok = |v: Value| -> bool {
        match v.kind() {
            Kind::Object(o) => heap.objects.is_live(o.0),
            Kind::String(s) => heap.strings.is_live(s.0),
            Kind::Symbol(s) => heap.symbols.is_live(s.0),
            Kind::BigInt(b) => heap.bigints.is_live(b.0),
            _ => true,
        }
    };
    if let Some(bad) = values.iter().find(|v| !value_ok(**v)) {
        return Err(format!("dangling handle {bad:?}"));
    }
    if let Some(bad) = envs.iter().find(|e| !heap.envs.is_live(e.0)) {
        return Err(format!("dangling environment handle {}", bad.0));
    }
    if let Some(bad) = codes.iter().find(|c| !heap.code.is_live(c.0)) {
        return Err(format!("dangling code handle {}", bad.0));
    }
    // Every handle is live from here on: the suspended frames can be checked against their code.
    let mut depths = BTreeMap::new();
    for (i, obj) in heap.objects.iter() {
        verify_suspended(heap, ObjectId(i), &obj.class, &mut depths)?;
    }
    Ok(())
}

/// What a suspended frame's owner expects of it: the frame kind naming the owner, and the
/// instructions it may have suspended at with the values its resumption pushes.
fn verify_suspended(
    heap: &Heap,
    owner: ObjectId,
    class: &Class,
    depths: &mut BTreeMap<u32, Vec<Option<u32>>>,
) -> Result<(), String> {
    let (frame, state, kind_ok): (&SavedFrame, GeneratorState, bool) = match class {
        Class::Generator(d) => match &d.frame {
            Some(f) => (f, d.state, f.frame.kind == FrameKind::Generator(owner)),
            None => return Ok(()),
        },
        Class::AsyncGenerator(d) => match &d.frame {
            Some(f) => (f, d.state, f.frame.kind == FrameKind::AsyncGenerator(owner)),
            None => return Ok(()),
        },
        Class::AsyncFunctionState(d) => match &d.frame {
            Some(f) => {
                let ok = match f.frame.kind {
                    FrameKind::Async { state, promise } => {
                        state == owner
                            && heap.objects.get(promise.0).is_some_and(|p| matches!(p.class, Class::Promise(_)))
                    }
                    _ => false,
                };
                (f, d.state, ok)
            }
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    let err = |what: &str| format!("object {}: suspended frame: {what}", owner.0);
    if !kind_ok {
        return Err(err("its kind does not name its owner"));
    }
    let code_id = frame.frame.code;
    let code = heap.code(code_id);
    let registers = code.register_count as usize;
    let Some(operands) = frame.stack.len().checked_sub(registers) else {
        return Err(err("fewer values than the code's registers"));
    };
    let pc = frame.frame.pc as usize;
    let Some(&at) = pc.checked_sub(1).and_then(|p| code.ops.get(p)) else {
        return Err(err("pc out of range"));
    };
    // The instruction it suspended at, and how many values resuming it pushes.
    let pushes = match (class, state, at) {
        (Class::Generator(_) | Class::AsyncGenerator(_), GeneratorState::SuspendedStart, Op::GeneratorStart) => 0,
        (Class::Generator(_), GeneratorState::SuspendedYield, Op::Yield | Op::YieldRaw) => 2,
        (Class::AsyncGenerator(_), GeneratorState::SuspendedYield, Op::Yield) => 2,
        (Class::AsyncGenerator(_), GeneratorState::Executing, Op::Await) => 1,
        (Class::AsyncFunctionState(_), _, Op::Await) => 1,
        _ => return Err(err("its state does not match the instruction it suspended at")),
    };
    let table = match depths.entry(code_id.0) {
        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(stack_depths(code).map_err(|e| format!("code {}: {e}", code_id.0))?.at)
        }
    };
    let expected = table.get(pc).copied().flatten();
    if pc < code.ops.len() && expected != Some((operands + pushes) as u32) {
        return Err(err("its operand stack does not match its resume point"));
    }
    Ok(())
}

/// What the stack-depth pass proves about a code block.
pub struct StackDepths {
    /// The operand stack depth (values above the registers) before each instruction; None
    /// for unreachable ones. The entry at `ops.len()` is falling off the end (an implicit
    /// `return undefined`), at any depth.
    pub at: Vec<Option<u32>>,
    /// The most values any instruction leaves or finds on the operand stack.
    pub max: u32,
}

/// The operand stack depth before each instruction, by abstract interpretation from pc 0
/// and every handler entry with the opcode table's effects ([`Op::stack_effect`],
/// [`Op::control`]). Fails if an instruction could pop more than the stack holds or two paths
/// reach an instruction with different depths (a handler's target is entered at the
/// handler's depth plus the exception; unwinding sets the stack to exactly that depth).
/// Generator and async resume points need nothing extra: a suspending instruction's effect
/// is what resuming leaves (`Yield` pops the value and resumes with two), and
/// `verify_suspended` checks a saved frame against the depth proven after it.
pub fn stack_depths(code: &CodeBlock) -> Result<StackDepths, String> {
    let n = code.ops.len();
    let mut depth: Vec<Option<u32>> = vec![None; n + 1];
    let mut todo: Vec<usize> = Vec::new();
    let mut max = 0;
    let reach = |depth: &mut Vec<Option<u32>>, todo: &mut Vec<usize>, at: u32, d: u32| -> Result<(), String> {
        let at = at as usize;
        match depth.get(at).copied() {
            None => Err(format!("jump target {at} out of range")),
            Some(None) => {
                depth[at] = Some(d);
                if at < n {
                    todo.push(at);
                }
                Ok(())
            }
            Some(Some(e)) if e == d || at == n => Ok(()),
            Some(Some(e)) => Err(format!("pc {at}: stack depth {e} on one path, {d} on another")),
        }
    };
    reach(&mut depth, &mut todo, 0, 0)?;
    for h in &code.handlers {
        let d = h.depth.checked_add(1).ok_or("handler depth out of range")?;
        max = max.max(d);
        reach(&mut depth, &mut todo, h.target, d)?;
    }
    let effect = |pc: usize, op: Op, d: u32, (pops, pushes): (u32, u32)| -> Result<u32, String> {
        let Some(after_pops) = d.checked_sub(pops) else {
            return Err(format!("pc {pc}: {} pops {pops} of a stack of {d}", op.name()));
        };
        after_pops.checked_add(pushes).ok_or_else(|| "stack depth out of range".to_string())
    };
    while let Some(pc) = todo.pop() {
        let op = code.ops[pc];
        let d = depth[pc].unwrap_or(0);
        let next = effect(pc, op, d, op.stack_effect())?;
        max = max.max(d).max(next);
        let fall = pc as u32 + 1;
        let target = || op.jump_target().ok_or_else(|| format!("pc {pc}: a jump without a target"));
        match op.control() {
            Control::Next => reach(&mut depth, &mut todo, fall, next)?,
            Control::Stop => {}
            Control::Goto => reach(&mut depth, &mut todo, target()?, next)?,
            Control::Branch(pops, pushes) => {
                let taken = effect(pc, op, d, (pops, pushes))?;
                max = max.max(taken);
                reach(&mut depth, &mut todo, target()?, taken)?;
                reach(&mut depth, &mut todo, fall, next)?;
            }
        }
    }
    Ok(StackDepths { at: depth, max })
}

/// Whether operand `value` of kind `kind` is in range for `code`: each kind names what it
/// indexes (no kind is passed over unchecked without the reason here).
fn operand_in_range(code: &CodeBlock, atoms: usize, kind: OperandKind, value: u32) -> bool {
    let v = value as usize;
    match kind {
        OperandKind::Const => v < code.constants.len(),
        OperandKind::Func => v < code.functions.len(),
        OperandKind::Ic => v < code.ics.len(),
        OperandKind::Atom => v < atoms,
        OperandKind::Reg => value < code.register_count,
        OperandKind::Jump => v <= code.ops.len(),
        OperandKind::Template => v < code.templates.len(),
        OperandKind::RegExp => v < code.regexps.len(),
        OperandKind::Slots => value <= MAX_SLOTS,
        // The stack-depth pass bounds it: the instruction pops that many values.
        OperandKind::Count => true,
        // Resolved with bounds checks when the instruction runs.
        OperandKind::Env | OperandKind::Import | OperandKind::Imm => true,
    }
}

fn verify_code(i: u32, code: &CodeBlock, atoms: usize) -> Result<(), String> {
    let n = code.ops.len() as u32;
    for (pc, op) in code.ops.iter().enumerate() {
        for (field, kind, value) in op.operands().iter() {
            if !operand_in_range(code, atoms, kind, value) {
                return Err(format!("code {i} pc {pc}: {} operand {field} ({kind:?} {value}) out of range", op.name()));
            }
        }
    }
    for h in &code.handlers {
        if h.target > n || h.start > h.end || h.end > n {
            return Err(format!("code {i}: handler out of range"));
        }
    }
    for site in &code.suspend_sites {
        let at_await = code.ops.get(site.pc as usize) == Some(&Op::Await);
        if !at_await || site.names.iter().any(|b| b.level > site.level) {
            return Err(format!("code {i}: suspend site at pc {} is not an await of its scopes", site.pc));
        }
    }
    let mut last = None;
    for site in &code.error_sites {
        let fits = code.ops.get(site.pc as usize).is_some_and(|&op| site.hint.fits(op));
        if !fits || last.is_some_and(|l| l >= site.pc) {
            return Err(format!("code {i}: error site at pc {} does not fit its instruction", site.pc));
        }
        last = Some(site.pc);
    }
    if code.template_cache.len() != code.templates.len() {
        return Err(format!("code {i}: template cache does not match templates"));
    }
    if code.param_count > code.register_count {
        return Err(format!("code {i}: more parameters than registers"));
    }
    // Frames and environments allocate these at once.
    if code.register_count > MAX_SLOTS || code.env_slots > MAX_SLOTS || code.max_stack > MAX_SLOTS {
        return Err(format!("code {i}: more registers, environment slots or stack than a code block may have"));
    }
    let depths = stack_depths(code).map_err(|e| format!("code {i}: {e}"))?;
    if depths.max > code.max_stack {
        return Err(format!(
            "code {i}: the operand stack reaches {} values, past the declared maximum {}",
            depths.max, code.max_stack
        ));
    }
    Ok(())
}
