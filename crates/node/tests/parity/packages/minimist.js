// minimist: argument parsing.
const parse = require('minimist');
const show = (argv, opts) => console.log(JSON.stringify(parse(argv, opts)));
show(['-a', 'beep', '-b', 'boop']);
show(['-x', '3', '-y', '4', '-n5', '-abc', '--beep=boop', 'foo', 'bar', 'baz']);
show(['--no-color', '--name', 'amber', '--count', '7', '--', '--not-a-flag'], { string: ['name'], boolean: ['color'] });
show(['-v', '-v', '--tag', 'a', '--tag', 'b'], { alias: { v: 'verbose' }, default: { level: 1 } });
show(['--key.sub=1', '--key.other', 'x'], { stopEarly: false });
show(['cmd', '--flag', 'rest'], { stopEarly: true });
