// The cases sdk_1x.mjs runs with a TypeScript SDK 1.x client, named as the Python driver's
// (interop/python_sdk_1x.py) so the two fill one matrix (interop/README.md). Each is a function
// of a `Leg` (sdk_1x.mjs): `leg.using(answers, body)` connects a client declaring what `answers`
// handles, `leg.revision` is the revision it speaks, `leg.types` the SDK's types module.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A case that does not apply to this revision. */
export class Skip extends Error {}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

export function eq(got, want, what) {
  const [g, w] = [JSON.stringify(got), JSON.stringify(want)];
  assert(g === w, `${what}: got ${g}, expected ${w}`);
}

const at = (leg) => ['2024-11-05', '2025-03-26', '2025-06-18'].indexOf(leg.revision);
const textOf = (result) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');

function needsElicitation(leg) {
  if (at(leg) < 2) throw new Skip(`${leg.revision} has no elicitation (the fallback case runs instead)`);
}

/** The question's fallback refused: -32021 naming elicitation. */
async function refused(leg, promise) {
  let r;
  try {
    r = await promise;
  } catch (e) {
    assert(e instanceof leg.types.McpError, `a JSON-RPC error, got ${e}`);
    eq(e.code, -32021, `error code (${e.message})`);
    assert('elicitation' in (e.data?.requiredCapabilities ?? {}), JSON.stringify(e.data));
    return;
  }
  throw new Error(`expected -32021, got a result: ${JSON.stringify(r)}`);
}

// --- the person and the model at the client -------------------------------------------------

const WORKSPACE = path.resolve(fileURLToPath(import.meta.url), '../../../examples/travel/workspace');
const SEARCH = { destination: 'Barcelona', month: '2027-06', morning_departure: true, max_stops: 1 };
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
const BOOKED =
  /^Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona \(beachfront\), 7 nights, \$3,000 in total for Ada Lovelace \(window seat, double room\): booking trip-\d+\. /;

class User {
  constructor({ action = 'accept', model = MODEL_JSON, form } = {}) {
    Object.assign(this, { action, model, form, asked: [], forms: [] });
  }
  sample() {
    this.asked.push('sampling');
    const content = { type: 'text', text: this.model };
    return { role: 'assistant', content, model: 'interop-model', stopReason: 'endTurn' };
  }
  elicit(params) {
    this.forms.push(params);
    this.asked.push(params.message.split(' ')[0]);
    if (this.action !== 'accept') return { action: this.action };
    const form = this.form ?? (params.message.startsWith('Book ') ? APPROVAL : DETAILS);
    return { action: 'accept', content: form };
  }
  listRoots() {
    this.asked.push('roots');
    return { roots: [{ uri: pathToFileURL(WORKSPACE).href, name: 'travel workspace' }] };
  }
  /** The answers for `using`: the named callbacks only. */
  answers(...which) {
    const table = { sampling: 'sample', elicitation: 'elicit', roots: 'listRoots' };
    return Object.fromEntries(which.map((w) => [table[w], (p) => this[table[w]](p)]));
  }
}

// --- the travel server --------------------------------------------------------------------------

async function travelInitialize(leg) {
  await leg.using({}, async () => {
    eq(leg.init.serverInfo.name, 'travel', 'serverInfo');
    const caps = leg.init.capabilities;
    assert(caps.tools && caps.resources && !caps.prompts, JSON.stringify(caps));
  });
}

async function travelTools(leg) {
  await leg.using({}, async (c) => {
    const { tools } = await c.listTools();
    eq(tools.map((t) => t.name), ['find_best_flight', 'book_trip', 'pay_for_trip', 'trip_files'], 'tools');
    const flight = tools[0];
    // The fields come from the revision that has them, and not before.
    eq(flight.annotations?.readOnlyHint, at(leg) >= 1 ? true : undefined, 'annotations');
    eq(flight.outputSchema?.type, at(leg) >= 2 ? 'object' : undefined, 'outputSchema');
    eq(flight.title, undefined, 'title (the tool has none)');
  });
}

