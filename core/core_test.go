package core_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// adj is a graph given by adjacency lists.
type adj struct{ out [][]core.Edge }

func (a *adj) NumNodes() int { return len(a.out) }

func (a *adj) AppendEdges(dst []core.Edge, n int32) []core.Edge { return append(dst, a.out[n]...) }

func (a *adj) String() string {
	var sb strings.Builder
	for n, es := range a.out {
		fmt.Fprintf(&sb, "%d:", n)
		for _, e := range es {
			fmt.Fprintf(&sb, " →%d(%.4g)", e.To, e.Cost)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// edge returns the cheapest edge from a to b.
func (a *adj) edge(from, to int32) (float64, bool) {
	best, ok := math.Inf(1), false
	for _, e := range a.out[from] {
		if e.To == to && e.Cost < best {
			best, ok = e.Cost, true
		}
	}
	return best, ok
}

func (a *adj) reverse() *adj {
	r := &adj{out: make([][]core.Edge, len(a.out))}
	for n, es := range a.out {
		for _, e := range es {
			r.out[e.To] = append(r.out[e.To], core.Edge{To: int32(n), Cost: e.Cost})
		}
	}
	return r
}

// randomGraph returns a graph of n nodes in which each ordered pair is joined
// with probability p. Integer weights lie in 0..4 (many ties); others are
// uniform in [0, 10) with one in ten zero.
func randomGraph(r *rand.Rand, n int, p float64, integer bool) *adj {
	g := &adj{out: make([][]core.Edge, n)}
	for a := range n {
		for b := range n {
			if r.Float64() >= p {
				continue
			}
			w := float64(r.IntN(5))
			if !integer {
				w = 10 * r.Float64()
				if r.IntN(10) == 0 {
					w = 0
				}
			}
			g.out[a] = append(g.out[a], core.Edge{To: int32(b), Cost: w})
			if r.IntN(8) == 0 { // a parallel edge now and then
				g.out[a] = append(g.out[a], core.Edge{To: int32(b), Cost: w + 1})
			}
		}
	}
	return g
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xc0de)) }

// bellmanFord returns the cost of a shortest path from src to every node
// (+Inf where there is none), by brute force.
func bellmanFord(g *adj, src int32) []float64 {
	d := make([]float64, len(g.out))
	for i := range d {
		d[i] = math.Inf(1)
	}
	d[src] = 0
	for range len(g.out) {
		changed := false
		for a, es := range g.out {
			for _, e := range es {
				if d[a]+e.Cost < d[e.To] {
					d[e.To] = d[a] + e.Cost
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return d
}

// table is a heuristic given per node.
type table struct{ h []float64 }

func (t *table) Estimate(n int32) float64 { return t.h[n] }

// heuristics for a query toward goal: none, zero, half and exact distance
// (consistent), and a random fraction of the distance (admissible but
// inconsistent). Nodes that cannot reach the goal get +Inf, except in the
// random one, where they get 0.
type heuristic struct {
	name       string
	h          core.Heuristic
	consistent bool
}

func heuristics(g *adj, goal int32, r *rand.Rand) []heuristic {
	toGoal := bellmanFord(g.reverse(), goal)
	half, exact, frac := make([]float64, len(toGoal)), make([]float64, len(toGoal)), make([]float64, len(toGoal))
	for n, d := range toGoal {
		half[n], exact[n] = d/2, d
		if !math.IsInf(d, 1) {
			frac[n] = d * r.Float64()
		}
	}
	return []heuristic{
		{"nil", nil, true},
		{"zero", &table{make([]float64, len(toGoal))}, true},
		{"half", &table{half}, true},
		{"exact", &table{exact}, true},
		{"random fraction", &table{frac}, false},
	}
}

const tol = 1e-9

func near(a, b float64) bool {
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// checkPath checks that path runs from start to end along edges of g and
// returns its cost (over the cheapest parallel edges).
func checkPath(g *adj, path []int32, start, end int32) (float64, error) {
	if len(path) == 0 || path[0] != start || path[len(path)-1] != end {
		return 0, fmt.Errorf("path %v does not run from %d to %d", path, start, end)
	}
	var c float64
	for i := 1; i < len(path); i++ {
		w, ok := g.edge(path[i-1], path[i])
		if !ok {
			return 0, fmt.Errorf("path %v: no edge from %d to %d", path, path[i-1], path[i])
		}
		c += w
	}
	return c, nil
}

// graphCase is a random graph with a seed, for failure messages.
type graphCase struct {
	seed uint64
	g    *adj
	r    *rand.Rand
}

func graphCases(n int) []graphCase {
	cs := make([]graphCase, n)
	for i := range cs {
		seed := uint64(i + 1)
		r := newRand(seed)
		size := 1 + r.IntN(30)
		cs[i] = graphCase{seed, randomGraph(r, size, 0.25*r.Float64(), i%2 == 0), r}
	}
	return cs
}

func TestSearchMatchesBellmanFord(t *testing.T) {
	found, unreachable := 0, 0
	for _, c := range graphCases(300) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		n := int32(len(g.out))
		for range 5 {
			start, goal := r.Int32N(n), r.Int32N(n)
			want := bellmanFord(g, start)
			for _, h := range heuristics(g, goal, r) {
				for _, w := range []float64{1, 1.5, 3} {
					where := fmt.Sprintf("seed %d, %d→%d, heuristic %s, weight %v", c.seed, start, goal, h.name, w)
					res := s.Search(start, goal, h.h, core.Query{Weight: w})
					path := s.AppendPath(nil, res.End)
					if math.IsInf(want[goal], 1) {
						unreachable++
						if res.Status != core.Unreachable || res.End != -1 || len(path) != 0 {
							t.Errorf("%s: got %+v, path %v\nwant unreachable, End -1, no path\n%v", where, res, path, g)
						}
						if h.h == nil && res.Expanded != reachable(want) {
							t.Errorf("%s: got %d expanded\nwant every reachable node, %d\n%v", where, res.Expanded, reachable(want), g)
						}
						continue
					}
					found++
					// Weighted A* is within a factor Weight of the optimum.
					if res.Status != core.Found || res.End != goal || res.Cost < want[goal]-tol || res.Cost > w*want[goal]+tol ||
						(w == 1 && !near(res.Cost, want[goal])) {
						t.Errorf("%s: got %+v\nwant found at %d, cost %.12g (times at most %v)\n%v", where, res, goal, want[goal], w, g)
						continue
					}
					pc, err := checkPath(g, path, start, goal)
					if err != nil || !near(pc, res.Cost) {
						t.Errorf("%s: path %v costs %.12g (err %v)\nwant cost %.12g\n%v", where, path, pc, err, res.Cost, g)
					}
					if d, ok := s.Dist(goal); !ok || !near(d, res.Cost) {
						t.Errorf("%s: Dist(goal) got %v, %v\nwant %v, true", where, d, ok, res.Cost)
					}
					if !h.consistent || w != 1 {
						continue
					}
					// Settled nodes have their exact distance.
					for v := range n {
						if d, ok := s.Dist(v); ok && !near(d, want[v]) {
							t.Errorf("%s: Dist(%d) got %.12g\nwant %.12g\n%v", where, v, d, want[v], g)
						}
					}
				}
			}
		}
	}
	if found < 100 || unreachable < 100 {
		t.Errorf("%d found and %d unreachable queries: the random graphs test too little", found, unreachable)
	}
}

func reachable(dist []float64) int {
	n := 0
	for _, d := range dist {
		if !math.IsInf(d, 1) {
			n++
		}
	}
	return n
}

func TestSearchFunc(t *testing.T) {
	for _, c := range graphCases(200) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		n := int32(len(g.out))
		for range 5 {
			start := r.Int32N(n)
			want := bellmanFord(g, start)
			goals := make([]bool, n)
			nearest := math.Inf(1)
			for v := range n {
				if r.IntN(4) == 0 {
					goals[v] = true
					nearest = min(nearest, want[v])
				}
			}
			where := fmt.Sprintf("seed %d, start %d, goals %v", c.seed, start, goals)
			res := s.SearchFunc(start, func(v int32) bool { return goals[v] }, nil, core.Query{})
			if math.IsInf(nearest, 1) {
				if res.Status != core.Unreachable {
					t.Errorf("%s: got %+v\nwant unreachable\n%v", where, res, g)
				}
				continue
			}
			if res.Status != core.Found || res.End < 0 || !goals[res.End] || !near(res.Cost, nearest) {
				t.Errorf("%s: got %+v\nwant found at a goal of cost %.12g\n%v", where, res, nearest, g)
				continue
			}
			if goals[start] && (res.End != start || res.Expanded != 0) {
				t.Errorf("%s: got %+v\nwant the start, 0 expanded", where, res)
			}
			path := s.AppendPath(nil, res.End)
			if pc, err := checkPath(g, path, start, res.End); err != nil || !near(pc, res.Cost) {
				t.Errorf("%s: path %v costs %.12g (err %v)\nwant %.12g\n%v", where, path, pc, err, res.Cost, g)
			}
		}
	}
}

func TestSearchAll(t *testing.T) {
	for _, c := range graphCases(200) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		n := int32(len(g.out))
		for range 5 {
			start := r.Int32N(n)
			want := bellmanFord(g, start)
			var targets []int32
			for range r.IntN(6) {
				targets = append(targets, r.Int32N(n)) // repeats allowed
			}
			where := fmt.Sprintf("seed %d, start %d, targets %v", c.seed, start, targets)
			res := s.SearchAll(start, targets, core.Query{})
			all, farthest := true, 0.0
			for _, tg := range targets {
				all = all && !math.IsInf(want[tg], 1)
				farthest = max(farthest, want[tg])
			}
			wantStatus := core.Found
			if !all {
				wantStatus = core.Unreachable
			}
			if res.Status != wantStatus {
				t.Errorf("%s: got %+v\nwant status %v\n%v", where, res, wantStatus, g)
				continue
			}
			if all && len(targets) == 0 && (res.End != start || res.Cost != 0) {
				t.Errorf("%s: got %+v\nwant End at the start, cost 0", where, res)
			}
			if all && len(targets) > 0 && (!slices.Contains(targets, res.End) || !near(res.Cost, farthest)) {
				t.Errorf("%s: got %+v\nwant End at the farthest target, cost %.12g\n%v", where, res, farthest, g)
			}
			for _, tg := range targets {
				d, ok := s.Dist(tg)
				if math.IsInf(want[tg], 1) {
					if ok {
						t.Errorf("%s: Dist(%d) got %v, true\nwant unreachable", where, tg, d)
					}
					continue
				}
				if !ok || !near(d, want[tg]) {
					t.Errorf("%s: Dist(%d) got %.12g, %v\nwant %.12g, true\n%v", where, tg, d, ok, want[tg], g)
					continue
				}
				path := s.AppendPath(nil, tg)
				if pc, err := checkPath(g, path, start, tg); err != nil || !near(pc, d) {
					t.Errorf("%s: path to %d %v costs %.12g (err %v)\nwant %.12g", where, tg, path, pc, err, d)
				}
			}
		}
	}
}

func TestSearchAllOneUnreachable(t *testing.T) {
	// 0 → 1 → 2, and 3 on its own.
	g := &adj{out: [][]core.Edge{{{To: 1, Cost: 2}}, {{To: 2, Cost: 3}}, nil, nil}}
	s := core.NewSearcher(g)
	res := s.SearchAll(0, []int32{2, 3}, core.Query{})
	if res.Status != core.Unreachable {
		t.Errorf("got %+v\nwant unreachable", res)
	}
	if d, ok := s.Dist(2); !ok || d != 5 {
		t.Errorf("Dist(2) got %v, %v\nwant 5, true", d, ok)
	}
	if d, ok := s.Dist(3); ok {
		t.Errorf("Dist(3) got %v, true\nwant false", d)
	}
}

// TestSearchAllAfterGraphShrinks runs SearchAll on a graph that lost a node
// since the previous query: targets left unsettled by that query must not
// count for the next one.
func TestSearchAllAfterGraphShrinks(t *testing.T) {
	// 0 → 1; 2 is unreachable and stays an unsettled target.
	g := &adj{out: [][]core.Edge{{{To: 1, Cost: 1}}, nil, nil, nil, nil}}
	s := core.NewSearcher(g)
	if res := s.SearchAll(0, []int32{1, 2}, core.Query{}); res.Status != core.Unreachable {
		t.Fatalf("first query: got %+v, want unreachable", res)
	}
	// Four nodes: 0 → 2 → 1, and 0 → 3 at cost 10.
	g.out = [][]core.Edge{{{To: 2, Cost: 1}, {To: 3, Cost: 10}}, nil, {{To: 1, Cost: 1}}, nil}
	res := s.SearchAll(0, []int32{1, 3}, core.Query{})
	d, ok := s.Dist(3)
	if res.Status != core.Found || res.End != 3 || !ok || d != 10 {
		t.Errorf("got %+v, Dist(3) = %v, %v\nwant found, End 3, Dist(3) = 10, true\n%v", res, d, ok, g)
	}
}

// runSliced runs a sliced query to the end, n expansions per step, and checks
// the in-progress results on the way.
func runSliced(t *testing.T, sl *core.Sliced, start, goal int32, h core.Heuristic, opt core.Query, n int, where string) core.Result {
	t.Helper()
	sl.Begin(start, goal, h, opt)
	prev := 0
	for i := 0; ; i++ {
		st := sl.Step(n)
		r := sl.Result()
		if st != core.InProgress {
			if r.Status != st {
				t.Errorf("%s: Step returned %v but Result says %+v", where, st, r)
			}
			if again := sl.Step(n); again != st {
				t.Errorf("%s: Step after the end returned %v, want %v", where, again, st)
			}
			return r
		}
		if r.Status != core.InProgress || r.Expanded < prev || r.Expanded > prev+n {
			t.Fatalf("%s: step %d of %d: got %+v\nwant in progress, %d to %d expanded", where, i, n, r, prev, prev+n)
		}
		prev = r.Expanded
		if i > 1e6 {
			t.Fatalf("%s: no end after %d steps", where, i)
		}
	}
}

func TestSlicedMatchesSearcher(t *testing.T) {
	for _, c := range graphCases(150) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		sl := core.NewSliced(g)
		n := int32(len(g.out))
		for range 4 {
			start, goal := r.Int32N(n), r.Int32N(n)
			for _, h := range heuristics(g, goal, r) {
				for _, opt := range []core.Query{{}, {MaxExpansions: 3}, {Weight: 2}} {
					want := s.Search(start, goal, h.h, opt)
					wantPath := s.AppendPath(nil, want.End)
					for _, step := range []int{1, 3, 1000} {
						where := fmt.Sprintf("seed %d, %d→%d, heuristic %s, %+v, Step(%d)", c.seed, start, goal, h.name, opt, step)
						got := runSliced(t, sl, start, goal, h.h, opt, step, where)
						gotPath := sl.AppendPath(nil, got.End)
						if got != want || !slices.Equal(gotPath, wantPath) {
							t.Errorf("%s: got %+v, path %v\nwant %+v, path %v\n%v", where, got, gotPath, want, wantPath, g)
						}
					}
				}
			}
		}
	}
}

func TestSlicedBeforeBegin(t *testing.T) {
	sl := core.NewSliced(&adj{out: make([][]core.Edge, 3)})
	if st := sl.Step(1); st == core.InProgress || st == core.Found {
		t.Errorf("Step before Begin got %v, want an end without a path", st)
	}
	if r := sl.Result(); r.End != -1 || r.Status == core.Found {
		t.Errorf("Result before Begin got %+v, want End -1 and no path", r)
	}
}

// TestSlicedInterleaved runs two sliced searches and a blocking searcher on
// one graph, turn and turn about, and checks none disturbs another.
func TestSlicedInterleaved(t *testing.T) {
	for _, c := range graphCases(100) {
		g, r := c.g, c.r
		n := int32(len(g.out))
		ref := core.NewSearcher(g)
		s := core.NewSearcher(g)
		sls := []*core.Sliced{core.NewSliced(g), core.NewSliced(g)}
		type query struct{ start, goal int32 }
		q := []query{{r.Int32N(n), r.Int32N(n)}, {r.Int32N(n), r.Int32N(n)}}
		for i, sl := range sls {
			sl.Begin(q[i].start, q[i].goal, nil, core.Query{})
		}
		done := []bool{false, false}
		for step := 0; !done[0] || !done[1]; step++ {
			for i, sl := range sls {
				if !done[i] {
					done[i] = sl.Step(1) != core.InProgress
				}
			}
			a, b := r.Int32N(n), r.Int32N(n)
			got := s.Search(a, b, nil, core.Query{})
			want := ref.Search(a, b, nil, core.Query{})
			if got != want {
				t.Errorf("seed %d, step %d, searcher %d→%d: got %+v\nwant %+v\n%v", c.seed, step, a, b, got, want, g)
			}
		}
		for i, sl := range sls {
			want := ref.Search(q[i].start, q[i].goal, nil, core.Query{})
			wantPath := ref.AppendPath(nil, want.End)
			got := sl.Result()
			gotPath := sl.AppendPath(nil, got.End)
			if got != want || !slices.Equal(gotPath, wantPath) {
				t.Errorf("seed %d, sliced %d, %d→%d: got %+v, path %v\nwant %+v, path %v\n%v",
					c.seed, i, q[i].start, q[i].goal, got, gotPath, want, wantPath, g)
			}
		}
	}
}

// TestInconsistentHeuristic has a heuristic that never overestimates but
// drops by more than an edge's cost from a to c, so c is first expanded by a
// worse path and must be reopened.
func TestInconsistentHeuristic(t *testing.T) {
	const s, a, c, goal = 0, 1, 2, 3
	g := &adj{out: [][]core.Edge{
		s:    {{To: a, Cost: 1}, {To: c, Cost: 3}},
		a:    {{To: c, Cost: 1}},
		c:    {{To: goal, Cost: 5}},
		goal: nil,
	}}
	h := &table{[]float64{s: 0, a: 6, c: 0, goal: 0}}
	for _, w := range []float64{1, 0} {
		sr := core.NewSearcher(g)
		res := sr.Search(s, goal, h, core.Query{Weight: w})
		path := sr.AppendPath(nil, res.End)
		if res.Status != core.Found || res.Cost != 7 || !slices.Equal(path, []int32{s, a, c, goal}) {
			t.Errorf("got %+v, path %v\nwant found, cost 7, path [0 1 2 3]", res, path)
		}
	}
}

func TestOnExpandOrder(t *testing.T) {
	for _, c := range graphCases(200) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		n := int32(len(g.out))
		for range 5 {
			start, goal := r.Int32N(n), r.Int32N(n)
			dist := bellmanFord(g, start)
			for _, h := range heuristics(g, goal, r) {
				if !h.consistent {
					continue
				}
				where := fmt.Sprintf("seed %d, %d→%d, heuristic %s", c.seed, start, goal, h.name)
				var order []int32
				prevF := math.Inf(-1)
				res := s.Search(start, goal, h.h, core.Query{OnExpand: func(v int32, gv float64) {
					hv := 0.0
					if h.h != nil {
						hv = h.h.Estimate(v)
					}
					if f := gv + hv; f < prevF-tol*math.Max(1, math.Abs(f)) {
						t.Errorf("%s: %d expanded with f %.12g after f %.12g\n%v", where, v, f, prevF, g)
					} else {
						prevF = max(prevF, f)
					}
					// Nodes that cannot reach the goal all have f = +Inf, and
					// no order among them; the others are expanded once, at
					// their exact cost.
					if !math.IsInf(hv, 1) {
						if !near(gv, dist[v]) {
							t.Errorf("%s: %d expanded at cost %.12g, want %.12g", where, v, gv, dist[v])
						}
						if slices.Contains(order, v) {
							t.Errorf("%s: %d expanded twice", where, v)
						}
					}
					order = append(order, v)
				}})
				if len(order) != res.Expanded {
					t.Errorf("%s: OnExpand called %d times, want Expanded = %d", where, len(order), res.Expanded)
				}
				if len(order) > 0 && order[0] != start {
					t.Errorf("%s: first expanded %d, want the start %d", where, order[0], start)
				}
			}
		}
	}
}

// TestBudget checks that a search out of expansions stops at the cap and ends
// its partial path at the node of lowest heuristic seen.
func TestBudget(t *testing.T) {
	spent := 0
	for _, c := range graphCases(200) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		n := int32(len(g.out))
		for range 5 {
			start, goal := r.Int32N(n), r.Int32N(n)
			for _, h := range heuristics(g, goal, r) {
				est := func(v int32) float64 {
					if h.h == nil {
						return 0
					}
					return h.h.Estimate(v)
				}
				for _, budget := range []int{1, 2, 4} {
					where := fmt.Sprintf("seed %d, %d→%d, heuristic %s, budget %d", c.seed, start, goal, h.name, budget)
					seen := []int32{start}
					res := s.Search(start, goal, h.h, core.Query{MaxExpansions: budget, OnExpand: func(v int32, _ float64) {
						for _, e := range g.out[v] {
							seen = append(seen, e.To)
						}
					}})
					if res.Expanded > budget {
						t.Errorf("%s: got %d expanded, want at most %d", where, res.Expanded, budget)
					}
					if res.Status != core.BudgetSpent {
						continue
					}
					spent++
					lowest := math.Inf(1)
					for _, v := range seen {
						lowest = min(lowest, est(v))
					}
					if res.Expanded != budget || est(res.End) != lowest {
						t.Errorf("%s: got %+v with h(End) = %v\nwant %d expanded, h(End) = %v, the lowest seen\n%v",
							where, res, est(res.End), budget, lowest, g)
					}
					path := s.AppendPath(nil, res.End)
					pc, err := checkPath(g, path, start, res.End)
					if err != nil || (h.consistent && !near(pc, res.Cost)) {
						// (TestBudgetCostAfterReopen covers the inconsistent case.)
						t.Errorf("%s: partial path %v costs %.12g (err %v)\nwant %.12g\n%v", where, path, pc, err, res.Cost, g)
					}
				}
			}
		}
	}
	if spent < 100 {
		t.Errorf("only %d searches spent their budget: the test checks too little", spent)
	}
}

