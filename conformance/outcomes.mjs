// Compares the outcome of every scenario of one conformance run, scored or not, with the
// committed list of what Rondo gets today, and fails on any difference.
//
// Usage: node outcomes.mjs <results dir of one requirement set> <expected-outcomes-<rev>.txt>
//
// The outcome of a scenario is the worst status among the checks in its checks.json:
// FAILURE -> fail, else WARNING -> warn, else SKIPPED -> skipped, else pass (SUCCESS and INFO).
// A scenario that ran but is not listed, a listed scenario that did not run, and a scenario whose
// outcome differs from its line (worse or better) all fail: the list stays exact.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [resultsDir, expectedFile] = process.argv.slice(2);
if (!resultsDir || !expectedFile) {
  console.error("usage: node outcomes.mjs <results dir> <expected outcomes file>");
  process.exit(2);
}

const OUTCOMES = ["pass", "fail", "warn", "skipped"];

function outcome(checks) {
  const statuses = new Set(checks.map((c) => c.status));
  if (checks.length === 0) return "no checks";
  if (statuses.has("FAILURE")) return "fail";
  if (statuses.has("WARNING")) return "warn";
  if (statuses.has("SKIPPED")) return "skipped";
  return "pass";
}

// What ran: one directory per scenario, `server-<scenario>-<timestamp>`.
const actual = new Map();
for (const dir of readdirSync(resultsDir)) {
  const m = /^server-(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d+Z$/.exec(dir);
  if (!m) continue;
  let o;
  try {
    o = outcome(JSON.parse(readFileSync(join(resultsDir, dir, "checks.json"), "utf8")));
  } catch (e) {
    o = `unreadable checks.json (${e.message})`;
  }
  if (actual.has(m[1])) o = "ran twice";
  actual.set(m[1], o);
}

// What is expected: `<scenario> <outcome> [reason]`, `#` comments; a reason is required for
// every outcome but pass.
const expected = new Map();
const problems = [];
readFileSync(expectedFile, "utf8")
  .split("\n")
  .forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) return;
    const [scenario, want, ...reason] = line.split(/\s+/);
    const where = `${expectedFile}:${i + 1}`;
    if (!OUTCOMES.includes(want)) problems.push(`${where}: unknown outcome '${want}'`);
    else if (want !== "pass" && reason.length === 0)
      problems.push(`${where}: '${scenario}' is listed as ${want}: say why`);
    if (expected.has(scenario)) problems.push(`${where}: '${scenario}' is listed twice`);
    expected.set(scenario, want);
  });

for (const [scenario, want] of expected) {
  const got = actual.get(scenario);
  if (got === undefined) problems.push(`${scenario}: expected ${want}, but it did not run`);
  else if (got !== want) problems.push(`${scenario}: expected ${want}, got ${got}`);
}
for (const [scenario, got] of actual) {
  if (!expected.has(scenario))
    problems.push(`${scenario}: ran (${got}) but is not in ${expectedFile}`);
}

const counts = {};
for (const o of actual.values()) counts[o] = (counts[o] ?? 0) + 1;
const summary = Object.entries(counts)
  .map(([o, n]) => `${n} ${o}`)
  .join(", ");
if (problems.length === 0) {
  console.log(`outcomes: all ${actual.size} scenarios as expected (${summary})`);
} else {
  console.log(`outcomes: ${problems.length} scenario(s) differ from ${expectedFile}:`);
  for (const p of problems) console.log(`  - ${p}`);
  console.log("A regression is fixed in the code; a deliberate change updates the list.");
  process.exit(1);
}
