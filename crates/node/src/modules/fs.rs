//! `node:fs` and `node:fs/promises` over the VFS (`vm.vfs`, `amber_engine::vfs`).
//!
//! The natives here are the system calls: each takes already-validated arguments (paths as
//! strings, data as byte views), performs one VFS operation at the logical clock, records the
//! capability it used (FsRead / FsWrite / FsDelete), and throws Node's error shape on failure
//! (`ENOENT: no such file or directory, open 'x'` with `errno`, `code`, `syscall`, `path`,
//! `dest`). Everything else — argument validation, encodings, options, Stats and Dirent,
//! callbacks, promises, FileHandle, streams — is JavaScript in `js/fs.js`.
//!
//! Policy: when the run's policy says `fs = Disabled` the embedder puts [`DISABLED_KEY`] in
//! `vm.host_state`; every native then throws `ERR_AMBER_POLICY` (the module itself still
//! loads, so packages that merely import fs keep working).

use amber_engine::error::{JsResult, Throw};
use amber_engine::runtime::convert::{to_boolean, to_number, to_rust_string};
use amber_engine::vfs::{FileType, Stat, VfsError};
use amber_engine::{ErrorKind, Value, Vm};

use super::buffer::{new_buffer, view_bytes, with_view_bytes_mut};
use super::Builtin;
use crate::capabilities;

/// `vm.host_state` entry present when the policy disables the filesystem.
pub const DISABLED_KEY: &str = "node.fs.disabled";
/// `vm.host_state` entry present when the filesystem is read-only (the program manifest's
/// `fs.readonly`): every write or delete fails with `EROFS`, reads work.
pub const READONLY_KEY: &str = "node.fs.readonly";

pub const BUILTIN: Builtin = Builtin {
    name: "fs",
    source: include_str!("js/fs.js"),
    natives: &[
        ("cwd", 0, cwd),
        ("chdir", 1, chdir),
        ("stat", 3, stat),
        ("fstat", 1, fstat),
        ("exists", 1, exists),
        ("access", 2, access),
        ("readFile", 1, read_file),
        ("readFd", 1, read_fd),
        ("open", 3, open),
        ("close", 1, close),
        ("read", 5, read),
        ("write", 5, write),
        ("fsync", 1, fsync),
        ("readdir", 1, readdir),
        ("mkdir", 3, mkdir),
        ("rmdir", 1, rmdir),
        ("unlink", 1, unlink),
        ("rm", 1, rm),
        ("rename", 2, rename),
        ("copyFile", 3, copy_file),
        ("symlink", 2, symlink),
        ("readlink", 1, readlink),
        ("link", 2, link),
        ("realpath", 1, realpath),
        ("truncate", 2, truncate),
        ("ftruncate", 2, ftruncate),
        ("chmod", 2, chmod),
        ("utimes", 4, utimes),
        ("futimes", 3, futimes),
        ("mkdtemp", 1, mkdtemp),
    ],
    bare: true,
};

/// The working directory natives `process.cwd()` / `process.chdir()` use (the VFS's).
pub const CWD: Builtin = Builtin {
    name: "internal/fs/cwd",
    source: "module.exports = { cwd: internal.cwd, chdir: internal.chdir };",
    natives: &[("cwd", 0, cwd), ("chdir", 1, chdir)],
    bare: false,
};

/// `fs/promises`: the promise API object of `node:fs`.
pub const PROMISES: Builtin =
    Builtin { name: "fs/promises", source: "module.exports = require('fs').promises;", natives: &[], bare: true };

// ---- arguments and errors

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

fn str_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<String> {
    to_rust_string(vm, arg(args, i))
}

fn num_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<f64> {
    to_number(vm, arg(args, i))
}

/// A non-negative integer argument (a count, a mode, an offset); the JS layer validated it.
fn u64_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<u64> {
    let n = num_arg(vm, args, i)?;
    Ok(if n.is_finite() && n > 0.0 { n.min(u64::MAX as f64) as u64 } else { 0 })
}

fn fd_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<u32> {
    let n = num_arg(vm, args, i)?;
    Ok(if n.is_finite() && n >= 0.0 && n <= f64::from(u32::MAX) { n as u32 } else { u32::MAX })
}

/// A file position: null, undefined or a negative number mean "the current position".
fn position_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<Option<u64>> {
    let v = arg(args, i);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let n = to_number(vm, v)?;
    Ok(if n.is_finite() && n >= 0.0 { Some(n as u64) } else { None })
}

