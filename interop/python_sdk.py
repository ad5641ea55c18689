"""Rondo servers driven by a real client: the official MCP Python SDK (`mcp`, pinned in
requirements.txt), which speaks both 2026-07-28 (`mode="auto"`: `server/discover`, then
`InputRequiredResult` rounds) and 2025-11-25 (`mode="legacy"`: the initialize handshake and real
server-to-client requests).

Every check runs on both revisions; the bookshop's and the travel server's on stdio and on
Streamable HTTP (bookshop: an order accepted, declined, refused, a round taken once), the
conformance server's (elicitation, sampling and roots asked at once, a URL-mode question) on
HTTP, and a fleet's (two bookshops sharing a state key, one with its own) on HTTP. The travel
checks drive every travel tool with the callbacks answering, declining, cancelling and absent, and
the sampling callback returning prose, the expected JSON and garbage, and list and read the
server's skill (the Skills extension: skills/list and skills/get as requests of this script's own
types, since the SDK has none, and every file through resources/read, checked against the
manifest's digest); after each, no request may have reached a callback the client did not
declare. A check that fails prints why; the script
exits 1 if any failed. Run it through interop/run.sh, which builds the
servers and installs the pinned SDK.

    python interop/python_sdk.py TARGET_DIR
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import traceback
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter

import mcp.types as t
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
import mcp.client.session as sdk_session

BIN = Path(sys.argv[1] if len(sys.argv) > 1 else "target/debug")
MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}
RUST_BOOK = "9781593278281"
CHECK_TIMEOUT = 60


class Skip(Exception):
    """A check that does not apply to this revision."""


# The SDK declares a capability only when a callback is given; without one, its default
# callback answers with an error. Wrapping the defaults (before any session exists) keeps the
# declarations as they are and records every request the server sent without a declaration.
UNDECLARED: list[str] = []


def _recording(method: str, default):
    async def record(*args):
        UNDECLARED.append(method)
        return await default(*args)

    return record


sdk_session._default_sampling_callback = _recording(
    "sampling/createMessage", sdk_session._default_sampling_callback
)
sdk_session._default_elicitation_callback = _recording(
    "elicitation/create", sdk_session._default_elicitation_callback
)
sdk_session._default_list_roots_callback = _recording(
    "roots/list", sdk_session._default_list_roots_callback
)


# --- servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within 30 s")


class HttpServer:
    """A server process on a free loopback port, stopped at exit."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str] | None = None):
        self.port = free_port()
        argv = [a.replace("{port}", str(self.port)) for a in argv]
        full_env = {**os.environ, **(env or {}), "PORT": str(self.port)}
        self.proc = subprocess.Popen(argv, env=full_env, stderr=subprocess.DEVNULL)
        wait_listening(self.port, self.proc, name)
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# --- client callbacks ------------------------------------------------------------------------


class Asked:
    """What the server asked this client, and scripted answers."""

    def __init__(self, form: dict | None = None, action: str = "accept"):
        self.form, self.action = form, action
        self.elicitations: list[t.ElicitRequestParams] = []
        self.samplings: list[t.CreateMessageRequestParams] = []
        self.roots_asked = 0

    async def elicit(self, _ctx, params: t.ElicitRequestParams) -> t.ElicitResult:
        self.elicitations.append(params)
        if self.action != "accept":
            return t.ElicitResult(action=self.action)
        return t.ElicitResult(action="accept", content=self.form)

    async def sample(self, _ctx, params: t.CreateMessageRequestParams) -> t.CreateMessageResult:
        self.samplings.append(params)
        return t.CreateMessageResult(
            role="assistant",
            content=t.TextContent(type="text", text="Good day"),
            model="interop-model",
            stop_reason="endTurn",
        )

    async def roots(self, _ctx) -> t.ListRootsResult:
        self.roots_asked += 1
        return t.ListRootsResult(
            roots=[
                t.Root(uri="file:///home/ada/project", name="project"),
                t.Root(uri="file:///home/ada/notes", name="notes"),
            ]
        )


