package main

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// editChecker compares the layers that "pathfind edits" updates in place
// with fresh builds of the edited map, after every edit: the grid's regions
// and answers against a grid built from its cells, the HPA* graph's sizes
// and answers against hpa.Build, the navmesh's sizes and answers against
// navmesh.FromGrid. The queries are random pairs of free cells, new after
// each edit, drawn from the seed.
type editChecker struct {
	g       *grid.Grid
	queries int // the pairs compared on each layer after every edit
	tile    int // the navmesh's tile side
	rng     *rand.Rand

	gs *grid.Searcher // of g, made before the edits
	hg *hpa.Graph     // the graph hs searches
	hs *hpa.Searcher  // made before the edits, again only if an update returns another graph

	pairs  [][2]image.Point
	pa, pb []image.Point
	va, vb []mgl64.Vec2

	checked [numLayers]int // query comparisons made on each layer
	bad     mismatches
}

func newEditChecker(g *grid.Grid, queries, tile int, seed uint64) *editChecker {
	return &editChecker{g: g, queries: queries, tile: tile, rng: rand.New(rand.NewPCG(seed, 0x636865636b))}
}

// start makes the searchers of the grid and of hg (when not nil) that the
// checks of every edit reuse; call it before the first edit.
func (c *editChecker) start(hg *hpa.Graph) {
	c.gs = grid.NewSearcher(c.g)
	if hg != nil {
		c.hg, c.hs = hg, hpa.NewSearcher(hg)
	}
}

// check compares the edited grid, hg and mesh (each when not nil) with
// fresh builds of the grid's cells; at says where in the run it is, for
// the mismatches it records. Its error is a build that failed, not a
// mismatch.
func (c *editChecker) check(at string, hg *hpa.Graph, mesh *navmesh.Mesh) error {
	free, opt := cellsOf(c.g)
	fresh, err := grid.New(c.g.Width(), c.g.Height(), free, opt)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	c.pairs = c.pairs[:0]
	for range c.queries {
		a, ok := c.g.RandomCell(c.rng)
		b, _ := c.g.RandomCell(c.rng)
		if !ok {
			break // no free cell: nothing to ask
		}
		c.pairs = append(c.pairs, [2]image.Point{a, b})
	}
	if err := samePartition(c.g, fresh); err != nil {
		c.bad.add("%s: grid: %v", at, err)
	}
	c.checkGrid(at, fresh)
	if hg != nil {
		if err := c.checkGraph(at, hg, fresh); err != nil {
			return err
		}
	}
	if mesh != nil {
		if err := c.checkMesh(at, mesh, fresh); err != nil {
			return err
		}
	}
	return nil
}

// checkGrid compares the edited grid's default queries with plain A* on
// fresh: the same status and cost.
func (c *editChecker) checkGrid(at string, fresh *grid.Grid) {
	fs := grid.NewSearcher(fresh)
	for _, pq := range c.pairs {
		var ra, rb grid.Result
		var ea, eb error
		c.pa, ra, ea = c.gs.AppendPath(c.pa[:0], pq[0], pq[1], grid.Query{})
		c.pb, rb, eb = fs.AppendPath(c.pb[:0], pq[0], pq[1], grid.Query{Plain: true})
		c.checked[layerGrid]++
		if (ea == nil) != (eb == nil) || ra.Status != rb.Status || !near(ra.Cost, rb.Cost) {
			c.bad.add("%s: grid %s to %s: edited %s, fresh plain A* %s", at, pointString(pq[0]), pointString(pq[1]),
				answer(ra.Status, ra.Cost, ea), answer(rb.Status, rb.Cost, eb))
		}
	}
}

// checkGraph compares hg, updated after the edits, with a graph built on
// fresh with its options: the same sizes, and the same status, cost and
// cells for each pair.
func (c *editChecker) checkGraph(at string, hg *hpa.Graph, fresh *grid.Grid) error {
	fg, err := hpa.Build(fresh, hg.Options())
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if a, b := hg.Stats(), fg.Stats(); a != b {
		c.bad.add("%s: hpa: the updated graph has %+v, a fresh build %+v", at, a, b)
	}
	if hg != c.hg {
		c.hg, c.hs = hg, hpa.NewSearcher(hg)
	}
	fs := hpa.NewSearcher(fg)
	for _, pq := range c.pairs {
		var ra, rb hpa.Result
		var ea, eb error
		c.pa, ra, ea = c.hs.AppendPath(c.pa[:0], pq[0], pq[1], hpa.Query{})
		c.pb, rb, eb = fs.AppendPath(c.pb[:0], pq[0], pq[1], hpa.Query{})
		c.checked[layerHPA]++
		if (ea == nil) != (eb == nil) || ra.Status != rb.Status || !near(ra.Cost, rb.Cost) || !slices.Equal(c.pa, c.pb) {
			what := ""
			if ra.Status == rb.Status && near(ra.Cost, rb.Cost) && ea == nil && eb == nil {
				what = fmt.Sprintf(" (the same cost, other cells: %d of them against %d)", len(c.pa), len(c.pb))
			}
			c.bad.add("%s: hpa %s to %s: updated %s, fresh build %s%s", at, pointString(pq[0]), pointString(pq[1]),
				answer(ra.Status, ra.Cost, ea), answer(rb.Status, rb.Cost, eb), what)
		}
	}
	return nil
}

