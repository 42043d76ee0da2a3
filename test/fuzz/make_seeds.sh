#!/usr/bin/env bash
# Remakes the record and capture-file seeds from a short live capture of
# this machine, made by Kestrel itself. The filter, settings and config seeds
# are written by hand (corpus/filter_fuzzer, corpus/settings_fuzzer,
# corpus/config_fuzzer); the rules seeds are Kestrel's default rules split
# by split_rules_seeds.py, plus a few written by hand.
#
#   test/fuzz/make_seeds.sh [KESTREL_BINARY] [FUZZ_BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kestrel=${1:-$here/../../build/userspace/kestrel/kestrel}
fuzz_build=${2:-$here/../../build-fuzz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A workload that makes processes, files, pipes and sockets.
workload() {
  sleep 0.5
  for _ in 1 2 3; do
    sh -c 'cat /etc/hostname > /dev/null; ls / > /dev/null; echo x | cat > /dev/null'
    bash -c 'exec 3<>/dev/tcp/127.0.0.1/9 || true' 2>/dev/null || true
  done
}
workload &
"$kestrel" capture -w "$tmp/seed.kcap" --duration 2 \
  --syscalls openat,close,execve,clone,clone3,connect,socket,dup2,pipe2,read,write,fcntl >/dev/null
wait
# A small whole file for the capture-file reader: few syscalls, one second.
workload &
"$kestrel" capture -w "$tmp/small.kcap" --duration 1.5 --syscalls openat,execve >/dev/null
wait

rm -f "$here"/corpus/record_fuzzer/* "$here"/corpus/capture_file_fuzzer/*
mkdir -p "$here/corpus/record_fuzzer" "$here/corpus/capture_file_fuzzer"
"$fuzz_build/test/fuzz/fuzz_seed_splitter" "$tmp/seed.kcap" "$here/corpus/record_fuzzer" 24
cp "$tmp/small.kcap" "$here/corpus/capture_file_fuzzer/openat-execve.kcap"
# And a cut one: read up to the damage.
head -c 600 "$tmp/small.kcap" > "$here/corpus/capture_file_fuzzer/cut.kcap"
du -sh "$here"/corpus/*
