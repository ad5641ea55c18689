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
// check failed.

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { example, httpServer } from './servers.mjs';

const BIN = path.resolve(process.argv[2] ?? 'target/debug');
const REVISIONS = {
  '2026-07-28': { mode: { pin: '2026-07-28' } },
  '2025-11-25': { mode: 'legacy' },
};
const RUST_BOOK = '9781593278281';
const CHECK_TIMEOUT_MS = 60_000;

// --- what the SDK's validator says ------------------------------------------------------------

// ajv, inside the SDK, reports a schema keyword it does not know through `console.warn`; the
// driver keeps every such line (and still prints it) so a check can fail on it.
const validatorWarnings = [];
for (const level of ['warn', 'error', 'log']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    const line = args.map(String).join(' ');
    if (/unknown format|unknown keyword|strict mode/i.test(line)) validatorWarnings.push(line);
    original(...args);
  };
}

// --- the client -------------------------------------------------------------------------------

/** The methods of the server's requests that reached a client without a handler for them. */
const undeclared = [];

/** What the server asked this client, and the scripted answers. */
class Asked {
  constructor({ form = undefined, action = 'accept' } = {}) {
    this.form = form;
    this.action = action;
    this.elicitations = [];
    this.samplings = [];
    this.roots = 0;
  }
  elicit(params) {
    this.elicitations.push(params);
    return this.action === 'accept'
      ? { action: 'accept', content: this.form }
      : { action: this.action };
  }
  sample(params) {
    this.samplings.push(params);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'Good day' },
      model: 'interop-model',
      stopReason: 'endTurn',
    };
  }
  listRoots() {
    this.roots += 1;
    return {
      roots: [
        { uri: 'file:///home/ada/project', name: 'project' },
        { uri: 'file:///home/ada/notes', name: 'notes' },
      ],
    };
  }
}

/**
 * A connected client at `revision`, declaring (and answering) only what `answers` handles:
 * `elicit`, `sample`, `listRoots` (an `Asked`, or `{}` for a client that declares nothing);
 * `urlMode: true` besides `elicit` declares URL-mode elicitation too.
 */
