package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// wall10 is a 10×10 map with a wall in column 5 from row 0 to row 8: the
// only way between the halves is the gap at (5,9), entered and left by
// straight steps since corners may not be cut.
const wall10 = `type octile
height 10
width 10
map
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
..........
`

// sealed5 has a free cell at (2,2) that no path reaches.
const sealed5 = `type octile
height 5
width 5
map
.....
.@@@.
.@.@.
.@@@.
.....
`

var algoNames3 = []string{"astar", "dijkstra", "baseline"}

// pathfind runs the command and returns its stdout, stderr and status.
func pathfind(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// field returns the value of a "name   value" line of the output.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in output:\n%s", name, out)
	return ""
}

var tokenRE = regexp.MustCompile(`^(0|[1-9][0-9]*),(0|[1-9][0-9]*)$`)

// parsePathLine parses one line of -paths output or the -path field.
func parsePathLine(t *testing.T, line string) []image.Point {
	t.Helper()
	if line == "none" {
		return nil
	}
	var path []image.Point
	for tok := range strings.SplitSeq(line, " ") {
		if !tokenRE.MatchString(tok) {
			t.Fatalf("path token %q in line %q, want x,y", tok, line)
		}
		p, err := parsePoint(tok)
		if err != nil {
			t.Fatal(err)
		}
		path = append(path, p)
	}
	return path
}

func TestRoute(t *testing.T) {
	dir := t.TempDir()
	wall := writeFile(t, dir, "wall10.map", wall10)
	sealed := writeFile(t, dir, "sealed5.map", sealed5)
	tests := []struct {
		name, mapPath, from, to string
		status, cost            string
		steps                   int
	}{
		{"open", wall, "0,0", "3,5", "found", "6.24264", 5},
		{"around the wall", wall, "0,0", "9,0", "found", "22.89949", 20},
		{"same cell", wall, "4,4", "4,4", "found", "0.00000", 0},
		{"sealed", sealed, "0,0", "2,2", "unreachable", "-", 0},
	}
	for _, tc := range tests {
		for _, algo := range algoNames3 {
			t.Run(tc.name+"/"+algo, func(t *testing.T) {
				out, errOut, code := pathfind(t, "route", "-map", tc.mapPath, "-from", tc.from, "-to", tc.to, "-algo", algo, "-path")
				if code != 0 || errOut != "" {
					t.Fatalf("status %d, stderr %q", code, errOut)
				}
				if got := field(t, out, "status"); got != tc.status {
					t.Errorf("status %q, want %q", got, tc.status)
				}
				if tc.status == "unreachable" {
					if got := field(t, out, "why"); !strings.HasPrefix(got, "start and goal are in different connected regions of the map") {
						t.Errorf("why %q, want the regions named", got)
					}
				} else if strings.Contains(out, "\nwhy ") {
					t.Errorf("a why line for status %s:\n%s", tc.status, out)
				}
				if got := field(t, out, "cost"); got != tc.cost {
					t.Errorf("cost %q, want %q", got, tc.cost)
				}
				if got := field(t, out, "steps"); got != strconv.Itoa(tc.steps) {
					t.Errorf("steps %s, want %d", got, tc.steps)
				}
				field(t, out, "expanded")
				field(t, out, "time")
				path := parsePathLine(t, field(t, out, "path"))
				if tc.status == "found" {
					checkPath(t, tc.mapPath, path, tc.from, tc.to)
				} else if path != nil {
					t.Errorf("path %v, want none", path)
				}
			})
		}
	}
}

func TestRouteBudget(t *testing.T) {
	wall := writeFile(t, t.TempDir(), "wall10.map", wall10)
	out, errOut, code := pathfind(t, "route", "-map", wall, "-from", "0,0", "-to", "9,0", "-max-expansions", "1", "-plain")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	if got := field(t, out, "status"); got != "budget spent" {
		t.Errorf("status %q, want budget spent\n%s", got, out)
	}
	if got := field(t, out, "expanded"); got != "1" {
		t.Errorf("expanded %s, want 1", got)
	}
}

// checkPath checks that path runs from from to to by legal moves of the map.
func checkPath(t *testing.T, mapPath string, path []image.Point, from, to string) {
	t.Helper()
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(path) == 0 {
		t.Fatalf("empty path from %s to %s", from, to)
	}
	if got := pointString(path[0]); got != from {
		t.Errorf("path starts at %s, want %s", got, from)
	}
	if got := pointString(path[len(path)-1]); got != to {
		t.Errorf("path ends at %s, want %s", got, to)
	}
	if _, err := g.PathCost(path); err != nil {
		t.Errorf("path %v: %v", path, err)
	}
}

