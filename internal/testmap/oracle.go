package testmap

import (
	"image"
	"math"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cairn-nav/cairn/grid"
)

// Oracle answers exact shortest-path costs on a grid with gonum's Dijkstra,
// independently of Cairn's search code: it only asks the grid which single
// moves are legal ([grid.Grid.CanStep]) and what they cost
// ([grid.Grid.StepCost]).
type Oracle struct {
	g     *grid.Grid
	graph *simple.WeightedUndirectedGraph
	trees map[image.Point]path.Shortest
}

// NewOracle builds the graph of g: one node per free cell and one edge per
// legal move (8 neighbours on 8-connected grids, 4 on 4-connected ones).
func NewOracle(g *grid.Grid) *Oracle {
	o := &Oracle{
		g:     g,
		graph: simple.NewWeightedUndirectedGraph(0, math.Inf(1)),
		trees: make(map[image.Point]path.Shortest),
	}
	nbrs := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} // the other four are their reverses
	if g.Connectivity() == grid.Four {
		nbrs = nbrs[:2]
	}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			a := image.Pt(x, y)
			if !g.Passable(a) {
				continue
			}
			if o.graph.Node(o.id(a)) == nil {
				o.graph.AddNode(simple.Node(o.id(a)))
			}
			for _, d := range nbrs {
				b := a.Add(image.Pt(d[0], d[1]))
				if !g.CanStep(a, b) {
					continue
				}
				o.graph.SetWeightedEdge(simple.WeightedEdge{
					F: simple.Node(o.id(a)), T: simple.Node(o.id(b)), W: g.StepCost(a, b),
				})
			}
		}
	}
	return o
}

func (o *Oracle) id(p image.Point) int64 { return int64(p.Y)*int64(o.g.Width()) + int64(p.X) }

// Dist returns the cost of a shortest path from from to to and whether one
// exists. It runs Dijkstra once per distinct from and caches the tree.
func (o *Oracle) Dist(from, to image.Point) (float64, bool) {
	if !o.g.Passable(from) || !o.g.Passable(to) {
		return math.Inf(1), false
	}
	t, ok := o.trees[from]
	if !ok {
		t = path.DijkstraFrom(simple.Node(o.id(from)), o.graph)
		o.trees[from] = t
	}
	d := t.WeightTo(o.id(to))
	return d, !math.IsInf(d, 1)
}
