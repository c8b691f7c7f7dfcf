//! What the embedding tests share: program output captured per test thread.
#![allow(dead_code)]

use std::cell::Cell;

use amber::engine::vm::Stream;
use amber::engine::Vm;

thread_local! {
    static OUT: Cell<String> = const { Cell::new(String::new()) };
}

/// A print hook that appends each line to this thread's buffer; stderr lines are marked
/// `[err] `.
pub fn capture(_vm: &mut Vm, stream: Stream, text: &str) {
    OUT.with(|o| {
        let mut out = o.take();
        if stream == Stream::Stderr {
            out.push_str("[err] ");
        }
        out.push_str(text);
        out.push('\n');
        o.set(out);
    });
}

/// Everything captured since the last call.
pub fn take_output() -> String {
    OUT.with(Cell::take)
}
