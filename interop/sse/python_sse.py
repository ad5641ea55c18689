"""The travel server over the HTTP+SSE transport of 2024-11-05, driven by the official MCP Python
SDK at 1.5.0 (pinned in requirements.txt), whose only way to a remote server is `sse_client`:
GET /sse, then POSTs to the endpoint the stream names. It negotiates 2024-11-05 and always
declares sampling and roots (its default callbacks answer with an error).

Checks: the handshake and tools/list; the flight search picked by the client's model (a
sampling request on the stream, its answer POSTed back), and by the server's ranking when the
client's model answers with an error; trip_files from the client's roots. One line per check,
then `N passed, N failed`; exit 1 if any failed. Run through interop/sse/run.sh.

    python interop/sse/python_sse.py http://127.0.0.1:PORT/sse WORKSPACE
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from contextlib import asynccontextmanager
from pathlib import Path

import mcp.types as t
from mcp import ClientSession
from mcp.client.sse import sse_client

URL = sys.argv[1]
WORKSPACE = Path(sys.argv[2])
SEARCH = {"destination": "Barcelona", "month": "2027-06", "morning_departure": True, "max_stops": 1}
RANKED = ["BCN22", "BCN35", "BCN37"]
MODEL = json.dumps({"picks": [
    {"flight_id": "BCN30", "reason": "A morning flight with one stop in London."},
    {"flight_id": "BCN22", "reason": "The cheapest morning nonstop."},
]})
TIMEOUT = 60


@asynccontextmanager
async def session(**callbacks):
    async with sse_client(URL) as (read, write):
        async with ClientSession(read, write, **callbacks) as s:
            init = await s.initialize()
            assert init.protocolVersion == "2024-11-05", init.protocolVersion
            yield s


def picks(result: t.CallToolResult) -> tuple[str, list[str]]:
    # 2024-11-05 has no structuredContent: the search is the text block's JSON.
    assert not result.isError, result
    s = json.loads(result.content[0].text)
    return s["chosen_by"], [p["flight"]["id"] for p in s["picks"]]


async def handshake_and_tools():
    async with session() as s:
        tools = await s.list_tools()
    names = sorted(tool.name for tool in tools.tools)
    assert names == ["book_trip", "find_best_flight", "pay_for_trip", "trip_files"], names


async def flight_picked_by_the_model():
    asked = []

    async def sample(_ctx, params: t.CreateMessageRequestParams) -> t.CreateMessageResult:
        asked.append(params.maxTokens)
        return t.CreateMessageResult(
            role="assistant",
            content=t.TextContent(type="text", text=MODEL),
            model="interop-model",
            stopReason="endTurn",
        )

    async with session(sampling_callback=sample) as s:
        r = await s.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("client_model", ["BCN30", "BCN22"]), r
    assert len(asked) == 1, asked


async def flight_ranked_when_the_model_fails():
    # The SDK's default sampling callback answers with an error.
    async with session() as s:
        r = await s.call_tool("find_best_flight", SEARCH)
    assert picks(r) == ("ranking", RANKED), r


async def trip_files_from_roots():
    async def roots(_ctx) -> t.ListRootsResult:
        return t.ListRootsResult(roots=[t.Root(uri=WORKSPACE.as_uri(), name="travel workspace")])

    async with session(list_roots_callback=roots) as s:
        r = await s.call_tool("trip_files", {})
    text = r.content[0].text
    assert not r.isError, r
    assert "barcelona-june-2027.md" in text, text


CHECKS = [handshake_and_tools, flight_picked_by_the_model, flight_ranked_when_the_model_fails,
          trip_files_from_roots]


async def main() -> int:
    passed = 0
    for check in CHECKS:
        name = f"python-sdk 1.5.0 sse {check.__name__}"
        try:
            await asyncio.wait_for(check(), TIMEOUT)
            passed += 1
            print(f"ok   {name}")
        except Exception:
            print(f"FAIL {name}\n{traceback.format_exc()}")
    print(f"{passed} passed, {len(CHECKS) - passed} failed")
    return 0 if passed == len(CHECKS) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
