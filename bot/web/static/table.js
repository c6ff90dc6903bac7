// Draws a table snapshot (bot/web/public.py's public_table) as HTML. Every text goes in as text
// (textContent), never as markup: names are whatever players typed.
"use strict";

window.Tripoley = (function () {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  let ranks = {}; // the engine's rank letters as the page's language writes them (words.ranks)

  function fill(template, facts) {
    return template.replace(/\{(\w+)\}/g, (whole, key) => (key in facts ? String(facts[key]) : whole));
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function cardText(code) {
    const letter = code.slice(0, -1);
    const rank = ranks[letter] || (letter === "T" ? "10" : letter);
    return rank + (SUITS[code.slice(-1)] || code.slice(-1));
  }

  function card(code) {
    const suit = code.slice(-1);
    return el("span", "card " + (suit === "H" || suit === "D" ? "red" : "black"), cardText(code));
  }

  function cardRow(codes) {
    const row = el("span", "cards");
    for (const code of codes) row.append(card(code));
    return row;
  }

  function drawSeats(table, words) {
    const list = el("ul", "seats");
    const acting = new Set(table.acting || []);
    for (const seat of table.seats) {
      const item = el("li", "seat status-" + seat.status);
      if (acting.has(seat.seat)) item.classList.add("acting");
      item.dataset.seat = seat.seat;
      const head = el("div", "seat-head");
      head.append(el("span", "name", seat.name));
      if (seat.is_dealer) head.append(el("span", "tag", words.dealer));
      if (acting.has(seat.seat)) head.append(el("span", "tag acting-tag", words.to_act));
      const status = words["status_" + seat.status];
      if (status) head.append(el("span", "tag", status));
      item.append(head);
      const facts = el("div", "seat-facts");
      facts.append(el("span", "stack", fill(words.stack, { chips: seat.stack })));
      facts.append(el("span", "hand-count", fill(words.cards, { count: seat.cards })));
      if (seat.committed) facts.append(el("span", "committed", fill(words.bet, { chips: seat.committed })));
      item.append(facts);
      if (seat.played && seat.played.length) item.append(cardRow(seat.played));
      list.append(item);
    }
    return list;
  }

  function drawMat(table) {
    const mat = el("ul", "mat");
    for (const space of table.mat) {
      const item = el("li", "space kind-" + space.kind);
      item.dataset.space = space.id;
      item.append(el("span", "label", space.label));
      item.append(el("span", "chips", space.chips));
      mat.append(item);
    }
    return mat;
  }

  function draw(container, table, words) {
    container.replaceChildren();
    if (!table) return;
    ranks = words.ranks || {};
    const top = el("div", "facts");
    top.append(el("span", "fact", fill(words.round, { round: table.round })));
    top.append(el("span", "fact", fill(words.ante, { ante: table.ante })));
    top.append(el("span", "fact", fill(words.pay_suit, { suit: SUITS[table.pay_suit] || table.pay_suit })));
    top.append(el("span", "fact phase", fill(words.phase, { phase: table.phase_title || String(table.phase).replace(/-/g, " ") })));
    container.append(top);
    container.append(drawMat(table));
    container.append(drawSeats(table, words));
    const sequence = (table.michigan && table.michigan.sequence) || [];
    if (sequence.length) {
      const box = el("div", "sequence");
      box.append(el("h3", "", words.sequence));
      box.append(cardRow(sequence));
      container.append(box);
    }
    const showdown = (table.poker && table.poker.showdown) || [];
    if (showdown.length) {
      const box = el("div", "showdown");
      box.append(el("h3", "", words.showdown));
      const names = new Map(table.seats.map((s) => [s.seat, s.name]));
      for (const hand of showdown) {
        const line = el("p", "shown");
        line.append(el("span", "name", names.get(hand.seat)));
        line.append(cardRow(hand.cards));
        line.append(el("span", "hand-name", hand.hand));
        box.append(line);
      }
      container.append(box);
    }
    if (table.spare && table.spare.cards) {
      container.append(el("p", "spare", fill(words.spare, { count: table.spare.cards })));
    }
  }

  function drawLines(list, lines, words) {
    list.replaceChildren();
    for (const line of lines.length ? lines : [words.nothing]) list.append(el("li", "", line));
  }

  return { draw, drawLines, fill, el };
})();
