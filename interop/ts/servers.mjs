// The example servers the drivers in this folder run (sdk.mjs, inspector.mjs), and how to start
// them. To add one: an entry in EXAMPLES with its binary's argv for stdio (if it serves stdio)
// and for Streamable HTTP (`{port}` is replaced by a free loopback port, which is also in the
// PORT variable), then its checks in sdk.mjs (or in a module of their own, as travel.mjs) and
// its smoke calls in inspector.mjs.

import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const EXAMPLES = {
  bookshop: { stdio: ['bookshop'], http: ['bookshop', '--http', '127.0.0.1:{port}'] },
  conformance: { http: ['conformance'] },
  travel: { stdio: ['travel'], http: ['travel', '--http', '127.0.0.1:{port}'] },
};

/** The example `name` with its argv resolved against the binaries in `bin`. */
export function example(name, bin) {
  const resolve = (argv) => argv && [path.join(bin, argv[0]), ...argv.slice(1)];
  const e = EXAMPLES[name];
  return { name, stdio: resolve(e.stdio), http: resolve(e.http) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function connects(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A server process on a free loopback port; `stop()` ends it. */
export async function httpServer(name, argv, env = {}) {
  const port = await freePort();
  const args = argv.map((a) => a.replaceAll('{port}', String(port)));
  const child = spawn(args[0], args.slice(1), {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  let exited = null;
  child.once('exit', (code) => (exited = code ?? 'signal'));
  const deadline = Date.now() + 30_000;
  while (!(await connects(port))) {
    if (exited !== null) throw new Error(`${name} exited (${exited}) before listening`);
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port} within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        if (exited !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

