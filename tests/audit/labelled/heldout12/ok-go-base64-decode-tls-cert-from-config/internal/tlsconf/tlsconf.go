package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
)

// FromConfig builds a TLS config that trusts the CA given in base64 PEM.
func FromConfig(caB64 string, cert tls.Certificate) (*tls.Config, error) {
	pem, err := base64.StdEncoding.DecodeString(caB64)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("no certificates in ca_b64")
	}
	return &tls.Config{RootCAs: pool, ClientCAs: pool, Certificates: []tls.Certificate{cert},
		ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS13}, nil
}
