// Search mode of the page of "pathfind serve": asks GET /api/trace for one
// search's expansions in order and plays them on the map: the cells expanded
// (closed), the frontier (cells reached but not yet expanded: for plain
// searches the page works it out as it plays; at the end it is the server's
// open list), the current cell, and the path once found.
//
// window.cairn.trace holds the play's state for tests and tools: data (the
// latest answer), i (the expansions shown), playing, and frames (animation
// frames that showed more of it).
"use strict";

(() => {
  const S = window.cairn;
  const $ = (id) => document.getElementById(id);
  const CLOSED = [120, 170, 230, 190];
  const OPEN = [150, 220, 140, 200];
  const MAX_PER_FRAME = 50000;

  const ALGO_NOTES = {
    astar: "A* expanding every neighbour of every cell: optimal with an admissible heuristic.",
    dijkstra: "Dijkstra: A* with no heuristic, expanding cells in order of their cost from the start; always optimal.",
    weighted: "Weighted A*: the heuristic times the weight, so fewer expansions; with an admissible heuristic, paths at most weight times longer than optimal.",
    greedy: "Greedy best-first, approximated as weighted A* of weight 10⁶: the heuristic alone decides, the cost so far only breaks ties. Fast, paths not optimal.",
    jps: "Jump point search: the same optimal paths as A*, expanding only the jump points where paths may turn (the frontier is shown at the end only).",
  };
  const HEURISTIC_NOTES = {
    octile: "Octile: exact on open 8-connected grids; admissible on 4-connected ones too, where Manhattan is stronger.",
    manhattan: "Manhattan: exact on open 4-connected grids; on 8-connected ones it overestimates diagonals, so paths may be longer than optimal.",
    euclidean: "Euclidean: admissible and consistent on 4- and 8-connected grids, but weaker than octile: more expansions.",
    chebyshev: "Chebyshev: admissible and consistent on 4- and 8-connected grids (a diagonal counts 1), weaker than octile: more expansions.",
  };

  const T = {
    data: null,
    i: 0,
    playing: false,
    frames: 0,
    acc: 0,
    last: 0,
    image: null, // offscreen canvas, one pixel per cell
    pixels: null,
    mark: null, // per cell: 0 untouched, 1 open, 2 closed
    dirty: null, // [x0, y0, x1, y1] of pixels to copy to image
    seq: 0,
  };
  S.trace = T;

  const algoEl = $("trace-algo"), hEl = $("trace-heuristic"), wEl = $("trace-weight");
  const speedEl = $("trace-speed"), playEl = $("trace-play"), counterEl = $("trace-counter"), infoEl = $("trace-info");

  // rate is the expansions a second that the speed slider asks for: 1 to 100 000.
  const rate = () => Math.round(Math.pow(10, speedEl.value / 20));

  function showControls() {
    const a = algoEl.value;
    hEl.disabled = a === "dijkstra";
    wEl.disabled = a !== "weighted";
    $("weight-label").classList.toggle("disabled", wEl.disabled);
    $("trace-weight-value").textContent = wEl.value;
    $("trace-speed-value").textContent = `${rate()}/s`;
    $("algo-note").textContent = ALGO_NOTES[a];
    $("heuristic-note").textContent = a === "dijkstra" ? "No heuristic." : HEURISTIC_NOTES[hEl.value];
  }

  async function fetchTrace() {
    if (S.mode !== "search" || !S.start || !S.goal) return;
    const seq = ++T.seq;
    const a = algoEl.value;
    const p = new URLSearchParams({ algo: a, from: `${S.start.x},${S.start.y}`, to: `${S.goal.x},${S.goal.y}` });
    if (a !== "dijkstra") p.set("heuristic", hEl.value);
    if (a === "weighted") p.set("weight", wEl.value);
    pause();
    S.setStatus(`Tracing ${a} ${S.start.x},${S.start.y} → ${S.goal.x},${S.goal.y}…`);
    try {
      const d = await S.api(`/api/trace?${p}`);
      if (seq !== T.seq) return;
      T.data = d;
      S.setStatus(`${d.algo}: ${d.status}${d.cost != null ? `, cost ${d.cost.toFixed(3)}` : ""}, ${d.expanded} expansions (map version ${d.version})`);
      clear();
      play();
    } catch (e) {
      if (seq !== T.seq) return;
      T.data = null;
      clear();
      S.setStatus(e.message, true);
    }
  }

  // clear makes the overlay empty and rewinds to the first expansion.
  function clear() {
    const m = S.map;
    T.i = 0;
    T.acc = 0;
    if (!T.image || T.image.width !== m.width || T.image.height !== m.height) {
      T.image = document.createElement("canvas");
      T.image.width = m.width;
      T.image.height = m.height;
      T.pixels = T.image.getContext("2d").createImageData(m.width, m.height);
      T.mark = new Uint8Array(m.width * m.height);
    } else {
      T.pixels.data.fill(0);
      T.mark.fill(0);
    }
    T.image.getContext("2d").putImageData(T.pixels, 0, 0);
    T.dirty = null;
    showCounter();
    S.draw();
  }

  function setCell(x, y, c, mark) {
    const m = S.map;
    const i = y * m.width + x;
    T.mark[i] = mark;
    const d = T.pixels.data, o = 4 * i;
    d[o] = c[0];
    d[o + 1] = c[1];
    d[o + 2] = c[2];
    d[o + 3] = c[3];
    const b = T.dirty;
    if (!b) T.dirty = [x, y, x + 1, y + 1];
    else {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x + 1);
      b[3] = Math.max(b[3], y + 1);
    }
  }

  // canStep tells whether the map allows a move from x,y by dx,dy: the
  // grid's rule of no corner cutting for diagonals.
  function canStep(x, y, dx, dy) {
    const { width, height } = S.map;
    const nx = x + dx, ny = y + dy;
    if (nx < 0 || ny < 0 || nx >= width || ny >= height || S.blocked(nx, ny)) return false;
    return dx === 0 || dy === 0 || (!S.blocked(x + dx, y) && !S.blocked(x, y + dy));
  }

  // advance shows n more expansions.
  function advance(n) {
    const d = T.data;
    if (!d) return;
    const total = d.cells.length / 2;
    const end = Math.min(total, T.i + n);
    const eight = d.connectivity === 8;
    for (; T.i < end; T.i++) {
      const x = d.cells[2 * T.i], y = d.cells[2 * T.i + 1];
      setCell(x, y, CLOSED, 2);
      if (d.jump) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (!eight && dx !== 0 && dy !== 0)) continue;
          if (!canStep(x, y, dx, dy)) continue;
          if (T.mark[(y + dy) * S.map.width + x + dx] === 0) setCell(x + dx, y + dy, OPEN, 1);
        }
      }
    }
    if (T.i === total) {
      // The server's open list, exact (for jump point search the only one).
      for (let k = 0; k < d.open.length; k += 2) {
        const x = d.open[k], y = d.open[k + 1];
        if (T.mark[y * S.map.width + x] !== 2) setCell(x, y, OPEN, 1);
      }
      pause();
    }
    flush();
    showCounter();
    S.draw();
  }

  function flush() {
    const b = T.dirty;
    if (!b) return;
    T.image.getContext("2d").putImageData(T.pixels, 0, 0, b[0], b[1], b[2] - b[0], b[3] - b[1]);
    T.dirty = null;
  }

  function showCounter() {
    const d = T.data;
    if (!d) {
      counterEl.textContent = "no search yet: click a start and a goal";
      infoEl.textContent = "";
      return;
    }
    const total = d.cells.length / 2;
    counterEl.textContent = `expansion ${T.i} / ${total}` + (T.i > 0 ? ` · g ${d.g[T.i - 1].toFixed(3)}` : "");
    counterEl.dataset.index = String(T.i);
    let info = `${d.algo}, ${d.heuristic}${d.weight > 1 ? ` × ${d.weight}` : ""}: ${d.status}`;
    if (d.cost != null) info += `, cost ${d.cost.toFixed(3)}, ${d.path.length / 2} cells`;
    info += `; ${d.open.length / 2} left open; ${d.micros.toFixed(0)} µs with recording`;
    if (d.truncated) info += `. Stopped at the limit of ${d.limit} expansions: no path shown.`;
    infoEl.textContent = info;
  }

  function tick(now) {
    if (!T.playing) return;
    const dt = T.last ? Math.min(0.25, (now - T.last) / 1000) : 1 / 60;
    T.last = now;
    T.acc += rate() * dt;
    const n = Math.min(MAX_PER_FRAME, Math.floor(T.acc));
    T.acc -= n;
    if (n > 0) {
      T.frames++;
      advance(n);
    }
    if (T.playing) requestAnimationFrame(tick);
  }

  function play() {
    if (!T.data) return;
    if (T.i >= T.data.cells.length / 2) clear();
    T.playing = true;
    T.last = 0;
    playEl.textContent = "Pause";
    requestAnimationFrame(tick);
  }

  function pause() {
    T.playing = false;
    playEl.textContent = "Play";
  }

  // layer draws the overlay, the current cell and the path.
  function layer(ctx, v) {
    if (S.mode !== "search" || !T.data || !T.image) return;
    const { width, height } = S.map;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(T.image, v.ox, v.oy, width * v.scale, height * v.scale);
    const d = T.data;
    const total = d.cells.length / 2;
    if (T.i === total && d.path.length >= 4) {
      ctx.strokeStyle = "#222";
      ctx.lineWidth = Math.max(1.5, Math.min(4, v.scale * 0.3));
      ctx.lineJoin = "round";
      ctx.beginPath();
      for (let k = 0; k < d.path.length; k += 2) {
        const x = v.ox + (d.path[k] + 0.5) * v.scale, y = v.oy + (d.path[k + 1] + 0.5) * v.scale;
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
    if (T.i > 0 && T.i <= total) {
      const x = d.cells[2 * T.i - 2], y = d.cells[2 * T.i - 1];
      const s = Math.max(v.scale, 4);
      ctx.fillStyle = "#d62728";
      ctx.fillRect(v.ox + (x + 0.5) * v.scale - s / 2, v.oy + (y + 0.5) * v.scale - s / 2, s, s);
    }
  }
  S.layers.push(layer);

  S.onEnds = () => {
    if (S.mode === "search") fetchTrace();
  };
  S.onEdit.push(() => {
    if (S.mode === "search") fetchTrace();
  });
  S.onMode.push((m) => {
    if (m === "search") {
      const d = T.data;
      const same = d && d.version === S.map.version && S.start && S.goal &&
        d.from[0] === S.start.x && d.from[1] === S.start.y && d.to[0] === S.goal.x && d.to[1] === S.goal.y;
      if (!same) fetchTrace();
      if (!S.start || !S.goal) S.setStatus("Search: click a start, then a goal");
    } else {
      pause();
    }
  });

  playEl.addEventListener("click", () => (T.playing ? pause() : play()));
  $("trace-step").addEventListener("click", () => {
    pause();
    if (T.data && T.i >= T.data.cells.length / 2) clear();
    advance(1);
  });
  $("trace-restart").addEventListener("click", () => {
    if (!T.data) return;
    clear();
    play();
  });
  $("trace-end").addEventListener("click", () => {
    if (!T.data) return;
    pause();
    advance(Infinity);
  });
  for (const el of [algoEl, hEl, wEl]) {
    el.addEventListener("change", () => {
      showControls();
      fetchTrace();
    });
  }
  wEl.addEventListener("input", showControls);
  speedEl.addEventListener("input", showControls);
  showControls();
  showCounter();
})();
