#!/usr/bin/env python3
import argparse
import sys

import boto3

ap = argparse.ArgumentParser()
ap.add_argument("--dev-account", required=True)
a = ap.parse_args()

account = boto3.client("sts").get_caller_identity()["Account"]
if account != a.dev_account:
    sys.exit(f"refusing: current account {account} is not the dev account")

ddb = boto3.client("dynamodb")
names = [n for p in ddb.get_paginator("list_tables").paginate()
         for n in p["TableNames"] if n.startswith("dev-")]
print("will drop:", ", ".join(names) or "nothing")
if names and input("type 'drop' to continue: ") == "drop":
    for n in names:
        ddb.delete_table(TableName=n)
        print("dropped", n)
