// An agent for `amber serve` (docs/server.md): a tool call a tool worker serves, a decision a
// person makes through the API, and a durable sleep the server wakes on its own.
const topic = process.argv[2] ?? "amber";
const shout = await amber.call("upper", { text: topic });
console.log(`tool said ${shout}`);
const go = await amber.input(`publish ${shout}? (yes/no)`);
if (go === "yes") {
  await amber.sleep(1000);
  console.log(`published ${shout}`);
} else {
  console.log("not published");
}
