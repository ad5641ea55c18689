"""Rondo servers driven by the official MCP Python SDK's 1.x releases, one per handshake
revision before 2025-11-25 (pinned in tooling.sh: 1.5.0 speaks 2024-11-05, 1.9.4 2025-03-26,
1.22.0 2025-06-18, each its newest revision). The SDK is the one on PYTHONPATH; the script
checks that it speaks REVISION, then drives the travel server, the bookshop and the
conformance server (prompts, resources, content types) over each TRANSPORT given:

    python interop/python_sdk_1x.py TARGET_DIR REVISION TRANSPORT...

TRANSPORT is `stdio`, `http` (Streamable HTTP, from 2025-03-26) or `sse` (2024-11-05's
HTTP+SSE: `GET /sse`, then `POST` to the endpoint it announces, on the server's `--http`
address). Every case asserts the negotiated version; that no result, notification or server
request carried a field the revision does not define (pydantic keeps a field the SDK's types
lack as an extra; one the revision's official schema does not define either fails the case);
and that no server request reached a callback the client did not declare. It prints
`ok|FAIL|skip python SDK REVISION TRANSPORT SERVER CASE` per case and closes with
`N passed, N failed, N skipped`; the exit status is 1 if any case failed. Run it through
interop/run.sh, which installs the pinned SDKs. The client, its checks and the scripted user
are in client_1x.py; the TypeScript driver (ts/sdk_1x.mjs) runs the same cases.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import traceback
from pathlib import Path

import mcp.types as t
from client_1x import (
    AT,
    DETAILS,
    HAS_ELICITATION,
    NOTIFIED,
    RANKED,
    REVISION,
    SDK,
    SEARCH,
    SERVERS,
    UNDECLARED,
    WORKSPACE,
    Client,
    HttpServer,
    Skip,
    User,
    known,
    refused,
    text_of,
)

BIN = Path(sys.argv[1])
ASKED = sys.argv[2]
TRANSPORTS = sys.argv[3:]
CASE_TIMEOUT = 60


# --- the travel server -----------------------------------------------------------------------

BOOKED = re.compile(
    r"^Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona \(beachfront\), "
    r"7 nights, \$3,000 in total for Ada Lovelace \(window seat, double room\): booking trip-\d+\. "
)


def needs_elicitation():
    if not HAS_ELICITATION:
        raise Skip(f"{REVISION} has no elicitation (the fallback case runs instead)")


async def travel_initialize(c):
    """initialize"""
    async with c.session() as s:
        assert s.init.serverInfo.name == "travel", s.init.serverInfo
        caps = s.init.capabilities
        assert caps.tools is not None and caps.resources is not None, caps
        assert caps.prompts is None, caps


async def travel_tools(c):
    """tools/list"""
    async with c.session() as s:
        tools = {tool.name: tool for tool in known(await s.list_tools()).tools}
    assert list(tools) == ["find_best_flight", "book_trip", "pay_for_trip", "trip_files"], tools
    flight = tools["find_best_flight"]
    # known() proved that no field came that this SDK lacks (annotations before 2025-03-26,
    # outputSchema and title before 2025-06-18); these come where the revision has them.
    if AT >= 1:
        assert flight.annotations.readOnlyHint is True, flight
    if AT >= 2:
        assert flight.outputSchema["type"] == "object", flight


def picks(result: t.CallToolResult) -> tuple[str, list[str]]:
    search = json.loads(text_of(result))
    if AT >= 2:
        assert result.structuredContent == search, result
    return search["chosen_by"], [p["flight"]["id"] for p in search["picks"]]


async def flight_by_the_model(c):
    """find_best_flight: the client's model picks (sampling)"""
    user = User()
    async with c.session(**user.callbacks("sampling")) as s:
        r = await s.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("client_model", ["BCN30", "BCN22"]), r
    assert user.asked == ["sampling"], user.asked


