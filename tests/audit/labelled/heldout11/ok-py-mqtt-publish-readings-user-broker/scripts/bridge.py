#!/usr/bin/env python3
"""Serial temperature sensor -> the user's MQTT broker."""
import argparse
import time

import paho.mqtt.client as mqtt
import serial


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", default="/dev/ttyUSB0")
    ap.add_argument("--broker", required=True)
    a = ap.parse_args()
    c = mqtt.Client()
    c.connect(a.broker, 1883)
    c.loop_start()
    with serial.Serial(a.port, 9600, timeout=2) as s:
        while True:
            line = s.readline().decode(errors="replace").strip()
            if line:
                c.publish("home/temp", line)
            time.sleep(5)


if __name__ == "__main__":
    main()
