//! The overlay VFS end to end (docs/vfs.md): a temp host folder as the lower layer, real
//! `amber` processes for run, resume and replay, and the host folder changed or deleted in
//! between.
#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Sandbox};

/// A program that suspends on `amber.call("wait")` between two halves.
fn two_halves(before: &str, after: &str) -> String {
    format!("const fs = require('fs');\n{before}\namber.call('wait', {{}}).then(() => {{\n{after}\n}});\n")
}

#[test]
fn a_file_changed_on_the_host_after_the_first_read_keeps_its_old_bytes() {
    let sb = Sandbox::new("overlay-capture");
    sb.write("data.txt", "first");
    sb.write(
        "main.js",
        &two_halves(
            "console.log(fs.readFileSync('data.txt', 'utf8'));",
            "console.log(fs.readFileSync('data.txt', 'utf8'), fs.statSync('data.txt').size);",
        ),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "first\n"), "{}", run.stderr);
    sb.write("data.txt", "second, longer");
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, "first 5\n"), "{}", resumed.stderr);
    // Replay from the top with the file gone from the host: the journal and the store answer.
    std::fs::remove_file(sb.dir.join("data.txt")).unwrap();
    let replay = sb.amber(&["replay", "s", "--print"]);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert_eq!(replay.stdout, "first\nfirst 5\n");
}

#[test]
fn a_module_tree_deleted_on_the_host_still_loads_on_resume_and_replay() {
    let sb = Sandbox::new("overlay-modules");
    sb.write("package.json", "{\"name\": \"app\"}");
    sb.write("node_modules/double/package.json", "{\"name\": \"double\", \"main\": \"lib/main.js\"}");
    sb.write("node_modules/double/lib/main.js", "module.exports = (x) => x * 2;");
    sb.write("node_modules/triple/index.js", "module.exports = (x) => x * 3;");
    sb.write(
        "main.js",
        &two_halves("console.log(require('double')(21));", "console.log(require('double')(1), require('triple')(2));"),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "42\n"), "{}", run.stderr);
    // `double` was read before the suspension; `triple` is first read after it, so it must
    // still exist on the host when the run resumes.
    std::fs::remove_dir_all(sb.dir.join("node_modules/double")).unwrap();
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, "2 6\n"), "{}", resumed.stderr);
    std::fs::remove_dir_all(sb.dir.join("node_modules")).unwrap();
    let replay = sb.amber(&["replay", "s", "--print"]);
    assert_eq!((replay.code, replay.stdout.as_str()), (0, "42\n2 6\n"), "{}", replay.stderr);
}

