package main

import (
	"fmt"
	"image"
	"image/color"

	"github.com/cairn-nav/cairn/agent"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Colours of the scene.
var (
	colGround   = color.RGBA{0xd9, 0xd3, 0xc1, 0xff}
	colWall     = color.RGBA{0x3c, 0x3a, 0x38, 0xff}
	colSearch   = color.RGBA{0xe8, 0x3a, 0x3a, 0xa0}
	colPath     = color.RGBA{0x1e, 0x6f, 0xd9, 0xc0}
	colRoute    = color.RGBA{0xb0, 0x30, 0xc0, 0xd0}
	colSelected = color.RGBA{0xff, 0xc4, 0x00, 0xff}
	colUnit     = color.RGBA{0x2a, 0x52, 0x8a, 0xff}
	colRing     = color.RGBA{0xff, 0xff, 0xff, 0xff}
	colBox      = color.RGBA{0x20, 0xa0, 0x40, 0xff}
	colHUD      = color.RGBA{0x18, 0x18, 0x20, 0xff}
)

// Draw draws the map, the overlays the keys chose, the units and the
// status lines: a handful of draw calls, whatever the number of units.
func (gm *game) Draw(screen *ebiten.Image) {
	screen.Fill(colWall)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(gm.scale, gm.scale)
	screen.DrawImage(gm.mapImg, op)
	s := float32(gm.scale)
	b := &gm.batch
	if gm.showSearch {
		b.start(colSearch, false)
		for _, c := range gm.w.Search() {
			b.rect(screen, float32(c.X)*s, float32(c.Y)*s, max(s, 1), max(s, 1))
		}
		b.flush(screen)
	}
	if gm.showRoute {
		cells, abstract := gm.w.Route()
		b.start(colRoute, gm.aa)
		var p vector.Path
		gm.polyline(&p, mgl64.Vec2{}, false, cells)
		for _, c := range abstract {
			q := gm.screenPt(agent.Centre(c))
			p.MoveTo(q[0]+max(2.5, s), q[1])
			p.Arc(q[0], q[1], max(2.5, s), 0, 6.2832, vector.Clockwise)
		}
		b.stroke(screen, &p, 2)
		b.flush(screen)
	}
	units := gm.w.Units()
	if gm.showPaths {
		b.start(colPath, gm.aa)
		for i := range units {
			u := &units[i]
			if u.Arrived() || u.Waiting() {
				continue
			}
			var p vector.Path
			gm.polyline(&p, u.Pos(), true, u.Path().Cells())
			b.stroke(screen, &p, 1)
		}
		b.flush(screen)
	}
	r := max(2.5, 0.45*s)
	for _, sel := range []bool{false, true} {
		c := colUnit
		if sel {
			c = colSelected
		}
		b.start(c, gm.aa)
		for i := range units {
			if u := &units[i]; u.Selected() == sel {
				var p vector.Path
				q := gm.screenPt(u.Pos())
				p.Arc(q[0], q[1], r, 0, 6.2832, vector.Clockwise)
				b.fill(screen, &p)
			}
		}
		b.flush(screen)
	}
	b.start(colRing, gm.aa)
	for i := range units {
		if u := &units[i]; u.Waiting() {
			var p vector.Path
			q := gm.screenPt(u.Pos())
			p.MoveTo(q[0]+r+1, q[1])
			p.Arc(q[0], q[1], r+1, 0, 6.2832, vector.Clockwise)
			b.stroke(screen, &p, 1)
		}
	}
	b.flush(screen)
	if gm.selecting {
		mx, my := ebiten.CursorPosition()
		if d := image.Pt(mx, my).Sub(gm.selFrom); max(d.X, -d.X, d.Y, -d.Y) >= 5 {
			box := gm.selBox(mx, my)
			vector.StrokeRect(screen, float32(box.Min.X)*s, float32(box.Min.Y)*s, float32(box.Dx())*s, float32(box.Dy())*s, 1.5, colBox, false)
		}
	}
	gm.drawHUD(screen)
}

// drawHUD prints the status lines and the keys below the map.
func (gm *game) drawHUD(screen *ebiten.Image) {
	moving, waiting, arrived := 0, 0, 0
	units := gm.w.Units()
	for i := range units {
		switch u := &units[i]; {
		case u.Waiting():
			waiting++
		case u.Arrived():
			arrived++
		default:
			moving++
		}
	}
	st := gm.w.Stats()
	state := ""
	if gm.paused {
		state = "  PAUSED (space: run, .: one tick)"
	}
	text := fmt.Sprintf("tick %d  %.0f TPS  units: %d moving, %d waiting, %d arrived  searches queued %d%s\n"+
		"edits %d (last %.1f ms)  paths mended %d, searched again %d, lost %d  expanded %d\n"+
		"%s\n"+
		"left: send  left-drag: select  right-drag: wall  shift+right-drag: erase\n"+
		"A: select all  P: paths  S: last search  R: HPA* route  space: pause  Q: quit",
		st.Ticks, ebiten.ActualTPS(), moving, waiting, arrived, gm.w.Waiting(), state,
		st.Edits, float64(gm.editTime.Microseconds())/1000, st.Mended, st.Broken, st.Lost, st.Expanded, gm.msg)
	vector.DrawFilledRect(screen, 0, float32(gm.mh), float32(gm.sw), hudHeight, colHUD, false)
	ebitenutil.DebugPrintAt(screen, text, 4, gm.mh+4)
}

// screenPt returns the screen position of the world point v.
func (gm *game) screenPt(v mgl64.Vec2) [2]float32 {
	return [2]float32{float32(v.X() * gm.scale), float32(v.Y() * gm.scale)}
}

// polyline adds to p a line through the centres of cells (from the point
// from first, when withFrom), with a vertex only where the path turns.
func (gm *game) polyline(p *vector.Path, from mgl64.Vec2, withFrom bool, cells []image.Point) {
	if len(cells) == 0 {
		return
	}
	q := gm.screenPt(agent.Centre(cells[0]))
	if withFrom {
		f := gm.screenPt(from)
		p.MoveTo(f[0], f[1])
		p.LineTo(q[0], q[1])
	} else {
		p.MoveTo(q[0], q[1])
	}
	for i := 1; i < len(cells); i++ {
		// Skip the cells in the middle of a straight run.
		if i+1 < len(cells) && cells[i].Sub(cells[i-1]) == cells[i+1].Sub(cells[i]) {
			continue
		}
		q = gm.screenPt(agent.Centre(cells[i]))
		p.LineTo(q[0], q[1])
	}
}

// whitePixel is the source of every batch: one white pixel, in the middle
// of a 3×3 image so that sampling stays inside it.
var whitePixel = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

// batch gathers the triangles of shapes of one colour and draws them in
// one DrawTriangles call: far cheaper than a call a shape, which is what
// the vector package's helpers make.
type batch struct {
	vs []ebiten.Vertex
	is []uint16
	c  color.RGBA
	aa bool
}

// batchVertices is where a batch draws what it holds before it takes more:
// well below ebiten.MaxVertexCount, beyond which one shape may not go.
const batchVertices = 40000

// start begins a batch of colour c, anti-aliased when aa is true.
func (b *batch) start(c color.RGBA, aa bool) {
	b.vs, b.is, b.c, b.aa = b.vs[:0], b.is[:0], c, aa
}

// stroke adds the outline of p, width pixels wide.
func (b *batch) stroke(dst *ebiten.Image, p *vector.Path, width float32) {
	b.room(dst)
	b.vs, b.is = p.AppendVerticesAndIndicesForStroke(b.vs, b.is, &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound})
}

