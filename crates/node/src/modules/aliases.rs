//! Builtin names that are other builtins under another name, as Node keeps them: `sys` (old
//! `util`), `console`, `constants` (os + fs + crypto constants in one object), and the
//! underscored names of Node's internal files that packages still require (`_stream_readable`,
//! `_http_agent`, …). Each body only re-exports; the code lives in the module it names.

use super::Builtin;

macro_rules! alias {
    ($($id:ident = $name:literal => $source:expr),* $(,)?) => {
        $(pub const $id: Builtin = Builtin { name: $name, source: $source, natives: &[], bare: true };)*
        /// Every alias, for [`super::all`].
        pub const ALL: &[&Builtin] = &[$(&$id),*];
    };
}

alias! {
    SYS = "sys" => "process.emitWarning('sys is deprecated. Use util instead.', 'DeprecationWarning', 'DEP0025');\nmodule.exports = require('util');",
    CONSOLE = "console" => "module.exports = globalThis.console;",
    // The merge order is Node's (lib/constants.js), so the keys enumerate in the same order;
    // `defaultCipherList` is an accessor node:crypto adds, not one of the binding's constants.
    CONSTANTS = "constants" => "const os = require('os').constants;\nconst { defaultCipherList, ...crypto } = require('crypto').constants;\nmodule.exports = Object.freeze(Object.assign({}, os.dlopen, os.errno, os.priority, os.signals, require('fs').constants, crypto));",
    STREAM_DUPLEX = "_stream_duplex" => "module.exports = require('stream').Duplex;",
    STREAM_PASSTHROUGH = "_stream_passthrough" => "module.exports = require('stream').PassThrough;",
    STREAM_READABLE = "_stream_readable" => "module.exports = require('stream').Readable;",
    STREAM_TRANSFORM = "_stream_transform" => "module.exports = require('stream').Transform;",
    STREAM_WRITABLE = "_stream_writable" => "module.exports = require('stream').Writable;",
    STREAM_WRAP = "_stream_wrap" => "module.exports = require('node:internal/refused')('_stream_wrap');",
    HTTP_AGENT = "_http_agent" => "const { Agent, globalAgent } = require('http');\nmodule.exports = { Agent, globalAgent };",
    HTTP_CLIENT = "_http_client" => "module.exports = { ClientRequest: require('http').ClientRequest };",
    HTTP_COMMON = "_http_common" => include_str!("js/http_common.js"),
    HTTP_INCOMING = "_http_incoming" => "module.exports = { IncomingMessage: require('http').IncomingMessage };",
    HTTP_OUTGOING = "_http_outgoing" => "const { OutgoingMessage, validateHeaderName, validateHeaderValue } = require('http');\nmodule.exports = { validateHeaderName, validateHeaderValue, OutgoingMessage };",
    HTTP_SERVER = "_http_server" => "const { STATUS_CODES, Server, ServerResponse } = require('http');\nmodule.exports = { STATUS_CODES, Server, ServerResponse };",
    TLS_COMMON = "_tls_common" => "module.exports = require('node:internal/refused')('_tls_common');",
    TLS_WRAP = "_tls_wrap" => "module.exports = require('node:internal/refused')('_tls_wrap');",
}
