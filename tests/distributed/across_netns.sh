#!/usr/bin/env bash
# Two machines made on this one: network namespaces porta_a_<pid> and
# porta_b_<pid>, joined by a veth pair, with addresses that exist only inside
# them (10.231.0.1 and 10.231.0.2). Runs a 2-rank job across them: rank 0 in
# A, rank 1 in B, started by mpirun in A through an rsh agent that enters B
# (as ssh would enter another host), MPI's TCP transport over the veth (no
# shared memory), and init_process_group's env:// store at MASTER_ADDR
# 10.231.0.1 over the same link. Bounded in time; everything is torn down on
# any exit. Exit status: the job's, 124 when it ran out of time, 77 (with
# "SKIP: <why>") when namespaces cannot be made here.
#   across_netns.sh [-x NAME=value ...] -- <program> [args...]
# Rank 1's processes start from a clean environment, as after an ssh login:
# pass what they need with -x.
set -u
extra=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do extra+=("$1"); shift; done
[ "${1:-}" = "--" ] && [ $# -ge 2 ] || { echo "usage: $0 [mpirun options...] -- <program> [args...]" >&2; exit 2; }
shift

skip() { echo "SKIP: $*"; exit 77; }
for tool in ip mpirun unshare timeout; do command -v "$tool" >/dev/null 2>&1 || skip "'$tool' is not installed"; done

ns_a="porta_a_$$" ns_b="porta_b_$$"
if_a="porta_va$$" if_b="porta_vb$$"
if_a=${if_a:0:15} if_b=${if_b:0:15}  # interface names: at most 15 characters
addr_a=10.231.0.1 addr_b=10.231.0.2 net=10.231.0.0/24
limit=${PORTA_NETNS_TIMEOUT:-240}
work="" job=""

cleanup() {
  if [ -n "$job" ] && kill -0 "$job" 2>/dev/null; then
    kill -TERM "$job" 2>/dev/null
    for _ in $(seq 30); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$job" 2>/dev/null
  fi
  for ns in "$ns_a" "$ns_b"; do
    # A process left inside keeps a namespace alive after 'ip netns del'.
    for p in $(timeout 5 ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
    timeout 10 ip netns del "$ns" 2>/dev/null
  done
  timeout 5 ip link del "$if_a" 2>/dev/null  # only there when setup stopped before moving it
  [ -n "$work" ] && rm -rf "$work"
  return 0
}
trap 'rc=$?; cleanup; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

err=$(timeout 10 ip netns add "$ns_a" 2>&1) || skip "cannot create a network namespace ($err)"
err=$(timeout 10 ip netns add "$ns_b" 2>&1) || skip "cannot create a second network namespace ($err)"
err=$(timeout 10 ip link add "$if_a" type veth peer name "$if_b" 2>&1) || skip "cannot create a veth pair ($err)"
must() { "$@" || { echo "across_netns: setup step failed: $*" >&2; exit 1; }; }
must timeout 10 ip link set "$if_a" netns "$ns_a"
must timeout 10 ip link set "$if_b" netns "$ns_b"
must timeout 10 ip -n "$ns_a" addr add "$addr_a/24" dev "$if_a"
must timeout 10 ip -n "$ns_b" addr add "$addr_b/24" dev "$if_b"
for ns in "$ns_a" "$ns_b"; do must timeout 10 ip -n "$ns" link set lo up; done
must timeout 10 ip -n "$ns_a" link set "$if_a" up
must timeout 10 ip -n "$ns_b" link set "$if_b" up

# The rsh agent: OpenMPI calls it as ssh, "<host> <words of a shell command>",
# to start its daemon on host B; it runs them in B's namespace, under B's
# hostname, from a clean environment (HWLOC_PLUGINS_PATH kept: without it
# the remote daemon loads hwloc plugins that garble its error output).
work=$(mktemp -d /tmp/porta_netns.XXXXXX)
agent="$work/netns-rsh"
cat >"$agent" <<EOF
#!/bin/sh
host="\$1"; shift
case "\$host" in
  $addr_a) ns=$ns_a; name=porta-a ;;
  $addr_b) ns=$ns_b; name=porta-b ;;
  *) echo "netns-rsh: unknown host '\$host'" >&2; exit 255 ;;
esac
exec timeout -k 5 $((limit + 10)) env -i LANG=C PATH="\$PATH" HOME="\$HOME" HWLOC_PLUGINS_PATH="\${HWLOC_PLUGINS_PATH:-}" \\
  ip netns exec "\$ns" unshare --uts /bin/sh -c 'hostname "\$0"; exec /bin/sh -c "\$1"' "\$name" "\$*"
EOF
chmod +x "$agent"

mpirun_args=(mpirun --allow-run-as-root --oversubscribe -np 2 --host "$addr_a:1,$addr_b:1" --bind-to none
  --mca plm_rsh_agent "$agent" --mca btl self,tcp --mca btl_tcp_if_include "$net" --mca oob_tcp_if_include "$net"
  --mca odls_base_sigkill_timeout 0 --mca orte_tmpdir_base "$work"
  -x MASTER_ADDR="$addr_a" -x MASTER_PORT=29500 "${extra[@]}" "$@")
echo "across_netns: rank 0 in $ns_a ($addr_a), rank 1 in $ns_b ($addr_b), TCP only"
# In the background and waited for, so that a signal to this script is handled at once.
timeout -k 5 "$limit" ip netns exec "$ns_a" unshare --uts /bin/sh -c 'hostname porta-a; exec "$@"' sh \
  "${mpirun_args[@]}" </dev/null &
job=$!
wait "$job"
rc=$?
job=""
[ $rc -eq 124 ] && echo "across_netns: the job did not end within ${limit} s" >&2
exit $rc
