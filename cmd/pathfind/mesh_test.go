package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// TestMeshFlag routes and runs scenarios on a mesh read from a file, which
// must answer as the mesh built in memory does, and sees a mesh of another
// radius refused.
func TestMeshFlag(t *testing.T) {
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{Radius: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	meshPath := filepath.Join(t.TempDir(), "demo.nav")
	f, err := os.Create(meshPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, algo := range []string{"navmesh", "corridor"} {
		args := []string{"route", "-map", mapPath, "-from", "3,3", "-to", "60,30", "-algo", algo, "-radius", "0.4", "-path"}
		built, errOut, code := pathfind(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", algo, code, errOut)
		}
		read, errOut, code := pathfind(t, append(args, "-mesh", meshPath)...)
		if code != 0 {
			t.Fatalf("%s -mesh: exit %d: %s", algo, code, errOut)
		}
		for _, name := range []string{"status", "cost", "steps", "path"} {
			if a, b := field(t, built, name), field(t, read, name); a != b {
				t.Errorf("%s: %s %q with -mesh, %q without", algo, name, b, a)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-algo", "navmesh", "-radius", "0.5", "-mesh", meshPath}, 1, "another map or agent radius"},
		{[]string{"-algo", "navmesh", "-mesh", meshPath}, 1, "another map or agent radius"},
		{[]string{"-algo", "astar", "-mesh", meshPath}, 2, "-mesh"},
		{[]string{"-algo", "navmesh", "-mesh", filepath.Join(t.TempDir(), "missing.nav")}, 1, "missing.nav"},
		{[]string{"-algo", "navmesh", "-radius", "0.4", "-mesh", appended(t, meshPath)}, 1, "3 bytes after the end of the mesh"},
	} {
		args := append([]string{"route", "-map", mapPath, "-from", "3,3", "-to", "60,30"}, tc.args...)
		if _, errOut, code := pathfind(t, args...); code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// TestTileFlag routes on the demo map's mesh built in tiles and read back
// as built in tiles: the same length as the untiled mesh's, and a mesh
// file that is not of those tiles refused.
func TestTileFlag(t *testing.T) {
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	write := func(opt navmesh.Options) string {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "demo.nav")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := m.WriteTo(f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tiled, untiled := write(navmesh.Options{TileSize: 16}), write(navmesh.Options{})
	route := []string{"route", "-map", mapPath, "-from", "3,3", "-to", "60,30", "-algo", "navmesh"}
	want, errOut, code := pathfind(t, route...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, args := range [][]string{{"-tile", "16"}, {"-tile", "16", "-mesh", tiled}, {"-tile", "7"}} {
		out, errOut, code := pathfind(t, append(route, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if a, b := field(t, want, "cost"), field(t, out, "cost"); a != b {
			t.Errorf("%v: cost %q, untiled %q", args, b, a)
		}
	}
	if _, errOut, code := pathfind(t, append(route, "-tile", "16", "-mesh", untiled)...); code != 1 || !strings.Contains(errOut, "tiles") {
		t.Errorf("-tile 16 with an untiled mesh: exit %d, %q; want 1 and a word on tiles", code, errOut)
	}
}

// appended writes a copy of the file at path with three bytes after it,
// and returns the copy's path.
func appended(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(t.TempDir(), "long"+filepath.Ext(path))
	if err := os.WriteFile(long, append(b, 1, 2, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	return long
}
