package grid_test

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// This file writes the Tiled fixture maps under testdata/tiled (see
// TestTiledFixtures and its -update flag).

// gidsOf turns a drawing, one character a tile and rows on lines of their
// own, into global tile IDs: '.' is the empty tile, legend gives the others.
func gidsOf(drawing string, legend map[byte]uint32) []uint32 {
	var gids []uint32
	for line := range strings.Lines(drawing) {
		for _, c := range []byte(strings.TrimSpace(line)) {
			gid, ok := legend[c]
			if c != '.' && !ok {
				panic(fmt.Sprintf("gidsOf: %q is not in the legend", c))
			}
			gids = append(gids, gid)
		}
	}
	return gids
}

// tLayer is a tile layer of a fixture map: its tiles, or the chunks of an
// infinite map.
type tLayer struct {
	name, group string // group: the name of a group holding the layer, or ""
	gids        []uint32
	chunks      []tChunk
}

type tChunk struct {
	x, y, w, h int
	gids       []uint32
}

// tMap is a fixture map, which writes itself as TMX or TMJ with any tile
// encoding: "xml" (TMX <tile> elements), "csv", or "base64" with
// compression "", "zlib" or "gzip".
type tMap struct {
	w, h, tile   int
	infinite     bool
	tilesetsTMX  string // the <tileset> elements
	tilesetsTMJ  string // the elements of the tilesets array
	layers       []tLayer
	objectLayer  string // name of an object layer, or ""
	orientation  string // "" for orthogonal
	extraMapAttr string
}

func encodeGIDs(gids []uint32, w int, enc, comp string, json bool) string {
	var sb strings.Builder
	switch enc {
	case "xml":
		for _, g := range gids {
			if g == 0 {
				sb.WriteString("<tile/>")
			} else {
				fmt.Fprintf(&sb, `<tile gid="%d"/>`, g)
			}
		}
	case "csv":
		sep := ",\n"
		if json {
			sep = ", "
		}
		for i, g := range gids {
			if i > 0 && i%w == 0 {
				sb.WriteString(sep)
			} else if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(strconv.FormatUint(uint64(g), 10))
		}
	case "base64":
		raw := make([]byte, 4*len(gids))
		for i, g := range gids {
			binary.LittleEndian.PutUint32(raw[4*i:], g)
		}
		var buf bytes.Buffer
		switch comp {
		case "":
			buf.Write(raw)
		case "zlib":
			zw := zlib.NewWriter(&buf)
			zw.Write(raw)
			zw.Close()
		case "gzip":
			zw := gzip.NewWriter(&buf)
			zw.Write(raw)
			zw.Close()
		}
		sb.WriteString(base64.StdEncoding.EncodeToString(buf.Bytes()))
	}
	return sb.String()
}

func (m tMap) tmx(enc, comp string) []byte {
	var b strings.Builder
	orient := cmpOr(m.orientation, "orthogonal")
	inf := 0
	if m.infinite {
		inf = 1
	}
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=%q renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"%d\" tileheight=\"%d\" infinite=\"%d\"%s>\n",
		orient, m.w, m.h, m.tile, m.tile, inf, m.extraMapAttr)
	b.WriteString(m.tilesetsTMX)
	dataAttr := ""
	if enc != "xml" {
		dataAttr = fmt.Sprintf(" encoding=%q", enc)
	}
	if comp != "" {
		dataAttr += fmt.Sprintf(" compression=%q", comp)
	}
	for i, l := range m.layers {
		indent := " "
		if l.group != "" {
			fmt.Fprintf(&b, " <group id=\"%d\" name=%q>\n", 100+i, l.group)
			indent = "  "
		}
		fmt.Fprintf(&b, "%s<layer id=\"%d\" name=%q width=\"%d\" height=\"%d\">\n%s <data%s>", indent, i+1, l.name, m.w, m.h, indent, dataAttr)
		if m.infinite {
			b.WriteString("\n")
			for _, c := range l.chunks {
				fmt.Fprintf(&b, "%s  <chunk x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">\n%s\n%s  </chunk>\n", indent, c.x, c.y, c.w, c.h, encodeGIDs(c.gids, c.w, enc, comp, false), indent)
			}
		} else {
			fmt.Fprintf(&b, "\n%s\n", encodeGIDs(l.gids, m.w, enc, comp, false))
		}
		fmt.Fprintf(&b, "%s </data>\n%s</layer>\n", indent, indent)
		if l.group != "" {
			b.WriteString(" </group>\n")
		}
	}
	if m.objectLayer != "" {
		fmt.Fprintf(&b, " <objectgroup id=\"99\" name=%q>\n  <object id=\"1\" x=\"16\" y=\"16\" width=\"32\" height=\"16\"/>\n </objectgroup>\n", m.objectLayer)
	}
	b.WriteString("</map>\n")
	return []byte(b.String())
}

