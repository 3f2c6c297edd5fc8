package grid

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// This file reads orthogonal maps made with the Tiled map editor
// (https://www.mapeditor.org): the XML format, .tmx, and the JSON format,
// .tmj (formerly .json). tiledfmt.go turns either into the same tiledDoc;
// this file chooses the walls and builds the grid.

// TiledFormat is the syntax of a Tiled file.
type TiledFormat uint8

const (
	// TiledDetect tells the syntax from the first byte after any byte order
	// mark and white space: '<' is XML, '{' is JSON.
	TiledDetect TiledFormat = iota
	// TiledXML is the XML format: .tmx maps and .tsx tilesets.
	TiledXML
	// TiledJSON is the JSON format: .tmj maps and .tsj tilesets.
	TiledJSON
)

// TiledOptions chooses which tiles of a Tiled map are walls. Every other
// cell, empty tiles included, is free. With Layer set, the non-empty tiles
// of the tile layer of that name are walls; with Property set, the tiles
// whose tileset tile has that boolean custom property set to true are
// walls, in any tile layer; with both set, a tile that either rule makes a
// wall is one. The zero value takes the walls from the map's only tile
// layer, and refuses a map with several (naming them).
type TiledOptions struct {
	// Layer is the name of the wall layer, matched exactly. Tiled lets
	// layers share a name: every tile layer of that name counts, at any
	// depth of groups. Hidden layers count too: collision layers often are.
	Layer string
	// Property is the name of a boolean tile property, such as "collides"
	// or "solid". A property of that name that is not boolean is an error.
	// Tilesets in separate .tsx or .tsj files are read, relative to the map,
	// only when Property is set, and only by [LoadTiled]: [ReadTiled] has no
	// path to find them by.
	Property string
	// Format is the syntax of the map; the zero value detects it.
	Format TiledFormat
}

// TiledInfo describes the Tiled map a grid was read from.
type TiledInfo struct {
	// TileWidth and TileHeight are the size of a tile in pixels, the unit
	// of the positions of Tiled's objects.
	TileWidth, TileHeight int
	// Origin is the tile coordinates of the tile that became cell (0, 0):
	// (0, 0) for a fixed-size map, the top-left corner of the bounding box
	// of the chunks for an infinite one.
	Origin image.Point
	// Infinite reports whether the map was an infinite one.
	Infinite bool
}

// Transform returns the transform from Tiled's pixel coordinates (those of
// objects placed on the map) to the grid's: a cell is a tile. It fails when
// the tiles are not square.
func (m TiledInfo) Transform() (Transform, error) {
	if m.TileWidth != m.TileHeight || m.TileWidth <= 0 {
		return Transform{}, fmt.Errorf("grid: tiles of %d×%d pixels are not square: no transform with one cell size", m.TileWidth, m.TileHeight)
	}
	s := float64(m.TileWidth)
	return Transform{CellSize: s, Origin: mgl64.Vec2{float64(m.Origin.X) * s, float64(m.Origin.Y) * s}}, nil
}

// tiledGIDMask clears the flip and rotation flags, the top four bits of a
// global tile ID.
const tiledGIDMask = 0x0fffffff

// Infinite maps: chunk coordinates are bounded so that sums cannot
// overflow, and the bounding box of the chunks may hold at most
// tiledSparseRatio times the cells the chunks hold (or tiledSparseFloor
// cells, if that is more), so that memory follows the data read rather than
// a few far-apart chunks.
const (
	tiledMaxCoord    = 1 << 30
	tiledSparseRatio = 256
	tiledSparseFloor = 1 << 20
)

