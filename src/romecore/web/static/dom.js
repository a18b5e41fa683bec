// What both pages (the table, app.js; the review, review.js) build their DOM with.
"use strict";

const $ = (id) => document.getElementById(id);

// An element with attributes ("class", "on<event>" handlers, others as attributes) and children.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
