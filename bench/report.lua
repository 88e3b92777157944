-- wrk script fragment: prints one machine-readable line at the end.
function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write +
                 summary.errors.timeout + summary.errors.status
  io.write(string.format("RESULT rps=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f requests=%d errors=%d\n",
    summary.requests / secs, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000,
    summary.requests, errors))
end
