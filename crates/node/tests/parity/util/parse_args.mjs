import { parseArgs } from 'node:util';

const show = (r) => console.log(JSON.stringify({ values: { ...r.values }, positionals: r.positionals }));
const options = {
  verbose: { type: 'boolean', short: 'v' },
  name: { type: 'string', short: 'n' },
  tag: { type: 'string', multiple: true, short: 't' },
  level: { type: 'string', default: 'info' },
};
show(parseArgs({ args: ['-v', '--name', 'amber', '-t', 'a', '--tag=b'], options }));
show(parseArgs({ args: ['-vn', 'joined', 'pos1', '--', '--not-an-option'], options, allowPositionals: true }));
show(parseArgs({ args: ['-nvalue'], options }));
show(parseArgs({ args: ['--level', 'debug'], options }));
show(parseArgs({ args: ['--unknown', 'x', '-z'], strict: false }));
for (const args of [['--bogus'], ['pos'], ['--name'], ['--verbose=yes']]) {
  try {
    parseArgs({ args, options });
  } catch (e) {
    console.log(e.code, e.message);
  }
}
const { tokens } = parseArgs({ args: ['-v', 'x', '--name=y'], options, tokens: true, allowPositionals: true });
console.log(JSON.stringify(tokens));
show(parseArgs({ args: ['--no-verbose'], options, allowNegative: true }));
