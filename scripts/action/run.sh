#!/usr/bin/env bash
# The action's run step (action.yml): `mm -p --json` with the action's inputs, the events into the
# log, the outputs `answer`, `exit-code` and `json-log` for later steps, and mm's exit code as the
# step's (a failure fails the step unless the workflow says continue-on-error).
#
# Inputs (environment, as action.yml passes them): INPUT_PROMPT, INPUT_PROMPT_FILE, INPUT_AGENT_FILE,
# INPUT_PROVIDER, INPUT_URL, INPUT_MODEL, INPUT_OUTPUT_SCHEMA, INPUT_JSON_LOG, INPUT_YOLO,
# INPUT_ARGS (extra flags, split as xargs splits: quotes group, nothing is run); MM (the program,
# default mm on the PATH); GITHUB_OUTPUT (where the outputs go; unset: not written).
set -uo pipefail

fail() {
  echo "mm action: $*" >&2
  exit 2
}

MM="${MM:-mm}"
# Later steps of the job find this mm on the PATH too.
case "$MM" in */*) [ -n "${GITHUB_PATH:-}" ] && dirname "$MM" >>"$GITHUB_PATH" ;; esac
prompt="${INPUT_PROMPT:-}"
prompt_file="${INPUT_PROMPT_FILE:-}"

if [ -z "$prompt" ] && [ -z "$prompt_file" ]; then
  fail "no prompt: set the input prompt or prompt-file"
fi
if [ -n "$prompt" ] && [ -n "$prompt_file" ]; then
  fail "both prompt and prompt-file are set: give one"
fi
if [ -n "$prompt_file" ] && [ ! -r "$prompt_file" ]; then
  fail "prompt-file $prompt_file cannot be read"
fi

case "${INPUT_YOLO:-false}" in
  true | false) yolo="${INPUT_YOLO:-false}" ;;
  *) fail "yolo takes true or false, not \"${INPUT_YOLO}\"" ;;
esac

args=(--json "--yolo=$yolo")
# The agent file the workflow names is the user's own choice: -c, trusted as such.
[ -n "${INPUT_AGENT_FILE:-}" ] && args+=(-c "$INPUT_AGENT_FILE")
[ -n "${INPUT_PROVIDER:-}" ] && args+=(--provider "$INPUT_PROVIDER")
[ -n "${INPUT_URL:-}" ] && args+=(--url "$INPUT_URL")
[ -n "${INPUT_MODEL:-}" ] && args+=(--model "$INPUT_MODEL")
[ -n "${INPUT_OUTPUT_SCHEMA:-}" ] && args+=(--output-schema "$INPUT_OUTPUT_SCHEMA")
if [ -n "${INPUT_ARGS:-}" ]; then
  if ! extra_text=$(printf '%s\n' "$INPUT_ARGS" | xargs printf '%s\0' 2>&1 | tr '\0' '\n'); then
    fail "args cannot be split (${extra_text}): quote each flag's value whole"
  fi
  while IFS= read -r a; do [ -n "$a" ] && args+=("$a"); done <<<"$extra_text"
fi

log="${INPUT_JSON_LOG:-}"
if [ -z "$log" ]; then
  log=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mm-XXXXXX.jsonl") || fail "cannot make the log file"
fi
mkdir -p "$(dirname "$log")" || fail "cannot make the folder of json-log $log"

if [ -n "$prompt_file" ]; then
  "$MM" -p - "${args[@]}" <"$prompt_file" >"$log"
else
  # On stdin, not in argv: a prompt that starts with a dash is never read as a flag.
  printf '%s' "$prompt" | "$MM" -p - "${args[@]}" >"$log"
fi
code=$?

# The answer: the text of the last event when it is `answer` (with --output-schema: the JSON).
answer_of() {
  local last
  last=$(tail -n 1 "$1")
  [ -n "$last" ] || return 0
  if command -v jq >/dev/null 2>&1; then
    jq -j 'if .type == "answer" then .text else empty end' <<<"$last"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; e=json.loads(sys.stdin.read()); sys.stdout.write(e["text"] if e.get("type")=="answer" else "")' <<<"$last"
  elif command -v node >/dev/null 2>&1; then
    node -e 'const e=JSON.parse(require("fs").readFileSync(0,"utf8")); process.stdout.write(e.type==="answer"?e.text:"")' <<<"$last"
  else
    echo "mm action: no jq, python3 or node to read the answer from $1" >&2
  fi
}
answer=$(answer_of "$log")

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  delimiter="mm_answer_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  {
    echo "exit-code=$code"
    echo "json-log=$log"
    echo "answer<<$delimiter"
    printf '%s\n' "$answer"
    echo "$delimiter"
  } >>"$GITHUB_OUTPUT"
fi
echo "mm exited $code; the events are in $log"
exit "$code"
