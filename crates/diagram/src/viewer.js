// The viewer of one game: shows the step the buttons, the keys, the move
// list or the evaluation graph ask for, by setting the texts, classes and
// dots of the one board drawing. Every value shown comes from the steps
// the page carries.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mancala-data").textContent);
  var steps = data.steps;
  var lines = data.lines;
  var at = 0;
  var MARKS = { "^": "lifted", "*": "last", "x": "captured" };

  function byId(id) { return document.getElementById(id); }

  // Steps leave out what did not change since the step before: carry it
  // over. Each line's steps, in order, and where each step stands in its
  // line; the variations of each step.
  var carried = ["title", "stores", "players", "legend"];
  lines.forEach(function (line) { line.steps = []; });
  var children = {};
  lines.forEach(function (line, id) {
    if (id === 0) return;
    (children[line.from] = children[line.from] || []).push(id);
  });
  steps.forEach(function (step, i) {
    if (i > 0) carried.forEach(function (key) {
      if (!(key in step)) step[key] = steps[i - 1][key];
    });
    if (step.lap === undefined) step.lap = null;
    step.line = step.line || 0;
    step.heading = step.heading || [];
    step.notes = step.notes || [];
    step.path = step.path || "";
    step.marks = step.marks || "";
    step.pos = lines[step.line].steps.length;
    lines[step.line].steps.push(i);
  });
  // Each step's move list button: its own, or for a lap its ply's.
  var buttons = [];
  var list = document.querySelectorAll("#moves [data-step]");
  for (var b = 0; b < list.length; b++) buttons[Number(list[b].getAttribute("data-step"))] = list[b];
  function buttonOf(i) {
    var own = lines[steps[i].line].steps;
    for (var k = steps[i].pos; k < own.length; k++) {
      var j = own[k];
      if (buttons[j]) return buttons[j];
      if (k > steps[i].pos && steps[j].lap === null) break;
    }
    return null;
  }

  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function isPlyLevel(i) { return steps[i].lap === null; }

  var current = null;
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[at];
    data.holes.forEach(function (label, k) {
      var group = byId("hole-" + label);
      var seeds = step.counts[k];
      var mark = step.marks.charAt(k);
      var classes = seeds === null ? "hole closed" : MARKS[mark] ? "hole " + MARKS[mark] : "hole";
      group.setAttribute("class", classes);
      setText(group.querySelector(".n"), seeds === null ? "" : String(seeds));
      setText(group.querySelector(".mark"), seeds !== null && MARKS[mark] ? mark : "");
      var ends = "";
      (step.ends || []).forEach(function (e) { if (e[0] === k) ends = e[1]; });
      setText(group.querySelector(".lap-ends"), ends);
      var n = seeds === null ? 0 : seeds;
      var holder = group.querySelector(".dots");
      if (holder.getAttribute("data-seeds") !== String(n)) {
        holder.innerHTML = n < data.dots.length ? data.dots[n] : "";
        holder.setAttribute("data-seeds", String(n));
      }
    });
    ["south", "north"].forEach(function (side, k) {
      var store = byId("store-" + side);
      if (store) setText(store.querySelector("text"), String(step.stores[k]));
      var player = byId("player-" + side);
      var turn = step.players[k][1];
      player.setAttribute("class", turn ? "player mover" : "player");
      setText(player.querySelector(".facts"), step.players[k][0]);
      setText(player.querySelector(".turn"), turn ? "\u25c0 " + turn : "");
    });
    byId("lap-path").setAttribute("d", step.path);
    setText(byId("board-title"), step.title);
    var heading = byId("lines");
    heading.textContent = "";
    step.heading.concat(step.notes.map(function (n) { return "{" + n + "}"; }))
      .forEach(function (line, k) {
        var p = document.createElement("p");
        p.textContent = line;
        if (k >= step.heading.length) p.className = "comment";
        heading.appendChild(p);
      });
    setText(byId("legend"), step.legend);
    var where = step.ply === 0 ? "start" : "ply " + step.ply + " of " + data.plies;
    if (step.line !== 0) where = "variation " + lines[step.line].name + ", ply " + step.ply;
    if (step.lap !== null) where += ", lap " + step.lap + " of " + step.laps;
    var more = children[at] ? " \u2014 v: " + (children[at].length === 1 ? "a variation" : children[at].length + " variations") : "";
    setText(byId("where"), where + "  (step " + (at + 1) + " of " + steps.length + ")" + more);
    if (current) current.removeAttribute("aria-current");
    current = buttonOf(at);
    if (current) {
      current.setAttribute("aria-current", "step");
      if (current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    }
    drawCursor();
  }

  // Moves within the line of the step shown.
  function lineStep(offset, plyLevel) {
    var own = lines[steps[at].line].steps;
    for (var k = steps[at].pos + offset; k >= 0 && k < own.length; k += offset) {
      if (!plyLevel || isPlyLevel(own[k])) return show(own[k]);
    }
    // Back past a variation's first ply: the position it branches from.
    if (offset < 0 && steps[at].line !== 0) return show(lines[steps[at].line].back);
    if (offset > 0) return show(own[own.length - 1]);
  }
  function lineEnd(last) {
    var own = lines[steps[at].line].steps;
    show(own[last ? own.length - 1 : 0]);
  }
  function enter() {
    var kids = children[at];
    if (kids) return show(lines[kids[0]].steps[0]);
    // On a variation's first ply: the next variation of the same move.
    var line = steps[at].line;
    if (line !== 0 && steps[at].pos === 0) {
      var siblings = children[lines[line].from];
      var next = siblings[(siblings.indexOf(line) + 1) % siblings.length];
      show(lines[next].steps[0]);
    }
  }
  function leave() {
    var line = steps[at].line;
    if (line !== 0) show(lines[line].from);
  }

  var actions = {
    start: function () { lineEnd(false); },
    "previous-ply": function () { lineStep(-1, true); },
    "previous-lap": function () { lineStep(-1, false); },
    "next-lap": function () { lineStep(1, false); },
    "next-ply": function () { lineStep(1, true); },
    end: function () { lineEnd(true); },
    enter: enter,
    leave: leave
  };
  var keys = {
    ArrowLeft: "previous-ply", ArrowRight: "next-ply",
    ArrowUp: "previous-lap", ArrowDown: "next-lap",
    Home: "start", End: "end", v: "enter", V: "enter", Escape: "leave"
  };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    actions[action]();
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-go],[data-step]") : null;
    if (!target) return;
    if (target.hasAttribute("data-go")) actions[target.getAttribute("data-go")]();
    else show(Number(target.getAttribute("data-step")));
  });

  // The evaluation graph: South's seeds ahead after each evaluated ply of
  // the main line, drawn once; a click (or Enter on the focused graph,
  // with the arrow keys moving the board as anywhere) shows the nearest ply.
  var graph = byId("graph");
  var W = 600, H = 120, PAD = 6;
  var evals = data.evals;
  var scale = 1;
  evals.forEach(function (e) { scale = Math.max(scale, Math.abs(e[2])); });
  function gx(ply) { return PAD + (W - 2 * PAD) * (data.plies ? ply / data.plies : 0); }
  function gy(v) { return H / 2 - (H / 2 - PAD) * v / scale; }
  var cursor = null;
  var SVG = "http://www.w3.org/2000/svg";
  function drawCursor() {
    if (!cursor) return;
    var ply = steps[at].line === 0 ? steps[at].ply : null;
    cursor.setAttribute("visibility", ply === null ? "hidden" : "visible");
    if (ply !== null) { cursor.setAttribute("x1", gx(ply)); cursor.setAttribute("x2", gx(ply)); }
  }
  if (evals.length > 0) {
    byId("graph-box").hidden = false;
    var add = function (name, attrs) {
      var el = document.createElementNS(SVG, name);
      for (var key in attrs) el.setAttribute(key, attrs[key]);
      graph.appendChild(el);
      return el;
    };
    add("rect", { x: 0, y: 0, width: W, height: H, "class": "graph-bg" });
    add("rect", { x: 0, y: 0, width: W, height: H / 2, "class": "graph-south" });
    add("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, "class": "graph-zero" });
    add("polyline", {
      "class": "graph-line",
      points: evals.map(function (e) { return gx(e[1]).toFixed(1) + "," + gy(e[2]).toFixed(1); }).join(" ")
    });
    if (evals.length <= 600) evals.forEach(function (e) {
      var dot = add("circle", { cx: gx(e[1]), cy: gy(e[2]), r: 3, "class": "graph-point", "data-step": e[0] });
      var title = document.createElementNS(SVG, "title");
      title.textContent = "ply " + e[1] + ": " + e[3];
      dot.appendChild(title);
    });
    cursor = add("line", { x1: 0, x2: 0, y1: 0, y2: H, "class": "graph-cursor" });
    var nearest = function (ply) {
      var best = evals[0];
      evals.forEach(function (e) { if (Math.abs(e[1] - ply) < Math.abs(best[1] - ply)) best = e; });
      return best[0];
    };
    graph.addEventListener("click", function (event) {
      if (event.target.hasAttribute && event.target.hasAttribute("data-step")) return;
      var box = graph.getBoundingClientRect();
      var x = (event.clientX - box.left) * W / box.width;
      show(nearest(Math.round((x - PAD) / (W - 2 * PAD) * data.plies)));
    });
    graph.addEventListener("keydown", function (event) {
      if (event.key === "Enter") show(nearest(steps[at].ply));
    });
  }

  // The address may pick the first step: #step=N (from 0) or #ply=N; and,
  // for the browser test, #test=KEYS presses keys (R L D U H E V X: right,
  // left, down, up, Home, End, v, Escape; C1 … clicks the graph's point of
  // the first, … evaluation) and logs after each what the board shows,
  // read back from the drawing, into #test-log.
  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (part) {
    var kv = part.split("=");
    if (kv.length === 2) hash[kv[0]] = decodeURIComponent(kv[1]);
  });
  var first = data.start;
  if (hash.step !== undefined) first = Number(hash.step);
  if (hash.ply !== undefined) {
    var own = lines[0].steps;
    for (var j = 0; j < own.length; j++) {
      if (isPlyLevel(own[j]) && steps[own[j]].ply === Number(hash.ply)) { first = own[j]; break; }
    }
  }
  show(first);

  if (hash.test !== undefined) {
    var names = { R: "ArrowRight", L: "ArrowLeft", D: "ArrowDown", U: "ArrowUp", H: "Home", E: "End", V: "v", X: "Escape" };
    var log = [];
    var shown = function () {
      var counts = data.holes.map(function (label) {
        var n = byId("hole-" + label).querySelector(".n").textContent;
        return n === "" ? "x" : n;
      });
      var half = counts.length / 2;
      var stores = ["south", "north"].map(function (side) {
        var store = byId("store-" + side);
        if (store) return store.querySelector("text").textContent;
        return byId("player-" + side).querySelector(".facts").textContent.match(/\d+/)[0];
      });
      return "step " + at + " line " + (steps[at].line ? lines[steps[at].line].name : "main") +
        " ply " + steps[at].ply + " lap " + (steps[at].lap === null ? "-" : steps[at].lap) +
        " south " + counts.slice(0, half).join(",") + " north " + counts.slice(half).join(",") +
        " stores " + stores.join(",");
    };
    log.push(shown());
    hash.test.replace(/C\d+|./g, function (c) {
      if (c.charAt(0) === "C" && c.length > 1) {
        var point = graph.querySelectorAll(".graph-point")[Number(c.slice(1)) - 1];
        if (point) point.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      } else {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: names[c], bubbles: true, cancelable: true }));
      }
      log.push(shown());
      return c;
    });
    var out = document.createElement("pre");
    out.id = "test-log";
    out.textContent = log.join("\n");
    document.body.appendChild(out);
  }
})();
