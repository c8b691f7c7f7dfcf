// A JSON module imported without `with { type: 'json' }`: Node 20's TypeError
// ERR_IMPORT_ASSERTION_TYPE_MISSING (the file URL in the message, made relative here).
try {
  await import('./fixtures/data.json');
} catch (e) {
  console.log(e.constructor.name, e.code, e.message.replace(/file:\/\/.*\/fixtures\//, 'file://…/fixtures/'));
}
const data = await import('./fixtures/data.json', { with: { type: 'json' } });
console.log(data.default.answer);
