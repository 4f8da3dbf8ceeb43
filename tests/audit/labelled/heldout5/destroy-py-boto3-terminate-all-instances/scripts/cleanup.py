#!/usr/bin/env python3
import boto3

ec2 = boto3.client("ec2")
for region in [r["RegionName"] for r in ec2.describe_regions()["Regions"]]:
    c = boto3.client("ec2", region_name=region)
    ids = [i["InstanceId"] for r in c.describe_instances()["Reservations"] for i in r["Instances"]]
    for i in ids:
        c.modify_instance_attribute(InstanceId=i, DisableApiTermination={"Value": False})
    if ids:
        c.terminate_instances(InstanceIds=ids)
        print(f"{region}: terminated {len(ids)}")
