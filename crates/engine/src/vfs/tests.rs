use super::*;

fn vfs() -> Vfs {
    Vfs::new()
}

#[test]
fn write_read_stat() {
    let mut v = vfs();
    v.write_file("/a.txt", b"hello", 10.0).unwrap();
    assert_eq!(v.read_file("a.txt").unwrap(), b"hello");
    let st = v.stat("/a.txt").unwrap();
    assert_eq!(st.size, 5);
    assert_eq!(st.mode, S_IFREG | 0o644);
    assert_eq!(st.mtime_ms, 10.0);
    assert_eq!(st.birthtime_ms, 10.0);
    assert_eq!(st.ino, 2);
    v.append_file("/a.txt", b"!", 20.0).unwrap();
    assert_eq!(v.read_file("/a.txt").unwrap(), b"hello!");
    let st = v.stat("/a.txt").unwrap();
    assert_eq!((st.mtime_ms, st.birthtime_ms), (20.0, 10.0));
    assert_eq!(v.used_bytes(), 6);
    assert_eq!(v.stat("/").unwrap().mode, S_IFDIR | 0o755);
}

#[test]
fn errors_match_posix() {
    let mut v = vfs();
    assert_eq!(v.read_file("/nope"), Err(VfsError::NoEnt));
    assert_eq!(v.read_file("/"), Err(VfsError::IsDir));
    v.write_file("/f", b"x", 0.0).unwrap();
    assert_eq!(v.read_file("/f/x"), Err(VfsError::NotDir));
    assert_eq!(v.read_file("/f/"), Err(VfsError::NotDir));
    assert_eq!(v.mkdir("/f", 0o777, 0.0), Err(VfsError::Exist));
    assert_eq!(v.mkdir("/a/b", 0o777, 0.0), Err(VfsError::NoEnt));
    assert_eq!(v.write_file("/d/", b"", 0.0), Err(VfsError::IsDir));
    v.mkdir("/d", 0o777, 0.0).unwrap();
    v.write_file("/d/x", b"", 0.0).unwrap();
    assert_eq!(v.rmdir("/d", 0.0), Err(VfsError::NotEmpty));
    assert_eq!(v.unlink("/d", 0.0), Err(VfsError::IsDir));
    assert_eq!(v.rmdir("/f", 0.0), Err(VfsError::NotDir));
    assert_eq!(v.write_file("/d", b"", 0.0), Err(VfsError::IsDir));
    assert_eq!(v.read_file(""), Err(VfsError::NoEnt));
    assert_eq!(v.read_file("a\0"), Err(VfsError::Inval));
    assert_eq!(v.read_file(&"x".repeat(300)), Err(VfsError::NameTooLong));
}

#[test]
fn directories() {
    let mut v = vfs();
    assert_eq!(v.mkdir_all("/a/b/c", 0o777, 1.0).unwrap().as_deref(), Some("/a"));
    assert_eq!(v.mkdir_all("/a/b/c", 0o777, 1.0).unwrap(), None);
    assert_eq!(v.mkdir_all("/a/b/c/d", 0o777, 1.0).unwrap().as_deref(), Some("/a/b/c/d"));
    v.write_file("/a/z", b"", 2.0).unwrap();
    v.write_file("/a/m", b"", 2.0).unwrap();
    let names: Vec<_> = v.read_dir("/a").unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["b", "m", "z"]);
    assert_eq!(v.read_dir("/a").unwrap()[0].1, FileType::Dir);
    assert_eq!(v.stat("/a").unwrap().mtime_ms, 2.0);
    assert_eq!(v.stat("/a").unwrap().nlink, 3);
    assert_eq!(v.mkdir_all("/a/z/q", 0o777, 1.0), Err(VfsError::NotDir));
    assert_eq!(v.mkdir_all("/a/z", 0o777, 1.0), Err(VfsError::Exist));
    assert_eq!(v.rmdir("/a/b/c", 0.0), Err(VfsError::NotEmpty));
    v.rmdir("/a/b/c/d", 0.0).unwrap();
    v.remove_all("/a", 3.0).unwrap();
    assert!(!v.exists("/a"));
    assert_eq!(v.inode_count(), 1);
    assert_eq!(v.rmdir("/", 0.0), Err(VfsError::Busy));
}

