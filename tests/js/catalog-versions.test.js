// The shipped catalog's "sha256" and "size" of each model are those of the model file it names: the
// page's service worker keeps a model until its sha256 changes (web/sw.js), the page shows the sizes
// before a download (web/offline.js), and `crossattn download` checks both. A model file re-exported
// without its catalog entry updated fails here, with the values to write.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parseCatalog } from '../../dist/index.js';

const MODELS = fileURLToPath(new URL('../../models/', import.meta.url));

test.each(parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS).map((e) => [`${e.sourceLang}-${e.targetLang}`, e]))(
  'models/catalog.json gives the sha256 and size of the %s model file', (_, entry) => {
    const bytes = readFileSync(entry.model);
    expect({ sha256: entry.sha256, size: entry.size }, `models/catalog.json: ${entry.model}`)
      .toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  });