// TestBudgetCostAfterReopen spends the budget just after an inconsistent
// heuristic has made the search reopen a node on the partial path: the
// reported cost must still be the cost of the path returned.
func TestBudgetCostAfterReopen(t *testing.T) {
	const s, a, p, x, goal = 0, 1, 2, 3, 4
	g := &adj{out: [][]core.Edge{
		s:    {{To: p, Cost: 5}, {To: a, Cost: 1}},
		a:    {{To: p, Cost: 1}},
		p:    {{To: x, Cost: 1}},
		x:    {{To: goal, Cost: 100}},
		goal: nil,
	}}
	// Admissible (the true costs are 103, 102, 101, 100, 0), not consistent
	// from a to p. Expansions: s, p (at 5), x (at 6, goal seen at 106), a,
	// which improves p to 2; the budget then ends the search.
	h := &table{[]float64{s: 20, a: 50, p: 10, x: 1, goal: 0}}
	sr := core.NewSearcher(g)
	res := sr.Search(s, goal, h, core.Query{MaxExpansions: 4})
	path := sr.AppendPath(nil, res.End)
	pc, err := checkPath(g, path, s, res.End)
	if err != nil || res.Status != core.BudgetSpent || pc != res.Cost {
		t.Errorf("got %+v, path %v of cost %v (err %v)\nwant budget spent with the cost of the path\n%v", res, path, pc, err, g)
	}
}

