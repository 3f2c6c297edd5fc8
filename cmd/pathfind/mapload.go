package main

import (
	"github.com/cairn-nav/cairn/grid"
)

// loadOptions is what the running command's map flags (package mapflag)
// ask of grid.Load: dispatch sets it after parsing the flags, before the
// command runs.
var loadOptions grid.LoadOptions

// loadMap reads the map at path with the running command's map flags.
func loadMap(path string) (*grid.Grid, error) { return grid.Load(path, loadOptions) }
