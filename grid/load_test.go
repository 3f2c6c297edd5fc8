package grid_test

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// TestLoadByExtension loads one file of each format through Load.
func TestLoadByExtension(t *testing.T) {
	dir := t.TempDir()
	copyTo := func(src, name string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tiny := filepath.Join("testdata", "tiny.map")
	tinyGrid, err := grid.LoadMap(tiny, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		opt  grid.LoadOptions
		want string // the grid, or part of the error
	}{
		{"moving ai", tiny, grid.LoadOptions{}, renderRows(tinyGrid)},
		{"moving ai, other extension", copyTo(tiny, "tiny.txt"), grid.LoadOptions{}, renderRows(tinyGrid)},
		{"moving ai, no extension", copyTo(tiny, "tiny"), grid.LoadOptions{}, renderRows(tinyGrid)},
		{"tmx", filepath.Join(tiledDir, "walls-zlib.tmx"), grid.LoadOptions{Tiled: grid.TiledOptions{Layer: "walls"}}, wallsWant},
		{"tmj", filepath.Join(tiledDir, "property.tmj"), grid.LoadOptions{Tiled: grid.TiledOptions{Property: "collides"}}, "....\n##.#\n...#"},
		{"tmj as json", copyTo(filepath.Join(tiledDir, "walls-csv.tmj"), "w.json"), grid.LoadOptions{Tiled: grid.TiledOptions{Layer: "walls"}}, wallsWant},
		{"upper-case extension", copyTo(filepath.Join(tiledDir, "single.tmx"), "S.TMX"), grid.LoadOptions{}, "...\n.#.\n..#"},
		{"tmx, default options", filepath.Join(tiledDir, "single.tmx"), grid.LoadOptions{}, "...\n.#.\n..#"},
		{"png", filepath.Join(imageDir, "gray.png"), grid.LoadOptions{}, "##..\n##.."},
		{"png, threshold", filepath.Join(imageDir, "gray.png"), grid.LoadOptions{Image: grid.ImageOptions{Threshold: 0.25}}, "#...\n#..."},
		{"gif", filepath.Join(imageDir, "paletted.gif"), grid.LoadOptions{}, ".#.#\n..#."},
		{"jpeg", copyTo(filepath.Join(imageDir, "blocks.jpg"), "b.jpeg"), grid.LoadOptions{}, ""},

		{"tmx, several layers", filepath.Join(tiledDir, "walls-csv.tmx"), grid.LoadOptions{}, `map has 2 tile layers ("ground", "walls")`},
		{"bad tmx", filepath.Join(tiledDir, "bad", "zstd.tmx"), grid.LoadOptions{}, "zstd compression is not supported"},
		{"bad png", filepath.Join(imageDir, "bad", "huge.png"), grid.LoadOptions{}, "more than 268435456"},
		{"png that is a tmx", copyTo(filepath.Join(tiledDir, "single.tmx"), "s.png"), grid.LoadOptions{}, "unknown image format"},
		{"map that is a png", copyTo(filepath.Join(imageDir, "gray.png"), "g.map"), grid.LoadOptions{}, "g.map:1: "},
		{"missing", filepath.Join(dir, "gone.tmx"), grid.LoadOptions{}, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := grid.Load(tc.path, tc.opt)
			if tc.want == "" { // the JPEG: blocks 8 pixels on a side
				if err != nil || g.Width() != 16 || g.Passable(image.Pt(0, 0)) || !g.Passable(image.Pt(8, 0)) || g.Passable(image.Pt(15, 15)) {
					t.Fatalf("Load(%s): %v, %v, want a 16×16 checkerboard of 8×8 blocks", tc.path, g, err)
				}
				return
			}
			if strings.ContainsAny(tc.want, "#.") && !strings.Contains(tc.want, " ") {
				if err != nil {
					t.Fatalf("Load(%s): %v", tc.path, err)
				}
				checkGrid(t, g, tc.want)
				return
			}
			if g != nil || err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "grid: ") ||
				!strings.Contains(err.Error(), tc.path) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Load(%s) error\ngot  %v\nwant one line starting grid:, naming the file and holding %q", tc.path, err, tc.want)
			}
		})
	}
	g, err := grid.Load(filepath.Join(imageDir, "gray.png"), grid.LoadOptions{Grid: grid.Options{Connectivity: grid.Four}})
	if err != nil || g.Connectivity() != grid.Four {
		t.Errorf("Load with grid options: %v, %v, want a 4-connected grid", g, err)
	}
	if _, err := grid.Load(filepath.Join(tiledDir, "single.tmx"), grid.LoadOptions{Grid: grid.Options{Costs: []float64{1}}}); err == nil {
		t.Error("Load with 1 terrain cost for 9 cells succeeded, want an error")
	}
	var fe *grid.FormatError
	if _, err := grid.Load(filepath.Join(tiledDir, "bad", "csv-token.tmx"), grid.LoadOptions{}); !errors.As(err, &fe) {
		t.Errorf("Load of a bad map: %v, want a *FormatError", err)
	}
}

// renderRows draws g as '#' and '.' rows.
func renderRows(g *grid.Grid) string {
	var sb strings.Builder
	for y := range g.Height() {
		for x := range g.Width() {
			c := byte('#')
			if g.Passable(image.Pt(x, y)) {
				c = '.'
			}
			sb.WriteByte(c)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
