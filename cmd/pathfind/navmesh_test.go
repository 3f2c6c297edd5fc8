package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// demoNavScen is a hand-written scenario file of the 64×48 demo map. The
// optima are those of the grid's exact A* (checked by TestScenNavmesh); nav
// gives the length of the navmesh's path between the cells' centres: exact
// by hand for the straight ones, and for the others the length of the
// waypoints the navmesh returned when this test was written (legal by the
// checker, shorter than the optimum).
var demoNavScen = []struct {
	from, to image.Point
	optimal  string
	nav      float64 // -1: unreachable
}{
	{image.Pt(3, 3), image.Pt(60, 30), "72.28427125", 67.16125809783014},
	{image.Pt(3, 3), image.Pt(3, 3), "0", 0},
	{image.Pt(2, 2), image.Pt(15, 2), "13", 13},                    // straight along the room
	{image.Pt(3, 3), image.Pt(10, 8), "9.07106781", math.Sqrt(74)}, // 5√2 + 2 on the grid
	{image.Pt(8, 13), image.Pt(29, 20), "27.31370850", 24.69653191594686},
	{image.Pt(60, 2), image.Pt(2, 44), "85.94112550", 78.20418346374271},
	{image.Pt(35, 30), image.Pt(36, 40), "10.41421356", math.Sqrt(101)},
	{image.Pt(3, 3), image.Pt(10, 22), "20", -1}, // inside the ring of trees
}

func writeDemoNavScen(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version 1\n")
	for _, sc := range demoNavScen {
		fmt.Fprintf(&b, "0\tdemo.map\t64\t48\t%d\t%d\t%d\t%d\t%s\n", sc.from.X, sc.from.Y, sc.to.X, sc.to.Y, sc.optimal)
	}
	return writeFile(t, dir, "demo.map.scen", b.String())
}

var vecTokenRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.[0-9]{6},(0|[1-9][0-9]*)\.[0-9]{6}$`)

// parseVecLine parses one line of navmesh -paths output or its -path field.
func parseVecLine(t *testing.T, line string) []mgl64.Vec2 {
	t.Helper()
	if line == "none" {
		return nil
	}
	var path []mgl64.Vec2
	for tok := range strings.SplitSeq(line, " ") {
		if !vecTokenRE.MatchString(tok) {
			t.Fatalf("path token %q in line %q, want x,y with six decimals", tok, line)
		}
		var p mgl64.Vec2
		if _, err := fmt.Sscanf(tok, "%g,%g", &p[0], &p[1]); err != nil {
			t.Fatal(err)
		}
		path = append(path, p)
	}
	return path
}

func TestScenNavmesh(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	scenPath := writeDemoNavScen(t, dir)
	scens, err := grid.LoadScenarios(scenPath)
	if err != nil {
		t.Fatal(err)
	}
	// The optima are the grid's.
	s := grid.NewSearcher(g)
	var rat ratios
	for i, sc := range scens {
		_, res, err := s.AppendPath(nil, sc.Start, sc.Goal, grid.Query{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := demoNavScen[i]; want.nav < 0 {
			if g.Connected(sc.Start, sc.Goal) {
				t.Fatalf("scenario %d: %v and %v are connected", i, sc.Start, sc.Goal)
			}
		} else {
			if !sc.Matches(res.Cost) {
				t.Fatalf("scenario %d: optimum %v in the file, grid A* %v", i, sc.Optimal, res.Cost)
			}
			rat.add(want.nav, sc.Optimal)
		}
	}

	paths := filepath.Join(dir, "paths.txt")
	out, errOut, code := pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-algo", "navmesh", "-json", "-paths", paths)
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
	if sum.Algo != "navmesh" || sum.Scenarios != n || sum.Matched != n-1 || sum.Mismatched != 0 || sum.NoPath != 1 || sum.Illegal != 0 {
		t.Errorf("got %s, want %d scenarios: %d matched, 1 without path", out, n, n-1)
	}
	if sum.MeanRatio == nil || sum.MaxRatio == nil || sum.Longer == nil {
		t.Fatalf("no ratios or longer in %s", out)
	}
	if *sum.Longer != 0 || *sum.MaxRatio != 1 || math.Abs(*sum.MeanRatio-rat.mean()) > 1e-9 {
		t.Errorf("longer %d, max_ratio %v, mean_ratio %v; want 0, 1 and %v", *sum.Longer, *sum.MaxRatio, *sum.MeanRatio, rat.mean())
	}
	if sum.MeanSubopt != nil || sum.MaxSubopt != nil {
		t.Errorf("navmesh summary has suboptimality: %s", out)
	}
	for _, f := range []string{`"mean_ratio":`, `"max_ratio":`, `"longer":0`} {
		if !strings.Contains(out, f) {
			t.Errorf("JSON lacks %s: %s", f, out)
		}
	}

	b, err := os.ReadFile(paths)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != n || !strings.HasSuffix(string(b), "\n") {
		t.Fatalf("paths file %q, want %d lines ending in a newline", b, n)
	}
	c := gridcheck.New(g, 0)
	for i, line := range lines {
		want := demoNavScen[i]
		path := parseVecLine(t, line)
		if want.nav < 0 {
			if line != "none" {
				t.Errorf("line %d %q, want none", i, line)
			}
			continue
		}
		from, to := picture.Centre(want.from), picture.Centre(want.to)
		if first, last := strings.Fields(line)[0], strings.Fields(line)[len(path)-1]; first != vecString(from) || last != vecString(to) {
			t.Errorf("line %d runs %s to %s, want the centres %s to %s", i, first, last, vecString(from), vecString(to))
		}
		length, err := c.Path(path, from, to)
		if err != nil {
			t.Errorf("line %d %q: %v", i, line, err)
			continue
		}
		if math.Abs(length-want.nav) > 1e-5 || length > scens[i].Optimal+1e-9 {
			t.Errorf("line %d: length %v, want %v (optimum %v)", i, length, want.nav, scens[i].Optimal)
		}
	}
	if lines[1] != "3.500000,3.500000" || lines[2] != "2.500000,2.500000 15.500000,2.500000" {
		t.Errorf("lines 1 and 2 %q and %q, want the single centre and the straight leg", lines[1], lines[2])
	}

	// The text summary shows the ratios and the count of longer paths.
	out, _, code = pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-algo", "navmesh")
	if code != 0 || field(t, out, "longer") != "0" || field(t, out, "max ratio") != "1.0000" ||
		field(t, out, "mean ratio") != fmt.Sprintf("%.4f", rat.mean()) || field(t, out, "matched") != fmt.Sprint(n-1) {
		t.Errorf("status %d, text summary:\n%s", code, out)
	}
	if !strings.Contains(out, "scenario 7: 3,3 to 10,22, optimal 20: unreachable") {
		t.Errorf("the unreachable scenario is not listed:\n%s", out)
	}
}

// TestScenNavmeshLonger gives optima shorter than the navmesh's paths: those
// are mismatched and counted as longer.
func TestScenNavmeshLonger(t *testing.T) {
	_, m, _ := scenFiles(t)
	s := writeFile(t, filepath.Dir(m), "short.scen", "version 1\n"+
		"1\twall10.map\t10\t10\t0\t0\t3\t5\t6.24264069\n"+ // matched: the straight leg is shorter
		"1\twall10.map\t10\t10\t0\t0\t3\t0\t2.9\n"+ // 3 along the top row: longer
		"1\twall10.map\t10\t10\t0\t0\t4\t0\t3.9999999\n") // 4 within the printed precision: matched
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "navmesh", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Matched != 2 || sum.Mismatched != 1 || sum.Longer == nil || *sum.Longer != 1 || sum.MaxRatio == nil || *sum.MaxRatio != 3/2.9 {
		t.Errorf("got %s, want 2 matched, 1 mismatched and longer, max ratio %v", out, 3/2.9)
	}
	out, _, _ = pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "navmesh")
	if !strings.Contains(out, "scenario 1: 0,0 to 3,0, optimal 2.9: length 3, longer than optimal") {
		t.Errorf("the longer path is not listed:\n%s", out)
	}
}

func TestRouteNavmesh(t *testing.T) {
	dir := t.TempDir()
	wall := writeFile(t, dir, "wall10.map", wall10)
	sealed := writeFile(t, dir, "sealed5.map", sealed5)
	tests := []struct {
		name, m, from, to string
		status, cost      string
		steps             int
		path              string
	}{
		{"long", demoMap, "3,3", "60,30", "found", "67.16126", 7,
			"3.500000,3.500000 20.000000,7.000000 32.000000,10.000000 34.000000,14.000000 41.000000,24.000000 44.000000,27.000000 53.000000,30.000000 60.500000,30.500000"},
		// Round the wall's foot, turning at its bottom corners 5,9 and 6,9.
		{"around the wall", wall, "0,0", "9,0", "found", fmt.Sprintf("%.5f", math.Hypot(4.5, 8.5)+math.Hypot(0, 1)+math.Hypot(3.5, 8.5)), 3,
			"0.500000,0.500000 5.000000,9.000000 6.000000,9.000000 9.500000,0.500000"},
		{"same cell", wall, "4,4", "4,4", "found", "0.00000", 0, "4.500000,4.500000"},
		{"sealed", sealed, "0,0", "2,2", "unreachable", "-", 0, "none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, "route", "-map", tc.m, "-from", tc.from, "-to", tc.to, "-algo", "navmesh", "-path")
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			for name, want := range map[string]string{"status": tc.status, "cost": tc.cost, "steps": fmt.Sprint(tc.steps), "path": tc.path} {
				if got := field(t, out, name); got != want {
					t.Errorf("%s %q, want %q", name, got, want)
				}
			}
			field(t, out, "expanded")
			field(t, out, "time")
		})
	}
}

// rooms has two rooms joined by a gap one cell wide at 6,3.
const rooms = `type octile
height 9
width 13
map
@@@@@@@@@@@@@
@.....@.....@
@.....@.....@
@...........@
@.....@.....@
@.....@.....@
@.....@.....@
@.....@.....@
@@@@@@@@@@@@@
`

// TestNavmeshRadius checks -radius: the mesh keeps the points at least the
// radius from every wall, so the rooms' gap one cell wide stays open for a
// radius of 0.25 and closes for 0.5 (unreachable), an end near a wall is an
// error for route and no path for scen, and paths keep the radius from
// walls.
func TestNavmeshRadius(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "rooms.map", rooms)
	route := func(from, to string, extra ...string) []string {
		return append([]string{"route", "-map", m, "-from", from, "-to", to, "-algo", "navmesh", "-path"}, extra...)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		status string // the status line when code is 0
		want   string // in the path line, or on stderr when code is not 0
	}{
		{"point agent through the gap", route("3,4", "9,4"), 0, "found", "3.500000,4.500000 6.000000,4.000000 7.000000,4.000000 9.500000,4.500000"},
		{"gap open for a small agent", route("3,4", "9,4", "-radius", "0.25"), 0, "found", "3.500000,4.500000 5.812500,3.749985 7.187500,3.749985 9.500000,4.500000"},
		{"gap closed", route("3,4", "9,4", "-radius", "0.5"), 0, "unreachable", "none"},
		{"inside the room", route("2,2", "4,6", "-radius", "1"), 0, "found", "2.500000,2.500000 4.500000,6.500000"},
		{"start by a wall", route("1,1", "3,4", "-radius", "0.6"), 1, "", "start 1,1 is nearer than -radius 0.6 to a wall or the map's edge"},
		{"goal by the gap", route("3,4", "5,3", "-radius", "0.75"), 1, "", "goal 5,3 is nearer than -radius 0.75"},
		{"goal by a wall at radius 1.5", route("3,4", "2,2", "-radius", "1.5"), 1, "", "goal 2,2 is nearer than -radius 1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, tc.args...)
			if code != tc.code {
				t.Fatalf("status %d, want %d; stderr %q", code, tc.code, errOut)
			}
			if code != 0 {
				if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
					t.Errorf("stderr %q, want one line mentioning %q", errOut, tc.want)
				}
				return
			}
			if got := field(t, out, "status"); got != tc.status {
				t.Errorf("status %q, want %q", got, tc.status)
			}
			if got := field(t, out, "path"); got != tc.want {
				t.Errorf("path %q, want %q", got, tc.want)
			}
			if tc.status == "unreachable" {
				if got := field(t, out, "why"); got != "every way from start to goal passes nearer than -radius 0.5 to a wall" {
					t.Errorf("why %q", got)
				}
			}
		})
	}

	s := writeFile(t, dir, "rooms.map.scen", "version 1\n"+
		"1\trooms.map\t13\t9\t3\t4\t9\t4\t6.82842712\n"+ // the gap closes
		"1\trooms.map\t13\t9\t1\t1\t3\t3\t2.82842712\n"+ // start too near a wall
		"1\trooms.map\t13\t9\t2\t2\t4\t6\t4.82842712\n") // found
	paths := filepath.Join(dir, "paths.txt")
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "navmesh", "-radius", "0.5", "-json", "-paths", paths)
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Scenarios != 3 || sum.Matched != 1 || sum.NoPath != 2 || sum.Illegal != 0 || sum.Longer == nil || *sum.Longer != 0 {
		t.Errorf("got %s, want 3 scenarios: 1 matched, 2 without path", out)
	}
	if b, _ := os.ReadFile(paths); string(b) != "none\nnone\n2.500000,2.500000 4.500000,6.500000\n" {
		t.Errorf("paths file %q", b)
	}
	out, _, _ = pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "navmesh", "-radius", "0.5")
	for _, want := range []string{
		"scenario 0: 3,4 to 9,4, optimal 6.8284271: unreachable",
		"scenario 1: 1,1 to 3,3, optimal 2.8284271: start 1,1 is nearer than -radius 0.5 to a wall",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestNavmeshErrors(t *testing.T) {
	dir := t.TempDir()
	wall := writeFile(t, dir, "wall10.map", wall10)
	route := func(args ...string) []string {
		return append([]string{"route", "-map", wall, "-from", "0,0", "-to", "9,0"}, args...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"radius with astar", route("-radius", "1"), "-algo astar takes neither -radius nor -mesh"},
		{"radius with hpa", route("-algo", "hpa", "-radius", "0.5"), "-algo hpa takes neither -radius nor -mesh"},
		{"scen radius with astar", []string{"scen", "-map", wall, "-scen", "x.scen", "-radius", "1"}, "-algo astar takes neither -radius nor -mesh"},
		{"negative radius", route("-algo", "navmesh", "-radius", "-1"), "-radius -1, want a finite value ≥ 0"},
		{"NaN radius", route("-algo", "navmesh", "-radius", "NaN"), "-radius NaN"},
		{"infinite radius", route("-algo", "navmesh", "-radius", "+Inf"), "-radius +Inf"},
		{"radius not a number", route("-algo", "navmesh", "-radius", "wide"), "-radius"},
		{"navmesh plain", route("-algo", "navmesh", "-plain"), "-algo navmesh takes neither -max-expansions nor -plain"},
		{"navmesh budget", route("-algo", "navmesh", "-max-expansions", "3"), "-algo navmesh takes neither -max-expansions nor -plain"},
		{"navmesh smooth", route("-algo", "navmesh", "-smooth"), "-algo navmesh takes neither -graph nor -smooth"},
		{"navmesh graph", route("-algo", "navmesh", "-graph", "x.hpa"), "-algo navmesh takes neither -graph nor -smooth"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, tc.args...)
			if code != 2 {
				t.Errorf("status %d, want 2", code)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want one line mentioning %q", errOut, tc.want)
			}
		})
	}
}

// fakePoints is a pointRouter with a fixed answer.
type fakePoints struct {
	path []mgl64.Vec2
	st   stats
	err  error
}

func (r fakePoints) routePoints(dst []mgl64.Vec2, from, to image.Point) ([]mgl64.Vec2, stats, error) {
	return append(dst, r.path...), r.st, r.err
}

// TestScenIllegalPoints checks that scen and route catch wrong navmesh
// answers: each fake router below answers 0,0 → 9,0 on wall10 wrongly.
func TestScenIllegalPoints(t *testing.T) {
	a, b := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{9.5, 0.5}
	good := []mgl64.Vec2{a, {5, 9}, {6, 9}, b}
	goodLen := math.Hypot(4.5, 8.5) + 1 + math.Hypot(3.5, 8.5)
	found := func(l float64) stats { return stats{cost: l, status: core.Found} }
	for _, tc := range []struct {
		name string
		r    fakePoints
		want string
	}{
		{"through the wall", fakePoints{path: []mgl64.Vec2{a, b}, st: found(9)}, "crosses blocked cell 5,0"},
		{"clips the wall's foot", fakePoints{path: []mgl64.Vec2{a, {5.5, 9}, {6, 9}, b}, st: found(goodLen)}, "leg 1 from 0.500000,0.500000 to 5.500000,9.000000 crosses blocked cell 5,8"},
		{"wrong length", fakePoints{path: good, st: found(goodLen + 0.1)}, "reported length"},
		{"wrong start", fakePoints{path: append([]mgl64.Vec2{{0, 0}}, good[1:]...), st: found(goodLen)}, "path runs from 0.000000,0.000000"},
		{"off the lattice", fakePoints{path: []mgl64.Vec2{a, {5.1, 9}, {6, 9}, b}, st: found(goodLen)}, "lattice"},
		{"unreachable", fakePoints{st: stats{status: core.Unreachable}}, "reported unreachable, but 0,0 and 9,0 are connected"},
		{"off the mesh", fakePoints{err: &offMeshError{what: "start", p: image.Pt(0, 0)}}, "reported start 0,0 off the mesh"},
		{"budget", fakePoints{st: stats{status: core.BudgetSpent}}, `unknown status "budget spent"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := algos
			t.Cleanup(func() { algos = saved })
			algos = append(algos[:len(algos):len(algos)], algo{name: "fake", doc: "test",
				buildPoints: func(*grid.Grid, *routerFlags) (pointRouter, error) { return tc.r, nil }})
			_, m, _ := scenFiles(t)
			s := writeFile(t, filepath.Dir(m), "one.scen", "version 1\n5\twall10.map\t10\t10\t0\t0\t9\t0\t22.89949494\n")
			out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "fake")
			if code != 1 || field(t, out, "illegal") != "1" || !strings.Contains(errOut, tc.want) {
				t.Errorf("scen: status %d, stderr %q, want 1 illegal answer and %q\n%s", code, errOut, tc.want, out)
			}
			_, errOut, code = pathfind(t, "route", "-map", m, "-from", "0,0", "-to", "9,0", "-algo", "fake")
			if code != 1 || !strings.Contains(errOut, "-algo fake answered 0,0 to 9,0 wrongly") || !strings.Contains(errOut, tc.want) {
				t.Errorf("route: status %d, stderr %q, want it to mention %q", code, errOut, tc.want)
			}
		})
	}
}

// TestMovingAINavmesh runs every 20th den520d scenario on the navmesh, when
// the benchmarks are present: every path legal, none longer than optimal.
func TestMovingAINavmesh(t *testing.T) {
	dir := testmap.MovingAIDir()
	m := filepath.Join(dir, "den520d.map")
	if _, err := os.Stat(m); err != nil {
		t.Skipf("benchmarks absent: %v", err)
	}
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", m+".scen", "-every", "20", "-json", "-algo", "navmesh")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Scenarios == 0 || sum.Illegal != 0 || sum.NoPath != 0 || sum.Matched != sum.Scenarios || sum.Longer == nil || *sum.Longer != 0 {
		t.Errorf("got %s, want every scenario found, legal and not longer than optimal", out)
	}
	if sum.MeanRatio == nil || *sum.MeanRatio >= 1 {
		t.Errorf("got %s, want paths shorter than the grid's on average", out)
	}
	t.Logf("%d scenarios: length/optimum mean %.4f, max %.4f", sum.Scenarios, *sum.MeanRatio, *sum.MaxRatio)
}