// TestGenerationWrap runs queries while the generation counter wraps around,
// after an earlier query has left stamps that a missing reset would mistake
// for current ones.
func TestGenerationWrap(t *testing.T) {
	for _, c := range graphCases(60) {
		g, r := c.g, c.r
		n := int32(len(g.out))
		ref := core.NewSearcher(g)
		for _, last := range []uint32{math.MaxUint32 - 1, math.MaxUint32 - 3, math.MaxUint32 - 5} {
			s := core.NewSearcher(g)
			sl := core.NewSliced(g)
			a, b := r.Int32N(n), r.Int32N(n)
			s.Search(a, b, nil, core.Query{}) // stamps at the first generations
			sl.Begin(a, b, nil, core.Query{})
			sl.Step(1000)
			core.SetGen(s, last)
			core.SetSlicedGen(sl, last)
			for i := range 6 {
				start, goal := r.Int32N(n), r.Int32N(n)
				want := ref.Search(start, goal, nil, core.Query{})
				wantPath := ref.AppendPath(nil, want.End)
				got := s.Search(start, goal, nil, core.Query{})
				gotPath := s.AppendPath(nil, got.End)
				sgot := runSliced(t, sl, start, goal, nil, core.Query{}, 2, "sliced")
				sgotPath := sl.AppendPath(nil, sgot.End)
				if got != want || !slices.Equal(gotPath, wantPath) || sgot != want || !slices.Equal(sgotPath, wantPath) {
					t.Errorf("seed %d, generation %d+%d, %d→%d: got %+v path %v, sliced %+v path %v\nwant %+v path %v\n%v",
						c.seed, last, 2*(i+1), start, goal, got, gotPath, sgot, sgotPath, want, wantPath, g)
				}
			}
		}
	}
}

