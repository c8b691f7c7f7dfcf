//! Module loading end to end: `amber run` mounts the entry's project folder (or `--fs DIR`)
//! as the overlay's lower layer, so a session's modules, once loaded, come from what the run
//! captured, never from the host, when it is resumed or replayed in another process.
#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Sandbox};

#[test]
fn loaded_modules_outlive_the_host_files() {
    let sb = Sandbox::new("seed");
    sb.write("app/lib/helper.js", "exports.greet = (n) => `hello ${n}`;\n");
    sb.write("app/node_modules/pad/package.json", r#"{ "name": "pad", "exports": { "require": "./pad.js" } }"#);
    sb.write("app/node_modules/pad/pad.js", "module.exports = (s) => `[${s}]`;\n");
    sb.write(
        "app/main.js",
        "const pad = require('pad');\n\
         const { greet } = require('./lib/helper');\n\
         console.log('start', __filename.endsWith('/app/main.js'));\n\
         amber.input('name?').then((name) => {\n\
           console.log(pad(greet(name)), require('./lib/helper') === require('./lib/helper.js'));\n\
         });\n",
    );
    let run = sb.amber(&["run", "app/main.js", "--session", "s"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "start true\n");
    // The host files go away; the session keeps what it read.
    std::fs::remove_dir_all(sb.dir.join("app/lib")).unwrap();
    std::fs::remove_dir_all(sb.dir.join("app/node_modules")).unwrap();
    let resumed = sb.amber(&["resume", "s", "--input", "amber"]);
    expect(&resumed, 0);
    assert_eq!(resumed.stdout, "[hello amber] true\n");
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, "start true\n[hello amber] true\n");
    let inspect = sb.amber(&["inspect", "s"]);
    expect(&inspect, 0);
    assert!(inspect.stdout.contains("source        amber:fs.json"), "{}", inspect.stdout);
    assert!(inspect.stdout.contains("capture            fs.lstat"), "{}", inspect.stdout);
    assert!(inspect.stdout.contains("ModuleLoad"), "{}", inspect.stdout);
    // A fresh run reads the host as it is now, and cannot find its helper.
    let fresh = sb.amber(&["run", "app/main.js"]);
    expect(&fresh, 1);
    assert!(fresh.stderr.contains("Cannot find module 'pad'"), "{}", fresh.stderr);
}

#[test]
fn fs_flag_chooses_the_folder() {
    let sb = Sandbox::new("fsflag");
    sb.write("code/main.js", "console.log(require('../data/value.json').v);\n");
    sb.write("data/value.json", r#"{ "v": 7 }"#);
    let only_code = sb.amber(&["run", "code/main.js"]);
    expect(&only_code, 1);
    assert!(only_code.stderr.contains("Cannot find module '../data/value.json'"), "{}", only_code.stderr);
    let whole = sb.amber(&["run", "code/main.js", "--fs", "."]);
    expect(&whole, 0);
    assert_eq!(whole.stdout, "7\n");
    let missing = sb.amber(&["run", "code/main.js", "--fs", "nowhere"]);
    expect(&missing, 2);
    assert!(missing.stderr.contains("--fs nowhere"), "{}", missing.stderr);
}

#[test]
fn a_large_folder_costs_nothing_until_read() {
    let sb = Sandbox::new("big");
    sb.write("main.js", "console.log(require('fs').statSync('big.bin').size === 65 * 1024 * 1024);\n");
    let big = std::fs::File::create(sb.dir.join("big.bin")).unwrap();
    big.set_len(65 << 20).unwrap();
    let out = sb.amber(&["run", "main.js"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "true\n");
}

#[test]
fn the_default_folder_is_the_project_root() {
    let sb = Sandbox::new("root");
    sb.write("proj/package.json", r#"{ "name": "proj" }"#);
    sb.write("proj/node_modules/dep/index.js", "module.exports = 'dep';\n");
    sb.write(
        "proj/src/deep/main.js",
        "console.log(require('dep'), require('fs').existsSync(__dirname + '/../../package.json'));\n",
    );
    let out = sb.amber(&["run", "proj/src/deep/main.js"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "dep true\n");
}

/// A package's own file run in place (its test suite, as `amber run node_modules/pkg/test.js`)
/// sees the dependencies installed beside it, as node resolves them.
#[test]
fn an_entry_inside_node_modules_sees_the_installing_project() {
    let sb = Sandbox::new("installed");
    sb.write("proj/package.json", r#"{ "name": "proj" }"#);
    sb.write("proj/node_modules/tape/index.js", "module.exports = 'tape';\n");
    sb.write("proj/node_modules/pkg/package.json", r#"{ "name": "pkg" }"#);
    sb.write("proj/node_modules/pkg/test/run.js", "console.log(require('tape'), require('../package.json').name);\n");
    let out = sb.amber(&["run", "proj/node_modules/pkg/test/run.js"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "tape pkg\n");
}

#[test]
fn entry_format_follows_node() {
    let sb = Sandbox::new("format");
    sb.write("esm/package.json", r#"{ "type": "module" }"#);
    sb.write("esm/main.js", "import { x } from './x.js';\nconsole.log(typeof require, x);\n");
    sb.write("esm/x.js", "export const x = 'esm';\n");
    sb.write("esm/legacy.cjs", "console.log(typeof require, require('./x.cjs'));\n");
    sb.write("esm/x.cjs", "module.exports = 'cjs';\n");
    let esm = sb.amber(&["run", "esm/main.js"]);
    expect(&esm, 0);
    assert_eq!(esm.stdout, "undefined esm\n");
    let cjs = sb.amber(&["run", "esm/legacy.cjs"]);
    expect(&cjs, 0);
    assert_eq!(cjs.stdout, "function cjs\n");
    let cwd = sb.dir.join("esm");
    let rel = sb.amber_in(&cwd, &["run", "main.js"]);
    expect(&rel, 0);
    assert_eq!(rel.stdout, "undefined esm\n");
}
