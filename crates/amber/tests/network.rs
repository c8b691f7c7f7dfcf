//! The network through the embedding API: an in-process `http_handler` serves `fetch`, the
//! embedder drives `serve_network` between slices, an image taken while a body is half read
//! resumes in a new runtime, and a replay of the journal answers every request without the
//! handler.
#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use amber::net::{HttpHead, HttpResponse, NetFailure, NetPolicy};
use amber::{Journal, Outcome, Program, Runtime, RuntimeBuilder};
use support::{capture, take_output};

const START: u64 = 1_700_000_000_000;

fn builder(calls: &Arc<AtomicUsize>) -> RuntimeBuilder {
    let calls = calls.clone();
    Runtime::builder()
        .print_hook(capture)
        .start_time_ms(START)
        .seed([3; 32])
        .net_policy(NetPolicy::parse(["api.example.test"]).unwrap())
        .session_label("t")
        .http_handler(Box::new(move |request| {
            calls.fetch_add(1, Ordering::SeqCst);
            if request.url.ends_with("/down") {
                return Err(NetFailure::new("ECONNREFUSED", "connection refused"));
            }
            let key = request.headers.iter().find(|(n, _)| n == "idempotency-key").map(|(_, v)| v.clone());
            let body = format!(
                "{} {} {} key={}",
                request.method,
                request.url,
                request.body.as_ref().map_or(0, |b| b.len()),
                key.unwrap_or_default()
            );
            Ok(HttpResponse {
                head: HttpHead {
                    status: 200,
                    status_text: "OK".into(),
                    headers: vec![("content-type".into(), "text/plain".into())],
                    url: request.url.clone(),
                    redirected: false,
                },
                body: body.repeat(if request.url.ends_with("/big") { 2000 } else { 1 }).into_bytes(),
            })
        }))
}

const PROGRAM: &str = r#"
(async () => {
  const r = await fetch('http://api.example.test/a', { method: 'POST', body: 'hello' });
  console.log(r.status, r.headers.get('content-type'), await r.text());
  const big = await fetch('http://api.example.test/big');
  const reader = big.body.getReader();
  const first = await reader.read();
  const answer = await amber.input('go on?');
  let n = first.value.length;
  for (;;) { const { done, value } = await reader.read(); if (done) break; n += value.length; }
  console.log('big', n, answer);
  try { await fetch('http://api.example.test/down'); } catch (e) { console.log(e.message, e.cause.code); }
  try { await fetch('http://elsewhere.test/'); } catch (e) { console.log(e.message, e.cause.code); }
})();
"#;

/// The embedder's blob store.
type Blobs = Arc<Mutex<BTreeMap<[u8; 32], Vec<u8>>>>;

/// Runs until the program waits on something other than the network, serving it in between;
/// the records taken go to `journal` (the embedder's store).
fn drive(rt: &mut Runtime, mut outcome: Outcome, journal: &mut Vec<amber::CallRecord>, blobs: &Blobs) -> Outcome {
    loop {
        for (digest, bytes) in rt.take_blobs() {
            blobs.lock().unwrap().insert(digest.0, bytes.to_vec());
        }
        journal.extend(rt.take_records());
        match outcome {
            Outcome::Suspended(_) if rt.network_pending() && rt.serve_network().unwrap() => {
                outcome = rt.resume().unwrap();
            }
            other => return other,
        }
    }
}

#[test]
fn fetch_through_a_handler_suspends_restores_and_replays_without_it() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut journal = Vec::new();
    let blobs: Blobs = Arc::default();
    let program = Program::script("agent.js", PROGRAM);
    let mut rt = builder(&calls).build().unwrap();
    let first = rt.run(&program).unwrap();
    let outcome = drive(&mut rt, first, &mut journal, &blobs);
    let Outcome::Suspended(pending) = outcome else { panic!("expected the input, got {outcome:?}") };
    assert_eq!(pending.len(), 1, "{pending:?}");
    let input = pending[0].id;
    let run_id = rt.run_id().unwrap();
    assert_eq!(take_output(), format!("200 text/plain POST http://api.example.test/a 5 key=t:{run_id}:1\n"));
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    // An image with the big body half read; the restoring runtime has a handler too, but the
    // rest of the body must come from a re-sent request (the connection did not survive).
    let image = rt.snapshot().unwrap();
    let mut rt = builder(&calls).restore(&image, None).unwrap();
    rt.resolve(input, serde_json::json!("yes")).unwrap();
    let resumed = rt.resume().unwrap();
    let outcome = drive(&mut rt, resumed, &mut journal, &blobs);
    assert_eq!(outcome, Outcome::Completed(serde_json::Value::Null));
    let run_id = rt.run_id().unwrap();
    let big = format!("GET http://api.example.test/big 0 key=t:{run_id}:7").len() * 2000;
    assert_eq!(take_output(), format!("big {big} yes\nfetch failed ECONNREFUSED\nfetch failed ERR_AMBER_NET_DENIED\n"));
    // The first request, the big one, its re-send after the restore, the refused one.
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    // Replay from the top: every answer comes from the journal.
    let journal = Journal::from_records(journal).unwrap();
    let replay_calls = Arc::new(AtomicUsize::new(0));
    // The big body was a blob: replay reads it from the embedder's store.
    assert!(!blobs.lock().unwrap().is_empty());
    let store = blobs.clone();
    let source = Box::new(move |hash: &[u8; 32]| store.lock().unwrap().get(hash).cloned());
    let mut replay = builder(&replay_calls).print_while_replaying(true).blob_source(source).replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(replay_calls.load(Ordering::SeqCst), 0, "replay called the handler");
    let replayed = take_output();
    assert!(replayed.contains("fetch failed ERR_AMBER_NET_DENIED"), "{replayed}");
}
