package navmesh_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/paulmach/orb"
)

func TestZZStress(t *testing.T) {
	if os.Getenv("STRESS") == "" {
		t.Skip()
	}
	for seed := int64(100); seed <= 1600; seed++ {
		rnd := testmap.NewRand(seed)
		pg := randomPolygon(rnd)
		c := newPolyCase(t, fmt.Sprintf("seed %d", seed), orb.MultiPolygon{pg})
		c.checkStructure(t)
		c.checkQueries(t, seed, 40)
	}
	rnd := testmap.NewRand(99)
	for i := range 200000 {
		data := make([]byte, 3+rnd.IntN(60))
		for j := range data {
			data[j] = byte(rnd.IntN(256))
		}
		checkFuzz(t, decodePolygons(data), int64(i))
	}
}
