//! Realms beside the first (`Vm::create_realm`): each has its own intrinsics and global
//! object; functions run in the realm they were made in; GetPrototypeFromConstructor falls
//! back to the constructor's realm; the whole arrangement survives an image.
#![allow(clippy::unwrap_used)]

use amber_engine::{Vm, VmOptions};

/// A VM whose first realm sees a second realm's global as `other`.
fn two_realms() -> Vm {
    let mut vm = Vm::new(VmOptions::default());
    let realm = vm.create_realm();
    vm.switch_realm(realm);
    vm.eval_script("var whoami = 'second'; function here() { return whoami; }", "second.js").unwrap();
    let other = vm.global_object();
    vm.switch_realm(0);
    let global = vm.global_object();
    vm.set_property(global, "other", other);
    vm.eval_script("var whoami = 'first';", "first.js").unwrap();
    vm
}

fn eval_string(vm: &mut Vm, source: &str) -> String {
    let v = vm.eval_script(source, "check.js").unwrap_or_else(|e| panic!("{source}: {e:?}"));
    vm.to_display_string(v)
}

const CHECKS: &[(&str, &str)] = &[
    ("other !== globalThis && other.Array !== Array", "true"),
    // A function runs in its own realm: its globals, its intrinsics.
    ("other.here()", "second"),
    ("Object.getPrototypeOf(other.eval('[]')) === other.Array.prototype", "true"),
    ("other.eval('whoami')", "second"),
    ("other.Function('return whoami')()", "second"),
    // Errors thrown by another realm's natives are that realm's.
    ("try { other.Array.prototype.map.call([], 1) } catch (e) { e instanceof other.TypeError }", "true"),
    ("try { null.x } catch (e) { e instanceof TypeError }", "true"),
    // GetPrototypeFromConstructor: the fallback comes from newTarget's realm.
    (
        "var C = new other.Function(); C.prototype = null; \
         Object.getPrototypeOf(Reflect.construct(Array, [], C)) === other.Array.prototype",
        "true",
    ),
    (
        "var D = other.Function(); D.prototype = 1; \
         Object.getPrototypeOf(Reflect.construct(Error, [], D)) === other.Error.prototype",
        "true",
    ),
    // ArraySpeciesCreate: another realm's %Array% as constructor makes a local array.
    ("var a = []; a.constructor = other.Array; Object.getPrototypeOf(a.map(x => x)) === Array.prototype", "true"),
    ("Array.isArray(new other.Array())", "true"),
    // Shared: well-known symbols and the symbol registry.
    ("other.Symbol.iterator === Symbol.iterator && other.Symbol.for('k') === Symbol.for('k')", "true"),
    // Back in the first realm afterwards.
    ("whoami + ' ' + (Object.getPrototypeOf([]) === Array.prototype)", "first true"),
];

#[test]
fn functions_run_in_their_own_realm() {
    let mut vm = two_realms();
    for (source, expected) in CHECKS {
        assert_eq!(eval_string(&mut vm, source), *expected, "{source}");
    }
}

#[test]
fn a_second_realm_survives_an_image() {
    let mut vm = two_realms();
    eval_string(&mut vm, "var kept = other.eval('({ made: new Map([[1, 2]]) })');");
    // Through the canonical copy (every handle renumbered) and an image.
    vm.snapshot_roundtrip().unwrap();
    let mut restored = Vm::decode_state(&vm.encode_state().unwrap()).unwrap();
    assert_eq!(eval_string(&mut restored, "kept.made instanceof other.Map && !(kept.made instanceof Map)"), "true");
    for (source, expected) in CHECKS {
        assert_eq!(eval_string(&mut restored, source), *expected, "{source}");
    }
}

#[test]
fn a_corrupt_realm_table_is_refused() {
    let mut vm = two_realms();
    vm.switch_realm(1);
    let bytes = vm.encode_state().unwrap();
    // Decoding checks the table: the running realm's slot is the empty one.
    let mut restored = Vm::decode_state(&bytes).unwrap();
    assert_eq!(eval_string(&mut restored, "whoami"), "second");
    restored.realms[0] = None;
    let bad = restored.encode_state().unwrap();
    match Vm::decode_state(&bad) {
        Ok(_) => panic!("a realm table without a running realm was accepted"),
        Err(e) => assert!(e.contains("realm table"), "{e}"),
    }
}

/// ShadowRealm (proposal): only primitives and callables cross, callables as wrappers that
/// run in their own realm, exceptions as the receiving side's TypeErrors.
#[test]
fn a_shadow_realm_passes_only_primitives_and_wrapped_callables() {
    let mut vm = Vm::new(VmOptions::default());
    let checks: &[(&str, &str)] = &[
        ("var r = new ShadowRealm(); r.evaluate('var secret = 42; secret + 1')", "43"),
        ("typeof secret", "undefined"),
        ("r.evaluate('globalThis.Array === Array && typeof secret')", "number"),
        // A function crosses as a wrapper of this realm; calling it runs the other side.
        ("var f = r.evaluate('(x, y) => secret + x + y'); f(1, 2)", "45"),
        ("Object.getPrototypeOf(f) === Function.prototype && f.length + f.name.length", "2"),
        // Objects do not cross, in either direction.
        ("try { r.evaluate('({})') } catch (e) { e instanceof TypeError }", "true"),
        ("try { f({}, 1) } catch (e) { e instanceof TypeError }", "true"),
        // An exception inside becomes a TypeError here, with the message as text.
        (
            "try { r.evaluate('throw new RangeError(\"inside\")') } catch (e) { e instanceof TypeError && /inside/.test(e.message) }",
            "true",
        ),
        ("try { r.evaluate('let = ') } catch (e) { e instanceof SyntaxError }", "true"),
        // A callable passed in is wrapped for the other side and calls back here.
        ("var back = r.evaluate('(cb) => cb(secret)'); back((v) => v * 2)", "84"),
    ];
    for (source, expected) in checks {
        assert_eq!(eval_string(&mut vm, source), *expected, "{source}");
    }
    // The shadow realm, its wrappers and their targets survive an image.
    vm.snapshot_roundtrip().unwrap();
    assert_eq!(eval_string(&mut vm, "f(1, 2) + r.evaluate('secret')"), "87");
}
