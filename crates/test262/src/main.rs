//! `amber-test262`: see `docs/test262.md`, or run with `--help`.

#![forbid(unsafe_code)]

use amber_test262::{cli, runner, worker};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match cli::parse(&args) {
        Ok(cli::Command::Run(c)) => runner::main(&c),
        Ok(cli::Command::Worker(a)) => worker::main(&a),
        Ok(cli::Command::Help) => {
            println!("{}", cli::USAGE);
            0
        }
        Err(e) => {
            eprintln!("amber-test262: {e}\n\n{}", cli::USAGE);
            runner::EXIT_ERROR
        }
    };
    std::process::exit(code);
}
