#!/usr/bin/env bash
# The shared store and its workers (issue #29), on a throw-away PostgreSQL server this script starts on
# 127.0.0.1 (initdb into a temporary folder; removed at the end). Two measurements:
#   queue  1,000 jobs whose analysis is a stand-in that sleeps 50 ms (`worker --stand-in-ms 50`), drained
#          by 1, 2, 4 and 8 worker processes. Throughput = jobs / (last finish − first start), read from the
#          job rows; printed against N × one worker's. Claim latency: each worker's own p50/p99 of the claims
#          that found a job (its log line at SIGTERM); the worst worker's p99 is printed.
#   real   `swingmaster serve --workers 0` and real analyses of the demo clip uploaded over HTTP
#          (SWINGMASTER_SCALE_UPLOADS, default 12): sessions per hour with one worker, two workers, and two
#          workers with --pose-workers 1 each (one analysis's pose already uses every core by default).
# SWINGMASTER_SCALE_PARTS picks parts (default "queue real"); SWINGMASTER_SCALE_JOBS the queue's jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
BIN="$BIN_DIR/swingmaster"
[ -x "$BIN" ] || BIN="$BIN_DIR"
PARTS="${SWINGMASTER_SCALE_PARTS:-queue real}"
JOBS="${SWINGMASTER_SCALE_JOBS:-1000}"
UPLOADS="${SWINGMASTER_SCALE_UPLOADS:-12}"
PG_BIN="${SWINGMASTER_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
[ -x "$PG_BIN/initdb" ] || { echo "scale: PostgreSQL is not installed (run make setup-test)"; exit 1; }

WORK=$(mktemp -d /tmp/swingmaster-scale-XXXXXX)
chmod 755 "$WORK"
PGDATA="$WORK/pg"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
mkdir -p "$PGDATA"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$WORK"
as_pg "$PG_BIN/initdb" -D "$PGDATA" -U swingmaster --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/pg.log" -o "-c listen_addresses=127.0.0.1 -p $PORT -k $WORK -c max_connections=200" -w start >/dev/null
psql_() { psql -X -q -t -A -h 127.0.0.1 -p "$PORT" -U swingmaster "$@"; }
CORES=$(nproc)
echo "machine: $CORES cores, PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1, $("$BIN" --version)"

HOME_DIR="$WORK/home"; MEDIA="$WORK/media"
mkdir -p "$HOME_DIR" "$MEDIA"
cp Samples/demo_session.mp4 "$MEDIA/demo.mp4"
export SWINGMASTER_HOME="$HOME_DIR"

# start_workers N DB ARGS…: N worker processes; their logs are $WORK/worker-K.log.
start_workers() {
  local n=$1 db=$2; shift 2
  WORKER_PIDS=()
  for k in $(seq 1 "$n"); do
    "$BIN" worker --database "$db" --media "$MEDIA" "$@" >"$WORK/worker-$k.log" 2>&1 &
    WORKER_PIDS+=($!); PIDS+=($!)
  done
}
stop_workers() {
  for pid in "${WORKER_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${WORKER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
# wait_drained DB SECONDS: until no job is queued or running.
wait_drained() {
  local db=$1 limit=$2 start=$SECONDS
  while [ $((SECONDS - start)) -lt "$limit" ]; do
    [ "$(psql_ -d "$db" -c "SELECT COUNT(*) FROM job WHERE state IN ('queued','running')")" = 0 ] && return 0
    sleep 0.2
  done
  echo "scale: jobs still waiting after ${limit} s"; return 1
}

if [[ " $PARTS " == *" queue "* ]]; then
  echo
  echo "queue: $JOBS jobs, stand-in analysis of 50 ms each, drained by N worker processes"
  printf '%8s %10s %12s %14s %10s %14s\n' workers "wall s" "jobs/s" "vs N × one" "done" "claim p99 ms"
  one=""
  for n in 1 2 4 8; do
    db="queue_$n"
    psql_ -d postgres -c "CREATE DATABASE $db"
    url="postgres://swingmaster@127.0.0.1:$PORT/$db?sslmode=disable"
    "$BIN" sessions list --database "$url" >/dev/null   # creates the schema
    psql_ -d "$db" -c "INSERT INTO job (state, mediaSHA256, mediaPath, fileName, createdAt)
                       SELECT 'queued', 'bench', '$MEDIA/demo.mp4', 'job' || g || '.mp4', now() + g * interval '1 microsecond'
                       FROM generate_series(1, $JOBS) g"
    t0=$(date +%s.%N)
    start_workers "$n" "$url" --stand-in-ms 50
    wait_drained "$db" 600
    t1=$(date +%s.%N)
    stop_workers
    rate=$(psql_ -d "$db" -c "SELECT round((COUNT(*) / EXTRACT(EPOCH FROM MAX(finishedAt) - MIN(startedAt)))::numeric, 1) FROM job WHERE state = 'done'")
    done_=$(psql_ -d "$db" -c "SELECT COUNT(*) FROM job WHERE state = 'done'")
    p99=$(grep -ho 'p99 [0-9.]* ms' "$WORK"/worker-*.log | awk '{print $2}' | sort -g | tail -1)
    [ -z "$one" ] && one=$rate
    ratio=$(python3 -c "print(f'{$rate / ($n * $one):.2f}')")
    printf '%8s %10.1f %12s %14s %10s %14s\n' "$n" "$(python3 -c "print($t1 - $t0)")" "$rate" "$ratio" "$done_" "${p99:-?}"
  done
  echo "(goal: jobs/s within 10 % of N × one worker's, i.e. ≥ 0.90; claim p99 < 20 ms)"
fi

if [[ " $PARTS " == *" real "* ]]; then
  echo
  echo "real: $UPLOADS uploads of Samples/demo_session.mp4 through serve --workers 0, real analysis"
  printf '%-36s %10s %16s %10s\n' setup "wall s" "sessions/hour" "done"
  run_real() {
    local label=$1 n=$2; shift 2
    local db="real_$RANDOM"
    psql_ -d postgres -c "CREATE DATABASE $db"
    local url="postgres://swingmaster@127.0.0.1:$PORT/$db?sslmode=disable" port; port=$(free_port)
    "$BIN" serve --port "$port" --database "$url" --media "$MEDIA" --workers 0 >"$WORK/serve.log" 2>&1 &
    local serve=$!; PIDS+=($serve)
    for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    for k in $(seq 1 "$UPLOADS"); do
      curl -sf -X POST --data-binary @Samples/demo_session.mp4 -H "Content-Type: video/mp4" -H "X-Filename: s$k.mp4" \
        "http://127.0.0.1:$port/api/uploads" >/dev/null
    done
    local t0; t0=$(date +%s.%N)
    start_workers "$n" "$url" "$@"
    wait_drained "$db" 1800
    local t1; t1=$(date +%s.%N)
    stop_workers
    kill "$serve"; wait "$serve" 2>/dev/null || true
    local done_; done_=$(psql_ -d "$db" -c "SELECT COUNT(*) FROM job WHERE state = 'done'")
    printf '%-36s %10.1f %16.0f %10s\n' "$label" "$(python3 -c "print($t1 - $t0)")" \
      "$(python3 -c "print($done_ * 3600 / ($t1 - $t0))")" "$done_"
  }
  run_real "1 worker (pose workers: 1 per core)" 1
  run_real "2 workers (pose workers: 1 per core)" 2
  run_real "2 workers, --pose-workers 1 each" 2 --pose-workers 1
fi