#[test]
fn rename_rules() {
    let mut v = vfs();
    v.mkdir_all("/d/e", 0o777, 0.0).unwrap();
    v.write_file("/f", b"1", 0.0).unwrap();
    v.write_file("/g", b"2", 0.0).unwrap();
    v.rename("/f", "/g", 5.0).unwrap();
    assert_eq!(v.read_file("/g").unwrap(), b"1");
    assert!(!v.exists("/f"));
    assert_eq!(v.used_bytes(), 1);
    assert_eq!(v.rename("/d", "/d/e/x", 0.0), Err(VfsError::Inval));
    assert_eq!(v.rename("/g", "/d", 0.0), Err(VfsError::IsDir));
    assert_eq!(v.rename("/d", "/g", 0.0), Err(VfsError::NotDir));
    v.mkdir("/empty", 0o777, 0.0).unwrap();
    v.rename("/d", "/empty", 0.0).unwrap();
    assert!(v.exists("/empty/e"));
    v.mkdir("/full", 0o777, 0.0).unwrap();
    v.write_file("/full/x", b"", 0.0).unwrap();
    assert_eq!(v.rename("/empty", "/full", 0.0), Err(VfsError::NotEmpty));
    assert_eq!(v.rename("/nope", "/x", 0.0), Err(VfsError::NoEnt));
    v.rename("/g", "/g", 0.0).unwrap();
    v.cwd = "/empty/e".into();
    v.rename("/empty", "/moved", 0.0).unwrap();
    assert_eq!(v.cwd, "/moved/e");
}

#[test]
fn symlinks() {
    let mut v = vfs();
    v.mkdir_all("/real/dir", 0o777, 0.0).unwrap();
    v.write_file("/real/dir/f", b"data", 0.0).unwrap();
    v.symlink("real/dir", "/link", 0.0).unwrap();
    v.symlink("../real/dir/f", "/real/lf", 0.0).unwrap();
    assert_eq!(v.read_file("/link/f").unwrap(), b"data");
    assert_eq!(v.read_file("/real/lf").unwrap(), b"data");
    assert_eq!(v.realpath("/link/f").unwrap(), "/real/dir/f");
    assert_eq!(v.realpath("/real/lf").unwrap(), "/real/dir/f");
    assert_eq!(v.lstat("/link").unwrap().file_type(), Some(FileType::Symlink));
    assert_eq!(v.stat("/link").unwrap().file_type(), Some(FileType::Dir));
    assert_eq!(v.readlink("/link").unwrap(), "real/dir");
    assert_eq!(v.readlink("/real"), Err(VfsError::Inval));
    v.symlink("/loop2", "/loop1", 0.0).unwrap();
    v.symlink("/loop1", "/loop2", 0.0).unwrap();
    assert_eq!(v.read_file("/loop1"), Err(VfsError::Loop));
    // A dangling link: writing through it creates the target.
    v.symlink("/made", "/dangling", 0.0).unwrap();
    assert!(!v.exists("/dangling"));
    v.write_file("/dangling", b"x", 0.0).unwrap();
    assert_eq!(v.read_file("/made").unwrap(), b"x");
    // unlink removes the link, not the target.
    v.unlink("/link", 0.0).unwrap();
    assert!(v.exists("/real/dir/f"));
    v.remove_all("/real/lf", 0.0).unwrap();
    assert!(v.exists("/real/dir/f"));
}

