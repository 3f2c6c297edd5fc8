package navmesh

import (
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/paulmach/orb"
)

// FromPolygonsByDistance is FromPolygons with holes joined by the
// triangulator's search by distance alone (tri.Options.BridgeByDistance).
func FromPolygonsByDistance(mp orb.MultiPolygon, opt Options) (*Mesh, error) {
	return fromPolygons(mp, opt, tri.Options{BridgeByDistance: true})
}

// StarRing is starRing, for the external tests.
var StarRing = starRing