func TestPanicsOnBadNodes(t *testing.T) {
	g := &adj{out: make([][]core.Edge, 3)}
	tests := []struct {
		name string
		f    func(s *core.Searcher)
		want string
	}{
		{"start negative", func(s *core.Searcher) { s.Search(-1, 0, nil, core.Query{}) }, "start"},
		{"start too big", func(s *core.Searcher) { s.Search(3, 0, nil, core.Query{}) }, "start"},
		{"goal too big", func(s *core.Searcher) { s.Search(0, 3, nil, core.Query{}) }, "goal"},
		{"target too big", func(s *core.Searcher) { s.SearchAll(0, []int32{1, 7}, core.Query{}) }, "target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, tt.want) {
					t.Errorf("got panic %q\nwant one mentioning %q", msg, tt.want)
				}
			}()
			tt.f(core.NewSearcher(g))
		})
	}
}

func TestStatusString(t *testing.T) {
	for st, want := range map[core.Status]string{
		core.Found: "found", core.Unreachable: "unreachable", core.BudgetSpent: "budget spent",
		core.InProgress: "in progress", core.Status(9): "Status(9)",
	} {
		if got := st.String(); got != want {
			t.Errorf("Status(%d).String() got %q, want %q", uint8(st), got, want)
		}
	}
}

