// Crowd mode of the page of "pathfind serve": starts a crowd on the server
// (POST /api/crowd/start), steps it about 20 times a second (POST
// /api/crowd/step, one frame each, one request at a time) and draws each
// agent as a dot with a short line toward the point it steers for. Walls
// drawn meanwhile go through the page's usual edit, which the server applies
// to the crowd too.
//
// window.cairn.crowd holds the latest answer (data), running, and steps (the
// answers drawn since the start), for tests and tools.
"use strict";

(() => {
  const S = window.cairn;
  const $ = (id) => document.getElementById(id);
  const PERIOD = 50; // ms between steps: 20 a second
  const C = { data: null, running: false, steps: 0, timer: 0, busy: false, reloading: false };
  S.crowd = C;

  const startEl = $("crowd-start"), pauseEl = $("crowd-pause"), stopEl = $("crowd-stop");
  const speedEl = $("crowd-speed"), infoEl = $("crowd-info");

  function show(d) {
    C.data = d;
    infoEl.textContent = `frame ${d.frame} · ${d.agents} agents · ${d.arrivals} arrivals · ` +
      `${d.mended} paths mended and ${d.replans} searched again after edits · ${d.relocated} walled in and moved · ` +
      `${d.noPath} without a path · ${d.waiting} requests waiting · ${d.micros.toFixed(0)} µs a step (map version ${d.version})`;
    if (d.version > S.map.version && S.editsPending === 0 && !C.reloading) {
      // Another page edited the map: show its walls.
      C.reloading = true;
      S.reloadMap().catch((e) => S.setStatus(e.message, true)).finally(() => { C.reloading = false; });
    }
    S.draw();
  }

  async function start() {
    const n = Number($("crowd-agents").value);
    pause();
    try {
      const d = await S.api("/api/crowd/start", { agents: n, speed: Number(speedEl.value), seed: Math.floor(Math.random() * 1e9) });
      C.steps = 0;
      show(d);
      S.setStatus(`Crowd of ${d.agents} started`);
      stopEl.disabled = false;
      pauseEl.disabled = false;
      resume();
    } catch (e) {
      S.setStatus(e.message, true);
    }
  }

  // step asks for one frame, draws it and schedules the next; it stops the
  // loop when the server has no crowd (another page stopped it).
  async function step() {
    C.timer = 0;
    if (!C.running || C.busy) return;
    C.busy = true;
    const t0 = performance.now();
    try {
      const d = await S.api("/api/crowd/step", { frames: 1 });
      C.steps++;
      if (C.running) show(d);
    } catch (e) {
      S.setStatus(e.message, true);
      if (/no crowd/.test(e.message)) {
        pause();
        pauseEl.disabled = true;
        stopEl.disabled = true;
      }
    } finally {
      C.busy = false;
    }
    if (C.running && !C.timer) C.timer = setTimeout(step, Math.max(0, PERIOD - (performance.now() - t0)));
  }

  function resume() {
    C.running = true;
    pauseEl.textContent = "Pause";
    if (!C.timer && !C.busy) step();
  }

  function pause() {
    C.running = false;
    pauseEl.textContent = "Resume";
    if (C.timer) clearTimeout(C.timer);
    C.timer = 0;
  }

  async function stop() {
    pause();
    try {
      await S.api("/api/crowd/stop", {});
      C.data = null;
      infoEl.textContent = "Crowd stopped.";
      pauseEl.disabled = true;
      stopEl.disabled = true;
      S.draw();
    } catch (e) {
      S.setStatus(e.message, true);
    }
  }

  function layer(ctx, v) {
    const d = C.data;
    if (S.mode !== "crowd" || !d) return;
    const r = Math.max(1.5, Math.min(5, v.scale * 0.3));
    const reach = Math.max(3 * r, v.scale * 1.2); // the line's longest, in pixels
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(1, r * 0.5);
    ctx.strokeStyle = "rgba(30, 30, 30, 0.7)";
    ctx.beginPath();
    for (let k = 0; k < d.pos.length; k += 2) {
      const x = v.ox + d.pos[k] * v.scale, y = v.oy + d.pos[k + 1] * v.scale;
      let dx = (d.target[k] - d.pos[k]) * v.scale, dy = (d.target[k + 1] - d.pos[k + 1]) * v.scale;
      const l = Math.hypot(dx, dy);
      if (l < 0.5) continue;
      if (l > reach) {
        dx *= reach / l;
        dy *= reach / l;
      }
      ctx.moveTo(x, y);
      ctx.lineTo(x + dx, y + dy);
    }
    ctx.stroke();
    ctx.fillStyle = "#e6550d";
    ctx.beginPath();
    for (let k = 0; k < d.pos.length; k += 2) {
      const x = v.ox + d.pos[k] * v.scale, y = v.oy + d.pos[k + 1] * v.scale;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fill();
  }
  S.layers.push(layer);

  S.onMode.push((m) => {
    if (m !== "crowd") pause();
    else if (C.data) resume();
    else S.setStatus("Crowd: press Start");
  });

  startEl.addEventListener("click", start);
  pauseEl.addEventListener("click", () => (C.running ? pause() : resume()));
  stopEl.addEventListener("click", stop);
  speedEl.addEventListener("input", () => { $("crowd-speed-value").textContent = speedEl.value; });
})();
