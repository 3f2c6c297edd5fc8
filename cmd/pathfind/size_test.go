package main

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// gap10 has a wall along row 2 with a gap one cell wide at (3,2) and two
// free columns at its right end, 8 and 9. A unit of size 1 passes the gap:
// from 0,0 to 0,3 it steps diagonally to (1,1), then 2 east, 2 south and 3
// west (no corner cutting), 7+√2. A unit of size 2 (anchored at its
// top-left cell) cannot: it goes 8 east along row 0, 3 south down column 8
// and 8 west along row 3, 19, every diagonal there putting a side
// footprint on the wall.
const gap10 = `type octile
height 6
width 10
map
..........
..........
@@@.@@@@..
..........
..........
..........
`

// narrow10 is gap10 with the right end closed down to one free column: no
// way across is wide enough for size 2.
const narrow10 = `type octile
height 6
width 10
map
..........
..........
@@@.@@@@@.
..........
..........
..........
`

func TestRouteSize(t *testing.T) {
	dir := t.TempDir()
	gap := writeFile(t, dir, "gap10.map", gap10)
	narrow := writeFile(t, dir, "narrow10.map", narrow10)
	tests := []struct {
		name, mapPath, size string
		algos               []string
		status, cost        string
		steps               int
	}{
		{"size 1 through the gap", gap, "1", []string{"astar", "jps", "dijkstra", "baseline", "hpa"}, "found", "8.41421", 8},
		{"size 2 around", gap, "2", []string{"astar", "jps", "dijkstra", "baseline"}, "found", "19.00000", 19},
		{"size 2 too narrow", narrow, "2", []string{"astar", "jps", "dijkstra", "baseline", "hpa"}, "unreachable", "-", 0},
	}
	for _, tc := range tests {
		for _, algo := range tc.algos {
			t.Run(tc.name+"/"+algo, func(t *testing.T) {
				out, errOut, code := pathfind(t, "route", "-map", tc.mapPath, "-from", "0,0", "-to", "0,3", "-algo", algo, "-size", tc.size, "-path")
				if code != 0 || errOut != "" {
					t.Fatalf("status %d, stderr %q", code, errOut)
				}
				if got := field(t, out, "status"); got != tc.status {
					t.Fatalf("status %q, want %q\n%s", got, tc.status, out)
				}
				if got := field(t, out, "cost"); got != tc.cost {
					t.Errorf("cost %s, want %s", got, tc.cost)
				}
				if got := field(t, out, "steps"); got != strconv.Itoa(tc.steps) {
					t.Errorf("steps %s, want %d", got, tc.steps)
				}
				path := parsePathLine(t, field(t, out, "path"))
				if tc.status != "found" {
					if path != nil {
						t.Errorf("path %v, want none", path)
					}
					if why := field(t, out, "why"); tc.size != "1" && !strings.Contains(why, "too narrow for a unit of size "+tc.size) {
						t.Errorf("why %q, want the unit's size named", why)
					}
					return
				}
				checkUnitPath(t, tc.mapPath, path, tc.size)
			})
		}
	}
}

// TestRouteSizeHPA builds the HPA* graph on the sized grid: its path need
// not be optimal, but every step must fit the unit.
func TestRouteSizeHPA(t *testing.T) {
	gap := writeFile(t, t.TempDir(), "gap10.map", gap10)
	out, errOut, code := pathfind(t, "route", "-map", gap, "-from", "0,0", "-to", "0,3", "-algo", "hpa", "-size", "2", "-path")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	if got := field(t, out, "status"); got != "found" {
		t.Fatalf("status %q, want found\n%s", got, out)
	}
	checkUnitPath(t, gap, parsePathLine(t, field(t, out, "path")), "2")
}

func TestRouteSizeErrors(t *testing.T) {
	gap := writeFile(t, t.TempDir(), "gap10.map", gap10)
	route := func(args ...string) []string {
		return append([]string{"route", "-map", gap, "-from", "0,0", "-to", "0,3"}, args...)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"size 0", route("-size", "0"), 2, "-size 0, want 1 to 255"},
		{"size too large", route("-size", "256"), 2, "-size 256, want 1 to 255"},
		{"navmesh", route("-size", "2", "-algo", "navmesh"), 2, "-algo navmesh takes no -size"},
		{"graph file", route("-size", "2", "-algo", "hpa", "-graph", "g.hpa"), 2, "-size 2 with -graph takes an annotated graph file"},
		{"start without room", []string{"route", "-map", gap, "-from", "9,0", "-to", "0,3", "-size", "2"}, 1,
			"start 9,0 leaves no room for a unit of size 2: the largest free square there is 1×1"},
		{"goal without room", []string{"route", "-map", gap, "-from", "0,3", "-to", "3,1", "-size", "3"}, 1,
			"goal 3,1 leaves no room for a unit of size 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("status %d, stderr %q; want status %d and %q", code, errOut, tc.code, tc.want)
			}
		})
	}
	// size 1 is the default, and navmesh takes it.
	if _, errOut, code := pathfind(t, route("-size", "1", "-algo", "navmesh")...); code != 0 {
		t.Errorf("-size 1 -algo navmesh: status %d, stderr %q", code, errOut)
	}
}

// checkUnitPath checks, from the map's cells alone, that path moves a unit
// of the given size (a decimal string) from anchor to anchor by legal
// steps: every footprint free, and both side footprints of a diagonal step.
func checkUnitPath(t *testing.T, mapPath string, path []image.Point, size string) {
	t.Helper()
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := int(size[0] - '0')
	fits := func(p image.Point) bool {
		for y := p.Y; y < p.Y+k; y++ {
			for x := p.X; x < p.X+k; x++ {
				if !g.Passable(image.Pt(x, y)) {
					return false
				}
			}
		}
		return true
	}
	for i, p := range path {
		if !fits(p) {
			t.Fatalf("path %v: anchor %d, %v, has a blocked cell under a unit of size %d", path, i, p, k)
		}
		if i == 0 {
			continue
		}
		q, d := path[i-1], p.Sub(path[i-1])
		if max(d.X, -d.X, d.Y, -d.Y) != 1 {
			t.Fatalf("path %v: step %d from %v to %v is not a move", path, i, q, p)
		}
		if d.X != 0 && d.Y != 0 && (!fits(image.Pt(p.X, q.Y)) || !fits(image.Pt(q.X, p.Y))) {
			t.Fatalf("path %v: step %d from %v to %v cuts a corner for a unit of size %d", path, i, q, p, k)
		}
	}
}
