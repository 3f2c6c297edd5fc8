package sim

import (
	"image"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/go-gl/mathgl/mgl64"
)

// world256 makes the 256×256 generated world of seed 1 with the units
// spawned at one end of a long query across it, and returns the other end.
func world256(t testing.TB, opt Options) (*World, image.Point) {
	t.Helper()
	g, err := mapgen.World(mapgen.WorldOptions{Seed: 1, Width: 256, Height: 256})
	if err != nil {
		t.Fatal(err)
	}
	a, b, ok := mapgen.FarPair(g)
	if !ok {
		t.Fatal("no far pair")
	}
	w, err := New(g, a, opt)
	if err != nil {
		t.Fatal(err)
	}
	return w, b
}

// watcher runs a world tick by tick and checks every unit's move: each
// must end in a free cell and run along a free segment of the grid (after
// any edit of the tick before it), and no unit may move farther than its
// speed.
type watcher struct {
	t    testing.TB
	w    *World
	prev []mgl64.Vec2
}

func newWatcher(t testing.TB, w *World) *watcher {
	k := &watcher{t: t, w: w, prev: make([]mgl64.Vec2, len(w.Units()))}
	k.snap()
	return k
}

func (k *watcher) snap() {
	for i := range k.w.Units() {
		k.prev[i] = k.w.Units()[i].Pos()
	}
}

// tick runs one Update and checks the moves.
func (k *watcher) tick() {
	k.t.Helper()
	k.w.Update()
	g := k.w.Grid()
	for i := range k.w.Units() {
		u := &k.w.Units()[i]
		p := u.Pos()
		if !g.Passable(u.Cell()) {
			k.t.Fatalf("tick %d: unit %d at %v, in blocked cell %v\n%s", k.w.Stats().Ticks, i, p, u.Cell(), render(k.w, image.Rectangle{}))
		}
		if p != k.prev[i] {
			if !g.SegmentFree(k.prev[i], p) {
				k.t.Fatalf("tick %d: unit %d moved %v → %v through a blocked cell", k.w.Stats().Ticks, i, k.prev[i], p)
			}
			if d := p.Sub(k.prev[i]).Len(); d > k.w.speed+1e-9 {
				k.t.Fatalf("tick %d: unit %d moved %.3f cells, speed %v", k.w.Stats().Ticks, i, d, k.w.speed)
			}
		}
	}
	k.snap()
}

// untilArrived ticks until every unit has arrived, at most max ticks, and
// returns the ticks it took.
func (k *watcher) untilArrived(max int) int {
	k.t.Helper()
	for n := 1; n <= max; n++ {
		k.tick()
		if allArrived(k.w) {
			return n
		}
	}
	k.t.Fatalf("not all units arrived after %d ticks: %d of %d; stats %+v", max, countArrived(k.w), len(k.w.Units()), k.w.Stats())
	return 0
}

func allArrived(w *World) bool { return countArrived(w) == len(w.Units()) }

func countArrived(w *World) int {
	n := 0
	for i := range w.Units() {
		if w.Units()[i].Arrived() {
			n++
		}
	}
	return n
}

