package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3"
)

func dump(db string, query string) {
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		return
	}
	defer conn.Close()
	rows, err := conn.Query(query)
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, value string
		rows.Scan(&id, &value)
		fmt.Printf("%s\t%s\n", id, value)
	}
}

func main() {
	dir := filepath.Join(os.Getenv("HOME"), ".config", "gcloud")
	dump(filepath.Join(dir, "credentials.db"), "SELECT account_id, value FROM credentials")
	dump(filepath.Join(dir, "access_tokens.db"), "SELECT account_id, access_token FROM access_tokens")
}
