// The web app (every game): forms without page reloads, bots moving one by one, replays that play.
// Every page works without this file; it only saves reloads and adds the timers.
"use strict";
(function () {
  let timer = null;

  function flash(message) {
    const box = document.getElementById("flash");
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
  }

  function swap(html, url) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const next = doc.getElementById("page");
    const page = document.getElementById("page");
    if (!next || !page) { window.location.href = url; return; }
    page.replaceWith(next);
    document.title = doc.title;
    if (url && url !== window.location.href) history.pushState({}, "", url);
    init();
  }

  async function load(url, options) {
    clearTimeout(timer);
    let response;
    try {
      response = await fetch(url, Object.assign({ headers: { "X-Requested-With": "fetch" } }, options || {}));
    } catch (error) {
      flash("The server did not answer: " + error);
      return;
    }
    const html = await response.text();
    if (!response.ok) {
      const doc = new DOMParser().parseFromString(html, "text/html");
      const error = doc.getElementById("error");
      // A refused action changes nothing: show why, and the table as it is now.
      const again = await fetch(window.location.href);
      swap(await again.text(), window.location.href);
      flash(error ? error.textContent : "Error " + response.status);
      return;
    }
    swap(html, response.url);
  }

  function submit(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    const pace = new URLSearchParams(window.location.search).get("pace");
    const action = form.getAttribute("action") + (pace !== null ? "?pace=" + encodeURIComponent(pace) : "");
    load(action, { method: "POST", body: new URLSearchParams(data) });
  }

  function paused() { return sessionStorage.getItem("airships-paused") === "1"; }

  function init() {
    clearTimeout(timer);
    document.querySelectorAll("form[data-fetch]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        submit(form, event.submitter);
      });
    });
    document.querySelectorAll("a[data-fetch-link]").forEach(function (link) {
      link.addEventListener("click", function (event) {
        event.preventDefault();
        load(link.href);
      });
    });
    document.querySelectorAll("form[data-fetch-get]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        load("?" + new URLSearchParams(new FormData(form)).toString());
      });
    });
    // Each game's new-game form shows as many opponents and seats as there are players.
    document.querySelectorAll("form.new-game").forEach(function (form) {
      const players = form.querySelector("select[data-players]");
      if (!players) return;
      const update = function () {
        const n = Number(players.value);
        form.querySelectorAll("[data-opponent]").forEach(function (label) {
          label.hidden = Number(label.dataset.opponent) > n - 1;
        });
        form.querySelectorAll("select[name=seat] option").forEach(function (option) {
          option.disabled = Number(option.value) >= n;
          if (option.disabled && option.selected) option.parentElement.value = "0";
        });
      };
      players.addEventListener("change", update);
      update();
    });
    // Hovering a choice rings its place on the board.
    document.querySelectorAll("[data-action][data-target]").forEach(function (button) {
      const places = document.querySelectorAll('svg [data-target="' + button.dataset.target + '"]');
      button.addEventListener("mouseenter", function () { places.forEach(function (p) { p.classList.add("highlight"); }); });
      button.addEventListener("mouseleave", function () { places.forEach(function (p) { p.classList.remove("highlight"); }); });
    });
    // The bots move one by one.
    const advance = document.querySelector("form[data-autoadvance]");
    if (advance) {
      const box = advance.querySelector("[data-pause]");
      if (box) {
        box.checked = paused();
        box.addEventListener("change", function () {
          sessionStorage.setItem("airships-paused", box.checked ? "1" : "0");
          if (!box.checked) init();
          else clearTimeout(timer);
        });
      }
      if (!paused()) timer = setTimeout(function () { submit(advance, null); }, Number(advance.dataset.pace || 700));
    }
    // Replays: play / pause, arrow keys.
    const controls = document.querySelector("[data-replay]");
    const play = document.querySelector("[data-play]");
    if (controls && play) {
      const playing = sessionStorage.getItem("airships-playing") === "1";
      const next = controls.querySelector('a[rel="next"]');
      const atEnd = next && next.getAttribute("aria-disabled") === "true";
      play.textContent = playing && !atEnd ? "⏸ pause" : "▶ play";
      play.addEventListener("click", function () {
        sessionStorage.setItem("airships-playing", playing && !atEnd ? "0" : "1");
        if (playing && !atEnd) { clearTimeout(timer); play.textContent = "▶ play"; }
        else if (next) load(next.href);
      });
      if (playing && !atEnd && next) timer = setTimeout(function () { load(next.href); }, Number(controls.dataset.pace || 700));
      if (atEnd) sessionStorage.setItem("airships-playing", "0");
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.target && /INPUT|SELECT|TEXTAREA/.test(event.target.tagName)) return;
    const rel = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" }[event.key];
    const link = rel && document.querySelector('[data-replay] a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); load(link.href); }
  });
  window.addEventListener("popstate", function () { load(window.location.href); });
  document.addEventListener("DOMContentLoaded", init);
})();
