package grid

import (
	"path/filepath"
	"strings"
)

// LoadOptions tunes [Load] for every map format it reads. The zero value
// builds an 8-connected grid with unit terrain and the default Tiled and
// image options.
type LoadOptions struct {
	// Grid is how the grid is built, whatever the format.
	Grid Options
	// Tiled chooses the walls of .tmx and .tmj maps; see [TiledOptions].
	Tiled TiledOptions
	// Image chooses the walls of pictures; see [ImageOptions].
	Image ImageOptions
}

// Load reads the map at path in the format its extension names, case
// ignored: .tmx, .tmj and .json are Tiled maps, read with [LoadTiled];
// .png, .gif, .jpg and .jpeg are pictures, read with [LoadImage]; any other
// file, .map among them, is a Moving AI map, read with [LoadMap]. Its
// errors are theirs. It leaves out what [LoadTiled] tells besides the grid
// (the tile size): call that for a world transform.
func Load(path string, lopt LoadOptions) (*Grid, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tmx", ".tmj", ".json":
		g, _, err := LoadTiled(path, lopt.Tiled, lopt.Grid)
		return g, err
	case ".png", ".gif", ".jpg", ".jpeg":
		return LoadImage(path, lopt.Image, lopt.Grid)
	}
	return LoadMap(path, lopt.Grid)
}
