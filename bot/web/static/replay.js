// The replay viewer: the steps of a finished game, by buttons, arrow keys, the slider and the
// round menu; ?step=N opens at step N and follows the step shown.
"use strict";

(function () {
  const root = document.getElementById("viewer");
  if (!root) return;
  const words = JSON.parse(root.dataset.words);
  const api = root.dataset.api;
  const T = window.Tripoley;
  const controls = root.querySelector(".controls");
  const slider = document.getElementById("slider");
  const roundMenu = document.getElementById("round");
  const position = document.getElementById("position");
  const tableBox = document.getElementById("table");
  const logBox = document.getElementById("log");
  const chunk = Number(root.dataset.chunk);
  const chunks = new Map(); // first step of a chunk → the promise of its steps
  let summary = null;
  let shown = -1;
  let wanted = 0;

  const labels = { first: "«", back: "‹", forward: "›", last: "»" };
  for (const id of Object.keys(labels)) {
    const button = document.getElementById(id);
    button.textContent = labels[id];
    button.title = words[id];
    button.setAttribute("aria-label", words[id]);
  }

  function load(step) {
    const first = step - (step % chunk);
    if (!chunks.has(first)) {
      const loading = fetch(api + "/steps/" + first, { credentials: "omit" }).then((answer) => {
        if (!answer.ok) throw new Error("steps from " + first + ": " + answer.status);
        return answer.json();
      });
      chunks.set(first, loading);
      loading.catch(() => chunks.delete(first)); // asked again at the next step
    }
    return chunks.get(first).then((data) => data.steps[step - first]);
  }

  async function show(step) {
    step = Math.max(0, Math.min(summary.steps - 1, step));
    wanted = step;
    const data = await load(step);
    if (wanted !== step) return; // a later step was asked for meanwhile
    T.draw(tableBox, data.table, words);
    const lines = data.lines.length || step ? data.lines : [words.start];
    T.drawLines(logBox, lines, words);
    slider.value = String(step);
    position.textContent = T.fill(words.step, { step: step + 1, steps: summary.steps });
    roundMenu.value = String(summary.round_of[step]);
    shown = step;
    root.dataset.step = String(step);
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    window.history.replaceState(null, "", url);
    if (step + chunk < summary.steps) load(step + chunk).catch(() => {}); // the next chunk, ahead
  }

  function go(step) {
    show(step).catch((error) => console.warn(error.message));
  }

  async function start() {
    const answer = await fetch(api, { credentials: "omit" });
    summary = await answer.json();
    slider.max = String(summary.steps - 1);
    roundMenu.append(T.el("option", "", words.jump));
    roundMenu.firstChild.value = "0";
    roundMenu.firstChild.disabled = true;
    for (const r of summary.rounds) {
      const option = T.el("option", "", T.fill(words.round, { round: r.round }));
      option.value = String(r.round);
      option.dataset.step = String(r.step);
      roundMenu.append(option);
    }
    controls.hidden = false;
    document.getElementById("first").addEventListener("click", () => go(0));
    document.getElementById("back").addEventListener("click", () => go(shown - 1));
    document.getElementById("forward").addEventListener("click", () => go(shown + 1));
    document.getElementById("last").addEventListener("click", () => go(summary.steps - 1));
    slider.addEventListener("input", () => go(Number(slider.value)));
    roundMenu.addEventListener("change", () => {
      const option = roundMenu.selectedOptions[0];
      if (option && option.dataset.step) go(Number(option.dataset.step));
    });
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
      if (event.key === "ArrowRight") go(shown + 1);
      else if (event.key === "ArrowLeft") go(shown - 1);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(summary.steps - 1);
      else return;
      event.preventDefault();
    });
    await show(Number(root.dataset.start) || 0);
  }

  start().catch((error) => console.warn(error.message));
})();
