package agent

import (
	"math"
	"slices"

	"github.com/cairn-nav/cairn/funnel"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// MeshPath is the path of one agent on a navmesh, in the model of
// Detour's path corridor. It holds the mesh it was planned on, the
// corridor (the polygons from the one that holds the agent to the one that
// holds the end of the path), the goal, and the waypoints (the corridor
// pulled taut from where the agent was last found, by [funnel.Pull]). The zero MeshPath is Idle and empty; a [MeshPlanner]
// fills it, and [MeshPath.Steer] follows it.
//
// As the agent walks, Steer drops the polygons behind it and pulls the
// rest taut again from its position, without a search, for as long as the
// agent stays on its corridor; a planner searches only when the goal
// leaves the corridor ([MeshPlanner.MoveGoal]), the agent leaves it
// ([MeshPath.Lost]) or the mesh changes under it ([MeshPlanner.Repair]).
//
// A MeshPath is not safe for concurrent use. It keeps its slices from one
// search to the next, so a warm agent plans and follows without
// allocating.
type MeshPath struct {
	// Arrive is the distance from the end of the path within which Steer
	// reports arrival, once the end is in sight; values ≤ 0 mean 10⁻⁶ (of
	// the mesh's units: cells for a mesh from a grid). An agent that
	// moves to its target when it is within a step lands on it exactly.
	Arrive float64

	m       *navmesh.Mesh
	polys   []navmesh.PolyID // the corridor; the agent is in polys[at]
	portals []funnel.Portal  // portals[i] joins polys[i] to polys[i+1]
	at      int
	wps     []mgl64.Vec2 // the corridor pulled taut from wps[0]
	pos     mgl64.Vec2   // the agent's last position
	goal    mgl64.Vec2   // asked for
	end     mgl64.Vec2   // where the corridor's path ends
	status  Status
	err     error
	lost    bool

	// Scratch of the polygon tests.
	vs  []mgl64.Vec2
	nbs []navmesh.Neighbor
}

// Status returns where the path stands: Idle, Following, Partial (a
// search's budget ran out: the path leads toward the goal, to [MeshPath.End])
// or NoPath.
func (p *MeshPath) Status() Status { return p.status }

// Err returns the error of the search that left the path NoPath (an end
// off the mesh), or nil.
func (p *MeshPath) Err() error { return p.err }

// Mesh returns the mesh the path's corridor lies on, nil before a plan.
func (p *MeshPath) Mesh() *navmesh.Mesh { return p.m }

// Goal returns the goal the path was last asked for.
func (p *MeshPath) Goal() mgl64.Vec2 { return p.goal }

// End returns where the path ends: its goal when Following, the end of
// the partial path when Partial; the start for a path with no corridor.
func (p *MeshPath) End() mgl64.Vec2 { return p.end }

// Corridor returns the polygons of the corridor still ahead of the agent:
// from the one it was last found in to the one that holds the end, each a
// neighbour of the one before and none twice. The slice is the MeshPath's
// own and valid until the path changes; do not modify it.
func (p *MeshPath) Corridor() []navmesh.PolyID { return p.polys[p.at:] }

// Waypoints returns the path the agent follows: the corridor pulled taut
// from where the agent was last found on it (the first point) to the end
// (the last), turning only at polygon corners. The slice is the
// MeshPath's own and valid until the next call of Steer or a planner; do
// not modify it.
func (p *MeshPath) Waypoints() []mgl64.Vec2 { return p.wps }

// Lost reports whether the last [MeshPath.Steer] found the agent off its
// corridor: on no polygon of it, nor on a neighbour of the polygon it was
// last found in. The path must be planned again from where the agent
// stands.
func (p *MeshPath) Lost() bool { return p.lost }

// Grow makes room in p for corridors of n polygons, so that plans, goal
// moves and repairs of paths up to that size do not allocate: a game
// calls it as it spawns its agents. It keeps p's path.
func (p *MeshPath) Grow(n int) {
	p.polys = slices.Grow(p.polys, max(n-len(p.polys), 0))
	p.portals = slices.Grow(p.portals, max(n-len(p.portals), 0))
	p.wps = slices.Grow(p.wps, max(n+1-len(p.wps), 0))
}

// steerWindow is how many polygons from the front Steer tries to rounding
// when it finds the agent exactly on none of the corridor's.
const steerWindow = 8

// Steer returns the point an agent at pos should move toward, and whether
// it has arrived at the end of its path. It finds pos in the corridor's
// polygons, from the one the agent was last found in forward (exactly:
// a point on an edge belongs to every polygon that has the edge, and the
// farthest of the first run of polygons that hold it is taken), drops the
// polygons behind it, pulls the rest of the corridor taut from pos and
// returns the first waypoint after pos: a polygon corner where the path
// turns, or the end. It reports arrival when that is the end and pos is
// within Arrive of it. Steer never searches: the path's start moves with
// the agent for as long as the agent stays on its corridor.
//
// The target is in sight of pos along the mesh, since the segment lies in
// the convex polygons of the corridor it crosses: an agent that moves straight toward it, by
// no more than its distance, stays on the mesh, whatever its speed, and is
// found again on the corridor at the next call. That holds to rounding:
// funnel.Pull's sign tests are exact on grid points, but an agent's
// position rarely is one, and where the segment grazes a wall's corner
// that the path passes straight, it (or a rounded step along it) may pass
// the corner by an ulp on the wall's side, which [navmesh.Mesh.Raycast],
// being exact, reports as a hit at the corner.
//
// An agent pushed back over a portal of its polygon onto a polygon off
// the corridor is taken back without a search: that polygon joins the
// front of the corridor (as Detour's corridor merges the polygons a move
// visits). A position on none of these, but off the mesh by rounding
// (within 10⁻⁹ of the coordinates' magnitude of one of the first polygons
// of the corridor, as a step along a slanting wall may land), is taken to
// be on that polygon. An agent found nowhere on the corridor is
// [MeshPath.Lost]: the target is pos itself (it stands still) until a
// planner gives it a new path. An empty path returns pos and true (there
// is nowhere to go).
//
// It costs O(d) for each polygon of d vertices tried, usually one or two,
// plus the pull, O(n) for the n polygons ahead when the path turns at
// corners spread along them (1.8 µs on the demo map's longest corridors,
// of 18 polygons: BenchmarkMeshSteer); when the agent is off the front of
// its corridor, O(n·d). It reads the mesh, which is immutable, and does
// not allocate, but when an agent pushed back onto a polygon off its
// corridor makes the corridor outgrow its slice.
func (p *MeshPath) Steer(pos mgl64.Vec2) (target mgl64.Vec2, done bool) {
	n := len(p.polys)
	if n == 0 {
		return pos, true
	}
	p.pos = pos
	// Exactly on the corridor, or on a neighbour of its front, and only
	// then to rounding: a point on the mesh is never taken to be on a
	// polygon it is off.
	k := p.run(pos, p.at, n, false)
	if k < 0 && !p.rejoin(pos) {
		k = p.run(pos, p.at, min(n, p.at+steerWindow), true)
		if k < 0 {
			p.lost = true
			return pos, false
		}
	}
	if k >= 0 {
		p.at = k
	}
	p.lost = false
	p.pull()
	target = p.wps[0]
	if len(p.wps) > 1 {
		target = p.wps[1]
	}
	arrive := p.Arrive
	if arrive <= 0 {
		arrive = 1e-6
	}
	return target, target == p.end && pos.Sub(p.end).Len() <= arrive
}

// run returns the index of the last polygon of the first run of polygons
// of the corridor from index i to j (the run may go on past j) that hold
// pos, exactly or, with near, to rounding; −1 when none does.
func (p *MeshPath) run(pos mgl64.Vec2, i, j int, near bool) int {
	k := -1
	for ; i < len(p.polys); i++ {
		if p.holds(p.polys[i], pos, near) {
			k = i
		} else if k >= 0 || i >= j {
			break
		}
	}
	return k
}

// rejoin puts in front of the corridor a neighbour of the polygon the agent
// was last found in that holds pos, and reports whether there was one.
func (p *MeshPath) rejoin(pos mgl64.Vec2) bool {
	front := p.polys[p.at]
	p.nbs = p.m.AppendNeighbors(p.nbs[:0], front)
	var back navmesh.PolyID = -1
	for _, nb := range p.nbs {
		if p.holds(nb.Poly, pos, false) {
			back = nb.Poly
			break
		}
	}
	if back < 0 {
		return false
	}
	pt, ok := p.portal(back, front)
	if !ok {
		return false
	}
	if p.at > 0 {
		p.at--
		p.polys[p.at], p.portals[p.at] = back, pt
		return true
	}
	p.polys = slices.Insert(p.polys, 0, back)
	p.portals = slices.Insert(p.portals, 0, pt)
	return true
}

// pull pulls the corridor ahead taut from p.pos to p.end into p.wps.
func (p *MeshPath) pull() {
	p.wps = funnel.Pull(p.wps[:0], p.pos, p.end, p.portals[p.at:])
}

// length returns the length of the waypoints.
func (p *MeshPath) length() float64 {
	l := 0.0
	for i := 1; i < len(p.wps); i++ {
		l += p.wps[i].Sub(p.wps[i-1]).Len()
	}
	return l
}

// reset empties p and makes it a path on m with the given status.
func (p *MeshPath) reset(m *navmesh.Mesh, from, to mgl64.Vec2, st Status, err error) {
	p.m, p.polys, p.portals, p.wps, p.at = m, p.polys[:0], p.portals[:0], p.wps[:0], 0
	p.pos, p.goal, p.end, p.status, p.err, p.lost = from, to, from, st, err, false
}

// compact moves the corridor ahead of the agent, and its portals, to the
// front of p's slices.
func (p *MeshPath) compact() {
	if p.at == 0 {
		return
	}
	p.polys = append(p.polys[:0], p.polys[p.at:]...)
	p.portals = append(p.portals[:0], p.portals[min(p.at, len(p.portals)):]...)
	p.at = 0
}

// link computes the portals between the corridor's consecutive polygons
// (p.at is 0) and reports whether each is a neighbour of the one before.
func (p *MeshPath) link() bool {
	p.portals = p.portals[:0]
	for i := 1; i < len(p.polys); i++ {
		pt, ok := p.portal(p.polys[i-1], p.polys[i])
		if !ok {
			p.portals = p.portals[:0]
			return false
		}
		p.portals = append(p.portals, pt)
	}
	return true
}

// portal returns the portal from polygon a into its neighbour b, oriented
// for a walker crossing it, and false when they are not neighbours. Two
// polygons may share a side split at a vertex between them, which gives
// two collinear portals in a row: the portal is then the whole side.
func (p *MeshPath) portal(a, b navmesh.PolyID) (funnel.Portal, bool) {
	p.nbs = p.m.AppendNeighbors(p.nbs[:0], a)
	var pt funnel.Portal
	found := false
	for _, nb := range p.nbs {
		if nb.Poly != b {
			continue
		}
		if !found {
			pt, found = nb.Portal, true
			continue
		}
		// Collinear, and joined: keep the outermost ends along the side.
		d := pt.Right.Sub(pt.Left)
		for _, q := range [2]mgl64.Vec2{nb.Portal.Left, nb.Portal.Right} {
			switch t := q.Sub(pt.Left).Dot(d); {
			case t < 0:
				pt.Left = q
			case t > d.Dot(d):
				pt.Right = q
			}
			d = pt.Right.Sub(pt.Left)
		}
	}
	return pt, found
}

// holds reports whether polygon id of p's mesh holds pos: exactly (its
// edges included) or, with near, to rounding.
func (p *MeshPath) holds(id navmesh.PolyID, pos mgl64.Vec2, near bool) bool {
	if !near {
		return p.m.Contains(id, pos)
	}
	p.vs = p.m.AppendPolygon(p.vs[:0], id)
	return nearConvex(p.vs, pos)
}

// nearConvex reports whether q lies within 10⁻⁹·(1 + max |coordinate|) of
// every edge line's inner side of the convex polygon vs.
func nearConvex(vs []mgl64.Vec2, q mgl64.Vec2) bool {
	tol := 1e-9 * (1 + math.Max(math.Abs(q[0]), math.Abs(q[1])))
	a := vs[len(vs)-1]
	for _, b := range vs {
		e := b.Sub(a)
		if c := e[0]*(q[1]-a[1]) - e[1]*(q[0]-a[0]); c > tol*e.Len() {
			return false
		}
		a = b
	}
	return true
}

// centroid returns the mean of the vertices vs: a point inside a convex
// polygon (but for rounding on a sliver).
func centroid(vs []mgl64.Vec2) mgl64.Vec2 {
	var c mgl64.Vec2
	for _, v := range vs {
		c = c.Add(v)
	}
	return c.Mul(1 / float64(len(vs)))
}
