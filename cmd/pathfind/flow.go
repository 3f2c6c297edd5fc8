package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
)

// setupFlow defines the flags of "pathfind flow".
func setupFlow(fs *flag.FlagSet) func(io.Writer) error {
	mapPath := fs.String("map", "", "Moving AI .map `file` (required)")
	var goal pointFlag
	fs.Var(&goal, "goal", "goal cell `x,y` (required)")
	distPath := fs.String("dist", "", "write to `file` one line \"x y distance\" (six decimals) per free cell that reaches the goal, row by row")
	pngPath := fs.String("png", "", "draw the map to PNG `file`, cells that reach the goal shaded from dark (near) to light (far), the goal\n"+
		"cyan, cells that cannot reach it left plain; maps over 1024 cells a side are scaled down, a pixel showing the\n"+
		"nearest cell of its block")
	return func(stdout io.Writer) error {
		switch {
		case *mapPath == "":
			return cli.Usagef("-map is required")
		case !goal.set:
			return cli.Usagef("-goal is required")
		}
		for _, out := range []struct{ flag, path string }{{"-dist", *distPath}, {"-png", *pngPath}} {
			if out.path != "" {
				if err := atomicfile.Check(out.path); err != nil {
					return fmt.Errorf("%s %w", out.flag, err)
				}
			}
		}
		g, err := loadMap(*mapPath)
		if err != nil {
			return err
		}
		if err := checkEnd(g, goal.p, "goal"); err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		f := agent.NewFlowField(g)
		t0 := time.Now()
		if err := f.Compute(goal.p); err != nil {
			return err
		}
		elapsed := time.Since(t0)
		fmt.Fprintf(stdout, "goal      %s\n", pointString(goal.p))
		fmt.Fprintf(stdout, "reached   %d of %d free cells\n", f.Reached(), countFree(g))
		fmt.Fprintf(stdout, "farthest  %.5f\n", f.MaxDist())
		fmt.Fprintf(stdout, "time      %.3f ms\n", ms(elapsed))
		if *distPath != "" {
			if err := writeDist(*distPath, g, f); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "dist      %s (%d lines)\n", *distPath, f.Reached())
		}
		if *pngPath != "" {
			img, note := drawFlow(g, f)
			_, err := atomicfile.Write(*pngPath, func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				enc := png.Encoder{CompressionLevel: png.BestCompression}
				if err := enc.Encode(bw, img); err != nil {
					return err
				}
				return bw.Flush()
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "picture   %s (%s)\n", *pngPath, note)
		}
		return nil
	}
}

func countFree(g *grid.Grid) int {
	n := 0
	for y := range g.Height() {
		for x := range g.Width() {
			if g.Passable(image.Pt(x, y)) {
				n++
			}
		}
	}
	return n
}

// writeDist writes the distances of f, one "x y distance" line per cell
// that reaches the goal, row by row, atomically.
func writeDist(path string, g *grid.Grid, f *agent.FlowField) error {
	_, err := atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var line []byte
		for y := range g.Height() {
			for x := range g.Width() {
				d, ok := f.Dist(image.Pt(x, y))
				if !ok {
					continue
				}
				line = strconv.AppendInt(line[:0], int64(x), 10)
				line = append(line, ' ')
				line = strconv.AppendInt(line, int64(y), 10)
				line = append(line, ' ')
				line = strconv.AppendFloat(line, d, 'f', 6, 64)
				line = append(line, '\n')
				if _, err := bw.Write(line); err != nil {
					return err
				}
			}
		}
		return bw.Flush()
	})
	return err
}

// The palette of flow pictures: the map's colours, then shades from near
// the goal to the farthest cells.
const (
	flowBlocked = iota
	flowFree    // a free cell that cannot reach the goal
	flowGoal
	flowShade0 // the first of the shades
	flowShades = 256 - flowShade0
)

var flowPalette = func() color.Palette {
	p := make(color.Palette, 256)
	p[flowBlocked] = picture.Blocked
	p[flowFree] = picture.Free
	p[flowGoal] = picture.Goal
	near, far := [3]float64{0x1b, 0x3a, 0x6b}, [3]float64{0xf6, 0xe7, 0xa8}
	for i := range flowShades {
		t := float64(i) / (flowShades - 1)
		var c [3]uint8
		for k := range c {
			c[k] = uint8(math.Round(near[k] + t*(far[k]-near[k])))
		}
		p[flowShade0+i] = color.RGBA{c[0], c[1], c[2], 0xff}
	}
	return p
}()

// drawFlow draws the map shaded by the distances of f, at the scale of
// package picture's maps: each cell s×s pixels on a map of at most 1024
// cells a side (s up to 16), else each block of k×k cells one pixel,
// shaded by its nearest cell that reaches the goal, or blocked when none
// does and more than half its cells are blocked. It returns the picture
// and a note of its scale.
func drawFlow(g *grid.Grid, f *agent.FlowField) (*image.Paletted, string) {
	w, h := g.Width(), g.Height()
	k, s := 1, 1
	if long := max(w, h); long > 1024 {
		k = (long + 1023) / 1024
	} else {
		s = min(16, 1024/long)
	}
	bw, bh := (w+k-1)/k, (h+k-1)/k
	img := image.NewPaletted(image.Rect(0, 0, bw*s, bh*s), flowPalette)
	far := f.MaxDist()
	for by := range bh {
		for bx := range bw {
			best, blocked, cells := math.Inf(1), 0, 0
			for y := by * k; y < min((by+1)*k, h); y++ {
				for x := bx * k; x < min((bx+1)*k, w); x++ {
					p := image.Pt(x, y)
					cells++
					if !g.Passable(p) {
						blocked++
					} else if d, ok := f.Dist(p); ok {
						best = min(best, d)
					}
				}
			}
			var c uint8
			switch {
			case !math.IsInf(best, 1):
				t := 0.0
				if far > 0 {
					t = best / far
				}
				c = flowShade0 + uint8(math.Round(t*(flowShades-1)))
			case 2*blocked > cells:
				c = flowBlocked
			default:
				c = flowFree
			}
			for py := by * s; py < (by+1)*s; py++ {
				for px := bx * s; px < (bx+1)*s; px++ {
					img.Pix[py*img.Stride+px] = c
				}
			}
		}
	}
	// The goal, a square of at least 5 pixels on its cell's centre.
	side := max(5, s)
	gp := f.Goal()
	cx, cy := gp.X*s/k+s/2, gp.Y*s/k+s/2
	for py := cy - side/2; py < cy-side/2+side; py++ {
		for px := cx - side/2; px < cx-side/2+side; px++ {
			if (image.Point{px, py}).In(img.Rect) {
				img.Pix[py*img.Stride+px] = flowGoal
			}
		}
	}
	note := fmt.Sprintf("%d×%d pixels, %d×%d a cell", img.Rect.Dx(), img.Rect.Dy(), s, s)
	if k > 1 {
		note = fmt.Sprintf("%d×%d pixels, %d×%d cells a pixel", img.Rect.Dx(), img.Rect.Dy(), k, k)
	}
	return img, note
}
