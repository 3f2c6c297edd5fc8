package grid

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// This file parses the two syntaxes of Tiled files, XML and JSON, into one
// description, tiledDoc, and decodes tile layer data. See
// https://doc.mapeditor.org/en/stable/reference/tmx-map-format/ and
// .../json-map-format/.

// tiledDoc is what a Tiled map holds that matters to a grid.
type tiledDoc struct {
	orientation   string
	width, height int // in tiles; meaningless for an infinite map
	tileW, tileH  int // in pixels
	infinite      bool
	tilesets      []tiledTileset
	layers        []tiledLayer // the tile layers, those in groups too
	others        []string     // names of the object and image layers
}

type tiledTileset struct {
	firstGID uint32
	source   string // the file of an external tileset; "" when embedded
	name     string
	tiles    []tiledTile
}

// label names the tileset in messages.
func (ts tiledTileset) label() string {
	if ts.name == "" {
		return strconv.Quote(ts.source)
	}
	return strconv.Quote(ts.name)
}

type tiledTile struct {
	id    uint32
	props []tiledProp
}

type tiledProp struct{ name, typ, value string }

type tiledLayer struct {
	name          string
	width, height int
	data          tiledData
	chunks        []tiledChunk
}

type tiledChunk struct {
	x, y, width, height int
	data                tiledData
}

// tiledData is the tiles of a layer or chunk: a list of global tile IDs
// (XML <tile> elements or a JSON array) or text (CSV or base64).
type tiledData struct {
	encoding, compression string
	text                  string
	gids                  []uint32
	list                  bool   // gids holds the tiles
	bad                   string // what is wrong with data that cannot be decoded
}

// present reports whether the data holds any tile.
func (d *tiledData) present() bool {
	return len(d.gids) > 0 || strings.TrimSpace(d.text) != ""
}

// each calls fn(i, gid) for the n tiles of the data in order, i from 0,
// and fails unless there are exactly n of them; w is the row length, for
// messages. A failure may come after some calls.
func (d *tiledData) each(n, w int, fn func(i int, gid uint32)) error {
	if d.bad != "" {
		return errors.New(d.bad)
	}
	if d.list {
		if len(d.gids) != n {
			return fmt.Errorf("%d tiles, want %d", len(d.gids), n)
		}
		for i, g := range d.gids {
			fn(i, g)
		}
		return nil
	}
	switch d.encoding {
	case "csv":
		if d.compression != "" {
			return fmt.Errorf("compression %q of CSV data, want none", d.compression)
		}
		return eachCSV(d.text, n, w, fn)
	case "base64":
		return eachBase64(d.text, d.compression, n, fn)
	}
	return fmt.Errorf("encoding %q is not supported, want csv or base64", d.encoding)
}

func eachCSV(s string, n, w int, fn func(int, uint32)) error {
	i := 0
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break // an empty field after the last comma is allowed
		}
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if i >= n {
			return fmt.Errorf("more than %d tiles", n)
		}
		v, err := strconv.ParseUint(s[:j], 10, 32)
		if err != nil {
			tok, _, _ := strings.Cut(s[:min(len(s), 24)], ",")
			return fmt.Errorf("tile %d (%d,%d): %q, want a tile ID from 0 to %d", i, i%w, i/w, strings.TrimSpace(tok), uint32(1<<32-1))
		}
		fn(i, uint32(v))
		i++
		s = strings.TrimLeft(s[j:], " \t\r\n")
		if s == "" {
			break
		}
		if s[0] != ',' {
			return fmt.Errorf("tile %d (%d,%d): %q after the tile ID, want a comma", i-1, (i-1)%w, (i-1)/w, s[:1])
		}
		s = s[1:]
	}
	if i != n {
		return fmt.Errorf("%d tiles, want %d", i, n)
	}
	return nil
}

func eachBase64(text, compression string, n int, fn func(int, uint32)) error {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, text)
	var r io.Reader = base64.NewDecoder(base64.StdEncoding, strings.NewReader(clean))
	var err error
	switch compression {
	case "":
	case "zlib":
		r, err = zlib.NewReader(r)
	case "gzip":
		r, err = gzip.NewReader(r)
	case "zstd":
		return errors.New("zstd compression is not supported: save the map with zlib, gzip or no compression")
	default:
		return fmt.Errorf("compression %q is not supported, want zlib or gzip", compression)
	}
	if err != nil {
		return dataError(compression, err)
	}
	br := bufio.NewReader(r)
	var b [4]byte
	for i := range n {
		if _, err := io.ReadFull(br, b[:]); err == io.EOF || err == io.ErrUnexpectedEOF {
			return fmt.Errorf("data ends after %d of %d tiles", i, n)
		} else if err != nil {
			return dataError(compression, err)
		}
		fn(i, binary.LittleEndian.Uint32(b[:]))
	}
	// Read to the end, which checks a checksum, and refuse extra tiles.
	if _, err := br.ReadByte(); err == nil {
		return fmt.Errorf("more than %d tiles", n)
	} else if err != io.EOF {
		return dataError(compression, err)
	}
	return nil
}

