//! `snapshot_bytecode`: hostile bytecode behind a valid seal. The `snapshot_decode` seed image
//! is restored, the fuzz input edits the code blocks in it — opcodes replaced, operands set to
//! the edges of their ranges, instructions inserted, deleted, duplicated or cut off, handler
//! entries and the declared register, stack and environment sizes changed — and the runtime
//! images itself: the image is encoded and sealed by the engine, as by a writer who has the
//! engine but not good intentions (the seal is a checksum, not a secret). Then it is restored
//! and run under fuel.
//!
//! Invariant: the restore refuses the image (the verifier) or the restored program runs to an
//! outcome within the limits; never a panic, an out-of-bounds index, a hang or an unbounded
//! allocation.

use crate::decode::{builder, restore_and_run, seed_image_and_journal};
use amber::engine::bytecode::{CodeBlock, Op, OperandKind, MAX_SLOTS};

/// Bytes per edit: kind, block, two of pc, two of value.
const EDIT: usize = 6;

/// `snapshot_bytecode` on raw fuzz bytes.
pub fn run(data: &[u8]) {
    let Some((&select, edits)) = data.split_first() else { return };
    let Ok(mut rt) = builder().restore(seed_image_and_journal().0, None) else { return };
    let vm = rt.vm_mut();
    // The seed program's own blocks run after the restore (its suspended async function, its
    // timer); the baseline's (the Node layer's modules) mostly do not. Byte 0's low bit picks
    // which set the edits address.
    let floor = vm.heap.code.floor();
    let blocks: Vec<u32> = vm.heap.code.iter().map(|(i, _)| i).filter(|&i| select & 1 == 0 || i >= floor).collect();
    if blocks.is_empty() {
        return;
    }
    for edit in edits.chunks_exact(EDIT).take(32) {
        let id = blocks[usize::from(edit[1]) % blocks.len()];
        let atoms = vm.heap.atoms.len() as u32;
        let Some(code) = vm.heap.code.get_mut(id) else { continue };
        let pc = usize::from(u16::from_le_bytes([edit[2], edit[3]]));
        let value = u16::from_le_bytes([edit[4], edit[5]]);
        apply(code, atoms, edit[0], pc, value);
    }
    let Ok(image) = rt.snapshot() else { return };
    restore_and_run(&image, None);
}

/// Operand values worth trying for `kind` in `code`: the edges of its range and past them.
fn edge(code: &CodeBlock, atoms: u32, kind: OperandKind, pick: u16) -> u32 {
    let len = |n: usize| n as u32;
    let limit = match kind {
        OperandKind::Const => len(code.constants.len()),
        OperandKind::Func => len(code.functions.len()),
        OperandKind::Ic => len(code.ics.len()),
        OperandKind::Atom => atoms,
        OperandKind::Reg => code.register_count,
        OperandKind::Jump => len(code.ops.len()),
        OperandKind::Template => len(code.templates.len()),
        OperandKind::RegExp => len(code.regexps.len()),
        OperandKind::Slots => MAX_SLOTS,
        OperandKind::Count => 8,
        OperandKind::Env | OperandKind::Import | OperandKind::Imm => 4,
    };
    match pick % 8 {
        0 => 0,
        1 => limit.saturating_sub(1),
        2 => limit,
        3 => limit.saturating_add(1),
        4 => u32::MAX,
        5 => u32::MAX / 2,
        _ => u32::from(pick >> 3) % limit.saturating_add(2),
    }
}

/// One edit of `code`'s instructions, handlers or declared sizes.
fn apply(code: &mut CodeBlock, atoms: u32, kind: u8, pc: usize, value: u16) {
    let n = code.ops.len();
    let at = if n == 0 { 0 } else { pc % n };
    // An instruction from the table: index from `value`, operands at the edges of their kinds.
    let build = |code: &CodeBlock, value: u16| {
        let mut k = value;
        Op::build(usize::from(value) % Op::NAMES.len(), &mut |kind| {
            k = k.rotate_left(3);
            edge(code, atoms, kind, k)
        })
    };
    match kind % 10 {
        0 => {
            // Replace the opcode.
            if let Some(op) = build(&*code, value) {
                if let Some(slot) = code.ops.get_mut(at) {
                    *slot = op;
                }
            }
        }
        1 => {
            // One operand to an edge of its range.
            if let Some(&op) = code.ops.get(at) {
                let which = usize::from(value & 3);
                let mut i = 0;
                let edited = op.map_operands(|kind, v| {
                    i += 1;
                    if i - 1 == which {
                        edge(code, atoms, kind, value >> 2)
                    } else {
                        v
                    }
                });
                code.ops[at] = edited;
            }
        }
        2 => {
            // Insert an instruction (jump targets after it now point one early).
            if let Some(op) = build(&*code, value) {
                code.ops.insert(at.min(n), op);
            }
        }
        3 => {
            if at < n {
                code.ops.remove(at);
            }
        }
        4 => code.ops.truncate(at),
        5 => {
            // Duplicate a run of instructions somewhere else.
            let end = (at + usize::from(value % 8) + 1).min(n);
            let run: Vec<Op> = code.ops[at..end].to_vec();
            let to = usize::from(value >> 3) % (n + 1);
            code.ops.splice(to..to, run);
        }
        6 => {
            if n > 1 {
                code.ops.swap(at, usize::from(value) % n);
            }
        }
        7 => {
            // A handler entry's fields.
            let len = code.handlers.len();
            if let Some(h) = code.handlers.get_mut(usize::from(value) % len.max(1)) {
                let v = u32::from(value >> 4);
                match value % 5 {
                    0 => h.start = v,
                    1 => h.end = v,
                    2 => h.target = v,
                    3 => h.depth = v % 16,
                    _ => h.env_depth = v,
                }
            } else {
                code.handlers.push(amber::engine::bytecode::Handler {
                    start: 0,
                    end: n as u32,
                    target: at as u32,
                    depth: u32::from(value % 4),
                    env_depth: 0,
                });
            }
        }
        8 => {
            // The declared sizes: small changes (a huge register count is refused by the
            // verifier, which the cases above already reach through operands).
            let delta = u32::from(value % 5);
            match (value >> 3) % 5 {
                0 => code.max_stack = code.max_stack.saturating_sub(delta),
                1 => code.max_stack = code.max_stack.saturating_add(delta),
                2 => code.register_count = code.register_count.saturating_sub(delta),
                3 => code.param_count = code.param_count.saturating_add(delta),
                _ => code.env_slots = code.env_slots.saturating_add(delta),
            }
        }
        _ => {
            // Patch a jump: its target anywhere in or just past the code.
            if let Some(&op) = code.ops.get(at) {
                code.ops[at] = op.with_jump_target(u32::from(value) % (n as u32 + 2));
            }
        }
    }
}
