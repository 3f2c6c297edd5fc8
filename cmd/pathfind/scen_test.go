package main

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// wall10Scen holds optima worked out by hand (√2 = 1.41421356…):
//
//	(0,0)→(3,5): 3 diagonal + 2 straight            = 2 + 3√2
//	(0,0)→(9,0): to (4,9) 9+4(√2−1), gap 2, to (9,0) 9+3(√2−1) = 13 + 7√2
//	(0,9)→(9,9): the bottom row                      = 9
//	(9,0)→(6,8): 3 diagonal + 5 straight             = 5 + 3√2
//	(4,4)→(4,4):                                     = 0
//	(2,7)→(7,7): 2√2 to (4,9), 2 through the gap, 1+√2 up = 3 + 3√2
const wall10Scen = "version 1\n" +
	"1\twall10.map\t10\t10\t0\t0\t3\t5\t6.24264069\n" +
	"5\twall10.map\t10\t10\t0\t0\t9\t0\t22.89949494\n" +
	"2\twall10.map\t10\t10\t0\t9\t9\t9\t9\n" +
	"2\twall10.map\t10\t10\t9\t0\t6\t8\t9.24264069\n" +
	"0\twall10.map\t10\t10\t4\t4\t4\t4\t0\n" +
	"1\twall10.map\t10\t10\t2\t7\t7\t7\t7.24264069\n"

func scenFiles(t *testing.T) (dir, mapPath, scenPath string) {
	dir = t.TempDir()
	return dir, writeFile(t, dir, "wall10.map", wall10), writeFile(t, dir, "wall10.map.scen", wall10Scen)
}

func TestScen(t *testing.T) {
	_, m, s := scenFiles(t)
	for _, algo := range algoNames3 {
		t.Run(algo, func(t *testing.T) {
			out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", algo)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			for name, want := range map[string]string{
				"scenarios": "6 (every 1 of 6)", "matched": "6", "mismatched": "0",
				"no path": "0", "illegal": "0", "algo": algo,
			} {
				if got := field(t, out, name); got != want {
					t.Errorf("%s %q, want %q\n%s", name, got, want, out)
				}
			}
			for _, name := range []string{"median", "mean", "p95", "mean expanded", "total"} {
				field(t, out, name)
			}
		})
	}
}

func TestScenJSON(t *testing.T) {
	_, m, s := scenFiles(t)
	for _, every := range []string{"1", "2", "4", "10"} {
		t.Run("every"+every, func(t *testing.T) {
			out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-every", every, "-json")
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			if strings.Count(out, "\n") != 1 {
				t.Errorf("output has %d lines, want 1:\n%s", strings.Count(out, "\n"), out)
			}
			var sum summary
			dec := json.NewDecoder(strings.NewReader(out))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&sum); err != nil {
				t.Fatalf("%v in %s", err, out)
			}
			want := map[string]int{"1": 6, "2": 3, "4": 2, "10": 1}[every]
			if sum.Scenarios != want || sum.Matched != sum.Scenarios {
				t.Errorf("scenarios %d, matched %d; want %d and %d", sum.Scenarios, sum.Matched, want, want)
			}
			if sum.Mismatched != 0 || sum.NoPath != 0 || sum.Illegal != 0 {
				t.Errorf("mismatched %d, no path %d, illegal %d; want 0", sum.Mismatched, sum.NoPath, sum.Illegal)
			}
			if sum.Map != m || sum.Scen != s || sum.Algo != "astar" || strconv.Itoa(sum.Every) != every {
				t.Errorf("got map %q scen %q algo %q every %d", sum.Map, sum.Scen, sum.Algo, sum.Every)
			}
			if sum.MedianUS <= 0 || sum.MeanUS <= 0 || sum.P95US < sum.MedianUS || sum.TotalSeconds <= 0 {
				t.Errorf("timings median %v mean %v p95 %v total %v", sum.MedianUS, sum.MeanUS, sum.P95US, sum.TotalSeconds)
			}
		})
	}
}

// TestScenMinBucket runs the scenarios of buckets 2 and above (three of
// wall10's six, numbers 1 to 3), all or every second one.
// TestScenRepeatProfile runs each query three times with a CPU profile.
func TestScenRepeatProfile(t *testing.T) {
	dir, m, s := scenFiles(t)
	prof := filepath.Join(dir, "cpu.pprof")
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-repeat", "3", "-cpuprofile", prof)
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	if got := field(t, out, "repeat"); got != "3 (each time the median of its runs)" {
		t.Errorf("repeat %q", got)
	}
	if got := field(t, out, "matched"); got != "6" {
		t.Errorf("matched %q, want 6", got)
	}
	b, err := os.ReadFile(prof)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile: %d bytes, %v; want a gzipped pprof profile", len(b), err)
	}
	if _, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-repeat", "0"); code != 2 || !strings.Contains(errOut, "-repeat 0, want 1 or more") {
		t.Errorf("-repeat 0: status %d, stderr %q", code, errOut)
	}
}

