// readline over a stream: lines at \n, \r\n and \r, a last line without a newline, question,
// the async iterator, readline/promises, and the cursor helpers' escape sequences.
const readline = require('readline');
const { PassThrough, Writable, Readable } = require('stream');

const sink = [];
const output = new Writable({
  write(chunk, _enc, cb) {
    sink.push(JSON.stringify(chunk.toString()));
    cb();
  },
});

async function main() {
  const input = new PassThrough();
  const rl = readline.createInterface({ input, output, terminal: false });
  const lines = [];
  rl.on('line', (l) => lines.push(l));
  const closed = new Promise((r) => rl.on('close', r));
  input.write('one\ntwo\r\nthr');
  input.write('ee\rfour\n\nlast');
  input.end();
  await closed;
  console.log(lines, rl.closed);

  const input2 = new PassThrough();
  const rl2 = readline.createInterface({ input: input2, output });
  rl2.question('name? ', (answer) => {
    console.log('answer', answer);
    rl2.close();
  });
  input2.write('amber\nignored\n');
  await new Promise((r) => rl2.on('close', r));

  const rl3 = readline.createInterface({ input: Readable.from(['a\nb', '\nc\n']) });
  const got = [];
  for await (const line of rl3) got.push(line);
  console.log('iterated', got);

  const rlp = require('readline/promises').createInterface({ input: Readable.from(['yes\n']), output });
  console.log('promised', await rlp.question('ok? '));
  rlp.close();

  readline.cursorTo(output, 3);
  readline.cursorTo(output, 3, 4);
  readline.moveCursor(output, -2, 1);
  readline.clearLine(output, 0);
  readline.clearLine(output, -1);
  readline.clearScreenDown(output);
  const r = new (require('readline/promises').Readline)(output);
  await r.cursorTo(1).moveCursor(2, -1).clearLine(1).commit();
  console.log(sink.join(' '));
  console.log(typeof readline.emitKeypressEvents, typeof readline.Interface, rl.getPrompt());
}
main();
