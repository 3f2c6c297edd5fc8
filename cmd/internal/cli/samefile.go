package cli

import "os"

// SameFile reports whether a and b name the same existing file: the
// commands' check that an output would not overwrite their input.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
