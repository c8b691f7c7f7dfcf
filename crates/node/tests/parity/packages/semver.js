// semver: parsing, comparing and ranges.
const semver = require('semver');
console.log(semver.valid('1.2.3'), semver.valid('a.b.c'), semver.clean('  =v1.2.3   '));
console.log(semver.satisfies('1.2.3', '1.x || >=2.5.0 || 5.0.0 - 7.2.3'), semver.gt('1.2.3', '9.8.7'), semver.lt('1.2.3', '9.8.7'));
console.log(semver.minVersion('>=1.0.0').version, semver.coerce('v2').version, semver.inc('1.2.3', 'prerelease', 'beta'));
console.log(['1.10.0', '1.2.0', '1.2.0-alpha', '0.9.9'].sort(semver.compare));
console.log(semver.maxSatisfying(['1.2.3', '1.2.4', '1.3.0', '2.0.0'], '~1.2.0'), semver.validRange('^1.2'));
const v = semver.parse('3.4.5-rc.1+build.7');
console.log(v.major, v.minor, v.patch, v.prerelease, v.build, v.format());
console.log(semver.diff('1.2.3', '1.3.0'), semver.intersects('^1.0.0', '~1.5.0'));
try {
  new semver.SemVer('nope');
} catch (e) {
  console.log(e.name, e.message);
}
