#!/usr/bin/env bash
# The contact detector's synthetic suite in one run: F1 at ±20 ms of the true onset on 3 seeds × 60 s of
# every condition (clean, ambience, wind, bounces, squeaks, voices, distant, mixed), for the default
# parameters and for each variant that turns one robustness addition off (docs/contacts.md reads its
# table from this file's output, bench/results/contacts_suite.txt).
#   bench/contacts_suite.sh BIN_DIR      (BIN_DIR holds a release `swingbench`; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
echo "# bench/contacts_suite.sh, $(date -u +%F), $(git rev-parse --short HEAD 2>/dev/null || echo unknown commit)"
for variant in default spec-literal no-thud no-loudness-gate no-broadband one-pass rms local-maxima; do
  "$BIN_DIR/swingbench" contacts --suite --seeds 3 --track-seconds 60 --variant "$variant"
  echo
done
