#!/usr/bin/env bash
# A real SLURM run of the smoke workflow (issue 8, part 1).
#
# Starts a single-node SLURM cluster on this machine (munged, slurmctld and slurmd run in
# the foreground as our children: no systemd, no accounting, no cgroups), runs
# config/smoke.yaml twice, each in its own copy of the repository's work tree -- once
# locally with --cores 2, once through workflow/profiles/slurm -- and checks with
# tests/workflow/cluster/compare_records.py that both runs wrote the same records (every field but
# the timing ones). Every daemon it started is stopped on exit, whatever the exit.
#
# Needs: root; Debian's slurmctld, slurmd, slurm-client and munge (installed with apt-get
# when missing); a Python with mkbench's dependencies and snakemake-executor-plugin-slurm
# (pip install -e '.[slurm]'); SLURM's ports 6817/6818 free (no other slurmctld/slurmd).
# It writes /etc/slurm/slurm.conf (an existing one is moved aside and put back on exit):
# SLURM_CONF would not do, since the plugin's job step drops SLURM_* variables before its
# inner srun. Its munge key and socket, SLURM's state and all logs live in a temporary
# directory.
#
# Usage: tests/workflow/cluster/run_slurm.sh [REPO_ROOT]          (default: this script's ../../..)
# Environment:
#   PYTHON        the Python that runs Snakemake (default: python3 on PATH)
#   RUN_TIMEOUT   seconds allowed for each workflow run before it is killed (default 2700:
#                 the SLURM run took 21 min on a 2-core machine under load 10)
#   TARGETS       Snakemake targets, space-separated (default: all of config/smoke.yaml)
#   KEEP_WORKDIR  1 keeps the temporary directory (it is always kept after a failure)
#   MKBENCH_DATA_MIRROR is passed through to both runs (the smoke config needs no download).
set -euo pipefail

ROOT=$(cd "${1:-$(dirname "$0")/../../..}" && pwd)
PYTHON=${PYTHON:-python3}
RUN_TIMEOUT=${RUN_TIMEOUT:-2700}
read -r -a TARGET_ARGS <<< "${TARGETS:-}"
PACKAGES=(slurmctld slurmd slurm-client munge)