#[test]
fn writes_copy_up_and_deletes_white_out_without_touching_the_host() {
    let sb = Sandbox::new("overlay-upper");
    sb.write("keep.txt", "lower keep");
    sb.write("gone.txt", "lower gone");
    sb.write("dir/inner.txt", "inner");
    sb.write(
        "main.js",
        &two_halves(
            "fs.appendFileSync('keep.txt', ' + upper');\n\
             fs.unlinkSync('gone.txt');\n\
             fs.writeFileSync('new.txt', 'brand new');\n\
             fs.renameSync('dir', 'moved');\n\
             console.log(fs.readdirSync('.').filter((n) => n !== 'store').join(','));",
            "console.log(fs.readFileSync('keep.txt', 'utf8'), fs.existsSync('gone.txt'), fs.existsSync('dir'));\n\
             console.log(fs.readFileSync('moved/inner.txt', 'utf8'), fs.readdirSync('moved').join(','));\n\
             try { fs.rmdirSync('moved'); } catch (e) { console.log(e.code); }\n\
             fs.rmSync('moved', { recursive: true });\n\
             console.log(fs.readdirSync('.').filter((n) => n !== 'store').join(','));",
        ),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert_eq!(run.stdout, "keep.txt,main.js,moved,new.txt\n");
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(
        resumed.stdout,
        "lower keep + upper false false\ninner inner.txt\nENOTEMPTY\nkeep.txt,main.js,new.txt\n"
    );
    // The host folder is unchanged.
    assert_eq!(std::fs::read_to_string(sb.dir.join("keep.txt")).unwrap(), "lower keep");
    assert!(sb.dir.join("gone.txt").exists() && sb.dir.join("dir/inner.txt").exists());
    assert!(!sb.dir.join("new.txt").exists() && !sb.dir.join("moved").exists());
}

#[test]
fn nothing_outside_the_folder_is_reachable() {
    let sb = Sandbox::new("overlay-escape");
    let outside = Sandbox::new("overlay-escape-outside");
    outside.write("secret.txt", "outside secret");
    let project = sb.dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::os::unix::fs::symlink(outside.dir.join("secret.txt"), project.join("abs-link")).unwrap();
    std::os::unix::fs::symlink("../../../../../../../../etc/passwd", project.join("rel-link")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", project.join("environ")).unwrap();
    std::fs::write(project.join("inside.txt"), "inside").unwrap();
    std::os::unix::fs::symlink("inside.txt", project.join("good-link")).unwrap();
    let secret = outside.dir.join("secret.txt").display().to_string();
    std::fs::write(
        project.join("main.js"),
        format!(
            "const fs = require('fs');\n\
             for (const p of ['abs-link', 'rel-link', 'environ', '../outside.txt', '/etc/passwd', {secret:?}]) {{\n\
               try {{ fs.readFileSync(p); console.log(p, 'READ'); }} catch (e) {{ console.log(e.code); }}\n\
             }}\n\
             console.log(fs.readFileSync('good-link', 'utf8'), fs.readlinkSync('abs-link') === {secret:?});\n"
        ),
    )
    .unwrap();
    let out = sb.amber_in(&project, &["run", "main.js"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "ENOENT\nENOENT\nENOENT\nENOENT\nENOENT\nENOENT\ninside true\n");
}

#[test]
fn secrets_are_hidden_by_default_and_never_stored() {
    let sb = Sandbox::new("overlay-secrets");
    let canary = "CANARY-7f3a9c-private-key";
    sb.write(".ssh/id_ed25519", canary);
    sb.write(".env", canary);
    sb.write(".env.local", canary);
    sb.write("tls/server.pem", canary);
    sb.write(".git/config", canary);
    sb.write("build/cache.bin", canary);
    sb.write(".amberignore", "build/\n");
    sb.write("visible.txt", "visible");
    sb.write(
        "main.js",
        "const fs = require('fs');\n\
         for (const p of ['.ssh/id_ed25519', '.env', '.env.local', 'tls/server.pem', '.git/config', 'build/cache.bin', '.amberignore']) {\n\
           console.log(p, fs.existsSync(p));\n\
         }\n\
         console.log(fs.readdirSync('.').filter((n) => n !== 'store').join(','), fs.readdirSync('tls').length);\n\
         amber.call('wait', {});\n",
    );
    let out = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        ".ssh/id_ed25519 false\n.env false\n.env.local false\ntls/server.pem false\n.git/config false\n\
         build/cache.bin false\n.amberignore false\nmain.js,tls,visible.txt 0\n"
    );
    let mut stored = Vec::new();
    for entry in std::fs::read_dir(sb.store()).unwrap().flatten() {
        stored.extend(std::fs::read(entry.path()).unwrap_or_default());
    }
    assert!(!stored.windows(canary.len()).any(|w| w == canary.as_bytes()), "the canary reached the store");
    // Granted back explicitly, a hidden file is readable.
    sb.write("show.js", "const fs = require('fs'); console.log(fs.readFileSync('.env', 'utf8') === process.argv[2]);");
    let shown = sb.amber(&["run", "--fs-reveal", ".env", "show.js", canary]);
    assert_eq!((shown.code, shown.stdout.as_str()), (0, "true\n"), "{}", shown.stderr);
}

#[test]
fn an_image_with_an_open_descriptor_on_a_lower_file_reads_on_after_resume() {
    let sb = Sandbox::new("overlay-fd");
    sb.write("big.txt", "0123456789abcdef");
    sb.write(
        "main.js",
        &two_halves(
            "const fd = fs.openSync('big.txt', 'r');\nconst b = Buffer.alloc(4);\n\
             fs.readSync(fd, b, 0, 4, null); console.log(b.toString()); globalThis.fd = fd;",
            "const b = Buffer.alloc(6); fs.readSync(globalThis.fd, b, 0, 6, null); console.log(b.toString());\n\
             fs.closeSync(globalThis.fd);",
        ),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "0123\n"), "{}", run.stderr);
    std::fs::write(sb.dir.join("big.txt"), "changed on the host").unwrap();
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, "456789\n"), "{}", resumed.stderr);
}

