#!/usr/bin/env bash
# Fails when a user-space include goes against the layering:
#   libpman  <-  engine  <-  agent  <-  CLI
# Each layer includes only the ones before it (and driver/modern_bpf/shared/,
# abseil, the system); the agent's folders in their own order
# (userspace/agent/README.md); the CLI only the agent's public headers, and
# its `run` verbs nothing of the engine. The probe's helpers have their own
# check (check_helper_layers.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/userspace"
bad=0

complain() {
  echo "$1: includes \"$2\": $3" >&2
  bad=1
}

# Every quoted include of the C/C++ files under $1, as "FILE<TAB>TARGET".
includes() {
  find "$1" \( -name '*.h' -o -name '*.c' -o -name '*.cpp' -o -name '*.hpp' \) -print0 |
    xargs -0 grep -HE '^#include "[^"]+"' |
    sed -E 's|^([^:]+):#include "([^"]+)".*|\1\t\2|' || true
}

# libpman: its own headers, shared/ and the generated skeletons only.
while IFS=$'\t' read -r file target; do
  case $target in
    engine/* | agent/* | kestrel/*) complain "$file" "$target" "libpman is below the engine, the agent and the CLI" ;;
  esac
done < <(includes libpman)

# The engine: no agent, no CLI, and no network client (alert channels,
# runtime clients, libcurl, librdkafka and gRPC are the agent's).
while IFS=$'\t' read -r file target; do
  case $target in
    agent/* | kestrel/*) complain "$file" "$target" "the engine is below the agent and the CLI" ;;
  esac
done < <(includes engine)
while IFS= read -r file; do
  complain "$file" "$(grep -m1 -oE '<(curl|grpc|librdkafka)[^>]*>' "$file")" "network clients belong to the agent"
done < <(grep -rlE '^#include <(curl|grpc|grpcpp|librdkafka)/' engine || true)

# The agent: its folders in order; top-level files (agent.h) above them
# all but quote.h, which anything may use; api/ above agent.h.
agent_layers=(modules probe outputs containers config rules pipeline control observe top api)
agent_rank() {
  local i
  for i in "${!agent_layers[@]}"; do [[ ${agent_layers[$i]} == "$1" ]] && echo "$i" && return; done
  echo "unknown agent folder $1" >&2
  exit 1
}
agent_folder() { # agent/<folder>/x.h -> folder; agent/x.h -> top
  local rest=${1#agent/}
  [[ $rest == */* ]] && echo "${rest%%/*}" || echo top
}
while IFS=$'\t' read -r file target; do
  case $target in
    kestrel/*) complain "$file" "$target" "the agent is below the CLI" ;;
    agent/quote.h) ;;
    agent/*)
      own=$(agent_rank "$(agent_folder "$file")")
      their=$(agent_rank "$(agent_folder "$target")")
      if ((their > own)); then
        complain "$file" "$target" "agent/$(agent_folder "$file") is below agent/$(agent_folder "$target") (userspace/agent/README.md)"
      fi
      ;;
  esac
done < <(includes agent)

# The CLI: the agent's public headers only (agent.h, quote.h, probe/); the
# run verbs (kestrel/run/) not the engine either: they are the agent's
# thinnest client.
while IFS=$'\t' read -r file target; do
  case $target in
    agent/agent.h | agent/quote.h | agent/probe/*) ;;
    agent/*) complain "$file" "$target" "the CLI includes only the agent's public headers (agent.h, quote.h, probe/)" ;;
    engine/*)
      [[ $file == kestrel/run/* ]] &&
        complain "$file" "$target" "the run verbs reach the engine only through the agent"
      ;;
  esac
done < <(includes kestrel)

# The bench and the fuzzers measure and fuzz the product's layers, never
# the CLI (the `kestrel bench` verb is the CLI's: kestrel/bench/).
for dir in ../tools/bench ../test/fuzz; do
  while IFS=$'\t' read -r file target; do
    case $target in
      kestrel/*) complain "$file" "$target" "the bench and the fuzzers reach the product through the agent, not the CLI" ;;
    esac
  done < <(includes "$dir")
done

((bad == 0)) && echo "user-space layers: libpman <- engine <- agent <- CLI, every include goes down"
exit "$bad"
