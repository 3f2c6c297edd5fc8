// The page of "pathfind serve": draws the map on a canvas, asks the server
// for the paths of every algorithm between two clicked cells, and sends wall
// edits. Plain JavaScript, no build step, nothing loaded from elsewhere.
//
// The view is exposed for tests and tools: the canvas carries data-scale
// (CSS pixels per cell), data-origin-x and data-origin-y (CSS pixels from
// the canvas's top-left corner to the corner of cell 0,0) and data-ready="1"
// once the map is drawn; window.lastRoute holds the latest route answer and
// window.cairn the page's state.
//
// The page has three modes: compare (the five searches' paths), search (one
// search played expansion by expansion: trace.js) and crowd (agents walking
// the map: crowd.js). Those scripts run after this one and plug in through
// window.cairn: layers (functions drawing over the map), onEnds (called when
// a start and a goal are set outside compare mode), onEdit and onMode
// (functions called after an edit or a reset, and on a change of mode), and
// the helpers api, draw, setStatus, blocked and reloadMap.
//
// A route result's path holds cells (whole numbers, drawn at their centres)
// or, when its world flag is set, waypoints in world coordinates (any
// numbers, drawn where they are: cell x,y covers [x, x+1) × [y, y+1)).
"use strict";

(() => {
  const FREE = [244, 241, 234];
  const WALL = [59, 58, 54];
  const MAX_SCALE = 64;
  // Paths are drawn widest first so that equal paths stay visible.
  const STYLE = {
    dijkstra: { width: 8, alpha: 0.45 },
    astar: { width: 4.5, alpha: 0.95 },
    hpa: { width: 3, alpha: 0.9 },
    "hpa-smooth": { width: 2, alpha: 1, dots: true },
    navmesh: { width: 2, alpha: 1, dots: true },
  };

  const canvas = document.getElementById("map");
  const ctx = canvas.getContext("2d");
  const stage = document.getElementById("stage");
  const statusEl = document.getElementById("status");
  const cursorEl = document.getElementById("cursor");
  const tbody = document.querySelector("#figures tbody");

  const state = {
    map: null, // {name, width, height, version, bits, algos}
    image: null, // offscreen canvas, one pixel per cell
    pixels: null, // its ImageData
    view: { scale: 1, ox: 0, oy: 0, w: 0, h: 0, dpr: 1 },
    fitted: true, // the view follows the stage's size until zoomed or panned
    start: null,
    goal: null,
    next: "start",
    route: null,
    hidden: new Set(),
    drag: null,
    mode: "compare", // or "search" or "crowd"
    layers: [],
    onEnds: null,
    onEdit: [],
    onMode: [],
    editsPending: 0,
  };
  window.cairn = state;
  window.lastRoute = null;

  let routeSeq = 0;
  let routeAbort = null;
  let edits = Promise.resolve();
  let drawQueued = false;

  // ---- server ----

  async function api(path, body, signal) {
    const opt = body === undefined ? { signal } : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    };
    const res = await fetch(path, opt);
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      throw new Error(`${path}: ${res.status} ${res.statusText}`);
    }
    if (!res.ok) {
      throw new Error(data && data.error ? data.error : `${path}: ${res.status}`);
    }
    return data;
  }

  async function loadMap(refit) {
    const m = await api("/api/map");
    const raw = atob(m.blocked);
    const bits = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bits[i] = raw.charCodeAt(i);
    state.map = { name: m.name, width: m.width, height: m.height, version: m.version, bits, algos: m.algos, clusterSize: m.clusterSize, levels: m.levels };
    const img = document.createElement("canvas");
    img.width = m.width;
    img.height = m.height;
    state.image = img;
    state.pixels = img.getContext("2d").createImageData(m.width, m.height);
    paint(0, 0, m.width, m.height);
    document.getElementById("mapname").textContent =
      `${m.name} · ${m.width}×${m.height} · HPA* clusters of ${m.clusterSize}, ${m.levels} level${m.levels === 1 ? "" : "s"}`;
    if (refit) state.fitted = true;
    resize();
    renderFigures(state.route);
    canvas.dataset.ready = "1";
  }

  function blocked(x, y) {
    const i = y * state.map.width + x;
    return (state.map.bits[i >> 3] >> (i & 7)) & 1;
  }

  function setBlocked(x, y, b) {
    const i = y * state.map.width + x;
    if (b) state.map.bits[i >> 3] |= 1 << (i & 7);
    else state.map.bits[i >> 3] &= ~(1 << (i & 7));
  }

  // paint copies the cells of [x0, x1) × [y0, y1) into the offscreen image.
  function paint(x0, y0, x1, y1) {
    const { width } = state.map;
    const d = state.pixels.data;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const c = blocked(x, y) ? WALL : FREE;
        const o = 4 * (y * width + x);
        d[o] = c[0];
        d[o + 1] = c[1];
        d[o + 2] = c[2];
        d[o + 3] = 255;
      }
    }
    state.image.getContext("2d").putImageData(state.pixels, 0, 0, x0, y0, x1 - x0, y1 - y0);
  }

  async function route() {
    if (!state.start || !state.goal) return;
    const seq = ++routeSeq;
    if (routeAbort) routeAbort.abort();
    routeAbort = new AbortController();
    const { start, goal } = state;
    setStatus(`Searching ${start.x},${start.y} → ${goal.x},${goal.y}…`);
    try {
      const r = await api("/api/route", { from: [start.x, start.y], to: [goal.x, goal.y] }, routeAbort.signal);
      if (seq !== routeSeq) return;
      state.route = r;
      window.lastRoute = r;
      const a = r.results.find((x) => x.algo === "astar");
      setStatus(a && a.status === "found"
        ? `${r.from.join(",")} → ${r.to.join(",")}: optimal length ${a.length.toFixed(3)} (map version ${r.version})`
        : `${r.from.join(",")} → ${r.to.join(",")}: no path (map version ${r.version})`);
    } catch (e) {
      if (e.name === "AbortError" || seq !== routeSeq) return;
      state.route = null;
      window.lastRoute = null;
      setStatus(e.message, true);
    }
    renderFigures(state.route);
    draw();
  }

  // edit sends one rectangle edit; edits run one after another.
  function edit(rect, makeBlocked) {
    state.editsPending++;
    edits = edits.then(async () => {
      setStatus(makeBlocked ? "Adding walls…" : "Clearing walls…");
      try {
        const before = state.map.version;
        const r = await api("/api/edit", { rect, blocked: makeBlocked });
        if (r.version === before + 1) {
          const [x0, y0, x1, y1] = r.rect;
          for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) setBlocked(x, y, makeBlocked);
          paint(x0, y0, x1, y1);
          state.map.version = r.version;
        } else if (r.version !== before) {
          await loadMap(false); // someone else edited too
        }
        setStatus(`${makeBlocked ? "Blocked" : "Freed"} ${r.changed} cell${r.changed === 1 ? "" : "s"}` +
          (r.changed ? ` in ${r.micros.toFixed(0)} µs (grid copy + HPA* update + navmesh rebuild, ${r.meshMicros.toFixed(0)} µs of it)` : "") +
          `; map version ${r.version}`);
        draw();
        if (r.changed) {
          for (const f of state.onEdit) f(r);
          if (state.mode === "compare") await route();
        }
      } catch (e) {
        setStatus(e.message, true);
      } finally {
        state.editsPending--;
      }
    });
  }

  async function resetMap() {
    state.editsPending++;
    try {
      const r = await api("/api/reset", {});
      await loadMap(false);
      setStatus("Map restored");
      for (const f of state.onEdit) f(r);
      if (state.mode === "compare") await route();
    } catch (e) {
      setStatus(e.message, true);
    } finally {
      state.editsPending--;
    }
  }

  // ---- view ----

  function resize() {
    const v = state.view;
    v.dpr = window.devicePixelRatio || 1;
    v.w = stage.clientWidth;
    v.h = stage.clientHeight;
    canvas.width = Math.max(1, Math.round(v.w * v.dpr));
    canvas.height = Math.max(1, Math.round(v.h * v.dpr));
    if (state.fitted) fit();
    expose();
    draw();
  }

  function fitScale() {
    const { map, view } = state;
    return Math.max(1e-3, Math.min((view.w - 16) / map.width, (view.h - 16) / map.height));
  }

  function fit() {
    if (!state.map) return;
    const v = state.view;
    v.scale = fitScale();
    v.ox = (v.w - state.map.width * v.scale) / 2;
    v.oy = (v.h - state.map.height * v.scale) / 2;
    state.fitted = true;
    expose();
  }

  function zoomAt(px, py, factor) {
    const v = state.view;
    const s = Math.min(MAX_SCALE, Math.max(fitScale() / 2, v.scale * factor));
    const cx = (px - v.ox) / v.scale;
    const cy = (py - v.oy) / v.scale;
    v.scale = s;
    v.ox = px - cx * s;
    v.oy = py - cy * s;
    state.fitted = false;
    expose();
    draw();
  }

  function expose() {
    const v = state.view;
    canvas.dataset.scale = String(v.scale);
    canvas.dataset.originX = String(v.ox);
    canvas.dataset.originY = String(v.oy);
  }

  // cellToClient returns the viewport coordinates of the centre of cell x,y.
  state.cellToClient = (x, y) => {
    const r = canvas.getBoundingClientRect();
    const v = state.view;
    return { x: r.left + v.ox + (x + 0.5) * v.scale, y: r.top + v.oy + (y + 0.5) * v.scale };
  };

  // cellAt returns the cell under a pointer event, or null outside the map
  // (or the nearest cell when clamp is set).
  function cellAt(e, clamp) {
    const r = canvas.getBoundingClientRect();
    const v = state.view;
    let x = Math.floor((e.clientX - r.left - v.ox) / v.scale);
    let y = Math.floor((e.clientY - r.top - v.oy) / v.scale);
    const { width, height } = state.map;
    if (clamp) {
      x = Math.min(width - 1, Math.max(0, x));
      y = Math.min(height - 1, Math.max(0, y));
    } else if (x < 0 || y < 0 || x >= width || y >= height) {
      return null;
    }
    return { x, y };
  }

  // ---- drawing ----

  function draw() {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      render();
    });
  }

  function render() {
    const v = state.view;
    ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
    ctx.fillStyle = "#d8d6d0";
    ctx.fillRect(0, 0, v.w, v.h);
    if (!state.map) return;
    const { width, height } = state.map;
    ctx.imageSmoothingEnabled = v.scale < 1;
    ctx.drawImage(state.image, v.ox, v.oy, width * v.scale, height * v.scale);
    if (v.scale >= 8) drawGridLines();
    if (state.route && state.mode === "compare") drawPaths(state.route);
    for (const layer of state.layers) layer(ctx, v);
    if (state.mode !== "crowd") {
      drawEnd(state.start, false);
      drawEnd(state.goal, true);
    }
    const d = state.drag;
    if (d && d.kind === "rect") {
      const x0 = Math.min(d.a.x, d.b.x), y0 = Math.min(d.a.y, d.b.y);
      const x1 = Math.max(d.a.x, d.b.x) + 1, y1 = Math.max(d.a.y, d.b.y) + 1;
      ctx.fillStyle = d.blocked ? "rgba(40, 40, 40, 0.55)" : "rgba(255, 255, 255, 0.6)";
      ctx.strokeStyle = d.blocked ? "#000" : "#c00";
      ctx.lineWidth = 1.5;
      const px = v.ox + x0 * v.scale, py = v.oy + y0 * v.scale;
      ctx.fillRect(px, py, (x1 - x0) * v.scale, (y1 - y0) * v.scale);
      ctx.strokeRect(px, py, (x1 - x0) * v.scale, (y1 - y0) * v.scale);
    }
  }

  function drawGridLines() {
    const v = state.view;
    const { width, height } = state.map;
    const x0 = Math.max(0, Math.floor(-v.ox / v.scale)), x1 = Math.min(width, Math.ceil((v.w - v.ox) / v.scale));
    const y0 = Math.max(0, Math.floor(-v.oy / v.scale)), y1 = Math.min(height, Math.ceil((v.h - v.oy) / v.scale));
    ctx.strokeStyle = "rgba(0, 0, 0, 0.08)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = x0; x <= x1; x++) {
      const px = Math.round(v.ox + x * v.scale) + 0.5;
      ctx.moveTo(px, v.oy + y0 * v.scale);
      ctx.lineTo(px, v.oy + y1 * v.scale);
    }
    for (let y = y0; y <= y1; y++) {
      const py = Math.round(v.oy + y * v.scale) + 0.5;
      ctx.moveTo(v.ox + x0 * v.scale, py);
      ctx.lineTo(v.ox + x1 * v.scale, py);
    }
    ctx.stroke();
  }

  function drawPaths(r) {
    const v = state.view;
    const k = Math.min(1.5, Math.max(0.5, v.scale / 8));
    const colour = {};
    for (const a of state.map.algos) colour[a.id] = a.colour;
    const rs = r.results.filter((x) => x.path.length >= 2 && !state.hidden.has(x.algo));
    const width = (id) => (STYLE[id] || { width: 2 }).width;
    rs.sort((a, b) => width(b.algo) - width(a.algo));
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    for (const res of rs) {
      const st = STYLE[res.algo] || { width: 2, alpha: 1 };
      const p = res.path;
      // Cells are drawn at their centres, world points where they are.
      const off = res.world ? 0 : 0.5;
      const px = (i) => v.ox + (p[i] + off) * v.scale;
      const py = (i) => v.oy + (p[i + 1] + off) * v.scale;
      ctx.globalAlpha = st.alpha;
      ctx.strokeStyle = colour[res.algo] || "#000";
      ctx.lineWidth = st.width * k;
      ctx.beginPath();
      for (let i = 0; i < p.length; i += 2) {
        if (i === 0) ctx.moveTo(px(i), py(i));
        else ctx.lineTo(px(i), py(i));
      }
      ctx.stroke();
      if (st.dots) {
        ctx.fillStyle = ctx.strokeStyle;
        for (let i = 0; i < p.length; i += 2) {
          ctx.beginPath();
          ctx.arc(px(i), py(i), 2.5 * k + 1, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
    }
    ctx.globalAlpha = 1;
  }

  function drawEnd(c, isGoal) {
    if (!c) return;
    const v = state.view;
    const x = v.ox + (c.x + 0.5) * v.scale, y = v.oy + (c.y + 0.5) * v.scale;
    const rad = Math.max(5, Math.min(14, v.scale * 0.45));
    ctx.beginPath();
    ctx.arc(x, y, rad, 0, 2 * Math.PI);
    ctx.fillStyle = isGoal ? "#111" : "#fff";
    ctx.strokeStyle = isGoal ? "#fff" : "#111";
    ctx.lineWidth = 2;
    ctx.fill();
    ctx.stroke();
    if (rad >= 8) {
      ctx.fillStyle = isGoal ? "#fff" : "#111";
      ctx.font = `bold ${Math.round(rad * 1.1)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(isGoal ? "G" : "S", x, y + 0.5);
    }
  }

  // ---- figures ----

  function renderFigures(r) {
    if (!state.map) return;
    tbody.textContent = "";
    for (const a of state.map.algos) {
      const res = r ? r.results.find((x) => x.algo === a.id) : null;
      const tr = document.createElement("tr");
      tr.id = `row-${a.id}`;
      tr.dataset.algo = a.id;
      const sw = document.createElement("td");
      sw.className = "swatch";
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = !state.hidden.has(a.id);
      box.title = "show this path";
      box.addEventListener("change", () => {
        if (box.checked) state.hidden.delete(a.id);
        else state.hidden.add(a.id);
        draw();
      });
      const chip = document.createElement("span");
      chip.style.background = a.colour;
      label.append(box, chip);
      sw.append(label);
      tr.append(sw);
      const found = res && res.status === "found";
      const cells = [
        a.label,
        res ? res.status : "—",
        found ? res.length.toFixed(3) : "—",
        res ? String(res.expanded) : "—",
        res ? res.micros.toFixed(1) : "—",
        found ? String(res.path.length / 2) : "—",
      ];
      cells.forEach((text, i) => {
        const td = document.createElement("td");
        td.textContent = text;
        if (i >= 2) td.className = "num";
        td.dataset.field = ["label", "status", "length", "expanded", "micros", "points"][i];
        tr.append(td);
      });
      tbody.append(tr);
    }
  }

  function setStatus(msg, isError) {
    statusEl.textContent = msg;
    statusEl.classList.toggle("error", !!isError);
  }

  // ---- input ----

  function tool() {
    return document.querySelector('input[name="tool"]:checked').value;
  }

  function placeEnd(c) {
    if (blocked(c.x, c.y)) {
      setStatus(`${c.x},${c.y} is a wall: pick a free cell`, true);
      return;
    }
    if (state.next === "start") {
      state.start = c;
      state.next = "goal";
    } else {
      state.goal = c;
      state.next = "start";
    }
    draw();
    if (!state.start || !state.goal) setStatus(`Start ${c.x},${c.y}: now click a goal`);
    else if (state.mode === "compare") route();
    else if (state.onEnds) state.onEnds();
  }

  canvas.addEventListener("pointerdown", (e) => {
    if (!state.map || state.drag) return;
    canvas.setPointerCapture(e.pointerId);
    const t = tool();
    if (e.button === 0 && t !== "route" && cellAt(e, false)) {
      const c = cellAt(e, false);
      state.drag = { kind: "rect", a: c, b: c, blocked: t === "wall", id: e.pointerId };
    } else {
      const v = state.view;
      state.drag = { kind: "pan", x0: e.clientX, y0: e.clientY, ox: v.ox, oy: v.oy, moved: false, click: e.button === 0, id: e.pointerId };
    }
    draw();
  });

  canvas.addEventListener("pointermove", (e) => {
    if (!state.map) return;
    const c = cellAt(e, false);
    cursorEl.textContent = c
      ? `cell ${c.x},${c.y} · ${blocked(c.x, c.y) ? "wall" : "free"} · ${state.view.scale.toFixed(2)} px/cell`
      : "";
    const d = state.drag;
    if (!d || d.id !== e.pointerId) return;
    if (d.kind === "pan") {
      const dx = e.clientX - d.x0, dy = e.clientY - d.y0;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) > 4) {
        d.moved = true;
        canvas.classList.add("panning");
      }
      if (d.moved) {
        state.view.ox = d.ox + dx;
        state.view.oy = d.oy + dy;
        state.fitted = false;
        expose();
        draw();
      }
    } else {
      d.b = cellAt(e, true);
      draw();
    }
  });

  canvas.addEventListener("pointerup", (e) => {
    const d = state.drag;
    if (!d || d.id !== e.pointerId) return;
    state.drag = null;
    canvas.classList.remove("panning");
    if (d.kind === "rect") {
      const rect = [Math.min(d.a.x, d.b.x), Math.min(d.a.y, d.b.y), Math.max(d.a.x, d.b.x) + 1, Math.max(d.a.y, d.b.y) + 1];
      edit(rect, d.blocked);
    } else if (!d.moved && d.click && tool() === "route") {
      const c = cellAt(e, false);
      if (c) placeEnd(c);
    }
    draw();
  });

  canvas.addEventListener("pointercancel", () => {
    state.drag = null;
    canvas.classList.remove("panning");
    draw();
  });

  canvas.addEventListener("contextmenu", (e) => e.preventDefault());

  canvas.addEventListener("wheel", (e) => {
    if (!state.map) return;
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-dy * 0.0015));
  }, { passive: false });

  document.getElementById("fit").addEventListener("click", () => {
    fit();
    draw();
  });
  document.getElementById("reset").addEventListener("click", resetMap);

  // setMode shows the panel of mode m and tells the other scripts.
  function setMode(m) {
    state.mode = m;
    document.body.dataset.mode = m;
    for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== m;
    for (const f of state.onMode) f(m);
    if (m === "compare") route();
    draw();
  }
  for (const r of document.querySelectorAll('input[name="mode"]')) {
    r.addEventListener("change", () => { if (r.checked) setMode(r.value); });
  }
  Object.assign(state, { api, draw, setStatus, blocked, setMode, reloadMap: () => loadMap(false) });
  new ResizeObserver(resize).observe(stage);

  loadMap(true).then(
    () => setStatus("Click a start cell, then a goal"),
    (e) => setStatus(`Cannot load the map: ${e.message}`, true),
  );
})();
