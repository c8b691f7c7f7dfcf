//! Decorators and auto-accessors (`accessor x = 1`) in class bodies: the compile-time half of
//! the TC39 decorators proposal (stage 3), with decorator metadata.
//!
//! A class with any decorator is compiled as `function.rs` compiles every class, plus:
//! - its class decorators are evaluated (into an internal array in a register) before the
//!   class scope exists, and each element's decorators are evaluated where the element is,
//!   before its computed key, so decorator expressions and keys run in source order;
//! - right after `CreateClass`, `NewMetadata` makes the metadata object;
//! - after every element is defined, one `Decorate` per decorated element runs, in the
//!   proposal's order: static methods/getters/setters/accessors, then instance ones, then
//!   static fields, then instance fields (each in source order); then the class decorators,
//!   whose result is the class from then on (the inner binding, `this` of the class-level
//!   initializers, the value of the class expression); `DefineMetadata` sets
//!   `C[Symbol.metadata]`;
//! - initializers run where TypeScript's lowering runs them: the instance extra
//!   initializers (`addInitializer` of non-static methods and accessors) at the start of the
//!   instance initializer, after private methods; the static ones at the start of the static
//!   initializer; a field's initializers on its value, its extra initializers right after it
//!   is defined; the class's extra initializers after the static elements.
//!
//! An auto-accessor has a private storage name of its own (a name no source text can
//! spell) and a getter/setter pair reading and writing it, on the prototype or the
//! constructor (public), or under the element's private name (`accessor #x`).
//!
//! Decorators on anything else (parameters: TypeScript's `experimentalDecorators`) are a
//! SyntaxError here, never dropped.

use oxc_ast::ast::*;
use oxc_span::Span;

use super::{empty_code, CResult, Compiler, Loc};
use crate::atoms::atom;
use crate::builtins::decorators::{DecoratorKind, FLAG_PRIVATE, FLAG_STATIC};
use crate::bytecode::{FunctionKind, Op};

/// Where a decorated element's key is when its decorators are applied.
pub(super) enum DecoKey {
    /// A non-computed public name.
    Name(String),
    /// A computed key (or an array-index literal), already converted by ToPropertyKey.
    At(Loc),
    /// A private name (without `#`).
    Private(String),
}

/// One decorated class element, recorded where the element is evaluated.
pub(super) struct ElementDeco {
    pub kind: DecoratorKind,
    pub is_static: bool,
    /// The register holding the decorators (an internal array, in source order).
    pub decorators: u32,
    pub key: DecoKey,
    /// Where a private method, getter, setter or auto-accessor pair sits until it is
    /// installed (the decorators' result goes back there).
    pub value: Option<Loc>,
    /// A field's or auto-accessor's (initializers, extra initializers) env slots.
    pub lists: Option<(u32, u32)>,
}

/// The class-wide env slots of a decorated class (allocated with the class scope).
#[derive(Clone, Default)]
pub(super) struct DecoSlots {
    pub instance_extras: u32,
    pub static_extras: u32,
    /// The class after its class decorators (`this` of class-level initializers).
    pub class_this: u32,
    /// (span start of a decorated field or auto-accessor, initializers slot, extras slot).
    pub fields: Vec<(u32, u32, u32)>,
}

impl DecoSlots {
    pub fn lists_of(&self, start: u32) -> Option<(u32, u32)> {
        self.fields.iter().find(|(s, _, _)| *s == start).map(|&(_, i, e)| (i, e))
    }
}

/// What a field initializer function needs to run a decorated class's initializers.
pub(super) struct InitDecos<'a> {
    pub slots: &'a DecoSlots,
    pub level: u32,
    pub is_static: bool,
}

/// The decorators of a class element (none for a static block or an index signature).
pub(super) fn element_decorators<'a, 's>(el: &'a ClassElement<'s>) -> &'a [Decorator<'s>] {
    match el {
        ClassElement::MethodDefinition(m) => &m.decorators,
        ClassElement::PropertyDefinition(p) => &p.decorators,
        ClassElement::AccessorProperty(a) => &a.decorators,
        _ => &[],
    }
}