// ReadTiled reads an orthogonal Tiled map from r, XML (.tmx) or JSON
// (.tmj), and builds its grid with opt: one cell per tile, walls chosen by
// topt. name is used in error messages. It also returns the map's tile size,
// for a world transform (see [TiledInfo.Transform]).
//
// Tile layer data may be CSV, base64 (uncompressed, zlib or gzip), or for
// XML the old <tile> elements; zstd compression is refused, as are
// isometric, staggered and hexagonal maps. The flip and rotation flags of a
// tile are ignored. All tile layers are read, inside groups too, and each
// must hold exactly one tile per cell; object and image layers are ignored.
// An infinite map becomes the bounding box of the chunks of all its tile
// layers, with cells no chunk covers free; [TiledInfo.Origin] says where
// that box starts. Tile properties need Tiled 1.2 or later (lists of
// properties).
//
// A malformed file gives a [*FormatError]; a failed read gives the reader's
// error, wrapped. opt.Costs, when not nil, must hold one entry per cell, as
// [New] requires. ReadTiled reads all of r into memory; the grid's cells
// grow with the tile data decoded, never with a size the map merely claims,
// except that the bounding box of an infinite map may hold up to 256 times
// the tiles of its chunks, or 2²⁰ cells if that is more; a sparser map is
// refused. Its time is linear in the file and the grid; it shares no state,
// so calls may run concurrently. It never panics on any input.
func ReadTiled(r io.Reader, name string, topt TiledOptions, opt Options) (*Grid, TiledInfo, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, TiledInfo{}, readError(name, err)
	}
	return readTiled(data, name, topt, opt, nil)
}

// LoadTiled reads the Tiled map at path with [ReadTiled]; with
// topt.Property set, it also reads the map's external tilesets, their
// paths taken relative to the map's folder. Its errors name the path (or
// the tileset's); those from opening or reading a file wrap the
// [os.PathError].
func LoadTiled(path string, topt TiledOptions, opt Options) (*Grid, TiledInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, TiledInfo{}, fmt.Errorf("grid: %w", err)
	}
	dir := filepath.Dir(path)
	open := func(source string) (string, []byte, error) {
		p := filepath.FromSlash(source)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		b, err := os.ReadFile(p)
		return p, b, err
	}
	return readTiled(data, path, topt, opt, open)
}

// tilesetOpener returns the path and contents of an external tileset named
// by its source attribute.
type tilesetOpener func(source string) (path string, data []byte, err error)

// readTiled is ReadTiled on data, reading external tilesets with open (nil
// when there is no path to find them by). Its TiledInfo is zero on errors.
func readTiled(data []byte, name string, topt TiledOptions, opt Options, open tilesetOpener) (*Grid, TiledInfo, error) {
	g, info, err := buildTiled(data, name, topt, opt, open)
	if err != nil {
		return nil, TiledInfo{}, err
	}
	return g, info, nil
}

func buildTiled(data []byte, name string, topt TiledOptions, opt Options, open tilesetOpener) (*Grid, TiledInfo, error) {
	ferr := func(format string, args ...any) error {
		return &FormatError{File: name, Msg: fmt.Sprintf(format, args...)}
	}
	doc, err := parseTiledMap(data, name, topt.Format)
	if err != nil {
		return nil, TiledInfo{}, err
	}
	info := TiledInfo{TileWidth: doc.tileW, TileHeight: doc.tileH, Infinite: doc.infinite}
	switch {
	case doc.orientation != "" && doc.orientation != "orthogonal":
		return nil, info, ferr("%s maps are not supported, want an orthogonal map", doc.orientation)
	case doc.tileW <= 0 || doc.tileH <= 0:
		return nil, info, ferr("tile size %d×%d pixels, want positive sizes", doc.tileW, doc.tileH)
	case len(doc.layers) == 0:
		return nil, info, ferr("map has no tile layers")
	}
	if !doc.infinite {
		if err := checkSize(doc.width, doc.height); err != "" {
			return nil, info, ferr("map size %s", err)
		}
	}

	// Choose the walls.
	walls := make([]bool, len(doc.layers)) // every non-empty tile is a wall
	switch {
	case topt.Layer != "":
		found := false
		for i, l := range doc.layers {
			if l.name == topt.Layer {
				walls[i], found = true, true
			}
		}
		if !found {
			msg := fmt.Sprintf("no tile layer named %q (tile layers: %s)", topt.Layer, layerNames(doc))
			if slices.Contains(doc.others, topt.Layer) {
				msg = fmt.Sprintf("layer %q is an object or image layer, want a tile layer", topt.Layer)
			}
			return nil, info, ferr("%s", msg)
		}
	case topt.Property == "":
		if len(doc.layers) > 1 {
			return nil, info, ferr("map has %d tile layers (%s): choose the wall layer or tile property", len(doc.layers), layerNames(doc))
		}
		walls[0] = true
	}
	var wallGIDs map[uint32]bool // tiles with the property set
	if topt.Property != "" {
		if wallGIDs, err = propertyGIDs(doc, name, topt.Property, open); err != nil {
			return nil, info, err
		}
	}
	isWall := func(layer int, gid uint32) bool {
		gid &= tiledGIDMask
		return gid != 0 && (walls[layer] || wallGIDs[gid])
	}

	if doc.infinite {
		return readTiledChunks(doc, name, isWall, info, opt)
	}
	w, h := doc.width, doc.height
	free := make([]bool, 0, min(w*h, 1<<20)) // grows with the tiles decoded
	for li, l := range doc.layers {
		switch {
		case len(l.chunks) > 0:
			return nil, info, ferr("layer %q has chunks, but the map is not infinite", l.name)
		case (l.width != 0 || l.height != 0) && (l.width != w || l.height != h):
			return nil, info, ferr("layer %q is %d×%d tiles, want the map's %d×%d", l.name, l.width, l.height, w, h)
		}
		err := l.data.each(w*h, w, func(i int, gid uint32) {
			if i == len(free) {
				free = append(free, true)
			}
			if isWall(li, gid) {
				free[i] = false
			}
		})
		if err != nil {
			return nil, info, ferr("layer %q: %v", l.name, err)
		}
	}
	g, err := New(w, h, free, opt)
	return g, info, err
}

