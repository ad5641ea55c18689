// Rondo's example servers driven by a second real client: the official MCP TypeScript SDK
// (`@modelcontextprotocol/client`, pinned in package.json and package-lock.json), at 2026-07-28
// (`versionNegotiation: { mode: { pin } }`: `server/discover`, then the SDK's own
// `input_required` loop) and at 2025-11-25 (`mode: 'legacy'`: the initialize handshake and real
// server-to-client requests), over stdio and Streamable HTTP.
//
// Every check runs at both revisions on every transport its server serves (CHECKS below says which
// checks run against which server, servers.mjs how each one is started). Besides its own
// assertions, each check fails when the SDK's schema validator warned about a schema the server
// published (`unknown format "uint32" ignored in schema ...`). Run it through interop/run.sh, which
// builds the servers and installs the pinned SDK:
//
//     node interop/ts/sdk.mjs TARGET_DIR
//
// It prints one line per check and closes with `N passed, N failed`; the exit status is 1 if any
// check failed. The client and the shared assertions are in client.mjs, the travel checks in
// travel.mjs.

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import path from 'node:path';
import {
  Asked,
  REVISIONS,
  assert,
  eq,
  refusal,
  textOf,
  undeclared,
  using,
  validatorWarnings,
} from './client.mjs';
import { example, httpServer } from './servers.mjs';
import { TRAVEL_CHECKS } from './travel.mjs';

const BIN = path.resolve(process.argv[2] ?? 'target/debug');
const RUST_BOOK = '9781593278281';
const CHECK_TIMEOUT_MS = 60_000;

// --- checks: every server --------------------------------------------------------------------

// The SDK compiles a tool's outputSchema when it checks a result; a host compiles the inputSchema
// too (to check the model's arguments). Both, for every tool listed, with the validator the SDK
// uses on Node by default: `run` fails the check on any warning it logs.
async function listedSchemasCompile(server, revision) {
  await using(server, revision, {}, async (c) => {
    const { tools } = await c.listTools();
    assert(tools.length > 0, 'tools listed');
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      for (const key of ['inputSchema', 'outputSchema']) {
        if (tool[key] !== undefined) validator.getValidator(tool[key]);
      }
    }
  });
}

// --- checks: the bookshop ---------------------------------------------------------------------

async function orderAccepted(server, revision) {
  const asked = new Asked({ form: { approve: true, delivery: 'express' } });
  await using(server, revision, asked, async (c) => {
    const names = (await c.listTools()).tools.map((t) => t.name);
    for (const name of ['search_books', 'order_book']) {
      assert(names.includes(name), `${name} listed in ${names}`);
    }
    const found = await c.callTool({ name: 'search_books', arguments: { query: 'rust' } });
    const books = JSON.parse(textOf(found));
    eq(books.map((b) => b.isbn), [RUST_BOOK], 'search_books');
    // 2026-07-28 carries the array as structured content (the SDK checked it against the
    // outputSchema); 2025-11-25 allows only objects there.
    eq(found.structuredContent, revision === '2026-07-28' ? books : undefined, 'structured');
    const r = await c.callTool({ name: 'order_book', arguments: { isbn: RUST_BOOK, quantity: 2 } });
    assert(!r.isError, JSON.stringify(r));
    eq(textOf(r), 'Ordered 2 x "The Rust Programming Language", express delivery.', 'order');
  });
  eq(asked.elicitations.length, 1, 'questions asked');
  const form = asked.elicitations[0];
  eq(form.message, 'Order 2 x "The Rust Programming Language" for $79.98?', 'message');
  eq(form.requestedSchema.required, ['approve'], 'required');
  const fields = Object.keys(form.requestedSchema.properties).sort();
  eq(fields, ['approve', 'delivery', 'gift_wrap'], 'fields');
}

async function orderDeclined(server, revision) {
  const asked = new Asked({ action: 'decline' });
  await using(server, revision, asked, async (c) => {
    const r = await c.callTool({ name: 'order_book', arguments: { isbn: RUST_BOOK, quantity: 1 } });
    assert(!r.isError, JSON.stringify(r));
    eq(textOf(r), 'The user declined; nothing was ordered.', 'declined');
  });
  eq(asked.elicitations.length, 1, 'questions asked');
}

async function orderWithoutElicitationIsRefused(server, revision) {
  await using(server, revision, {}, async (c) => {
    const args = { isbn: RUST_BOOK, quantity: 1 };
    const e = await refusal(c.callTool({ name: 'order_book', arguments: args }));
    eq(e.code, -32021, `error code (${e.message})`);
    const required = e.data?.requiredCapabilities ?? {};
    assert('elicitation' in required, `data names elicitation: ${JSON.stringify(e.data)}`);
  });
}

async function badArgumentsAreAToolError(server, revision) {
  const asked = new Asked({ form: { approve: true } });
  await using(server, revision, asked, async (c) => {
    const args = { isbn: RUST_BOOK, quantity: 11 };
    const r = await c.callTool({ name: 'order_book', arguments: args });
    assert(r.isError, JSON.stringify(r));
    eq(textOf(r), 'quantity must be between 1 and 10', 'tool error');
  });
  eq(asked.elicitations.length, 0, 'nothing asked for a call that cannot proceed');
}

