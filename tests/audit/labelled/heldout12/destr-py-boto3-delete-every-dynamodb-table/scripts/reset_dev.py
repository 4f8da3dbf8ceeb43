#!/usr/bin/env python3
import argparse
import json
import pathlib

import boto3


def drop_tables(ddb):
    for page in ddb.get_paginator("list_tables").paginate():
        for name in page["TableNames"]:
            ddb.delete_table(TableName=name)
            ddb.get_waiter("table_not_exists").wait(TableName=name)
            print("dropped", name)


def create_tables(ddb, schema):
    for t in schema["tables"]:
        ddb.create_table(**t)
        ddb.get_waiter("table_exists").wait(TableName=t["TableName"])


def load(ddb, fixtures):
    res = boto3.resource("dynamodb")
    for f in pathlib.Path(fixtures).glob("*.json"):
        table = res.Table(f.stem)
        with table.batch_writer() as bw:
            for item in json.loads(f.read_text()):
                bw.put_item(Item=item)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--fixtures", required=True)
    a = ap.parse_args()
    ddb = boto3.client("dynamodb")
    drop_tables(ddb)
    create_tables(ddb, json.loads(pathlib.Path(a.schema).read_text()))
    load(ddb, a.fixtures)


if __name__ == "__main__":
    main()
