// The bookshop as an OAuth 2.1 resource server, against a real authorization server: the npm
// package `oauth2-mock-server` (pinned in package.json), an OAuth/OpenID server that issues RS256
// JWTs by the client-credentials grant, publishes its keys (JWKS) and its OpenID discovery
// document. The bookshop finds its keys by discovery, as in production.
//
// The checks send raw HTTP (fetch), so each answer is seen as it is on the wire: the metadata
// document, no token, a valid token, a token for another audience or none, an expired one, one
// signed by a key the issuer does not publish, one from another issuer, too few scopes then the
// step-up and the order completing. Then the official MCP Python SDK's client, with its
// client-credentials OAuth provider, discovers the server's metadata from the 401, obtains a
// token for `books:read`, searches, and steps up to `orders:write` on the 403 to order a book
// (interop/python_auth.py). Run it through interop/run.sh:
//
//     node interop/ts/auth.mjs TARGET_DIR PYTHON
//
// It prints one line per check and closes with `N passed, N failed`; the exit status is 1 if any
// check failed.

import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';

const BIN = path.resolve(process.argv[2] ?? 'target/debug');
const PYTHON = process.argv[3];
const RUST_BOOK = '9781593278281';
const WAIT_MS = 20_000;

function assert(ok, what) {
  if (!ok) throw new Error(what);
}

function eq(got, want, what) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  assert(g === w, `${what}: got ${g}, want ${w}`);
}

// --- the authorization servers ----------------------------------------------------------------

// An authorization server whose client-credentials tokens name the client as `sub` and
// `client_id`, and the RFC 8707 `resource` parameter of the token request as `aud` (none when the
// client names no resource).
async function authorizationServer() {
  const as = new OAuth2Server();
  await as.issuer.keys.generate('RS256');
  await as.start(0, '127.0.0.1');
  as.service.on('beforeTokenSigning', (token, req) => {
    const client = clientOf(req);
    Object.assign(token.payload, { sub: client, client_id: client });
    delete token.payload.aud;
    if (req.body?.resource) token.payload.aud = req.body.resource;
  });
  return as;
}

function clientOf(req) {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) return decodeURIComponent(Buffer.from(basic[1], 'base64').toString().split(':')[0]);
  return req.body?.client_id ?? 'anonymous';
}

// A token by the client-credentials grant, as a client obtains it.
async function obtain(as, { scope, resource, client = 'shop-client' }) {
  const body = new URLSearchParams({ grant_type: 'client_credentials', scope });
  if (resource) body.set('resource', resource);
  const r = await fetch(`${as.issuer.url}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client}:secret`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body,
  });
  eq(r.status, 200, 'token endpoint status');
  return (await r.json()).access_token;
}

// A token signed by `as`'s key with exactly these claims (on top of iss/iat/exp/nbf).
async function minted(as, claims) {
  return as.issuer.buildToken({ scopesOrTransform: (_header, payload) => Object.assign(payload, claims) });
}