func TestScenMinBucket(t *testing.T) {
	_, m, s := scenFiles(t)
	for _, tc := range []struct {
		every, want string
		n           int
	}{{"1", "3 (every 1 of those of bucket 2 or above, of 6)", 3}, {"2", "2 (every 2 of those of bucket 2 or above, of 6)", 2}} {
		out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-min-bucket", "2", "-every", tc.every)
		if code != 0 || errOut != "" {
			t.Fatalf("status %d, stderr %q", code, errOut)
		}
		if got := field(t, out, "scenarios"); got != tc.want {
			t.Errorf("-every %s: scenarios %q, want %q", tc.every, got, tc.want)
		}
		out, _, _ = pathfind(t, "scen", "-map", m, "-scen", s, "-min-bucket", "2", "-every", tc.every, "-json")
		var sum summary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Scenarios != tc.n || sum.Matched != tc.n || sum.MinBucket != 2 {
			t.Errorf("-every %s: JSON scenarios %d, matched %d, min bucket %d; want %d, %d, 2", tc.every, sum.Scenarios, sum.Matched, sum.MinBucket, tc.n, tc.n)
		}
	}
	if _, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-min-bucket", "-1"); code != 2 || !strings.Contains(errOut, "-min-bucket -1") {
		t.Errorf("-min-bucket -1: status %d, stderr %q", code, errOut)
	}
}

func TestScenPaths(t *testing.T) {
	dir, m, s := scenFiles(t)
	out := filepath.Join(dir, "out", "paths.txt")
	if err := os.Mkdir(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Dir(out), "paths.txt", "old content\n")
	_, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-every", "1", "-paths", out)
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	scens, err := grid.LoadScenarios(s)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if last := lines[len(lines)-1]; last != "" {
		t.Fatalf("file does not end in a newline: %q", last)
	}
	lines = lines[:len(lines)-1]
	if len(lines) != len(scens) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(scens), b)
	}
	g, _ := grid.LoadMap(m, grid.Options{})
	for i, line := range lines {
		path := parsePathLine(t, strings.TrimSuffix(line, "\n"))
		checkPath(t, m, path, pointString(scens[i].Start), pointString(scens[i].Goal))
		if cost, _ := g.PathCost(path); !scens[i].Matches(cost) {
			t.Errorf("line %d: path costs %v, want %v", i, cost, scens[i].Optimal)
		}
	}
	if lines[4] != "4,4\n" {
		t.Errorf("line 4 %q, want the single cell 4,4", lines[4])
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only paths.txt (no temp files)", len(entries))
	}
}

func TestScenNoPathAndMismatch(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "sealed5.map", sealed5)
	s := writeFile(t, dir, "sealed5.map.scen", "version 1\n"+
		"0\tsealed5.map\t5\t5\t0\t0\t2\t2\t2.82842712\n"+ // unreachable
		"2\tsealed5.map\t5\t5\t0\t0\t4\t4\t8\n"+ // matches: around the ring
		"1\tsealed5.map\t5\t5\t0\t0\t4\t0\t5\n") // wrong optimum: 4
	paths := filepath.Join(dir, "paths.txt")
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-paths", paths, "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Scenarios != 3 || sum.Matched != 1 || sum.Mismatched != 1 || sum.NoPath != 1 || sum.Illegal != 0 {
		t.Errorf("got %+v, want 3 scenarios: 1 matched, 1 mismatched, 1 without path", sum)
	}
	b, _ := os.ReadFile(paths)
	if lines := strings.Split(string(b), "\n"); len(lines) != 4 || lines[0] != "none" {
		t.Errorf("paths file %q, want none first and 3 lines", b)
	}
	out, _, code = pathfind(t, "scen", "-map", m, "-scen", s)
	if code != 0 || !strings.Contains(out, "scenario 2: 0,0 to 4,0, optimal 5: cost 4") {
		t.Errorf("status %d, want 0 and the mismatch listed:\n%s", code, out)
	}
}

// brokenRouter jumps from the start to the goal in one step.
type brokenRouter struct{}

func (brokenRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	return append(dst, from, to), stats{cost: 1, status: core.Found}, nil
}

func TestScenIllegal(t *testing.T) {
	saved := algos
	t.Cleanup(func() { algos = saved })
	algos = append(algos[:len(algos):len(algos)], algo{name: "broken", doc: "test",
		build: func(*grid.Grid, *routerFlags) (router, error) { return brokenRouter{}, nil }})
	_, m, s := scenFiles(t)
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "broken")
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	if got := field(t, out, "illegal"); got == "0" {
		t.Errorf("illegal %s, want some", got)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, "illegal") {
		t.Errorf("stderr %q, want one line about illegal answers", errOut)
	}
}

// TestMovingAI runs every 20th den520d scenario, when the benchmarks are
// present, and expects each optimum matched.
func TestMovingAI(t *testing.T) {
	dir := testmap.MovingAIDir()
	m := filepath.Join(dir, "den520d.map")
	if _, err := os.Stat(m); err != nil {
		t.Skipf("benchmarks absent: %v", err)
	}
	for _, algo := range algoNames3 {
		t.Run(algo, func(t *testing.T) {
			out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", m+".scen", "-every", "20", "-json", "-algo", algo)
			if code != 0 {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			var sum summary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Scenarios == 0 || sum.Matched != sum.Scenarios || sum.Illegal != 0 {
				t.Errorf("got %+v, want every scenario matched", sum)
			}
		})
	}
}