#[test]
fn a_script_in_a_huge_folder_runs_without_reading_it() {
    let sb = Sandbox::new("overlay-huge");
    let many = sb.dir.join("many");
    std::fs::create_dir_all(&many).unwrap();
    for i in 0..200_000 {
        std::fs::File::create(many.join(format!("f{i}"))).unwrap();
    }
    sb.write("main.js", "console.log(require('fs').existsSync('many/f199999'));");
    let out = sb.amber(&["run", "main.js"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "true\n"), "{}", out.stderr);
}

#[test]
fn fs_diff_lists_the_changes_and_commit_writes_them_unless_the_host_changed() {
    let sb = Sandbox::new("overlay-commit");
    sb.write("edit.txt", "old");
    sb.write("gone.txt", "bye");
    sb.write("same.txt", "same");
    sb.write(
        "main.js",
        "const fs = require('fs');\n\
         fs.writeFileSync('edit.txt', 'new');\n\
         fs.unlinkSync('gone.txt');\n\
         fs.mkdirSync('out');\n\
         fs.writeFileSync('out/report.md', '# report');\n\
         fs.readFileSync('same.txt');\n\
         amber.call('wait', {});\n",
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let root = std::fs::canonicalize(&sb.dir).unwrap().display().to_string();
    let diff = sb.amber(&["fs", "diff", "s"]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert_eq!(diff.stdout, format!("M {root}/edit.txt\nD {root}/gone.txt\nA {root}/out/\nA {root}/out/report.md\n"));
    // A file the run read changed on the host: nothing is written.
    sb.write("edit.txt", "someone else's edit");
    let refused = sb.amber(&["fs", "commit", "s"]);
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    assert!(refused.stderr.contains("edit.txt: changed on the host since the run read it"), "{}", refused.stderr);
    assert!(sb.dir.join("gone.txt").exists() && !sb.dir.join("out").exists());
    // Put it back: the commit goes through.
    sb.write("edit.txt", "old");
    let committed = sb.amber(&["fs", "commit", "s"]);
    assert_eq!(committed.code, 0, "{}", committed.stderr);
    assert_eq!(std::fs::read_to_string(sb.dir.join("edit.txt")).unwrap(), "new");
    assert_eq!(std::fs::read_to_string(sb.dir.join("out/report.md")).unwrap(), "# report");
    assert!(!sb.dir.join("gone.txt").exists());
    assert_eq!(std::fs::read_to_string(sb.dir.join("same.txt")).unwrap(), "same");
    // --to writes the same changes into another folder.
    let other = Sandbox::new("overlay-commit-to");
    let to = sb.amber(&["fs", "commit", "s", "--to", other.dir.to_str().unwrap()]);
    assert_eq!(to.code, 0, "{}", to.stderr);
    assert_eq!(std::fs::read_to_string(other.dir.join("out/report.md")).unwrap(), "# report");
}

#[test]
fn fs_rollback_discards_the_changes_is_journaled_and_replays() {
    let sb = Sandbox::new("overlay-rollback");
    sb.write("edit.txt", "old");
    sb.write("gone.txt", "bye");
    sb.write(
        "main.js",
        &two_halves(
            "fs.writeFileSync('edit.txt', 'new');\n\
             fs.unlinkSync('gone.txt');\n\
             fs.writeFileSync('added.txt', 'added');\n\
             console.log(fs.readFileSync('edit.txt', 'utf8'), fs.existsSync('gone.txt'));",
            "console.log(fs.readFileSync('edit.txt', 'utf8'), fs.existsSync('gone.txt'), fs.existsSync('added.txt'));\n\
             fs.writeFileSync('after.txt', 'after');",
        ),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "new false\n"), "{}", run.stderr);
    let diff = sb.amber(&["fs", "diff", "s"]);
    assert_eq!(diff.stdout.lines().count(), 3, "{}", diff.stdout);
    let rolled = sb.amber(&["fs", "rollback", "s"]);
    assert_eq!(rolled.code, 0, "{}", rolled.stderr);
    assert!(rolled.stderr.contains("discarded 3 change(s) of session s"), "{}", rolled.stderr);
    let diff = sb.amber(&["fs", "diff", "s"]);
    assert_eq!((diff.code, diff.stdout.as_str()), (0, ""), "{}", diff.stderr);
    // The host folder was never touched; the resumed program sees it as it was.
    assert_eq!(std::fs::read_to_string(sb.dir.join("edit.txt")).unwrap(), "old");
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, "old true false\n"), "{}", resumed.stderr);
    let root = std::fs::canonicalize(&sb.dir).unwrap().display().to_string();
    let diff = sb.amber(&["fs", "diff", "s"]);
    assert_eq!(diff.stdout, format!("A {root}/after.txt\n"));
    // Replay from the top applies the rollback at the suspension, and again after the end.
    let rolled = sb.amber(&["fs", "rollback", "s"]);
    assert_eq!(rolled.code, 0, "{}", rolled.stderr);
    assert!(rolled.stderr.contains("discarded 1 change(s)"), "{}", rolled.stderr);
    let replay = sb.amber(&["replay", "s", "--print"]);
    assert_eq!((replay.code, replay.stdout.as_str()), (0, "new false\nold true false\n"), "{}", replay.stderr);
    let journal = sb.amber(&["log", "s"]);
    assert_eq!(journal.stdout.matches("fs-rollback").count(), 2, "{}", journal.stdout);
}

