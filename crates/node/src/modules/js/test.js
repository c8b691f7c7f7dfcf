'use strict';
// node:test, run in-process as `node file.test.js` runs it: tests and suites (test, describe,
// it, skip/todo/only), subtests, hooks, `t.plan`, `t.assert`, callback-style tests, and the
// TAP reporter Node 20 uses when stdout is not a terminal (always, in Amber: node:tty). Tests
// run one after another in the order they were declared; a test's subtests run in order and
// the test finishes when they have. Durations are on the logical clock. `mock`, snapshots,
// `--test` file discovery, coverage and `run()` are not here (docs/node-compat.md).

const assert = require('assert');
const { makeError } = require('node:internal/errors');

const assertMethods = ['deepEqual', 'deepStrictEqual', 'doesNotMatch', 'doesNotReject', 'doesNotThrow', 'equal',
  'fail', 'ifError', 'match', 'notDeepEqual', 'notDeepStrictEqual', 'notEqual', 'notStrictEqual', 'ok', 'rejects',
  'strictEqual', 'throws'];

const counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const started = performance.now();
const write = (line) => process.stdout.write(`${line}\n`);

// Node's tapEscape: a name stays on one TAP line and `#` cannot start a directive.
function tapEscape(input) {
  return input.replaceAll('\b', '\\b').replaceAll('\f', '\\f').replaceAll('\t', '\\t')
    .replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\v', '\\v')
    .replaceAll('\\', '\\\\').replaceAll('#', '\\#');
}

function yamlString(s) {
  return /^[\w .,:/-]*$/.test(s) && s !== '' ? `'${s}'` : JSON.stringify(s);
}

class TestContext {
  constructor(test) {
    this._test = test;
    const context = this;
    this.assert = {};
    for (const name of assertMethods) {
      this.assert[name] = function (...args) {
        context._test.assertions++;
        return Reflect.apply(assert[name], assert, args);
      };
    }
  }

  get name() {
    return this._test.name;
  }

  get fullName() {
    return this._test.fullName();
  }

  get signal() {
    return this._test.controller.signal;
  }

  plan(count) {
    if (this._test.planned !== null) {
      throw makeError(Error, 'ERR_TEST_FAILURE', 'cannot set plan more than once');
    }
    this._test.planned = count;
  }

  diagnostic(message) {
    this._test.diagnostics.push(`${message}`);
  }

  skip(message) {
    this._test.skip = message === undefined ? true : `${message}`;
  }

  todo(message) {
    this._test.todo = message === undefined ? true : `${message}`;
  }

  runOnly() {}

  before(fn) {
    this._test.hooks.before.push(fn);
  }

  after(fn) {
    this._test.hooks.after.push(fn);
  }

  beforeEach(fn) {
    this._test.hooks.beforeEach.push(fn);
  }

  afterEach(fn) {
    this._test.hooks.afterEach.push(fn);
  }

  test(name, options, fn) {
    return this._test.subtest(name, options, fn, false);
  }
}

function normalize(name, options, fn) {
  if (typeof name === 'function') {
    fn = name;
    name = fn.name || '<anonymous>';
    options = {};
  } else if (typeof options === 'function') {
    fn = options;
    options = {};
  }
  if (name === undefined || name === null) name = (fn && fn.name) || '<anonymous>';
  return { name: `${name}`, options: options || {}, fn: typeof fn === 'function' ? fn : () => {} };
}

class Test {
  constructor(parent, name, options, fn, isSuite) {
    this.parent = parent;
    this.name = name;
    this.fn = fn;
    this.isSuite = isSuite;
    this.depth = parent ? parent.depth + 1 : -1;
    this.skip = options.skip || false;
    this.todo = options.todo || false;
    this.planned = options.plan ?? null;
    this.assertions = 0;
    this.children = [];
    // A suite's tests are declared when its body runs but wait for the suite's turn.
    this.queue = isSuite && parent ? new Promise((resolve) => {
      this.openGate = resolve;
    }) : Promise.resolve();
    this.diagnostics = [];
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
    this.error = null;
    this.controller = new AbortController();
    this.number = 0;
  }

  fullName() {
    return this.parent && this.parent.depth >= 0 ? `${this.parent.fullName()} > ${this.name}` : this.name;
  }

  subtest(name, options, fn, isSuite) {
    const args = normalize(name, options, fn);
    const child = new Test(this, args.name, args.options, args.fn, isSuite);
    this.children.push(child);
    this.assertions++;
    child.number = this.children.length;
    if (isSuite) {
      // A suite's body runs now, declaring its tests; they run when the suite's turn comes.
      const prev = currentSuite;
      currentSuite = child;
      try {
        const r = child.fn.call(child.context());
        if (r && typeof r.then === 'function') child.pendingBody = r;
      } catch (err) {
        child.error = err;
      } finally {
        currentSuite = prev;
      }
    }
    const done = (this.queue = this.queue.then(() => child.run()));
    if (this === root) scheduleRoot();
    return done.then(() => undefined);
  }

  context() {
    if (!this._context) this._context = new TestContext(this);
    return this._context;
  }

  async runHooks(kind, test) {
    const chain = [];
    for (let t = this; t; t = t.parent) chain.unshift(t);
    if (kind === 'afterEach') chain.reverse();
    for (const t of chain) {
      for (const hook of t.hooks[kind]) await hook.call(null, test.context());
    }
  }