// gridGraph is a w × h 4-connected lattice with unit costs, big enough for
// the allocation test to run real searches.
func gridGraph(w, h int) *adj {
	g := &adj{out: make([][]core.Edge, w*h)}
	for y := range h {
		for x := range w {
			n := y*w + x
			if x+1 < w {
				g.out[n] = append(g.out[n], core.Edge{To: int32(n + 1), Cost: 1})
				g.out[n+1] = append(g.out[n+1], core.Edge{To: int32(n), Cost: 1})
			}
			if y+1 < h {
				g.out[n] = append(g.out[n], core.Edge{To: int32(n + w), Cost: 1.5})
				g.out[n+w] = append(g.out[n+w], core.Edge{To: int32(n), Cost: 1.5})
			}
		}
	}
	return g
}

func TestAllocs(t *testing.T) {
	const w, h = 40, 30
	g := gridGraph(w, h)
	r := newRand(1)
	var queries [][2]int32
	for range 50 {
		queries = append(queries, [2]int32{r.Int32N(w * h), r.Int32N(w * h)})
	}
	s := core.NewSearcher(g)
	sl := core.NewSliced(g)
	var path []int32
	targets := []int32{5, 77, 900, 1100}
	isGoal := func(n int32) bool { return n%97 == 13 }
	var h0 core.Heuristic = &table{make([]float64, w*h)}
	for range 2 { // warm-up: grow every buffer
		for _, q := range queries {
			res := s.Search(q[0], q[1], h0, core.Query{})
			path = s.AppendPath(path[:0], res.End)
			s.SearchAll(q[0], targets, core.Query{})
			s.SearchFunc(q[0], isGoal, nil, core.Query{})
			sl.Begin(q[0], q[1], h0, core.Query{})
			for sl.Step(10) == core.InProgress {
			}
		}
	}
	tests := []struct {
		name string
		f    func(q [2]int32)
	}{
		{"Search", func(q [2]int32) {
			res := s.Search(q[0], q[1], h0, core.Query{})
			path = s.AppendPath(path[:0], res.End)
		}},
		{"Search/budget", func(q [2]int32) {
			res := s.Search(q[0], q[1], h0, core.Query{MaxExpansions: 20})
			path = s.AppendPath(path[:0], res.End)
		}},
		{"SearchFunc", func(q [2]int32) { s.SearchFunc(q[0], isGoal, nil, core.Query{}) }},
		{"SearchAll", func(q [2]int32) { s.SearchAll(q[0], targets, core.Query{}) }},
		{"Sliced", func(q [2]int32) {
			sl.Begin(q[0], q[1], h0, core.Query{})
			for sl.Step(10) == core.InProgress {
			}
			path = sl.AppendPath(path[:0], sl.Result().End)
		}},
	}
	for _, tt := range tests {
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			tt.f(queries[i%len(queries)])
			i++
		})
		if allocs != 0 {
			t.Errorf("%s: got %v allocations per query\nwant 0", tt.name, allocs)
		}
	}
}