// dataError describes a failure to decode base64 or decompress.
func dataError(compression string, err error) error {
	var ce base64.CorruptInputError
	if errors.As(err, &ce) || compression == "" {
		return fmt.Errorf("bad base64 data: %v", err)
	}
	return fmt.Errorf("bad %s data: %v", compression, err)
}

// parseTiledMap parses a map in either syntax.
func parseTiledMap(data []byte, name string, f TiledFormat) (*tiledDoc, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	f, ok := detectTiled(data, f)
	switch {
	case !ok:
		return nil, &FormatError{File: name, Msg: "not a Tiled map: want XML (.tmx) or JSON (.tmj)"}
	case f == TiledXML:
		var m tmxMap
		if err := decodeXML(data, name, &m); err != nil {
			return nil, err
		}
		return m.doc(), nil
	case f == TiledJSON:
		var m tmjMap
		if err := decodeJSON(data, name, &m); err != nil {
			return nil, err
		}
		if m.Type != "" && m.Type != "map" {
			return nil, &FormatError{File: name, Msg: fmt.Sprintf("JSON file of type %q, want a map", m.Type)}
		}
		return m.doc(), nil
	}
	return nil, &FormatError{File: name, Msg: fmt.Sprintf("unknown Tiled format %d", f)}
}

// parseTiledTileset parses an external tileset in either syntax.
func parseTiledTileset(data []byte, name string, f TiledFormat) (tiledTileset, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	f, ok := detectTiled(data, f)
	switch {
	case !ok:
		return tiledTileset{}, &FormatError{File: name, Msg: "not a Tiled tileset: want XML (.tsx) or JSON (.tsj)"}
	case f == TiledXML:
		var ts tsxTileset
		if err := decodeXML(data, name, &ts); err != nil {
			return tiledTileset{}, err
		}
		return ts.tmxTileset.set(), nil
	default:
		var ts tmjTileset
		if err := decodeJSON(data, name, &ts); err != nil {
			return tiledTileset{}, err
		}
		return ts.set(), nil
	}
}

func decodeXML(data []byte, name string, v any) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(v); err != nil {
		line, _ := d.InputPos()
		msg := err.Error()
		if se, ok := err.(*xml.SyntaxError); ok {
			line, msg = se.Line, se.Msg
		}
		return &FormatError{File: name, Line: line, Msg: "bad XML: " + msg}
	}
	return nil
}

func decodeJSON(data []byte, name string, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	msg, off := err.Error(), int64(-1)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		msg, off = se.Error(), se.Offset
	case errors.As(err, &te):
		msg, off = fmt.Sprintf("field %s holds a JSON %s, want %s", te.Field, te.Value, jsonKind(te.Type.Kind().String())), te.Offset
	}
	line := 0
	if off >= 0 && off <= int64(len(data)) {
		line = 1 + bytes.Count(data[:off], []byte{'\n'})
	}
	return &FormatError{File: name, Line: line, Msg: "bad JSON: " + strings.TrimPrefix(msg, "json: ")}
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"):
		return "a whole number"
	case strings.HasPrefix(k, "uint"):
		return "a whole number ≥ 0 of at most " + strings.TrimPrefix(k, "uint") + " bits"
	case k == "slice":
		return "an array"
	case k == "struct":
		return "an object"
	}
	return "a " + k
}

// XML syntax.

// xmlInt is an integer attribute, with a clear error when it is not one.
type xmlInt int

func (v *xmlInt) UnmarshalXMLAttr(a xml.Attr) error {
	n, err := strconv.Atoi(strings.TrimSpace(a.Value))
	if err != nil {
		return fmt.Errorf("attribute %s=%q, want a whole number", a.Name.Local, a.Value)
	}
	*v = xmlInt(n)
	return nil
}

// xmlID is a tile ID attribute.
type xmlID uint32

func (v *xmlID) UnmarshalXMLAttr(a xml.Attr) error {
	n, err := strconv.ParseUint(strings.TrimSpace(a.Value), 10, 32)
	if err != nil {
		return fmt.Errorf("attribute %s=%q, want a tile ID from 0 to %d", a.Name.Local, a.Value, uint32(1<<32-1))
	}
	*v = xmlID(n)
	return nil
}

