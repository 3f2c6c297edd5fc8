package agent

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// MeshPlanner searches and mends the [MeshPath] of agents at once, on one
// navmesh, with its corridor search (navmesh.Query.Corridor: A* over the polygons, the
// corridor pulled taut). It owns a [navmesh.Searcher], whose scratch grows
// with the mesh (the corridor search's, 20 bytes a polygon side, is made at
// the first search), and is not safe for concurrent use: keep one per
// goroutine. The mesh is shared.
type MeshPlanner struct {
	// Query is the query of Plan's and MoveGoal's searches: its
	// MaxExpansions caps them (a search that hits the cap gives a partial
	// path toward the goal, status Partial). Corridor is always on, and
	// Shortcut off: a path keeps to its corridor.
	Query navmesh.Query
	// RepairExpansions caps each search with which [MeshPlanner.Repair]
	// finds a corridor again through polygons an update changed, before
	// it plans the whole path again; 0 means 4096.
	RepairExpansions int

	m        *navmesh.Mesh
	s        *navmesh.Searcher
	searches int
	buf      []mgl64.Vec2
	cor, tmp []navmesh.PolyID
	vs       []mgl64.Vec2
	// Generation-stamped index of the polygons of a corridor, for
	// dropping loops: idx[id] is where id is when mark[id] == gen.
	mark []uint32
	idx  []int32
	gen  uint32
}

// NewMeshPlanner returns a planner for m. It panics when m is nil.
func NewMeshPlanner(m *navmesh.Mesh) *MeshPlanner {
	if m == nil {
		panic("agent: NewMeshPlanner of a nil mesh")
	}
	return &MeshPlanner{m: m, s: navmesh.NewSearcher(m)}
}

// Mesh returns the mesh the planner searches: the one it was made for, or
// the last one [MeshPlanner.Repair] moved it to.
func (pl *MeshPlanner) Mesh() *navmesh.Mesh { return pl.m }

// Searches returns how many corridor searches the planner has run.
func (pl *MeshPlanner) Searches() int { return pl.searches }

// errNoCorridor is MoveGoal's error for a path with nothing to keep.
var errNoCorridor = errors.New("agent: the path has no corridor: plan it first")

// search runs a corridor search from from to to with a budget of max
// expansions (0 for none).
func (pl *MeshPlanner) search(from, to mgl64.Vec2, max int) (navmesh.Result, error) {
	q := pl.Query
	q.Corridor, q.Shortcut, q.MaxExpansions = true, false, max
	pl.searches++
	var res navmesh.Result
	var err error
	pl.buf, res, err = pl.s.AppendPath(pl.buf[:0], from, to, q)
	return res, err
}

// statusOfMesh is the status of a path whose search ended with s.
func statusOfMesh(s core.Status) Status {
	switch s {
	case core.Found:
		return Following
	case core.BudgetSpent:
		return Partial
	}
	return NoPath
}

// Plan searches a path for p from one point to another with one corridor
// search and makes it p's path: its corridor, from the polygon that holds
// from to the one that holds to, and its waypoints, pulled taut from from
// (AppendPath's path). The status is Following, Partial (the search hit
// Query.MaxExpansions: the path ends at the midpoint of a portal toward
// the goal) or NoPath (the goal is in another component of the mesh). An
// end off the mesh is an error (see [navmesh.Mesh.Nearest] to move it on)
// and leaves p NoPath. The Result is the search's.
//
// It costs one corridor search and O(n·d) for the n polygons of d
// vertices of the corridor, and allocates only when p's slices outgrow
// what they held before (and at a new planner's first search).
func (pl *MeshPlanner) Plan(p *MeshPath, from, to mgl64.Vec2) (navmesh.Result, error) {
	res, err := pl.search(from, to, pl.Query.MaxExpansions)
	st := statusOfMesh(res.Status)
	if err != nil || st == NoPath {
		p.reset(pl.m, from, to, NoPath, err)
		return res, err
	}
	p.reset(pl.m, from, to, st, nil)
	p.polys = pl.s.AppendCorridor(p.polys[:0])
	p.end = res.End
	if !p.link() {
		// Not a corridor search's corridor: never seen.
		p.reset(pl.m, from, to, NoPath, errors.New("agent: the search's corridor is not a chain of neighbours"))
		return res, p.err
	}
	p.pull()
	return res, nil
}

