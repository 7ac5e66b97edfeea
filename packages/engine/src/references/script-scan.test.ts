import { describe, expect, it } from 'vitest';
import { scriptMayBuildContent } from './script-scan.js';

describe('scriptMayBuildContent', () => {
  it.each([
    ['document.getElementById("list").innerHTML = items.map(render).join("")'],
    ['el.appendChild(document.createElement("li"))'],
    ['fetch("/api/items").then((r) => r.json())'],
    ['import("./chunk.js")'],
    ['import { mount } from "./app.js"; mount()'],
    ['createRoot(document.getElementById("root")).render(App)'],
    ['$(".menu").html(markup)'],
    ['document.write("<p>hello</p>")'],
    ['var x = new XMLHttpRequest()'],
    ['eval(code)'],
    ['document["inner" + "HTML"] = s'],
    ['node.textContent = "Loaded"'],
    ['p.append("more text")'],
  ])('says yes for %s', (code) => {
    expect(scriptMayBuildContent(code)).toBe(true);
  });

  it.each([
    ['window.m123 = 123;'],
    ['window.dataLayer = window.dataLayer || []; dataLayer.push({ event: "view" });'],
    ['document.documentElement.dataset.appRan = "yes";'],
    ['document.body.classList.add("js");'],
    [''],
  ])('says no for %s', (code) => {
    expect(scriptMayBuildContent(code)).toBe(false);
  });
});
