//! String iterators (§22.1.3.36, §22.1.5): code-point iteration over a string.

use super::*;
use crate::runtime::iterator::create_iter_result_object;

/// ### 22.1.3.36 String.prototype [ %Symbol.iterator% ] ( )
/// https://tc39.es/ecma262/#sec-string.prototype-%symbol.iterator%
pub(super) fn iterator(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    if this.is_nullish() {
        return Err(vm.type_error("String.prototype[Symbol.iterator] called on null or undefined"));
    }
    // 2. Let s be ? ToString(O).
    let s = to_string(vm, this)?;
    vm.heap.flat(s);
    // 3. Let closure be a new Abstract Closure … that yields each code point of s.
    // 4. Return CreateIteratorFromClosure(closure, "%StringIteratorPrototype%",
    //    %StringIteratorPrototype%).
    // (The closure's state is the string and a position: %StringIteratorPrototype%.next.)
    let proto = vm.realm.string_iterator_prototype;
    let state = IteratorState::StringIter { target: s, index: 0, done: false };
    let it = vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state))));
    Ok(Value::object(it))
}

/// ### 22.1.5.1.1 %StringIteratorPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%stringiteratorprototype%.next
pub(super) fn string_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? GeneratorResume(this value, empty, "%StringIteratorPrototype%").
    let state = this.as_object().and_then(|o| match &vm.heap.obj(o).class {
        Class::Iterator(it) => match **it {
            IteratorState::StringIter { target, index, done } => Some((o, target, index, done)),
            _ => None,
        },
        _ => None,
    });
    let Some((o, target, index, done)) = state else {
        return Err(vm.type_error("Method String Iterator.prototype.next called on incompatible receiver"));
    };
    if done {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    let position = index as usize;
    // The closure: a. Let len be the length of s. b. Let position be 0.
    // c. Repeat, while position < len,
    if position >= vm.heap.flat(target).len() {
        // d. Return NormalCompletion(unused).
        set_string_iter_state(vm, o, index, true);
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    //    i. Let cp be CodePointAt(s, position).
    let (_, count, _) = code_point_at_index(vm.heap.flat_ref(target), position);
    //    ii. Let nextIndex be position + cp.[[CodeUnitCount]].
    let next_index = position + count;
    //    iii. Let resultString be the substring of s from position to nextIndex.
    let result_string = substring_of(vm, target, position, next_index);
    //    iv. Set position to nextIndex.
    set_string_iter_state(vm, o, next_index as u32, false);
    //    v. Perform ? GeneratorYield(CreateIteratorResultObject(resultString, false)).
    Ok(create_iter_result_object(vm, result_string, false))
}

fn set_string_iter_state(vm: &mut Vm, o: crate::value::ObjectId, new_index: u32, new_done: bool) {
    if let Class::Iterator(it) = &mut vm.heap.obj_mut(o).class {
        if let IteratorState::StringIter { index, done, .. } = &mut **it {
            *index = new_index;
            *done = new_done;
        }
    }
}
