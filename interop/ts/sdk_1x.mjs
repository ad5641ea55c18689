// Rondo's example servers driven by the official MCP TypeScript SDK's 1.x releases, one per
// handshake revision before 2025-11-25 (installed side by side under npm aliases, package.json:
// `sdk-1-5` is 1.5.0 and speaks 2024-11-05, `sdk-1-11` is 1.11.5 and speaks 2025-03-26,
// `sdk-1-20` is 1.20.2 and speaks 2025-06-18, each as its newest revision). The cases are the
// Python driver's (interop/python_sdk_1x.py), case for case: the travel server, the bookshop,
// and the conformance server's prompts, resources and content types.
//
//     node interop/ts/sdk_1x.mjs TARGET_DIR PACKAGE REVISION TRANSPORT...
//
// TRANSPORT is `stdio`, `http` (Streamable HTTP, from 2025-03-26) or `sse` (2024-11-05's
// HTTP+SSE: `GET /sse` on the server's `--http` address). Every case asserts the version the
// server answered in `initialize`, and that no server request came for a capability the client
// did not declare (each message the transport receives is seen before the SDK's). It prints
// `ok|FAIL typescript VERSION REVISION TRANSPORT SERVER CASE` per case and closes with
// `N passed, N failed, N skipped`; the exit status is 1 if any case failed.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { example, httpServer } from './servers.mjs';
import { CASES, Skip, assert } from './cases_1x.mjs';

const [bin, pkg, revision, ...transports] = process.argv.slice(2);
const BIN = path.resolve(bin);
const CASE_TIMEOUT_MS = 60_000;
const sdk = (module) => import(`${pkg}/${module}`);
const { Client } = await sdk('client/index.js');
const types = await sdk('types.js');
// The package's own package.json (its exports map `./*` into dist/, so it is read by path).
const manifest = new URL(`node_modules/${pkg}/package.json`, import.meta.url);
const { version } = JSON.parse(await readFile(manifest));

// What each capability lets the server ask.
const ASKS = { 'sampling/createMessage': 'sampling', 'roots/list': 'roots', 'elicitation/create': 'elicitation' };

/** The servers, and how each is reached over stdio (the conformance server with `--stdio`). */
function servers() {
  const conformance = example('conformance', BIN);
  conformance.stdio = [conformance.http[0], '--stdio'];
  return { travel: example('travel', BIN), bookshop: example('bookshop', BIN), conformance };
}

/** One leg's way to a server: its transport, and a client declaring what `answers` handles. */
class Leg {
  constructor(server, transport, http) {
    Object.assign(this, { server, transport, http, revision, types });
  }

  async transportFor() {
    const { stdio, name } = this.server;
    if (this.transport === 'stdio') {
      const { StdioClientTransport } = await sdk('client/stdio.js');
      return new StdioClientTransport({ command: stdio[0], args: stdio.slice(1), stderr: 'ignore' });
    }
    const base = this.http[name].url.replace(/\/mcp$/, '');
    if (this.transport === 'http') {
      const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    }
    const { SSEClientTransport } = await sdk('client/sse.js');
    return new SSEClientTransport(new URL(`${base}/sse`));
  }

  /**
   * Runs `body` with a connected client that declares (and answers) only what `answers`
   * handles: `sample`, `elicit`, `listRoots`.
   */
  async using(answers, body) {
    const capabilities = {};
    if (answers.sample) capabilities.sampling = {};
    if (answers.elicit) capabilities.elicitation = {};
    if (answers.listRoots) capabilities.roots = {};
    const client = new Client({ name: 'rondo-interop-ts-1x', version: '0.0.0' }, { capabilities });
    const handlers = [
      [answers.sample, types.CreateMessageRequestSchema],
      [answers.elicit, types.ElicitRequestSchema],
      [answers.listRoots, types.ListRootsRequestSchema],
    ];
    for (const [answer, schema] of handlers) {
      if (answer) client.setRequestHandler(schema, async (req) => answer(req.params));
    }
    const transport = await this.transportFor();
    const seen = tap(transport);
    this.seen = seen;
    await client.connect(transport);
    try {
      const init = seen.find((m) => m.result?.protocolVersion);
      assert(init?.result.protocolVersion === revision, `negotiated ${init?.result.protocolVersion}`);
      this.init = init.result;
      return await body(client);
    } finally {
      await client.close();
      const asked = seen.filter((m) => m.method && m.id !== undefined).map((m) => m.method);
      const undeclared = asked.filter((m) => ASKS[m] && !capabilities[ASKS[m]]);
      assert(undeclared.length === 0, `the server sent requests not declared: ${undeclared}`);
    }
  }
}

/** Every message `transport` receives, recorded before the SDK reads it. */
function tap(transport) {
  const seen = [];
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler && ((message, extra) => (seen.push(message), handler(message, extra))),
    set: (h) => (handler = h),
  });
  return seen;
}

async function run(leg, name, check) {
  const label = `typescript ${version} ${revision} ${leg.transport.padEnd(5)} ${leg.server.name} ${name}`;
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${CASE_TIMEOUT_MS} ms`)), CASE_TIMEOUT_MS);
    });
    await Promise.race([check(leg), timeout]);
  } catch (e) {
    if (e instanceof Skip) {
      console.log(`skip ${label}: ${e.message}`);
      return 'skipped';
    }
    console.log(`FAIL ${label}\n${e?.stack ?? e}`);
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
  console.log(`ok   ${label}`);
  return 'passed';
}

async function main() {
  assert(
    types.LATEST_PROTOCOL_VERSION === revision,
    `${pkg} (${version}) speaks ${types.LATEST_PROTOCOL_VERSION} as its newest revision, not ${revision}`,
  );
  const all = servers();
  const http = {};
  const results = [];
  try {
    if (transports.some((t) => t !== 'stdio')) {
      for (const [name, server] of Object.entries(all)) http[name] = await httpServer(name, server.http);
    }
    for (const transport of transports) {
      for (const [name, cases] of Object.entries(CASES)) {
        for (const [label, check] of cases) {
          results.push(await run(new Leg(all[name], transport, http), label, check));
        }
      }
    }
  } finally {
    await Promise.all(Object.values(http).map((s) => s.stop()));
  }
  const count = (k) => results.filter((r) => r === k).length;
  console.log(`${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
  return results.length > 0 && count('failed') === 0 ? 0 : 1;
}

process.exitCode = await main();
