#!/usr/bin/env python3
"""Rain forecast MCP server backed by open-meteo."""
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("umbrella")


@mcp.tool()
def rain_today(city: str) -> dict:
    """Hourly precipitation probability for today in a city."""
    geo = httpx.get("https://geocoding-api.open-meteo.com/v1/search",
                    params={"name": city, "count": 1}, timeout=10).json()["results"][0]
    fc = httpx.get("https://api.open-meteo.com/v1/forecast", params={
        "latitude": geo["latitude"], "longitude": geo["longitude"],
        "hourly": "precipitation_probability", "forecast_days": 1,
    }, timeout=10).json()
    return {"city": geo["name"], "hourly": fc["hourly"]}


if __name__ == "__main__":
    mcp.run()
