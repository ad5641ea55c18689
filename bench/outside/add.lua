-- wrk script: POST one MCP `tools/call` of `add` (a=1, b=2) to the URL, at a protocol revision,
-- and check every answer.
--
--   wrk -t1 -c8 -d5s -s add.lua http://127.0.0.1:PORT/mcp -- 2026-07-28
--   wrk -t1 -c8 -d5s -s add.lua http://127.0.0.1:PORT/mcp -- 2025-11-25 SESSION_ID
--
-- 2026-07-28: stateless; the body's `params._meta` names the revision and the client's
-- capabilities (form elicitation), with the Mcp-Protocol-Version, Mcp-Method and Mcp-Name
-- headers: the request bench/src/bin/http_bench.rs sends. 2025-11-25: the call without `_meta`,
-- Mcp-Protocol-Version 2025-11-25, and Mcp-Session-Id when a session id is given (bench/outside.sh
-- does the initialize handshake with curl first and passes the id the server returned, if any).
--
-- Every request is add(1, 2) with an id of its own (ten digits, counting up from 1000000000, so
-- the body's length never changes and the request is two strings around the id): at
-- 2025-11-25 the connections share one session, where two requests in flight may not have the
-- same id. Every answer must be status 2xx with a ten-digit id, no "error" and the text "3"
-- (wrk does not say which request an answer is for, so the id is not matched to its request).
-- When wrk is done this prints one line `OUTSIDE_JSON {...}` with the requests, the duration,
-- wrk's socket errors, the answers whose status was not 2xx (`non_2xx`), those with a 2xx
-- status and a wrong body (`bad_body`), the first failing answer and the first answer's body;
-- bench/outside.sh fails the run when any count is not zero.

local caps = '{"elicitation":{"form":{}}}'

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

local FIRST_ID = 1000000000

function init(args)
   local rev = args[1] or "2026-07-28"
   local session = args[2]
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   wrk.headers["Accept"] = "application/json, text/event-stream"
   wrk.headers["Mcp-Protocol-Version"] = rev
   if rev == "2026-07-28" then
      wrk.headers["Mcp-Method"] = "tools/call"
      wrk.headers["Mcp-Name"] = "add"
      wrk.body = '{"jsonrpc":"2.0","id":@ID@,"method":"tools/call","params":{"_meta":'
         .. '{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
         .. '"io.modelcontextprotocol/clientCapabilities":' .. caps .. '},'
         .. '"name":"add","arguments":{"a":1,"b":2}}}'
   elseif rev == "2025-11-25" then
      if session and session ~= "" then
         wrk.headers["Mcp-Session-Id"] = session
      end
      wrk.body = '{"jsonrpc":"2.0","id":@ID@,"method":"tools/call",'
         .. '"params":{"name":"add","arguments":{"a":1,"b":2}}}'
   else
      error("add.lua: unknown revision " .. rev .. " (2026-07-28 or 2025-11-25)")
   end
   -- wrk.format with a ten-digit id in place of the marker, split there.
   local body = wrk.body:gsub("@ID@", tostring(FIRST_ID))
   local whole = wrk.format(nil, nil, nil, body)
   local at = whole:find(tostring(FIRST_ID), 1, true)
   head = whole:sub(1, at - 1)
   tail = whole:sub(at + 10)
   next_id = FIRST_ID
   answers = 0
   non_2xx = 0
   bad_body = 0
   first_body = nil
   first_bad = nil
end

function request()
   next_id = next_id + 1
   return head .. next_id .. tail
end

-- The answer of add(1, 2): a JSON body, or an SSE stream whose data line is it.
local function good(body)
   return body:find('"text":"3"', 1, true) ~= nil
      and body:find('"id":1%d%d%d%d%d%d%d%d%d') ~= nil
      and body:find('"error"', 1, true) == nil
      and body:find('"isError":true', 1, true) == nil
end

function response(status, headers, body)
   answers = answers + 1
   if first_body == nil then
      first_body = body
   end
   if status < 200 or status > 299 then
      non_2xx = non_2xx + 1
      if first_bad == nil then
         first_bad = status .. " " .. body
      end
   elseif not good(body) then
      bad_body = bad_body + 1
      if first_bad == nil then
         first_bad = status .. " " .. body
      end
   end
end

local function json_string(s)
   if s == nil then
      return "null"
   end
   s = s:gsub('[%c"\\]', function(c)
      if c == '"' then
         return '\\"'
      elseif c == "\\" then
         return "\\\\"
      else
         return string.format("\\u%04x", c:byte())
      end
   end)
   return '"' .. s .. '"'
end

function done(summary, latency, requests)
   local answered, n2, bad, body, first = 0, 0, 0, nil, nil
   for _, t in ipairs(threads) do
      answered = answered + t:get("answers")
      n2 = n2 + t:get("non_2xx")
      bad = bad + t:get("bad_body")
      body = body or t:get("first_body")
      first = first or t:get("first_bad")
   end
   local e = summary.errors
   io.write(string.format(
      'OUTSIDE_JSON {"requests":%d,"answers":%d,"duration_us":%d,"requests_per_s":%.1f,'
         .. '"non_2xx":%d,"bad_body":%d,"socket_errors":{"connect":%d,"read":%d,"write":%d,'
         .. '"timeout":%d},"latency_mean_us":%.1f,"latency_p99_us":%d,"first_body":%s,'
         .. '"first_bad":%s}\n',
      summary.requests, answered, summary.duration,
      summary.requests / (summary.duration / 1e6), n2, bad,
      e.connect, e.read, e.write, e.timeout, latency.mean, latency:percentile(99),
      json_string(body), json_string(first)))
end