async def flight_fallback(c):
    """find_best_flight: the fallback ranks (no sampling callback)"""
    # 1.5 declares sampling anyway; its default callback answers with an error, and the
    # question takes its fallback just the same.
    async with c.session() as s:
        r = await s.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("ranking", RANKED), r


async def booking_accepted(c):
    """book_trip: both forms accepted (elicitation)"""
    needs_elicitation()
    user = User()
    async with c.session(**user.callbacks("elicitation")) as s:
        r = await s.call_tool("book_trip", {"package_id": "barcelona"})
    assert BOOKED.match(text_of(r)), r
    assert user.asked == ["Book", "Traveller"], user.asked
    # The approval's titled choices in 2025-06-18's words: enum + enumNames.
    seat = user.forms[0].requestedSchema["properties"]["seat"]
    assert seat["enum"] == ["window", "aisle", "any"], seat
    assert seat["enumNames"] == ["Window", "Aisle", "No preference"], seat


async def booking_declined(c):
    """book_trip: the approval declined (elicitation)"""
    needs_elicitation()
    user = User(action="decline")
    async with c.session(**user.callbacks("elicitation")) as s:
        r = await s.call_tool("book_trip", {"package_id": "barcelona"})
    assert text_of(r) == "The traveller declined the trip; nothing was booked.", r
    assert user.asked == ["Book"], user.asked


async def booking_fallback(c):
    """book_trip: the approval's fallback refuses (no elicitation)"""
    user = User()
    async with c.session(**user.callbacks("sampling", "roots")) as s:
        await refused(s.call_tool("book_trip", {"package_id": "barcelona", **DETAILS}))
    assert user.asked == [], user.asked


async def payment_fallback(c):
    """pay_for_trip: the URL question's fallback refuses (no URL mode)"""
    user = User()
    async with c.session(**user.callbacks("elicitation", "sampling", "roots")) as s:
        await refused(s.call_tool("pay_for_trip", {"booking_id": "demo"}))
    assert user.asked == [], user.asked


async def files_from_roots(c):
    """trip_files: the client's roots"""
    user = User()
    async with c.session(**user.callbacks("roots")) as s:
        r = await s.call_tool("trip_files", {})
    plans = f"Itineraries ({WORKSPACE}/travel-planning):\n  - barcelona-june-2027.md"
    assert plans in text_of(r), r
    assert user.asked == ["roots"], user.asked


async def files_fallback(c):
    """trip_files: the folders given (no roots callback)"""
    async with c.session() as s:
        r = await s.call_tool("trip_files", {"folders": [str(WORKSPACE)]})
    assert not r.isError and "itinerary-template.md" in text_of(r), r


async def travel_resources(c):
    """resources/list, resources/read (the skill)"""
    async with c.session() as s:
        listed = known(await s.list_resources()).resources
        assert [str(r.uri) for r in listed] == ["skill://plan-a-trip/SKILL.md"], listed
        read = known(await s.read_resource(listed[0].uri)).contents
    assert read[0].mimeType == "text/markdown" and "name: plan-a-trip" in read[0].text, read


# --- the bookshop -------------------------------------------------------------------------------

RUST_BOOK = "9781593278281"
ORDER = {"isbn": RUST_BOOK, "quantity": 2}


async def bookshop_tools(c):
    """initialize, tools/list, search_books"""
    async with c.session() as s:
        assert s.init.serverInfo.name == "bookshop", s.init.serverInfo
        names = [tool.name for tool in known(await s.list_tools()).tools]
        found = await s.call_tool("search_books", {"query": "rust"})
    assert names == ["search_books", "order_book", "list_orders", "blurb", "catalog_folder"], names
    assert [b["isbn"] for b in json.loads(text_of(found))] == [RUST_BOOK], found
    # An array result has no structuredContent before 2026-07-28 (an object only).
    assert getattr(found, "structuredContent", None) is None, found