async function connect(server, revision, answers = {}) {
  const capabilities = {};
  if (answers.elicit) capabilities.elicitation = answers.urlMode ? { form: {}, url: {} } : { form: {} };
  if (answers.sample) capabilities.sampling = {};
  if (answers.listRoots) capabilities.roots = {};
  const client = new Client(
    { name: 'rondo-interop-ts', version: '0.0.0' },
    { capabilities, versionNegotiation: REVISIONS[revision] },
  );
  if (answers.elicit) {
    client.setRequestHandler('elicitation/create', async (req) => answers.elicit(req.params));
  }
  if (answers.sample) {
    client.setRequestHandler('sampling/createMessage', async (req) => answers.sample(req.params));
  }
  if (answers.listRoots) {
    client.setRequestHandler('roots/list', async () => answers.listRoots());
  }
  // A request for a method this client has no handler for (it did not declare it) is recorded;
  // `run` fails the check on it.
  client.fallbackRequestHandler = async (request) => {
    undeclared.push(request.method);
    throw new ProtocolError(-32601, `Method not found: ${request.method}`);
  };
  const transport = server.stdio
    ? new StdioClientTransport({ ...server.stdio, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  const got = client.getNegotiatedProtocolVersion();
  assert(got === revision, `negotiated ${got}, expected ${revision}`);
  return client;
}

/** Runs `body` with a client connected as `connect` does, and closes it. */
async function using(server, revision, answers, body) {
  const client = await connect(server, revision, answers);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

function eq(got, want, what) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  assert(g === w, `${what}: got ${g}, expected ${w}`);
}

const textOf = (result) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');

/** The `ProtocolError` `promise` rejects with; fails if it resolves or rejects otherwise. */
async function refusal(promise) {
  try {
    const r = await promise;
    throw new Error(`expected a JSON-RPC error, got a result: ${JSON.stringify(r)}`);
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
}

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

// --- checks: the travel server ----------------------------------------------------------------

const WORKSPACE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/travel/workspace');
const SEARCH = { destination: 'Barcelona', month: '2027-06', morning_departure: true, max_stops: 1 };
// The ranking's best three for SEARCH (preferences, then stops, then price).
const RANKED = ['BCN22', 'BCN35', 'BCN37'];
const MODEL_JSON = JSON.stringify({
  picks: [
    { flight_id: 'BCN30', reason: 'A morning flight with one stop in London.' },
    { flight_id: 'BCN22', reason: 'The cheapest morning nonstop.' },
  ],
});
const APPROVAL = { approve: true, seat: 'window', room_type: 'double' };
const DETAILS = {
  passenger_name: 'Ada Lovelace',
  date_of_birth: '1985-12-10',
  emergency_contact_name: 'Charles Babbage',
  emergency_contact_phone: '+44 20 7946 0958',
};
const BOOKED = new RegExp(
  '^Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona \\(beachfront\\), ' +
    '7 nights, \\$3,000 in total for Ada Lovelace \\(window seat, double room\\): booking (trip-\\d+)\\. ' +
    'Pay with pay_for_trip\\(booking_id: "trip-\\d+"\\)\\.$',
);

/**
 * The travel server's user and model: `action` answers every question (accept, decline,
 * cancel), `model` is the sampling answer's text; an accepted payment page is paid a moment later
 * through the page's JSON endpoint, while the tool waits. `asked` records each question: the
 * first word of a form's message, `url`, `sampling`, `roots`. `handles` says which the client
 * declares (`elicitation` declares form and URL mode; `form` form mode only).
 */
class Traveller {
  constructor({ action = 'accept', model = MODEL_JSON, handles = [] } = {}) {
    this.action = action;
    this.model = model;
    this.asked = [];
    this.payments = [];
    const has = (w) => handles.includes(w);
    if (has('elicitation') || has('form')) this.elicit = (p) => this.#elicit(p);
    this.urlMode = has('elicitation');
    if (has('sampling')) this.sample = (p) => this.#sample(p);
    if (has('roots')) this.listRoots = () => this.#roots();
  }
  #elicit(params) {
    const url = params.mode === 'url' ? params.url : undefined;
    this.asked.push(url ? 'url' : params.message.split(' ')[0]);
    if (this.action !== 'accept') return { action: this.action };
    if (url) {
      this.payments.push(payOnPage(url));
      return { action: 'accept' };
    }
    return { action: 'accept', content: params.message.startsWith('Book ') ? APPROVAL : DETAILS };
  }
  #sample(params) {
    this.asked.push('sampling');
    assert(!params.tools, 'no tools without sampling.tools');
    return {
      role: 'assistant',
      content: { type: 'text', text: this.model },
      model: 'interop-model',
      stopReason: 'endTurn',
    };
  }
  #roots() {
    this.asked.push('roots');
    return { roots: [{ uri: pathToFileURL(WORKSPACE).href, name: 'travel workspace' }] };
  }
}

/**
 * The user presses "Pay" on the page half a second after opening it: the page's own script
 * posts JSON to its completion endpoint, from the page's origin (the server refuses a plain form
 * post and a foreign origin).
 */