#[test]
fn descriptors() {
    let mut v = vfs();
    let fd = v.open("/f", O_CREAT | O_RDWR, 0o600, 1.0).unwrap();
    assert_eq!(fd, 3);
    assert_eq!(v.write(fd, b"hello world", None, 2.0).unwrap(), 11);
    assert_eq!(v.read(fd, 5, Some(0)).unwrap(), b"hello");
    assert_eq!(v.read(fd, 5, None).unwrap(), b"");
    v.write(fd, b"W", Some(6), 2.0).unwrap();
    assert_eq!(v.read_file("/f").unwrap(), b"hello World");
    assert_eq!(v.fstat(fd).unwrap().mode, S_IFREG | 0o600);
    let fd2 = v.open("/f", O_RDONLY, 0, 0.0).unwrap();
    assert_eq!(fd2, 4);
    assert_eq!(v.write(fd2, b"x", None, 0.0), Err(VfsError::BadF));
    assert_eq!(v.read_to_end(fd2).unwrap(), b"hello World");
    // Unlinked but open: still readable; dropped on close.
    v.unlink("/f", 3.0).unwrap();
    assert_eq!(v.read(fd2, 5, Some(0)).unwrap(), b"hello");
    v.close(fd2).unwrap();
    assert_eq!(v.inode_count(), 2);
    v.close(fd).unwrap();
    assert_eq!(v.inode_count(), 1);
    assert_eq!(v.used_bytes(), 0);
    assert_eq!(v.close(fd), Err(VfsError::BadF));
    assert_eq!(v.open("/nope", O_RDONLY, 0, 0.0), Err(VfsError::NoEnt));
    assert_eq!(v.open("/", O_WRONLY, 0, 0.0), Err(VfsError::IsDir));
    v.write_file("/e", b"abc", 0.0).unwrap();
    assert_eq!(v.open("/e", O_CREAT | O_EXCL | O_WRONLY, 0o666, 0.0), Err(VfsError::Exist));
    let fd = v.open("/e", O_APPEND | O_WRONLY, 0, 0.0).unwrap();
    v.write(fd, b"d", Some(0), 0.0).unwrap();
    assert_eq!(v.read_file("/e").unwrap(), b"abcd");
    let fd = v.open("/e", O_TRUNC | O_WRONLY, 0, 0.0).unwrap();
    assert_eq!(v.read_file("/e").unwrap(), b"");
    v.write(fd, b"z", Some(3), 0.0).unwrap();
    assert_eq!(v.read_file("/e").unwrap(), b"\0\0\0z");
}

#[test]
fn limits() {
    let mut v = vfs();
    v.limits.max_file_bytes = 10;
    v.limits.max_total_bytes = 15;
    assert_eq!(v.write_file("/big", &[0; 11], 0.0), Err(VfsError::FBig));
    v.write_file("/a", &[0; 10], 0.0).unwrap();
    assert_eq!(v.write_file("/b", &[0; 6], 0.0), Err(VfsError::NoSpc));
    v.write_file("/b", &[0; 5], 0.0).unwrap();
    assert_eq!(v.truncate("/b", 100, 0.0), Err(VfsError::FBig));
    let fd = v.open("/b", O_WRONLY, 0, 0.0).unwrap();
    assert_eq!(v.write(fd, b"x", Some(10), 0.0), Err(VfsError::FBig));
    v.close(fd).unwrap();
    v.write_file("/a", b"", 0.0).unwrap();
    assert_eq!(v.used_bytes(), 5);
    // /a, /b and /big (created before its write failed, as open+write would); the root is
    // not counted.
    assert_eq!(v.upper_entries(), 3);
    v.limits.max_entries = 4;
    v.mkdir("/c", 0o777, 0.0).unwrap();
    assert_eq!(v.mkdir("/d", 0o777, 0.0), Err(VfsError::NoSpc));
    v.limits.max_open_files = 1;
    let fd = v.open("/a", O_RDONLY, 0, 0.0).unwrap();
    assert_eq!(v.open("/a", O_RDONLY, 0, 0.0), Err(VfsError::MFile));
    v.close(fd).unwrap();
}

