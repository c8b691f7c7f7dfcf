//! `node:path` (POSIX): string work in `js/path.js`; the only native is the working
//! directory `path.resolve` starts from, which is the VFS's (`vm.vfs.cwd`).

use amber_engine::error::JsResult;
use amber_engine::{Value, Vm};

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "path", source: include_str!("js/path.js"), natives: &[("cwd", 0, cwd)], bare: true };

/// `path/posix` is the same object (Node: `require('path/posix') === require('path').posix`).
pub const POSIX: Builtin =
    Builtin { name: "path/posix", source: "module.exports = require('path');", natives: &[], bare: true };

/// `path/win32`: the stub (see js/path.js).
pub const WIN32: Builtin =
    Builtin { name: "path/win32", source: "module.exports = require('path').win32;", natives: &[], bare: true };

/// `cwd()`: the VFS working directory.
fn cwd(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let cwd = vm.vfs.cwd.clone();
    Ok(vm.str(&cwd))
}
