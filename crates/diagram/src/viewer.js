// The viewer of one game: shows the step the buttons, the arrow keys or
// the move list ask for, by setting the texts, classes and dots of the one
// board drawing. Every value shown comes from the steps the page carries.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mancala-data").textContent);
  var steps = data.steps;
  var at = 0;

  function byId(id) { return document.getElementById(id); }

  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function isPlyLevel(i) { return steps[i].lap === null; }

  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[at];
    step.holes.forEach(function (h, k) {
      var group = byId("hole-" + data.holes[k]);
      group.setAttribute("class", h[2]);
      setText(group.querySelector(".n"), h[0]);
      setText(group.querySelector(".mark"), h[1]);
      setText(group.querySelector(".lap-ends"), h[3]);
      var seeds = h[0] === "" ? 0 : Number(h[0]);
      var dots = seeds < data.dots.length ? data.dots[seeds] : "";
      var holder = group.querySelector(".dots");
      if (holder.getAttribute("data-seeds") !== String(seeds)) {
        holder.innerHTML = dots;
        holder.setAttribute("data-seeds", String(seeds));
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
    if (step.lap !== null) where += ", lap " + step.lap + " of " + step.laps;
    setText(byId("where"), where + "  (step " + (at + 1) + " of " + steps.length + ")");
    var items = document.querySelectorAll("#moves [data-step]");
    for (var j = 0; j < items.length; j++) {
      var item = items[j];
      var current = Number(item.getAttribute("data-ply")) === step.ply;
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    var current = document.querySelector("#moves [aria-current]");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  function nextPly() {
    for (var j = at + 1; j < steps.length; j++) if (isPlyLevel(j)) return show(j);
    show(steps.length - 1);
  }

  function previousPly() {
    for (var j = at - 1; j >= 0; j--) if (isPlyLevel(j)) return show(j);
    show(0);
  }

  var actions = {
    start: function () { show(0); },
    "previous-ply": previousPly,
    "previous-lap": function () { show(at - 1); },
    "next-lap": function () { show(at + 1); },
    "next-ply": nextPly,
    end: function () { show(steps.length - 1); }
  };
  var keys = {
    ArrowLeft: "previous-ply", ArrowRight: "next-ply",
    ArrowUp: "previous-lap", ArrowDown: "next-lap",
    Home: "start", End: "end"
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

  // The address may pick the first step: #step=N (from 0) or #ply=N; and,
  // for the browser test, #test=KEYS presses keys (R L D U H E: right,
  // left, down, up, Home, End) and logs after each what the board shows,
  // read back from the drawing, into #test-log.
  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (part) {
    var kv = part.split("=");
    if (kv.length === 2) hash[kv[0]] = decodeURIComponent(kv[1]);
  });
  var first = data.start;
  if (hash.step !== undefined) first = Number(hash.step);
  if (hash.ply !== undefined) {
    for (var j = 0; j < steps.length; j++) {
      if (isPlyLevel(j) && steps[j].ply === Number(hash.ply)) { first = j; break; }
    }
  }
  show(first);

  if (hash.test !== undefined) {
    var names = { R: "ArrowRight", L: "ArrowLeft", D: "ArrowDown", U: "ArrowUp", H: "Home", E: "End" };
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
      return "step " + at + " ply " + steps[at].ply + " lap " + (steps[at].lap === null ? "-" : steps[at].lap) +
        " south " + counts.slice(0, half).join(",") + " north " + counts.slice(half).join(",") +
        " stores " + stores.join(",");
    };
    log.push(shown());
    hash.test.split("").forEach(function (c) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: names[c], bubbles: true, cancelable: true }));
      log.push(shown());
    });
    var out = document.createElement("pre");
    out.id = "test-log";
    out.textContent = log.join("\n");
    document.body.appendChild(out);
  }
})();
