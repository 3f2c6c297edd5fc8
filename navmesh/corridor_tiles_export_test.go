package navmesh

import (
	"fmt"
	"slices"
)

// SetCorridorTileRange sets the least distance between a query's ends for
// the corridor search to run over the tiles, and returns the function
// that restores it.
func SetCorridorTileRange(d float64) func() {
	old := corridorTileRange
	corridorTileRange = d
	return func() { corridorTileRange = old }
}

// CorridorOverTiles reports whether s's last corridor query ran over the
// tiles (corridor_tiles.go) to its end.
func CorridorOverTiles(s *Searcher) bool { return s.c != nil && s.c.joined }

// CarriedCorridorTables checks the corridor tables that mesh um holds
// before any query against those of mesh fm, filled: the same sides and
// costs. It returns how many um held.
func CarriedCorridorTables(um, fm *Mesh) (int, error) {
	a, b := um.corridorTables(), fm.corridorTables()
	if a == nil || b == nil {
		return 0, fmt.Errorf("no tables: %v, %v", a != nil, b != nil)
	}
	fm.FillCorridorTables()
	n := 0
	for k := range a.tab {
		t := a.tab[k].Load()
		if t == nil {
			continue
		}
		n++
		u := b.tab[k].Load()
		if !slices.Equal(t.side, u.side) || !slices.Equal(t.cost, u.cost) {
			return n, fmt.Errorf("tile %d: sides %v costs %v, a fresh build's %v and %v", k, t.side, t.cost, u.side, u.cost)
		}
	}
	return n, nil
}
