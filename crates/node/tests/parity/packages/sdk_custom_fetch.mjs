// The official openai and @anthropic-ai/sdk packages over a custom fetch built from Request,
// Response and ReadableStream (no network): a JSON call and an SSE stream from each.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
const seen = [];
const sse = (events) => new ReadableStream({
  start(c) {
    const enc = new TextEncoder();
    for (const e of events) c.enqueue(enc.encode(`data: ${JSON.stringify(e)}\n\n`));
    c.enqueue(enc.encode('data: [DONE]\n\n'));
    c.close();
  },
});
async function fakeFetch(url, init) {
  const req = new Request(url, init);
  const body = req.body ? await req.json() : null;
  seen.push([req.method, new URL(req.url).pathname, req.headers.get('content-type'), body?.stream ?? false]);
  if (new URL(req.url).pathname.endsWith('/messages')) {
    if (body.stream) {
      const events = [
        { type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'c', stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
        { type: 'message_stop' },
      ];
      const enc = new TextEncoder();
      return new Response(new ReadableStream({ start(c) { for (const e of events) c.enqueue(enc.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)); c.close(); } }), { headers: { 'content-type': 'text/event-stream' } });
    }
    return Response.json({ id: 'm0', type: 'message', role: 'assistant', model: 'c', content: [{ type: 'text', text: 'Hi from claude' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 3 } });
  }
  if (body.stream) {
    return new Response(sse([
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'g', choices: [{ index: 0, delta: { content: 'Tok' }, finish_reason: null }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'g', choices: [{ index: 0, delta: { content: 'ens' }, finish_reason: 'stop' }] },
    ]), { headers: { 'content-type': 'text/event-stream' } });
  }
  return Response.json({ id: 'c0', object: 'chat.completion', created: 1, model: 'g', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }] });
}
const openai = new OpenAI({ apiKey: 'k', fetch: fakeFetch, baseURL: 'http://fake.local/v1' });
const done = await openai.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'hi' }] });
console.log('openai', done.choices[0].message.content);
const stream = await openai.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'hi' }], stream: true });
let text = '';
for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
console.log('openai stream', text);
const anthropic = new Anthropic({ apiKey: 'k', fetch: fakeFetch, baseURL: 'http://fake.local' });
const msg = await anthropic.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
console.log('anthropic', msg.content[0].text);
const ms = anthropic.messages.stream({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
let atext = '';
ms.on('text', (t) => { atext += t; });
const final = await ms.finalMessage();
console.log('anthropic stream', atext, final.content[0].text);
console.log(JSON.stringify(seen));
