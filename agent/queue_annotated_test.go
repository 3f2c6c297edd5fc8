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

// annotatedQueues returns a random map with swamps, an annotated graph of
// three levels over it for the plain class, units of size 2 and a
// swamp-shy scout, and a queue for each class that searches the graph.
func annotatedQueues(t *testing.T, seed int64) (*grid.Grid, *hpa.Annotated, []*agent.Queue) {
	t.Helper()
	g := testmap.RandomAreas(seed, 150, 110, 0.15)
	var shy grid.Filter
	shy.Cost[1] = 3
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 2}, {Filter: &shy}}, hpa.Options{ClusterSize: 8, Levels: 3, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]*agent.Queue, a.Len())
	for i := range qs {
		qs[i] = agent.NewQueue(a.Grid(i))
		if err := qs[i].UseAnnotated(a, i); err != nil {
			t.Fatal(err)
		}
	}
	return g, a, qs
}

// TestQueueAnnotated sends each class's requests through its queue on one
// annotated graph (UseAnnotated) under small budgets: each path is
// AnnotatedSearcher.AppendPath's for the class, cell for cell, and with
// Options.Partial a goal in another region gives the path to the
// reachable cell nearest it. A class out of range or another class's grid
// is refused.
func TestQueueAnnotated(t *testing.T) {
	_, a, qs := annotatedQueues(t, 5)
	ref := hpa.NewAnnotatedSearcher(a)
	if err := qs[0].UseAnnotated(a, 3); err == nil {
		t.Error("UseAnnotated took class 3 of 3")
	}
	if err := qs[0].UseAnnotated(a, 1); err == nil {
		t.Error("UseAnnotated took class 1 for the queue of class 0's grid")
	}
	checked, partial := 0, 0
	for i, q := range qs {
		cg := a.Grid(i)
		q.Partial = i == 1 // the size-2 units get partial paths to goals they cannot reach
		pairs := testmap.RandomPairs(testmap.NewRand(int64(i)), cg, 60)
		paths := make([]agent.Path, len(pairs))
		for k, pair := range pairs {
			q.Request(&paths[k], pair[0], pair[1], 0)
		}
		drain(t, q, 2*8*8+a.Stats().Nodes)
		for k, pair := range pairs {
			to := pair[1]
			if !cg.Connected(pair[0], to) {
				if st := paths[k].Status(); st != agent.NoPath && !q.Partial || st != agent.Partial && q.Partial {
					t.Fatalf("class %d request %d: status %v for a goal in another region (partial paths %v)", i, k, st, q.Partial)
				}
				if !q.Partial {
					continue
				}
				to, _ = cg.NearestReachable(pair[1], pair[0])
				partial++
			}
			want, _, err := ref.AppendPath(nil, i, pair[0], to, hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(paths[k].Cells(), want) {
				t.Fatalf("class %d request %d %v→%v: %d cells (%v), AppendPath %d", i, k, pair[0], pair[1], len(paths[k].Cells()), paths[k].Status(), len(want))
			}
			checked++
		}
	}
	if checked < 120 || partial == 0 {
		t.Fatalf("only %d requests checked, %d of them partial", checked, partial)
	}
}

// TestQueueAnnotatedEdits edits the source grid while a request of each
// class is in progress: until the graph is updated the queues wait, and
// then each request starts again and ends with AppendPath's path on the
// edited map.
func TestQueueAnnotatedEdits(t *testing.T) {
	g, a, qs := annotatedQueues(t, 7)
	ref := hpa.NewAnnotatedSearcher(a)
	r := testmap.NewRand(7)
	checked := 0
	for range 15 {
		pairs := make([][2]image.Point, len(qs))
		paths := make([]agent.Path, len(qs))
		for i, q := range qs {
			pairs[i] = testmap.RandomPairs(r, a.Grid(i), 1)[0]
			q.Request(&paths[i], pairs[i][0], pairs[i][1], 0)
			q.Run(agent.Budget{Expansions: 2})
		}
		wall := testmap.FreeWall(r, g, 10)
		g.SetCells(wall, false)
		for i, q := range qs {
			if exp, fin := q.Run(agent.Budget{}); exp != 0 || fin != 0 {
				t.Fatalf("class %d ran %d expansions and finished %d requests on a graph out of date", i, exp, fin)
			}
		}
		if err := a.Update(wall); err != nil {
			t.Fatal(err)
		}
		for i, q := range qs {
			drain(t, q, 2*8*8+a.Stats().Nodes)
			cg, pair := a.Grid(i), pairs[i]
			if !cg.Passable(pair[0]) || !cg.Passable(pair[1]) || !cg.Connected(pair[0], pair[1]) {
				continue
			}
			want, _, err := ref.AppendPath(nil, i, pair[0], pair[1], hpa.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(paths[i].Cells(), want) {
				t.Fatalf("class %d %v→%v after the edit: %d cells (%v), AppendPath %d", i, pair[0], pair[1], len(paths[i].Cells()), paths[i].Status(), len(want))
			}
			checked++
		}
		g.SetCells(wall, true)
		if err := a.Update(wall); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// TestQueueAnnotatedAllocs: once the graph keeps the paths the requests
// need, a request of any class run through the annotated graph allocates
// nothing.
func TestQueueAnnotatedAllocs(t *testing.T) {
	_, a, qs := annotatedQueues(t, 9)
	for i, q := range qs {
		pairs := testmap.RandomPairs(testmap.NewRand(9), a.Grid(i), 10)
		var p agent.Path
		run := func() {
			for _, pair := range pairs {
				q.Request(&p, pair[0], pair[1], 0)
				q.Run(agent.Budget{Expansions: 40})
				q.Run(agent.Budget{})
			}
		}
		run()
		p.Grow(4096)
		if n := testing.AllocsPerRun(5, run); n != 0 {
			t.Fatalf("class %d: %v allocations a run of %d requests", i, n, len(pairs))
		}
	}
}

// TestQueueAnnotatedRestarts: a request in progress when the queue leaves
// its graph (UseAnnotated(nil)) ends on the grid; one whose goal an edit
// blocks ends as no path once the graph is updated, and the request
// behind it still runs.
func TestQueueAnnotatedRestarts(t *testing.T) {
	g, a, qs := annotatedQueues(t, 11)
	q, cg := qs[0], a.Grid(0)
	cell, _ := cg.LargestRegion()
	r := testmap.NewRand(11)
	far := func() (image.Point, image.Point) {
		for {
			from, _ := cg.RandomFree(r, cell)
			to, _ := cg.RandomFree(r, cell)
			if d := from.Sub(to); max(d.X, -d.X, d.Y, -d.Y) > 80 {
				return from, to
			}
		}
	}
	var p, next agent.Path
	from, to := far()
	q.Request(&p, from, to, 0)
	q.Run(agent.Budget{Expansions: 3})
	if err := q.UseAnnotated(nil, 0); err != nil {
		t.Fatal(err)
	}
	drain(t, q, 1<<30)
	if p.Status() != agent.Following || p.Cells()[len(p.Cells())-1] != to {
		t.Fatalf("after leaving the graph: %v, %d cells", p.Status(), len(p.Cells()))
	}
	if err := q.UseAnnotated(a, 0); err != nil {
		t.Fatal(err)
	}

	from, to = far()
	q.Request(&p, from, to, 1)
	f2, t2 := far()
	q.Request(&next, f2, t2, 0)
	q.Run(agent.Budget{Expansions: 3})
	wall := image.Rectangle{Min: to, Max: to.Add(image.Pt(1, 1))}
	if f2 == to || t2 == to {
		t.Skip("the two requests share a cell")
	}
	g.SetCells(wall, false)
	if err := a.Update(wall); err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if q.Len() == 0 {
			break
		}
		q.Run(agent.Budget{Expansions: 50})
	}
	if q.Len() != 0 || p.Status() != agent.NoPath || next.Status() == agent.Queued {
		t.Fatalf("the queue holds %d requests; the walled-in goal's path is %v, the next one %v", q.Len(), p.Status(), next.Status())
	}
}
