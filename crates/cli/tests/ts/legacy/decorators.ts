// Legacy decorators (experimentalDecorators in this folder's tsconfig, which extends ../).
const seen: string[] = [];
function sealed(ctor: Function) { seen.push("class " + ctor.name); }
function logged(_t: object, key: string, desc: PropertyDescriptor): PropertyDescriptor {
  const f = desc.value as (...a: unknown[]) => unknown;
  return { ...desc, value(this: unknown, ...a: unknown[]) { seen.push("call " + key); return f.apply(this, a); } };
}
function param(_t: object, key: string, index: number) { seen.push(`param ${key} ${index}`); }

@sealed
class Greeter {
  constructor(private name: string) {}
  @logged
  greet(@param greeting: string): string {
    return `${greeting}, ${this.name}`;
  }
}

console.log(new Greeter("ada").greet("hi"));
console.log(seen.join("; "));