/** The search's picks; the SDK checked a 2025-06-18 result against the listed outputSchema. */
async function search(leg, answers) {
  return leg.using(answers, async (c) => {
    await c.listTools();
    const r = await c.callTool({ name: 'find_best_flight', arguments: SEARCH });
    const found = JSON.parse(textOf(r));
    eq(r.structuredContent, at(leg) >= 2 ? found : undefined, 'structuredContent');
    return [found.chosen_by, found.picks.map((p) => p.flight.id)];
  });
}

async function flightByTheModel(leg) {
  const user = new User();
  eq(await search(leg, user.answers('sampling')), ['client_model', ['BCN30', 'BCN22']], 'picks');
  eq(user.asked, ['sampling'], 'asked');
}

async function flightFallback(leg) {
  eq(await search(leg, {}), ['ranking', RANKED], 'picks');
}

async function bookingAccepted(leg) {
  needsElicitation(leg);
  const user = new User();
  await leg.using(user.answers('elicitation'), async (c) => {
    const r = await c.callTool({ name: 'book_trip', arguments: { package_id: 'barcelona' } });
    assert(BOOKED.test(textOf(r)), textOf(r));
  });
  eq(user.asked, ['Book', 'Traveller'], 'asked');
  // The approval's titled choices in 2025-06-18's words: enum + enumNames, and no `mode`.
  const seat = user.forms[0].requestedSchema.properties.seat;
  eq([seat.enum, seat.enumNames], [['window', 'aisle', 'any'], ['Window', 'Aisle', 'No preference']], 'seat');
  eq(user.forms[0].mode, undefined, 'mode');
}

async function bookingDeclined(leg) {
  needsElicitation(leg);
  const user = new User({ action: 'decline' });
  await leg.using(user.answers('elicitation'), async (c) => {
    const r = await c.callTool({ name: 'book_trip', arguments: { package_id: 'barcelona' } });
    eq(textOf(r), 'The traveller declined the trip; nothing was booked.', 'declined');
  });
  eq(user.asked, ['Book'], 'asked');
}

async function bookingFallback(leg) {
  const user = new User();
  await leg.using(user.answers('sampling', 'roots'), async (c) => {
    const args = { package_id: 'barcelona', ...DETAILS };
    await refused(leg, c.callTool({ name: 'book_trip', arguments: args }));
  });
  eq(user.asked, [], 'asked');
}

async function paymentFallback(leg) {
  const user = new User();
  const answers = user.answers(...(at(leg) >= 2 ? ['elicitation'] : []), 'sampling', 'roots');
  await leg.using(answers, async (c) => {
    await refused(leg, c.callTool({ name: 'pay_for_trip', arguments: { booking_id: 'demo' } }));
  });
  eq(user.asked, [], 'asked');
}

async function filesFromRoots(leg) {
  const user = new User();
  await leg.using(user.answers('roots'), async (c) => {
    const r = await c.callTool({ name: 'trip_files', arguments: {} });
    const plans = `Itineraries (${WORKSPACE}/travel-planning):\n  - barcelona-june-2027.md`;
    assert(textOf(r).includes(plans), textOf(r));
  });
  eq(user.asked, ['roots'], 'asked');
}

async function filesFallback(leg) {
  await leg.using({}, async (c) => {
    const r = await c.callTool({ name: 'trip_files', arguments: { folders: [WORKSPACE] } });
    assert(!r.isError && textOf(r).includes('itinerary-template.md'), textOf(r));
  });
}

async function travelResources(leg) {
  await leg.using({}, async (c) => {
    const { resources } = await c.listResources();
    eq(resources.map((r) => r.uri), ['skill://plan-a-trip/SKILL.md'], 'resources');
    const { contents } = await c.readResource({ uri: resources[0].uri });
    eq(contents[0].mimeType, 'text/markdown', 'mimeType');
    assert(contents[0].text.includes('name: plan-a-trip'), contents[0].text);
  });
}

// --- the bookshop -------------------------------------------------------------------------------

const RUST_BOOK = '9781593278281';
const ORDER = { isbn: RUST_BOOK, quantity: 2 };

