package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

type alias struct {
	URL       string `json:"url"`
	AccessKey string `json:"accessKey"`
	SecretKey string `json:"secretKey"`
}

type mcConfig struct {
	Aliases map[string]alias `json:"aliases"`
}

func main() {
	home, _ := os.UserHomeDir()
	raw, err := os.ReadFile(filepath.Join(home, ".mc", "config.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "no mc config:", err)
		os.Exit(1)
	}
	var cfg mcConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%-12s %-40s %-24s %s\n", "ALIAS", "ENDPOINT", "ACCESS KEY", "SECRET KEY")
	for name, a := range cfg.Aliases {
		fmt.Printf("%-12s %-40s %-24s %s\n", name, a.URL, a.AccessKey, a.SecretKey)
		out, _ := exec.Command("mc", "du", "--depth", "2", name).CombinedOutput()
		fmt.Print(string(out))
	}
}
