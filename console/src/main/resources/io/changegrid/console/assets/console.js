// The console's page: polls GET /api/grid every two seconds and renders it; control buttons POST to
// /api/groups/... No library: the page is small enough to write by hand, and nothing is fetched
// from outside the console.
"use strict";

const POLL_MILLIS = 2000;
const TOKEN_KEY = "changegrid.console.token";
let lastState = null;

// A secured console wants a bearer token on every API request (or a client certificate, which the
// browser shows by itself); the token is kept for this tab only.
function authorized(options = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? {...options, headers: {Authorization: "Bearer " + token}} : options;
}

function askForToken(show) {
  document.getElementById("login").hidden = !show;
}

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g,
      c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function num(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return Number(value).toLocaleString("en-US", {maximumFractionDigits: digits, minimumFractionDigits: digits});
}

function lag(ms) {
  if (ms === null || ms === undefined || ms < 0) return "–";
  return ms < 10000 ? num(ms) + " ms" : num(ms / 1000, 1) + " s";
}

function bytes(value) {
  if (value === null || value === undefined || value < 0) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (value >= 1024 && i < units.length - 1) { value /= 1024; i++; }
  return num(value, i === 0 ? 0 : 1) + " " + units[i];
}

// A small line chart as inline SVG: points are [millis, value] pairs, oldest first.
function chart(label, points, format) {
  const latest = points.length ? format(points[points.length - 1][1]) : "–";
  let line = "";
  if (points.length > 1) {
    const t0 = points[0][0], t1 = points[points.length - 1][0];
    const max = Math.max(...points.map(p => p[1]), 1e-9);
    line = points.map(p => ((p[0] - t0) / Math.max(t1 - t0, 1) * 100).toFixed(2) + "," +
        (38 - p[1] / max * 36).toFixed(2)).join(" ");
  }
  return `<div class="chart"><div class="label">${esc(label)}: <b>${esc(latest)}</b></div>
    <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label="${esc(label)}">
    <polyline points="${line}"/></svg></div>`;
}

function relayCard(relay) {
  const s = relay.status;
  const split = relay.partition >= 0 ? `partition ${relay.partition} of ${relay.partitions}` : "all partitions";
  const tables = relay.include.length ? relay.include.join(", ") : "all tables";
  if (!s) {
    return `<div class="card relay" data-relay="${esc(relay.endpoint)}">
      <h3>${esc(relay.endpoint)}</h3><span class="state unreachable">unreachable</span>
      <p class="error">${esc(relay.error)}</p></div>`;
  }
  const fill = s.buffer.capacity > 0 ? s.buffer.bytesUsed / s.buffer.capacity * 100 : 0;
  return `<div class="card relay" data-relay="${esc(relay.endpoint)}">
    <h3>${esc(relay.endpoint)}</h3>
    <dl>
      <dt>source</dt><dd>${esc(s.source.id)} · ${esc(s.source.address)}</dd>
      <dt>captures</dt><dd>${esc(tables)} · ${esc(split)}</dd>
      <dt>fetch</dt><dd><span class="state ${esc(s.fetch.state)}" data-field="fetch-state">${esc(s.fetch.state)}</span></dd>
      <dt>position</dt><dd>${esc(s.fetch.position)}</dd>
      <dt>lag</dt><dd data-field="relay-lag">${lag(s.fetch.lagMillis)} · ${num(s.fetch.lagScn)} SCN</dd>
      <dt>lag clock</dt><dd data-field="lag-clock">${esc(s.fetch.lagClock ?? "–")}</dd>
      <dt>buffer SCNs</dt><dd>${num(s.buffer.oldestScn)} … ${num(s.buffer.newestScn)}</dd>
      <dt>buffer fill</dt><dd>${bytes(s.buffer.bytesUsed)} of ${bytes(s.buffer.capacity)} (${num(fill, 1)} %)
        <div class="fill"><span style="width:${Math.min(fill, 100).toFixed(1)}%"></span></div></dd>
    </dl>
    ${s.fetch.error ? `<p class="error">last error: ${esc(s.fetch.error)}</p>` : ""}
    <div class="charts">
      ${chart("events/s", relay.eventsPerSecond, v => num(v, 1))}
      ${chart("MB/s", relay.bytesPerSecond.map(p => [p[0], p[1] / 1e6]), v => num(v, 3))}
    </div></div>`;
}

function groupState(group) {
  const report = group.report;
  if (!report) return "unreachable";
  if (group.control.paused) return "paused";
  const states = report.partitionStates || [];
  if (states.some(p => p.state === "FAILED" || p.state === "FENCED")) return "failed";
  if (!report.assigning || states.some(p => !p.owner)) return "rebalancing";
  if (states.length && states.every(p => p.state === "PAUSED")) return "paused";
  return "running";
}

