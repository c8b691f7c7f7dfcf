//! The image verifier against forged structures: a decoded VM is edited the way a re-sealed
//! image could edit it (suspended frames, code blocks, handler tables), encoded again, and
//! decoding must refuse it with a message instead of letting the interpreter index out of
//! bounds later.
#![allow(clippy::unwrap_used)]

use amber_engine::bytecode::{Handler, Op};
use amber_engine::heap::frame::{FrameKind, SavedFrame};
use amber_engine::heap::object::{Class, GeneratorState};
use amber_engine::{Vm, VmOptions};

const PROGRAM: &str = r#"
function* gen(a) { const x = yield a; try { yield x + 1; } catch (e) { yield e; } }
var g = gen(1); g.next();
var fresh = gen(2);
async function f(p) { const v = await p; return [v, v]; }
var settle; var pending = f(new Promise((r) => { settle = r; }));
function* deep() { return [1, 2, yield 3]; }
var d = deep(); d.next();
function plain(a, b) { try { return a + b; } catch (e) { return e; } }
"#;

fn image() -> Vec<u8> {
    let mut vm = Vm::new(VmOptions::default());
    vm.eval_script(PROGRAM, "forged.js").unwrap();
    vm.run_jobs().unwrap();
    vm.encode_state().unwrap()
}

fn eval_string(vm: &mut Vm, source: &str) -> String {
    let v = vm.eval_script(source, "check.js").unwrap_or_else(|e| panic!("{source}: {e:?}"));
    vm.to_display_string(v)
}

/// The saved frame of the first object whose class `pick` accepts.
fn saved_frame(vm: &mut Vm, pick: impl Fn(&Class) -> bool) -> &mut SavedFrame {
    let id = vm.heap.objects.iter().find(|(_, o)| pick(&o.class)).map(|(i, _)| i).expect("such an object exists");
    match &mut vm.heap.objects.get_mut(id).unwrap().class {
        Class::Generator(d) | Class::AsyncFunctionState(d) => d.frame.as_mut().expect("it is suspended"),
        Class::AsyncGenerator(d) => d.frame.as_mut().expect("it is suspended"),
        _ => unreachable!("picked a suspended object"),
    }
}

fn yielded(class: &Class) -> bool {
    matches!(class, Class::Generator(d) if d.state == GeneratorState::SuspendedYield)
}

/// A suspended generator running the function `name`.
fn generator_of(name: &'static str) -> impl Fn(&Vm) -> u32 {
    move |vm: &Vm| {
        vm.heap
            .objects
            .iter()
            .find(|(_, o)| match &o.class {
                Class::Generator(d) => d.frame.as_ref().is_some_and(|f| {
                    let code = vm.heap.code(f.frame.code);
                    vm.heap.atoms.get(code.name).to_rust_string() == name
                }),
                _ => false,
            })
            .map(|(i, _)| i)
            .expect("the generator is suspended")
    }
}

fn frame_of(vm: &mut Vm, id: u32) -> &mut SavedFrame {
    match &mut vm.heap.objects.get_mut(id).unwrap().class {
        Class::Generator(d) => d.frame.as_mut().unwrap(),
        _ => unreachable!("a generator"),
    }
}

fn code_named<'a>(vm: &'a mut Vm, name: &str) -> &'a mut amber_engine::bytecode::CodeBlock {
    let id = vm
        .heap
        .code
        .iter()
        .find(|(_, c)| vm.heap.atoms.get(c.name).to_rust_string() == name)
        .map(|(i, _)| i)
        .expect("the function is compiled");
    vm.heap.code.get_mut(id).unwrap()
}

/// Decode, apply `forge`, encode, and expect the decoder to refuse with `expected` in its
/// message.
fn refused(forge: impl FnOnce(&mut Vm), expected: &str) {
    let mut vm = Vm::decode_state(&image()).unwrap();
    forge(&mut vm);
    let forged = vm.encode_state().unwrap();
    match Vm::decode_state(&forged) {
        Ok(_) => panic!("a forged image was accepted (expected: {expected})"),
        Err(e) => assert!(e.contains(expected), "{e}"),
    }
}

#[test]
fn the_unforged_image_restores_and_runs() {
    let mut vm = Vm::decode_state(&image()).unwrap();
    assert_eq!(eval_string(&mut vm, "g.next(5).value + ',' + g.throw(7).value + ',' + fresh.next().value"), "6,7,2");
    eval_string(&mut vm, "var out; pending.then((v) => { out = v.join('+'); }); settle(4);");
    vm.run_jobs().unwrap();
    assert_eq!(eval_string(&mut vm, "out + ' ' + plain(1, 2)"), "4+4 3");
}

#[test]
fn a_suspended_frame_missing_an_operand_is_refused() {
    // `[1, 2, yield 3]` keeps the array and its index under the yield.
    refused(
        |vm| {
            let id = generator_of("deep")(vm);
            frame_of(vm, id).stack.pop();
        },
        "operand stack does not match",
    );
}

