package grid_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

var update = flag.Bool("update", false, "rewrite the generated files under testdata")

// The flag bits of a Tiled global tile ID.
const (
	flipH = 0x80000000
	flipV = 0x40000000
	flipD = 0x20000000
	flipR = 0x10000000 // hexagonal 120° rotation
)

const tiledDir = "testdata/tiled"

// tiledFixture is a file under testdata/tiled, what writes it, and the grid
// it must give.
type tiledFixture struct {
	file string
	gen  func() []byte
	opt  grid.TiledOptions
	want string
	info grid.TiledInfo
}

func tiledFixtures() []tiledFixture {
	var fx []tiledFixture
	walls := grid.TiledOptions{Layer: "walls"}
	info16 := grid.TiledInfo{TileWidth: 16, TileHeight: 16}
	for _, e := range []struct{ name, enc, comp string }{
		{"csv", "csv", ""}, {"base64", "base64", ""}, {"zlib", "base64", "zlib"}, {"gzip", "base64", "gzip"}, {"xml", "xml", ""},
	} {
		fx = append(fx, tiledFixture{"walls-" + e.name + ".tmx", func() []byte { return wallsMap.tmx(e.enc, e.comp) }, walls, wallsWant, info16})
		if e.enc != "xml" {
			fx = append(fx, tiledFixture{"walls-" + e.name + ".tmj", func() []byte { return wallsMap.tmj(e.enc, e.comp) }, walls, wallsWant, info16})
		}
	}
	propWant := "....\n##.#\n...#"
	info32 := grid.TiledInfo{TileWidth: 32, TileHeight: 32}
	collides := grid.TiledOptions{Property: "collides"}
	fx = append(fx,
		tiledFixture{"property.tmx", func() []byte { return propMap.tmx("csv", "") }, collides, propWant, info32},
		tiledFixture{"property.tmj", func() []byte { return propMap.tmj("base64", "zlib") }, collides, propWant, info32},
	)
	extTMX, extTMJ := extMap, extMap
	extTMX.tilesetsTMX = " <tileset firstgid=\"5\" source=\"tiles/ext.tsx\"/>\n"
	extTMJ.tilesetsTMJ = `{"firstgid":5, "source":"tiles/ext.tsj"}`
	solid := grid.TiledOptions{Property: "solid"}
	info8 := grid.TiledInfo{TileWidth: 8, TileHeight: 8}
	fx = append(fx,
		tiledFixture{"external.tmx", func() []byte { return extTMX.tmx("base64", "gzip") }, solid, "#..\n..#", info8},
		tiledFixture{"external.tmj", func() []byte { return extTMJ.tmj("csv", "") }, solid, "#..\n..#", info8},
		// Without a property, no external tileset is read.
		tiledFixture{"external.tmx", nil, grid.TiledOptions{}, "##.\n.##", info8},
	)
	single := tMap{w: 3, h: 3, tile: 16, layers: []tLayer{{name: "only", gids: gidsOf("...\n.1.\n..1", map[byte]uint32{'1': 7})}}}
	fx = append(fx, tiledFixture{"single.tmx", func() []byte { return single.tmx("csv", "") }, grid.TiledOptions{}, "...\n.#.\n..#", info16})
	infInfo := grid.TiledInfo{TileWidth: 16, TileHeight: 16, Origin: image.Pt(-2, -2), Infinite: true}
	fx = append(fx,
		tiledFixture{"infinite.tmx", func() []byte { return infMap.tmx("csv", "") }, walls, infWant, infInfo},
		tiledFixture{"infinite.tmj", func() []byte { return infMap.tmj("base64", "zlib") }, walls, infWant, infInfo},
	)
	return fx
}

