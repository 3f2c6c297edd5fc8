package main

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/hpa"
)

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
}

func TestRoutePNG(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	// Clusters of 8 make the long query go through the abstract graph.
	graph8, _ := writeGraph(t, g, hpa.Options{ClusterSize: 8}, dir, "demo8.hpa")
	tests := []struct {
		name  string
		args  []string
		want  []picture.Colour // colours that must be present
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
			if got := field(t, stdout, "picture"); !strings.HasPrefix(got, out+" (1024×768 pixels") {
				t.Errorf("picture line %q, want the file and its size", got)
			}
			img := readPNG(t, out)
			// 64×48 cells of 16×16 pixels.
			if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 768 {
				t.Errorf("picture is %v, want 1024×768", b)
			}
			for _, col := range tc.want {
				if picture.Count(img, col) == 0 {
					t.Errorf("no %s pixels", colourNames[col])
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
