package main

import (
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	failed := false
	for _, target := range os.Args[1:] {
		start := time.Now()
		c, err := net.DialTimeout("tcp", target, 3*time.Second)
		if err != nil {
			fmt.Printf("%-30s FAIL %v\n", target, err)
			failed = true
			continue
		}
		c.Close()
		fmt.Printf("%-30s ok %dms\n", target, time.Since(start).Milliseconds())
	}
	if failed {
		os.Exit(1)
	}
}
