package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// getTrace asks GET /api/trace with the query params and fails the test
// unless it answers 200.
func getTrace(t *testing.T, ts *httptest.Server, params string) traceResponse {
	t.Helper()
	var tr traceResponse
	if code, raw := callAPI(t, ts, "GET", "/api/trace?"+params, "", "", &tr); code != http.StatusOK {
		t.Fatalf("trace %s: %d %s", params, code, raw)
	}
	return tr
}

// xyPoints returns the cells of x0, y0, x1, y1, ….
func xyPoints(t *testing.T, xy []int32) []image.Point {
	t.Helper()
	if len(xy)%2 != 0 {
		t.Fatalf("odd count of coordinates: %v", xy)
	}
	ps := make([]image.Point, len(xy)/2)
	for i := range ps {
		ps[i] = image.Pt(int(xy[2*i]), int(xy[2*i+1]))
	}
	return ps
}

// TestServeTrace checks every traced search against the same search run
// directly: the same expansions in the same order with the same costs so
// far, the same count, the open list it left, and a legal path of the
// reported cost, optimal where the search is. Each heuristic is tried
// where it applies.
func TestServeTrace(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	_, opt, err := grid.NewSearcher(g).AppendPath(nil, from, to, grid.Query{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, params string
		q            grid.Query
		// optimal: the path must cost the optimum; monotone: the
		// expansions' f = g + h (h = 0 for Dijkstra) never decreases, as
		// with a consistent heuristic.
		optimal, monotone bool
	}{
		{"astar", "algo=astar", grid.Query{Heuristic: grid.OctileDistance, Plain: true}, true, true},
		{"astar euclidean", "algo=astar&heuristic=euclidean", grid.Query{Heuristic: grid.EuclideanDistance, Plain: true}, true, true},
		{"astar chebyshev", "algo=astar&heuristic=chebyshev", grid.Query{Heuristic: grid.ChebyshevDistance, Plain: true}, true, true},
		{"astar manhattan", "algo=astar&heuristic=manhattan", grid.Query{Heuristic: grid.ManhattanDistance, Plain: true}, false, false},
		{"dijkstra", "algo=dijkstra", grid.Query{Heuristic: grid.Zero, Plain: true}, true, true},
		{"weighted", "algo=weighted&weight=3", grid.Query{Heuristic: grid.OctileDistance, Weight: 3, Plain: true}, false, false},
		{"weighted default", "algo=weighted", grid.Query{Heuristic: grid.OctileDistance, Weight: 2, Plain: true}, false, false},
		{"greedy", "algo=greedy&heuristic=euclidean", grid.Query{Heuristic: grid.EuclideanDistance, Weight: greedyWeight, Plain: true}, false, false},
		{"jps", "algo=jps", grid.Query{Heuristic: grid.OctileDistance}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			params := fmt.Sprintf("%s&from=%d,%d&to=%d,%d", tc.params, from.X, from.Y, to.X, to.Y)
			tr := getTrace(t, ts, params)

			var wantCells []image.Point
			var wantG []float64
			q := tc.q
			q.OnExpand = func(p image.Point, c float64) {
				wantCells = append(wantCells, p)
				wantG = append(wantG, c)
			}
			s := grid.NewSearcher(g)
			path, res, err := s.AppendPath(nil, from, to, q)
			if err != nil {
				t.Fatal(err)
			}
			cells := xyPoints(t, tr.Cells)
			if !slices.Equal(cells, wantCells) {
				t.Fatalf("expansions differ from a direct search's:\ngot  %v\nwant %v", cells, wantCells)
			}
			if tr.Expanded != res.Expanded || len(cells) != res.Expanded || len(tr.G) != len(cells) {
				t.Errorf("expanded %d, %d cells and %d costs; a direct search expands %d", tr.Expanded, len(cells), len(tr.G), res.Expanded)
			}
			for i, c := range tr.G {
				if c > wantG[i] || c < wantG[i]-0.001 {
					t.Fatalf("expansion %d at %v: g %v, want %v rounded down to a thousandth", i, cells[i], c, wantG[i])
				}
			}
			if tc.monotone {
				h := func(p image.Point) float64 { return estimate(tc.q.Heuristic, p, to) }
				for i := 1; i < len(cells); i++ {
					if f0, f1 := wantG[i-1]+h(cells[i-1]), wantG[i]+h(cells[i]); f1 < f0-1e-9 {
						t.Fatalf("expansion %d at %v has f %v, below %v of the one before", i, cells[i], f1, f0)
					}
				}
			}
			if tr.Status != core.Found.String() || tr.Cost == nil || tr.Truncated {
				t.Fatalf("status %q, cost %v, truncated %v: want found", tr.Status, tr.Cost, tr.Truncated)
			}
			got := xyPoints(t, tr.Path)
			if !slices.Equal(got, path) {
				t.Errorf("path %v, a direct search's %v", got, path)
			}
			cost, err := g.PathCost(got)
			if err != nil || got[0] != from || got[len(got)-1] != to {
				t.Fatalf("path %v from %v to %v is not legal: %v", got, from, to, err)
			}
			if math.Abs(cost-*tr.Cost) > 1e-9 {
				t.Errorf("reported cost %v, the path costs %v", *tr.Cost, cost)
			}
			if tc.optimal && math.Abs(cost-opt.Cost) > 1e-9 {
				t.Errorf("cost %v, optimal %v", cost, opt.Cost)
			}
			if w := max(tc.q.Weight, 1); cost > w*opt.Cost+1e-9 && tc.q.Weight != greedyWeight {
				t.Errorf("cost %v, above weight %v times the optimum %v", cost, w, opt.Cost)
			}
			open := xyPoints(t, tr.Open)
			if want := s.AppendOpen(nil); !slices.Equal(open, want) {
				t.Errorf("open list %v, a direct search's %v", open, want)
			}
			closed := map[image.Point]bool{}
			for _, p := range cells {
				if !g.Passable(p) {
					t.Fatalf("expanded wall %v", p)
				}
				closed[p] = true
			}
			for _, p := range open {
				if !g.Passable(p) || tc.monotone && closed[p] {
					t.Errorf("open cell %v: passable %v, expanded %v", p, g.Passable(p), closed[p])
				}
			}
			if tr.Jump != (tc.name == "jps") || tr.Connectivity != 8 || tr.Limit != traceLimit {
				t.Errorf("jump %v, connectivity %d, limit %d", tr.Jump, tr.Connectivity, tr.Limit)
			}
			if tr.Heuristic != tc.q.Heuristic.String() || tr.Weight != max(tc.q.Weight, 1) {
				t.Errorf("heuristic %q and weight %v, want %q and %v", tr.Heuristic, tr.Weight, tc.q.Heuristic, max(tc.q.Weight, 1))
			}
		})
	}
}

