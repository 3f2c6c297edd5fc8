module github.com/cairn-nav/cairn/examples/ebiten

go 1.26.0

require (
	github.com/cairn-nav/cairn v0.0.0
	github.com/go-gl/mathgl v1.2.0
	github.com/hajimehoshi/ebiten/v2 v2.8.8
)

require (
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	github.com/paulmach/orb v0.14.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/cairn-nav/cairn => ../..