func (m tMap) tmj(enc, comp string) []byte {
	var b strings.Builder
	orient := cmpOr(m.orientation, "orthogonal")
	fmt.Fprintf(&b, "{ \"compressionlevel\":-1,\n \"width\":%d, \"height\":%d, \"infinite\":%v,\n \"orientation\":%q, \"renderorder\":\"right-down\",\n \"tiledversion\":\"1.10.2\", \"tilewidth\":%d, \"tileheight\":%d, \"type\":\"map\", \"version\":\"1.10\",\n",
		m.w, m.h, m.infinite, orient, m.tile, m.tile)
	fmt.Fprintf(&b, " \"tilesets\":[%s],\n \"layers\":[\n", m.tilesetsTMJ)
	data := func(gids []uint32, w int) string {
		if enc == "csv" {
			return "[" + encodeGIDs(gids, w, enc, comp, true) + "]"
		}
		return strconv.Quote(encodeGIDs(gids, w, enc, comp, true))
	}
	encAttr := ""
	if enc == "base64" {
		encAttr = fmt.Sprintf(`"encoding":"base64", "compression":%q, `, comp)
	}
	for i, l := range m.layers {
		if i > 0 {
			b.WriteString(",\n")
		}
		var layer string
		if m.infinite {
			var cs []string
			for _, c := range l.chunks {
				cs = append(cs, fmt.Sprintf(`{"x":%d, "y":%d, "width":%d, "height":%d, "data":%s}`, c.x, c.y, c.w, c.h, data(c.gids, c.w)))
			}
			layer = fmt.Sprintf(`{"id":%d, "name":%q, "type":"tilelayer", %s"chunks":[%s], "opacity":1, "visible":true, "x":0, "y":0}`, i+1, l.name, encAttr, strings.Join(cs, ", "))
		} else {
			layer = fmt.Sprintf(`{"id":%d, "name":%q, "type":"tilelayer", "width":%d, "height":%d, %s"data":%s, "opacity":1, "visible":true, "x":0, "y":0}`, i+1, l.name, m.w, m.h, encAttr, data(l.gids, m.w))
		}
		if l.group != "" {
			layer = fmt.Sprintf(`{"id":%d, "name":%q, "type":"group", "layers":[%s]}`, 100+i, l.group, layer)
		}
		b.WriteString("  " + layer)
	}
	if m.objectLayer != "" {
		fmt.Fprintf(&b, ",\n  {\"id\":99, \"name\":%q, \"type\":\"objectgroup\", \"objects\":[{\"id\":1, \"x\":16, \"y\":16, \"width\":32, \"height\":16}]}", m.objectLayer)
	}
	b.WriteString("\n ]\n}\n")
	return []byte(b.String())
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// The fixture maps.
var (
	// wallsMap has a ground layer and a walls layer whose tiles carry flip
	// flags: every non-empty tile of walls is a wall, however flipped.
	wallsMap = tMap{w: 5, h: 4, tile: 16,
		tilesetsTMX: " <tileset firstgid=\"1\" name=\"terrain\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\" columns=\"2\">\n  <image source=\"terrain.png\" width=\"32\" height=\"32\"/>\n </tileset>\n",
		tilesetsTMJ: `{"firstgid":1, "name":"terrain", "tilewidth":16, "tileheight":16, "tilecount":4, "columns":2, "image":"terrain.png", "imagewidth":32, "imageheight":32}`,
		layers: []tLayer{
			{name: "ground", gids: gidsOf("11111\n11111\n11111\n11111", map[byte]uint32{'1': 1})},
			{name: "walls", gids: gidsOf(`
				2.2..
				.h...
				..dv.
				2...a`, map[byte]uint32{'2': 2, 'h': 2 | flipH, 'd': 3 | flipD, 'v': 3 | flipV, 'a': 4 | flipH | flipV | flipD | flipR})},
		},
	}
	wallsWant = `
		#.#..
		.#...
		..##.
		#...#`

	// propMap has two embedded tilesets whose tiles carry properties, a
	// ground layer inside a group, a decoration layer over it, and an
	// object layer.
	propMap = tMap{w: 4, h: 3, tile: 32, objectLayer: "collision",
		tilesetsTMX: ` <tileset firstgid="1" name="terrain" tilewidth="32" tileheight="32" tilecount="4" columns="2">
  <image source="terrain.png" width="64" height="64"/>
  <tile id="1"><properties><property name="collides" type="bool" value="true"/></properties></tile>
  <tile id="2"><properties><property name="collides" type="bool" value="false"/><property name="solid" value="yes"/></properties></tile>
  <tile id="3"><properties><property name="kind" value="water"/></properties></tile>
 </tileset>
 <tileset firstgid="10" name="props" tilewidth="32" tileheight="32" tilecount="1" columns="1">
  <image source="props.png" width="32" height="32"/>
  <tile id="0"><properties><property name="collides" type="bool" value="true"/></properties></tile>
 </tileset>
`,
		tilesetsTMJ: `{"firstgid":1, "name":"terrain", "tilewidth":32, "tileheight":32, "tilecount":4, "columns":2, "image":"terrain.png", "imagewidth":64, "imageheight":64,
   "tiles":[{"id":1, "properties":[{"name":"collides", "type":"bool", "value":true}]},
            {"id":2, "properties":[{"name":"collides", "type":"bool", "value":false}, {"name":"solid", "type":"string", "value":"yes"}]},
            {"id":3, "properties":[{"name":"kind", "type":"string", "value":"water"}]}]},
  {"firstgid":10, "name":"props", "tilewidth":32, "tileheight":32, "tilecount":1, "columns":1, "image":"props.png", "imagewidth":32, "imageheight":32,
   "tiles":[{"id":0, "properties":[{"name":"collides", "type":"bool", "value":true}]}]}`,
		layers: []tLayer{
			{name: "ground", group: "world", gids: gidsOf("1111\n1214\n1111", map[byte]uint32{'1': 1, '2': 2, '4': 4})},
			{name: "deco", gids: gidsOf("....\nA..B\n.3.2", map[byte]uint32{'A': 10 | flipH, 'B': 10, '3': 3, '2': 2 | flipV})},
		},
	}

	// extMap takes its tile properties from a tileset in a separate file.
	extMap = tMap{w: 3, h: 2, tile: 8,
		layers: []tLayer{{name: "l", gids: gidsOf("12.\n.21", map[byte]uint32{'1': 5, '2': 6})}},
	}
	extTSX = `<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ext" tilewidth="8" tileheight="8" tilecount="2" columns="2">
 <image source="ext.png" width="16" height="8"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="solid" type="bool" value="false"/></properties></tile>
</tileset>
`
	extTSJ = `{"name":"ext", "type":"tileset", "tilewidth":8, "tileheight":8, "tilecount":2, "columns":2, "image":"ext.png", "imagewidth":16, "imageheight":8,
 "tiles":[{"id":0, "properties":[{"name":"solid", "type":"bool", "value":true}]}, {"id":1, "properties":[{"name":"solid", "type":"bool", "value":false}]}]}
`

	// infMap is an infinite map with chunks on both sides of the origin.
	infMap = tMap{w: 4, h: 4, tile: 16, infinite: true,
		layers: []tLayer{
			{name: "ground", chunks: []tChunk{{-2, -2, 2, 2, []uint32{1, 1, 1, 1}}, {0, 0, 2, 2, []uint32{1, 1, 1, 1}}}},
			{name: "walls", chunks: []tChunk{{0, -2, 2, 2, []uint32{2, 0, 0, 2 | flipH}}, {-2, 0, 2, 2, []uint32{0, 2, 3, 0}}}},
		},
	}
	infWant = `
		..#.
		...#
		.#..
		#...`
)
