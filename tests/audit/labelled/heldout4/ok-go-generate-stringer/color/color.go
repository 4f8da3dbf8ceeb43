package color

//go:generate go run golang.org/x/tools/cmd/stringer -type=Color
//go:generate go run ../cmd/gen -type=Color -out color_valid.go

// Color is a palette entry.
type Color int

const (
    Red Color = iota
    Green
    Blue
)
