import { describe, expect, it } from 'vitest';
import { mergeAbilities, scriptAbilities, scriptMayBuildContent } from './script-scan.js';

describe('scriptAbilities', () => {
  it.each([
    ['document.getElementById("list").innerHTML = items.map(render).join("")', 'visual'],
    ['el.appendChild(document.createElement("li"))', 'visual'],
    ['fetch("/api/items").then((r) => r.json())', 'requests'],
    ['import("./chunk.js")', 'requests'],
    ['import { mount } from "./app.js"; mount()', 'requests'],
    ['var x = new XMLHttpRequest()', 'requests'],
    ['new Worker("/worker.js")', 'requests'],
    ['const img = new Image(); img.src = "/a.png"', 'requests'],
    ['el.setAttribute("src", url)', 'requests'],
    ['hero.style.backgroundImage = "url(/big.png)"', 'requests'],
    ['new FontFace("Brand", "url(/brand.woff2)")', 'requests'],
    ['link.href = "/late.css"', 'requests'],
    ['style.sheet.insertRule(".a { color: red }")', 'visual'],
    ['document.adoptedStyleSheets = [sheet]', 'visual'],
    ['canvas.getContext("2d").fillRect(0, 0, 9, 9)', 'visual'],
    ['document.write("<p>hello</p>")', 'visual'],
    ['node.textContent = "Loaded"', 'visual'],
    ['p.append("more text")', 'visual'],
    ['history.pushState({}, "", "/next")', 'routing'],
    ['window.addEventListener("popstate", route)', 'routing'],
    ['eval(code)', 'code'],
    ['document["inner" + "HTML"] = s', 'code'],
    ['createRoot(document.getElementById("root")).render(App)', 'code'],
    ['$(".menu").html(markup)', 'code'],
  ])('%s → %s', (code, ability) => {
    expect(scriptAbilities(code)).toContain(ability);
    expect(scriptMayBuildContent(code)).toBe(true);
  });

  it.each([
    ['window.m123 = 123;'],
    ['window.dataLayer = window.dataLayer || []; dataLayer.push({ event: "view" });'],
    // Beacons carry analytics out; nothing comes back that a visitor sees.
    ['addEventListener("pagehide", () => navigator.sendBeacon("/collect", "x"));'],
    ['document.documentElement.dataset.appRan = "yes";'],
    ['document.body.classList.add("js");'],
    ['button.addEventListener("click", () => menu.classList.toggle("open"));'],
    ['if (a.src == b.src) same = true;'],
    // A scroll-spy: marks the section in view, routes nowhere.
    [
      'addEventListener("hashchange", () => spy(location.hash)); ' +
        'onscroll = () => links.forEach((l) => l.classList.toggle("active", inView(l.hash)));',
    ],
    [''],
  ])('nothing for %s', (code) => {
    expect(scriptAbilities(code)).toEqual([]);
    expect(scriptMayBuildContent(code)).toBe(false);
  });

  it('lists every ability once, in a fixed order', () => {
    const code = 'history.replaceState(null, ""); fetch("/x"); el.innerHTML = "y"; fetch("/z")';
    expect(scriptAbilities(code)).toEqual(['requests', 'visual', 'routing']);
    expect(mergeAbilities(['routing'], ['code', 'requests'])).toEqual([
      'requests',
      'routing',
      'code',
    ]);
  });
});