// estimate is heuristic h from p to q, written out again.
func estimate(h grid.Heuristic, p, q image.Point) float64 {
	dx, dy := math.Abs(float64(p.X-q.X)), math.Abs(float64(p.Y-q.Y))
	switch h {
	case grid.Zero:
		return 0
	case grid.EuclideanDistance:
		return math.Hypot(dx, dy)
	case grid.ChebyshevDistance:
		return max(dx, dy)
	case grid.ManhattanDistance:
		return dx + dy
	}
	return max(dx, dy) + (math.Sqrt2-1)*min(dx, dy)
}

// TestServeTraceEnds checks a trace that the limit cuts short, one to a
// goal in another region, and one on an edited map.
func TestServeTraceEnds(t *testing.T) {
	g := loadDemo(t)
	from, to := farPair(t, g)
	_, ts := newLimitedServer(t, g, serveLimits{Trace: 50})
	ends := fmt.Sprintf("from=%d,%d&to=%d,%d", from.X, from.Y, to.X, to.Y)

	tr := getTrace(t, ts, "algo=dijkstra&"+ends)
	if !tr.Truncated || tr.Status != core.BudgetSpent.String() || tr.Expanded != 50 || len(tr.Cells) != 100 || tr.Limit != 50 {
		t.Errorf("trace over the limit of 50: truncated %v, status %q, expanded %d, %d coordinates, limit %d",
			tr.Truncated, tr.Status, tr.Expanded, len(tr.Cells), tr.Limit)
	}
	if tr.Cost != nil || len(tr.Path) != 0 {
		t.Errorf("truncated trace has cost %v and path %v, want none", tr.Cost, tr.Path)
	}

	var island image.Point
	for y := range g.Height() {
		for x := range g.Width() {
			if p := image.Pt(x, y); g.Passable(p) && !g.Connected(from, p) {
				island = p
			}
		}
	}
	if !g.Passable(island) {
		t.Fatal("the demo map has no free cell out of reach of the far pair")
	}
	tr = getTrace(t, ts, fmt.Sprintf("algo=astar&from=%d,%d&to=%d,%d", from.X, from.Y, island.X, island.Y))
	if tr.Status != core.Unreachable.String() || tr.Cost != nil || len(tr.Path) != 0 || len(tr.Cells) != 0 || tr.Truncated {
		t.Errorf("trace to %v in another region: %+v, want unreachable with nothing expanded", island, tr)
	}

	// Wall off the start's neighbours but one: the trace runs on the new
	// version, and its path leaves by the gap.
	ts = newTestServer(t, "demo.map", g)
	path := xyPoints(t, getTrace(t, ts, "algo=astar&"+ends).Path)
	wall := image.Rectangle{Min: path[1], Max: path[1].Add(image.Pt(1, 1))}
	postEdit(t, ts, wall, true)
	tr = getTrace(t, ts, "algo=astar&"+ends)
	if tr.Version != 1 {
		t.Errorf("trace on version %d after an edit, want 1", tr.Version)
	}
	edited := g.WithCells(wall, false)
	after := xyPoints(t, tr.Path)
	if _, err := edited.PathCost(after); err != nil || slices.Contains(after, path[1]) {
		t.Errorf("path %v after walling %v: %v", after, path[1], err)
	}
}

