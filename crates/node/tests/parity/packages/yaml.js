// js-yaml: parse and dump YAML.
const yaml = require('js-yaml');
const doc = yaml.load(`
name: amber
version: 1.2
tags: [durable, js]
nested:
  list:
    - a: 1
    - b: true
  multi: |
    line one
    line two
empty: ~
date: 2024-01-02
anchors:
  base: &base { x: 1, y: 2 }
  derived:
    <<: *base
    y: 3
`);
console.log(JSON.stringify(doc));
console.log(yaml.dump({ a: 1, list: ['x', 'y'], obj: { k: 'v', n: null }, text: 'multi\nline', quoted: 'yes' }));
console.log(JSON.stringify(yaml.loadAll('---\na: 1\n---\nb: 2\n')));
try {
  yaml.load('a: [1, 2');
} catch (e) {
  console.log(e.name, e.reason);
}
console.log(yaml.dump({ when: new Date(Date.UTC(2020, 0, 1)) }, { sortKeys: true }));
