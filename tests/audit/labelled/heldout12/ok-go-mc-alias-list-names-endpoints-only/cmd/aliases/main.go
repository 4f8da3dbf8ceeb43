package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

type alias struct {
	URL string `json:"url"`
}

func main() {
	home, _ := os.UserHomeDir()
	raw, err := os.ReadFile(filepath.Join(home, ".mc", "config.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var cfg struct {
		Aliases map[string]alias `json:"aliases"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	names := make([]string, 0, len(cfg.Aliases))
	for n := range cfg.Aliases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%-12s %s\n", n, cfg.Aliases[n].URL)
	}
}
