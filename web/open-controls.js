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
  document.getElementById('model-url-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const url = document.getElementById('model-url').value.trim();
    let bytes;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (e) {
      showOpenError(`Cannot open ${url}: ${e.name === 'TypeError'
        ? 'the page could not download it (offline, or on a site that does not allow cross-origin reads, or not https)'
        : e.message}`);
      return;
    }
    await open(bytes, new URL(url, location.href).href);
  });
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
