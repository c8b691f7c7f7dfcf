//! `amber run FILE`.

use std::io::Write;
use std::path::PathBuf;

use amber_engine::error::RunError;
use amber_engine::vm::Stream;
use amber_engine::{Vm, VmOptions};
use clap::Args;

use crate::exit;

#[derive(Args)]
pub struct RunArgs {
    /// The program to run.
    file: PathBuf,
    /// Treat the file as an ES module (default for .mjs).
    #[arg(long)]
    module: bool,
    /// Instruction budget; exceeding it exits with status 5.
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// Heap budget in bytes; exceeding it exits with status 5.
    #[arg(long, value_name = "BYTES")]
    max_heap: Option<u64>,
    /// Print the bytecode of every function instead of running.
    #[arg(long)]
    dump_bytecode: bool,
    /// Print execution statistics to stderr after the run.
    #[arg(long)]
    stats: bool,
}

fn print_hook(_vm: &mut Vm, stream: Stream, text: &str) {
    match stream {
        Stream::Stdout => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{text}");
        }
        Stream::Stderr => {
            let _ = std::io::stdout().lock().flush();
            eprintln!("{text}");
        }
    }
}

pub fn run(args: RunArgs) -> u8 {
    let source = match std::fs::read_to_string(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("amber: cannot read {}: {e}", args.file.display());
            return exit::USAGE;
        }
    };
    let filename = args.file.display().to_string();
    let module = args.module || filename.ends_with(".mjs");
    let options = VmOptions { max_instructions: args.max_instructions, max_heap_bytes: args.max_heap, ..VmOptions::default() };
    let mut vm = Vm::new(options);
    vm.print_hook = Some(print_hook);
    amber_node::install(&mut vm);
    if args.dump_bytecode {
        return match amber_engine::compiler::compile_script(&mut vm, &source, &filename) {
            Ok(code) => {
                print!("{}", amber_engine::bytecode::dump(&vm, code));
                exit::OK
            }
            Err(e) => {
                eprintln!("{e}");
                exit::UNCAUGHT
            }
        };
    }
    let _ = module;
    let result = vm.eval_script(&source, &filename).and_then(|_| vm.run_jobs());
    let code = match result {
        Ok(()) => {
            if let Some(&reason) = vm.pending_rejections.first() {
                let (_, _, stack) = vm.describe_thrown(reason);
                let shown = if reason.is_object() { stack } else { amber_node::inspect::inspect(&mut vm, reason) };
                eprintln!("Uncaught (in promise) {shown}");
                exit::UNCAUGHT
            } else {
                exit::OK
            }
        }
        Err(RunError::Syntax(e)) => {
            eprintln!("{e}");
            exit::UNCAUGHT
        }
        Err(RunError::Threw { value, stack, .. }) => {
            let shown = if value.is_object() { stack } else { amber_node::inspect::inspect(&mut vm, value) };
            eprintln!("Uncaught {shown}");
            exit::UNCAUGHT
        }
        Err(RunError::Limit(l)) => {
            eprintln!("amber: {l}");
            exit::LIMIT
        }
    };
    let _ = std::io::stdout().flush();
    if args.stats {
        let s = vm.stats;
        let h = vm.heap.stats;
        let total = s.ic_hits + s.ic_misses;
        let rate = if total > 0 { 100.0 * s.ic_hits as f64 / total as f64 } else { 0.0 };
        eprintln!(
            "instructions: {}\nallocations: {}\ncollections: {}\ninline-cache hits: {} / {} ({rate:.1}%)",
            s.instructions, h.allocations, h.collections, s.ic_hits, total
        );
    }
    code
}