func TestErrors(t *testing.T) {
	dir, m, s := scenFiles(t)
	bad := writeFile(t, dir, "bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n")
	badScen := writeFile(t, dir, "bad.scen", "version 1\n0\twall10.map\t10\t10\t0\t0\n")
	wallScen := writeFile(t, dir, "wall.scen", "version 1\n"+
		"1\twall10.map\t10\t10\t0\t0\t3\t5\t6.24264069\n"+
		"1\twall10.map\t10\t10\t0\t0\t5\t3\t6.24264069\n")
	missing := filepath.Join(dir, "missing.map")
	route := func(args ...string) []string { return append([]string{"route", "-map", m}, args...) }
	tests := []struct {
		name string
		args []string
		code int
		want string // in the stderr line
	}{
		{"no command", nil, 2, "no command"},
		{"unknown command", []string{"walk"}, 2, `unknown command "walk"`},
		{"unknown flag", route("-from", "0,0", "-to", "1,1", "-fast"), 2, "-fast"},
		{"extra argument", route("-from", "0,0", "-to", "1,1", "more"), 2, `unexpected argument "more"`},
		{"no map", []string{"route", "-from", "0,0", "-to", "1,1"}, 2, "-map is required"},
		{"no from", route("-to", "1,1"), 2, "-from is required"},
		{"no to", route("-from", "1,1"), 2, "-to is required"},
		{"from without comma", route("-from", "3", "-to", "1,1"), 2, "-from"},
		{"from not numbers", route("-from", "a,b", "-to", "1,1"), 2, "-from"},
		{"unknown algo", route("-from", "0,0", "-to", "1,1", "-algo", "jps+"), 2, `unknown -algo "jps+"`},
		{"unknown heuristic", route("-from", "0,0", "-to", "1,1", "-heuristic", "sup"), 2, `unknown -heuristic "sup" (want auto, octile, manhattan, euclidean, chebyshev)`},
		{"heuristic for dijkstra", route("-from", "0,0", "-to", "1,1", "-algo", "dijkstra", "-heuristic", "octile"), 2, "-algo dijkstra takes no -heuristic"},
		{"baseline budget", route("-from", "0,0", "-to", "1,1", "-algo", "baseline", "-max-expansions", "5"), 2, "-max-expansions"},
		{"negative budget", route("-from", "0,0", "-to", "1,1", "-max-expansions", "-5"), 2, "-max-expansions"},
		{"missing map", []string{"route", "-map", missing, "-from", "0,0", "-to", "1,1"}, 1, "missing.map"},
		{"malformed map", []string{"route", "-map", bad, "-from", "0,0", "-to", "1,1"}, 1, "bad.map:6"},
		{"start outside", route("-from", "10,0", "-to", "1,1"), 1, "start 10,0 is outside the 10×10 map"},
		{"start negative", route("-from", "-1,0", "-to", "1,1"), 1, "start -1,0 is outside"},
		{"goal on wall", route("-from", "0,0", "-to", "5,3"), 1, "goal 5,3 is a blocked cell"},
		{"scen no scen", []string{"scen", "-map", m}, 2, "-scen is required"},
		{"scen every 0", []string{"scen", "-map", m, "-scen", s, "-every", "0"}, 2, "-every 0"},
		{"scen missing map", []string{"scen", "-map", missing, "-scen", s}, 1, "missing.map"},
		{"scen missing scen", []string{"scen", "-map", m, "-scen", missing + ".scen"}, 1, "missing.map.scen"},
		{"scen malformed", []string{"scen", "-map", m, "-scen", badScen}, 1, "bad.scen:2"},
		{"scen on a wall", []string{"scen", "-map", m, "-scen", wallScen}, 1, "scenario 1"},
		{"scen wrong map", []string{"scen", "-map", bad, "-scen", s}, 1, "bad.map"},
		{"paths unwritable", []string{"scen", "-map", m, "-scen", s, "-paths", filepath.Join(missing, "p.txt")}, 1, "missing.map"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, tc.args...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.HasSuffix(errOut, "\n") {
				t.Errorf("stderr %q, want one line starting with pathfind: ", errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want it to mention %q", errOut, tc.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"-h"}, []string{"route", "scen", "-from", "-every", "-paths", "-json", "plain reference A* for comparison"}},
		{[]string{"help"}, []string{"route", "scen"}},
		{[]string{"route", "-h"}, []string{"-map", "-from", "-to", "-algo", "-path"}},
		{[]string{"scen", "-help"}, []string{"-map", "-scen", "-every", "-paths", "-json", "-algo"}},
		{[]string{"help", "scen"}, []string{"-every"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := pathfind(t, tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestHeuristicFlag routes with each -heuristic: the admissible ones find
// the default's cost, and the weaker ones expand more cells in a plain
// search.
func TestHeuristicFlag(t *testing.T) {
	expanded := map[string]int{}
	for _, h := range []string{"auto", "octile", "euclidean", "chebyshev"} {
		out, errOut, code := pathfind(t, "route", "-map", demoMap, "-from", "3,3", "-to", "60,30", "-plain", "-heuristic", h)
		if code != 0 || errOut != "" {
			t.Fatalf("-heuristic %s: status %d, stderr %q", h, code, errOut)
		}
		if got := field(t, out, "cost"); got != "72.28427" {
			t.Errorf("-heuristic %s: cost %s, want 72.28427", h, got)
		}
		expanded[h], _ = strconv.Atoi(field(t, out, "expanded"))
	}
	if !(expanded["octile"] == expanded["auto"] && expanded["octile"] < expanded["euclidean"] && expanded["euclidean"] < expanded["chebyshev"]) {
		t.Errorf("expansions %v: want octile = auto < euclidean < chebyshev", expanded)
	}
}
