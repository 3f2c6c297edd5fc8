package agent_test

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// inCorridor reports whether a polygon of the corridor cor of m holds q,
// to rounding.
func inCorridor(m *navmesh.Mesh, cor []navmesh.PolyID, q mgl64.Vec2) bool {
	return slices.ContainsFunc(cor, func(id navmesh.PolyID) bool { return insideBy(m, id, q, -1e-9) })
}

// TestMeshMoveGoalInside moves goals to points of the corridor ahead of
// walking agents (polygon centres and corners): no search, the
// waypoints end at the new goal, and the agents arrive there.
func TestMeshMoveGoalInside(t *testing.T) {
	for ci, c := range meshCases(t) {
		w, h := extent(c.m)
		pl := agent.NewMeshPlanner(c.m)
		r := testmap.NewRand(int64(ci) + 21)
		moved := 0
		for i := range 30 {
			from, to := meshPoint(r, c.m, w, h), meshPoint(r, c.m, w, h)
			var p agent.MeshPath
			if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following || len(p.Corridor()) < 3 {
				continue
			}
			where := fmt.Sprintf("%s pair %d %v → %v", c.name, i, from, to)
			pos, _ := meshWalk(t, where, c.m, &p, from, 0.4, r.IntN(10), nil)
			if _, done := p.Steer(pos); done {
				continue
			}
			cor := p.Corridor()
			if len(cor) < 2 {
				continue
			}
			id := cor[1+r.IntN(len(cor)-1)]
			goal := centroidOf(c.m, id)
			if r.IntN(2) == 0 {
				vs := c.m.AppendPolygon(nil, id)
				goal = vs[r.IntN(len(vs))]
			}
			searches := pl.Searches()
			res, err := pl.MoveGoal(&p, goal)
			if err != nil {
				t.Fatalf("%s: MoveGoal to %v: %v", where, goal, err)
			}
			if res.Expanded != 0 || pl.Searches() != searches || p.Goal() != goal || p.End() != goal || p.Status() != agent.Following {
				t.Fatalf("%s: MoveGoal to %v in the corridor: expanded %d, %d searches, goal %v, end %v, status %v; want no search, and the goal",
					where, goal, res.Expanded, pl.Searches()-searches, p.Goal(), p.End(), p.Status())
			}
			if err := checkMeshPath(c.m, &p, pos); err != nil {
				t.Fatalf("%s: after MoveGoal to %v: %v", where, goal, err)
			}
			if l := lengthOf(p.Waypoints()); math.Abs(l-res.Length) > 1e-9 {
				t.Fatalf("%s: Result.Length %v, waypoints %v long", where, res.Length, l)
			}
			end, done := meshWalk(t, where, c.m, &p, pos, 0.4, 4000, nil)
			if !done || !arrived(&p, end, goal) {
				t.Fatalf("%s: at %v, want arrival at the new goal %v", where, end, goal)
			}
			moved++
		}
		if moved < 10 {
			t.Errorf("%s: only %d moves", c.name, moved)
		}
	}
}

// lengthOf returns the length of the polyline pts.
func lengthOf(pts []mgl64.Vec2) float64 {
	l := 0.0
	for i := 1; i < len(pts); i++ {
		l += pts[i].Sub(pts[i-1]).Len()
	}
	return l
}

