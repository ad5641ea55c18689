// A smoke test with the MCP Inspector (`@modelcontextprotocol/inspector`, pinned in package.json
// and package-lock.json) in its `--cli` mode: for each example server below, over stdio and
// Streamable HTTP, at both protocol eras (`--protocol-era legacy`: 2025-11-25; `modern`:
// 2026-07-28), it lists the tools (with `--strict`, which fails on a tool schema the Inspector
// finds unportable), calls a plain tool and checks its answer, and calls an asking tool, which
// the Inspector's CLI cannot answer (it declares no elicitation), so the server refuses it.
// The CLI runs with HOME in a scratch folder under target/, so it reads and writes no user
// configuration; it opens no browser and binds no port (no server here asks for OAuth).
//
//     node interop/ts/inspector.mjs TARGET_DIR
//
// Prints one line per step and closes with `N passed, N failed`; exit status 1 if any failed.

import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { example, httpServer } from './servers.mjs';

const BIN = path.resolve(process.argv[2] ?? 'target/debug');
const HERE = path.dirname(fileURLToPath(import.meta.url));
const LAUNCHER = path.join(
  HERE,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const HOME = path.resolve(BIN, '..', 'inspector-home');
const ERAS = ['legacy', 'modern'];
const TRAVEL_WORKSPACE = path.resolve(HERE, '../../examples/travel/workspace');

// What each server must list, a plain call and its expected text, and an asking call the CLI
// cannot answer with what the refusal says. To add a server: its entry in servers.mjs, then
// one here.
const SMOKE = {
  bookshop: {
    lists: ['search_books', 'order_book'],
    call: { tool: 'search_books', args: { query: 'rust' }, says: '"isbn":"9781593278281"' },
    refused: {
      tool: 'order_book',
      args: { isbn: '9781593278281', quantity: 1 },
      says: 'elicitation',
    },
  },
  conformance: {
    lists: ['test_simple_text', 'test_elicitation'],
    call: {
      tool: 'test_simple_text',
      args: {},
      says: 'This is a simple text response for testing.',
    },
    refused: { tool: 'test_elicitation', args: { message: 'Who are you?' }, says: 'elicitation' },
  },
  travel: {
    lists: ['find_best_flight', 'book_trip', 'pay_for_trip', 'trip_files'],
    // The CLI declares roots but lists none: the folders come from the argument.
    call: {
      tool: 'trip_files',
      args: { folders: [TRAVEL_WORKSPACE] },
      says: `Itineraries (${TRAVEL_WORKSPACE}/travel-planning):\n  - barcelona-june-2027.md`,
    },
    refused: { tool: 'book_trip', args: { package_id: 'barcelona' }, says: 'elicitation' },
  },
};

/** Runs the Inspector's CLI with `args`; resolves to its exit code, stdout and stderr. */
function inspector(args) {
  return new Promise((resolve) => {
    const env = { ...process.env, HOME, MCP_AUTO_OPEN_ENABLED: 'false', NO_COLOR: '1' };
    const options = { env, timeout: 60_000 };
    execFile(process.execPath, [LAUNCHER, '--cli', ...args], options, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** The `--format json` envelope the CLI printed. */
function envelope(out, stream) {
  const text = out[stream].trim();
  try {
    return JSON.parse(text.split('\n').at(-1));
  } catch {
    const output = `${out.stdout}\n${out.stderr}`;
    throw new Error(`no JSON envelope on ${stream} (exit ${out.code}):\n${output}`);
  }
}

/** The CLI's arguments for calling `tool` with `args`. */
const callArgs = ({ tool, args }) => [
  '--method',
  'tools/call',
  '--tool-name',
  tool,
  '--tool-args-json',
  JSON.stringify(args),
];

const textOf = (result) => (result.content ?? []).map((c) => c.text ?? '').join('');

async function listsTools(target, era, smoke) {
  const args = ['--method', 'tools/list', '--strict'];
  const out = await inspector([...target, '--protocol-era', era, ...args, '--format', 'json']);
  check(out.code === 0, `exit ${out.code}:\n${out.stderr}`);
  const names = envelope(out, 'stdout').result.tools.map((t) => t.name);
  for (const name of smoke.lists) check(names.includes(name), `${name} not in ${names}`);
}

async function callsAPlainTool(target, era, { call }) {
  const args = callArgs(call);
  const out = await inspector([...target, '--protocol-era', era, ...args, '--format', 'json']);
  check(out.code === 0, `exit ${out.code}:\n${out.stderr}`);
  const result = envelope(out, 'stdout').result;
  const ok = !result.isError && textOf(result).includes(call.says);
  check(ok, `unexpected result ${JSON.stringify(result)}`);
}

async function anAskingToolIsRefused(target, era, { refused }) {
  const args = callArgs(refused);
  const out = await inspector([...target, '--protocol-era', era, ...args, '--format', 'json']);
  check(out.code !== 0, `expected a refusal, got exit 0:\n${out.stdout}`);
  const { error } = envelope(out, out.stdout.trim() ? 'stdout' : 'stderr');
  check(error?.message?.includes(refused.says), `unexpected error ${JSON.stringify(error)}`);
}

/** Runs `step`; resolves to the line to print and whether it passed. */
async function run(what, step, target, era, smoke) {
  try {
    await step(target, era, smoke);
    return [true, `ok   ${what}`];
  } catch (e) {
    return [false, `FAIL ${what}\n${e?.stack ?? e}`];
  }
}

async function main() {
  mkdirSync(HOME, { recursive: true });
  const results = [];
  for (const [name, smoke] of Object.entries(SMOKE)) {
    const server = example(name, BIN);
    const http = await httpServer(name, server.http);
    const targets = [['http ', [http.url]]];
    if (server.stdio) targets.unshift(['stdio', server.stdio]);
    try {
      // Each step is a separate CLI process, mostly spent loading the CLI: a server's steps run
      // at once, and print in order.
      const runs = [];
      for (const era of ERAS) {
        for (const step of [listsTools, callsAPlainTool, anAskingToolIsRefused]) {
          for (const [label, target] of targets) {
            runs.push(run(`${name} ${label} ${era} ${step.name}`, step, target, era, smoke));
          }
        }
      }
      for (const [ok, line] of await Promise.all(runs)) {
        console.log(line);
        results.push(ok);
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
