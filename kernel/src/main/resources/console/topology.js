// svc console: draws the topology page's graph with Cytoscape.js from the view's JSON (/ui/topology/graph.json).
// Curated edges are solid, discovered ones dashed; conflicts red, stale edges faded. A node links to its
// dependencies. The table under the drawing lists the same edges for readers without script.
"use strict";
document.addEventListener("DOMContentLoaded", async () => {
  const box = document.getElementById("graph");
  if (!box || !window.cytoscape) {
    return;
  }
  const answer = await fetch(box.getAttribute("data-graph"), {credentials: "same-origin"});
  if (!answer.ok) {
    box.setAttribute("data-rendered-nodes", "error");
    return;
  }
  const elements = await answer.json();
  if (elements.nodes.length === 0) {
    box.hidden = true;
    box.setAttribute("data-rendered-nodes", "0");
    return;
  }
  const dark = matchMedia("(prefers-color-scheme: dark)").matches
    || document.documentElement.getAttribute("data-theme") === "dark";
  const ink = dark ? "#e4e7eb" : "#1b1f24";
  const cy = cytoscape({
    container: box,
    elements: elements,
    layout: {name: elements.nodes.length > 60 ? "cose" : "breadthfirst", directed: true, padding: 20, spacingFactor: 1.1},
    wheelSensitivity: 0.3,
    style: [
      {selector: "node", style: {"label": "data(label)", "color": ink, "font-size": 11, "text-valign": "bottom",
        "text-margin-y": 4, "background-color": "#3b7dd8", "width": 18, "height": 18}},
      {selector: "node[kind = 'start']", style: {"background-color": "#b7791f", "width": 24, "height": 24}},
      {selector: "edge", style: {"label": "data(label)", "font-size": 9, "color": ink, "curve-style": "bezier",
        "target-arrow-shape": "triangle", "width": 1.5, "line-color": "#8a94a3", "target-arrow-color": "#8a94a3",
        "line-style": "dashed", "text-rotation": "autorotate"}},
      {selector: "edge[?curated]", style: {"line-style": "solid"}},
      {selector: "edge[?conflict]", style: {"line-color": "#c53030", "target-arrow-color": "#c53030", "width": 2.5}},
      {selector: "edge[?stale]", style: {"opacity": 0.4}}
    ]
  });
  cy.on("tap", "node", event => {
    location.href = "/ui/topology?query=dependencies&node=" + encodeURIComponent(event.target.data("label"));
  });
  box.setAttribute("data-rendered-nodes", String(cy.nodes().length));
  box.setAttribute("data-rendered-edges", String(cy.edges().length));
});