#[test]
fn copy_link_truncate_chmod_access() {
    let mut v = vfs();
    v.write_file("/src", b"abc", 0.0).unwrap();
    v.chmod("/src", 0o640, 1.0).unwrap();
    v.copy_file("/src", "/dst", false, 2.0).unwrap();
    assert_eq!(v.read_file("/dst").unwrap(), b"abc");
    assert_eq!(v.stat("/dst").unwrap().mode & 0o777, 0o640);
    assert_eq!(v.copy_file("/src", "/dst", true, 2.0), Err(VfsError::Exist));
    v.link("/src", "/hard", 0.0).unwrap();
    assert_eq!(v.stat("/src").unwrap().nlink, 2);
    v.unlink("/src", 0.0).unwrap();
    assert_eq!(v.read_file("/hard").unwrap(), b"abc");
    v.truncate("/hard", 1, 0.0).unwrap();
    assert_eq!(v.read_file("/hard").unwrap(), b"a");
    v.access("/hard", 4 | 2).unwrap();
    assert_eq!(v.access("/hard", 1), Err(VfsError::Acces));
    v.chmod("/hard", 0o444, 0.0).unwrap();
    assert_eq!(v.access("/hard", 2), Err(VfsError::Acces));
    v.utimes("/hard", 5.0, 6.0, true, 7.0).unwrap();
    let st = v.stat("/hard").unwrap();
    assert_eq!((st.atime_ms, st.mtime_ms, st.ctime_ms), (5.0, 6.0, 7.0));
}

#[test]
fn mkdtemp_and_cwd() {
    let mut v = vfs();
    v.mkdir("/tmp", 0o777, 0.0).unwrap();
    let a = v.mkdtemp("/tmp/x-", 0.0).unwrap();
    let b = v.mkdtemp("/tmp/x-", 0.0).unwrap();
    assert_ne!(a, b);
    assert_eq!(a.len(), "/tmp/x-".len() + 6);
    assert_eq!(v.stat(&a).unwrap().mode & 0o777, 0o700);
    let mut w = vfs();
    w.mkdir("/tmp", 0o777, 0.0).unwrap();
    assert_eq!(w.mkdtemp("/tmp/x-", 0.0).unwrap(), a, "deterministic");
    v.set_cwd("/tmp").unwrap();
    v.write_file("rel", b"", 0.0).unwrap();
    assert!(v.exists("/tmp/rel"));
    assert_eq!(v.set_cwd("/tmp/rel"), Err(VfsError::NotDir));
    assert_eq!(v.rmdir("/tmp", 0.0), Err(VfsError::NotEmpty));
    v.remove_all("/tmp", 0.0).unwrap();
    assert_eq!(v.cwd, "/");
}

#[test]
fn walk_tree_and_serde() {
    let mut v = vfs();
    v.mkdir_all("/b/c", 0o777, 0.0).unwrap();
    v.write_file("/a", b"1", 0.0).unwrap();
    v.write_file("/b/c/d", b"2", 0.0).unwrap();
    v.symlink("/a", "/b/l", 0.0).unwrap();
    let tree: Vec<_> = v.walk_tree().into_iter().map(|(p, _)| p).collect();
    assert_eq!(tree, ["/a", "/b", "/b/c", "/b/c/d", "/b/l"]);
    let cfg = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(&v, cfg).unwrap();
    let (back, _): (Vfs, usize) = bincode::serde::decode_from_slice(&bytes, cfg).unwrap();
    assert_eq!(back, v);
}

#[test]
fn crafted_cycles_do_not_hang() {
    let mut v = vfs();
    v.mkdir("/d", 0o777, 0.0).unwrap();
    let d = v.lookup("/d", true).unwrap().ino;
    // A directory that contains itself (only a crafted image can say this).
    v.dir_entries_mut(d).unwrap().insert("self".into(), d);
    v.dir_entries_mut(d).unwrap().insert("ghost".into(), 999);
    assert!(v.exists("/d/self/self/self"));
    assert_eq!(v.read_file("/d/ghost"), Err(VfsError::NoEnt));
    let _ = v.walk_tree();
    let _ = v.stat("/d");
    v.remove_all("/d", 0.0).unwrap();
    assert_eq!(v.inode_count(), 1);
}
