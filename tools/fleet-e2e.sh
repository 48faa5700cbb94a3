#!/usr/bin/env bash
# gpudoctor with the real engines, end to end (issue 16): Debian's slurm-wlm, munge, prometheus
# and prometheus-node-exporter on 127.0.0.1, all started here as plain processes.
#
#   tools/fleet-e2e.sh [build/gpudoctor]
#
# A controller and four slurmd "nodes" n1..n4 on this host. Their HealthCheckProgram is
# packaging/slurm/gpudoctor-healthcheck, pointed by --sysroot at a fixture machine: the healthy
# eight-H100 server for n1, n2, n4, and for n3 the driver/library mismatch of
# oddmario/NVIDIA-Ubuntu-Driver-Guide#4. Each health check also writes its metrics into a
# node_exporter textfile directory; Prometheus scrapes it and evaluates
# packaging/prometheus/gpudoctor-rules.yml. Asserted: n3 is drained with reason
# "gpudoctor: FAIL 1: nvidia.driver_library_mismatch", the others are not; a job for three nodes
# runs on n1, n2 and n4; a job asking for n3 cannot start; Prometheus holds the failing finding
# and the GpudoctorFailure alert fires for n3; once n3's machine is fixed (the healthy fixture),
# the health check resumes it and its metrics say so; a node an admin drained stays drained; the
# prolog example keeps a job off n4 when n4's check fails. Every daemon started here is stopped by
# PID at the end, a zombie counting as stopped (/proc/PID/stat), whatever happened.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
gpudoctor=$(realpath "${1:-$here/build/gpudoctor}")
if [ "$(id -u)" -ne 0 ]; then
  # slurmd runs health checks as root; munged and the controller are simplest as root too.
  exec sudo -E "$0" "$gpudoctor"
fi
[ -x "$gpudoctor" ] || { echo "fleet-e2e: no gpudoctor at $gpudoctor (build it first)" >&2; exit 1; }