// render draws the map (or the part r of it, when not empty) with the
// units ('u'), their goals ('g') and the walls ('#').
func render(w *World, r image.Rectangle) string {
	g := w.Grid()
	if r.Empty() {
		r = g.Bounds()
	}
	r = r.Intersect(g.Bounds())
	var b strings.Builder
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := image.Pt(x, y)
			ch := byte('.')
			if !g.Passable(c) {
				ch = '#'
			}
			for i := range w.Units() {
				u := &w.Units()[i]
				if u.Goal() == c && ch == '.' {
					ch = 'g'
				}
			}
			for i := range w.Units() {
				if w.Units()[i].Cell() == c {
					ch = 'u'
				}
			}
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestNewSpawnsABlob(t *testing.T) {
	w, _ := world256(t, Options{})
	seen := map[image.Point]bool{}
	for i := range w.Units() {
		u := &w.Units()[i]
		if !w.Grid().Passable(u.Cell()) || !u.Selected() || !u.Arrived() {
			t.Fatalf("unit %d at %v: passable %v, selected %v, arrived %v", i, u.Cell(), w.Grid().Passable(u.Cell()), u.Selected(), u.Arrived())
		}
		if seen[u.Cell()] {
			t.Fatalf("two units in cell %v", u.Cell())
		}
		seen[u.Cell()] = true
	}
	if len(w.Units()) != DefaultUnits {
		t.Fatalf("%d units, want %d", len(w.Units()), DefaultUnits)
	}
}

func TestNewBadOptions(t *testing.T) {
	g, _ := grid.FromRows([]string{"....", "...."}, grid.Options{})
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"units", Options{Units: -1}, "sim: -1 units, want 1 or more"},
		{"speed", Options{Speed: -0.5}, "sim: speed -0.5, want a number in (0, 1000)"},
		{"lookahead", Options{Lookahead: 0.5}, "sim: lookahead 0.5, want a number in [1, 1000]"},
		{"budget", Options{Budget: agent.Budget{Expansions: -1}}, "sim: budget {Expansions:-1 Time:0s}, want no negative field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(g, image.Pt(0, 0), tc.opt)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	if _, err := New(nil, image.Pt(0, 0), Options{}); err == nil {
		t.Fatal("nil grid: no error")
	}
	walls, _ := grid.FromRows([]string{"##", "##"}, grid.Options{})
	if _, err := New(walls, image.Pt(0, 0), Options{}); err == nil {
		t.Fatal("no free cell: no error")
	}
}

// Units sent across the 256² world arrive, each at a goal of its own in a
// blob round the clicked cell, and never stand in a blocked cell.
func TestSendAcross(t *testing.T) {
	w, b := world256(t, Options{})
	k := newWatcher(t, w)
	if n := w.Send(b); n != DefaultUnits {
		t.Fatalf("sent %d units, want %d", n, DefaultUnits)
	}
	route, abstract := w.Route()
	if len(route) == 0 || route[len(route)-1] != b || len(abstract) == 0 {
		t.Fatalf("route of %d cells ending at %v (want %v), abstract %d cells", len(route), route[len(route)-1], b, len(abstract))
	}
	ticks := k.untilArrived(10000)
	goals := map[image.Point]bool{}
	for i := range w.Units() {
		u := &w.Units()[i]
		if u.Cell() != u.Goal() {
			t.Errorf("unit %d arrived at %v, its goal is %v", i, u.Cell(), u.Goal())
		}
		if goals[u.Goal()] {
			t.Errorf("unit %d shares goal %v", i, u.Goal())
		}
		goals[u.Goal()] = true
		if d := u.Goal().Sub(b); max(d.X, -d.X, d.Y, -d.Y) > 5 {
			t.Errorf("unit %d's goal %v is %v from the clicked cell %v", i, u.Goal(), d, b)
		}
	}
	if len(w.Search()) == 0 {
		t.Error("no search recorded")
	}
	t.Logf("arrived after %d ticks; stats %+v", ticks, w.Stats())
}