// --- the bookshop -----------------------------------------------------------------------------

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function protectedBookshop(issuer) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/mcp`;
  const child = spawn(path.join(BIN, 'bookshop'), ['--http', `127.0.0.1:${port}`], {
    env: { ...process.env, BOOKSHOP_AUTH_ISSUER: issuer, BOOKSHOP_PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const r = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the bookshop did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, origin, url, stderr: () => stderr };
}

// --- MCP over raw HTTP (2026-07-28) ---------------------------------------------------------------

let nextId = 1;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'rondo-auth-interop', version: '1.0.0' },
};

async function call(shop, token, name, args, extra = {}) {
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args, ...extra, _meta: META },
  };
  const r = await fetch(shop.url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) };
}

// The auth-params of a `WWW-Authenticate: Bearer` challenge.
function challenge(r) {
  const h = r.headers.get('www-authenticate') ?? '';
  assert(h.startsWith('Bearer '), `a Bearer challenge, got ${JSON.stringify(h)}`);
  return Object.fromEntries([...h.matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

function refusedAs(r, status, error, why) {
  eq(r.status, status, 'status');
  const c = challenge(r);
  eq(c.error, error, 'error code');
  if (why) assert((c.error_description ?? '').includes(why), `description names "${why}": ${c.error_description}`);
  return c;
}

// --- the checks ------------------------------------------------------------------------------

const CHECKS = {
  async 'the metadata document names the public URL and the issuer'({ shop, as }) {
    const r = await fetch(`${shop.origin}/.well-known/oauth-protected-resource/mcp`);
    eq(r.status, 200, 'status');
    const doc = await r.json();
    eq(doc.resource, shop.url, 'resource');
    eq(doc.authorization_servers, [as.issuer.url], 'authorization_servers');
    eq(doc.scopes_supported, ['books:read', 'orders:write'], 'scopes_supported');
  },
  async 'no token: 401 with resource_metadata and scope, no error code'({ shop }) {
    const r = await call(shop, null, 'search_books', { query: 'rust' });
    eq(r.status, 401, 'status');
    const c = challenge(r);
    eq(c.resource_metadata, `${shop.origin}/.well-known/oauth-protected-resource/mcp`, 'resource_metadata');
    eq(c.scope, 'books:read', 'scope');
    eq(c.error, undefined, 'error code');
  },
  async 'a valid token is served'({ shop, as }) {
    const token = await obtain(as, { scope: 'books:read', resource: shop.url });
    const r = await call(shop, token, 'search_books', { query: 'rust' });
    eq(r.status, 200, 'status');
    const books = JSON.parse(r.json().result.content[0].text);
    eq(books.map((b) => b.isbn), [RUST_BOOK], 'books');
  },
  async 'a token for another audience: 401'({ shop, as }) {
    const token = await obtain(as, { scope: 'books:read', resource: 'https://other.example/mcp' });
    refusedAs(await call(shop, token, 'search_books', { query: 'rust' }), 401, 'invalid_token', 'another resource');
  },
  async 'a token without an audience: 401'({ shop, as }) {
    const token = await obtain(as, { scope: 'books:read' });
    refusedAs(await call(shop, token, 'search_books', { query: 'rust' }), 401, 'invalid_token', 'no audience');
  },
  async 'an expired token: 401'({ shop, as }) {
    const now = Math.floor(Date.now() / 1000);
    const token = await minted(as, {
      sub: 'shop-client', aud: shop.url, scope: 'books:read', iat: now - 7200, nbf: now - 7200, exp: now - 600,
    });
    refusedAs(await call(shop, token, 'search_books', { query: 'rust' }), 401, 'invalid_token', 'expired');
  },
  async 'a token signed by a key the issuer does not publish: 401'({ shop, as, stranger }) {
    // Another server's key, claiming to be the trusted issuer.
    const token = await minted(stranger, { iss: as.issuer.url, sub: 'shop-client', aud: shop.url, scope: 'books:read' });
    refusedAs(await call(shop, token, 'search_books', { query: 'rust' }), 401, 'invalid_token', 'unknown key');
  },
  async 'a token from another issuer: 401'({ shop, as }) {
    const token = await minted(as, { iss: 'https://evil.example', sub: 'shop-client', aud: shop.url, scope: 'books:read' });
    refusedAs(await call(shop, token, 'search_books', { query: 'rust' }), 401, 'invalid_token', 'issuer');
  },
  async 'too few scopes: 403 naming orders:write, then the step-up orders'({ shop, as }) {
    const args = { isbn: RUST_BOOK, quantity: 1 };
    const reader = await obtain(as, { scope: 'books:read', resource: shop.url });
    const c = refusedAs(await call(shop, reader, 'order_book', args), 403, 'insufficient_scope');
    eq(c.scope, 'orders:write books:read', 'scope');
    const writer = await obtain(as, { scope: 'books:read orders:write', resource: shop.url });
    const first = (await call(shop, writer, 'order_book', args)).json();
    eq(first.result?.resultType, 'input_required', 'the confirmation is asked');
    const key = Object.keys(first.result.inputRequests)[0];
    const answer = { [key]: { action: 'accept', content: { approve: true, delivery: 'standard' } } };
    const done = (
      await call(shop, writer, 'order_book', args, {
        requestState: first.result.requestState,
        inputResponses: answer,
      })
    ).json();
    const text = done.result?.content?.[0]?.text ?? JSON.stringify(done);
    assert(text.startsWith('Ordered 1 x "The Rust Programming Language"'), text);
  },
};

async function pythonSdk({ shop, as }) {
  assert(PYTHON, 'the Python interpreter of the interop environment');
  const py = spawn(PYTHON, ['interop/python_auth.py', shop.url, as.issuer.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  py.stdout.on('data', (d) => {
    out += d;
  });
  py.stderr.on('data', (d) => {
    out += d;
  });
  const code = await new Promise((resolve) => py.on('exit', resolve));
  process.stdout.write(out);
  assert(code === 0, `interop/python_auth.py exited with ${code}`);
}

async function main() {
  const as = await authorizationServer();
  const stranger = await authorizationServer();
  const shop = await protectedBookshop(as.issuer.url);
  const ctx = { shop, as, stranger };
  let passed = 0;
  let failed = 0;
  const run = async (name, check) => {
    try {
      await Promise.race([
        check(ctx),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), WAIT_MS)),
      ]);
      passed++;
      console.log(`ok    ${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL  ${name}: ${e.message}`);
    }
  };
  try {
    for (const [name, check] of Object.entries(CHECKS)) await run(name, check);
    await run('the Python SDK client-credentials flow, with the step-up', pythonSdk);
  } finally {
    shop.child.kill('SIGTERM');
    await Promise.all([as.stop(), stranger.stop()]);
  }
  if (failed > 0) console.log(shop.stderr());
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