start=$(date +%s.%N)
say() { printf 'fleet-e2e [%5.1fs] %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

# --- the packages ---------------------------------------------------------------------------
packages=(slurmctld slurmd slurm-client munge prometheus prometheus-node-exporter bc curl
  python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "fleet-e2e: installing ${missing[*]}" >&2
  # The packages must not start their own services: a policy-rc.d refusing every start, only
  # while they install and only if the system has none.
  made_policy=no
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    made_policy=yes
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  [ "$made_policy" = yes ] && rm -f /usr/sbin/policy-rc.d
fi
say "packages: $(dpkg-query -W -f='${Package} ${Version}, ' slurmd munge prometheus prometheus-node-exporter | sed 's/, $//')"

# --- packaging/, checked with the engines' own tools --------------------------------------
"$here/tools/packaging-check.sh" "$gpudoctor" | grep -v '^INFO' | sed 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "tools/packaging-check.sh"
say "packaging/ checked"

# --- the daemons, and stopping them whatever happens ---------------------------------------
work=$(mktemp -d /tmp/gpudoctor-e2e.XXXXXX)
chmod 755 "$work"
pids=()
names=()

alive() {  # running, and not a zombie waiting to be reaped
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

stop_all() {
  local rc=$? i deadline
  for i in "${!pids[@]}"; do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
  deadline=$((SECONDS + 15))
  for i in "${!pids[@]}"; do
    while alive "${pids[$i]}" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    if alive "${pids[$i]}"; then
      echo "fleet-e2e: ${names[$i]} (pid ${pids[$i]}) did not stop; killing it" >&2
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
    wait "${pids[$i]}" 2>/dev/null || true
  done
  local left=0
  for i in "${!pids[@]}"; do
    if alive "${pids[$i]}"; then
      echo "fleet-e2e: ${names[$i]} (pid ${pids[$i]}) is still running" >&2
      left=1
    fi
  done
  if [ $rc -ne 0 ]; then
    echo "fleet-e2e: logs in $work kept:" >&2
    tail -n 5 "$work"/*.log >&2 2>/dev/null || true
  else
    rm -rf "$work"
  fi
  [ $left -eq 0 ] && echo "fleet-e2e: every daemon started here is stopped (${#pids[@]}: ${names[*]})" >&2
  exit $rc
}
trap stop_all EXIT
trap 'exit 130' INT TERM

launch() {  # name, command…: started in the foreground mode of each daemon, in the background
  local name=$1
  shift
  "$@" >"$work/$name.out" 2>&1 &
  pids+=($!)
  names+=("$name")
}

wait_for() {  # seconds, what, command…
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || fail "timed out after ${limit}s waiting for $what"
    sleep 0.2
  done
}

# munge: a key of our own and a socket of our own.
mungekey --create --keyfile="$work/munge.key" --force
chmod 600 "$work/munge.key"
launch munged munged --foreground --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed"
wait_for 10 munged test -S "$work/munge.sock"

healthy="$here/tests/fixtures/server-h100-torch-cu124"
broken="$here/tests/fixtures/nvidia-driver-library-mismatch"
mkdir -p "$work/textfile"
for n in n1 n2 n3 n4; do
  echo "--sysroot $healthy" >"$work/args-$n"
  echo "--sysroot $healthy" >"$work/prolog-args-$n"
done
echo "--sysroot $broken" >"$work/args-n3"

# slurmd gives the health check no SLURM_CONF and no arguments: this wrapper is what a site's
# /etc/default/gpudoctor-healthcheck would be, one per emulated node.
cat >"$work/healthcheck" <<EOF
#!/bin/bash
export SLURM_CONF="$work/slurm.conf"
export GPUDOCTOR="$gpudoctor"
export GPUDOCTOR_ARGS="\$(cat "$work/args-\$SLURMD_NODENAME")"
export GPUDOCTOR_TEXTFILE="$work/textfile/gpudoctor-\$SLURMD_NODENAME.prom"
exec "$here/packaging/slurm/gpudoctor-healthcheck" 2>>"$work/healthcheck.log"
EOF
chmod 755 "$work/healthcheck"
cat >"$work/prolog" <<EOF
#!/bin/bash
export SLURM_CONF="$work/slurm.conf"
export GPUDOCTOR="$gpudoctor"
export GPUDOCTOR_ARGS="\$(cat "$work/prolog-args-\$SLURMD_NODENAME")"
exec "$here/packaging/slurm/gpudoctor-prolog.sh" 2>>"$work/prolog.log"
EOF
chmod 755 "$work/prolog"

cat >"$work/slurm.conf" <<EOF
ClusterName=gpudoctor-e2e
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/spool-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
HealthCheckProgram=$work/healthcheck
HealthCheckInterval=2
HealthCheckNodeState=ANY
Prolog=$work/prolog
NodeName=n[1-4] NodeHostname=localhost NodeAddr=127.0.0.1 Port=17001-17004 CPUs=1 State=UNKNOWN
PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=INFINITE State=UP
EOF
mkdir -p "$work/ctld"
export SLURM_CONF="$work/slurm.conf"

launch slurmctld slurmctld -D -i -f "$work/slurm.conf"
wait_for 20 slurmctld scontrol ping
for n in n1 n2 n3 n4; do
  mkdir -p "$work/spool-$n"
  launch "slurmd-$n" slurmd -D -N "$n" -f "$work/slurm.conf"
done
say "munged, slurmctld and slurmd n1..n4 started"

node_field() {  # node, field: from scontrol show node
  scontrol show node --oneliner "$1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"
}
reason_of() {
  scontrol show node --oneliner "$1" | sed -n 's/.* Reason=\(.*\)$/\1/p' | sed 's/ \[[^]]*\]$//'
}
n3_drained() { [[ "$(node_field n3 State)" == *DRAIN* ]]; }
others_idle() {
  local n
  for n in n1 n2 n4; do [[ "$(node_field "$n" State)" == IDLE ]] || return 1; done
}

# --- Slurm: the faulty node drained, jobs avoid it ------------------------------------------
wait_for 60 "n3 to be drained" n3_drained
wait_for 60 "n1, n2, n4 to be idle" others_idle
reason=$(reason_of n3)
[ "$reason" = "gpudoctor: FAIL 1: nvidia.driver_library_mismatch" ] || fail "n3's reason: '$reason'"
say "n3 drained: $(node_field n3 State), reason \"$reason\"; n1 n2 n4 idle"
sinfo -R -o '%60E %10U %N' | sed 's/^/    /'

# shellcheck disable=SC2016 # expanded by the job's shell on each node
ran=$(srun -N3 --ntasks-per-node=1 --time=1 bash -c 'echo $SLURMD_NODENAME' | sort | tr '\n' ' ')
[ "$ran" = "n1 n2 n4 " ] || fail "a job on three nodes ran on: $ran"
say "srun -N3 ran on: $ran"
if srun -w n3 --immediate=3 --time=1 true 2>"$work/srun-n3.err"; then
  fail "a job ran on the drained n3"
fi
say "srun -w n3 could not start: $(tr '\n' ' ' <"$work/srun-n3.err" | cut -c1-100)"

# --- Prometheus: the failing metric and the alert -------------------------------------------
# The shipped example (packaging/prometheus/prometheus.yml) with this run's ports, paths and a
# one-second rhythm.
sed -e "s#localhost:9100#127.0.0.1:19100#" \
    -e "s#/etc/prometheus/gpudoctor-rules.yml#$here/packaging/prometheus/gpudoctor-rules.yml#" \
    -e "s#\(scrape_interval\|evaluation_interval\): .*#\1: 1s#" \
    "$here/packaging/prometheus/prometheus.yml" >"$work/prometheus.yml"
promtool check config "$work/prometheus.yml" >/dev/null || fail "promtool check config"
launch node_exporter prometheus-node-exporter --web.listen-address=127.0.0.1:19100 \
  --collector.disable-defaults --collector.textfile --collector.textfile.directory="$work/textfile"
launch prometheus prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address=127.0.0.1:19090
promql() {  # query → the JSON result vector
  curl -sf --get --data-urlencode "query=$1" http://127.0.0.1:19090/api/v1/query |
    python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["data"]["result"]))'
}
has_series() {  # the query answers, with at least one series
  local r
  r=$(promql "$1" 2>/dev/null) || return 1
  [ -n "$r" ] && [ "$r" != "[]" ]
}
wait_for 60 "Prometheus to hold n3's failing finding" \
  has_series 'gpudoctor_finding{Hostname="n3",id="nvidia.driver_library_mismatch",level="fail"} == 1'
series() {  # query → one line per series: name{labels} value
  promql "$1" | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    m = s["metric"]
    labels = ",".join(k + "=\"" + v + "\"" for k, v in sorted(m.items()) if k != "__name__")
    print("    " + m.get("__name__", "") + "{" + labels + "} " + s["value"][1])'
}
say "Prometheus holds:"
series 'gpudoctor_finding{level="fail"}'
series 'gpudoctor_check_failed'
wait_for 20 "n1's GPUs with dcgm-exporter's modelName label (metric_relabel_configs)" \
  has_series 'gpudoctor_gpu_info{Hostname="n1",modelName="GH100[H100 SXM5 80GB]",pci_bus_id="00000000:DF:00.0"}'
alert_firing() {
  curl -sf http://127.0.0.1:19090/api/v1/alerts | python3 -c '
import json, sys
alerts = json.load(sys.stdin)["data"]["alerts"]
hit = [a for a in alerts if a["labels"].get("alertname") == "GpudoctorFailure"
       and a["labels"].get("Hostname") == "n3" and a["state"] == "firing"]
others = [a for a in alerts if a["labels"].get("Hostname") in ("n1", "n2", "n4")]
sys.exit(0 if hit and not others else 1)'
}
wait_for 60 "the GpudoctorFailure alert to fire for n3" alert_firing
say "alert GpudoctorFailure firing for n3: $(curl -sf http://127.0.0.1:19090/api/v1/alerts |
  python3 -c 'import json,sys; a=[x for x in json.load(sys.stdin)["data"]["alerts"] if x["labels"]["alertname"]=="GpudoctorFailure"][0]; print(a["labels"]["severity"], "-", a["annotations"]["summary"])')"

# --- fixed: resumed -------------------------------------------------------------------------
echo "--sysroot $healthy" >"$work/args-n3"
n3_idle() { [[ "$(node_field n3 State)" == IDLE ]] && [ -z "$(reason_of n3)" ]; }
wait_for 60 "n3 to be resumed" n3_idle
say "n3 fixed: resumed by its health check, state $(node_field n3 State)"
wait_for 30 "n3's metrics to clear" has_series 'gpudoctor_check_failed{Hostname="n3"} == 0'
say "Prometheus: gpudoctor_check_failed{Hostname=\"n3\"} is 0"
# Another tool's or an admin's reason is never touched: n2 drained by hand stays drained with
# its reason through health checks that find it healthy.
scontrol update nodename=n2 state=drain reason="admin: fan replaced, burn-in first"
sleep 5  # two health check intervals
[[ "$(node_field n2 State)" == *DRAIN* ]] || fail "n2, drained by an admin, was resumed"
[ "$(reason_of n2)" = "admin: fan replaced, burn-in first" ] || fail "n2's reason: '$(reason_of n2)'"
say "n2 drained by an admin stays drained through its health checks: \"$(reason_of n2)\""
scontrol update nodename=n2 state=resume

# The prolog example: a job on n4 whose machine fails (the health check still sees the healthy
# one) drains n4 with Slurm's "Prolog error" and does not run there.
echo "--sysroot $broken" >"$work/prolog-args-n4"
job=$(sbatch --parsable -w n4 -o /dev/null --time=1 --wrap true)
n4_prolog_drained() { [[ "$(node_field n4 State)" == *DRAIN* ]] && [ "$(reason_of n4)" = "Prolog error" ]; }
wait_for 30 "n4 to be drained by its prolog" n4_prolog_drained
sleep 3  # a health check interval: it must leave Slurm's reason alone
n4_prolog_drained || fail "n4's 'Prolog error' drain was changed: $(reason_of n4)"
say "prolog: job $job on n4 refused ($(squeue -h -j "$job" -o '%T %r' 2>/dev/null || echo gone)); n4 \"$(reason_of n4)\", left to an admin"
say "prolog logged: $(cut -c1-90 "$work/prolog.log" | head -n 1)"
scancel "$job" 2>/dev/null || true
scontrol update nodename=n4 state=resume
say "what n3's health check did (it calls scontrol only when the verdict changes):"
grep -h 'gpudoctor-healthcheck\[n3\]' "$work/healthcheck.log" | cut -c1-110 | sed 's/^/    /'
say "PASS"