say() { printf '== %s\n' "$*"; }
die() { printf 'run_slurm.sh: error: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

T_BEGIN=$(now)
unset SLURM_CONF  # every SLURM command, ours and the plugin's, reads /etc/slurm/slurm.conf
CONF=/etc/slurm/slurm.conf
CONF_BACKUP=$CONF.run_slurm-backup

# ------------------------------------------------------------------ preconditions
[ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts SLURM's daemons)"
[ -f "$ROOT/config/smoke.yaml" ] && [ -d "$ROOT/workflow/profiles/slurm" ] \
    || die "$ROOT is not the mkbench repository (no config/smoke.yaml or workflow/profiles/slurm)"
git -C "$ROOT" rev-parse --git-dir > /dev/null 2>&1 || die "$ROOT is not a git work tree (needed to copy it)"
"$PYTHON" -c 'import snakemake, snakemake_executor_plugin_slurm' 2> /dev/null \
    || die "$PYTHON lacks snakemake or the SLURM executor plugin: pip install -e '.[slurm]' (or set PYTHON)"

missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q 'install ok installed' \
        || missing+=("$package")
done
T_INSTALL=0
if [ "${#missing[@]}" -gt 0 ]; then
    command -v apt-get > /dev/null || die "missing ${missing[*]} and no apt-get to install them"
    say "installing ${missing[*]}"
    t0=$(now)
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" > /dev/null
    T_INSTALL=$(elapsed "$t0" "$(now)")
fi
[ ! -e "$CONF_BACKUP" ] && [ ! -L "$CONF_BACKUP" ] \
    || die "$CONF_BACKUP exists: a killed earlier run left it; put it back (mv $CONF_BACKUP $CONF) or delete it"
for daemon in slurmctld slurmd; do
    if pid=$(pgrep -x "$daemon"); then
        die "a $daemon is already running (pid ${pid//$'\n'/ }): this script starts its own cluster; stop that one first"
    fi
done

# ------------------------------------------------------------------ cleanup on any exit
WORK=$(mktemp -d /tmp/mkbench-slurm.XXXXXX)
chmod 755 "$WORK"  # munged runs as the munge user and must reach its folder
DAEMONS=()          # "name:pid" of every daemon started here, in start order
CONF_WRITTEN=0
RUN_PID=""          # the workflow run in progress (leader of its process group)

restore_conf() {
    [ "$CONF_WRITTEN" = 1 ] || return 0
    if [ -e "$CONF_BACKUP" ] || [ -L "$CONF_BACKUP" ]; then
        mv -f "$CONF_BACKUP" "$CONF" && echo "restored the previous $CONF"
    else
        rm -f "$CONF"
    fi
    CONF_WRITTEN=0
}

stop_daemons() {
    if [ "${#DAEMONS[@]}" -eq 0 ]; then
        return
    fi
    # Jobs left by a failed or killed run: cancel them while slurmctld is still up.
    if jobs=$(timeout 10 squeue -h -o %i 2> /dev/null) && [ -n "$jobs" ]; then
        say "cancelling leftover SLURM jobs: ${jobs//$'\n'/ }"
        # shellcheck disable=SC2086
        timeout 10 scancel $jobs || true
        sleep 2
    fi
    local i entry name pid
    for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do  # slurmd, slurmctld, then munged
        entry=${DAEMONS[i]}
        name=${entry%%:*}
        pid=${entry##*:}
        kill -TERM "$pid" 2> /dev/null || continue
        for _ in $(seq 50); do
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.2
        done
        if kill -0 "$pid" 2> /dev/null; then
            echo "$name (pid $pid) ignored SIGTERM for 10 s: SIGKILL" >&2
            kill -KILL "$pid" 2> /dev/null || true
        fi
        wait "$pid" 2> /dev/null || true
        echo "stopped $name (pid $pid)"
    done
    DAEMONS=()
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$RUN_PID" ]; then
        kill -KILL -- "-$RUN_PID" 2> /dev/null || kill -KILL "$RUN_PID" 2> /dev/null || true
        wait "$RUN_PID" 2> /dev/null || true
    fi
    stop_daemons
    restore_conf
    if [ "$status" -ne 0 ] || [ "${KEEP_WORKDIR:-0}" = 1 ]; then
        echo "kept $WORK (slurm/*.log, munge/*.log, *.log of the runs)" >&2
    else
        rm -rf "$WORK"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_logs() {
    local log
    for log in "$@"; do
        [ -f "$log" ] || continue
        echo "---- last lines of $log" >&2
        tail -n 40 "$log" >&2
    done
}

# ------------------------------------------------------------------ the cluster
say "starting a single-node SLURM cluster in $WORK"
t0=$(now)
HOST=$(hostname -s)
CPUS=$(nproc)
MEM=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
[ -n "$MEM" ] || die "slurmd -C reported no RealMemory"
MEM=$((MEM > 1024 ? MEM - 512 : MEM))  # keep some for the daemons and the local run

mkdir -p "$WORK/munge" "$WORK/slurm/state" "$WORK/slurm/spool"
chown munge:munge "$WORK/munge"
chmod 755 "$WORK/munge"  # munged wants its socket's folder searchable by all; the key is 600
MUNGE_SOCKET=$WORK/munge/munge.socket
mungekey --create --keyfile="$WORK/munge/munge.key"
chown munge:munge "$WORK/munge/munge.key"
chmod 600 "$WORK/munge/munge.key"

mkdir -p "$(dirname "$CONF")"
if [ -e "$CONF" ] || [ -L "$CONF" ]; then
    mv "$CONF" "$CONF_BACKUP"
fi
CONF_WRITTEN=1
cat > "$CONF" << EOF
# Written by tests/workflow/cluster/run_slurm.sh: one node, no accounting (no slurmdbd), no cgroups.
ClusterName=mkbench
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# squeue sees a finished job for MinJobAge seconds: the plugin's squeue status check
# needs at least 3x its first check interval.
MinJobAge=300
MailProg=/bin/true
StateSaveLocation=$WORK/slurm/state
SlurmdSpoolDir=$WORK/slurm/spool
SlurmctldPidFile=$WORK/slurm/slurmctld.pid
SlurmdPidFile=$WORK/slurm/slurmd.pid
SlurmctldLogFile=$WORK/slurm/slurmctld.log
SlurmdLogFile=$WORK/slurm/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

setpriv --reuid=munge --regid=munge --init-groups -- /usr/sbin/munged --foreground \
    --socket="$MUNGE_SOCKET" --key-file="$WORK/munge/munge.key" \
    --pid-file="$WORK/munge/munged.pid" --seed-file="$WORK/munge/munged.seed" \
    --log-file="$WORK/munge/munged.log" > "$WORK/munge/munged.out" 2>&1 &
DAEMONS+=("munged:$!")
for _ in $(seq 50); do
    [ -S "$MUNGE_SOCKET" ] && break
    sleep 0.2
done
munge --socket="$MUNGE_SOCKET" -n | unmunge --socket="$MUNGE_SOCKET" > /dev/null \
    || { show_logs "$WORK/munge/munged.out" "$WORK/munge/munged.log"; die "munged does not answer on $MUNGE_SOCKET"; }

slurmctld -D -i > "$WORK/slurm/slurmctld.out" 2>&1 &
DAEMONS+=("slurmctld:$!")
slurmd -D > "$WORK/slurm/slurmd.out" 2>&1 &
DAEMONS+=("slurmd:$!")

state=""
for _ in $(seq 60); do
    for entry in "${DAEMONS[@]}"; do
        kill -0 "${entry##*:}" 2> /dev/null || {
            show_logs "$WORK"/slurm/*.out "$WORK"/slurm/*.log
            die "${entry%%:*} exited during start-up"
        }
    done
    state=$(sinfo -h -o %T 2> /dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
if [ "$state" != idle ]; then
    show_logs "$WORK"/slurm/*.out "$WORK"/slurm/*.log
    die "the node is '$state', not idle, 60 s after start"
fi
[ "$(timeout 60 srun -N 1 -n 1 -t 1 hostname)" = "$(hostname)" ] \
    || { show_logs "$WORK"/slurm/*.log; die "srun hostname failed on the new cluster"; }
T_CLUSTER=$(elapsed "$t0" "$(now)")
say "cluster up in ${T_CLUSTER} s: node $HOST, $CPUS CPUs, RealMemory=$MEM MB, partition debug"

# ------------------------------------------------------------------ two copies, two runs
copy_work_tree() {  # tracked and untracked-but-not-ignored files: what a commit would hold
    mkdir -p "$1"
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard \
        | tar -C "$ROOT" --null --files-from=- --ignore-failed-read -cf - 2> /dev/null \
        | tar -C "$1" -xf -
}

run_workflow() {  # name, then Snakemake's arguments
    local name=$1
    shift
    local copy=$WORK/$name
    copy_work_tree "$copy"
    local t0 status=0
    t0=$(now)
    # In the background so that a signal reaches our trap at once; timeout leads its own
    # process group, which the trap kills (Snakemake and the jobs it runs locally).
    (
        cd "$copy"
        # The copy's own mkbench, also inside the SLURM jobs (sbatch exports the environment).
        export PYTHONPATH=$copy/src${PYTHONPATH:+:$PYTHONPATH}
        # Targets first: --configfile takes every word after it.
        exec timeout -s KILL "$RUN_TIMEOUT" "$PYTHON" -m snakemake "${TARGET_ARGS[@]}" "$@" \
            --configfile config/smoke.yaml
    ) > "$WORK/$name.log" 2>&1 &
    RUN_PID=$!
    wait "$RUN_PID" || status=$?
    RUN_PID=""
    RUN_SECONDS=$(elapsed "$t0" "$(now)")
    if [ "$status" -ne 0 ]; then
        show_logs "$WORK/$name.log"
        [ "$status" -eq 137 ] && die "the $name run was killed after RUN_TIMEOUT=$RUN_TIMEOUT s"
        die "the $name run failed (exit $status); log: $WORK/$name.log"
    fi
}

say "local run: snakemake --cores 2 --configfile config/smoke.yaml ${TARGETS:-}"
run_workflow local --cores 2
T_LOCAL=$RUN_SECONDS

say "SLURM run: snakemake --workflow-profile workflow/profiles/slurm --configfile config/smoke.yaml ${TARGETS:-}"
# Overrides for this throw-away cluster only (the profile stays what a user edits):
#   --slurm-init-seconds-...   first status check after 2 s instead of the profile's 5
#   --latency-wait             one local file system: outputs appear at once
# (No account: the plugin tries to guess one with sacct, warns that it cannot, and submits
# without -A. Its --slurm-no-account flag does nothing in plugin 2.8.)
run_workflow slurm --workflow-profile workflow/profiles/slurm \
    --slurm-init-seconds-before-status-checks 2 --latency-wait 5
T_SLURM=$RUN_SECONDS

# ------------------------------------------------------------------ same records?
say "comparing the records of both runs (non-timing fields)"
"$PYTHON" "$ROOT/tests/workflow/cluster/compare_records.py" "$WORK/local/results/runs" "$WORK/slurm/results/runs"

SUBMITTED=$(grep -c 'has been submitted with SLURM jobid' "$WORK/slurm.log" || true)
RECORDS=$(find "$WORK/slurm/results/runs" -name '*.json' | wc -l)
STEPS=$(grep -o '[0-9]* of [0-9]* steps (100%) done' "$WORK/slurm.log" | tail -n 1 || true)
stop_daemons
restore_conf
T_TOTAL=$(elapsed "$T_BEGIN" "$(now)")
say "summary"
cat << EOF
SLURM jobs submitted: $SUBMITTED ($STEPS; $RECORDS records, equal to the local run's)
install: ${T_INSTALL} s   cluster start: ${T_CLUSTER} s   local run: ${T_LOCAL} s   SLURM run: ${T_SLURM} s
total: ${T_TOTAL} s with install, $(awk -v a="$T_TOTAL" -v b="$T_INSTALL" 'BEGIN { printf "%.1f", a - b }') s without
EOF
