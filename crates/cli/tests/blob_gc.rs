//! Blob collection end to end (docs/durability.md, "Blob collection"): real `amber` runs in a
//! temp folder share the blobs of the files they read; `amber delete` takes the blobs only the
//! deleted session named, `amber gc` the unnamed ones older than its grace period, and the
//! session left behind still resumes and replays from the store with the host files gone.
#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Sandbox};

/// How many stored blobs hold exactly `bytes`.
fn stored(sb: &Sandbox, bytes: &str) -> i64 {
    sb.db().query_row("SELECT COUNT(*) FROM blobs WHERE bytes = CAST(?1 AS BLOB)", [bytes], |row| row.get(0)).unwrap()
}

fn blob_count(sb: &Sandbox) -> i64 {
    sb.db().query_row("SELECT COUNT(*) FROM blobs", [], |row| row.get(0)).unwrap()
}

/// A program that reads `files`, suspends, then prints what it read.
fn reader(files: &[&str], also: &str) -> String {
    let reads: Vec<String> = files.iter().map(|f| format!("fs.readFileSync('{f}', 'utf8')")).collect();
    format!(
        "const fs = require('fs');\n{also}\nconst read = [{}];\namber.call('wait', {{}}).then(() => console.log(read.join(' ')));\n",
        reads.join(", ")
    )
}

#[test]
fn deleting_a_session_removes_only_the_blobs_no_other_session_names() {
    let sb = Sandbox::new("blob-gc-delete");
    sb.write("shared.txt", "bytes both sessions read");
    sb.write("a-only.txt", "bytes only session a reads");
    sb.write("lib.js", "module.exports = 'a module only session a loads';");
    sb.write("a.js", &reader(&["shared.txt", "a-only.txt"], "require('./lib.js');"));
    sb.write("b.js", &reader(&["shared.txt"], ""));
    expect(&sb.amber(&["run", "--session", "a", "a.js"]), 75);
    expect(&sb.amber(&["run", "--session", "b", "b.js"]), 75);
    assert_eq!((stored(&sb, "bytes both sessions read"), stored(&sb, "bytes only session a reads")), (1, 1));
    let before = blob_count(&sb);

    let deleted = sb.amber(&["delete", "a", "--grace-ms", "0"]);

    expect(&deleted, 0);
    assert_eq!(stored(&sb, "bytes only session a reads"), 0);
    assert_eq!(stored(&sb, "module.exports = 'a module only session a loads';"), 0);
    assert_eq!(stored(&sb, "bytes both sessions read"), 1);
    let removed = before - blob_count(&sb);
    assert!(deleted.stderr.contains(&format!("removed {removed} blobs")), "{}", deleted.stderr);
    // The module's code blob is named by a's images only while a code block compiled from it
    // lives; unnamed, it is an orphan for `amber gc`, which also finds nothing else of a's.
    let gc = sb.amber(&["gc", "--grace-ms", "0"]);
    expect(&gc, 0);
    let code_blobs: i64 = sb
        .db()
        .query_row("SELECT COUNT(*) FROM blobs WHERE substr(bytes, 1, 8) = CAST('AMBRCODE' AS BLOB)", [], |r| r.get(0))
        .unwrap();
    assert_eq!(code_blobs, 0, "b loads no module of the folder");
    assert!(before - blob_count(&sb) >= 3, "a's file, its module's file and its code: {}", gc.stderr);
    let again = sb.amber(&["gc", "--grace-ms", "0"]);
    assert!(again.stderr.contains("removed 0 blobs"), "{}", again.stderr);
    // b reads its captured bytes from the store, with the host files gone.
    for file in ["shared.txt", "a-only.txt", "lib.js", "a.js"] {
        std::fs::remove_file(sb.dir.join(file)).unwrap();
    }
    let resumed = sb.amber(&["resume", "b", "--resolve", "1=null"]);
    expect(&resumed, 0);
    assert_eq!(resumed.stdout, "bytes both sessions read\n");
    let replay = sb.amber(&["replay", "b", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, "bytes both sessions read\n");
}

#[test]
fn unnamed_blobs_go_once_older_than_the_grace_period() {
    let sb = Sandbox::new("blob-gc-grace");
    sb.write("old.txt", "an orphan stored long ago");
    sb.write("new.txt", "an orphan stored just now");
    sb.write("main.js", &reader(&["old.txt", "new.txt"], ""));
    expect(&sb.amber(&["run", "--session", "s", "main.js"]), 75);
    // With the default grace period, a fresh session's blobs outlive its deletion: another
    // run might have stored the same bytes a moment ago and not yet named them.
    let deleted = sb.amber(&["delete", "s"]);
    expect(&deleted, 0);
    assert!(deleted.stderr.contains("removed 0 blobs"), "{}", deleted.stderr);
    assert!(deleted.stderr.contains("younger than the grace period"), "{}", deleted.stderr);
    assert_eq!((stored(&sb, "an orphan stored long ago"), stored(&sb, "an orphan stored just now")), (1, 1));
    // One orphan is two hours old.
    let two_hours_ago = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
        - 2 * 3600 * 1000;
    sb.db()
        .execute(
            "UPDATE blobs SET last_put = ?1 WHERE bytes = CAST('an orphan stored long ago' AS BLOB)",
            [two_hours_ago],
        )
        .unwrap();

    let gc = sb.amber(&["gc"]);

    expect(&gc, 0);
    assert_eq!((stored(&sb, "an orphan stored long ago"), stored(&sb, "an orphan stored just now")), (0, 1));
    assert!(gc.stderr.contains("removed 1 blobs"), "{}", gc.stderr);
}