def text_of(result: t.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, t.TextContent))


@asynccontextmanager
async def connect(server, mode: str, **callbacks):
    async with Client(server, mode=mode, **callbacks) as client:
        got = client.session.protocol_version
        assert got == MODES[mode], f"negotiated {got}, expected {MODES[mode]}"
        yield client


# --- checks ----------------------------------------------------------------------------------


async def order_accepted(server, mode):
    asked = Asked(form={"approve": True, "delivery": "express"})
    async with connect(server, mode, elicitation_callback=asked.elicit) as c:
        names = [tool.name for tool in (await c.list_tools()).tools]
        assert names == ["search_books", "order_book", "list_orders", "blurb", "catalog_folder"], names
        found = await c.call_tool("search_books", {"query": "rust"})
        books = json.loads(text_of(found))
        assert [b["isbn"] for b in books] == [RUST_BOOK], found
        # 2026-07-28 carries the array as structured content; 2025-11-25 allows only objects there.
        expected = books if mode == "auto" else None
        assert found.structured_content == expected, found
        r = await c.call_tool("order_book", {"isbn": RUST_BOOK, "quantity": 2})
    assert not r.is_error, r
    assert text_of(r) == 'Ordered 2 x "The Rust Programming Language", express delivery.', r
    assert len(asked.elicitations) == 1, asked.elicitations
    form = asked.elicitations[0]
    assert form.message == 'Order 2 x "The Rust Programming Language" for $79.98?', form
    schema = form.requested_schema
    assert schema["required"] == ["approve"], schema
    assert set(schema["properties"]) == {"approve", "delivery", "gift_wrap"}, schema


async def order_declined(server, mode):
    asked = Asked(action="decline")
    async with connect(server, mode, elicitation_callback=asked.elicit) as c:
        r = await c.call_tool("order_book", {"isbn": RUST_BOOK, "quantity": 1})
    assert text_of(r) == "The user declined; nothing was ordered.", r
    assert len(asked.elicitations) == 1


async def order_without_elicitation_is_refused(server, mode):
    async with connect(server, mode) as c:
        try:
            r = await c.call_tool("order_book", {"isbn": RUST_BOOK, "quantity": 1})
        except MCPError as e:
            assert e.code == -32021, (e.code, e.message)
            assert "elicitation" in (e.data or {}).get("requiredCapabilities", {}), e.data
            return
    raise AssertionError(f"expected -32021, got a result: {r}")


async def bad_arguments_are_a_tool_error(server, mode):
    asked = Asked(form={"approve": True})
    async with connect(server, mode, elicitation_callback=asked.elicit) as c:
        r = await c.call_tool("order_book", {"isbn": RUST_BOOK, "quantity": 11})
    assert r.is_error, r
    assert text_of(r) == "quantity must be between 1 and 10", r
    assert not asked.elicitations, "nothing is asked for a call that cannot proceed"


async def three_questions_at_once(server, mode):
    asked = Asked(form={"name": "Ada"})
    callbacks = dict(
        elicitation_callback=asked.elicit,
        sampling_callback=asked.sample,
        list_roots_callback=asked.roots,
    )
    async with connect(server, mode, **callbacks) as c:
        r = await c.call_tool("test_input_required_result_multiple_inputs", {})
    assert text_of(r) == "name=Ada, greeting=Good day, roots=2", r
    assert (len(asked.elicitations), len(asked.samplings), asked.roots_asked) == (1, 1, 1)


async def undeclared_sampling_takes_the_fallback(server, mode):
    # No sampling callback, so the SDK declares no sampling: the greeting's fallback answers
    # and the other two questions are still asked.
    asked = Asked(form={"name": "Ada"})
    callbacks = dict(elicitation_callback=asked.elicit, list_roots_callback=asked.roots)
    async with connect(server, mode, **callbacks) as c:
        r = await c.call_tool("test_input_required_result_multiple_inputs", {})
    assert text_of(r) == "name=Ada, greeting=Hello, roots=2", r
    assert not asked.samplings