// readTiledChunks builds the grid of an infinite map from the chunks of its
// layers.
func readTiledChunks(doc *tiledDoc, name string, isWall func(int, uint32) bool, info TiledInfo, opt Options) (*Grid, TiledInfo, error) {
	ferr := func(format string, args ...any) error {
		return &FormatError{File: name, Msg: fmt.Sprintf(format, args...)}
	}
	type piece struct {
		r     image.Rectangle
		walls []bool
	}
	var pieces []piece
	var box image.Rectangle
	total := 0 // cells in chunks
	for li, l := range doc.layers {
		if len(l.chunks) == 0 && l.data.present() {
			return nil, info, ferr("layer %q of an infinite map has data outside chunks", l.name)
		}
		for _, c := range l.chunks {
			if err := checkSize(c.width, c.height); err != "" {
				return nil, info, ferr("layer %q: chunk at (%d,%d): size %s", l.name, c.x, c.y, err)
			}
			if c.x < -tiledMaxCoord || c.x > tiledMaxCoord || c.y < -tiledMaxCoord || c.y > tiledMaxCoord {
				return nil, info, ferr("layer %q: chunk at (%d,%d) is more than %d tiles from the origin", l.name, c.x, c.y, tiledMaxCoord)
			}
			n := c.width * c.height
			p := piece{r: image.Rect(c.x, c.y, c.x+c.width, c.y+c.height), walls: make([]bool, 0, min(n, 1<<16))}
			err := c.data.each(n, c.width, func(i int, gid uint32) {
				p.walls = append(p.walls, isWall(li, gid))
			})
			if err != nil {
				return nil, info, ferr("layer %q: chunk at (%d,%d): %v", l.name, c.x, c.y, err)
			}
			pieces = append(pieces, p)
			box = box.Union(p.r)
			total += n
			if total > MaxCells {
				return nil, info, ferr("chunks hold more than %d tiles", MaxCells)
			}
		}
	}
	if len(pieces) == 0 {
		return nil, info, ferr("infinite map has no chunks")
	}
	w, h := box.Dx(), box.Dy()
	if err := checkSize(w, h); err != "" {
		return nil, info, ferr("bounding box of the chunks: size %s", err)
	}
	if w*h > max(tiledSparseFloor, tiledSparseRatio*total) {
		return nil, info, ferr("chunks hold %d tiles of a %d×%d bounding box: too sparse an infinite map", total, w, h)
	}
	free := make([]bool, w*h)
	for i := range free {
		free[i] = true
	}
	for _, p := range pieces {
		pw := p.r.Dx()
		for i, wall := range p.walls {
			if wall {
				free[(p.r.Min.Y-box.Min.Y+i/pw)*w+p.r.Min.X-box.Min.X+i%pw] = false
			}
		}
	}
	info.Origin = box.Min
	g, err := New(w, h, free, opt)
	return g, info, err
}

