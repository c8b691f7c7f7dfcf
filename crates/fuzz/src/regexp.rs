//! `regexp`: pattern, flags and subject into the engine's RegExp through a small JS driver
//! (construction, exec, match, matchAll, replace with patterns and callbacks, split, search)
//! under fuel. Invariants: no panic; matching, however much it backtracks, stays within the
//! fuel and the time limit.

use crate::exec;

/// The driver: `P`, `F` and `S` are set as globals, so no escaping is involved.
const DRIVER: &str = r#"
let r = null;
try { r = new RegExp(P, F); } catch (e) { String(e); }
if (r !== null) {
  try { r.exec(S); r.exec(S); } catch {}
  r.lastIndex = 0;
  try { S.match(r); } catch {}
  try { S.replace(r, "[$1|$&|$`|$'|$<n>|$$]"); } catch {}
  try { S.replace(r, (m, ...rest) => rest.length); } catch {}
  try { S.split(r, 7); } catch {}
  try { S.search(r); } catch {}
  try { r.test(S); String(r); r.source; r.flags; } catch {}
  try { [...S.matchAll(new RegExp(P, F.includes("g") ? F : F + "g"))].length; } catch {}
  try { S.replaceAll(new RegExp(P, F.includes("g") ? F : F + "g"), "$&$&"); } catch {}
  try { const m = r.exec(S); if (m) { m.index; m.groups; m.indices; } } catch {}
}
"#;

/// Flag letters by bit of the first input byte.
const FLAGS: [char; 8] = ['d', 'g', 'i', 'm', 's', 'u', 'v', 'y'];

/// `regexp`: byte 0 is the flags, then pattern and subject split at the first NUL.
pub fn run(data: &[u8]) {
    let Some((&bits, rest)) = data.split_first() else { return };
    let flags: String = FLAGS.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, c)| *c).collect();
    let (pattern, subject) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b"xaab-12-abcABC\xce\xb1\xf0\x9f\x98\x80"[..]),
    };
    let pattern = String::from_utf8_lossy(pattern);
    let subject = String::from_utf8_lossy(subject);
    let mut vm = exec::new_vm();
    let global = vm.global_object();
    for (name, text) in [("P", &*pattern), ("F", &*flags), ("S", &*subject)] {
        let value = vm.str(text);
        vm.set_property(global, name, value);
    }
    let _ = exec::run_script(&mut vm, DRIVER);
}
