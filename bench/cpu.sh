# CPU per request, sourced by bench/run: the utime+stime (threads included)
# of every process of the stack over a measured interval, from /proc.
# The stack is every process with a pid file under $RUN_DIR (services,
# broker, Redis, nginx masters) and every descendant of one (nginx's
# workers); the load generator's own CPU is added by the caller.

# stack_pids: the pids of the stack, one a line.
stack_pids() {
  local roots=() f
  for f in "$RUN_DIR"/*.pid "$RUN_DIR"/*/*.pid; do
    [[ -f $f ]] && roots+=("$(cat "$f")")
  done
  ((${#roots[@]})) || return 0
  # Every process whose chain of parents reaches a root.
  ps -e -o pid=,ppid= | awk -v roots="${roots[*]}" '
    BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
    { parent[$1] = $2; pids[NR] = $1 }
    END {
      for (i = 1; i <= NR; i++) {
        p = pids[i]
        for (hops = 0; p != "" && p > 1 && hops < 16; hops++) {
          if (p in keep) { print pids[i]; break }
          p = parent[p]
        }
      }
    }'
}

# cpu_snapshot <file>: "<pid> <name> <ticks> <main ticks>" for each process
# of the stack. The name is the process's role: the pid file that names it,
# or its command for a descendant (nginx workers count as nginx). Main ticks
# are those of the process's librdkafka main threads (`rdk:main`, one per
# client handle), already inside its ticks: librdkafka 2.0.2 spins there
# before each of its timers (docs/performance.md, "Records per transaction").
cpu_snapshot() {
  local out=$1 pid stat name main f
  declare -A role=()
  for f in "$RUN_DIR"/*.pid "$RUN_DIR"/*/*.pid; do
    [[ -f $f ]] || continue
    name=$(basename "$f" .pid)
    [[ $name == nginx* ]] && name=nginx
    role[$(cat "$f")]=${name%-[0-9]}
  done
  : >"$out"
  for pid in $(stack_pids); do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    name=${role[$pid]:-}
    if [[ -z $name ]]; then
      name=${stat#*(}; name=${name%%)*}
      [[ $name == nginx ]] || name=other
    fi
    # Fields after the command: state is field 3, utime 14, stime 15.
    stat=${stat##*) }
    main=$(cat "/proc/$pid/task/"*/stat 2>/dev/null | awk '$2 == "(rdk:main)" { s += $14 + $15 } END { print s + 0 }')
    awk -v pid="$pid" -v name="$name" -v main="$main" '{ print pid, name, $12 + $13, main }' <<<"$stat" >>"$out"
  done
}

# cpu_per_request <before> <after> <requests> <load generator seconds>:
# prints "cpu_us=<total> (<role>=<µs> ...) main_ticks=<n>", CPU per request
# in µs, and the librdkafka main threads' ticks (a part of the total) in all.
cpu_per_request() {
  local hz
  hz=$(getconf CLK_TCK)
  awk -v hz="$hz" -v n="$3" -v gen="$4" '
    FNR == NR { before[$1] = $3; before_main[$1] = $4; next }
    { d = $3 - (($1 in before) ? before[$1] : 0); by[$2] += d; total += d
      main += $4 - (($1 in before_main) ? before_main[$1] : 0) }
    END {
      if (n < 1) n = 1
      line = ""
      for (r in by) line = line sprintf(" %s=%.0f", r, by[r] / hz / n * 1e6)
      total = total / hz + gen
      printf "cpu_us=%.1f (wrk=%.0f%s) main_ticks=%d", total / n * 1e6, gen / n * 1e6, line, main
    }' "$1" "$2"
}
