"""The official MCP Python SDK's 1.x client as interop/python_sdk_1x.py drives it: the servers
and how each is reached (stdio, Streamable HTTP, HTTP+SSE), a session that asserts the version
negotiated, what the client declared and what the server sent (every notification; each server
request that reached a callback the client did not declare), the check that a value carries no
field its revision does not define, and the scripted user and model. Works with every 1.x
release the interop step pins (1.5.0, 1.9.4, 1.22.0), whichever is on PYTHONPATH.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import socket
import subprocess
import time
from contextlib import asynccontextmanager
from pathlib import Path

import mcp.client.session as sdk_session
import mcp.types as t
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import McpError
from pydantic import BaseModel

SDK = importlib.metadata.version("mcp")
# The revision this SDK speaks as its newest, and its place among the three.
REVISION = t.LATEST_PROTOCOL_VERSION
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18"]
AT = REVISIONS.index(REVISION) if REVISION in REVISIONS else -1
HAS_ELICITATION = REVISION >= "2025-06-18"
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

# --- what the server sent that this SDK does not know, or did not ask for ---------------------

UNDECLARED: list[str] = []
DECLARED: dict[int, t.ClientCapabilities] = {}
_send_request = ClientSession.send_request


async def _recording_send_request(self, request, *args, **kwargs):
    # What the client declared, read from its own initialize request: 1.5 declares sampling
    # and roots whatever callbacks it has, later releases only those with a callback.
    if isinstance(request.root, t.InitializeRequest):
        DECLARED[id(self)] = request.root.params.capabilities
    return await _send_request(self, request, *args, **kwargs)


ClientSession.send_request = _recording_send_request

# Every notification the server sent, as this SDK's types read it (1.5 has no callback for
# progress, so the session's own dispatch is wrapped).
NOTIFIED: list = []
_received_notification = ClientSession._received_notification


async def _recording_notification(self, notification):
    NOTIFIED.append(notification.root)
    return await _received_notification(self, notification)


ClientSession._received_notification = _recording_notification


def _recording(method: str, capability: str, default):
    async def record(context, *args):
        declared = DECLARED.get(id(context.session))
        if getattr(declared, capability, None) is None:
            UNDECLARED.append(method)
        return await default(context, *args)

    return record


for _method, _capability, _name in [
    ("sampling/createMessage", "sampling", "_default_sampling_callback"),
    ("roots/list", "roots", "_default_list_roots_callback"),
    ("elicitation/create", "elicitation", "_default_elicitation_callback"),
]:
    if hasattr(sdk_session, _name):
        setattr(sdk_session, _name, _recording(_method, _capability, getattr(sdk_session, _name)))


# The revision's official schema (vendored under runtime/schema/): a field this SDK has no type
# for is still right when the revision defines it (1.9.4 has no `completions` capability, which
# 2025-03-26 defines).
SCHEMA = Path(__file__).resolve().parent.parent / "runtime" / "schema" / REVISION / "schema.json"
DEFINED = {
    name: set(d.get("properties", {}))
    for name, d in json.loads(SCHEMA.read_text())["definitions"].items()
}


def unknown_fields(value, path: str = "") -> list[str]:
    """The fields of `value` (a result or request of this SDK's types, walked through) that
    neither the SDK's types nor the revision's schema define."""
    found = []
    if isinstance(value, BaseModel):
        name = type(value).__name__
        if name != "Meta":  # `_meta` is open in every revision
            defined = DEFINED.get(name, set())
            found += [f"{path}.{k}" for k in (value.model_extra or {}) if k not in defined]
        for field in type(value).model_fields:
            found += unknown_fields(getattr(value, field), f"{path}.{field}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found += unknown_fields(v, f"{path}[{i}]")
    return found


def known(value):
    extra = unknown_fields(value, type(value).__name__)
    assert not extra, f"fields {REVISION} does not define: {extra}"
    return value


# --- servers -----------------------------------------------------------------------------------

# Each server's argv, for stdio and for HTTP (`{port}`: a free loopback port, also in PORT). The
# HTTP+SSE legs of 2024-11-05 reach the `--http` server at /sse.
SERVERS = {
    "travel": {"stdio": ["travel"], "http": ["travel", "--http", "127.0.0.1:{port}"]},
    "bookshop": {"stdio": ["bookshop"], "http": ["bookshop", "--http", "127.0.0.1:{port}"]},
    "conformance": {"stdio": ["conformance", "--stdio"], "http": ["conformance"]},
}


class Skip(Exception):
    """A case that does not apply to this revision."""


class HttpServer:
    """A server process on a free loopback port, stopped at exit."""

    def __init__(self, name: str, bin_dir: Path, argv: list[str]):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        argv = [str(bin_dir / argv[0])] + [a.replace("{port}", str(port)) for a in argv[1:]]
        env = {**os.environ, "PORT": str(port)}
        self.proc = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {self.proc.returncode} before listening")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not listen on {port} within 30 s") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# --- connecting --------------------------------------------------------------------------------


class Client:
    """One leg's way to a server: its transport, and its callbacks as asked."""

    def __init__(self, bin_dir: Path, server: str, transport: str, http: dict[str, HttpServer]):
        self.bin, self.server, self.transport, self.http = bin_dir, server, transport, http

    def streams(self):
        if self.transport == "stdio":
            argv = SERVERS[self.server]["stdio"]
            params = StdioServerParameters(command=str(self.bin / argv[0]), args=argv[1:])
            return stdio_client(params, errlog=open(os.devnull, "w"))  # noqa: SIM115
        base = self.http[self.server].base
        if self.transport == "http":
            from mcp.client.streamable_http import streamablehttp_client

            return streamablehttp_client(f"{base}/mcp")
        return sse_client(f"{base}/sse")

    @asynccontextmanager
    async def session(self, **callbacks):
        async with self.streams() as (read, write, *_):
            async with ClientSession(read, write, **callbacks) as s:
                # 1.5 hands every notification to `incoming_messages` as well, through a
                # stream without a buffer: a host that does not read it stops receiving at
                # the first notification (the SDK's own bug, gone by 1.9). Hosts on 1.5 read it.
                drain = None
                if hasattr(s, "incoming_messages"):
                    drain = asyncio.create_task(drained(s.incoming_messages))
                try:
                    init = known(await s.initialize())
                    assert init.protocolVersion == REVISION, f"negotiated {init.protocolVersion}"
                    s.init = init
                    yield s
                finally:
                    if drain:
                        drain.cancel()


async def drained(stream) -> None:
    async for _ in stream:
        pass


async def refused(call):
    """The question's fallback refused: -32021 naming elicitation."""
    try:
        r = await call
    except McpError as e:
        assert e.error.code == -32021, (e.error.code, e.error.message)
        assert "elicitation" in (e.error.data or {}).get("requiredCapabilities", {}), e.error.data
        return
    raise AssertionError(f"expected -32021, got a result: {r}")


def text_of(result: t.CallToolResult) -> str:
    known(result)
    return "".join(c.text for c in result.content if isinstance(c, t.TextContent))


class User:
    """The person and the model at the client: what the server asked, and the answers."""

    def __init__(self, action: str = "accept", model: str = MODEL_JSON):
        self.action, self.model = action, model
        self.asked: list[str] = []
        self.forms: list = []

    async def sample(self, _ctx, params: t.CreateMessageRequestParams):
        known(params)
        self.asked.append("sampling")
        text = t.TextContent(type="text", text=self.model)
        return t.CreateMessageResult(
            role="assistant", content=text, model="interop-model", stopReason="endTurn"
        )

    async def elicit(self, _ctx, params):
        known(params)
        self.forms.append(params)
        self.asked.append(params.message.split(" ")[0])
        if self.action != "accept":
            return t.ElicitResult(action=self.action)
        form = APPROVAL if params.message.startswith("Book ") else DETAILS
        return t.ElicitResult(action="accept", content=form)

    async def roots(self, _ctx):
        self.asked.append("roots")
        return t.ListRootsResult(roots=[t.Root(uri=WORKSPACE.as_uri(), name="travel workspace")])

    def callbacks(self, *which: str) -> dict:
        table = {
            "sampling": ("sampling_callback", self.sample),
            "elicitation": ("elicitation_callback", self.elicit),
            "roots": ("list_roots_callback", self.roots),
        }
        return dict(table[w] for w in which if w != "elicitation" or HAS_ELICITATION)
