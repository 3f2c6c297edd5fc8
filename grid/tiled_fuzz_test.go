package grid_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// fuzzTiledOptions are the ways of choosing walls the fuzz test tries,
// picked by the mode argument.
var fuzzTiledOptions = []grid.TiledOptions{
	{},
	{Layer: "walls"},
	{Property: "collides"},
	{Layer: "deco", Property: "solid"},
}

// FuzzReadTiled checks that ReadTiled never panics, that its errors start
// with the package name and come without a grid, and that every grid it
// returns is well-formed: a positive size within MaxCells, the same on a
// second reading, and surviving a WriteMap/ReadMap round trip.
func FuzzReadTiled(f *testing.F) {
	for _, c := range tiledBadCases {
		f.Add([]byte(c.in), uint8(0))
	}
	for _, dir := range []string{tiledDir, filepath.Join(tiledDir, "bad"), filepath.Join(tiledDir, "tiles")} {
		entries, _ := os.ReadDir(dir)
		for i, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
				f.Add(b, uint8(i))
			}
		}
	}
	f.Add(wallsMap.tmx("xml", ""), uint8(1))
	f.Add(propMap.tmj("base64", "gzip"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		topt := fuzzTiledOptions[int(mode)%len(fuzzTiledOptions)]
		topt.Format = grid.TiledFormat(int(mode) / len(fuzzTiledOptions) % 3)
		g, info, err := grid.ReadTiled(bytes.NewReader(in), "fuzz.tmx", topt, grid.Options{})
		if err != nil {
			if g != nil {
				t.Fatalf("ReadTiled returned a grid and the error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "grid: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			return
		}
		w, h := g.Width(), g.Height()
		if w <= 0 || h <= 0 || w > grid.MaxCells/h {
			t.Fatalf("grid of %d×%d cells", w, h)
		}
		if info.TileWidth <= 0 || info.TileHeight <= 0 || (!info.Infinite && info.Origin.X|info.Origin.Y != 0) {
			t.Fatalf("info %+v", info)
		}
		if tr, err := info.Transform(); err == nil {
			if err := tr.Check(); err != nil {
				t.Fatalf("transform of %+v: %v", info, err)
			}
		}
		again, info2, err := grid.ReadTiled(bytes.NewReader(in), "fuzz.tmx", topt, grid.Options{})
		if err != nil || info2 != info || renderRows(again) != renderRows(g) {
			t.Fatalf("second reading differs: %v, %+v vs %+v", err, info2, info)
		}
		maiRoundTrip(t, g)
	})
}