// TestSlicedResultAfterReopen checks the cost a time-sliced search reports
// mid-search is that of the path it reports, when an inconsistent (but
// admissible) heuristic has made it reopen a closed node.
func TestSlicedResultAfterReopen(t *testing.T) {
	const s, a, b, c, d, goal = 0, 1, 2, 3, 4, 5
	g := &adj{out: [][]core.Edge{
		s:    {{To: a, Cost: 1}, {To: b, Cost: 1}},
		a:    {{To: c, Cost: 5}},
		b:    {{To: c, Cost: 1}},
		c:    {{To: d, Cost: 1}},
		d:    {{To: goal, Cost: 10}},
		goal: nil,
	}}
	h := &table{h: []float64{12, 11, 11.5, 5, 4, 0}}
	sl := core.NewSliced(g)
	sl.Begin(s, goal, h, core.Query{})
	for range 5 {
		if st := sl.Step(1); st != core.InProgress {
			break
		}
	}
	r := sl.Result()
	path := sl.AppendPath(nil, r.End)
	var cost float64
	for i := 1; i < len(path); i++ {
		e, _ := g.edge(path[i-1], path[i])
		cost += e
	}
	if r.Cost != cost {
		t.Fatalf("Result() = %+v with path %v of cost %v; want the path's cost\n%v", r, path, cost, g)
	}
}

