package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

var known = []struct{ in, want string }{
	{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
}

func TestSHA256KnownAnswers(t *testing.T) {
	for _, k := range known {
		want, err := hex.DecodeString(k.want)
		if err != nil {
			t.Fatal(err)
		}
		got := sha256.Sum256([]byte(k.in))
		if !bytes.Equal(got[:], want) {
			t.Errorf("%q: got %x want %x", k.in, got, want)
		}
	}
}
