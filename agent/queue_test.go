package agent_test

import (
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestQueueBudget runs many requests under small budgets: no call expands
// more than its budget, every request finishes with an optimal path, and
// they finish by priority, then in the order they came.
func TestQueueBudget(t *testing.T) {
	g := testmap.Random(3, 80, 60, 0.2, grid.Options{})
	o := testmap.NewOracle(g)
	q := agent.NewQueue(g)
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 60)
	paths := make([]agent.Path, len(pairs))
	for i, pair := range pairs {
		q.Request(&paths[i], pair[0], pair[1], i%3)
	}
	if q.Len() != len(pairs) {
		t.Fatalf("Len %d, want %d", q.Len(), len(pairs))
	}
	var order []int
	done := make([]bool, len(pairs))
	for call := 0; q.Len() > 0; call++ {
		if call > 100000 {
			t.Fatal("the queue does not drain")
		}
		budget := 1 + call%50
		exp, _ := q.Run(agent.Budget{Expansions: budget})
		if exp > budget {
			t.Fatalf("call %d expanded %d, over its budget %d", call, exp, budget)
		}
		for i := range paths {
			if !done[i] && paths[i].Status() != agent.Queued {
				done[i] = true
				order = append(order, i)
			}
		}
	}
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		if a%3 < b%3 || (a%3 == b%3 && a > b) {
			t.Fatalf("request %d (priority %d) finished before %d (priority %d)", a, a%3, b, b%3)
		}
	}
	for i, pair := range pairs {
		want, ok := o.Dist(pair[0], pair[1])
		p := &paths[i]
		if !ok {
			if p.Status() != agent.NoPath {
				t.Errorf("request %d: status %v, want no path", i, p.Status())
			}
			continue
		}
		cost, err := testmap.CheckPath(g, p.Cells(), pair[0], pair[1])
		if err != nil || math.Abs(cost-want) > 1e-9 || p.Status() != agent.Following {
			t.Errorf("request %d %v → %v: cost %v (%v), status %v; want %v", i, pair[0], pair[1], cost, err, p.Status(), want)
		}
	}
}

// TestQueueCancelReplace cancels and replaces requests, also the one being
// searched, and edits the grid under a search in progress.
func TestQueueCancelReplace(t *testing.T) {
	g := testmap.Random(8, 90, 90, 0.1, grid.Options{})
	q := agent.NewQueue(g)
	var a, b, c agent.Path
	q.Request(&a, image.Pt(0, 0), image.Pt(89, 89), 0)
	q.Request(&b, image.Pt(0, 89), image.Pt(89, 0), 5)
	q.Request(&c, image.Pt(45, 0), image.Pt(45, 89), 1)
	for _, p := range []*agent.Path{&a, &b, &c} {
		if p.Status() != agent.Queued {
			t.Fatalf("status %v, want queued", p.Status())
		}
	}
	q.Run(agent.Budget{Expansions: 3}) // b is being searched
	if !q.Cancel(&b) || q.Cancel(&b) {
		t.Fatal("Cancel of the active request: want true, then false")
	}
	if b.Status() != agent.Idle {
		t.Errorf("cancelled path with no cells: status %v, want idle", b.Status())
	}
	// Replace a's request: a new goal.
	q.Request(&a, image.Pt(0, 0), image.Pt(10, 10), 0)
	if q.Len() != 2 {
		t.Fatalf("Len %d after a cancel and a replacement, want 2", q.Len())
	}
	q.Run(agent.Budget{Expansions: 5})
	// An edit while c's search runs: it starts again on the edited grid.
	g.SetCells(image.Rect(0, 40, 90, 41), false)
	g.SetCells(image.Rect(44, 40, 47, 41), true)
	q.Run(agent.Budget{})
	if q.Len() != 0 {
		t.Fatalf("Len %d after an unbounded run, want 0", q.Len())
	}
	o := testmap.NewOracle(g)
	for _, tc := range []struct {
		p        *agent.Path
		from, to image.Point
	}{{&a, image.Pt(0, 0), image.Pt(10, 10)}, {&c, image.Pt(45, 0), image.Pt(45, 89)}} {
		want, ok := o.Dist(tc.from, tc.to)
		if !ok {
			continue
		}
		cost, err := testmap.CheckPath(g, tc.p.Cells(), tc.from, tc.to)
		if err != nil || math.Abs(cost-want) > 1e-9 {
			t.Errorf("%v → %v: cost %v (%v), want %v on the edited grid", tc.from, tc.to, cost, err, want)
		}
	}
}

// TestQueueBadRequest finishes requests with bad ends as NoPath with the
// error kept.
func TestQueueBadRequest(t *testing.T) {
	g := testmap.Random(1, 20, 20, 0, grid.Options{})
	q := agent.NewQueue(g)
	var p agent.Path
	q.Request(&p, image.Pt(-3, 0), image.Pt(5, 5), 0)
	q.Run(agent.Budget{})
	if p.Status() != agent.NoPath || p.Err() == nil {
		t.Errorf("start off the grid: status %v, error %v; want no path and an error", p.Status(), p.Err())
	}
}

// TestQueueAllocs checks that warm requests and runs do not allocate.
func TestQueueAllocs(t *testing.T) {
	g := testmap.Random(6, 64, 64, 0.15, grid.Options{})
	q := agent.NewQueue(g)
	pairs := testmap.RandomPairs(testmap.NewRand(6), g, 20)
	paths := make([]agent.Path, len(pairs))
	frame := func() {
		for i, pair := range pairs {
			q.Request(&paths[i], pair[0], pair[1], i%4)
		}
		for q.Len() > 0 {
			q.Run(agent.Budget{Expansions: 100})
		}
	}
	frame()
	if n := testing.AllocsPerRun(10, frame); n != 0 {
		t.Errorf("20 requests and their runs allocate %v times", n)
	}
}
