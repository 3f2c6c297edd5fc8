// Command ebiten is an example game on Cairn with Ebitengine: a group of
// units on a top-down grid map, sent across it with the mouse, going round
// the walls the player draws while they walk. The game's logic is package
// sim, which knows nothing of Ebitengine; this file reads the input and
// draws. See README.md for the keys and buttons.
package main

import (
	"flag"
	"fmt"
	"image"
	"log"
	"math"
	"time"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/examples/ebiten/sim"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// The status lines below the map: five lines of Ebitengine's debug font.
const (
	hudWidth  = 560
	hudHeight = 5*16 + 8
)

// game is the Ebitengine side of the example: input, drawing, and the
// view's toggles.
type game struct {
	w      *sim.World
	scale  float64 // screen pixels a cell
	brush  int     // side of the wall brush, in cells
	sw, sh int     // the logical screen, in pixels: the map, and the status lines below
	mh     int     // the map's height on the screen, in pixels

	mapImg *ebiten.Image // one pixel a cell
	pix    []byte        // mapImg's pixels, RGBA

	// What to show, whether the ticks are paused (step runs one), and
	// whether shapes are anti-aliased.
	showPaths, showSearch, showRoute, paused, step, aa bool

	selecting bool        // the left button is down
	selFrom   image.Point // where it went down, in pixels
	painting  bool        // the right button is down
	last      image.Point // the cell the brush was in last frame
	stroke    []image.Rectangle
	msg       string // the last message for the player
	editTime  time.Duration

	batch batch // the drawing's triangles
}

func main() {
	mapPath := flag.String("map", "", "Moving AI .map, Tiled .tmx/.tmj or picture `file` to play on (default: a generated world)")
	size := flag.Int("size", 256, "side of the generated world, in cells")
	seed := flag.Uint64("seed", 1, "seed of the generated world")
	units := flag.Int("units", sim.DefaultUnits, "`N` units")
	speed := flag.Float64("speed", sim.DefaultSpeed, "the units' speed, in cells a tick (60 ticks a second)")
	budget := flag.Int("budget", sim.DefaultBudget, "the path searches' budget of expansions a tick")
	scale := flag.Float64("scale", 0, "screen pixels a cell (0: fit the map to about 768 pixels)")
	brush := flag.Int("brush", 2, "side of the wall brush, in cells")
	aa := flag.Bool("aa", false, "anti-alias the lines and units (costly where OpenGL is software, as under Xvfb)")
	flag.Parse()
	log.SetFlags(0)
	if *brush < 1 || *brush > 64 {
		log.Fatalf("ebiten: -brush %d, want 1 to 64", *brush)
	}
	if !(*scale >= 0 && *scale <= 64) {
		log.Fatalf("ebiten: -scale %v, want 0 to 64", *scale)
	}
	g, err := loadMap(*mapPath, *size, *seed)
	if err != nil {
		log.Fatal(err)
	}
	spawn, _, ok := mapgen.FarPair(g)
	if !ok {
		log.Fatalf("ebiten: the map has no free cell")
	}
	w, err := sim.New(g, spawn, sim.Options{
		Units: *units,
		Speed: *speed,
		// A frame's share of searching: the expansions, and at most 4 ms.
		Budget: agent.Budget{Expansions: *budget, Time: 4 * time.Millisecond},
	})
	if err != nil {
		log.Fatal(err)
	}
	gm := newGame(w, *scale, *brush)
	gm.aa = *aa
	ebiten.SetWindowTitle("Cairn: units on a grid (Ebitengine)")
	ebiten.SetWindowSize(gm.sw, gm.sh)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if err := ebiten.RunGame(gm); err != nil {
		log.Fatal(err)
	}
}

// loadMap loads the map at path, or generates the world of the given size
// and seed when path is empty.
func loadMap(path string, size int, seed uint64) (*grid.Grid, error) {
	if path != "" {
		return grid.Load(path, grid.LoadOptions{})
	}
	return mapgen.World(mapgen.WorldOptions{Seed: seed, Width: size, Height: size})
}

func newGame(w *sim.World, scale float64, brush int) *game {
	g := w.Grid()
	if scale == 0 {
		side := float64(max(g.Width(), g.Height()))
		scale = 768 / side
		if scale >= 1 {
			scale = math.Floor(scale)
		}
	}
	gm := &game{
		w:         w,
		scale:     scale,
		brush:     brush,
		sw:        max(int(math.Ceil(float64(g.Width())*scale)), hudWidth),
		mh:        int(math.Ceil(float64(g.Height()) * scale)),
		mapImg:    ebiten.NewImage(g.Width(), g.Height()),
		pix:       make([]byte, 4*g.Width()*g.Height()),
		showPaths: true,
		msg:       "left-click to send the units",
	}
	gm.sh = gm.mh + hudHeight
	gm.paintMap(g.Bounds())
	return gm
}

// paintMap redraws the cells of r into the map image.
func (gm *game) paintMap(r image.Rectangle) {
	g := gm.w.Grid()
	r = r.Intersect(g.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := colGround
			if !g.Passable(image.Pt(x, y)) {
				c = colWall
			}
			i := 4 * (y*g.Width() + x)
			gm.pix[i], gm.pix[i+1], gm.pix[i+2], gm.pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
	gm.mapImg.WritePixels(gm.pix)
}

// cellAt returns the cell under the screen pixel (x, y).
func (gm *game) cellAt(x, y int) image.Point {
	return image.Pt(int(math.Floor(float64(x)/gm.scale)), int(math.Floor(float64(y)/gm.scale)))
}

// Update reads the input, gives the world its commands and runs a tick.
func (gm *game) Update() error {
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape), inpututil.IsKeyJustPressed(ebiten.KeyQ):
		return ebiten.Termination
	case inpututil.IsKeyJustPressed(ebiten.KeyP):
		gm.showPaths = !gm.showPaths
	case inpututil.IsKeyJustPressed(ebiten.KeyS):
		gm.showSearch = !gm.showSearch
	case inpututil.IsKeyJustPressed(ebiten.KeyR):
		gm.showRoute = !gm.showRoute
	case inpututil.IsKeyJustPressed(ebiten.KeyA):
		gm.w.SelectAll()
		gm.msg = "all units selected"
	case inpututil.IsKeyJustPressed(ebiten.KeySpace):
		gm.paused = !gm.paused
	case inpututil.IsKeyJustPressed(ebiten.KeyPeriod):
		gm.paused, gm.step = true, true
	}
	mx, my := ebiten.CursorPosition()
	cell := gm.cellAt(mx, my)

	// Left: a click sends the selected units, a drag selects a box.
	onMap := my < gm.mh
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && onMap {
		gm.selecting, gm.selFrom = true, image.Pt(mx, my)
	}
	if gm.selecting && inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft) {
		gm.selecting = false
		if d := image.Pt(mx, my).Sub(gm.selFrom); max(d.X, -d.X, d.Y, -d.Y) < 5 {
			if n := gm.w.Send(cell); n > 0 {
				gm.msg = fmt.Sprintf("%d units sent to %v", n, cell)
			} else {
				gm.msg = "no unit selected: drag a box round some, or press A"
			}
		} else {
			n := gm.w.Select(gm.selBox(mx, my))
			gm.msg = fmt.Sprintf("%d units selected", n)
		}
	}

	// Right: the brush draws walls (erases with Shift) as it moves.
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) && onMap {
		gm.painting, gm.last = true, cell
	}
	if gm.painting {
		if !ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight) {
			gm.painting = false
		} else if err := gm.paint(cell, ebiten.IsKeyPressed(ebiten.KeyShift)); err != nil {
			return err
		}
	}

	if !gm.paused || gm.step {
		gm.w.Update()
		gm.step = false
	}
	return nil
}