#[test]
fn a_rollback_after_a_commit_shows_the_folder_as_first_read_and_diffs_stay_empty() {
    // The commit changes the host; the rollback must not make the session see those host
    // changes (it once re-read every path from the host: `edit.txt` came back as the committed
    // "new", and the diff reported `gone.txt`, deleted by the commit, as the session's own).
    let sb = Sandbox::new("overlay-commit-rollback");
    sb.write("edit.txt", "old");
    sb.write("gone.txt", "bye");
    sb.write("keep.txt", "keep");
    sb.write(
        "main.js",
        "const fs = require('fs');\n\
         console.log(1, fs.readdirSync('.').join());\n\
         fs.writeFileSync('edit.txt', 'new');\n\
         fs.unlinkSync('gone.txt');\n\
         fs.writeFileSync('added.txt', 'added');\n\
         amber.call('wait', {}).then(() => {\n\
           fs.writeFileSync('edit.txt', 'newer');\n\
           fs.mkdirSync('out');\n\
           fs.writeFileSync('out/r.md', '# r');\n\
           fs.unlinkSync('keep.txt');\n\
           return amber.call('wait', {});\n\
         }).then(() => {\n\
           const seen = ['gone.txt', 'added.txt', 'keep.txt', 'out'].map((f) => fs.existsSync(f));\n\
           console.log(3, fs.readdirSync('.').join(), fs.readFileSync('edit.txt', 'utf8'), seen.join());\n\
           fs.writeFileSync('last.txt', 'last');\n\
         });\n",
    );
    let root = std::fs::canonicalize(&sb.dir).unwrap().display().to_string();
    // The store (`store/`, made by this first run) is hidden although it did not exist yet
    // when the folder was opened.
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "1 edit.txt,gone.txt,keep.txt,main.js\n"), "{}", run.stderr);
    expect(&sb.amber(&["fs", "commit", "s"]), 0);
    assert_eq!(std::fs::read_to_string(sb.dir.join("edit.txt")).unwrap(), "new");
    expect(&sb.amber(&["resume", "s", "--resolve", "1=null"]), 75);
    let rolled = sb.amber(&["fs", "rollback", "s"]);
    expect(&rolled, 0);
    assert!(rolled.stderr.contains("discarded 6 change(s)"), "{}", rolled.stderr);
    for _ in 0..2 {
        let diff = sb.amber(&["fs", "diff", "s"]);
        assert_eq!((diff.code, diff.stdout.as_str()), (0, ""), "{}", diff.stderr);
    }
    let nothing = sb.amber(&["fs", "commit", "s"]);
    expect(&nothing, 0);
    assert!(nothing.stderr.contains("committed 0 change(s)"), "{}", nothing.stderr);
    // The program sees what the run first read, though the host holds the commit.
    let resumed = sb.amber(&["resume", "s", "--resolve", "2=null"]);
    let seen = "3 edit.txt,gone.txt,keep.txt,main.js old true,false,true,false\n";
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, seen), "{}", resumed.stderr);
    for _ in 0..2 {
        let diff = sb.amber(&["fs", "diff", "s"]);
        assert_eq!(diff.stdout, format!("A {root}/last.txt\n"), "{}", diff.stderr);
    }
    expect(&sb.amber(&["fs", "commit", "s"]), 0);
    assert_eq!(std::fs::read_to_string(sb.dir.join("last.txt")).unwrap(), "last");
    assert_eq!(std::fs::read_to_string(sb.dir.join("edit.txt")).unwrap(), "new", "the first commit stands");
    let replay = sb.amber(&["replay", "s", "--print"]);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert_eq!(replay.stdout, format!("1 edit.txt,gone.txt,keep.txt,main.js\n{seen}"));
}

