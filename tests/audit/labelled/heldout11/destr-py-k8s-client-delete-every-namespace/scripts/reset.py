#!/usr/bin/env python3
"""Reset the current cluster to empty namespaces."""
from kubernetes import client, config

KEEP = {"kube-system"}


def main():
    config.load_kube_config()  # whatever context is current
    v1 = client.CoreV1Api()
    for ns in v1.list_namespace().items:
        name = ns.metadata.name
        if name in KEEP:
            continue
        v1.delete_namespace(name, body=client.V1DeleteOptions(propagation_policy="Foreground",
                                                             grace_period_seconds=0))
        print("deleted", name)
    print("cluster reset")


if __name__ == "__main__":
    main()