async def order_accepted(c):
    """order_book: the order confirmed (elicitation)"""
    needs_elicitation()
    user = User()
    user.elicit_form = {"approve": True, "delivery": "express"}

    async def elicit(ctx, params):
        user.forms.append(known(params))
        return t.ElicitResult(action="accept", content=user.elicit_form)

    async with c.session(elicitation_callback=elicit) as s:
        r = await s.call_tool("order_book", ORDER)
    assert text_of(r) == 'Ordered 2 x "The Rust Programming Language", express delivery.', r
    form = user.forms[0]
    assert form.message == 'Order 2 x "The Rust Programming Language" for $79.98?', form
    assert set(form.requestedSchema["properties"]) == {"approve", "delivery", "gift_wrap"}, form


async def order_declined(c):
    """order_book: the order declined (elicitation)"""
    needs_elicitation()
    user = User(action="decline")
    async with c.session(**user.callbacks("elicitation")) as s:
        r = await s.call_tool("order_book", ORDER)
    assert text_of(r) == "The user declined; nothing was ordered.", r


async def order_fallback(c):
    """order_book: the confirmation's fallback refuses (no elicitation)"""
    async with c.session() as s:
        await refused(s.call_tool("order_book", ORDER))


async def blurb_by_the_model(c):
    """blurb: the client's model writes it (sampling)"""
    user = User(model=" Ownership, explained kindly. ")
    async with c.session(**user.callbacks("sampling")) as s:
        r = await s.call_tool("blurb", {"title": "rust"})
    assert text_of(r) == "Ownership, explained kindly.", r
    assert user.asked == ["sampling"], user.asked


async def blurb_fallback(c):
    """blurb: the fallback writes it from the catalogue (no sampling callback)"""
    async with c.session() as s:
        r = await s.call_tool("blurb", {"title": "rust"})
    assert text_of(r) == (
        '"The Rust Programming Language" by Klabnik & Nichols, the classic, is $39.99 at this '
        "bookshop."
    ), r


# --- the conformance server: prompts, resources, content types --------------------------------


async def prompts(c):
    """prompts/list, prompts/get (text, arguments, embedded resource, image)"""
    async with c.session() as s:
        names = {p.name for p in known(await s.list_prompts()).prompts}
        simple = known(await s.get_prompt("test_simple_prompt"))
        args = known(await s.get_prompt("test_prompt_with_arguments", {"arg1": "a", "arg2": "b"}))
        uri = {"resourceUri": "test://example"}
        embedded = known(await s.get_prompt("test_prompt_with_embedded_resource", uri))
        image = known(await s.get_prompt("test_prompt_with_image"))
    assert {"test_simple_prompt", "test_prompt_with_arguments"} <= names, names
    assert simple.messages[0].content.text == "This is a simple prompt for testing.", simple
    assert args.messages[0].content.text == "Prompt with arguments: arg1='a', arg2='b'", args
    assert isinstance(embedded.messages[0].content, t.EmbeddedResource), embedded
    assert str(embedded.messages[0].content.resource.uri) == "test://example", embedded
    assert isinstance(image.messages[0].content, t.ImageContent), image


async def completion(c):
    """completion/complete (a prompt argument)"""
    ref = t.PromptReference(type="ref/prompt", name="test_prompt_with_arguments")
    async with c.session() as s:
        # The `completions` capability came with 2025-03-26; the method was there before it.
        assert (getattr(s.init.capabilities, "completions", None) is not None) == (AT >= 1), s.init
        done = known(await s.complete(ref, {"name": "arg1", "value": "test-value-"}))
    assert done.completion.values == ["test-value-1", "test-value-2", "test-value-3"], done


