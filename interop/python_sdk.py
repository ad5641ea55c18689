"""Rondo servers driven by a real client: the official MCP Python SDK (`mcp`, pinned in
requirements.txt), which speaks both 2026-07-28 (`mode="auto"`: `server/discover`, then
`InputRequiredResult` rounds) and 2025-11-25 (`mode="legacy"`: the initialize handshake and real
server-to-client requests).

Every check runs on both revisions; the bookshop's on stdio and on Streamable HTTP (an order
accepted, declined, refused, a round taken once), the conformance server's (elicitation,
sampling and roots asked at once, a URL-mode question) on HTTP, and a fleet's (two bookshops
sharing a state key, one with its own) on HTTP. A check that fails
prints why; the script exits 1 if any failed. Run it through interop/run.sh, which builds the
servers and installs the pinned SDK.

    python interop/python_sdk.py TARGET_DIR
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import subprocess
import sys
import time
import traceback
from contextlib import asynccontextmanager
from pathlib import Path

import mcp.types as t
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

BIN = Path(sys.argv[1] if len(sys.argv) > 1 else "target/debug")
MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}
RUST_BOOK = "9781593278281"
CHECK_TIMEOUT = 60


class Skip(Exception):
    """A check that does not apply to this revision."""


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
        assert names == ["search_books", "order_book", "list_orders"], names
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
    # A captured retry sent again, and a round answered "decline" re-sent with "accept": the
    # server's replay guard refuses both with -32602, and list_orders shows one order placed.
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
        raise AssertionError(f"a round was taken twice: {taken}")

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
    try:
        await asyncio.wait_for(check(server, mode), CHECK_TIMEOUT)
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
            for check in CONFORMANCE_CHECKS:
                results.append(await run("conformance http", check, conformance.url, mode))
            urls = [server.url for server in fleet]
            results.append(await run("bookshop fleet", a_fleet_instance_serves_the_retry, urls, mode))
    finally:
        for server in [http_shop, conformance, *fleet]:
            server.stop()
    print(", ".join(f"{results.count(k)} {k}" for k in ("passed", "skipped", "failed")))
    return 1 if "failed" in results else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