// MoveGoal moves p's goal to to and searches only the end of the path
// again. When a polygon of the corridor ahead of the agent holds to, the
// corridor is cut after the first that does, with no search (the Result
// has Expanded 0). Otherwise a corridor search runs from the end of the
// path (the old goal, or a point inside the corridor's last polygon when
// the old goal lies on its boundary) to to, and its corridor is joined on
// after the last polygon; where the new part comes back into the corridor
// the loop is dropped. The waypoints are pulled taut again from the
// agent's last position. The result is a legal path from the agent to the
// new goal, taut within its corridor, but not necessarily the one a full
// Plan finds: a goal moved a little costs a short search, and a goal
// moved back toward the agent a search from the far end. (For goals moved
// up to 6 cells off the corridor, on random grids, the demo map and a
// polygon with holes, the end searches expanded a quarter to a half of
// the nodes of full plans from the agents, for paths 2 to 9 % longer:
// TestMeshMoveGoalOutside.) The Result is the search's, with Length and
// End those of the new waypoints.
//
// Its statuses and errors are Plan's, and a path with no corridor (or
// NoPath) is an error. A goal in another component makes the path NoPath
// toward it but keeps its corridor and end, so the agent may walk on.
// A Lost path is planned again from the agent's last position. It costs
// O(n·d) for the corridor's n polygons of d vertices, plus the search,
// and allocates only when p's slices outgrow what they held before.
func (pl *MeshPlanner) MoveGoal(p *MeshPath, to mgl64.Vec2) (navmesh.Result, error) {
	if len(p.polys) == 0 || p.status == NoPath {
		return navmesh.Result{}, errNoCorridor
	}
	if p.m != pl.m {
		return navmesh.Result{}, fmt.Errorf("agent: the path lies on another mesh than the planner's: repair it first")
	}
	if p.lost {
		return pl.Plan(p, p.pos, to)
	}
	if _, ok := pl.m.Locate(to); !ok {
		return navmesh.Result{}, fmt.Errorf("agent: goal %v is off the mesh", to)
	}
	p.compact()
	for i, id := range p.polys {
		if p.holds(id, to, false) {
			p.polys, p.portals = p.polys[:i+1], p.portals[:i]
			p.goal, p.end, p.status, p.err = to, to, Following, nil
			p.pull()
			return navmesh.Result{Status: core.Found, Length: p.length(), End: to}, nil
		}
	}
	last := p.polys[len(p.polys)-1]
	pl.vs = pl.m.AppendPolygon(pl.vs[:0], last)
	start := p.end
	if !pl.m.ContainsInterior(last, start) {
		start = centroid(pl.vs)
	}
	res, err := pl.search(start, to, pl.Query.MaxExpansions)
	st := statusOfMesh(res.Status)
	if err != nil {
		return res, err
	}
	if st == NoPath {
		p.goal, p.status = to, NoPath
		return res, nil
	}
	pl.cor = pl.s.AppendCorridor(pl.cor[:0])
	if pl.cor[0] != last {
		// The start was off the last polygon's interior by rounding.
		return pl.replan(p, to)
	}
	p.polys = append(p.polys, pl.cor[1:]...)
	pl.loopless(p)
	if !p.link() {
		return pl.replan(p, to)
	}
	p.goal, p.end, p.status, p.err = to, res.End, st, nil
	p.pull()
	res.Length, res.End = p.length(), p.wps[len(p.wps)-1]
	return res, nil
}

// replan plans p again from the agent's last position to to.
func (pl *MeshPlanner) replan(p *MeshPath, to mgl64.Vec2) (navmesh.Result, error) {
	return pl.Plan(p, p.pos, to)
}

// loopless drops the loops of p's corridor (p.at is 0): where a polygon
// comes again, the polygons from its first visit to its second go. It
// costs O(n) for n polygons.
func (pl *MeshPlanner) loopless(p *MeshPath) {
	if n := pl.m.NumPolys(); len(pl.mark) < n {
		pl.mark, pl.idx, pl.gen = make([]uint32, n), make([]int32, n), 0
	}
	pl.gen++
	if pl.gen == 0 {
		clear(pl.mark)
		pl.gen = 1
	}
	w := 0
	for _, id := range p.polys {
		if pl.mark[id] == pl.gen {
			k := int(pl.idx[id])
			for _, d := range p.polys[k+1 : w] {
				pl.mark[d] = 0
			}
			w = k + 1
			continue
		}
		pl.mark[id], pl.idx[id] = pl.gen, int32(w)
		p.polys[w] = id
		w++
	}
	p.polys = p.polys[:w]
}

// repairMargin is how far, in cells, from the changed rectangle a leg's
// bounding box must stay for [MeshPlanner.Repair] to keep the path.
const repairMargin = 1

