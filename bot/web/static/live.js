// The live table: server-sent events from /api/live/<token>/stream, one snapshot per change; when
// the game is over, a note with the link to its replay.
"use strict";

(function () {
  const root = document.getElementById("live");
  if (!root) return;
  const words = JSON.parse(root.dataset.words);
  const api = root.dataset.api;
  const T = window.Tripoley;
  const status = document.getElementById("status");
  const over = document.getElementById("over");
  const tableBox = document.getElementById("table");
  const logBox = document.getElementById("log");

  function showOver(snapshot) {
    over.replaceChildren(T.el("span", "", snapshot.cancelled ? words.live_cancelled : words.live_over));
    if (snapshot.replay) {
      const link = T.el("a", "replay-link", words.live_replay);
      link.href = snapshot.replay;
      over.append(" ", link);
    }
    over.hidden = false;
    status.textContent = "";
  }

  function render(snapshot) {
    if (snapshot.table) T.draw(tableBox, snapshot.table, words);
    T.drawLines(logBox, snapshot.lines.slice().reverse(), words);
    root.dataset.version = String(snapshot.version === undefined ? "" : snapshot.version);
    if (snapshot.over) showOver(snapshot);
  }

  status.textContent = words.live_waiting;
  const stream = new EventSource(api + "/stream");
  stream.addEventListener("open", () => {
    status.textContent = words.live_connected;
  });
  stream.addEventListener("message", (event) => {
    const snapshot = JSON.parse(event.data);
    render(snapshot);
    if (snapshot.over) stream.close();
  });
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) {
      fetch(api, { credentials: "omit" })
        .then((answer) => (answer.ok ? answer.json() : null))
        .then((snapshot) => snapshot && render(snapshot))
        .catch(() => {});
    } else if (over.hidden) {
      status.textContent = words.live_lost;
    }
  });
})();