async def two_rounds_in_a_row(server, mode):
    answers = iter([{"name": "Ada"}, {"color": "green"}])
    asked = Asked()

    async def elicit(ctx, params):
        asked.form = next(answers)
        return await asked.elicit(ctx, params)

    async with connect(server, mode, elicitation_callback=elicit) as c:
        r = await c.call_tool("test_input_required_result_multi_round", {})
    assert not r.is_error, r
    assert [e.message for e in asked.elicitations] == [
        "Step 1: What is your name?",
        "Step 2: What is your favorite color?",
    ]
    assert "Ada" in text_of(r) and "green" in text_of(r), r


async def consent_sent_up_front_is_not_taken(server, mode):
    # A client (or a model steering it) answers the confirmation before it was shown: the
    # server asks anyway, with the price, and the order goes through only on the answer to that.
    if mode != "auto":
        raise Skip("2025-11-25 has no inputResponses: the question is always a real request")
    approve = t.ElicitResult(action="accept", content={"approve": True})
    args = {"isbn": RUST_BOOK, "quantity": 1}
    asked = Asked()  # declares elicitation; this check drives the rounds itself
    async with connect(server, mode, elicitation_callback=asked.elicit) as c:
        first = await c.session.call_tool(
            "order_book", args, input_responses={"confirm_order": approve}, allow_input_required=True
        )
        assert isinstance(first, t.InputRequiredResult), first
        shown = first.input_requests["confirm_order"]
        assert shown.params.message == 'Order 1 x "The Rust Programming Language" for $39.99?', shown
        done = await c.session.call_tool(
            "order_book",
            args,
            input_responses={"confirm_order": approve},
            request_state=first.request_state,
            allow_input_required=True,
        )
    assert text_of(done) == 'Ordered 1 x "The Rust Programming Language", standard delivery.', done


async def orders_placed(c) -> list:
    listed = await c.call_tool("list_orders", {})
    return listed.structured_content["orders"]


async def a_round_is_taken_once(server, mode):
    # The replay guard's idempotency key: a captured retry sent again unchanged is served again
    # (the same answer, nothing ordered twice), while a round answered "decline" re-sent with
    # "accept" is refused with -32602; list_orders shows one order placed.
    if mode != "auto":
        raise Skip("2025-11-25 has no retries: the question is a real request")
    args = {"isbn": RUST_BOOK, "quantity": 1}
    approve = t.ElicitResult(action="accept", content={"approve": True})
    asked = Asked()  # declares elicitation; this check drives the rounds itself

    async def refused(c, **retry):
        try:
            taken = await c.session.call_tool("order_book", args, **retry)
        except MCPError as e:
            assert e.code == -32602, (e.code, e.message)
            return
        raise AssertionError(f"a round was taken with other answers: {taken}")

    async with connect(server, mode, elicitation_callback=asked.elicit) as c:
        before = len(await orders_placed(c))
        for first_answer in (approve, t.ElicitResult(action="decline")):
            first = await c.session.call_tool("order_book", args, allow_input_required=True)
            assert isinstance(first, t.InputRequiredResult), first
            retry = dict(request_state=first.request_state, allow_input_required=True)
            done = await c.session.call_tool(
                "order_book", args, input_responses={"confirm_order": first_answer}, **retry
            )
            assert isinstance(done, t.CallToolResult), done
            if first_answer is approve:
                again = await c.session.call_tool(
                    "order_book", args, input_responses={"confirm_order": approve}, **retry
                )
                assert text_of(again) == text_of(done), (again, done)
            else:
                await refused(c, input_responses={"confirm_order": approve}, **retry)
        placed = await orders_placed(c)
    assert len(placed) == before + 1, placed


