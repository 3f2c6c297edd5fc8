// Package agent keeps paths alive for the agents of a game on a grid that
// changes while it runs: the layer between Cairn's searches and a game's
// steering.
//
// A [Path] belongs to one agent. It holds the agent's cell path and how far
// along it the agent is; [Path.Steer] turns the agent's continuous position
// into a point to move toward that the agent can reach in a straight line
// without touching a blocked cell, whatever the lookahead.
//
// A [Planner] finds and mends paths at once: [Planner.Plan] searches a
// whole path, [Planner.MoveGoal] moves the goal and searches only the end
// again, and [Planner.Repair], after an edit of the grid, checks the path
// against the edited rectangle and searches only the broken stretch again.
// A [Queue] spreads the searches of many agents over frames: requests wait
// by priority and run under a budget of expansions or time per call, and a
// request can be cancelled or replaced. A queue can search an HPA* graph of
// its grid instead ([Queue.UseGraph]), or one class of an annotated graph
// that units of several sizes share ([Queue.UseAnnotated]).
//
// A [FlowField] sends many agents to one goal with a single reverse search.
//
// Agents on a navmesh have a [MeshPath], in the model of Detour's path
// corridor: the polygons from the one that holds the agent to the one that
// holds its goal, and the waypoints of that corridor pulled taut
// ([funnel.Pull]) from where the agent stands. [MeshPath.Steer] moves the
// start of the path with the agent, without a search while the agent stays
// on its corridor, and returns the first waypoint, in straight sight on the
// mesh. A [MeshPlanner] plans with the navmesh's corridor search, moves a
// goal by cutting the corridor or searching only its end again, and
// carries a path over to the mesh [navmesh.Mesh.Update] returns after an
// edit: a path away from the edit keeps its waypoints, its corridor found
// again on the new mesh (searched again only through polygons the update
// changed), and a path near it is planned again from the agent. Navmesh
// points are in the mesh's own coordinates (cells, for a mesh from a
// grid).
//
// Coordinates are those of package grid: cell (x, y) covers
// [x, x+1) × [y, y+1), its centre is (x+0.5, y+0.5), and continuous points
// are [mgl64.Vec2]. An agent stands in the cell that holds its position.
// A game whose positions are in world units converts at the boundary with
// a [grid.Transform]: ToGrid before Steer, ToWorld on the target it returns,
// ToCell for the cells of Plan and Request.
//
// Paths, planners and queues are not safe for concurrent use: a game keeps
// them on the goroutine that runs its frames, and edits its grid between
// their calls (edits made with [grid.Grid.SetCells] while a [Queue] search
// is in progress make that search start again on the edited grid).
package agent