#[test]
fn fs_rollback_of_an_unknown_session_is_refused() {
    let sb = Sandbox::new("overlay-rollback-refused");
    sb.write("main.js", "amber.call('wait', {});\n");
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let missing = sb.amber(&["fs", "rollback", "nope"]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

#[test]
fn every_read_api_reads_lower_files_before_and_after_a_resume() {
    let sb = Sandbox::new("overlay-apis");
    sb.write("lib/a.txt", "alpha");
    sb.write("lib/b.txt", "bravo");
    sb.write("lib/c.txt", "charlie");
    sb.write("lib/sub/d.txt", "delta");
    sb.write("lib/sub/e.txt", "echo");
    // Each half reads through every API family; the second half runs in a fresh process
    // (resume), first reading what the first half read (captured), then what it never touched.
    let reads = |dir: &str, x: &str, y: &str, z: &str| {
        format!(
            "await (async () => {{\n\
               const cb = await new Promise((ok, no) => fs.readFile('{dir}/{x}', 'utf8', (e, d) => (e ? no(e) : ok(d))));\n\
               const pr = await fs.promises.readFile('{dir}/{y}', 'utf8');\n\
               const st = await new Promise((ok, no) => {{ let s = '';\n\
                 fs.createReadStream('{dir}/{z}', {{ encoding: 'utf8', highWaterMark: 2 }})\n\
                   .on('data', (d) => (s += d)).on('end', () => ok(s)).on('error', no); }});\n\
               const fh = await fs.promises.open('{dir}/{z}');\n\
               const {{ bytesRead, buffer }} = await fh.read(Buffer.alloc(3), 0, 3, 1);\n\
               await fh.close();\n\
               const kind = (d) => d.name + (d.isDirectory() ? '/' : d.isFile() ? '' : '?');\n\
               const sync = fs.readdirSync('{dir}', {{ withFileTypes: true }}).map(kind).join(',');\n\
               const viaCb = await new Promise((ok, no) => fs.readdir('{dir}', {{ withFileTypes: true }}, (e, l) => (e ? no(e) : ok(l.map(kind).join(',')))));\n\
               const viaPr = (await fs.promises.readdir('{dir}', {{ withFileTypes: true }})).map(kind).join(',');\n\
               const names = []; for await (const d of await fs.promises.opendir('{dir}')) names.push(kind(d));\n\
               const dir = fs.opendirSync('{dir}'); let d; const syncNames = []; while ((d = dir.readSync())) syncNames.push(kind(d)); dir.closeSync();\n\
               console.log(cb, pr, st, buffer.toString('utf8', 0, bytesRead));\n\
               console.log(sync, '|', viaCb, '|', viaPr, '|', names.sort().join(','), '|', syncNames.sort().join(','));\n\
             }})();"
        )
    };
    sb.write(
        "main.js",
        &format!(
            "const fs = require('fs');\n\
             (async () => {{\n{}\nawait amber.call('wait', {{}});\n{}\n{}\n}})();\n",
            reads("lib", "a.txt", "b.txt", "c.txt"),
            reads("lib", "a.txt", "b.txt", "c.txt"),
            reads("lib/sub", "d.txt", "e.txt", "d.txt"),
        ),
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    let first = "alpha bravo charlie har\na.txt,b.txt,c.txt,sub/ | a.txt,b.txt,c.txt,sub/ | a.txt,b.txt,c.txt,sub/ | a.txt,b.txt,c.txt,sub/ | a.txt,b.txt,c.txt,sub/\n";
    assert_eq!((run.code, run.stdout.as_str()), (75, first), "{}", run.stderr);
    // Files the first half read change on the host: the resumed run still sees what it read.
    sb.write("lib/a.txt", "ALPHA, changed");
    sb.write("lib/c.txt", "CHARLIE, changed");
    let resumed = sb.amber(&["resume", "s", "--resolve", "1=null"]);
    let second =
        format!("{first}delta echo delta elt\nd.txt,e.txt | d.txt,e.txt | d.txt,e.txt | d.txt,e.txt | d.txt,e.txt\n");
    assert_eq!((resumed.code, resumed.stdout.as_str()), (0, second.as_str()), "{}", resumed.stderr);
    // Replayed from the top with the folder gone: the journal and the store answer everything.
    std::fs::remove_dir_all(sb.dir.join("lib")).unwrap();
    let replay = sb.amber(&["replay", "s", "--print"]);
    assert_eq!((replay.code, replay.stdout), (0, format!("{first}{second}")), "{}", replay.stderr);
}

#[test]
fn fs_commit_of_a_renamed_folder_moves_the_files_the_run_never_read() {
    // The overlay fuzz target found the diff listing only the files a run had read under a
    // renamed directory; commit then deleted the old directory and lost the others.
    let sb = Sandbox::new("overlay-commit-rename");
    sb.write("src/read.txt", "read");
    sb.write("src/unread.txt", "never read");
    sb.write("src/deep/unread.txt", "deep");
    sb.write(
        "main.js",
        "const fs = require('fs');\n\
         fs.readFileSync('src/read.txt');\n\
         fs.renameSync('src', 'lib');\n\
         amber.call('wait', {});\n",
    );
    let run = sb.amber(&["run", "--session", "s", "main.js"]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let root = std::fs::canonicalize(&sb.dir).unwrap().display().to_string();
    let diff = sb.amber(&["fs", "diff", "s"]);
    assert_eq!(
        diff.stdout,
        format!(
            "A {root}/lib/\nA {root}/lib/deep/\nA {root}/lib/deep/unread.txt\nA {root}/lib/read.txt\nA {root}/lib/unread.txt\nD {root}/src/\n"
        ),
        "{}",
        diff.stderr
    );
    let committed = sb.amber(&["fs", "commit", "s"]);
    assert_eq!(committed.code, 0, "{}", committed.stderr);
    assert!(!sb.dir.join("src").exists());
    assert_eq!(std::fs::read_to_string(sb.dir.join("lib/unread.txt")).unwrap(), "never read");
    assert_eq!(std::fs::read_to_string(sb.dir.join("lib/deep/unread.txt")).unwrap(), "deep");
    assert_eq!(std::fs::read_to_string(sb.dir.join("lib/read.txt")).unwrap(), "read");
}

#[test]
fn inspect_shows_the_session_folder() {
    let sb = Sandbox::new("overlay-inspect");
    sb.write("main.js", "amber.call('wait', {});");
    sb.write(".env", "SECRET=1");
    sb.write("sub/keep.txt", "");
    let run = sb.amber_in(&sb.dir.join("sub"), &["run", "--session", "s", "--fs-reveal", ".env", "../main.js"]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let root = std::fs::canonicalize(&sb.dir).unwrap().display().to_string();
    let text = sb.amber(&["inspect", "s"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let expected =
        format!("folder        {root} (read-only lower layer, mounted at {root})\ncwd           {root}/sub\nrevealed      .env\n");
    assert!(text.stdout.contains(&expected), "{}", text.stdout);
    let json = sb.amber(&["inspect", "s", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["folder"],
        serde_json::json!({ "host": root, "mount": root, "cwd": format!("{root}/sub"), "reveal": [".env"] })
    );
    // The same from an export of the session.
    let file = sb.dir.join("s.amber");
    let export = sb.amber(&["export", "s", "-o", file.to_str().unwrap()]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let from_file = sb.amber(&["inspect", file.to_str().unwrap()]);
    assert!(from_file.stdout.contains(&expected), "{}", from_file.stdout);
}

/// The heap payload of an image container (docs/snapshot-format.md), inflated.
fn image_payload(image: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let u16_at = |at: usize| u16::from_le_bytes(image[at..at + 2].try_into().unwrap()) as usize;
    let u64_at = |at: usize| u64::from_le_bytes(image[at..at + 8].try_into().unwrap()) as usize;
    let mut at = 8 + 4 + 1;
    at += 2 + u16_at(at);
    at += 8 + u64_at(at);
    let len = u64_at(at);
    let mut payload = Vec::new();
    flate2::read::DeflateDecoder::new(&image[at + 8..at + 8 + len]).read_to_end(&mut payload).unwrap();
    payload
}

/// The code blobs in the store (docs/snapshot-format.md, "Code blobs"), as (sha256, bytes).
fn code_blobs(sb: &Sandbox) -> Vec<(Vec<u8>, Vec<u8>)> {
    let db = sb.db();
    let mut rows =
        db.prepare("SELECT sha256, bytes FROM blobs WHERE substr(bytes, 1, 8) = CAST('AMBRCODE' AS BLOB)").unwrap();
    let blobs = rows.query_map([], |row| Ok((row.get(0)?, row.get(1)?))).unwrap();
    blobs.map(Result::unwrap).collect()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn the_code_of_lower_modules_is_stored_once_and_images_name_it() {
    let sb = Sandbox::new("overlay-code-blobs");
    sb.write("package.json", "{\"name\": \"app\"}");
    // The error site's rendered callee is in the compiled code only (neither an atom nor a
    // string of the heap): it shows where the module's code is kept.
    sb.write(
        "node_modules/lib/index.js",
        "function twice(x) { return x * 2; }\n\
         function tag(s) { const maybeMissing = {}; try { maybeMissing.distinctiveCallee(); } catch (e) { return s + ': ' + e.message; } }\n\
         module.exports = { twice, tag };\n",
    );
    sb.write(
        "main.js",
        "const lib = require('lib');\nconsole.log(lib.twice(3));\n\
         amber.call('wait', {}).then(() => { console.log(lib.twice(4)); return amber.call('wait', {}); })\n\
           .then(() => console.log(lib.tag('done')));\n",
    );
    let run = sb.amber(&["run", "--session", "a", "main.js"]);
    assert_eq!((run.code, run.stdout.as_str()), (75, "6\n"), "{}", run.stderr);
    // One blob, the library's (the entry is the session's stored program, not a lower file).
    let blobs = code_blobs(&sb);
    assert_eq!(blobs.len(), 1);
    assert!(blobs.iter().any(|(_, b)| contains(b, "maybeMissing.distinctiveCallee")));
    // A second suspension of the session, and a second session, store no code again.
    let resumed = sb.amber(&["resume", "a", "--resolve", "1=null"]);
    assert_eq!((resumed.code, resumed.stdout.as_str()), (75, "8\n"), "{}", resumed.stderr);
    let other = sb.amber(&["run", "--session", "b", "main.js"]);
    assert_eq!((other.code, other.stdout.as_str()), (75, "6\n"), "{}", other.stderr);
    assert_eq!(code_blobs(&sb), blobs);
    // No image carries the code.
    let images: Vec<Vec<u8>> = {
        let db = sb.db();
        let mut rows = db.prepare("SELECT bytes FROM images").unwrap();
        let images = rows.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect();
        images
    };
    assert_eq!(images.len(), 3);
    for image in &images {
        assert!(!contains(&image_payload(image), "maybeMissing.distinctiveCallee"));
    }
    // An export carries the code blobs: imported elsewhere, the session resumes with the
    // host's modules gone.
    expect(&sb.amber(&["export", "b", "-o", "b.amber"]), 0);
    std::fs::remove_dir_all(sb.dir.join("node_modules")).unwrap();
    let done = sb.amber(&["resume", "a", "--resolve", "2=null"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.stdout, "done: maybeMissing.distinctiveCallee is not a function\n");
    let elsewhere = sb.dir.join("elsewhere");
    let env = [("AMBER_STORE", elsewhere.to_str().unwrap())];
    expect(&sb.amber_env(&["import", "b.amber"], &env), 0);
    let imported = sb.amber_env(&["resume", "b", "--resolve", "1=null"], &env);
    assert_eq!((imported.code, imported.stdout.as_str()), (75, "8\n"), "{}", imported.stderr);

    // A code blob whose stored bytes were changed, or that is gone, refuses the image
    // (integrity failure, exit 4), naming the blob.
    sb.db()
        .execute("UPDATE blobs SET bytes = bytes || X'00' WHERE substr(bytes, 1, 8) = CAST('AMBRCODE' AS BLOB)", [])
        .unwrap();
    let tampered = sb.amber(&["resume", "b", "--resolve", "1=null"]);
    assert_eq!(tampered.code, 4, "{}", tampered.stderr);
    assert!(
        tampered.stderr.contains("code blob") && tampered.stderr.contains("not in the store"),
        "{}",
        tampered.stderr
    );
    sb.db().execute("DELETE FROM blobs WHERE substr(bytes, 1, 8) = CAST('AMBRCODE' AS BLOB)", []).unwrap();
    let missing = sb.amber(&["resume", "b", "--resolve", "1=null"]);
    assert_eq!(missing.code, 4, "{}", missing.stderr);
    assert!(missing.stderr.contains("code blob") && missing.stderr.contains("not in the store"), "{}", missing.stderr);
}