async function payOnPage(url) {
  await new Promise((r) => setTimeout(r, 500));
  const res = await fetch(`${url}/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(url).origin },
    body: '{}',
  });
  const body = await res.json();
  assert(res.status === 200 && body.paid, `the page answered ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const picks = (r) => [r.structuredContent?.chosen_by, (r.structuredContent?.picks ?? []).map((p) => p.flight.id)];

async function refusedNaming(promise, capability) {
  const e = await refusal(promise);
  eq(e.code, -32021, `error code (${e.message})`);
  eq(e.data?.requiredCapabilities, capability, 'required capabilities');
}

async function flightPickedByTheModel(server, revision) {
  const user = new Traveller({ handles: ['elicitation', 'sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
    eq(picks(r), ['client_model', ['BCN30', 'BCN22']], 'picks');
  });
  eq(user.asked, ['sampling'], 'asked');
}

async function flightModelProseIsRanked(server, revision) {
  const model = 'I would take the morning nonstop from Boston; it is the cheapest.';
  const user = new Traveller({ model, handles: ['sampling'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
    eq(picks(r), ['ranking', RANKED], 'picks');
  });
  eq(user.asked, ['sampling'], 'asked once, not again');
}

async function flightModelGarbageIsRanked(server, revision) {
  const user = new Traveller({ model: '{"picks": [{"flight_id": 7}] \u0000 ```', handles: ['sampling'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
    eq(picks(r), ['ranking', RANKED], 'picks');
  });
  eq(user.asked, ['sampling'], 'asked');
}

async function flightWithoutSamplingIsRanked(server, revision) {
  const user = new Traveller({ handles: ['elicitation', 'roots'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
    eq(picks(r), ['ranking', RANKED], 'picks');
  });
  eq(user.asked, [], 'asked');
}

async function bookingThenPaymentOnThePage(server, revision) {
  const user = new Traveller({ handles: ['elicitation', 'sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const booked = await c.callTool({ name: 'book_trip', arguments: { package_id: 'barcelona' } });
    const m = BOOKED.exec(textOf(booked));
    assert(m, `booked: ${JSON.stringify(booked)}`);
    // Both forms, one after the other: at 2026-07-28 two rounds (the second question comes
    // only with the first answer in requestState), at 2025-11-25 two requests.
    eq(user.asked, ['Book', 'Traveller'], 'asked before the payment');
    const paid = await c.callTool({ name: 'pay_for_trip', arguments: { booking_id: m[1] } });
    eq(user.asked, ['Book', 'Traveller', 'url'], 'asked');
    const { receipt } = await user.payments[0];
    eq(textOf(paid), `Paid $3,000 for booking ${m[1]}: receipt ${receipt}.`, 'paid');
  });
}

async function bookingDeclined(server, revision) {
  const user = new Traveller({ action: 'decline', handles: ['elicitation'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'book_trip', arguments: { package_id: 'barcelona' } });
    assert(!r.isError, JSON.stringify(r));
    eq(textOf(r), 'The traveller declined the trip; nothing was booked.', 'declined');
    const p = await c.callTool({ name: 'pay_for_trip', arguments: { booking_id: 'demo' } });
    const nothingPaid = 'The traveller declined to open the payment page; nothing was paid for booking demo.';
    eq(textOf(p), nothingPaid, 'payment declined');
  });
  eq(user.asked, ['Book', 'url'], 'asked');
}

async function bookingWithoutElicitationIsRefused(server, revision) {
  const user = new Traveller({ handles: ['sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const args = { package_id: 'barcelona' };
    await refusedNaming(c.callTool({ name: 'book_trip', arguments: args }), { elicitation: { form: {} } });
  });
  eq(user.asked, [], 'asked');
}

async function paymentWithoutUrlModeIsRefused(server, revision) {
  // The client answers forms but declares no URL mode: payment never falls back to a form.
  const user = new Traveller({ handles: ['form', 'sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const args = { booking_id: 'demo' };
    await refusedNaming(c.callTool({ name: 'pay_for_trip', arguments: args }), { elicitation: { url: {} } });
  });
  eq(user.asked, [], 'asked');
}

async function tripFilesFromRoots(server, revision) {
  const user = new Traveller({ handles: ['elicitation', 'sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const r = await c.callTool({ name: 'trip_files', arguments: {} });
    assert(!r.isError, JSON.stringify(r));
    const text = textOf(r);
    const itinerary = `Itineraries (${WORKSPACE}/travel-planning):\n  - barcelona-june-2027.md`;
    assert(text.includes(itinerary), text);
    assert(text.includes('Client documents') && text.includes('Templates'), text);
  });
  eq(user.asked, ['roots'], 'asked');
}

async function tripFilesWithoutRoots(server, revision) {
  await using(server, revision, {}, async (c) => {
    const given = await c.callTool({ name: 'trip_files', arguments: { folders: [WORKSPACE] } });
    assert(!given.isError && textOf(given).includes('itinerary-template.md'), JSON.stringify(given));
    const none = await c.callTool({ name: 'trip_files', arguments: {} });
    assert(none.isError && textOf(none).includes('Pass `folders`'), JSON.stringify(none));
  });
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
  travel: [
    flightPickedByTheModel,
    flightModelProseIsRanked,
    flightModelGarbageIsRanked,
    flightWithoutSamplingIsRanked,
    bookingThenPaymentOnThePage,
    bookingDeclined,
    bookingWithoutElicitationIsRefused,
    paymentWithoutUrlModeIsRefused,
    tripFilesFromRoots,
    tripFilesWithoutRoots,
  ],
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
