//! The modules Amber refuses on purpose (`node:child_process`, `node:net`, …; reasons in
//! [`super::REFUSED`]) as loadable builtins: every export Node 20 has is present, and calling
//! one throws `ERR_AMBER_MODULE_REFUSED` with the reason, so packages that only reference
//! them load (`js/refused.js` builds the exports).

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::to_rust_string;
use amber_engine::{Value, Vm};

use super::Builtin;

/// The shared body: `require('node:internal/refused')(name)` builds `name`'s exports.
pub const INTERNAL: Builtin = Builtin {
    name: "internal/refused",
    source: include_str!("js/refused.js"),
    natives: &[("why", 1, why)],
    bare: false,
};

macro_rules! refused {
    ($($id:ident = $name:literal),* $(,)?) => {
        $(pub const $id: Builtin = Builtin {
            name: $name,
            source: concat!("module.exports = require('node:internal/refused')('", $name, "');"),
            natives: &[],
            bare: true,
        };)*
        /// Every refused module, for [`super::BUILTINS`].
        pub const ALL: &[&Builtin] = &[$(&$id),*];
    };
}

refused! {
    CHILD_PROCESS = "child_process",
    CLUSTER = "cluster",
    DGRAM = "dgram",
    DNS = "dns",
    DNS_PROMISES = "dns/promises",
    DOMAIN = "domain",
    HTTP2 = "http2",
    INSPECTOR = "inspector",
    INSPECTOR_PROMISES = "inspector/promises",
    NET = "net",
    REPL = "repl",
    TLS = "tls",
    TRACE_EVENTS = "trace_events",
    V8 = "v8",
    VM = "vm",
    WASI = "wasi",
    WORKER_THREADS = "worker_threads",
}

/// `why(module)`: the reason [`super::REFUSED`] gives for `module`.
fn why(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let name = to_rust_string(vm, args.first().copied().unwrap_or(Value::UNDEFINED))?;
    let reason = super::refused(&name).unwrap_or("it is not part of Amber's Node surface");
    Ok(vm.str(reason))
}