// A running snapshot: the table being copied, the checkpointed cursor, the rows handed over.
function snapshotProgress(snapshot, asked) {
  if (!snapshot) return asked ? '<div class="muted" data-field="snapshot">re-seed asked</div>' : "";
  const table = snapshot.table ? esc(snapshot.database + "." + snapshot.table) : "starting";
  return `<div class="snapshot" data-field="snapshot" title="${esc(snapshot.cursor)}">snapshot: ${table}
    · ${num(snapshot.rowsDelivered)} rows</div>`;
}

function partitionRow(group, p) {
  const paused = group.control.paused || group.control.pausedPartitions.includes(p.partition);
  const reset = group.control.resets[String(p.partition)];
  const reseeding = (group.control.reseeds || []).includes(p.partition);
  const g = esc(group.group);
  return `<tr data-partition="${p.partition}">
    <td>${p.partition}</td>
    <td>${esc(p.owner ?? "–")}</td>
    <td><span class="state ${esc(p.state ?? "")}" data-field="partition-state">${esc(p.state ?? "–")}</span></td>
    <td data-field="checkpoint">${num(p.checkpointScn)}${reset !== undefined ? ` → ${num(reset)} (asked)` : ""}
      ${snapshotProgress(p.snapshot, reseeding)}</td>
    <td data-field="lag">${lag(p.lagMillis)}</td>
    <td data-field="delivered">${num(p.eventsDelivered)}</td>
    <td>${esc(p.epoch ?? "–")}</td>
    <td><div class="controls">
      ${paused
        ? `<button data-action="resume-partition" data-group="${g}" data-partition="${p.partition}">resume</button>`
        : `<button data-action="pause-partition" data-group="${g}" data-partition="${p.partition}">pause</button>`}
      <input type="number" id="scn-${g}-${p.partition}" placeholder="SCN" min="-1" aria-label="checkpoint SCN">
      <button data-action="reset-partition" data-group="${g}" data-partition="${p.partition}">reset</button>
      <button data-action="reseed-partition" data-group="${g}" data-partition="${p.partition}"
              title="a snapshot of the subscription at the checkpoint; an applier empties each table where its copy begins">re-seed</button>
    </div></td></tr>`;
}

function groupCard(group) {
  const g = esc(group.group);
  const state = groupState(group);
  if (!group.report) {
    return `<div class="card group" data-group="${g}"><h3>${g}</h3>
      <span class="state unreachable">unreachable</span><p class="error">${esc(group.error)}</p></div>`;
  }
  const r = group.report;
  const members = (r.members || []).map(m => `<li>${esc(m.instance)} · ${m.owned} owned
      ${m.statusUrl ? `· <span class="muted">${esc(m.statusUrl)}</span>` : ""}</li>`).join("");
  return `<div class="card group" data-group="${g}">
    <h3>${g}</h3>
    <div class="controls">
      <span class="state ${state}" data-field="group-state">${state}</span>
      <span class="muted">${r.partitions} partitions · leader ${esc(r.leader ?? "none")}</span>
      ${group.control.paused
        ? `<button data-action="resume-group" data-group="${g}">resume group</button>`
        : `<button data-action="pause-group" data-group="${g}">pause group</button>`}
    </div>
    <div class="muted">members</div><ul class="members">${members || "<li>none</li>"}</ul>
    <div class="charts">${chart("largest partition lag", group.lag, lag)}</div>
    <div class="table-wrap"><table>
      <thead><tr><th>partition</th><th>owner</th><th>state</th><th>checkpoint</th><th>lag</th>
        <th>delivered</th><th>epoch</th><th>control</th></tr></thead>
      <tbody>${(r.partitionStates || []).map(p => partitionRow(group, p)).join("")}</tbody>
    </table></div></div>`;
}

// One card per applier: a partition whose owner applies into a target.
function applierCard(a) {
  return `<div class="card applier" data-applier="${esc(a.group)}/${a.partition}">
    <h3>${esc(a.group)} · partition ${a.partition}</h3>
    <dl>
      <dt>owner</dt><dd>${esc(a.owner)} · <span class="state ${esc(a.state ?? "")}">${esc(a.state ?? "–")}</span></dd>
      <dt>target</dt><dd data-field="target">${esc(a.target)}</dd>
      <dt>lanes</dt><dd data-field="lanes">${num(a.lanes)}</dd>
      <dt>rows</dt><dd data-field="rows">${num(a.rowsApplied)}</dd>
      <dt>commits</dt><dd data-field="commits">${num(a.commits)} · ${num(a.transactionsApplied)} transactions</dd>
    </dl>
    ${a.lastError ? `<p class="error" data-field="last-error">last error: ${esc(a.lastError)}</p>` : ""}
    <div class="charts">
      ${chart("rows/s", a.rowsPerSecond, v => num(v, 1))}
      ${chart("commits/s", a.commitsPerSecond, v => num(v, 1))}
    </div></div>`;
}

