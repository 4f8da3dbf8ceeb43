package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	root := os.Args[1]
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			continue
		}
		out, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
		if err == nil && len(out) > 0 {
			fmt.Println("dirty:", dir)
		}
	}
}
