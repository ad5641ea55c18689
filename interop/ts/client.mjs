// The official MCP TypeScript SDK's client as sdk.mjs and travel.mjs drive it: `connect` at a
// revision with only the capabilities a check's answers handle, what the SDK's schema validator
// warned, the requests that reached no handler, and the assertions the checks share.

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const REVISIONS = {
  '2026-07-28': { mode: { pin: '2026-07-28' } },
  '2025-11-25': { mode: 'legacy' },
};

// --- what the SDK's validator says ------------------------------------------------------------

// ajv, inside the SDK, reports a schema keyword it does not know through `console.warn`; the
// driver keeps every such line (and still prints it) so a check can fail on it.
export const validatorWarnings = [];
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
export const undeclared = [];

/** What the server asked this client, and the scripted answers. */
export class Asked {
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
export async function connect(server, revision, answers = {}) {
  const capabilities = {};
  if (answers.elicit) {
    capabilities.elicitation = answers.urlMode ? { form: {}, url: {} } : { form: {} };
  }
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
export async function using(server, revision, answers, body) {
  const client = await connect(server, revision, answers);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

export function eq(got, want, what) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  assert(g === w, `${what}: got ${g}, expected ${w}`);
}

export const textOf = (result) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');

/** The `ProtocolError` `promise` rejects with; fails if it resolves or rejects otherwise. */
export async function refusal(promise) {
  try {
    const r = await promise;
    throw new Error(`expected a JSON-RPC error, got a result: ${JSON.stringify(r)}`);
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
}

