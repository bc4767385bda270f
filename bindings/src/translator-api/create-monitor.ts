/**
 * The CreateMonitor of the Translator and Language Detector APIs: the object a create() call's
 * `monitor` callback receives, firing `downloadprogress` events while the model downloads and loads.
 * As the spec has them: ProgressEvents with lengthComputable true, total 1, `loaded` a fraction
 * rounded down to a multiple of 1/65536, the first 0 and the last 1, strictly increasing, none after
 * create() settles or its signal aborts.
 */

/** A downloadprogress event: the platform's ProgressEvent where there is one (browsers), else an Event with its fields. */
function progressEvent(loaded: number): Event {
  const init = { lengthComputable: true, loaded, total: 1 };
  const Platform = (globalThis as { ProgressEvent?: new (type: string, init: object) => Event }).ProgressEvent;
  if (Platform) return new Platform('downloadprogress', init);
  return Object.assign(new Event('downloadprogress'), init);
}

/** The EventTarget a `monitor` callback receives. */
export class CreateMonitor extends EventTarget {
  /** The event handler attribute, called as a listener added first would be. */
  ondownloadprogress: ((this: CreateMonitor, event: Event) => unknown) | null = null;

  constructor() {
    super();
    this.addEventListener('downloadprogress', (event) => this.ondownloadprogress?.call(this, event));
  }
}

/** The progress of one create() call, reported through its monitor. */
export class Progress {
  private last = -1;

  constructor(private readonly monitor: CreateMonitor, private readonly signal: AbortSignal | undefined) {}

  /** Reports `fraction` (0..1) done: fires an event when its rounded value passes the last one. */
  report(fraction: number): void {
    if (this.signal?.aborted) return;
    const loaded = fraction >= 1 ? 1 : Math.floor(Math.max(0, fraction) * 0x10000) / 0x10000;
    if (loaded <= this.last) return;
    this.last = loaded;
    this.monitor.dispatchEvent(progressEvent(loaded));
  }
}

/**
 * The monitor for a create() call: made and handed to `callback` (which may add listeners), whose
 * exception, if it throws, create() rejects with.
 */
export function startMonitor(callback: unknown, signal: AbortSignal | undefined): Progress {
  const monitor = new CreateMonitor();
  if (callback !== undefined) {
    if (typeof callback !== 'function') throw new TypeError('monitor must be a function (CreateMonitorCallback)');
    callback(monitor);
  }
  return new Progress(monitor, signal);
}