async def url_mode(server, mode):
    # The conformance server's URL-mode tool: the page names the call's flow; accepted, the
    # flow finishes (2025-11-25: with an elicitationId and a completion notification).
    seen = []

    async def elicit(_ctx, params):
        seen.append(params)
        return t.ElicitResult(action="accept")

    async with connect(server, mode, elicitation_callback=elicit) as c:
        r = await c.call_tool("test_url_elicitation", {})
    assert text_of(r) == "URL elicitation completed: action=accept, the flow finished", r
    assert len(seen) == 1, seen
    page = seen[0]
    assert page.mode == "url", page
    assert page.url.startswith("https://example.com/rondo/url-elicitation?flow="), page
    assert len(page.url.rsplit("=", 1)[1]) == 32, page


async def a_fleet_instance_serves_the_retry(fleet, mode):
    # Two instances that share a key ring and a third with its own key, as three HTTP servers:
    # the first round comes from one, the retry goes to the other, as behind a load balancer.
    if mode != "auto":
        raise Skip("2025-11-25 sessions live on one instance (session affinity)")
    first_url, second_url, stranger_url = fleet
    approve = t.ElicitResult(action="accept", content={"approve": True, "gift_wrap": True})
    args = {"isbn": RUST_BOOK, "quantity": 3}
    asked = Asked()  # declares elicitation; this check drives the rounds itself
    async with connect(first_url, mode, elicitation_callback=asked.elicit) as c:
        first = await c.session.call_tool("order_book", args, allow_input_required=True)
    assert isinstance(first, t.InputRequiredResult), first
    retry = dict(
        input_responses={"confirm_order": approve},
        request_state=first.request_state,
        allow_input_required=True,
    )
    async with connect(second_url, mode, elicitation_callback=asked.elicit) as c:
        done = await c.session.call_tool("order_book", args, **retry)
    assert text_of(done) == (
        'Ordered 3 x "The Rust Programming Language", standard delivery, gift-wrapped.'
    ), done
    async with connect(stranger_url, mode, elicitation_callback=asked.elicit) as c:
        try:
            other = await c.session.call_tool("order_book", args, **retry)
        except MCPError as e:
            assert e.code == -32602, (e.code, e.message)
            return
    raise AssertionError(f"an instance with another key took the state: {other}")


# --- the travel server --------------------------------------------------------------------------

WORKSPACE = Path(__file__).resolve().parent.parent / "examples" / "travel" / "workspace"
SEARCH = {"destination": "Barcelona", "month": "2027-06", "morning_departure": True, "max_stops": 1}
RANKED = ["BCN22", "BCN35", "BCN37"]
MODEL_JSON = json.dumps({"picks": [
    {"flight_id": "BCN30", "reason": "A morning flight with one stop in London."},
    {"flight_id": "BCN22", "reason": "The cheapest morning nonstop."},
]})
APPROVAL = {"approve": True, "seat": "window", "room_type": "double"}
DETAILS = {
    "passenger_name": "Ada Lovelace",
    "date_of_birth": "1985-12-10",
    "emergency_contact_name": "Charles Babbage",
    "emergency_contact_phone": "+44 20 7946 0958",
}
BOOKED = re.compile(
    r"^Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona \(beachfront\), "
    r"7 nights, \$3,000 in total for Ada Lovelace \(window seat, double room\): booking (trip-\d+)\. "
    r'Pay with pay_for_trip\(booking_id: "trip-\d+"\)\.$'
)


class Traveller:
    """The travel server's user and model: `action` for every question (accept, decline,
    cancel), `model` for the sampling answer; an accepted payment page is paid a moment later
    through the page's JSON endpoint, while the tool waits."""

    def __init__(self, action: str = "accept", model: str = MODEL_JSON):
        self.action, self.model = action, model
        self.asked: list[str] = []
        self.payments: list[asyncio.Task] = []

    async def elicit(self, _ctx, params) -> t.ElicitResult:
        url = getattr(params, "url", None)
        self.asked.append("url" if url else params.message.split(" ")[0])
        if self.action != "accept":
            return t.ElicitResult(action=self.action)
        if url:
            self.payments.append(asyncio.create_task(pay_on_page(url)))
            return t.ElicitResult(action="accept")
        form = APPROVAL if params.message.startswith("Book ") else DETAILS
        return t.ElicitResult(action="accept", content=form)

    async def sample(self, _ctx, params: t.CreateMessageRequestParams) -> t.CreateMessageResult:
        self.asked.append("sampling")
        assert not params.tools, "no tools without sampling.tools"
        return t.CreateMessageResult(
            role="assistant",
            content=t.TextContent(type="text", text=self.model),
            model="interop-model",
            stop_reason="endTurn",
        )

    async def roots(self, _ctx) -> t.ListRootsResult:
        self.asked.append("roots")
        return t.ListRootsResult(roots=[t.Root(uri=WORKSPACE.as_uri(), name="travel workspace")])

    def callbacks(self, *which: str) -> dict:
        table = {
            "elicitation": ("elicitation_callback", self.elicit),
            "sampling": ("sampling_callback", self.sample),
            "roots": ("list_roots_callback", self.roots),
        }
        return dict(table[w] for w in which)