/// Does the class, or any of its elements, have a decorator?
pub(super) fn class_is_decorated(class: &Class) -> bool {
    !class.decorators.is_empty() || class.body.body.iter().any(|el| !element_decorators(el).is_empty())
}

/// The private storage name of an auto-accessor: the space keeps it apart from every name
/// the source can write.
pub(super) fn accessor_storage_name(a: &AccessorProperty) -> String {
    format!("{} accessor storage", a.span.start)
}

impl<'s> Compiler<'s, '_> {
    /// Decorators where the proposal has none: a SyntaxError, never dropped.
    pub(super) fn refuse_parameter_decorators(&self, params: &FormalParameters) -> CResult<()> {
        if let Some(d) = params.items.iter().flat_map(|p| p.decorators.iter()).next() {
            return Err(self.error(
                "Parameter decorators are not supported (they are TypeScript's experimentalDecorators)",
                d.span.start,
            ));
        }
        Ok(())
    }

    /// Evaluate a decorator list, in order, into a new internal array in a register.
    pub(super) fn compile_decorator_list(&mut self, decorators: &'s [Decorator<'s>]) -> CResult<u32> {
        self.emit(Op::NewArray(decorators.len() as u32));
        for d in decorators {
            self.mark(d.span.start);
            self.compile_expr(&d.expression)?;
            self.emit(Op::ArrayPush);
        }
        let t = self.temp();
        self.emit(Op::SetLocal(t));
        Ok(t)
    }

    /// An auto-accessor's getter (`return this.#storage`) or setter (`this.#storage = v`).
    pub(super) fn compile_auto_accessor_fn(&mut self, storage: &str, setter: bool, span: Span) -> CResult<u32> {
        let mut code = empty_code(FunctionKind::Method, true, self.source_id);
        code.span = (span.start, span.end);
        if setter {
            code.param_count = 1;
            code.length = 1;
        }
        self.push_function(code, false, None);
        if setter {
            self.alloc_register(atom::empty);
        }
        self.emit(Op::This);
        self.emit_private_key(storage, span.start)?;
        if setter {
            self.emit(Op::GetLocal(0));
            self.emit(Op::SetPrivate);
            self.emit(Op::Pop);
            self.emit(Op::Undefined);
        } else {
            self.emit(Op::GetPrivate);
        }
        self.emit(Op::Return);
        let id = self.pop_function();
        self.func.code.functions.push(id);
        Ok((self.func.code.functions.len() - 1) as u32)
    }

    /// Apply every element's decorators, in the proposal's order (see the module comment).
    pub(super) fn emit_element_decorations(
        &mut self,
        elements: &[ElementDeco],
        slots: &DecoSlots,
        level: u32,
        tctor: u32,
        tproto: u32,
        tmeta: u32,
    ) -> CResult<()> {
        let is_field = |e: &ElementDeco| e.kind == DecoratorKind::Field;
        let passes: [(bool, bool); 4] = [(false, true), (false, false), (true, true), (true, false)];
        for (fields, statics) in passes {
            for e in elements.iter().filter(|e| is_field(e) == fields && e.is_static == statics) {
                let private = matches!(e.key, DecoKey::Private(_));
                // target
                if private || fields {
                    self.emit(Op::Undefined);
                } else {
                    self.emit(Op::GetLocal(if e.is_static { tctor } else { tproto }));
                }
                // key
                match &e.key {
                    DecoKey::Name(n) => self.emit_string(n),
                    DecoKey::At(loc) => self.emit_load(*loc, false),
                    DecoKey::Private(n) => self.emit_private_key(n, 0)?,
                }
                // value
                match e.value {
                    Some(loc) => self.emit_load(loc, false),
                    None => self.emit(Op::Undefined),
                }
                self.emit(Op::GetLocal(e.decorators));
                self.emit(Op::GetLocal(tmeta));
                match e.lists {
                    Some((inits, extras)) => {
                        self.emit_load(Loc::Env { level, slot: extras }, false);
                        self.emit_load(Loc::Env { level, slot: inits }, false);
                    }
                    None => {
                        let slot = if e.is_static { slots.static_extras } else { slots.instance_extras };
                        self.emit_load(Loc::Env { level, slot }, false);
                        self.emit(Op::Undefined);
                    }
                }
                let mut flags = 0;
                if e.is_static {
                    flags |= FLAG_STATIC;
                }
                if private {
                    flags |= FLAG_PRIVATE;
                }
                self.emit(Op::Decorate { kind: e.kind as u8, flags });
                match e.value {
                    Some(loc) => self.emit_store(loc, false),
                    None => self.emit(Op::Pop),
                }
            }
        }
        for e in elements {
            self.free_temp(e.decorators);
            if let DecoKey::At(Loc::Register(r)) = e.key {
                self.free_temp(r);
            }
        }
        Ok(())
    }

    /// Apply the class decorators (`decorators`: their register) and keep the resulting
    /// class in the `class_this` slot; then define its `Symbol.metadata`.
    /// `regs`: the registers of the constructor, the metadata and the class's extra
    /// initializers.
    pub(super) fn emit_class_decoration(
        &mut self,
        decorators: u32,
        name: &str,
        slots: &DecoSlots,
        level: u32,
        regs: (u32, u32, u32),
    ) {
        let (tctor, tmeta, textras) = regs;
        self.emit(Op::Undefined);
        self.emit_string(name);
        self.emit(Op::GetLocal(tctor));
        self.emit(Op::GetLocal(decorators));
        self.emit(Op::GetLocal(tmeta));
        self.emit(Op::GetLocal(textras));
        self.emit(Op::Undefined);
        self.emit(Op::Decorate { kind: DecoratorKind::Class as u8, flags: 0 });
        self.emit_store(Loc::Env { level, slot: slots.class_this }, false);
        self.emit_load(Loc::Env { level, slot: slots.class_this }, false);
        self.emit(Op::GetLocal(tmeta));
        self.emit(Op::DefineMetadata);
    }

    /// `this` of a decorated class's initializers: the instance, or the decorated class.
    fn emit_initializer_this(&mut self, d: &InitDecos) {
        if d.is_static {
            self.emit_load(Loc::Env { level: d.level, slot: d.slots.class_this }, false);
        } else {
            self.emit(Op::This);
        }
    }

    /// At the start of an initializer function: run the class-level extra initializers of
    /// its half (static or instance).
    pub(super) fn emit_extra_initializers(&mut self, d: &InitDecos) {
        self.emit_initializer_this(d);
        let slot = if d.is_static { d.slots.static_extras } else { d.slots.instance_extras };
        self.emit_load(Loc::Env { level: d.level, slot }, false);
        self.emit(Op::RunInitializers(0));
        self.emit(Op::Pop);
    }

    /// Before a decorated field's value: push `this` and its initializer list (the value
    /// follows, then `emit_field_initializers_end`).
    pub(super) fn emit_field_initializers_start(&mut self, d: &InitDecos, inits: u32) {
        self.emit_initializer_this(d);
        self.emit_load(Loc::Env { level: d.level, slot: inits }, false);
    }

    /// After a decorated field's value: run its initializers on it.
    pub(super) fn emit_field_initializers_end(&mut self) {
        self.emit(Op::RunInitializers(1));
    }

    /// After a decorated field is defined: run its extra initializers.
    pub(super) fn emit_field_extra_initializers(&mut self, d: &InitDecos, extras: u32) {
        self.emit_initializer_this(d);
        self.emit_load(Loc::Env { level: d.level, slot: extras }, false);
        self.emit(Op::RunInitializers(0));
        self.emit(Op::Pop);
    }

    /// Fill a decorated class's list slots with empty lists.
    pub(super) fn emit_decoration_lists(&mut self, slots: &DecoSlots, level: u32) {
        let mut all = vec![slots.instance_extras, slots.static_extras];
        for &(_, i, e) in &slots.fields {
            all.push(i);
            all.push(e);
        }
        for slot in all {
            self.emit(Op::NewArray(0));
            self.emit_store(Loc::Env { level, slot }, false);
        }
    }
}