#[test]
fn a_suspended_frame_with_an_extra_operand_is_refused() {
    refused(|vm| saved_frame(vm, yielded).stack.push(amber_engine::Value::UNDEFINED), "operand stack does not match");
}

#[test]
fn a_suspended_frame_without_its_registers_is_refused() {
    refused(|vm| saved_frame(vm, yielded).stack.clear(), "fewer values than the code's registers");
}

#[test]
fn a_suspended_frame_pc_out_of_range_is_refused() {
    refused(|vm| saved_frame(vm, yielded).frame.pc = 100_000, "pc out of range");
    refused(|vm| saved_frame(vm, yielded).frame.pc = 0, "pc out of range");
}

#[test]
fn a_suspended_frame_resuming_after_no_suspension_point_is_refused() {
    refused(|vm| saved_frame(vm, yielded).frame.pc = 1, "does not match the instruction it suspended at");
    // A generator that has not started resumes after GeneratorStart, not after a yield.
    refused(
        |vm| {
            let start = |c: &Class| matches!(c, Class::Generator(d) if d.state == GeneratorState::SuspendedStart);
            let yield_pc = saved_frame(vm, yielded).frame.pc;
            saved_frame(vm, start).frame.pc = yield_pc;
        },
        "does not match the instruction it suspended at",
    );
}

#[test]
fn a_suspended_frame_of_the_wrong_kind_is_refused() {
    refused(|vm| saved_frame(vm, yielded).frame.kind = FrameKind::Normal, "kind does not name its owner");
    refused(
        |vm| {
            let f = saved_frame(vm, |c| matches!(c, Class::AsyncFunctionState(_)));
            if let FrameKind::Async { state, .. } = f.frame.kind {
                // The promise it settles is not a promise.
                f.frame.kind = FrameKind::Async { state, promise: state };
            }
        },
        "kind does not name its owner",
    );
}

#[test]
fn code_that_underflows_the_stack_is_refused() {
    let forge = |ops: Vec<Op>| {
        move |vm: &mut Vm| {
            let code = code_named(vm, "plain");
            code.handlers.clear();
            code.ops = ops;
        }
    };
    refused(forge(vec![Op::Add, Op::Return]), "pops 2 of a stack of 0");
    refused(forge(vec![Op::Call(u32::MAX), Op::Return]), "pops");
    refused(forge(vec![Op::Int(1), Op::Dup2, Op::Return]), "pops 2 of a stack of 1");
}

#[test]
fn code_whose_paths_disagree_on_the_depth_is_refused() {
    refused(
        |vm| {
            let code = code_named(vm, "plain");
            code.handlers.clear();
            code.ops = vec![Op::True, Op::JumpIfFalse(3), Op::Int(1), Op::Int(2), Op::Return];
        },
        "stack depth",
    );
}

#[test]
fn a_handler_entered_at_a_depth_its_code_does_not_expect_is_refused() {
    // The handler's target pops two values, but is entered with the exception alone.
    refused(
        |vm| {
            let code = code_named(vm, "plain");
            code.ops = vec![Op::Int(1), Op::Throw, Op::Add, Op::Return];
            code.handlers = vec![Handler { start: 0, end: 2, target: 2, depth: 0, env_depth: 0 }];
        },
        "pops 2 of a stack of 1",
    );
}

/// A handler deeper than the stack at the throw: unwinding fills the stack up to the depth
/// the handler's code was verified at, so the forged handler runs without underflowing.
#[test]
fn a_handler_deeper_than_the_stack_at_the_throw_runs_safely() {
    let mut vm = Vm::decode_state(&image()).unwrap();
    let code = code_named(&mut vm, "plain");
    code.ops = vec![Op::Int(1), Op::Throw, Op::Pop, Op::Pop, Op::Pop, Op::Return];
    code.handlers = vec![Handler { start: 0, end: 2, target: 2, depth: 3, env_depth: 0 }];
    code.max_stack = 4;
    let mut vm = Vm::decode_state(&vm.encode_state().unwrap()).unwrap();
    assert_eq!(eval_string(&mut vm, "String(plain(1, 2))"), "undefined");
}

#[test]
fn more_parameters_than_registers_is_refused() {
    refused(
        |vm| {
            let code = code_named(vm, "plain");
            code.param_count = code.register_count + 1;
        },
        "more parameters than registers",
    );
}