// writeTiledFixtures writes every generated file under testdata/tiled.
func writeTiledFixtures(t *testing.T) {
	t.Helper()
	files := map[string][]byte{"tiles/ext.tsx": []byte(extTSX), "tiles/ext.tsj": []byte(extTSJ)}
	for _, f := range tiledFixtures() {
		if f.gen != nil {
			files[f.file] = f.gen()
		}
	}
	for _, c := range tiledBadCases {
		files["bad/"+c.file] = []byte(c.in)
	}
	for name, data := range files {
		p := filepath.Join(tiledDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTiledFixtures reads every fixture map, from its file and (but for
// those with external tilesets) from a reader, and compares the grid with
// the one drawn.
func TestTiledFixtures(t *testing.T) {
	if *update {
		writeTiledFixtures(t)
	}
	for _, f := range tiledFixtures() {
		t.Run(fmt.Sprintf("%s %+v", f.file, f.opt), func(t *testing.T) {
			path := filepath.Join(tiledDir, f.file)
			g, info, err := grid.LoadTiled(path, f.opt, grid.Options{})
			if err != nil {
				t.Fatalf("LoadTiled: %v (run go test ./grid -run TestTiledFixtures -update to write the fixtures)", err)
			}
			checkGrid(t, g, f.want)
			if info != f.info {
				t.Errorf("info got %+v, want %+v", info, f.info)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err = grid.ReadTiled(bytes.NewReader(data), f.file, f.opt, grid.Options{})
			if strings.HasPrefix(f.file, "external") && f.opt.Property != "" {
				var fe *grid.FormatError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), "separate file") {
					t.Fatalf("ReadTiled of a map with an external tileset: %v, want a *FormatError saying the tileset cannot be found", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadTiled: %v", err)
			}
			checkGrid(t, g, f.want)
		})
	}
}

// checkGrid compares g with a drawing, printing got, then want.
func checkGrid(t *testing.T, g *grid.Grid, drawing string) {
	t.Helper()
	m, err := testmap.Parse(drawing, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := testmap.Render(g, nil), testmap.Render(m.Grid, nil); got != want {
		t.Fatalf("grid differs\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestReadTiledOptions reads one map with each way of choosing walls.
func TestReadTiledOptions(t *testing.T) {
	data := propMap.tmx("csv", "")
	tests := []struct {
		name string
		opt  grid.TiledOptions
		want string // the grid, or part of the error
	}{
		{"layer in a group", grid.TiledOptions{Layer: "ground"}, "####\n####\n####"},
		{"top layer", grid.TiledOptions{Layer: "deco"}, "....\n#..#\n.#.#"},
		{"property", grid.TiledOptions{Property: "collides"}, "....\n##.#\n...#"},
		{"layer and property", grid.TiledOptions{Layer: "deco", Property: "collides"}, "....\n##.#\n.#.#"},
		{"property no tile has", grid.TiledOptions{Property: "slippery"}, "....\n....\n...."},
		{"string property", grid.TiledOptions{Property: "solid"}, `tile 2: property "solid" is string "yes", want a bool`},
		{"no such layer", grid.TiledOptions{Layer: "walls"}, `no tile layer named "walls" (tile layers: "ground", "deco")`},
		{"object layer", grid.TiledOptions{Layer: "collision"}, `layer "collision" is an object or image layer`},
		{"several layers", grid.TiledOptions{}, `map has 2 tile layers ("ground", "deco")`},
		{"layer names match exactly", grid.TiledOptions{Layer: "Deco"}, `no tile layer named "Deco"`},
		{"format given", grid.TiledOptions{Layer: "deco", Format: grid.TiledXML}, "....\n#..#\n.#.#"},
		{"wrong format given", grid.TiledOptions{Layer: "deco", Format: grid.TiledJSON}, "bad JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, _, err := grid.ReadTiled(bytes.NewReader(data), "p.tmx", tc.opt, grid.Options{})
			if strings.ContainsAny(tc.want, "#.") && !strings.Contains(tc.want, " ") {
				if err != nil {
					t.Fatal(err)
				}
				checkGrid(t, g, tc.want)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "grid: p.tmx") {
				t.Fatalf("error %v, want one starting grid: p.tmx and holding %q", err, tc.want)
			}
		})
	}
}

func TestReadTiledGridOptions(t *testing.T) {
	data := wallsMap.tmj("csv", "")
	g, _, err := grid.ReadTiled(bytes.NewReader(data), "w.tmj", grid.TiledOptions{Layer: "walls"}, grid.Options{Connectivity: grid.Four})
	if err != nil || g.Connectivity() != grid.Four {
		t.Fatalf("got %v, %v, want a 4-connected grid", g, err)
	}
	if _, _, err := grid.ReadTiled(bytes.NewReader(data), "w.tmj", grid.TiledOptions{Layer: "walls"}, grid.Options{Costs: []float64{1}}); err == nil {
		t.Error("ReadTiled with 1 terrain cost for 20 cells succeeded, want an error")
	}
}

func TestLoadTiledErrors(t *testing.T) {
	missing := filepath.Join(tiledDir, "no-such.tmx")
	if _, _, err := grid.LoadTiled(missing, grid.TiledOptions{}, grid.Options{}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("LoadTiled(%q) error = %v, want one wrapping fs.ErrNotExist and naming the path", missing, err)
	}
	// A map whose external tileset is missing.
	dir := t.TempDir()
	m := extMap
	m.tilesetsTMX = " <tileset firstgid=\"5\" source=\"gone.tsx\"/>\n"
	p := filepath.Join(dir, "m.tmx")
	if err := os.WriteFile(p, m.tmx("csv", ""), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := grid.LoadTiled(p, grid.TiledOptions{Property: "solid"}, grid.Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "gone.tsx") || !strings.HasPrefix(err.Error(), "grid: ") {
		t.Errorf("LoadTiled with a missing tileset: %v, want an error wrapping fs.ErrNotExist naming gone.tsx", err)
	}
	// A malformed external tileset is named in the error.
	if err := os.WriteFile(filepath.Join(dir, "gone.tsx"), []byte("<tileset><tile id=\"x\"/></tileset>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = grid.LoadTiled(p, grid.TiledOptions{Property: "solid"}, grid.Options{})
	var fe *grid.FormatError
	if !errors.As(err, &fe) || fe.File != filepath.Join(dir, "gone.tsx") || !strings.Contains(fe.Msg, `id="x"`) {
		t.Errorf("LoadTiled with a malformed tileset: %v, want a *FormatError naming it", err)
	}
}

func TestTiledInfoTransform(t *testing.T) {
	tr, err := grid.TiledInfo{TileWidth: 16, TileHeight: 16, Origin: image.Pt(-2, -3)}.Transform()
	if err != nil {
		t.Fatal(err)
	}
	if want := (grid.Transform{CellSize: 16, Origin: mgl64.Vec2{-32, -48}}); tr != want {
		t.Errorf("Transform() = %+v, want %+v", tr, want)
	}
	// A Tiled object at pixel (0, 0) sits in the cell of tile (0, 0),
	// which is cell (2, 3) of the grid.
	if c := tr.ToCell(mgl64.Vec2{0, 0}); c != image.Pt(2, 3) {
		t.Errorf("ToCell(0,0) = %v, want (2,3)", c)
	}
	if _, err := (grid.TiledInfo{TileWidth: 32, TileHeight: 16}).Transform(); err == nil || !strings.Contains(err.Error(), "not square") {
		t.Errorf("Transform of 32×16 tiles: %v, want an error", err)
	}
}

func ExampleReadTiled() {
	const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map orientation="orthogonal" width="4" height="3" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">
  <tile id="1"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer name="floor" width="4" height="3">
  <data encoding="csv">
1,1,2,1,
1,2,2,1,
1,1,1,1
</data>
 </layer>
</map>`
	g, info, err := grid.ReadTiled(strings.NewReader(tmx), "example.tmx", grid.TiledOptions{Property: "solid"}, grid.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(testmap.Render(g, nil))
	tr, _ := info.Transform()
	fmt.Println(tr.ToCell(mgl64.Vec2{70, 40})) // an object at pixel (70, 40)
	// Output:
	// ..#.
	// .##.
	// ....
	// (2,1)
}

// tmxDoc is a small TMX map of 3×2 tiles of 16 pixels, its map attributes
// overridden or extended by attrs, holding body.
func tmxDoc(attrs, body string) string {
	if !strings.Contains(attrs, "width=") {
		attrs = `width="3" height="2" ` + attrs
	}
	if !strings.Contains(attrs, "tilewidth=") {
		attrs += ` tilewidth="16" tileheight="16"`
	}
	return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map orientation=\"orthogonal\" " + attrs + ">\n" + body + "</map>\n"
}

// tmxLayer is a layer of a tmxDoc with the given data attributes and text.
func tmxLayer(name, dataAttrs, text string) string {
	return fmt.Sprintf(" <layer name=%q width=\"3\" height=\"2\">\n  <data %s>%s</data>\n </layer>\n", name, dataAttrs, text)
}

// tmjDoc is a small TMJ map of 3×2 tiles holding layers, then extra fields.
func tmjDoc(layers, extra string) string {
	return `{"type":"map", "orientation":"orthogonal", "width":3, "height":2, "tilewidth":16, "tileheight":16, "infinite":false, "tilesets":[], "layers":[` + layers + "]" + extra + "}\n"
}

// tiledBadCases are malformed maps, one per error, with part of the
// message each must give and, for some, its line. With -update they are
// written under testdata/tiled/bad, and the fuzz tests use them as seeds.
var tiledBadCases = []struct {
	file string
	in   string
	opt  grid.TiledOptions
	want string
	line int
}{
	{file: "not-tiled.tmx", in: "type octile\nheight 1\n", want: "not a Tiled map"},
	{file: "empty.tmx", in: "", want: "not a Tiled map"},
	{file: "xml-syntax.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")+" <layer name=\"x\">\n"), want: "bad XML: element <layer> closed by </map>", line: 7},
	{file: "not-a-map.tmx", in: extTSX, want: "bad XML: expected element type <map> but have <tileset>"},
	{file: "bad-attr.tmx", in: tmxDoc(`width="three" height="2"`, ""), want: `bad XML: attribute width="three", want a whole number`},
	{file: "isometric.tmx", in: strings.Replace(tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), "orthogonal", "isometric", 1), want: "isometric maps are not supported"},
	{file: "no-tile-size.tmx", in: tmxDoc(`tilewidth="0" tileheight="16"`, tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), want: "tile size 0×16 pixels"},
	{file: "negative-size.tmx", in: tmxDoc(`width="-3" height="2"`, tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), want: "map size -3×2"},
	{file: "huge-size.tmx", in: tmxDoc(`width="65536" height="65536"`, tmxLayer("l", `encoding="csv"`, "0")), want: "map size 65536×65536"},
	{file: "lying-size.tmx", in: tmxDoc(`width="16384" height="16384"`, " <layer name=\"l\">\n  <data encoding=\"csv\">0,0,0</data>\n </layer>\n"), want: `layer "l": 3 tiles, want 268435456`},
	{file: "no-layers.tmx", in: tmxDoc("", ""), want: "map has no tile layers"},
	{file: "layer-size.tmx", in: tmxDoc("", strings.Replace(tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0"), `width="3"`, `width="2"`, 1)), want: `layer "l" is 2×2 tiles, want the map's 3×2`},
	{file: "short-csv.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "\n0,0,0,\n0,0\n")), want: `layer "l": 5 tiles, want 6`},
	{file: "long-csv.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0,0")), want: "more than 6 tiles"},
	{file: "csv-token.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,0,0,\n0,x1,0")), want: `tile 4 (1,1): "x1", want a tile ID`},
	{file: "csv-empty-field.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,,0,0,0,0")), want: `tile 1 (1,0): "", want a tile ID`},
	{file: "csv-big-id.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0,4294967296,0,0,0,0")), want: `"4294967296", want a tile ID from 0 to 4294967295`},
	{file: "csv-separator.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv"`, "0;0,0,0,0,0")), want: `tile 0 (0,0): ";" after the tile ID, want a comma`},
	{file: "csv-compressed.tmx", in: tmxDoc("", tmxLayer("l", `encoding="csv" compression="zlib"`, "0,0,0,0,0,0")), want: `compression "zlib" of CSV data`},
	{file: "encoding.tmx", in: tmxDoc("", tmxLayer("l", `encoding="hex"`, "00")), want: `encoding "hex" is not supported`},
	{file: "xml-tiles-short.tmx", in: tmxDoc("", tmxLayer("l", "", `<tile gid="1"/><tile/>`)), want: "2 tiles, want 6"},
	{file: "xml-tiles-gid.tmx", in: tmxDoc("", tmxLayer("l", "", `<tile gid="-1"/>`)), want: `attribute gid="-1", want a tile ID`},
	{file: "base64.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64"`, "AAAA*AIAAAAA")), want: "bad base64 data"},
	{file: "base64-short.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64"`, "AAAAAAIAAAAAAAAAAAAAAAAAAAA=")), want: "data ends after 5 of 6 tiles"},
	{file: "base64-long.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64"`, "AAAAAAIAAAAAAAAAAAAAAAAAAAACAAAAAAAAAA==")), want: "more than 6 tiles"},
	{file: "base64-ragged.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64"`, "AAAAAAIAAAAAAAAAAAAAAAAAAAACAAA=")), want: "data ends after 5 of 6 tiles"},
	{file: "zlib-truncated.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="zlib"`, "eJxjYGBgYGJABSA+AAA=")), want: "bad zlib data: unexpected EOF"},
	{file: "zlib-checksum.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="zlib"`, "eJxjYGBgYGJABSA+AABIAAQ=")), want: "bad zlib data: zlib: invalid checksum"},
	{file: "zlib-header.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="zlib"`, "AAAAAAIAAAAAAAAAAAAAAAAAAAACAAAA")), want: "bad zlib data: zlib: invalid header"},
	{file: "gzip-header.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="gzip"`, "eJxjYGBgYGJABSA+AABIAAU=")), want: "bad gzip data: gzip: invalid header"},
	{file: "zstd.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="zstd"`, "KLUv/QAAAAACAAAAAAAAAAAAAAAAAAAAAgAAAA==")), want: "zstd compression is not supported"},
	{file: "lz4.tmx", in: tmxDoc("", tmxLayer("l", `encoding="base64" compression="lz4"`, "AAAA")), want: `compression "lz4" is not supported`},
	{file: "external-missing-firstgid.tmx", opt: grid.TiledOptions{Property: "solid"},
		in: tmxDoc("", " <tileset name=\"t\"><tile id=\"0\"/></tileset>\n"+tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), want: `tileset "t": first tile ID 0`},
	{file: "duplicate-firstgid.tmx", opt: grid.TiledOptions{Property: "solid"},
		in: tmxDoc("", " <tileset firstgid=\"1\" name=\"a\"/>\n <tileset firstgid=\"1\" name=\"b\"/>\n"+tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), want: `tilesets "a" and "b" have the same first tile ID 1`},
	{file: "bad-bool.tmx", opt: grid.TiledOptions{Property: "solid"},
		in:   tmxDoc("", " <tileset firstgid=\"1\" name=\"t\"><tile id=\"3\"><properties><property name=\"solid\" type=\"bool\" value=\"yes\"/></properties></tile></tileset>\n"+tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")),
		want: `tileset "t": tile 3: property "solid" is bool "yes", want a bool`},
	{file: "chunks-in-finite.tmx", in: tmxDoc("", " <layer name=\"l\">\n  <data encoding=\"csv\"><chunk x=\"0\" y=\"0\" width=\"1\" height=\"1\">0</chunk></data>\n </layer>\n"), want: `layer "l" has chunks, but the map is not infinite`},
	{file: "infinite-no-chunks.tmx", in: tmxDoc(`infinite="1"`, " <layer name=\"l\">\n  <data encoding=\"csv\"></data>\n </layer>\n"), want: "infinite map has no chunks"},
	{file: "infinite-data.tmx", in: tmxDoc(`infinite="1"`, tmxLayer("l", `encoding="csv"`, "0,0,0,0,0,0")), want: `layer "l" of an infinite map has data outside chunks`},
	{file: "infinite-chunk-size.tmx", in: tmxDoc(`infinite="1"`, " <layer name=\"l\">\n  <data encoding=\"csv\"><chunk x=\"0\" y=\"0\" width=\"0\" height=\"1\"></chunk></data>\n </layer>\n"),
		want: `layer "l": chunk at (0,0): size 0×1`},
	{file: "infinite-chunk-data.tmx", in: tmxDoc(`infinite="1"`, " <layer name=\"l\">\n  <data encoding=\"csv\"><chunk x=\"0\" y=\"0\" width=\"2\" height=\"1\">1</chunk></data>\n </layer>\n"),
		want: `layer "l": chunk at (0,0): 1 tiles, want 2`},
	{file: "infinite-far.tmx", in: tmxDoc(`infinite="1"`, " <layer name=\"l\">\n  <data encoding=\"csv\"><chunk x=\"2000000000\" y=\"0\" width=\"1\" height=\"1\">1</chunk></data>\n </layer>\n"),
		want: "chunk at (2000000000,0) is more than 1073741824 tiles from the origin"},
	{file: "infinite-sparse.tmx", in: tmxDoc(`infinite="1"`, " <layer name=\"l\">\n  <data encoding=\"csv\"><chunk x=\"-8192\" y=\"-8192\" width=\"1\" height=\"1\">1</chunk><chunk x=\"8191\" y=\"8191\" width=\"1\" height=\"1\">1</chunk></data>\n </layer>\n"),
		want: "chunks hold 2 tiles of a 16384×16384 bounding box: too sparse"},
	{file: "json-syntax.tmj", in: "{\"type\":\"map\",\n \"width\":3,\n \"height\":}", want: "bad JSON: invalid character '}'", line: 3},
	{file: "json-field.tmj", in: strings.Replace(tmjDoc("", ""), `"width":3`, `"width":"3"`, 1), want: "bad JSON: field width holds a JSON string, want a whole number", line: 1},
	{file: "json-firstgid.tmj", in: strings.Replace(tmjDoc("", ""), `"tilesets":[]`, `"tilesets":[{"firstgid":-1}]`, 1), want: "field tilesets.firstgid holds a JSON number -1, want a whole number ≥ 0 of at most 32 bits"},
	{file: "json-tileset.tmj", in: extTSJ, want: `JSON file of type "tileset", want a map`},
	{file: "json-data-kind.tmj", in: tmjDoc(`{"name":"l", "type":"tilelayer", "width":3, "height":2, "data":"AAAA"}`, ""), want: `layer "l": data "AAAA", want an array of tile IDs`},
	{file: "json-base64-array.tmj", in: tmjDoc(`{"name":"l", "type":"tilelayer", "width":3, "height":2, "encoding":"base64", "data":[0,0,0,0,0,0]}`, ""), want: `layer "l": data [0,0,0,0,0,0], want a base64 string`},
	{file: "json-big-id.tmj", in: tmjDoc(`{"name":"l", "type":"tilelayer", "width":3, "height":2, "data":[0,0,0,0,0,4294967296]}`, ""), want: `layer "l": data is not a list of tile IDs`},
	{file: "json-short.tmj", in: tmjDoc(`{"name":"l", "type":"tilelayer", "width":3, "height":2, "data":[0,0,0]}`, ""), want: `layer "l": 3 tiles, want 6`},
	{file: "json-no-data.tmj", in: tmjDoc(`{"name":"l", "type":"tilelayer", "width":3, "height":2}`, ""), want: `layer "l": 0 tiles, want 6`},
	{file: "json-hexagonal.tmj", in: strings.Replace(tmjDoc("", ""), "orthogonal", "hexagonal", 1), want: "hexagonal maps are not supported"},
}

func TestReadTiledErrors(t *testing.T) {
	if *update {
		writeTiledFixtures(t)
	}
	for _, tc := range tiledBadCases {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(tiledDir, "bad", tc.file)
			if b, err := os.ReadFile(path); err != nil || string(b) != tc.in {
				t.Fatalf("%s is missing or stale (%v): run go test ./grid -run TestReadTiledErrors -update", path, err)
			}
			g, _, err := grid.LoadTiled(path, tc.opt, grid.Options{})
			var fe *grid.FormatError
			if g != nil || !errors.As(err, &fe) || !strings.Contains(fe.Msg, tc.want) || fe.File != path {
				t.Fatalf("LoadTiled error\ngot  %v\nwant a *FormatError for %s holding %q", err, path, tc.want)
			}
			if tc.line != 0 && fe.Line != tc.line {
				t.Errorf("error %v on line %d, want line %d", err, fe.Line, tc.line)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q has more than one line", err)
			}
		})
	}
}

// tiledErrReader fails after giving its bytes.
type tiledErrReader struct{ b []byte }

var errTiledRead = errors.New("disk on fire")

func (r *tiledErrReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, errTiledRead
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func TestReadTiledReadError(t *testing.T) {
	_, _, err := grid.ReadTiled(&tiledErrReader{wallsMap.tmx("csv", "")}, "w.tmx", grid.TiledOptions{Layer: "walls"}, grid.Options{})
	if !errors.Is(err, errTiledRead) || !strings.HasPrefix(err.Error(), "grid: reading w.tmx: ") {
		t.Errorf("error %v, want one wrapping %v and naming w.tmx", err, errTiledRead)
	}
}

// TestReadTiledBOM reads maps that start with a UTF-8 byte order mark, as
// some editors on Windows write them.
func TestReadTiledBOM(t *testing.T) {
	for _, data := range [][]byte{wallsMap.tmx("csv", ""), wallsMap.tmj("csv", "")} {
		for _, f := range []grid.TiledFormat{grid.TiledDetect, grid.TiledXML, grid.TiledJSON} {
			if f != grid.TiledDetect && (f == grid.TiledXML) != (data[0] == '<') {
				continue
			}
			in := append([]byte("\xef\xbb\xbf"), data...)
			g, _, err := grid.ReadTiled(bytes.NewReader(in), "bom", grid.TiledOptions{Layer: "walls", Format: f}, grid.Options{})
			if err != nil {
				t.Fatalf("format %d: %v", f, err)
			}
			checkGrid(t, g, wallsWant)
		}
	}
}

// TestReadTiledManyLayers checks that an error listing layers stays short.
func TestReadTiledManyLayers(t *testing.T) {
	m := tMap{w: 1, h: 1, tile: 16}
	for i := range 20 {
		m.layers = append(m.layers, tLayer{name: fmt.Sprint("l", i), gids: []uint32{0}})
	}
	_, _, err := grid.ReadTiled(bytes.NewReader(m.tmj("csv", "")), "many.tmj", grid.TiledOptions{}, grid.Options{})
	want := `grid: many.tmj: map has 20 tile layers ("l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", and 12 more): choose the wall layer or tile property`
	if err == nil || err.Error() != want {
		t.Errorf("error\ngot  %v\nwant %s", err, want)
	}
}