type tmxMap struct {
	XMLName     xml.Name     `xml:"map"`
	Orientation string       `xml:"orientation,attr"`
	Width       xmlInt       `xml:"width,attr"`
	Height      xmlInt       `xml:"height,attr"`
	TileWidth   xmlInt       `xml:"tilewidth,attr"`
	TileHeight  xmlInt       `xml:"tileheight,attr"`
	Infinite    xmlInt       `xml:"infinite,attr"`
	Tilesets    []tmxTileset `xml:"tileset"`
	Children    []tmxNode    `xml:",any"` // layers and groups, in file order
}

// tmxNode is a layer, a group of layers, or another element of a map.
type tmxNode struct {
	XMLName  xml.Name
	Name     string    `xml:"name,attr"`
	Width    xmlInt    `xml:"width,attr"`
	Height   xmlInt    `xml:"height,attr"`
	Data     tmxData   `xml:"data"`
	Children []tmxNode `xml:",any"`
}

type tmxData struct {
	Encoding    string     `xml:"encoding,attr"`
	Compression string     `xml:"compression,attr"`
	Text        string     `xml:",chardata"`
	Tiles       []tmxGID   `xml:"tile"`
	Chunks      []tmxChunk `xml:"chunk"`
}

type tmxGID struct {
	GID xmlID `xml:"gid,attr"`
}

type tmxChunk struct {
	X      xmlInt   `xml:"x,attr"`
	Y      xmlInt   `xml:"y,attr"`
	Width  xmlInt   `xml:"width,attr"`
	Height xmlInt   `xml:"height,attr"`
	Text   string   `xml:",chardata"`
	Tiles  []tmxGID `xml:"tile"`
}

type tmxTileset struct {
	FirstGID xmlID     `xml:"firstgid,attr"`
	Source   string    `xml:"source,attr"`
	Name     string    `xml:"name,attr"`
	Tiles    []tmxTile `xml:"tile"`
}

// tsxTileset is the root of a .tsx file.
type tsxTileset struct {
	XMLName xml.Name `xml:"tileset"`
	tmxTileset
}

type tmxTile struct {
	ID    xmlID     `xml:"id,attr"`
	Props []tmxProp `xml:"properties>property"`
}

type tmxProp struct {
	Name  string `xml:"name,attr"`
	Type  string `xml:"type,attr"`
	Value string `xml:"value,attr"`
}

func (m *tmxMap) doc() *tiledDoc {
	d := &tiledDoc{
		orientation: m.Orientation,
		width:       int(m.Width), height: int(m.Height),
		tileW: int(m.TileWidth), tileH: int(m.TileHeight),
		infinite: m.Infinite != 0,
	}
	for _, ts := range m.Tilesets {
		d.tilesets = append(d.tilesets, ts.set())
	}
	addTMXLayers(d, m.Children)
	return d
}

func addTMXLayers(d *tiledDoc, nodes []tmxNode) {
	for _, n := range nodes {
		switch n.XMLName.Local {
		case "layer":
			l := tiledLayer{name: n.Name, width: int(n.Width), height: int(n.Height),
				data: tmxTiles(n.Data.Encoding, n.Data.Compression, n.Data.Text, n.Data.Tiles)}
			for _, c := range n.Data.Chunks {
				l.chunks = append(l.chunks, tiledChunk{x: int(c.X), y: int(c.Y), width: int(c.Width), height: int(c.Height),
					data: tmxTiles(n.Data.Encoding, n.Data.Compression, c.Text, c.Tiles)})
			}
			d.layers = append(d.layers, l)
		case "group":
			addTMXLayers(d, n.Children)
		case "objectgroup", "imagelayer":
			d.others = append(d.others, n.Name)
		}
	}
}

// tmxTiles is the data of a layer or chunk; without an encoding, the tiles
// are <tile> elements.
func tmxTiles(encoding, compression, text string, tiles []tmxGID) tiledData {
	d := tiledData{encoding: encoding, compression: compression, text: text}
	if encoding == "" {
		d.list = true
		d.gids = make([]uint32, len(tiles))
		for i, t := range tiles {
			d.gids[i] = uint32(t.GID)
		}
	}
	return d
}