// checkMesh compares mesh, brought up to date after the edits, with
// navmesh.FromGrid of fresh with the same tiles: the same numbers of
// polygons, vertices and portals, and the same status and length for each
// pair, from the centre of one cell to that of the other.
func (c *editChecker) checkMesh(at string, mesh *navmesh.Mesh, fresh *grid.Grid) error {
	fm, err := navmesh.FromGrid(fresh, navmesh.Options{TileSize: c.tile})
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if mesh.NumPolys() != fm.NumPolys() || mesh.NumVertices() != fm.NumVertices() || mesh.NumPortals() != fm.NumPortals() {
		c.bad.add("%s: navmesh: the updated mesh has %d polygons, %d vertices, %d portals; a fresh build %d, %d, %d", at,
			mesh.NumPolys(), mesh.NumVertices(), mesh.NumPortals(), fm.NumPolys(), fm.NumVertices(), fm.NumPortals())
	}
	ms, fs := navmesh.NewSearcher(mesh), navmesh.NewSearcher(fm)
	for _, pq := range c.pairs {
		from, to := picture.Centre(pq[0]), picture.Centre(pq[1])
		var ra, rb navmesh.Result
		var ea, eb error
		c.va, ra, ea = ms.AppendPath(c.va[:0], from, to, navmesh.Query{})
		c.vb, rb, eb = fs.AppendPath(c.vb[:0], from, to, navmesh.Query{})
		c.checked[layerMesh]++
		if (ea == nil) != (eb == nil) || ra.Status != rb.Status || !near(ra.Length, rb.Length) {
			c.bad.add("%s: navmesh %s to %s: updated %s, fresh build %s", at, pointString(pq[0]), pointString(pq[1]),
				answer(ra.Status, ra.Length, ea), answer(rb.Status, rb.Length, eb))
		}
	}
	return nil
}

// samePartition returns how the regions of g differ from those of fresh as
// a partition of the cells (their labels may differ), or nil when they do
// not.
func samePartition(g, fresh *grid.Grid) error {
	if a, b := g.NumRegions(), fresh.NumRegions(); a != b {
		return fmt.Errorf("%d regions after the edits, %d in a fresh build", a, b)
	}
	to := make([]int32, g.NumRegions()) // edited label → fresh label, plus one
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			a, b := g.Region(p), fresh.Region(p)
			if (a < 0) != (b < 0) {
				return fmt.Errorf("cell %s is in region %d after the edits, %d in a fresh build", pointString(p), a, b)
			}
			if a < 0 {
				continue
			}
			if to[a] == 0 {
				to[a] = b + 1
			} else if to[a] != b+1 {
				return fmt.Errorf("cell %s splits region %d of the edited grid against a fresh build", pointString(p), a)
			}
		}
	}
	return nil
}

// near reports whether a and b are equal within 1e-9 of the larger.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b)) }

// answer describes a query's outcome: its status and cost or length, or
// its error.
func answer(st core.Status, v float64, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	return fmt.Sprintf("%v %.9g", st, v)
}

// reportedMismatches is how many mismatches the error of a run describes.
const reportedMismatches = 5

// mismatches counts the differences the checks find and keeps the first
// few.
type mismatches struct {
	n     int
	first []string
}

func (m *mismatches) add(format string, args ...any) {
	m.n++
	if len(m.first) < reportedMismatches {
		m.first = append(m.first, fmt.Sprintf(format, args...))
	}
}

// err returns nil when nothing mismatched, and otherwise an error that
// gives the count and describes the first few, one a line.
func (m *mismatches) err(checked int) error {
	if m.n == 0 {
		return nil
	}
	return fmt.Errorf("check: %d mismatched against fresh builds (%d queries checked); the first %d follow\n%s",
		m.n, checked, len(m.first), strings.Join(m.first, "\n"))
}
