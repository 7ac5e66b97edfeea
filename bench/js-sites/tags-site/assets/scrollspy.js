/* global document, window, location, IntersectionObserver */
// A table of contents built from the page's headings, with a scroll-spy: the entry of the section
// in view is marked, and following a TOC link (a hash change) marks it too.
(function () {
  var toc = document.getElementById('toc');
  var headings = Array.prototype.slice.call(
    document.querySelectorAll('#content h2[id], #content h3[id]'),
  );
  var slug = function (s) {
    return s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  };
  document.querySelectorAll('#content h2, #content h3').forEach(function (h) {
    if (!h.id) {
      h.id = slug(h.textContent);
      headings.push(h);
    }
  });
  headings.forEach(function (h) {
    var li = document.createElement('li');
    li.className = h.tagName === 'H3' ? 'sub' : '';
    var a = document.createElement('a');
    a.href = '#' + h.id;
    a.textContent = h.textContent;
    li.appendChild(a);
    toc.appendChild(li);
  });
  function mark(id) {
    toc.querySelectorAll('a').forEach(function (a) {
      a.classList.toggle('active', a.getAttribute('href') === '#' + id);
    });
  }
  window.addEventListener('hashchange', function () {
    mark(decodeURIComponent(location.hash.slice(1)));
  });
  if ('IntersectionObserver' in window) {
    var io = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) mark(e.target.id);
        });
      },
      { rootMargin: '0px 0px -70% 0px' },
    );
    headings.forEach(function (h) {
      io.observe(h);
    });
  }
  if (location.hash) mark(decodeURIComponent(location.hash.slice(1)));
})();