// fill adds the inside of p, which must be convex (a circle, say): the
// batch fills with the non-zero rule, where shapes of a batch may overlap.
func (b *batch) fill(dst *ebiten.Image, p *vector.Path) {
	b.room(dst)
	b.vs, b.is = p.AppendVerticesAndIndicesForFilling(b.vs, b.is)
}

// rect adds a rectangle.
func (b *batch) rect(dst *ebiten.Image, x, y, w, h float32) {
	b.room(dst)
	n := uint16(len(b.vs))
	for _, v := range [4][2]float32{{x, y}, {x + w, y}, {x, y + h}, {x + w, y + h}} {
		b.vs = append(b.vs, ebiten.Vertex{DstX: v[0], DstY: v[1]})
	}
	b.is = append(b.is, n, n+1, n+2, n+1, n+3, n+2)
}

// room draws what the batch holds when it is near its size.
func (b *batch) room(dst *ebiten.Image) {
	if len(b.vs) >= batchVertices {
		b.flush(dst)
	}
}

// flush draws the batch and empties it.
func (b *batch) flush(dst *ebiten.Image) {
	if len(b.is) == 0 {
		b.vs = b.vs[:0]
		return
	}
	r, g, bl, a := float32(b.c.R)/255, float32(b.c.G)/255, float32(b.c.B)/255, float32(b.c.A)/255
	for i := range b.vs {
		v := &b.vs[i]
		v.SrcX, v.SrcY = 1.5, 1.5
		v.ColorR, v.ColorG, v.ColorB, v.ColorA = r, g, bl, a
	}
	op := &ebiten.DrawTrianglesOptions{FillRule: ebiten.FillRuleNonZero, AntiAlias: b.aa}
	dst.DrawTriangles(b.vs, b.is, whitePixel, op)
	b.vs, b.is = b.vs[:0], b.is[:0]
}