/// Node's uvException: `CODE: description, syscall 'path' -> 'dest'`, with `errno`
/// (negative), `code`, `syscall`, `path` and `dest` properties in that order.
fn uv_error(vm: &mut Vm, err: VfsError, syscall: &str, path: Option<&str>, dest: Option<&str>) -> Throw {
    let mut message = format!("{}: {}, {syscall}", err.code(), err.description());
    if let Some(p) = path {
        message.push_str(&format!(" '{p}'"));
    }
    if let Some(d) = dest {
        message.push_str(&format!(" -> '{d}'"));
    }
    let e = vm.make_error(ErrorKind::Error, &message);
    vm.roots.push(e);
    vm.set_property(e, "errno", Value::int(-err.errno()));
    let code = vm.str(err.code());
    vm.set_property(e, "code", code);
    let sc = vm.str(syscall);
    vm.set_property(e, "syscall", sc);
    if let Some(p) = path {
        let p = vm.str(p);
        vm.set_property(e, "path", p);
    }
    if let Some(d) = dest {
        let d = vm.str(d);
        vm.set_property(e, "dest", d);
    }
    vm.roots.pop();
    Throw::Value(e)
}

/// Check the policy and record the capabilities an operation uses.
fn enter(vm: &mut Vm, syscall: &str, path: &str, caps: &[&str]) -> JsResult<()> {
    if vm.host_state.contains(DISABLED_KEY) {
        let e = vm.make_error(
            ErrorKind::Error,
            &format!("node:fs is disabled by the run's policy (fs: disabled): {syscall} '{path}'"),
        );
        vm.roots.push(e);
        let code = vm.str("ERR_AMBER_POLICY");
        vm.set_property(e, "code", code);
        vm.roots.pop();
        return Err(Throw::Value(e));
    }
    if caps.iter().any(|cap| *cap != "FsRead") && vm.host_state.contains(READONLY_KEY) {
        return Err(uv_error(vm, VfsError::RoFs, syscall, Some(path), None));
    }
    // A delete before the first one was approved (approve_capabilities: FsDelete) cannot
    // wait here; the callback and promise forms ask first.
    if caps.contains(&"FsDelete") && capabilities::awaits_approval(vm, "FsDelete") {
        let instead = format!("fs.promises.{syscall} or the callback form");
        return Err(capabilities::approval_required(vm, "FsDelete", &format!("{syscall} '{path}'"), &instead));
    }
    // A live step's VFS writes would be lost on replay, which skips the step.
    if caps.iter().any(|cap| *cap != "FsRead") {
        vm.refuse_in_pure_step(&format!("node:fs {syscall} (a write) on '{path}'"))?;
    }
    for cap in caps {
        capabilities::touch(vm, cap);
    }
    Ok(())
}

const READ: &[&str] = &["FsRead"];
const WRITE: &[&str] = &["FsWrite"];
const DELETE: &[&str] = &["FsDelete"];

fn now(vm: &Vm) -> f64 {
    vm.clock_ms
}

fn type_code(t: FileType) -> i32 {
    // libuv's UV_DIRENT_* values, as Node's Dirent keeps them.
    match t {
        FileType::File => 1,
        FileType::Dir => 2,
        FileType::Symlink => 3,
    }
}

/// Node's stat array order: dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks,
/// atimeMs, mtimeMs, ctimeMs, birthtimeMs.
fn stat_array(vm: &mut Vm, s: &Stat) -> Value {
    let fields = [
        s.dev as f64,
        f64::from(s.mode),
        s.nlink as f64,
        f64::from(s.uid),
        f64::from(s.gid),
        s.rdev as f64,
        s.blksize as f64,
        s.ino as f64,
        s.size as f64,
        s.blocks as f64,
        s.atime_ms,
        s.mtime_ms,
        s.ctime_ms,
        s.birthtime_ms,
    ];
    let values = fields.iter().map(|&f| Value::number(f)).collect();
    vm.new_array(values)
}

// ---- natives

/// `cwd()`: the VFS working directory.
fn cwd(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let cwd = vm.vfs.cwd.clone();
    Ok(vm.str(&cwd))
}

/// `chdir(path)`.
fn chdir(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    vm.refuse_in_pure_step(&format!("process.chdir('{path}')"))?;
    let from = vm.vfs.cwd.clone();
    vm.vfs.set_cwd(&path).map_err(|e| uv_error(vm, e, "chdir", Some(&from), Some(&path)))?;
    Ok(Value::UNDEFINED)
}

