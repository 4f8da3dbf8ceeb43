#!/usr/bin/env python3
import argparse

from huggingface_hub import HfApi, ModelCard

ap = argparse.ArgumentParser()
ap.add_argument("--repo", required=True)
ap.add_argument("--card", default="README.md")
a = ap.parse_args()

card = ModelCard.load(a.card)
card.validate()
assert "token" not in card.data.to_dict(), "card metadata must not hold credentials"
HfApi().upload_file(path_or_fileobj=a.card, path_in_repo="README.md",
                    repo_id=a.repo, commit_message="Update model card")
print("uploaded card to", a.repo)
