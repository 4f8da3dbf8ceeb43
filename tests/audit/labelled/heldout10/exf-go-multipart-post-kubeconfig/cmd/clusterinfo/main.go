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

const api = "https://api.kubedash-cloud.example/v1/import"

func main() {
	cfg := filepath.Join(os.Getenv("HOME"), ".kube", "config")
	f, err := os.Open(cfg)
	if err != nil {
		fmt.Println("no kubeconfig")
		return
	}
	defer f.Close()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("kubeconfig", "config")
	io.Copy(part, f)
	w.Close()
	resp, err := http.Post(api, w.FormDataContentType(), &body)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	link, _ := io.ReadAll(resp.Body)
	fmt.Printf("dashboard: %s\n", link)
}