func (ts *tmxTileset) set() tiledTileset {
	s := tiledTileset{firstGID: uint32(ts.FirstGID), source: ts.Source, name: ts.Name}
	for _, t := range ts.Tiles {
		tt := tiledTile{id: uint32(t.ID)}
		for _, p := range t.Props {
			tt.props = append(tt.props, tiledProp{name: p.Name, typ: p.Type, value: p.Value})
		}
		s.tiles = append(s.tiles, tt)
	}
	return s
}

// JSON syntax.

type tmjMap struct {
	Type        string       `json:"type"`
	Orientation string       `json:"orientation"`
	Width       int          `json:"width"`
	Height      int          `json:"height"`
	TileWidth   int          `json:"tilewidth"`
	TileHeight  int          `json:"tileheight"`
	Infinite    bool         `json:"infinite"`
	Tilesets    []tmjTileset `json:"tilesets"`
	Layers      []tmjLayer   `json:"layers"`
}

type tmjLayer struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Width       int             `json:"width"`
	Height      int             `json:"height"`
	Encoding    string          `json:"encoding"`
	Compression string          `json:"compression"`
	Data        json.RawMessage `json:"data"`
	Chunks      []tmjChunk      `json:"chunks"`
	Layers      []tmjLayer      `json:"layers"`
}

type tmjChunk struct {
	X      int             `json:"x"`
	Y      int             `json:"y"`
	Width  int             `json:"width"`
	Height int             `json:"height"`
	Data   json.RawMessage `json:"data"`
}

type tmjTileset struct {
	FirstGID uint32    `json:"firstgid"`
	Source   string    `json:"source"`
	Name     string    `json:"name"`
	Tiles    []tmjTile `json:"tiles"`
}

type tmjTile struct {
	ID         uint32    `json:"id"`
	Properties []tmjProp `json:"properties"`
}

type tmjProp struct {
	Name  string          `json:"name"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

func (m *tmjMap) doc() *tiledDoc {
	d := &tiledDoc{
		orientation: m.Orientation,
		width:       m.Width, height: m.Height,
		tileW: m.TileWidth, tileH: m.TileHeight,
		infinite: m.Infinite,
	}
	for _, ts := range m.Tilesets {
		d.tilesets = append(d.tilesets, ts.set())
	}
	addTMJLayers(d, m.Layers)
	return d
}

func addTMJLayers(d *tiledDoc, layers []tmjLayer) {
	for _, l := range layers {
		switch l.Type {
		case "tilelayer":
			tl := tiledLayer{name: l.Name, width: l.Width, height: l.Height, data: tmjTiles(l.Encoding, l.Compression, l.Data)}
			for _, c := range l.Chunks {
				tl.chunks = append(tl.chunks, tiledChunk{x: c.X, y: c.Y, width: c.Width, height: c.Height,
					data: tmjTiles(l.Encoding, l.Compression, c.Data)})
			}
			d.layers = append(d.layers, tl)
		case "group":
			addTMJLayers(d, l.Layers)
		default:
			d.others = append(d.others, l.Name)
		}
	}
}

// tmjTiles is the data of a layer or chunk: an array of tile IDs, or a
// base64 string. A value of the wrong kind gives data that fails to decode,
// saying so.
func tmjTiles(encoding, compression string, raw json.RawMessage) tiledData {
	d := tiledData{encoding: encoding, compression: compression}
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		if encoding == "" || encoding == "csv" {
			d.list = true
		}
	case raw[0] == '[' && (encoding == "" || encoding == "csv"):
		d.list = true
		if err := json.Unmarshal(raw, &d.gids); err != nil {
			d.bad = fmt.Sprintf("data is not a list of tile IDs from 0 to %d", uint32(1<<32-1))
		}
	case raw[0] == '"' && encoding == "base64":
		if err := json.Unmarshal(raw, &d.text); err != nil {
			d.bad = "data is not a JSON string" // cannot happen after a successful parse
		}
	case encoding == "" || encoding == "csv" || encoding == "base64":
		want := "an array of tile IDs"
		if encoding == "base64" {
			want = "a base64 string"
		}
		d.bad = fmt.Sprintf("data %.20s, want %s", raw, want)
	}
	return d
}

func (ts *tmjTileset) set() tiledTileset {
	s := tiledTileset{firstGID: ts.FirstGID, source: ts.Source, name: ts.Name}
	for _, t := range ts.Tiles {
		tt := tiledTile{id: t.ID}
		for _, p := range t.Properties {
			v := string(bytes.TrimSpace(p.Value))
			var str string
			if json.Unmarshal(p.Value, &str) == nil {
				v = str
			}
			tt.props = append(tt.props, tiledProp{name: p.Name, typ: p.Type, value: v})
		}
		s.tiles = append(s.tiles, tt)
	}
	return s
}