  async runBody() {
    const ctx = this.context();
    if (this.isSuite) {
      if (this.pendingBody) await this.pendingBody;
      for (const hook of this.hooks.before) await hook.call(null, ctx);
      this.openGate();
      await this.queue;
      for (const hook of this.hooks.after) await hook.call(null, ctx);
      return;
    }
    if (this.parent) await this.parent.runHooks('beforeEach', this);
    try {
      if (this.fn.length >= 2) {
        await new Promise((resolve, reject) => {
          const r = this.fn.call(ctx, ctx, (err) => (err ? reject(err) : resolve()));
          if (r && typeof r.then === 'function') {
            reject(makeError(Error, 'ERR_TEST_FAILURE',
              'passed a callback but also returned a Promise'));
          }
        });
      } else {
        await this.fn.call(ctx, ctx);
      }
      for (const hook of this.hooks.before) await hook.call(null, ctx);
      await this.queue;
    } finally {
      for (const hook of this.hooks.after) await hook.call(null, ctx);
      if (this.parent) await this.parent.runHooks('afterEach', this);
    }
  }

  async run() {
    const indent = '    '.repeat(this.depth);
    write(`${indent}# Subtest: ${tapEscape(this.name)}`);
    const start = performance.now();
    if (!this.skip && !this.error) {
      try {
        await this.runBody();
      } catch (err) {
        this.error = err;
      }
    }
    if (this.openGate) this.openGate();
    if (!this.error && this.planned !== null && this.planned !== this.assertions && !this.skip) {
      this.error = makeError(Error, 'ERR_TEST_FAILURE',
        `plan expected ${this.planned} assertions but received ${this.assertions}`);
    }
    if (!this.error && this.children.some((c) => c.failed)) {
      this.error = makeError(Error, 'ERR_TEST_FAILURE',
        `${this.children.filter((c) => c.failed).length} subtest${this.children.filter((c) => c.failed).length === 1 ? '' : 's'} failed`);
      this.subtestsFailed = true;
    }
    this.failed = Boolean(this.error) && !this.todo;
    const duration = performance.now() - start;
    if (this.children.length > 0) write(`${indent}    1..${this.children.length}`);
    let directive = '';
    if (this.skip) directive = ` # SKIP${typeof this.skip === 'string' ? ` ${this.skip}` : ''}`;
    else if (this.todo) directive = ` # TODO${typeof this.todo === 'string' ? ` ${this.todo}` : ''}`;
    write(`${indent}${this.error ? 'not ok' : 'ok'} ${this.number} - ${tapEscape(this.name)}${directive}`);
    write(`${indent}  ---`);
    write(`${indent}  duration_ms: ${duration}`);
    if (this.isSuite) write(`${indent}  type: 'suite'`);
    if (this.error && !this.subtestsFailed) {
      const err = this.error;
      write(`${indent}  failureType: 'testCodeFailure'`);
      write(`${indent}  error: ${yamlString(String(err && err.message !== undefined ? err.message : err))}`);
      write(`${indent}  code: '${(err && err.code) || 'ERR_TEST_FAILURE'}'`);
    } else if (this.error) {
      write(`${indent}  failureType: 'subtestsFailed'`);
      write(`${indent}  error: ${yamlString(this.error.message)}`);
      write(`${indent}  code: 'ERR_TEST_FAILURE'`);
    }
    write(`${indent}  ...`);
    for (const d of this.diagnostics) write(`${indent}# ${d}`);
    if (this.isSuite) counts.suites++;
    else {
      counts.tests++;
      if (this.skip) counts.skipped++;
      else if (this.todo) counts.todo++;
      else if (this.error) counts.fail++;
      else counts.pass++;
    }
  }
}

const root = new Test(null, '<root>', {}, () => {}, true);
let currentSuite = root;
let rootScheduled = false;
let headerWritten = false;

function scheduleRoot() {
  if (!headerWritten) {
    headerWritten = true;
    write('TAP version 13');
    process.on('beforeExit', summary);
  }
  if (rootScheduled) return;
  rootScheduled = true;
  root.queue.then(() => {
    rootScheduled = false;
  });
}

let summarized = false;
function summary() {
  if (summarized) return;
  summarized = true;
  write(`1..${root.children.length}`);
  for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) {
    write(`# ${key} ${counts[key]}`);
  }
  write(`# duration_ms ${performance.now() - started}`);
  if (counts.fail > 0 && process.exitCode === undefined) process.exitCode = 1;
}

function test(name, options, fn) {
  return currentSuite.subtest(name, options, fn, false);
}

function describe(name, options, fn) {
  return currentSuite.subtest(name, options, fn, true);
}

function withOption(f, key) {
  return (name, options, fn) => {
    const args = normalize(name, options, fn);
    return f(args.name, { ...args.options, [key]: true }, args.fn);
  };
}

for (const f of [test, describe]) {
  f.skip = withOption(f, 'skip');
  f.todo = withOption(f, 'todo');
  f.only = withOption(f, 'only');
}

const hook = (kind) => (fn) => {
  currentSuite.hooks[kind].push(fn);
};

module.exports = test;
Object.assign(module.exports, {
  test,
  describe,
  suite: describe,
  it: test,
  before: hook('before'),
  after: hook('after'),
  beforeEach: hook('beforeEach'),
  afterEach: hook('afterEach'),
});
