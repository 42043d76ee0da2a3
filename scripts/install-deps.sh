#!/usr/bin/env bash
# Installs what Kestrel builds, tests and runs with on Debian 12. Idempotent:
# it only goes to the network when a package is missing. With --tests, also
# what the tests need beyond the build: podman (with runc, since crun
# refuses hybrid cgroups), busybox-static, of which the container tests
# build their image, curl, with which they ask podman's API, containerd,
# which the CRI tests start a private instance of, and python3 and openssl,
# an HTTPS receiver with its own CA for the HTTP output's tests.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang llvm clang-14 libclang-rt-14-dev libbpf-dev bpftool libelf-dev zlib1g-dev
  libyaml-cpp-dev libre2-dev libabsl-dev libcli11-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcurl4-openssl-dev librdkafka-dev libcpp-httplib-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  clang-format clang-tidy-14
)
if [[ ${1:-} == --tests ]]; then
  packages+=(podman runc busybox-static curl containerd python3 openssl python3-prometheus-client)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-deps: missing packages (${missing[*]}); run as root to install them" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
