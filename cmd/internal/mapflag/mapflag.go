// Package mapflag holds the flags of the commands that read a map and the
// map is not a Moving AI file: which tile layer or tile property of a
// Tiled map holds the walls, and how dark an image's walls are. The
// commands register them beside their -map and pass what they give to
// grid.Load.
package mapflag

import (
	"flag"
	"fmt"

	"github.com/cairn-nav/cairn/grid"
)

// Flags are the map flags of one command line.
type Flags struct {
	layer, property string
	threshold       float64
}

// Add defines -layer, -property and -threshold on fs.
func Add(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.layer, "layer", "", "for a Tiled map (.tmx, .tmj), the tile layer `NAME` whose non-empty tiles are walls")
	fs.StringVar(&f.property, "property", "", "for a Tiled map, the boolean tile property `NAME` (such as collides) that makes a tile a wall")
	fs.Float64Var(&f.threshold, "threshold", 0, "for an image map (.png, .gif, .jpg), pixels darker than luminance `T` in (0, 1] are walls (0: 0.5)")
	return f
}

// Options checks the flags and returns the grid.Load options they give;
// the error names the flag and is meant as a usage error.
func (f *Flags) Options() (grid.LoadOptions, error) {
	if !(f.threshold >= 0 && f.threshold <= 1) {
		return grid.LoadOptions{}, fmt.Errorf("-threshold %v, want a luminance in (0, 1], or 0 for 0.5", f.threshold)
	}
	return grid.LoadOptions{
		Tiled: grid.TiledOptions{Layer: f.layer, Property: f.property},
		Image: grid.ImageOptions{Threshold: f.threshold},
	}, nil
}
