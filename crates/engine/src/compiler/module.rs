//! ES modules. The module loader (resolution, linking, evaluation order, namespaces) is not
//! built yet: module declarations are reported as a clear SyntaxError and `import()` returns
//! a rejected promise naming the missing loader.

use oxc_ast::ast::Statement;

use super::{CResult, Compiler};
use crate::error::JsResult;
use crate::heap::CodeId;
use crate::value::Value;
use crate::vm::Vm;

impl<'s> Compiler<'s, '_> {
    pub(crate) fn compile_module_item(&mut self, stmt: &'s Statement<'s>) -> CResult<()> {
        Err(self.error("ES module declarations are not supported yet", super::stmt::stmt_start(stmt)))
    }
}

/// `import.meta` for code in `code`: an empty object (no module loader yet).
pub fn import_meta(vm: &mut Vm, _code: CodeId) -> Value {
    vm.new_object()
}

/// `import(specifier)`: a promise rejected with a TypeError until the loader exists.
pub fn dynamic_import(vm: &mut Vm, _code: CodeId, spec: Value) -> JsResult<Value> {
    let promise = crate::builtins::promise::new_promise(vm);
    let text = crate::runtime::convert::to_rust_string(vm, spec);
    let msg = match text {
        Ok(t) => format!("Cannot load module '{t}': the module loader is not available"),
        Err(_) => "Cannot load module: invalid specifier".to_string(),
    };
    let err = vm.make_error(crate::error::ErrorKind::TypeError, &msg);
    crate::builtins::promise::reject_promise(vm, promise, err);
    Ok(Value::object(promise))
}
