-- Prints wrk's summary as one line of JSON (bench/lib/load.ts reads it). Times are microseconds.
done = function(summary, latency, requests)
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,' ..
    '"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