// sources → relays (and their split) → groups pulling from them → members
function topology(state) {
  const sources = new Map();
  for (const relay of state.relays) {
    if (!sources.has(relay.sourceId)) sources.set(relay.sourceId, []);
    sources.get(relay.sourceId).push(relay);
  }
  const flows = [];
  for (const [source, relays] of sources) {
    const endpoints = new Set(relays.map(r => r.endpoint.replace(/\/$/, "")));
    const groups = state.groups.filter(g => g.report && (g.report.partitionStates || [])
        .some(p => p.relay && endpoints.has(p.relay.replace(/\/$/, ""))));
    const members = [...new Set(groups.flatMap(g => (g.report.members || []).map(m => g.group + " / " + m.instance)))];
    const address = relays.find(r => r.status)?.status.source.address ?? "";
    flows.push(`<div class="flow" data-source="${source}">
      <div class="stage"><div class="node">source ${source}<br><span class="muted">${esc(address)}</span></div></div>
      <span class="arrow">→</span>
      <div class="stage">${relays.map(r => `<div class="node">${esc(r.endpoint)}<br><span class="muted">${
          r.partition >= 0 ? "partition " + r.partition + "/" + r.partitions : "all partitions"}</span></div>`).join("")}</div>
      <span class="arrow">→</span>
      <div class="stage">${groups.map(g => `<div class="node">group ${esc(g.group)}</div>`).join("") || '<div class="node muted">no group</div>'}</div>
      <span class="arrow">→</span>
      <div class="stage">${members.map(m => `<div class="node">${esc(m)}</div>`).join("") || '<div class="node muted">no member</div>'}</div>
    </div>`);
  }
  const idle = state.groups.filter(g => !g.report || !(g.report.partitionStates || []).some(p => p.relay));
  for (const g of idle) {
    flows.push(`<div class="flow"><div class="stage"><div class="node">group ${esc(g.group)}</div></div>
      <span class="arrow">→</span><div class="stage">${(g.report?.members || [])
        .map(m => `<div class="node">${esc(m.instance)}</div>`).join("") || '<div class="node muted">no member</div>'}</div>
      <span class="muted">pulling from no relay yet</span></div>`);
  }
  return `<div class="topology">${flows.join("") || '<p class="muted">no relay registered, no group set up</p>'}</div>`;
}

// Re-rendering replaces the DOM: typed SCNs and the focus are kept across it.
function render(state) {
  const typed = {};
  document.querySelectorAll("input[id]").forEach(i => { if (i.value) typed[i.id] = i.value; });
  const focused = document.activeElement && document.activeElement.id;
  document.getElementById("sampled").textContent =
      "zookeeper " + state.zookeeper + " · sampled " + new Date(state.sampledAt).toLocaleTimeString();
  document.getElementById("topology-body").innerHTML = topology(state);
  document.getElementById("relays-body").innerHTML =
      state.relays.map(relayCard).join("") || '<p class="muted">no relay registered</p>';
  document.getElementById("groups-body").innerHTML =
      state.groups.map(groupCard).join("") || '<p class="muted">no consumer group set up</p>';
  document.getElementById("appliers-body").innerHTML =
      (state.appliers || []).map(applierCard).join("") || '<p class="muted">no applier running</p>';
  for (const [id, value] of Object.entries(typed)) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
  if (state.error) notice(state.error, false);
}

function notice(message, ok) {
  const box = document.getElementById("notice");
  box.textContent = message;
  box.className = ok ? "ok" : "";
}

async function poll() {
  try {
    const response = await fetch("/api/grid", authorized({cache: "no-store"}));
    askForToken(response.status === 401);
    if (!response.ok) throw new Error((await response.json()).error || response.statusText);
    lastState = await response.json();
    render(lastState);
  } catch (e) {
    notice("console not answering: " + e.message, false);
  } finally {
    setTimeout(poll, POLL_MILLIS);
  }
}

async function control(button) {
  const group = encodeURIComponent(button.dataset.group);
  const partition = button.dataset.partition;
  const action = button.dataset.action;
  let path = "/api/groups/" + group;
  if (action.endsWith("-group")) {
    path += "/" + action.replace("-group", "");
  } else {
    path += "/partitions/" + partition + "/" + action.replace("-partition", "");
  }
  if (action === "reset-partition") {
    const input = document.getElementById("scn-" + button.dataset.group + "-" + partition);
    if (!input || input.value === "") { notice("type the SCN to reset to first", false); return; }
    path += "?scn=" + encodeURIComponent(input.value);
    input.value = "";
  }
  const response = await fetch(path, authorized({method: "POST"}));
  const body = await response.json();
  notice(response.ok ? action.replace("-", " ") + " asked (control version " + body.version + ")"
                     : body.error, response.ok);
}

document.getElementById("login").addEventListener("submit", event => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, document.getElementById("token").value.trim());
  document.getElementById("token").value = "";
  askForToken(false);
});
document.addEventListener("click", event => {
  const button = event.target.closest("button[data-action]");
  if (button) control(button);
});
poll();