// TestBadEdges gives the search graphs that break the Graph contract. A
// negative cycle once made Search loop forever, NaN and +Inf costs came
// back as found paths of NaN or +Inf cost, and an edge past NumNodes was a
// bare index panic. Now the search panics with a message naming the edge,
// or skips edges of cost +Inf (and edges whose sum overflows to +Inf).
func TestBadEdges(t *testing.T) {
	e := func(to int32, c float64) core.Edge { return core.Edge{To: to, Cost: c} }
	tests := []struct {
		name  string
		g     *adj
		panic string // the start of the panic's message; "" for none
		want  core.Result
	}{
		{"negative cycle", &adj{[][]core.Edge{{e(1, 1)}, {e(0, -3), e(2, 1)}, {}, {}}}, "core: graph gave node 1 an edge to node 0 of cost -3", core.Result{}},
		{"NaN cost", &adj{[][]core.Edge{{e(1, math.NaN())}, {e(3, 1)}, {}, {}}}, "core: graph gave node 0 an edge to node 1 of cost NaN", core.Result{}},
		{"negative infinity", &adj{[][]core.Edge{{e(3, math.Inf(-1))}, {}, {}, {}}}, "core: graph gave node 0 an edge to node 3 of cost -Inf", core.Result{}},
		{"edge past the nodes", &adj{[][]core.Edge{{e(1, 1)}, {e(4, 1)}, {}, {}}}, "core: graph gave node 1 an edge to node 4, outside [0, 4)", core.Result{}},
		{"negative node", &adj{[][]core.Edge{{e(-2, 1)}, {}, {}, {}}}, "core: graph gave node 0 an edge to node -2, outside [0, 4)", core.Result{}},
		{"infinite cost is no edge", &adj{[][]core.Edge{{e(3, math.Inf(1))}, {}, {}, {}}}, "", core.Result{Status: core.Unreachable, End: -1, Expanded: 1}},
		{"infinite edge beside a finite path", &adj{[][]core.Edge{{e(3, math.Inf(1)), e(1, 2)}, {e(3, 2)}, {}, {}}}, "", core.Result{Status: core.Found, End: 3, Cost: 4, Expanded: 2}},
		{"overflowing sum is no path", &adj{[][]core.Edge{{e(1, math.MaxFloat64)}, {e(3, math.MaxFloat64)}, {}, {}}}, "", core.Result{Status: core.Unreachable, End: -1, Expanded: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, kind := range []string{"Search", "Sliced", "SearchAll"} {
				var got core.Result
				msg := testmap.Panic(func() {
					switch kind {
					case "Search":
						got = core.NewSearcher(tc.g).Search(0, 3, nil, core.Query{})
					case "Sliced":
						sl := core.NewSliced(tc.g)
						sl.Begin(0, 3, nil, core.Query{})
						for i := 0; sl.Step(1) == core.InProgress; i++ {
							if i > 100 {
								panic("no end after 100 steps")
							}
						}
						got = sl.Result()
					case "SearchAll":
						got = core.NewSearcher(tc.g).SearchAll(0, []int32{3}, core.Query{})
					}
				})
				if tc.panic == "" {
					if msg != "" {
						t.Fatalf("%s: panic %q, want none", kind, msg)
					}
					if kind == "Search" && got != tc.want {
						t.Errorf("%s: got %+v, want %+v", kind, got, tc.want)
					}
					if got.Status != tc.want.Status || got.Cost != tc.want.Cost {
						t.Errorf("%s: got %v cost %v, want %v cost %v", kind, got.Status, got.Cost, tc.want.Status, tc.want.Cost)
					}
					continue
				}
				if !strings.HasPrefix(msg, tc.panic) {
					t.Errorf("%s: panic %q, want one starting %q", kind, msg, tc.panic)
				}
			}
		})
	}
}

// TestNilGraph checks the documented panics of the constructors.
func TestNilGraph(t *testing.T) {
	for name, f := range map[string]func(){
		"NewSearcher": func() { core.NewSearcher(nil) },
		"NewSliced":   func() { core.NewSliced(nil) },
	} {
		if msg := testmap.Panic(f); msg != "core: searcher of a nil graph" {
			t.Errorf("%s(nil): panic %q", name, msg)
		}
	}
}
