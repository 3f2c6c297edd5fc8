package core_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/core"
)

// roads is a small road network between five towns:
//
//	A --4-- B --1-- C
//	 \             /
//	  2           5
//	   \         /
//	    D --1-- E
type roads [][]core.Edge

func (r roads) NumNodes() int { return len(r) }

func (r roads) AppendEdges(dst []core.Edge, n int32) []core.Edge { return append(dst, r[n]...) }

func Example() {
	const a, b, c, d, e = 0, 1, 2, 3, 4
	names := "ABCDE"
	g := roads{
		a: {{To: b, Cost: 4}, {To: d, Cost: 2}},
		b: {{To: a, Cost: 4}, {To: c, Cost: 1}},
		c: {{To: b, Cost: 1}, {To: e, Cost: 5}},
		d: {{To: a, Cost: 2}, {To: e, Cost: 1}},
		e: {{To: d, Cost: 1}, {To: c, Cost: 5}},
	}
	s := core.NewSearcher(g)
	res := s.Search(a, c, nil, core.Query{}) // nil heuristic: Dijkstra
	for _, n := range s.AppendPath(nil, res.End) {
		fmt.Print(string(names[n]), " ")
	}
	fmt.Println(res.Status, res.Cost)

	// Several destinations in one search.
	s.SearchAll(a, []int32{c, e}, core.Query{})
	for _, n := range []int32{c, e} {
		dist, _ := s.Dist(n)
		fmt.Printf("%c: %v\n", names[n], dist)
	}
	// Output:
	// A B C found 5
	// C: 5
	// E: 3
}

// straightLine is an admissible heuristic on a line of nodes 0..n-1 whose
// edges each cost at least 1: the number of nodes left to the goal.
type straightLine struct{ goal int32 }

func (h *straightLine) Estimate(n int32) float64 { return float64(max(h.goal-n, n-h.goal)) }

func ExampleSliced() {
	// A line of 100 nodes, each joined to the next at cost 1.
	g := make(roads, 100)
	for i := range int32(99) {
		g[i] = append(g[i], core.Edge{To: i + 1, Cost: 1})
	}
	sl := core.NewSliced(g)
	sl.Begin(0, 99, &straightLine{goal: 99}, core.Query{})
	frames := 1
	for sl.Step(40) == core.InProgress { // at most 40 expansions a frame
		frames++
	}
	res := sl.Result()
	fmt.Println(res.Status, res.Cost, "after", res.Expanded, "expansions in", frames, "frames")
	// Output:
	// found 99 after 99 expansions in 3 frames
}
