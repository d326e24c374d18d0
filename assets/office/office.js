// Arbiter back office: the little script the pages need. Embedded in the binary, loaded from
// this origin only (the Content-Security-Policy allows nothing else), no build step.
//
// * Round floor: when the page names a live stream (data-stream), an EventSource listens to
//   it and, on every event of the round, the rows are fetched again from the server
//   (data-rows) and replaced: the server renders them, the script only swaps them.
// * Game desk: when another tablet (or a board feed) records in the game, the desk follows
//   the game's stream (data-stream): with no form being filled in, it is drawn again at once;
//   with one, a notice says so and nothing typed is lost.
// * "Last event" cells count up between updates.
// * Print buttons.
"use strict";

(function () {
  function elapsedText(ms) {
    var seconds = Math.max(0, Math.floor(ms / 1000));
    if (seconds < 60) return seconds + " s";
    if (seconds < 3600) return Math.floor(seconds / 60) + " min";
    var minutes = Math.floor(seconds / 60) % 60;
    return Math.floor(seconds / 3600) + " h " + (minutes < 10 ? "0" : "") + minutes + " min";
  }

  function tickSince() {
    var now = Date.now();
    document.querySelectorAll("td.since[data-since]").forEach(function (cell) {
      var since = Number(cell.getAttribute("data-since"));
      if (since) cell.textContent = elapsedText(now - since);
    });
  }

  // The kinds of events a game stream names (the event vocabulary), plus the snapshot.
  var EVENT_TYPES = [
    "snapshot", "message", "game_created", "move", "illegal_move", "clock_press", "clock_pause",
    "clock_resume", "clock_adjust", "touch", "draw_offer", "draw_accept", "draw_decline", "claim",
    "flag", "both_flags", "resign", "arbiter_decision", "appeal_lodged", "appeal_decided", "correction",
    "claim_ruled", "penalty_applied", "game_ended"
  ];

  function liveFloor(floor) {
    var streamUrl = floor.getAttribute("data-stream");
    var rowsUrl = floor.getAttribute("data-rows");
    var status = document.getElementById("live");
    if (!streamUrl || !rowsUrl || !window.EventSource) return;
    var pending = null;
    var fetching = false;
    var again = false;

    function setState(state, text) {
      if (!status) return;
      status.setAttribute("data-state", state);
      status.textContent = text;
    }

    function refresh() {
      pending = null;
      if (fetching) { again = true; return; }
      fetching = true;
      fetch(rowsUrl, { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error("rows: " + response.status);
          return response.text();
        })
        .then(function (html) {
          var template = document.createElement("template");
          template.innerHTML = html.trim();
          var rows = template.content.querySelector("tbody");
          var current = document.getElementById("floor-rows");
          if (rows && current) current.replaceWith(rows);
          floor.setAttribute("data-updated", String(Date.now()));
          tickSince();
        })
        .catch(function () { setState("lost", "update failed: reload"); })
        .finally(function () {
          fetching = false;
          if (again) { again = false; schedule(); }
        });
    }

    function schedule() {
      if (pending === null) pending = setTimeout(refresh, 250);
    }

    var source = new EventSource(streamUrl);
    source.onopen = function () { setState("live", "live"); };
    source.onerror = function () {
      setState(source.readyState === EventSource.CLOSED ? "lost" : "connecting", source.readyState === EventSource.CLOSED ? "disconnected: reload" : "reconnecting…");
    };
    EVENT_TYPES.forEach(function (type) {
      source.addEventListener(type, function () { setState("live", "live"); schedule(); });
    });
  }

  function liveDesk(desk) {
    var streamUrl = desk.getAttribute("data-stream");
    var drawnAt = Number(desk.getAttribute("data-seq"));
    var news = document.getElementById("desk-news");
    if (!streamUrl || !window.EventSource) return;
    var typing = false;
    var source = new EventSource(streamUrl);
    desk.querySelectorAll("form.record").forEach(function (form) {
      form.addEventListener("input", function () { typing = true; });
      form.addEventListener("change", function () { typing = true; });
      // A form being sent: this page is leaving, and what it records must not draw it again
      // (that would cancel the answer the form goes to).
      form.addEventListener("submit", function () { typing = true; source.close(); });
    });
    window.addEventListener("pagehide", function () { source.close(); });
    function seen(event) {
      if (!(Number(event.lastEventId) > drawnAt)) return;
      if (!typing) {
        source.close();
        window.location.replace(window.location.pathname);
        return;
      }
      if (news) news.hidden = false;
    }
    EVENT_TYPES.forEach(function (type) { source.addEventListener(type, seen); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var floor = document.getElementById("floor");
    if (floor) liveFloor(floor);
    var desk = document.getElementById("desk");
    if (desk) liveDesk(desk);
    if (document.querySelector("td.since[data-since]")) setInterval(tickSince, 15000);
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
  });
})();