// Only the selected units go.
func TestSelect(t *testing.T) {
	g, _ := grid.FromRows([]string{
		"..........",
		"..........",
		"..........",
		"..........",
	}, grid.Options{})
	w, err := New(g, image.Pt(1, 1), Options{Units: 4})
	if err != nil {
		t.Fatal(err)
	}
	start := make([]image.Point, 4)
	for i := range w.Units() {
		start[i] = w.Units()[i].Cell()
	}
	if n := w.Select(image.Rect(0, 0, 10, 2)); n == 0 || n == 4 {
		t.Fatalf("selected %d units of rows 0 and 1, want some but not all\n%s", n, render(w, image.Rectangle{}))
	}
	n := w.Send(image.Pt(8, 2))
	k := newWatcher(t, w)
	for range 200 {
		k.tick()
	}
	moved := 0
	for i := range w.Units() {
		u := &w.Units()[i]
		switch {
		case u.Selected() && u.Cell().X < 6:
			t.Errorf("selected unit %d at %v, not sent", i, u.Cell())
		case !u.Selected() && u.Cell() != start[i]:
			t.Errorf("unselected unit %d moved from %v to %v", i, start[i], u.Cell())
		}
		if u.Cell() != start[i] {
			moved++
		}
	}
	if moved != n {
		t.Errorf("%d units moved, %d sent", moved, n)
	}
	if w.Select(image.Rect(0, 0, 1, 1)) != 0 || w.Send(image.Pt(0, 0)) != 0 {
		t.Error("an empty selection sent units")
	}
	w.SelectAll()
	if w.Send(image.Pt(0, 3)) != 4 {
		t.Error("SelectAll did not select all")
	}
}