// paint draws the brush along the line from the last frame's cell to c,
// as one edit of the world, and redraws the map where it changed.
func (gm *game) paint(c image.Point, erase bool) error {
	gm.stroke = gm.stroke[:0]
	b := gm.brush
	off := image.Pt(b/2, b/2)
	line(gm.last, c, func(p image.Point) {
		p = p.Sub(off)
		gm.stroke = append(gm.stroke, image.Rect(p.X, p.Y, p.X+b, p.Y+b))
	})
	gm.last = c
	t0 := time.Now()
	changed, err := gm.w.Paint(gm.stroke, erase)
	if err != nil {
		return err
	}
	if !changed.Empty() {
		gm.editTime = time.Since(t0)
		gm.paintMap(changed)
	}
	return nil
}

// line calls f with the cells of a line from a to b, both included, each
// a step (straight or diagonal) from the one before (Bresenham's).
func line(a, b image.Point, f func(image.Point)) {
	dx, dy := abs(b.X-a.X), -abs(b.Y-a.Y)
	sx, sy := sign(b.X-a.X), sign(b.Y-a.Y)
	e := dx + dy
	for {
		f(a)
		if a == b {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			a.X += sx
		}
		if e2 <= dx {
			e += dx
			a.Y += sy
		}
	}
}

func abs(v int) int { return max(v, -v) }

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// selBox returns the cells of the selection box from where the left button
// went down to the pixel (x, y).
func (gm *game) selBox(x, y int) image.Rectangle {
	a, b := gm.cellAt(gm.selFrom.X, gm.selFrom.Y), gm.cellAt(x, y)
	return image.Rect(min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X)+1, max(a.Y, b.Y)+1)
}

// Layout keeps the logical screen the map's size in pixels, so that a
// resized window scales the whole scene.
func (gm *game) Layout(int, int) (int, int) { return gm.sw, gm.sh }
