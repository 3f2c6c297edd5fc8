package navjson

import (
	"errors"
	"fmt"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
)

// Polygons reads the walkable area of a GeoJSON document for
// navmesh.FromPolygons: the Polygon and MultiPolygon geometries of a
// FeatureCollection, a Feature or a bare geometry, their coordinates taken
// as they are (world coordinates, y down as on a map: see Flip for a GIS
// view). Other geometries are ignored; a document with none, or that is not
// GeoJSON, is an error.
func Polygons(data []byte) (orb.MultiPolygon, error) {
	var geoms []orb.Geometry
	fc, errFC := geojson.UnmarshalFeatureCollection(data)
	switch {
	case errFC == nil && len(fc.Features) > 0:
		for _, ft := range fc.Features {
			geoms = append(geoms, ft.Geometry)
		}
	default:
		if ft, err := geojson.UnmarshalFeature(data); err == nil && ft.Geometry != nil {
			geoms = append(geoms, ft.Geometry)
		} else if gm, err := geojson.UnmarshalGeometry(data); err == nil && gm.Geometry() != nil {
			geoms = append(geoms, gm.Geometry())
		} else if errFC != nil {
			return nil, fmt.Errorf("navjson: not GeoJSON: %w", errFC)
		}
	}
	var mp orb.MultiPolygon
	for _, gm := range geoms {
		switch v := gm.(type) {
		case orb.Polygon:
			mp = append(mp, v)
		case orb.MultiPolygon:
			mp = append(mp, v...)
		}
	}
	if len(mp) == 0 {
		return nil, errors.New("navjson: no Polygon or MultiPolygon geometry")
	}
	return mp, nil
}