// --- checks: the conformance server -----------------------------------------------------------

const ALL_AT_ONCE = 'test_input_required_result_multiple_inputs';

async function threeQuestionsAtOnce(server, revision) {
  const asked = new Asked({ form: { name: 'Ada' } });
  await using(server, revision, asked, async (c) => {
    const r = await c.callTool({ name: ALL_AT_ONCE, arguments: {} });
    eq(textOf(r), 'name=Ada, greeting=Good day, roots=2', 'answer');
  });
  eq([asked.elicitations.length, asked.samplings.length, asked.roots], [1, 1, 1], 'asked');
}

async function samplingAnswered(server, revision) {
  const asked = new Asked();
  const answers = { sample: (p) => asked.sample(p) };
  await using(server, revision, answers, async (c) => {
    const r = await c.callTool({ name: 'test_sampling', arguments: { prompt: 'Say good day' } });
    eq(textOf(r), 'LLM response: Good day', 'answer');
  });
  eq(asked.samplings.length, 1, 'samplings');
  eq(asked.samplings[0].messages[0].content.text, 'Say good day', 'prompt');
}

async function undeclaredSamplingTakesTheFallback(server, revision) {
  // No sampling handler, so the client declares no sampling: the greeting's fallback answers
  // and the other two questions are still asked.
  const asked = new Asked({ form: { name: 'Ada' } });
  const answers = { elicit: (p) => asked.elicit(p), listRoots: () => asked.listRoots() };
  await using(server, revision, answers, async (c) => {
    const r = await c.callTool({ name: ALL_AT_ONCE, arguments: {} });
    eq(textOf(r), 'name=Ada, greeting=Hello, roots=2', 'answer');
  });
  eq(asked.samplings.length, 0, 'samplings');
}

async function twoRoundsInARow(server, revision) {
  const forms = [{ name: 'Ada' }, { color: 'green' }];
  const asked = new Asked();
  const answers = {
    elicit: (p) => {
      asked.form = forms[asked.elicitations.length];
      return asked.elicit(p);
    },
  };
  await using(server, revision, answers, async (c) => {
    const r = await c.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    assert(!r.isError, JSON.stringify(r));
    assert(textOf(r).includes('Ada') && textOf(r).includes('green'), textOf(r));
  });
  eq(
    asked.elicitations.map((e) => e.message),
    ['Step 1: What is your name?', 'Step 2: What is your favorite color?'],
    'messages',
  );
}

// --- what runs against each server -----------------------------------------------------------
//
// To add a server: its entry in servers.mjs (EXAMPLES), then a line here with its checks
// (functions of `(server, revision)` like the ones above). `listedSchemasCompile` runs against
// every server, on each transport it serves.

const CHECKS = {
  bookshop: [
    orderAccepted,
    orderDeclined,
    orderWithoutElicitationIsRefused,
    badArgumentsAreAToolError,
  ],
  conformance: [
    threeQuestionsAtOnce,
    samplingAnswered,
    undeclaredSamplingTakesTheFallback,
    twoRoundsInARow,
  ],
  travel: TRAVEL_CHECKS,
};

// --- running ----------------------------------------------------------------------------------

async function run(label, check, server, revision) {
  const name = `${label} ${revision} ${check.name}`;
  const warned = validatorWarnings.length;
  undeclared.length = 0;
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      const late = () => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`));
      timer = setTimeout(late, CHECK_TIMEOUT_MS);
    });
    await Promise.race([check(server, revision), timeout]);
    const warnings = validatorWarnings.slice(warned);
    assert(warnings.length === 0, `the SDK's schema validator warned:\n${warnings.join('\n')}`);
    assert(undeclared.length === 0, `the server sent requests not declared: ${undeclared}`);
  } catch (e) {
    console.log(`FAIL ${name}\n${e?.stack ?? e}`);
    return false;
  } finally {
    clearTimeout(timer);
  }
  console.log(`ok   ${name}`);
  return true;
}

async function main() {
  const results = [];
  for (const [name, checks] of Object.entries(CHECKS)) {
    const server = example(name, BIN);
    const http = await httpServer(name, server.http);
    const transports = [['http ', { url: http.url }]];
    if (server.stdio) {
      const [command, ...args] = server.stdio;
      transports.unshift(['stdio', { stdio: { command, args } }]);
    }
    try {
      for (const revision of Object.keys(REVISIONS)) {
        for (const check of [listedSchemasCompile, ...checks]) {
          for (const [label, target] of transports) {
            results.push(await run(`${name} ${label}`, check, target, revision));
          }
        }
      }
    } finally {
      await http.stop();
    }
  }
  const passed = results.filter(Boolean).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  return results.length > 0 && passed === results.length ? 0 : 1;
}

process.exitCode = await main();
