#!/usr/bin/env bash
# The Debian package as an operator installs it: made by cpack from this
# build, installed with `apt install ./kestrel_*.deb`, then checked (the
# binary, the configuration and default rules in /etc/kestrel as conffiles,
# the libraries through pkg-config, the systemd unit verified, and, where
# systemd runs, started, reloaded and stopped) and purged again.
# Usage: check_deb.sh <build dir>. Needs root.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
work=$(mktemp -d /tmp/kestrel-deb.XXXXXX)

fail() {
  echo "check_deb: $*" >&2
  exit 1
}

if [[ $(id -u) -ne 0 ]]; then
  echo "check_deb: not root: the package is not installed"
  exit 0
fi
if dpkg -s kestrel >/dev/null 2>&1; then
  fail "a kestrel package is installed already: not touching it"
fi
cleanup() {
  if dpkg -s kestrel >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq kestrel >/dev/null 2>&1 ||
      dpkg --purge kestrel >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work" >/dev/null
deb=$(ls "$work"/kestrel_*.deb)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >/dev/null 2>&1 ||
  fail "apt install $deb failed"

dpkg -s kestrel | grep -q '^Status: install ok installed' || fail "kestrel is not installed"
version=$(/usr/bin/kestrel --version) || fail "kestrel --version failed"
[[ $version == *"$(dpkg-query -W -f='${Version}' kestrel)"* ]] ||
  fail "kestrel --version says '$version', the package another version"
conffiles=$(dpkg-query -W -f='${Conffiles}' kestrel)
for f in /etc/kestrel/kestrel.yaml /etc/kestrel/rules.d/kestrel_rules.yaml; do
  [[ -f $f ]] || fail "$f not installed"
  [[ $conffiles == *"$f"* ]] || fail "$f is not a conffile"
done
/usr/bin/kestrel run -c /etc/kestrel/kestrel.yaml --dry-run >/dev/null 2>"$work/dry.err" ||
  fail "kestrel run -c /etc/kestrel/kestrel.yaml --dry-run: $(cat "$work/dry.err")"
grep -q "rules loaded" "$work/dry.err" || fail "the dry run named no rules: $(cat "$work/dry.err")"
# The modules load from where the package put them: a Kafka output's
# options are checked by librdkafka, inside kestrel_network_outputs.so.
for module in kestrel_webserver.so kestrel_network_outputs.so; do
  dpkg -L kestrel | grep -q "/kestrel/$module\$" || fail "$module is not in the package"
done
/usr/bin/kestrel run -c /etc/kestrel/kestrel.yaml --dry-run -o kafka_output.enabled=true \
  -o kafka_output.brokers=127.0.0.1:9 -o kafka_output.topic=alerts >/dev/null 2>"$work/kafka.err" ||
  fail "a dry run with a Kafka output: $(cat "$work/kafka.err")"
# Without a config, the default rules the package ships beside the binary.
/usr/bin/kestrel rules validate >/dev/null 2>&1 || fail "kestrel rules validate (default rules)"
[[ $(pkg-config --modversion kestrel) == "$(dpkg-query -W -f='${Version}' kestrel)" ]] ||
  fail "pkg-config kestrel: $(pkg-config --modversion kestrel 2>&1)"
pkg-config --exists libpman || fail "pkg-config libpman"
unit=/usr/lib/systemd/system/kestrel.service
[[ -f $unit ]] || fail "no $unit"
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify --man=no "$unit" || fail "systemd-analyze verify $unit"
fi
if [[ -d /run/systemd/system ]]; then
  systemctl start kestrel.service || fail "systemctl start kestrel"
  systemctl is-active --quiet kestrel.service || fail "kestrel.service is not active"
  systemctl reload kestrel.service || fail "systemctl reload kestrel"
  systemctl stop kestrel.service || fail "systemctl stop kestrel"
else
  echo "check_deb: systemd is not running here: the unit is verified, not started"
fi

DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq kestrel >/dev/null 2>&1 ||
  fail "apt purge kestrel failed"
[[ ! -e /usr/bin/kestrel && ! -e /etc/kestrel/kestrel.yaml && ! -e $unit ]] ||
  fail "files left after the purge"
echo "check_deb: $(basename "$deb") installed, checked and purged"
