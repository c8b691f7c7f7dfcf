// The same packages from an ES module: CommonJS packages through the synthetic default, and
// packages with "exports" import conditions (uuid's ESM build).
import semver from 'semver';
import yaml from 'js-yaml';
import { v5, validate } from 'uuid';
import ms from 'ms';
import dayjs from 'dayjs';
console.log(semver.satisfies('2.0.0', '^2'), yaml.load('a: [1, 2]').a, v5('x', v5.URL), validate(v5('x', v5.URL)));
console.log(ms('1h'), dayjs('2024-01-01T00:00:00Z').toISOString());
