-- wrk script for scripts/serve/load.sh: every request is a POST of one image file.
--
--   wrk -s scripts/serve/post_image.lua URL -- IMAGE [CONTENT-TYPE]
--
-- CONTENT-TYPE defaults to image/jpeg. At the end it prints one line "WRK_JSON {...}" with the
-- counts and latency percentiles (microseconds) that load.sh reads.

function init(args)
  local path = args[1]
  if path == nil then
    error("post_image.lua needs the image file: wrk ... -s post_image.lua URL -- IMAGE")
  end
  local file = assert(io.open(path, "rb"))
  local body = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = args[2] or "image/jpeg"
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "durationUs": %d, "bytes": %d, "connectErrors": %d, "readErrors": %d, ' ..
    '"writeErrors": %d, "timeouts": %d, "non2xx3xx": %d, "p50Us": %d, "p90Us": %d, "p99Us": %d, ' ..
    '"maxUs": %d, "meanUs": %.1f}\n',
    summary.requests, summary.duration, summary.bytes, errors.connect, errors.read, errors.write,
    errors.timeout, errors.status, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, latency.mean))
end
