package picture

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

const demoMap = "../../../testdata/demo.map"

func loadDemo(t *testing.T) *grid.Grid {
	t.Helper()
	g, err := grid.LoadMap(demoMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCanvasScale checks the scale chosen for small and large maps and the
// rule that a block of cells is drawn blocked when most of its cells are.
func TestCanvasScale(t *testing.T) {
	t.Run("up", func(t *testing.T) {
		c := New(loadDemo(t))
		if c.k != 1 || c.s != 16 || c.sh.img.Rect != image.Rect(0, 0, 1024, 768) {
			t.Errorf("k %d, s %d, picture %v; want 1, 16, 1024×768", c.k, c.s, c.sh.img.Rect)
		}
		if got := c.PixelsPerCell(); got != 16 {
			t.Errorf("PixelsPerCell %v, want 16", got)
		}
	})
	t.Run("down", func(t *testing.T) {
		// 2050×2 cells: blocks of 3×3 cells (3×2 on the map), 684×1 pixels.
		const w, h = 2050, 2
		free := make([]bool, w*h)
		for i := range free {
			free[i] = true
		}
		block := func(x0, blocked int) { // block cells x0.. of both rows
			for i := range blocked {
				free[(i%2)*w+x0+i/2] = false
			}
		}
		block(0, 4)    // pixel 0: 4 of 6 blocked
		block(3, 3)    // pixel 1: 3 of 6, half
		block(2049, 2) // pixel 683: 2 of the 2 cells it covers
		g, err := grid.New(w, h, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := New(g)
		if c.k != 3 || c.s != 1 || c.sh.img.Rect != image.Rect(0, 0, 684, 1) {
			t.Fatalf("k %d, s %d, picture %v; want 3, 1, 684×1", c.k, c.s, c.sh.img.Rect)
		}
		if got := c.PixelsPerCell(); got != 1.0/3 {
			t.Errorf("PixelsPerCell %v, want 1/3", got)
		}
		for _, tc := range []struct {
			x    int
			want Colour
		}{{0, Blocked}, {1, Free}, {2, Free}, {683, Blocked}} {
			if got := Colour(c.sh.img.ColorIndexAt(tc.x, 0)); got != tc.want {
				t.Errorf("pixel %d has colour %d, want %d", tc.x, got, tc.want)
			}
		}
	})
}

// TestPalette checks that every colour has its own entry, except the mesh
// outline, which shares the level-1 node's, and that a Colour converts to
// its entry.
func TestPalette(t *testing.T) {
	if len(palette) != int(Ghost)+1 {
		t.Fatalf("palette has %d entries, want %d", len(palette), Ghost+1)
	}
	seen := map[color.Color]Colour{}
	for i, p := range palette {
		if p == nil {
			t.Fatalf("palette entry %d is missing", i)
		}
		if j, ok := seen[p]; ok && !(j == Node1 && Colour(i) == MeshEdge) {
			t.Errorf("colours %d and %d are both %v", j, i, p)
		}
		seen[p] = Colour(i)
		if got := color.RGBAModel.Convert(Colour(i)); got != p {
			t.Errorf("Colour(%d) converts to %v, want %v", i, got, p)
		}
	}
	for l, want := range []Colour{Node1, Node1, Node2, Node3, Node4, Node4} {
		if got := NodeColour(l); got != want {
			t.Errorf("NodeColour(%d) = %d, want %d", l, got, want)
		}
	}
}

// TestGridLines checks that cluster borders land on the first pixel column
// and row of each cluster and spare the walls.
func TestGridLines(t *testing.T) {
	g, err := grid.FromRows([]string{
		"....",
		"..#.",
		"....",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := New(g) // 16 pixels a cell
	c.GridLines(2, Border)
	for _, tc := range []struct {
		x, y int
		want Colour
	}{
		{32, 0, Border}, {32, 47, Border}, {0, 32, Border}, {63, 32, Border},
		{31, 0, Free}, {33, 0, Free}, {0, 31, Free},
		{40, 31, Blocked}, {32, 16, Blocked}, // the wall at (2, 1)
	} {
		if got := Colour(c.sh.img.ColorIndexAt(tc.x, tc.y)); got != tc.want {
			t.Errorf("pixel (%d, %d) has colour %d, want %d", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestDrawingAllocs checks that the drawing methods other than Mesh and
// those that draw text do not allocate.
func TestDrawingAllocs(t *testing.T) {
	g := loadDemo(t)
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	c := New(g)
	cells := []image.Point{{3, 3}, {4, 4}, {5, 4}}
	pts := []mgl64.Vec2{{3.5, 3.5}, {20.25, 9.5}, {60.5, 30.5}}
	allocs := testing.AllocsPerRun(10, func() {
		c.Cells(cells, Expanded)
		c.GridLines(8, Border)
		c.Nodes(hg)
		c.CellPath(cells, c.LineWidth(true), Path)
		c.Polyline(pts, c.LineWidth(false), Navmesh)
		c.Marker(cells[0], c.MarkerWidth(), Start)
		c.Uses(Goal)
	})
	if allocs != 0 {
		t.Errorf("%v allocations a picture, want 0", allocs)
	}
}

func TestWritePNG(t *testing.T) {
	dir := t.TempDir()
	c := New(loadDemo(t))
	c.Marker(image.Pt(3, 3), c.MarkerWidth(), Start)
	out := filepath.Join(dir, "demo.png")
	if err := c.WritePNG(out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != c.sh.img.Rect {
		t.Errorf("decoded picture is %v, want %v", img.Bounds(), c.sh.img.Rect)
	}
	b := c.sh.img.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if got, want := color.RGBAModel.Convert(img.At(x, y)), Colour(c.sh.img.ColorIndexAt(x, y)); got != color.RGBAModel.Convert(want) {
				t.Fatalf("pixel (%d, %d) decodes to %v, want colour %d", x, y, got, want)
			}
		}
	}

	// A folder in the way: the error names the path and no file is left.
	if err := c.WritePNG(dir); err == nil || !strings.Contains(err.Error(), "writing "+dir) {
		t.Errorf("writing over a folder: %v, want an error naming it", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want only demo.png", len(entries))
	}
}
