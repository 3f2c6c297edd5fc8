package main

import (
	"flag"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
)

// mapFlags are the flags of every command that reads a map, for maps that
// are not Moving AI files: which layer or tile property of a Tiled map
// holds the walls, and the darkness of an image's walls.
type mapFlags struct {
	layer, property string
	threshold       float64
}

// loadOptions is what the running command's map flags ask of grid.Load:
// dispatch sets it after parsing the flags, before the command runs.
var loadOptions grid.LoadOptions

func addMapFlags(fs *flag.FlagSet) *mapFlags {
	mf := &mapFlags{}
	fs.StringVar(&mf.layer, "layer", "", "for a Tiled map (.tmx, .tmj), the tile layer `NAME` whose non-empty tiles are walls")
	fs.StringVar(&mf.property, "property", "", "for a Tiled map, the boolean tile property `NAME` (such as collides) that makes a tile a wall")
	fs.Float64Var(&mf.threshold, "threshold", 0, "for an image map (.png, .gif, .jpg), pixels darker than luminance `T` in (0, 1] are walls (0: 0.5)")
	return mf
}

// options checks the flags and returns the load options they give.
func (mf *mapFlags) options() (grid.LoadOptions, error) {
	if !(mf.threshold >= 0 && mf.threshold <= 1) {
		return grid.LoadOptions{}, cli.Usagef("-threshold %v, want a luminance in (0, 1], or 0 for 0.5", mf.threshold)
	}
	return grid.LoadOptions{
		Tiled: grid.TiledOptions{Layer: mf.layer, Property: mf.property},
		Image: grid.ImageOptions{Threshold: mf.threshold},
	}, nil
}

// loadMap reads the map at path with the running command's map flags.
func loadMap(path string) (*grid.Grid, error) { return grid.Load(path, loadOptions) }