async function bookshopTools(leg) {
  await leg.using({}, async (c) => {
    eq(leg.init.serverInfo.name, 'bookshop', 'serverInfo');
    const { tools } = await c.listTools();
    eq(tools.map((t) => t.name), ['search_books', 'order_book', 'list_orders', 'blurb', 'catalog_folder'], 'tools');
    const found = await c.callTool({ name: 'search_books', arguments: { query: 'rust' } });
    eq(JSON.parse(textOf(found)).map((b) => b.isbn), [RUST_BOOK], 'search_books');
    // An array result has no structuredContent before 2026-07-28 (an object only).
    eq(found.structuredContent, undefined, 'structuredContent');
  });
}

async function orderAccepted(leg) {
  needsElicitation(leg);
  const user = new User({ form: { approve: true, delivery: 'express' } });
  await leg.using(user.answers('elicitation'), async (c) => {
    const r = await c.callTool({ name: 'order_book', arguments: ORDER });
    eq(textOf(r), 'Ordered 2 x "The Rust Programming Language", express delivery.', 'order');
  });
  const form = user.forms[0];
  eq(form.message, 'Order 2 x "The Rust Programming Language" for $79.98?', 'message');
  eq(Object.keys(form.requestedSchema.properties).sort(), ['approve', 'delivery', 'gift_wrap'], 'fields');
}

async function orderDeclined(leg) {
  needsElicitation(leg);
  const user = new User({ action: 'decline' });
  await leg.using(user.answers('elicitation'), async (c) => {
    const r = await c.callTool({ name: 'order_book', arguments: ORDER });
    eq(textOf(r), 'The user declined; nothing was ordered.', 'declined');
  });
}

async function orderFallback(leg) {
  await leg.using({}, async (c) => refused(leg, c.callTool({ name: 'order_book', arguments: ORDER })));
}

async function blurbByTheModel(leg) {
  const user = new User({ model: ' Ownership, explained kindly. ' });
  await leg.using(user.answers('sampling'), async (c) => {
    const r = await c.callTool({ name: 'blurb', arguments: { title: 'rust' } });
    eq(textOf(r), 'Ownership, explained kindly.', 'blurb');
  });
  eq(user.asked, ['sampling'], 'asked');
}

async function blurbFallback(leg) {
  await leg.using({}, async (c) => {
    const r = await c.callTool({ name: 'blurb', arguments: { title: 'rust' } });
    const catalogue =
      '"The Rust Programming Language" by Klabnik & Nichols, the classic, is $39.99 at this bookshop.';
    eq(textOf(r), catalogue, 'blurb');
  });
}

// --- the conformance server: prompts, resources, content types --------------------------------

async function prompts(leg) {
  await leg.using({}, async (c) => {
    const names = (await c.listPrompts()).prompts.map((p) => p.name);
    assert(names.includes('test_simple_prompt') && names.includes('test_prompt_with_arguments'), names);
    const get = (name, args) => c.getPrompt({ name, arguments: args });
    const simple = await get('test_simple_prompt');
    eq(simple.messages[0].content.text, 'This is a simple prompt for testing.', 'simple');
    const args = await get('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' });
    eq(args.messages[0].content.text, "Prompt with arguments: arg1='a', arg2='b'", 'arguments');
    const embedded = await get('test_prompt_with_embedded_resource', { resourceUri: 'test://example' });
    eq([embedded.messages[0].content.type, embedded.messages[0].content.resource.uri], ['resource', 'test://example'], 'embedded');
    eq((await get('test_prompt_with_image')).messages[0].content.type, 'image', 'image');
  });
}

async function completion(leg) {
  await leg.using({}, async (c) => {
    // The `completions` capability came with 2025-03-26; the method was there before it.
    eq(Boolean(leg.init.capabilities.completions), at(leg) >= 1, 'completions capability');
    const ref = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
    const done = await c.complete({ ref, argument: { name: 'arg1', value: 'test-value-' } });
    eq(done.completion.values, ['test-value-1', 'test-value-2', 'test-value-3'], 'values');
  });
}