// TestMeshMoveGoalOutside moves goals a few cells off the corridors of
// walking agents: the path stays legal, to the new goal, and the agents
// arrive; the end search expands on average under three quarters of the
// nodes a full Plan from the agent does (a quarter to a half, in fact).
func TestMeshMoveGoalOutside(t *testing.T) {
	for ci, c := range meshCases(t) {
		w, h := extent(c.m)
		pl := agent.NewMeshPlanner(c.m)
		r := testmap.NewRand(int64(ci) + 31)
		var moveX, planX, moves int
		var moveL, planL float64
		for i := 0; moves < 40 && i < 400; i++ {
			from, to := meshPoint(r, c.m, w, h), meshPoint(r, c.m, w, h)
			var p, q agent.MeshPath
			if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
				continue
			}
			where := fmt.Sprintf("%s pair %d %v → %v", c.name, i, from, to)
			pos, _ := meshWalk(t, where, c.m, &p, from, 0.4, r.IntN(20), nil)
			if _, done := p.Steer(pos); done {
				continue
			}
			goal := to.Add(mgl64.Vec2{r.Float64()*12 - 6, r.Float64()*12 - 6})
			if _, ok := c.m.Locate(goal); !ok || inCorridor(c.m, p.Corridor(), goal) {
				continue
			}
			full, err := pl.Plan(&q, pos, goal)
			if err != nil || q.Status() != agent.Following {
				continue // another component
			}
			res, err := pl.MoveGoal(&p, goal)
			if err != nil || p.Status() != agent.Following {
				t.Fatalf("%s: MoveGoal to %v: %v, %v", where, goal, p.Status(), err)
			}
			if p.Goal() != goal || p.End() != goal {
				t.Fatalf("%s: MoveGoal to %v: goal %v, end %v", where, goal, p.Goal(), p.End())
			}
			if err := checkMeshPath(c.m, &p, pos); err != nil {
				t.Fatalf("%s: after MoveGoal to %v: %v", where, goal, err)
			}
			moves++
			moveX += res.Expanded
			planX += full.Expanded
			moveL += res.Length
			planL += full.Length
			end, done := meshWalk(t, where, c.m, &p, pos, 0.4, 4000, nil)
			if !done || !arrived(&p, end, goal) {
				t.Fatalf("%s: at %v, want arrival at the new goal %v", where, end, goal)
			}
		}
		t.Logf("%s: %d moves: %.1f expansions a move against %.1f for a full plan; paths %.2f %% longer",
			c.name, moves, float64(moveX)/float64(moves), float64(planX)/float64(moves), 100*(moveL/planL-1))
		if moves < 20 || 4*moveX > 3*planX {
			t.Errorf("%s: %d moves expanded %d nodes, full plans %d", c.name, moves, moveX, planX)
		}
	}
}

