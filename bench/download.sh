#!/usr/bin/env bash
# Model download against a server that never stops sending: `swingmaster models download URL` of an endless
# body (no Content-Length, zeros) from a local Python server (Tests/SwingDownloadTests/Fixtures/download_server.py)
# must be refused at the real 2 GiB model limit with flat memory (goal: peak RSS < 100 MB) and at disk speed.
# Peers in the same run: `curl URL | head -c 2 GiB > file` (a streaming client writing the same bytes), and
# `dd` writing 2 GiB of zeros to the same disk, with fdatasync (the disk's speed) and without (the page cache,
# which is where a download's writes land). Median of 3 runs each: wall time, MB/s, peak RSS, CPU share.
# Writes bench/results/download.txt.
#   bench/download.sh [BIN_DIR]     (BIN_DIR holds `swingmaster`; default .build/release)
#   BEFORE_BIN=path/to/old/swingmaster bench/download.sh   adds a row for an older binary, measured in the same run
# Traffic goes to 127.0.0.1 only; the server sends at most 3 GiB per request and exits after 15 minutes.
# A run whose RSS passes RSS_CAP_MB (default 4096) is killed by its PID and reported as such.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
RSS_CAP_MB="${RSS_CAP_MB:-4096}"
LIMIT=$((2 << 30))   # HTTPDownloader.maxModelBytes
RESULTS="${RESULTS:-bench/results/download.txt}"
mkdir -p bench/results
exec > >(tee "$RESULTS") 2>&1

work="$(mktemp -d)"
server=""
cleanup() { if [ -n "$server" ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; fi; rm -rf "$work"; }
trap cleanup EXIT
python3 Tests/SwingDownloadTests/Fixtures/download_server.py --lifetime 900 --endless-limit $((3 << 30)) >"$work/port" &
server=$!
for _ in $(seq 1 100); do grep -q PORT "$work/port" 2>/dev/null && break; sleep 0.1; done
PORT=$(awk '/PORT/ {print $2}' "$work/port")
URL="http://127.0.0.1:$PORT/endless/endless.onnx"

# watch PID: kills PID (ours) if its resident set passes the cap; prints "capped" if it had to.
watch_rss() {
  local pid=$1 kb
  while kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null); do
    if [ -n "$kb" ] && [ "$kb" -gt $((RSS_CAP_MB * 1024)) ]; then kill -9 "$pid" 2>/dev/null; echo capped; return; fi
    sleep 0.05
  done
}

# once LABEL CMD…: one run under /usr/bin/time -v in a fresh SWINGMASTER_HOME; prints "wall_s rss_MB cpu% capped|ok";
# keeps its stderr in $work/LABEL.err and the number of files over 1 MB it left in $work/LABEL.left.
once() {
  local label=$1; shift
  rm -rf "$work/home" "$work/out"; mkdir -p "$work/home"
  SWINGMASTER_HOME="$work/home" /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/$label.err" &
  local tpid=$! child="" capped=""
  for _ in $(seq 1 100); do child=$(pgrep -P "$tpid" | head -1 || true); [ -n "$child" ] && break; sleep 0.01; done
  if [ -n "$child" ]; then watch_rss "$child" >"$work/cap" & fi
  wait "$tpid" || true
  wait 2>/dev/null || true
  capped=$(cat "$work/cap" 2>/dev/null || true)
  find "$work/home" -type f -size +1M 2>/dev/null | wc -l >"$work/$label.left"
  local wall rss cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$work/time")
  cpu=$(awk -F': ' '/Percent of CPU/ {print $2}' "$work/time")
  echo "$wall $rss $cpu ${capped:-ok}"
}

# measure LABEL CMD…: median (by wall time) of 3 runs.
measure() {
  local label=$1; shift
  for _ in 1 2 3; do once "$label" "$@"; done | sort -n | sed -n 2p
}

row() { # LABEL WALL RSS CPU STATE
  local mbs
  mbs=$(python3 -c "print(f'{$LIMIT / 1e6 / max($2, 1e-9):.0f}')")
  printf '%-34s %8s %8s %9s %6s  %s\n' "$1" "$2" "$mbs" "$3" "$4" "$5"
}

echo "endless body from 127.0.0.1, refused at the 2 GiB model limit ($LIMIT bytes); median of 3 runs"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-34s %8s %8s %9s %6s  %s\n' run wall_s MB/s peak_MB cpu state
read -r sw sr sp sc <<<"$(measure swingmaster "$BIN_DIR/swingmaster" models download "$URL")"
row "swingmaster models download" "$sw" "$sr" "$sp" "$sc"
if [ -n "${BEFORE_BIN:-}" ]; then
  read -r bw br bp bc <<<"$(measure before "$BEFORE_BIN" models download "$URL")"
  row "before: ${BEFORE_LABEL:-$BEFORE_BIN}" "$bw" "$br" "$bp" "$bc"
fi
read -r cw cr cp cc <<<"$(measure curl bash -c "curl -s '$URL' | head -c $LIMIT > '$work/out'")"
row "peer: curl | head -c 2GiB > file" "$cw" "$cr" "$cp" "$cc"
read -r yw yr yp yc <<<"$(measure dd dd if=/dev/zero of="$work/out" bs=1M count=2048 conv=fdatasync)"
row "disk: dd 2 GiB, fdatasync" "$yw" "$yr" "$yp" "$yc"
read -r dw dr dp dc <<<"$(measure dd dd if=/dev/zero of="$work/out" bs=1M count=2048)"
row "page cache: dd 2 GiB" "$dw" "$dr" "$dp" "$dc"
echo
echo "swingmaster said: $(grep -m1 -i 'error' "$work/swingmaster.err" || head -c 300 "$work/swingmaster.err")"
echo "files over 1 MB left under SWINGMASTER_HOME after the refusal: $(cat "$work/swingmaster.left")"
goal=$([ "$sc" = ok ] && [ "$sr" -lt 100 ] && echo met || echo "NOT met")
speed=$(python3 -c "print('met' if $sw <= $yw * 1.05 else 'NOT met')")
echo "peak RSS ${sr} MB (goal < 100 MB: $goal); throughput $(python3 -c "print(f'{$cw / $sw:.2f}')") x curl's, $(python3 -c "print(f'{$yw / $sw:.2f}')") x the disk's (goal: disk speed: $speed), $(python3 -c "print(f'{$dw / $sw:.2f}')") x the page cache's"
