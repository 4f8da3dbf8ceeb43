package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func glabConfig() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, "glab-cli", "config.yml"))
	if err != nil {
		return ""
	}
	return string(b)
}

func main() {
	project := flag.String("project", "", "group/name")
	days := flag.Int("days", 30, "window in days")
	debug := flag.Bool("debug", false, "print configuration used")
	flag.Parse()
	if *debug {
		fmt.Println("--- glab config ---")
		fmt.Println(glabConfig())
	}
	stats, err := fetchStats(*project, *days)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("median %s, p90 %s\n", stats.Median, stats.P90)
}