// TestMeshMoveGoalUnreachable moves a goal into another component: the
// path keeps its corridor (NoPath) and the agent may walk on.
func TestMeshMoveGoalUnreachable(t *testing.T) {
	g, err := grid.FromRows([]string{
		"........#..",
		"........#..",
		"........#..",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := gridMesh(t, g, navmesh.Options{})
	pl := agent.NewMeshPlanner(m)
	var p agent.MeshPath
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{7.5, 2.5}
	if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
		t.Fatalf("plan: %v %v", p.Status(), err)
	}
	cor := slices.Clone(p.Corridor())
	away := mgl64.Vec2{10, 1}
	if _, err := pl.MoveGoal(&p, away); err != nil || p.Status() != agent.NoPath || !slices.Equal(p.Corridor(), cor) || p.End() != to {
		t.Errorf("MoveGoal across the wall: %v, %v, corridor %v, end %v; want no path, the corridor %v kept", err, p.Status(), p.Corridor(), p.End(), cor)
	}
	if pos, done := meshWalk(t, "no path", m, &p, from, 0.5, 100, nil); !done || !arrived(&p, pos, to) {
		t.Errorf("walking a kept corridor: at %v, done %v", pos, done)
	}
	if _, err := pl.MoveGoal(&p, mgl64.Vec2{3, 1}); err == nil {
		t.Errorf("MoveGoal of a NoPath path: no error")
	}
}

// tileOf returns the tile of size s that holds the centre of polygon id.
func tileOf(m *navmesh.Mesh, id navmesh.PolyID, s int) image.Point {
	c := centroidOf(m, id)
	return image.Pt(int(c[0])/s, int(c[1])/s)
}

// TestMeshRepair edits a tiled mesh under walking agents: walls across
// their paths, walls and openings anywhere, and edits two tiles or more
// away from a path. After each Update, Repair leaves every path legal on
// the new mesh, or Broken only where a fresh plan finds no path either;
// an edit far from a path leaves it Intact, with its waypoints, at no
// search; and every agent then arrives.
func TestMeshRepair(t *testing.T) {
	const tile = 8
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 72, 56, 0.1, grid.Options{})
		m := gridMesh(t, g, navmesh.Options{TileSize: tile})
		w, h := extent(m)
		pl := agent.NewMeshPlanner(m)
		r := testmap.NewRand(seed + 40)
		counts := map[agent.Mend]int{}
		farIntact := 0
		for i := range 60 {
			from, to := meshPoint(r, m, w, h), meshPoint(r, m, w, h)
			var p agent.MeshPath
			if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following || len(p.Waypoints()) < 3 {
				continue
			}
			where := fmt.Sprintf("seed %d pair %d %v → %v", seed, i, from, to)
			pos, _ := meshWalk(t, where, m, &p, from, 0.5, r.IntN(10), nil)
			if _, done := p.Steer(pos); done {
				continue
			}
			var rect image.Rectangle
			kind := r.IntN(3)
			switch kind {
			case 0: // a wall across a leg ahead
				wps := p.Waypoints()
				k := r.IntN(len(wps) - 1)
				mid := agent.CellOf(wps[k].Add(wps[k+1]).Mul(0.5))
				rect = image.Rect(mid.X-3, mid.Y, mid.X+4, mid.Y+1)
				if r.IntN(2) == 0 {
					rect = image.Rect(mid.X, mid.Y-3, mid.X+1, mid.Y+4)
				}
			case 1: // anything anywhere
				x, y := r.IntN(g.Width()), r.IntN(g.Height())
				rect = image.Rect(x, y, x+1+r.IntN(4), y+1+r.IntN(4))
			case 2: // two tiles or more from every polygon of the corridor
				tiles := map[image.Point]bool{}
				for _, id := range p.Corridor() {
					tiles[tileOf(m, id, tile)] = true
				}
				for range 100 {
					x, y := r.IntN(g.Width()-2), r.IntN(g.Height()-2)
					far := true
					for tp := range tiles {
						far = far && max(abs(tp.X-x/tile), abs(tp.Y-y/tile)) >= 2 && max(abs(tp.X-(x+1)/tile), abs(tp.Y-(y+1)/tile)) >= 2
					}
					if far {
						rect = image.Rect(x, y, x+2, y+2)
						break
					}
				}
			}
			rect = rect.Intersect(g.Bounds())
			if rect.Empty() || nearCells(rect, pos, p.Goal()) {
				continue // no edit, or one that walls the agent or its goal in
			}
			g.SetCells(rect, r.IntN(4) == 0)
			m2, err := m.Update(g, rect)
			if err != nil {
				t.Fatal(err)
			}
			before := slices.Clone(p.Waypoints())
			searches := pl.Searches()
			mend := pl.Repair(&p, m2, rect)
			counts[mend]++
			m = m2
			where += fmt.Sprintf(", edit %v", rect)
			if kind == 2 && m2 != p.Mesh() {
				t.Fatalf("%s: the path is not on the new mesh", where)
			}
			if kind == 2 {
				if mend != agent.Intact || pl.Searches() != searches || !slices.Equal(p.Waypoints(), before) {
					t.Fatalf("%s: a far edit: %v after %d searches, waypoints %v, were %v; want intact, no search", where, mend, pl.Searches()-searches, p.Waypoints(), before)
				}
				farIntact++
			}
			if mend == agent.Intact && pl.Searches() != searches {
				t.Fatalf("%s: intact after %d searches", where, pl.Searches()-searches)
			}
			if mend == agent.Broken {
				var q agent.MeshPath
				if _, err := pl.Plan(&q, pos, p.Goal()); err == nil && q.Status() != agent.NoPath {
					t.Fatalf("%s: broken, but a plan finds a path %v", where, q.Waypoints())
				}
				continue
			}
			if err := checkMeshPath(m, &p, pos); err != nil {
				t.Fatalf("%s: after a repair (%v): %v", where, mend, err)
			}
			end, done := meshWalk(t, where, m, &p, pos, 0.5, 4000, nil)
			if !done || !arrived(&p, end, p.Goal()) {
				t.Fatalf("%s: at %v after a repair (%v), want arrival at %v", where, end, mend, p.Goal())
			}
		}
		t.Logf("seed %d: repairs %v, %d far edits", seed, counts, farIntact)
		if counts[agent.Intact] == 0 || counts[agent.Mended] == 0 || farIntact == 0 {
			t.Errorf("seed %d: repairs %v, %d far edits: the test saw too few kinds", seed, counts, farIntact)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// nearCells reports whether a cell of r, grown by one cell, holds a point of
// pts.
func nearCells(r image.Rectangle, pts ...mgl64.Vec2) bool {
	return slices.ContainsFunc(pts, func(q mgl64.Vec2) bool { return agent.CellOf(q).In(r.Inset(-1)) })
}

// TestMeshRepairCases edits tiled meshes of open grids (tiles of 16
// cells) under a path along the top row: an edit in a tile the corridor
// does not reach leaves it Intact; one in a tile it crosses, but away from
// its legs, makes the corridor be searched again through that tile only
// (Mended, one search, the same waypoints); a wall across it plans the
// path again round the wall; and a wall that cuts the goal off leaves the
// path Broken, with no path.
func TestMeshRepairCases(t *testing.T) {
	for _, tc := range []struct {
		name     string
		w, h     int
		edit     image.Rectangle
		want     agent.Mend
		searches int
		same     bool // the same waypoints after the repair
	}{
		{"another tile", 48, 32, image.Rect(40, 24, 43, 27), agent.Intact, 0, true},
		{"first tile, away from the leg", 48, 16, image.Rect(4, 9, 7, 12), agent.Mended, 1, true},
		{"middle tile, away from the leg", 48, 16, image.Rect(20, 10, 23, 13), agent.Mended, 1, true},
		{"a wall across", 48, 16, image.Rect(24, 0, 25, 6), agent.Mended, 1, false},
		{"the goal cut off", 48, 16, image.Rect(40, 0, 41, 16), agent.Broken, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := testmap.Random(1, tc.w, tc.h, 0, grid.Options{})
			m := gridMesh(t, g, navmesh.Options{TileSize: 16})
			pl := agent.NewMeshPlanner(m)
			var p agent.MeshPath
			from, to := mgl64.Vec2{1.5, 1.5}, mgl64.Vec2{46.5, 1.5}
			if _, err := pl.Plan(&p, from, to); err != nil || p.Status() != agent.Following {
				t.Fatalf("plan: %v %v", p.Status(), err)
			}
			pos := mgl64.Vec2{3.5, 1.5}
			p.Steer(pos)
			before := slices.Clone(p.Waypoints())
			g.SetCells(tc.edit, false)
			m2, err := m.Update(g, tc.edit)
			if err != nil {
				t.Fatal(err)
			}
			searches := pl.Searches()
			got := pl.Repair(&p, m2, tc.edit)
			if got != tc.want || pl.Searches()-searches != tc.searches || slices.Equal(p.Waypoints(), before) != tc.same {
				t.Fatalf("repair %v after %d searches, waypoints %v (were %v); want %v after %d, the same %v",
					got, pl.Searches()-searches, p.Waypoints(), before, tc.want, tc.searches, tc.same)
			}
			if got == agent.Broken {
				if p.Status() != agent.NoPath || p.Err() != nil || len(p.Corridor()) != 0 {
					t.Fatalf("broken: status %v, error %v, corridor %v; want no path", p.Status(), p.Err(), p.Corridor())
				}
				return
			}
			if err := checkMeshPath(m2, &p, pos); err != nil {
				t.Fatal(err)
			}
			if end, done := meshWalk(t, tc.name, m2, &p, pos, 0.7, 200, nil); !done || !arrived(&p, end, to) {
				t.Fatalf("at %v, want arrival at %v", end, to)
			}
			if got := pl.Repair(&p, m2, tc.edit); got != agent.Intact {
				t.Errorf("a second repair onto the same mesh: %v, want intact", got)
			}
		})
	}
}
