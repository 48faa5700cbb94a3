#!/bin/bash
# A Slurm Prolog (slurm.conf: Prolog=/usr/local/libexec/gpudoctor-prolog.sh) that checks the GPU
# stack, smoke matmuls included, on each node of a job before the job starts there. slurmd runs
# it as root; SLURMD_NODENAME and SLURM_JOB_ID are set.
#
# A Prolog that exits non-zero makes Slurm drain the node with reason "Prolog error" and requeue
# the job, which then runs elsewhere: so it exits 1 only for a failing verdict, and says why on
# stderr (slurmd's log) and in syslog. "Prolog error" is Slurm's reason, not gpudoctor's: the
# health check leaves such a node to an admin (scontrol update nodename=… state=resume).
# A gpudoctor that cannot run (exit 2) must not take nodes out: it exits 0.
#
#   GPUDOCTOR          the binary (default: gpudoctor on PATH)
#   GPUDOCTOR_ARGS     more arguments for `gpudoctor check`
#   GPUDOCTOR_DEADLINE seconds gpudoctor's run may take (--deadline, default 55): it gives its
#                      verdict on what it examined by then
#   GPUDOCTOR_TIMEOUT  seconds before `timeout` kills it, a backstop (default 60;
#                      PrologEpilogTimeout in slurm.conf bounds it too)
set -u
# shellcheck source=/dev/null
[ -r /etc/default/gpudoctor-healthcheck ] && . /etc/default/gpudoctor-healthcheck

node=${SLURMD_NODENAME:-$(hostname -s)}
read -r -a extra <<<"${GPUDOCTOR_ARGS:-}"
line=$(timeout "${GPUDOCTOR_TIMEOUT:-60}" "${GPUDOCTOR:-gpudoctor}" check --oneline \
  --deadline "${GPUDOCTOR_DEADLINE:-55}" --node-name "$node" "${extra[@]}" 2>/dev/null)
rc=$?
line=${line%%$'\n'*}
say() {
  echo "gpudoctor-prolog[$node] job ${SLURM_JOB_ID:-?}: $*" >&2
  logger -t gpudoctor-prolog -- "$node job ${SLURM_JOB_ID:-?}: $*" 2>/dev/null
  return 0
}
case $rc in
  0) exit 0 ;;
  1)
    say "$line"
    exit 1
    ;;
  *)
    say "gpudoctor could not check (exit $rc): ${line:-no output}"
    exit 0
    ;;
esac
