package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	dirs, _ := filepath.Glob(filepath.Join(os.Args[1], "*", ".git"))
	for _, g := range dirs {
		r := filepath.Dir(g)
		out, _ := exec.Command("git", "-C", r, "status", "--porcelain").Output()
		if len(out) > 0 {
			fmt.Println(r)
		}
	}
}
