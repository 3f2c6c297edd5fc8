package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-nav/cairn/navmesh"
)

// TestServeMesh serves the demo map with its navmesh read from a file, on
// a loopback port as "pathfind serve -mesh" does, and finds the navmesh
// routes of a server that builds its own mesh: the same paths from a file
// of that mesh, and as long from one of the map's rectangles, which the
// server is seen to serve.
func TestServeMesh(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	built := newTestServer(t, "demo.map", g)
	built0, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, opt := range []navmesh.Options{{}, {Rectangles: true}} {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := openServer(demoMap, "", writeMesh(t, m, dir, "demo.nav"), serveLimits{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := srv.cur.Load().nm.NumPolys(); got != m.NumPolys() {
			t.Errorf("%+v: the server's mesh has %d polygons, the file's %d", opt, got, m.NumPolys())
		}
		if convex := built0.NumPolys(); opt.Rectangles && m.NumPolys() == convex {
			t.Fatalf("the rectangles are as many as the convex polygons, %d: the test cannot tell the meshes apart", convex)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- serveUntil(ctx, ln, srv.handler()) }()
		for _, sc := range demoNavScen {
			body := routeBody(sc.from, sc.to)
			res, err := client.Post("http://"+ln.Addr().String()+"/api/route", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			var read routeResponse
			if err := decodeJSON(res, &read); err != nil {
				t.Fatalf("route %s: %v", body, err)
			}
			a, b := resultOf(t, read, "navmesh"), resultOf(t, postRoute(t, built, sc.from, sc.to), "navmesh")
			name := fmt.Sprintf("%+v: %s to %s", opt, pointString(sc.from), pointString(sc.to))
			if a.Status != b.Status || (a.Length == nil) != (b.Length == nil) {
				t.Fatalf("%s: %s with the file's mesh, %s with a built one", name, a.Status, b.Status)
			}
			if a.Length != nil && math.Abs(*a.Length-*b.Length) > 1e-9 {
				t.Errorf("%s: %v long with the file's mesh, %v with a built one", name, *a.Length, *b.Length)
			}
			if !opt.Rectangles && fmt.Sprint(a.Path) != fmt.Sprint(b.Path) {
				t.Errorf("%s: path %v with the file's mesh, %v with a built one", name, a.Path, b.Path)
			}
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serveUntil: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serveUntil did not return after the context ended")
		}
	}
}

// decodeJSON decodes the JSON answer of res, which must be 200 OK.
func decodeJSON(res *http.Response, out any) error {
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s", res.Status)
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// TestServeMeshRefused sees serve refuse at startup a mesh of another map,
// of another radius, of polygons, and -mesh without -map. The port is
// taken, so that a mesh wrongly accepted fails on it rather than serve.
func TestServeMeshRefused(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	other := g.WithCells(image.Rect(3, 3, 4, 4), false)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"another map", []string{"-map", demoMap, "-mesh", writeGridMesh(t, other, navmesh.Options{}, dir, "other.nav")}, 1, "mesh was built for another map or agent radius"},
		{"another radius", []string{"-map", demoMap, "-mesh", writeGridMesh(t, g, navmesh.Options{Radius: 0.4}, dir, "r.nav")}, 1, "mesh was built for another map or agent radius"},
		{"polygons", []string{"-map", demoMap, "-mesh", writeSquareMesh(t, dir)}, 1, "built from polygons"},
		{"not a mesh", []string{"-map", demoMap, "-mesh", demoMap}, 1, "not a mesh file"},
		{"no map", []string{"-mesh", writeGridMesh(t, g, navmesh.Options{}, dir, "demo.nav")}, 2, "-map is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "-addr", busy.Addr().String()}, tc.args...)
			out, errOut, code := pathfind(t, args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q, stdout %q; want %d and %q", code, errOut, out, tc.code, tc.want)
			}
			if tc.code == 1 && !strings.Contains(errOut, "serve wants the mesh of demo.map for a point agent") {
				t.Errorf("stderr %q does not say which mesh serve wants", errOut)
			}
		})
	}
}
