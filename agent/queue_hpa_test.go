package agent_test

import (
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// drain runs q under budgets of 1 to 50 expansions a call until it is
// empty, failing on a call over its budget by more than slack: for HPA*,
// the searches that join a query's ends to the graph (two of a cluster's
// cells) or one search that fills a cluster's table (at most every node).
func drain(t *testing.T, q *agent.Queue, slack int) {
	t.Helper()
	for call := 0; q.Len() > 0; call++ {
		if call > 200000 {
			t.Fatal("the queue does not drain")
		}
		budget := 1 + call%50
		if exp, _ := q.Run(agent.Budget{Expansions: budget}); exp > budget+slack {
			t.Fatalf("call %d expanded %d, over its budget %d", call, exp, budget)
		}
	}
}

// graphQueue returns a random map of 150×110 cells, an HPA* graph of it
// with small clusters, and a queue that searches the graph.
func graphQueue(t *testing.T, seed int64, density float64) (*grid.Grid, *hpa.Graph, *agent.Queue) {
	t.Helper()
	g := testmap.Random(seed, 150, 110, density, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: 3})
	if err != nil {
		t.Fatal(err)
	}
	q := agent.NewQueue(g)
	if err := q.UseGraph(hg); err != nil {
		t.Fatal(err)
	}
	return g, hg, q
}

// TestQueueGraph sends a queue's requests through HPA* (UseGraph) under
// small budgets: each path is hpa.Searcher.AppendPath's, cell for cell,
// goals in other regions give no path (or, with Partial, a path to the
// reachable cell nearest the goal), and requests with a filter still run
// on the grid, optimal.
func TestQueueGraph(t *testing.T) {
	g, hg, q := graphQueue(t, 5, 0.2)
	q.Partial = true
	ref := hpa.NewSearcher(hg)
	pairs := testmap.RandomPairs(testmap.NewRand(5), g, 80)
	// Goals in other regions than their starts (small pockets of the map).
	free := testmap.FreeCells(g)
	for _, c := range free {
		if len(pairs) < 85 && !g.Connected(free[0], c) {
			pairs = append(pairs, [2]image.Point{free[0], c})
		}
	}
	paths := make([]agent.Path, len(pairs))
	for i, pair := range pairs {
		q.Request(&paths[i], pair[0], pair[1], 0)
	}
	drain(t, q, 2*8*8+hg.Stats().Nodes)
	hpaPaths, partial := 0, 0
	for i, pair := range pairs {
		p := &paths[i]
		to := pair[1]
		if !g.Connected(pair[0], to) {
			if p.Status() != agent.Partial {
				t.Fatalf("request %d: status %v for a goal in another region, want partial", i, p.Status())
			}
			to, _ = g.NearestReachable(pair[1], pair[0])
			partial++
		}
		want, _, err := ref.AppendPath(nil, pair[0], to, hpa.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Cells(), want) {
			t.Fatalf("request %d %v→%v: %d cells (%v), AppendPath %d", i, pair[0], to, len(p.Cells()), p.Status(), len(want))
		}
		hpaPaths++
	}
	if partial == 0 || hpaPaths < 60 {
		t.Fatalf("%d paths, %d partial: the test does not test", hpaPaths, partial)
	}

	// A filter keeps its requests on the grid.
	f := &grid.Filter{}
	q.Query.Filter = f
	o := testmap.NewOracle(g)
	var p agent.Path
	a, b := pairs[0][0], pairs[0][1]
	if !g.Connected(a, b) {
		a, b = pairs[1][0], pairs[1][1]
	}
	q.Request(&p, a, b, 0)
	drain(t, q, 0)
	want, _ := o.Dist(a, b)
	if c, err := testmap.CheckPath(g, p.Cells(), a, b); err != nil || c > want+1e-9 {
		t.Fatalf("filtered request: cost %v (%v), optimum %v", c, err, want)
	}
}

// TestQueueGraphEdits edits the grid while an HPA* request is in progress:
// until the graph is updated the queue waits, and then the request starts
// again and ends with AppendPath's path on the edited map; a graph of
// another grid is refused.
func TestQueueGraphEdits(t *testing.T) {
	g, hg, q := graphQueue(t, 7, 0.15)
	other := testmap.Random(8, 150, 110, 0.15, grid.Options{})
	if err := agent.NewQueue(other).UseGraph(hg); err == nil {
		t.Fatal("UseGraph took a graph of another grid")
	}
	ref := hpa.NewSearcher(hg)
	r := testmap.NewRand(7)
	checked := 0
	for _, pair := range testmap.RandomPairs(r, g, 40) {
		if !g.Connected(pair[0], pair[1]) {
			continue
		}
		var p agent.Path
		q.Request(&p, pair[0], pair[1], 0)
		q.Run(agent.Budget{Expansions: 2})
		// A wall away from both ends.
		x, y := r.IntN(140), r.IntN(100)
		wall := image.Rect(x, y, x+10, y+1)
		if pair[0].In(wall.Inset(-1)) || pair[1].In(wall.Inset(-1)) {
			continue
		}
		g.SetCells(wall, false)
		if exp, fin := q.Run(agent.Budget{}); exp != 0 || fin != 0 {
			t.Fatalf("ran %d expansions and finished %d requests on a graph out of date", exp, fin)
		}
		if _, err := hg.Update(g, wall); err != nil {
			t.Fatal(err)
		}
		drain(t, q, 2*8*8+hg.Stats().Nodes)
		if g.Connected(pair[0], pair[1]) {
			want, _, err := ref.AppendPath(nil, pair[0], pair[1], hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Cells(), want) {
				t.Fatalf("%v→%v after the edit: %d cells (%v), AppendPath %d", pair[0], pair[1], len(p.Cells()), p.Status(), len(want))
			}
			checked++
		}
		g.SetCells(wall, true)
		if _, err := hg.Update(g, wall); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// TestQueueGraphAllocs: once the graph keeps the paths and tables that
// the requests need, a request run through HPA* allocates nothing.
func TestQueueGraphAllocs(t *testing.T) {
	g, _, q := graphQueue(t, 9, 0.15)
	pairs := testmap.RandomPairs(testmap.NewRand(9), g, 10)
	var p agent.Path
	run := func() {
		for _, pair := range pairs {
			q.Request(&p, pair[0], pair[1], 0)
			q.Run(agent.Budget{})
		}
	}
	run()
	p.Grow(4096)
	if n := testing.AllocsPerRun(5, run); n != 0 {
		t.Fatalf("%v allocations a run of %d requests", n, len(pairs))
	}
}
