#!/bin/sh
# A stand-in search tool for the example agent:
#
#   amber run examples/agent.js --host search='sh examples/tools/search.sh'
#
# Amber runs it with the operation's args as JSON on stdin ({"limit":3,"query":"..."}) and
# takes its stdout as the JSON result. A non-zero exit rejects the call with stderr as the
# message. AMBER_IDEMPOTENCY_KEY identifies the operation across retries.
args=$(cat)
query=$(printf '%s' "$args" | sed -n 's/.*"query":"\([^"]*\)".*/\1/p')
if [ -z "$query" ]; then
  echo "search: no query in $args" >&2
  exit 1
fi
printf '{"results":["Durable execution for agents (%s)","Journals, replay and idempotency keys","Snapshots of a running JavaScript heap"]}\n' "$query"
