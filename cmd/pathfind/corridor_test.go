package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
)

// TestScenCorridor runs the demo map's hand-written scenarios with -algo
// corridor: every answer legal (scen checks each against the map), the
// unreachable one unreachable, and no path shorter than the navmesh's
// exact one, nor more than 10 % longer.
func TestScenCorridor(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	scenPath := writeDemoNavScen(t, dir)
	paths := filepath.Join(dir, "paths.txt")
	out, errOut, code := pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-algo", "corridor", "-json", "-paths", paths)
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sum); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	n := len(demoNavScen)
	if sum.Algo != "corridor" || sum.Scenarios != n || sum.Matched+sum.Mismatched != n-1 || sum.NoPath != 1 || sum.Illegal != 0 {
		t.Errorf("got %s, want %d scenarios: %d found, 1 without path, none illegal", out, n, n-1)
	}
	if sum.MeanRatio == nil || sum.MaxRatio == nil || sum.Longer == nil {
		t.Fatalf("no ratios or longer in %s", out)
	}
	b, err := os.ReadFile(paths)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("paths file %q, want %d lines", b, n)
	}
	c := gridcheck.New(g, 0)
	for i, line := range lines {
		want := demoNavScen[i]
		if want.nav < 0 {
			if line != "none" {
				t.Errorf("line %d %q, want none", i, line)
			}
			continue
		}
		length, err := c.Path(parseVecLine(t, line), picture.Centre(want.from), picture.Centre(want.to))
		if err != nil {
			t.Errorf("line %d %q: %v", i, line, err)
			continue
		}
		// Six decimals in the file: allow their rounding.
		if length < want.nav-1e-5 || length > 1.1*want.nav+1e-5 {
			t.Errorf("line %d: length %v, the exact navmesh path's %v", i, length, want.nav)
		}
	}
}

// TestRouteCorridor answers one long query on the demo map and one through
// the rooms' gap, which -radius 0.5 closes, with -algo corridor.
func TestRouteCorridor(t *testing.T) {
	dir := t.TempDir()
	rm := writeFile(t, dir, "rooms.map", rooms)
	for _, tc := range []struct {
		name   string
		args   []string
		status string
		min    float64 // the exact search's length; 0 for none
	}{
		{"long", []string{"-map", demoMap, "-from", "3,3", "-to", "60,30"}, "found", 67.16125809783014},
		{"through the gap", []string{"-map", rm, "-from", "3,4", "-to", "9,4"}, "found", 2*math.Hypot(2.5, 0.5) + 1},
		{"gap open for a small agent", []string{"-map", rm, "-from", "3,4", "-to", "9,4", "-radius", "0.25"}, "found", 2*math.Hypot(2.3125, 0.75+0x1p-16) + 1.375},
		{"gap closed", []string{"-map", rm, "-from", "3,4", "-to", "9,4", "-radius", "0.5"}, "unreachable", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, append(append([]string{"route"}, tc.args...), "-algo", "corridor", "-path")...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			if got := field(t, out, "status"); got != tc.status {
				t.Fatalf("status %q, want %q\n%s", got, tc.status, out)
			}
			if tc.min == 0 {
				return
			}
			cost, err := strconv.ParseFloat(field(t, out, "cost"), 64)
			if err != nil || cost < tc.min-1e-5 || cost > 1.1*tc.min {
				t.Errorf("cost %q, the exact search's %v", field(t, out, "cost"), tc.min)
			}
		})
	}
}

// TestOnePassFlag checks -one-pass: a corridor route with it is legal,
// as long as or longer than without, and the flag is refused with other
// algorithms and, with -mesh alone, without -algo corridor.
func TestOnePassFlag(t *testing.T) {
	cost := func(args ...string) float64 {
		t.Helper()
		out, errOut, code := pathfind(t, append([]string{"route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-algo", "corridor"}, args...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: status %d, stderr %q", args, code, errOut)
		}
		c, err := strconv.ParseFloat(field(t, out, "cost"), 64)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if one, two := cost("-one-pass"), cost(); one < two-1e-9 || one < 67.16125809783014-1e-5 {
		t.Errorf("-one-pass cost %v, without %v (the exact search's 67.16)", one, two)
	}
	mesh := writeGridMesh(t, loadDemo(t), navmesh.Options{}, t.TempDir(), "demo.nav")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-algo", "navmesh", "-one-pass"}, "-algo navmesh takes no -one-pass"},
		{[]string{"scen", "-map", demoMap, "-scen", "x.scen", "-one-pass"}, "-algo astar takes no -one-pass"},
		{[]string{"route", "-mesh", mesh, "-from", "3.5,3.5", "-to", "60.5,30.5", "-one-pass"}, "-one-pass needs -algo corridor"},
		{[]string{"route", "-mesh", mesh, "-from", "3.5,3.5", "-to", "60.5,30.5", "-algo", "navmesh", "-one-pass"}, "-algo navmesh takes no -one-pass"},
	} {
		if _, errOut, code := pathfind(t, tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestMovingAICorridor runs every 20th den520d scenario with -algo
// corridor, when the benchmarks are present: every path found and legal,
// and shorter than the grid's on average.
func TestMovingAICorridor(t *testing.T) {
	m := filepath.Join(testmap.MovingAIDir(), "den520d.map")
	if _, err := os.Stat(m); err != nil {
		t.Skipf("benchmarks absent: %v", err)
	}
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", m+".scen", "-every", "20", "-json", "-algo", "corridor")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Scenarios == 0 || sum.Illegal != 0 || sum.NoPath != 0 || sum.MeanRatio == nil || *sum.MeanRatio >= 1 {
		t.Errorf("got %s, want every scenario found and legal, shorter than the grid's on average", out)
	}
	t.Logf("%d scenarios: length/optimum mean %.4f, max %.4f, %d longer than the grid's", sum.Scenarios, *sum.MeanRatio, *sum.MaxRatio, *sum.Longer)
}
