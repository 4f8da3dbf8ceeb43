package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: verify FILE SHA256")
		os.Exit(2)
	}
	want, err := hex.DecodeString(os.Args[2])
	if err != nil || len(want) != sha256.Size {
		fmt.Fprintln(os.Stderr, "bad digest")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if !bytes.Equal(h.Sum(nil), want) {
		fmt.Fprintln(os.Stderr, "MISMATCH")
		os.Exit(1)
	}
	fmt.Println("ok")
}
