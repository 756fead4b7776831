// Enhancements for the settings area (docs/settings.md). Every page works without this
// file: it adds copy buttons, confirmation before destructive actions, and live refresh of
// the delivery log. Served as a file so the Content-Security-Policy needs no inline script.

for (const button of document.querySelectorAll('[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', () => {
    const source = document.getElementById(button.getAttribute('data-copy') ?? '');
    if (!source) return;
    const text = 'value' in source ? String(source.value) : (source.textContent ?? '');
    void navigator.clipboard.writeText(text).then(
      () => flash(button, 'Copied'),
      () => flash(button, 'Press Ctrl+C'),
    );
  });
}

function flash(button, text) {
  const label = button.textContent;
  button.textContent = text;
  setTimeout(() => (button.textContent = label), 1500);
}

for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.getAttribute('data-confirm') ?? 'Are you sure?')) event.preventDefault();
  });
}

// The delivery log refreshes itself every few seconds while nothing in it is open and the
// page is visible; the server renders the same list it would on a reload.
const live = document.querySelector('[data-live]');
if (live) {
  const refresh = async () => {
    if (document.hidden || live.querySelector('details[open]') || live.contains(document.activeElement)) return;
    try {
      const response = await fetch(window.location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('[data-live]');
      if (next && next.innerHTML !== live.innerHTML) live.innerHTML = next.innerHTML;
    } catch {
      // Offline or restarting: the next tick tries again.
    }
  };
  setInterval(() => void refresh(), 5000);
}