/// `stat(path, follow, throwIfNoEntry)` → stat array, or undefined for a missing path when
/// `throwIfNoEntry` is false.
fn stat(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let follow = to_boolean(vm, arg(args, 1));
    let throw_missing = arg(args, 2).is_undefined() || to_boolean(vm, arg(args, 2));
    let syscall = if follow { "stat" } else { "lstat" };
    enter(vm, syscall, &path, READ)?;
    let r = if follow { vm.vfs.stat(&path) } else { vm.vfs.lstat(&path) };
    match r {
        Ok(s) => Ok(stat_array(vm, &s)),
        Err(VfsError::NoEnt | VfsError::NotDir) if !throw_missing => Ok(Value::UNDEFINED),
        Err(e) => Err(uv_error(vm, e, syscall, Some(&path), None)),
    }
}

/// `fstat(fd)`.
fn fstat(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    enter(vm, "fstat", "", READ)?;
    match vm.vfs.fstat(fd) {
        Ok(s) => Ok(stat_array(vm, &s)),
        Err(e) => Err(uv_error(vm, e, "fstat", None, None)),
    }
}

/// `exists(path)` → boolean (never throws for a missing path).
fn exists(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "access", &path, READ)?;
    Ok(Value::bool(vm.vfs.exists(&path)))
}

