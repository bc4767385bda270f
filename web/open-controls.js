// The page's ways to open a model file of one's own: the file picker, a file dropped anywhere on the
// page, and a URL. Each hands the file's bytes to the page's `open(bytes, from)`, which validates
// the model by loading it; the list of opened models has a Remove button per model.

/** Calls `open(bytes, from)` for a picked, dropped or fetched model file; `from` names where it came from. */
export function wireOpenControls(open, showOpenError) {
  const picker = document.getElementById('model-file');
  picker.addEventListener('change', async () => {
    const file = picker.files?.[0];
    picker.value = '';  // the same file may be picked again later
    if (file) await open(new Uint8Array(await file.arrayBuffer()), file.name);
  });
  document.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', async (event) => {
    document.body.classList.remove('dropping');
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    await open(new Uint8Array(await file.arrayBuffer()), file.name);
  });
  const cancel = document.getElementById('model-url-cancel');
  let inFlight = null;
  cancel.addEventListener('click', () => inFlight?.abort());
  document.getElementById('model-url-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const url = document.getElementById('model-url').value.trim();
    inFlight?.abort();
    const controller = inFlight = new AbortController();
    cancel.hidden = false;
    let bytes;
    try {
      bytes = await download(url, controller.signal);
    } catch (e) {
      showOpenError(e.name === 'AbortError' ? `Opening ${url} was cancelled; the model in use stays.` : `Cannot open ${url}: ${e.name === 'TypeError'
        ? 'the page could not download it (offline, or on a site that does not allow cross-origin reads, or not https)'
        : e.message}`);
      return;
    } finally {
      if (inFlight === controller) [inFlight, cancel.hidden] = [null, true];
    }
    await open(bytes, new URL(url, location.href).href);
  });
}

/** How long opening a model by its URL may receive nothing, headers or body, before it stops (ms). */
export const URL_IDLE_MS = 30_000;

// The bytes at `url`, read as they arrive. `signal` (the Cancel button) stops it with an AbortError;
// URL_IDLE_MS without data stops it with an Error that says so.
async function download(url, signal) {
  const idle = new AbortController();
  let timer;
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), URL_IDLE_MS);
  };
  alive();
  try {
    const response = await fetch(url, { signal: AbortSignal.any([signal, idle.signal]) });
    if (!response.ok) {
      const origin = new URL(response.url || url, location.href).origin;  // where a redirect took it
      const elsewhere = origin === new URL(url, location.href).origin ? '' : ` from ${origin}, another server it was redirected to`;
      throw new Error(`HTTP ${response.status}${elsewhere}`);
    }
    const reader = response.body.getReader(), chunks = [];
    for (let { done, value } = await reader.read(); !done; { done, value } = await reader.read()) {
      alive();
      chunks.push(value);
    }
    return new Uint8Array(await new Blob(chunks).arrayBuffer());
  } catch (e) {
    if (idle.signal.aborted && !signal.aborted) throw new Error(`nothing arrived for ${URL_IDLE_MS / 1000} s, so the download stopped`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lists `models` ([{id, label, size, from}]) in the #opened-models list, each with a Remove button
 * that calls onRemove(id).
 */
export function renderOpenedList(models, onRemove) {
  const list = document.getElementById('opened-models');
  list.hidden = models.length === 0;
  list.replaceChildren(...models.map((m) => {
    const item = document.createElement('li');
    item.dataset.model = m.id;
    const name = document.createElement('span');
    name.textContent = `${m.label}, ${(m.size / 1e6).toFixed(1)} MB, from ${m.from.split('/').pop()} `;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', `Remove ${m.label}`);
    remove.addEventListener('click', () => onRemove(m.id));
    item.append(name, remove);
    return item;
  }));
}
