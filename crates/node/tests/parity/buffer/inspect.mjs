import { Buffer } from 'node:buffer';

console.log(Buffer.from('hello'));
console.log([Buffer.from([1, 2])], { data: Buffer.alloc(3) });
console.log(Buffer.alloc(51));
console.log(Buffer.alloc(52, 0xab));
console.log(Buffer.alloc(0));
console.log(String(Buffer.from('to string')), `${Buffer.from([0x41, 0x42])}`);
console.log(typeof Buffer, typeof globalThis.Buffer, globalThis.Buffer === Buffer);
console.log(Buffer.name, Buffer.length, Buffer.from.length, Buffer.prototype.toString.name);
