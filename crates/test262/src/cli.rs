//! Command-line parsing for `amber-test262` (hand-written: the runner needs a dozen flags, and
//! only the `amber` CLI depends on clap).

use std::path::PathBuf;

pub const USAGE: &str = "\
amber-test262: run the pinned test262 suite against Amber (run from the repository root)

USAGE:
    amber-test262 [OPTIONS] [PATH]...

PATH is a directory or file of the suite, e.g. `built-ins/Array`, `test/language/eval-code`,
or `test262/suite/test/built-ins/JSON/parse/text-negative-zero.js`; several may be given.

OPTIONS:
    --update               rewrite conformance/expectations.json, summary.json and README.md
                           (entries for tests that did not run are kept)
    --compare              compare with conformance/expectations.json; list newly failing and
                           newly passing tests; exit 1 if any test that passed no longer does
    --report               regenerate summary.json and README.md from expectations.json
                           without running anything
    --slice ci             run only the fixed CI slice (see docs/test262.md)
    --snapshot-roundtrip   image and restore the VM at every safe point of every test
    -j, --jobs N           number of worker processes (default: all cores)
    -v, --verbose          show each failing test's error and output (and passing ones, when
                           a single file is selected)
    --timeout-ms N         wall-clock limit per execution (default: config run.timeout_ms)
    --max-instructions N   instruction budget per execution (default: config)
    --config FILE          configuration (default: test262/config.toml)
    --break-builtin PATH   testing aid: `delete PATH` (e.g. Array.prototype.at) before every
                           test, to check that --compare catches a regression
    -h, --help             this text

EXIT STATUS: 0 done (no regression), 1 regression under --compare, 2 usage or I/O error.";

/// A parsed command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cli {
    pub update: bool,
    pub compare: bool,
    pub report: bool,
    pub snapshot_roundtrip: bool,
    /// Testing aid: delete this builtin (`Array.prototype.at`) before every test.
    pub break_builtin: Option<String>,
    pub verbose: bool,
    pub jobs: Option<usize>,
    pub slice: Option<String>,
    pub timeout_ms: Option<u64>,
    pub max_instructions: Option<u64>,
    pub config: Option<PathBuf>,
    pub filters: Vec<String>,
}

/// What the process does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Run(Cli),
    /// The hidden `--worker` mode, with its arguments.
    Worker(Vec<String>),
    Help,
}

pub fn parse(args: &[String]) -> Result<Command, String> {
    if args.first().map(String::as_str) == Some("--worker") {
        return Ok(Command::Worker(args[1..].to_vec()));
    }
    let mut cli = Cli::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        // `--name=value` and `--name value` are both accepted; so are `-jN` and `-j N`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => match arg.strip_prefix("-j") {
                Some(n) if !n.is_empty() && !arg.starts_with("--") => ("-j", Some(n.to_string())),
                _ => (arg, None),
            },
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args.get(i).cloned().ok_or_else(|| format!("{name} needs a value"))?;
            i += 1;
            Ok(v)
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--update" => cli.update = true,
            "--compare" => cli.compare = true,
            "--report" => cli.report = true,
            "--snapshot-roundtrip" => cli.snapshot_roundtrip = true,
            "--break-builtin" => {
                let v = value()?;
                if !crate::plan::valid_builtin_path(&v) {
                    return Err(format!("--break-builtin: not a dotted property path: {v}"));
                }
                cli.break_builtin = Some(v);
            }
            "-v" | "--verbose" => cli.verbose = true,
            "-j" | "--jobs" => {
                let n = number(name, &value()?)?;
                if n == 0 {
                    return Err("--jobs must be at least 1".into());
                }
                cli.jobs = Some(usize::try_from(n).map_err(|_| "--jobs too large".to_string())?);
            }
            "--slice" => {
                let v = value()?;
                if !crate::slice::NAMES.contains(&v.as_str()) {
                    return Err(format!("unknown slice `{v}` (known: {})", crate::slice::NAMES.join(", ")));
                }
                cli.slice = Some(v);
            }
            "--timeout-ms" => cli.timeout_ms = Some(number(name, &value()?)?.max(1)),
            "--max-instructions" => cli.max_instructions = Some(number(name, &value()?)?),
            "--config" => cli.config = Some(PathBuf::from(value()?)),
            other if other.starts_with('-') && other.len() > 1 => {
                return Err(format!("unknown option {other} (see --help)"))
            }
            path => cli.filters.push(path.to_string()),
        }
    }
    if cli.report && (cli.compare || cli.snapshot_roundtrip || !cli.filters.is_empty() || cli.slice.is_some()) {
        return Err("--report regenerates files from expectations.json; it takes no run options".into());
    }
    if cli.update && cli.snapshot_roundtrip {
        return Err("--update records the normal run; check a round-trip run with --compare".into());
    }
    if cli.update && cli.break_builtin.is_some() {
        return Err("--break-builtin checks that --compare catches a regression; no --update".into());
    }
    Ok(Command::Run(cli))
}

fn number(name: &str, v: &str) -> Result<u64, String> {
    v.replace('_', "").parse().map_err(|_| format!("{name}: not a number: {v}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn run(args: &[&str]) -> Cli {
        match p(args).unwrap() {
            Command::Run(c) => c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn flags_and_paths() {
        let c = run(&["--compare", "-v", "-j", "3", "--slice", "ci", "built-ins/Array", "--snapshot-roundtrip"]);
        assert!(c.compare && c.verbose && c.snapshot_roundtrip && !c.update);
        assert_eq!(c.jobs, Some(3));
        assert_eq!(c.slice.as_deref(), Some("ci"));
        assert_eq!(c.filters, ["built-ins/Array"]);
        let c = run(&["-j2", "--jobs=4", "--timeout-ms=500", "--max-instructions", "1_000", "--config", "x.toml"]);
        assert_eq!(c.jobs, Some(4));
        assert_eq!(c.timeout_ms, Some(500));
        assert_eq!(c.max_instructions, Some(1000));
        assert_eq!(c.config, Some(PathBuf::from("x.toml")));
        assert_eq!(run(&[]), Cli::default());
    }

    #[test]
    fn modes() {
        assert_eq!(p(&["--help"]).unwrap(), Command::Help);
        assert_eq!(p(&["--worker", "--suite", "s"]).unwrap(), Command::Worker(vec!["--suite".into(), "s".into()]));
    }

    #[test]
    fn errors() {
        assert!(p(&["--bogus"]).is_err());
        assert!(p(&["-j"]).is_err());
        assert!(p(&["-j", "0"]).is_err());
        assert!(p(&["-j", "x"]).is_err());
        assert!(p(&["--slice", "nightly"]).is_err());
        assert!(p(&["--report", "built-ins"]).is_err());
        assert!(p(&["--update", "--snapshot-roundtrip"]).is_err());
        assert!(p(&["--break-builtin", "Array.prototype.at; evil()"]).is_err());
        assert!(p(&["--update", "--break-builtin", "Array.prototype.at"]).is_err());
        let c = run(&["--compare", "--break-builtin", "Array.prototype.at"]);
        assert_eq!(c.break_builtin.as_deref(), Some("Array.prototype.at"));
    }
}