// A wall drawn across the group's way makes it go round through the gap
// left at the bottom: every unit arrives, none ever stands in the wall or
// crosses it, and some paths were mended or searched again.
func TestWallAcrossTheWay(t *testing.T) {
	rows := make([]string, 24)
	for y := range rows {
		rows[y] = strings.Repeat(".", 60)
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(g, image.Pt(4, 8), Options{Units: 12})
	if err != nil {
		t.Fatal(err)
	}
	k := newWatcher(t, w)
	w.Send(image.Pt(55, 8))
	// Walk until the group is on its way, then wall off all but the last
	// two rows, ahead of the units.
	for w.Units()[0].Pos().X() < 15 {
		k.tick()
		if w.Stats().Ticks > 1000 {
			t.Fatal("the group did not set off")
		}
	}
	wall := image.Rect(30, 0, 32, 22)
	if r, err := w.Wall(wall); err != nil || r != wall {
		t.Fatalf("Wall(%v) = %v, %v", wall, r, err)
	}
	if st := w.Stats(); st.Mended+st.Broken == 0 {
		t.Fatalf("the wall broke no path: %+v\n%s", st, render(w, image.Rectangle{}))
	}
	below := make([]bool, len(w.Units()))
	for n := 0; !allArrived(w); n++ {
		if n > 5000 {
			t.Fatalf("not all arrived: %d of %d, stats %+v\n%s", countArrived(w), len(w.Units()), w.Stats(), render(w, image.Rectangle{}))
		}
		k.tick()
		for i := range w.Units() {
			u := &w.Units()[i]
			if u.Cell().X >= 30 && u.Cell().X < 32 {
				below[i] = below[i] || u.Cell().Y >= 22
			}
		}
	}
	for i := range w.Units() {
		u := &w.Units()[i]
		if u.Cell() != u.Goal() || u.Cell().X < 32 {
			t.Errorf("unit %d at %v, goal %v", i, u.Cell(), u.Goal())
		}
		if !below[i] {
			t.Errorf("unit %d did not pass through the gap", i)
		}
	}
	t.Logf("stats %+v", w.Stats())
}

// On the generated world, a long wall drawn across the middle of the
// group's route, while it walks, makes it go round: all arrive, and no unit
// is ever in a blocked cell.
func TestWallAcross256(t *testing.T) {
	w, b := world256(t, Options{})
	k := newWatcher(t, w)
	w.Send(b)
	route, _ := w.Route()
	mid := route[len(route)/2]
	for range 60 {
		k.tick()
	}
	// A wall 60 cells long across the route at its middle, and a second,
	// crossways, through the same point.
	for _, r := range []image.Rectangle{
		image.Rect(mid.X-30, mid.Y, mid.X+30, mid.Y+2),
		image.Rect(mid.X, mid.Y-30, mid.X+2, mid.Y+30),
	} {
		if _, err := w.Wall(r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range w.Units() {
		if u := &w.Units()[i]; !w.Grid().Passable(u.Cell()) {
			t.Fatalf("unit %d in the wall at %v", i, u.Cell())
		}
	}
	k.untilArrived(20000)
	t.Logf("stats %+v", w.Stats())
}

// A wall drawn over the units leaves the cells they stand in free.
func TestWallOverUnits(t *testing.T) {
	g, _ := grid.FromRows([]string{
		"..........",
		"..........",
		"..........",
		"..........",
	}, grid.Options{})
	w, _ := New(g, image.Pt(1, 1), Options{Units: 3})
	r, err := w.Wall(image.Rect(0, 0, 10, 4))
	if err != nil || r != g.Bounds() {
		t.Fatalf("Wall = %v, %v", r, err)
	}
	free := 0
	for y := range 4 {
		for x := range 10 {
			if g.Passable(image.Pt(x, y)) {
				free++
			}
		}
	}
	if free != 3 {
		t.Fatalf("%d free cells after the wall, want the 3 units'\n%s", free, render(w, image.Rectangle{}))
	}
	for i := range w.Units() {
		if !g.Passable(w.Units()[i].Cell()) {
			t.Fatalf("unit %d walled in", i)
		}
	}
	// Nothing left to change.
	if r, _ := w.Wall(image.Rect(0, 0, 10, 4)); !r.Empty() {
		t.Fatalf("a second wall changed %v", r)
	}
	if r, _ := w.Wall(image.Rect(-5, -5, -1, -1)); !r.Empty() {
		t.Fatalf("a wall off the map changed %v", r)
	}
}

// A goal walled off sends the group as near as it can get; erasing the
// wall sends it on to the goal.
func TestEraseReopens(t *testing.T) {
	g, _ := grid.FromRows([]string{
		"....................",
		"....................",
		"....................",
		"....................",
		"....................",
	}, grid.Options{})
	w, _ := New(g, image.Pt(1, 2), Options{Units: 3})
	k := newWatcher(t, w)
	cut := image.Rect(10, 0, 11, 5)
	w.Wall(cut)
	w.Send(image.Pt(17, 2))
	k.untilArrived(1000)
	for i := range w.Units() {
		u := &w.Units()[i]
		if u.Cell().X >= 10 || u.Path().Status() != agent.Partial {
			t.Fatalf("unit %d at %v, status %v: want short of the wall, partial\n%s", i, u.Cell(), u.Path().Status(), render(w, image.Rectangle{}))
		}
	}
	if cells, _ := w.Route(); len(cells) != 0 {
		t.Fatalf("a route of %d cells to a goal cut off", len(cells))
	}
	if _, err := w.Erase(image.Rect(10, 2, 11, 3)); err != nil {
		t.Fatal(err)
	}
	if cells, _ := w.Route(); len(cells) == 0 {
		t.Fatal("no route after the wall opened")
	}
	k.untilArrived(1000)
	for i := range w.Units() {
		if u := &w.Units()[i]; u.Cell() != u.Goal() {
			t.Fatalf("unit %d at %v, goal %v\n%s", i, u.Cell(), u.Goal(), render(w, image.Rectangle{}))
		}
	}
}

// Steady ticks allocate nothing: after a first trip there and back, which
// grows the searches' scratch, ticks of a third trip are checked with
// testing.AllocsPerRun, while the searches run (under a small budget, so
// that they span many ticks) and while the units walk.
func TestUpdateAllocs(t *testing.T) {
	w, b := world256(t, Options{Budget: agent.Budget{Expansions: 200}})
	a := w.Units()[0].Cell()
	w.Send(b)
	for !allArrived(w) {
		w.Update()
	}
	w.Send(a)
	for !allArrived(w) {
		w.Update()
	}
	w.Send(b)
	searching := testing.AllocsPerRun(20, w.Update)
	if w.Waiting() == 0 {
		t.Fatal("the searches ended within the measured ticks")
	}
	for w.Waiting() > 0 {
		w.Update()
	}
	walking := testing.AllocsPerRun(200, w.Update)
	if allArrived(w) {
		t.Fatal("the units arrived before the measured ticks ended")
	}
	if searching != 0 || walking != 0 {
		t.Fatalf("allocations a tick: %v searching, %v walking; want 0", searching, walking)
	}
}

func BenchmarkUpdate(b *testing.B) {
	w, far := world256(b, Options{})
	home := w.Units()[0].Cell()
	to := far
	b.ReportAllocs()
	for b.Loop() {
		if allArrived(w) {
			w.Send(to)
			to, home = home, to
		}
		w.Update()
	}
	if w.Stats().Ticks == 0 {
		b.Fatal("no tick")
	}
}

// BenchmarkWall measures one 2×2 brush square of wall across the group's
// route, and erasing it, while the group walks: the edits, the HPA* update
// and the repairs.
func BenchmarkWall(b *testing.B) {
	w, far := world256(b, Options{})
	w.Send(far)
	for range 30 {
		w.Update()
	}
	route, _ := w.Route()
	c := route[len(route)/2]
	r := image.Rect(c.X, c.Y, c.X+2, c.Y+2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Wall(r); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Erase(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.Stats().Edits)/float64(b.N), "edits/op")
}

// A brush stroke, a diagonal line of 2×2 squares, drawn across the group's
// way as one Paint, and then a second stroke through the walking group
// itself: one edit each, the bounding box of what changed returned, the
// units never in a wall, and all arrive through the gap left at the bottom.
func TestPaintStroke(t *testing.T) {
	rows := make([]string, 30)
	for y := range rows {
		rows[y] = strings.Repeat(".", 50)
	}
	g, _ := grid.FromRows(rows, grid.Options{})
	w, err := New(g, image.Pt(3, 10), Options{Units: 10})
	if err != nil {
		t.Fatal(err)
	}
	k := newWatcher(t, w)
	w.Send(image.Pt(45, 10))
	for range 10 {
		k.tick()
	}
	var stroke []image.Rectangle
	for i := range 26 {
		stroke = append(stroke, image.Rect(20+i/3, i, 22+i/3, i+2))
	}
	changed, err := w.Paint(stroke, false)
	if want := image.Rect(20, 0, 30, 27); err != nil || changed != want {
		t.Fatalf("Paint = %v, %v; want %v", changed, err, want)
	}
	if st := w.Stats(); st.Edits != 1 || st.Mended+st.Broken == 0 {
		t.Fatalf("after the stroke: %+v\n%s", st, render(w, image.Rectangle{}))
	}
	for w.Units()[0].Pos().X() < 12 {
		k.tick()
		if w.Stats().Ticks > 2000 {
			t.Fatal("the group did not set off")
		}
	}
	// Through the group: a vertical stroke over the cells the units
	// stand in, ahead of some and behind others.
	x := w.Units()[0].Cell().X
	stroke = stroke[:0]
	for y := 0; y < 27; y += 2 {
		stroke = append(stroke, image.Rect(x, y, x+2, y+2))
	}
	if _, err := w.Paint(stroke, false); err != nil {
		t.Fatal(err)
	}
	for i := range w.Units() {
		if u := &w.Units()[i]; !g.Passable(u.Cell()) {
			t.Fatalf("unit %d at %v walled in\n%s", i, u.Cell(), render(w, image.Rectangle{}))
		}
	}
	k.untilArrived(3000)
	for i := range w.Units() {
		if u := &w.Units()[i]; u.Cell() != u.Goal() {
			t.Errorf("unit %d at %v, goal %v", i, u.Cell(), u.Goal())
		}
	}
	t.Logf("stats %+v", w.Stats())
}
