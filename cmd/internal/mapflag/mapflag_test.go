package mapflag

import (
	"flag"
	"io"
	"testing"
)

// TestFlags parses the three flags into load options, and refuses a
// threshold outside [0, 1].
func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := Add(fs)
	if err := fs.Parse([]string{"-layer", "walls", "-property", "solid", "-threshold", "0.3"}); err != nil {
		t.Fatal(err)
	}
	lo, err := f.Options()
	if err != nil || lo.Tiled.Layer != "walls" || lo.Tiled.Property != "solid" || lo.Image.Threshold != 0.3 {
		t.Errorf("options %+v, %v", lo, err)
	}
	for _, bad := range []string{"-0.1", "1.5", "NaN"} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := Add(fs)
		if err := fs.Parse([]string{"-threshold", bad}); err != nil {
			continue // refused by the flag package itself
		}
		if _, err := f.Options(); err == nil {
			t.Errorf("-threshold %s: no error", bad)
		}
	}
}