// Repair moves p onto m2, the mesh that [navmesh.Mesh.Update] returned
// for an edit of the cells of the rectangle changed (every cell changed
// since p's mesh), and mends what the edit broke; the planner moves to m2
// as well (its first Repair onto a new mesh makes a new Searcher for it,
// which allocates). Polygon IDs change from one mesh to the next, so a
// corridor cannot be kept as it is. Like [Planner.Repair], it reports
// what it did.
//
// When no leg of the waypoints ahead comes near the rectangle (each leg's
// bounding box, grown by one cell, misses it) the path stays, and its
// corridor is found again on m2 polygon by polygon: the polygon of m2 at
// the centre of each polygon of the corridor takes its place when it has
// the same vertices (as in a tile that Update did not mesh again). With
// every polygon found the path is Intact, its waypoints as they were, at
// no search. Each run of polygons that changed is searched again on m2,
// between points inside the polygons kept around it (or the agent's
// position, or the end), with one corridor search of at most
// RepairExpansions, and spliced in, loops dropped: the path is Mended.
//
// When a leg comes near the rectangle, or the agent is Lost, or such a
// search or splice fails, the path is planned again from the agent's last
// position on m2 (one corridor search, under Query.MaxExpansions): Mended,
// or Broken when that finds no path (the agent's position is now off the
// mesh, or its goal cut off): p is then NoPath, and [MeshPath.Err] says
// why when it was an error. An edit that freed cells near a path plans it
// again too, which may shorten it.
//
// The check costs O(n) for the n waypoints; finding the corridor again
// O(n·d) for its n polygons of d vertices, and n point locations. It
// allocates only when p's slices outgrow what they held. A path already on
// m2, or with no corridor, is Intact. It panics when m2 is nil.
func (pl *MeshPlanner) Repair(p *MeshPath, m2 *navmesh.Mesh, changed image.Rectangle) Mend {
	if m2 == nil {
		panic("agent: Repair onto a nil mesh")
	}
	if pl.m != m2 {
		pl.m, pl.s = m2, navmesh.NewSearcher(m2)
	}
	if p.m == m2 || p.m == nil {
		return Intact
	}
	if len(p.polys) == 0 {
		p.m = m2
		return Intact
	}
	if p.lost || p.near(changed, repairMargin) {
		return pl.mendByPlan(p)
	}
	old := p.m
	p.compact()
	kept := 0
	for i, id := range p.polys {
		p.polys[i] = pl.same(old, m2, id)
		if p.polys[i] >= 0 {
			kept++
		}
	}
	p.m = m2
	if kept == len(p.polys) {
		if !p.link() {
			return pl.mendByPlan(p)
		}
		p.pull()
		return Intact
	}
	budget := pl.RepairExpansions
	if budget <= 0 {
		budget = 4096
	}
	out := pl.tmp[:0]
	n := len(p.polys)
	for i := 0; i < n; {
		if p.polys[i] >= 0 {
			out = append(out, p.polys[i])
			i++
			continue
		}
		k := i
		for k+1 < n && p.polys[k+1] < 0 {
			k++
		}
		from, to := p.pos, p.end
		if i > 0 {
			pl.vs = m2.AppendPolygon(pl.vs[:0], p.polys[i-1])
			from = centroid(pl.vs)
		}
		if k+1 < n {
			pl.vs = m2.AppendPolygon(pl.vs[:0], p.polys[k+1])
			to = centroid(pl.vs)
		}
		res, err := pl.search(from, to, budget)
		if err != nil || res.Status != core.Found {
			pl.tmp = out
			return pl.mendByPlan(p)
		}
		pl.cor = pl.s.AppendCorridor(pl.cor[:0])
		c := pl.cor
		if i > 0 {
			if c[0] != out[len(out)-1] {
				pl.tmp = out
				return pl.mendByPlan(p)
			}
			c = c[1:]
		}
		if k+1 < n && (len(c) == 0 || c[len(c)-1] != p.polys[k+1]) {
			pl.tmp = out
			return pl.mendByPlan(p)
		}
		out = append(out, c...)
		i = k + 2 // past the kept polygon the search ended in
	}
	pl.tmp = out
	p.polys = append(p.polys[:0], out...)
	pl.loopless(p)
	if !p.link() {
		return pl.mendByPlan(p)
	}
	p.pull()
	return Mended
}

// mendByPlan plans p again from the agent's last position on the
// planner's mesh, and says how that went.
func (pl *MeshPlanner) mendByPlan(p *MeshPath) Mend {
	if _, err := pl.Plan(p, p.pos, p.goal); err != nil || p.status == NoPath {
		return Broken
	}
	return Mended
}

// same returns the polygon of m2 with the vertices of polygon id of m,
// found at its centre, or −1 when m2 has none.
func (pl *MeshPlanner) same(m, m2 *navmesh.Mesh, id navmesh.PolyID) navmesh.PolyID {
	pl.vs = m.AppendPolygon(pl.vs[:0], id)
	k := len(pl.vs)
	nid, ok := m2.Locate(centroid(pl.vs))
	if !ok {
		return -1
	}
	pl.vs = m2.AppendPolygon(pl.vs, nid)
	a, b := pl.vs[:k], pl.vs[k:]
	if len(a) != len(b) {
		return -1
	}
	j := slices.Index(b, a[0])
	if j < 0 {
		return -1
	}
	for i := range a {
		if a[i] != b[(i+j)%len(b)] {
			return -1
		}
	}
	return nid
}

// near reports whether a leg of p's waypoints, its bounding box grown by
// margin, overlaps the cells of r.
func (p *MeshPath) near(r image.Rectangle, margin float64) bool {
	if r.Empty() {
		return false
	}
	x0, y0 := float64(r.Min.X)-margin, float64(r.Min.Y)-margin
	x1, y1 := float64(r.Max.X)+margin, float64(r.Max.Y)+margin
	pts := p.wps
	if len(pts) == 0 {
		pts = []mgl64.Vec2{p.pos}
	}
	for i := range pts {
		a, b := pts[i], pts[min(i+1, len(pts)-1)]
		if max(a[0], b[0]) >= x0 && min(a[0], b[0]) <= x1 && max(a[1], b[1]) >= y0 && min(a[1], b[1]) <= y1 {
			return true
		}
	}
	return false
}
