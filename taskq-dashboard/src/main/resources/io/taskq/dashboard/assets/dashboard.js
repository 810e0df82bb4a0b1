// TaskQ dashboard: live refresh and confirmations. Served from the jar; the content security
// policy allows this file and no inline script. It never builds markup from data: a refresh
// parses the server's own (escaped) page and moves its nodes in.
(function () {
  "use strict";
  var KEY = "taskq.refresh";
  var timer = null;
  var pollTimer = null;

  // A page with a [data-poll] element (a bulk action's run while it runs) refreshes every second,
  // whatever the refresh setting, until the server's page no longer carries it.
  function pollSoon() {
    if (pollTimer === null && document.querySelector("#main [data-poll]")) {
      pollTimer = setTimeout(function () { pollTimer = null; refresh(); }, 1000);
    }
  }

  function busy(main) {
    var active = document.activeElement;
    if (active && main.contains(active) && active.matches("input, select, textarea")) {
      return true;
    }
    return main.querySelector("details[open]") !== null;
  }

  function refresh() {
    var main = document.getElementById("main");
    if (!main || document.hidden || busy(main)) {
      pollSoon();
      return;
    }
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-TaskQ-Refresh": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) { pollSoon(); return; }
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("main");
        if (fresh) {
          main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes).map(function (n) {
            return document.importNode(n, true);
          }));
          main.setAttribute("data-refreshed", String(Date.now()));
        }
        pollSoon();
      })
      .catch(function () { pollSoon(); /* keep the page as it is; the next tick retries */ });
  }

  function schedule(seconds) {
    if (timer) { clearInterval(timer); timer = null; }
    if (seconds > 0) { timer = setInterval(refresh, seconds * 1000); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("refresh");
    var saved = window.localStorage.getItem(KEY);
    var seconds = saved === null ? 5 : parseInt(saved, 10) || 0;
    if (select) {
      select.value = String(seconds);
      select.addEventListener("change", function () {
        window.localStorage.setItem(KEY, select.value);
        schedule(parseInt(select.value, 10) || 0);
      });
    }
    schedule(seconds);
    pollSoon();
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      e.preventDefault();
    }
  });
})();
