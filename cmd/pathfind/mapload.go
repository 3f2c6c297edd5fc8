package main

import (
	"fmt"
	"io"

	"github.com/cairn-nav/cairn/grid"
)

// loadOptions is what the running command's map flags (package mapflag)
// ask of grid.Load: dispatch sets it after parsing the flags, before the
// command runs.
var loadOptions grid.LoadOptions

// loadMap reads the map at path with the running command's map flags.
func loadMap(path string) (*grid.Grid, error) { return grid.Load(path, loadOptions) }

// atEnd returns an error when r, a file whose graph or mesh (what) was
// just read, holds more bytes: the readers of package hpa and navmesh
// read exactly what was written and leave what follows, which a file of
// its own should not have (damaged, or something appended to it).
func atEnd(r io.Reader, what string) error {
	n, err := io.Copy(io.Discard, r)
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%d bytes after the end of the %s: the file is damaged, or something was appended to it", n, what)
	}
	return nil
}
