package agent_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// meshCase is a mesh for the tests and a name for their messages.
type meshCase struct {
	name string
	m    *navmesh.Mesh
}

// gridMesh returns the mesh FromGrid builds from g with opt.
func gridMesh(tb testing.TB, g *grid.Grid, opt navmesh.Options) *navmesh.Mesh {
	tb.Helper()
	m, err := navmesh.FromGrid(g, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// ring makes an orb ring from x, y pairs.
func ring(xy ...float64) orb.Ring {
	r := make(orb.Ring, len(xy)/2)
	for i := range r {
		r[i] = orb.Point{xy[2*i], xy[2*i+1]}
	}
	return r
}

// box is the ring of the rectangle [x0, x1] × [y0, y1].
func box(x0, y0, x1, y1 float64) orb.Ring { return ring(x0, y0, x1, y0, x1, y1, x0, y1) }

// polygonMesh returns the mesh of an octagon 40 × 30 with rectangular
// holes: its walls are slanted only where no taut path runs along them
// (the octagon's corners are convex), so every move is exact.
func polygonMesh(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	pg := orb.Polygon{
		ring(4, 0, 36, 0, 40, 4, 40, 26, 36, 30, 4, 30, 0, 26, 0, 4),
		box(6, 5, 14, 9), box(20, 3, 23, 20), box(8, 14, 16, 24),
		box(27, 8, 34, 11), box(28, 16, 31, 27),
	}
	m, err := navmesh.FromPolygon(pg, navmesh.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// meshCases are the meshes the walking tests run on: random grids, the
// demo map (plain and tiled) and the octagon.
func meshCases(tb testing.TB) []meshCase {
	tb.Helper()
	var cs []meshCase
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 48, 40, 0.1*float64(seed), grid.Options{})
		cs = append(cs, meshCase{fmt.Sprintf("random seed %d", seed), gridMesh(tb, g, navmesh.Options{})})
	}
	demo, err := grid.LoadMap("../testdata/demo.map", grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	cs = append(cs,
		meshCase{"demo.map", gridMesh(tb, demo, navmesh.Options{})},
		meshCase{"demo.map tiled 8", gridMesh(tb, demo, navmesh.Options{TileSize: 8})},
		meshCase{"octagon with holes", polygonMesh(tb)})
	return cs
}

// meshPoint draws a point of m: uniform over its bounding box, or a cell
// centre, or a cell corner (which lies on polygon edges), until one is on
// the mesh.
func meshPoint(r *rand.Rand, m *navmesh.Mesh, w, h float64) mgl64.Vec2 {
	for {
		p := mgl64.Vec2{r.Float64() * w, r.Float64() * h}
		switch r.IntN(3) {
		case 1:
			p = mgl64.Vec2{math.Floor(p[0]) + 0.5, math.Floor(p[1]) + 0.5}
		case 2:
			p = mgl64.Vec2{math.Floor(p[0]), math.Floor(p[1])}
		}
		if _, ok := m.Locate(p); ok {
			return p
		}
	}
}

// extent returns the width and height of the box from (0, 0) that holds m.
func extent(m *navmesh.Mesh) (w, h float64) {
	var vs []mgl64.Vec2
	for id := range m.NumPolys() {
		vs = m.AppendPolygon(vs[:0], navmesh.PolyID(id))
		for _, v := range vs {
			w, h = math.Max(w, v[0]), math.Max(h, v[1])
		}
	}
	return w, h
}

// insideBy reports whether polygon id of m holds q with a margin of eps
// from each of its edges' lines: a check independent of the package's.
func insideBy(m *navmesh.Mesh, id navmesh.PolyID, q mgl64.Vec2, eps float64) bool {
	vs := m.AppendPolygon(nil, id)
	for i, a := range vs {
		b := vs[(i+1)%len(vs)]
		e := b.Sub(a)
		if c := e[0]*(q[1]-a[1]) - e[1]*(q[0]-a[0]); c > -eps*e.Len() {
			return false
		}
	}
	return true
}

// checkMeshPath checks p's path on mesh m from the agent at pos: the
// waypoints run from pos to the end, each leg clear by m's Raycast, and the
// corridor is a chain of neighbours, none twice, from a polygon that holds
// pos to one that holds the end.
func checkMeshPath(m *navmesh.Mesh, p *agent.MeshPath, pos mgl64.Vec2) error {
	wps, cor := p.Waypoints(), p.Corridor()
	if len(wps) == 0 || len(cor) == 0 {
		return fmt.Errorf("%d waypoints and %d polygons", len(wps), len(cor))
	}
	if p.Mesh() != m {
		return fmt.Errorf("the path is on another mesh")
	}
	if wps[0] != pos || wps[len(wps)-1] != p.End() {
		return fmt.Errorf("waypoints %v: want them from %v to %v", wps, pos, p.End())
	}
	for i := 1; i < len(wps); i++ {
		if ok, at := segmentClear(m, wps[i-1], wps[i]); !ok {
			return fmt.Errorf("leg %v → %v leaves the mesh at %v", wps[i-1], wps[i], at)
		}
	}
	if !insideBy(m, cor[0], pos, -1e-9) || !insideBy(m, cor[len(cor)-1], p.End(), -1e-9) {
		return fmt.Errorf("corridor %v does not run from %v to %v", cor, pos, p.End())
	}
	var nbs []navmesh.Neighbor
	for i := 1; i < len(cor); i++ {
		if slices.Contains(cor[:i], cor[i]) {
			return fmt.Errorf("corridor %v holds %d twice", cor, cor[i])
		}
		nbs = m.AppendNeighbors(nbs[:0], cor[i-1])
		if !slices.ContainsFunc(nbs, func(nb navmesh.Neighbor) bool { return nb.Poly == cor[i] }) {
			return fmt.Errorf("corridor %v: %d is not a neighbour of %d", cor, cor[i], cor[i-1])
		}
	}
	return nil
}

// segmentClear reports whether the segment from a to b stays on m by
// Raycast, to rounding: Raycast is exact, but an agent's position is a
// rounded point, and a segment from it may pass a wall's corner that the
// taut path passes straight on the wall's side by an ulp. Such a segment,
// which Raycast finds leaving the mesh within 10⁻⁹ of a corner c with
// a → c and c → b both clear, counts as clear, in grazed.
func segmentClear(m *navmesh.Mesh, a, b mgl64.Vec2) (bool, mgl64.Vec2) {
	hit, at := m.Raycast(a, b)
	if !hit {
		return true, at
	}
	if c, ok := cornerNear(m, at, 1e-9); ok && c != a && c != b {
		if h, _ := m.Raycast(a, c); !h {
			if h, _ := m.Raycast(c, b); !h {
				grazed++
				return true, b
			}
		}
	}
	return false, at
}

// grazed counts the segments clear to rounding only (see segmentClear).
var grazed int

// cornerNear returns a vertex of m's polygon nearest p that lies within
// eps of p, if there is one.
func cornerNear(m *navmesh.Mesh, p mgl64.Vec2, eps float64) (mgl64.Vec2, bool) {
	id, _ := m.Nearest(p)
	if id < 0 {
		return p, false
	}
	for _, v := range m.AppendPolygon(nil, id) {
		if v.Sub(p).Len() <= eps {
			return v, true
		}
	}
	return p, false
}

// roundedSteps counts the steps of meshWalk that Raycast finds off the
// mesh by rounding alone.
var roundedSteps int

// nearSegment reports whether q lies on the segment from a to b to
// rounding: within 10⁻¹² of the coordinates' magnitude of its line, and
// between its ends.
func nearSegment(a, b, q mgl64.Vec2) bool {
	d := b.Sub(a)
	tol := 1e-12 * (1 + math.Max(math.Abs(q[0]), math.Abs(q[1])))
	c := d[0]*(q[1]-a[1]) - d[1]*(q[0]-a[0])
	t := q.Sub(a).Dot(d)
	return math.Abs(c) <= tol*d.Len() && t >= 0 && t <= d.Dot(d)
}

// meshWalk moves an agent from pos by steps of at most speed toward
// Steer's target until it arrives, is lost, or runs out of frames; push,
// when not nil, may displace it first in each frame. Every target and
// every step must be clear by m's Raycast (a step to rounding: see
// roundedSteps), and a lost agent must stand
// off the corridor it had (off every polygon of it by a margin, and off the
// neighbours of its front).
func meshWalk(t *testing.T, where string, m *navmesh.Mesh, p *agent.MeshPath, pos mgl64.Vec2, speed float64, frames int, push func(pos mgl64.Vec2, frame int) mgl64.Vec2) (mgl64.Vec2, bool) {
	t.Helper()
	var before []navmesh.PolyID
	var nbs []navmesh.Neighbor
	for f := range frames {
		if push != nil {
			pos = push(pos, f)
		}
		before = append(before[:0], p.Corridor()...)
		target, done := p.Steer(pos)
		if done {
			return pos, true
		}
		if p.Lost() {
			if target != pos {
				t.Fatalf("%s: frame %d: lost at %v with target %v, want it to stand still", where, f, pos, target)
			}
			nbs = m.AppendNeighbors(nbs[:0], before[0])
			for _, nb := range nbs {
				before = append(before, nb.Poly)
			}
			for _, id := range before {
				if insideBy(m, id, pos, 1e-9) {
					t.Fatalf("%s: frame %d: lost at %v, inside polygon %d of its corridor %v", where, f, pos, id, before)
				}
			}
			return pos, false
		}
		if ok, at := segmentClear(m, pos, target); !ok {
			t.Fatalf("%s: frame %d: target %v is not in sight of %v: the segment leaves the mesh at %v", where, f, target, pos, at)
		}
		next := target
		if d := target.Sub(pos); d.Len() > speed {
			next = pos.Add(d.Mul(speed / d.Len()))
		}
		if ok, at := segmentClear(m, pos, next); !ok {
			// A clipped step ends at a rounded point, off the segment to the
			// target by an ulp: where that segment grazes a wall's corner
			// (a corner the taut path passes straight), the step may pass
			// the corner on the wall's side by as much.
			if !nearSegment(pos, target, next) {
				t.Fatalf("%s: frame %d: step %v → %v leaves the mesh at %v", where, f, pos, next, at)
			}
			roundedSteps++
		}
		pos = next
	}
	return pos, false
}

// arrived reports whether an agent at pos has arrived at goal by p's
// default Arrive.
func arrived(p *agent.MeshPath, pos, goal mgl64.Vec2) bool {
	return p.End() == goal && pos.Sub(goal).Len() <= 1e-6
}

// TestMeshSteerWalk walks agents from start to goal on every mesh of
// meshCases at several speeds: every target and step stays on the mesh,
// every agent arrives at its goal within the frames its path's length
// allows, and none needs a search beyond its plan.
func TestMeshSteerWalk(t *testing.T) {
	for ci, c := range meshCases(t) {
		w, h := extent(c.m)
		pl := agent.NewMeshPlanner(c.m)
		r := testmap.NewRand(int64(ci) + 1)
		walked := 0
		for i := range 30 {
			from, to := meshPoint(r, c.m, w, h), meshPoint(r, c.m, w, h)
			for _, speed := range []float64{0.13, 0.8, 5} {
				var p agent.MeshPath
				searches := pl.Searches()
				res, err := pl.Plan(&p, from, to)
				if err != nil {
					t.Fatal(err)
				}
				if p.Status() != agent.Following {
					continue
				}
				where := fmt.Sprintf("%s pair %d %v → %v speed %v", c.name, i, from, to, speed)
				if err := checkMeshPath(c.m, &p, from); err != nil {
					t.Fatalf("%s: plan: %v", where, err)
				}
				frames := int(res.Length/speed) + len(p.Waypoints()) + 10
				pos, done := meshWalk(t, where, c.m, &p, from, speed, frames, nil)
				if !done || !arrived(&p, pos, to) {
					t.Fatalf("%s: at %v after %d frames (done %v, lost %v), want arrival at the goal", where, pos, frames, done, p.Lost())
				}
				if n := pl.Searches() - searches; n != 1 {
					t.Fatalf("%s: %d searches, want 1", where, n)
				}
				walked++
			}
		}
		if walked < 30 {
			t.Errorf("%s: only %d walks", c.name, walked)
		}
	}
	t.Logf("%d steps clear to rounding only, %d segments passing a corner by rounding", roundedSteps, grazed)
}

// TestMeshSteerPushed pushes walking agents by a random offset every few
// frames, kept on the mesh with Mesh.Nearest: they stay legal, are lost
// only off their corridors, and arrive after a new plan from where they
// stand.
func TestMeshSteerPushed(t *testing.T) {
	for ci, c := range meshCases(t) {
		w, h := extent(c.m)
		pl := agent.NewMeshPlanner(c.m)
		r := testmap.NewRand(int64(ci) + 11)
		push := func(pos mgl64.Vec2, f int) mgl64.Vec2 {
			if f%5 != 2 {
				return pos
			}
			_, q := c.m.Nearest(pos.Add(mgl64.Vec2{r.Float64()*4 - 2, r.Float64()*4 - 2}))
			if _, ok := c.m.Locate(q); !ok {
				return pos // off by rounding
			}
			return q
		}
		lost, arrived, walked, strayed := 0, 0, 0, 0
		for i := range 25 {
			from, to := meshPoint(r, c.m, w, h), meshPoint(r, c.m, w, h)
			var p agent.MeshPath
			if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
				continue
			}
			walked++
			where := fmt.Sprintf("%s pair %d %v → %v", c.name, i, from, to)
			pos, done := meshWalk(t, where, c.m, &p, from, 0.5, 2000, push)
			for tries := 0; !done && p.Lost() && tries < 50; tries++ {
				lost++
				if _, err := pl.Plan(&p, pos, to); err != nil {
					t.Fatalf("%s: replan from %v: %v", where, pos, err)
				}
				if p.Status() != agent.Following {
					strayed++ // pushed into another component
					break
				}
				if err := checkMeshPath(c.m, &p, pos); err != nil {
					t.Fatalf("%s: replan from %v: %v", where, pos, err)
				}
				pos, done = meshWalk(t, where, c.m, &p, pos, 0.5, 2000, push)
			}
			if !done && p.Status() == agent.Following {
				t.Fatalf("%s: not arrived, at %v (lost %v)", where, pos, p.Lost())
			}
			if done {
				arrived++
			}
		}
		t.Logf("%s: %d of %d arrived (%d pushed into another component), %d replans of lost agents", c.name, arrived, walked, strayed, lost)
		if arrived+strayed != walked || arrived < walked/2 || lost == 0 {
			t.Errorf("%s: %d of %d arrived, %d pushed away, %d lost: the test saw too few", c.name, arrived, walked, strayed, lost)
		}
	}
}

// TestMeshSteerSlantedWalls walks agents round holes with slanting sides,
// along which the taut path runs: a step along such a side lands off the
// mesh by rounding about half the time, and Steer must take it as on the
// side. Moves are checked to rounding: every point of them lies within
// 10⁻⁹ of the mesh.
func TestMeshSteerSlantedWalls(t *testing.T) {
	pg := orb.Polygon{box(0, 0, 30, 30),
		ring(5, 5, 12, 7, 7, 12), ring(18, 4, 24, 10, 18, 16, 15, 10), ring(8, 18, 20, 21, 13, 26)}
	m, err := navmesh.FromPolygon(pg, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pl := agent.NewMeshPlanner(m)
	r := testmap.NewRand(5)
	offMesh := 0
	for i := range 60 {
		from, to := meshPoint(r, m, 30, 30), meshPoint(r, m, 30, 30)
		var p agent.MeshPath
		res, err := pl.Plan(&p, from, to)
		if err != nil || p.Status() != agent.Following {
			t.Fatalf("pair %d: %v %v", i, p.Status(), err)
		}
		pos := from
		done := false
		for f := 0; !done && f < int(res.Length/0.3)+10; f++ {
			var target mgl64.Vec2
			target, done = p.Steer(pos)
			if p.Lost() {
				t.Fatalf("pair %d %v → %v: frame %d: lost at %v", i, from, to, f, pos)
			}
			next := target
			if d := target.Sub(pos); d.Len() > 0.3 {
				next = pos.Add(d.Mul(0.3 / d.Len()))
			}
			for k := 0; k <= 16; k++ {
				q := pos.Add(next.Sub(pos).Mul(float64(k) / 16))
				if _, at := m.Nearest(q); at.Sub(q).Len() > 1e-9 {
					t.Fatalf("pair %d: frame %d: step %v → %v passes %v, off the mesh", i, f, pos, next, q)
				}
			}
			if _, ok := m.Locate(next); !ok {
				offMesh++
			}
			pos = next
		}
		if !done || !arrived(&p, pos, to) {
			t.Fatalf("pair %d %v → %v: not arrived, at %v", i, from, to, pos)
		}
	}
	t.Logf("%d steps ended off the mesh by rounding", offMesh)
	if offMesh == 0 {
		t.Errorf("no step ended off the mesh: the test does not test rounding")
	}
}

// TestMeshPathCorners pins the documented corner cases: an empty path, an
// end off the mesh, a move of the goal of an empty path, a lost agent,
// and arrival.
func TestMeshPathCorners(t *testing.T) {
	var p agent.MeshPath
	pos := mgl64.Vec2{3, 4}
	if target, done := p.Steer(pos); target != pos || !done || p.Status() != agent.Idle {
		t.Errorf("empty path: Steer = %v, %v, status %v; want %v, true, idle", target, done, p.Status(), pos)
	}
	g, err := grid.FromRows([]string{
		"......#.....",
		"......#.....",
		"####..#.....",
		"............",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := gridMesh(t, g, navmesh.Options{})
	pl := agent.NewMeshPlanner(m)
	if _, err := pl.MoveGoal(&p, mgl64.Vec2{1, 1}); err == nil {
		t.Errorf("MoveGoal of an empty path: no error")
	}
	if _, err := pl.Plan(&p, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 2.5}); err == nil || p.Status() != agent.NoPath || p.Err() == nil {
		t.Errorf("goal in a wall: error %v, status %v; want an error and no path", err, p.Status())
	}
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{0.5, 3.5}
	if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
		t.Fatalf("plan: %v, %v", p.Status(), err)
	}
	want := []mgl64.Vec2{from, {4, 2}, {4, 3}, to}
	if !slices.Equal(p.Waypoints(), want) {
		t.Errorf("waypoints %v, want %v", p.Waypoints(), want)
	}
	if target, done := p.Steer(from); target != (mgl64.Vec2{4, 2}) || done {
		t.Errorf("at the start: Steer = %v, %v; want (4, 2), false", target, done)
	}
	// Pushed to a cell centre off the corridor and off the neighbours of
	// its front.
	near := slices.Clone(p.Corridor())
	for _, nb := range m.AppendNeighbors(nil, near[0]) {
		near = append(near, nb.Poly)
	}
	off := mgl64.Vec2{-1, -1}
	for _, c := range testmap.FreeCells(g) {
		q := agent.Centre(c)
		if !slices.ContainsFunc(near, func(id navmesh.PolyID) bool { return insideBy(m, id, q, -1e-9) }) {
			off = q
			break
		}
	}
	if off[0] < 0 {
		t.Fatalf("every cell is on the corridor %v or next to its front", p.Corridor())
	}
	if target, _ := p.Steer(off); !p.Lost() || target != off {
		t.Errorf("pushed to %v: target %v, lost %v; want to stand still, lost", off, target, p.Lost())
	}
	if _, err := pl.MoveGoal(&p, to); err != nil || p.Lost() || p.Waypoints()[0] != off {
		t.Errorf("MoveGoal of a lost path: %v, lost %v, waypoints %v; want a plan from %v", err, p.Lost(), p.Waypoints(), off)
	}
	if target, done := p.Steer(to.Add(mgl64.Vec2{0, 5e-7})); !done || target != to {
		t.Errorf("5·10⁻⁷ from the goal: Steer = %v, %v; want the goal, arrived", target, done)
	}
	if _, done := p.Steer(to.Add(mgl64.Vec2{0.01, 0})); done {
		t.Errorf("0.01 from the goal: arrived")
	}
}

// TestMeshAllocs checks that a warm Steer, Plan and MoveGoal allocate
// nothing.
func TestMeshAllocs(t *testing.T) {
	g, err := grid.LoadMap("../testdata/demo.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := gridMesh(t, g, navmesh.Options{})
	pl := agent.NewMeshPlanner(m)
	w, h := extent(m)
	r := testmap.NewRand(3)
	var p agent.MeshPath
	var from, to, far mgl64.Vec2
	for {
		from, to, far = meshPoint(r, m, w, h), meshPoint(r, m, w, h), meshPoint(r, m, w, h)
		if _, err := pl.Plan(&p, from, far); err != nil || p.Status() != agent.Following {
			continue
		}
		if _, err := pl.Plan(&p, from, to); err == nil && p.Status() == agent.Following && len(p.Corridor()) >= 10 {
			break
		}
	}
	inside := centroidOf(m, p.Corridor()[len(p.Corridor())/2])
	pos := p.Waypoints()[0].Add(p.Waypoints()[1]).Mul(0.5)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Steer", func() { p.Steer(pos) }},
		{"Plan", func() { pl.Plan(&p, from, to) }},
		{"MoveGoal out", func() { pl.Plan(&p, from, to); pl.MoveGoal(&p, far) }},
		{"MoveGoal in", func() { pl.Plan(&p, from, to); pl.MoveGoal(&p, inside) }},
	} {
		tc.f()
		if n := testing.AllocsPerRun(50, tc.f); n != 0 {
			t.Errorf("%s allocates %v times a call", tc.name, n)
		}
	}
}

// centroidOf returns the mean of the vertices of polygon id of m.
func centroidOf(m *navmesh.Mesh, id navmesh.PolyID) mgl64.Vec2 {
	vs := m.AppendPolygon(nil, id)
	var c mgl64.Vec2
	for _, v := range vs {
		c = c.Add(v)
	}
	return c.Mul(1 / float64(len(vs)))
}

// BenchmarkMeshSteer measures one Steer of an agent at the start of the
// longest of 50 corridors on the demo map: locating it and pulling the
// whole corridor taut.
func BenchmarkMeshSteer(b *testing.B) {
	g, err := grid.LoadMap("../testdata/demo.map", grid.Options{})
	if err != nil {
		b.Fatal(err)
	}
	m := gridMesh(b, g, navmesh.Options{})
	pl := agent.NewMeshPlanner(m)
	w, h := extent(m)
	r := testmap.NewRand(9)
	var best [2]mgl64.Vec2
	n := 0
	for range 50 {
		var p agent.MeshPath
		from, to := meshPoint(r, m, w, h), meshPoint(r, m, w, h)
		if _, err := pl.Plan(&p, from, to); err == nil && len(p.Corridor()) > n {
			best, n = [2]mgl64.Vec2{from, to}, len(p.Corridor())
		}
	}
	var p agent.MeshPath
	pl.Plan(&p, best[0], best[1])
	b.ReportAllocs()
	for b.Loop() {
		if target, done := p.Steer(best[0]); done || target == best[0] {
			b.Fatal("no target")
		}
	}
	b.ReportMetric(float64(n), "polygons")
	b.ReportMetric(float64(len(p.Waypoints())), "waypoints")
}
