//! The host's answers to pending operations: results, rejections, grant decisions, retry
//! attempts and due sleeps, queued for delivery at the next resume.

use super::*;

impl Runtime {
    /// Deliver `value` as the result of pending operation `id` (at the next resume). Its
    /// recorded duration is the host wall clock minus the operation's logical issue time.
    pub fn resolve(&mut self, id: u64, value: serde_json::Value) -> Result<()> {
        let duration = self.wall_duration(id);
        self.resolve_with_duration(id, CallResult::Ok(value), duration)
    }

    /// Reject pending operation `id` with an Error carrying `message`.
    pub fn reject(&mut self, id: u64, message: &str) -> Result<()> {
        let duration = self.wall_duration(id);
        self.resolve_with_duration(id, CallResult::Err(message.to_string()), duration)
    }

    /// Approve pending approval `id` (docs/manifest.md): the gated call is issued at the next
    /// resume. `principal` (free text: who decided) and the host's wall-clock time are
    /// journaled with the decision.
    pub fn approve(&mut self, id: u64, principal: &str) -> Result<()> {
        let at = (self.wall_clock)();
        self.decide(id, &Decision { approved: true, principal: principal.into(), reason: None, decided_at_ms: at })
    }

    /// Deny pending approval `id`: the program's call rejects with `ERR_AMBER_NOT_APPROVED`
    /// carrying `reason`.
    pub fn deny(&mut self, id: u64, principal: &str, reason: &str) -> Result<()> {
        let at = (self.wall_clock)();
        let decision =
            Decision { approved: false, principal: principal.into(), reason: Some(reason.into()), decided_at_ms: at };
        self.decide(id, &decision)
    }

    /// Deliver a decision on pending approval `id` made elsewhere (a server's API, at its
    /// own time): what [`Runtime::approve`] and [`Runtime::deny`] do with this host's clock.
    pub fn decide(&mut self, id: u64, decision: &Decision) -> Result<()> {
        match self.core.vm.host_ops.iter().find(|op| op.id == id) {
            Some(op) if op_kind(op) == OpKind::Approval => {}
            Some(op) => {
                return Err(Error::usage(format!("operation {id} is a {}, not an approval", op.kind)));
            }
            None => {} // resolve_with_duration names the pending ones.
        }
        let duration = self.wall_duration(id);
        self.deliver(id, CallResult::Ok(decision.to_json()), duration)
    }

    /// Journal one failed attempt of pending call `id` that the host will retry (the
    /// manifest's `retry`). Written at once (take it with [`Runtime::take_records`]); replay
    /// passes over it.
    pub fn record_attempt(&mut self, id: u64, attempt: &Attempt) -> Result<()> {
        let Some(op) = self.core.vm.host_ops.iter().find(|op| op.id == id) else {
            return Err(Error::usage(format!("no pending operation has id {id}")));
        };
        if op_kind(op) != OpKind::Call {
            return Err(Error::usage(format!("operation {id} is a {}: only calls are retried", op.kind)));
        }
        if self.core.recorder.strict || self.core.recorder.replaying() {
            return Err(Error::usage("attempts are recorded by a live host, not during a replay"));
        }
        let issue = self.core.recorder.op_issue.get(&id).copied().unwrap_or(self.core.vm.clock_ms);
        let before = self.attempts_elapsed.entry(id).or_insert(0);
        let timestamp = (issue + (*before + attempt.duration_ms) as f64).max(0.0) as u64;
        *before = before.saturating_add(attempt.duration_ms).saturating_add(attempt.backoff_ms);
        let draft = RecordDraft::attempt(op.seq, &op.name, attempt, timestamp);
        self.core.recorder.record(draft, None).map(drop)
    }

    /// Deliver an outcome with an explicit duration (ms the operation took).
    pub fn resolve_with_duration(&mut self, id: u64, result: CallResult, duration_ms: u64) -> Result<()> {
        if let Some(op) = self.core.vm.host_ops.iter().find(|op| op.id == id && op_kind(op) == OpKind::Approval) {
            return Err(Error::usage(format!(
                "operation {id} is an approval of call {:?}: decide it with approve or deny",
                op.name
            )));
        }
        self.deliver(id, result, duration_ms)
    }

    fn deliver(&mut self, id: u64, result: CallResult, duration_ms: u64) -> Result<()> {
        if self.state != State::Running {
            return Err(Error::usage("the program is not running"));
        }
        let Some(op) = self.core.vm.host_ops.iter().find(|op| op.id == id) else {
            let pending: Vec<String> = self.core.vm.host_ops.iter().map(|op| op.id.to_string()).collect();
            return Err(Error::usage(format!(
                "no pending operation has id {id} (pending: {})",
                if pending.is_empty() { "none".to_string() } else { pending.join(", ") }
            )));
        };
        if op_kind(op) == OpKind::Sleep {
            return Err(Error::usage(format!("operation {id} is a sleep: it completes when it is due")));
        }
        if self.deliveries.iter().any(|d| d.id == id) {
            return Err(Error::usage(format!("operation {id} already has a result")));
        }
        if let CallResult::Ok(value) = &result {
            check_depth(value, &format!("result of operation {id}"))?;
        }
        // A result the journal cannot hold rejects this operation (a catchable RangeError in
        // the program); it is never an integrity failure of the session.
        let name = op.name.clone();
        let result = match amber_durable::journal::record_fits(&name, &serde_json::Value::Null, Some(&result)) {
            Ok(()) => result,
            Err(bytes) => CallResult::Err(format!(
                "RangeError: the result of operation {id} ({:?}) is {bytes} bytes, over the journal's record limit of {} bytes",
                name,
                amber_durable::journal::MAX_RECORD_BYTES
            )),
        };
        self.attempts_elapsed.remove(&id);
        self.deliveries.push_back(Delivery { id, result, duration_ms });
        Ok(())
    }

    /// Completes every durable sleep due by the host wall clock `wall_now_ms`; returns their
    /// ids. (Sleeps also complete by themselves when the logical clock passes them.)
    pub fn complete_due_sleeps(&mut self, wall_now_ms: u64) -> Vec<u64> {
        let mut done = Vec::new();
        let due: Vec<(u64, f64)> = self
            .core
            .vm
            .host_ops
            .iter()
            .filter(|op| op_kind(op) == OpKind::Sleep && !self.deliveries.iter().any(|d| d.id == op.id))
            .filter_map(|op| op.due_ms.map(|due| (op.id, due)))
            .filter(|(_, due)| *due <= wall_now_ms as f64)
            .collect();
        for (id, due) in due {
            let issue = self.core.recorder.op_issue.get(&id).copied().unwrap_or(self.core.vm.clock_ms);
            let duration = (wall_now_ms as f64 - issue).max((due - issue).ceil()).max(0.0) as u64;
            self.deliveries.push_back(Delivery {
                id,
                result: CallResult::Ok(serde_json::Value::Null),
                duration_ms: duration,
            });
            done.push(id);
        }
        done
    }

    /// The earliest due time (logical ms) of a pending sleep.
    pub fn next_sleep_due_ms(&self) -> Option<u64> {
        self.core
            .vm
            .host_ops
            .iter()
            .filter(|op| op_kind(op) == OpKind::Sleep)
            .filter_map(|op| op.due_ms)
            .min_by(f64::total_cmp)
            .map(|due| due.max(0.0).ceil() as u64)
    }
}
