#!/usr/bin/env bash
# Checks packaging/ with the engines' own tools, offline (tools/fleet-e2e.sh runs it after
# installing them):
#   - promtool check rules and promtool test rules (packaging/prometheus);
#   - kubernetes-validate --strict against Kubernetes 1.30 (packaging/kubernetes), installed
#     from PyPI into a private virtualenv when it is not on PATH;
#   - the node-problem-detector plugin config: its timeouts as node-problem-detector requires
#     them, and its exact command run on fixture machines with the plugin contract's exit codes
#     and an 80-byte message;
#   - LBNL NHC's nhc with packaging/slurm/gpudoctor.nhc, when nhc is installed;
#   - shellcheck of every script, when shellcheck is installed.
#
#   tools/packaging-check.sh [build/gpudoctor]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpudoctor=$(realpath "${1:-$here/build/gpudoctor}")
fixtures="$here/tests/fixtures"
failed=0
ok() { echo "packaging-check: ok: $*"; }
bad() { echo "packaging-check: FAILED: $*"; failed=1; }
skip() { echo "packaging-check: skipped: $*"; }

# --- Prometheus ----------------------------------------------------------------------------
if command -v promtool >/dev/null; then
  if (cd "$here/packaging/prometheus" && promtool check rules gpudoctor-rules.yml >/dev/null &&
    promtool test rules gpudoctor-rules.test.yml >/dev/null); then
    ok "promtool check rules, promtool test rules"
  else
    bad "promtool on packaging/prometheus"
  fi
else
  skip "promtool not installed (Debian: prometheus)"
fi

# --- Kubernetes ----------------------------------------------------------------------------
validator=$(command -v kubernetes-validate || true)
venv=""
if [ -z "$validator" ]; then
  venv=$(mktemp -d /tmp/gpudoctor-kv.XXXXXX)
  if python3 -m venv "$venv" >/dev/null 2>&1 &&
    "$venv/bin/pip" install -q kubernetes-validate >"$venv/pip.log" 2>&1; then
    validator="$venv/bin/kubernetes-validate"
  else
    skip "kubernetes-validate could not be installed: $(tail -n 1 "$venv/pip.log" 2>/dev/null)"
  fi
fi
if [ -n "$validator" ]; then
  if "$validator" --strict -k 1.30.0 "$here"/packaging/kubernetes/*.yaml; then
    ok "kubernetes-validate --strict -k 1.30.0 packaging/kubernetes/*.yaml"
  else
    bad "kubernetes-validate"
  fi
fi
[ -n "$venv" ] && rm -rf "$venv"

# node-problem-detector: the plugin config inside the ConfigMap, and its command on two
# machines (the healthy H100 server, and the driver/library mismatch of
# oddmario/NVIDIA-Ubuntu-Driver-Guide#4).
if python3 - "$here/packaging/kubernetes/node-problem-detector-gpudoctor.yaml" "$gpudoctor" \
  "$fixtures" <<'EOF'; then
import json, re, subprocess, sys
manifest, gpudoctor, fixtures = sys.argv[1:4]
text = open(manifest).read()
block = re.search(r"gpudoctor\.json: \|\n((?:    .*\n|\n)+)", text).group(1)
config = json.loads("\n".join(line[4:] for line in block.splitlines()))
def seconds(s):
    assert s.endswith("s"), s
    return float(s[:-1])
plugin = config["pluginConfig"]
assert config["plugin"] == "custom"
assert plugin["max_output_length"] <= 80, plugin
for rule in config["rules"]:
    # node-problem-detector refuses a rule whose timeout exceeds the plugin's.
    assert seconds(rule["timeout"]) <= seconds(plugin["timeout"]), rule
    assert rule["condition"] in [c["type"] for c in config["conditions"]], rule
    for machine, want, head in [("server-h100-torch-cu124", 0, "OK: 8 GPUs"),
                                ("nvidia-driver-library-mismatch", 1,
                                 "FAIL 1: nvidia.driver_library_mismatch")]:
        argv = [gpudoctor] + rule["args"] + ["--sysroot", f"{fixtures}/{machine}"]
        r = subprocess.run(argv, capture_output=True, timeout=seconds(rule["timeout"]))
        message = r.stdout.strip()[:plugin["max_output_length"]].decode("ascii")
        assert r.returncode == want, (machine, r.returncode, r.stderr)
        assert message.startswith(head), (machine, message)
print("packaging-check: ok: node-problem-detector plugin config and its exit codes")
EOF
  :
else
  bad "node-problem-detector plugin config"
fi

# --- LBNL NHC ------------------------------------------------------------------------------
nhc=$(command -v nhc || true)
if [ -n "$nhc" ]; then
  conf=$(mktemp -d /tmp/gpudoctor-nhc.XXXXXX)
  mkdir -p "$conf/scripts"
  cp "$(dirname "$nhc")/../etc/nhc/scripts/common.nhc" "$conf/scripts/" 2>/dev/null ||
    cp /etc/nhc/scripts/common.nhc "$conf/scripts/"
  cp "$here/packaging/slurm/gpudoctor.nhc" "$conf/scripts/"
  echo "* || check_gpudoctor --sysroot $fixtures/nvidia-driver-library-mismatch" >"$conf/bad.conf"
  echo "* || check_gpudoctor --sysroot $fixtures/server-h100-torch-cu124" >"$conf/good.conf"
  run_nhc() {
    "$nhc" -D "$conf" -c "$conf/$1.conf" NHC_RM=none MARK_OFFLINE=0 FORCE_SETSID=0 \
      LOGFILE="$conf/$1.log" GPUDOCTOR="$gpudoctor"
  }
  if ! run_nhc bad && grep -q "check_gpudoctor:  gpudoctor: FAIL 1: nvidia.driver_library_mismatch" \
    "$conf/bad.log" && run_nhc good; then
    ok "nhc with gpudoctor.nhc"
  else
    bad "nhc with gpudoctor.nhc"
  fi
  rm -rf "$conf"
else
  skip "nhc (LBNL Node Health Check) not installed"
fi

# --- scripts -------------------------------------------------------------------------------
if command -v shellcheck >/dev/null; then
  if shellcheck "$here"/packaging/slurm/gpudoctor-healthcheck "$here"/packaging/slurm/*.sh \
    "$here"/packaging/slurm/gpudoctor.nhc "$here"/tools/fleet-e2e.sh "$0"; then
    ok "shellcheck"
  else
    bad "shellcheck"
  fi
else
  skip "shellcheck not installed"
fi
exit $failed
