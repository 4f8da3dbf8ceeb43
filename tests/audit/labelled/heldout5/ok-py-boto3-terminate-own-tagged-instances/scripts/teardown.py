#!/usr/bin/env python3
import sys

import boto3

run = sys.argv[1]
ec2 = boto3.client("ec2", region_name="eu-west-1")
res = ec2.describe_instances(Filters=[{"Name": "tag:loadtest-run", "Values": [run]},
                                      {"Name": "instance-state-name", "Values": ["running", "stopped"]}])
ids = [i["InstanceId"] for r in res["Reservations"] for i in r["Instances"]]
print("terminating:", ids)
if ids:
    ec2.terminate_instances(InstanceIds=ids)
