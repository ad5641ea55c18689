// The travel server over the HTTP+SSE transport of 2024-11-05, driven by the official MCP
// TypeScript SDK at 1.5.0 (pinned in package.json), whose only way to a remote server is
// SSEClientTransport: an EventSource on /sse, then POSTs to the endpoint the stream names. It
// negotiates 2024-11-05 and declares what the client is built with.
//
// Checks: the handshake and tools/list; the flight search picked by the client's model (a
// sampling request on the stream, its answer POSTed back) and, for a client that declares no
// sampling, by the server's ranking; trip_files from the client's roots. One line per check,
// then `N passed, N failed`; exit 1 if any failed. Run through interop/sse/run.sh.
//
//     node interop/sse/ts_sse.mjs http://127.0.0.1:PORT/sse WORKSPACE

import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [url, workspace] = process.argv.slice(2);
const SEARCH = { destination: 'Barcelona', month: '2027-06', morning_departure: true, max_stops: 1 };
const RANKED = ['BCN22', 'BCN35', 'BCN37'];
const MODEL = JSON.stringify({
  picks: [
    { flight_id: 'BCN30', reason: 'A morning flight with one stop in London.' },
    { flight_id: 'BCN22', reason: 'The cheapest morning nonstop.' },
  ],
});
const TIMEOUT_MS = 60_000;

function assert(ok, why) {
  if (!ok) throw new Error(why);
}

// A client declaring `capabilities`, with request handlers for them, connected over SSE.
async function connect(capabilities, handlers = {}) {
  const client = new Client({ name: 'rondo-interop-sse', version: '1.0.0' }, { capabilities });
  if (handlers.sample) client.setRequestHandler(CreateMessageRequestSchema, handlers.sample);
  if (handlers.roots) client.setRequestHandler(ListRootsRequestSchema, handlers.roots);
  await client.connect(new SSEClientTransport(new URL(url)));
  return client;
}

function picks(result) {
  // 2024-11-05 has no structuredContent: the search is the text block's JSON.
  assert(!result.isError, JSON.stringify(result));
  const s = JSON.parse(result.content[0].text);
  return [s.chosen_by, s.picks.map((p) => p.flight.id)];
}

const CHECKS = {
  async handshake_and_tools() {
    const c = await connect({});
    try {
      assert(c.getServerVersion().name === 'travel', JSON.stringify(c.getServerVersion()));
      const names = (await c.listTools()).tools.map((t) => t.name).sort();
      assert(
        JSON.stringify(names) === JSON.stringify(['book_trip', 'find_best_flight', 'pay_for_trip', 'trip_files']),
        `${names}`,
      );
    } finally {
      await c.close();
    }
  },
  async flight_picked_by_the_model() {
    let asked = 0;
    const sample = async () => {
      asked += 1;
      return { role: 'assistant', model: 'interop-model', content: { type: 'text', text: MODEL } };
    };
    const c = await connect({ sampling: {} }, { sample });
    try {
      const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
      const got = JSON.stringify(picks(r));
      assert(got === JSON.stringify(['client_model', ['BCN30', 'BCN22']]), got);
      assert(asked === 1, `asked ${asked} times`);
    } finally {
      await c.close();
    }
  },
  async flight_ranked_without_sampling() {
    const c = await connect({});
    try {
      const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
      const got = JSON.stringify(picks(r));
      assert(got === JSON.stringify(['ranking', RANKED]), got);
    } finally {
      await c.close();
    }
  },
  async trip_files_from_roots() {
    const roots = async () => ({
      roots: [{ uri: pathToFileURL(workspace).href, name: 'travel workspace' }],
    });
    const c = await connect({ roots: {} }, { roots });
    try {
      const r = await c.callTool({ name: 'trip_files', arguments: {} });
      assert(!r.isError, JSON.stringify(r));
      assert(r.content[0].text.includes('barcelona-june-2027.md'), r.content[0].text);
    } finally {
      await c.close();
    }
  },
};

let passed = 0;
const names = Object.keys(CHECKS);
for (const name of names) {
  const label = `typescript-sdk 1.5.0 sse ${name}`;
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    });
    await Promise.race([CHECKS[name](), timeout]);
    passed += 1;
    console.log(`ok   ${label}`);
  } catch (e) {
    console.log(`FAIL ${label}\n${e.stack ?? e}`);
  } finally {
    clearTimeout(timer);
  }
}
console.log(`${passed} passed, ${names.length - passed} failed`);
process.exit(passed === names.length ? 0 : 1);
