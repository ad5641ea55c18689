// The travel server's checks for sdk.mjs (CHECKS.travel): every travel tool with the client's
// answers accepting, declining and absent, the model's answer JSON, prose and garbage, and the
// payment completed through the server's page while the tool waits; and the server's skill
// listed and read with the SDK's own Skills extension client, which verifies every file.

import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assert, eq, refusal, textOf, using } from './client.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WORKSPACE = path.resolve(HERE, '../../examples/travel/workspace');
const SEARCH = {
  destination: 'Barcelona',
  month: '2027-06',
  morning_departure: true,
  max_stops: 1,
};
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
  '^Booked Barcelona: flights 15 June 2027 to 22 June 2027, ' +
    'Hotel Arts Barcelona \\(beachfront\\), 7 nights, \\$3,000 in total ' +
    'for Ada Lovelace \\(window seat, double room\\): booking (trip-\\d+)\\. ' +
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
    const form = params.message.startsWith('Book ') ? APPROVAL : DETAILS;
    return { action: 'accept', content: form };
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
  const answered = `the page answered ${res.status} ${JSON.stringify(body)}`;
  assert(res.status === 200 && body.paid, answered);
  return body;
}

const picks = (r) => [
  r.structuredContent?.chosen_by,
  (r.structuredContent?.picks ?? []).map((p) => p.flight.id),
];

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
  const model = '{"picks": [{"flight_id": 7}] \u0000 ```';
  const user = new Traveller({ model, handles: ['sampling'] });
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
    const nothingPaid =
      'The traveller declined to open the payment page; nothing was paid for booking demo.';
    eq(textOf(p), nothingPaid, 'payment declined');
  });
  eq(user.asked, ['Book', 'url'], 'asked');
}

async function bookingWithoutElicitationIsRefused(server, revision) {
  const user = new Traveller({ handles: ['sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const args = { package_id: 'barcelona' };
    const call = c.callTool({ name: 'book_trip', arguments: args });
    await refusedNaming(call, { elicitation: { form: {} } });
  });
  eq(user.asked, [], 'asked');
}

async function paymentWithoutUrlModeIsRefused(server, revision) {
  // The client answers forms but declares no URL mode: payment never falls back to a form.
  const user = new Traveller({ handles: ['form', 'sampling', 'roots'] });
  await using(server, revision, user, async (c) => {
    const args = { booking_id: 'demo' };
    const call = c.callTool({ name: 'pay_for_trip', arguments: args });
    await refusedNaming(call, { elicitation: { url: {} } });
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
    const listed = !given.isError && textOf(given).includes('itinerary-template.md');
    assert(listed, JSON.stringify(given));
    const none = await c.callTool({ name: 'trip_files', arguments: {} });
    assert(none.isError && textOf(none).includes('Pass `folders`'), JSON.stringify(none));
  });
}

const SKILL_MD = 'skill://plan-a-trip/SKILL.md';
const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

// The Skills extension (SEP-2640) through the SDK's `SkillsClient`: `list` (every page),
// `get`, and `read`, which checks each file's size, digest and (for SKILL.md) frontmatter
// against the entry and throws on a mismatch. The digest is checked here once more, and
// SKILL.md is also read with the plain `readResource`, as a client without the extension would.
async function skillListedAndRead(server, revision) {
  await using(server, revision, {}, async (c) => {
    const skills = new SkillsClient(c);
    assert(skills.supported, 'the server declares the Skills extension');
    assert(skills.directoryRead, 'and resources/directory/read');
    const { skills: entries, invalid } = await skills.list();
    eq(invalid, [], 'invalid entries');
    eq(entries.map((s) => s.frontmatter.name), ['plan-a-trip'], 'skills listed');
    const [skill] = entries;
    eq(skill.uri, SKILL_MD, 'the skill URI');
    const got = await skills.get(SKILL_MD);
    eq(got.skill, skill, 'skills/get is the entry');
    eq(got.ttlMs !== undefined, revision === '2026-07-28', 'cache attributes');
    const files = skill.resources.map((f) => f.uri);
    eq(files, [SKILL_MD, 'skill://plan-a-trip/references/answers.md'], 'files');
    for (const entry of skill.resources) {
      const file = await skills.read(skill, entry.uri);
      assert(file.verified, `${entry.uri} verified`);
      eq(sha256(file.bytes), entry.digest, `${entry.uri} digest`);
      eq(file.bytes.length, entry.size, `${entry.uri} size`);
    }
    const md = await skills.read(skill);
    eq(md.frontmatter.name, 'plan-a-trip', 'the frontmatter read');
    for (const tool of ['trip_files', 'find_best_flight', 'book_trip', 'pay_for_trip']) {
      assert(md.body.includes(`**\`${tool}\`**`), `the skill names ${tool}`);
    }
    const plain = await c.readResource({ uri: SKILL_MD });
    eq(sha256(Buffer.from(plain.contents[0].text, 'utf8')), skill.resources[0].digest, 'plain read');
  });
}

export const TRAVEL_CHECKS = [
  skillListedAndRead,
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
];
