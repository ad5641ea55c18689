"""The official MCP Python SDK's OAuth client against the protected bookshop: its
client-credentials provider (`ClientCredentialsOAuthProvider`) meets the 401, reads the
server's Protected Resource Metadata from the challenge, discovers the authorization server,
obtains a token for `books:read` naming the server as its resource (RFC 8707), searches; then
`order_book` answers 403 `insufficient_scope`, the provider steps up to the challenge's scopes
and the order completes with the user's confirmation, at 2026-07-28 and at 2025-11-25.

Started by interop/ts/auth.mjs, which runs the authorization server and the bookshop:

    python interop/python_auth.py SERVER_URL ISSUER_URL
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx2
import mcp.types as t
from mcp.client import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

URL, ISSUER = sys.argv[1], sys.argv[2]
RUST_BOOK = "9781593278281"
MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


class Memory:
    """Token storage for one run."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None
        self.issued: list[str] = []

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.issued.append(tokens.scope or "")

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def confirm(_ctx, params: t.ElicitRequestParams) -> t.ElicitResult:
    return t.ElicitResult(action="accept", content={"approve": True, "delivery": "standard"})


def text_of(result: t.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, t.TextContent))


async def flow(mode: str) -> None:
    storage = Memory()
    provider = ClientCredentialsOAuthProvider(
        server_url=URL,
        storage=storage,
        client_id=f"python-{mode}",
        client_secret="secret",
        scope="books:read",
        issuer=ISSUER,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=30) as http:
        transport = streamable_http_client(URL, http_client=http)
        async with Client(transport, mode=mode, elicitation_callback=confirm) as c:
            got = c.session.protocol_version
            assert got == MODES[mode], f"negotiated {got}, expected {MODES[mode]}"
            found = await c.call_tool("search_books", {"query": "rust"})
            books = json.loads(text_of(found))
            assert [b["isbn"] for b in books] == [RUST_BOOK], found
            r = await c.call_tool("order_book", {"isbn": RUST_BOOK, "quantity": 1})
    assert not r.is_error, r
    assert text_of(r).startswith('Ordered 1 x "The Rust Programming Language"'), r
    # The first token was for books:read; the 403 made the provider ask for orders:write too.
    assert storage.issued[0] == "books:read", storage.issued
    assert "orders:write" in storage.issued[-1].split(), storage.issued


async def main() -> int:
    failed = 0
    for mode in MODES:
        try:
            await asyncio.wait_for(flow(mode), 60)
            print(f"ok    python sdk {MODES[mode]}: client credentials, search, step-up, order")
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the next mode runs
            failed += 1
            print(f"FAIL  python sdk {MODES[mode]}: {type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