async def pay_on_page(url: str) -> dict:
    """The user presses "Pay" on the page (the page itself posts this)."""
    await asyncio.sleep(0.5)

    def post():
        req = urllib.request.Request(
            url + "/complete", data=b"{}", headers={"content-type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    return await asyncio.to_thread(post)


def picks(result: t.CallToolResult) -> tuple[str, list[str]]:
    s = result.structured_content
    return s["chosen_by"], [p["flight"]["id"] for p in s["picks"]]


async def expect_refused(call, capability: dict):
    try:
        r = await call
    except MCPError as e:
        assert e.code == -32021, (e.code, e.message)
        assert (e.data or {}).get("requiredCapabilities") == capability, e.data
        return
    raise AssertionError(f"expected -32021, got a result: {r}")


async def flight_picked_by_the_model(server, mode):
    user = Traveller()
    async with connect(server, mode, **user.callbacks("elicitation", "sampling", "roots")) as c:
        r = await c.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("client_model", ["BCN30", "BCN22"]), r
    assert user.asked == ["sampling"], user.asked


async def flight_picked_through_submit_picks(server, mode):
    # A client that declares sampling.tools is offered the submit_picks tool and answers by
    # calling it; without that declaration (the other checks) no request carries tools.
    asked = []

    async def sample(_ctx, params: t.CreateMessageRequestParams):
        asked.append([tool.name for tool in params.tools or []])
        use = t.ToolUseContent(
            type="tool_use",
            id="u1",
            name="submit_picks",
            input={"picks": [{"flight_id": "BCN26", "reason": "Morning, one stop, under $900."}]},
        )
        return t.CreateMessageResultWithTools(
            role="assistant", content=[use], model="interop-model", stop_reason="toolUse"
        )

    tools = t.SamplingCapability(tools=t.SamplingToolsCapability())
    async with connect(server, mode, sampling_callback=sample, sampling_capabilities=tools) as c:
        r = await c.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("client_model", ["BCN26"]), r
    assert asked == [["submit_picks"]], asked


async def flight_model_prose_is_ranked(server, mode):
    user = Traveller(model="I would take the morning nonstop from Boston; it is the cheapest.")
    async with connect(server, mode, **user.callbacks("sampling")) as c:
        r = await c.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("ranking", RANKED), r
    assert user.asked == ["sampling"], "asked once, not again"


async def flight_model_garbage_is_ranked(server, mode):
    user = Traveller(model='{"picks": [{"flight_id": 7}] \u0000 ```')
    async with connect(server, mode, **user.callbacks("sampling")) as c:
        r = await c.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("ranking", RANKED), r


async def flight_without_sampling_is_ranked(server, mode):
    user = Traveller()
    async with connect(server, mode, **user.callbacks("elicitation", "roots")) as c:
        r = await c.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("ranking", RANKED), r
    assert user.asked == [], user.asked


async def booking_then_payment_on_the_page(server, mode):
    user = Traveller()
    async with connect(server, mode, **user.callbacks("elicitation", "sampling", "roots")) as c:
        booked = await c.call_tool("book_trip", {"package_id": "barcelona"})
        m = BOOKED.match(text_of(booked))
        assert m, booked
        paid = await c.call_tool("pay_for_trip", {"booking_id": m.group(1)})
    assert user.asked == ["Book", "Traveller", "url"], user.asked
    receipt = (await user.payments[0])["receipt"]
    assert text_of(paid) == f"Paid $3,000 for booking {m.group(1)}: receipt {receipt}.", paid


async def booking_declined(server, mode):
    user = Traveller(action="decline")
    async with connect(server, mode, **user.callbacks("elicitation")) as c:
        r = await c.call_tool("book_trip", {"package_id": "barcelona"})
        p = await c.call_tool("pay_for_trip", {"booking_id": "demo"})
    assert not r.is_error and text_of(r) == "The traveller declined the trip; nothing was booked.", r
    assert text_of(p) == (
        "The traveller declined to open the payment page; nothing was paid for booking demo."
    ), p


async def booking_cancelled(server, mode):
    user = Traveller(action="cancel")
    async with connect(server, mode, **user.callbacks("elicitation", "sampling")) as c:
        r = await c.call_tool("book_trip", {"package_id": "barcelona"})
        p = await c.call_tool("pay_for_trip", {"booking_id": "demo"})
    assert text_of(r) == "The traveller dismissed the approval; nothing was booked.", r
    assert text_of(p) == "The traveller dismissed the payment page; nothing was paid for booking demo.", p


async def booking_and_payment_without_elicitation_are_refused(server, mode):
    user = Traveller()
    async with connect(server, mode, **user.callbacks("sampling", "roots")) as c:
        await expect_refused(c.call_tool("book_trip", {"package_id": "barcelona", **DETAILS}),
                             {"elicitation": {"form": {}}})
        await expect_refused(c.call_tool("pay_for_trip", {"booking_id": "demo"}),
                             {"elicitation": {"url": {}}})
    assert user.asked == [], user.asked


async def trip_files_from_roots(server, mode):
    user = Traveller()
    async with connect(server, mode, **user.callbacks("elicitation", "sampling", "roots")) as c:
        r = await c.call_tool("trip_files", {})
    text = text_of(r)
    assert not r.is_error, r
    assert f"Itineraries ({WORKSPACE}/travel-planning):\n  - barcelona-june-2027.md" in text, text
    assert "Client documents" in text and "Templates" in text, text
    assert user.asked == ["roots"], user.asked


async def trip_files_without_roots(server, mode):
    async with connect(server, mode) as c:
        given = await c.call_tool("trip_files", {"folders": [str(WORKSPACE)]})
        none = await c.call_tool("trip_files", {})
    assert "itinerary-template.md" in text_of(given), given
    assert none.is_error and "Pass `folders`" in text_of(none), none


# The Skills extension (SEP-2640). The SDK has no typed skills/list or skills/get, but
# `session.send_request` takes any request type: these two name the methods, and the results are
# read as plain JSON. The skill files are resources, read with the SDK's own read_resource.
class ListSkillsRequest(t.PaginatedRequest[Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"


class GetSkillParams(t.RequestParams):
    uri: str


class GetSkillRequest(t.Request[GetSkillParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"


JSON_OBJECT = TypeAdapter(dict[str, Any])
SKILL_MD = "skill://plan-a-trip/SKILL.md"


async def skill_listed_and_read(server, mode):
    async with connect(server, mode) as c:
        declared = c.server_capabilities.extensions or {}
        assert declared.get("io.modelcontextprotocol/skills") == {"directoryRead": True}, declared
        listed = await c.session.send_request(ListSkillsRequest(), JSON_OBJECT)
        names = [s["frontmatter"]["name"] for s in listed["skills"]]
        assert names == ["plan-a-trip"], listed
        skill = listed["skills"][0]
        assert skill["uri"] == SKILL_MD, skill
        got = await c.session.send_request(GetSkillRequest(params=GetSkillParams(uri=SKILL_MD)), JSON_OBJECT)
        assert got["skill"] == skill, got
        read = 0
        for entry in skill["resources"]:
            contents = (await c.read_resource(entry["uri"])).contents
            assert len(contents) == 1 and isinstance(contents[0], t.TextResourceContents), contents
            data = contents[0].text.encode()
            assert "sha256:" + hashlib.sha256(data).hexdigest() == entry["digest"], entry
            assert len(data) == entry["size"], entry
            read += 1
        assert read == 2, skill["resources"]
        text = (await c.read_resource(SKILL_MD)).contents[0].text
    for tool in ("trip_files", "find_best_flight", "book_trip", "pay_for_trip"):
        assert f"**`{tool}`**" in text, f"the skill names {tool}"


TRAVEL_CHECKS = [
    skill_listed_and_read,
    flight_picked_by_the_model,
    flight_picked_through_submit_picks,
    flight_model_prose_is_ranked,
    flight_model_garbage_is_ranked,
    flight_without_sampling_is_ranked,
    booking_then_payment_on_the_page,
    booking_declined,
    booking_cancelled,
    booking_and_payment_without_elicitation_are_refused,
    trip_files_from_roots,
    trip_files_without_roots,
]


BOOKSHOP_CHECKS = [
    order_accepted,
    order_declined,
    order_without_elicitation_is_refused,
    bad_arguments_are_a_tool_error,
    consent_sent_up_front_is_not_taken,
    a_round_is_taken_once,
]
CONFORMANCE_CHECKS = [
    three_questions_at_once,
    undeclared_sampling_takes_the_fallback,
    two_rounds_in_a_row,
    url_mode,
]


async def run(label: str, check, server, mode) -> str:
    name = f"{label} {MODES[mode]} {check.__name__}"
    UNDECLARED.clear()
    try:
        await asyncio.wait_for(check(server, mode), CHECK_TIMEOUT)
        assert not UNDECLARED, f"the server sent requests the client did not declare: {UNDECLARED}"
    except Skip as why:
        print(f"skip {name}: {why}", flush=True)
        return "skipped"
    except Exception:  # noqa: BLE001 - every failure is reported, then counted
        print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
        return "failed"
    print(f"ok   {name}", flush=True)
    return "passed"


async def main() -> int:
    bookshop = str(BIN / "bookshop")
    stdio = StdioServerParameters(command=bookshop, args=[])
    http_shop = HttpServer("bookshop", [bookshop, "--http", "127.0.0.1:{port}"])
    conformance = HttpServer("conformance", [str(BIN / "conformance")])
    travel = str(BIN / "travel")
    travel_stdio = StdioServerParameters(command=travel, args=[])
    http_travel = HttpServer("travel", [travel, "--http", "127.0.0.1:{port}"])
    shared, own = (f"1:{base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip('=')}" for _ in "ab")
    argv = [bookshop, "--http", "127.0.0.1:{port}"]
    fleet = [
        HttpServer("bookshop fleet 1", argv, {"RONDO_STATE_KEYS": shared}),
        HttpServer("bookshop fleet 2", argv, {"RONDO_STATE_KEYS": shared}),
        HttpServer("bookshop other key", argv, {"RONDO_STATE_KEYS": own}),
    ]
    results = []
    try:
        for mode in MODES:
            for check in BOOKSHOP_CHECKS:
                results.append(await run("bookshop stdio", check, stdio, mode))
                results.append(await run("bookshop http ", check, http_shop.url, mode))
            for check in TRAVEL_CHECKS:
                results.append(await run("travel stdio", check, travel_stdio, mode))
                results.append(await run("travel http ", check, http_travel.url, mode))
            for check in CONFORMANCE_CHECKS:
                results.append(await run("conformance http", check, conformance.url, mode))
            urls = [server.url for server in fleet]
            results.append(await run("bookshop fleet", a_fleet_instance_serves_the_retry, urls, mode))
    finally:
        for server in [http_shop, conformance, http_travel, *fleet]:
            server.stop()
    print(", ".join(f"{results.count(k)} {k}" for k in ("passed", "skipped", "failed")))
    return 1 if "failed" in results else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
