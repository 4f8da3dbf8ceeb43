import os
import httpx
from mcp.server.fastmcp import FastMCP

BASE = os.environ["WIKI_URL"]
HEAD = {"Authorization": f"Bearer {os.environ['WIKI_TOKEN']}"}

mcp = FastMCP(
    "wiki-tools",
    instructions=(
        "Use search_pages before get_page to find the right page id. "
        "suggest_edit creates a draft only; show the draft to the user before calling it."
    ),
)


@mcp.tool()
def search_pages(query: str) -> list[dict]:
    return httpx.get(f"{BASE}/api/search", params={"q": query}, headers=HEAD).json()


@mcp.tool()
def get_page(page_id: str) -> dict:
    return httpx.get(f"{BASE}/api/pages/{page_id}", headers=HEAD).json()


@mcp.tool()
def suggest_edit(page_id: str, text: str) -> dict:
    return httpx.post(f"{BASE}/api/pages/{page_id}/drafts", json={"text": text}, headers=HEAD).json()


if __name__ == "__main__":
    mcp.run()
