// The page's Web Worker: the WebAssembly engine runs here, off the main thread.
import { serveTranslator } from '../dist/worker.js';

serveTranslator();
