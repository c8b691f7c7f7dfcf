'use strict';
// node:perf_hooks and the `performance` global (W3C High Resolution Time and User Timing,
// as Node 20 has them), on the VM's logical clock: `performance.now()` is the clock minus
// `timeOrigin`, the clock when the run started (kept in VM state, so it survives an image).
// Time passes only as the logical clock does (timers, host operations), never while the
// program computes: two now() calls with no wait between them are equal.

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

const kInspect = Symbol.for('nodejs.util.inspect.custom');
const kEntry = Symbol('kEntry');
let constructing = false;

function now() {
  return internal.now() - internal.timeOrigin();
}

function inspectAs(name, fields, depth, options) {
  if (depth < 0) return name;
  const { inspect } = require('node:util');
  return `${name} ${inspect(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
}

class PerformanceEntry {
  constructor() {
    if (!constructing) throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  get name() { return this[kEntry].name; }
  get entryType() { return this[kEntry].entryType; }
  get startTime() { return this[kEntry].startTime; }
  get duration() { return this[kEntry].duration; }
  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration };
  }
  [kInspect](depth, options) {
    return inspectAs(this.constructor.name, this.toJSON(), depth, options);
  }
}
Object.defineProperty(PerformanceEntry.prototype, Symbol.toStringTag, { value: 'PerformanceEntry', configurable: true });

function makeEntry(Class, name, entryType, startTime, duration, detail) {
  constructing = true;
  let entry;
  try {
    entry = Reflect.construct(PerformanceEntry, [], Class);
  } finally {
    constructing = false;
  }
  Object.defineProperty(entry, kEntry, { value: { name, entryType, startTime, duration, detail } });
  return entry;
}

function cloneDetail(detail) {
  if (detail === undefined || detail === null) return null;
  return require('node:internal/web').structuredClone(detail);
}

class PerformanceMark extends PerformanceEntry {
  constructor(name, options = undefined) {
    if (arguments.length === 0) throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    constructing = true;
    try {
      super();
    } finally {
      constructing = false;
    }
    if (options != null && typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
    const startTime = options?.startTime ?? now();
    if (typeof startTime !== 'number') throw ERR_INVALID_ARG_TYPE('options.startTime', 'number', startTime);
    if (startTime < 0) {
      throw makeError(TypeError, 'ERR_PERFORMANCE_INVALID_TIMESTAMP', `${startTime} is not a valid timestamp`);
    }
    Object.defineProperty(this, kEntry, {
      value: { name: `${name}`, entryType: 'mark', startTime, duration: 0, detail: cloneDetail(options?.detail) },
    });
  }
  get detail() { return this[kEntry].detail; }
  toJSON() {
    return { ...super.toJSON(), detail: this.detail };
  }
}
Object.defineProperty(PerformanceMark.prototype, Symbol.toStringTag, { value: 'PerformanceMark', configurable: true });

class PerformanceMeasure extends PerformanceEntry {
  get detail() { return this[kEntry].detail; }
  toJSON() {
    return { ...super.toJSON(), detail: this.detail };
  }
}
Object.defineProperty(PerformanceMeasure.prototype, Symbol.toStringTag, { value: 'PerformanceMeasure', configurable: true });

// The performance entry buffer: marks and measures in the order they were made.
let entries = [];

function markTime(name) {
  if (typeof name === 'number') {
    if (name < 0) throw makeError(TypeError, 'ERR_PERFORMANCE_INVALID_TIMESTAMP', `${name} is not a valid timestamp`);
    return name;
  }
  const n = `${name}`;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === 'mark' && entries[i].name === n) return entries[i].startTime;
  }
  const { DOMException } = require('node:internal/web');
  throw new DOMException(`The "${n}" performance mark has not been set`, 'SyntaxError');
}

function byStartTime(list) {
  return list.slice().sort((a, b) => a.startTime - b.startTime);
}

class Performance {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  now() {
    return now();
  }

  get timeOrigin() {
    return internal.timeOrigin();
  }

  mark(name, options = undefined) {
    const mark = new PerformanceMark(name, options);
    entries.push(mark);
    return mark;
  }

  measure(name, startOrOptions = undefined, endMark = undefined) {
    let start;
    let end;
    let detail = null;
    if (startOrOptions !== null && typeof startOrOptions === 'object') {
      const { start: s, end: e, duration: d } = startOrOptions;
      detail = cloneDetail(startOrOptions.detail);
      end = e !== undefined ? markTime(e) : d !== undefined && s !== undefined ? markTime(s) + d : now();
      start = s !== undefined ? markTime(s) : d !== undefined && e !== undefined ? end - d : 0;
    } else {
      end = endMark !== undefined ? markTime(endMark) : now();
      start = startOrOptions !== undefined ? markTime(startOrOptions) : 0;
    }
    const measure = makeEntry(PerformanceMeasure, `${name}`, 'measure', start, end - start, detail);
    entries.push(measure);
    return measure;
  }

  clearMarks(name = undefined) {
    entries = entries.filter((e) => e.entryType !== 'mark' || (name !== undefined && e.name !== `${name}`));
  }

  clearMeasures(name = undefined) {
    entries = entries.filter((e) => e.entryType !== 'measure' || (name !== undefined && e.name !== `${name}`));
  }

  clearResourceTimings() {}

  setResourceTimingBufferSize() {}

  getEntries() {
    return byStartTime(entries);
  }

  getEntriesByName(name, type = undefined) {
    const n = `${name}`;
    return byStartTime(entries.filter((e) => e.name === n && (type === undefined || e.entryType === `${type}`)));
  }

  getEntriesByType(type) {
    const t = `${type}`;
    return byStartTime(entries.filter((e) => e.entryType === t));
  }

  eventLoopUtilization() {
    return { idle: 0, active: 0, utilization: 0 };
  }

  toJSON() {
    return { timeOrigin: this.timeOrigin, eventLoopUtilization: this.eventLoopUtilization() };
  }

  [kInspect](depth, options) {
    return inspectAs('Performance', { timeOrigin: this.timeOrigin }, depth, options);
  }
}
Object.defineProperty(Performance.prototype, Symbol.toStringTag, { value: 'Performance', configurable: true });

const performance = Object.create(Performance.prototype);

module.exports = {
  Performance,
  PerformanceEntry,
  PerformanceMark,
  PerformanceMeasure,
  performance,
  constants: {
    NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8,
    NODE_PERFORMANCE_GC_WEAKCB: 16, NODE_PERFORMANCE_GC_FLAGS_NO: 0, NODE_PERFORMANCE_GC_FLAGS_CONSTRUCT_RETAINED: 2,
    NODE_PERFORMANCE_GC_FLAGS_FORCED: 4, NODE_PERFORMANCE_GC_FLAGS_SYNCHRONOUS_PHANTOM_PROCESSING: 8,
    NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE: 16, NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY: 32,
    NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE: 64,
  },
};
