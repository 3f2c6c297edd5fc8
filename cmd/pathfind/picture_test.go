package main

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/hpa"
)

// bands returns the rows that the map of a picture drawn by the commands
// spans, [top, bottom): the title band is above it and the legends below.
// Only bands of text leave the picture's first column white.
func bands(t *testing.T, img image.Image) (top, bottom int) {
	t.Helper()
	b := img.Bounds()
	top, bottom = -1, -1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		if !sameColour(img.At(b.Min.X, y), picture.Paper) {
			if top < 0 {
				top = y
			}
			bottom = y + 1
		}
	}
	if top < 0 {
		t.Fatalf("picture %v is all white down its first column", b)
	}
	return top, bottom
}

func sameColour(c color.Color, col picture.Colour) bool {
	return color.RGBAModel.Convert(c) == color.RGBAModel.Convert(col)
}

// countIn returns the number of pixels of colour col in rows [y0, y1) of
// img.
func countIn(img image.Image, y0, y1 int, col picture.Colour) int {
	b := img.Bounds()
	return picture.Count(img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(b.Min.X, y0, b.Max.X, y1)), col)
}

// checkTitle checks that rows [0, top) of img hold dark text on white.
func checkTitle(t *testing.T, img image.Image, top int) {
	t.Helper()
	text, paper := countIn(img, 0, top, picture.Text), countIn(img, 0, top, picture.Paper)
	if text < 100 || text+paper != img.Bounds().Dx()*top {
		t.Errorf("title band of %d rows: %d text and %d white pixels, want text on white", top, text, paper)
	}
}

// checkPin checks that a pin of colour col is drawn on the pixel ctr: a
// disc of that colour about 20 pixels wide around it, ringed dark.
func checkPin(t *testing.T, img image.Image, ctr image.Point, col picture.Colour) {
	t.Helper()
	r := image.Rectangle{Min: ctr, Max: ctr}.Inset(-12)
	sub := img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
	if n, ring := picture.Count(sub, col), picture.Count(sub, picture.Text); n < 150 || ring < 40 {
		t.Errorf("pin at %v: %d pixels of colour %d and %d dark ones within 12, want a ringed disc", ctr, n, col, ring)
	}
}

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	img, err := picture.ReadPNG(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

var colourNames = map[picture.Colour]string{
	picture.Expanded: "expanded", picture.Open: "open", picture.Border: "cluster border", picture.Node1: "level-1 node",
	picture.Abstract: "abstract path", picture.Path: "cell path", picture.Smooth: "smoothed path", picture.Start: "start", picture.Goal: "goal",
	picture.Navmesh: "navmesh path", picture.MeshEdge: "mesh outline", picture.Portal: "portal",
	picture.Node2: "level-2 node", picture.Plain: "plain A* path", picture.Ghost: "other path", picture.Blocked: "blocked",
}

func TestRoutePNG(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	// Clusters of 8 make the long query go through the abstract graph.
	graph8, _ := writeGraph(t, g, hpa.Options{ClusterSize: 8}, dir, "demo8.hpa")
	tests := []struct {
		name  string
		args  []string
		want  []picture.Colour // colours that must be present, in the map and the legend
		avoid []picture.Colour // colours that must be absent
	}{
		{"astar", nil, []picture.Colour{picture.Expanded, picture.Open, picture.Path, picture.Start, picture.Goal}, []picture.Colour{picture.Smooth, picture.Abstract}},
		{"astar plain", []string{"-plain"}, []picture.Colour{picture.Expanded, picture.Open, picture.Path}, nil},
		{"dijkstra", []string{"-algo", "dijkstra"}, []picture.Colour{picture.Expanded, picture.Path}, nil},
		{"baseline", []string{"-algo", "baseline"}, []picture.Colour{picture.Path, picture.Start, picture.Goal}, []picture.Colour{picture.Expanded}},
		{"hpa", []string{"-algo", "hpa", "-graph", graph8}, []picture.Colour{picture.Border, picture.Node1, picture.Abstract, picture.Path}, []picture.Colour{picture.Smooth}},
		{"hpa smooth", []string{"-algo", "hpa", "-graph", graph8, "-smooth"}, []picture.Colour{picture.Border, picture.Abstract, picture.Path, picture.Smooth}, nil},
		{"navmesh", []string{"-algo", "navmesh"}, []picture.Colour{picture.MeshEdge, picture.Portal, picture.Navmesh, picture.Start, picture.Goal}, []picture.Colour{picture.Path, picture.Expanded, picture.Smooth, picture.Abstract}},
		{"navmesh radius", []string{"-algo", "navmesh", "-radius", "0.5", "-from", "4,4", "-to", "12,8"}, []picture.Colour{picture.MeshEdge, picture.Portal, picture.Navmesh}, []picture.Colour{picture.Path}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".png")
			args := append([]string{"route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-png", out}, tc.args...)
			stdout, errOut, code := pathfind(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			img := readPNG(t, out)
			// 64×48 cells of 16×16 pixels, a title above and a legend below.
			top, bottom := bands(t, img)
			b := img.Bounds()
			if b.Dx() != 1024 || bottom-top != 768 || top < 16 || b.Dy()-bottom < 16 {
				t.Fatalf("picture is %v with the map in rows %d to %d, want 1024 wide, 768 rows of map and bands of text above and below", b, top, bottom)
			}
			if got, want := field(t, stdout, "picture"), fmt.Sprintf("%s (1024×%d pixels, 16×16 a cell)", out, b.Dy()); got != want {
				t.Errorf("picture line %q, want %q", got, want)
			}
			checkTitle(t, img, top)
			// The last -from and -to win.
			var from, to image.Point
			for i := 1; i < len(args); i++ {
				p, _ := parsePoint(args[i])
				switch args[i-1] {
				case "-from":
					from = p
				case "-to":
					to = p
				}
			}
			checkPin(t, img, from.Mul(16).Add(image.Pt(8, 8+top)), picture.Start)
			checkPin(t, img, to.Mul(16).Add(image.Pt(8, 8+top)), picture.Goal)
			if n := countIn(img, bottom, b.Dy(), picture.Text); n < 100 {
				t.Errorf("%d text pixels in the legend, want its labels", n)
			}
			for _, col := range append(tc.want, picture.Start, picture.Goal) {
				if countIn(img, top, bottom, col) == 0 {
					t.Errorf("no %s pixels in the map", colourNames[col])
				}
				if countIn(img, bottom, b.Dy(), col) == 0 {
					t.Errorf("no %s swatch in the legend", colourNames[col])
				}
			}
			for _, col := range tc.avoid {
				if n := picture.Count(img, col); n > 0 {
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
		{"target is a folder", dir, "-png " + dir + ": is a directory"},
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

// TestRouteAlgo checks the name of the search in a route picture's title,
// told from the trace it drew.
func TestRouteAlgo(t *testing.T) {
	tests := []struct {
		name     string
		smoothed bool
		t        *trace
		want     string
	}{
		{"no trace", false, nil, "baseline A*"},
		{"grid", false, &trace{}, "grid search (astar, jps or dijkstra)"},
		{"hpa", false, &trace{graph: &hpa.Graph{}}, "HPA*"},
		{"hpa smooth", true, &trace{graph: &hpa.Graph{}}, "HPA* + smoothing"},
	}
	for _, tc := range tests {
		if got := routeAlgo(tc.smoothed, tc.t); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
