package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// countColour counts the pixels of img painted with palette entry col.
func countColour(img image.Image, col uint8) int {
	want := color.RGBAModel.Convert(pictureColours[col])
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				n++
			}
		}
	}
	return n
}

var colourNames = map[uint8]string{
	colExpanded: "expanded", colOpen: "open", colBorder: "cluster border", colNode1: "level-1 node",
	colAbstract: "abstract path", colPath: "cell path", colSmooth: "smoothed path", colStart: "start", colGoal: "goal",
	colNavmesh: "navmesh path", colMeshEdge: "mesh outline", colPortal: "portal",
}

func TestRoutePNG(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	// Clusters of 8 make the long query go through the abstract graph.
	graph8, _ := writeGraph(t, g, hpa.Options{ClusterSize: 8}, dir, "demo8.hpa")
	tests := []struct {
		name  string
		args  []string
		want  []uint8 // colours that must be present
		avoid []uint8 // colours that must be absent
	}{
		{"astar", nil, []uint8{colExpanded, colOpen, colPath, colStart, colGoal}, []uint8{colSmooth, colAbstract}},
		{"astar plain", []string{"-plain"}, []uint8{colExpanded, colOpen, colPath}, nil},
		{"dijkstra", []string{"-algo", "dijkstra"}, []uint8{colExpanded, colPath}, nil},
		{"baseline", []string{"-algo", "baseline"}, []uint8{colPath, colStart, colGoal}, []uint8{colExpanded}},
		{"hpa", []string{"-algo", "hpa", "-graph", graph8}, []uint8{colBorder, colNode1, colAbstract, colPath}, []uint8{colSmooth}},
		{"hpa smooth", []string{"-algo", "hpa", "-graph", graph8, "-smooth"}, []uint8{colBorder, colAbstract, colPath, colSmooth}, nil},
		{"navmesh", []string{"-algo", "navmesh"}, []uint8{colMeshEdge, colPortal, colNavmesh, colStart, colGoal}, []uint8{colPath, colExpanded, colSmooth, colAbstract}},
		{"navmesh radius", []string{"-algo", "navmesh", "-radius", "0.5", "-from", "4,4", "-to", "12,8"}, []uint8{colMeshEdge, colPortal, colNavmesh}, []uint8{colPath}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".png")
			args := append([]string{"route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-png", out}, tc.args...)
			stdout, errOut, code := pathfind(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			if got := field(t, stdout, "picture"); !strings.HasPrefix(got, out+" (1024×768 pixels") {
				t.Errorf("picture line %q, want the file and its size", got)
			}
			img := readPNG(t, out)
			// 64×48 cells of 16×16 pixels.
			if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 768 {
				t.Errorf("picture is %v, want 1024×768", b)
			}
			for _, col := range tc.want {
				if countColour(img, col) == 0 {
					t.Errorf("no %s pixels", colourNames[col])
				}
			}
			for _, col := range tc.avoid {
				if n := countColour(img, col); n > 0 {
					t.Errorf("%d %s pixels, want none", n, colourNames[col])
				}
			}
		})
	}
}

func TestRoutePNGErrors(t *testing.T) {
	dir := t.TempDir()
	route := []string{"route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-png"}
	tests := []struct {
		name, png, want string
	}{
		{"missing folder", filepath.Join(dir, "missing", "r.png"), "missing"},
		{"folder is a file", filepath.Join(writeFile(t, dir, "file", "x"), "r.png"), "not a directory"},
		{"target is a folder", dir, "writing " + dir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, append(route, tc.png)...)
			if code != 1 {
				t.Errorf("status %d, want 1", code)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want one line mentioning %q", errOut, tc.want)
			}
		})
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestCanvasScale checks the scale chosen for small and large maps and the
// rule that a block of cells is drawn blocked when most of its cells are.
func TestCanvasScale(t *testing.T) {
	t.Run("up", func(t *testing.T) {
		c := newCanvas(loadDemo(t))
		if c.k != 1 || c.s != 16 || c.img.Rect != image.Rect(0, 0, 1024, 768) {
			t.Errorf("k %d, s %d, picture %v; want 1, 16, 1024×768", c.k, c.s, c.img.Rect)
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
		c := newCanvas(g)
		if c.k != 3 || c.s != 1 || c.img.Rect != image.Rect(0, 0, 684, 1) {
			t.Fatalf("k %d, s %d, picture %v; want 3, 1, 684×1", c.k, c.s, c.img.Rect)
		}
		for _, tc := range []struct {
			x    int
			want uint8
		}{{0, colBlocked}, {1, colFree}, {2, colFree}, {683, colBlocked}} {
			if got := c.img.ColorIndexAt(tc.x, 0); got != tc.want {
				t.Errorf("pixel %d has colour %d, want %d", tc.x, got, tc.want)
			}
		}
	})
}
