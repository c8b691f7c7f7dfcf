//! `quickjs-run FILE`: evaluate FILE as a classic script in QuickJS 2021-03-27 (through
//! rquickjs 0.5), with a global `print` and `console.log` that write one line to stdout.
//! Exit status: 0 on completion, 1 on an uncaught exception, 2 on a usage or I/O error.

use std::io::Write;
use std::process::ExitCode;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Ctx, Function, Object, Runtime};

fn print_line(args: rquickjs::function::Rest<rquickjs::Value<'_>>) {
    let line = args
        .0
        .iter()
        .map(|v| display(v))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
}

fn display(v: &rquickjs::Value<'_>) -> String {
    if let Some(s) = v.as_string() {
        return s.to_string().unwrap_or_default();
    }
    let ctx = v.ctx().clone();
    let string_fn: Function = ctx.globals().get("String").expect("String exists");
    string_fn
        .call::<_, String>((v.clone(),))
        .unwrap_or_else(|_| "<unprintable>".to_string())
}

fn install(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    let globals = ctx.globals();
    globals.set("print", Function::new(ctx.clone(), print_line)?)?;
    let console = Object::new(ctx.clone())?;
    console.set("log", Function::new(ctx.clone(), print_line)?)?;
    globals.set("console", console)?;
    Ok(())
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: quickjs-run FILE.js");
        return ExitCode::from(2);
    };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("quickjs-run: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = Runtime::new().expect("QuickJS runtime");
    // Match the qjs shell's generous defaults: no memory limit, a large native stack.
    runtime.set_max_stack_size(256 * 1024 * 1024);
    let context = Context::full(&runtime).expect("QuickJS context");
    let status = context.with(|ctx| {
        if let Err(e) = install(&ctx) {
            eprintln!("quickjs-run: setting up globals: {e}");
            return 2;
        }
        // A classic sloppy-mode script, as `qjs FILE` runs it (rquickjs defaults to strict).
        let options = EvalOptions { global: true, strict: false, backtrace_barrier: false };
        match ctx.eval_with_options::<(), _>(source, options) {
            Ok(()) => 0,
            Err(rquickjs::Error::Exception) => {
                let exc = ctx.catch();
                let msg = match exc.as_exception() {
                    Some(e) => format!(
                        "{}\n{}",
                        e.message().unwrap_or_default(),
                        e.stack().unwrap_or_default()
                    ),
                    None => display(&exc),
                };
                eprintln!("Uncaught {msg}");
                1
            }
            Err(e) => {
                eprintln!("quickjs-run: {e}");
                1
            }
        }
    });
    let _ = std::io::stdout().flush();
    ExitCode::from(status)
}
