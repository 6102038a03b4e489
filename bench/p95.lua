-- wrk script: print the latency percentiles bench/serve.sh reports (wrk's own table has no p95).
done = function(summary, latency, requests)
  io.write(string.format("requests %d errors %d p50_ms %.2f p95_ms %.2f p99_ms %.2f rps %.0f\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.requests / (summary.duration / 1e6)))
end