/// `access(path, mode)`.
fn access(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let mode = u64_arg(vm, args, 1)? as u32;
    enter(vm, "access", &path, READ)?;
    vm.vfs.access(&path, mode).map_err(|e| uv_error(vm, e, "access", Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `readFile(path)` → Buffer of the whole file.
fn read_file(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "open", &path, READ)?;
    match vm.vfs.read_file(&path) {
        Ok(bytes) => {
            let bytes = bytes.to_vec();
            new_buffer(vm, bytes)
        }
        // Node opens first, then fails the read of a directory without naming it.
        Err(VfsError::IsDir) => Err(uv_error(vm, VfsError::IsDir, "read", None, None)),
        Err(e) => Err(uv_error(vm, e, "open", Some(&path), None)),
    }
}

/// `readFd(fd)` → Buffer of the rest of the file from the descriptor's position.
fn read_fd(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    enter(vm, "read", "", READ)?;
    match vm.vfs.read_to_end(fd) {
        Ok(bytes) => new_buffer(vm, bytes),
        Err(e) => Err(uv_error(vm, e, "read", None, None)),
    }
}

/// `open(path, flags, mode)` → fd.
fn open(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let flags = u64_arg(vm, args, 1)? as u32;
    let mode = u64_arg(vm, args, 2)? as u32;
    let writes = flags & (amber_engine::vfs::O_ACCMODE | amber_engine::vfs::O_CREAT | amber_engine::vfs::O_TRUNC) != 0;
    enter(vm, "open", &path, if writes { WRITE } else { READ })?;
    let now = now(vm);
    match vm.vfs.open(&path, flags, mode, now) {
        Ok(fd) => Ok(Value::number(f64::from(fd))),
        Err(e) => Err(uv_error(vm, e, "open", Some(&path), None)),
    }
}

/// `close(fd)`.
fn close(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    vm.vfs.close(fd).map_err(|e| uv_error(vm, e, "close", None, None))?;
    Ok(Value::UNDEFINED)
}

/// `fsync(fd)`: nothing to flush; checks the descriptor.
fn fsync(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    match vm.vfs.fd(fd) {
        Ok(_) => Ok(Value::UNDEFINED),
        Err(e) => Err(uv_error(vm, e, "fsync", None, None)),
    }
}

/// `read(fd, view, offset, length, position)` → bytes read into `view[offset..]`.
fn read(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    let view = arg(args, 1);
    let offset = u64_arg(vm, args, 2)? as usize;
    let length = u64_arg(vm, args, 3)? as usize;
    let position = position_arg(vm, args, 4)?;
    enter(vm, "read", "", READ)?;
    let room = view_bytes(vm, view).map_or(0, |b| b.len().saturating_sub(offset));
    let bytes = vm.vfs.read(fd, length.min(room), position).map_err(|e| uv_error(vm, e, "read", None, None))?;
    with_view_bytes_mut(vm, view, |dst| {
        if let Some(dst) = dst.get_mut(offset..offset + bytes.len()) {
            dst.copy_from_slice(&bytes);
        }
    });
    Ok(Value::number(bytes.len() as f64))
}

/// `write(fd, view, offset, length, position)` → bytes written from `view[offset..]`.
fn write(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    let offset = u64_arg(vm, args, 2)? as usize;
    let length = u64_arg(vm, args, 3)? as usize;
    let position = position_arg(vm, args, 4)?;
    enter(vm, "write", "", WRITE)?;
    let data = view_bytes(vm, arg(args, 1))
        .and_then(|b| b.get(offset.min(b.len())..offset.saturating_add(length).min(b.len())).map(<[u8]>::to_vec))
        .unwrap_or_default();
    let now = now(vm);
    let n = vm.vfs.write(fd, &data, position, now).map_err(|e| uv_error(vm, e, "write", None, None))?;
    Ok(Value::number(n as f64))
}

/// `readdir(path)` → [names, types] (types: libuv dirent codes).
fn readdir(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "scandir", &path, READ)?;
    let entries = vm.vfs.read_dir(&path).map_err(|e| uv_error(vm, e, "scandir", Some(&path), None))?;
    let mut names = Vec::with_capacity(entries.len());
    for (name, _) in &entries {
        names.push(vm.str(name));
    }
    let types = entries.iter().map(|(_, t)| Value::int(type_code(*t))).collect();
    let base = vm.roots.len();
    vm.roots.extend(names.iter().copied());
    let names = vm.new_array(names);
    vm.roots.push(names);
    let types = vm.new_array(types);
    vm.roots.push(types);
    let pair = vm.new_array(vec![names, types]);
    vm.roots.truncate(base);
    Ok(pair)
}

/// `mkdir(path, recursive, mode)` → the first directory created (recursive) or undefined.
fn mkdir(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let recursive = to_boolean(vm, arg(args, 1));
    let mode = u64_arg(vm, args, 2)? as u32;
    enter(vm, "mkdir", &path, WRITE)?;
    let now = now(vm);
    if recursive {
        match vm.vfs.mkdir_all(&path, mode, now) {
            Ok(Some(first)) => Ok(vm.str(&first)),
            Ok(None) => Ok(Value::UNDEFINED),
            Err(e) => Err(uv_error(vm, e, "mkdir", Some(&path), None)),
        }
    } else {
        vm.vfs.mkdir(&path, mode, now).map_err(|e| uv_error(vm, e, "mkdir", Some(&path), None))?;
        Ok(Value::UNDEFINED)
    }
}

/// `rmdir(path)`.
fn rmdir(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "rmdir", &path, DELETE)?;
    let now = now(vm);
    vm.vfs.rmdir(&path, now).map_err(|e| uv_error(vm, e, "rmdir", Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `unlink(path)`.
fn unlink(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "unlink", &path, DELETE)?;
    let now = now(vm);
    vm.vfs.unlink(&path, now).map_err(|e| uv_error(vm, e, "unlink", Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `rm(path)`: remove a file, symlink or whole directory tree.
fn rm(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "rm", &path, DELETE)?;
    let now = now(vm);
    vm.vfs.remove_all(&path, now).map_err(|e| uv_error(vm, e, "rm", Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `rename(from, to)`.
fn rename(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let from = str_arg(vm, args, 0)?;
    let to = str_arg(vm, args, 1)?;
    enter(vm, "rename", &from, &["FsDelete", "FsWrite"])?;
    let now = now(vm);
    vm.vfs.rename(&from, &to, now).map_err(|e| uv_error(vm, e, "rename", Some(&from), Some(&to)))?;
    Ok(Value::UNDEFINED)
}

/// `copyFile(from, to, mode)`: `mode & COPYFILE_EXCL` (1) refuses an existing target.
fn copy_file(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let from = str_arg(vm, args, 0)?;
    let to = str_arg(vm, args, 1)?;
    let mode = u64_arg(vm, args, 2)?;
    enter(vm, "copyfile", &from, &["FsRead", "FsWrite"])?;
    let now = now(vm);
    vm.vfs
        .copy_file(&from, &to, mode & 1 != 0, now)
        .map_err(|e| uv_error(vm, e, "copyfile", Some(&from), Some(&to)))?;
    Ok(Value::UNDEFINED)
}

/// `symlink(target, path)`.
fn symlink(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let target = str_arg(vm, args, 0)?;
    let path = str_arg(vm, args, 1)?;
    enter(vm, "symlink", &path, WRITE)?;
    let now = now(vm);
    vm.vfs.symlink(&target, &path, now).map_err(|e| uv_error(vm, e, "symlink", Some(&target), Some(&path)))?;
    Ok(Value::UNDEFINED)
}

/// `readlink(path)`.
fn readlink(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "readlink", &path, READ)?;
    let target = vm.vfs.readlink(&path).map_err(|e| uv_error(vm, e, "readlink", Some(&path), None))?;
    Ok(vm.str(&target))
}

/// `link(existing, path)`.
fn link(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let existing = str_arg(vm, args, 0)?;
    let path = str_arg(vm, args, 1)?;
    enter(vm, "link", &path, WRITE)?;
    let now = now(vm);
    vm.vfs.link(&existing, &path, now).map_err(|e| uv_error(vm, e, "link", Some(&existing), Some(&path)))?;
    Ok(Value::UNDEFINED)
}

/// `realpath(path)` → the canonical absolute path. Node's JS realpath reports a missing
/// component as a failed `lstat` of the absolute path.
fn realpath(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    enter(vm, "realpath", &path, READ)?;
    match vm.vfs.realpath(&path) {
        Ok(p) => Ok(vm.str(&p)),
        Err(e) => {
            let abs = vm.vfs.resolve(&path).unwrap_or_else(|_| path.clone());
            Err(uv_error(vm, e, "lstat", Some(&abs), None))
        }
    }
}

/// `truncate(path, len)`.
fn truncate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let len = u64_arg(vm, args, 1)?;
    enter(vm, "open", &path, WRITE)?;
    let now = now(vm);
    match vm.vfs.truncate(&path, len, now) {
        Ok(()) => Ok(Value::UNDEFINED),
        Err(VfsError::IsDir) => Err(uv_error(vm, VfsError::IsDir, "open", Some(&path), None)),
        Err(e @ (VfsError::NoSpc | VfsError::FBig)) => Err(uv_error(vm, e, "ftruncate", None, None)),
        Err(e) => Err(uv_error(vm, e, "open", Some(&path), None)),
    }
}

/// `ftruncate(fd, len)`.
fn ftruncate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    let len = u64_arg(vm, args, 1)?;
    enter(vm, "ftruncate", "", WRITE)?;
    let now = now(vm);
    vm.vfs.ftruncate(fd, len, now).map_err(|e| uv_error(vm, e, "ftruncate", None, None))?;
    Ok(Value::UNDEFINED)
}

/// `chmod(path, mode)`.
fn chmod(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let mode = u64_arg(vm, args, 1)? as u32;
    enter(vm, "chmod", &path, WRITE)?;
    let now = now(vm);
    vm.vfs.chmod(&path, mode, now).map_err(|e| uv_error(vm, e, "chmod", Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `utimes(path, atimeMs, mtimeMs, follow)`.
fn utimes(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let path = str_arg(vm, args, 0)?;
    let atime = num_arg(vm, args, 1)?;
    let mtime = num_arg(vm, args, 2)?;
    let follow = to_boolean(vm, arg(args, 3));
    let syscall = if follow { "utime" } else { "lutime" };
    enter(vm, syscall, &path, WRITE)?;
    let now = now(vm);
    vm.vfs.utimes(&path, atime, mtime, follow, now).map_err(|e| uv_error(vm, e, syscall, Some(&path), None))?;
    Ok(Value::UNDEFINED)
}

/// `futimes(fd, atimeMs, mtimeMs)`.
fn futimes(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = fd_arg(vm, args, 0)?;
    let atime = num_arg(vm, args, 1)?;
    let mtime = num_arg(vm, args, 2)?;
    enter(vm, "futime", "", WRITE)?;
    let now = now(vm);
    let path = vm.vfs.fd(fd).map(|f| f.path.clone()).map_err(|e| uv_error(vm, e, "futime", None, None))?;
    vm.vfs.utimes(&path, atime, mtime, true, now).map_err(|e| uv_error(vm, e, "futime", None, None))?;
    Ok(Value::UNDEFINED)
}

/// `mkdtemp(prefix)` → the new directory's path (as spelled by the prefix).
fn mkdtemp(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let prefix = str_arg(vm, args, 0)?;
    enter(vm, "mkdtemp", &prefix, WRITE)?;
    let now = now(vm);
    match vm.vfs.mkdtemp(&prefix, now) {
        Ok(p) => Ok(vm.str(&p)),
        Err(e) => Err(uv_error(vm, e, "mkdtemp", Some(&format!("{prefix}XXXXXX")), None)),
    }
}