// checkSize returns "" when w×h is a valid grid size, else what is wrong
// ("0×3, want ...").
func checkSize(w, h int) string {
	if w <= 0 || h <= 0 || w > MaxCells/h {
		return fmt.Sprintf("%d×%d, want positive sizes and at most %d cells", w, h, MaxCells)
	}
	return ""
}

// layerNames lists the names of the first tile layers, quoted.
func layerNames(doc *tiledDoc) string {
	const most = 8
	var names []string
	for _, l := range doc.layers[:min(len(doc.layers), most)] {
		names = append(names, strconv.Quote(l.name))
	}
	if len(doc.layers) > most {
		names = append(names, fmt.Sprintf("and %d more", len(doc.layers)-most))
	}
	return strings.Join(names, ", ")
}

// propertyGIDs returns the global IDs of the tiles that have the boolean
// property prop set to true, reading external tilesets with open.
func propertyGIDs(doc *tiledDoc, name, prop string, open tilesetOpener) (map[uint32]bool, error) {
	sets := slices.Clone(doc.tilesets)
	slices.SortStableFunc(sets, func(a, b tiledTileset) int { return cmp.Compare(a.firstGID, b.firstGID) })
	gids := make(map[uint32]bool)
	for k, ts := range sets {
		file := name
		if ts.firstGID == 0 || ts.firstGID > tiledGIDMask {
			return nil, &FormatError{File: name, Msg: fmt.Sprintf("tileset %s: first tile ID %d, want 1 to %d", ts.label(), ts.firstGID, tiledGIDMask)}
		}
		if k > 0 && sets[k-1].firstGID == ts.firstGID {
			return nil, &FormatError{File: name, Msg: fmt.Sprintf("tilesets %s and %s have the same first tile ID %d", sets[k-1].label(), ts.label(), ts.firstGID)}
		}
		if ts.source != "" {
			if open == nil {
				return nil, &FormatError{File: name, Msg: fmt.Sprintf("tileset %q is in a separate file, which a map read without its path cannot find: load the map from its file, or embed the tileset", ts.source)}
			}
			path, data, err := open(ts.source)
			if err != nil {
				return nil, fmt.Errorf("grid: %s: tileset: %w", name, err)
			}
			ext, err := parseTiledTileset(data, path, tiledFormatOf(path))
			if err != nil {
				return nil, err
			}
			ts.tiles, ts.name, file = ext.tiles, ext.name, path
		}
		end := uint64(tiledGIDMask) + 1 // the first ID past this tileset's
		if k+1 < len(sets) {
			end = uint64(sets[k+1].firstGID)
		}
		for _, t := range ts.tiles {
			for _, p := range t.props {
				if p.name != prop {
					continue
				}
				if p.typ != "bool" || (p.value != "true" && p.value != "false") {
					typ := p.typ
					if typ == "" {
						typ = "string"
					}
					return nil, &FormatError{File: file, Msg: fmt.Sprintf("tileset %s: tile %d: property %q is %s %q, want a bool", ts.label(), t.id, prop, typ, p.value)}
				}
				if gid := uint64(ts.firstGID) + uint64(t.id); p.value == "true" && gid < end {
					gids[uint32(gid)] = true
				}
			}
		}
	}
	return gids, nil
}

// tiledFormatOf returns the syntax a file name's extension implies, or
// TiledDetect.
func tiledFormatOf(path string) TiledFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tmx", ".tsx", ".xml":
		return TiledXML
	case ".tmj", ".tsj", ".json":
		return TiledJSON
	}
	return TiledDetect
}

// detectTiled returns the syntax of data from its first significant byte.
func detectTiled(data []byte, f TiledFormat) (TiledFormat, bool) {
	if f != TiledDetect {
		return f, true
	}
	data = bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	switch {
	case len(data) > 0 && data[0] == '<':
		return TiledXML, true
	case len(data) > 0 && data[0] == '{':
		return TiledJSON, true
	}
	return TiledDetect, false
}
