package agent_test

import (
	"image"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// TestMoveGoalUnreachableKeepsPath moves a filtered path's goal into a
// walled pocket: the path keeps its cells (NoPath), and later moves work.
func TestMoveGoalUnreachableKeepsPath(t *testing.T) {
	g := testmap.Random(1, 20, 20, 0, grid.Options{})
	g.SetCells(image.Rect(0, 1, 3, 2), false)
	g.SetCells(image.Rect(0, 3, 3, 4), false)
	g.SetCells(image.Rect(2, 2, 3, 3), false)
	g.SetCells(image.Rect(0, 2, 1, 3), false) // (1,2) walled in
	pl := agent.NewPlanner(g)
	pl.Query.Filter = &grid.Filter{}
	var p agent.Path
	if _, err := pl.Plan(&p, image.Pt(1, 10), image.Pt(10, 10)); err != nil || p.Status() != agent.Following {
		t.Fatalf("plan: %v %v", p.Status(), err)
	}
	p.Steer(mgl64.Vec2{2.5, 10.5})
	before := len(p.Cells())
	if _, err := pl.MoveGoal(&p, image.Pt(1, 2)); err != nil {
		t.Fatal(err)
	}
	if p.Status() != agent.NoPath || len(p.Cells()) != before {
		t.Fatalf("goal walled in: status %v, %d cells ahead; want no path and the %d cells kept", p.Status(), len(p.Cells()), before)
	}
	q := agent.NewQueue(g)
	q.Request(&p, image.Pt(2, 10), image.Pt(5, 5), 0)
	q.Cancel(&p)
	if p.Status() != agent.NoPath || p.Goal() != image.Pt(1, 2) {
		t.Errorf("after Request and Cancel: %v toward %v, want the no path toward (1,2) it had", p.Status(), p.Goal())
	}
	if _, err := pl.Plan(&p, image.Pt(2, 10), image.Pt(10, 10)); err != nil {
		t.Fatal(err)
	}
	if _, err := pl.MoveGoal(&p, image.Pt(5, 5)); err != nil || p.Status() != agent.Following {
		t.Errorf("a later move: %v %v", p.Status(), err)
	}
}

// TestQueueBudgetAcrossEdit counts the expansions of a search that an
// edit restarts: a Run never does more than its budget.
func TestQueueBudgetAcrossEdit(t *testing.T) {
	g := testmap.Random(2, 100, 100, 0, grid.Options{})
	q := agent.NewQueue(g)
	count := 0
	q.Query = grid.Query{Plain: true, Heuristic: grid.Zero, OnExpand: func(image.Point, float64) { count++ }}
	var p agent.Path
	q.Request(&p, image.Pt(1, 1), image.Pt(98, 98), 0)
	for i := range 3 {
		if i > 0 {
			g.SetCells(image.Rect(90, 5+i, 91, 6+i), false) // far away: the search starts again
		}
		count = 0
		exp, _ := q.Run(agent.Budget{Expansions: 100})
		if count > 100 || exp != count {
			t.Fatalf("run %d: reported %d expansions, did %d; budget 100", i, exp, count)
		}
	}
}

// TestRepairBudgetPartial repairs a path that a search's budget cut
// short: an edit far from it leaves it intact.
func TestRepairBudgetPartial(t *testing.T) {
	g := testmap.Random(3, 100, 100, 0, grid.Options{})
	pl := agent.NewPlanner(g)
	pl.Query.MaxExpansions = 5
	pl.Query.Plain = true
	var p agent.Path
	if _, err := pl.Plan(&p, image.Pt(1, 1), image.Pt(98, 98)); err != nil || p.Status() != agent.Partial {
		t.Fatalf("plan: %v %v", p.Status(), err)
	}
	far := image.Rect(90, 5, 91, 6)
	g.SetCells(far, false)
	if m := pl.Repair(&p, far); m != agent.Intact {
		t.Errorf("a wall far from a budget-cut path: %v, want intact", m)
	}
}
