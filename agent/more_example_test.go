package agent_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
)

// readMap builds a grid from the rows of a Moving AI map.
func readMap(name string, rows []string) (*grid.Grid, error) {
	text := fmt.Sprintf("type octile\nheight %d\nwidth %d\nmap\n%s\n", len(rows), len(rows[0]), strings.Join(rows, "\n"))
	return grid.ReadMap(strings.NewReader(text), name, grid.Options{})
}

// A unit chasing a target that moves keeps its path and searches only
// the end again: MoveGoal searches from the path cell nearest to the new
// goal, so a goal moved a few cells costs a short search, for a path a
// little longer than a new search from the start would give.
func ExamplePlanner_MoveGoal() {
	g, err := readMap("chase.map", []string{
		"....@.....@.....@.............",
		"....@..@..@..@..@..@..........",
		"....@..@..@..@..@..@..........",
		"....@..@..@..@..@..@..........",
		".......@.....@.....@..........",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	pl := agent.NewPlanner(g)
	pl.Query.Plain = true // count every cell expanded, not jump points
	var p agent.Path
	res, err := pl.Plan(&p, image.Pt(0, 0), image.Pt(28, 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("plan: %v, %d cells, cost %.2f, %d expanded\n", p.Status(), len(p.Cells()), res.Cost, res.Expanded)
	// The target moves three rows down and one to the left.
	res, err = pl.MoveGoal(&p, image.Pt(27, 4))
	if err != nil {
		fmt.Println(err)
		return
	}
	cost, err := g.PathCost(p.Cells()) // res.Cost is the new end's alone
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("moved: %v, %d cells, cost %.2f, %d expanded\n", p.Status(), len(p.Cells()), cost, res.Expanded)
	// A search from the start to the same goal, to compare.
	var q agent.Path
	res, _ = pl.Plan(&q, image.Pt(0, 0), image.Pt(27, 4))
	fmt.Printf("from scratch: %d cells, cost %.2f, %d expanded\n", len(q.Cells()), res.Cost, res.Expanded)
	// Output:
	// plan: following, 45 cells, cost 47.73, 83 expanded
	// moved: following, 47 cells, cost 49.73, 3 expanded
	// from scratch: 44 cells, cost 47.97, 82 expanded
}

// With Options.Partial a goal the unit cannot reach, here on an island,
// gives a path to the reachable cell nearest to it, status Partial,
// instead of NoPath.
func ExampleOptions_partial() {
	g, err := readMap("island.map", []string{
		"............",
		"......TTTTT.",
		"......T...T.",
		"......T...T.",
		"......TTTTT.",
		"............",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	pl := agent.NewPlanner(g)
	var p agent.Path
	pl.Plan(&p, image.Pt(0, 0), image.Pt(8, 2))
	fmt.Println("without Partial:", p.Status(), len(p.Cells()), "cells")
	pl.Partial = true
	res, err := pl.Plan(&p, image.Pt(0, 0), image.Pt(8, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("with Partial: %v, %d cells, ends at %v (goal %v), cost %.2f\n", p.Status(), len(p.Cells()), p.End(), p.Goal(), res.Cost)
	// Output:
	// without Partial: no path 0 cells
	// with Partial: partial, 9 cells, ends at (8,0) (goal (8,2)), cost 8.00
}

// A unit whose new order is called off before its search ran withdraws
// the request with Cancel: it gets back the path, status and goal it had,
// and the queue runs the other requests.
func ExampleQueue_Cancel() {
	g, err := readMap("field.map", []string{
		"..........",
		"..@@@@@@..",
		"..........",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	q := agent.NewQueue(g)
	paths := make([]agent.Path, 3)
	q.Request(&paths[1], image.Pt(9, 0), image.Pt(9, 2), 0)
	q.Run(agent.Budget{})
	fmt.Println("1 before:", paths[1].Status(), "to", paths[1].Goal())
	q.Request(&paths[0], image.Pt(0, 0), image.Pt(9, 2), 0)
	q.Request(&paths[1], image.Pt(9, 0), image.Pt(0, 2), 1)
	q.Request(&paths[2], image.Pt(0, 2), image.Pt(9, 0), 0)
	fmt.Println("1 queued:", paths[1].Status(), "to", paths[1].Goal(), "waiting", q.Len())
	fmt.Println("cancel 1:", q.Cancel(&paths[1]), "again:", q.Cancel(&paths[1]), "waiting", q.Len())
	_, finished := q.Run(agent.Budget{})
	fmt.Println("finished", finished, "waiting", q.Len())
	for i := range paths {
		fmt.Println(i, paths[i].Status(), "to", paths[i].Goal(), len(paths[i].Cells()), "cells")
	}
	// Output:
	// 1 before: following to (9,2)
	// 1 queued: queued to (0,2) waiting 3
	// cancel 1: true again: false waiting 2
	// finished 2 waiting 0
	// 0 following to (9,2) 11 cells
	// 1 following to (9,2) 3 cells
	// 2 following to (9,0) 11 cells
}
