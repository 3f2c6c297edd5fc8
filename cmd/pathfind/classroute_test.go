package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// gate40 has a wall across the middle with a gap two cells wide.
const gate40 = `type octile
height 12
width 40
map
....................@...................
....................@...................
....................@...................
....................@...................
....................@...................
........................................
........................................
....................@...................
....................@...................
....................@...................
....................@...................
....................@...................
`

// TestRouteAnnotated routes units of sizes 1 to 3 through the two-cell
// gap with an annotated graph file (as hpabuild -sizes writes it): sizes 1
// and 2 pass, at no less than the optimum printed beside the cost, size 3
// does not; a size the file does not serve, -smooth with it, and -size
// with a plain graph file are refused.
func TestRouteAnnotated(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "gate.map", gate40)
	g, err := grid.LoadMap(m, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{Size: 1}, {Size: 2}, {Size: 3}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := a.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "gate.hpn")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size   int
		status string
	}{{1, "found"}, {2, "found"}, {3, "unreachable"}} {
		out, errOut, code := pathfind(t, "route", "-map", m, "-from", "1,1", "-to", "36,8", "-algo", "hpa", "-graph", file, "-size", strconv.Itoa(tc.size))
		if code != 0 {
			t.Fatalf("size %d: exit %d: %s", tc.size, code, errOut)
		}
		if got := field(t, out, "status"); got != tc.status {
			t.Errorf("size %d: status %s, want %s", tc.size, got, tc.status)
		}
		if tc.status != "found" {
			continue
		}
		cost, err1 := strconv.ParseFloat(field(t, out, "cost"), 64)
		opt, err2 := strconv.ParseFloat(field(t, out, "optimal"), 64)
		if err1 != nil || err2 != nil || cost < opt-1e-9 || cost > opt*1.2 {
			t.Errorf("size %d: cost %v, optimal %v (%v, %v)", tc.size, cost, opt, err1, err2)
		}
	}
	plain := filepath.Join(dir, "gate.hpa")
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if _, err := hg.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-graph", file, "-size", "4"}, 1, "serves units of sizes [1 2 3], not 4"},
		{[]string{"-graph", file, "-smooth"}, 2, "takes neither -smooth nor -png"},
		{[]string{"-graph", plain, "-size", "2"}, 2, "takes an annotated graph file"},
	} {
		args := append([]string{"route", "-map", m, "-from", "1,1", "-to", "36,8", "-algo", "hpa"}, tc.args...)
		if _, errOut, code := pathfind(t, args...); code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
