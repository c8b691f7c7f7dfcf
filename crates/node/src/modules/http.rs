//! `node:http` and `node:https` (the client side, in `js/http.js` and `js/https.js`) and
//! `node:internal/net`, the bridge to the embedder's network binding: the host value
//! [`NET_BINDING`], which the `amber` crate defines (request, read, cancel as journaled host
//! operations). Servers stay refused.

use amber_engine::error::JsResult;
use amber_engine::{HostFn, Value, Vm};

use super::Builtin;

/// The [`Vm::host_value`] holding the network natives.
pub const NET_BINDING: &str = "amber.net";

pub const HTTP: Builtin = Builtin { name: "http", source: include_str!("js/http.js"), natives: &[], bare: true };

pub const HTTPS: Builtin = Builtin { name: "https", source: include_str!("js/https.js"), natives: &[], bare: true };

pub const INTERNAL_NET: Builtin =
    Builtin { name: "internal/net", source: include_str!("js/internal_net.js"), natives: NATIVES, bare: false };

const NATIVES: &[(&str, u32, HostFn)] = &[("binding", 0, binding)];

/// `binding()` → the embedder's network object, or undefined.
fn binding(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(vm.host_value(NET_BINDING).unwrap_or(Value::UNDEFINED))
}