/// Queue entries whose handles are live but of the wrong kind (a reaction whose handler and
/// capability are plain objects, a thenable job whose `then` is not callable, a timer whose
/// callback is a number): the image restores — the verifier checks handles, not kinds — and
/// running the queues throws JS errors or passes the value through, never a panic.
#[test]
fn forged_queue_entries_of_the_wrong_kind_run_safely() {
    use amber_engine::heap::object::{Reaction, ReactionKind};
    use amber_engine::vm::{Job, Timer};
    let mut vm = Vm::decode_state(&image()).unwrap();
    let object = vm.eval_script("({ not: 'callable' })", "forge.js").unwrap();
    let number = amber_engine::Value::number(7.0);
    for capability in [None, Some((object, object, object)), Some((number, object, number))] {
        for kind in [ReactionKind::Fulfill, ReactionKind::Reject] {
            let reaction = Reaction { capability, kind, handler: object };
            vm.jobs.push_back(Job::Reaction { reaction, argument: number });
        }
    }
    vm.jobs.push_back(Job::ResolveThenable { promise: object, thenable: object, then: number });
    vm.jobs.push_back(Job::Callback { callback: object });
    vm.timers.push(Timer {
        id: 9_999,
        due: 0.0,
        callback: number,
        this: object,
        args: vec![object],
        interval: Some(1.0),
        immediate: false,
    });
    let mut vm = Vm::decode_state(&vm.encode_state().unwrap()).expect("live handles of any kind restore");
    let _ = vm.run_jobs();
    let _ = vm.fire_timer(9_999);
    let _ = vm.run_jobs();
    assert_eq!(eval_string(&mut vm, "plain(1, 2)"), "3", "the VM runs on");
}

#[test]
fn code_deeper_than_its_declared_maximum_is_refused() {
    // `plain` needs two operand values for `a + b`; declaring fewer is refused.
    refused(|vm| code_named(vm, "plain").max_stack = 1, "past the declared maximum 1");
    // A handler's entry counts: its depth plus the exception.
    refused(
        |vm| {
            let code = code_named(vm, "plain");
            code.ops = vec![Op::Int(1), Op::Throw, Op::Pop, Op::Pop, Op::Pop, Op::Pop, Op::Undefined, Op::Return];
            code.handlers = vec![Handler { start: 0, end: 2, target: 2, depth: 3, env_depth: 0 }];
            code.max_stack = 3;
        },
        "reaches 4 values",
    );
}

#[test]
fn operands_out_of_range_for_their_kind_are_refused() {
    let forge = |op: Op| {
        move |vm: &mut Vm| {
            let code = code_named(vm, "plain");
            code.handlers.clear();
            code.ops = vec![op, Op::Return];
        }
    };
    refused(forge(Op::Const(1_000)), "Const operand index (Const 1000) out of range");
    refused(forge(Op::GetGlobal(amber_engine::atoms::Atom(u32::MAX))), "GetGlobal operand name (Atom");
    refused(forge(Op::GetLocal(1_000)), "GetLocal operand reg (Reg 1000) out of range");
    refused(forge(Op::Closure(9)), "Closure operand function (Func 9) out of range");
    refused(forge(Op::TemplateObject(0)), "TemplateObject operand site (Template 0) out of range");
    refused(forge(Op::RegExpLiteral(0)), "RegExpLiteral operand literal (RegExp 0) out of range");
    refused(
        forge(Op::GetProp { name: amber_engine::atoms::Atom(0), ic: 77 }),
        "GetProp operand ic (Ic 77) out of range",
    );
    refused(forge(Op::Jump(3)), "Jump operand target (Jump 3) out of range");
    refused(forge(Op::PushEnv(u32::MAX)), "PushEnv operand slots (Slots");
    refused(forge(Op::ThrowError { kind: 0, msg: 50 }), "ThrowError operand msg (Const 50) out of range");
    refused(|vm| code_named(vm, "plain").register_count = u32::MAX, "more registers");
}

#[test]
fn a_jump_into_a_join_at_another_depth_is_refused() {
    // The taken path of JumpIfFalseKeep keeps its operand (depth 1 at pc 4); the fall-through
    // pops it and pushes two (depth 2).
    refused(
        |vm| {
            let code = code_named(vm, "plain");
            code.handlers.clear();
            code.ops = vec![Op::True, Op::JumpIfFalseKeep(4), Op::Int(1), Op::Int(2), Op::Return];
        },
        "pc 4: stack depth",
    );
}

#[test]
fn a_property_keyed_by_a_symbol_that_does_not_exist_is_refused() {
    // The verifier walks the same children the collector marks (heap/children.rs): a
    // symbol key is a handle like a value.
    use amber_engine::atoms::PropertyKey;
    use amber_engine::heap::object::Props;
    use amber_engine::heap::shape::PropFlags;
    refused(
        |vm| {
            let (id, _) =
                vm.heap.objects.iter().find(|(_, o)| matches!(o.props, Props::Dict(_))).expect("a dictionary");
            let Props::Dict(map) = &mut vm.heap.objects.get_mut(id).unwrap().props else { unreachable!() };
            let missing = amber_engine::value::SymbolId(4_000_000);
            map.insert(PropertyKey::Symbol(missing), (amber_engine::Value::UNDEFINED, PropFlags::DEFAULT));
        },
        "dangling handle",
    );
}