// TestServeTraceBadInput checks that bad parameters get 400 and a message
// that says what is wrong.
func TestServeTraceBadInput(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	var wall image.Point
	for !g.In(wall) || g.Passable(wall) {
		wall.X++
	}
	ends := fmt.Sprintf("from=%d,%d&to=%d,%d", from.X, from.Y, to.X, to.Y)
	tests := []struct {
		name, query, want string
	}{
		{"no algo", ends, "algo is required"},
		{"unknown algo", "algo=bfs&" + ends, `unknown algo "bfs"`},
		{"no from", fmt.Sprintf("algo=astar&to=%d,%d", to.X, to.Y), "from is required"},
		{"no to", fmt.Sprintf("algo=astar&from=%d,%d", from.X, from.Y), "to is required"},
		{"one number", "algo=astar&from=3&to=4,5", `from "3"`},
		{"three numbers", fmt.Sprintf("algo=astar&from=%d,%d&to=1,2,3", from.X, from.Y), `to "1,2,3"`},
		{"fraction", fmt.Sprintf("algo=astar&from=1.5,2&to=%d,%d", to.X, to.Y), `from "1.5,2"`},
		{"outside", fmt.Sprintf("algo=astar&from=%d,%d&to=64,0", from.X, from.Y), "outside the 64×48 map"},
		{"on a wall", fmt.Sprintf("algo=astar&from=%d,%d&to=%d,%d", from.X, from.Y, wall.X, wall.Y), "blocked cell"},
		{"unknown heuristic", "algo=astar&heuristic=zero&" + ends, `unknown heuristic "zero"`},
		{"dijkstra heuristic", "algo=dijkstra&heuristic=octile&" + ends, "dijkstra takes none"},
		{"weight of astar", "algo=astar&weight=2&" + ends, "only algo=weighted"},
		{"weight below 1", "algo=weighted&weight=0.5&" + ends, `weight "0.5", want a number from 1 to 10`},
		{"weight too big", "algo=weighted&weight=11&" + ends, `weight "11"`},
		{"weight NaN", "algo=weighted&weight=NaN&" + ends, `weight "NaN"`},
		{"weight not a number", "algo=weighted&weight=x&" + ends, `weight "x"`},
		{"unknown parameter", "algo=astar&max=5&" + ends, `unknown parameter "max"`},
		{"repeated parameter", "algo=astar&algo=jps&" + ends, "algo given 2 times"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, raw := callAPI(t, ts, "GET", "/api/trace?"+tc.query, "", "", nil)
			var e errorResponse
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatalf("body %q is not a JSON error (%v)", raw, err)
			}
			if code != http.StatusBadRequest || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%d %q, want 400 with %q", code, e.Error, tc.want)
			}
		})
	}
	if code, _ := callAPI(t, ts, "POST", "/api/trace?algo=astar&"+ends, "application/json", "{}", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("POST trace: %d, want 405", code)
	}
}