async function resources(leg) {
  await leg.using({}, async (c) => {
    const listed = (await c.listResources()).resources.map((r) => r.uri);
    assert(listed.includes('test://static-text') && listed.includes('test://static-binary'), listed);
    const templates = (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    eq(templates, ['test://template/{id}/data'], 'templates');
    const read = async (uri) => (await c.readResource({ uri })).contents[0];
    eq((await read('test://static-text')).text, 'This is the content of the static text resource.', 'text');
    const blob = await read('test://static-binary');
    assert(blob.blob && blob.mimeType === 'image/png', JSON.stringify(blob).slice(0, 200));
    eq(JSON.parse((await read('test://template/42/data')).text).id, '42', 'template');
  });
}

async function contentTypes(leg) {
  await leg.using({}, async (c) => {
    const types = async (name) => (await c.callTool({ name, arguments: {} })).content.map((x) => x.type);
    eq(await types('test_image_content'), ['image'], 'image');
    const audio = await c.callTool({ name: 'test_audio_content', arguments: {} });
    if (at(leg) >= 1) eq(audio.content.map((x) => x.type), ['audio'], 'audio');
    else assert(audio.content[0].type === 'text' && textOf(audio).includes('audio clip'), textOf(audio));
    eq(await types('test_embedded_resource'), ['resource'], 'embedded');
    eq(await types('test_multiple_content_types'), ['text', 'image', 'resource'], 'mixed');
  });
}

async function notifications(leg) {
  const logs = [];
  await leg.using({}, async (c) => {
    c.setNotificationHandler(leg.types.LoggingMessageNotificationSchema, (n) => logs.push(n.params.data));
    await c.setLoggingLevel('info');
    const logged = await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
    // `onprogress` makes the SDK send a progress token. Its handler may never run: the SDK
    // dispatches a notification a microtask later but drops the call's progress handler as
    // the response arrives, and over stdio the two arrive in one read (the SDK's race, in
    // every 1.x release). So the notification is checked as received, with the SDK's schema.
    const onprogress = () => {};
    const streamed = await c.callTool({ name: 'test_streaming_elicitation', arguments: {} }, undefined, { onprogress });
    assert(!logged.isError && !streamed.isError, JSON.stringify([logged, streamed]));
  });
  eq(logs, ['Tool execution started', 'Tool processing data', 'Tool execution completed'], 'logs');
  const sent = leg.seen.filter((m) => m.method === 'notifications/progress');
  eq(sent.length, 1, 'progress notifications');
  const { params } = leg.types.ProgressNotificationSchema.parse(sent[0]);
  eq(params.progress, 1, 'progress');
  // Its message from 2025-03-26, which has one.
  eq(params.message, at(leg) >= 1 ? 'working' : undefined, 'progress message');
}

// The Python driver's case names, so both fill the same rows of the matrix.
export const CASES = {
  travel: [
    ['initialize', travelInitialize],
    ['tools/list', travelTools],
    ["find_best_flight: the client's model picks (sampling)", flightByTheModel],
    ['find_best_flight: the fallback ranks (no sampling callback)', flightFallback],
    ['book_trip: both forms accepted (elicitation)', bookingAccepted],
    ['book_trip: the approval declined (elicitation)', bookingDeclined],
    ["book_trip: the approval's fallback refuses (no elicitation)", bookingFallback],
    ["pay_for_trip: the URL question's fallback refuses (no URL mode)", paymentFallback],
    ["trip_files: the client's roots", filesFromRoots],
    ['trip_files: the folders given (no roots callback)', filesFallback],
    ['resources/list, resources/read (the skill)', travelResources],
  ],
  bookshop: [
    ['initialize, tools/list, search_books', bookshopTools],
    ['order_book: the order confirmed (elicitation)', orderAccepted],
    ['order_book: the order declined (elicitation)', orderDeclined],
    ["order_book: the confirmation's fallback refuses (no elicitation)", orderFallback],
    ["blurb: the client's model writes it (sampling)", blurbByTheModel],
    ['blurb: the fallback writes it from the catalogue (no sampling callback)', blurbFallback],
  ],
  conformance: [
    ['prompts/list, prompts/get (text, arguments, embedded resource, image)', prompts],
    ['completion/complete (a prompt argument)', completion],
    ['resources/list, resources/read (text, binary, template)', resources],
    ['tools/call content: image, audio (text before 2025-03-26), embedded resource, mixed', contentTypes],
    ['notifications: log messages, progress (its message from 2025-03-26)', notifications],
  ],
};
