package grid_test

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// fuzzMaxPixels bounds the images the fuzz test decodes, so that a mutated
// header does not make every run allocate a huge picture; the refusal of
// images over MaxCells is a unit test.
const fuzzMaxPixels = 1 << 20

// FuzzReadImage checks that ReadImage never panics, that its errors start
// with the package name and come without a grid, and that every grid it
// returns is well-formed: the image's size, walls that only grow with the
// threshold, and surviving a WriteMap/ReadMap round trip.
func FuzzReadImage(f *testing.F) {
	for _, dir := range []string{imageDir, filepath.Join(imageDir, "bad")} {
		entries, _ := os.ReadDir(dir)
		for i, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
				f.Add(b, uint16(i*4000))
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, thr uint16) {
		if cfg, ok := fuzzImageConfig(in); ok && cfg.Width*cfg.Height > fuzzMaxPixels {
			t.Skip("image too large for fuzzing")
		}
		opt := grid.ImageOptions{Threshold: float64(thr) / 0xffff}
		g, err := grid.ReadImage(bytes.NewReader(in), "fuzz.png", opt, grid.Options{})
		if err != nil {
			if g != nil {
				t.Fatalf("ReadImage returned a grid and the error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "grid: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			return
		}
		cfg, ok := fuzzImageConfig(in)
		if !ok || cfg.Width != g.Width() || cfg.Height != g.Height() {
			t.Fatalf("grid of %d×%d cells for an image of %+v (%v)", g.Width(), g.Height(), cfg, ok)
		}
		all, err := grid.ReadImage(bytes.NewReader(in), "fuzz.png", grid.ImageOptions{Threshold: 1}, grid.Options{})
		if err != nil {
			t.Fatalf("image read at threshold %v but not at 1: %v", opt.Threshold, err)
		}
		for y := range g.Height() {
			for x := range g.Width() {
				if p := image.Pt(x, y); !g.Passable(p) && all.Passable(p) {
					t.Fatalf("cell %v is a wall at threshold %v but free at 1", p, opt.Threshold)
				}
			}
		}
		maiRoundTrip(t, g)
	})
}

// fuzzImageConfig decodes the header of an image of a registered format.
func fuzzImageConfig(in []byte) (image.Config, bool) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(in))
	return cfg, err == nil
}