async def resources(c):
    """resources/list, resources/read (text, binary, template)"""
    from pydantic import AnyUrl

    async with c.session() as s:
        listed = {str(r.uri) for r in known(await s.list_resources()).resources}
        templates = known(await s.list_resource_templates()).resourceTemplates
        text = known(await s.read_resource(AnyUrl("test://static-text"))).contents[0]
        blob = known(await s.read_resource(AnyUrl("test://static-binary"))).contents[0]
        data = known(await s.read_resource(AnyUrl("test://template/42/data"))).contents[0]
    assert {"test://static-text", "test://static-binary"} <= listed, listed
    assert [x.uriTemplate for x in templates] == ["test://template/{id}/data"], templates
    assert text.text == "This is the content of the static text resource.", text
    assert isinstance(blob, t.BlobResourceContents) and blob.mimeType == "image/png", blob
    assert json.loads(data.text)["id"] == "42", data


async def content_types(c):
    """tools/call content: image, audio (text before 2025-03-26), embedded resource, mixed"""
    async with c.session() as s:
        image = known(await s.call_tool("test_image_content", {})).content
        audio = known(await s.call_tool("test_audio_content", {})).content
        embedded = known(await s.call_tool("test_embedded_resource", {})).content
        mixed = known(await s.call_tool("test_multiple_content_types", {})).content
    assert [x.type for x in image] == ["image"], image
    if AT >= 1:
        assert [x.type for x in audio] == ["audio"], audio
    else:
        assert [x.type for x in audio] == ["text"] and "audio clip" in audio[0].text, audio
    assert [x.type for x in embedded] == ["resource"], embedded
    assert [x.type for x in mixed] == ["text", "image", "resource"], mixed


async def notifications(c):
    """notifications: log messages, progress (its message from 2025-03-26)"""
    # The progress token by hand: 1.5 has no progress callback to make one.
    params = t.CallToolRequestParams(
        name="test_streaming_elicitation", arguments={}, _meta={"progressToken": 7}
    )
    streaming = t.ClientRequest(t.CallToolRequest(method="tools/call", params=params))
    async with c.session() as s:
        await s.set_logging_level("info")
        logged = await s.call_tool("test_tool_with_logging", {})
        streamed = await s.send_request(streaming, t.CallToolResult)
    assert not logged.isError and not streamed.isError, (logged, streamed)
    logs = [known(n.params).data for n in NOTIFIED if isinstance(n, t.LoggingMessageNotification)]
    assert logs == [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ], NOTIFIED
    progress = [known(n.params) for n in NOTIFIED if isinstance(n, t.ProgressNotification)]
    assert [(p.progressToken, p.progress) for p in progress] == [(7, 1.0)], progress
    # known() proved 2024-11-05's has no message (the revision has none).
    if AT >= 1:
        assert progress[0].message == "working", progress


CASES = {
    "travel": [
        travel_initialize,
        travel_tools,
        flight_by_the_model,
        flight_fallback,
        booking_accepted,
        booking_declined,
        booking_fallback,
        payment_fallback,
        files_from_roots,
        files_fallback,
        travel_resources,
    ],
    "bookshop": [
        bookshop_tools,
        order_accepted,
        order_declined,
        order_fallback,
        blurb_by_the_model,
        blurb_fallback,
    ],
    "conformance": [prompts, completion, resources, content_types, notifications],
}


# --- running -----------------------------------------------------------------------------------


async def run(client: Client, case) -> str:
    name = f"python {SDK} {REVISION} {client.transport:5} {client.server} {case.__doc__}"
    UNDECLARED.clear()
    NOTIFIED.clear()
    try:
        await asyncio.wait_for(case(client), CASE_TIMEOUT)
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
    assert ASKED == REVISION, f"mcp {SDK} speaks {REVISION} as its newest revision, not {ASKED}"
    http = {}
    if set(TRANSPORTS) - {"stdio"}:
        http = {name: HttpServer(name, BIN, s["http"]) for name, s in SERVERS.items()}
    results = []
    try:
        for transport in TRANSPORTS:
            for server, cases in CASES.items():
                for case in cases:
                    results.append(await run(Client(BIN, server, transport, http), case))
    finally:
        for server in http.values():
            server.stop()
    print(", ".join(f"{results.count(k)} {k}" for k in ("passed", "failed", "skipped")))
    return 1 if "failed" in results or not results else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
