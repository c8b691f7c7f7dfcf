// Boolean: conversion, wrappers, prototype methods.
const log = (...a) => console.log(a.map(String).join(" "));
log(Boolean(), Boolean(0), Boolean(""), Boolean("0"), Boolean(NaN), Boolean({}), Boolean([]), Boolean(0n), Boolean(1n), Boolean(Symbol()), Boolean(null), Boolean(-0));
const f = new Boolean(false);
log(typeof f, f ? "truthy" : "falsy", f.valueOf(), f.toString(), String(new Boolean(true)), Boolean.prototype.valueOf(), Object.prototype.toString.call(Boolean.prototype));
try { Boolean.prototype.toString.call(1); } catch (e) { log(e.constructor.name, e.message); }
try { Boolean.prototype.valueOf.call("true"); } catch (e) { log(e.constructor.name, e.message); }
class MyBool extends Boolean {}
const mb = new MyBool(1);
log(mb instanceof Boolean, mb instanceof MyBool, mb.valueOf(), Boolean.length, Boolean.name);
