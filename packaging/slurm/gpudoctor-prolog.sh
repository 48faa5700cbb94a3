#!/bin/bash
# A Slurm Prolog (slurm.conf: Prolog=/usr/local/libexec/gpudoctor-prolog.sh) that checks the GPU
# stack, smoke matmuls included, on each node of a job before the job starts. slurmd runs it as
# root on the job's first step on each node; SLURMD_NODENAME and SLURM_JOB_ID are set.
#
# A non-zero exit drains the node with reason "Prolog error" and requeues the job, which then
# runs elsewhere; so exit 1 only for a failing verdict, and say why in the node's log and in
# the reason of a drain of our own, which gpudoctor-healthcheck resumes once the node is fixed.
# A gpudoctor that cannot run (exit 2) must not take nodes out: it exits 0.
#
#   GPUDOCTOR          the binary (default: gpudoctor on PATH)
#   GPUDOCTOR_ARGS     more arguments for `gpudoctor check`
#   GPUDOCTOR_TIMEOUT  seconds (default 60; PrologEpilogTimeout in slurm.conf bounds it too)
set -u
# shellcheck source=/dev/null
[ -r /etc/default/gpudoctor-healthcheck ] && . /etc/default/gpudoctor-healthcheck

node=${SLURMD_NODENAME:-$(hostname -s)}
read -r -a extra <<<"${GPUDOCTOR_ARGS:-}"
line=$(timeout "${GPUDOCTOR_TIMEOUT:-60}" "${GPUDOCTOR:-gpudoctor}" check --oneline \
  --node-name "$node" "${extra[@]}" 2>/dev/null)
rc=$?
line=${line%%$'\n'*}
case $rc in
  0) exit 0 ;;
  1)
    logger -t gpudoctor-prolog -- "$node job ${SLURM_JOB_ID:-?}: $line" 2>/dev/null
    # Our own reason rather than "Prolog error", so that the health check can resume the node.
    scontrol update nodename="$node" state=drain reason="gpudoctor: ${line%% | *}" 2>/dev/null
    exit 1
    ;;
  *)
    logger -t gpudoctor-prolog -- "$node: gpudoctor could not check (exit $rc): $line" 2>/dev/null
    exit 0
    ;;
esac
