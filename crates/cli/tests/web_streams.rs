//! The web platform classes survive an image: a program suspends (on `amber.input`, after an
//! `amber.sleep`) holding a half-read ReadableStream with a read pending, a byte stream
//! with a BYOB read pending, a WritableStream with queued writes, a TransformStream
//! mid-pipe, a Response whose body is half read, Headers, FormData, a Blob and
//! `performance`; a new process resumes it and every one of them finishes. Replay
//! reproduces the output.
#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Sandbox};

const AGENT: &str = r#"
const log = (...a) => console.log(...a);
const origin = performance.timeOrigin;

// A stream fed from outside: one chunk read, the next read pending across the suspension.
let feed;
const fed = new ReadableStream({ start(c) { feed = c; } });
const reader = fed.getReader();
feed.enqueue('first');
log('read', (await reader.read()).value);
const pendingRead = reader.read();

// A byte stream with a BYOB read waiting for its bytes.
let bytesController;
const bytes = new ReadableStream({ type: 'bytes', start(c) { bytesController = c; } });
const byob = bytes.getReader({ mode: 'byob' });
const pendingByob = byob.read(new Uint8Array(4));

// A writable whose sink is blocked, with writes queued behind it.
const written = [];
let releaseSink;
const sink = new WritableStream({
  write(chunk) {
    written.push(chunk);
    if (written.length === 1) return new Promise((resolve) => { releaseSink = resolve; });
  },
}, new CountQueuingStrategy({ highWaterMark: 1 }));
const writer = sink.getWriter();
writer.write('w1');
writer.write('w2');
const w3 = writer.write('w3');

// A pipe through a transform, half done.
let pipeFeed;
const upper = new TransformStream({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()); } });
const piped = [];
const pipeDone = new ReadableStream({ start(c) { pipeFeed = c; } })
  .pipeThrough(upper)
  .pipeTo(new WritableStream({ write(chunk) { piped.push(chunk); } }));
pipeFeed.enqueue('before');

// A response body read part way; headers, form data, a blob.
const response = new Response(ReadableStream.from(['he', 'llo', ' world']).pipeThrough(new TextEncoderStream()), {
  headers: { 'X-Kept': 'yes' },
});
const bodyReader = response.body.getReader();
const firstBodyChunk = new TextDecoder().decode((await bodyReader.read()).value);
const headers = new Headers([['b', '2'], ['a', '1'], ['set-cookie', 'x=1'], ['set-cookie', 'y=2']]);
const form = new FormData();
form.append('field', 'value');
form.append('file', new Blob(['file bytes'], { type: 'text/plain' }), 'f.txt');
const blob = new Blob(['blob ', 'text']);
performance.mark('before', { startTime: 1 });

await amber.sleep(10);
log('slept; suspending with', written.length, 'chunk written and', piped.length, 'piped');
const answer = await amber.input('next chunk?');

// Resumed in a new process: feed everything and finish.
feed.enqueue(answer);
feed.close();
log('pending read', JSON.stringify(await pendingRead), JSON.stringify(await reader.read()));
bytesController.enqueue(new Uint8Array([1, 2, 3]));
const got = await pendingByob;
log('byob', Array.from(got.value), got.done);
releaseSink();
await w3;
log('written', written, writer.desiredSize);
pipeFeed.enqueue('after');
pipeFeed.close();
await pipeDone;
log('piped', piped);
let rest = '';
for (;;) {
  const { value, done } = await bodyReader.read();
  if (done) break;
  rest += new TextDecoder().decode(value);
}
log('body', JSON.stringify(firstBodyChunk + rest), response.headers.get('x-kept'), response.bodyUsed);
log('headers', JSON.stringify([...headers]), headers.getSetCookie());
const multipart = await new Response(form).formData();
log('form', multipart.get('field'), multipart.get('file').name, await multipart.get('file').text());
log('blob', await blob.text(), blob.size);
log('origin kept', performance.timeOrigin === origin, performance.getEntriesByName('before').length);
"#;

#[test]
fn web_streams_and_fetch_classes_survive_an_image() {
    let sb = Sandbox::new("web-streams");
    let file = sb.write("agent.mjs", AGENT);
    let run = sb.amber(&["run", &file, "--session", "web"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "read first\nslept; suspending with 1 chunk written and 1 piped\n");

    let resumed = sb.amber(&["resume", "web", "--input", "second"]);
    expect(&resumed, 0);
    assert_eq!(
        resumed.stdout,
        concat!(
            "pending read {\"value\":\"second\",\"done\":false} {\"done\":true}\n",
            "byob [ 1, 2, 3 ] false\n",
            "written [ 'w1', 'w2', 'w3' ] 1\n",
            "piped [ 'BEFORE', 'AFTER' ]\n",
            "body \"hello world\" yes true\n",
            "headers [[\"a\",\"1\"],[\"b\",\"2\"],[\"set-cookie\",\"x=1\"],[\"set-cookie\",\"y=2\"]] [ 'x=1', 'y=2' ]\n",
            "form value f.txt file bytes\n",
            "blob blob text 9\n",
            "origin kept true 1\n",
        )
    );

    let replay = sb.amber(&["replay", "web", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, format!("{}{}", run.stdout, resumed.stdout));
}
