package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/smooth"
)

// demoMap has 64×48 cells, 12 clusters of 16: long queries on it go through
// the abstract graph.
const demoMap = "../../testdata/demo.map"

func loadDemo(t *testing.T) *grid.Grid {
	t.Helper()
	g, err := grid.LoadMap(demoMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// writeGraph builds the graph of g with opt and writes it to dir/name.
func writeGraph(t *testing.T, g *grid.Grid, opt hpa.Options, dir, name string) (string, *hpa.Graph) {
	t.Helper()
	hg, err := hpa.Build(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hg.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p, hg
}

// demoScen writes a scenario file of n random connected pairs of the demo
// map, with optima from the grid search, and returns its path and the
// scenarios.
func demoScen(t *testing.T, dir string, n int) (string, []grid.Scenario) {
	t.Helper()
	g := loadDemo(t)
	s := grid.NewSearcher(g)
	var b strings.Builder
	b.WriteString("version 1\n")
	var scens []grid.Scenario
	for _, p := range testmap.RandomPairs(testmap.NewRand(3), g, 4*n) {
		if len(scens) == n {
			break
		}
		_, r, err := s.AppendPath(nil, p[0], p[1], grid.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != core.Found {
			continue
		}
		fmt.Fprintf(&b, "0\tdemo.map\t64\t48\t%d\t%d\t%d\t%d\t%.8f\n", p[0].X, p[0].Y, p[1].X, p[1].Y, r.Cost)
		scens = append(scens, grid.Scenario{Start: p[0], Goal: p[1], Optimal: r.Cost})
	}
	return writeFile(t, dir, "demo.map.scen", b.String()), scens
}

func TestRouteHPA(t *testing.T) {
	g := loadDemo(t)
	gpath, hg := writeGraph(t, g, hpa.Options{ClusterSize: 8, MaxEntrance: 3}, t.TempDir(), "demo8.hpa")
	from, to := farPair(t, g)
	for _, tc := range []struct {
		name  string
		extra []string
		graph *hpa.Graph // nil: the default build
	}{
		{"built", nil, nil},
		{"graph", []string{"-graph", gpath}, hg},
		{"smooth", []string{"-smooth"}, nil},
		{"graph smooth", []string{"-graph", gpath, "-smooth"}, hg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"route", "-map", demoMap, "-from", pointString(from), "-to", pointString(to), "-algo", "hpa", "-path"}, tc.extra...)
			out, errOut, code := pathfind(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			if got := field(t, out, "status"); got != "found" {
				t.Fatalf("status %q, want found", got)
			}
			// A graph of its own: the expansions count the refinement
			// searches, which a graph that answered the query before skips.
			opt := hpa.Options{}
			if tc.graph != nil {
				opt = tc.graph.Options()
			}
			want, err := hpa.Build(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			cells, res, err := hpa.NewSearcher(want).AppendPath(nil, from, to, hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			smoothed := strings.Contains(tc.name, "smooth")
			wantPath, wantCost := cells, res.Cost
			if smoothed {
				wantPath = smooth.AppendCornerTurns(nil, cells, g.LineOfSight)
				wantCost = smooth.Length(wantPath)
				if wantCost > res.Cost {
					t.Errorf("smoothed length %v above the cell path's cost %v", wantCost, res.Cost)
				}
			}
			path := parsePathLine(t, field(t, out, "path"))
			if fmt.Sprint(path) != fmt.Sprint(wantPath) {
				t.Errorf("path %v, want %v", path, wantPath)
			}
			if got := field(t, out, "cost"); got != fmt.Sprintf("%.5f", wantCost) {
				t.Errorf("cost %s, want %.5f", got, wantCost)
			}
			if got := field(t, out, "steps"); got != strconv.Itoa(len(wantPath)-1) {
				t.Errorf("steps %s, want %d", got, len(wantPath)-1)
			}
			if got := field(t, out, "expanded"); got != strconv.Itoa(res.Expanded) {
				t.Errorf("expanded %s, want %d", got, res.Expanded)
			}
		})
	}
	// Same cell and unreachable, through the wall10 and sealed5 maps.
	dir := t.TempDir()
	wall := writeFile(t, dir, "wall10.map", wall10)
	sealed := writeFile(t, dir, "sealed5.map", sealed5)
	for _, tc := range []struct {
		m, from, to, status, cost string
	}{
		{wall, "4,4", "4,4", "found", "0.00000"},
		{sealed, "0,0", "2,2", "unreachable", "-"},
	} {
		for _, sm := range []string{"-smooth=false", "-smooth"} {
			out, errOut, code := pathfind(t, "route", "-map", tc.m, "-from", tc.from, "-to", tc.to, "-algo", "hpa", sm)
			if code != 0 || field(t, out, "status") != tc.status || field(t, out, "cost") != tc.cost {
				t.Errorf("%s %s→%s %s: status %d, stderr %q\n%s", tc.m, tc.from, tc.to, sm, code, errOut, out)
			}
		}
	}
}

// farPair returns the connected free cells nearest the top-left and
// bottom-right corners of g, apart by more than two clusters.
func farPair(t *testing.T, g *grid.Grid) (image.Point, image.Point) {
	t.Helper()
	for d := 0; d < g.Width()+g.Height(); d++ {
		for x := 0; x <= d; x++ {
			a := image.Pt(x, d-x)
			if !g.Passable(a) {
				continue
			}
			for e := 0; e < d; e++ {
				for y := 0; y <= e; y++ {
					b := image.Pt(g.Width()-1-(e-y), g.Height()-1-y)
					if g.Connected(a, b) && b.X-a.X > 32 && b.Y-a.Y > 32 {
						return a, b
					}
				}
			}
		}
	}
	t.Fatal("no far pair")
	return image.Point{}, image.Point{}
}

func TestScenHPA(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	scenPath, _ := demoScen(t, dir, 60)
	scens, err := grid.LoadScenarios(scenPath) // with the optima as printed
	if err != nil {
		t.Fatal(err)
	}
	// Clusters of 8 on the 64×48 demo map, so that most queries are
	// abstract and some paths come out longer than optimal.
	gpath, hg := writeGraph(t, g, hpa.Options{ClusterSize: 8}, dir, "demo8.hpa")
	// The expected figures, worked out here with the library.
	q := hpa.NewSearcher(hg)
	var plain, smoothed subopt
	for _, sc := range scens {
		cells, r, err := q.AppendPath(nil, sc.Start, sc.Goal, hpa.Query{})
		if err != nil || r.Status != core.Found {
			t.Fatalf("%v→%v: %v %v", sc.Start, sc.Goal, r.Status, err)
		}
		add := func(s *subopt, cost float64) {
			e := cost/sc.Optimal - 1
			if sc.Matches(cost) {
				e = 0
			}
			s.add(e, sc.Optimal)
		}
		add(&plain, r.Cost)
		add(&smoothed, smooth.Length(smooth.AppendCornerTurns(nil, cells, g.LineOfSight)))
	}
	if plain.worst <= 0 {
		t.Fatalf("no scenario is longer than optimal; the test wants some")
	}
	for _, tc := range []struct {
		smooth bool
		want   *subopt
	}{{false, &plain}, {true, &smoothed}} {
		t.Run(fmt.Sprintf("smooth=%v", tc.smooth), func(t *testing.T) {
			paths := filepath.Join(dir, fmt.Sprintf("paths-%v.txt", tc.smooth))
			out, errOut, code := pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-algo", "hpa", "-graph", gpath, "-json", "-paths", paths, fmt.Sprintf("-smooth=%v", tc.smooth))
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			var sum summary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Scenarios != len(scens) || sum.Matched+sum.Suboptimal+sum.Shorter != sum.Scenarios || sum.Mismatched != 0 || sum.Illegal != 0 || sum.Algo != "hpa" {
				t.Errorf("got %+v, want %d scenarios, all found and legal, none mismatched", sum, len(scens))
			}
			if tc.smooth && sum.Shorter == 0 || !tc.smooth && (sum.Shorter != 0 || sum.Suboptimal == 0) {
				t.Errorf("smooth %v: %d suboptimal, %d shorter", tc.smooth, sum.Suboptimal, sum.Shorter)
			}
			if sum.MeanSubopt == nil || sum.MaxSubopt == nil {
				t.Fatalf("no suboptimality in %s", out)
			}
			if math.Abs(*sum.MeanSubopt-tc.want.mean()) > 1e-12 || *sum.MaxSubopt != tc.want.worst {
				t.Errorf("mean_subopt %v, max_subopt %v; want %v and %v", *sum.MeanSubopt, *sum.MaxSubopt, tc.want.mean(), tc.want.worst)
			}
			if *sum.MaxSubopt < *sum.MeanSubopt {
				t.Errorf("max_subopt %v below mean_subopt %v", *sum.MaxSubopt, *sum.MeanSubopt)
			}
			b, err := os.ReadFile(paths)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if len(lines) != len(scens) {
				t.Fatalf("%d path lines, want %d", len(lines), len(scens))
			}
			for i, line := range lines {
				path := parsePathLine(t, line)
				sc := scens[i]
				if path[0] != sc.Start || path[len(path)-1] != sc.Goal {
					t.Fatalf("line %d runs %v to %v, want %v to %v", i, path[0], path[len(path)-1], sc.Start, sc.Goal)
				}
				for k := 1; k < len(path); k++ {
					a, b := path[k-1], path[k]
					if tc.smooth && !g.LineOfSight(a, b) || !tc.smooth && !g.CanStep(a, b) {
						t.Fatalf("line %d: leg %v→%v is not legal", i, a, b)
					}
				}
			}
		})
	}
	// The text summary shows them as percentages; exact algorithms have
	// none.
	out, _, code := pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-algo", "hpa", "-graph", gpath)
	if want := fmt.Sprintf("%+.2f %%", 100*plain.mean()); code != 0 || field(t, out, "mean subopt") != want {
		t.Errorf("status %d, want mean subopt %s:\n%s", code, want, out)
	}
	field(t, out, "max subopt")
	out, _, _ = pathfind(t, "scen", "-map", demoMap, "-scen", scenPath, "-json")
	if strings.Contains(out, "subopt") {
		t.Errorf("astar summary has suboptimality: %s", out)
	}
	out, _, _ = pathfind(t, "scen", "-map", demoMap, "-scen", scenPath)
	if strings.Contains(out, "subopt") {
		t.Errorf("astar summary has suboptimality:\n%s", out)
	}
}

// turnsRouter returns fixed turning points.
type turnsRouter struct {
	path []image.Point
	cost float64
}

func (r turnsRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	return append(dst, r.path...), stats{cost: r.cost, status: core.Found, turns: true}, nil
}

func TestVerifyTurns(t *testing.T) {
	g, err := grid.ReadMap(strings.NewReader(wall10), "wall10.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	from, to := image.Pt(0, 0), image.Pt(9, 0)
	good := []image.Point{from, {4, 9}, {6, 9}, to}
	length := smooth.Length(good)
	for _, tc := range []struct {
		name string
		path []image.Point
		cost float64
		want string // "" for a legal answer
	}{
		{"good", good, length, ""},
		{"through the wall", []image.Point{from, to}, 9, "leg 1 from 0,0 to 9,0 has no line of sight"},
		{"corner cut", []image.Point{from, {4, 8}, {5, 9}, {6, 9}, to}, 0, "leg 2 from 4,8 to 5,9 has no line of sight"},
		{"wrong length", good, length + 1, "reported length"},
		{"grid cost", good, 22.899, "reported length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := verify(g, tc.path, from, to, stats{cost: tc.cost, status: core.Found, turns: true})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	// The scen command counts such answers as illegal and exits 1.
	saved := algos
	t.Cleanup(func() { algos = saved })
	algos = append(algos[:len(algos):len(algos)], algo{name: "straight", doc: "test",
		build: func(*grid.Grid, *routerFlags) (router, error) {
			return turnsRouter{path: []image.Point{from, to}, cost: 9}, nil
		}})
	_, m, _ := scenFiles(t)
	s := writeFile(t, filepath.Dir(m), "one.scen", "version 1\n5\twall10.map\t10\t10\t0\t0\t9\t0\t22.89949494\n")
	out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", s, "-algo", "straight")
	if code != 1 || field(t, out, "illegal") != "1" || !strings.Contains(errOut, "no line of sight") {
		t.Errorf("status %d, stderr %q\n%s", code, errOut, out)
	}
}

func TestHPAErrors(t *testing.T) {
	dir := t.TempDir()
	g := loadDemo(t)
	gpath, _ := writeGraph(t, g, hpa.Options{}, dir, "demo.hpa")
	wall := writeFile(t, dir, "wall10.map", wall10)
	b, err := os.ReadFile(gpath)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	corrupt := filepath.Join(dir, "corrupt.hpa")
	if err := os.WriteFile(corrupt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.hpa")
	if err := os.WriteFile(short, b[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1 // whole again, with two bytes after it
	long := filepath.Join(dir, "long.hpa")
	if err := os.WriteFile(long, append(b, 0, 7), 0o644); err != nil {
		t.Fatal(err)
	}
	route := func(m string, args ...string) []string {
		return append([]string{"route", "-map", m, "-from", "2,2", "-to", "5,5"}, args...)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"graph without hpa", route(demoMap, "-graph", gpath), 2, "-algo astar takes neither -graph nor -smooth"},
		{"smooth without hpa", route(demoMap, "-algo", "dijkstra", "-smooth"), 2, "-algo dijkstra takes neither"},
		{"scen smooth without hpa", []string{"scen", "-map", demoMap, "-scen", "x.scen", "-smooth"}, 2, "-algo astar takes neither"},
		{"hpa budget", route(demoMap, "-algo", "hpa", "-max-expansions", "9"), 2, "-algo hpa takes neither -max-expansions nor -plain"},
		{"weight without hpa", route(demoMap, "-hpa-weight", "2"), 2, "-algo astar takes no -hpa-weight"},
		{"weight below 1", route(demoMap, "-algo", "hpa", "-hpa-weight", "0.5"), 2, "-hpa-weight 0.5, want 0 (meaning 1) or 1 to 100"},
		{"missing graph", route(demoMap, "-algo", "hpa", "-graph", filepath.Join(dir, "none.hpa")), 1, "none.hpa"},
		{"graph of another map", []string{"route", "-map", wall, "-from", "0,0", "-to", "9,9", "-algo", "hpa", "-graph", gpath}, 1, gpath + ": hpa: graph was built for another map"},
		{"corrupt graph", route(demoMap, "-algo", "hpa", "-graph", corrupt), 1, corrupt + ": hpa: checksum"},
		{"truncated graph", route(demoMap, "-algo", "hpa", "-graph", short), 1, short + ": hpa: truncated file"},
		{"bytes after the graph", route(demoMap, "-algo", "hpa", "-graph", long), 1, long + ": 2 bytes after the end of the graph"},
		{"not a graph", route(demoMap, "-algo", "hpa", "-graph", demoMap), 1, "hpa: not a graph file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, tc.args...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want one line starting with pathfind: and mentioning %q", errOut, tc.want)
			}
		})
	}
}

// TestMovingAIHPA runs every 20th den520d scenario with HPA*, smoothed and
// not, when the benchmarks are present.
func TestMovingAIHPA(t *testing.T) {
	dir := testmap.MovingAIDir()
	m := filepath.Join(dir, "den520d.map")
	if _, err := os.Stat(m); err != nil {
		t.Skipf("benchmarks absent: %v", err)
	}
	for _, sm := range []string{"-smooth=false", "-smooth"} {
		t.Run(sm, func(t *testing.T) {
			out, errOut, code := pathfind(t, "scen", "-map", m, "-scen", m+".scen", "-every", "20", "-json", "-algo", "hpa", sm)
			if code != 0 {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			var sum summary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Scenarios == 0 || sum.NoPath != 0 || sum.Illegal != 0 || sum.MeanSubopt == nil || *sum.MeanSubopt > 0.05 {
				t.Errorf("got %s, want every scenario found and legal, mean suboptimality at most 5 %%", out)
			}
			t.Logf("%s: mean %+.2f%%, max %+.2f%%", sm, 100**sum.MeanSubopt, 100**sum.MaxSubopt)
		})
	}
}
